"""The table facts of a game (who played, when, where: ledger/core/meta.py), changed as events of their own; archiving
and renaming; each person's record across games.

Renaming: a game is stored under uuid5(its name), and its name is written in its first event and in every
fork's and export's chain, so a rename does not move the record. It records a display title (`GameDescribed`
with `title`), shown by `games` beside the name the commands take. Archiving hides a game from `games` (an
event too: `games --all` shows it, nothing is erased).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from whispers.application.stores import opened
from whispers.ledger.core.plain import Data

if TYPE_CHECKING:
    from whispers.ledger.core.meta import Meta
    from whispers.ledger.io.store import Store
    from whispers.projections.people import PersonFigures


@dataclass(frozen=True, slots=True)
class Described:
    game: str
    version: int
    meta: Meta

    def to_json(self) -> Data:
        return {"game": self.game, "version": self.version, "meta": self.meta.to_json()}


def describe(store: Store | str | None, game: str, changes: Mapping[str, object]) -> Described:
    """Record a change of the game's table facts now (StoreError if it is not well formed: nothing recorded)."""
    from whispers.ledger.core.meta import of_events
    from whispers.ledger.io.game import describe as append_description

    with opened(store) as s:
        after = append_description(s, game, changes)
    return Described(game, after.version, of_events(after.events))


def archive(store: Store | str | None, game: str, archived: bool = True) -> Described:
    return describe(store, game, {"archived": archived})


def rename(store: Store | str | None, game: str, title: str) -> Described:
    return describe(store, game, {"title": title})


@dataclass(frozen=True, slots=True)
class People:
    figures: dict[str, PersonFigures]  # projections.people.by_player

    def to_json(self) -> dict[str, PersonFigures]:
        return self.figures


def by_player(store: Store | str | None) -> People:
    """Each person's record across the store's finished games (archived ones included: they were played), from
    the catalog of summaries kept in the store (it reads only what the store gained since it last read)."""
    from whispers.projections.catalog import Catalog
    from whispers.projections.people import by_player as figures

    with opened(store) as s:
        catalog = Catalog(s)
        try:
            catalog.refresh()
            summaries = catalog.summaries()
        finally:
            catalog.close()
    return People(figures({**summary, "names": dict(summary["meta"]["seats"])} for summary in summaries.values()))
