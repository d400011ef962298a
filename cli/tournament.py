"""Tournaments: `standings` over a list of games, and `tournament FILE.toml` with entrants and points."""

import csv
import sys
from pathlib import Path
from typing import Any

import click

from cli.common import emit_json, one_format, open_store, store_option
from ledger.errors import StoreError
from ledger.game import load

format_options = [
    click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts."),
    click.option("--csv", "as_csv", is_flag=True, help="Print CSV (one row per entrant and ruleset)."),
]


def _with_formats(func):
    for option in reversed(format_options):
        func = option(func)
    return func


def _show(data: dict[str, Any], title: str, as_json: bool, as_csv: bool) -> None:
    if as_json:
        emit_json(data)
        return
    if as_csv:
        writer = csv.writer(sys.stdout)
        writer.writerow(["ruleset", "rank", "entrant", "points", "wins", "score", "games"])
        for ruleset, rows in data["rulesets"].items():
            for row in rows:
                writer.writerow([ruleset, row["rank"], row["entrant"], row["points"], row["wins"], row["score"],
                                 len(row["games"])])
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    for ruleset, rows in data["rulesets"].items():
        grid = Table(title=f"{title} · {ruleset} rules")
        for column, justify in (("#", "right"), ("entrant", "left"), ("points", "right"), ("wins", "right"),
                                ("score", "right"), ("places", "left")):
            grid.add_column(column, justify=justify)
        for row in rows:
            places = ", ".join(f"{g['game']}: {g['place']:g}" for g in row["games"])
            grid.add_row(str(row["rank"]), row["entrant"], f"{row['points']:g}", str(row["wins"]), str(row["score"]),
                         places)
        console.print(grid)
    if data["in_progress"]:
        console.print(f"In progress, not counted: {', '.join(data['in_progress'])}")
    if not data["rulesets"]:
        console.print("No finished game yet.")


def _events(store, names: list[str]) -> dict[str, list]:
    games = {}
    for name in names:
        games[name] = list(load(store, name).events)
    return games


@click.command()
@click.option("--games", required=True, metavar="G1,G2,...", help="The games to rank, by name.")
@_with_formats
@store_option
def standings(games: str, as_json: bool, as_csv: bool, store_url: str | None) -> None:
    """Standings over GAMES by ruleset, each game placed by its own ruleset's tie-breaks.

    Entrants are the societies (use `whispers tournament FILE` to name the people at each seat); tournament
    points per placing are players minus place (4 players: 3, 2, 1, 0); games in progress are not counted.
    """
    from projections.standings import standings_data

    one_format(as_json, as_csv)
    names = [g.strip() for g in games.split(",") if g.strip()]
    if not names:
        raise StoreError("--games lists no game")
    with open_store(store_url) as store:
        data = standings_data(_events(store, names))
    _show(data, "standings", as_json, as_csv)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@_with_formats
@store_option
def tournament(file: Path, as_json: bool, as_csv: bool, store_url: str | None) -> None:
    """Standings of the tournament described in FILE (docs/tournament.md): its games, who sat at each
    society, and its points per placing."""
    from projections.standings import load_tournament, standings_data

    one_format(as_json, as_csv)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise StoreError(f"cannot read {file}: {getattr(exc, 'strerror', None) or exc}") from None
    spec = load_tournament(text, str(file))
    with open_store(store_url) as store:
        data = standings_data(_events(store, spec.games), spec.seats, spec.points)
    data["tournament"] = spec.name
    _show(data, spec.name, as_json, as_csv)
