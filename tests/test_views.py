"""Per-player views as a security property: tested as an attacker would, over random games.

For every society and every version of each game, the view and the event shown at that version are
serialised, then searched for anything the society could not know: another society's unrevealed loyalty
token, or the name of a card in another society's hand.
"""

import json
from typing import Any

import pytest

from ledger import randomgame
from ledger.board import load_board
from ledger.names import SLOTS, SOCIETIES
from ledger.ruleset import load_ruleset
from ledger.state import GameState
from projections.replay import Replay
from projections.views import event_view, secrets_hidden_from, state_view

BOARD = load_board("standin")
RULESETS = [load_ruleset(r) for r in ("official", "advanced", "revised")]
GAMES = 200


def leaves(node: Any, path: tuple = ()) -> list[tuple[tuple, Any, Any]]:
    """Every (path, key, value) in a JSON-like tree."""
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, dict | list):
                found += leaves(value, (*path, key))
            else:
                found.append((path, key, value))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += leaves(value, (*path, index))
            if not isinstance(value, dict | list):
                found.append((path, index, value))
    return found


def assert_no_leak(view: dict[str, Any], state: GameState, viewer: str) -> None:
    hidden_tokens, hidden_cards = secrets_hidden_from(state, viewer)
    text = json.dumps(view)
    for card in hidden_cards:
        assert f'"{card}"' not in text, f"{viewer} sees {card} in another hand"
    for path, key, value in leaves(view):
        if key in SLOTS and value in BOARD.empires and state.phase not in ("reveal", "over"):
            # a slot -> empire pair may only be the viewer's own, or a token its owner revealed
            if path[:2] == ("loyalty", viewer):
                continue
            if path[:1] == ("event",) and (view["event"].get("society") == viewer or "hidden" not in view["event"]):
                continue  # the viewer's own event, or a public one (a swap's reveal, the final reveal)
            if len(path) == 3 and path[0] == "loyalty" and path[2] == "revealed":
                owner = path[1]
                assert state.loyalty[owner].revealed.get(key) == value
                continue
            assert (path[1] if len(path) > 1 else None, key, value) not in hidden_tokens
            raise AssertionError(f"{viewer} sees a loyalty token at {path}: {key}={value}")
    for other, slot, empire in hidden_tokens:
        shown = view["loyalty"][other]
        assert shown["tokens"] is None, f"{viewer} sees {other}'s tokens"
        assert shown["revealed"].get(slot) != empire


@pytest.mark.parametrize("chunk", range(4))
def test_no_view_leaks_a_secret(chunk: int) -> None:
    """200 random games; for each society and each version, the view and the event shown there."""
    per_chunk = GAMES // 4
    for seed in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        players = SOCIETIES[: 2 + seed % 3]
        events = []
        for _, produced, _ in randomgame.play(players, RULESETS[seed % 3], BOARD, seed=seed, undo_rate=0.02):
            events.extend(produced)
        replay = Replay(tuple(events))
        for version in range(1, len(replay) + 1):
            state = replay.at(version)
            for viewer in players:
                view = state_view(state, viewer)
                view["event"] = event_view(replay.event(version), viewer)
                assert_no_leak(view, state, viewer)


def test_the_attack_would_catch_a_leak() -> None:
    """The check above is not vacuous: the all-seeing view of a mid-game state fails it."""
    events = []
    for _, produced, _ in randomgame.play(SOCIETIES, RULESETS[0], BOARD, seed=5):
        events.extend(produced)
    replay = Replay(tuple(events))
    state = next(s for s in replay.states if secrets_hidden_from(s, "raven")[0])
    with pytest.raises(AssertionError):
        assert_no_leak(state_view(state, None), state, "raven")


def test_a_sealed_set_is_unknown_even_to_the_record() -> None:
    events = []
    seed = next(s for s in range(100) if _has_sealed(s))
    for _, produced, _ in randomgame.play(SOCIETIES, RULESETS[0], BOARD, seed=seed):
        events.extend(produced)
    replay = Replay(tuple(events))
    mid = replay.at(len(replay) // 2)
    sealed = [s for s in SOCIETIES if mid.loyalty[s].tokens is None]
    assert sealed
    for society in sealed:
        assert state_view(mid, None)["loyalty"][society]["tokens"] is None
        assert state_view(mid, society)["loyalty"][society]["tokens"] is None


def _has_sealed(seed: int) -> bool:
    for _, _, state in randomgame.play(SOCIETIES, RULESETS[0], BOARD, seed=seed):
        if state.phase != "setup":
            return any(lo.tokens is None for lo in state.loyalty.values())
    return False
