"""Who, when, where: the table-fact options `new` and `meta` share, and `meta`, `archive`, `rename`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from whispers.application import table as use
from whispers.cli.common import Decorated, emit_json, store_option
from whispers.cli.spoken import Spoken
from whispers.ledger.core.words import N_, _, say, term

if TYPE_CHECKING:
    from whispers.ledger.core.events import TableChanges
    from whispers.ledger.core.meta import Meta, TextField


def table_options(command: Decorated) -> Decorated:
    """--seat SOCIETY=NAME (repeated), --place, --event, --round, --table, --tag (repeated)."""
    for option in reversed([
        click.option("--seat", "seats", multiple=True, metavar="SOCIETY=NAME",
                     help="Who played a society, e.g. --seat raven=Ana (repeat for each seat; NAME empty clears)."),
        click.option("--place", metavar="TEXT", help='Where it was played, e.g. "Club Sud".'),
        click.option("--event", metavar="TEXT", help='The event it belongs to, e.g. "Winter Cup".'),
        click.option("--round", "round_", metavar="TEXT", help="The event's round."),
        click.option("--table", metavar="TEXT", help="The table number."),
        click.option("--tag", "tags", multiple=True, metavar="TEXT", help="A free tag (repeat; replaces the tags)."),
    ]):
        command = option(command)
    return command


def table_changes(seats: tuple[str, ...], place: str | None, event: str | None, round_: str | None,
                  table: str | None, tags: tuple[str, ...]) -> TableChanges:
    """The options given, as a description's changes (empty: none given); UsageError for a seat not SOCIETY=NAME."""
    changes: TableChanges = {}
    for seat in seats:
        society, equals, name = seat.partition("=")
        if not equals:
            raise click.UsageError(say("--seat {text}: write SOCIETY=NAME, e.g. --seat raven=Ana", text=repr(seat)))
        changes.setdefault("seats", {})[society.strip()] = name or None
    texts: dict[TextField, str | None] = {"place": place, "event": event, "round": round_, "table": table}
    for key, value in texts.items():
        if value is not None:
            changes[key] = value or None
    if tags:
        changes["tags"] = [t for t in tags if t]
    return changes


def _show(described: use.Described, as_json: bool) -> None:
    if as_json:
        emit_json(described.to_json())
        return
    archived = " " + _("(archived)") if described.meta.archived else ""
    click.echo(f"{described.game}{archived}: {facts_words(described.meta)}")


FACTS = {"title": N_("title {text}"), "place": N_("place {text}"), "event": N_("event {text}"),
         "round": N_("round {text}"), "table": N_("table {text}")}
"""The table facts' words, each with the fact as typed."""


def facts_words(meta: Meta, recorded: bool = False) -> str:
    """Table facts in one line: `raven Ana, rat Bo; place Club Sud; event Winter Cup; table 3; tags x` (and when
    they were first recorded, if `recorded`)."""
    seats = ", ".join(f"{term(s)} {n}" for s, n in meta.seats.items()) or _("no names")
    where = "; ".join(say(k, text=v) for k, v in ((FACTS["title"], meta.title), (FACTS["place"], meta.place),
                                                  (FACTS["event"], meta.event), (FACTS["round"], meta.round),
                                                  (FACTS["table"], meta.table)) if v)
    tags = "; " + say("tags {text}", text=", ".join(meta.tags)) if meta.tags else ""
    when = "; " + say("recorded {text}", text=meta.recorded) if recorded and meta.recorded else ""
    return f"{seats}{'; ' + where if where else ''}{tags}{when}"


@click.command(cls=Spoken)
@click.argument("game")
@table_options
@click.option("--title", metavar="TEXT", help="A display title (see `whispers rename`).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@store_option
def meta(game: str, seats: tuple[str, ...], place: str | None, event: str | None, round_: str | None,
         table: str | None, tags: tuple[str, ...], title: str | None, as_json: bool, store_url: str | None) -> None:
    """Change who played GAME, where and for what event, as an event of its own (the moves are untouched).

    Example: whispers meta g1 --seat raven=Ana --seat rat=Bo --place "Club Sud" --event "Winter Cup" --table 3
    """
    changes = table_changes(seats, place, event, round_, table, tags)
    if title is not None:
        changes["title"] = title or None
    if not changes:
        raise click.UsageError(_("nothing to change: give --seat, --place, --event, --round, --table, --tag or "
                                 "--title"))
    _show(use.describe(store_url, game, changes), as_json)


@click.command(cls=Spoken)
@click.argument("game")
@click.option("--undo", is_flag=True, help="Show the game in listings again.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@store_option
def archive(game: str, undo: bool, as_json: bool, store_url: str | None) -> None:
    """Hide GAME from `whispers games` without erasing anything (`games --all` shows it)."""
    _show(use.archive(store_url, game, not undo), as_json)


@click.command(cls=Spoken)
@click.argument("game")
@click.argument("title")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@store_option
def rename(game: str, title: str, as_json: bool, store_url: str | None) -> None:
    """Give GAME the display title TITLE: `games` shows it; commands still take the name GAME was recorded under
    (the record is kept under that name, and forks and exports name it)."""
    _show(use.rename(store_url, game, title), as_json)
