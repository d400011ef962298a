"""Playouts: a game played from a position to its final scoring by the rules, for the analysis (issue 34).

A playout's moves are decided by the engine (`rules.decided`: its events, and the state `rules.evolve` folds them
into) until the position is in the domain of the simulator (ledger/core/simulator.py: the no-card game past the
setup, without card effects lasting), which plays the rest as the engine would, several times faster, and hands the
end to the engine's own scoring: the same state, seed and policy give the same `Outcome` either way
(tests/test_simulator.py proves the simulator equal to the engine). The moves are chosen by a playout policy
(docs/analysis.md), each written once for the engine's state and once for the simulator's, drawing the same numbers
from the generator:

- `uniform`: a uniformly random legal move, as `randomgame.random_command` builds it (the floor);
- `greedy` (the default): a simulated society looks one move ahead. It draws a few legal moves at random, plays
  each on the engine, and keeps the one that leaves the empires it is loyal to best off by `value` (its score if
  the game ended then, plus a little for the banners of the empires it favours); a share of its moves
  (`EXPLORE`) is uniform, so that the playouts keep exploring. Moves `value` cannot tell apart by their kind
  (`alike`) are not weighed: the first drawn is played.

Simulated societies play no cards: the engine adjudicates only some card effects (docs/decrees.md), and a playout
must be played by the engine alone. A position is given whole (a sampled state, projections/analysis.py): what a
society was loyal to, and every other secret, comes from the state the playout starts from.
"""

import random
from collections.abc import Callable, Mapping

from whispers.ledger.core import commands as c
from whispers.ledger.core import events as ev
from whispers.ledger.core import rules
from whispers.ledger.core.errors import RuleError
from whispers.ledger.core.names import MULTIPLIER, ROUNDS
from whispers.ledger.core.randomgame import random_command
from whispers.ledger.core.scoring import score
from whispers.ledger.core.simulator import BANNER_WEIGHT, Move, Simulator, quiet_move
from whispers.ledger.core.state import GameState, control

Decided = tuple[list[ev.Event], GameState]
"""A move's events as the engine decided them, and the state they fold the position into (`rules.decided`)."""
Choice = tuple[c.Command, Decided | None]
"""A policy's move, with what the engine decided of it when the policy had it decide the move already (None: not
yet)."""
Policy = Callable[[GameState, random.Random], Choice]

EXPLORE = 0.2
"""The share of a greedy society's moves that are uniformly random."""
CANDIDATES = 3
"""How many random legal moves a greedy society weighs before it moves."""
POLICY_VERSIONS = {"uniform": "uniform-1", "greedy": "greedy-3"}
"""Each policy's version: an analysis is stored under it, and a change to a policy's moves must change it."""
DEFAULT_POLICY = "greedy"
MAX_MOVES = 5000
"""A playout longer than this is a bug in a policy or the engine, not a game: it is refused."""


def uniform(state: GameState, rng: random.Random) -> Choice:
    return random_command(state, rng, cards=False), None


def value(state: GameState, society: str) -> float:
    """How good `state` is for `society` by its own tokens: its score if the game ended now, plus BANNER_WEIGHT for
    each banner on the board times its empire's multiplier. 0 while its tokens are not recorded."""
    loyalty = state.loyalty.get(society)
    if loyalty is None or loyalty.tokens is None:
        return 0.0
    slot_of = {empire: slot for slot, empire in loyalty.tokens.items()}
    held = control(state.board, state.banners)
    cities = dict(held.cities)
    for agent, region in state.field_agents:
        if agent == society:
            cities[state.controller(region)] += 1
    total = float(loyalty.concealed * state.ruleset.concealed_bonus)
    for empire in state.board.empires:
        total += MULTIPLIER[slot_of[empire]] * (cities.get(empire, 0) + BANNER_WEIGHT * held.banners.get(empire, 0))
    return total


def quiet(command: c.Command) -> bool:
    """Whether a move leaves the board, the field agents and the mover's own tokens as they are by itself, so that
    `value` cannot tell two such moves apart (the policy's judgement of the moves' kinds, not a rule: the engine still
    decides every move played): drawing cards, swapping an agent within a council, a council deploy or retrieval,
    passing, no-card, a discard."""
    if isinstance(command, c.Deploy | c.Retrieve):
        return "." in command.where  # a council position (EMPIRE.OFFICE); an agent in a region counts in `value`
    return isinstance(command, c.Draw | c.SwapAgent | c.Pass | c.NoCard | c.Discard)


def alike(first: c.Command, others: list[c.Command]) -> bool:
    """Whether `value` cannot tell these moves apart by their kind: all `quiet`, or all recruits of one order at one
    position (the same banners for the same empire, only placed in other regions it controls; the supply check
    after a council's last order may treat them differently, which the policy does not weigh)."""
    if isinstance(first, c.Recruit):
        return all(isinstance(other, c.Recruit) and (other.order, other.at) == (first.order, first.at)
                   for other in others)
    return quiet(first) and all(quiet(other) for other in others)


def greedy(state: GameState, rng: random.Random) -> Choice:
    offered = rules.prompt(state, noted=False).options
    first = random_command(state, rng, cards=False, offered=offered)
    if rng.random() < EXPLORE or isinstance(first, c.Pass | c.RecordLoyalty):
        return first, None
    society = first.society  # type: ignore[attr-defined]  # a random move, never a director's command
    others: list[c.Command] = []
    for _ in range(CANDIDATES - 1):
        command = random_command(state, rng, cards=False, offered=offered)
        if command.society == society and command != first and command not in others:  # type: ignore[attr-defined]
            others.append(command)
    if not others or alike(first, others):
        return first, None  # nothing to weigh: the first is played, as the look-ahead would mostly keep it
    best, best_decided = first, rules.decided(state, first)
    best_value = value(best_decided[1], society)
    for command in others:
        try:
            made = rules.decided(state, command)
        except RuleError:  # never for a command built from the prompt; a refused one is simply not chosen
            continue
        worth = value(made[1], society)
        if worth > best_value:
            best, best_decided, best_value = command, made, worth
    return best, best_decided


POLICIES: Mapping[str, Policy] = {"uniform": uniform, "greedy": greedy}

# --- the same policies on the simulator (ledger/core/simulator.py) ---------------------------------------------

SimulatedChoice = tuple[Move, Simulator | None]
"""A policy's move on the simulator, with the simulator once it is played when the policy played it already."""
SimulatedPolicy = Callable[[Simulator, random.Random], SimulatedChoice]


def simulated_uniform(sim: Simulator, rng: random.Random) -> SimulatedChoice:
    """`uniform` on the simulator: the same move from the same generator."""
    return sim.random_move(rng), None


def alike_moves(first: Move, others: list[Move]) -> bool:
    """`alike` of a simulator's moves: recruits are (verb, society, placed, order, position)."""
    if first[0] == "recruit":
        return all(other[0] == "recruit" and other[3:] == first[3:] for other in others)
    return quiet_move(first) and all(quiet_move(other) for other in others)


def simulated_greedy(sim: Simulator, rng: random.Random) -> SimulatedChoice:
    """`greedy` on the simulator: the same draws from the generator, the same candidates, the same values (bit for
    bit), so the same move."""
    offered = sim.offered()
    first = sim.random_move(rng, offered)
    if rng.random() < EXPLORE or first[0] == "pass":
        return first, None
    society = first[1]
    others: list[Move] = []
    for _ in range(CANDIDATES - 1):
        move = sim.random_move(rng, offered)
        if move[1] == society and move != first and move not in others:
            others.append(move)
    if not others or alike_moves(first, others):
        return first, None
    best = first
    best_value, best_made = sim.weigh(first, society)
    for move in others:
        try:
            worth, made = sim.weigh(move, society)
        except RuleError:  # as `greedy`: a reveal the revised rules refuse is not chosen
            continue
        if worth > best_value:
            best, best_made, best_value = move, made, worth
    return best, None if best_made is None else best_made.settled()


SIMULATED: Mapping[Policy, SimulatedPolicy] = {uniform: simulated_uniform, greedy: simulated_greedy}
"""The policies the simulator plays, each as the engine's policy would."""


class Outcome(tuple[dict[str, float], dict[str, float], int]):
    """A playout's result: (each society's share of the win, each society's final score, moves played), the first two
    averaged over the playout's endings (`ENDINGS`)."""

    __slots__ = ()

    def __new__(cls, wins: dict[str, float], scores: dict[str, float], moves: int) -> "Outcome":
        return super().__new__(cls, (wins, scores, moves))

    @property
    def wins(self) -> dict[str, float]:
        return self[0]

    @property
    def scores(self) -> dict[str, float]:
        return self[1]

    @property
    def moves(self) -> int:
        return self[2]


ENDINGS = 3
"""How many times a playout plays the game's last stretch (`last_stretch`: the last empire's turn of the last round)
from the position it reached there, its outcome the average of those endings (docs/analysis.md "Standard error"): an
estimate of the same chance, with less of the variance that arises in those few moves (conditional Monte Carlo), for
a few moves more a playout."""


def last_stretch(round: int, phase: str, empire_index: int, empires: int) -> bool:
    """Whether a position is in the last empire's turn of the last round (EN "Mark the Turn": the game ends after
    it)."""
    return round == ROUNDS and phase == "empire" and empire_index == empires - 1


def shares(scored: ev.GameScored, players: tuple[str, ...]) -> dict[str, float]:
    """Each society's share of the win as the ruleset breaks ties: 1 to the winner; a victory still tied after the
    tie-breaks is shared, 1/k to each (`final_tie = "shared"`), or no one's (`"none"`, REV "Scoring")."""
    found = dict.fromkeys(players, 0.0)
    if scored.winner is not None:
        found[scored.winner] = 1.0
        return found
    outcome = next((step.get("outcome") for step in scored.trail if step.get("step") == "still-tied"), None)
    if outcome == "shared" and scored.tied:
        for society in scored.tied:
            found[society] = 1.0 / len(scored.tied)
    return found


def playout(state: GameState, rng: random.Random, policy: Policy = greedy, simulate: bool = True,
            endings: int = ENDINGS) -> Outcome:
    """Play `state` to its final scoring with `policy` choosing every move: the engine decides each until the position
    is in the simulator's domain, then the simulator plays the rest as the engine would (with a policy it has,
    `SIMULATED`, unless `simulate` is False), and the engine scores the end. The last stretch is played `endings`
    times from where the playout reached it (one after the other, from the same generator), and its outcome is their
    average."""
    simulated = None if not simulate else policy.simulated if isinstance(policy, Seated) else SIMULATED.get(policy)
    if state.phase == "reveal" and all(lo.tokens is not None for lo in state.loyalty.values()):
        state = _scored_now(state)  # every sealed set was sampled: nothing is left to reveal
    return _played(state, rng, policy, simulated, 0, endings)


def _played(state: GameState, rng: random.Random, policy: Policy, simulated: SimulatedPolicy | None, moves: int,
            endings: int) -> Outcome:
    """The rest of a playout from `state` on the engine, handed to the simulator where it can (`_simulated`)."""
    scored: ev.GameScored | None = None
    empires = len(state.board.empires)
    while not state.over:
        if moves >= MAX_MOVES:
            raise RuntimeError(f"a playout of {state.name} ran past {MAX_MOVES} moves")
        if simulated is not None:
            sim = Simulator.load(state)
            if sim is not None:
                return _simulated(sim, rng, simulated, moves, endings)
        if endings > 1 and last_stretch(state.round, state.phase, state.empire_index, empires):
            return _averaged([_played(state, rng, policy, simulated, moves, 1) for _ in range(endings)], moves)
        command, made = policy(state, rng)
        produced, state = rules.decided(state, command) if made is None else made
        for event in produced:
            if isinstance(event, ev.GameScored):
                scored = event
        moves += 1
    # a position already over when the playout began: its own scoring stands
    return _outcome(score(state) if scored is None else scored, state.players, moves)


def _simulated(sim: Simulator, rng: random.Random, policy: SimulatedPolicy, moves: int, endings: int) -> Outcome:
    """The rest of a playout on the simulator, scored by the engine (its tie-breaks)."""
    empires = len(sim.t.empires)
    while not sim.ended:
        if moves >= MAX_MOVES:
            raise RuntimeError(f"a playout of {sim.origin.name} ran past {MAX_MOVES} moves")
        if endings > 1 and last_stretch(sim.round, sim.phase, sim.empire_index, empires):
            return _averaged([_simulated(sim.copy(), rng, policy, moves, 1) for _ in range(endings)], moves)
        move, made = policy(sim, rng)
        if made is None:
            sim.apply(move)
        else:
            sim = made
        moves += 1
    state = sim.to_state()
    return _outcome(score(state), state.players, moves)


def _outcome(scored: ev.GameScored, players: tuple[str, ...], moves: int) -> Outcome:
    return Outcome(shares(scored, players), {s: int(scored.scores[s]["total"]) for s in players}, moves)


def _averaged(endings: list[Outcome], before: int) -> Outcome:
    """One outcome of a playout's endings: each society's share of the win and score averaged; the moves of them all
    (`before` them once)."""
    n = len(endings)
    wins = {s: sum(e.wins[s] for e in endings) / n for s in endings[0].wins}
    scores = {s: sum(e.scores[s] for e in endings) / n for s in endings[0].scores}
    return Outcome(wins, scores, before + sum(e.moves - before for e in endings))


def _scored_now(state: GameState) -> GameState:
    return rules.evolve(state, score(state))


class Seated:
    """A policy per society (a table of different players, for the benchmarks): the one of the society the prompt
    waits for, or `otherwise` where several may act at once (the loyalty tokens at setup), on the engine's state
    (called) and on the simulator's (`simulated`), drawing the same numbers from the generator."""

    def __init__(self, policies: Mapping[str, Policy], otherwise: Policy = uniform) -> None:
        self.policies, self.otherwise = policies, otherwise

    def __call__(self, state: GameState, rng: random.Random) -> Choice:
        actors = rules.prompt(state, noted=False).actors
        policy = self.policies.get(actors[0], self.otherwise) if len(actors) == 1 else self.otherwise
        return policy(state, rng)

    def simulated(self, sim: Simulator, rng: random.Random) -> SimulatedChoice:
        actors = sim.actors()
        policy = self.policies.get(sim.t.players[actors[0]], self.otherwise) if len(actors) == 1 else self.otherwise
        return SIMULATED[policy](sim, rng)
