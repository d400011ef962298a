"""The tournament director's screen: every game with its state, table, players and last move time; the
standings of the tournament file; a game verified with its chain head. Read from the catalog (and one event
per game for its time), never a fold of every game."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from whispers.application.stores import opened

if TYPE_CHECKING:
    from whispers.ledger.store import Store


@dataclass(frozen=True, slots=True)
class Hall:
    """Every game in the store, as the director sees them (the record: nothing here is secret to a director
    but loyalty and hands, which a listing does not hold)."""

    rows: tuple[dict[str, Any], ...]
    position: int  # the store's log position read up to: a live page follows from here

    def to_json(self) -> dict[str, Any]:
        return {"games": list(self.rows), "position": self.position}


def hall(store: Store | str | None) -> Hall:
    from whispers.application.reading import games

    with opened(store) as s:
        position = s.head()
        rows = []
        for row in games(s).to_json():
            written = s.last_written(row["game"])
            state = "over" if row["over"] else ("setup" if row["phase"] == "setup" else "playing")
            rows.append({**row, "state": state, "last_move": written.isoformat(timespec="seconds")})
    return Hall(tuple(rows), position)


def tournament_standings(store: Store | str | None, file: Path | None) -> Any:
    """The standings of the tournament file the server was started with, recomputed from the catalog at each
    call (so as games finish); StoreError if none was given."""
    from whispers.application.tournament import tournament
    from whispers.ledger.errors import StoreError
    from whispers.ledger.words import _

    if file is None:
        raise StoreError(_("no tournament file: start the server with `whispers serve --tournament FILE` to show "
                           "its standings"))
    return tournament(store, file)


def exists(store: Store | str | None, game: str) -> bool:
    from whispers.ledger.store import check_name

    try:
        check_name(game)
    except Exception:
        return False
    with opened(store) as s:
        return s.exists(game)
