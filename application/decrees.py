"""The decree catalogue and the card sheets (docs/decrees.md): the catalogue listed, a card sheet checked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from whispers.ledger.core.decrees import CardSheet, Family
    from whispers.ledger.core.pins import Pin
    from whispers.ledger.core.plain import Data


@dataclass(frozen=True, slots=True)
class Catalogue:
    data: Data  # ledger.core.decree_effects.listing: what `whispers decrees --json` prints
    timing: Family | None  # the timing column of the ruleset asked about, None for both rulesets'

    def to_json(self) -> Data:
        return self.data


def catalogue(ruleset: str | None = None) -> Catalogue:
    """Every card effect the rulebooks name; with `ruleset` (an id or a .toml path), when it lets each be played."""
    from whispers.ledger.core.decree_effects import listing
    from whispers.ledger.core.decrees import family
    from whispers.ledger.io.decree_files import shipped_catalogue

    timing = None
    if ruleset is not None:
        from whispers.ledger.io.ruleset_files import load_ruleset

        timing = family(load_ruleset(ruleset))
    data = listing(shipped_catalogue(), timing)
    if ruleset is not None:
        data["ruleset"] = ruleset
    return Catalogue(data, timing)


@dataclass(frozen=True, slots=True)
class SheetCheck:
    ref: str
    sheet: CardSheet | None  # None: the sheet is not valid, and `problems` says why
    problems: tuple[str, ...]
    pin: Pin | None  # shipped, modified or custom (None for a sheet that is not valid)

    @property
    def by_set(self) -> dict[str, int]:
        """How many cards of each card set the sheet holds, in the order they first come."""
        counted: dict[str, int] = {}
        for deck in self.sheet.cards.values() if self.sheet is not None else ():
            for card in deck.values():
                counted[card.set] = counted.get(card.set, 0) + 1
        return counted


def check_cards(ref: str) -> SheetCheck:
    """The card sheet `ref` (a shipped id or a path) checked against the decree catalogue: every problem, or the
    sheet and its pin. A file that cannot be read or parsed raises DecreeError."""
    from whispers.ledger.io.decree_files import check_sheet
    from whispers.ledger.io.shipped import pin

    sheet, problems = check_sheet(ref)
    if sheet is None:
        return SheetCheck(ref, None, tuple(problems), None)
    return SheetCheck(ref, sheet, (), pin("cards", sheet.id, sheet.content_hash))
