"""Games in files: `import` (notation or a record file) and `export` (the portable record file)."""

from pathlib import Path

import click

from whispers.application import files
from whispers.cli.common import store_option, warn
from whispers.ledger.words import plural


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--game", "name", metavar="NAME", help="Name for the game (default: the file's game or its stem).")
@click.option("--allow-modified", is_flag=True,
              help="Record under a ruleset or board that claims a shipped id with other content; it is then "
                   "shown everywhere as modified.")
@store_option
def import_game(file: Path, name: str | None, allow_modified: bool, store_url: str | None) -> None:
    """Import FILE, a game in notation or a whispers record file: all of it, or nothing.

    A bad notation line is named by its number with the reason; a truncated or altered record file is
    refused, naming the first bad event.
    """
    imported = files.import_file(store_url, file, name, allow_modified)
    if imported.unchained:
        click.echo(f"warning: {imported.game}: {imported.unchained} notes came from a file whose notes no hash covers "
                   "(an older whispers): they are kept marked 'unchained'", err=True)
    click.echo(f"{imported.game}: imported {plural(imported.events, 'event')} ({imported.played_under}, "
               f"{', '.join(imported.players)}; {imported.where}).")


@click.command()
@click.argument("game")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The record file to write.")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
@store_option
def export(game: str, output: Path, force: bool, store_url: str | None) -> None:
    """Export GAME as a portable record file: msgpack, a header and a hash chain over the events.

    An existing OUTPUT is left alone unless --force is given."""
    exported = files.export_record(store_url, game)
    warn(exported.warnings)
    files.write_export(exported, output, force)
    click.echo(f"{game}: {plural(exported.events, 'event')} written to {output} (head {exported.head[:16]}…; "
               f"{plural(exported.notes, 'note')}, notes head {exported.notes_head[:16]}…).")


@click.command()
@click.argument("target", metavar="GAME|FILE")
@store_option
def verify(target: str, store_url: str | None) -> None:
    """Check GAME in the store, or a record FILE: its hash chain, and every move re-adjudicated by the rules.

    Prints the head hash of the chain (publish it beside a record to make it tamper-evident); a break is one
    line naming the first bad event, with exit status 2.
    """
    verified = files.verify(store_url, target)
    warn(verified.warnings)
    click.echo(f"{target}: {plural(verified.events, 'event')} verified ({verified.played_under}, {verified.where}); "
               f"every move agrees with the rules; chain head {verified.head}")
    for pin in verified.pins:
        click.echo(f"  {pin.sentence()}")
    for note in verified.unchecked:
        click.echo(f"{target}: not checked: {note}")
    if verified.notes_head is not None:
        click.echo(f"{target}: {plural(verified.notes, 'note')}, apart from the moves; "
                   f"notes head {verified.notes_head}")
    elif verified.notes:
        click.echo(f"{target}: {plural(verified.notes, 'note')} NOT covered by any hash (a record file from an older "
                   "whispers): they import marked 'unchained'")
