"""Recording at the table: start a game, record one move, record a batch of moves (all or nothing)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from whispers.application.stores import opened
from whispers.ledger.core import events as ev
from whispers.ledger.core.errors import GameMovedOn, NotationError, RuleError, WhispersError
from whispers.ledger.core.plain import Data
from whispers.ledger.core.words import _, say

if TYPE_CHECKING:
    from whispers.ledger.core import commands as c
    from whispers.ledger.core.prompt import Prompt
    from whispers.ledger.io.game import Game as Game  # the type a face holds a game in
    from whispers.ledger.io.store import Store


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

    def to_json(self) -> Data:
        return {"game": self.game, "ruleset": self.ruleset, "board": self.board, "players": list(self.players),
                "first": self.first, "cards": self.cards, "card_sets": list(self.card_sets)}


@dataclass(frozen=True, slots=True)
class Recorded:
    """What one move (or one batch) added to a game, and the game after it."""

    after: Game
    events: tuple[ev.Event, ...]
    said: tuple[str, ...] = ()
    """What the move did, in the order it happened, in the reader's words (happenings)."""

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

    def to_json(self) -> Data:
        from whispers.projections.visibility import event_view

        return {"game": self.game, "version": self.after.version, "events": [event_view(e, None) for e in self.events],
                "said": list(self.said), "over": self.over, "next": None if self.over else self.next}


def _recorded(after: Game, produced: Iterable[ev.Event]) -> Recorded:
    """What a move added, said while its record can still be read (a take-back names the move it removed)."""
    produced = tuple(produced)
    earlier = after.events[:len(after.events) - len(produced)] if _takes_back(produced) else ()
    return Recorded(after, produced, happenings(produced, earlier))


def _takes_back(produced: Iterable[ev.Event]) -> bool:
    return any(isinstance(e, ev.MoveTakenBack) for e in produced)


def _earlier(before: Game, produced: Iterable[ev.Event]) -> tuple[ev.Event, ...]:
    """The record before a move, where saying it needs it (a take-back names the move it removes)."""
    return before.events if _takes_back(produced) else ()


def new(store: Store | str | None, game: str, players: Iterable[str], first: str | None = None,
        ruleset: str = "official", board: str = "standin", allow_modified: bool = False,
        table: Mapping[str, object] | None = None, cards: str | None = None, card_sets: Iterable[str] = ()
        ) -> Created:
    """A new game; `table`, its table facts (who, where: ledger/core/meta.py), recorded with the time it is made;
    `cards`, the card sheet it pins (a shipped id or a file); `card_sets`, the sets it names beside the base set."""
    from whispers.ledger.core.notation import Header
    from whispers.ledger.io.game import new_game
    from whispers.ledger.io.shipped import cards_pin, labels

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
    from whispers.ledger.io.game import load

    with opened(store) as s:
        return load(s, game)


def next_move(game: Game) -> Prompt:
    """Who must act now, and the legal moves with their choices (a card play's with its cards, their effects and
    each parameter's domain; a draw's with the cards it may name, `reading.card_choices`, as the record knows them:
    the recorder keeps the whole record)."""
    import msgspec

    from whispers.application.reading import card_choices
    from whispers.ledger.core.prompt import prompt
    from whispers.ledger.io.decree_files import shipped_catalogue
    from whispers.projections.visibility import state_view

    found = prompt(game.state, shipped_catalogue)
    if not any(o.verb == "draw" for o in found.options):
        return found
    view = state_view(game.state, None)
    options = tuple(msgspec.structs.replace(o, choices={**o.choices, "cards": tuple(card_choices(
        view, o.choices["at"].split(".")[0]))}) if o.verb == "draw" else o for o in found.options)
    return msgspec.structs.replace(found, options=options)


def takes_back(command: c.Command) -> bool:
    """Whether `command` takes a move back (a face asks the version its page showed for one: two taps, one undo)."""
    from whispers.ledger.core.commands import Undo

    return isinstance(command, Undo)


def parse_move(text: str) -> c.Command | None:
    """One notation line as a move, written in canonical ids or in the reader's words (application/moves.py: the
    one place a face's line is read); None for a blank or comment line. A game line is refused: it starts a game."""
    from whispers.application.moves import canonical_line
    from whispers.ledger.core.meta import TagLine
    from whispers.ledger.core.notation import Header, parse_line

    parsed = parse_line(canonical_line(text))
    if isinstance(parsed, Header):
        raise NotationError(_("a game line starts a game: use whispers new or whispers import"))
    if isinstance(parsed, TagLine):
        raise NotationError(_("a tag line is a table fact, not a move: use whispers meta GAME"))
    return parsed


def read_move(current: Game, text: str) -> c.Command | None:
    """A line as `parse_move` reads it, against the game it is for: a line that starts with a verb is the move of
    the society that can make it (the only one acting, or the only one owing that order; application/moves.py)."""
    from whispers.application.moves import NO_SOCIETY, canonical_line, with_society
    from whispers.ledger.core.names import MOVE_VERBS

    line = canonical_line(text)
    first = line.split()[:1]
    if first and first[0] in MOVE_VERBS and first[0] not in NO_SOCIETY:
        line = with_society(line, next_move(current))
    return parse_move(line)


def reopening(command: c.Command | None) -> c.Command:
    """`command`, an undo, made to reopen a finished game."""
    from whispers.ledger.core import commands as c

    if not isinstance(command, c.Undo):
        raise NotationError(_("--reopen goes with undo only: whispers move GAME undo --reopen \"REASON\""))
    return c.Undo(command.reason, reopen=True)


def record_move(store: Store | str | None, game: str | Game, command: c.Command) -> Recorded:
    """Decide `command` against the game (its name: as recorded now; a Game: as that recorder last saw it) and
    append its events at exactly that version: GameMovedOn if another recorder appended since."""
    from whispers.ledger.io.game import head, record

    with opened(store) as s:
        current = head(s, game) if isinstance(game, str) else game
        after, produced = record(s, current, command)
        return _recorded(after, produced)


def record_line(store: Store | str | None, game: str, text: str, reopen: bool = False) -> Recorded:
    """One move written as a notation line (`reopen`: an undo that reopens a finished game), as record_move."""
    from whispers.ledger.io.game import head, record

    with opened(store) as s:
        current = head(s, game)
        command = read_move(current, text)
        if command is None:
            raise NotationError(_("an empty line: nothing to record"))
        if reopen:
            command = reopening(command)
        after, produced = record(s, current, command)
        return _recorded(after, produced)


def record_batch(store: Store | str | None, game: str, lines: Iterable[str], append: bool = True) -> Recorded:
    """Every move in `lines` (notation, one a line; blank and comment lines skipped), all or nothing: a bad line
    is named by its number and nothing is appended; GameMovedOn if another recorder appended meanwhile. Without
    `append`, a dry run: the moves are decided and nothing is recorded."""
    from whispers.ledger.io.game import head, play

    with opened(store) as s:
        start = current = head(s, game)
        produced: list[ev.Event] = []
        for number, text in enumerate(lines, start=1):
            try:
                command = read_move(current, text)
                if command is None:
                    continue
                current, events = play(current, command)
            except RuleError as exc:
                raise RuleError(say("line {number}: {reason}", number=number, reason=exc.reason), exc.rule) from None
            except WhispersError as exc:
                raise type(exc)(say("line {number}: {reason}", number=number, reason=str(exc))) from None
            produced.extend(events)
        if produced and append:
            s.append(game, start.version, [e.to_fact() for e in produced])
        return _recorded(current, produced)


@dataclass(frozen=True, slots=True)
class Preview:
    """A move decided against the game as the recorder saw it, nothing appended: what it would record and what it
    would do, as the engine decides them. `record_preview` records exactly it (GameMovedOn if the game moved)."""

    line: str
    """The move as the notation writes it (canonical ids)."""
    command: c.Command
    before: Game
    after: Game
    events: tuple[ev.Event, ...]
    said: tuple[str, ...]
    """What the move would do, in the order it would happen, in the reader's words (happenings)."""

    @property
    def next(self) -> str | None:
        """Who would act next, in words; None if the move ends the game."""
        return None if self.after.state.over else next_move(self.after).note

    def to_json(self) -> Data:
        from whispers.projections.visibility import event_view

        return {"game": self.before.name, "version": self.before.version, "line": self.line,
                "events": [event_view(e, None) for e in self.events], "said": list(self.said),
                "over": self.after.state.over, "next": self.next}


def preview(store: Store | str | None, game: str | Game, text: str, reopen: bool = False) -> Preview:
    """The dry run of one move written as a line (in canonical ids or the reader's words): decided against the game
    (its name: as recorded now; a Game: as that recorder last saw it) without appending anything; the refusal, as
    recording it would give, when it is illegal."""
    from whispers.application.moves import canonical_line
    from whispers.ledger.core.notation import format_event
    from whispers.ledger.io.game import head, play

    with opened(store) as s:
        current = head(s, game) if isinstance(game, str) else game
        command = read_move(current, text)
        if command is None:
            raise NotationError(_("an empty line: nothing to record"))
        if reopen:
            command = reopening(command)
        after, produced = play(current, command)
        written = [line for line in map(format_event, produced[:1]) if line]
        return Preview(written[0] if written else canonical_line(text).strip(), command, current, after,
                       tuple(produced), happenings(produced, _earlier(current, produced)))


def record_preview(store: Store | str | None, shown: Preview) -> Recorded:
    """Record the move previewed, at the version it was previewed against: GameMovedOn if another recorder
    appended since (the preview may no longer be what it would do)."""
    return record_move(store, shown.before, shown.command)


def happenings(events: Iterable[ev.Event], earlier: Sequence[ev.Event] = (), who: str | None = None
               ) -> tuple[str, ...]:
    """What a move did, event by event in the order it happened, in the reader's words: each event's notation line
    (or its description where it has none), an attack's outcome straight after the attack, a table count's
    mismatches after the count; a take-back, which move it removed (`earlier`: the record before these events).
    As the viewer `who` may know it (projections/visibility.py; None: the record, as the table sees it)."""
    from whispers.application.moves import said_label, said_line
    from whispers.ledger.core.words import plural
    from whispers.projections.labels import labels
    from whispers.projections.visibility import event_words

    said: list[str] = []
    for event in events:
        line = event_words(event, who)
        said.append(line if line.startswith("· ") else said_line(line))
        if isinstance(event, ev.MoveTakenBack) and 0 < event.move <= len(earlier):
            label = labels(earlier).get(event.move)
            removed = event_words(earlier[event.move - 1], who).removeprefix("· ")
            said.append("= " + say("takes back {move}: {line}", move=said_label(str(label)) if label else event.move,
                                   line=said_line(removed)))
        if isinstance(event, ev.Attacked):
            said.append("= " + attack_outcome(event))
        if isinstance(event, ev.TableChecked):
            said += ["! " + say("{region}: the table has {banners}, the record {recorded}", region=region,
                                banners=plural(counted, "banner"), recorded=recorded)
                     for region, (recorded, counted) in event.mismatches.items()]
    return tuple(said)


def attack_outcome(event: ev.Attacked) -> str:
    """An attack's outcome in words, which its notation line does not say: the losses and who holds the target."""
    fort = " " + say("(the fort kills {n})", n=event.fort_kill) if event.fort_kill else ""
    return say("{empire} attacks {target} ({held_by}, {defending} defending){fort}: the attacker loses "
               "{attacker_losses}, the defender {defender_losses}; {target} is now held by {controller}",
               empire=event.empire, target=event.target, held_by=event.held_by or _("empty"),
               defending=event.defending, fort=fort, attacker_losses=event.attacker_losses,
               defender_losses=event.defender_losses, controller=event.controller or _("no one"))


@dataclass(frozen=True, slots=True)
class Sealed:
    """A director's seal put on a finished game, or lifted (`finalised` says which it is now)."""

    game: str
    by: str
    reason: str
    finalised: bool
    version: int

    def to_json(self) -> Data:
        return {"game": self.game, "by": self.by, "reason": self.reason, "finalised": self.finalised,
                "version": self.version}


def finalize(store: Store | str | None, game: str, by: str, reason: str = "") -> Sealed:
    """The director's seal on a finished game, an event in its record: after it, moves, take-backs and rulings
    are refused (RuleError) until the game is reopened."""
    from whispers.ledger.core import commands as c

    done = record_move(store, game, c.Finalize(by, reason))
    sealed = done.events[0]
    assert isinstance(sealed, ev.GameFinalized)
    return Sealed(game, sealed.by, sealed.reason, True, done.after.version)


def reopen(store: Store | str | None, game: str, by: str, reason: str) -> Sealed:
    """The director lifts a finalised game's seal, for a reason kept in its record."""
    from whispers.ledger.core import commands as c

    done = record_move(store, game, c.Reopen(by, reason))
    lifted = done.events[0]
    assert isinstance(lifted, ev.GameReopened)
    return Sealed(game, lifted.by, lifted.reason, False, done.after.version)


def recap(game: Game, count: int = 5) -> tuple[tuple[str, str], ...]:
    """The last `count` standing moves of `game`: each move's label (projections/labels.py) and notation line, in
    the reader's words."""
    from whispers.application.moves import said_label, said_line
    from whispers.ledger.core.notation import format_event
    from whispers.projections.labels import labels

    named = labels(game.events)
    return tuple((said_label(str(named[v])), said_line(format_event(game.events[v - 1]) or ""))
                 for v in sorted(named)[-count:])


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
        with self._writing:
            current = self._as_seen(name, seen)
            done = record_move(self._store, current, command)
            self.keep(done.after)
        return done

    def amend(self, name: str, at: int | str, text: str, reason: str, seen: int | None = None,
              append: bool = True) -> Amended:
        """amend against the held game (a dry run without `append`); with `seen`, GameMovedOn as `record`."""
        if not append:
            return amend(self._store, self.current(name), at, text, reason, False, seen)
        with self._writing:
            done = amend(self._store, self.current(name), at, text, reason, True, seen)
            self.keep(done.after)
        return done

    def preview(self, name: str, text: str, seen: int | None = None) -> Preview:
        """preview of `text` against the held game, nothing appended; with `seen`, GameMovedOn as `record`."""
        return preview(self._store, self._as_seen(name, seen), text)

    def _as_seen(self, name: str, seen: int | None) -> Game:
        """The game as recorded now; GameMovedOn when `seen` (the version a recorder was shown) is not it."""
        from whispers.ledger.core.errors import GameMovedOn

        current = self.current(name)
        if seen is not None and seen != current.version:
            raise GameMovedOn(say("the game moved on: it is at event {n}, this page showed {seen}",
                                  n=current.version, seen=seen))
        return current

    def current(self, name: str) -> Game:
        """The game as recorded now (as open_game)."""
        from whispers.ledger.core.evolve import evolve
        from whispers.ledger.io.game import Game, load

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


# --- amending a past move ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Amended:
    """An amendment (issue 32): the move at `move` corrected, and every later move decided again on the corrected
    game, appended as one batch of new events (ledger/core/events.py, MoveAmended). `moves`: how many standing moves
    were taken back and decided again, the corrected one included."""

    game: str
    move: str
    reason: str
    moves: int
    after: Game
    events: tuple[ev.Event, ...]
    said: tuple[str, ...]
    line: str = ""
    """The corrected move as the notation writes it (canonical ids)."""

    @property
    def over(self) -> bool:
        return self.after.state.over

    @property
    def next(self) -> str:
        return next_move(self.after).note

    @property
    def marker(self) -> int:
        """The event number of the MoveAmended marker (where a replay shows the amendment)."""
        first = self.after.version - len(self.events) + 1
        return first + next(i for i, e in enumerate(self.events) if isinstance(e, ev.MoveAmended))

    def to_json(self) -> Data:
        from whispers.projections.visibility import event_view

        return {"game": self.game, "move": self.move, "reason": self.reason, "moves": self.moves,
                "later": self.moves - 1, "marker": self.marker, "line": self.line, "version": self.after.version,
                "events": [event_view(e, None) for e in self.events], "said": list(self.said),
                "over": self.over, "next": None if self.over else self.next}


def amend(store: Store | str | None, game: str | Game, at: str | int, text: str, reason: str, append: bool = True,
          seen: int | None = None) -> Amended:
    """Correct the move `at` names (`m25`, a label, an event number) with the move `text` (a line, in canonical ids
    or the reader's words), for `reason`: the corrected move is decided at its place and every later standing move
    (and table fact) is decided again, in order, on the corrected game. Refused, with nothing changed, when the
    corrected move or a later one is illegal there (the later one is named). Appended all at once: the take-backs
    of the moves from `at` on (newest first), the MoveAmended marker, the corrected move, the later moves again;
    GameMovedOn if another recorder appended meanwhile. Without `append`, a dry run. `game`: its name (as recorded
    now) or a Game (as a recorder last saw it); `seen`, the version a page previewed it at: GameMovedOn unless the
    game is still there, so what is appended is what was previewed."""
    from whispers.ledger.core import commands as c
    from whispers.ledger.core.notation import format_event
    from whispers.ledger.io.game import Game, head, play
    from whispers.ledger.io.snapshots import fold_on
    from whispers.projections.labels import labels, resolve
    from whispers.projections.replay import standing

    with opened(store) as s:
        start = head(s, game) if isinstance(game, str) else game
        game = start.name
        if seen is not None and seen != start.version:
            raise GameMovedOn(say("the game moved on: it is at event {n}, this page showed {seen}",
                                  n=start.version, seen=seen))
        if not reason.strip():
            raise NotationError(_("an amendment needs a reason: say why the move is corrected"))
        events = start.events
        version = resolve(game, events, at)
        named = labels(events)
        if version not in named:
            raise NotationError(say("{at} is no standing move of {game}: amend names a move, e.g. m25", at=at,
                                    game=game))
        command = parse_move(text)
        if command is None:
            raise NotationError(_("an empty line: nothing to record"))
        if isinstance(command, c.Undo | c.Finalize | c.Reopen):
            raise NotationError(_("an amendment corrects a move with another move, not a take-back or a seal"))
        later = [(v, e) for v, e in standing(events)
                 if v > version and (v in named or isinstance(e, ev.GameDescribed))]
        moves = 1 + sum(1 for v, _e in later if v in named)
        current, produced = start, []
        for _n in range(moves):
            current, made = play(current, c.Undo(reason, reopen=current.state.over))
            produced += made
        marker = ev.MoveAmended(version, reason, moves)
        state = fold_on(current.state, [marker])
        assert state is not None
        current = Game(game, (*current.events, marker), state)
        produced.append(marker)
        try:
            current, made = play(current, command)
        except WhispersError as exc:
            raise _refused(exc, say("the corrected {move}: {reason}", move=str(named[version]),
                                    reason=_said(exc))) from None
        produced += made
        corrected = next((line for line in map(format_event, made) if line), "")
        for v, event in later:
            if isinstance(event, ev.GameDescribed):  # a table fact recorded meanwhile: kept, at its place
                state = fold_on(current.state, [event])
                assert state is not None
                current = Game(game, (*current.events, event), state)
                produced.append(event)
                continue
            again = c.of_event(event, current.state.pending is not None)
            assert again is not None
            try:
                current, made = play(current, again)
            except WhispersError as exc:
                raise _refused(exc, say("the amendment makes {move} illegal ({line}): {reason}", move=str(named[v]),
                                        line=format_event(event) or "", reason=_said(exc))) from None
            produced += made
        if append:
            s.append(game, start.version, [e.to_fact() for e in produced])
        return Amended(game, str(named[version]), reason, moves, current, tuple(produced),
                       happenings(produced[produced.index(marker):], events), corrected)


def _said(exc: WhispersError) -> str:
    return exc.reason if isinstance(exc, RuleError) else str(exc)


def _refused(exc: WhispersError, said: str) -> WhispersError:
    """`exc` said again (its rule kept), naming what the amendment was deciding."""
    if isinstance(exc, RuleError):
        return RuleError(said, exc.rule)
    return type(exc)(said)
