"""The catalog's summary of a game (projections/catalog.game_summary) read in few passes is, byte for byte, the
summary made by folding the game and asking each projection on its own (as whispers made it before issue 12's
cold rebuild was made faster), over random games of every ruleset with take-backs, forks, descriptions, the
director's seal and a finished game reopened; and evolve.progress is the round and phase of the fold at every
version."""

from __future__ import annotations

import json
from typing import Any

import pytest

from whispers.ledger.core import commands as c
from whispers.ledger.core import events as ev
from whispers.ledger.core import rules
from whispers.ledger.core.evolve import evolve, fold, pinned, progress
from whispers.ledger.core.meta import of_events
from whispers.ledger.core.names import SOCIETIES
from whispers.ledger.core.randomgame import play as random_play
from whispers.ledger.core.state import GameState
from whispers.ledger.io.board_files import load_board
from whispers.ledger.io.ruleset_files import load_ruleset
from whispers.ledger.io.shipped import state_pins
from whispers.projections.catalog import game_summary
from whispers.projections.forks import fork_of
from whispers.projections.replay import final_scoring
from whispers.projections.standings import result_data, result_of
from whispers.projections.stats import summary

RULESETS = ("official", "advanced", "revised")


def folded_summary(name: str, events: list[ev.Event]) -> dict[str, Any]:
    """The summary as every pass made it on its own: a whole fold, then the figures, the scoring, the fork, the
    result and the table facts each from the record."""
    state = fold(events)
    ruleset, board = state_pins(state)
    scored = final_scoring(events)
    forked = fork_of(events)
    return {
        **summary(events),
        "game": name,
        "pins": {"ruleset": [ruleset.id, ruleset.hash], "board": [board.id, board.hash]},
        "round": state.round, "phase": state.phase, "ended": state.over,
        "won_by": None if scored is None else scored.winner, "events": len(events),
        "fork_of": None if forked is None else [forked.parent, forked.at],
        "result": result_data(result_of(events)),
        "meta": of_events(events).to_json(),
    }


def random_record(seed: int, undo_rate: float) -> tuple[list[ev.Event], GameState]:
    events: list[ev.Event] = []
    last = None
    for _, produced, state in random_play(SOCIETIES[: 2 + seed % 3], load_ruleset(RULESETS[seed % 3]),
                                          load_board("standin"), seed, name=f"s{seed}", undo_rate=undo_rate):
        events += produced
        last = state
    assert last is not None and last.over
    return events, last


def decided(events: list[ev.Event], state: GameState, command: c.Command) -> GameState:
    produced = rules.decide(state, command)
    for event in produced:
        state = evolve(state, event)
    events += produced
    return state


def described(seed: int) -> ev.GameDescribed:
    return ev.GameDescribed({"title": f"Table {seed}", "tags": ["cup", f"r{seed % 3}"],
                             "seats": {SOCIETIES[0]: "Ann"}}, "2026-01-02T03:04:05Z")


def records(seed: int) -> list[tuple[str, list[ev.Event]]]:
    """A finished record, the same cut short, one forked and described, one sealed, reopened and taken back."""
    events, state = random_record(seed, 0.15 if seed % 2 else 0.0)
    cut = len(events) * (1 + seed % 4) // 5
    found = [("finished", events), ("cut", events[:cut])]
    forked = [events[0], ev.GameForked("parent", 7, "sha256:00"), *events[1:cut], described(seed),
              *events[cut:]]
    found.append(("forked", forked))
    sealed = list(events)
    after = decided(sealed, state, c.Finalize("director", "checked"))
    found.append(("sealed", list(sealed)))
    after = decided(sealed, after, c.Reopen("director", "a slip"))
    sealed.append(described(seed + 1))
    decided(sealed, after, c.Undo("the last move again", reopen=True))
    found.append(("reopened", sealed))
    return found


@pytest.mark.parametrize("seed", range(12))
def test_the_summary_read_in_few_passes_is_the_folded_one_byte_for_byte(seed):
    for kind, events in records(seed):
        name = f"g{seed}-{kind}"
        assert json.dumps(game_summary(name, events)) == json.dumps(folded_summary(name, events)), kind


@pytest.mark.parametrize(("seed", "undo_rate"), [(1, 0.3), (5, 0.3), (6, 0.3), (2, 0.0), (7, 0.0)])
def test_progress_is_the_round_and_phase_of_the_fold_at_every_version(seed, undo_rate):
    events, _ = random_record(seed, undo_rate)
    assert any(isinstance(e, ev.MoveTakenBack) for e in events) == bool(undo_rate)
    state = None
    for version, event in enumerate(events, start=1):
        state = evolve(state, event)
        assert progress(events[:version]) == (state.round, state.phase), version
    board, ruleset = pinned(events[0])
    assert board is state.board and ruleset is state.ruleset


@pytest.mark.parametrize("seeds", [range(0, 4), range(4, 8)])
def test_the_catalog_rebuilt_from_a_store_holds_the_folded_summaries_byte_for_byte(seeds, tmp_path):
    """A cold rebuild reads most events as stand-ins of their type (catalog.READ_WHOLE): each summary it keeps is
    still the one folded from the game read whole."""
    from msgspec.json import encode

    from whispers.ledger.io.store import open_store
    from whispers.projections.catalog import PROJECTION, Catalog

    with open_store(str(tmp_path / "store.sqlite")) as store:
        for seed in seeds:
            for kind, events in records(seed):
                name = f"g{seed}-{kind}"
                store.create(name, [{**events[0].to_fact(), "name": name}, *[e.to_fact() for e in events[1:]]])
        Catalog(store).refresh()
        kept = dict(store.read_model(PROJECTION))
        assert len(kept) == 5 * len(seeds)
        for name, data in kept.items():
            written = json.loads(data)["written"]
            assert data == encode({**folded_summary(name, store.events(name)), "written": written}).decode(), name
