"""A PostgreSQL store: our own layout (ledger/io/postgres_layout.py), read by the layout's reads
(ledger/io/postgres_reads.py) on the connection the store was opened with until the event store application is open,
then on its pool; NOTIFY after each write, LISTEN for a follower.

psycopg is imported when a store is PostgreSQL's, and this module only when a URL names one.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from functools import partial
from typing import TYPE_CHECKING, Any, Final, TypeVar
from urllib.parse import parse_qs, quote, unquote, urlsplit
from uuid import UUID

import msgspec

from whispers.ledger.core.errors import StoreError, StoreUnavailable
from whispers.ledger.core.streams import GAME_CREATED, GAME_RECORDED
from whispers.ledger.core.words import say

if TYPE_CHECKING:
    from psycopg import Connection, Cursor
    from psycopg.rows import DictRow, TupleRow

from whispers.ledger.io.store_backend import (
    Backend,
    Datastore,
    Rows,
    SQLCursor,
    Wakeup,
    fingerprint_of,
    one_line,
    state_decoder,
    values,
)

_T = TypeVar("_T")

POSTGRES_CONNECT_TIMEOUT = 5
POSTGRES_LOCK_TIMEOUT = 5
"""Seconds to wait for another writer's lock, or for a PostgreSQL server to answer."""

_SCHEMA: Final = re.compile(r"[a-z_][a-z0-9_]{0,62}")
"""A PostgreSQL schema name that needs no quoting: eventsourcing finds its composite types by an unquoted name,
so in a schema such as "Tables" reads work and every write fails."""


class Postgres(msgspec.Struct, frozen=True):
    host: str
    port: int
    dbname: str
    user: str
    password: str
    schema: str

    def connect(self, autocommit: bool = False) -> Connection[TupleRow]:
        """A direct connection of the driver's own (outside eventsourcing's pool), failing fast when unreachable."""
        import psycopg

        return psycopg.connect(host=self.host, port=self.port, dbname=self.dbname, user=self.user,
                               password=self.password, connect_timeout=POSTGRES_CONNECT_TIMEOUT, autocommit=autocommit)


class PlainPostgres:
    """The transaction protocol of eventsourcing's datastores, over a plain psycopg connection in autocommit mode."""

    def __init__(self, conn: Connection[TupleRow]) -> None:
        self.conn = conn

    @contextmanager
    def transaction(self, commit: bool, binary: bool = False) -> Iterator[Cursor[TupleRow]]:
        """A cursor, rows as tuples (`binary`: in the binary format), in a transaction that commits if asked."""
        from psycopg import Rollback
        from psycopg.rows import tuple_row

        with self.conn.transaction(), self.conn.cursor(row_factory=tuple_row, binary=binary) as cursor:
            yield cursor
            if not commit:
                raise Rollback()


class PostgresBackend(Backend):
    concurrent_writes = True
    # On PostgreSQL a game's last version and its rows read the same index in the same way: a second query per game
    # found nothing the first missed, and cost a cold catalog a tenth of its time (Store._checked).
    version_read_apart = False
    placeholder = "%s"

    def __init__(self, url: str) -> None:
        shown, env, self.pg = _parsed(url)
        super().__init__(shown, env)
        self.read_model_prefix = f"{self.pg.schema or 'public'}."
        with _opening(self.pg, shown, self.env) as opened, self.translated():
            try:
                if self.env["CREATE_TABLE"] != "n":  # a new store's tables made, under the opening's lock
                    self.open_event_store()
            except BaseException:
                self.close()
                raise
        # the opening's connection is this thread's to read on
        self.readers.postgres = opened
        self.reader_connections.append(opened)

    def bind(self) -> Callable[[object], None] | None:
        return partial(_bound, pg=self.pg)

    def read(self, read: Callable[..., _T], *args: object, binary: bool = False) -> _T:
        """One of the layout's reads (a function of ledger/io/postgres_reads.py, imported by the first read) in a
        read transaction: on the connection the store was opened with, in the thread that opened it, until the event
        store application is open; then on its pool, retried as eventsourcing's own reads are. A command that only
        reads games never imports eventsourcing's application, PostgreSQL recorder and pool, and a server's threads
        share the pool, not a connection each."""
        opened = self.opening_connection()
        if opened is None:
            return self.events.recorder.read(read, *args, binary=binary)  # type: ignore[attr-defined]
        with PlainPostgres(opened).transaction(commit=False, binary=binary) as cursor:
            return read(cursor, self.pg.schema or "public", *args)

    def opening_connection(self) -> Connection[TupleRow] | None:
        """The connection the store was opened with, while the event store application is not open and in the
        thread that opened it (and not lost), else None."""
        self.refuse_closed()
        opened = getattr(self.readers, "postgres", None)
        return opened if self.app is None and opened is not None and not opened.closed else None

    def rows(self, originator: UUID, version: int | None, since: int | None = None) -> Rows:
        from whispers.ledger.io import postgres_reads as reads

        return self.read(reads.rows, originator, version, since)

    def many_states(self, originators: list[UUID]) -> dict[UUID, list[bytes]]:
        from whispers.ledger.io import postgres_reads as reads

        return self.whole_states(self.read(reads.many_rows, originators, binary=True))

    def last(self, originator: UUID) -> tuple[int, bytes] | None:
        from whispers.ledger.io import postgres_reads as reads

        return self.read(reads.last, originator)

    def changed_games(self, after: int, limit: int) -> tuple[int, dict[str, int | None]]:
        """In one statement: the games with facts after `after` grouped by the server, each beside its first event
        (whose position says whether it was created since, and whose state holds its name). The generic path made a
        notification object per event and asked for each game's first event on its own, a round trip and a domain
        event per game."""
        from whispers.ledger.io import postgres_reads as reads

        decode = state_decoder().decode
        position = after
        changed: dict[str, int | None] = {}
        for stream, last, created, topic, state in self.read(reads.changed_streams, after,
                                                             [GAME_CREATED, GAME_RECORDED]):
            position = max(position, last)
            if topic != GAME_CREATED:  # no first event (or another stream's) under the game's id
                raise self.no_first_event(stream)
            assert created is not None and state is not None
            changed[decode(state)["name"]] = created if created > after else None
        return position, changed

    def head(self) -> int:
        from whispers.ledger.io import postgres_reads as reads

        return int(self.read(reads.head))

    def fingerprint(self, position: int) -> str | None:
        from whispers.ledger.io import postgres_reads as reads

        found = self.read(reads.in_order, position, 1, position)
        return fingerprint_of(*found[0]) if found and found[0][0] == position else None

    def read_model_datastore(self) -> Datastore:
        opened = self.opening_connection()
        return PlainPostgres(opened) if opened is not None else super().read_model_datastore()

    def holds_table(self, cursor: SQLCursor, table: str) -> bool:
        cursor.execute("SELECT to_regclass(%s) IS NOT NULL AS found", (f"{self.read_model_prefix}{table}",))
        return bool(values(cursor.fetchone())[0])

    @property
    def channel(self) -> str:
        return f"whispers_{self.pg.schema or 'public'}"

    def notify(self) -> None:
        """Wakes the followers of the store (other server processes) after a commit. A failure here loses no fact:
        the move is stored, and followers also poll the log."""
        with suppress(Exception), self.events.recorder.datastore.transaction(commit=True) as cursor:  # type: ignore[attr-defined]
            cursor.execute(f"NOTIFY {self.channel}")

    def wakeup(self) -> Wakeup:
        """PostgreSQL's LISTEN: every whispers process NOTIFYs after it stores."""
        with self.translated():
            conn = self.pg.connect(autocommit=True)
            conn.execute(f"LISTEN {self.channel}")
        return Wakeup(conn)

    def driver_errors(self) -> tuple[type[BaseException], ...]:
        import psycopg

        from whispers.ledger.io.postgres_reads import Malformed

        return (*super().driver_errors(), psycopg.Error, Malformed)

    def failed(self, error: BaseException, message: str) -> StoreError:
        import psycopg  # a connection lost under a store read on its opening connection is the driver's error
        from eventsourcing.persistence import InterfaceError, OperationalError

        if isinstance(error, OperationalError | InterfaceError | psycopg.OperationalError | psycopg.InterfaceError):
            return StoreUnavailable(say("cannot reach PostgreSQL at {where}: {message}",
                                        where=f"{self.pg.host}:{self.pg.port}", message=message))
        return super().failed(error, message)


def _parsed(url: str) -> tuple[str, dict[str, str], Postgres]:
    """The URL to show (without its password), the event store's environment, and how to connect."""
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
    pg = Postgres(
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
        "APPLICATION_RECORDER_TOPIC": "whispers.ledger.io.postgres_recorder:CompactPostgresRecorder",
        "POSTGRES_DBNAME": pg.dbname,
        "POSTGRES_HOST": pg.host,
        "POSTGRES_PORT": str(pg.port),
        "POSTGRES_USER": pg.user,
        "POSTGRES_PASSWORD": pg.password,
        "POSTGRES_POOL_SIZE": "1",
        "POSTGRES_CONNECT_TIMEOUT": str(POSTGRES_CONNECT_TIMEOUT),
        "POSTGRES_LOCK_TIMEOUT": str(POSTGRES_LOCK_TIMEOUT),
        "POSTGRES_SCHEMA": pg.schema,
        "CREATE_TABLE": "y",  # "n" once the opening has found the tables (_opening)
    }
    shown = f"postgresql://{quote(pg.user, safe='')}@{pg.host}:{pg.port}/{quote(pg.dbname, safe='')}"
    if schema:
        shown += f"?schema={quote(schema, safe='')}"
    return shown, env, pg


@contextmanager
def _opening(pg: Postgres, url: str, env: dict[str, str]) -> Iterator[Connection[TupleRow]]:
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
            from whispers.ledger.core.digests import blake2b
            from whispers.ledger.io import postgres_layout  # an SQLite store never needs it

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
            raise StoreError(say("PostgreSQL at {where} failed: {message}", where=where, message=one_line(e))) from e
        yield conn
        try:
            conn.execute("SELECT pg_advisory_unlock(%s)", [key])
        except psycopg.Error as e:
            raise StoreError(say("PostgreSQL at {where} failed: {message}", where=where, message=one_line(e))) from e
    except BaseException:
        conn.close()
        raise


def _bound(datastore: Any, pg: Postgres) -> None:  # eventsourcing's PostgresDatastore, patched in place (below)
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
    def bounded() -> Iterator[Connection[DictRow]]:
        try:
            with get_connection() as conn:
                yield conn
        except OperationalError as e:
            if isinstance(e.__cause__, PoolTimeout):
                raise _why_no_connection(pg) from e
            raise

    datastore.get_connection = bounded


def _why_no_connection(pg: Postgres) -> StoreUnavailable:
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
    message = one_line(error)
    if "timeout expired" in message:
        return say("no answer within {seconds} s ({message})", seconds=POSTGRES_CONNECT_TIMEOUT, message=message)
    return message
