"""The playouts' speed-ups (issue 34) change nothing the engine decides: a map's control derived from the last one
kept is the one counted over the board, a prompt without its note lists the same moves, and the greedy policy weighs
the moves that can change its value (ledger/core/rollout.py, docs/analysis.md "The playout policy")."""

import random

import msgspec
import pytest
from sizes import sized

from whispers.ledger.core import commands as c
from whispers.ledger.core import randomgame, rollout, rules
from whispers.ledger.core import state as state_module
from whispers.ledger.core.names import SOCIETIES
from whispers.ledger.io.board_files import load_board
from whispers.ledger.io.decree_files import shipped_catalogue
from whispers.ledger.io.ruleset_files import load_ruleset

GAMES = sized(8, 200)
"""Random games per ruleset below: 8 in the default run, 200 with `pytest --slow` (or WHISPERS_SLOW=1)."""


def _states(ruleset: str, games: int):
    """Every state of `games` random games (card plays and take-backs included), in order."""
    catalogue = shipped_catalogue()
    for seed in range(games):
        for _, _, state in randomgame.play(SOCIETIES[: 2 + seed % 3], load_ruleset(ruleset), load_board("standin"),
                                           seed, cards=True, undo_rate=0.02, catalogue=catalogue if seed % 2 else None):
            yield state


@pytest.mark.parametrize("ruleset", ["official", "advanced", "revised"])
def test_a_maps_control_derived_from_the_last_one_kept_is_the_one_counted_over_the_board(ruleset, monkeypatch):
    """EN "Empire Control": the empire with banners in a region controls it, else its home empire. The control the
    rules read (`state.control`) is derived from the last map kept when the two differ in a few regions; it must
    be what counting the whole board gives, at every state of the games (and the derivation must have been used)."""
    derived = []
    plain = state_module._derived

    def counting(*args):
        found = plain(*args)
        derived.append(found is not None)
        return found

    monkeypatch.setattr(state_module, "_derived", counting)
    for state in _states(ruleset, GAMES):
        assert state_module.control(state.board, state.banners) == state_module.counted_control(state.board,
                                                                                                state.banners)
    assert sum(derived) > len(derived) // 2


@pytest.mark.parametrize("ruleset", ["official", "revised"])
def test_a_prompt_without_its_note_lists_the_same_moves(ruleset):
    for state in _states(ruleset, GAMES):
        full = rules.prompt(state)
        assert rules.prompt(state, noted=False) == msgspec.structs.replace(full, note="")
        assert full.note


def _official_states():
    for state in _states("official", 2):
        if not state.over:
            yield state


def test_the_greedy_policy_weighs_only_moves_that_can_change_its_value(monkeypatch):
    """Moves of a kind that leaves the board, the field agents and the mover's tokens as they are (a council deploy
    or retrieval, a draw, an agent swap, a pass, no-card, a discard), or recruits of one order that differ only in
    where the banners go, are played without the look-ahead; an attack, a recruit beside another kind of move, a
    loyalty swap, an agent put in or taken from a region are weighed by it."""
    decided = []
    plain = rules.decided

    def counting(state, command, catalogue=None):
        decided.append(command)
        return plain(state, command, catalogue)

    monkeypatch.setattr(rules, "decided", counting)
    weighed = unweighed = 0
    for i, state in enumerate(_official_states()):
        decided.clear()
        rng = random.Random(i)
        command, made = rollout.greedy(state, rng)
        if made is None:
            assert decided == []
            continue
        assert decided and any(not rollout.quiet(cmd) for cmd in decided)
        assert made == plain(state, command)  # what the policy decided is what the engine decides of its move
        weighed += 1
        unweighed += all(rollout.quiet(cmd) for cmd in decided)
    assert weighed > 0 and unweighed == 0
    assert rollout.quiet(c.Deploy("raven", "bear.marshal")) and not rollout.quiet(c.Deploy("raven", "north"))
    assert not rollout.quiet(c.Attack("raven", "a", "b", 1, at="bear.marshal"))
    recruit = c.Recruit("raven", {"a": 2}, order="recruit_2", at="bear.marshal")
    assert rollout.alike(recruit, [c.Recruit("raven", {"a": 1, "b": 1}, order="recruit_2", at="bear.marshal")])
    assert not rollout.alike(recruit, [c.Draw("raven", (), order="draw_1", at="bear.marshal")])
    assert not rollout.alike(c.Draw("raven", (), order="draw_1", at="bear.marshal"), [recruit])
    assert rollout.alike(c.Draw("raven", (), order="draw_1", at="bear.marshal"), [c.SwapAgent("raven", "sheriff")])
