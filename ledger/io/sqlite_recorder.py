"""The eventsourcing application recorder of an SQLite store, over whispers' own layout (ledger/io/sqlite_layout.py):
eventsourcing's SQLite recorder with its statements rewritten, named to the library by APPLICATION_RECORDER_TOPIC
(ledger/io/store_sqlite.py), so the application, its aggregates and its notification log work as they did."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from eventsourcing.persistence import DataError, Notification, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor, SQLiteDatastore

from whispers.ledger.core.streams import as_uuid
from whispers.ledger.io.sqlite_layout import EVENTS, LOG, STREAMS, TABLES, TOPICS, originator_of, stream_of


class CompactSQLiteRecorder(SQLiteApplicationRecorder):
    def __init__(self, datastore: SQLiteDatastore, events_table_name: str = EVENTS) -> None:
        super().__init__(datastore, EVENTS)
        self.select_max_notification_id_statement = f"SELECT max(position) FROM {EVENTS}"

    def construct_create_table_statements(self) -> list[str]:
        return list(TABLES)

    def _insert_events(self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **_: object) -> Sequence[int]:
        # Each number looked up inside this transaction, not cached: one taken by a transaction that was then
        # rolled back would name nothing. The first statement writes, so the transaction takes the write lock at
        # once (a read first would have to be upgraded, and SQLite refuses that at once when another has written).
        streams: set[UUID] = set()
        topics: dict[str, int] = {}
        positions = []
        for s in stored_events:
            originator = as_uuid(s.originator_id)
            stream = stream_of(originator)
            if originator not in streams:
                c.execute(f"INSERT OR IGNORE INTO {STREAMS} (id, originator) VALUES (?, ?)", (stream, originator.bytes))
                c.execute(f"SELECT originator FROM {STREAMS} WHERE id = ?", (stream,))
                if originator_of(stream, c.fetchone()[0]) != originator:
                    raise DataError(f"the stream {originator} shares its number with another stream of the store")
                streams.add(originator)
            if s.topic not in topics:
                c.execute(f"SELECT id FROM {TOPICS} WHERE topic = ?", (s.topic,))
                row = c.fetchone()
                if row is None:
                    c.execute(f"INSERT INTO {TOPICS} (topic) VALUES (?)", (s.topic,))
                topics[s.topic] = int(c.lastrowid if row is None else row[0])
            c.execute(f"INSERT INTO {EVENTS} (stream, version, topic, state) VALUES (?, ?, ?, ?)",
                      (stream, s.originator_version, topics[s.topic], s.state))
            positions.append(c.lastrowid)
        return positions

    def select_events(self, originator_id: UUID | str, *, gt: int | None = None, lte: int | None = None,
                      desc: bool = False, limit: int | None = None) -> Sequence[StoredEvent]:
        statement = f"SELECT version, topic, state FROM {LOG} WHERE stream = ? "
        params: list[object] = [stream_of(as_uuid(originator_id))]
        if gt is not None:
            statement += "AND version > ? "
            params.append(gt)
        if lte is not None:
            statement += "AND version <= ? "
            params.append(lte)
        statement += "ORDER BY version DESC " if desc else "ORDER BY version "
        if limit is not None:
            statement += "LIMIT ?"
            params.append(limit)
        with self.datastore.transaction(commit=False) as c:
            c.execute(statement, params)
            return [StoredEvent(originator_id=originator_id, originator_version=version, topic=topic, state=state)
                    for version, topic, state in c.fetchall()]

    def select_notifications(self, start: int | None, limit: int, stop: int | None = None,
                             topics: Sequence[str] = (), *, inclusive_of_start: bool = True
                             ) -> Sequence[Notification]:
        conditions: list[str] = []
        params: list[object] = []
        if start is not None:
            conditions.append("position >= ?" if inclusive_of_start else "position > ?")
            params.append(start)
        if stop is not None:
            conditions.append("position <= ?")
            params.append(stop)
        if topics:
            conditions.append(f"topic IN ({', '.join('?' * len(topics))})")
            params.extend(topics)
        where = f"WHERE {' AND '.join(conditions)} " if conditions else ""
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT position, stream, originator, version, topic, state FROM {LOG} {where}"
                      "ORDER BY position LIMIT ?", [*params, limit])
            return [Notification(id=position, originator_id=_originator(stream, originator),
                                 originator_version=version, topic=topic, state=state)
                    for position, stream, originator, version, topic, state in c.fetchall()]


def _originator(stream: int, stored: object) -> UUID:
    found = originator_of(stream, stored)
    if found is None:  # the store's errors say "damaged" for "malformed"
        raise DataError(f"the stream numbered {stream} is malformed: {stored!r}")
    return found
