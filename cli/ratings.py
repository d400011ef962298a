"""`ratings`: each person's rating across every finished game in the store, and the seat and society effects."""

import csv
import sys
from typing import TYPE_CHECKING

import click

from whispers.application import ratings as use
from whispers.cli.common import emit_json, one_format, store_option
from whispers.cli.spoken import Spoken
from whispers.ledger.core.words import N_, _, n_, say, term

if TYPE_CHECKING:
    from rich.console import JustifyMethod

    from whispers.projections.ratings import RatingsData


@click.command(cls=Spoken)
@click.option("--by", "by", type=click.Choice(["player", "society"]), default="player", show_default=True,
              help="Rate the people at the seats (the names in each game's table facts), or the societies.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts (each rating's history too).")
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV (one row per person).")
@store_option
def ratings(by: str, as_json: bool, as_csv: bool, store_url: str | None) -> None:
    """Ratings over every finished game in the store, with openskill's Plackett-Luce model: each game's
    finishing order (score, then its ruleset's tie-breaks; players still level tie) moves its players'
    ratings, game after game in the order they were stored.

    The rating is mu - 3 sigma (openskill's ordinal): mu is the skill estimated, sigma its uncertainty, which
    shrinks as games are played. Below: win rates by seat (1 = the first player) and by society, with counts.
    `whispers chart --ratings PERSON -o FILE.svg` draws one person's history.
    """
    one_format(as_json, as_csv)
    data = use.ratings(store_url, by).to_json()
    if as_json:
        emit_json(data)
        return
    if as_csv:
        writer = csv.writer(sys.stdout)
        writer.writerow(["place", "rank", "person", "rating", "mu", "sigma", "games", "wins"])
        for row in data["ratings"]:
            writer.writerow([row["place"], row["rank"], row["person"], f"{row['rating']:.3f}", f"{row['mu']:.3f}",
                             f"{row['sigma']:.3f}", row["games"], row["wins"]])
        return
    _show(data)


def _show(data: "RatingsData") -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(emoji=False)  # people's names as typed: never markup, never an emoji code
    societies = data["by"] == "society"
    if not data["ratings"]:
        console.print(_("No rated game yet: ratings count finished games whose table facts name their seats "
                        "(whispers new --seat raven=Ana, or whispers meta)."), markup=False, highlight=False)
    else:
        grid = Table(title=say("ratings over {games}", games=n_("{n} finished game", "{n} finished games",
                                                               data["rated"])))
        justify: JustifyMethod
        for column, justify in (("#", "right"), (N_("person") if not societies else N_("society"), "left"),
                                (N_("rating"), "right"), ("μ", "right"), (N_("uncertainty (σ)"), "right"),
                                (N_("games"), "right"), (N_("wins"), "right")):
            grid.add_column(_(column) if column not in ("#", "μ") else column, justify=justify)
        for row in data["ratings"]:
            grid.add_row(row["place"], Text(term(row["person"]) if societies else row["person"]),
                         f"{row['rating']:.1f}", f"{row['mu']:.1f}", f"{row['sigma']:.1f}", str(row["games"]),
                         str(row["wins"]))
        console.print(grid)
    effects = data["effects"]
    if effects["by_seat"]:
        seats = Table(title=_("win rate by seat (1 = first player)"))
        for column in (N_("seat"), N_("games"), N_("wins"), N_("win rate")):
            seats.add_column(_(column), justify="right")
        for seat in effects["by_seat"]:
            seats.add_row(str(seat["seat"]), str(seat["games"]), str(seat["wins"]), f"{seat['win_rate']:.0%}")
        console.print(seats)
        by_society = Table(title=_("win rate by society"))
        for column, justify in ((N_("society"), "left"), (N_("games"), "right"), (N_("wins"), "right"),
                                (N_("win rate"), "right")):
            by_society.add_column(_(column), justify=justify)
        for one in effects["by_society"]:
            by_society.add_row(term(one["society"]), str(one["games"]), str(one["wins"]), f"{one['win_rate']:.0%}")
        console.print(by_society)
        console.print(_("A shared first place counts as a win for none."), markup=False, highlight=False)
    if data["unrated"]:
        console.print(say("Not rated, no seat named: {games}", games=n_("{n} finished game", "{n} finished games",
                                                                         data["unrated"])), markup=False,
                      highlight=False)
