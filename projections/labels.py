"""Move labels a person can say (docs/notation.md, "Move labels"): one pure function from a record's events.

Every standing move has a running move number, `m17`, and a label saying where it was played: a council order
is `ROUND.EMPIRE.OFFICE` (`2.bear.marshal`), any other move `RROUND VERB K`, the K-th move of that verb in the
round (`R2 deploy 3`, `R1 loyalty 2`, `R3 play 1`). A label met twice in a round (an order given again from a
borrowed position) gets `#2`, `#3`. A move taken back has no label (its event number still names it).

`resolve` reads what `--at` takes, beside an event number: a move number, a label, `roundN` (the event that
opens round N) or `end` (the game's last event, not a change of table facts recorded after it); anything else is
refused with the one wording of `UnknownLabel`.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass

from whispers.ledger.core import events as ev
from whispers.ledger.core.errors import StoreError
from whispers.ledger.core.numbering import place
from whispers.ledger.core.words import say
from whispers.projections.replay import standing


class UnknownLabel(StoreError):
    """`--at` text that names no event of the game: one wording wherever a label is read."""

    def __init__(self, game: str, text: str, events: int, moves: int) -> None:
        super().__init__(f"{game} has no event {text!r}: give an event number (1-{events}), a move number "
                         f"(m1-m{moves}), a label such as 2.bear.marshal or \"R2 deploy 3\", round2, or end")


@dataclass(frozen=True, slots=True)
class Label:
    version: int  # the event number of the move
    number: int  # the running move number
    place: str  # where it was played: 2.bear.marshal, R2 deploy 3

    def __str__(self) -> str:
        return f"m{self.number} {self.place}"


def labels(events: Sequence[ev.Event]) -> dict[int, Label]:
    """The label of each standing move, by its event number."""
    found: dict[int, Label] = {}
    counted: dict[str, int] = {}
    round_ = 1
    for version, event in standing(events):
        if isinstance(event, ev.PhaseStarted):
            if event.round != round_:
                counted = {}
            round_ = event.round
        if event.MOVE:
            where, counted = place(round_, event, counted)
            found[version] = Label(version, len(found) + 1, where)
    return found


def round_starts(events: Sequence[ev.Event]) -> dict[int, int]:
    """The event number that opens each round (its first phase) in the standing record; round 1 opens at 1."""
    starts = {1: 1}
    for version, event in standing(events):
        if isinstance(event, ev.PhaseStarted) and event.round not in starts:
            starts[event.round] = version
    return starts


def _normal(text: str) -> str:
    return " ".join(text.casefold().split())


def resolve(game: str, events: Sequence[ev.Event], text: str | int) -> int:
    """The event number `text` names: an event number, `mN`, a label, `roundN` or `end` (UnknownLabel if none)."""
    if isinstance(text, int):
        return text
    total = len(events)
    found = labels(events)
    wanted = _normal(str(text))
    if re.fullmatch(r"-?\d+", wanted):
        return int(wanted)  # out of range: the reader says so as it says for any event number (NoSuchEvent)
    if wanted == "end" and total:
        # the game's last event: table facts recorded after the game (a rename, a seat's name) are not the game
        return max((v for v, e in enumerate(events, start=1) if not isinstance(e, ev.GameDescribed)), default=total)
    if m := re.fullmatch(r"round ?(\d+)", wanted):
        starts = round_starts(events)
        if int(m[1]) in starts:
            return starts[int(m[1])]
    if m := re.fullmatch(r"m(\d+)", wanted):
        by_number = {label.number: label.version for label in found.values()}
        if int(m[1]) in by_number:
            return by_number[int(m[1])]
    read = _normal(_read_label(str(text)))  # a label in the reader's words: `R1 Déployer 8`
    for label in found.values():
        if wanted in (_normal(label.place), _normal(str(label))) or read in (_normal(label.place), _normal(str(label))):
            return label.version
    raise UnknownLabel(game, str(text), total, len(found))


def _read_label(text: str) -> str:
    from whispers.ledger.core.words import tongue
    from whispers.projections.language import read_label

    code = tongue().code
    return text if code == "en" else read_label(text, code)


def label_at(events: Sequence[ev.Event], version: int) -> str:
    """Event `version` for people: a move's label (`m17 2.bear.marshal`); an event the engine recorded on its own
    as its number after the move it follows (`event 21 after m17 2.bear.marshal`, or `event 3` before any)."""
    found = labels(events[:version])
    if version in found:
        return str(found[version])
    before = max(found, default=None)
    if before is None:
        return say("event {n}", n=version)
    return say("event {n} after {move}", n=version, move=str(found[before]))
