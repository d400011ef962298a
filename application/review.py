"""Post-game review: replay (a game at any event, as a viewer knew it), stats, fork, diff, annotate, notes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from whispers.application.reading import notes_of
from whispers.application.stores import opened
from whispers.ledger.notes import TAGS

if TYPE_CHECKING:
    from whispers.ledger import events as ev
    from whispers.ledger.store import Store
    from whispers.projections.replay import Replay

__all__ = ["TAGS", "annotate", "diff", "fork", "notes", "replay", "stats"]


@dataclass(frozen=True, slots=True)
class Frame:
    """One event of a replay and the game after it, as `viewer` knew them."""

    version: int
    events: int  # how many the game has
    viewer: str | None
    event: ev.Event
    view: dict[str, Any]  # projections.visibility.state_view after the event
    notes: tuple[dict[str, Any], ...]  # the notes on this event
    label: str | None = None  # the move's label (projections/labels.py), None for the engine's own events

    def to_json(self) -> dict[str, Any]:
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
    notes: tuple[dict[str, Any], ...]
    warnings: tuple[str, ...] = ()
    labels: dict[int, str] = field(default_factory=dict)  # move labels by event number

    def __len__(self) -> int:
        return len(self.replay)

    def frame(self, version: int) -> Frame:
        from whispers.projections.visibility import state_view

        return Frame(version, len(self.replay), self.viewer, self.replay.event(version),
                     state_view(self.replay.at(version), self.viewer),
                     tuple(n for n in self.notes if n["at"] == version), self.labels.get(version))

    def to_json(self) -> dict[str, Any]:
        return self.frame(self.at).to_json()


def replay(store: Store | str | None, game: str, at: int | None = None, viewer: str | None = None) -> Replayed:
    from whispers.ledger.errors import NoSuchEvent
    from whispers.ledger.game import load
    from whispers.projections.replay import Replay
    from whispers.projections.visibility import check_viewer

    with opened(store) as s:
        record = load(s, game)
        found, warnings = notes_of(s, game)
    check_viewer(game, record.state.players, viewer)
    rep = Replay(record.events)
    at = len(rep) if at is None else at
    if not 1 <= at <= len(rep):
        raise NoSuchEvent(game, len(rep), at)
    from whispers.projections.labels import labels

    named = {version: str(label) for version, label in labels(record.events).items()}
    return Replayed(game, rep, viewer, at, tuple(found), warnings, named)


@dataclass(frozen=True, slots=True)
class Stats:
    data: dict[str, Any]  # projections.stats: game_stats, or across() with "read" for a whole store

    def to_json(self) -> dict[str, Any]:
        return self.data


def stats(store: Store | str | None, game: str) -> Stats:
    from whispers.ledger.game import load
    from whispers.projections.stats import game_stats

    with opened(store) as s:
        return Stats(game_stats(load(s, game).events))


def stats_across(store: Store | str | None, ruleset: str | None = None,
                 progress: Callable[[int, int], None] | None = None) -> Stats:
    """Figures across every game in the store (or those under one ruleset label), from the catalog of summaries
    (it reads only what the store gained since it last read); `progress(done, total)` as it reads games."""
    from whispers.projections.catalog import Catalog
    from whispers.projections.stats import across

    with opened(store) as s:
        catalog = Catalog(s)
        try:
            refreshed = catalog.refresh(progress)
            summaries = catalog.summaries()
        finally:
            catalog.close()
    return Stats({**across(summaries.values(), ruleset), "read": {"games": refreshed.games,
                                                                  "events": refreshed.events}})


@dataclass(frozen=True, slots=True)
class Forked:
    game: str
    parent: str
    at: int
    next: str  # who must act now, in words

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "fork_of": {"game": self.parent, "at": self.at}, "next": self.next}


def fork(store: Store | str | None, game: str, new: str, at: int) -> Forked:
    """A "what if": `new` starts as `game`'s first `at` events, marked as a fork of it."""
    from whispers.ledger.game import fork as fork_game
    from whispers.ledger.prompt import prompt

    with opened(store) as s:
        forked = fork_game(s, game, new, at)
    return Forked(new, game, at, prompt(forked.state).note)


@dataclass(frozen=True, slots=True)
class Diff:
    data: dict[str, Any]  # projections.forks.diff

    def to_json(self) -> dict[str, Any]:
        return self.data


def diff(store: Store | str | None, game: str, other: str) -> Diff:
    """Where two games part, and how their final scores differ."""
    from whispers.ledger.game import load
    from whispers.projections.forks import diff as diff_records

    with opened(store) as s:
        a, b = load(s, game), load(s, other)
    return Diff(diff_records(a.events, b.events, game, other))


@dataclass(frozen=True, slots=True)
class Annotated:
    game: str
    note: dict[str, Any]
    count: int  # notes on the game, this one included

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "note": self.note, "notes": self.count}


def annotate(store: Store | str | None, game: str, at: int, text: str, author: str | None = None,
             tag: str | None = None) -> Annotated:
    """A note on event `at`, kept in the game's own notes stream (the record is never reopened)."""
    from whispers.ledger.game import annotate as add_note

    with opened(store) as s:
        note = add_note(s, game, at, text, author, tag)
        count = len(s.notes(game))
    return Annotated(game, note, count)


@dataclass(frozen=True, slots=True)
class Notes:
    game: str
    notes: tuple[dict[str, Any], ...]
    on: tuple[ev.Event, ...]  # the event each note is on
    warnings: tuple[str, ...] = ()

    def to_json(self) -> list[dict[str, Any]]:
        return list(self.notes)


def notes(store: Store | str | None, game: str) -> Notes:
    """The well-formed notes on a game, each with the event it is on (a malformed old one is a warning)."""
    from whispers.ledger.game import load

    with opened(store) as s:
        found, warnings = notes_of(s, game)
        events = load(s, game).events if found else ()
    return Notes(game, tuple(found), tuple(events[n["at"] - 1] for n in found), warnings)
