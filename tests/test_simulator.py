"""The playouts' simulator (ledger/core/simulator.py, issue 34) is the engine, faster: over random no-card games of
each ruleset, at every position inside its domain, the same legal moves, the same random move from the same
generator, and the same state after it; and a playout with it has the outcome the engine's own playout has, for both
policies, from the positions of the bundled games."""

import random
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from sizes import sized

from whispers.application import analysis
from whispers.ledger.core import commands as c
from whispers.ledger.core import randomgame, rollout, rules
from whispers.ledger.core.board import Board
from whispers.ledger.core.errors import RuleError
from whispers.ledger.core.names import SOCIETIES
from whispers.ledger.core.ruleset import Ruleset
from whispers.ledger.core.simulator import Simulator
from whispers.ledger.core.state import GameState, Loyalty
from whispers.ledger.io.board_files import load_board
from whispers.ledger.io.game import import_lines
from whispers.ledger.io.ruleset_files import load_ruleset
from whispers.ledger.io.store import open_store
from whispers.projections.analysis import sampled

RULESETS = ("official", "advanced", "revised")
VERBS = ("retrieve", "deploy", "recruit", "draw", "attack", "swap-agent", "no-card", "discard", "swap-loyalty", "pass",
         "reveal")
"""The moves of a no-card game past its setup: the random games must reach every one (the rare ones with --slow)."""
GAMES = sized(6, 1000)
"""Random no-card games of each ruleset (2, 3 and 4 players in turn), each followed on the simulator from its first
position past the setup: 6 by default, the issue's 1,000 with --slow."""
BOOKKEEPING = ("version", "moves", "prior", "move_number", "move_place", "placed")
"""The record's bookkeeping in a state: which events and moves made it (a take-back's way back, the moves' numbers
and places). The simulator keeps no record, so these are the loaded state's; no rule reads them."""
GAME_FILES = Path(__file__).resolve().parent.parent / "fixtures" / "games"


def assert_same(simulated: GameState, engine: GameState) -> None:
    """Every field of the two states equal but the bookkeeping, and the mappings the rules iterate in the same order
    (an attack's sources are listed in the banners' order, a retrieval's places in the council's, a discard's cards
    in the hand's)."""
    differ = [name for name in GameState.__struct_fields__
              if name not in BOOKKEEPING and getattr(simulated, name) != getattr(engine, name)]
    assert not differ, {name: (getattr(simulated, name), getattr(engine, name)) for name in differ}
    assert list(simulated.banners) == list(engine.banners)
    assert list(simulated.council) == list(engine.council)
    assert list(simulated.loyalty) == list(engine.loyalty)
    assert [list(h.counts) for h in simulated.hands.values()] == [list(h.counts) for h in engine.hands.values()]
    assert [(list(lo.tokens or ()), list(lo.revealed)) for lo in simulated.loyalty.values()] == [
        (list(lo.tokens or ()), list(lo.revealed)) for lo in engine.loyalty.values()]


def _no_card_options(state: GameState) -> tuple[rules.Option, ...]:
    return tuple(o for o in rules.prompt(state, noted=False).options if o.verb != "play")


def _game(ruleset: Ruleset, board: Board, seed: int) -> Iterator[tuple[c.Command | None, GameState]]:
    """`randomgame.play(..., cards=False)`'s game of `seed` (2 to 4 players in turn), as (command, state after) pairs.
    Under a ruleset that deals distinct devout sets (REV "Setup") its random setup seals no set, so in every other game
    the first society to record its tokens seals them instead, and the sealed set is revealed at the end too (where the
    rules refuse the random reveal, its devout empire as placed at setup another set's, the game stops there)."""
    players = SOCIETIES[: 2 + seed % 3]
    if not ruleset.distinct_devout or seed % 2:
        for command, _events, state in randomgame.play(players, ruleset, board, seed, cards=False):
            yield command, state
        return
    rng = random.Random(seed)
    state = rules.evolve(None, rules.start("random", players, rng.choice(players), ruleset, board))
    yield None, state
    while not state.over:
        command = randomgame.random_command(state, rng, cards=False)
        if isinstance(command, c.RecordLoyalty) and not state.loyalty:
            command = c.RecordLoyalty(command.society, None)
        try:
            _events, state = rules.decided(state, command)
        except RuleError:
            assert isinstance(command, c.Reveal)
            return
        yield command, state


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_simulator_plays_random_games_as_the_engine_does(ruleset):
    """Random no-card games (`_game`, 2 to 4 players on the stand-in board) followed on the simulator: at every
    position the engine waits at inside its domain, loaded afresh and as the simulator has played it since it was
    first loaded, the same options as the engine's prompt (EN "Gameplay Overview": who acts and which moves are legal;
    the card plays aside), the same random move drawing the same numbers from a generator, the greedy policy's value
    of the position (bit for bit) and its choice of move, its look-ahead's value of a random move (bit for bit) and
    the state that leaves, and after the game's move the same state as the engine's
    (EN "Empire Turns Phase", "Checking Supply", "Cleanup Phase", "Swap Phase", "Mark the Turn", "Final Scoring"; REV
    "Phase 3: Year end", "Setup": distinct devout sets at the reveal)."""
    board, rules_ = load_board("standin"), load_ruleset(ruleset)
    checked = ended = followed = finished = 0
    seen: set[str] = set()
    for seed in range(GAMES):
        sim: Simulator | None = None
        for command, state in _game(rules_, board, seed):
            if sim is not None and command is not None:
                move = sim.move(command)
                assert sim.to_command(move) == command
                sim.apply(move)
                assert_same(sim.to_state(), state)
                ended += sim.ended
            if state.over:
                break
            loaded = Simulator.load(state)
            if loaded is None:
                assert sim is None  # once in the domain, a no-card game stays in it
                continue
            assert_same(loaded.to_state(), state)
            if sim is None:
                sim = loaded.copy()
                followed += 1
            offered = _no_card_options(state)
            seen.update(option.verb for option in offered)
            actors = tuple(state.players.index(s) for s in rules.prompt(state, noted=False).actors)
            for here in (loaded, sim):
                assert here.options() == offered
                assert here.actors() == actors
                mine, theirs = random.Random(f"{seed}/{checked}"), random.Random(f"{seed}/{checked}")
                expected = randomgame.random_command(state, theirs, cards=False)
                assert here.to_command(here.random_move(mine)) == expected
                assert mine.getstate() == theirs.getstate()
            for society in state.players:  # bit for bit: ties between the greedy policy's candidates decide
                assert sim.value(sim.t.players_at[society]) == rollout.value(state, society)
            mine, theirs = random.Random(checked), random.Random(checked)
            try:
                chosen, _made = rollout.greedy(state, theirs)
            except RuleError:  # its first draw a reveal the rules refuse (REV "Setup")
                with pytest.raises(RuleError):
                    rollout.simulated_greedy(loaded.copy(), mine)
            else:
                move, _made = rollout.simulated_greedy(loaded.copy(), mine)
                assert loaded.to_command(move) == chosen and mine.getstate() == theirs.getstate()
            move = loaded.random_move(random.Random(checked))
            checked += 1
            try:
                _events, after = rules.decided(state, loaded.to_command(move))
            except RuleError:  # a random reveal of a devout empire another set holds (REV "Setup")
                with pytest.raises(RuleError):
                    loaded.apply(move)
                continue
            worth, made = loaded.weigh(move, move[1])  # the look-ahead's value, read without playing where it can be
            assert worth == rollout.value(after, state.players[move[1]])
            if made is not None:
                assert_same(made.settled().to_state(), after)
            loaded.apply(move)
            assert_same(loaded.to_state(), after)
        finished += state.over
    assert checked > 90 * GAMES and followed == GAMES and ended == finished >= 0.9 * GAMES
    rare = {"discard", "reveal"} if GAMES < 100 else set()  # a hand over the limit, a set sealed to the end
    assert seen >= set(VERBS) - rare


def test_the_domain_leaves_out_setup_committed_sets_and_lasting_cards():
    """A position at setup (EN "Setup: Loyalty"), one with a set sealed by a commitment (its reveal needs the salt
    only its seat holds), and one where a card's effect lasts (REV 353, 355) are the engine's alone; a set sealed
    without a commitment is in the domain (revealed at random at the end, as the random games reveal it)."""
    board, rules_ = load_board("standin"), load_ruleset("revised")
    state = rules.evolve(None, rules.start("g", SOCIETIES[:2], None, rules_, board))
    assert Simulator.load(state) is None
    _, state = rules.decided(state, c.RecordLoyalty("raven", None, commitment="sha256:" + "0" * 64))
    assert Simulator.load(state) is None
    _, state = rules.decided(state, c.RecordLoyalty("spider", randomgame.random_tokens(random.Random(1), board)))
    assert state.phase == "deploy" and Simulator.load(state) is None
    sealed = msgspec.structs.replace(state, loyalty={**state.loyalty, "raven": Loyalty(None, {})})
    assert Simulator.load(sealed) is not None
    assert Simulator.load(msgspec.structs.replace(sealed, lasting=("bountiful-harvest",))) is None


def _bundled_positions():
    """The positions after every move of each bundled game, as the record knew them (the analysis's)."""
    for path in sorted(GAME_FILES.glob("*.txt")):
        game = import_lines(open_store("memory:"), "g", path.read_text(encoding="utf-8").splitlines())
        for position in analysis.positions(game.events, None):
            yield path.stem, position


PLAYOUT_EVERY = sized(6, 1)
"""Every how many positions of the bundled games a playout is compared (each with its own seeds)."""
PLAYOUT_SEEDS = sized(1, 3)


@pytest.mark.parametrize("policy", ["uniform", "greedy"])
def test_a_playout_with_the_simulator_has_the_engines_outcome(policy):
    """From positions of the bundled games, sampled as the analysis samples them, the same seed gives the same
    outcome (each society's share of the win, its final score, the moves played) with the simulator as with the
    engine alone: the analyses stored under a policy's version stay valid."""
    chooser = rollout.POLICIES[policy]
    compared = simulated = 0
    for i, (name, position) in enumerate(_bundled_positions()):
        if i % PLAYOUT_EVERY:
            continue
        for k in range(PLAYOUT_SEEDS):
            seed = f"{name}/{position.version}/{k}"
            rng = random.Random(seed)
            state = sampled(position.state, rng)
            engine = rollout.playout(state, rng, chooser, simulate=False)
            rng = random.Random(seed)
            assert rollout.playout(sampled(position.state, rng), rng, chooser) == engine, seed
            compared += 1
            simulated += Simulator.load(state) is not None
    assert compared > 40 and simulated > compared // 2


SEATED_GAMES = sized(4, 100)
"""Games from the start with a table of different policies, each way (the benchmark's strength measure's games)."""


def test_a_table_of_different_policies_plays_the_same_game_with_the_simulator():
    """The benchmark's strength measure (benchmarks/analysis.py) seats the greedy policy at one seat and the uniform one
    at the others, each society played by its own (`rollout.Seated`, after the prompt's actors, EN "Gameplay
    Overview"): from the start, the same seed gives the same game's outcome with the simulator as on the engine."""
    board, official = load_board("standin"), load_ruleset("official")
    players = SOCIETIES[:4]
    for seed in range(SEATED_GAMES):
        start = rules.evolve(None, rules.start(f"t{seed}", players, players[seed % 4], official, board))
        table = rollout.Seated({s: rollout.greedy if i == seed % 4 else rollout.uniform for i, s in enumerate(players)})
        engine = rollout.playout(start, random.Random(seed), table, simulate=False)
        assert rollout.playout(start, random.Random(seed), table) == engine, seed
