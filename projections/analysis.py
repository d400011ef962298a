"""The analysis's read side (issue 34): a position as a viewer knew it, sampled whole, and the tallies of playouts.

A playout (ledger/core/rollout.py) needs a whole game: every society's loyalty tokens. A viewer knows only some of
them, so each playout starts from a state *sampled* from what the viewer knew at that move, and never from what
it did not:

- `seen` keeps of a state only what the one visibility policy (projections/visibility.py) lets the viewer know:
  another society's recorded tokens and the names of the cards it holds or last drew are removed, and so are the
  states before it (a state keeps its predecessor for take-backs);
- `sampled` fills every set of tokens `seen` left unknown (and a sealed set, which no viewer knows before the
  reveal) with one drawn uniformly among the sets consistent with what is public: the tokens revealed by swaps
  stay where they are, and under a ruleset whose devout empires are distinct (REV "Setup") no two sets start
  devout to one empire. The engine keeps no order of the decks and simulated societies play no cards, so the
  cards in other hands stay unnamed, and the draws of a playout name none.

`seen` of two states that differ only in what the viewer could not know are equal, so the analysis of each, with
the same seed, is the same, byte for byte (tests/test_analysis.py).
"""

import math
import random
from collections.abc import Iterable, Mapping

import msgspec

from whispers.ledger.core.names import SLOTS
from whispers.ledger.core.plain import Data
from whispers.ledger.core.rollout import POLICIES, playout
from whispers.ledger.core.state import GameState, Hand, Loyalty
from whispers.projections.visibility import AnyViewer, knows, tokens_shown, viewer_of

SAMPLE_TRIES = 200
"""Draws of a society's tokens before a set breaking the distinct-devout rule is kept anyway (a record that broke
it itself, say by an imported game under another ruleset, leaves no consistent set)."""


def seen(state: GameState, who: AnyViewer) -> GameState:
    """`state` with only what the viewer knew in it: another society's unshown tokens and its cards' names gone."""
    viewer = viewer_of(who)
    loyalty = {s: held if held.tokens is None or tokens_shown(viewer, state, s) else msgspec.structs.replace(
        held, tokens=None) for s, held in state.loyalty.items()}
    hands = {s: hand if knows(viewer, s) else Hand(dict(hand.counts)) for s, hand in state.hands.items()}
    drawn = state.drawn if knows(viewer, state.last_actor) else (state.drawn[0], (), state.drawn[2])
    return msgspec.structs.replace(state, loyalty=loyalty, hands=hands, drawn=drawn, prior=None, moves=())


def sampled(state: GameState, rng: random.Random) -> GameState:
    """`state` (a `seen` one) with every unknown set of tokens drawn, consistent with what is public."""
    unknown = [s for s in state.players if s in state.loyalty and state.loyalty[s].tokens is None]
    if not unknown:
        return state
    loyalty = dict(state.loyalty)
    distinct = state.ruleset.distinct_devout
    for society in unknown:
        held = loyalty[society]
        taken = {lo.at_setup(lo.tokens)["devout"] for s, lo in loyalty.items() if s != society and lo.tokens}
        tokens = _draw(held, state.board.empires, rng)
        for _ in range(SAMPLE_TRIES if distinct else 0):
            if held.at_setup(tokens)["devout"] not in taken:
                break
            tokens = _draw(held, state.board.empires, rng)
        loyalty[society] = Loyalty(tokens, held.revealed, held.swaps, held.swapped)  # no commitment left to meet
    return msgspec.structs.replace(state, loyalty=loyalty)


def _draw(held: Loyalty, empires: Iterable[str], rng: random.Random) -> dict[str, str]:
    rest = [e for e in empires if e not in held.revealed.values()]
    rng.shuffle(rest)
    return {slot: held.revealed.get(slot) or rest.pop() for slot in SLOTS}


def playout_rng(seed: int, version: int, index: int) -> random.Random:
    """The generator of playout `index` from the position after event `version`: a run of more playouts continues
    the indices of a shorter one, so it refines it rather than repeating it."""
    return random.Random(f"{seed}/{version}/{index}")


# --- tallies ------------------------------------------------------------------------------------------------


class Tally(msgspec.Struct):
    """Sums over the playouts from one position: how many, and per society the sums (and sums of squares) of its
    share of the win and of its final score, from which the means and their standard errors follow."""

    n: int = 0
    wins: dict[str, list[float]] = msgspec.field(default_factory=dict)
    scores: dict[str, list[float]] = msgspec.field(default_factory=dict)

    def add(self, wins: Mapping[str, float], scores: Mapping[str, float]) -> None:
        self.n += 1
        for sums, values in ((self.wins, wins), (self.scores, scores)):
            for society, x in values.items():
                pair = sums.setdefault(society, [0.0, 0.0])
                pair[0] += x
                pair[1] += x * x

    def merged(self, other: "Tally") -> "Tally":
        total = Tally(self.n + other.n)
        for mine, theirs, into in ((self.wins, other.wins, total.wins), (self.scores, other.scores, total.scores)):
            for society in {*mine, *theirs}:
                a, b = mine.get(society, [0.0, 0.0]), theirs.get(society, [0.0, 0.0])
                into[society] = [a[0] + b[0], a[1] + b[1]]
        return total

    def chance(self, society: str) -> tuple[float, float | None]:
        return _mean_se(self.n, self.wins.get(society, [0.0, 0.0]))

    def score(self, society: str) -> tuple[float, float | None]:
        return _mean_se(self.n, self.scores.get(society, [0.0, 0.0]))


def _mean_se(n: int, sums: list[float]) -> tuple[float, float | None]:
    """The mean and its standard error (None from fewer than two playouts)."""
    if n == 0:
        return 0.0, None
    mean = sums[0] / n
    if n < 2:
        return mean, None
    variance = max(0.0, (sums[1] - n * mean * mean) / (n - 1))
    return mean, math.sqrt(variance / n)


def tally(state: GameState, seed: int, version: int, start: int, count: int, policy: str) -> Tally:
    """Playouts `start` .. `start + count - 1` from `state` (a `seen` state), each from its own sample."""
    found = Tally()
    chooser = POLICIES[policy]
    for index in range(start, start + count):
        rng = playout_rng(seed, version, index)
        outcome = playout(sampled(state, rng), rng, chooser)
        found.add(outcome.wins, outcome.scores)
    return found


# --- turning points -----------------------------------------------------------------------------------------


def turning_points(chances: list[dict[str, float]], count: int) -> list[tuple[int, str, float]]:
    """The `count` moves after which some society's chance changed most: (index into `chances`, the society whose
    chance moved most there, the change), largest first. Index 0, the position before any move, is never one."""
    swings = []
    for i in range(1, len(chances)):
        before, after = chances[i - 1], chances[i]
        society = max(after, key=lambda s: (abs(after[s] - before.get(s, 0.0)), s))
        swings.append((i, society, after[society] - before.get(society, 0.0)))
    swings.sort(key=lambda t: (-abs(t[2]), t[0]))
    return swings[:count]


def to_data(tallies: Mapping[int, Tally]) -> Data:
    return {str(version): msgspec.to_builtins(t) for version, t in tallies.items()}


def from_data(data: Mapping[str, object]) -> dict[int, Tally]:
    return {int(version): msgspec.convert(t, Tally) for version, t in data.items()}
