"""The catalog: a per-game summary of every game in a store, kept by a read model that remembers how far
into the store's log it has read, so that after one more game it reads one more game.

It is the equivalent of eventsourcing's projection runner with a tracking recorder, by polling: SQLite
has no subscriptions. The summaries and the position are written in one transaction to a cache file of
their own (never the store's tables), so a crash cannot leave one without the other; deleting the file
only costs a rebuild.
"""

import hashlib
import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from whispers.ledger.game import read_facts
from whispers.ledger.store import Store
from whispers.projections.stats import summary

SUMMARY_VERSION = 2
"""Part of the cache file's name, raised when `summary` changes what it keeps (2: the ruleset as its pinned label,
`official (modified 3f2a9c1e)`), so a cache written by an older whispers is rebuilt rather than trusted."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS tracking (id INTEGER PRIMARY KEY CHECK (id = 1), position INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS summaries (game TEXT PRIMARY KEY, data TEXT NOT NULL);
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
        path = path if path is not None else cache_path(store)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(":memory:" if path is None else str(path), timeout=10, isolation_level=None)
        self.db.executescript(SCHEMA)

    def position(self) -> int:
        row = self.db.execute("SELECT position FROM tracking WHERE id = 1").fetchone()
        return row[0] if row else 0

    def refresh(self, progress: Callable[[int, int], None] | None = None) -> Refreshed:
        """Read what the store has gained since the last refresh; `progress(done, total)` as games are read."""
        start = self.position()
        if self.store.head() < start:  # the store was replaced by a shorter one: start again
            self.db.execute("DELETE FROM summaries")
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
            self.db.executemany("INSERT OR REPLACE INTO summaries (game, data) VALUES (?, ?)", rows)
            self.db.execute("INSERT OR REPLACE INTO tracking (id, position) VALUES (1, ?)", (position,))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return Refreshed(len(names), events, position)

    def summaries(self) -> dict[str, dict[str, Any]]:
        return {game: json.loads(data) for game, data in self.db.execute("SELECT game, data FROM summaries")}

    def close(self) -> None:
        self.db.close()
