"""Reading a game: `status`, `log` and `score` (the list of games is cli/listing.py's)."""

from typing import TYPE_CHECKING

import click

from whispers.application import moves, reading
from whispers.application.labels import at_event
from whispers.cli.common import emit_json, store_option, view_lines, warn
from whispers.cli.spoken import Spoken
from whispers.ledger.core.names import SOCIETIES
from whispers.ledger.core.words import _, say, term
from whispers.projections.visibility import SPECTATOR_NAME

if TYPE_CHECKING:
    from rich.console import Console

as_option = click.option("--as", "society", type=click.Choice((*SOCIETIES, SPECTATOR_NAME)), metavar="SOCIETY",
                         help="Show only what this society could know (spectator: public facts only).")


@click.command(cls=Spoken)
@click.argument("game")
@as_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@click.option("--at", "version", metavar="AT", help="As the game stood after event N, move mN, a label "
              "(2.bear.marshal, \"R2 deploy 3\"), roundN or end.")
@store_option
def status(game: str, society: str | None, as_json: bool, version: str | None, store_url: str | None) -> None:
    """Where GAME stands: round, phase, who must act and the legal moves, the board, reserves, hands."""
    found = reading.status(store_url, game, society, at_event(store_url, game, version))
    if as_json:
        emit_json(found.to_json())
        return
    lines = view_lines(found.view)
    click.echo(lines[0])
    click.echo(lines[1])
    last = found.view.get("last_move")
    if last:
        click.echo(say("Last move: {move}", move=moves.said_label(last)))
    for option in found.options:
        click.echo(f"  {moves.summary(option)}")
    click.echo("")
    from whispers.cli.tables import view_tables

    console(emoji=False).print(view_tables(found.view, found.scores))


def console(emoji: bool = True) -> "Console":
    """A rich console on stdout (as wide as the terminal, or COLUMNS), no guessing colours into numbers.

    emoji=False where every cell is a Text and the titles and headers are whispers' own words, none an emoji code
    (view_tables): rich then never loads its 4,000 codes, 12 million instructions of `status`."""
    from rich.console import Console

    return Console(highlight=False, emoji=emoji)


@click.command(cls=Spoken)
@click.argument("game")
@as_option
@click.option("--comments/--no-comments", default=True, help="Show the engine's own events as # comments.")
@store_option
def log(game: str, society: str | None, comments: bool, store_url: str | None) -> None:
    """GAME in notation, one move per line: `whispers import` reads it back.

    With --as, the log hides what that society could not see: other societies' loyalty tokens and the
    names of cards others drew (--as spectator: every society's).
    """
    found = reading.log(store_url, game, society, comments)
    warn(found.warnings)
    for line in found.lines:
        click.echo(line)


@click.command(cls=Spoken)
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@store_option
def score(game: str, as_json: bool, store_url: str | None) -> None:
    """Scores of GAME with the full breakdown and the tie-break trail (provisional while it goes on)."""
    found = reading.score(store_url, game)
    if as_json:
        emit_json(found.to_json())
        return
    from rich.console import Console
    from rich.table import Table

    from whispers.ledger.core.words import trail_step

    scored = found.scored
    kind = _("final") if found.final else _("provisional")
    table = Table(title=say("{game} · {kind} scores ({ruleset})", game=game, kind=kind, ruleset=found.played_under))
    table.add_column(_("empire"))
    for society in scored.ranking:
        table.add_column(term(society), justify="right")
    for empire in found.empires:
        cells = []
        for society in scored.ranking:
            e = scored.scores[society]["empires"][empire]
            agents = f"+{e['field_agents']}" if e["field_agents"] else ""
            cells.append(f"{term(e['slot'], 'slot')[:3]} {e['multiplier']}×{e['cities']}{agents} = {e['points']}")
        table.add_row(term(empire), *cells)
    if found.concealed_bonus:
        table.add_row(_("concealed"), *(str(scored.scores[s]["concealed_points"]) for s in scored.ranking))
    table.add_row(_("total"), *(f"[bold]{scored.scores[s]['total']}[/bold]" for s in scored.ranking))
    console = Console()
    console.print(table)
    for step in scored.trail:
        console.print(f"  {trail_step(step)}")
