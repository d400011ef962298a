"""Games in files: `import` (notation or a record file) and `export` (the portable record file)."""

from pathlib import Path

import click

from whispers.cli.common import game_notes, open_store, store_option
from whispers.ledger import recordfile
from whispers.ledger.errors import RecordFileError, StoreError
from whispers.ledger.game import import_lines, import_record
from whispers.ledger.pins import played_under
from whispers.ledger.safefile import write_file
from whispers.ledger.shipped import state_pins
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
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise RecordFileError(f"cannot read {file}: {exc.strerror}") from None
    with open_store(store_url) as store:
        if recordfile.looks_like_record(data):
            game = import_record(store, data, str(file), name, allow_modified)
            name, state, count = game.name, game.state, game.version
            if unchained := sum(1 for note in store.notes(name) if note.get("unchained")):
                click.echo(f"warning: {name}: {unchained} notes came from a file whose notes no hash covers (an "
                           "older whispers): they are kept marked 'unchained'", err=True)
        else:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise RecordFileError(f"{file}: neither notation (UTF-8 text) nor a record file") from None
            name = name or file.stem
            game = import_lines(store, name, text.splitlines(), beside=file.parent, allow_modified=allow_modified)
            state, count = game.state, game.version
    where = "over" if state.over else f"round {state.round}, {state.phase}"
    click.echo(f"{name}: imported {plural(count, 'event')} ({played_under(*state_pins(state))}, "
               f"{', '.join(state.players)}; {where}).")


@click.command()
@click.argument("game")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The record file to write.")
@click.option("--force", is_flag=True, help="Replace OUTPUT if it exists.")
@store_option
def export(game: str, output: Path, force: bool, store_url: str | None) -> None:
    """Export GAME as a portable record file: msgpack, a header and a hash chain over the events.

    An existing OUTPUT is left alone unless --force is given."""
    with open_store(store_url) as store:
        facts = store.facts(game)
        notes = game_notes(store, game)
    data = recordfile.dumps(game, facts, notes)
    try:
        write_file(output, data, overwrite=force)
    except FileExistsError:
        raise StoreError(f"{output} exists already: export --force replaces it") from None
    except OSError as exc:
        raise StoreError(f"cannot write {output}: {exc.strerror}") from None
    click.echo(f"{game}: {plural(len(facts), 'event')} written to {output} (head {recordfile.chain(facts)[-1][:16]}…"
               f"; {plural(len(notes), 'note')}, notes head {recordfile.notes_head(notes)[:16]}…).")


@click.command()
@click.argument("target", metavar="GAME|FILE")
@store_option
def verify(target: str, store_url: str | None) -> None:
    """Check GAME in the store, or a record FILE: its hash chain, and every move re-adjudicated by the rules.

    Prints the head hash of the chain (publish it beside a record to make it tamper-evident); a break is one
    line naming the first bad event, with exit status 2.
    """
    from whispers.ledger.verify import verify as check

    path = Path(target)
    if path.suffix and path.is_file():
        header, facts, notes = recordfile.loads(path.read_bytes(), target)
        chained = "notes_head" in header
    else:
        with open_store(store_url) as store:
            facts = store.facts(target)
            notes, chained = game_notes(store, target), True
    verified = check(facts, target)
    state = verified.state
    where = "over" if state.over else f"round {state.round}, {state.phase}"
    click.echo(f"{target}: {plural(verified.events, 'event')} verified ({played_under(*verified.pins)}, {where}); "
               f"every move agrees with the rules; chain head {verified.head}")
    for pin in verified.pins:
        click.echo(f"  {pin.sentence()}")
    if chained:
        click.echo(f"{target}: {plural(len(notes), 'note')}, apart from the moves; "
                   f"notes head {recordfile.notes_head(notes)}")
    elif notes:
        click.echo(f"{target}: {plural(len(notes), 'note')} NOT covered by any hash (a record file from an older "
                   "whispers): they import marked 'unchained'")
