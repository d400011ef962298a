"""Following games as they change (the web's live updates) and labelling a replay's moves for a list.

A `Follower` reads the store's notification log, so a move recorded by any process (another server, a worker,
the CLI) is seen: on PostgreSQL it wakes at the NOTIFY every whispers process sends after it stores, elsewhere
(and as a fallback) it polls the log's head. Each change carries the new events, numbered by version, so a
viewer is sent each event exactly once, as it may see it (`event_json`, through the visibility policy)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from whispers.application.stores import opened
from whispers.ledger.core.plain import Data

if TYPE_CHECKING:
    from whispers.application.review import Replayed
    from whispers.ledger.core.events import Event
    from whispers.ledger.io.store import Store


@dataclass(frozen=True, slots=True)
class Change:
    """New events of one game: `events` are (version, event), in order, ending at `version`."""

    game: str
    version: int
    events: tuple[tuple[int, Event], ...]

    @property
    def first(self) -> int:
        return self.events[0][0] if self.events else self.version + 1


class Follower:
    """One process's reader of a store's log (open it once; `changes` blocks, so a server calls it in a thread)."""

    def __init__(self, store: Store, poll_seconds: float) -> None:
        self._store = store
        self._position = store.head()
        self._wakeup = store.wakeup()
        self._poll = None if self._wakeup.listening else poll_seconds  # a NOTIFY needs no polling

    def changes(self, timeout: float) -> list[Change]:
        """What was stored since the last call: waits up to `timeout` (a NOTIFY ends the wait at once), polling
        the log's head every `poll_seconds` meanwhile (without NOTIFY)."""
        waited = 0.0
        while True:
            if self._store.head() != self._position:
                break
            if waited >= timeout:
                return []
            step = timeout - waited if self._poll is None else min(self._poll, timeout - waited)
            self._wakeup.wait(step)
            waited += step
        self._position, spans = self._store.appended(self._position)
        return [Change(game, last, events_between(self._store, game, first - 1, last))
                for game, (first, last) in spans.items()]

    def close(self) -> None:
        self._wakeup.close()


def events_between(store: Store | str | None, game: str, after: int, upto: int | None = None
                   ) -> tuple[tuple[int, Event], ...]:
    """The game's events after version `after` up to `upto` (or the last), numbered."""
    from whispers.ledger.core.events import read_facts

    with opened(store) as s:
        facts = s.facts_after(game, after, upto)
    return tuple(enumerate(read_facts(facts, game), start=after + 1))


def event_json(event: Event, viewer: str | None) -> Data:
    """An event as `viewer` may see it (None: the record, as the table sees it)."""
    from whispers.projections.visibility import event_view

    return event_view(event, viewer)


def version(store: Store | str | None, game: str) -> int:
    with opened(store) as s:
        return s.version(game)


def position(store: Store | str | None) -> int:
    """Where the store's notification log ends now: follow from here."""
    with opened(store) as s:
        return s.head()


def changed_since(store: Store | str | None, game: str, after: int) -> tuple[int, int | None]:
    """(the log's position read up to, the game's version if it changed after `after`, else None). The log is
    the store's, so a move recorded by another process (another server, the CLI) is seen too."""
    with opened(store) as s:
        read, names = s.changes(after)
        return read, (s.version(game) if game in names else None)


def move_labels(replayed: Replayed) -> list[tuple[int, str]]:
    """Each event of a replay in words, as its viewer saw it."""
    from whispers.projections.visibility import event_words

    return [(v, event_words(replayed.replay.event(v), replayed.viewer)) for v in range(1, len(replayed) + 1)]


def by_round(replayed: Replayed) -> tuple[list[tuple[int, list[tuple[int, str]]]], int]:
    """The replay's events in words grouped by round (0: the setup, before round 1 begins), and the round of the
    event the replay stands at: the timeline of each round, for the replay page."""
    from whispers.ledger.core import events as ev

    groups: dict[int, list[tuple[int, str]]] = {}
    round_ = here = 0
    for version, words in move_labels(replayed):
        event = replayed.replay.event(version)
        if isinstance(event, ev.PhaseStarted):
            round_ = event.round
        groups.setdefault(round_, []).append((version, words))
        if version == replayed.at:
            here = round_
    return list(groups.items()), here


def notes_by_event(replayed: Replayed) -> dict[int, list[str]]:
    """The text of the notes on each event (as they read now), for the move list."""
    found: dict[int, list[str]] = {}
    for note in replayed.notes:
        found.setdefault(note["at"], []).append(str(note.get("text", "")))
    return found
