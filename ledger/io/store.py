"""The event store: each game's facts, in order, as one eventsourcing aggregate per game.

The store keeps facts and knows nothing of their meaning; the rules engine folds them. The one read that knows
what they are is `events`, which decodes a game's rows straight into the event types for the fold. Open one with
`open_store(url)`: `memory:`, an SQLite file (`sqlite:///abs/path` or a plain path), or `postgresql://...`.
Every failure a user can cause is raised as a one-line `StoreError`.

`Store` is the facade every other module uses. Beneath it, one `Backend` per kind of store (ledger/io/store_backend.py,
store_memory.py, store_sqlite.py, store_postgres.py, each imported only when a URL names its kind), and the
store's parts over it: the games' records (store_games.py), their notes (store_notes.py), the aggregates kept
beside them (store_side_streams.py) and the read models (store_read_models.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Final, Self
from uuid import UUID

from whispers.ledger.core.errors import StoreError, TextError
from whispers.ledger.core.events import Event
from whispers.ledger.core.streams import Fact, game_id
from whispers.ledger.core.text import control_in
from whispers.ledger.core.words import say
from whispers.ledger.io import store_notes, store_side_streams
from whispers.ledger.io.store_backend import Backend, Wakeup, fingerprint_of
from whispers.ledger.io.store_games import GameRecords, check_name
from whispers.ledger.io.store_read_models import ModelRows, ReadModels

if TYPE_CHECKING:
    from eventsourcing.domain import Aggregate

    from whispers.ledger.io.eventstore import EventStore

__all__ = ["STORE_ENV", "Store", "Wakeup", "check_name", "default_store_path", "game_id", "open_store"]
_fingerprint = fingerprint_of  # the name tests/test_postgres_layout.py compares with


def __getattr__(name: str) -> type:
    """The classes `GameRecord`, `NotesRecord` and `EventStore` are still found here, defined on first use."""
    if name in ("GameRecord", "NotesRecord"):
        from whispers.ledger.io import records

        return getattr(records, name)
    if name == "EventStore":
        from whispers.ledger.io.eventstore import EventStore

        return EventStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


STORE_ENV: Final = "WHISPERS_STORE"


def open_store(url: str | None = None) -> Store:
    """Opens the store at `url`; when None, at $WHISPERS_STORE, else the default SQLite file."""
    return Store(_backend(url or os.environ.get(STORE_ENV) or None))


def default_store_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("whispers", appauthor=False)) / "whispers.sqlite"


def _backend(url: str | None) -> Backend:
    """The backend of the kind of store `url` names, its module imported only then."""
    if url is None:
        path = default_store_path()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(say("cannot create the store directory {file}: {message}", file=str(path.parent),
                                 message=e.strerror)) from e
        return _sqlite(path)
    if url == "memory:":
        from whispers.ledger.io.store_memory import MemoryBackend

        return MemoryBackend()
    if url.startswith(("postgresql://", "postgres://")):
        from whispers.ledger.io.store_postgres import PostgresBackend

        return PostgresBackend(url)
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


def _sqlite(path: Path) -> Backend:
    from whispers.ledger.io.store_sqlite import SQLiteBackend

    return SQLiteBackend(path)


def _refuse_controls(name: str, facts: object) -> None:
    """Every write's check: no text of a record holds a control character a terminal acts on (ledger/core/text.py), so
    no reason, name, note or board a record keeps can recolour, move or link a reader's terminal."""
    if (char := control_in(facts)) is not None:
        raise TextError(say("game {game}: a text holds the control character {char}, which a record keeps in no "
                            "text", game=repr(name), char=repr(char)))


class Store:
    """The games in one store. Open with `open_store`; use as a context manager or call `close`."""

    url: str
    """Where the store is (a PostgreSQL URL without its password), for messages."""

    def __init__(self, backend: Backend) -> None:
        self.url = backend.url
        self._backend = backend
        self._games = GameRecords(backend)
        self._read_models = ReadModels(backend)

    # ---------------------------------------------------------------------------------------------- games

    def create(self, name: str, facts: list[Fact], notes: list[Fact] | None = None) -> int:
        """Records a new game with its first facts, and its notes if any, all in one save; returns its version."""
        check_name(name)
        if facts:
            _refuse_controls(name, [facts, notes])
        return self._games.create(name, facts, notes)

    def append(self, name: str, expected_version: int, facts: list[Fact]) -> int:
        """Appends facts after exactly `expected_version`, all or none; returns the new version."""
        check_name(name)
        _refuse_controls(name, facts)
        return self._games.append(name, expected_version, facts)

    def facts(self, name: str, version: int | None = None) -> list[Fact]:
        """The game's first `version` facts, or all of them."""
        return self._games.facts(name, version)

    def events(self, name: str, version: int | None = None) -> list[Event]:
        """The game's first `version` events, or all of them, for the rules to fold: the one read of the store that
        knows what its facts mean (store_games.GameRecords.events)."""
        return self._games.events(name, version)

    def written_events(self, name: str) -> tuple[list[Event], datetime]:
        """The game's events (as `events(name)`) and when its last one was stored, read together: what the catalog
        keeps of each game."""
        return self._games.written_events(name)

    def written_games(self, names: Sequence[str], chunk: int = 250, read_whole: frozenset[str] | None = None
                      ) -> Iterator[tuple[str, list[Event], datetime]]:
        """`written_events` of many games, in their order, `chunk` at a time (store_games.GameRecords)."""
        return self._games.written_games(names, chunk, read_whole)

    def facts_after(self, name: str, after: int, upto: int | None = None) -> list[Fact]:
        """The game's facts after its first `after`, up to its `upto`th (a follower reads only what is new)."""
        return self._games.facts_after(name, after, upto)

    def tail(self, name: str, since: int) -> tuple[Fact, bytes | None, list[Event], bytes] | None:
        """What a snapshot of the game at version `since` (ledger/io/snapshots.py) is brought up to date with, or None
        when the rows are anything but a whole tail (store_games.GameRecords.tail)."""
        return self._games.tail(name, since)

    def version(self, name: str) -> int:
        """The number of facts recorded for the game."""
        return self._games.version(name)

    def exists(self, name: str) -> bool:
        return self._games.exists(name)

    def last_written(self, name: str) -> datetime:
        """When the game's last fact was stored (UTC, by the clock of the machine that stored it)."""
        return self._games.last_written(name)

    def names(self) -> list[str]:
        """Every game in the store, in the order they were created."""
        return self._games.names()

    # ---------------------------------------------------------------------------------------------- the log

    def changes(self, after: int = 0, limit: int = 10_000) -> tuple[int, list[str]]:
        """Games with facts stored after position `after` of the store's log: (the last position read, their
        names in order of first change). For read models that remember how far they have read."""
        return self._games.changes(after, limit)

    def changed_games(self, after: int = 0, limit: int = 10_000) -> tuple[int, dict[str, int | None]]:
        """Like `changes`, with each game's creation position in the log when it was created after `after`
        (else None): the order `names` lists games in, for a read model to keep."""
        return self._games.changed_games(after, limit)

    def appended(self, after: int = 0, limit: int = 10_000) -> tuple[int, dict[str, tuple[int, int]]]:
        """Facts stored after position `after` of the log: (the last position read, {game: (its first and last
        version among them)}), for a follower that passes on exactly what is new."""
        return self._games.appended(after, limit)

    def head(self) -> int:
        """The position of the last fact or note stored (0 for an empty store)."""
        with self._backend.translated():
            return self._backend.head()

    def fingerprint(self, position: int) -> str | None:
        """A digest of what is stored at `position` of the store's log (None if nothing is), for a read model
        to prove that the store it read up to there is still this one: a store deleted and made anew at the
        same place holds other events, with other timestamps, at the same positions."""
        if position < 1:
            return None
        with self._backend.translated():
            return self._backend.fingerprint(position)

    @property
    def concurrent_writes(self) -> bool:
        """Whether writers in one process should go at once (PostgreSQL queues them itself); SQLite's writers
        would wait in its busy handler's growing sleeps instead."""
        return self._backend.concurrent_writes

    def wakeup(self) -> Wakeup:
        """Something to wait on for the next fact stored by any process: PostgreSQL's LISTEN (every whispers
        process NOTIFYs after it stores), else a plain pause for the caller to poll the log."""
        return self._backend.wakeup()

    # ---------------------------------------------------------------------------------------------- notes

    def add_note(self, name: str, note: Fact) -> int:
        """Appends a note to the game's notes stream at its next version; returns how many notes it holds now."""
        check_name(name)
        _refuse_controls(name, note)
        return store_notes.add_note(self._backend, name, note)

    def notes(self, name: str) -> list[Fact]:
        """The game's notes, in the order they were added (none for a game never annotated).

        Each stored note is decoded on its own, so one that cannot be decoded (written by an older whispers)
        comes back as {"unreadable": why} in its place instead of making every note unreadable."""
        check_name(name)
        return store_notes.notes(self._backend, name)

    # ---------------------------------------------------------------------------------------------- side streams

    def side_stream(self, originator_id: UUID) -> Aggregate | None:
        """An aggregate kept beside the games (a game's shared links: application/sharing.py), or None if the
        store holds none with this id. Its class is found by its stored topic, so the caller defines it."""
        return store_side_streams.side_stream(self._backend, originator_id)

    def save_side_stream(self, aggregate: Aggregate) -> None:
        """Saves the new events of an aggregate kept beside the games (GameMovedOn if another writer saved one
        at the same version first)."""
        store_side_streams.save_side_stream(self._backend, aggregate)

    # ---------------------------------------------------------------------------------------------- read models

    def tracked(self, projection: str) -> tuple[int, int, str | None]:
        """(position, layout, fingerprint) of the read model `projection`; (0, 0, None) if it was never saved."""
        return self._read_models.tracked(projection)

    def save_tracked(self, projection: str, layout: int, expected: int | None, position: int, rows: ModelRows,
                     beside: Mapping[str, ModelRows] | None = None) -> bool:
        """Writes `rows` (game, creation position or None to keep the one held, data) of the read model and its
        tracking record at `position`, in one transaction. With `expected` None the model is started afresh
        (its rows replaced); otherwise the write lands only if the model is still at `expected` under `layout`,
        and False says another process moved it on first (what it holds is then at least as recent). `beside`:
        the rows of other read models kept by the same tracking record (a narrower view of the same summaries),
        written in the same transaction, and started afresh with it."""
        return self._read_models.save_tracked(projection, layout, expected, position, self.fingerprint(position),
                                              rows, beside or {})

    def read_model(self, projection: str, games: Sequence[str] | None = None,
                   last: int | None = None, skip: int = 0) -> list[tuple[str, str]]:
        """The rows (game, data) of the read model `projection`, in the order the games were created: of the
        named `games` only (read by the table's key, never a scan), or of the `last` created only (by the index
        on creation; with `skip`, the `last` created before the `skip` latest: a page of a listing), or every
        row."""
        return self._read_models.rows(projection, games, last, skip)

    def reset_read_models(self) -> None:
        """Drops the read models' tables (every projection's rows and tracking records: the catalog's, the
        snapshots') and makes them again, empty, in one transaction, whatever damage they held: what `whispers
        rebuild` (application/stores.py) starts from. The events are not touched."""
        self._read_models.reset()

    def read_model_size(self, projection: str) -> int:
        """How many games the read model `projection` holds a row of (counted on its index)."""
        return self._read_models.size(projection)

    def snapshot(self, name: str) -> str | None:
        """The game's kept snapshot (ledger/io/snapshots.py's text), if any: a read model row like the catalog's."""
        return self._read_models.snapshot(name)

    def keep_snapshot(self, name: str, data: str) -> None:
        """Keeps `data` as the game's snapshot, in place of the one before (it says its own version)."""
        self._read_models.keep_snapshot(name, data)

    # ---------------------------------------------------------------------------------------------- closing

    @property
    def _events(self) -> EventStore:
        """The event store application beneath (opened if it was not): for tests and benchmarks that plant rows."""
        return self._backend.events

    def close(self) -> None:
        self._backend.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

