"""`whispers board`: check and show board files."""

import json
from typing import Literal

import click

from whispers.application import boards
from whispers.cli.spoken import SpokenGroup
from whispers.ledger.core import names
from whispers.ledger.core.board import Board
from whispers.ledger.core.words import ENGLISH, _, plural, say, term, tongue


@click.group(cls=SpokenGroup)
def board() -> None:
    """Check and show boards (the map, councils and starting banners).

    A board is a TOML file; the format is in docs/boards.md. A shipped board is named by its id (`standin`),
    any other by the path of its file.
    """


@board.command()
@click.argument("file", metavar="FILE")
def check(file: str) -> None:
    """Validate the board file FILE (or a shipped board's id) and print a one-line summary.

    Exits 0 if FILE is a valid board. Otherwise prints the first problem on one line (the file, the region or
    council at fault, and what is wrong) and exits 2.
    """
    checked = boards.check_board(file)
    loaded = checked.board
    cities = sum(region.cities for region in loaded.regions.values())
    short_hash = loaded.content_hash[: len("sha256:") + 12]
    click.echo(say("{file}: valid board {board!r} ({regions}, {empires}, {cities}, {hash})", file=file,
                   board=loaded.id, regions=plural(len(loaded.regions), "region"),
                   empires=plural(len(loaded.empires), "empire"), cities=plural(cities, "city"), hash=short_hash))
    counted = checked.census.census
    click.echo("  " + _("per empire (home regions, cities, farms, forts, starting banners), to compare with the "
                        "printed map:"))
    nouns: tuple[tuple[Literal["regions", "cities", "farms", "forts", "banners"], str], ...] = (
        ("regions", "region"), ("cities", "city"), ("farms", "farm"), ("forts", "fort"), ("banners", "banner"))
    for empire, n in counted["empires"].items():
        counts = ", ".join(plural(n[key], noun) for key, noun in nouns)
        click.echo(f"    {term(empire):<10} {counts}")
    if counted["seas"]:
        click.echo("  " + _("seas, with the regions on their shores (a sea is never a border):"))
        for sid, sea in counted["seas"].items():
            click.echo(f"    {sid:<14} {sea['name']}: {', '.join(sea['coasts'])}")
    else:
        click.echo("  " + _("seas: none in this file (a [seas.ID] table per sea, docs/boards.md)"))
    if counted["unreached"]:
        shores = counted["unreached_seas"]
        click.echo("  " + say("no land border reaches: {regions}", regions=", ".join(
            say("{region} (on {seas})", region=rid, seas=", ".join(shores[rid])) if shores[rid]
            else say("{region} (on no sea either)", region=rid) for rid in counted["unreached"])))
    if counted["land_masses"] > 1:
        click.echo("  " + say("the land borders make {n} separate land masses (one if every region is reached by "
                              "land)", n=counted["land_masses"]))
    pinned = checked.pin
    if pinned.status == "modified":
        click.echo("  " + say("{pin}: a game on it is refused without --allow-modified, and then shown as {label}",
                              pin=pinned.sentence(), label=pinned.label))


@board.command("new")
@click.argument("file", metavar="FILE")
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
def new_board(file: str, force: bool) -> None:
    """Write a board file to fill in from the printed map: the five empires and their councils as the revised
    rulebook gives them, and a commented region per empire to copy (docs/boards.md walks through it)."""
    boards.new_board(file, force)
    click.echo(say("{file}: board template written. Fill in the regions, then: whispers board check {file}",
                   file=file))


@board.command()
@click.argument("ref", metavar="[ID|PATH]", default="standin")
@click.option("--json", "as_json", is_flag=True, help="Print the board as JSON data, with its content hash.")
def show(ref: str, as_json: bool) -> None:
    """Show a board: its regions and every empire's council.

    ID|PATH is a shipped board's id or the path of a board file (default: standin).
    """
    loaded = boards.load(ref)
    if as_json:
        click.echo(json.dumps({**loaded.to_data(), "content_hash": loaded.content_hash}, indent=2))
        return
    _print_tables(loaded)


def _print_tables(loaded: Board) -> None:
    from rich import box
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    console = Console(emoji=False)  # a board file's names are shown as written, never as emoji codes
    if not console.is_terminal:
        # Piped or redirected output has no screen to fit: keep each region on one line.
        console.width = max(console.width, 140)
    console.print(Text.assemble((loaded.name, "bold"), f" ({loaded.id}, {loaded.content_hash})"), highlight=False)
    if loaded.note:
        console.print(loaded.note, markup=False, highlight=False)

    regions = Table(
        title=_("Regions"),
        caption=_("banners: starting banners of the home empire; neighbours: land borders only"),
        box=box.SIMPLE_HEAD,
        collapse_padding=True,
        pad_edge=False,
    )
    # Ids are what a user types: never elide them, let names and neighbour lists wrap instead.
    id_width = max(len(rid) for rid in loaded.regions)
    regions.add_column(_("id"), no_wrap=True, min_width=id_width)
    wide = console.width >= 120
    name_width = max(len(region.name) for region in loaded.regions.values())
    regions.add_column(_("name"), overflow="fold", min_width=name_width if wide else None)
    regions.add_column(_("home"), no_wrap=True, min_width=max(len(term(empire)) for empire in loaded.empires))
    farm, fort = _("farm"), _("fort")
    for heading, right in ((_("cities"), True), (farm, False), (fort, False), (_("banners"), True)):
        regions.add_column(heading, justify="right" if right else "left", no_wrap=True)
    regions.add_column(_("neighbours"), no_wrap=True, min_width=id_width)
    # On a narrow screen a list of ids wraps badly: give each neighbour its own line instead.
    separator = ", " if wide else "\n"
    for region in loaded.regions.values():
        regions.add_row(
            region.id,
            escape(region.name),
            term(region.home),
            tongue().number(region.cities),
            farm if region.farm else "",
            fort if region.fort else "",
            tongue().number(region.banners),
            separator.join(region.adjacent),
        )
    console.print(regions)

    council = Table(
        title=_("Councils"), caption=_("in empire turn order; an office offers order A or B"), box=box.SIMPLE_HEAD
    )
    for heading in (_("empire"), _("office"), _("orders")):
        council.add_column(heading, no_wrap=True)
    english = tongue() is ENGLISH  # English readers read the orders' ids, as the board file writes them
    for empire in loaded.empires:
        for i, office in enumerate(names.OFFICES):
            last = i == len(names.OFFICES) - 1
            orders = loaded.orders(empire, office)
            council.add_row(
                term(empire) if i == 0 else "", term(office, "office"),
                " / ".join(orders if english else (term(order, "order") for order in orders)), end_section=last
            )
    console.print(council)
    if loaded.seas:
        seas = Table(title=_("Seas"), caption=_("the regions on each sea's shores; a sea is never a border"),
                     box=box.SIMPLE_HEAD)
        for heading, wraps in ((_("id"), False), (_("name"), False), (_("coasts"), True)):
            seas.add_column(heading, no_wrap=not wraps)
        for sea in loaded.seas.values():
            seas.add_row(sea.id, escape(sea.name), ", ".join(sea.coasts))
        console.print(seas)
