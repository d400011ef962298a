"""A use case is given a store URL (None: $WHISPERS_STORE, else the default file) or a Store already open."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from whispers.ledger.core.plain import Data

if TYPE_CHECKING:
    from whispers.ledger.io.store import Store as Store  # the type every face names a store by


@contextmanager
def opened(store: Store | str | None) -> Iterator[Store]:
    """The store to work on: `store` itself if it is open (left open), else the one at that URL (closed after)."""
    from whispers.ledger.io.store import Store, open_store

    if isinstance(store, Store):
        yield store
        return
    with open_store(store) as fresh:
        yield fresh


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """What `rebuild` made again: the catalog (and its listing and figures) over `games` games of `events` events,
    and a snapshot of each game's state at its head."""

    games: int
    events: int
    snapshots: int

    def to_json(self) -> Data:
        return {"games": self.games, "events": self.events, "snapshots": self.snapshots,
                "read_models": ["catalog", "listing", "figures", "snapshot"]}


def _unseen(stage: str, done: int, total: int) -> None:
    """No progress shown."""


def rebuild(store: Store | str | None, progress: Callable[[str, int, int], None] = _unseen) -> Rebuilt:
    """Every read model of the store made again from its events alone, whatever damage it held: the read models'
    tables are dropped and made anew, the catalog folds every game, and each game's snapshot is kept again.
    The events are not touched. `progress(stage, done, total)` as games are read ("catalog", then "snapshots")."""
    from whispers.ledger.io.game import head
    from whispers.projections.catalog import Catalog

    with opened(store) as s:
        s.reset_read_models()
        refreshed = Catalog(s).refresh(lambda done, total: progress("catalog", done, total))
        names = s.names()
        for done, name in enumerate(names, start=1):
            head(s, name)  # no snapshot now: the record is replayed and its state at the head kept
            progress("snapshots", done, len(names))
    return Rebuilt(refreshed.games, refreshed.events, len(names))
