"""The analysis's speed and its playout policy's strength (issue 34), each beside the engine's own rate.

    .venv/bin/python benchmarks/analysis.py [--games 30] [--rollouts 10] [--seconds 120] [--jobs 2]

Rates are CPU time of this process (the machine is shared: wall time would measure the other work too):
- the engine's random games (ledger/core/randomgame.py, 4 players, no cards): moves a second on one core;
- playouts (ledger/core/rollout.py) from the positions of a 4-player game, with each policy: playouts and moves a
  second on one core, and the playouts' moves a second over the engine's random-game moves a second (the ratio);
- the time to analyse a 200-move 4-player game at 200 playouts a move: the CPU time of a playout from every 5th
  position of the bundled official-4p game, times 40,000 over --jobs cores (labelled as an extrapolation), and the
  wall time of a whole analysis of it at --rollouts a move on --jobs processes, on the machine as loaded; the
  standard error of a chance at 200 playouts (the largest over the game, scaled by
  sqrt(n/200) from the run, beside the bound 0.5/sqrt(200) of a chance of one half);
- the default policy's strength: its share of the wins against three uniform players (its seat turned round the
  table), and each seat's share when all four play it (about 1 in 4 each), over as many games from the start as fit
  in --seconds each on --jobs processes (the number played is printed).
"""

import argparse
import math
import multiprocessing
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from whispers.application import analysis  # noqa: E402
from whispers.ledger.core import randomgame, rollout  # noqa: E402
from whispers.ledger.core.names import SOCIETIES  # noqa: E402
from whispers.ledger.io.board_files import load_board  # noqa: E402
from whispers.ledger.io.game import import_lines  # noqa: E402
from whispers.ledger.io.ruleset_files import load_ruleset  # noqa: E402
from whispers.ledger.io.store import open_store  # noqa: E402
from whispers.projections.analysis import sampled, tally  # noqa: E402

PLAYERS = SOCIETIES[:4]
GAME = REPO / "fixtures" / "games" / "official-4p.txt"


def engine_rate(games: int) -> tuple[float, float]:
    """(moves a second, moves a game) of the engine's random 4-player games on one core."""
    ruleset, board = load_ruleset("official"), load_board("standin")
    start, moves = time.process_time(), 0
    for seed in range(games):
        moves += sum(1 for _ in randomgame.play(PLAYERS, ruleset, board, seed, cards=False)) - 1
    return moves / (time.process_time() - start), moves / games


def playout_rate(states: list, policy: str, per_state: int) -> tuple[float, float]:
    """(playouts a second, moves a second) on one core from each of `states`, `per_state` playouts each."""
    chooser = rollout.POLICIES[policy]
    start, played, moves = time.process_time(), 0, 0
    for i, state in enumerate(states):
        for k in range(per_state):
            rng = random.Random(f"{i}/{k}")
            moves += rollout.playout(sampled(state, rng), rng, chooser).moves
            played += 1
    elapsed = time.process_time() - start
    return played / elapsed, moves / elapsed


def _table(seed: int, greedy_seat: int | None) -> dict[str, float]:
    """One game from the start: the default policy at `greedy_seat` (None: at every seat), uniform elsewhere."""
    ruleset, board = load_ruleset("official"), load_board("standin")
    from whispers.ledger.core import rules

    state = rules.evolve(None, rules.start(f"t{seed}", PLAYERS, PLAYERS[seed % 4], ruleset, board))
    default = rollout.POLICIES[rollout.DEFAULT_POLICY]
    policies = {s: default if greedy_seat is None or i == greedy_seat else rollout.uniform
                for i, s in enumerate(PLAYERS)}
    return rollout.playout(state, random.Random(seed), rollout.seated(policies)).wins


def strength(seconds: float, jobs: int, selfplay: bool) -> tuple[int, dict[str, float]]:
    """(games played, win share by seat: the default policy's own first when not `selfplay`)."""
    deadline, seed, shares, played = time.monotonic() + seconds, 0, dict.fromkeys(PLAYERS, 0.0), 0
    mine = 0.0
    with ProcessPoolExecutor(jobs, multiprocessing.get_context("fork")) as pool:
        while time.monotonic() < deadline:
            batch = [(s, None if selfplay else s % 4) for s in range(seed, seed + 8 * jobs)]
            for (_seed, seat), wins in zip(batch, pool.map(_table, *zip(*batch, strict=True)), strict=True):
                played += 1
                for society, w in wins.items():
                    shares[society] += w
                if seat is not None:
                    mine += wins[PLAYERS[seat]]
            seed += len(batch)
    if selfplay:
        return played, {s: w / played for s, w in shares.items()}
    return played, {"default policy": mine / played}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="random games for the engine's rate")
    parser.add_argument("--rollouts", type=int, default=10, help="playouts a move in the timed analysis")
    parser.add_argument("--seconds", type=float, default=120, help="time for each strength measure")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()

    engine, per_game = engine_rate(args.games)
    print(f"engine: random 4-player games, {engine:,.0f} moves/s on one core ({per_game:.0f} moves a game, "
          f"{args.games} games)")
    store = open_store("memory:")
    game = import_lines(store, "g", GAME.read_text(encoding="utf-8").splitlines())
    found = analysis.positions(game.events, None)
    states = [p.state for p in found[::10]]
    for policy in ("uniform", rollout.DEFAULT_POLICY):
        rate, moves = playout_rate(states, policy, 3)
        print(f"playouts, policy {rollout.POLICY_VERSIONS[policy]}: {rate:,.1f} playouts/s on one core, "
              f"{moves:,.0f} moves/s; ratio to the engine's random-game moves/s: {moves / engine:.2f}x "
              f"(from {len(states)} positions of {GAME.stem}, 3 each)")

    policy = rollout.DEFAULT_POLICY
    sample = found[::5]
    spent = time.process_time()
    for p in sample:
        tally(p.state, 0, p.version, 0, args.rollouts, policy)
    per_playout = (time.process_time() - spent) / (len(sample) * args.rollouts)
    print(f"CPU per playout over the game (every 5th of its {len(found)} positions, {args.rollouts} playouts each, "
          f"policy {rollout.POLICY_VERSIONS[policy]}): {1000 * per_playout:.1f} ms")
    print(f"EXTRAPOLATED: a 200-move 4-player game at 200 playouts a move = 40,000 playouts = "
          f"{40000 * per_playout / args.jobs:.0f} s on {args.jobs} idle cores (target <= 60 s)")
    wall = time.perf_counter()
    done = analysis.analyse(store, "g", args.rollouts, None, None, args.jobs)
    wall = time.perf_counter() - wall
    scale = (200 / len(done.points)) * (200 / args.rollouts)
    print(f"measured: analyse {GAME.stem} ({len(done.points)} positions) at {args.rollouts} playouts a move, "
          f"--jobs {args.jobs}: {wall:.1f} s wall on this machine as loaded now (x{scale:.1f}: {wall * scale:.0f} s)")
    worst = max(se for p in done.points for _, se in p.chances.values() if se is not None)
    at_200 = 100 * worst * math.sqrt(args.rollouts / 200)
    print(f"standard error of a chance at 200 playouts: largest over the game {at_200:.1f} points (scaled from "
          f"{args.rollouts}); bound at a chance of 1/2: {100 * 0.5 / math.sqrt(200):.2f} points (target <= 3.5)")

    played, against = strength(args.seconds, args.jobs, selfplay=False)
    print(f"default policy against three uniform players: wins {100 * against['default policy']:.1f}% of {played} "
          f"games (1 in 4 would be no better than uniform)")
    played, seats = strength(args.seconds, args.jobs, selfplay=True)
    print(f"default policy in self-play, {played} games: " +
          ", ".join(f"{s} {100 * w:.1f}%" for s, w in seats.items()) + " (about 25% each expected)")


if __name__ == "__main__":
    main()
