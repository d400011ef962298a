"""How a PostgreSQL store lays out its events: one row per append of one stream, its events packed in that row.

eventsourcing's own table took a row per event: 43 KB a 4-player game, where issue 12 asks for at most 16. Each
PostgreSQL row costs 28 bytes of tuple header and line pointer before its data, and each index entry as much
again, so a row per event could not come under about 25 KB however small its columns. Here an append (a move and
its consequences, or a whole game imported) is one row, and a topic is written once, in a table of its own:

    whispers_topics  (id, topic)               an event class's topic, once
    whispers_appends (position, stream, version, count, topic, events)
                                               events `position` .. `position + count - 1` of the log: the
                                               stream's versions `version` .. `version + count - 1`, packed
                                               (msgpack: [[topic numbers], [states]]); `topic` is the first
                                               event's, which says what kind of stream it is

An event's position in the log is its append's position plus its index in the append, so the log still numbers
events one by one, as the read models track it. (stream, version) is unique: every head a writer can have read
ends an append, so two writers appending after the same head both write an append at the next version, and the
second is refused, as eventsourcing's optimistic concurrency expects.

`ledger/postgres_recorder.py` writes and reads this layout for the eventsourcing application; the store reads it
directly (ledger/store.py). A store in eventsourcing's layout (`whispers_events`, written by mains before this one)
is migrated in place the first time it is opened: one transaction moves every event to its own position.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Final
from uuid import UUID

import msgpack

APPENDS: Final = "whispers_appends"
TOPICS: Final = "whispers_topics"
COLUMNS: Final = "position, stream, version, count, topic, events"
ROW_EVENTS: Final = 256
"""The most events a row holds: a longer append (a game imported whole) takes several rows, so that bringing a
snapshot up to date, which reads the row holding the snapshot's version, reads at most this many events however
long the game (a 5,000-event game imported as one row made each of its first moves after the import read all of
them)."""
OLD_EVENTS: Final = "whispers_events"
"""eventsourcing's table, in stores written before this layout."""


def tables(schema: str) -> list[str]:
    """The statements that make the layout's tables in `schema` (a name checked by the store's URL parser)."""
    return [
        f"CREATE TABLE IF NOT EXISTS {schema}.{TOPICS} (id smallint PRIMARY KEY, topic text NOT NULL UNIQUE)",
        f"CREATE TABLE IF NOT EXISTS {schema}.{APPENDS} (position bigint PRIMARY KEY, stream uuid NOT NULL, "
        "version integer NOT NULL, count integer NOT NULL, topic smallint NOT NULL, events bytea NOT NULL, "
        f"UNIQUE (stream, version))",
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


def runs(rows: Iterable[tuple[int, Any, int, str, bytes]], longest: int = ROW_EVENTS
         ) -> Iterator[list[tuple[int, Any, int, str, bytes]]]:
    """eventsourcing's rows (notification id, originator, version, topic, state), in the log's order, cut into
    appends: runs of one stream at consecutive positions and versions, of at most `longest` events."""
    run: list[tuple[int, Any, int, str, bytes]] = []
    for row in rows:
        if run and not (row[1] == run[-1][1] and row[0] == run[-1][0] + 1 and row[2] == run[-1][2] + 1
                        and len(run) < longest):
            yield run
            run = []
        run.append(row)
    if run:
        yield run


def migrate(conn: Any, schema: str) -> bool:
    """Moves the events of eventsourcing's table in `schema` into this layout, in one transaction on `conn` (a
    psycopg connection in autocommit mode, holding the store's opening lock), when there is one; returns whether the
    store now has this layout's tables (a new store has none yet). Each event keeps its position, stream, version,
    topic and state; the old table is dropped only once every one of them is found in the new. Raises ValueError,
    with the table left as it was, when it cannot be moved."""
    old, new = conn.execute("SELECT to_regclass(%s) IS NOT NULL, to_regclass(%s) IS NOT NULL",
                            [f"{schema}.{OLD_EVENTS}", f"{schema}.{APPENDS}"]).fetchone()
    if not old or new:
        return bool(new)
    with conn.transaction():
        # no writer of an earlier version may add to it meanwhile
        conn.execute(f"LOCK TABLE {schema}.{OLD_EVENTS} IN ACCESS EXCLUSIVE MODE")
        total, untyped = conn.execute(f"SELECT count(*), count(*) FILTER (WHERE topic IS NULL OR state IS NULL) "
                                      f"FROM {schema}.{OLD_EVENTS}").fetchone()
        if untyped:
            raise ValueError(f"{untyped} of its {total} events have no topic or state")
        for statement in tables(schema):
            conn.execute(statement)
        with conn.cursor(name="whispers_migration") as cursor:
            cursor.itersize = 10_000
            cursor.execute(f"SELECT notification_id, originator_id, originator_version, topic, state "
                           f"FROM {schema}.{OLD_EVENTS} ORDER BY notification_id")
            write(conn, schema, cursor, {})
        moved = conn.execute(f"SELECT coalesce(sum(count), 0) FROM {schema}.{APPENDS}").fetchone()[0]
        if moved != total:
            raise ValueError(f"{total - moved} of its {total} events could not be moved")
        conn.execute(f"DROP TABLE {schema}.{OLD_EVENTS}")
    return True


def write(conn: Any, schema: str, rows: Iterable[tuple[int, Any, int, str, bytes]], numbers: dict[str, int]) -> None:
    """Writes eventsourcing's rows (notification id, originator, version, topic, state), in the log's order, as
    appends, each event at its own position; `numbers` are the topics' numbers the store holds, and a topic not
    among them is numbered after them and written too."""
    insert = f"INSERT INTO {schema}.{APPENDS} ({COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s)"
    batch: list[tuple[int, UUID, int, int, int, bytes]] = []
    with conn.cursor() as writer:
        for run in runs(rows):
            for _, _, _, topic, _ in run:
                if topic not in numbers:
                    numbers[topic] = max(numbers.values(), default=0) + 1
                    writer.execute(f"INSERT INTO {schema}.{TOPICS} (id, topic) VALUES (%s, %s)",
                                   [numbers[topic], topic])
            position, stream, version, topic, _ = run[0]
            batch.append((position, stream, version, len(run), numbers[topic],
                          pack((numbers[t], bytes(state)) for _, _, _, t, state in run)))
            if len(batch) >= 1000:  # a store's whole log is not held in memory at once
                writer.executemany(insert, batch)
                batch = []
        if batch:
            writer.executemany(insert, batch)
