"""The tournament director's screen: every game with its state, table, players and last move time; the
standings of the tournament file; a game verified with its chain head. Read from the catalog, a page at a time,
never a fold of every game."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from whispers.application.stores import opened
from whispers.ledger.core.plain import Data

if TYPE_CHECKING:
    from whispers.application.reading import GameRowJson, Pinned
    from whispers.application.tournament import Standings
    from whispers.ledger.io.store import Store

    class HallRow(GameRowJson):
        """A game's row on the director's screen: its listing row, its state there and when it last moved."""

        state: str  # one of STATES
        last_move: str  # its last-written time, to the second


PAGE = 50
"""Games on one page of the director's screen, the latest created first: a store of 10,000 games in one table was
megabytes of HTML, reloaded at every move of every table, and read the whole catalog at every request."""
STATES = ("playing", "setup", "over")
"""A game's state on the director's screen, each a tab of its own."""


@dataclass(frozen=True, slots=True)
class Hall:
    """One page of the games in the store, as the director sees them (the record: nothing here is secret to a
    director but loyalty and hands, which a listing does not hold), the latest created first."""

    rows: tuple[HallRow, ...]
    position: int  # the store's log position read up to: a live page follows from here
    counts: dict[str, int]  # games in the store ("all"), and in each of STATES when every row was read for a filter
    state: str | None  # the tab shown: one of STATES, or None for every game
    text: str  # the search: a game is shown when its name, table, event or a seat's name holds it ("" for any)
    page: int
    pages: int
    found: int  # games the tab and the search keep, on every page

    def to_json(self) -> Data:
        return {"games": list(self.rows), "position": self.position, "counts": self.counts, "state": self.state,
                "text": self.text, "page": self.page, "pages": self.pages, "found": self.found}


def hall(store: Store | str | None, state: str | None = None, text: str = "", page: int = 1) -> Hall:
    """The `page`th page (from 1; past the last, the last) of the games in `state` (None: all) matching `text`,
    the latest created first, read from the catalog's listing (its last-written time included): no game is read.
    With no tab and no search only the page's rows are read, by the catalog's index of creation. Archived games
    are listed too (marked on the page): the director's list is of every game, and the index knows none archived.
    WhispersError names a state or page that is not one."""
    from whispers.application.reading import listing_row
    from whispers.ledger.core.errors import WhispersError
    from whispers.ledger.core.words import say
    from whispers.projections.catalog import Catalog

    if state is not None and state not in STATES:
        raise WhispersError(say("no such state {text}: one of {states}", text=repr(state), states=", ".join(STATES)))
    if page < 1:
        raise WhispersError(say("no page {text}: pages count from 1", text=repr(page)))
    needle = text.strip().casefold()
    pinned: dict[tuple[str, ...], Pinned] = {}
    with opened(store) as s:
        position = s.head()
        catalog = Catalog(s)
        catalog.refresh()
        size = catalog.size()
        if state is None and not needle:
            pages = max(1, -(-size // PAGE))
            page = min(page, pages)
            read = catalog.listing(last=PAGE, skip=(page - 1) * PAGE)
            rows = [_shown(listing_row(name, d, pinned)) for name, d in reversed(read.items())]
            return Hall(tuple(rows), position, {"all": size}, None, "", page, pages, size)
        # A tab or a search reads every row: the catalog indexes a game by name and by creation only, not by its
        # state or the names, table and event a search looks in (they change at every move or description)
        listed = catalog.listing()
    rows = [_shown(listing_row(name, d, pinned)) for name, d in reversed(listed.items())]
    counts = {"all": len(rows), **{one: sum(row["state"] == one for row in rows) for one in STATES}}
    kept = [row for row in rows if (state is None or row["state"] == state) and (not needle or _holds(row, needle))]
    pages = max(1, -(-len(kept) // PAGE))
    page = min(page, pages)
    return Hall(tuple(kept[(page - 1) * PAGE:page * PAGE]), position, counts, state, text.strip(), page, pages,
                len(kept))


def _shown(row: GameRowJson) -> HallRow:
    """A listing's row with its state on the director's screen and its last-written time to the second."""
    return {**row, "state": "over" if row["over"] else ("setup" if row["phase"] == "setup" else "playing"),
            "last_move": str(row["written"])[:19] + str(row["written"])[26:]}


def _holds(row: HallRow, needle: str) -> bool:
    meta = row["meta"]
    return any(needle in (value or "").casefold()
               for value in (row["game"], meta["table"], meta["event"], *meta["seats"].values()))


def tournament_standings(store: Store | str | None, file: Path | None) -> Standings:
    """The standings of the tournament file the server was started with, recomputed from the catalog at each
    call (so as games finish); StoreError if none was given."""
    from whispers.application.tournament import tournament
    from whispers.ledger.core.errors import StoreError
    from whispers.ledger.core.words import _

    if file is None:
        raise StoreError(_("no tournament file: start the server with `whispers serve --tournament FILE` to show "
                           "its standings"))
    return tournament(store, file)


def exists(store: Store | str | None, game: str) -> bool:
    from whispers.ledger.io.store import check_name

    try:
        check_name(game)
    except Exception:
        return False
    with opened(store) as s:
        return s.exists(game)
