"""Following games as they change (the web's live updates) and labelling a replay's moves for a list.

A `Follower` reads the store's notification log, so a move recorded by any process (another server, a worker,
the CLI) is seen: on PostgreSQL it wakes at the NOTIFY every whispers process sends after it stores, elsewhere
(and as a fallback) it polls the log's head. Each change carries the new events, numbered by version, so a
viewer is sent each event exactly once, as it may see it (`event_json`, through the visibility policy)."""

from __future__ import annotations

import threading
import time
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

    def __init__(self, store: Store, poll_seconds: float, nudged: threading.Event | None = None) -> None:
        self._store = store
        self._position = store.head()
        self._wakeup = store.wakeup()
        self._poll = None if self._wakeup.listening else poll_seconds  # a NOTIFY needs no polling
        self.beside = False
        """Whether the last call met something stored beside the games' events (a note, a seat's dispute, links):
        the log says not whose, so a follower that cares asks the games it follows (web/live.py)."""
        self._nudged = nudged

    def changes(self, timeout: float) -> list[Change]:
        """What was stored since the last call: waits up to `timeout` (a NOTIFY ends the wait at once), polling
        the log's head every `poll_seconds` meanwhile (without NOTIFY); a poll's pause ends early when `nudged`
        is set (this process has just stored something: the log is read at once, not up to a poll later)."""
        waited = 0.0
        self.beside = False
        while True:
            head = self._store.head()
            if head != self._position:
                break
            if waited >= timeout:
                return []
            step = timeout - waited if self._poll is None else min(self._poll, timeout - waited)
            if self._poll is not None and self._nudged is not None:
                began = time.monotonic()
                self._nudged.wait(step)
                self._nudged.clear()  # set after the append it follows: the head read next sees that append
                waited += time.monotonic() - began
                continue
            self._wakeup.wait(step)
            waited += step
        read, spans = self._store.appended(self._position)
        # the log's head counts notes too, which `appended` passes over: followed up to the head, not only to the
        # last game event, else a note would keep the head ahead and every later call would return at once
        self.beside = head > read
        self._position = max(read, head)
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


def notes_count(store: Store | str | None, game: str) -> int:
    """How many entries the game's notes stream holds (its notes, their edits, a seat's disputes): a follower
    compares it to tell that the game's notes changed."""
    with opened(store) as s:
        return len(s.notes(game))


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
    """Each event of a replay in words, as its viewer saw it: a move's line in the reader's words (moves.said_line),
    an event of the engine's own described."""
    from whispers.application.moves import said_line
    from whispers.projections.visibility import event_words

    said = [(v, event_words(replayed.replay.event(v), replayed.viewer)) for v in range(1, len(replayed) + 1)]
    return [(v, words if words.startswith("·") else said_line(words)) for v, words in said]


def by_round(replayed: Replayed, labelled: list[tuple[int, str]] | None = None
             ) -> tuple[list[tuple[int, list[tuple[int, str]]]], int]:
    """The replay's events in words grouped by round (0: the setup, before round 1 begins), and the round the game
    stands in at the replay's event (0 before round 1 begins): the timeline of each round, for the replay page. The
    round is the standing record's: a take-back (an amendment's) back past a round's start leaves that round.
    `labelled`: the replay's move_labels, when the caller has them already (they are worded once a page)."""
    from whispers.ledger.core import events as ev
    from whispers.projections.replay import standing

    groups: dict[int, list[tuple[int, str]]] = {}
    round_ = 0
    for version, words in move_labels(replayed) if labelled is None else labelled:
        event = replayed.replay.event(version)
        if isinstance(event, ev.PhaseStarted):
            round_ = event.round
        groups.setdefault(round_, []).append((version, words))
    here = max((e.round for _v, e in standing(replayed.replay.events[:replayed.at]) if isinstance(e, ev.PhaseStarted)),
               default=0)
    return list(groups.items()), here


@dataclass(frozen=True, slots=True)
class Amendments:
    """Where a replay shows amendments (issue 32), by event number, so that a move list marks and links them. An
    amendment is public as a take-back is: every viewer sees that a move was corrected, and why."""

    markers: dict[int, int]
    """Each MoveAmended marker: the move it corrected."""
    originals: dict[int, int]
    """Each move corrected, as first recorded: its amendment's marker."""
    corrections: dict[int, int]
    """Each corrected move (the event after its marker): the marker."""
    undone: dict[int, int]
    """Each take-back an amendment made before its marker: the marker."""
    reasons: dict[int, str]
    """Each marker: the reason the amendment gave (typed by a person: shown as text)."""

    def first_undone(self, marker: int) -> int:
        """The first of the take-backs the amendment at `marker` made (they run up to the marker)."""
        return min((v for v, m in self.undone.items() if m == marker), default=marker)


def amendments(replayed: Replayed) -> Amendments:
    """The amendments of a replay's record, for its move list."""
    from whispers.ledger.core import events as ev

    markers = {version: event.move for version in range(1, len(replayed) + 1)
               if isinstance(event := replayed.replay.event(version), ev.MoveAmended)}
    amending = {marker: replayed.replay.event(marker) for marker in markers}
    return Amendments(markers, {move: marker for marker, move in markers.items()},
                      {marker + 1: marker for marker in markers if marker < len(replayed)},
                      {version: marker for marker, event in amending.items()
                       for version in range(marker - event.moves, marker)},  # type: ignore[attr-defined]
                      {marker: event.reason for marker, event in amending.items()})  # type: ignore[attr-defined]


def notes_by_event(replayed: Replayed) -> dict[int, list[str]]:
    """The text of the notes on each event (as they read now), for the move list."""
    found: dict[int, list[str]] = {}
    for note in replayed.notes:
        found.setdefault(note["at"], []).append(str(note.get("text", "")))
    return found
