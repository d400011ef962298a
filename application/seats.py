"""What a player does from its own seat: seal its loyalty set (only a salted hash is recorded) and reveal it.

The seat's device computes the commitment (ledger/core/sealing.py, web/static/sha256.js) and keeps the salt; the
record never holds the tokens before the reveal, so neither the scorekeeper nor the director can read them,
and the reveal is refused unless it matches (rules.py), as `verify` checks again for every record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from whispers.application.stores import opened
from whispers.ledger.core.plain import Data

if TYPE_CHECKING:
    from whispers.ledger.core.commands import Command
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
