"""Ratings across events: each person's skill from the finishing orders of every finished game, with openskill's
Plackett-Luce model (Weng and Lin's Bayesian approximation: a rating is a mean `mu` and an uncertainty `sigma`,
updated by each game's full finishing order, for any number of players); and the seat-order and society effects.

A game's finishing order is its placings (projections/standings.py): by score, then the game's own ruleset's
tie-breaks; players still level share a place, and the model is given equal ranks for them (a tie). Games are
rated in the order they were created in the store. A person is a seat's name in the game's table facts; a seat with
no name plays as an unknown newcomer (a fresh rating each time, rated but never listed), so the others' ranks are
still the game's; a game with no named seat changes no one's rating. The rating shown and ranked by is openskill's
ordinal, `mu - 3 sigma`: a skill the person is 99.7% likely to be above, low while few games are known.

Pure: openskill is imported here only, and this module only when ratings are asked for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, NotRequired, TypedDict

from whispers.projections.standings import Result, place_label, placings

BY = ("player", "society")
"""Whom the ratings are of: the people at the seats (the table facts' names), or the societies themselves."""


if TYPE_CHECKING:
    from openskill.models import PlackettLuceRating


class RatingPoint(TypedDict):
    """A person's rating after one of their rated games."""

    game: str
    place: float
    society: str
    rating: float
    mu: float
    sigma: float


class RatingRow(TypedDict):
    person: str
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int
    rank: NotRequired[int]
    tied: NotRequired[bool]
    place: NotRequired[str]
    history: NotRequired[list[RatingPoint]]  # always there; moved last when ranked (its JSON lists it last)


class SeatEffect(TypedDict):
    seat: int
    games: int
    wins: int
    win_rate: float


class SocietyEffect(TypedDict):
    society: str
    games: int
    wins: int
    win_rate: float


class Effects(TypedDict):
    by_seat: list[SeatEffect]
    by_society: list[SocietyEffect]


class RatingsData(TypedDict):
    """`ratings_data`: what `ratings` prints and its JSON."""

    by: str
    model: str
    rated: int
    unrated: int
    ratings: list[RatingRow]
    effects: Effects


@dataclass(frozen=True)
class Played:
    """What the ratings need of one finished game."""

    game: str
    result: Result
    names: Mapping[str, str]
    """society -> the name of who played it (table facts); a seat not named is absent."""
    first: str
    """The society that played first."""


def ratings_data(games: Iterable[Played], by: str = "player") -> RatingsData:
    """Each rated person's (or society's) rating, uncertainty, games, wins and history, best first, with places
    labelled as the standings label them; and the effects of seat order and society across the games."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current: dict[str, PlackettLuceRating] = {}
    history: dict[str, list[RatingPoint]] = {}
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    seat_games: Counter[int] = Counter()
    seat_wins: Counter[int] = Counter()
    society_games: Counter[str] = Counter()
    society_wins: Counter[str] = Counter()
    rated = unrated = 0
    for game in games:
        placed = placings(game.game, game.result)
        if placed is None:
            continue
        order = list(game.result.players)
        start = order.index(game.first) if game.first in order else 0
        for placing in placed:
            seat = (order.index(placing.society) - start) % len(order) + 1
            seat_games[seat] += 1
            society_games[placing.society] += 1
            if placing.won:
                seat_wins[seat] += 1
                society_wins[placing.society] += 1
        who = [game.names.get(p.society) if by == "player" else p.society for p in placed]
        if not any(who):
            unrated += 1
            continue
        rated += 1
        teams = [[current.get(person) or model.rating()] if person else [model.rating()] for person in who]
        after = model.rate(teams, ranks=[p.place for p in placed])
        for person, placing, [rating] in zip(who, placed, after, strict=True):
            if not person:
                continue
            current[person] = rating
            played[person] += 1
            won[person] += placing.won
            history.setdefault(person, []).append({
                "game": game.game, "place": placing.place, "society": placing.society,
                "rating": rating.ordinal(), "mu": rating.mu, "sigma": rating.sigma})
    rows: list[RatingRow] = sorted(
        ({"person": person, "rating": r.ordinal(), "mu": r.mu, "sigma": r.sigma, "games": played[person],
          "wins": won[person], "history": history[person]} for person, r in current.items()),
        key=lambda row: (-row["rating"], row["person"]))
    for index, row in enumerate(rows):
        level = [other for other in rows if other["rating"] == row["rating"]]
        row["rank"] = rows.index(level[0]) + 1
        row["tied"] = len(level) > 1
        row["place"] = place_label(row["rank"], row["tied"])
        del row["history"]
        row["history"] = history[row["person"]]  # last: the table's columns first in --json
        rows[index] = row
    return {"by": by, "model": "openskill PlackettLuce", "rated": rated, "unrated": unrated, "ratings": rows,
            "effects": {
                "by_seat": [{"seat": seat, "games": seat_games[seat], "wins": seat_wins[seat],
                             "win_rate": seat_wins[seat] / seat_games[seat]} for seat in sorted(seat_games)],
                "by_society": [{"society": society, "games": society_games[society], "wins": society_wins[society],
                                "win_rate": society_wins[society] / society_games[society]}
                               for society in sorted(society_games)]}}
