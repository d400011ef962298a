"""The eventsourcing application recorder of a PostgreSQL store, over whispers' own layout
(ledger/postgres_layout.py): eventsourcing's PostgreSQL recorder writing one row per append, named to the library by
APPLICATION_RECORDER_TOPIC (ledger/store.py), so the application, its aggregates, its notification log and its
optimistic concurrency work as they did. The store's own reads (`rows`, `many_rows`, `changed_streams`) are here
too, beside the statements that write what they read."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from uuid import UUID

from eventsourcing.persistence import (
    DataError,
    IntegrityError,
    InterfaceError,
    Notification,
    OperationalError,
    StoredEvent,
)
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.utils import retry
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Identifier

from whispers.ledger.postgres_layout import (
    COLUMNS,
    HEAD,
    LOG,
    ROW_EVENTS,
    STREAMS,
    TOPICS,
    first,
    runs,
    tables,
    unpack,
    write,
)
from whispers.ledger.streams import as_uuid

_Row = tuple[int, UUID, int, int, bytes]  # position, stream, version, count, events
_NAMED = ("SELECT a.position, s.stream, a.version, a.count, a.events FROM {log} AS a "
          "JOIN {streams} AS s ON s.id = a.stream")
"""The log's rows with their streams' UUIDs."""
_OF_STREAM = "SELECT " + COLUMNS + " FROM {log} WHERE stream = (SELECT id FROM {streams} WHERE stream = %s)"
"""A stream's rows (its number in place of its UUID)."""
WINDOW = 1000
"""Positions read a statement, reading the log in order (select_notifications)."""


class CompactPostgresRecorder(PostgresApplicationRecorder):
    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = LOG) -> None:
        super().__init__(datastore, events_table_name=LOG)
        self.sql_create_statements = [SQL(statement) for statement in tables(self.datastore.schema)]  # type: ignore[misc]

    def _sql(self, statement: str) -> Any:
        schema = self.datastore.schema
        return SQL(statement).format(log=Identifier(schema, LOG), streams=Identifier(schema, STREAMS),
                                     topics=Identifier(schema, TOPICS), head=Identifier(schema, HEAD))

    # ---------------------------------------------------------------------------------------------------- writing
    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        if not stored_events:
            return []
        with self.datastore.get_connection() as conn, conn.transaction(), conn.cursor(row_factory=tuple_row) as c:
            # every writer in turn, so positions are committed in the order they are given (eventsourcing's lock)
            self._lock_table(c)  # type: ignore[arg-type]
            self._notify_channel(c)  # type: ignore[arg-type]
            c.execute(self._sql("SELECT position FROM {head}"))
            start = int(c.fetchone()[0]) + 1
            # numbers looked up inside this transaction, not cached: one taken by a transaction that was then rolled
            # back would name nothing
            c.execute(self._sql("SELECT topic, id FROM {topics}"))
            numbers: dict[str, int] = dict(c.fetchall())
            rows = [(start + i, as_uuid(e.originator_id), e.originator_version, e.topic, e.state)
                    for i, e in enumerate(stored_events)]
            c.execute(self._sql("SELECT stream, id FROM {streams} WHERE stream = ANY(%s)"),
                      [list({row[1] for row in rows})])
            streams: dict[UUID, int] = dict(c.fetchall())
            appends = [(streams[run[0][1]], run[0][2], run[-1][2]) for run in runs(rows) if run[0][1] in streams]
            # a version already held, in any append of the stream (the unique key sees only an append's first):
            # one the writer has not seen, so its events are refused whole, as eventsourcing's key refused them.
            # A stream's appends never overlap, so only its last append starting at or before `high` can hold one
            # (found by the key: checking every earlier append made a move cost as the game's history grew)
            if appends:
                c.execute(self._sql("SELECT 1 FROM unnest(%s::integer[], %s::integer[], %s::integer[]) "
                                    "AS r(stream, low, high) CROSS JOIN LATERAL (SELECT version, count FROM {log} "
                                    "WHERE stream = r.stream AND version <= r.high ORDER BY version DESC LIMIT 1) AS a "
                                    "WHERE a.version + a.count > r.low LIMIT 1"),
                          [list(column) for column in zip(*appends, strict=True)])
                if c.fetchone() is not None:
                    raise IntegrityError("an event of this version is already stored")
            write(conn, self.datastore.schema, rows, numbers, streams)
        return list(range(start, start + len(stored_events)))

    # ---------------------------------------------------------------------------------------------------- reading
    @contextmanager
    def _reading(self, binary: bool = False) -> Iterator[Any]:
        """A cursor (rows as tuples) in a read transaction: the rows and the topics they name read together."""
        with (self.datastore.get_connection() as conn, conn.transaction(),
              conn.cursor(row_factory=tuple_row, binary=binary) as cursor):
            yield cursor

    def _names(self, cursor: Any) -> dict[int, str]:
        """The topics by number, read again for every read, in its transaction (a few rows): a store replaced or
        restored under a running server numbers its topics in its own order."""
        cursor.execute(self._sql("SELECT id, topic FROM {topics}"), prepare=True)
        return dict(cursor.fetchall())

    def _events(self, rows: Sequence[_Row], cursor: Any, names: dict[int, str] | None = None
                ) -> list[tuple[int, UUID, int, str, bytes]]:
        """Each event of the rows: (position, stream, version, topic, state)."""
        names = self._names(cursor) if names is None else names
        found = []
        for position, stream, version, count, packed in rows:
            with _malformed(position):
                topics, states = unpack(packed, count)
                found.extend((position + i, stream, version + i, names[topic], state)
                             for i, (topic, state) in enumerate(zip(topics, states, strict=True)))
        return found

    def rows(self, originator: UUID, version: int | None = None, since: int | None = None
             ) -> list[tuple[int, str, bytes]]:
        """(version, topic, state) of a stream's events up to `version`, in order; with `since`, only the first
        event and those from `since` on (its first append, then the appends from the one holding `since`)."""
        statement = _OF_STREAM
        params: list[Any] = [originator]
        if version is not None:
            statement += " AND version <= %s"
            params.append(version)
        if since is not None:
            statement = (_OF_STREAM + " AND version = 1 UNION ALL " + statement
                         + " AND version + count > %s AND version > 1")
            params = [originator, *params, since]
        with self._reading() as cursor:
            cursor.execute(self._sql(statement + " ORDER BY version"), params, prepare=True)
            rows = cursor.fetchall()
            names = self._names(cursor)
        found: list[tuple[int, str, bytes]] = []
        for position, _, low, count, packed in rows:
            # only the events wanted made tuples: the first, and those from `since` to `version` (a snapshot's tail
            # can lie at the end of a game imported whole, one append of thousands of events)
            start = 0 if since is None else max(0, since - low)
            stop = count if version is None else min(count, version - low + 1)
            with _malformed(position):
                topics, states = unpack(packed, count)
                if low == 1 and start > 0:
                    found.append((1, names[topics[0]], states[0]))
                found.extend((low + i, names[topics[i]], states[i]) for i in range(start, stop))
        return found

    def many_rows(self, originators: list[UUID]) -> dict[UUID, tuple[list[int], list[str], list[bytes]]]:
        """The events of many streams in one statement, each stream's versions, topics and states in order (each
        append's lists extended, not an object made per event: a cold catalog reads every event of the store)."""
        with self._reading(binary=True) as cursor:
            cursor.execute(self._sql(_NAMED + " WHERE s.stream = ANY(%s) ORDER BY a.stream, a.version"),
                           [originators])
            rows = cursor.fetchall()
            names = self._names(cursor)
        found: dict[UUID, tuple[list[int], list[str], list[bytes]]] = {}
        for position, stream, version, count, packed in rows:
            versions, topics, states = found.setdefault(stream, ([], [], []))
            with _malformed(position):
                numbers, stored = unpack(packed, count)
                topics.extend([names[number] for number in numbers])
            versions.extend(range(version, version + count))
            states.extend(stored)
        return found

    def changed_streams(self, after: int, kinds: Sequence[str]) -> list[tuple[UUID, int, int | None, str | None,
                                                                             bytes | None]]:
        """The streams of the given kinds (the topic of their first events) with events after position `after`, in
        the order of their first such event: (stream, its last position, then its first event's position, topic
        and state, or None when the store holds no first event for it)."""
        with self._reading() as cursor:
            cursor.execute(self._sql("SELECT id FROM {topics} WHERE topic = ANY(%s)"), [list(kinds)])
            numbers = [number for (number,) in cursor.fetchall()]
            cursor.execute(self._sql(
                "SELECT s.stream, changed.last, created.position, created.events FROM (SELECT stream, "
                "min(position) AS first, max(position + count - 1) AS last FROM {log} "
                # the appends after `after`, and the one that holds it (within ROW_EVENTS before it: the BRIN index
                # finds them by a range)
                "WHERE position > %s AND position + count - 1 > %s GROUP BY stream) AS changed "
                "JOIN {streams} AS s ON s.id = changed.stream AND s.topic = ANY(%s) "
                "LEFT JOIN {log} AS created ON created.stream = changed.stream AND created.version = 1 "
                "ORDER BY changed.first"), [after - ROW_EVENTS, after, numbers])
            rows = cursor.fetchall()
            names = self._names(cursor)
            found = []
            for stream, last, created, packed in rows:
                if created is None:
                    found.append((stream, last, None, None, None))
                    continue
                with _malformed(created):
                    number, state = first(packed)
                    found.append((stream, last, created, names[number], state))
        return found

    # ------------------------------------------------------------------------------- eventsourcing's interface
    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_events(self, originator_id: UUID | str, *, gt: int | None = None, lte: int | None = None,
                      desc: bool = False, limit: int | None = None) -> Sequence[StoredEvent]:
        # each row selected holds at least one event in range, so `limit` rows hold at least `limit` events
        statement = _OF_STREAM
        params: list[Any] = [as_uuid(originator_id)]
        if gt is not None:
            statement += " AND version + count - 1 > %s"
            params.append(gt)
        if lte is not None:
            statement += " AND version <= %s"
            params.append(lte)
        statement += " ORDER BY version DESC" if desc else " ORDER BY version"
        if limit is not None:
            statement += " LIMIT %s"
            params.append(limit)
        with self._reading() as cursor:
            cursor.execute(self._sql(statement), params, prepare=True)
            events = self._events(cursor.fetchall(), cursor)
        selected = [StoredEvent(originator_id=originator_id, originator_version=version, topic=topic, state=state)
                    for _, _, version, topic, state in events
                    if (gt is None or version > gt) and (lte is None or version <= lte)]
        if desc:
            selected.sort(key=lambda e: -e.originator_version)
        return selected if limit is None else selected[:limit]

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_notifications(self, start: int | None, limit: int, stop: int | None = None,
                             topics: Sequence[str] = (), *, inclusive_of_start: bool = True
                             ) -> Sequence[Notification]:
        low = 1 if start is None else start if inclusive_of_start else start + 1
        found: list[Notification] = []
        with self._reading() as cursor:
            cursor.execute(self._sql("SELECT position FROM {head}"))
            end = int(cursor.fetchone()[0])
            end = end if stop is None else min(stop, end)
            names = self._names(cursor)
            # WINDOW positions at a time, from the append that holds `low` on (a range the BRIN index finds);
            # with topics, events are filtered here
            window = low
            while len(found) < limit and window <= end:
                cursor.execute(self._sql(_NAMED + " WHERE a.position > %s AND a.position < %s ORDER BY a.position"),
                               [window - ROW_EVENTS, window + WINDOW], prepare=True)
                for at, stream, version, topic, state in self._events(cursor.fetchall(), cursor, names):
                    if max(low, window) <= at <= end and at < window + WINDOW and (not topics or topic in topics):
                        found.append(Notification(id=at, originator_id=stream, originator_version=version,
                                                  topic=topic, state=state))
                window += WINDOW
        return found[:limit]

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def max_notification_id(self) -> int | None:
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as cursor:
            cursor.execute(self._sql("SELECT position FROM {head}"))
            row = cursor.fetchone()
        return None if row is None or not row[0] else int(row[0])


@contextmanager
def _malformed(position: int) -> Iterator[None]:
    """An append whose events cannot be read, or that names a topic the store does not hold, is damage."""
    try:
        yield
    except (ValueError, KeyError) as e:
        raise DataError(f"the append at position {position} is malformed: {e}") from None
