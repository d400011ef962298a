"""An SQLite store: a file in our own layout (ledger/io/sqlite_layout.py), read with plain sqlite3 connections until
something needs the event store application (a write, the log's notifications), which is opened then.

sqlite3 is imported where a store is SQLite's: a PostgreSQL store never loads the driver.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, cast
from uuid import UUID

from whispers.ledger.core.errors import StoreError
from whispers.ledger.core.streams import GAME_CREATED, GAME_RECORDED, game_id
from whispers.ledger.core.words import say
from whispers.ledger.io import sqlite_layout
from whispers.ledger.io.sqlite_layout import EVENTS, LOG, STREAMS, TOPICS, stream_of
from whispers.ledger.io.store_backend import (
    Backend,
    PlainSQLite,
    Rows,
    SQLCursor,
    fingerprint_of,
    one_line,
    state_decoder,
    values,
)

if TYPE_CHECKING:
    import sqlite3

    from whispers.ledger.io.eventstore import EventStore

SQLITE_LOCK_TIMEOUT = 5
"""Seconds to wait for another writer's lock."""


class SQLiteBackend(Backend):
    def __init__(self, path: Path) -> None:
        self.file = str(path)
        super().__init__(str(path), {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "APPLICATION_RECORDER_TOPIC": "whispers.ledger.io.sqlite_recorder:CompactSQLiteRecorder",
            "SQLITE_DBNAME": str(path),
            "SQLITE_LOCK_TIMEOUT": str(SQLITE_LOCK_TIMEOUT),
            # No table-creation statements (and their write transaction) at every opening: only for a new store.
            "CREATE_TABLE": "y" if not _has_events(path) else "n",
        })
        self._index_checked = self._table_checked = False
        if self.env["CREATE_TABLE"] != "n":  # a new store's tables made
            with self.translated():
                try:
                    self.open_event_store()
                except BaseException:
                    self.close()
                    raise

    def open_event_store(self) -> EventStore:
        """The event store application, its writes refused on a damaged log as every read by the index is."""
        app = super().open_event_store()
        self.check_log()
        return app

    @contextmanager
    def reading(self, by_index: bool = True) -> Iterator[sqlite3.Cursor]:
        """A cursor (rows as tuples) in a read transaction: on the event store's connections once it is open, else
        on a plain connection of this thread's own. A command that only reads games never imports eventsourcing
        (a sixth of `status`). Before the first read that may go by the (game, version) index (`by_index`), the
        log is checked (`check_log`): not at opening, so a command that reads only read models and rows by their
        position (a tournament's standings from the catalog, nothing new in the log) never counts the index, a
        tenth of its time in a store of 10,000 games."""
        self.refuse_closed()
        if by_index and not self._index_checked:
            with self.translated():
                self.check_log()
        if self.app is not None:
            with self.app.recorder.datastore.transaction(commit=False) as cursor:  # type: ignore[attr-defined]
                plain = cursor.sqlite_cursor
                plain.row_factory = None
                yield plain
            return
        db = getattr(self.readers, "db", None)
        if db is None:
            import sqlite3

            db = sqlite3.connect(self.file, timeout=SQLITE_LOCK_TIMEOUT, isolation_level=None,
                                 check_same_thread=False)
            self.readers.db = db
            with self.opening:
                self.reader_connections.append(db)
        with PlainSQLite(db).transaction(commit=False) as cursor:
            yield cursor

    def check_log(self, whole: bool = False) -> None:
        """The log numbers events 1, 2, 3... and never deletes one, so each number up to the highest must be
        found. Before the first read by the index (`reading`), the count reads the (game, version) index by which
        games are read, so a damaged index shows even when it is consistent with itself; once per opening (a
        catalog's catch-up counted 10,000 games' index again, 28 ms, in the same command). With `whole`, once,
        before the log itself is scanned (the list of games, changes), the table is counted too: that reads every
        page, as the scan does anyway."""
        if self._table_checked if whole else self._index_checked:
            return
        with self.reading(by_index=False) as cursor:
            # the topics' table numbers its rows 1, 2, 3... too, and holds nothing but topics: a damaged page there
            # would make events name a topic that is not found, or another (a stream's row is checked as it is read:
            # it holds its own number, in its id's first bytes)
            cursor.execute(f"SELECT count(*) FROM {TOPICS} NOT INDEXED WHERE typeof(topic) != 'text' "
                           "OR topic NOT LIKE '%_:_%'")
            if cursor.fetchone()[0]:
                raise StoreError(say("the store {store} is damaged: its table {table} holds rows that are not "
                                     "topics", store=self.url, table=TOPICS))
            for table, key in ((EVENTS, "position"), (TOPICS, "id")):
                whole_table = f"(SELECT count(*) FROM {table} NOT INDEXED)" if whole else "NULL"
                cursor.execute(f"SELECT (SELECT count(*) FROM {table}), (SELECT max({key}) FROM {table}), "
                               f"{whole_table}")
                found, recorded, in_table = cursor.fetchone()
                if whole and in_table != found:
                    found = in_table
                if found == (recorded or 0):
                    continue
                if table == EVENTS:
                    raise StoreError(say("the store {store} is damaged: its log runs to event {recorded} but {found} "
                                         "are found", store=self.url, recorded=recorded, found=found))
                raise StoreError(say("the store {store} is damaged: its table {table} runs to row {recorded} but "
                                     "{found} are found", store=self.url, table=table, recorded=recorded,
                                     found=found))
        self._index_checked = True
        self._table_checked = self._table_checked or whole

    def rows(self, originator: UUID, version: int | None, since: int | None = None) -> Rows:
        """Selected directly: eventsourcing's own select makes a UUID and a record object per row, which cost as
        much as decoding it."""
        stream = stream_of(originator)
        statement = f"SELECT version, topic, state FROM {LOG} WHERE stream = ? "
        params: list[object] = [stream]
        if version is not None:
            statement += "AND version <= ? "
            params.append(version)
        if since is not None:
            # the first event, then a range from `since`: two lookups of the key (with an OR, SQLite walks the
            # stream's every row, so a snapshot's tail cost as much as the whole record)
            statement = (f"SELECT version, topic, state FROM {LOG} WHERE stream = ? AND version = 1 "
                         f"UNION ALL {statement}AND version >= ? AND version > 1 ")
            params = [stream, *params, since]
        # rows as tuples as they come: a sqlite3.Row per event, then a tuple of it, cost a third
        with self.reading() as cursor:
            cursor.execute(statement + "ORDER BY version", params)
            return cursor.fetchall()

    def many_states(self, originators: list[UUID]) -> dict[UUID, list[bytes]]:
        # A statement per stream, in one transaction: each row's state and whether it is a game's start, and its
        # first and last versions looked up apart (in the index alone, another path than the rows' own): as many
        # rows as the last version, each under a version of its own from 1, are 1, 2, 3... with no gap. (The
        # index's entries counted, or min and max asked in one aggregate, read every entry again: a tenth of the
        # rows' read.) The rows' versions and topics read one by one, or every row read by one statement with its
        # stream's id to be grouped by it again, cost more than the decoding of the events.
        states: dict[UUID, list[bytes]] = {}
        with self.reading() as cursor:
            for key in originators:
                stream = stream_of(key)
                cursor.execute(f"SELECT state, topic = ? FROM {LOG} WHERE stream = ? ORDER BY version",
                               (GAME_CREATED, stream))
                rows = cursor.fetchall()
                cursor.execute(f"SELECT (SELECT min(version) FROM {EVENTS} WHERE stream = ?1), "
                               f"(SELECT max(version) FROM {EVENTS} WHERE stream = ?1)", (stream,))
                low, high = cursor.fetchone()
                starts = [start for _, start in rows]
                if rows and high == len(rows) and low == 1 and starts[0] == 1 and 1 not in starts[1:]:
                    states[key] = [state for state, _ in rows]
        return states

    def version(self, name: str) -> int:
        with self.reading() as cursor:
            cursor.execute(f"SELECT max(version) FROM {EVENTS} WHERE stream = ?", (stream_of(game_id(name)),))
            (version,) = cursor.fetchone()
        if version is None:
            raise self.unknown(name)
        return int(version)

    def holds_after(self, position: int) -> bool:
        """By the log's number (the rowid): one look-up, not the (game, version) index."""
        with self.reading(by_index=False) as cursor:
            cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {EVENTS} WHERE position > ?)", (position,))
            return bool(cursor.fetchone()[0])

    def changed_games(self, after: int, limit: int) -> tuple[int, dict[str, int | None]]:
        """In one statement: the games with facts after `after`, each beside its first event (whose position says
        whether it was created since, and whose state holds its name). A catalog built afresh over 10,000 games
        made a notification object with a UUID for each of their two million events, then asked for each game's
        first event on its own."""
        decode = state_decoder().decode
        created_topic, recorded_topic = GAME_CREATED, GAME_RECORDED
        # after a position, the rows after it by their position: left to itself SQLite groups by walking the whole
        # (game, version) index, 0.23 s over 10,000 games for nothing new; from the start the index is cheaper
        source = f"{EVENTS} NOT INDEXED" if after else EVENTS
        with self.reading() as cursor:
            games = None if after else self.every_game(cursor)
            if games is None:  # each game beside its first event, joined in the same statement
                cursor.execute(
                    f"SELECT changed.stream, s.originator, changed.last, created.position, t.topic, created.state FROM "
                    f"(SELECT stream, min(position) AS first, max(position) AS last FROM {source} "
                    f"WHERE position > ? AND topic IN (SELECT id FROM {TOPICS} WHERE topic IN (?, ?)) "
                    f"GROUP BY stream) AS changed LEFT JOIN {STREAMS} AS s ON s.id = changed.stream "
                    f"LEFT JOIN {EVENTS} AS created ON created.stream = changed.stream AND created.version = 1 "
                    f"LEFT JOIN {TOPICS} AS t ON t.id = created.topic ORDER BY changed.first",
                    (after, created_topic, recorded_topic))
                games = [cast("tuple[int, bytes, int, int, str, bytes]", values(row)) for row in cursor.fetchall()]
        position = max([after, *(last for _, _, last, _, _, _ in games)])
        changed: dict[str, int | None] = {}
        for stream, game, _, created, topic, state in games:
            if topic != created_topic:  # no first event (or another stream's) under the game's id
                raise self.no_first_event(self.uuid(stream, game))
            changed[decode(state)["name"]] = created if created > after else None
        return position, changed

    @staticmethod
    def every_game(cursor: sqlite3.Cursor) -> list[tuple[int, bytes, int, int, str, bytes]] | None:
        """`changed_games` from the start of the log: every game's first event, in the order the games were
        created, in one pass over the table; grouping every event by its game (and reading each event's topic
        through the index) cost a cold catalog a tenth of its time. Each game's `last` is given as the log's last
        game event (it only sets the position read). None, for the grouping to say which, when a stream has no
        first event or a game's first is not a game's start: damage."""
        created_topic, recorded_topic = GAME_CREATED, GAME_RECORDED
        cursor.row_factory = None
        cursor.execute(f"SELECT stream, originator, position, topic, state FROM {LOG} WHERE version = 1 "
                       "ORDER BY position")
        firsts = cursor.fetchall()
        cursor.execute(f"SELECT count(DISTINCT stream) FROM {EVENTS}")
        if cursor.fetchone()[0] != len(firsts) or any(topic == recorded_topic for _, _, _, topic, _ in firsts):
            return None
        cursor.execute(f"SELECT position FROM {LOG} WHERE topic IN (?, ?) ORDER BY position DESC LIMIT 1",
                       (created_topic, recorded_topic))
        row = cursor.fetchone()
        last = 0 if row is None else int(row[0])
        return [(stream, game, last, position, topic, state) for stream, game, position, topic, state in firsts
                if topic == created_topic]

    def fingerprint(self, position: int) -> str | None:
        # the log's position is the event row's (as eventsourcing's rowid numbered it)
        with self.translated(), self.reading(by_index=False) as cursor:  # a row by its position, not the index
            row = cursor.execute(f"SELECT stream, originator, version, topic, state FROM {LOG} WHERE position = ?",
                                 (position,)).fetchone()
        if row is None:
            return None
        stream, originator, version, topic, state = row
        return fingerprint_of(position, self.uuid(stream, originator), version, topic, state)

    def uuid(self, stream: int, stored: object) -> UUID:
        """A stream's id as the store keeps it, under its number; anything else is damage."""
        found = sqlite_layout.originator_of(stream, stored)
        if found is None:
            raise StoreError(say("the store {store} is damaged: {message}", store=self.url,
                                 message=f"the stream numbered {stream} is malformed: {stored!r}"))
        return found

    @contextmanager
    def read_model_reading(self) -> Iterator[SQLCursor | None]:
        """A plain read transaction: reading a snapshot or the catalog opens no event store application, and no
        write transaction to look for the tables."""
        with self.reading(by_index=False) as cursor:
            yield cursor


def _has_events(path: Path) -> bool:
    """Whether the file is an SQLite database that holds the events table already (anything else: let the
    event store's own opening create it, or fail with its reason). A store in eventsourcing's own layout, written
    by an earlier whispers, is migrated to ours first (ledger/io/sqlite_layout.py)."""
    import sqlite3

    try:
        if not path.is_file() or path.stat().st_size == 0:
            return False
        db = sqlite3.connect(str(path), timeout=SQLITE_LOCK_TIMEOUT, isolation_level=None)
    except (OSError, sqlite3.Error):
        return False
    try:
        found = sqlite_layout.tables(db)
        if sqlite_layout.OLD_EVENTS in found:
            try:
                sqlite_layout.migrate(db)
            except sqlite3.Error as e:
                raise StoreError(say("cannot bring the store {store} to this version's layout: {message}",
                                     store=str(path), message=one_line(e))) from None
    except sqlite3.Error:
        return False
    finally:
        db.close()
    return bool(found)
