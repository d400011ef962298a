"""Games on a store: the thin I/O shell around the rules engine.

Load a record and fold it; decide a move against the state it was decided on; append its events at
exactly that version, so two recorders racing on one game cannot both land.

Reading a game needs only the events and the fold; the rules engine and the notation are imported by the
functions that decide or parse, so that `whispers status` starts without them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, cast

from whispers.ledger.core import events as ev
from whispers.ledger.core.errors import (
    BoardError,
    DecreeError,
    NoSuchEvent,
    NotationError,
    RuleError,
    RulesetError,
    StoreError,
    StoreUnavailable,
    WhispersError,
)
from whispers.ledger.core.events import read_facts
from whispers.ledger.core.evolve import evolve, fold
from whispers.ledger.core.notes import GLYPHS, TAGS, NoteEntry, current, problem
from whispers.ledger.core.state import GameState
from whispers.ledger.core.words import _, no_such_event, say
from whispers.ledger.io.store import Store

if TYPE_CHECKING:
    from whispers.ledger.core import commands as c
    from whispers.ledger.core.notation import Header


class Game:
    """A game's record and its state after it. A game loaded at its head (`head`) reads its events only when
    they are asked for, from the store it came from (which must still be open then)."""

    __slots__ = ("_events", "_read", "name", "state")

    def __init__(self, name: str, events: tuple[ev.Event, ...] | None, state: GameState,
                 read: Callable[[], tuple[ev.Event, ...]] | None = None) -> None:
        assert events is not None or read is not None
        self.name = name
        self.state = state
        self._events = events
        self._read = read

    @property
    def events(self) -> tuple[ev.Event, ...]:
        if self._events is None:
            assert self._read is not None
            self._events = self._read()
            self._read = None
        return self._events

    @property
    def version(self) -> int:
        return len(self._events) if self._events is not None else self.state.version

    def __repr__(self) -> str:
        return f"Game({self.name!r}, version {self.version})"


def load(store: Store, name: str, version: int | None = None) -> Game:
    events = store.events(name, version)
    return Game(name, tuple(events), fold(events))


def head(store: Store, name: str) -> Game:
    """The game as recorded now, from its snapshot and the events after it (ledger/io/snapshots.py), so that
    deciding a move does not replay the game's history; the whole record replayed when there is no usable
    snapshot (none yet, another layout, another record's, or a take-back past the earlier states it keeps).
    A snapshot is kept again once `snapshots.EVERY` events were folded on top of it."""
    from whispers.ledger.io import snapshots

    try:
        kept = store.snapshot(name)
    except StoreUnavailable:
        raise
    except StoreError:  # a damaged read model (`whispers rebuild` makes it again): the record is replayed
        kept = None
    found = snapshots.version_of(kept) if kept is not None else None
    if found is not None:
        since, at, chain, complete = found
        tail = store.tail(name, since)
        if tail is not None and tail[1] is not None and tail[1] == at:
            first, _, facts, last = tail
            started = read_facts([first], name)[0]
            state = snapshots.decode(chain, complete, evolve(None, started))
            if state is not None and snapshots.is_cut(state):
                state = None  # no earlier state kept at all: replayed, and a snapshot with them kept
            if state is not None:
                state = snapshots.fold_on(state, facts)
            if state is not None and state.version == since + len(facts):
                if len(facts) >= snapshots.EVERY:
                    _keep_snapshot(store, name, state, last)
                return Game(name, None, state, _reader(store, name, state.version))
    game = load(store, name)
    tail = store.tail(name, game.version)
    if tail is not None and tail[1] is not None:
        _keep_snapshot(store, name, game.state, tail[1])
    return game


def _keep_snapshot(store: Store, name: str, state: GameState, stored: bytes) -> None:
    """A snapshot is a cache: a store that cannot take one now (read-only, locked) is read as it is."""
    from contextlib import suppress

    from whispers.ledger.io import snapshots

    with suppress(StoreError):
        store.keep_snapshot(name, snapshots.encode(state, stored))


def _reader(store: Store, name: str, version: int) -> Callable[[], tuple[ev.Event, ...]]:
    return lambda: tuple(store.events(name, version))


def setup(name: str, header: Header, beside: Path | None = None, allow_modified: bool = False) -> ev.GameStarted:
    """The first event of a game set up as `header` says. A ruleset or board that is not shipped is also
    looked for as ID.toml in the directory `beside` (where the notation file is). One that claims a shipped
    id with other content is refused unless `allow_modified` (ledger.pins)."""
    from whispers.ledger.core import rules
    from whispers.ledger.core.pins import refuse_modified
    from whispers.ledger.io.board_files import load_board
    from whispers.ledger.io.decree_files import load_sheet
    from whispers.ledger.io.ruleset_files import load_ruleset
    from whispers.ledger.io.shipped import cards_pin, started_pins

    ruleset = _resolve(load_ruleset, header.ruleset, beside, RulesetError)
    board = _resolve(load_board, header.board, beside, BoardError)
    sheet = None if header.cards is None else _resolve(load_sheet, header.cards, beside, DecreeError)
    started = rules.start(name, header.players, header.first, ruleset, board, header.card_sets, sheet)
    if not allow_modified:
        refuse_modified((*started_pins(started), *filter(None, [cards_pin(started)])))
    return started


def _resolve(loader, ref: str, beside: Path | None, error: type[Exception]):
    try:
        return loader(ref)
    except error:
        candidate = beside / f"{ref}.toml" if beside is not None else None
        if candidate is None or not candidate.is_file():
            raise
        return loader(str(candidate))


def new_game(store: Store, name: str, header: Header, allow_modified: bool = False,
             changes: Mapping[str, object] | None = None) -> Game:
    """A new game; `changes`, its table facts (ledger/core/meta.py), recorded with it at the time it is made."""
    started = setup(name, header, allow_modified=allow_modified)
    state = evolve(None, started)
    events: list[ev.Event] = [started]
    if changes:
        described = _described(changes, _now(), state)
        state = evolve(state, described)
        events.append(described)
    store.create(name, [e.to_fact() for e in events])
    return Game(name, tuple(events), state)


def describe(store: Store, name: str, changes: Mapping[str, object]) -> Game:
    """The game's table facts changed (ledger/core/meta.py), as an event of their own appended now."""
    game = load(store, name)
    described = _described(changes, _now(), game.state)
    store.append(name, game.version, [described.to_fact()])
    return Game(name, (*game.events, described), evolve(game.state, described))


def _described(changes: Mapping[str, object], time: str | None, state: GameState | None) -> ev.GameDescribed:
    from whispers.ledger.core.meta import problem, time_problem

    assert state is not None
    if (wrong := problem(changes, state.players)) or (wrong := time_problem(time)):
        raise StoreError(wrong)
    # through the fact (checked just above): the event holds what a stored one read back holds (tuples, not lists)
    described = ev.GameDescribed(cast("ev.TableChanges", changes), time)
    return ev.from_fact(described.to_fact())  # type: ignore[return-value]


def _now() -> str:
    from datetime import UTC, datetime

    return datetime.now(UTC).isoformat(timespec="seconds")


def play(game: Game, command: c.Command) -> tuple[Game, list[ev.Event]]:
    """The game after one more move, in memory; RuleError if the move is illegal."""
    from whispers.ledger.core import commands as c
    from whispers.ledger.io import engine
    from whispers.ledger.io.snapshots import is_cut

    if isinstance(command, c.Undo) and is_cut(game.state):
        game = Game(game.name, game.events, fold(game.events))  # its earlier states were not kept: replayed
    state, produced = engine.step(game.state, command)
    if game._events is not None:
        return Game(game.name, (*game.events, *produced), state), produced
    return Game(game.name, None, state, lambda: (*game.events, *produced)), produced


def record(store: Store, game: Game, command: c.Command) -> tuple[Game, list[ev.Event]]:
    """Decide the move against `game` and append its events at `game.version` (GameMovedOn if it moved)."""
    after, produced = play(game, command)
    store.append(game.name, game.version, [e.to_fact() for e in produced])
    return after, produced


def replay_lines(name: str, lines: Iterable[str], beside: Path | None = None, allow_modified: bool = False) -> Game:
    """A whole game from notation, in memory: all or nothing, a bad line named by its number."""
    from whispers.ledger.core.meta import TagLine, from_tags
    from whispers.ledger.core.notation import Header, parse_lines
    from whispers.ledger.io import engine

    events: list[ev.Event] = []  # grown in place: a Game per line copied every event so far, quadratic
    state: GameState | None = None
    tags: list[TagLine] = []  # a run of tag lines, ended by its [Recorded] line or a move, is one description
    for number, parsed in [*parse_lines(lines), (0, None)]:
        try:
            if tags and (not isinstance(parsed, TagLine) or tags[-1].key == "time"):
                described = _described(*from_tags(tags), state)
                events.append(described)
                state = evolve(state, described)
                tags = []
            if parsed is None:
                break
            if isinstance(parsed, TagLine):
                if state is None:
                    raise NotationError(_("a tag line comes before the game line"))
                tags.append(parsed)
                continue
            if isinstance(parsed, Header):
                if state is not None:
                    raise NotationError(_("a second game line"))
                started = setup(name, parsed, beside, allow_modified)
                events, state = [started], evolve(None, started)
                continue
            if state is None:
                raise NotationError(_("the first move comes before the game line (game ruleset=... players=...)"))
            state, produced = engine.step(state, parsed)
            events.extend(produced)
        except RuleError as exc:
            raise RuleError(say("line {number}: {message}", number=number, message=exc.reason), exc.rule) from None
        except WhispersError as exc:
            said = say("line {number}: {message}", number=number, message=str(exc)) if number else str(exc)
            raise type(exc)(said) from None
    if state is None:
        raise NotationError(_("no game line: a record starts with game ruleset=... board=... players=..."))
    return Game(name, tuple(events), state)


def import_lines(store: Store, name: str, lines: Iterable[str], beside: Path | None = None,
                 allow_modified: bool = False) -> Game:
    game = replay_lines(name, lines, beside, allow_modified)
    store.create(name, [e.to_fact() for e in game.events])
    return game


def fork(store: Store, parent: str, name: str, at: int) -> Game:
    """A new game whose record is `parent`'s first `at` events, marked as a fork of it at `at`; the engine
    then records whatever it would have recorded on its own from there (a fork taken mid-move)."""
    from whispers.ledger.io import engine
    from whispers.ledger.io.recordfile import chain

    facts = store.facts(parent, at)
    facts = [{**facts[0], "name": name}, *facts[1:]]
    events = read_facts(facts, parent)
    marker = ev.GameForked(parent, at, chain(store.facts(parent, at))[-1])
    before = fold(events)
    produced = engine.forked(before, marker)
    state = engine.fold(before, produced)
    store.create(name, [*facts, *(e.to_fact() for e in produced)])
    return Game(name, (*events, *produced), state)


def annotate(store: Store, name: str, at: int, text: str, author: str | None, tag: str | None,
             glyph: str | None = None) -> NoteEntry:
    """A note on event `at` of the game, in the game's own notes stream (the record is not reopened)."""
    version = store.version(name)
    if not 1 <= at <= version:
        raise NoSuchEvent(no_such_event(name, version, at))
    _check_words(text, tag, glyph)
    note: NoteEntry = {"at": at, "text": text.strip(), "author": author, "tag": tag, "time": _now()}
    if glyph is not None:
        note["glyph"] = glyph
    return _keep(store, name, note, version)


def edit_note(store: Store, name: str, number: int, text: str | None, author: str | None,
              tag: str | None = None, glyph: str | None = None) -> NoteEntry:
    """A new text (and tag, glyph) for note `number`, appended as an edit: the note's history keeps what it said.
    What is not given stays as it was."""
    version = store.version(name)
    now = _live(store, name, number)
    text = now["text"] if text is None else text
    _check_words(text, tag, glyph)
    edit: NoteEntry = {"edits": number, "text": text.strip(), "author": author,
                       "tag": now["tag"] if tag is None else tag, "glyph": now["glyph"] if glyph is None else glyph,
                       "time": _now()}
    return _keep(store, name, edit, version)


def withdraw_note(store: Store, name: str, number: int, author: str | None) -> NoteEntry:
    """Withdraw note `number`: it is no longer shown, but its history keeps it."""
    version = store.version(name)
    _live(store, name, number)
    return _keep(store, name, {"withdraws": number, "author": author, "time": _now()}, version)


def _live(store: Store, name: str, number: int) -> NoteEntry:
    found, _ = read_notes(store, name)
    for note in current(found):
        if note["number"] == number:
            return note
    raise StoreError(say("{game} has no note {number} standing (whispers notes {game} --history lists them all)",
                          game=name, number=number))


def _check_words(text: str, tag: str | None, glyph: str | None) -> None:
    if not text.strip():
        raise StoreError(_("a note needs some text"))
    if tag is not None and tag not in TAGS:
        raise StoreError(say("unknown tag {text}: use {tags}", text=repr(tag), tags=", ".join(TAGS)))
    if glyph is not None and glyph not in GLYPHS:
        raise StoreError(say("unknown glyph {text}: use {glyphs}", text=repr(glyph), glyphs=" ".join(GLYPHS)))


def _keep(store: Store, name: str, entry: NoteEntry, version: int) -> NoteEntry:
    found, _ = read_notes(store, name)
    if (wrong := problem(entry, version, found)) is not None:
        raise StoreError(say("cannot keep this note: {message}", message=wrong))
    store.add_note(name, cast("dict[str, object]", entry))
    return entry


def import_record(store: Store, data: bytes, source: str, name: str | None = None,
                  allow_modified: bool = False) -> Game:
    """A record file into the store: its chain checked and every move re-adjudicated first, all or nothing.
    A ruleset or board that claims a shipped id with other content is refused unless `allow_modified`."""
    from whispers.ledger.io.recordfile import loads
    from whispers.ledger.io.verify import verify

    header, facts, notes = loads(data, source)  # its notes validated, and checked against their own chain
    name = name or header["game"]
    if name != facts[0].get("name"):
        facts = [{**facts[0], "name": name}, *facts[1:]]
    verified = verify(facts, source)
    if not allow_modified:
        from whispers.ledger.core.pins import refuse_modified

        try:
            refuse_modified((*verified.pins, *filter(None, [verified.cards])))
        except WhispersError as exc:
            raise type(exc)(f"{source}: {exc}") from None
    store.create(name, facts, cast("list[dict[str, object]]", notes))  # the game and its notes in one transaction
    return Game(name, tuple(read_facts(facts, source)), verified.state)


def read_notes(store: Store, name: str) -> tuple[list[NoteEntry], list[str]]:
    """The game's well-formed notes, and one line for each stored note that is not (skipped, never fatal:
    an older whispers let malformed notes into the append-only store)."""
    good: list[NoteEntry] = []
    skipped: list[str] = []
    version = store.version(name)
    for number, note in enumerate(store.notes(name), start=1):
        if (wrong := problem(note, version, good)) is None:
            good.append(cast("NoteEntry", note))  # well formed, as problem found
        else:
            skipped.append(f"{name}: note {number} skipped: {wrong}")
    return good, skipped


def variations(store: Store, name: str) -> list[NoteEntry]:
    """The variations kept inside the game, in the order kept."""
    from whispers.ledger.core.notes import kind

    found, _ = read_notes(store, name)
    return [entry for entry in found if kind(entry) == "variation"]


def keep_variation(store: Store, parent: str, forked: str, name: str, author: str | None) -> NoteEntry:
    """The moves of `forked` (a fork of `parent`) after the point it was forked at, kept inside `parent` as the
    variation `name`: decided again by the rules from `parent`'s first events before they are kept."""
    from whispers.ledger.core.notation import format_event
    from whispers.ledger.io.recordfile import chain

    fork_game = load(store, forked)
    marker = next((e for e in fork_game.events if isinstance(e, ev.GameForked)), None)
    if marker is None or marker.parent != parent:
        raise StoreError(say("{game} is not a fork of {parent} (whispers fork {parent} NAME --at N makes one)",
                             game=forked, parent=parent))
    if marker.at > store.version(parent) or chain(store.facts(parent, marker.at))[-1] != marker.head:
        raise StoreError(say("{game} no longer starts as {parent} does: {parent}'s first {n} events changed",
                             game=forked, parent=parent, n=marker.at))
    start = fork_game.events.index(marker)
    state = fold(fork_game.events[:start + 1])
    lines = []
    for event in fork_game.events[start + 1:]:
        line = format_event(event, borrowed=state.pending is not None)
        if line is not None:
            lines.append(line)
        state = evolve(state, event)
    if not lines:
        raise StoreError(say("{game} has no move after the fork: nothing to keep", game=forked))
    entry: NoteEntry = {"variation": name.strip(), "at": marker.at, "lines": lines, "author": author,
                        "time": _now()}
    play_variation(store, parent, entry)  # it stands by the rules, or it is refused here
    return _keep(store, parent, entry, store.version(parent))


def play_variation(store: Store, name: str, entry: NoteEntry) -> tuple[Game, int]:
    """The game's first `at` events and what the engine recorded on its own from there, then the variation's
    lines decided by the rules: (that game, in memory, named "GAME/VARIATION"; how many events come before the
    variation's first move)."""
    from whispers.ledger.core.meta import TagLine
    from whispers.ledger.core.notation import Header, parse_line
    from whispers.ledger.io import engine

    facts = store.facts(name, entry["at"])
    events = list(read_facts(facts, name))
    state = fold(events)
    automatic = engine.automatic(state)
    state = engine.fold(state, automatic)
    events.extend(automatic)
    before = len(events)
    for number, line in enumerate(entry["lines"], start=1):
        try:
            command = parse_line(line)
            if command is None or isinstance(command, Header | TagLine):
                raise NotationError(_("not a move"))
            state, produced = engine.step(state, command)
            events.extend(produced)
        except RuleError as exc:
            raise RuleError(say("variation {text} move {number}: {message}", text=repr(entry["variation"]),
                                number=number, message=exc.reason), exc.rule) from None
        except WhispersError as exc:
            raise type(exc)(say("variation {text} move {number}: {message}", text=repr(entry["variation"]),
                                number=number, message=str(exc))) from None
    return Game(f"{name}/{entry['variation']}", tuple(events), state), before
