"""Tournaments: `standings` over a list of games, `tournament FILE.toml` with entrants and points, and
`tournament pair FILE.toml --round N` to seat a round."""

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from whispers.application import tournament as use
from whispers.cli.common import emit_json, one_format, store_option
from whispers.cli.spoken import Spoken, SpokenGroup, said
from whispers.ledger.core.words import N_, _, say, term

if TYPE_CHECKING:
    from rich.console import JustifyMethod

    from whispers.projections.standings import StandingsData

format_options = [
    click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts."),
    click.option("--csv", "as_csv", is_flag=True, help="Print CSV (one row per entrant and ruleset)."),
]


def _with_formats(func):
    for option in reversed(format_options):
        func = option(func)
    return func


def _show(data: "StandingsData", title: str, as_json: bool, as_csv: bool, societies: bool = False) -> None:
    """The standings as a table; `societies`: the entrants are societies (`standings`), shown as the glossary
    names them, not people (`tournament`), whose names are never put in words."""
    if as_json:
        emit_json(data)
        return
    if as_csv:
        import csv

        writer = csv.writer(sys.stdout)
        writer.writerow(["ruleset", "place", "rank", "entrant", "points", "wins", "score", "games", "finalised"])
        for ruleset, rows in data["rulesets"].items():
            for row in rows:
                writer.writerow([ruleset, row["place"], row["rank"], row["entrant"], row["points"], row["wins"],
                                 row["score"], len(row["games"]), row["finalised"]])
        return
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(emoji=False)
    for ruleset, rows in data["rulesets"].items():
        # the tournament's and the entrants' names are people's words: Text, never read as rich markup
        grid = Table(title=Text(f"{title} · " + say("{ruleset} rules", ruleset=ruleset)))
        justify: JustifyMethod
        for column, justify in (("#", "right"), (N_("entrant"), "left"), (N_("points"), "right"),
                                (N_("wins"), "right"), (N_("score"), "right"), (N_("finalised"), "right")):
            grid.add_column(_(column) if column != "#" else column, justify=justify)
        named = [term(row["entrant"]) if societies else row["entrant"] for row in rows]
        for row, entrant in zip(rows, named, strict=True):
            grid.add_row(row["place"], Text(entrant), f"{row['points']:g}", str(row["wins"]), str(row["score"]),
                         f"{row['finalised']}/{len(row['games'])}")
        console.print(grid)
        if any(row["tied"] for row in rows):
            console.print(_("=: a place shared by entrants level on points, wins and score."), markup=False,
                          highlight=False)
        # Each entrant's places under the table, one line each (wrapped under it), not in a column: a season's
        # entrant plays dozens of games, and their places wrapped in a narrow column made every row a dozen lines
        # tall, the other cells padded to match (most of the table's drawing time).
        console.print(_("Places in each game:"), markup=False, highlight=False)
        lines = places_lines(named, [[f"{g['game']}: {g['place']:g}{'' if g.get('finalised') else '*'}"
                                      for g in row["games"]] for row in rows], console.width)
        console.print(Text("\n".join(lines)), soft_wrap=True)  # wrapped already: the cells are not measured again
    if data.get("finalised"):
        console.print(say("Finalised by the director: {games}", games=", ".join(data["finalised"])), markup=False,
                      highlight=False)
    if data.get("unfinalised"):
        console.print(say("Finished, not finalised yet (* above, provisional): {games}",
                          games=", ".join(data["unfinalised"])), markup=False, highlight=False)
    if data["in_progress"]:
        console.print(say("In progress, not counted: {games}", games=", ".join(data["in_progress"])), markup=False,
                      highlight=False)
    if data.get("not_started"):
        console.print(say("Not started yet: {games}", games=", ".join(data["not_started"])), markup=False,
                      highlight=False)
    if not data["rulesets"]:
        console.print(_("No finished game yet."))


def places_lines(names: list[str], places: list[list[str]], width: int) -> list[str]:
    """Each name followed by its places ("game: place"), packed into lines of at most `width` cells, a place never
    split; a name's further lines start under its first place (a name wider than 24 cells pushes its first only)."""
    from rich.cells import cell_len

    column = min(max((cell_len(name) for name in names), default=0), 24)
    lines = []
    for name, items in zip(names, places, strict=True):
        line, placed = f"  {name}{' ' * max(column - cell_len(name), 0)} ", False
        for number, item in enumerate(items):
            piece = f" {item}," if number < len(items) - 1 else f" {item}"
            if placed and cell_len(line) + cell_len(piece) > width:
                lines.append(line)
                line = " " * (column + 3)
            line, placed = line + piece, True
        lines.append(line.rstrip())
    return lines


@click.command(cls=Spoken)
@click.option("--games", required=True, metavar="G1,G2,...", help="The games to rank, by name.")
@_with_formats
@store_option
def standings(games: str, as_json: bool, as_csv: bool, store_url: str | None) -> None:
    """Standings over GAMES by ruleset, each game placed by its own ruleset's tie-breaks.

    Entrants are the societies (use `whispers tournament FILE` to name the people at each seat); tournament
    points per placing are players minus place (4 players: 3, 2, 1, 0); games in progress are not counted.
    """
    one_format(as_json, as_csv)
    found = use.standings(store_url, [g.strip() for g in games.split(",") if g.strip()])
    _show(found.to_json(), _("standings"), as_json, as_csv, societies=True)


@click.command("tournament", cls=Spoken)
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@_with_formats
@store_option
def ranking(file: Path, as_json: bool, as_csv: bool, store_url: str | None) -> None:
    """Standings of the tournament described in FILE (docs/tournament.md): its games, who sat at each
    society, and its points per placing."""
    one_format(as_json, as_csv)
    found = use.tournament(store_url, file)
    _show(found.to_json(), found.title, as_json, as_csv)


class FileOrCommand(SpokenGroup):
    """`tournament FILE` ranks (as it always has); `tournament pair FILE` seats a round."""

    def make_context(self, info_name, args, parent=None, **extra):
        if args and (args[0] in self.commands or args[0] in ("--help", "-h")):
            return super().make_context(info_name, args, parent, **extra)
        return ranking.make_context(info_name, args, parent, **extra)

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_usage(ctx.command_path, "FILE [--json|--csv] [--store URL]")
        formatter.write_usage(ctx.command_path, "pair FILE --round N [--start] [--force] [--json] [--store URL]",
                              prefix=said("or:").rjust(len(said("Usage:"))) + " ")


@click.group(cls=FileOrCommand)
def tournament() -> None:
    """Standings of the tournament described in FILE (docs/tournament.md): its games, who sat at each
    society, and its points per placing. `pair` seats the entrants of a round at tables of 3 and 4."""


@tournament.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--round", "round_no", type=int, required=True, metavar="N", help="The round to seat, from 1.")
@click.option("--force", is_flag=True, help="Replace round N if the file has it already.")
@click.option("--start", is_flag=True,
              help="Create each table's game in the store, with its seats' names, event, round and table.")
@click.option("--ruleset", default="official", show_default=True, metavar="ID|PATH",
              help="With --start: the games' ruleset, as for whispers new.")
@click.option("--board", default="standin", show_default=True, metavar="ID|PATH",
              help="With --start: the games' board, as for whispers new.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@store_option
def pair(file: Path, round_no: int, force: bool, start: bool, ruleset: str, board: str, as_json: bool,
         store_url: str | None) -> None:
    """Seat FILE's entrants at tables of 3 and 4 for round N and write the round into FILE.

    Round 1 is drawn at random (seeded by the tournament's name, entrants and the round, so a re-run gives
    the same tables); later rounds are Swiss by the points of the rounds before, with as few repeat
    meetings as any arrangement allows. Societies and the first seat rotate. docs/tournament.md.

    With --start each table's game is created in the store, named, seated and labelled with the event, round
    and table (a game of that name already there refuses the round, and nothing is written); without it the
    lines that start them are printed.
    """
    paired = use.pair(store_url, file, round_no, force, start)
    use.write_round(file, paired)
    started = use.start_round(store_url, paired, ruleset, board) if start else []
    if as_json:
        emit_json({**paired.to_json(), "started": started})
        return
    _show_plan(paired.plan, paired.tournament, paired.points, bool(started))


def _show_plan(plan, title: str, points: dict[str, float], started: bool) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    from whispers.projections.pairing import new_command

    console = Console(emoji=False)  # entrants' names as typed: ":smile: Ana" stays text
    grid = Table(title=escape(f"{title} · " + say("round {text}", text=plan.round)))  # a tournament's round
    for column in (N_("table"), N_("seat"), N_("entrant"), N_("society"), N_("points")):
        grid.add_column(_(column), justify="right" if column in ("seat", "points") else "left")
    for table in plan.tables:
        for seat_no, seat in enumerate(table.seats, start=1):
            first = " " + _("(first)") if seat_no == 1 else ""
            grid.add_row(table.game if seat_no == 1 else "", str(seat_no), escape(seat.entrant),
                         term(seat.society) + first, f"{points.get(seat.entrant, 0.0):g}",
                         end_section=seat_no == len(table.seats))
    console.print(grid)
    if plan.repeats:
        pairs = ", ".join(say("{name} and {text}", name=a, text=b) for a, b in plan.repeats)
        proof = _("no arrangement has fewer") if plan.exact else _("the fewest found; the search did not see them all")
        console.print(escape(say("Meeting again: {text} ({reason}).", text=pairs, reason=proof)))
    else:
        console.print(_("No two entrants meet again."))
    if not started:
        for table in plan.tables:
            click.echo(new_command(table, title, plan.round))
        return
    from rich.panel import Panel
    from rich.text import Text

    from whispers.projections.pairing import table_number

    for table in plan.tables:  # the table's card: what the director reads out and the table checks
        seats = Text()
        for seat_no, seat in enumerate(table.seats, start=1):
            first = " " + _("(first)") if seat_no == 1 else ""
            seats.append(f"{seat_no}. {term(seat.society)}{first}: ")
            seats.append(seat.entrant, style="bold")
            seats.append("\n")
        seats.append(say("Started: whispers status {game}", game=table.game))
        heading = " · ".join((table.game, title, say("round {text}", text=plan.round),
                              say("table {text}", text=table_number(table))))
        console.print(Panel(seats, title=Text(heading), title_align="left", expand=False))
