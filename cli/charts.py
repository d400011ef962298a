"""`chart`: a game's score if it ended now, cities or banners over its moves, or win rates across games."""

import click

from whispers.application import charts
from whispers.cli.common import store_option
from whispers.cli.reading import as_option
from whispers.cli.spoken import Spoken
from whispers.ledger.core.words import _, n_, say


@click.command(cls=Spoken)
@click.argument("game", required=False)
@click.argument("kind", required=False, type=click.Choice(charts.KINDS), metavar="score|cities|banners|chances")
@click.option("--all", "everything", is_flag=True, help="Win rates by society and by seat across finished games.")
@click.option("--ratings", "person", metavar="PERSON", help="PERSON's rating after each game (whispers ratings).")
@as_option
@click.option("-o", "--output", required=True, metavar="FILE", help="The chart file: FILE.svg or FILE.png.")
@store_option
def chart(game: str | None, kind: str | None, everything: bool, person: str | None, society: str | None, output: str,
          store_url: str | None) -> None:
    """A chart of GAME after every move: `score` (each society's score if the game ended then, as far as the
    viewer can compute it), `cities` (per empire), `banners` (on the board and in reserve) or `chances` (each
    society's chance of winning, as `whispers analyse` stored it for the viewer); or with --all
    the win rates by society and by seat across the store's finished games; or with --ratings PERSON that
    person's rating after each of their games."""
    if person is not None:
        if game is not None or society is not None or everything:
            raise click.UsageError(_("--ratings charts one person across the store: give no GAME, KIND, --all or "
                                     "--as with it"))
        charts.chart(store_url, None, None, output, person=person)
        click.echo(say("{name}: rating history written to {file}", name=person, file=output))
        return
    if everything:
        if game is not None or society is not None:
            raise click.UsageError(_("--all charts every game in the store: give no GAME, KIND or --as with it"))
        drawn = charts.chart(store_url, None, None, output)
        assert isinstance(drawn.data, charts.WinRates)  # the chart across games
        finished = drawn.data.finished
        click.echo(say("win rates over {finished} written to {file}", file=output,
                       finished=n_("{n} finished game", "{n} finished games", finished)))
        return
    if game is None or kind is None:
        raise click.UsageError(_("give GAME and a chart (score, cities, banners or chances), or --all"))
    charts.chart(store_url, game, kind, output, society)
    click.echo(say("{game}: {chart} chart written to {file}", game=game, chart=kind, file=output))
