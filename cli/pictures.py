"""Pictures: `timeline` (the council orders, round by round) and `map` (the board at any event)."""


import click

from whispers.application import pictures
from whispers.application.labels import at_event
from whispers.cli.common import store_option
from whispers.cli.reading import as_option
from whispers.cli.spoken import Spoken
from whispers.ledger.core.names import ROUNDS
from whispers.ledger.core.words import _, say

output_option = click.option(
    "-o", "--output", required=True, metavar="FILE",
    help="Ends in .dot (always possible), .svg, .png or .pdf (these need Graphviz's programs); - for DOT on stdout.",
)


@click.command(cls=Spoken)
@click.argument("game")
@click.option("--round", "round_", type=click.IntRange(1, ROUNDS), metavar="R", help="Only round R.")
@as_option
@output_option
@store_option
def timeline(game: str, round_: int | None, society: str | None, output: str, store_url: str | None) -> None:
    """The council-order timeline of GAME: each office as it was executed, round by round.

    A node per office (the society that controlled it, the order taken and its result), skipped offices
    faded with the reason, solid edges in execution order and dashed edges for time leaps (a swap-agent
    order, a card lending a position or moving an agent). With --as, only what that society could see.
    """
    pictures.timeline(store_url, game, output, round_, society)
    if output != "-":
        click.echo(say("{game}: timeline written to {file}", game=game, file=output))


@click.command("map", cls=Spoken)
@click.argument("game", required=False)
@click.option("--board", "board_file", metavar="ID|PATH", help="Draw this board as set up, without a game.")
@click.option("--at", "version", metavar="AT", help="After event N, move mN, a label (2.bear.marshal, "
              "\"R2 deploy 3\"), roundN or end (default: the end).")
@as_option
@output_option
@store_option
def board_map(game: str | None, board_file: str | None, version: str | None, society: str | None, output: str,
              store_url: str | None) -> None:
    """The board of GAME as a graph: regions with cities, farms, forts, banners, the controlling empire's
    colour and field agents; land borders as edges; laid out from the board file's positions. Beside it the
    council (each office's agent), where the game stands and the scores if it ended now; the last move in
    the title, an attack as an arrow. With --as, the move and the scores as that society could know them.
    With --board FILE and no GAME, the board alone as set up."""
    if (game is None) == (board_file is None):
        raise click.UsageError(_("give a GAME, or --board FILE for the board alone"))
    if board_file is not None:
        if version is not None or society is not None:
            raise click.UsageError(_("--at and --as go with a GAME: a board alone is drawn as set up"))
        from whispers.application.boards import draw_board

        draw_board(board_file, output)
        if output != "-":
            click.echo(say("{board}: board drawn to {file}", board=board_file, file=output))
        return
    assert game is not None
    drawn = pictures.board_map(store_url, game, output, at_event(store_url, game, version), society)
    if output != "-":
        click.echo(say("{game}: map after event {n} written to {file}", game=game, n=drawn.version, file=output))


