"""Swap Agent on a board of its own (tests/data/boards/swaps.toml), whose swap sits on the Bear Sheriff, the Eagle
Steward and the Elephant Marshal rather than the Chancellor: the targets (legal.swap_targets) are every other office
of the council but the swapping agent's own seat, whichever office offers the swap (issue 31's blind spot: the
shipped councils offer it on the Chancellor only, where the last office and the agent's seat coincide)."""

from functools import cache
from pathlib import Path

import pytest
from support import PLAYERS, apply, assert_refused, at_office, one, ruleset_of, setup_done
from test_rules import options

from whispers.ledger.core import events as ev
from whispers.ledger.core import rules
from whispers.ledger.core.board import Board
from whispers.ledger.core.state import GameState
from whispers.ledger.io.board_files import load_board_file

BOARD = Path(__file__).parent / "data" / "boards" / "swaps.toml"


@cache
def swaps_board() -> Board:
    return load_board_file(BOARD)


def swaps_state(empire: str, office: str, council: dict[str, str], ruleset: str = "official") -> GameState:
    started = rules.start("swaps", PLAYERS, None, ruleset_of(ruleset), swaps_board())
    state = setup_done(rules.evolve(None, started))
    return at_office(state, empire, office, council={**council, "horse.sheriff": "serpent"})


def targets(state: GameState) -> tuple[str, ...]:
    (option,) = options(state, "swap-agent")
    return option.choices["targets"]


def test_the_board_offers_the_swap_off_the_chancellor() -> None:
    council = swaps_board().council
    assert "swap_agent" in council["bear"]["sheriff"] and "swap_agent" in council["eagle"]["steward"]
    assert "swap_agent" in council["elephant"]["marshal"]
    assert not any("swap_agent" in orders for orders in council["horse"].values())


def test_official_swap_from_the_sheriff_may_reach_every_other_office_the_chancellor_too_EN_swap_agent_action() -> None:
    """EN "Swap Agent Action": "Swap this agent with any other position within this council"; FR: "même occupé",
    so an empty one too (digest §8.10-11). From the Sheriff, the Chancellor is one of the other positions."""
    state = swaps_state("bear", "sheriff", {"bear.sheriff": "raven", "bear.marshal": "spider"})
    assert targets(state) == ("steward", "marshal", "chancellor")
    assert_refused(state, "raven swap-agent sheriff", "cannot swap to the bear sheriff", rule="EN Swap Agent")
    after, events = apply(state, "raven swap-agent chancellor")
    swapped = one(events, ev.AgentSwapped)
    assert (swapped.office, swapped.target, swapped.displaced) == ("sheriff", "chancellor", None)
    assert after.council[("bear", "chancellor")] == "raven" and ("bear", "sheriff") not in after.council
    assert {o.choices["at"] for o in rules.prompt(after).options if o.verb != "play"} == {"bear.chancellor"}


def test_official_swap_at_an_empty_steward_moves_the_agent_controlling_it_EN_swap_agent_action() -> None:
    """An empty office is controlled by the next agent after it (EN "Council Positions"): at the empty Eagle
    Steward raven's agent on the Marshal swaps, so the Steward is a target and the Marshal, its own seat, is not."""
    state = swaps_state("eagle", "steward", {"eagle.marshal": "raven", "eagle.chancellor": "spider"})
    assert targets(state) == ("sheriff", "steward", "chancellor")
    after, events = apply(state, "raven swap-agent chancellor")
    assert one(events, ev.AgentSwapped).displaced == "spider"
    assert after.council[("eagle", "chancellor")] == "raven" and after.council[("eagle", "marshal")] == "spider"


@pytest.mark.parametrize("empire, office, council, wanted", [
    ("bear", "sheriff", {"bear.sheriff": "raven", "bear.marshal": "spider", "bear.chancellor": "rat"},
     ("marshal", "chancellor")),
    ("eagle", "steward", {"eagle.steward": "raven", "eagle.marshal": "spider", "eagle.chancellor": "rat"},
     ("marshal", "chancellor")),
    ("elephant", "marshal", {"elephant.sheriff": "spider", "elephant.marshal": "raven", "elephant.chancellor": "rat"},
     ("sheriff", "chancellor")),
    ("bear", "sheriff", {"bear.sheriff": "raven", "bear.steward": "rat"}, ("steward",)),  # an empty Chancellor too
])
def test_revised_swap_off_the_chancellor_reaches_only_other_agents_of_the_council_REV_chancellor(
        empire: str, office: str, council: dict[str, str], wanted: tuple[str, ...]) -> None:
    """REV "Council orders", Chancellor B: "Switch your agent ... with an other political agent manipulating this
    council", from whichever office the board puts the order on: an empty office is no target."""
    state = swaps_state(empire, office, council, ruleset="revised")
    assert targets(state) == wanted
    after, events = apply(state, f"raven swap-agent {wanted[-1]}")
    assert one(events, ev.AgentSwapped).displaced == "rat" and after.council[(empire, wanted[-1])] == "raven"


def random_game(seed: int) -> tuple[list[ev.Event], GameState]:
    """A game of the engine's own legal moves (ledger/core/randomgame.py) played to the end on the swaps board, banners
    counted after every move."""
    from whispers.ledger.core import randomgame
    from whispers.ledger.core.names import BANNERS_PER_EMPIRE, SOCIETIES
    from whispers.ledger.io.decree_files import shipped_catalogue

    ruleset = ruleset_of(("official", "advanced", "revised")[seed % 3])
    events: list[ev.Event] = []
    state = None
    for _, produced, state in randomgame.play(SOCIETIES[: 2 + seed % 3], ruleset, swaps_board(), seed,
                                              undo_rate=0.02, catalogue=shipped_catalogue()):
        events.extend(produced)
        for empire in state.board.empires:
            on_board = sum(n for e, n in state.banners.values() if e == empire)
            assert on_board + state.reserve[empire] == BANNERS_PER_EMPIRE
    assert state is not None
    return events, state


@pytest.mark.parametrize("seed", range(12))
def test_random_legal_games_on_the_swaps_board_end_conserve_banners_and_replay_to_the_live_state(seed: int) -> None:
    events, state = random_game(seed)
    assert state.over and state.board.id == "swaps"
    assert rules.fold(events) == state


def test_the_random_games_on_the_swaps_board_swap_from_offices_other_than_the_chancellor() -> None:
    swapped = {e.office for seed in range(12) for e in random_game(seed)[0] if isinstance(e, ev.AgentSwapped)}
    assert swapped - {"chancellor"}, swapped
