"""`games`: the games in the store, as a table or as JSON, from the catalog's listing (issue 12: 10,000 games at
once). Apart from cli/reading.py so that its start-up imports no game state, events or views."""

from functools import cache
from typing import TYPE_CHECKING

import click

from whispers.application import reading
from whispers.application.collector import uncollected
from whispers.cli.common import emit_json, store_option
from whispers.cli.spoken import Spoken
from whispers.cli.table import FACTS
from whispers.ledger.core.words import N_, _, say, term, tongue

if TYPE_CHECKING:
    from whispers.application.reading import GameRowJson

AT = N_("at {text}")
"""Where a game was played, in the listing."""


@click.command(cls=Spoken)
@click.option("--player", metavar="NAME", help="Only games NAME played (a name recorded at a seat).")
@click.option("--event", metavar="TEXT", help="Only games of this event.")
@click.option("--since", metavar="YYYY-MM-DD", help="Only games recorded on or after this date.")
@click.option("--ruleset", metavar="LABEL", help="Only games under this ruleset, as the listing shows it.")
@click.option("--state", type=click.Choice(reading.STATES), help="Only games still playing, or over.")
@click.option("--sort", type=click.Choice(list(reading.SORTS)), default="store", show_default=True,
              help="The order of the listing.")
@click.option("--limit", type=int, metavar="N", help="The N latest games the filters keep (default 50).")
@click.option("--all", "everything", is_flag=True, help="Every game, archived ones too (no limit unless --limit).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@store_option
def games(player: str | None, event: str | None, since: str | None, ruleset: str | None, state: str | None,
          sort: str, limit: int | None, everything: bool, as_json: bool, store_url: str | None) -> None:
    """The games in the store: date, players (names per seat), ruleset, where each stands and who won.

    The latest 50 games the filters keep (by when they were created), in the order --sort gives; --limit N
    lists N, --all every game.
    """
    which = reading.GameFilter(player, event, since, ruleset, state, sort, everything)
    found = reading.games(store_url, which, limit if limit is not None or everything else reading.LATEST)
    with uncollected():  # 10,000 lines or JSON objects made of plain data
        print_listing(found.to_json(), which, as_json)
    if found.more and not as_json:
        click.echo(say("The latest {n} shown: --limit N for more, --all for every game.", n=len(found.listed)))


def print_listing(rows: "list[GameRowJson]", which: reading.GameFilter, as_json: bool) -> None:
    if as_json:
        emit_json(rows)
        return
    if not rows:
        if which == reading.GameFilter(sort=which.sort):
            click.echo(_("No games yet (or all archived: whispers games --all). Try: whispers demo"))
        else:
            click.echo(_("No games match."))
    children: dict[str | None, list[GameRowJson]] = {}
    names = {row["game"] for row in rows}
    for row in rows:
        parent = row["fork_of"]["game"] if row["fork_of"] and row["fork_of"]["game"] in names else None
        children.setdefault(parent, []).append(row)

    # one language for the whole listing: each word, standing and date is put in words once, not once a game
    term_of = cache(term)

    @cache
    def standing(over: bool, winner: str | None, round_no: int, phase: str) -> str:
        return (say("over, winner {winner}", winner=winner or _("none (tie)")) if over
                else say("round {round}", round=round_no) + " " + term(phase, "phase"))

    code = tongue().code

    @cache
    def dated(day: str) -> str:
        if not day or code == "en":  # English keeps ISO
            return day
        from whispers.projections.language import format_date

        return format_date(day, code)  # as the language writes a date (Babel)

    def seated(row: "GameRowJson") -> str:
        names = row["names"]
        return ",".join(f"{term_of(s)}={names[s]}" if s in names else term_of(s) for s in row["players"])

    seats = {row["game"]: seated(row) for row in rows}
    wide = max([28, *map(len, seats.values())])  # the players' column fits its longest line
    lines: list[str] = []  # written at once: 10,000 games are 10,000 lines

    def show(row: "GameRowJson", depth: int) -> None:
        where = standing(row["over"], row["winner"], row["round"], row["phase"])
        label = ("  " * depth + ("└ " if depth else "") + row["game"])
        fork = "  " + say("(fork at event {at})", at=row["fork_of"]["at"]) if row["fork_of"] else ""
        meta = row["meta"]
        title = f"  \"{meta['title']}\"" if meta["title"] else ""
        archived = "  " + _("(archived)") if meta["archived"] else ""
        date = dated((row["date"] or "")[:10])
        players = seats[row["game"]]
        event = "  " + " ".join(say(k, text=v) for k, v in ((FACTS["event"], meta["event"]),
                                                            (FACTS["round"], meta["round"]),
                                                            (FACTS["table"], meta["table"]),
                                                            (AT, meta["place"])) if v)
        lines.append(f"{label:<28} {date:<10} {row['played_under']:<9} {players:<{wide}} {where}{fork}{title}"
                     f"{event.rstrip()}{archived}")
        for child in children.get(row["game"], []):
            show(child, depth + 1)

    for row in children.get(None, []):
        show(row, 0)
    if lines:
        click.echo("\n".join(lines))
