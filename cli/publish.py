"""`whispers publish DIR`: a folder of static pages (standings, rounds, each game's replay) to open from the disk."""

from pathlib import Path

import click

from whispers.cli.common import emit_json, store_option
from whispers.cli.spoken import Spoken
from whispers.ledger.core.words import n_, say


@click.command(cls=Spoken)
@click.argument("folder", metavar="DIR", type=click.Path(path_type=Path))
@click.argument("games", nargs=-1, metavar="[GAME]...")
@click.option("--tournament", "tournament_file", type=click.Path(path_type=Path), metavar="FILE",
              help="Publish this tournament file's standings, rounds and games (instead of naming games).")
@click.option("--force", is_flag=True, help="Replace an archive published into DIR before.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@store_option
def publish(folder: Path, games: tuple[str, ...], tournament_file: Path | None, force: bool, as_json: bool,
            store_url: str | None) -> None:
    """Write a folder of static pages anyone can open with no server and no internet: an index (a tournament's
    standings and rounds, or the games named) and each game's replay (step with the arrow keys).

    A finished game is published as the record shows it; a game not over, only as its spectators see it.
    """
    from whispers.application.publish import PublishError, publish

    if games and tournament_file is not None:  # neither: the use case says what to give
        raise PublishError(say("name the games to publish or give --tournament FILE, not both"))
    done = publish(store_url, folder, list(games), tournament_file, force)
    if as_json:
        emit_json(done.to_json())
        return
    for warning in done.warnings:
        click.echo(warning, err=True)
    click.echo(n_("Published {n} game into {folder}: open {index}", "Published {n} games into {folder}: open {index}",
                  len(done.games), folder=done.folder, index=done.index))
