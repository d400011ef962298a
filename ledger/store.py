"""The event store: each game's facts, in order, as one eventsourcing aggregate per game.

The store keeps facts and knows nothing of their meaning; the rules engine folds them. The one read that knows
what they are is `events`, which decodes a game's rows straight into the event types for the fold. Open one with
`open_store(url)`: `memory:`, an SQLite file (`sqlite:///abs/path` or a plain path), or `postgresql://...`.
Every failure a user can cause is raised as a one-line `StoreError`.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager, suppress
from datetime import datetime
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Final, Self
from urllib.parse import parse_qs, quote, unquote, urlsplit
from uuid import UUID

import msgspec

from whispers.ledger import sqlite_layout
from whispers.ledger.errors import (
    GameExists,
    GameMovedOn,
    NoSuchEvent,
    StoreError,
    StoreUnavailable,
    TextError,
    UnknownGame,
)
from whispers.ledger.events import Event, read_frozen_facts
from whispers.ledger.sqlite_layout import EVENTS, LOG, STREAMS, TOPICS, stream_of
from whispers.ledger.streams import (
    CONTENT_CREATED,
    GAME_CREATED,
    GAME_RECORDED,
    NOTES_CREATED,
    Fact,
    content_id,
    game_id,
    notes_id,
)
from whispers.ledger.text import control_in
from whispers.ledger.transcoder import MsgpackTranscoder, decode_events, decode_frozen, decode_timestamp
from whispers.ledger.words import N_, no_such_event, say

if TYPE_CHECKING:
    import sqlite3

    from eventsourcing.domain import Aggregate

    from whispers.ledger.eventstore import EventStore

_STATES: Final = MsgpackTranscoder()
"""Decodes a stored state as eventsourcing's mapper would (the same transcoder), for the store's own reads."""


def _records() -> Any:
    """The aggregates' module (ledger/records.py), imported the first time the store writes or decodes a stored
    event the eventsourcing way: a command that only reads a game never defines them."""
    from whispers.ledger import records

    return records


def __getattr__(name: str) -> Any:
    """`GameRecord`, `NotesRecord` and `EventStore` are still found here, defined on first use."""
    if name in ("GameRecord", "NotesRecord"):
        return getattr(_records(), name)
    if name == "EventStore":
        from whispers.ledger.eventstore import EventStore

        return EventStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


STORE_ENV: Final = "WHISPERS_STORE"
SQLITE_LOCK_TIMEOUT = 5
POSTGRES_CONNECT_TIMEOUT = 5
POSTGRES_LOCK_TIMEOUT = 5
"""Seconds to wait for another writer's lock, or for a PostgreSQL server to answer."""

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_SCHEMA = re.compile(r"[a-z_][a-z0-9_]{0,62}")
"""A PostgreSQL schema name that needs no quoting: eventsourcing finds its composite types by an unquoted name,
so in a schema such as "Tables" reads work and every write fails."""
_MOVED_ON: Final = N_("the game moved on: re-run status")
_BY_CONTENT: Final = ("ruleset", "board", "cards")
"""What a game's first fact holds that many games share (6.7 KB of a 4-player game's 60): stored once per content
hash, as a ContentRecord (ledger/records.py). The stored first fact holds None in their place and their hashes
under _NAMED; reading a game puts them back, so no reader sees the difference (a record file stays whole)."""
_NAMED: Final = "content"


_Rows = list[tuple[int, str, bytes]]
"""A stream's rows as read: (version, topic, stored state)."""


def _whole_stream(numbers: list[int], topics: list[str]) -> bool:
    """Whether a game's rows, by their versions and topics, are whole: numbered 1, 2, 3... with no gap or repeat,
    the first a game's start and no other (compared at C speed, as lists)."""
    return (numbers == list(range(1, len(numbers) + 1)) and bool(topics) and topics[0] == GAME_CREATED
            and GAME_CREATED not in topics[1:])


class _Read(msgspec.Struct, frozen=True):
    facts: list[Any]
    """The facts read, or (Store.events) their events."""
    version: int
    last: bytes  # the last row's stored state, undecoded: its timestamp is when the game was last written


class _Postgres(msgspec.Struct, frozen=True):
    host: str
    port: int
    dbname: str
    user: str
    password: str
    schema: str

    def connect(self, autocommit: bool = False) -> Any:
        """A direct connection of the driver's own (outside eventsourcing's pool), failing fast when unreachable."""
        import psycopg

        return psycopg.connect(host=self.host, port=self.port, dbname=self.dbname, user=self.user,
                               password=self.password, connect_timeout=POSTGRES_CONNECT_TIMEOUT, autocommit=autocommit)


class _Target(msgspec.Struct, frozen=True):
    url: str
    env: dict[str, str]
    postgres: _Postgres | None = None


def open_store(url: str | None = None) -> Store:
    """Opens the store at `url`; when None, at $WHISPERS_STORE, else the default SQLite file."""
    return Store(_resolve(url or os.environ.get(STORE_ENV) or None))


def default_store_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("whispers", appauthor=False)) / "whispers.sqlite"


def _resolve(url: str | None) -> _Target:
    if url is None:
        path = default_store_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(say("cannot create the store directory {file}: {message}", file=str(path.parent),
                                 message=e.strerror)) from e
        return _sqlite(path)
    if url == "memory:":
        return _Target("memory:", {"PERSISTENCE_MODULE": "eventsourcing.popo"})
    if url.startswith(("postgresql://", "postgres://")):
        return _postgres(url)
    if url.startswith("sqlite://"):
        url = url.removeprefix("sqlite://")
    elif "://" in url:
        raise StoreError(say("unsupported store URL {store}: use memory:, sqlite:///PATH, a path or postgresql://...",
                             store=repr(url)))
    path = Path(url).expanduser().absolute()
    if not path.parent.is_dir():
        raise StoreError(say("no such directory: {file}", file=str(path.parent)))
    if path.is_dir():
        raise StoreError(say("{file} is a directory, not a store file", file=str(path)))
    return _sqlite(path)


def _sqlite(path: Path) -> _Target:
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "APPLICATION_RECORDER_TOPIC": "whispers.ledger.sqlite_recorder:CompactSQLiteRecorder",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": str(SQLITE_LOCK_TIMEOUT),
        # No table-creation statements (and their write transaction) at every opening: only for a new store.
        "CREATE_TABLE": "y" if not _sqlite_has_events(path) else "n",
    }
    return _Target(str(path), env)


def _sqlite_has_events(path: Path) -> bool:
    """Whether the file is an SQLite database that holds the events table already (anything else: let the
    event store's own opening create it, or fail with its reason). A store in eventsourcing's own layout, written
    by an earlier whispers, is migrated to ours first (ledger/sqlite_layout.py)."""
    import sqlite3  # here and below where a store is SQLite's: a PostgreSQL store never loads the driver

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
                                     store=str(path), message=_one_line(e))) from None
    except sqlite3.Error:
        return False
    finally:
        db.close()
    return bool(found)


def _postgres(url: str) -> _Target:
    import getpass

    usage = "postgresql://USER[:PASSWORD]@HOST[:PORT]/DBNAME[?schema=NAME]"
    try:
        parts = urlsplit(url)
        port = parts.port or 5432
    except ValueError as e:
        raise StoreError(say("malformed PostgreSQL URL ({message}): use {usage}", message=str(e), usage=usage)) from e
    dbname = unquote(parts.path.removeprefix("/"))
    if not dbname or "/" in dbname:
        raise StoreError(say("the PostgreSQL URL names no database: use {usage}", usage=usage))
    query = parse_qs(parts.query, keep_blank_values=True)
    if unknown := sorted(set(query) - {"schema"}):
        raise StoreError(say("unknown PostgreSQL URL parameter {text}: use {usage}", text=repr(unknown[0]),
                             usage=usage))
    schema = query.get("schema", [""])[-1]
    if schema and not _SCHEMA.fullmatch(schema):
        raise StoreError(say(
            "unusable PostgreSQL schema name {text}: use 1 to 63 lower-case letters, digits or '_', not starting "
            "with a digit (the event store cannot write to a schema whose name needs quotes)", text=repr(schema)))
    pg = _Postgres(
        host=unquote(parts.hostname or "localhost"),
        port=port,
        dbname=dbname,
        user=unquote(parts.username or getpass.getuser()),
        # libpq reads PGPASSWORD only when no password is given at all, and eventsourcing always gives one.
        password=unquote(parts.password or "") or os.environ.get("PGPASSWORD", ""),
        schema=schema,
    )
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "APPLICATION_RECORDER_TOPIC": "whispers.ledger.postgres_recorder:CompactPostgresRecorder",
        "POSTGRES_DBNAME": pg.dbname,
        "POSTGRES_HOST": pg.host,
        "POSTGRES_PORT": str(pg.port),
        "POSTGRES_USER": pg.user,
        "POSTGRES_PASSWORD": pg.password,
        "POSTGRES_POOL_SIZE": "1",
        "POSTGRES_CONNECT_TIMEOUT": str(POSTGRES_CONNECT_TIMEOUT),
        "POSTGRES_LOCK_TIMEOUT": str(POSTGRES_LOCK_TIMEOUT),
        "POSTGRES_SCHEMA": pg.schema,
        "CREATE_TABLE": "y",  # "n" once the opening has found the tables (_postgres_opening)
    }
    shown = f"postgresql://{quote(pg.user, safe='')}@{pg.host}:{pg.port}/{quote(pg.dbname, safe='')}"
    if schema:
        shown += f"?schema={quote(schema, safe='')}"
    return _Target(shown, env, pg)


def _by_content(fact: Fact) -> tuple[Fact, dict[str, Fact]]:
    """A game's first fact as stored (its board, ruleset and card sheet named by their content hashes) and those
    data by hash, to be stored once. A fact of another shape is stored as it is."""
    if _NAMED in fact:
        raise ValueError(f"a game's first fact has no {_NAMED!r} of its own")
    if fact.get("type") != "GameStarted":
        return fact, {}
    from whispers.ledger.content import content_hash

    stored, named, shared = dict(fact), {}, {}
    for key in _BY_CONTENT:
        data = fact.get(key)
        if isinstance(data, dict):
            digest = content_hash(data)
            stored[key] = None
            named[key] = digest
            shared[digest] = data
    if named:
        stored[_NAMED] = named
    return stored, shared


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


@contextmanager
def _postgres_opening(pg: _Postgres, url: str, env: dict[str, str]) -> Iterator[Any]:
    """Connects once, directly, around eventsourcing's own opening of the store, for two reasons.

    An unreachable server fails fast with the driver's reason: eventsourcing's pool retries in the background and
    reports only "couldn't get a connection after N sec", however quickly the server refused. And the connection
    holds an advisory lock while eventsourcing creates its tables, because its idempotent DDL still fails with
    "tuple concurrently updated" when two processes open the same store at once (a tournament's start).

    Once the opening succeeded, the lock is released and the connection stays open for the store to read on (its
    lock timeout the same as the pool's): a command that only reads connects once.
    """
    import psycopg

    where = f"{pg.host}:{pg.port}"
    try:
        conn = pg.connect(autocommit=True)
    except psycopg.Error as e:
        raise StoreUnavailable(say("cannot reach PostgreSQL at {where}: {message}", where=where,
                                   message=_reason(e))) from e
    try:
        try:
            if pg.schema and not conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", [pg.schema]).fetchone():
                raise StoreError(say("no schema {text} in PostgreSQL database {store} at {where}: create it with "
                                     "CREATE SCHEMA {then};", text=repr(pg.schema), store=repr(pg.dbname),
                                     where=where, then=pg.schema))
            conn.execute("SELECT set_config('lock_timeout', %s, false)", [f"{POSTGRES_LOCK_TIMEOUT}s"])
            from whispers.ledger import postgres_layout  # an SQLite store never needs it
            from whispers.ledger.digests import blake2b

            digest = blake2b(f"whispers:{pg.schema or 'public'}".encode(), digest_size=8).digest()
            key = int.from_bytes(digest, signed=True)
            conn.execute("SELECT pg_advisory_lock(%s)", [key])
            schema = pg.schema or "public"
            try:  # a store in eventsourcing's own layout, written by an earlier whispers, is migrated to ours first
                if postgres_layout.migrate(conn, schema):
                    env["CREATE_TABLE"] = "n"  # the tables are there: no DDL at every opening
            except ValueError as e:
                raise StoreError(say("cannot bring the store {store} to this version's layout: {message}",
                                     store=url, message=str(e))) from None
        except psycopg.errors.LockNotAvailable as e:
            raise StoreUnavailable(say("the store is locked by another process: {store}", store=url)) from e
        except psycopg.Error as e:
            raise StoreError(say("PostgreSQL at {where} failed: {message}", where=where, message=_one_line(e))) from e
        yield conn
        try:
            conn.execute("SELECT pg_advisory_unlock(%s)", [key])
        except psycopg.Error as e:
            raise StoreError(say("PostgreSQL at {where} failed: {message}", where=where, message=_one_line(e))) from e
    except BaseException:
        conn.close()
        raise


def _bound_postgres(datastore: Any, pg: _Postgres) -> None:
    """Makes a server lost after opening a store fail within POSTGRES_CONNECT_TIMEOUT, saying why.

    eventsourcing retries each query up to ten times on a connection error, and each retry waited the pool's
    whole timeout: a server gone down took 42 s to report "couldn't get a connection after 5.00 sec". Here the
    pool's first timeout ends the wait, and one direct attempt to connect names the cause. The pool's own
    attempts get a connect timeout too, so a server that accepts and never answers cannot hold them (or the
    store's closing) indefinitely.
    """
    from eventsourcing.persistence import OperationalError
    from psycopg_pool import PoolTimeout

    datastore.pool.kwargs["connect_timeout"] = POSTGRES_CONNECT_TIMEOUT
    get_connection = datastore.get_connection

    @contextmanager
    def bounded() -> Iterator[Any]:
        try:
            with get_connection() as conn:
                yield conn
        except OperationalError as e:
            if isinstance(e.__cause__, PoolTimeout):
                raise _why_no_connection(pg) from e
            raise

    datastore.get_connection = bounded


def _why_no_connection(pg: _Postgres) -> StoreUnavailable:
    import psycopg

    where = f"{pg.host}:{pg.port}"
    try:
        pg.connect().close()
    except psycopg.Error as e:
        return StoreUnavailable(say("lost PostgreSQL at {where}: no connection for {seconds} s, and a new one failed: "
                                    "{message}", where=where, seconds=POSTGRES_CONNECT_TIMEOUT, message=_reason(e)))
    return StoreUnavailable(say("no free connection to PostgreSQL at {where} for {seconds} s (the server answers): "
                                "retry", where=where, seconds=POSTGRES_CONNECT_TIMEOUT))


def _reason(error: BaseException) -> str:
    message = _one_line(error)
    if "timeout expired" in message:
        return say("no answer within {seconds} s ({message})", seconds=POSTGRES_CONNECT_TIMEOUT, message=message)
    return message


_SNAPSHOTS: Final = "snapshot"
"""The read model (projection) whose rows are the games' snapshots, one row per game."""

_NAMED_BATCH = 500
"""Games named in one read of a read model: far below every driver's limit of parameters in one statement."""
_READ_MODEL_TABLES: Final = (
    "CREATE TABLE IF NOT EXISTS {t} (projection TEXT PRIMARY KEY, layout INTEGER NOT NULL, "
    "position BIGINT NOT NULL, fingerprint TEXT)",
    "CREATE TABLE IF NOT EXISTS {s} (projection TEXT NOT NULL, game TEXT NOT NULL, created BIGINT, "
    "data TEXT NOT NULL, PRIMARY KEY (projection, game))",
    # a read model's rows in the order its games were created, read without sorting them (10,000 games: 13 ms)
    "CREATE INDEX IF NOT EXISTS {i} ON {s} (projection, created, game)",
)
_LAST_MADE: Final = "whispers_summaries_created"
"""The read-model object made last (the index, added after the tables): a store that lacks it gets what it lacks."""
_DROP_READ_MODELS: Final = ("DROP TABLE IF EXISTS {s}", "DROP TABLE IF EXISTS {t}")  # the index goes with its table


class _Lost(Exception):
    """Another process moved a read model on first: this write is rolled back."""


def _values(row: Any) -> tuple[Any, ...]:
    """A row as a tuple, whether the driver gives tuples (sqlite3) or dicts (eventsourcing's psycopg rows)."""
    return tuple(row.values()) if isinstance(row, dict) else tuple(row)


def _fingerprint(position: int, originator: UUID, version: int, topic: str, state: bytes) -> str:
    """`Store.fingerprint` of the event stored at `position`."""
    from whispers.ledger.digests import sha256

    digest = sha256(f"{position}:{originator}:{version}:{topic}:".encode())
    digest.update(state)
    return digest.hexdigest()


def _changed(cursor: Any) -> int:
    count = getattr(cursor, "rowcount", None)
    if count is None or count < 0:
        cursor.execute("SELECT changes()")
        count = _values(cursor.fetchone())[0]
    return int(count)


class _PlainSQLite:
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


class _PlainPostgres:
    """The transaction protocol of eventsourcing's datastores, over a plain psycopg connection in autocommit mode."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    @contextmanager
    def transaction(self, commit: bool, binary: bool = False) -> Iterator[Any]:
        """A cursor, rows as tuples (`binary`: in the binary format), in a transaction that commits if asked."""
        from psycopg import Rollback
        from psycopg.rows import tuple_row

        with self.conn.transaction(), self.conn.cursor(row_factory=tuple_row, binary=binary) as cursor:
            yield cursor
            if not commit:
                raise Rollback()


class Wakeup:
    """Waits for a store's NOTIFY (PostgreSQL), or just pauses (SQLite, memory: the caller polls the log)."""

    def __init__(self, conn: Any) -> None:
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


def check_name(name: str) -> None:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise StoreError(say("invalid game name {game}: use 1 to 64 letters, digits, '_', '.' or '-', starting with a "
                             "letter or digit", game=repr(name)))


def _refuse_controls(name: str, facts: Any) -> None:
    """Every write's check: no text of a record holds a control character a terminal acts on (ledger/text.py), so
    no reason, name, note or board a record keeps can recolour, move or link a reader's terminal."""
    if (char := control_in(facts)) is not None:
        raise TextError(say("game {game}: a text holds the control character {char}, which a record keeps in no "
                            "text", game=repr(name), char=repr(char)))


class Store:
    """The games in one store. Open with `open_store`; use as a context manager or call `close`."""

    url: str
    """Where the store is (a PostgreSQL URL without its password), for messages."""

    def __init__(self, target: _Target) -> None:
        self.url = target.url
        self._postgres = target.postgres
        self._env = dict(target.env)
        self._sqlite: str | None = (target.env["SQLITE_DBNAME"]
                                    if target.env["PERSISTENCE_MODULE"] == "eventsourcing.sqlite" else None)
        """An SQLite store's file: its games are read with plain sqlite3 connections until something needs the
        event store application (a write, the log's notifications), which is opened then (`_events`)."""
        self._app: EventStore | None = None
        self._closed = False
        self._opening = threading.Lock()
        self._readers = threading.local()
        self._reader_connections: list[Any] = []
        """Each thread's plain connection (sqlite3, or psycopg), closed with the store."""
        self._index_checked = self._table_checked = False
        self._read_model_ready = False
        self._memory_db: sqlite3.Connection | None = None
        self._contents: dict[str, bytes] = {}
        """The stored bytes of the boards, rulesets and card sheets read so far, by content hash (checked); each
        read decodes them again, so no caller shares another's (mutable) data."""
        self._stored_content: set[str] = set()
        """The content hashes this store is known to hold: a batch import does not ask again for every game."""
        opened = None
        with ExitStack() as opening:
            if target.postgres is not None:
                opened = opening.enter_context(_postgres_opening(target.postgres, target.url, self._env))
            with self._translated():
                try:
                    if (self._sqlite is None and self._postgres is None) or self._env["CREATE_TABLE"] != "n":
                        # memory, or a new store's tables made (on PostgreSQL under the opening's lock)
                        self._open_event_store()
                    self._check_log()
                except BaseException:
                    self.close()
                    raise
        if opened is not None:  # the opening's connection is this thread's to read on
            self._readers.postgres = opened
            self._reader_connections.append(opened)

    def _open_event_store(self) -> EventStore:
        from whispers.ledger.eventstore import EventStore

        pg = self._postgres
        self._app = EventStore(env=self._env, bind=None if pg is None else partial(_bound_postgres, pg=pg))
        return self._app

    def create(self, name: str, facts: list[Fact], notes: list[Fact] | None = None) -> int:
        """Records a new game with its first facts, and its notes if any, all in one save; returns its version."""
        check_name(name)
        if not facts:
            raise ValueError("a game starts with at least one fact")
        _refuse_controls(name, [facts, notes])
        first, shared = _by_content(facts[0])
        ContentRecord = _records().ContentRecord
        from eventsourcing.persistence import RecordConflictError

        with self._translated():
            unsaved = len(shared) + 1
            while True:
                saved = self._new_game(name, first, facts[1:], notes or [], shared)
                content = sum(isinstance(aggregate, ContentRecord) for aggregate in saved)
                try:
                    self._events.save(*saved)
                    break
                except RecordConflictError:
                    # Another writer may have stored some of the same boards or rulesets between our check and our
                    # save, one round each: try again while each round leaves less content to save. A conflict with
                    # none of it left to blame is the game's own name.
                    if 0 < content < unsaved:
                        unsaved = content
                        continue
                    raise GameExists(say("a game named {game} is in {store} already", game=repr(name),
                                         store=self.url)) from None
        self._stored_content.update(shared)
        self._notify()
        return len(facts)

    def _new_game(self, name: str, first: Fact, facts: list[Fact], notes: list[Fact], shared: dict[str, Fact]
                  ) -> list[Any]:
        """The aggregates a new game is saved as, in one transaction: the content it shares that the store does
        not hold yet, its record, and its notes if any."""
        records = _records()
        saved: list[Any] = [records.ContentRecord(digest=digest, data=data) for digest, data in shared.items()
                            if not self._holds_content(digest)]
        record = records.GameRecord(name=name, fact=first)
        for fact in facts:
            record.record(fact)
        saved.append(record)
        if notes:
            noted = records.NotesRecord(game=name)
            for note in notes:
                noted.note(note)
            saved.append(noted)
        return saved

    def _whole(self, name: str, fact: Fact, shared: dict[str, Fact] | None = None) -> Fact:
        """A game's first fact as it was given to `create`: its shared content put back in place, each checked
        against the hash that names it. With `shared`, content already read there is used as it is (games read
        together share it) and content read is kept there."""
        named = fact.get(_NAMED)
        if not isinstance(named, dict) or fact.get("type") != "GameStarted":
            return fact
        whole = {key: value for key, value in fact.items() if key != _NAMED}
        for key, digest in named.items():
            if key not in _BY_CONTENT or whole.get(key) is not None:  # not what create() writes in a first fact
                raise self._lost_content(name, str(digest))
            if shared is None or (data := shared.get(str(digest))) is None:
                data = self._content(name, str(digest))
                if shared is not None:
                    shared[str(digest)] = data
            whole[key] = data
        return whole

    def _content(self, name: str, digest: str) -> Fact:
        decode = _STATES.decode
        state = self._contents.get(digest)
        if state is not None:
            return decode(state)["data"]
        from whispers.ledger.content import content_hash

        rows = self._rows(content_id(digest), 1)
        try:
            data = decode(rows[0][2]) if rows and rows[0][1] == CONTENT_CREATED else None
        except Exception:  # whatever damaged bytes make the decoder raise
            data = None
        if (not isinstance(data, dict) or data.get("digest") != digest or not isinstance(data.get("data"), dict)
                or content_hash(data["data"]) != digest):
            raise self._lost_content(name, digest)
        self._contents[digest] = rows[0][2]
        self._stored_content.add(digest)
        return data["data"]

    def _holds_content(self, digest: str) -> bool:
        if digest not in self._stored_content and self._events.recorder.select_events(content_id(digest), limit=1):
            self._stored_content.add(digest)
        return digest in self._stored_content

    def _lost_content(self, name: str, digest: str) -> StoreError:
        return StoreError(say("game {game}: the board, ruleset or card sheet it plays with ({digest}) is missing or "
                              "altered: the store {store} is damaged", game=repr(name),
                              digest=digest if digest.isprintable() else repr(digest),  # what a damaged row holds
                              store=self.url))

    def append(self, name: str, expected_version: int, facts: list[Fact]) -> int:
        """Appends facts after exactly `expected_version`, all or none; returns the new version."""
        check_name(name)
        _refuse_controls(name, facts)
        with self._translated():
            if self._version(name) != expected_version:
                raise GameMovedOn(say(_MOVED_ON))
            if not facts:
                return expected_version
            # Events built directly, rather than by replaying the record to call record(): the version check
            # above and the store's uniqueness of (game, version) are all the consistency an append needs.
            originator_id = game_id(name)
            GameRecord = _records().GameRecord
            from eventsourcing.persistence import RecordConflictError

            timestamp: datetime = GameRecord.Recorded.create_timestamp()
            events = [
                GameRecord.Recorded(
                    originator_id=originator_id,
                    originator_version=expected_version + i,
                    timestamp=timestamp,
                    fact=fact,
                )
                for i, fact in enumerate(facts, start=1)
            ]
            try:
                self._events.save(*events)
            except RecordConflictError:
                raise GameMovedOn(say(_MOVED_ON)) from None
        self._notify()
        return expected_version + len(facts)

    def facts(self, name: str, version: int | None = None) -> list[Fact]:
        """The game's first `version` facts, or all of them."""
        return self._checked(name, version, False).facts

    def events(self, name: str, version: int | None = None) -> list[Event]:
        """The game's first `version` events, or all of them, for the rules to fold: the one read of the store that
        knows what its facts mean, as it decodes their rows straight into the event types (transcoder.decode_events;
        the lenient way, ledger.events.read_frozen_facts, names a fact that is not an event)."""
        return self._checked(name, version, True).facts

    def written_events(self, name: str) -> tuple[list[Event], datetime]:
        """The game's events (as `events(name)`) and when its last one was stored, read together: what the catalog
        keeps of each game (the director's page lists it for 10,000 games without reading one)."""
        record = self._checked(name, None, True)
        return record.facts, self._written(name, record.last)

    def written_games(self, names: Sequence[str], chunk: int = 250, read_whole: frozenset[str] | None = None
                      ) -> Iterator[tuple[str, list[Event], datetime]]:
        """`written_events` of many games, in their order: read `chunk` games at a time in one transaction (on
        PostgreSQL one statement), each checked whole as `_checked` checks it. A catalog rebuilt one game at a
        time spent a third of its time opening transactions and asking each game's last version on its own. The games
        share their boards' and rulesets' data, each read once: their reader must not change it. With `read_whole`, of
        the events after each game's first only those of these types are read whole, any other as its type's
        stand-in (transcoder.decode_events)."""
        shared: dict[str, Fact] = {}
        for start in range(0, len(names), chunk):
            part = names[start:start + chunk]
            for name in part:
                check_name(name)
            keys = [game_id(name) for name in part]
            with self._translated():
                found = self._many_states(keys)
            for name, key in zip(part, keys, strict=True):
                states = found.get(key)
                with self._translated():
                    # a game not found whole, or not at all, is read on its own: that read names the damage (or
                    # reads the game again if a writer appended while it was read)
                    record = (self._checked(name, None, True) if states is None
                              else self._decoded(name, states, True, shared, read_whole))
                yield name, record.facts, self._written(name, record.last)

    def _written(self, name: str, state: bytes) -> datetime:
        """When the stored event `state` was stored, read without its fact; a time that is not one is damage."""
        try:
            written = decode_timestamp(state)
        except Exception:  # whatever damaged bytes make the decoder raise: said below as no time stored
            written = None
        if not isinstance(written, datetime):
            raise StoreError(say("game {game}: its last event holds no time it was stored: the store {store} is "
                                 "damaged", game=repr(name), store=self.url))
        return written

    def _checked(self, name: str, version: int | None, events: bool) -> _Read:
        check_name(name)
        with self._translated():
            if version is not None and version < 1:
                raise NoSuchEvent(no_such_event(name, self._version(name), version))
            record = self._read(name, version, events)
            # On SQLite the last version is looked up apart (by another path through a damaged index than the
            # rows' range). On PostgreSQL the two read the same index in the same way: a second query per game
            # found nothing the first missed, and cost a cold catalog a tenth of its time; it is asked only when
            # the read fell short of the version asked for (a gap there is damage, not an event never recorded).
            short = version is not None and record.version < version
            recorded = self._version(name) if self._postgres is None or short else record.version
            if record.version < min(recorded, version or recorded):
                # Short of what the store says was recorded: a writer appended since (read again), or damage.
                record = self._read(name, version, events)
                if record.version < min(recorded, version or recorded):
                    raise self._damaged(name, record.version, recorded)
        if version is not None and record.version != version:
            raise NoSuchEvent(no_such_event(name, record.version, version))
        return record

    def facts_after(self, name: str, after: int, upto: int | None = None) -> list[Fact]:
        """The game's facts after its first `after`, up to its `upto`th (a follower reads only what is new)."""
        check_name(name)
        with self._translated():
            stored = self._events.recorder.select_events(game_id(name), gt=after, lte=upto)
            decode = _STATES.decode
            facts: list[Fact] = []
            for expected, item in enumerate(stored, start=after + 1):
                if item.originator_version != expected:
                    raise self._damaged(name, expected - 1, self._version(name), item.originator_version)
                facts.append(decode(item.state)["fact"])
            if after == 0 and facts:
                facts[0] = self._whole(name, facts[0])
        return facts

    def _read(self, name: str, version: int | None, events: bool = False) -> _Read:
        """The game's facts (or `events`) read straight from its rows: each row's msgpack decoded and its fact
        taken, without building eventsourcing's domain event (a UUID, a timestamp, an object) per fact. What is kept
        is the one check a damaged store fails: the versions run 1, 2, 3... with no gap, repeat or missing start."""
        return self._parsed(name, self._rows(game_id(name), version), events)

    def _parsed(self, name: str, stored: _Rows, events: bool, shared: dict[str, Fact] | None = None) -> _Read:
        """`_read` of the rows (version, topic, state) read already (`shared`: as `_whole`)."""
        if not stored:
            raise self._unknown(name)
        created = GAME_CREATED
        if not _whole_stream([number for number, _, _ in stored], [topic for _, topic, _ in stored]):
            # found row by row here
            for expected, (number, topic, _) in enumerate(stored, start=1):
                if number != expected or (expected == 1) != (topic == created):
                    raise self._damaged(name, expected - 1, self._version(name), number)
        return self._decoded(name, [state for _, _, state in stored], events, shared)

    def _decoded(self, name: str, states: list[bytes], events: bool, shared: dict[str, Fact] | None = None,
                 read_whole: frozenset[str] | None = None) -> _Read:
        """`_parsed` of a game's stored states, in order from its first, once its rows are found whole (`read_whole`: as
        `written_games`)."""
        plain = _STATES.decode
        decode = decode_frozen if events else plain
        typed = decode_events(states[1:], read_whole) if events else None
        try:
            first = plain(states[0])["fact"]
            facts = [first, *[decode(state)["fact"] for state in states[1:]]] if typed is None else [first]
        except Exception:  # whatever a damaged row makes the decoder raise: find which row, and say so
            for expected, state in enumerate(states, start=1):
                try:
                    (decode if expected > 1 else plain)(state)["fact"]
                except Exception as e:
                    raise self._unreadable(say("game {game}, event {n}: its stored bytes cannot be decoded "
                                               "({message})", game=repr(name), n=expected, message=_one_line(e))) from e
            raise
        facts[0] = self._whole(name, facts[0], shared)
        if events:  # the first is read as from_fact reads it (its board and ruleset data as their files give them)
            facts = [*read_frozen_facts(facts, name), *(typed or ())]
        return _Read(facts, len(states), states[-1])

    def tail(self, name: str, since: int) -> tuple[Fact, bytes | None, list[Event], bytes] | None:
        """What a snapshot of the game at version `since` (ledger/snapshots.py) is brought up to date with: the
        game's first fact (its board and ruleset), the stored bytes of event `since` (None if there is none: the
        snapshot is not of this record), the events after it (as `events` reads them) and the stored bytes of the
        last event. None when the rows are anything but a whole tail: the caller then reads the game whole
        (`facts`), which names the damage."""
        check_name(name)
        with self._translated():
            stored = self._rows(game_id(name), None, since)
        if not stored or stored[0][0] != 1 or stored[0][1] != GAME_CREATED:
            return None
        at = next((state for number, _, state in stored if number == since), None)
        later = [row for row in stored if row[0] > since]
        if ([number for number, _, _ in later] != list(range(since + 1, since + 1 + len(later)))
                or any(topic == GAME_CREATED for _, topic, _ in later)):
            return None
        try:
            first = _STATES.decode(stored[0][2])["fact"]
        except Exception:  # a damaged row: the whole read names it
            return None
        facts = decode_events([state for _, _, state in later])
        if facts is None:  # not events as this whispers reads them: the whole read names the first that is not one
            return None
        with self._translated():
            first = self._whole(name, first)
        return first, at, facts, stored[-1][2]

    def snapshot(self, name: str) -> str | None:
        """The game's kept snapshot (ledger/snapshots.py's text), if any: a read model row like the catalog's."""
        with self._translated(), self._read_model(commit=False) as (cursor, sql):
            cursor.execute(sql("SELECT data FROM {s} WHERE projection = ? AND game = ?"), (_SNAPSHOTS, name))
            row = cursor.fetchone()
        return None if row is None else _values(row)[0]

    def keep_snapshot(self, name: str, data: str) -> None:
        """Keeps `data` as the game's snapshot, in place of the one before (it says its own version)."""
        with self._translated(), self._read_model(commit=True) as (cursor, sql):
            cursor.execute(sql("INSERT INTO {s} (projection, game, created, data) VALUES (?, ?, NULL, ?) "
                               "ON CONFLICT (projection, game) DO UPDATE SET data = excluded.data"),
                           (_SNAPSHOTS, name, data))

    def _rows(self, originator: UUID, version: int | None, since: int | None = None
              ) -> list[tuple[int, str, bytes]]:
        """(version, topic, state) of a stream's events up to `version`, in order; with `since`, only the first
        event and those from `since` on. On SQLite, selected directly: eventsourcing's own select makes a UUID and
        a record object per row, which cost as much as decoding it."""
        if self._postgres is not None:
            return self._postgres_read("rows", originator, version, since)
        if self._sqlite is None:
            recorder = self._events.recorder
            if since is not None:
                first = recorder.select_events(originator, lte=1)
                later = recorder.select_events(originator, gt=max(since - 1, 1), lte=version)
                return [(item.originator_version, item.topic, item.state) for item in [*first, *later]]
            return [(item.originator_version, item.topic, item.state)
                    for item in recorder.select_events(originator, lte=version)]
        stream = stream_of(originator)
        statement = f"SELECT version, topic, state FROM {LOG} WHERE stream = ? "
        params: list[Any] = [stream]
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
        with self._sqlite_reading() as cursor:
            cursor.execute(statement + "ORDER BY version", params)
            return cursor.fetchall()

    def _many_states(self, originators: list[UUID]) -> dict[UUID, list[bytes]]:
        """The stored states of many games' streams at once, each in order from its first, for the streams found
        whole: numbered 1, 2, 3... with no gap to the last version the store says it holds, the first a game's
        start and no other. A stream that is not is left out, for the caller to read on its own (which names what
        is wrong with it)."""
        if self._sqlite is None:
            if self._postgres is not None:
                found = self._postgres_read("many_rows", originators, binary=True)
            else:
                found = {key: ([number for number, _, _ in rows], [topic for _, topic, _ in rows],
                               [state for _, _, state in rows])
                         for key in originators if (rows := self._rows(key, None))}
            return {key: states for key, (numbers, topics, states) in found.items() if _whole_stream(numbers, topics)}
        # On SQLite a statement per stream, in one transaction: each row's state and whether it is a game's start,
        # and its first and last versions looked up apart (in the index alone, another path than the rows' own):
        # as many rows as the last version, each under a version of its own from 1, are 1, 2, 3... with no gap.
        # (The index's entries counted, or min and max asked in one aggregate, read every entry again: a tenth of
        # the rows' read.) The rows' versions and topics read one by one, or every row read by one statement with
        # its stream's id to be grouped by it again, cost more than the decoding of the events.
        states: dict[UUID, list[bytes]] = {}
        with self._sqlite_reading() as cursor:
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

    def _damaged(self, name: str, held: int, recorded: int, found: int | None = None) -> StoreError:
        holds = (say("events 1-{n}", n=held) if held > 1 else say("event 1") if held == 1
                 else say("no first event"))
        then = say(", then event {found} where {due} was due", found=found, due=held + 1) if found is not None else ""
        return StoreError(say("game {game}: the store holds {holds}{then} but {n} were recorded: the store {store} is "
                              "damaged", game=repr(name), holds=holds, then=then, n=max(recorded, held),
                              store=self.url))

    def _check_log(self, whole: bool = False) -> None:
        """An SQLite store's log numbers events 1, 2, 3... and never deletes one, so each number up to the
        highest must be found. At each opening, the count reads the (game, version) index by which games are
        read, so a damaged index shows even when it is consistent with itself; once per opening (a catalog's
        catch-up counted 10,000 games' index again, 28 ms, in the same command). With `whole`, once, before
        the log itself is scanned (the list of games, changes), the table is counted too: that reads every
        page, as the scan does anyway."""
        if self._sqlite is None or (self._table_checked if whole else self._index_checked):
            return
        with self._sqlite_reading() as cursor:
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

    def version(self, name: str) -> int:
        """The number of facts recorded for the game."""
        check_name(name)
        with self._translated():
            return self._version(name)

    def exists(self, name: str) -> bool:
        check_name(name)
        with self._translated():
            return self._last(game_id(name)) is not None

    def names(self) -> list[str]:
        """Every game in the store, in the order they were created."""
        topics = [GAME_CREATED]
        names: list[str] = []
        _records()  # the stored events are decoded as eventsourcing domain events
        with self._translated():
            self._check_log(whole=True)
            recorder = self._events.recorder
            mapper = self._events.mapper
            start: int | None = None
            while batch := recorder.select_notifications(start, 1000, topics=topics, inclusive_of_start=False):
                names.extend(mapper.to_domain_event(n).name for n in batch)  # type: ignore[attr-defined]
                start = batch[-1].id
        return names

    def add_note(self, name: str, note: Fact) -> int:
        """Appends a note to the game's notes stream at its next version; returns how many notes it holds now."""
        check_name(name)
        _refuse_controls(name, note)
        NotesRecord = _records().NotesRecord
        from eventsourcing.persistence import RecordConflictError

        with self._translated():
            self._version(name)  # the game must exist
            last = self._events.recorder.select_events(notes_id(name), desc=True, limit=1)
            if last:
                version = last[0].originator_version
                saved: Any = NotesRecord.Noted(originator_id=notes_id(name), originator_version=version + 1,
                                               timestamp=NotesRecord.Noted.create_timestamp(), note=note)
            else:
                version = 1  # the Created event comes first
                saved = NotesRecord(game=name)
                saved.note(note)
            try:
                self._events.save(saved)
            except RecordConflictError:
                raise GameMovedOn(say("another note was added at the same moment: run the command again")) from None
        return version

    def notes(self, name: str) -> list[Fact]:
        """The game's notes, in the order they were added (none for a game never annotated).

        Each stored note is decoded on its own, so one that cannot be decoded (written by an older whispers)
        comes back as {"unreadable": why} in its place instead of making every note unreadable."""
        check_name(name)
        with self._translated():
            self._version(name)
            stored = self._rows(notes_id(name), None)
        if not stored:  # most games: read without the event store library
            return []
        from eventsourcing.persistence import StoredEvent

        _records()  # its stored notes are decoded as eventsourcing domain events (upcast as their class says)
        with self._translated():
            mapper = self._events.mapper
        notes: list[Fact] = []
        for version, topic, state in stored:
            if topic == NOTES_CREATED:
                continue
            try:
                item = StoredEvent(originator_id=notes_id(name), originator_version=version, topic=topic, state=state)
                notes.append(mapper.to_domain_event(item).note)  # type: ignore[attr-defined]
            except Exception:  # whatever a stored byte makes the decoder raise
                notes.append({"unreadable": "its stored bytes cannot be decoded"})
        return notes

    def changes(self, after: int = 0, limit: int = 10_000) -> tuple[int, list[str]]:
        """Games with facts stored after position `after` of the store's log: (the last position read, their
        names in order of first change). For read models that remember how far they have read."""
        topics = [GAME_CREATED, GAME_RECORDED]
        changed: dict[UUID, None] = {}
        position = after
        with self._translated():
            self._check_log(whole=True)
            recorder = self._events.recorder
            while batch := recorder.select_notifications(position, limit, topics=topics, inclusive_of_start=False):
                for notification in batch:
                    changed.setdefault(notification.originator_id, None)
                position = batch[-1].id
            names = [self._name_of(game) for game in changed]
        return position, names

    def changed_games(self, after: int = 0, limit: int = 10_000) -> tuple[int, dict[str, int | None]]:
        """Like `changes`, with each game's creation position in the log when it was created after `after`
        (else None): the order `names` lists games in, for a read model to keep."""
        topics = [GAME_CREATED, GAME_RECORDED]
        changed: dict[UUID, int | None] = {}
        position = after
        with self._translated():
            # the whole table counted when the log is scanned from its start; after a position only the rows after
            # it are read (by rowid, and SQLite names a damaged page it meets there), and the index was counted at
            # opening: counting every page again cost a listing of 10,000 games 0.13 s for rows it does not read
            self._check_log(whole=not after)
            if self._sqlite is not None:
                return self._sqlite_changed_games(after)
            if self._postgres is not None:
                return self._postgres_changed_games(after)
            recorder = self._events.recorder
            while batch := recorder.select_notifications(position, limit, topics=topics, inclusive_of_start=False):
                for n in batch:
                    if n.originator_version == 1:
                        changed[n.originator_id] = n.id
                    else:
                        changed.setdefault(n.originator_id, None)
                position = batch[-1].id
            return position, {self._name_of(game): created for game, created in changed.items()}

    def _sqlite_changed_games(self, after: int) -> tuple[int, dict[str, int | None]]:
        """`changed_games` on SQLite in one statement: the games with facts after `after`, each beside its first event
        (whose position says whether it was created since, and whose state holds its name). A catalog built afresh
        over 10,000 games made a notification object with a UUID for each of their two million events, then asked
        for each game's first event on its own."""
        decode = _STATES.decode
        created_topic, recorded_topic = GAME_CREATED, GAME_RECORDED
        # after a position, the rows after it by their position: left to itself SQLite groups by walking the whole
        # (game, version) index, 0.23 s over 10,000 games for nothing new; from the start the index is cheaper
        source = f"{EVENTS} NOT INDEXED" if after else EVENTS
        with self._sqlite_reading() as cursor:
            games = None if after else self._sqlite_every_game(cursor)
            if games is None:  # each game beside its first event, joined in the same statement
                cursor.execute(
                    f"SELECT changed.stream, s.originator, changed.last, created.position, t.topic, created.state FROM "
                    f"(SELECT stream, min(position) AS first, max(position) AS last FROM {source} "
                    f"WHERE position > ? AND topic IN (SELECT id FROM {TOPICS} WHERE topic IN (?, ?)) "
                    f"GROUP BY stream) AS changed LEFT JOIN {STREAMS} AS s ON s.id = changed.stream "
                    f"LEFT JOIN {EVENTS} AS created ON created.stream = changed.stream AND created.version = 1 "
                    f"LEFT JOIN {TOPICS} AS t ON t.id = created.topic ORDER BY changed.first",
                    (after, created_topic, recorded_topic))
                games = [tuple(_values(row)) for row in cursor.fetchall()]
        position = max([after, *(last for _, _, last, _, _, _ in games)])
        changed: dict[str, int | None] = {}
        for stream, game, _, created, topic, state in games:
            if topic != created_topic:  # no first event (or another stream's) under the game's id
                raise self._no_first_event(self._uuid(stream, game))
            changed[decode(state)["name"]] = created if created > after else None
        return position, changed

    @staticmethod
    def _sqlite_every_game(cursor: sqlite3.Cursor) -> list[tuple[int, bytes, int, int, str, bytes]] | None:
        """`_sqlite_changed_games` from the start of the log: every game's first event, in the order the games were
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

    def _postgres_changed_games(self, after: int) -> tuple[int, dict[str, int | None]]:
        """`changed_games` on PostgreSQL in one statement: the games with facts after `after` grouped by the server,
        each beside its first event (whose position says whether it was created since, and whose state holds its
        name). The generic path made a notification object per event and asked for each game's first event on its
        own, a round trip and a domain event per game."""
        decode = _STATES.decode
        position = after
        changed: dict[str, int | None] = {}
        for stream, last, created, topic, state in self._postgres_read("changed_streams", after,
                                                                       [GAME_CREATED, GAME_RECORDED]):
            position = max(position, last)
            if topic != GAME_CREATED:  # no first event (or another stream's) under the game's id
                raise self._no_first_event(stream)
            assert created is not None and state is not None
            changed[decode(state)["name"]] = created if created > after else None
        return position, changed

    def appended(self, after: int = 0, limit: int = 10_000) -> tuple[int, dict[str, tuple[int, int]]]:
        """Facts stored after position `after` of the log: (the last position read, {game: (its first and last
        version among them)}), for a follower that passes on exactly what is new."""
        topics = [GAME_CREATED, GAME_RECORDED]
        spans: dict[UUID, tuple[int, int]] = {}
        position = after
        with self._translated():
            self._check_log(whole=True)
            recorder = self._events.recorder
            while batch := recorder.select_notifications(position, limit, topics=topics, inclusive_of_start=False):
                for n in batch:
                    first, _ = spans.get(n.originator_id, (n.originator_version, 0))
                    spans[n.originator_id] = (first, n.originator_version)
                position = batch[-1].id
            return position, {self._name_of(game): span for game, span in spans.items()}

    @property
    def concurrent_writes(self) -> bool:
        """Whether writers in one process should go at once (PostgreSQL queues them itself); SQLite's writers
        would wait in its busy handler's growing sleeps instead."""
        return self._postgres is not None

    def wakeup(self) -> Wakeup:
        """Something to wait on for the next fact stored by any process: PostgreSQL's LISTEN (every whispers
        process NOTIFYs after it stores), else a plain pause for the caller to poll the log."""
        if self._postgres is None:
            return Wakeup(None)
        with self._translated():
            conn = self._postgres.connect(autocommit=True)
            conn.execute(f"LISTEN {self._channel}")
        return Wakeup(conn)

    @property
    def _channel(self) -> str:
        return f"whispers_{self._postgres.schema or 'public'}" if self._postgres else ""

    def _notify(self) -> None:
        """Wakes the followers of a PostgreSQL store (other server processes) after a commit. A failure here
        loses no fact: the move is stored, and followers also poll the log."""
        if self._postgres is None:
            return
        with suppress(Exception), self._events.recorder.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            cursor.execute(f"NOTIFY {self._channel}")

    # ---------------------------------------------------------------------------------------------- read models
    # A read model's rows live in the store's own database (the SQLite file, the PostgreSQL schema), beside the
    # events, with a tracking record of the log position they were computed up to: both written in one
    # transaction, as eventsourcing's tracked projections do, so the figures travel with the store (a file
    # replaced or restored brings its own) and every process reading the store shares them.

    def tracked(self, projection: str) -> tuple[int, int, str | None]:
        """(position, layout, fingerprint) of the read model `projection`; (0, 0, None) if it was never saved."""
        with self._translated(), self._read_model(commit=False) as (cursor, sql):
            cursor.execute(sql("SELECT position, layout, fingerprint FROM {t} WHERE projection = ?"), (projection,))
            row = cursor.fetchone()
        if row is None:
            return 0, 0, None
        position, layout, fingerprint = _values(row)
        return int(position), int(layout), fingerprint

    def save_tracked(self, projection: str, layout: int, expected: int | None, position: int,
                     rows: Iterable[tuple[str, int | None, str]],
                     beside: Mapping[str, Iterable[tuple[str, int | None, str]]] | None = None) -> bool:
        """Writes `rows` (game, creation position or None to keep the one held, data) of the read model and its
        tracking record at `position`, in one transaction. With `expected` None the model is started afresh
        (its rows replaced); otherwise the write lands only if the model is still at `expected` under `layout`,
        and False says another process moved it on first (what it holds is then at least as recent). `beside`:
        the rows of other read models kept by the same tracking record (a narrower view of the same summaries),
        written in the same transaction, and started afresh with it."""
        fingerprint = self.fingerprint(position)
        try:
            self._save_tracked(projection, layout, expected, position, fingerprint, rows, beside or {})
        except _Lost:
            return False
        return True

    def _save_tracked(self, projection: str, layout: int, expected: int | None, position: int,
                      fingerprint: str | None, rows: Iterable[tuple[str, int | None, str]],
                      beside: Mapping[str, Iterable[tuple[str, int | None, str]]]) -> None:
        with self._translated(), self._read_model(commit=True) as (cursor, sql):
            if expected is None:
                for model in (projection, *beside):
                    cursor.execute(sql("DELETE FROM {s} WHERE projection = ?"), (model,))
                cursor.execute(sql("DELETE FROM {t} WHERE projection = ?"), (projection,))
                cursor.execute(sql("INSERT INTO {t} (projection, layout, position, fingerprint) VALUES (?, ?, ?, ?)"),
                               (projection, layout, position, fingerprint))
            else:
                cursor.execute(sql("UPDATE {t} SET position = ?, fingerprint = ? "
                                   "WHERE projection = ? AND position = ? AND layout = ?"),
                               (position, fingerprint, projection, expected, layout))
                if not _changed(cursor):
                    raise _Lost
            # one statement for every row (psycopg sends them in a pipeline, not a round trip each)
            cursor.executemany(sql("INSERT INTO {s} (projection, game, created, data) VALUES (?, ?, ?, ?) "
                                   "ON CONFLICT (projection, game) DO UPDATE SET data = excluded.data, "
                                   "created = COALESCE(excluded.created, {s}.created)"),
                               [(model, game, created, data) for model, written in ((projection, rows), *beside.items())
                                for game, created, data in written])

    def read_model(self, projection: str, games: Sequence[str] | None = None,
                   last: int | None = None) -> list[tuple[str, str]]:
        """The rows (game, data) of the read model `projection`, in the order the games were created: of the
        named `games` only (read by the table's key, never a scan), or of the `last` created only (by the index
        on creation), or every row."""
        with self._translated(), self._read_model(commit=False) as (cursor, sql):
            if games is not None:
                games = list(dict.fromkeys(games))  # each row once, however often it is named
                found: list[tuple[str, str]] = []
                for start in range(0, len(games), _NAMED_BATCH):
                    batch = list(games[start:start + _NAMED_BATCH])
                    cursor.execute(sql("SELECT game, data, created FROM {s} WHERE projection = ? AND game IN ("
                                       + ", ".join("?" * len(batch)) + ")"), (projection, *batch))
                    found.extend(_values(row) for row in cursor.fetchall())  # type: ignore[misc]
                found.sort(key=lambda row: (row[2] or 0, row[0]))  # type: ignore[misc]
                return [(game, data) for game, data, _ in found]  # type: ignore[misc]
            if last is not None:
                cursor.execute(sql("SELECT game, data FROM {s} WHERE projection = ? "
                                   "ORDER BY created DESC, game DESC LIMIT ?"), (projection, last))
                return [tuple(_values(row)) for row in reversed(cursor.fetchall())]  # type: ignore[misc]
            cursor.execute(sql("SELECT game, data FROM {s} WHERE projection = ? ORDER BY created, game"),
                           (projection,))
            return [tuple(_values(row)) for row in cursor.fetchall()]  # type: ignore[misc]

    def reset_read_models(self) -> None:
        """Drops the read models' tables (every projection's rows and tracking records: the catalog's, the
        snapshots') and makes them again, empty, in one transaction, whatever damage they held: what `whispers
        rebuild` (application/stores.py) starts from. The events are not touched."""
        with self._translated(), self._read_model(commit=True, afresh=True):
            pass

    def read_model_size(self, projection: str) -> int:
        """How many games the read model `projection` holds a row of (counted on its index)."""
        with self._translated(), self._read_model(commit=False) as (cursor, sql):
            cursor.execute(sql("SELECT count(*) FROM {s} WHERE projection = ?"), (projection,))
            return int(_values(cursor.fetchone())[0])

    @contextmanager
    def _read_model(self, commit: bool, afresh: bool = False) -> Iterator[tuple[Any, Any]]:
        """A cursor in a transaction on the store's database, and a function that fills in the read-model
        tables' names and the driver's placeholder. The tables are made the first time they are missing (or, with
        `afresh`, dropped and made again). On an
        SQLite store, a read is a plain read transaction (`_sqlite_reading`): reading a snapshot or the catalog
        opens no event store application, and no write transaction to look for the tables."""

        def sql(statement: str) -> str:
            return statement.format(t=f"{prefix}whispers_tracking", s=f"{prefix}whispers_summaries",
                                    i=_LAST_MADE).replace("?", marker)

        if self._sqlite is not None and not commit:
            prefix, marker = "", "?"
            with self._sqlite_reading() as cursor:
                if self._read_model_ready or cursor.execute("SELECT count(*) FROM sqlite_master WHERE name = ?",
                                                            (_LAST_MADE,)).fetchone()[0]:
                    self._read_model_ready = True
                    yield cursor, sql
                    return
        if self._postgres is not None:
            prefix = f"{self._postgres.schema or 'public'}."
            marker = "%s"
            opened = self._opening_connection()
            datastore = (_PlainPostgres(opened) if opened is not None
                         else self._events.recorder.datastore)  # type: ignore[attr-defined]
        else:
            prefix, marker = "", "?"
            datastore = getattr(self._events.recorder, "datastore", None)
            if datastore is None:  # memory: a database of the process's own, as long as the store is open
                if self._memory_db is None:
                    import sqlite3

                    # a server answers from more than one thread over one open store (the eventsourcing
                    # in-memory store beside it is not bound to a thread either)
                    self._memory_db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
                datastore = _PlainSQLite(self._memory_db)

        if not self._read_model_ready or afresh:
            with datastore.transaction(commit=True) as cursor:
                if afresh:
                    for statement in _DROP_READ_MODELS:
                        cursor.execute(sql(statement))
                    found = False
                elif self._postgres is not None:
                    cursor.execute("SELECT to_regclass(%s) IS NOT NULL AS found", (f"{prefix}{_LAST_MADE}",))
                    found = _values(cursor.fetchone())[0]
                else:
                    cursor.execute("SELECT count(*) FROM sqlite_master WHERE name = ?", (_LAST_MADE,))
                    found = _values(cursor.fetchone())[0]
                if not found:
                    for statement in _READ_MODEL_TABLES:
                        cursor.execute(sql(statement))
            self._read_model_ready = True
        with datastore.transaction(commit=commit) as cursor:
            yield cursor, sql

    def head(self) -> int:
        """The position of the last fact or note stored (0 for an empty store)."""
        with self._translated():
            if self._postgres is not None:
                return int(self._postgres_read("head"))
            return self._events.recorder.max_notification_id() or 0

    def fingerprint(self, position: int) -> str | None:
        """A digest of what is stored at `position` of the store's log (None if nothing is), for a read model
        to prove that the store it read up to there is still this one: a store deleted and made anew at the
        same place holds other events, with other timestamps, at the same positions."""
        if position < 1:
            return None
        if self._sqlite is not None:  # the log's position is the event row's (as eventsourcing's rowid numbered it)
            with self._translated(), self._sqlite_reading() as cursor:
                row = cursor.execute(f"SELECT stream, originator, version, topic, state FROM {LOG} WHERE position = ?",
                                 (position,)).fetchone()
            if row is None:
                return None
            stream, originator, version, topic, state = row
            return _fingerprint(position, self._uuid(stream, originator), version, topic, state)
        if self._postgres is not None:
            with self._translated():
                found = self._postgres_read("in_order", position, 1, position)
            return _fingerprint(*found[0]) if found and found[0][0] == position else None
        with self._translated():
            notified = self._events.recorder.select_notifications(position, 1, stop=position)
        if not notified or notified[0].id != position:
            return None
        n = notified[0]
        return _fingerprint(position, n.originator_id, n.originator_version, n.topic, n.state)

    def last_written(self, name: str) -> datetime:
        """When the game's last fact was stored (UTC, by the clock of the machine that stored it): the director's
        "last move" column. One event read, not the game."""
        check_name(name)
        with self._translated():
            last = self._last(game_id(name))
        if last is None:
            raise self._unknown(name)
        return self._written(name, last[1])

    def side_stream(self, originator_id: UUID) -> Any | None:
        """An aggregate kept beside the games (a game's shared links: application/sharing.py), or None if the
        store holds none with this id. Its class is found by its stored topic, so the caller defines it."""
        from eventsourcing.application import AggregateNotFoundError

        with self._translated():
            try:
                return self._events.repository.get(originator_id)
            except AggregateNotFoundError:
                return None

    def save_side_stream(self, aggregate: Aggregate) -> None:
        """Saves the new events of an aggregate kept beside the games (GameMovedOn if another writer saved one
        at the same version first)."""
        from eventsourcing.persistence import RecordConflictError

        with self._translated():
            try:
                self._events.save(aggregate)
            except RecordConflictError:
                raise GameMovedOn(say("another writer changed it at the same moment: try again")) from None

    def _name_of(self, game: UUID) -> str:
        created = self._events.recorder.select_events(game, lte=1, limit=1)
        record = _records().GameRecord  # defined before its stored event is decoded
        event = self._events.mapper.to_domain_event(created[0]) if created else None
        if not isinstance(event, record.Created):
            raise self._no_first_event(game)
        return event.name

    def _no_first_event(self, game: UUID) -> StoreError:
        return StoreError(say("game {game}: the store holds no first event for it: the store {store} is damaged",
                              game=str(game), store=self.url))

    def close(self) -> None:
        self._closed = True
        if self._app is not None:
            self._app.close()
            self._app = None
        with self._opening:
            for db in self._reader_connections:
                db.close()
            self._reader_connections.clear()
        if self._memory_db is not None:
            self._memory_db.close()
            self._memory_db = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def _events(self) -> EventStore:
        """The event store application, opened the first time it is needed."""
        self._refuse_closed()
        if self._app is None:
            with self._opening, self._translated():  # two threads of a server asking at once open one
                if self._app is None:
                    self._open_event_store()
        assert self._app is not None
        return self._app

    def _refuse_closed(self) -> None:
        if self._closed:
            raise StoreError(say("the store {store} is closed", store=self.url))

    @contextmanager
    def _sqlite_reading(self) -> Iterator[sqlite3.Cursor]:
        """A cursor (rows as tuples) in a read transaction on an SQLite store: on the event store's connections
        once it is open, else on a plain connection of this thread's own. A command that only reads games never
        imports eventsourcing (a sixth of `status`)."""
        self._refuse_closed()
        if self._app is not None:
            with self._app.recorder.datastore.transaction(commit=False) as cursor:  # type: ignore[attr-defined]
                plain = cursor.sqlite_cursor
                plain.row_factory = None
                yield plain
            return
        assert self._sqlite is not None
        db = getattr(self._readers, "db", None)
        if db is None:
            import sqlite3

            db = sqlite3.connect(self._sqlite, timeout=SQLITE_LOCK_TIMEOUT, isolation_level=None,
                                 check_same_thread=False)
            self._readers.db = db
            with self._opening:
                self._reader_connections.append(db)
        with _PlainSQLite(db).transaction(commit=False) as cursor:
            yield cursor

    def _postgres_read(self, read: str, *args: Any, binary: bool = False) -> Any:
        """The layout's read named `read` (a function of ledger/postgres_reads.py, imported by the first read) in a
        read transaction: on the connection the store was opened with, in the thread that opened it, until the event
        store application is open; then on its pool, retried as eventsourcing's own reads are. A command that only
        reads games never imports eventsourcing's application, PostgreSQL recorder and pool, and a server's threads
        share the pool, not a connection each."""
        from whispers.ledger import postgres_reads

        assert self._postgres is not None
        function = getattr(postgres_reads, read)
        opened = self._opening_connection()
        if opened is None:
            return self._events.recorder.read(function, *args, binary=binary)  # type: ignore[attr-defined]
        with _PlainPostgres(opened).transaction(commit=False, binary=binary) as cursor:
            return function(cursor, self._postgres.schema or "public", *args)

    def _opening_connection(self) -> Any | None:
        """The connection a PostgreSQL store was opened with, while the event store application is not open and in
        the thread that opened it (and not lost), else None."""
        self._refuse_closed()
        opened = getattr(self._readers, "postgres", None)
        return opened if self._app is None and opened is not None and not opened.closed else None

    def _version(self, name: str) -> int:
        if self._sqlite is not None:
            with self._sqlite_reading() as cursor:
                cursor.execute(f"SELECT max(version) FROM {EVENTS} WHERE stream = ?", (stream_of(game_id(name)),))
                (version,) = cursor.fetchone()
            if version is None:
                raise self._unknown(name)
            return int(version)
        last = self._last(game_id(name))
        if last is None:
            raise self._unknown(name)
        return last[0]

    def _last(self, originator: UUID) -> tuple[int, bytes] | None:
        """A stream's last event (its version and stored state), or None if the store holds none of it."""
        if self._postgres is not None:
            return self._postgres_read("last", originator)
        last = self._events.recorder.select_events(originator, desc=True, limit=1)
        return (last[0].originator_version, last[0].state) if last else None

    def _uuid(self, stream: int, stored: object) -> UUID:
        """A stream's id as an SQLite store keeps it, under its number; anything else is damage."""
        found = sqlite_layout.originator_of(stream, stored)
        if found is None:
            raise StoreError(say("the store {store} is damaged: {message}", store=self.url,
                                 message=f"the stream numbered {stream} is malformed: {stored!r}"))
        return found

    def _unknown(self, name: str) -> UnknownGame:
        return UnknownGame(say("no game named {game} in {store}", game=repr(name), store=self.url))

    @contextmanager
    def _translated(self) -> Iterator[None]:
        """Turns whatever the database driver raises into a one-line StoreError."""
        try:
            yield
        except StoreError:
            raise
        except self._driver_errors() as e:
            raise self._store_error(e) from e

    def _driver_errors(self) -> tuple[type[BaseException], ...]:
        """What the database driver and the event store library raise: the library's imported only when an error
        is on its way out (a command that only read an SQLite store never imported it)."""
        import sqlite3

        from eventsourcing.domain import OriginatorIDError, OriginatorVersionError
        from eventsourcing.persistence import MapperDeserialisationError, PersistenceError

        errors: tuple[type[BaseException], ...] = (
            PersistenceError,
            MapperDeserialisationError,
            sqlite3.Error,
            OriginatorIDError,  # a stream out of sequence, read by the library: a damaged store
            OriginatorVersionError,
        )
        if self._postgres is not None:
            import psycopg

            from whispers.ledger.postgres_reads import Malformed

            errors += (psycopg.Error, Malformed)
        return errors

    def _unreadable(self, message: str) -> StoreError:
        return StoreError(say("a stored event in {store} cannot be read: {message}", store=self.url,
                              message=_one_line(message)))

    def _store_error(self, error: BaseException) -> StoreError:
        from eventsourcing.domain import OriginatorIDError, OriginatorVersionError
        from eventsourcing.persistence import InterfaceError, MapperDeserialisationError, OperationalError

        message = _one_line(error)
        if "database is locked" in message or "lock timeout" in message:
            return StoreUnavailable(say("the store is locked by another process: {store}", store=self.url))
        if "file is not a database" in message:
            return StoreError(say("not a whispers store (not an SQLite database): {store}", store=self.url))
        if "malformed" in message or isinstance(error, OriginatorIDError | OriginatorVersionError):
            return StoreError(say("the store {store} is damaged: {message}", store=self.url, message=message))
        if isinstance(error, MapperDeserialisationError):
            return self._unreadable(message)
        if self._postgres is not None:
            import psycopg  # a connection lost under a store read on its opening connection is the driver's error

            if isinstance(error, OperationalError | InterfaceError | psycopg.OperationalError | psycopg.InterfaceError):
                return StoreUnavailable(say("cannot reach PostgreSQL at {where}: {message}",
                                            where=f"{self._postgres.host}:{self._postgres.port}", message=message))
        return StoreError(say("the store {store} failed: {message}", store=self.url, message=message))
