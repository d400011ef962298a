"""The eventsourcing application recorder of a PostgreSQL store, over whispers' own layout
(ledger/io/postgres_layout.py): eventsourcing's PostgreSQL recorder writing one row per append, named to the library
by APPLICATION_RECORDER_TOPIC (ledger/io/store_postgres.py), so the application, its aggregates, its notification log
and its optimistic concurrency work as they did. It reads through ledger/io/postgres_reads.py, as the store does."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TypeVar, cast
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
from psycopg import Cursor
from psycopg.rows import TupleRow, tuple_row
from psycopg.sql import SQL, Composed, Identifier

from whispers.ledger.core.streams import as_uuid
from whispers.ledger.io import postgres_reads as reads
from whispers.ledger.io.postgres_layout import HEAD, LOG, STREAMS, TOPICS, runs, tables, write

_T = TypeVar("_T")


class CompactPostgresRecorder(PostgresApplicationRecorder):
    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = LOG) -> None:
        super().__init__(datastore, events_table_name=LOG)
        self.sql_create_statements = [SQL(statement) for statement in tables(self.datastore.schema)]  # type: ignore[misc]

    def _sql(self, statement: str) -> Composed:
        schema = self.datastore.schema
        return SQL(statement).format(log=Identifier(schema, LOG), streams=Identifier(schema, STREAMS),
                                     topics=Identifier(schema, TOPICS), head=Identifier(schema, HEAD))

    # ---------------------------------------------------------------------------------------------------- writing
    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: object) -> Sequence[int] | None:
        if not stored_events:
            return []
        with self.datastore.get_connection() as conn, conn.transaction(), conn.cursor(row_factory=tuple_row) as c:
            # every writer in turn, so positions are committed in the order they are given (eventsourcing's lock)
            self._lock_table(c)  # type: ignore[arg-type]
            self._notify_channel(c)  # type: ignore[arg-type]
            c.execute(self._sql("SELECT position FROM {head}"))
            start = int(cast("tuple[int]", c.fetchone())[0]) + 1  # the head table holds one row
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
    def _reading(self, binary: bool = False) -> Iterator[Cursor[TupleRow]]:
        """A cursor (rows as tuples) in a read transaction: the rows and the topics they name read together. An
        append that cannot be read is eventsourcing's DataError."""
        with (self.datastore.get_connection() as conn, conn.transaction(),
              conn.cursor(row_factory=tuple_row, binary=binary) as cursor):
            try:
                yield cursor
            except reads.Malformed as e:
                raise DataError(str(e)) from None

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def read(self, read: Callable[..., _T], *args: object, binary: bool = False) -> _T:
        """One of ledger.postgres_reads' reads, on the pool, retried as eventsourcing's own reads are."""
        with self._reading(binary) as cursor:
            return read(cursor, self.datastore.schema, *args)

    # ------------------------------------------------------------------------------- eventsourcing's interface
    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_events(self, originator_id: UUID | str, *, gt: int | None = None, lte: int | None = None,
                      desc: bool = False, limit: int | None = None) -> Sequence[StoredEvent]:
        # each row selected holds at least one event in range, so `limit` rows hold at least `limit` events
        schema = self.datastore.schema
        statement = reads.of_stream(schema)
        params: list[object] = [as_uuid(originator_id)]
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
            cursor.execute(statement, params, prepare=True)
            found = reads.events(cursor.fetchall(), reads.names(cursor, schema))
        selected = [StoredEvent(originator_id=originator_id, originator_version=version, topic=topic, state=state)
                    for _, _, version, topic, state in found
                    if (gt is None or version > gt) and (lte is None or version <= lte)]
        if desc:
            selected.sort(key=lambda e: -e.originator_version)
        return selected if limit is None else selected[:limit]

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_notifications(self, start: int | None, limit: int, stop: int | None = None,
                             topics: Sequence[str] = (), *, inclusive_of_start: bool = True
                             ) -> Sequence[Notification]:
        low = 1 if start is None else start if inclusive_of_start else start + 1
        with self._reading() as cursor:
            found = reads.in_order(cursor, self.datastore.schema, low, limit, stop, topics)
        return [Notification(id=at, originator_id=stream, originator_version=version, topic=topic, state=state)
                for at, stream, version, topic, state in found]

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def max_notification_id(self) -> int | None:
        with self._reading() as cursor:
            return reads.head(cursor, self.datastore.schema) or None
