"""How an SQLite store lays out its events: each event a row of small integers and its compressed state.

eventsourcing's own SQLite table repeated, in every event's row and again in its index entry, the stream's id as 32
hexadecimal characters and the event's topic as about 28: 30 KB of a 4-player game's 31, beside its 4.6 KB of
states (issue 12: at most 16 KB a game). Here a stream's id and a topic are each written once, in a table of their
own, and an event names them by number. A stream's number is its id's first 8 bytes, so a game is read by the one
index of its events, as before (a lookup table's index, damaged, would make a game look missing, not damaged):

    whispers_streams (id, originator)          a stream's 16-byte UUID, once, under its first 8 bytes
    whispers_topics  (id, topic)               an event class's topic, once
    whispers_events  (position, stream, version, topic, state)
                                               position is the log's number (the rowid, as eventsourcing's
                                               table numbered it); (stream, version) is unique
    whispers_log                               a view of the events as eventsourcing's table showed them

`ledger/io/sqlite_recorder.py` writes and reads this layout for the eventsourcing application; the store reads it
with plain sqlite3 through the view. A store written in eventsourcing's layout (`stored_events`, by mains before
this one) is migrated in place the first time it is opened: one transaction copies every row under its own
position, so a read model's tracked position and fingerprint still name the same event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final
from uuid import UUID

if TYPE_CHECKING:  # the driver is the store's to import: a PostgreSQL store never loads it
    import sqlite3

EVENTS: Final = "whispers_events"
STREAMS: Final = "whispers_streams"
TOPICS: Final = "whispers_topics"
LOG: Final = "whispers_log"
"""The view the store reads: (position, stream, originator BLOB, version, topic TEXT, state)."""
OLD_EVENTS: Final = "stored_events"
"""eventsourcing's table, in stores written before this layout."""

TABLES: Final = (
    f"CREATE TABLE IF NOT EXISTS {STREAMS} (id INTEGER PRIMARY KEY, originator BLOB NOT NULL)",
    f"CREATE TABLE IF NOT EXISTS {TOPICS} (id INTEGER PRIMARY KEY, topic TEXT NOT NULL)",  # a few rows: no index
    f"CREATE TABLE IF NOT EXISTS {EVENTS} (position INTEGER PRIMARY KEY, stream INTEGER NOT NULL, "
    "version INTEGER NOT NULL, topic INTEGER NOT NULL, state BLOB NOT NULL)",
    f"CREATE UNIQUE INDEX IF NOT EXISTS {EVENTS}_by_stream ON {EVENTS} (stream, version)",
    f"CREATE VIEW IF NOT EXISTS {LOG} (position, stream, originator, version, topic, state) AS "
    f"SELECT e.position, e.stream, s.originator, e.version, t.topic, e.state FROM {EVENTS} AS e "
    # LEFT: an event whose stream or topic is missing (damage) shows with a NULL there, not vanishes from the log
    f"LEFT JOIN {STREAMS} AS s ON s.id = e.stream LEFT JOIN {TOPICS} AS t ON t.id = e.topic",
)


def stream_of(originator: UUID) -> int:
    """A stream's number: its id's first 8 bytes, as SQLite's signed 64-bit integer. Two ids that share them (one
    chance in 2**64 a pair) are refused when the second is first written, never mixed."""
    return _number(originator.bytes)


def originator_of(stream: int, stored: object) -> UUID | None:
    """A stream's id as its row holds it, or None if the row is not that stream's (damage)."""
    if not isinstance(stored, bytes) or len(stored) != 16:
        return None
    found = UUID(bytes=stored)
    return found if stream_of(found) == stream else None


def tables(db: sqlite3.Connection | sqlite3.Cursor) -> set[str]:
    """Which of the events tables, old and new, the database holds."""
    rows = db.execute(f"SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('{EVENTS}', '{OLD_EVENTS}')")
    return {name for (name,) in rows.fetchall()}


def migrate(db: sqlite3.Connection) -> bool:
    """Moves the events of eventsourcing's table into this layout, in one write transaction (another process
    opening the store at the same moment waits, then finds it done); returns whether there was anything to move.
    The old table is dropped in the same transaction, and the file compacted after it."""
    if OLD_EVENTS not in tables(db):
        return False
    db.execute("BEGIN IMMEDIATE")
    try:
        if OLD_EVENTS not in tables(db):  # another process migrated it while this one waited
            db.execute("ROLLBACK")
            return False
        for statement in TABLES:
            db.execute(statement)
        db.create_function("whispers_uuid_bytes", 1, _uuid_bytes, deterministic=True)
        db.create_function("whispers_stream", 1, _stream_of_stored, deterministic=True)
        db.execute(f"INSERT INTO {STREAMS} (id, originator) SELECT whispers_stream(originator_id), "
                   f"whispers_uuid_bytes(originator_id) FROM {OLD_EVENTS} GROUP BY originator_id")
        db.execute(f"INSERT INTO {TOPICS} (topic) SELECT topic FROM {OLD_EVENTS} WHERE topic IS NOT NULL "
                   "GROUP BY topic ORDER BY min(rowid)")
        db.execute(f"INSERT INTO {EVENTS} (position, stream, version, topic, state) "
                   f"SELECT o.rowid, whispers_stream(o.originator_id), o.originator_version, t.id, o.state "
                   f"FROM {OLD_EVENTS} AS o JOIN {TOPICS} AS t ON t.topic = o.topic ORDER BY o.rowid")
        (moved,), (held,) = (db.execute(f"SELECT count(*) FROM {table} NOT INDEXED").fetchone()
                             for table in (EVENTS, OLD_EVENTS))
        if moved != held:  # a row without a topic joins none: never dropped unseen
            from sqlite3 import DatabaseError

            raise DatabaseError(f"{held - moved} of its {held} events have no topic")
        db.execute(f"DROP TABLE {OLD_EVENTS}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("VACUUM")
    return True


def _number(stored: bytes) -> int:
    return int.from_bytes(stored[:8].ljust(8, b"\0"), "big", signed=True)


def _stream_of_stored(originator_id: str | bytes | None) -> int:
    return _number(_uuid_bytes(originator_id))


def _uuid_bytes(originator_id: str | bytes | None) -> bytes:
    """eventsourcing wrote a UUID as 32 hexadecimal characters; anything else under that name is damage, kept as
    it was found (as text's bytes) for the store's checks to report."""
    if originator_id is None:
        return b""
    if isinstance(originator_id, str):
        try:
            return bytes.fromhex(originator_id) if len(originator_id) == 32 else originator_id.encode()
        except ValueError:
            return originator_id.encode()
    return bytes(originator_id) if isinstance(originator_id, bytes) else str(originator_id).encode()
