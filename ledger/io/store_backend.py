"""What every kind of store does the same way: the `Backend` the `Store` facade (ledger/io/store.py) reads and writes
through, with the event store application opened when first needed, its errors said in one line, and the
event store library's own reads, which a kind of store replaces where its layout reads faster
(ledger/io/store_sqlite.py, ledger/io/store_postgres.py; ledger/io/store_memory.py keeps them all).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from functools import cache
from typing import TYPE_CHECKING, Protocol, TypeAlias
from uuid import UUID

from whispers.ledger.core.errors import StoreError, StoreUnavailable, UnknownGame
from whispers.ledger.core.streams import GAME_CREATED, GAME_RECORDED, game_id
from whispers.ledger.core.words import say

if TYPE_CHECKING:
    import sqlite3
    from types import ModuleType

    from psycopg import Connection
    from psycopg.rows import TupleRow

    from whispers.ledger.io.eventstore import EventStore
    from whispers.ledger.io.transcoder import MsgpackTranscoder


@cache
def state_decoder() -> MsgpackTranscoder:
    """Decodes a stored state as eventsourcing's mapper would (the same transcoder), for the store's own reads.
    Made at the first read of a stored event: a read of the catalog alone (a tournament's standings) never
    imports the transcoder (zlib-ng, the event types)."""
    from whispers.ledger.io.transcoder import MsgpackTranscoder

    return MsgpackTranscoder()


Rows = list[tuple[int, str, bytes]]
"""A stream's rows as read: (version, topic, stored state)."""

Row: TypeAlias = Sequence[object] | Mapping[str, object]
"""A row as a driver gives it: a tuple (sqlite3, psycopg's tuple rows) or a dict (eventsourcing's psycopg rows)."""


class SQLCursor(Protocol):
    """What the store's own statements use of a DB-API cursor: sqlite3's or psycopg's."""

    def execute(self, query: str, params: Sequence[object] = ..., /) -> object: ...

    def executemany(self, query: str, params_seq: Iterable[Sequence[object]], /) -> object: ...

    def fetchone(self) -> Row | None: ...

    def fetchall(self) -> Sequence[Row]: ...


class Datastore(Protocol):
    """A database that gives a cursor in a transaction, committed if asked: eventsourcing's datastores (SQLite's,
    PostgreSQL's), `PlainSQLite`, store_postgres.PlainPostgres."""

    def transaction(self, commit: bool) -> AbstractContextManager[SQLCursor]: ...


def records() -> ModuleType:
    """The aggregates' module (ledger/io/records.py), imported the first time the store writes or decodes a stored
    event the eventsourcing way: a command that only reads a game never defines them."""
    from whispers.ledger.io import records

    return records


def one_line(error: BaseException | str) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def whole_stream(numbers: list[int], topics: list[str]) -> bool:
    """Whether a game's rows, by their versions and topics, are whole: numbered 1, 2, 3... with no gap or repeat,
    the first a game's start and no other (compared at C speed, as lists)."""
    return (numbers == list(range(1, len(numbers) + 1)) and bool(topics) and topics[0] == GAME_CREATED
            and GAME_CREATED not in topics[1:])


def values(row: Row | None) -> tuple[object, ...]:
    """A row as a tuple, whether the driver gives tuples (sqlite3) or dicts (eventsourcing's psycopg rows); a
    TypeError for no row (what a query that always gives one, a count, did not give)."""
    if isinstance(row, dict):
        return tuple(row.values())
    if row is None:
        raise TypeError("no row")
    return tuple(row)


def fingerprint_of(position: int, originator: UUID | str, version: int, topic: str, state: bytes) -> str:
    """`Store.fingerprint` of the event stored at `position`."""
    from whispers.ledger.core.digests import sha256

    digest = sha256(f"{position}:{originator}:{version}:{topic}:".encode())
    digest.update(state)
    return digest.hexdigest()


class PlainSQLite:
    """The transaction protocol of eventsourcing's datastores, over a plain sqlite3 connection."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    @contextmanager
    def transaction(self, commit: bool) -> Iterator[sqlite3.Cursor]:
        cursor = self.db.cursor()
        cursor.execute("BEGIN")
        try:
            yield cursor
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT" if commit else "ROLLBACK")


class Wakeup:
    """Waits for a store's NOTIFY (PostgreSQL), or just pauses (SQLite, memory: the caller polls the log)."""

    def __init__(self, conn: Connection[TupleRow] | None) -> None:
        self._conn = conn
        self.listening = conn is not None

    def wait(self, timeout: float) -> bool:
        """Blocks up to `timeout` seconds; True if another process said it stored something."""
        if self._conn is None:
            time.sleep(timeout)
            return False
        heard = False
        try:
            for _ in self._conn.notifies(timeout=timeout, stop_after=1):
                heard = True
        except Exception:  # a lost connection: the caller polls the log anyway
            time.sleep(timeout)
        return heard

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()


class Backend:
    """One store's connections and its reads below the games' meaning. A kind of store subclasses it, replacing
    the event store library's reads (kept here) with its own where they are faster."""

    url: str
    """Where the store is (a PostgreSQL URL without its password), for messages."""
    concurrent_writes: bool = False
    """Whether writers in one process should go at once (PostgreSQL queues them itself); SQLite's writers
    would wait in its busy handler's growing sleeps instead."""
    version_read_apart: bool = True
    """Whether a game's read is checked against its last version looked up apart (Store._checked)."""
    read_model_prefix: str = ""
    placeholder: str = "?"
    """The read-model tables' schema prefix and the driver's parameter marker (ledger/io/store_read_models.py)."""

    def __init__(self, url: str, env: dict[str, str]) -> None:
        self.url = url
        self.env = dict(env)
        self.app: EventStore | None = None
        self.closed = False
        self.opening = threading.Lock()
        self.readers = threading.local()
        self.reader_connections: list[sqlite3.Connection | Connection[TupleRow]] = []
        """Each thread's plain connection (sqlite3, or psycopg), closed with the store."""

    def bind(self) -> Callable[[object], None] | None:
        """What the event store application calls with its datastore when it opens (ledger/io/eventstore.py)."""
        return None

    def open_event_store(self) -> EventStore:
        from whispers.ledger.io.eventstore import EventStore

        self.app = EventStore(env=self.env, bind=self.bind())
        return self.app

    @property
    def events(self) -> EventStore:
        """The event store application, opened the first time it is needed."""
        self.refuse_closed()
        if self.app is None:
            with self.opening, self.translated():  # two threads of a server asking at once open one
                if self.app is None:
                    self.open_event_store()
        assert self.app is not None
        return self.app

    def refuse_closed(self) -> None:
        if self.closed:
            raise StoreError(say("the store {store} is closed", store=self.url))

    def close(self) -> None:
        self.closed = True
        if self.app is not None:
            self.app.close()
            self.app = None
        with self.opening:
            for db in self.reader_connections:
                db.close()
            self.reader_connections.clear()

    # ------------------------------------------------------------------------------ reads, the library's own way

    def check_log(self, whole: bool = False) -> None:
        """Checks that the store's log is whole where its layout can tell (ledger/io/store_sqlite.py)."""

    def holds_after(self, position: int) -> bool:
        """Whether the log may hold anything after `position` (True where asking costs as much as reading it)."""
        return True

    def rows(self, originator: UUID, version: int | None, since: int | None = None) -> Rows:
        """(version, topic, state) of a stream's events up to `version`, in order; with `since`, only the first
        event and those from `since` on."""
        recorder = self.events.recorder
        if since is not None:
            first = recorder.select_events(originator, lte=1)
            later = recorder.select_events(originator, gt=max(since - 1, 1), lte=version)
            return [(item.originator_version, item.topic, item.state) for item in [*first, *later]]
        return [(item.originator_version, item.topic, item.state)
                for item in recorder.select_events(originator, lte=version)]

    def many_states(self, originators: list[UUID]) -> dict[UUID, list[bytes]]:
        """The stored states of many games' streams at once, each in order from its first, for the streams found
        whole: numbered 1, 2, 3... with no gap to the last version the store says it holds, the first a game's
        start and no other. A stream that is not is left out, for the caller to read on its own (which names what
        is wrong with it)."""
        found = {key: ([number for number, _, _ in rows], [topic for _, topic, _ in rows],
                       [state for _, _, state in rows])
                 for key in originators if (rows := self.rows(key, None))}
        return self.whole_states(found)

    @staticmethod
    def whole_states(found: dict[UUID, tuple[list[int], list[str], list[bytes]]]) -> dict[UUID, list[bytes]]:
        return {key: states for key, (numbers, topics, states) in found.items() if whole_stream(numbers, topics)}

    def last(self, originator: UUID) -> tuple[int, bytes] | None:
        """A stream's last event (its version and stored state), or None if the store holds none of it."""
        last = self.events.recorder.select_events(originator, desc=True, limit=1)
        return (last[0].originator_version, last[0].state) if last else None

    def version(self, name: str) -> int:
        """The game's last version (UnknownGame if the store holds none)."""
        last = self.last(game_id(name))
        if last is None:
            raise self.unknown(name)
        return last[0]

    def changed_games(self, after: int, limit: int) -> tuple[int, dict[str, int | None]]:
        """`Store.changed_games`, once the log is checked."""
        changed: dict[UUID | str, int | None] = {}
        position = after
        recorder = self.events.recorder
        while batch := recorder.select_notifications(position, limit, topics=[GAME_CREATED, GAME_RECORDED],
                                                     inclusive_of_start=False):
            for n in batch:
                if n.originator_version == 1:
                    changed[n.originator_id] = n.id
                else:
                    changed.setdefault(n.originator_id, None)
            position = batch[-1].id
        return position, {self.name_of(game): created for game, created in changed.items()}

    def head(self) -> int:
        return self.events.recorder.max_notification_id() or 0

    def fingerprint(self, position: int) -> str | None:
        """`Store.fingerprint` of a position from 1 on."""
        notified = self.events.recorder.select_notifications(position, 1, stop=position)
        if not notified or notified[0].id != position:
            return None
        n = notified[0]
        return fingerprint_of(position, n.originator_id, n.originator_version, n.topic, n.state)

    def name_of(self, game: UUID | str) -> str:
        created = self.events.recorder.select_events(game, lte=1, limit=1)
        record = records().GameRecord  # defined before its stored event is decoded
        event = self.events.mapper.to_domain_event(created[0]) if created else None
        if not isinstance(event, record.Created):
            raise self.no_first_event(game)
        return event.name

    # ------------------------------------------------------------------------------ read models, notifications

    @contextmanager
    def read_model_reading(self) -> Iterator[SQLCursor | None]:
        """A cursor to read the read models on without a write transaction, or None (then `read_model_datastore`)."""
        yield None

    def read_model_datastore(self) -> Datastore:
        """The database the read models live in."""
        return self.events.recorder.datastore  # type: ignore[attr-defined]

    def holds_table(self, cursor: SQLCursor, table: str) -> bool:
        cursor.execute("SELECT count(*) FROM sqlite_master WHERE name = ?", (table,))
        return bool(values(cursor.fetchone())[0])

    def notify(self) -> None:
        """Wakes the followers of the store in other processes after a commit, where the store can."""

    def wakeup(self) -> Wakeup:
        """A plain pause for the caller to poll the log (PostgreSQL listens instead)."""
        return Wakeup(None)

    # ------------------------------------------------------------------------------ errors, in one line

    @contextmanager
    def translated(self) -> Iterator[None]:
        """Turns whatever the database driver raises into a one-line StoreError."""
        try:
            yield
        except StoreError:
            raise
        except self.driver_errors() as e:
            raise self.store_error(e) from e

    def driver_errors(self) -> tuple[type[BaseException], ...]:
        """What the database driver and the event store library raise: the library's imported only when an error
        is on its way out (a command that only read an SQLite store never imported it)."""
        import sqlite3

        from eventsourcing.domain import OriginatorIDError, OriginatorVersionError
        from eventsourcing.persistence import MapperDeserialisationError, PersistenceError

        return (
            PersistenceError,
            MapperDeserialisationError,
            sqlite3.Error,
            OriginatorIDError,  # a stream out of sequence, read by the library: a damaged store
            OriginatorVersionError,
        )

    def store_error(self, error: BaseException) -> StoreError:
        from eventsourcing.domain import OriginatorIDError, OriginatorVersionError
        from eventsourcing.persistence import MapperDeserialisationError

        message = one_line(error)
        if "database is locked" in message or "lock timeout" in message:
            return StoreUnavailable(say("the store is locked by another process: {store}", store=self.url))
        if "file is not a database" in message:
            return StoreError(say("not a whispers store (not an SQLite database): {store}", store=self.url))
        if "malformed" in message or isinstance(error, OriginatorIDError | OriginatorVersionError):
            return StoreError(say("the store {store} is damaged: {message}", store=self.url, message=message))
        if isinstance(error, MapperDeserialisationError):
            return self.unreadable(message)
        return self.failed(error, message)

    def failed(self, error: BaseException, message: str) -> StoreError:
        return StoreError(say("the store {store} failed: {message}", store=self.url, message=message))

    def unreadable(self, message: str) -> StoreError:
        return StoreError(say("a stored event in {store} cannot be read: {message}", store=self.url,
                              message=one_line(message)))

    def unknown(self, name: str) -> UnknownGame:
        return UnknownGame(say("no game named {game} in {store}", game=repr(name), store=self.url))

    def damaged(self, name: str, held: int, recorded: int, found: int | None = None) -> StoreError:
        holds = (say("events 1-{n}", n=held) if held > 1 else say("event 1") if held == 1
                 else say("no first event"))
        then = say(", then event {found} where {due} was due", found=found, due=held + 1) if found is not None else ""
        return StoreError(say("game {game}: the store holds {holds}{then} but {n} were recorded: the store {store} is "
                              "damaged", game=repr(name), holds=holds, then=then, n=max(recorded, held),
                              store=self.url))

    def no_first_event(self, game: UUID | str) -> StoreError:
        return StoreError(say("game {game}: the store holds no first event for it: the store {store} is damaged",
                              game=str(game), store=self.url))
