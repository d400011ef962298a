"""Recording at the table: start a game, record one move, record a batch of moves (all or nothing)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from whispers.application.stores import opened
from whispers.ledger import events as ev
from whispers.ledger.errors import NotationError, RuleError, WhispersError

if TYPE_CHECKING:
    from whispers.ledger import commands as c
    from whispers.ledger.game import Game
    from whispers.ledger.prompt import Prompt
    from whispers.ledger.store import Store


@dataclass(frozen=True, slots=True)
class Created:
    game: str
    ruleset: str  # labels, as every listing shows them ("official", "official (modified 3f2a9c1e)")
    board: str
    players: tuple[str, ...]
    first: str

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "ruleset": self.ruleset, "board": self.board, "players": list(self.players),
                "first": self.first}


@dataclass(frozen=True, slots=True)
class Recorded:
    """What one move (or one batch) added to a game, and the game after it."""

    after: Game
    events: tuple[ev.Event, ...]

    @property
    def game(self) -> str:
        return self.after.name

    @property
    def over(self) -> bool:
        return self.after.state.over

    @property
    def reopened(self) -> tuple[str, ...]:
        """The reasons given for reopening a finished game, if this move did."""
        return tuple(e.reason for e in self.events if isinstance(e, ev.MoveTakenBack) and e.reopen)

    @property
    def next(self) -> str:
        return next_move(self.after).note

    def to_json(self) -> dict[str, Any]:
        from whispers.projections.visibility import event_view

        return {"game": self.game, "version": self.after.version, "events": [event_view(e, None) for e in self.events],
                "over": self.over, "next": None if self.over else self.next}


def new(store: Store | str | None, game: str, players: Iterable[str], first: str | None = None,
        ruleset: str = "official", board: str = "standin", allow_modified: bool = False,
        table: dict[str, Any] | None = None) -> Created:
    """A new game; `table`, its table facts (who, where: ledger/meta.py), recorded with the time it is made."""
    from whispers.ledger.game import new_game
    from whispers.ledger.notation import Header
    from whispers.ledger.shipped import labels

    with opened(store) as s:
        created = new_game(s, game, Header(ruleset, board, tuple(players), first), allow_modified, table)
    state = created.state
    ruleset_label, board_label = labels(state)
    return Created(game, ruleset_label, board_label, tuple(state.players), state.first)


def open_game(store: Store | str | None, game: str) -> Game:
    """The game as recorded now: what the next move is decided against."""
    from whispers.ledger.game import load

    with opened(store) as s:
        return load(s, game)


def next_move(game: Game) -> Prompt:
    """Who must act now, and the legal moves with their choices."""
    from whispers.ledger.prompt import prompt

    return prompt(game.state)


def parse_move(text: str) -> c.Command | None:
    """One notation line as a move; None for a blank or comment line. A game line is refused: it starts a game."""
    from whispers.ledger.meta import TagLine
    from whispers.ledger.notation import Header, parse_line

    parsed = parse_line(text)
    if isinstance(parsed, Header):
        raise NotationError("a game line starts a game: use whispers new or whispers import")
    if isinstance(parsed, TagLine):
        raise NotationError("a tag line is a table fact, not a move: use whispers meta GAME")
    return parsed


def reopening(command: c.Command | None) -> c.Command:
    """`command`, an undo, made to reopen a finished game."""
    from whispers.ledger import commands as c

    if not isinstance(command, c.Undo):
        raise NotationError('--reopen goes with undo only: whispers move GAME undo --reopen "REASON"')
    return c.Undo(command.reason, reopen=True)


def record_move(store: Store | str | None, game: str | Game, command: c.Command) -> Recorded:
    """Decide `command` against the game (its name: as recorded now; a Game: as that recorder last saw it) and
    append its events at exactly that version: GameMovedOn if another recorder appended since."""
    from whispers.ledger.game import head, record

    with opened(store) as s:
        current = head(s, game) if isinstance(game, str) else game
        after, produced = record(s, current, command)
    return Recorded(after, tuple(produced))


def record_line(store: Store | str | None, game: str, text: str, reopen: bool = False) -> Recorded:
    """One move written as a notation line (`reopen`: an undo that reopens a finished game), as record_move."""
    from whispers.ledger.game import head, record

    with opened(store) as s:
        current = head(s, game)
        command = parse_move(text)
        if command is None:
            raise NotationError("an empty line: nothing to record")
        if reopen:
            command = reopening(command)
        after, produced = record(s, current, command)
    return Recorded(after, tuple(produced))


def record_batch(store: Store | str | None, game: str, lines: Iterable[str]) -> Recorded:
    """Every move in `lines` (notation, one a line; blank and comment lines skipped), all or nothing: a bad line
    is named by its number and nothing is appended; GameMovedOn if another recorder appended meanwhile."""
    from whispers.ledger.game import head, play

    with opened(store) as s:
        start = current = head(s, game)
        produced: list[ev.Event] = []
        for number, text in enumerate(lines, start=1):
            try:
                command = parse_move(text)
                if command is None:
                    continue
                current, events = play(current, command)
            except RuleError as exc:
                raise RuleError(f"line {number}: {exc.reason}", exc.rule) from None
            except WhispersError as exc:
                raise type(exc)(f"line {number}: {exc}") from None
            produced.extend(events)
        if produced:
            s.append(game, start.version, [e.to_fact() for e in produced])
    return Recorded(current, tuple(produced))


@dataclass(frozen=True, slots=True)
class Sealed:
    """A director's seal put on a finished game, or lifted (`finalised` says which it is now)."""

    game: str
    by: str
    reason: str
    finalised: bool
    version: int

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "by": self.by, "reason": self.reason, "finalised": self.finalised,
                "version": self.version}


def finalize(store: Store | str | None, game: str, by: str, reason: str = "") -> Sealed:
    """The director's seal on a finished game, an event in its record: after it, moves, take-backs and rulings
    are refused (RuleError) until the game is reopened."""
    from whispers.ledger import commands as c

    done = record_move(store, game, c.Finalize(by, reason))
    sealed = done.events[0]
    assert isinstance(sealed, ev.GameFinalized)
    return Sealed(game, sealed.by, sealed.reason, True, done.after.version)


def reopen(store: Store | str | None, game: str, by: str, reason: str) -> Sealed:
    """The director lifts a finalised game's seal, for a reason kept in its record."""
    from whispers.ledger import commands as c

    done = record_move(store, game, c.Reopen(by, reason))
    lifted = done.events[0]
    assert isinstance(lifted, ev.GameReopened)
    return Sealed(game, lifted.by, lifted.reason, False, done.after.version)


def recap(game: Game, count: int = 5) -> tuple[tuple[str, str], ...]:
    """The last `count` standing moves of `game`: each move's label (projections/labels.py) and notation line."""
    from whispers.ledger.notation import format_event
    from whispers.projections.labels import labels

    named = labels(game.events)
    return tuple((str(named[v]), format_event(game.events[v - 1]) or "") for v in sorted(named)[-count:])
