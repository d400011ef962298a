"""Post-game review: replay (a game at any event, as a viewer knew it), stats, fork, diff, annotate, notes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from whispers.application.reading import notes_of
from whispers.application.stores import opened
from whispers.ledger.core.notes import GLYPHS, TAGS, NoteEntry
from whispers.ledger.core.plain import Data
from whispers.ledger.core.words import say

if TYPE_CHECKING:
    from typing import TypedDict

    from whispers.application.reading import Status
    from whispers.ledger.core import events as ev
    from whispers.ledger.io.store import Store
    from whispers.projections import forks
    from whispers.projections.replay import Replay
    from whispers.projections.stats import Across, GameStats
    from whispers.projections.visibility import StateView

    # the views' types, for the checker: at run time they are plain dicts, and their modules load when first needed
    class FrameJson(StateView):
        """A replay's step (`Frame.to_json`): the state after the event, the event as the viewer saw it, its
        notes."""

        event: dict[str, object]
        notes: list[NoteEntry]
        events: int
        label: str

    class VariationJson(TypedDict):
        name: str
        at: int
        moves: list[str]
        author: str | None
        time: str

    class Read(TypedDict):
        games: int
        events: int

    class AcrossRead(Across):
        read: Read  # what this run read of the store (the catalog reads only what it gained since)

__all__ = ["GLYPHS", "TAGS", "annotate", "diff", "edit_note", "fork", "notes", "replay", "stats", "withdraw_note"]


@dataclass(frozen=True, slots=True)
class Frame:
    """One event of a replay and the game after it, as `viewer` knew them."""

    version: int
    events: int  # how many the game has
    viewer: str | None
    event: ev.Event
    view: StateView  # projections.visibility.state_view after the event
    notes: tuple[NoteEntry, ...]  # the notes on this event
    scores: dict[str, int | None]  # if the game ended after this event, as far as the viewer can compute
    label: str  # where the event stands: `#12 R2 bear.marshal` (its move number, round and office)

    def to_json(self) -> FrameJson:
        from whispers.projections.visibility import event_view

        return {**self.view, "event": event_view(self.event, self.viewer), "notes": list(self.notes),
                "events": self.events, "label": self.label}


@dataclass(frozen=True, slots=True)
class Replayed:
    """A game to step through: `frame(n)` is the game after event n; `at` the one asked for."""

    game: str
    replay: Replay
    viewer: str | None
    at: int
    notes: tuple[NoteEntry, ...]
    warnings: tuple[str, ...] = ()
    labels: dict[int, str] = field(default_factory=dict)  # move labels by event number

    def __len__(self) -> int:
        return len(self.replay)

    def frame(self, version: int) -> Frame:
        from whispers.projections.visibility import known_scores, state_view

        state = self.replay.at(version)
        return Frame(version, len(self.replay), self.viewer, self.replay.event(version),
                     state_view(state, self.viewer), tuple(n for n in self.notes if n["at"] == version),
                     known_scores(state, self.viewer), self.labels.get(version) or self.replay.label(version))

    def to_json(self) -> FrameJson:
        return self.frame(self.at).to_json()

    def amendable(self, version: int) -> str | None:
        """The notation line of standing move `version` as recorded, to fill an amendment's form (issue 32); None
        for an event that is no standing move, and for any viewer but the record's (a seat never amends, and the
        line may hold what it may not see)."""
        from whispers.ledger.core.notation import format_event

        if self.viewer is not None or version not in self.labels:
            return None
        return format_event(self.replay.event(version))


def replay(store: Store | str | None, game: str, at: int | None = None, viewer: str | None = None) -> Replayed:
    from whispers.ledger.core.errors import NoSuchEvent
    from whispers.ledger.core.notes import current
    from whispers.ledger.core.words import no_such_event
    from whispers.projections.replay import Replay
    from whispers.projections.visibility import check_viewer

    with opened(store) as s:
        events = tuple(s.events(game))
        found, warnings = notes_of(s, game)
    found = current(found)
    rep = Replay(events)  # folded once: its last state is the game's (as ledger.io.game.load folds it)
    check_viewer(game, rep.at(len(rep)).players, viewer)
    at = len(rep) if at is None else at
    if not 1 <= at <= len(rep):
        raise NoSuchEvent(no_such_event(game, len(rep), at))
    from whispers.projections.labels import labels

    named = {version: str(label) for version, label in labels(events).items()}
    return Replayed(game, rep, viewer, at, tuple(found), warnings, named)


@dataclass(frozen=True, slots=True)
class Stats:
    data: GameStats  # projections.stats.game_stats

    def to_json(self) -> GameStats:
        return self.data


@dataclass(frozen=True, slots=True)
class StatsAcross:
    data: AcrossRead  # projections.stats.across, with what was read

    def to_json(self) -> AcrossRead:
        return self.data


def stats(store: Store | str | None, game: str) -> Stats:
    from whispers.ledger.io.game import load
    from whispers.projections.stats import game_stats

    with opened(store) as s:
        return Stats(game_stats(load(s, game).events))


def stats_across(store: Store | str | None, ruleset: str | None = None,
                 progress: Callable[[int, int], None] | None = None) -> StatsAcross:
    """Figures across every game in the store (or those under one ruleset label), from the catalog of summaries
    (it reads only what the store gained since it last read); `progress(done, total)` as it reads games."""
    from whispers.projections.catalog import Catalog
    from whispers.projections.stats import across

    with opened(store) as s:
        catalog = Catalog(s)
        try:
            refreshed = catalog.refresh(progress)
            summaries = catalog.figures()
        finally:
            catalog.close()
    return StatsAcross({**across(summaries.values(), ruleset), "read": {"games": refreshed.games,
                                                                        "events": refreshed.events}})


@dataclass(frozen=True, slots=True)
class Forked:
    game: str
    parent: str
    at: int
    next: str  # who must act now, in words

    def to_json(self) -> Data:
        return {"game": self.game, "fork_of": {"game": self.parent, "at": self.at}, "next": self.next}


def fork(store: Store | str | None, game: str, new: str, at: int) -> Forked:
    """A "what if": `new` starts as `game`'s first `at` events, marked as a fork of it."""
    from whispers.ledger.core.prompt import prompt
    from whispers.ledger.io.game import fork as fork_game

    with opened(store) as s:
        forked = fork_game(s, game, new, at)
    return Forked(new, game, at, prompt(forked.state).note)


@dataclass(frozen=True, slots=True)
class Diff:
    data: forks.Diff  # projections.forks.diff

    def to_json(self) -> forks.Diff:
        return self.data


def diff(store: Store | str | None, game: str, other: str) -> Diff:
    """Where two games part, and how their final scores differ."""
    from whispers.ledger.io.game import load
    from whispers.projections.forks import diff as diff_records

    with opened(store) as s:
        a, b = load(s, game), load(s, other)
    return Diff(diff_records(a.events, b.events, game, other))


@dataclass(frozen=True, slots=True)
class Annotated:
    game: str
    note: NoteEntry
    count: int  # notes on the game, this one included

    def to_json(self) -> Data:
        return {"game": self.game, "note": self.note, "notes": self.count}


def annotate(store: Store | str | None, game: str, at: int, text: str, author: str | None = None,
             tag: str | None = None, glyph: str | None = None) -> Annotated:
    """A note on event `at`, kept in the game's own notes stream (the record is never reopened)."""
    from whispers.ledger.io.game import annotate as add_note

    with opened(store) as s:
        note = add_note(s, game, at, text, author, tag, glyph)
        count = len(s.notes(game))
    return Annotated(game, note, count)


@dataclass(frozen=True, slots=True)
class NoteChanged:
    """An edit or a withdrawal appended to a game's notes stream (the note's history keeps what it said)."""

    game: str
    entry: NoteEntry

    def to_json(self) -> Data:
        return {"game": self.game, "entry": self.entry}


def edit_note(store: Store | str | None, game: str, number: int, text: str | None, author: str | None = None,
              tag: str | None = None, glyph: str | None = None) -> NoteChanged:
    """Note `number` says `text` (and carries `tag`, `glyph`) from now on; what is not given stays."""
    from whispers.ledger.io.game import edit_note as edit

    with opened(store) as s:
        return NoteChanged(game, edit(s, game, number, text, author, tag, glyph))


def withdraw_note(store: Store | str | None, game: str, number: int, author: str | None = None) -> NoteChanged:
    """Note `number` is withdrawn: no longer shown, kept in the history."""
    from whispers.ledger.io.game import withdraw_note as withdraw

    with opened(store) as s:
        return NoteChanged(game, withdraw(s, game, number, author))


@dataclass(frozen=True, slots=True)
class Notes:
    """The notes on a game as they read now (or, with `history`, every note, edit and withdrawal in order),
    each with the move it is on in words, as `viewer` saw that move."""

    game: str
    notes: tuple[NoteEntry, ...]
    on: tuple[ev.Event, ...]  # the event each note is on
    moves: tuple[str, ...]  # that event in words, as the viewer saw it
    viewer: str | None = None
    history: bool = False
    warnings: tuple[str, ...] = ()

    def to_json(self) -> list[Data]:
        return [{**note, "move": move} for note, move in zip(self.notes, self.moves, strict=True)]


def notes(store: Store | str | None, game: str, viewer: str | None = None, history: bool = False) -> Notes:
    """The well-formed notes on a game, each with the event it is on (a malformed old one is a warning)."""
    from whispers.ledger.core.notes import current
    from whispers.ledger.core.notes import history as all_entries
    from whispers.ledger.io.game import load
    from whispers.projections.visibility import check_viewer, event_words

    with opened(store) as s:
        found, warnings = notes_of(s, game)
        record = load(s, game)
        check_viewer(game, record.state.players, viewer)
        shown = all_entries(found) if history else current(found)
        # a variation kept in the history holds its moves as the record wrote them: shown as the viewer saw them
        shown = [_as_seen(s, game, entry, viewer) if "variation" in entry else entry for entry in shown]
    at = {number: entry["at"] for number, entry in enumerate(found, start=1) if "at" in entry}
    on = tuple(record.events[at[n["note"] if history else n["number"]] - 1] for n in shown)
    return Notes(game, tuple(shown), on, tuple(event_words(e, viewer) for e in on), viewer, history, warnings)


@dataclass(frozen=True, slots=True)
class Variations:
    """The variations kept inside a game: name, the event they leave it after, their moves."""

    game: str
    variations: tuple[NoteEntry, ...]

    def to_json(self) -> list[VariationJson]:
        return [{"name": v["variation"], "at": v["at"], "moves": list(v["lines"]), "author": v["author"],
                 "time": v["time"]} for v in self.variations]


def variations(store: Store | str | None, game: str, viewer: str | None = None) -> Variations:
    """The variations kept inside `game`, each with its moves as `viewer` would have seen them played (decided by
    the rules again: a card another society drew is not named to a seat, nor any to a spectator)."""
    from whispers.ledger.io.game import load
    from whispers.ledger.io.game import variations as kept
    from whispers.projections.visibility import check_viewer

    with opened(store) as s:
        check_viewer(game, load(s, game).state.players, viewer)
        return Variations(game, tuple(_as_seen(s, game, entry, viewer) for entry in kept(s, game)))


def _as_seen(s: Store, game: str, entry: NoteEntry, viewer: str | None) -> NoteEntry:
    """A variation kept in `game` with its `lines` as the viewer saw its moves: the record keeps each line whole,
    the names of the cards drawn included, so another viewer is shown them decided again by the rules and through
    the visibility policy (the record, as kept: a variation today's rules refuse is still listed for it)."""
    from whispers.ledger.io.game import play_variation
    from whispers.projections.visibility import moves_seen, viewer_of

    if viewer_of(viewer).sees_all:
        return entry
    line, before = play_variation(s, game, entry)
    return {**entry, "lines": [text for _, text in moves_seen(line.events, viewer, before)]}


def keep_variation(store: Store | str | None, game: str, forked: str, name: str | None = None,
                   author: str | None = None) -> Variations:
    """The fork `forked` of `game` kept inside `game` as a variation (named after the fork unless `name`)."""
    from whispers.ledger.io.game import keep_variation as keep

    with opened(store) as s:
        return Variations(game, (keep(s, game, forked, name or forked, author),))


@dataclass(frozen=True, slots=True)
class VariationShown:
    """A variation replayed: its moves (event numbers in the variation's own line of play) and the game as it
    stands after event `at` of that line, as `viewer` knew it."""

    game: str
    name: str
    parted: int  # the game's events before the variation's first move
    moves: tuple[tuple[int, str], ...]
    at: int
    events: int
    status: Status

    def to_json(self) -> Data:
        return {"game": self.game, "variation": self.name, "parted": self.parted, "at": self.at,
                "events": self.events, "moves": [{"event": n, "move": m} for n, m in self.moves],
                "status": self.status.to_json()}


def variation(store: Store | str | None, game: str, name: str, at: int | None = None,
              viewer: str | None = None) -> VariationShown:
    """Variation `name` of `game` replayed by the rules, and the game as it stands at event `at` of that line
    (its end by default)."""
    from whispers.application.reading import status_of
    from whispers.ledger.core.errors import NoSuchEvent, StoreError
    from whispers.ledger.core.words import no_such_event
    from whispers.ledger.io.game import play_variation
    from whispers.ledger.io.game import variations as kept
    from whispers.projections.replay import Replay
    from whispers.projections.visibility import check_viewer, moves_seen

    with opened(store) as s:
        entry = next((v for v in kept(s, game) if v["variation"] == name), None)
        if entry is None:
            raise StoreError(say("{game} keeps no variation named {name} (whispers variation {game} lists them)",
                                 game=game, name=repr(name)))
        line, before = play_variation(s, game, entry)
    check_viewer(game, line.state.players, viewer)
    rep = Replay(line.events)
    at = len(rep) if at is None else at
    if not 1 <= at <= len(rep):
        raise NoSuchEvent(no_such_event(line.name, len(rep), at))
    moves = tuple(moves_seen(line.events, viewer, before))
    return VariationShown(game, name, before, moves, at, len(rep), status_of(rep.at(at), viewer))
