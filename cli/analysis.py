"""`analyse`: each society's chance of winning and expected score after every move, and the turning points."""

import sys

import click

from whispers.application import analysis
from whispers.application.analysis import Analysis
from whispers.cli.common import emit_json, store_option
from whispers.cli.reading import as_option
from whispers.cli.spoken import Spoken
from whispers.ledger.core.rollout import DEFAULT_POLICY, POLICY_VERSIONS
from whispers.ledger.core.words import _, say, term


@click.command(cls=Spoken)
@click.argument("game")
@click.option("--rollouts", "-n", type=click.IntRange(min=1), default=analysis.DEFAULT_ROLLOUTS, show_default=True,
              help="Playouts to the end from the position after each move.")
@as_option
@click.option("--moves", metavar="RANGE", help="Only these moves: 10-40, 10-, -40 or 25 (0: the game as set up).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Processes playing the playouts (default: one per core).")
@click.option("--policy", type=click.Choice(tuple(POLICY_VERSIONS)), default=DEFAULT_POLICY, show_default=True,
              help="How simulated societies choose their moves (docs/analysis.md).")
@click.option("--seed", type=int, default=0, show_default=True, help="The playouts' seed (stored apart).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@store_option
def analyse(game: str, rollouts: int, society: str | None, moves: str | None, jobs: int | None, policy: str,
            seed: int, as_json: bool, store_url: str | None) -> None:
    """GAME's course as chances: after every move, each society's chance of winning (ties as the ruleset breaks
    them) and expected final score, each with its standard error, from playouts to the end by the rules engine,
    and the turning points. With --as, what the society could not know is sampled, never read. Results are kept
    in the store: a second run reads them, a longer one adds to them, and Ctrl-C keeps what is done."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = Progress(TextColumn(_("playouts")), BarColumn(), MofNCompleteColumn(), TaskProgressColumn(),
                   TextColumn("{task.fields[rate]}"),
                   TimeElapsedColumn(), TimeRemainingColumn(), console=Console(stderr=True), transient=True,
                   disable=not sys.stderr.isatty())
    task = bar.add_task("", total=None, rate="")

    def step(done: int, total: int) -> None:
        speed = bar.tasks[0].speed
        bar.update(task, completed=done, total=total, rate=say("{n}/s", n=format(speed, ".0f")) if speed else "")

    try:
        with bar:
            found = analysis.analyse(store_url, game, rollouts, society, moves, jobs or analysis.default_jobs(),
                                     seed, policy, step)
    except KeyboardInterrupt:
        click.echo(say("{game}: interrupted; the playouts finished are kept, run the same command again to go on",
                       game=game), err=True)
        sys.exit(130)
    if as_json:
        emit_json(found.to_json())
        return
    _print(found)


def _print(found: Analysis) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, emoji=False)
    viewer = found.viewer or _("the record")
    console.print(say("{game} as {viewer} knew it: {n} playouts a move, policy {policy}", game=found.game,
                      viewer=viewer, n=found.rollouts, policy=found.policy), markup=False)
    table = Table(box=None, pad_edge=False)
    table.add_column(_("move"), no_wrap=True)
    for society in found.societies:
        table.add_column(term(society), justify="right", no_wrap=True)
    marked = {t.version for t in found.turning}
    for point in found.points:
        cells = []
        for society in found.societies:
            chance, se = point.chances[society]
            score, _se = point.scores[society]
            cells.append(f"{chance * 100:3.0f}±{(se or 0) * 100:<2.0f} {score:4.1f}")
        label = point.label or say("m0 {what}", what=_("as set up"))
        table.add_row(("◆ " if point.version in marked else "  ") + label, *cells)
    console.print(table)
    console.print(_("each cell: chance of winning in % ± its standard error, then the expected final score; "
                    "◆ a turning point"))
    console.print(_("turning points (the largest changes of a society's chance):"))
    for turn in found.turning:
        console.print(f"  {turn.label or turn.move}: {term(turn.society)} {turn.change:+.0%}", markup=False)
    if not found.complete:
        console.print(_("not every move has all its playouts yet: run the command again to complete it"))
