"""Post-game review: `replay` (and its stepper), `stats`, `fork`, `diff`, `annotate` and `notes`."""

from __future__ import annotations

import csv
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from shlex import quote as shlex_quote
from typing import TYPE_CHECKING, cast

import click

from whispers.application import review
from whispers.application.labels import at_event
from whispers.application.numbers import whole
from whispers.application.review import GLYPHS, TAGS, Replayed
from whispers.cli.common import emit_json, one_format, store_option, view_lines, warn
from whispers.cli.reading import as_option
from whispers.cli.spoken import Spoken
from whispers.ledger.core.names import ROUNDS
from whispers.ledger.core.notes import shown_by
from whispers.ledger.core.words import N_, _, n_, plural, say, term, tongue
from whispers.projections.visibility import event_words

if TYPE_CHECKING:
    from prompt_toolkit.key_binding import KeyPressEvent
    from rich.progress import Progress, TaskID

    from whispers.application.analysis import Analysis
    from whispers.application.review import AcrossRead
    from whispers.ledger.core.notes import NoteEntry
    from whispers.projections.people import PersonFigures
    from whispers.projections.stats import GameStats

_ROUND_NUMBERS = tuple(str(r) for r in range(1, ROUNDS + 1))
"""What `r R` and `e EMPIRE R` accept in the replay prompt."""



def _note_lines(notes: list[NoteEntry], version: int) -> list[str]:
    lines = []
    for note in notes:
        if note["at"] == version:
            who = shown_by(note)
            lines.append("  " + (say("note ({author}): {text}", author=who, text=note["text"]) if who
                                 else say("note: {text}", text=note["text"])))
    return lines


def _show(replayed: Replayed, version: int, before: int | None = None, analysed: Analysis | None = None) -> None:
    """The game after event `version` as tables; with `before` (the step shown last), what changed since
    is highlighted; with `analysed` (the stored analysis for the viewer), the chances there and a turning point."""
    from whispers.cli.reading import console
    from whispers.cli.tables import view_tables

    frame = replayed.frame(version)
    event, society = frame.event, frame.viewer
    click.echo(say("event {n}/{total} · {label}: {words}", n=tongue().number(version),
                   total=tongue().number(frame.events), label=frame.label, words=event_words(event, society)))
    for line in _note_lines(list(frame.notes), version):
        click.echo(line)
    for line in _analysis_lines(analysed, version):
        click.echo(line)
    for line in view_lines(frame.view)[:2]:
        click.echo(line)
    click.echo("")
    previous = None if before is None or before == version else replayed.frame(before)
    console(emoji=False).print(view_tables(frame.view, frame.scores, None if previous is None else previous.view,
                                None if previous is None else previous.scores))


CHANGES = 12
"""The most lines of changes a compact step shows (a step that changes more says how many more): with the header,
the council and the prompt, a step fits a 40-row terminal."""


def _step(replayed: Replayed, version: int, before: int | None = None, analysed: Analysis | None = None) -> None:
    """One compact step of the stepper: the move, what changed since the step shown before, the chances there and a
    turning point (with `analysed`), and the council (the full tables on `t`)."""
    from whispers.cli.reading import console
    from whispers.cli.tables import changed_lines, council_table

    frame = replayed.frame(version)
    click.echo(say("event {n}/{total} · {label}: {words}", n=tongue().number(version),
                   total=tongue().number(frame.events), label=frame.label, words=event_words(frame.event,
                                                                                               frame.viewer)))
    for line in _note_lines(list(frame.notes), version):
        click.echo(line)
    for line in _analysis_lines(analysed, version):
        click.echo(line)
    for line in view_lines(frame.view)[:2]:
        click.echo(line)
    previous = None if before is None or before == version else replayed.frame(before)
    if previous is not None:
        changed = changed_lines(frame.view, frame.scores, previous.view, previous.scores)
        width = max(40, shutil.get_terminal_size().columns - 1)  # one screen row a change, however long its row
        for line in changed[:CHANGES]:
            click.echo(f"  {line}" if len(line) + 2 <= width else f"  {line[:width - 3]}…")
        if len(changed) > CHANGES:
            click.echo("  " + say("… and {n} more: t shows every table", n=len(changed) - CHANGES))
    click.echo("")
    console(emoji=False).print(council_table(frame.view, None if previous is None else previous.view))


@click.command(cls=Spoken)
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

    With --step, a terminal stepper, one compact step a screen (the move, what changed, the council): Enter or n
    (next), b (back), j N (jump to event N), r R (start of round R), e EMPIRE [R] (that empire's turn), t (every
    table), q (quit). It works on a game still in progress.
    """
    replayed = review.replay(store_url, game, at_event(store_url, game, version), society)
    warn(replayed.warnings)
    if step:
        from whispers.application.analysis import stored

        _stepper(replayed, stored(store_url, game, society))
    elif as_json:
        emit_json(replayed.to_json())
    else:
        _show(replayed, replayed.at)


_HELP = N_("→ or n next · ← or b back · j N jump to event N · r R round R · e EMPIRE [R] that empire's turn · "
           "t every table · q quit")
"""The stepper's keys: the letters are the same in every language, what they do is said in the reader's."""


def _asker() -> Callable[[], str]:
    """How the stepper reads a command: in a terminal, a prompt_toolkit prompt where the arrow keys step
    (← back, → next); from a pipe, a plain line."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return lambda: input(_("step> "))
    # The stepper needs no completion menu, so no cursor-position requests (terminals that do not answer
    # them, pexpect's among them, would get a warning and a wait).
    os.environ.setdefault("PROMPT_TOOLKIT_NO_CPR", "1")
    from prompt_toolkit import PromptSession
    from prompt_toolkit.key_binding import KeyBindings

    keys = KeyBindings()

    def typed(command: str) -> Callable[[KeyPressEvent], None]:
        def handler(event: KeyPressEvent) -> None:
            event.current_buffer.text = command
            event.current_buffer.validate_and_handle()
        return handler

    keys.add("left")(typed("b"))
    keys.add("right")(typed("n"))
    session: PromptSession[str] = PromptSession(key_bindings=keys)

    def ask() -> str:
        # the prompt is written as plain text first, so that it reads `step> ` in any capture of the screen
        click.echo(_("step> "), nl=False)
        return session.prompt("")

    return ask


def _empire(typed: str) -> str:
    """An empire as the reader typed it (`Ours`, `ours` in French) as the notation's id (`bear`)."""
    from whispers.application.moves import canonical_line

    return canonical_line(typed)


def _analysis_lines(analysed: Analysis | None, version: int) -> list[str]:
    """The chances after the move at `version` (whispers analyse), and ◆ where it is a turning point."""
    if analysed is None:
        return []
    lines = ["  ◆ " + say("turning point: {society} {change}", society=t.society, change=format(t.change, "+.0%"))
             for t in analysed.turning if t.version == version]
    point = next((p for p in analysed.points if p.version == version), None)
    if point is not None:
        lines.append("  " + say("chances: {chances}", chances=", ".join(
            f"{term(s)} {c:.0%}" for s, (c, _se) in point.chances.items())))
    return lines


def _stepper(replayed: Replayed, analysed: Analysis | None = None) -> None:
    rep, version = replayed.replay, replayed.at
    ask = _asker()
    shown: int | None = None
    click.echo(_(_HELP))
    tables = False
    while True:
        click.echo("")
        (_show if tables else _step)(replayed, version, shown, analysed)
        shown, tables = version, False
        try:
            answer = ask().strip().split()
        except (EOFError, KeyboardInterrupt):
            click.echo("")
            return
        target: int | None = version + 1
        if answer[:1] == ["t"] or answer[:1] == ["tables"]:
            tables = True  # the same step, every table; the next step's changes are still against it
            continue
        if not answer or answer[0] in ("n", "next"):
            target = version + 1
        elif answer[0] in ("b", "back"):
            target = version - 1
        elif answer[0] in ("q", "quit"):
            return
        elif answer[0] in ("j", "jump") and len(answer) == 2 and whole(answer[1]) is not None:
            target = whole(answer[1])
        elif answer[0] in ("r", "round") and len(answer) == 2 and answer[1] in _ROUND_NUMBERS:
            target = rep.round_start(int(answer[1]))
        elif answer[0] in ("e", "empire") and len(answer) in (2, 3):
            round_ = int(answer[2]) if len(answer) == 3 and answer[2] in _ROUND_NUMBERS else rep.at(version).round
            target = rep.empire_turn(_empire(answer[1]), round_)
        else:
            click.echo(_(_HELP))
            continue
        if target is None:
            click.echo(_("no such place in this game"))
            continue
        if not 1 <= target <= len(rep):
            click.echo(n_("no such place: the game has only event {n}, not {asked}",
                          "no such place: the game has events 1 to {n}, not {asked}", len(rep), asked=target))
            continue
        version = target


@click.command(cls=Spoken)
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

    --all reads the catalog of summaries kept in the store itself (shared by every machine using the store),
    which remembers how far into the store it has read, so after one more game it reads one more game; the
    JSON's "read" says how many games and events this run read.
    """
    one_format(as_json, as_csv)
    if everything and game is not None:
        raise click.UsageError(say("give a GAME or --all, not both: --all already covers {game}", game=game))
    if not everything and game is None:
        raise click.UsageError(_("give a GAME, or --all for every game in the store"))
    if ruleset is not None and not everything:
        raise click.UsageError(_("--ruleset picks games for --all: a single GAME has one ruleset already"))
    if by is not None and (not everything or ruleset is not None):
        raise click.UsageError(_("--by player goes with --all (and without --ruleset)"))
    data: dict[str, PersonFigures] | AcrossRead | GameStats
    if by == "player":
        from whispers.application.table import by_player

        data = by_player(store_url).to_json()
    elif everything:
        with _progress_bar(quiet=as_json or as_csv) as progress:
            data = review.stats_across(store_url, ruleset, progress).to_json()
    else:
        assert game is not None  # one or the other, checked above
        data = review.stats(store_url, game).to_json()
    if as_json:
        emit_json(data)
    elif as_csv:
        writer = csv.writer(sys.stdout)
        writer.writerow(["path", "value"])
        writer.writerows(_flatten(data))
    else:
        from whispers.cli.reading import console
        from whispers.cli.tables import across_tables, game_stats_tables, people_tables

        if by == "player":
            console().print(people_tables(cast("dict[str, PersonFigures]", data)))
        else:
            console().print(across_tables(cast("AcrossRead", data)) if everything
                            else game_stats_tables(cast("GameStats", data)))


@contextmanager
def _progress_bar(quiet: bool, over: int = 20) -> Iterator[Callable[[int, int], None]]:
    """A progress callback that shows a bar once there are more than `over` games to read."""
    bar: Progress | None = None
    task: TaskID | None = None

    def progress(done: int, total: int) -> None:
        nonlocal bar, task
        if bar is None and total > over and not quiet:
            from rich.progress import Progress

            bar = Progress(transient=True)
            bar.start()
            task = bar.add_task(_("Reading games into the catalog"), total=total)
        if bar is not None:
            assert task is not None  # added with the bar
            bar.update(task, completed=done)

    try:
        yield progress
    finally:
        if bar is not None:
            bar.stop()


def _flatten(data: object, path: str = "") -> list[tuple[str, object]]:
    if isinstance(data, dict):
        rows: list[tuple[str, object]] = []
        for key, value in data.items():
            rows += _flatten(value, f"{path}.{key}" if path else str(key))
        return rows
    if isinstance(data, list) and data and isinstance(data[0], dict | list):
        rows = []
        for index, value in enumerate(data):
            rows += _flatten(value, f"{path}[{index}]")
        return rows
    return [(path, data if not isinstance(data, list) else " ".join(map(str, data)))]


@click.command("fork", cls=Spoken)
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
    click.echo(say("{name}: forked from {game} at event {at}. Next: {note}", name=new, game=game, at=version,
                   note=forked.next))


@click.command(cls=Spoken)
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
        click.echo(say("{game} and {parent} are the same game ({events}).", game=game, parent=other,
                       events=plural(data["common"], "event")))
    elif "setup" in data:
        differences = "; ".join(
            _(SETUP_WORDS.get(what, what)) + " " + " / ".join(_setup_value(what, v) for v in sides.values())
            for what, sides in data["setup"].items())
        click.echo(say("{game} and {parent} are different games, set up differently: {text}", game=game,
                       parent=other, text=differences))
    else:
        first = data["first_difference"]
        assert first is not None  # they part
        click.echo(say("{game} and {parent} share {events} and part at event {at}:", game=game, parent=other,
                       events=plural(data["common"], "event"), at=first["event"]))
        for name in (game, other):
            click.echo(f"  {name}: " + str(first[name] or _("(ends)")))
    for name in (game, other):
        outcome = data["outcome"][name]
        if outcome is None:
            click.echo(say("{game}: not over", game=name))
        else:
            scores = ", ".join(f"{term(s)} {v}" for s, v in outcome["scores"].items())
            click.echo(say("{game}: {scores}; winner {winner}", game=name, scores=scores,
                           winner=outcome["winner"] or _("none (tie)")))
    if "score_change" in data:
        change = ", ".join(f"{term(s)} {v:+d}" for s, v in data["score_change"].items())
        click.echo(say("change from {game} to {parent}: {text}", game=game, parent=other, text=change))
    if not data["identical"] and "setup" not in data:
        for name in (game, other):
            moves = data["moves"][name]
            click.echo(say("{game} after event {at}: {moves}", game=name, at=data["common"],
                           moves=plural(len(moves), "move")))
            for move in moves[:DIFF_MOVES]:
                click.echo(f"  {move['event']:>4}  {move['move']}")
            if len(moves) > DIFF_MOVES:
                click.echo("  … " + n_("{n} more move (--json lists them all)",
                                       "{n} more moves (--json lists them all)", len(moves) - DIFF_MOVES))


DIFF_MOVES = 40
SETUP_WORDS = {"players": N_("players"), "first": N_("first"), "ruleset": N_("ruleset"), "board": N_("board"),
               "card_sets": N_("card_sets"), "cards": N_("cards")}
"""What may differ between two games' setups (projections.forks.setup_differences), in words."""


def _setup_value(what: str, value: object) -> str:
    """One side of a setup difference: the societies in words, the ids of rulesets, boards and cards as they are."""
    if what in ("players", "first"):
        return ",".join(term(s) for s in value) if isinstance(value, list) else term(str(value))
    return ",".join(value) if isinstance(value, list) else str(value)
"""How many moves of each side `diff` prints after the point where the games part (--json gives them all)."""


@click.command("annotate", cls=Spoken)
@click.argument("game")
@click.argument("at", metavar="AT")
@click.argument("text")
@click.option("--author", metavar="NAME", help="Who wrote the note.")
@click.option("--tag", type=click.Choice(TAGS), help="A tag for the note.")
@click.option("--glyph", type=click.Choice(GLYPHS), help="A PGN-style assessment of the move (quote it in a shell).")
@store_option
def annotate_game(game: str, at: str, text: str, author: str | None, tag: str | None, glyph: str | None,
                  store_url: str | None) -> None:
    """A note on event AT of GAME (an event number, mN, a label such as 2.bear.marshal, roundN or end), kept in
    the game's own notes stream (the record is never reopened)."""
    version = at_event(store_url, game, at)
    assert version is not None
    annotated = review.annotate(store_url, game, version, text, author, tag, glyph)
    click.echo(say("{game}: note on event {at} saved ({notes} in all).", game=game, at=version,
                   notes=plural(annotated.count, "note")))


@click.command("edit-note", cls=Spoken)
@click.argument("game")
@click.argument("number", type=int, metavar="NOTE")
@click.argument("text", required=False)
@click.option("--author", metavar="NAME", help="Who edits the note.")
@click.option("--tag", type=click.Choice(TAGS), help="A new tag for the note.")
@click.option("--glyph", type=click.Choice(GLYPHS), help="A new PGN-style assessment (quote it in a shell).")
@store_option
def edit_note(game: str, number: int, text: str | None, author: str | None, tag: str | None, glyph: str | None,
              store_url: str | None) -> None:
    """Edit note NOTE of GAME (its number in `whispers notes`): the old text stays in its history."""
    if text is None and tag is None and glyph is None:
        raise click.UsageError(_("say what changes: a new TEXT, --tag or --glyph"))
    review.edit_note(store_url, game, number, text, author, tag, glyph)
    click.echo(say("{game}: note {number} edited (whispers notes {game} --history shows what it said before).",
                   game=game, number=number))


@click.command("withdraw-note", cls=Spoken)
@click.argument("game")
@click.argument("number", type=int, metavar="NOTE")
@click.option("--author", metavar="NAME", help="Who withdraws the note.")
@store_option
def withdraw_note(game: str, number: int, author: str | None, store_url: str | None) -> None:
    """Withdraw note NOTE of GAME: no longer shown, kept in its history."""
    review.withdraw_note(store_url, game, number, author)
    click.echo(say("{game}: note {number} withdrawn (whispers notes {game} --history still shows it).", game=game,
                   number=number))


@click.command(cls=Spoken)
@click.argument("game")
@click.option("--history", is_flag=True, help="Every note, edit and withdrawal, in the order made.")
@as_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@store_option
def notes(game: str, history: bool, society: str | None, as_json: bool, store_url: str | None) -> None:
    """The notes on GAME, with the move each is on (as SOCIETY saw that move, with --as)."""
    found = review.notes(store_url, game, society, history)
    warn(found.warnings)
    if as_json:
        emit_json(found.to_json())
        return
    if not found.notes:
        click.echo(say("{game}: no notes yet. Add one: whispers annotate {game} N \"text\"", game=game))
    for entry, move in zip(found.notes, found.moves, strict=True):
        if not history:
            who = shown_by(entry)
            said = say("note {number} on event {at} ({line})", number=entry["number"], at=entry["at"], line=move)
            click.echo(f"{said}{f' [{who}]' if who else ''}: {entry['text']}")
            continue
        who = ", ".join(x for x in (entry.get("glyph"), entry.get("tag"), entry.get("author"),
                                    "unchained" if entry.get("unchained") else None) if x)
        said = f": {entry['text']}" if "text" in entry else ""
        if entry["kind"] == "note":
            what = say("note {number} on event {at} ({line})", number=entry["number"], at=entry.get("at"), line=move)
        elif entry["kind"] == "variation":
            what = say("variation {name} kept after event {at}", name=repr(entry.get("variation")), at=entry.get("at"))
        elif entry["kind"] == "edit":
            what = say("edit of note {number}", number=entry["note"])
        else:
            what = say("note {number} withdrawn", number=entry["note"])
        click.echo(f"{entry['time']} {what}{f' [{who}]' if who else ''}{said}")


@click.command("variation", cls=Spoken)
@click.argument("game")
@click.argument("name", required=False)
@click.option("--keep", "forked", metavar="FORK", help="Keep the fork FORK of GAME inside GAME as variation NAME.")
@click.option("--author", metavar="NAME", help="Who keeps the variation (with --keep).")
@click.option("--at", "version", type=int, metavar="N", help="The variation's line of play after event N.")
@as_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@store_option
def variation(game: str, name: str | None, forked: str | None, author: str | None, version: int | None,
              society: str | None, as_json: bool, store_url: str | None) -> None:
    """The variations kept inside GAME; NAME replays one (the rules decide its moves again); --keep FORK keeps
    a fork of GAME inside it as variation NAME (as PGN and SGF keep variations)."""
    if forked is not None:
        kept = review.keep_variation(store_url, game, forked, name, author).variations[0]
        click.echo(say("{game}: variation {name} kept: {moves} after event {at} (whispers variation {game} {text}).",
                       game=game, name=repr(kept["variation"]), moves=plural(len(kept["lines"]), "move"),
                       at=kept["at"], text=shlex_quote(kept["variation"])))
        return
    if name is None:
        found = review.variations(store_url, game, society)
        if as_json:
            emit_json(found.to_json())
            return
        if not found.variations:
            click.echo(say("{game}: no variation kept. Keep a fork: whispers variation {game} NAME --keep FORK",
                           game=game))
        for v in found.to_json():
            click.echo(say("{name}: after event {at}, {moves}: {line}", name=v["name"], at=v["at"],
                           moves=plural(len(v["moves"]), "move"), line=v["moves"][0]))
        return
    shown = review.variation(store_url, game, name, version, society)
    if as_json:
        emit_json(shown.to_json())
        return
    click.echo(n_("{game}, variation {name}: the game's first {n} event, then:",
                  "{game}, variation {name}: the game's first {n} events, then:", shown.parted, game=game, name=name))
    for number, move in shown.moves:
        click.echo(f"  {number:>4}  {move}")
    click.echo(say("After event {at} of {events}:", at=shown.at, events=shown.events))
    for line in view_lines(shown.status.view):
        click.echo(line)
