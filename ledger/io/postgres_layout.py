"""How a PostgreSQL store lays out its events: one row per append of one stream, its events packed in that row, the
stream named by a number.

eventsourcing's own table took a row per event: 43 KB a 4-player game, where issue 12 asks for at most 16. Each
PostgreSQL row costs 28 bytes of tuple header and line pointer before its data, and each B-tree entry 20 or more
again, so a row per event could not come under about 25 KB however small its columns. Here an append (a move and
its consequences, or a whole game imported) is one row, a stream's id and a topic are each written once, and the
log's order is indexed by a BRIN index (a few pages for the whole log) rather than a B-tree:

    whispers_topics  (id, topic)               an event class's topic, once
    whispers_streams (id, stream, topic)       a stream's UUID, once, with its number and its first event's topic
                                               (which says what kind of stream it is: a game, its notes, content)
    whispers_log     (position, stream, version, count, events)
                                               events `position` .. `position + count - 1` of the log: the
                                               stream's versions `version` .. `version + count - 1`, packed
                                               (msgpack: [[topic numbers], [states]])
    whispers_head    (position)                one row: the log's last position (0 for an empty store)

An event's position in the log is its append's position plus its index in the append, so the log still numbers
events one by one, as the read models track it. (stream, version) is unique: every head a writer can have read
ends an append, so two writers appending after the same head both write an append at the next version, and the
second is refused, as eventsourcing's optimistic concurrency expects. Writers take their turns under a lock of the
log (eventsourcing's), so positions are committed in order and rows lie in the heap in the log's order: what a BRIN
index of block ranges needs to find a position. An append holds at most ROW_EVENTS events, so the row holding a
position lies at most ROW_EVENTS - 1 positions before it.

Where the bytes go, for a 4-player game recorded move by move (about 116 appends of about 60 bytes of events):
a row of about 104 bytes and its (stream, version) entry of 20; a UUID in each row and a B-tree of positions took 24
KB a game (the layout before this one, `whispers_appends`), this one about 15.

`ledger/io/postgres_recorder.py` writes this layout for the eventsourcing application; `ledger/io/postgres_reads.py`
reads it, for the recorder and for the store (ledger/io/store_postgres.py), which reads on its opening connection
until it writes. A store in an earlier layout (eventsourcing's `whispers_events`, or `whispers_appends` with a
stream's UUID in each row) is migrated in place the first time it is opened: one transaction moves every event to
its own position.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Final
from uuid import UUID

import msgpack

if TYPE_CHECKING:
    from psycopg import Connection, Cursor
    from psycopg.rows import DictRow, TupleRow

LOG: Final = "whispers_log"
STREAMS: Final = "whispers_streams"
TOPICS: Final = "whispers_topics"
HEAD: Final = "whispers_head"
COLUMNS: Final = "position, stream, version, count, events"
ROW_EVENTS: Final = 256
"""The most events a row holds: a longer append (a game imported whole) takes several rows, so that bringing a
snapshot up to date, which reads the row holding the snapshot's version, reads at most this many events however
long the game (a 5,000-event game imported as one row made each of its first moves after the import read all of
them)."""
OLD_EVENTS: Final = "whispers_events"
"""eventsourcing's table, in stores written before whispers' own layouts."""
OLD_APPENDS: Final = "whispers_appends"
"""The layout before this one: a row per append as here, but with its stream's UUID and first topic in each row and a
B-tree of positions (24 KB a 4-player game recorded move by move)."""
BLOCKS_A_RANGE: Final = 16
"""Heap pages summarised by one entry of the BRIN index of positions: finding a position reads at most this many
pages (about 1,200 appends), and the index of a log of two million events is a few pages."""


def tables(schema: str) -> list[str]:
    """The statements that make the layout's tables in `schema` (a name checked by the store's URL parser)."""
    return [
        f"CREATE TABLE IF NOT EXISTS {schema}.{TOPICS} (id smallint PRIMARY KEY, topic text NOT NULL UNIQUE)",
        f"CREATE TABLE IF NOT EXISTS {schema}.{STREAMS} (id integer PRIMARY KEY, stream uuid NOT NULL UNIQUE, "
        "topic smallint NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS {schema}.{LOG} (position bigint NOT NULL, stream integer NOT NULL, "
        # fillfactor 100: a stream's entries are only ever added after its last, so a page split there leaves
        # nothing to fill later
        "version integer NOT NULL, count integer NOT NULL, events bytea NOT NULL, "
        "UNIQUE (stream, version) WITH (fillfactor = 100))",
        # autosummarize: a block range is summarised as soon as it is full, not at the next vacuum (a range not yet
        # summarised is read whole by every search)
        f"CREATE INDEX IF NOT EXISTS {LOG}_position ON {schema}.{LOG} USING brin (position) "
        f"WITH (pages_per_range = {BLOCKS_A_RANGE}, autosummarize = on)",
        f"CREATE TABLE IF NOT EXISTS {schema}.{HEAD} (position bigint NOT NULL)",
        f"INSERT INTO {schema}.{HEAD} (position) SELECT 0 WHERE NOT EXISTS (SELECT FROM {schema}.{HEAD})",
    ]


def pack(events: Iterable[tuple[int, bytes]]) -> bytes:
    """An append's events, each (topic number, stored state): msgpack of [[topic numbers], [states]]."""
    pairs = list(events)
    return msgpack.packb([[topic for topic, _ in pairs], [state for _, state in pairs]], use_bin_type=True)


def unpack(packed: bytes, count: int) -> tuple[list[int], list[bytes]]:
    """An append's topic numbers and states, or ValueError when its bytes are not `count` of them (damage)."""
    try:
        events = msgpack.unpackb(packed, raw=False, use_list=True)
    except Exception as e:  # msgpack raises several kinds on malformed bytes
        raise ValueError(f"unreadable events ({type(e).__name__})") from None
    if not (isinstance(events, list) and len(events) == 2 and isinstance(events[0], list)
            and isinstance(events[1], list) and len(events[0]) == len(events[1]) == count):
        raise ValueError(f"its events are not the {count} it says it holds")
    topics, states = events
    if count and not ({*map(type, topics)} == {int} and {*map(type, states)} == {bytes}):
        raise ValueError("its events are not topic numbers and states")
    return topics, states


def first(packed: bytes) -> tuple[int, bytes]:
    """An append's first event, its others left unread (a game imported whole is one append), or ValueError."""
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(packed)
    try:
        if unpacker.read_array_header() != 2:
            raise ValueError("its events are not topic numbers and states")
        topics = unpacker.read_array_header()
        if topics < 1:
            raise ValueError("it holds no event")
        topic = unpacker.unpack()
        for _ in range(topics - 1):
            unpacker.skip()
        if unpacker.read_array_header() != topics:
            raise ValueError("its events are not topic numbers and states")
        state = unpacker.unpack()
    except ValueError:
        raise
    except Exception as e:  # msgpack raises several kinds on malformed bytes
        raise ValueError(f"unreadable events ({type(e).__name__})") from None
    if type(topic) is not int or type(state) is not bytes:
        raise ValueError("its first event is not one")
    return topic, state


def runs(rows: Iterable[tuple[int, UUID, int, str, bytes]], longest: int = ROW_EVENTS
         ) -> Iterator[list[tuple[int, UUID, int, str, bytes]]]:
    """eventsourcing's rows (notification id, originator, version, topic, state), in the log's order, cut into
    appends: runs of one stream at consecutive positions and versions, of at most `longest` events."""
    run: list[tuple[int, UUID, int, str, bytes]] = []
    for row in rows:
        if run and not (row[1] == run[-1][1] and row[0] == run[-1][0] + 1 and row[2] == run[-1][2] + 1
                        and len(run) < longest):
            yield run
            run = []
        run.append(row)
    if run:
        yield run


def migrate(conn: Connection[TupleRow], schema: str) -> bool:
    """Moves the events of an earlier layout's table in `schema` (eventsourcing's, or this layout's before streams
    were numbered) into this layout, in one transaction on `conn` (a psycopg connection in autocommit mode, holding
    the store's opening lock), when there is one; returns whether the store now has this layout's tables (a new
    store has none yet). Each event keeps its position, stream, version, topic and state; the old table is dropped
    only once every one of them is found in the new. Raises ValueError, with the table left as it was, when it
    cannot be moved."""
    old, appends, new = _one(conn.execute(
        "SELECT to_regclass(%s) IS NOT NULL, to_regclass(%s) IS NOT NULL, to_regclass(%s) IS NOT NULL",
        [f"{schema}.{OLD_EVENTS}", f"{schema}.{OLD_APPENDS}", f"{schema}.{LOG}"]))
    if new or not (old or appends):
        return bool(new)
    table = f"{schema}.{OLD_APPENDS if appends else OLD_EVENTS}"
    with conn.transaction():
        # no writer of an earlier version may add to it meanwhile
        conn.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
        if appends:
            total = _one(conn.execute(f"SELECT coalesce(sum(count), 0) FROM {table}"))[0]
        else:
            total, untyped = _one(conn.execute(f"SELECT count(*), count(*) FILTER (WHERE topic IS NULL OR state IS "
                                               f"NULL) FROM {table}"))
            if untyped:
                raise ValueError(f"{untyped} of its {total} events have no topic or state")
        for statement in tables(schema):
            conn.execute(statement)
        numbers: dict[str, int] = dict(conn.execute(f"SELECT topic, id FROM {schema}.{TOPICS}").fetchall())
        with conn.cursor(name="whispers_migration") as cursor:
            cursor.itersize = 10_000
            if appends:
                cursor.execute(f"SELECT position, stream, version, count, events FROM {table} ORDER BY position")
                write(conn, schema, _events_of_appends(cursor, {n: t for t, n in numbers.items()}), numbers, {})
            else:
                cursor.execute(f"SELECT notification_id, originator_id, originator_version, topic, state "
                               f"FROM {table} ORDER BY notification_id")
                write(conn, schema, cursor, numbers, {})
        moved = _one(conn.execute(f"SELECT coalesce(sum(count), 0) FROM {schema}.{LOG}"))[0]
        if moved != total:
            raise ValueError(f"{total - moved} of its {total} events could not be moved")
        conn.execute(f"DROP TABLE {table}")
    return True


def _one(cursor: Cursor[TupleRow]) -> TupleRow:
    """The row of a query that gives one whatever the tables hold (a count, a sum)."""
    row = cursor.fetchone()
    assert row is not None
    return row


def _events_of_appends(rows: Iterable[tuple[int, UUID, int, int, bytes]], names: dict[int, str]
                       ) -> Iterator[tuple[int, UUID, int, str, bytes]]:
    """The events of the earlier layout's appends as eventsourcing's rows (position, stream, version, topic,
    state), or ValueError naming an append that cannot be read."""
    for position, stream, version, count, packed in rows:
        try:
            topics, states = unpack(packed, count)
            named = [names[topic] for topic in topics]
        except (ValueError, KeyError) as e:
            raise ValueError(f"the append at position {position} is malformed: {e}") from None
        yield from ((position + i, stream, version + i, topic, state)
                    for i, (topic, state) in enumerate(zip(named, states, strict=True)))


def write(conn: Connection[TupleRow | DictRow], schema: str, rows: Iterable[tuple[int, UUID, int, str, bytes]],
          numbers: dict[str, int], streams: dict[UUID, int]) -> None:
    """Writes eventsourcing's rows (notification id, originator, version, topic, state), in the log's order, as
    appends, each event at its own position, and moves the head past them. `numbers` are the topics' numbers and
    `streams` the streams' numbers the store holds (as many as the rows need, or none); a topic or stream not among
    them is numbered after the store's and written too."""
    insert = f"INSERT INTO {schema}.{LOG} ({COLUMNS}) VALUES (%s, %s, %s, %s, %s)"
    batch: list[tuple[int, int, int, int, bytes]] = []
    last, numbered = 0, None
    with conn.cursor() as writer:
        for run in runs(rows):
            for _, _, _, topic, _ in run:
                if topic not in numbers:
                    numbers[topic] = max(numbers.values(), default=0) + 1
                    writer.execute(f"INSERT INTO {schema}.{TOPICS} (id, topic) VALUES (%s, %s)",
                                   [numbers[topic], topic])
            position, stream, version, topic, _ = run[0]
            if stream not in streams:
                if numbered is None:
                    writer.execute(f"SELECT coalesce(max(id), 0) AS n FROM {schema}.{STREAMS}")
                    row = writer.fetchone()  # a dict on eventsourcing's connections, else a tuple
                    assert row is not None  # a max() gives a row
                    numbered = int(row["n"] if isinstance(row, dict) else row[0])
                numbered += 1
                streams[stream] = numbered
                writer.execute(f"INSERT INTO {schema}.{STREAMS} (id, stream, topic) VALUES (%s, %s, %s)",
                               [numbered, stream, numbers[topic]])
            batch.append((position, streams[stream], version, len(run),
                          pack((numbers[t], bytes(state)) for _, _, _, t, state in run)))
            last = max(last, position + len(run) - 1)
            if len(batch) >= 1000:  # a store's whole log is not held in memory at once
                writer.executemany(insert, batch)
                batch = []
        if batch:
            writer.executemany(insert, batch)
        if last:
            writer.execute(f"UPDATE {schema}.{HEAD} SET position = greatest(position, %s)", [last])
