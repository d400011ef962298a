"""The read models' rows (the catalog's summaries, the games' snapshots) in the store's own database.

They live beside the events (the SQLite file, the PostgreSQL schema), with a tracking record of the log position
they were computed up to: both written in one transaction, as eventsourcing's tracked projections do, so the
figures travel with the store (a file replaced or restored brings its own) and every process reading the store
shares them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Final, cast

from whispers.ledger.io.store_backend import Backend, SQLCursor, values

SNAPSHOTS: Final = "snapshot"
"""The read model (projection) whose rows are the games' snapshots, one row per game."""

_NAMED_BATCH = 500
"""Games named in one read of a read model: far below every driver's limit of parameters in one statement."""
_TABLES: Final = (
    "CREATE TABLE IF NOT EXISTS {t} (projection TEXT PRIMARY KEY, layout INTEGER NOT NULL, "
    "position BIGINT NOT NULL, fingerprint TEXT)",
    "CREATE TABLE IF NOT EXISTS {s} (projection TEXT NOT NULL, game TEXT NOT NULL, created BIGINT, "
    "data TEXT NOT NULL, PRIMARY KEY (projection, game))",
    # a read model's rows in the order its games were created, read without sorting them (10,000 games: 13 ms)
    "CREATE INDEX IF NOT EXISTS {i} ON {s} (projection, created, game)",
)
_LAST_MADE: Final = "whispers_summaries_created"
"""The read-model object made last (the index, added after the tables): a store that lacks it gets what it lacks."""
_DROP: Final = ("DROP TABLE IF EXISTS {s}", "DROP TABLE IF EXISTS {t}")  # the index goes with its table

ModelRows = Iterable[tuple[str, int | None, str]]
"""A read model's rows to write: (game, creation position or None to keep the one held, data)."""


class _Lost(Exception):
    """Another process moved a read model on first: this write is rolled back."""


def _changed(cursor: SQLCursor) -> int:
    count = getattr(cursor, "rowcount", None)
    if count is None or count < 0:
        cursor.execute("SELECT changes()")
        count = cast(int, values(cursor.fetchone())[0])
    return int(count)


class ReadModels:
    """The read models of one store, over its backend's database."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend
        self._ready = False

    def tracked(self, projection: str) -> tuple[int, int, str | None]:
        with self._transaction(commit=False) as (cursor, sql):
            cursor.execute(sql("SELECT position, layout, fingerprint FROM {t} WHERE projection = ?"), (projection,))
            row = cursor.fetchone()
        if row is None:
            return 0, 0, None
        position, layout, fingerprint = cast("tuple[int, int, str | None]", values(row))
        return int(position), int(layout), fingerprint

    def save_tracked(self, projection: str, layout: int, expected: int | None, position: int,
                     fingerprint: str | None, rows: ModelRows, beside: Mapping[str, ModelRows]) -> bool:
        """`Store.save_tracked`, its fingerprint read: False if another process moved the model on first."""
        try:
            self._save(projection, layout, expected, position, fingerprint, rows, beside)
        except _Lost:
            return False
        return True

    def _save(self, projection: str, layout: int, expected: int | None, position: int, fingerprint: str | None,
              rows: ModelRows, beside: Mapping[str, ModelRows]) -> None:
        with self._transaction(commit=True) as (cursor, sql):
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

    def rows(self, projection: str, games: Sequence[str] | None = None,
             last: int | None = None, skip: int = 0) -> list[tuple[str, str]]:
        with self._transaction(commit=False) as (cursor, sql):
            if games is not None:
                games = list(dict.fromkeys(games))  # each row once, however often it is named
                found: list[tuple[str, str, int | None]] = []
                for start in range(0, len(games), _NAMED_BATCH):
                    batch = list(games[start:start + _NAMED_BATCH])
                    cursor.execute(sql("SELECT game, data, created FROM {s} WHERE projection = ? AND game IN ("
                                       + ", ".join("?" * len(batch)) + ")"), (projection, *batch))
                    found.extend(cast("tuple[str, str, int | None]", values(row)) for row in cursor.fetchall())
                found.sort(key=lambda row: (row[2] or 0, row[0]))
                return [(game, data) for game, data, _ in found]
            if last is not None:
                cursor.execute(sql("SELECT game, data FROM {s} WHERE projection = ? "
                                   "ORDER BY created DESC, game DESC LIMIT ? OFFSET ?"), (projection, last, skip))
                return [cast("tuple[str, str]", values(row)) for row in reversed(cursor.fetchall())]
            cursor.execute(sql("SELECT game, data FROM {s} WHERE projection = ? ORDER BY created, game"),
                           (projection,))
            return [cast("tuple[str, str]", values(row)) for row in cursor.fetchall()]

    def reset(self) -> None:
        with self._transaction(commit=True, afresh=True):
            pass

    def size(self, projection: str) -> int:
        with self._transaction(commit=False) as (cursor, sql):
            cursor.execute(sql("SELECT count(*) FROM {s} WHERE projection = ?"), (projection,))
            return cast(int, values(cursor.fetchone())[0])

    def snapshot(self, name: str) -> str | None:
        with self._transaction(commit=False) as (cursor, sql):
            cursor.execute(sql("SELECT data FROM {s} WHERE projection = ? AND game = ?"), (SNAPSHOTS, name))
            row = cursor.fetchone()
        return None if row is None else cast(str, values(row)[0])

    def keep_snapshot(self, name: str, data: str) -> None:
        with self._transaction(commit=True) as (cursor, sql):
            cursor.execute(sql("INSERT INTO {s} (projection, game, created, data) VALUES (?, ?, NULL, ?) "
                               "ON CONFLICT (projection, game) DO UPDATE SET data = excluded.data"),
                           (SNAPSHOTS, name, data))

    @contextmanager
    def _transaction(self, commit: bool, afresh: bool = False
                     ) -> Iterator[tuple[SQLCursor, Callable[[str], str]]]:
        """A cursor in a transaction on the store's database, and a function that fills in the read-model
        tables' names and the driver's placeholder. The tables are made the first time they are missing (or, with
        `afresh`, dropped and made again). Where the backend reads without a write transaction (SQLite), a read
        opens no event store application, and no write transaction to look for the tables."""
        backend = self._backend
        prefix, marker = backend.read_model_prefix, backend.placeholder

        def sql(statement: str) -> str:
            return statement.format(t=f"{prefix}whispers_tracking", s=f"{prefix}whispers_summaries",
                                    i=_LAST_MADE).replace("?", marker)

        with backend.translated():
            if not commit:
                with backend.read_model_reading() as cursor:
                    if cursor is not None and (self._ready or backend.holds_table(cursor, _LAST_MADE)):
                        self._ready = True
                        yield cursor, sql
                        return
            datastore = backend.read_model_datastore()
            if not self._ready or afresh:
                with datastore.transaction(commit=True) as cursor:
                    if afresh:
                        for statement in _DROP:
                            cursor.execute(sql(statement))
                    if afresh or not backend.holds_table(cursor, _LAST_MADE):
                        for statement in _TABLES:
                            cursor.execute(sql(statement))
                self._ready = True
            with datastore.transaction(commit=commit) as cursor:
                yield cursor, sql
