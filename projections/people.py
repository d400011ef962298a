"""Each person's record across games, the way BG Stats users read it: games, wins, mean score, by society and
by seat (1 = the first player). People are the names recorded per seat (ledger/core/meta.py); a seat with no name
recorded counts for no one. A shared win (or none) is a win for no one, as in `stats --all`."""

from collections.abc import Iterable
from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from whispers.projections.catalog import GameSummary

    class Named(GameSummary):
        names: dict[str, str]  # society -> the person at that seat


class Counts(TypedDict):
    games: int
    wins: int
    points: int


class PersonCounts(Counts):
    by_society: dict[str, Counts]
    by_seat: dict[str, Counts]


class Figures(TypedDict):
    games: int
    wins: int
    win_rate: float
    mean_score: float


class PersonFigures(Figures):
    """One person's record (`by_player`): what `stats --all --by player` prints."""

    by_society: dict[str, Figures]
    by_seat: dict[str, Figures]  # by seat number, as text (1 = the first player)


def by_player(games: Iterable["Named"]) -> dict[str, PersonFigures]:
    """`games`: one dict per game, `stats.summary` of it with "names" ({society: person}) added. Only finished
    games count; the result maps each person to their figures, people sorted by name."""
    people: dict[str, PersonCounts] = {}
    for game in games:
        if not game.get("over"):
            continue
        for society, person in game.get("names", {}).items():
            if society not in game["scores"]:
                continue
            mine = people.setdefault(person, {"games": 0, "wins": 0, "points": 0, "by_society": {}, "by_seat": {}})
            score, won = game["scores"][society], game.get("winner") == society
            seat = str(game["seats"][society])
            bucket: Counts
            for bucket in (mine, mine["by_society"].setdefault(society, {"games": 0, "wins": 0, "points": 0}),
                           mine["by_seat"].setdefault(seat, {"games": 0, "wins": 0, "points": 0})):
                bucket["games"] += 1
                bucket["wins"] += won
                bucket["points"] += score
    return {person: _figures(people[person]) for person in sorted(people)}


def _figures(counts: PersonCounts) -> PersonFigures:
    def one(c: Counts) -> Figures:
        return {"games": c["games"], "wins": c["wins"], "win_rate": round(c["wins"] / c["games"], 3),
                "mean_score": round(c["points"] / c["games"], 2)}

    return {**one(counts), "by_society": {s: one(c) for s, c in sorted(counts["by_society"].items())},
            "by_seat": {s: one(c) for s, c in sorted(counts["by_seat"].items())}}
