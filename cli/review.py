"""Post-game review: `replay` (and its stepper), `stats`, `fork`, `diff`, `annotate` and `notes`."""

import csv
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

from whispers.application import review
from whispers.application.labels import at_event
from whispers.application.review import TAGS, Replayed
from whispers.cli.common import emit_json, one_format, store_option, view_lines, warn
from whispers.cli.reading import as_option
from whispers.ledger.errors import NoSuchEvent
from whispers.ledger.names import ROUNDS
from whispers.ledger.notes import shown_by
from whispers.ledger.words import plural
from whispers.projections.visibility import RECORD, event_words

_ROUND_NUMBERS = tuple(str(r) for r in range(1, ROUNDS + 1))
"""What `r R` and `e EMPIRE R` accept in the replay prompt."""



def _note_lines(notes: list[dict[str, Any]], version: int) -> list[str]:
    lines = []
    for note in notes:
        if note["at"] == version:
            who = shown_by(note)
            lines.append(f"  note{f' ({who})' if who else ''}: {note['text']}")
    return lines


def _show(replayed: Replayed, version: int) -> None:
    frame = replayed.frame(version)
    event, society = frame.event, frame.viewer
    label = f" ({frame.label})" if frame.label else ""
    click.echo(f"event {version}/{frame.events}{label}: {event_words(event, society)}")
    for line in _note_lines(list(frame.notes), version):
        click.echo(line)
    for line in view_lines(frame.view):
        click.echo(line)


@click.command()
@click.argument("game")
@click.option("--at", "version", metavar="AT", help="After event N, move mN, a label (2.bear.marshal, "
              "\"R2 deploy 3\"), roundN or end (default: the end).")
@as_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@click.option("--step", is_flag=True, help="Step through the game in the terminal.")
@store_option
def replay(game: str, version: str | None, society: str | None, as_json: bool, step: bool,
           store_url: str | None) -> None:
    """GAME as it stood after event N, as the record has it or as one society knew it.

    With --step, a terminal stepper: Enter or n (next), b (back), j N (jump to event N), r R (start of round
    R), e EMPIRE [R] (that empire's turn), q (quit). It works on a game still in progress.
    """
    replayed = review.replay(store_url, game, at_event(store_url, game, version), society)
    warn(replayed.warnings)
    if step:
        _stepper(replayed)
    elif as_json:
        emit_json(replayed.to_json())
    else:
        _show(replayed, replayed.at)


def _stepper(replayed: Replayed) -> None:
    rep, version = replayed.replay, replayed.at
    while True:
        click.echo("")
        _show(replayed, version)
        try:
            answer = input("step> ").strip().split()
        except (EOFError, KeyboardInterrupt):
            click.echo("")
            return
        target: int | None = version + 1
        if not answer or answer[0] in ("n", "next"):
            target = version + 1
        elif answer[0] in ("b", "back"):
            target = version - 1
        elif answer[0] in ("q", "quit"):
            return
        elif answer[0] in ("j", "jump") and len(answer) == 2 and answer[1].isascii() and answer[1].isdigit():
            target = int(answer[1])
        elif answer[0] in ("r", "round") and len(answer) == 2 and answer[1] in _ROUND_NUMBERS:
            target = rep.round_start(int(answer[1]))
        elif answer[0] in ("e", "empire") and len(answer) in (2, 3):
            round_ = int(answer[2]) if len(answer) == 3 and answer[2] in _ROUND_NUMBERS else rep.at(version).round
            target = rep.empire_turn(answer[1], round_)
        else:
            click.echo("n next · b back · j N jump · r R round · e EMPIRE [R] empire turn · q quit")
            continue
        if target is None:
            click.echo("no such place in this game")
            continue
        if not 1 <= target <= len(rep):
            click.echo(f"no such place: {NoSuchEvent(rep.at(1).name, len(rep), target)}")
            continue
        version = target


@click.command()
@click.argument("game", required=False)
@click.option("--all", "everything", is_flag=True, help="Figures across every game in the store.")
@click.option("--ruleset", metavar="LABEL", help="With --all: only games under this ruleset, as `games` shows it "
              "(official, or official (modified 3f2a9c1e) for a modified one).")
@click.option("--by", "by", type=click.Choice(["player"]),
              help="With --all: each person's record (wins, mean score, by society and by seat).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV (path,value rows).")
@store_option
def stats(game: str | None, everything: bool, ruleset: str | None, by: str | None, as_json: bool, as_csv: bool,
          store_url: str | None) -> None:
    """Statistics of GAME, or with --all across every game in the store.

    --all keeps a catalog that remembers how far into the store it has read, so after one more game it
    reads one more game; the JSON's "read" says how many games and events this run read.
    """
    one_format(as_json, as_csv)
    if everything and game is not None:
        raise click.UsageError(f"give a GAME or --all, not both: --all already covers {game}")
    if not everything and game is None:
        raise click.UsageError("give a GAME, or --all for every game in the store")
    if ruleset is not None and not everything:
        raise click.UsageError("--ruleset picks games for --all: a single GAME has one ruleset already")
    if by is not None and (not everything or ruleset is not None):
        raise click.UsageError("--by player goes with --all (and without --ruleset)")
    if by == "player":
        from whispers.application.table import by_player

        data = by_player(store_url).to_json()
    elif everything:
        with _progress_bar(quiet=as_json or as_csv) as progress:
            data = review.stats_across(store_url, ruleset, progress).to_json()
    else:
        data = review.stats(store_url, game).to_json()
    if as_json:
        emit_json(data)
    elif as_csv:
        writer = csv.writer(sys.stdout)
        writer.writerow(["path", "value"])
        writer.writerows(_flatten(data))
    else:
        for path, value in _flatten(data):
            click.echo(f"{path}: {value}")


@contextmanager
def _progress_bar(quiet: bool, over: int = 20) -> Iterator[Callable[[int, int], None]]:
    """A progress callback that shows a bar once there are more than `over` games to read."""
    bar: Any = None
    task: Any = None

    def progress(done: int, total: int) -> None:
        nonlocal bar, task
        if bar is None and total > over and not quiet:
            from rich.progress import Progress

            bar = Progress(transient=True)
            bar.start()
            task = bar.add_task("Reading games into the catalog", total=total)
        if bar is not None:
            bar.update(task, completed=done)

    try:
        yield progress
    finally:
        if bar is not None:
            bar.stop()


def _flatten(data: Any, path: str = "") -> list[tuple[str, Any]]:
    if isinstance(data, dict):
        rows: list[tuple[str, Any]] = []
        for key, value in data.items():
            rows += _flatten(value, f"{path}.{key}" if path else str(key))
        return rows
    if isinstance(data, list) and data and isinstance(data[0], dict | list):
        rows = []
        for index, value in enumerate(data):
            rows += _flatten(value, f"{path}[{index}]")
        return rows
    return [(path, data if not isinstance(data, list) else " ".join(map(str, data)))]


@click.command("fork")
@click.argument("game")
@click.argument("new")
@click.option("--at", "at", required=True, metavar="AT",
              help="Keep GAME's first N events, or up to a move: mN, a label (2.bear.marshal), roundN, end.")
@store_option
def fork_game(game: str, new: str, at: str, store_url: str | None) -> None:
    """A "what if": NEW starts as GAME's first N events, marked as a fork, and is recorded onward as any game."""
    version = at_event(store_url, game, at)
    assert version is not None
    forked = review.fork(store_url, game, new, version)
    click.echo(f"{new}: forked from {game} at event {version}. Next: {forked.next}")


@click.command()
@click.argument("game")
@click.argument("other")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@store_option
def diff(game: str, other: str, as_json: bool, store_url: str | None) -> None:
    """Where GAME and OTHER part, and how their final scores differ."""
    data = review.diff(store_url, game, other).to_json()
    if as_json:
        emit_json(data)
        return
    if data["identical"]:
        click.echo(f"{game} and {other} are the same game ({plural(data['common'], 'event')}).")
    elif "setup" in data:
        differences = "; ".join(
            f"{what} {' / '.join(','.join(v) if isinstance(v, list) else v for v in sides.values())}"
            for what, sides in data["setup"].items())
        click.echo(f"{game} and {other} are different games, set up differently: {differences}")
    else:
        first = data["first_difference"]
        click.echo(f"{game} and {other} share {plural(data['common'], 'event')} and part at event {first['event']}:")
        click.echo(f"  {game}: {first[game] or '(ends)'}")
        click.echo(f"  {other}: {first[other] or '(ends)'}")
    for name in (game, other):
        outcome = data["outcome"][name]
        if outcome is None:
            click.echo(f"{name}: not over")
        else:
            scores = ", ".join(f"{s} {v}" for s, v in outcome["scores"].items())
            click.echo(f"{name}: {scores}; winner {outcome['winner'] or 'none (tie)'}")
    if "score_change" in data:
        change = ", ".join(f"{s} {v:+d}" for s, v in data["score_change"].items())
        click.echo(f"change from {game} to {other}: {change}")


@click.command("annotate")
@click.argument("game")
@click.argument("at", metavar="AT")
@click.argument("text")
@click.option("--author", metavar="NAME", help="Who wrote the note.")
@click.option("--tag", type=click.Choice(TAGS), help="A tag for the note.")
@store_option
def annotate_game(game: str, at: str, text: str, author: str | None, tag: str | None,
                  store_url: str | None) -> None:
    """A note on event AT of GAME (an event number, mN, a label such as 2.bear.marshal, roundN or end), kept in
    the game's own notes stream (the record is never reopened)."""
    version = at_event(store_url, game, at)
    assert version is not None
    annotated = review.annotate(store_url, game, version, text, author, tag)
    click.echo(f"{game}: note on event {version} saved ({plural(annotated.count, 'note')} in all).")


@click.command()
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@store_option
def notes(game: str, as_json: bool, store_url: str | None) -> None:
    """The notes on GAME, with the move each is on."""
    found = review.notes(store_url, game)
    warn(found.warnings)
    if as_json:
        emit_json(found.to_json())
        return
    if not found.notes:
        click.echo(f"{game}: no notes yet. Add one: whispers annotate {game} N \"text\"")
    for note, event in zip(found.notes, found.on, strict=True):
        who = shown_by(note)
        click.echo(f"event {note['at']} ({event_words(event, RECORD)})"
                   f"{f' [{who}]' if who else ''}: {note['text']}")
