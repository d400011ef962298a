"""Recording at the table: start a game, record one move, record a batch of moves (all or nothing)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from whispers.application.stores import opened
from whispers.ledger import events as ev
from whispers.ledger.errors import NotationError, RuleError, WhispersError
from whispers.ledger.words import _, say

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
    cards: str | None = None
    """The card sheet's label (its id, or `custom:ID (hash)`), None when the game pins none."""
    card_sets: tuple[str, ...] = ("base",)
    example_sheet: bool = False
    """The sheet pinned is a made-up example (its `example = true`): not the printed cards."""

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "ruleset": self.ruleset, "board": self.board, "players": list(self.players),
                "first": self.first, "cards": self.cards, "card_sets": list(self.card_sets)}


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
        table: dict[str, Any] | None = None, cards: str | None = None, card_sets: Iterable[str] = ()) -> Created:
    """A new game; `table`, its table facts (who, where: ledger/meta.py), recorded with the time it is made;
    `cards`, the card sheet it pins (a shipped id or a file); `card_sets`, the sets it names beside the base set."""
    from whispers.ledger.game import new_game
    from whispers.ledger.notation import Header
    from whispers.ledger.shipped import cards_pin, labels

    header = Header(ruleset, board, tuple(players), first, cards, tuple(card_sets))
    with opened(store) as s:
        created = new_game(s, game, header, allow_modified, table)
    state = created.state
    ruleset_label, board_label = labels(state)
    started = created.events[0]
    assert isinstance(started, ev.GameStarted)
    sheet = cards_pin(started)
    return Created(game, ruleset_label, board_label, tuple(state.players), state.first,
                   sheet.label if sheet is not None else None, state.card_sets,
                   bool(state.cards and state.cards.get("example")))


def open_game(store: Store | str | None, game: str) -> Game:
    """The game as recorded now: what the next move is decided against."""
    from whispers.ledger.game import load

    with opened(store) as s:
        return load(s, game)


def next_move(game: Game) -> Prompt:
    """Who must act now, and the legal moves with their choices (a card play's with its cards, their effects and
    each parameter's domain)."""
    from whispers.ledger.decree_files import shipped_catalogue
    from whispers.ledger.prompt import prompt

    return prompt(game.state, shipped_catalogue)


def takes_back(command: c.Command) -> bool:
    """Whether `command` takes a move back (a face asks the version its page showed for one: two taps, one undo)."""
    from whispers.ledger.commands import Undo

    return isinstance(command, Undo)


def parse_move(text: str) -> c.Command | None:
    """One notation line as a move; None for a blank or comment line. A game line is refused: it starts a game."""
    from whispers.ledger.meta import TagLine
    from whispers.ledger.notation import Header, parse_line

    parsed = parse_line(text)
    if isinstance(parsed, Header):
        raise NotationError(_("a game line starts a game: use whispers new or whispers import"))
    if isinstance(parsed, TagLine):
        raise NotationError(_("a tag line is a table fact, not a move: use whispers meta GAME"))
    return parsed


def reopening(command: c.Command | None) -> c.Command:
    """`command`, an undo, made to reopen a finished game."""
    from whispers.ledger import commands as c

    if not isinstance(command, c.Undo):
        raise NotationError(_("--reopen goes with undo only: whispers move GAME undo --reopen \"REASON\""))
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
            raise NotationError(_("an empty line: nothing to record"))
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
                raise RuleError(say("line {number}: {reason}", number=number, reason=exc.reason), exc.rule) from None
            except WhispersError as exc:
                raise type(exc)(say("line {number}: {reason}", number=number, reason=str(exc))) from None
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


class HeldGames:
    """The games a long-running process (the web server) decides moves against, kept folded between requests:
    bringing one up to date reads and folds only the events stored since (by any process), not the whole record.
    Thread-safe; holds the `limit` games used last."""

    def __init__(self, store: Store, limit: int = 256) -> None:
        import contextlib
        import threading
        from collections import OrderedDict

        self._store = store
        self._limit = limit
        self._held: OrderedDict[str, Game] = OrderedDict()
        self._lock = threading.Lock()
        # SQLite: one move at a time in this process (threads racing for its write lock sleep in its busy
        # handler, up to 100 ms a turn); PostgreSQL queues concurrent appends itself, without sleeping
        self._writing = contextlib.nullcontext() if store.concurrent_writes else threading.Lock()

    def record(self, name: str, command: c.Command, seen: int | None = None) -> Recorded:
        """record_move against the held game; with `seen` (the version the recorder was shown), GameMovedOn
        unless the game is still there. Other processes are kept out by the store (GameMovedOn too)."""
        from whispers.ledger.errors import GameMovedOn

        with self._writing:
            current = self.current(name)
            if seen is not None and seen != current.version:
                raise GameMovedOn(say("the game moved on: it is at event {n}, this page showed {seen}",
                                      n=current.version, seen=seen))
            done = record_move(self._store, current, command)
            self.keep(done.after)
        return done

    def current(self, name: str) -> Game:
        """The game as recorded now (as open_game)."""
        from whispers.ledger.evolve import evolve
        from whispers.ledger.game import Game, load

        with self._lock:
            held = self._held.get(name)
        if held is None:
            game = load(self._store, name)
        else:
            new = ev.read_facts(self._store.facts_after(name, held.version), name)
            state = held.state
            for event in new:
                state = evolve(state, event)
            game = Game(name, (*held.events, *new), state) if new else held
        self.keep(game)
        return game

    def keep(self, game: Game) -> None:
        """Hold `game` (a move's result) unless a later version is held already."""
        with self._lock:
            held = self._held.get(game.name)
            if held is None or held.version <= game.version:
                self._held[game.name] = game
            self._held.move_to_end(game.name)
            while len(self._held) > self._limit:
                self._held.popitem(last=False)
