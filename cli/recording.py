"""Recording at the table: `new`, `move` and the guided recorder `record`."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

from whispers.application import moves, recording
from whispers.application.numbers import whole
from whispers.cli.common import emit_json, store_option, where_now
from whispers.cli.spoken import Spoken
from whispers.cli.table import table_changes, table_options
from whispers.ledger.core.errors import GameMovedOn, NotationError, WhispersError
from whispers.ledger.core.names import SOCIETIES
from whispers.ledger.core.notation import VERBS
from whispers.ledger.core.words import _, n_, refusal, say, terms

if TYPE_CHECKING:
    from whispers.application.recording import Game
    from whispers.application.stores import Store
    from whispers.ledger.core.legal import Option
    from whispers.ledger.core.state import GameState


@click.command(cls=Spoken)
@click.argument("game")
@click.option("--players", required=True, metavar="S,S,...",
              help=f"Societies in seat order, clockwise: {', '.join(SOCIETIES)}.")
@click.option("--first", metavar="SOCIETY", help="The first player (default: the first listed).")
@click.option("--ruleset", default="official", show_default=True, metavar="ID|PATH",
              help="official, advanced, revised, or a ruleset .toml file.")
@click.option("--board", default="standin", show_default=True, metavar="ID|PATH",
              help="standin, or a board .toml file (see docs/boards.md).")
@click.option("--allow-modified", is_flag=True,
              help="Record under a ruleset or board that claims a shipped id with other content; it is then "
                   "shown everywhere as modified.")
@click.option("--cards", metavar="ID|PATH",
              help="Pin a card sheet (docs/decrees.md): a play is then checked against the card's effects and "
                   "cost. Without one, verify lists what it could not check.")
@click.option("--card-set", "card_sets", multiple=True, metavar="SET",
              help="A card set played beside the base set: dark-alliances (the expansion's instant decrees, "
                   "refused unless named).")
@table_options
@store_option
def new(game: str, players: str, first: str | None, ruleset: str, board: str, allow_modified: bool,
        cards: str | None, card_sets: tuple[str, ...],
        seats: tuple[str, ...], place: str | None, event: str | None, round_: str | None, table: str | None,
        tags: tuple[str, ...], store_url: str | None) -> None:
    """Start a new game named GAME.

    Example: whispers new finals-t3 --players raven,rat,spider,serpent --first rat --seat raven=Ana
    --place "Club Sud" --event "Winter Cup" --table 3 --cards our-cards.toml --card-set dark-alliances
    """
    societies = [p.strip() for p in players.split(",") if p.strip()]
    changes = table_changes(seats, place, event, round_, table, tags)
    created = recording.new(store_url, game, societies, first, ruleset, board, allow_modified, changes or None,
                            cards, card_sets)
    click.echo(say("{game}: new {ruleset} game on board {board} for {players}; {first} is the first player.",
                   game=game, ruleset=created.ruleset, board=created.board, players=terms(created.players),
                   first=created.first))
    sets = (" " + _("and") + " ").join(created.card_sets)
    sheet = say("card sheet {sheet}", sheet=created.cards) if created.cards else \
        _("no card sheet (plays' cards and costs unchecked)")
    if created.example_sheet:
        sheet += " " + _("(a MADE-UP example: its cards and costs are invented, docs/decrees.md)")
    click.echo(n_("Cards: the {sets} set; {sheet}.", "Cards: the {sets} sets; {sheet}.", len(created.card_sets),
                  sets=sets, sheet=sheet))
    click.echo(say("Next: each society records its loyalty, e.g. {example}",
                   example=f"whispers move {game} {VERBS['loyalty'].split('   ')[0]}"))


def _move_help() -> str:
    lines = "\n".join(f"  {verb:<13} {example}" for verb, example in VERBS.items() if verb != "game")
    lines += "\n" + f"  {'amend':<13} " + 'amend m25 "raven deploy bear.steward" "REASON"   (corrects a past move: ' \
        "every later move is decided again)"
    return ("Record one move in GAME, written as a notation line (docs/notation.md).\n\n"
            "Use - as the line to read moves from standard input, one per line: all of them land, or none.\n\n"
            "\b\nVerbs:\n" + lines)


def line_from_args(words: tuple[str, ...]) -> str:
    """The shell split the line into words; join them back, keeping quoted reasons whole (in double quotes: the
    reader's words outside them are read as the notation's, `Araignée` too)."""
    if len(words) == 1:
        return words[0]
    return " ".join(word if word and not any(c.isspace() or c in "\"'\\#" for c in word)
                    else '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"' for word in words)


def show_events(said: Iterable[str], echo=click.echo) -> None:
    """What the move did, in the order it happened (application/recording.py, happenings)."""
    for line in said:
        echo(f"  {line}")


@click.command(cls=Spoken, help=_move_help(), context_settings={"ignore_unknown_options": True})
@click.argument("game")
@click.argument("line", nargs=-1, required=True)
@click.option("--reopen", is_flag=True,
              help='With undo: take back a finished game\'s last move, reopening it (= undo reopen "REASON").')
@click.option("--preview", "--dry-run", "preview", is_flag=True,
              help="Decide the move against the game and show what it would record and do: nothing is recorded.")
@click.option("--json", "as_json", is_flag=True,
              help="Print what was recorded (or would be) as JSON: its events, what it did in words, who acts next.")
@store_option
def move(game: str, line: tuple[str, ...], reopen: bool, preview: bool, as_json: bool, store_url: str | None) -> None:
    if line == ("-",):
        if reopen:
            raise NotationError(_("--reopen goes with one undo line; among lines read from input write undo "
                                  "reopen \"REASON\""))
        done = recording.record_batch(store_url, game, sys.stdin, append=not preview)
    elif line[:1] == ("amend",) or line_from_args(line).split()[:1] == ["amend"]:
        _amend(game, line, preview, as_json, store_url)
        return
    elif preview:
        shown = recording.preview(store_url, game, line_from_args(line), reopen)
        done = recording.Recorded(shown.after, shown.events, shown.said)  # what it would be, if recorded
    else:
        done = recording.record_line(store_url, game, line_from_args(line), reopen)
    if as_json:
        emit_json({**done.to_json(), "recorded": not preview})
        return
    if preview:
        click.echo(say("{game}: preview, nothing recorded:", game=game))
    show_events(done.said)
    for reason in done.reopened:
        click.echo(say("{game}: the finished game is reopened ({reason}); its scoring no longer stands.", game=game,
                       reason=reason))
    if done.over:
        click.echo(say("{game}: the game is over. See: whispers score {game}", game=game))
    else:
        click.echo(say("Next: {note}", note=done.next))


AMEND = 'whispers move GAME amend m25 "LINE" "REASON"'


def _amend(game: str, words: tuple[str, ...], preview: bool, as_json: bool, store_url: str | None) -> None:
    """`amend MOVE "LINE" "REASON"`: the move corrected, every later one decided again (application/recording.py)."""
    import shlex

    if len(words) == 1:  # the whole amendment given as one argument
        try:
            words = tuple(shlex.split(words[0]))
        except ValueError:
            words = ()
    if len(words) != 4 or not words[2].strip() or not words[3].strip():
        raise NotationError(say("amend takes a move, the corrected line and a reason, each quoted: {example}",
                                example=AMEND))
    done = recording.amend(store_url, game, words[1], words[2], words[3], append=not preview)
    if as_json:
        emit_json({**done.to_json(), "said": list(done.said), "recorded": not preview})
        return
    click.echo(say("{game}: preview, nothing recorded:", game=game) if preview else
               n_("{game}: {move} amended ({reason}); {n} move decided again:",
                  "{game}: {move} amended ({reason}); {n} moves decided again:", done.moves, game=game,
                  move=done.move, reason=done.reason))
    show_events(done.said)
    if done.over:
        click.echo(say("{game}: the game is over. See: whispers score {game}", game=game))
    else:
        click.echo(say("Next: {note}", note=done.next))


# --- the guided recorder --------------------------------------------------------------------------


def suggestions(options: tuple[Option, ...], limit: int = 40) -> list[tuple[str, bool, str]]:
    """Numbered choices for the recorder: (line, complete, hint), from the application's templates. An incomplete
    line is pre-filled for editing."""
    return [(t.line, t.complete, t.hint) for t in moves.templates(options)][:limit]


@click.command(cls=Spoken)
@click.argument("game")
@store_option
def record(game: str, store_url: str | None) -> None:
    """The guided recorder for GAME: asks for each move and offers the legal ones.

    Type a number to pick an offered move (an incomplete one is put on the line for you to finish in place),
    or type a notation line; the society may be left out when only one can act, or only one owes the order.
    Tab completes the words that can be legal there. A choice keeps its number while the phase lasts. Each move
    is shown first, with what it would do: Enter records it, and nothing is recorded before. Each move is saved
    the moment it is recorded, so a closed terminal loses nothing confirmed. Ctrl-C clears the line; Ctrl-D or q
    stops. board, council and hand SOCIETY show those tables; ? lists the verbs.
    """
    from whispers.application.stores import opened
    from whispers.cli import recorder

    with opened(store_url) as store:
        current = recording.open_game(store, game)
        _recap(current)
        numbers = recorder.Numbers()
        p = recording.next_move(current)
        ask = recorder.asker(lambda: p)
        prefill = ""
        pending: recording.Preview | None = None
        while not current.state.over:
            p = recording.next_move(current)
            numbers.renumber_at((p.round, p.phase, p.empire))
            offered = numbers.numbered(suggestions(p.options))
            if not prefill and pending is None:
                click.echo("")
                click.echo(where_now(current.state, p))
                click.echo(f"  {p.note}")
                for number, (text, complete, hint) in offered.items():
                    more = f"  ({hint})" if hint else ""
                    click.echo(f"  {number:>2}. {moves.said_line(text.strip())}{'' if complete else ' …'}{more}")
            try:
                line = ask(prefill).strip()
            except EOFError:
                click.echo("")
                break
            except KeyboardInterrupt:  # from a pipe; in a terminal Ctrl-C clears the line
                click.echo("\n" + _("Stopped. Every move accepted so far is saved."))
                return
            prefill = ""
            if pending is not None:
                # the previewed move is recorded only by Enter on it: its line as shown (a terminal puts it back on
                # the line), or an empty line read from a pipe
                if line == pending.line or (not line and not recorder.interactive()):
                    current = _record_shown(store, game, pending) or recording.open_game(store, game)
                    pending = None
                    continue
                pending = None
                click.echo("  " + _("Not recorded."))
            canonical_line = moves.canonical_line(line)  # the user's words (Ours Commissaire) as the notation's ids
            if canonical_line != line and moves.said_line(canonical_line) != line:  # as read, in the reader's words
                click.echo(f"  = {moves.said_line(canonical_line)}")
            line = canonical_line
            if line in ("q", "quit", "exit"):
                break
            if line in ("?", "help"):
                said = moves.verb_words()  # each verb as the reader's rulebook prints it, beside the notation's
                for verb, example in VERBS.items():
                    also = f" ({said[verb]})" if said.get(verb, verb) != verb else ""
                    click.echo(f"  {verb:<13} {example}{also}")
                continue
            if line.split()[:1] and line.split()[0] in recorder.TABLES:
                _tables(current.state, line.split())
                continue
            if line.isdigit():  # '²' and '٣' too: whole() reads ASCII digits only, so they are no choice
                choice = whole(line)
                if choice not in offered:
                    click.echo(say("Refused: no choice numbered {line}", line=line))
                    continue
                text, complete, _hint = offered[choice]
                if not complete:
                    prefill = text
                    continue
                line = text  # a number fills the move: it is shown, and recorded only on one more Enter
            if not line:
                continue
            try:
                line = moves.with_society(line, p)
                pending = recording.preview(store, current, line)
            except GameMovedOn as exc:
                click.echo(say("Refused: {reason}; reloading the game.", reason=refusal(exc)))
                current = recording.open_game(store, game)
                continue
            except WhispersError as exc:
                click.echo(say("Refused: {reason}", reason=refusal(exc)))
                continue
            click.echo(_("Preview (Enter records it; anything else does not):"))
            show_events(pending.said)
            if pending.next is not None:
                click.echo("  " + say("Next: {note}", note=pending.next))
            prefill = pending.line if recorder.interactive() else ""
    click.echo(say("{game}: the game is over. See: whispers score {game}", game=game) if current.state.over
               else say("{game}: stopped.", game=game))


def _record_shown(store: Store | str | None, game: str, shown: recording.Preview) -> Game | None:
    """Record the move previewed; None (the game is then read again) if another recorder appended since."""
    try:
        done = recording.record_preview(store, shown)
    except GameMovedOn as exc:
        click.echo(say("Refused: {reason}; reloading the game.", reason=refusal(exc)))
        return None
    except WhispersError as exc:
        click.echo(say("Refused: {reason}", reason=refusal(exc)))
        return None
    click.echo(_("Recorded:"))
    show_events(done.said)
    if not done.over:
        click.echo("  " + say("Next: {note}", note=done.next))
    return done.after


RECAP = 5
"""How many of the last moves the recorder recalls on opening."""


def _recap(current: Game) -> None:  # an application-layer Game (recording.open_game)
    moves = recording.recap(current, RECAP)
    if moves:
        click.echo(n_("{game}: the last {n} move:", "{game}: the last {n} moves:", len(moves), game=current.name))
        for label, line in moves:
            click.echo(f"  {label:<22} {line}")


def _tables(state: GameState, words: list[str]) -> None:
    """The board, the council or a society's hand, as `status` shows them, without leaving the recorder."""
    from whispers.application.reading import status_of
    from whispers.cli.reading import console
    from whispers.cli.tables import board_table, council_table, hand_table

    view = status_of(state).view
    if words[0] == "hand":
        if len(words) != 2 or words[1] not in state.players:
            click.echo(say("hand takes one society of this game: {societies}", societies=terms(state.players)))
            return
        console().print(hand_table(view, society=words[1]))
    elif len(words) != 1:
        click.echo(say("{text} takes nothing after it", text=words[0]))
    else:
        console().print(board_table(view) if words[0] == "board" else council_table(view))


# --- the director's seal --------------------------------------------------------------------------


@click.command(cls=Spoken)
@click.argument("game")
@click.option("--by", "by", required=True, metavar="NAME", help="The director who seals the result.")
@click.option("--reason", default="", metavar="TEXT", help="Why, if worth saying (one line).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@store_option
def finalize(game: str, by: str, reason: str, as_json: bool, store_url: str | None) -> None:
    """Seal a finished game: moves, take-backs and rulings are refused until it is reopened."""
    done = recording.finalize(store_url, game, by, reason)
    if as_json:
        emit_json(done.to_json())
        return
    if done.reason:
        said = say("{game}: finalised by {name} ({reason}). To change it: whispers reopen {game} --by NAME --reason "
                   "TEXT", game=game, name=done.by, reason=done.reason)
    else:
        said = say("{game}: finalised by {name}. To change it: whispers reopen {game} --by NAME --reason TEXT",
                   game=game, name=done.by)
    click.echo(said)


@click.command(cls=Spoken)
@click.argument("game")
@click.option("--by", "by", required=True, metavar="NAME", help="The director who lifts the seal.")
@click.option("--reason", required=True, metavar="TEXT", help="Why the finalised game is reopened (one line).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@store_option
def reopen(game: str, by: str, reason: str, as_json: bool, store_url: str | None) -> None:
    """Lift the director's seal on a finalised game, for a reason kept in its record."""
    done = recording.reopen(store_url, game, by, reason)
    if as_json:
        emit_json(done.to_json())
        return
    click.echo(say("{game}: reopened by {name} ({reason}); it counts as unfinalised until sealed again.", game=game,
                   name=done.by, reason=done.reason))
