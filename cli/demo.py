"""`whispers demo`: the newcomer's first run, on the default store."""

from importlib import resources

import click

from whispers.application import recording
from whispers.application.stores import opened
from whispers.cli.common import store_option
from whispers.cli.spoken import Spoken
from whispers.ledger.core.meta import TagLine
from whispers.ledger.core.notation import Header, parse_lines
from whispers.ledger.core.words import _, say

DEMO_GAME = "official-4p.txt"


@click.command(cls=Spoken)
@click.option(
    "--game", "name", default=None, metavar="NAME", help="Name for the recorded game (default: demo, demo-2...)."
)
@store_option
def demo(name: str | None, store_url: str | None) -> None:
    """Record a bundled complete 4-player game move by move, then show the final board and the scores."""
    from rich.progress import Progress

    from whispers.cli.reading import score, status

    text = resources.files("whispers.fixtures").joinpath("games", DEMO_GAME).read_text(encoding="utf-8")
    lines = list(parse_lines(text.splitlines()))
    header = next(parsed for _, parsed in lines if isinstance(parsed, Header))
    moves = [parsed for _, parsed in lines if not isinstance(parsed, Header)]
    with opened(store_url) as store:
        if name is None:
            taken = set(store.names())
            name = (
                "demo"
                if "demo" not in taken
                else next(f"demo-{i}" for i in range(2, 10_000) if f"demo-{i}" not in taken)
            )
        recording.new(store, name, header.players, header.first, header.ruleset, header.board)
        game = recording.open_game(store, name)
        with Progress(transient=False) as progress:
            task = progress.add_task(say("Recording {file} as {game}", file=DEMO_GAME, game=repr(name)),
                                     total=len(moves))
            for command in moves:
                assert not isinstance(command, TagLine)  # the demo game's moves are moves
                game = recording.record_move(store, game, command).after
                progress.advance(task)
        url = store.url
    click.echo("\n" + say("Recorded {moves} moves ({events} events) into {store}", moves=len(moves),
                             events=game.version, store=url) + "\n")
    ctx = click.get_current_context()
    ctx.invoke(status, game=name, society=None, as_json=False, version=None, store_url=store_url)
    click.echo("")
    ctx.invoke(score, game=name, as_json=False, store_url=store_url)
    click.echo("\n" + _("Try next:"))
    tries = (
        (f"whispers log {name}", _("the game in notation, one move per line")),
        (f"whispers status {name} --at 120", _("the game as it stood after event 120")),
        (f"whispers log {name} --as raven", _("what the Pale Raven could see")),
        (f"whispers score {name} --json", _("the scores for a script")),
        (f"whispers export {name} -o {name}.whispers", _("a portable, hash-chained record file")),
    )
    width = max(len(line) for line, _what in tries)
    for line, what in tries:
        click.echo(f"  {line:<{width}}  {what}")
    click.echo("  whispers new my-game --players raven,rat,spider,serpent && whispers record my-game")
