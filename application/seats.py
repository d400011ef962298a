"""What a player does from its own seat: seal its loyalty set (only a salted hash is recorded) and reveal it.

The seat's device computes the commitment (ledger/core/sealing.py, web/static/sha256.js) and keeps the salt; the
record never holds the tokens before the reveal, so neither the scorekeeper nor the director can read them,
and the reveal is refused unless it matches (rules.py), as `verify` checks again for every record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from whispers.application.stores import opened
from whispers.ledger.core.plain import Data

if TYPE_CHECKING:
    from whispers.ledger.core import events as ev
    from whispers.ledger.core.commands import Command
    from whispers.ledger.core.notes import NoteEntry
    from whispers.ledger.io.store import Store


@dataclass(frozen=True, slots=True)
class SeatMove:
    """A move a seat recorded for its own society; the answer says no more than that seat may know."""

    game: str
    society: str
    version: int
    move: str  # its notation line, as the seat sees it

    def to_json(self) -> Data:
        return {"game": self.game, "society": self.society, "version": self.version, "move": self.move}


def _record(store: Store, game: str, society: str, command: Command, seen: int | None) -> SeatMove:
    from whispers.ledger.core.errors import GameMovedOn
    from whispers.ledger.core.words import say
    from whispers.ledger.io.game import load, record
    from whispers.projections.visibility import check_viewer, move_line

    current = load(store, game)
    check_viewer(game, current.state.players, society)
    if seen is not None and seen != current.version:
        raise GameMovedOn(say("the game moved on: it is at event {n}, this page showed {seen}", n=current.version,
                              seen=seen))
    after, produced = record(store, current, command)
    # a move closing a card window comes after the engine's own events (the supply check and what follows)
    move = next(e for e in produced if e.MOVE)
    return SeatMove(game, society, after.version, move_line(move, society) or "")


def seal(store: Store | str | None, game: str, society: str, commitment: str, seen: int | None = None) -> SeatMove:
    """Record `society`'s loyalty as a commitment only (the rules refuse a malformed one, a second set, and
    any phase but setup)."""
    from whispers.ledger.core import commands as c

    with opened(store) as s:
        return _record(s, game, society, c.RecordLoyalty(society, None, commitment), seen)


def reveal(store: Store | str | None, game: str, society: str, placed: dict[str, str], salt: str,
           seen: int | None = None) -> SeatMove:
    """The final reveal of a sealed set from the seat that sealed it: `placed` is the set as it was sealed (what
    the seat's device kept); the swaps recorded since are applied to it here, so the reveal names the tokens as
    they lie now, as a reveal at the table does. The rules check it against the commitment."""
    from whispers.ledger.core import commands as c
    from whispers.ledger.core.errors import NotationError
    from whispers.ledger.core.names import SLOTS
    from whispers.ledger.core.words import say, terms
    from whispers.ledger.io.game import load

    if set(placed) != set(SLOTS) or not all(isinstance(v, str) for v in placed.values()):
        raise NotationError(say("name an empire for each slot: {slots}", slots=terms(SLOTS)))
    with opened(store) as s:
        held = load(s, game).state.loyalty.get(society)
        now = dict(placed)
        for a, b in held.swapped if held is not None else ():
            now[a], now[b] = now[b], now[a]
        return _record(s, game, society, c.Reveal(society, now, salt), seen)


# --- a seat disputes a swap of its sealed set that the table recorded (issue 32) ------------------------------------

DISPUTE_TAG = "dispute"
"""The tag of a seat's dispute among the game's notes (ledger/core/notes.py TAGS)."""


@dataclass(frozen=True, slots=True)
class Swap:
    """A standing swap of a society's loyalty tokens, as the record holds it (public: its line is)."""

    version: int  # its event number
    label: str  # `m25`, what a dispute names
    slots: tuple[str, str]
    revealed: dict[str, str]  # what each of the two tokens shows once flipped

    def to_json(self) -> Data:
        return {"version": self.version, "label": self.label, "slots": list(self.slots),
                "revealed": dict(self.revealed)}


@dataclass(frozen=True, slots=True)
class Dispute:
    """A seat's dispute of a swap the table recorded for it, standing while the swap does."""

    society: str
    swap: Swap
    line: str  # the swap's notation line
    label: str  # its whole label (`m25 R3 swap-loyalty 1`)
    new: bool = False  # made by this request (else: the seat had disputed it already)

    def to_json(self) -> Data:
        return {"society": self.society, "move": self.swap.label, "label": self.label, "line": self.line,
                "version": self.swap.version, "new": self.new}


def swaps_in(events: Sequence[ev.Event], society: str) -> tuple[Swap, ...]:
    """`society`'s standing swaps of its loyalty tokens, in the order recorded."""
    from whispers.ledger.core import events as ev
    from whispers.projections.labels import labels

    found = []
    for version, label in labels(events).items():
        event = events[version - 1]
        if isinstance(event, ev.LoyaltySwapped) and event.society == society:
            found.append(Swap(version, f"m{label.number}", event.slots, dict(event.revealed)))
    return tuple(found)


def swaps(store: Store | str | None, game: str, society: str, at: int | None = None) -> tuple[Swap, ...]:
    """`swaps_in` the game's first `at` events (the version a seat's page shows): what its page checks against the
    set it keeps, to name the swap it disputes."""
    with opened(store) as s:
        return swaps_in(s.events(game, at), society)


def _players(events: Sequence[ev.Event]) -> tuple[str, ...]:
    from whispers.ledger.core import events as ev

    return next((e.players for e in events if isinstance(e, ev.GameStarted)), ())


def disputes_in(events: Sequence[ev.Event], notes: list[NoteEntry]) -> tuple[Dispute, ...]:
    """The disputes among `notes` (the notes as they read now) that still stand: a seat's dispute of its own
    society's swap, while that swap stands (an amendment or a take-back removes it, and so ends the dispute)."""
    from whispers.ledger.core.notation import format_event
    from whispers.projections.labels import labels

    standing = labels(events)
    players = _players(events)
    found: dict[tuple[str, int], Dispute] = {}
    for note in notes:
        at, society = note.get("at"), note.get("author")
        if note.get("tag") != DISPUTE_TAG or society not in players or at not in standing:
            continue
        for swap in swaps_in(events[:at], society):
            if swap.version == at:
                found.setdefault((society, at), Dispute(society, swap, format_event(events[at - 1]) or "",
                                                        str(standing[at])))
    return tuple(found.values())


def disputes(store: Store | str | None, game: str, at: int | None = None) -> tuple[Dispute, ...]:
    """The standing disputes of the game (its first `at` events), for the table's page."""
    from whispers.ledger.core.notes import current
    from whispers.ledger.io.game import read_notes

    with opened(store) as s:
        events = s.events(game, at)
        notes, _skipped = read_notes(s, game)
    return disputes_in(events, current(notes))


def dispute(store: Store | str | None, game: str, society: str, move: str) -> Dispute:
    """`society`'s seat disputes the swap of its tokens the table recorded as `move` (`m25`, a label or an event
    number): its page found it contradicts the set it sealed, which it never sends. Kept as a note tagged `dispute`
    on the swap in the game's notes stream, not as an event of the game: it survives a restart and every server
    process reads it, and it never moves the game on (a move being composed at the table is not refused for it).
    A dispute of a swap already disputed is that one (`new` False). NotationError for anything but a standing swap
    of `society`'s own tokens."""
    from whispers.ledger.core.errors import NotationError
    from whispers.ledger.core.notes import current
    from whispers.ledger.core.words import say
    from whispers.ledger.io.game import annotate, read_notes
    from whispers.projections.labels import resolve
    from whispers.projections.visibility import check_viewer

    with opened(store) as s:
        events = s.events(game)
        check_viewer(game, _players(events), society)
        version = resolve(game, events, move)
        if not any(swap.version == version for swap in swaps_in(events, society)):
            raise NotationError(say("{move} is not a standing swap of {society}'s loyalty tokens", move=move,
                                    society=society))
        notes, _skipped = read_notes(s, game)
        made = next((d for d in disputes_in(events, current(notes)) if (d.society, d.swap.version) ==
                     (society, version)), None)
        if made is not None:
            return made
        annotate(s, game, version, f"{society}'s seat disputes this swap", society, DISPUTE_TAG)
        notes, _skipped = read_notes(s, game)
    made = next(d for d in disputes_in(events, current(notes)) if (d.society, d.swap.version) == (society, version))
    return Dispute(made.society, made.swap, made.line, made.label, new=True)
