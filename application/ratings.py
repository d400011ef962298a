"""Ratings across the store: each person's rating from every finished game (projections/ratings.py), read from
the catalog of summaries kept in the store (no game folded but those it gained since), and one person's history."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from whispers.application.stores import opened
from whispers.ledger.core.errors import WhispersError
from whispers.ledger.core.plain import Data
from whispers.ledger.core.words import say

if TYPE_CHECKING:
    from whispers.ledger.io.store import Store
    from whispers.projections.ratings import RatingPoint, RatingsData


class RatingsError(WhispersError):
    """Ratings asked for that cannot be given: an unknown --by, a person with no rated game."""


@dataclass(frozen=True, slots=True)
class Ratings:
    data: RatingsData  # projections.ratings.ratings_data

    def to_json(self) -> RatingsData:
        return self.data


def ratings(store: Store | str | None, by: str = "player") -> Ratings:
    """Every finished game of the store rated in the order the games were created; forks ("what if" lines, not
    games played) are left out, archived games are counted."""
    from whispers.projections.catalog import Catalog
    from whispers.projections.ratings import BY, Played, ratings_data
    from whispers.projections.standings import result_from_data

    if by not in BY:
        raise RatingsError(say("unknown --by {text}: one of {states}", text=repr(by), states=", ".join(BY)))
    with opened(store) as s:
        catalog = Catalog(s)
        catalog.refresh()
        summaries = catalog.summaries()
    played = [Played(name, result_from_data(summary["result"]), summary["meta"]["seats"],
                     next(society for society, seat in summary["seats"].items() if seat == 1))
              for name, summary in summaries.items() if summary["over"] and summary["fork_of"] is None]
    return Ratings(ratings_data(played, by))


@dataclass(frozen=True, slots=True)
class RatingHistory:
    """One person's rating after each of their rated games, in order."""

    person: str
    points: tuple[RatingPoint, ...]

    def to_json(self) -> Data:
        return {"person": self.person, "history": list(self.points)}


def history(store: Store | str | None, person: str) -> RatingHistory:
    """`person`'s rating history; RatingsError names a person with no rated game."""
    rows = {row["person"]: row for row in ratings(store).data["ratings"]}
    if person not in rows:
        raise RatingsError(say("{name} has no rated game: ratings count finished games whose table facts name "
                               "their seats (whispers ratings lists who has)", name=repr(person)))
    return RatingHistory(person, tuple(rows[person]["history"]))
