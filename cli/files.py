"""Games in files: `import` (notation or a record file) and `export` (the portable record file)."""

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from whispers.application import files
from whispers.cli.common import emit_json, store_option, warn
from whispers.cli.spoken import Spoken
from whispers.cli.table import facts_words
from whispers.ledger.core.meta import Meta
from whispers.ledger.core.words import _, n_, plural, say, terms


@click.command("import", cls=Spoken)
@click.argument("paths", metavar="FILE...", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--game", "name", metavar="NAME",
              help="Name for the game (default: the file's game or its stem); only with a single file.")
@click.option("--allow-modified", is_flag=True,
              help="Record under a ruleset or board that claims a shipped id with other content; it is then "
                   "shown everywhere as modified.")
@click.option("--json", "as_json", is_flag=True, help="What was imported and what was refused, as JSON.")
@store_option
def import_game(paths: tuple[Path, ...], name: str | None, allow_modified: bool, as_json: bool,
                store_url: str | None) -> None:
    """Import each FILE, a game in notation or a whispers record file: all of it, or nothing.

    A bad notation line is named by its number with the reason; a truncated or altered record file is
    refused, naming the first bad event.

    Several files, or a folder (its *.whispers and *.txt files, in name order), are imported one game at a
    time: each lands whole or not at all, the others still land, and every refused file is named with its
    reason (exit status 2 if any was refused).
    """
    if name is not None and (len(paths) != 1 or paths[0].is_dir()):
        raise click.UsageError(_("--game names one game: give a single file, not several or a folder"))
    if len(paths) == 1 and not paths[0].is_dir() and not as_json:
        _import_one(paths[0], name, allow_modified, store_url)
        return
    chosen = files.batch_files(paths)
    if not chosen:
        raise click.UsageError(say("nothing to import: no .whispers or .txt file in {file}",
                                   file=", ".join(map(str, paths))))
    done = 0
    with _bar(_("Importing"), quiet=as_json or len(chosen) < 2) as advance:
        def each(path: Path, outcome: object) -> None:
            nonlocal done
            done += 1
            advance(done, len(chosen), _shown(path.name))

        batch = files.import_files(store_url, chosen, name, allow_modified, each)
    if as_json:
        emit_json(batch.to_json())
    else:
        for imported in batch.imported:
            click.echo(_imported(imported))
        for imported in batch.imported:
            if imported.unchained:
                click.echo(_unchained(imported), err=True)
        refused = n_("{n} file refused", "{n} files refused", len(batch.refused))
        click.echo(n_("{n} game imported, {refused}.", "{n} games imported, {refused}.", len(batch.imported),
                      refused=refused))
        for refusal in batch.refused:
            click.echo(say("refused {file}: {reason}", file=_shown(refusal.file), reason=refusal.reason), err=True)
    if batch.refused:
        click.get_current_context().exit(2)


def _import_one(file: Path, name: str | None, allow_modified: bool, store_url: str | None) -> None:
    imported = files.import_file(store_url, file, name, allow_modified)
    if imported.unchained:
        click.echo(_unchained(imported), err=True)
    click.echo(_imported(imported))
    if imported.table is not None and imported.table != Meta():
        click.echo("  " + say("table facts: {facts}", facts=facts_words(imported.table, recorded=True)))


def _imported(imported: files.Imported) -> str:
    return say("{game}: imported {events} ({ruleset}, {players}; {board}).", game=imported.game,
               events=plural(imported.events, "event"), ruleset=imported.played_under,
               players=terms(imported.players), board=imported.where)


def _unchained(imported: files.Imported) -> str:
    return say("warning: {text}", text=n_(
        "{game}: {n} note came from a file whose notes no hash covers (an older whispers): it is kept marked "
        "'unchained'",
        "{game}: {n} notes came from a file whose notes no hash covers (an older whispers): they are kept marked "
        "'unchained'", imported.unchained, game=imported.game))


def _shown(file: str) -> str:
    """A file name is data: shown on one line, with no terminal control characters (and no rich markup)."""
    return "".join(c if c.isprintable() else "?" for c in file)


@contextmanager
def _bar(label: str, quiet: bool) -> Iterator[Callable[[int, int, str], None]]:
    """`advance(done, total, last)` drawing a bar on a terminal (stderr) with the last item's name, or nothing when
    stderr is not one or `quiet` (--json)."""
    if quiet or not sys.stderr.isatty():
        yield lambda done, total, last: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  TextColumn("{task.fields[last]}", markup=False), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None, last="")
        yield lambda done, total, last: bar.update(task, completed=done, total=total, last=last)


@click.command(cls=Spoken)
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
    click.echo(say("{game}: {events} written to {file} (head {head}…; {notes}, notes head {then}…).", game=game,
                   events=plural(exported.events, "event"), file=str(output), head=exported.head[:16],
                   notes=plural(exported.notes, "note"), then=exported.notes_head[:16]))


@click.command(cls=Spoken)
@click.argument("target", metavar="GAME|FILE", required=False)
@click.option("--all", "every", is_flag=True,
              help="Every game in the store, in one process: a line 'HEAD  GAME' for each sound one (sha256sum's "
                   "layout, to publish and compare later), each broken one named with its first bad event.")
@click.option("--json", "as_json", is_flag=True, help="What was verified, as JSON.")
@store_option
def verify(target: str | None, every: bool, as_json: bool, store_url: str | None) -> None:
    """Check GAME in the store, or a record FILE: its hash chain, and every move re-adjudicated by the rules.

    Prints the head hash of the chain (publish it beside a record to make it tamper-evident); a break is one
    line naming the first bad event, with exit status 2. With --all, every game of the store (exit status 2 if
    any is broken).
    """
    if every == (target is not None):
        raise click.UsageError(_("give a GAME or FILE to verify, or --all for every game in the store"))
    if every:
        _verify_store(store_url, as_json)
        return
    assert target is not None  # one or the other, checked above
    verified = files.verify(store_url, target)
    warn(verified.warnings)
    if as_json:
        emit_json(verified.to_json())
        return
    click.echo(say("{game}: {events} verified ({played_under}, {where}); every move agrees with the rules; "
                   "chain head {head}", game=target, events=plural(verified.events, "event"),
                   played_under=verified.played_under, where=verified.where, head=verified.head))
    for pin in verified.pins:
        click.echo(f"  {pin.sentence()}")
    sets = say("card sets: {sets}", sets=", ".join(verified.card_sets))
    if verified.cards is None:
        click.echo("  " + say("cards: no card sheet pinned, so no card's effects or cost could be checked; {sets}",
                              sets=sets))
    else:
        example = " " + _("(a MADE-UP example sheet, not the printed cards)") if verified.example_sheet else ""
        click.echo(f"  {verified.cards.sentence()}{example}; {sets}")
    for note in verified.unchecked:
        click.echo(say("{game}: not checked: {note}", game=target, note=note))
    if verified.notes_head is not None:
        click.echo(say("{game}: {notes}, apart from the moves; notes head {head}", game=target,
                       notes=plural(verified.notes, "note"), head=verified.notes_head))
    elif verified.notes:
        click.echo(say("{game}: {notes} NOT covered by any hash (a record file from an older whispers): they import "
                       "marked 'unchained'", game=target, notes=plural(verified.notes, "note")))


@click.command(cls=Spoken)
@click.option("--json", "as_json", is_flag=True, help="What was rebuilt, as JSON.")
@store_option
def rebuild(as_json: bool, store_url: str | None) -> None:
    """Make every read model of the store again from its events: the catalog that `games`, `stats --all`, the
    standings and the director's pages read, and each game's snapshot.

    A read model is derived data: a damaged one (a table altered, rows garbled) is dropped and made again from
    the events alone, which are not touched. Run `whispers verify --all` to check the events themselves.
    """
    from whispers.application import stores

    labels = {"catalog": _("Rebuilding the catalog"), "snapshots": _("Keeping snapshots")}
    with _bar(_("Rebuilding"), quiet=as_json) as advance:
        rebuilt = stores.rebuild(store_url, lambda stage, done, total: advance(done, total, labels[stage]))
    if as_json:
        emit_json(rebuilt.to_json())
        return
    click.echo(say("Read models rebuilt from the events: the catalog over {games} ({events}), and {snapshots}.",
                   games=plural(rebuilt.games, "game"), events=plural(rebuilt.events, "event"),
                   snapshots=n_("{n} game's snapshot", "{n} games' snapshots", rebuilt.snapshots)))


def _verify_store(store_url: str | None, as_json: bool) -> None:
    def shown(game: files.Checked) -> None:  # each game as it is checked: 10,000 take minutes
        if game.broken is None:
            click.echo(f"{game.head}  {game.game}")
        else:
            click.echo(say("broken: {reason}", reason=game.broken), err=True)

    with _bar(_("Verifying"), quiet=as_json) as advance:
        def each(game: files.Checked, done: int, total: int) -> None:
            if not as_json:
                shown(game)
            advance(done, total, game.game)

        checked = files.verify_store(store_url, each)
    broken = checked.broken
    if as_json:
        emit_json(checked.to_json())
    else:
        sound = len(checked.games) - len(broken)
        unchecked = sum(game.unchecked for game in checked.games)
        click.echo(n_("{n} game verified: every move agrees with the rules; {broken}.",
                      "{n} games verified: every move agrees with the rules; {broken}.", sound,
                      broken=n_("{n} broken", "{n} broken", len(broken))), err=True)
        if unchecked:
            click.echo(n_("{n} of them has card plays no card sheet let verify check (`whispers verify GAME` says "
                          "which)", "{n} of them have card plays no card sheet let verify check (`whispers verify "
                          "GAME` says which)", unchecked), err=True)
    if broken:
        click.get_current_context().exit(2)
