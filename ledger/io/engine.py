"""The one path from a move to its events and the state after them: the rules engine decides against the shipped
decree catalogue, and its events are folded on (a state from a snapshot kept marked as cut, ledger/io/snapshots.py).

Recording (game.play), a notation file replayed (game.replay_lines), a variation (game.play_variation), a fork
(game.fork) and a record verified (verify.py) all go through here, so what `verify` accepts is what recording
records. The engine and the catalogue are imported when a move is decided, so that reading a game starts without
them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from whispers.ledger.core import commands as c
    from whispers.ledger.core import events as ev
    from whispers.ledger.core.state import GameState


def decide(state: GameState, command: c.Command) -> list[ev.Event]:
    """The events of a legal move and its automatic consequences; RuleError if the move is illegal."""
    from whispers.ledger.core import rules
    from whispers.ledger.io.decree_files import shipped_catalogue

    return rules.decide(state, command, shipped_catalogue())


def fold(state: GameState, events: Iterable[ev.Event]) -> GameState:
    """`state` with `events` applied. A take-back needs the state's earlier states: one from a snapshot that
    lacks them is replayed first (game.play does)."""
    from whispers.ledger.io.snapshots import fold_on

    after = fold_on(state, events)
    assert after is not None, "a take-back from a snapshot's state without its earlier states: replay it first"
    return after


def step(state: GameState, command: c.Command) -> tuple[GameState, list[ev.Event]]:
    """The move decided and folded: (the state after it, its events)."""
    produced = decide(state, command)
    return fold(state, produced), produced


def automatic(state: GameState) -> list[ev.Event]:
    """What the engine records on its own from `state` (a record cut mid-move goes on from there)."""
    from whispers.ledger.core import rules

    return rules.advance(state)


def forked(state: GameState, marker: ev.GameForked) -> list[ev.Event]:
    """A fork's marker and what the engine records on its own after it (a fork taken mid-move)."""
    from whispers.ledger.core.evolve import evolve

    return [marker, *automatic(evolve(state, marker))]


def closed(state: GameState) -> list[ev.Event]:
    """What follows when the window after an empire's last order closes without a move of its own."""
    from whispers.ledger.core import rules

    return rules.advance(state, close=True)
