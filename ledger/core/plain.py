"""The type of a plain record: what a file, a stored fact or a JSON form holds (TOML, JSON and msgpack values).

Its values are `object`: opaque until read, so a reader checks what it reads (isinstance) or names the shape it
knows with a TypedDict. msgspec reads `object` as any value, so the events' fields may say so too.
"""

from collections.abc import Mapping
from typing import NotRequired, TypeAlias, TypedDict, TypeVar

import msgspec

Data: TypeAlias = dict[str, object]
"""A plain record keyed by text, where no TypedDict says more."""

S = TypeVar("S", bound=msgspec.Struct)


def filled(cls: type[S], fields: Mapping[str, object]) -> S:
    """A `cls` of the `fields` named, their values as they are: msgspec's constructor checks no value's type, so a
    record read back holds what was written, and a reader that checks the values checks the value made
    (`Ruleset._validate`). A name that is not a field is a TypeError."""
    return cls(**fields)


# --- a card sheet's data (ledger.decrees.CardSheet.to_data), as a game's first event embeds it ---------------


class EffectData(TypedDict):
    effect: str
    cost: NotRequired[dict[str, int]]
    sea: NotRequired[bool]


class CardData(TypedDict):
    set: str
    effects: list[EffectData]
    title: NotRequired[str]


NO_CARD: CardData = {"set": "", "effects": []}
"""What a sheet's data has for a card it does not hold: no set, no effect."""


class SheetData(TypedDict):
    """A card sheet's data (`CardSheet.to_data`), as a game's first event embeds it: per deck, each card number (as
    text) -> its card."""

    id: str
    name: str
    note: str
    example: bool
    decks: dict[str, dict[str, CardData]]
