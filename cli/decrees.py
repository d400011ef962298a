"""`whispers decrees` and `whispers cards`: the decree catalogue and card sheets (docs/decrees.md)."""

import json

import click

from whispers.application.decrees import catalogue, check_cards
from whispers.cli.spoken import Spoken, SpokenGroup
from whispers.ledger.core.decrees import Family
from whispers.ledger.core.words import N_, _, plural, say, terms


@click.command(cls=Spoken)
@click.option("--ruleset", "ruleset_ref", metavar="R", help="Show when ruleset R (an id or a .toml path) lets each "
              "effect be played, instead of both rulesets' columns.")
@click.option("--json", "as_json", is_flag=True, help="Print the catalogue as JSON data, with its content hash.")
def decrees(ruleset_ref: str | None, as_json: bool) -> None:
    """List every card effect the rulebooks name: its type, decks, parameters and source.

    Type: the official window (before, during or after an action of a position you control) and the revised
    edition's G (before an order), M (during it) or I (when drawn). "adjudicated" effects have their mechanics
    in the rulebooks; "recorded" ones do not, and a play records its board changes.
    """
    listed = catalogue(ruleset_ref)
    if as_json:
        click.echo(json.dumps(listed.to_json(), indent=2, ensure_ascii=False))
        return
    _print_table(listed.data, ruleset_ref, listed.timing)


def _print_table(data: dict, ruleset_ref: str | None, timing: Family | None) -> None:
    from rich import box
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console()
    if not console.is_terminal:
        console.width = max(console.width, 160)
    head = data["catalogue"]
    console.print(f"[bold]{escape(head['name'])}[/bold] ({head['id']}, {head['content_hash']})", highlight=False)
    caption = _("set: dark-alliances effects need the expansion's card set; mechanics: adjudicated (the rulebooks "
                "give them) or recorded (they do not); engine: adjudicated (the engine computes the consequences) or "
                "recorded (the play records its board changes)")
    table = Table(box=box.SIMPLE_HEAD, caption=caption, collapse_padding=True, pad_edge=False)
    table.add_column(_("effect"), no_wrap=True)
    if timing is None:
        table.add_column(_("official"), no_wrap=True)
        table.add_column(_("revised"), no_wrap=True)
    else:
        table.add_column(say("timing ({ruleset})", ruleset=escape(ruleset_ref or "")), overflow="fold")
    for heading in (N_("on"), N_("decks"), N_("set"), N_("mechanics"), N_("engine"), N_("parameters"), N_("source")):
        table.add_column(_(heading), overflow="fold")
    for row in data["effects"]:
        params = ", ".join(f"{p['name']}: {p['kind']}" for p in row["parameters"])
        timing_cells = ([row["type"]["official"], row["type"]["revised"]] if timing is None
                        else [row["timing"]["words"]])
        table.add_row(row["id"], *timing_cells, row["on"], terms(row["decks"]), row["card_set"],
                      row["mechanics"], row["engine"], params, ", ".join(row["source"]))
    console.print(table)


@click.group(cls=SpokenGroup)
def cards() -> None:
    """Check card sheets: which printed card carries which effects, and what each costs.

    The printed cards are in no rulebook: a club transcribes its cards once into a TOML card sheet (the format is
    in docs/decrees.md) and a game may pin it. A shipped sheet is named by its id (`example`, made up), any other
    by the path of its file.
    """


@cards.command()
@click.argument("file", metavar="FILE")
def check(file: str) -> None:
    """Validate the card sheet FILE against the decree catalogue.

    Exits 0 with a one-line summary if the sheet is valid. Otherwise prints every problem, one a line (the card at
    fault and what is wrong), and exits 2.
    """
    checked = check_cards(file)
    sheet, pinned = checked.sheet, checked.pin
    if sheet is None or pinned is None:
        for line in checked.problems:
            click.echo(" ".join(line.split()), err=True)
        raise SystemExit(2)
    sets = ", ".join(f"{n} {name}" for name, n in checked.by_set.items())
    short_hash = sheet.content_hash[: len("sha256:") + 12]
    click.echo(say("{file}: valid card sheet {sheet!r} ({cards}: {sets}; {decks}; {hash})", file=file, sheet=sheet.id,
                   cards=plural(sheet.count(), "card"), sets=sets, decks=plural(len(sheet.cards), "deck"),
                   hash=short_hash))
    if sheet.example:
        click.echo("  " + _("a made-up example (example = true): not the printed cards"))
    if pinned.status == "modified":
        click.echo(f"  {pinned.sentence()}")
