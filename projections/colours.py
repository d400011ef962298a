"""Colours for the pictures: the empires' (as the rulebooks give them) and the secret societies' (whispers' own).

Each colour comes in three shades: `strong` for borders, edges and swatches, `light` for fills under black
text, and `ink`, the text colour that reads on `strong`. An id with no colour of its own (an empire of a
user's board, a society added later) gets a stable one from a spare palette, so a picture never fails for
want of a colour and the same id is drawn the same way every time.
"""

import zlib
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Colour:
    strong: str
    light: str
    ink: str = "#ffffff"


EMPIRES: dict[str, Colour] = {
    # EN "The Five Empires": the bear is blue, the lion yellow, the horse brown, the elephant green, the eagle red.
    "bear": Colour("#2f5ea8", "#d3e0f4"),
    "lion": Colour("#e0b000", "#fbefb8", "#000000"),
    "horse": Colour("#8a5a2b", "#ead9c6"),
    "elephant": Colour("#2e8540", "#d2ecd6"),
    "eagle": Colour("#c0392b", "#f6d5d1"),
}

SOCIETIES: dict[str, Colour] = {
    # whispers' choice: distinct from each other and from the empires' colours, readable on white.
    "raven": Colour("#5f6b73", "#eceff1"),
    "spider": Colour("#7b3fa0", "#e8daf1"),
    "rat": Colour("#c07a12", "#f8e4c4"),
    "serpent": Colour("#138d90", "#cdeeee"),
}

SPARE: tuple[Colour, ...] = (
    Colour("#d6336c", "#f9d7e3"),
    Colour("#5c7cfa", "#dde4fe"),
    Colour("#37b24d", "#d8f3dc"),
    Colour("#f76707", "#fde2cf"),
    Colour("#1098ad", "#cfeef3"),
    Colour("#ae3ec9", "#f1d9f6"),
    Colour("#868e96", "#eceef0"),
)
"""For ids with no colour of their own."""

NOBODY = Colour("#9e9e9e", "#f5f5f5")
"""An office no agent controls."""


def spare(ident: str) -> Colour:
    """A stable colour for an id with none of its own (the same id always gets the same colour)."""
    return SPARE[zlib.crc32(ident.encode("utf-8")) % len(SPARE)]


def empire_colour(empire: str) -> Colour:
    return EMPIRES.get(empire) or spare(empire)


def society_colour(society: str | None) -> Colour:
    if society is None:
        return NOBODY
    return SOCIETIES.get(society) or spare(society)
