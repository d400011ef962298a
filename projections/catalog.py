"""The catalog: a per-game summary of every game in a store, kept by a read model that remembers how far
into the store's log it has read, so that after one more game it reads one more game.

It is the equivalent of eventsourcing's projection runner with a tracking recorder, by polling: SQLite
has no subscriptions. The summaries and the position are written in one transaction to a cache file of
their own (never the store's tables), so a crash cannot leave one without the other; deleting the file
only costs a rebuild. With the position it keeps a fingerprint of the event stored there: a catalog that
cannot prove it belongs to the store (the store was deleted and made anew at the same place), or whose file
is corrupt, is rebuilt rather than trusted.
"""

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from whispers.ledger.game import read_facts
from whispers.ledger.store import Store
from whispers.projections.stats import summary

SUMMARY_VERSION = 2
"""Part of the cache file's name, raised when `summary` changes what it keeps (2: the ruleset as its pinned label,
`official (modified 3f2a9c1e)`), so a cache written by an older whispers is rebuilt rather than trusted."""

LAYOUT = 2
"""The catalog file's layout (its PRAGMA user_version): a file of another layout is emptied and rebuilt."""
SCHEMA = f"""
BEGIN IMMEDIATE;
DROP TABLE IF EXISTS tracking;
DROP TABLE IF EXISTS summaries;
CREATE TABLE tracking (id INTEGER PRIMARY KEY CHECK (id = 1), position INTEGER NOT NULL, fingerprint TEXT);
CREATE TABLE summaries (game TEXT PRIMARY KEY, data TEXT NOT NULL);
PRAGMA user_version = {LAYOUT};
COMMIT;
"""


@dataclass(frozen=True)
class Refreshed:
    games: int
    """How many games this refresh read from the store."""
    events: int
    position: int


def cache_path(store: Store) -> Path | None:
    """The catalog's file for this store: in the user cache directory, one per store; None in memory."""
    if store.url == "memory:":
        return None
    import platformdirs

    digest = hashlib.sha256(store.url.encode()).hexdigest()[:16]
    return Path(platformdirs.user_cache_dir("whispers", appauthor=False)) / f"catalog-{SUMMARY_VERSION}-{digest}.sqlite"


class Catalog:
    def __init__(self, store: Store, path: Path | None = None) -> None:
        self.store = store
        self.path = path if path is not None else cache_path(store)
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = self._open()

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(":memory:" if self.path is None else str(self.path), timeout=10, isolation_level=None)
        try:
            if db.execute("PRAGMA user_version").fetchone()[0] != LAYOUT:
                db.executescript(SCHEMA)
            return db
        except sqlite3.DatabaseError:
            db.close()
            if self.path is None:
                raise
            self._remove_file()
            db = sqlite3.connect(str(self.path), timeout=10, isolation_level=None)
            db.executescript(SCHEMA)
            return db

    def _remove_file(self) -> None:
        assert self.path is not None
        for suffix in ("", "-journal", "-wal", "-shm"):
            self.path.with_name(self.path.name + suffix).unlink(missing_ok=True)

    @contextmanager
    def _rebuilt_if_corrupt(self) -> Iterator[None]:
        """A catalog file damaged past its header fails only when read: it is a cache, so start it again."""
        try:
            yield
        except (sqlite3.DatabaseError, ValueError):
            if self.path is None:
                raise
            self.db.close()
            self._remove_file()
            self.db = self._open()
            raise _Rebuilt from None

    def position(self) -> int:
        try:
            with self._rebuilt_if_corrupt():
                return self._tracked()[0]
        except _Rebuilt:
            return 0

    def _tracked(self) -> tuple[int, str | None]:
        row = self.db.execute("SELECT position, fingerprint FROM tracking WHERE id = 1").fetchone()
        return (row[0], row[1]) if row else (0, None)

    def refresh(self, progress: Callable[[int, int], None] | None = None) -> Refreshed:
        """Read what the store has gained since the last refresh; `progress(done, total)` as games are read."""
        try:
            with self._rebuilt_if_corrupt():
                return self._refresh(progress)
        except _Rebuilt:
            return self._refresh(progress)

    def _refresh(self, progress: Callable[[int, int], None] | None) -> Refreshed:
        start, fingerprint = self._tracked()
        if start and self.store.fingerprint(start) != fingerprint:  # not this store (or not as it was): start again
            start = 0
        position, names = self.store.changes(start)
        rows, events = [], 0
        for done, name in enumerate(names, start=1):
            facts = self.store.facts(name)
            events += len(facts)
            rows.append((name, json.dumps(summary(read_facts(facts, name)))))
            if progress:
                progress(done, len(names))
        self.db.execute("BEGIN IMMEDIATE")
        try:
            if start == 0:
                self.db.execute("DELETE FROM summaries")
            self.db.executemany("INSERT OR REPLACE INTO summaries (game, data) VALUES (?, ?)", rows)
            self.db.execute(
                "INSERT OR REPLACE INTO tracking (id, position, fingerprint) VALUES (1, ?, ?)",
                (position, self.store.fingerprint(position)),
            )
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return Refreshed(len(names), events, position)

    def summaries(self) -> dict[str, dict[str, Any]]:
        try:
            with self._rebuilt_if_corrupt():
                return self._summaries()
        except _Rebuilt:
            self._refresh(None)
            return self._summaries()

    def _summaries(self) -> dict[str, dict[str, Any]]:
        return {game: json.loads(data) for game, data in self.db.execute("SELECT game, data FROM summaries")}

    def close(self) -> None:
        self.db.close()


class _Rebuilt(Exception):
    """The catalog file was corrupt and has been started again."""
