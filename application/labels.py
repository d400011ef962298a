"""Move labels (projections/labels.py) for the faces: what `--at` names, and each move's label."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from whispers.application.stores import opened

if TYPE_CHECKING:
    from whispers.ledger.io.store import Store
    from whispers.projections.labels import Label


def at_event(store: Store | str | None, game: str, text: str | int | None) -> int | None:
    """The event number `text` names (an event number, mN, 2.bear.marshal, "R2 deploy 3", round2, end); None for
    None. An event number is passed on as it is (its range checked where it is read); UnknownLabel otherwise."""
    if text is None or isinstance(text, int) or re.fullmatch(r"\s*-?\d+\s*", text):
        return None if text is None else int(text)  # out of range: NoSuchEvent, as for any event number
    from whispers.ledger.core.events import read_facts
    from whispers.projections.labels import resolve

    with opened(store) as s:
        events = read_facts(s.facts(game), game)
    return resolve(game, events, text)


def move_labels(store: Store | str | None, game: str) -> dict[int, Label]:
    from whispers.ledger.core.events import read_facts
    from whispers.projections.labels import labels

    with opened(store) as s:
        return labels(read_facts(s.facts(game), game))
