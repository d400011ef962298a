"""The public board for the hall (`serve --tournament FILE`): the current round's tables (who sits where, which
game is over) and the standings, for a projector and phones. Public: it holds spectator facts only (the seats'
names and societies, where each game stands, and results once a game is over), read from the catalog by name:
the tournament's own games, however many the store holds.

Its link is not stored: its token is derived from the director's (`board_token`), so every server process over
the store gives the same link, and knowing it tells nothing of the director's token."""

from __future__ import annotations

import base64
import hmac
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from whispers.application.stores import opened
from whispers.ledger.core.digests import sha256
from whispers.ledger.core.plain import Data

if TYPE_CHECKING:
    from whispers.ledger.io.store import Store
    from whispers.projections.standings import StandingsData


def board_token(director_token: str) -> str:
    """The public board's token: a one-way digest of the director's (144 bits, url-safe)."""
    digest = sha256(b"whispers public board\0" + director_token.encode("utf-8", "surrogatepass")).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode("ascii")


def board_allows(director_token: str, given: str) -> bool:
    return bool(director_token) and hmac.compare_digest(board_token(director_token).encode(),
                                                        given.encode("utf-8", "surrogatepass"))


class Seat(TypedDict):
    society: str
    entrant: str | None
    first: bool


class Table(TypedDict):
    """A table on the public board: its game, number, where it stands and its seats in seat order."""

    game: str
    table: int
    state: str  # "waiting", "playing" or "over"
    round: int | None
    phase: str | None
    seats: list[Seat]


@dataclass(frozen=True, slots=True)
class Board:
    tournament: str
    round: int | None  # the current round: the last the file holds (None: a file without rounds)
    tables: tuple[Table, ...]
    standings: StandingsData  # application.tournament.tournament's data

    def to_json(self) -> Data:
        return {"tournament": self.tournament, "round": self.round, "tables": list(self.tables),
                "standings": self.standings}


def public_board(store: Store | str | None, file: Path) -> Board:
    """The board of the tournament file: the tables of its last round (every game, for a file without rounds),
    each with its seats in seat order (society, the entrant's name, who plays first) and where its game stands
    ("waiting", "playing" with its round and phase, or "over"), and the tournament's standings."""
    from whispers.application.tournament import read_text, tournament
    from whispers.projections.catalog import Catalog
    from whispers.projections.pairing import table_of
    from whispers.projections.standings import load_tournament

    spec = load_tournament(read_text(file), str(file))
    current = max(spec.rounds.values(), default=None)
    shown = [g for g in spec.games if current is None or spec.rounds.get(g) == current]
    with opened(store) as s:
        standings = tournament(s, file).to_json()
        listed = Catalog(s).listing(games=shown)  # caught up by the standings just read
    tables: list[Table] = []
    for number, game in enumerate(shown, start=1):
        row = listed.get(game)
        seats = spec.seats.get(game) or {}
        order = list(row["players"]) if row else list(seats)
        first = spec.firsts.get(game) or (order[0] if order else None)
        if first in order:  # seat order from the first player, clockwise
            start = order.index(first)
            order = order[start:] + order[:start]
        state = "waiting" if row is None else ("over" if row["ended"] else "playing")
        tables.append({
            "game": game, "table": table_of(game) or number, "state": state,
            "round": row["round"] if row else None, "phase": row["phase"] if row else None,
            "seats": [{"society": society, "entrant": seats.get(society), "first": society == first}
                      for society in order]})
    return Board(spec.name, current, tuple(tables), standings)
