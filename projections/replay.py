"""Replay: a game's state at every version, folded once, with an index for jumping around.

Reaching version N is a list lookup, not a fold from event 1: a stepper going back and forth through a
game costs one fold in all.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field

from whispers.ledger.core import events as ev
from whispers.ledger.core.evolve import evolve
from whispers.ledger.core.state import GameState


@dataclass
class Replay:
    events: tuple[ev.Event, ...]
    states: list[GameState] = field(default_factory=list)

    def __post_init__(self) -> None:
        state: GameState | None = None
        for event in self.events:
            state = evolve(state, event)
            self.states.append(state)

    def __len__(self) -> int:
        return len(self.events)

    def at(self, version: int) -> GameState:
        """The state after event `version` (1-based)."""
        if not 1 <= version <= len(self.events):
            raise IndexError(f"there is no event {version}: the record has events 1 to {len(self.events)}")
        return self.states[version - 1]

    def event(self, version: int) -> ev.Event:
        return self.events[version - 1]

    def label(self, version: int) -> str:
        """Where event `version` stands, for people (see move_label)."""
        return move_label(self.events, version, self.at(version))

    def round_start(self, round_: int) -> int | None:
        """The version at which round `round_` begins."""
        for version, event in enumerate(self.events, start=1):
            if isinstance(event, ev.PhaseStarted) and event.round == round_:
                return version
        return None

    def empire_turn(self, empire: str, round_: int | None = None) -> int | None:
        """The version at which `empire`'s turn begins (in `round_`, or the first after the current round)."""
        for version, event in enumerate(self.events, start=1):
            if (isinstance(event, ev.EmpireTurnStarted) and event.empire == empire
                    and (round_ is None or self.states[version - 1].round == round_)):
                return version
        return None


def move_label(events: tuple[ev.Event, ...] | list[ev.Event], version: int, state: GameState) -> str:
    """Where event `version` stands, for people: `#12 R2 bear.marshal` (the moves played up to it, counted from
    1, the round, and the office it was played at in an empire turn, else the phase: `#3 R1 deploy`). `state`
    is the game after the event. Events before the first move have no number (`R1 setup`)."""
    from whispers.ledger.core.notation import format_event

    moves = sum(1 for event in events[:version] if format_event(event) is not None)
    event = events[version - 1]
    where = getattr(event, "at", None)
    if not isinstance(where, str) and getattr(event, "empire", None) and getattr(event, "office", None):
        where = f"{event.empire}.{event.office}"  # type: ignore[attr-defined]
    place = where if isinstance(where, str) else state.phase
    return f"{f'#{moves} ' if moves else ''}R{state.round} {place}"


def standing(events: Sequence[ev.Event]) -> list[tuple[int, ev.Event]]:
    """(version, event) of the events still standing: a take-back removes the move it took back and
    everything the engine recorded after it (the take-back itself is not standing either)."""
    if ev.MoveTakenBack not in map(type, events):  # most records (a scan at C speed): all of it stands
        return list(enumerate(events, start=1))
    kept: list[tuple[int, ev.Event]] = []
    for version, event in enumerate(events, start=1):
        if isinstance(event, ev.MoveTakenBack):
            while kept and kept[-1][0] >= event.move:
                kept.pop()
        else:
            kept.append((version, event))
    return kept


def standing_events(events: Sequence[ev.Event]) -> list[ev.Event]:
    """The events still standing (`standing`'s, without their versions): a copy of the record when it holds no
    take-back, without a (version, event) pair per event as a cold catalog reads every game."""
    if ev.MoveTakenBack not in map(type, events):
        return list(events)
    return [e for _, e in standing(events)]


def final_scoring(events: Sequence[ev.Event]) -> ev.GameScored | None:
    """The game's final scoring if it still stands (None for a game in progress, or reopened by a take-back).
    Every read of a result goes through here, never through the raw record."""
    return next((e for e in reversed(standing_events(events)) if isinstance(e, ev.GameScored)), None)
