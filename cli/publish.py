"""`publish`: a folder of static pages anyone can open, with no server and no internet (application/publish.py)."""

from pathlib import Path

import click

from whispers.application import publish as use
from whispers.cli.common import emit_json, store_option
from whispers.cli.spoken import Spoken
from whispers.ledger.words import _, n_, say


@click.command(cls=Spoken)
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.argument("games", nargs=-1)
@click.option("--tournament", "tournament_file", type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Publish this tournament: its standings, rounds and finished games.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@store_option
def publish(folder: Path, games: tuple[str, ...], tournament_file: Path | None, as_json: bool,
            store_url: str | None) -> None:
    """Write FOLDER: static pages that need no server and no internet (open FOLDER/index.html from the disk or put
    it on any static host). With --tournament FILE: its standings and rounds; else the GAMES named. Each finished
    game has its replay (← → to step: each event with its notes, the council and the scores after it, the board
    and the timeline of its round, the score chart), as the record shows a finished game. A game not over is not
    published: named, it refuses the whole publish; in a tournament it is listed as not over.
    """
    if (tournament_file is None) == (not games):
        raise click.UsageError(_("give --tournament FILE or the names of games, not both"))
    done = use.publish(store_url, folder, tournament_file, games)
    if as_json:
        emit_json(done.to_json())
        return
    click.echo(n_("published {n} game: open {file}", "published {n} games: open {file}", len(done.games),
                  file=str(folder / "index.html")))
    if done.skipped:
        click.echo(say("not over, not published: {games}", games=", ".join(done.skipped)))
