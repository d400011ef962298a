"""The analysis's speed and its playout policy's strength (issue 34), each beside the engine's own rate.

    .venv/bin/python benchmarks/analysis.py [--games 30] [--rollouts 200] [--seconds 120] [--strength-games N]
                                            [--jobs 2]

Rates are CPU time of this process (the machine is shared: wall time would measure the other work too):
- the engine's random games (ledger/core/randomgame.py, 4 players, no cards): moves a second on one core;
- playouts (ledger/core/rollout.py) from the positions of a 4-player game, with each policy: playouts (rollouts) a
  second on one core beside the engine's random-game moves a second, their ratio (how many of the engine's
  random-game moves one rollout costs), and the playouts' own moves a second over the engine's (the move ratio);
  each with the simulator (ledger/core/simulator.py, as the analysis plays them) and by the engine alone, the same
  playouts (the same outcomes), and the simulator's speed-up;
- a whole analysis, measured: `analyse` of the bundled official-4p game (every move) at --rollouts a move on --jobs
  processes, its wall time on the machine as loaded (the load average is printed) and its CPU seconds (this process
  and its workers); then the issue's 200-move game at 200 a move (40,000 continuations) scaled from it by the number
  of continuations, on the wall clock as loaded and on --jobs idle cores (CPU seconds / jobs);
- the standard error of a chance in that analysis: the largest over its positions and societies (each playout the
  average of its `rollout.ENDINGS` endings), beside 0.5/sqrt(n), a chance of one half's from n single games (target
  3.5 points at 200);
- the default policy's strength (skipped with --seconds 0): its share of the wins against three uniform players (its
  seat turned round the table), and each seat's share when all four play it (about 1 in 4 each), over as many games
  from the start as fit in --seconds each on --jobs processes, or --strength-games games each (seeds 0 to N - 1; the
  issue's 1,000); the number played is printed.
"""

import argparse
import math
import multiprocessing
import os
import random
import resource
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
from whispers.projections.analysis import sampled  # noqa: E402

PLAYERS = SOCIETIES[:4]
GAME = REPO / "fixtures" / "games" / "official-4p.txt"


def engine_rate(games: int) -> tuple[float, float]:
    """(moves a second, moves a game) of the engine's random 4-player games on one core."""
    ruleset, board = load_ruleset("official"), load_board("standin")
    start, moves = time.process_time(), 0
    for seed in range(games):
        moves += sum(1 for _ in randomgame.play(PLAYERS, ruleset, board, seed, cards=False)) - 1
    return moves / (time.process_time() - start), moves / games


def playout_rate(states: list, policy: str, per_state: int, simulate: bool = True) -> tuple[float, float]:
    """(playouts a second, moves a second) on one core from each of `states`, `per_state` playouts each, with the
    simulator or (`simulate` False) by the engine alone."""
    chooser = rollout.POLICIES[policy]
    start, played, moves = time.process_time(), 0, 0
    for i, state in enumerate(states):
        for k in range(per_state):
            rng = random.Random(f"{i}/{k}")
            moves += rollout.playout(sampled(state, rng), rng, chooser, simulate).moves
            played += 1
    elapsed = time.process_time() - start
    return played / elapsed, moves / elapsed


def _table(seed: int, greedy_seat: int | None) -> dict[str, float]:
    """One game from the start: the default policy at `greedy_seat` (None: at every seat), uniform elsewhere; one
    ending (a game, not a playout averaging several: `rollout.ENDINGS`)."""
    ruleset, board = load_ruleset("official"), load_board("standin")
    from whispers.ledger.core import rules

    state = rules.evolve(None, rules.start(f"t{seed}", PLAYERS, PLAYERS[seed % 4], ruleset, board))
    default = rollout.POLICIES[rollout.DEFAULT_POLICY]
    policies = {s: default if greedy_seat is None or i == greedy_seat else rollout.uniform
                for i, s in enumerate(PLAYERS)}
    return rollout.playout(state, random.Random(seed), rollout.Seated(policies), endings=1).wins


def strength(seconds: float, games: int, jobs: int, selfplay: bool) -> tuple[int, dict[str, float]]:
    """(games played, win share by seat: the default policy's own first when not `selfplay`): `games` games (seeds 0
    to games - 1), or with `games` 0 as many as fit in `seconds`."""
    deadline, seed, shares, played = time.monotonic() + seconds, 0, dict.fromkeys(PLAYERS, 0.0), 0
    mine = 0.0
    with ProcessPoolExecutor(jobs, multiprocessing.get_context("fork")) as pool:
        while seed < games if games else time.monotonic() < deadline:
            batch = [(s, None if selfplay else s % 4) for s in range(seed, seed + 8 * jobs) if not games or s < games]
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


def analysis_run(store, rollouts: int, jobs: int) -> tuple[analysis.Analysis, float, float, str, str]:
    """(the analysis of the bundled game at `rollouts` a move, its wall seconds, CPU seconds of this process and its
    workers, the load average before, after)."""
    load_before = f"{os.getloadavg()[0]:.2f}"
    cpu = _cpu()
    wall = time.perf_counter()
    done = analysis.analyse(store, "g", rollouts, None, None, jobs)
    wall = time.perf_counter() - wall
    while multiprocessing.active_children():  # the pool's workers are reaped by its own thread: wait for them, so
        time.sleep(0.05)  # that their CPU time is counted
    return done, wall, _cpu() - cpu, load_before, f"{os.getloadavg()[0]:.2f}"


def _cpu() -> float:
    me, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + workers.ru_utime + workers.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="random games for the engine's rate")
    parser.add_argument("--rollouts", type=int, default=200, help="playouts a move in the measured analysis")
    parser.add_argument("--seconds", type=float, default=120, help="time for each strength measure (0: skipped)")
    parser.add_argument("--strength-games", type=int, default=0,
                        help="games for each strength measure instead of --seconds (the issue's 1,000)")
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
        rates = {}
        for simulate, how in ((False, "by the engine alone"), (True, "with the simulator")):
            rate, moves = rates[simulate] = playout_rate(states, policy, 3, simulate)
            print(f"rollouts, policy {rollout.POLICY_VERSIONS[policy]}, {how}: {rate:,.1f} rollouts/s per core beside "
                  f"the engine's {engine:,.0f} random-game moves/s: a rollout costs {engine / rate:,.0f} engine moves "
                  f"({1000 / rate:.2f} ms of CPU); its own moves {moves:,.0f}/s, {moves / engine:.2f}x the engine's "
                  f"(from {len(states)} positions of {GAME.stem}, 3 each)")
        print(f"  the simulator: {rates[True][0] / rates[False][0]:.2f}x the engine's rollouts a second")

    done, wall, cpu, before, after = analysis_run(store, args.rollouts, args.jobs)
    played = sum(p.rollouts for p in done.points)
    print(f"MEASURED: analyse {GAME.stem} ({len(done.points)} moves) at {args.rollouts} rollouts a move = {played:,} "
          f"continuations, --jobs {args.jobs}: {wall:.1f} s wall (load average {before} before, {after} after), "
          f"{cpu:.1f} s CPU ({1000 * cpu / played:.2f} ms a continuation)")
    scale = 40000 / played
    print(f"a 200-move game at 200 rollouts a move = 40,000 continuations, scaled by {scale:.2f} from that run: "
          f"{wall * scale:.0f} s wall as loaded, {cpu * scale / args.jobs:.0f} s on {args.jobs} idle cores "
          f"(CPU / {args.jobs}; target <= 60 s)")
    worst = max(se for p in done.points for _, se in p.chances.values() if se is not None)
    print(f"standard error of a chance at {args.rollouts} rollouts: largest over the game {100 * worst:.2f} points; "
          f"{rollout.ENDINGS} endings a playout; a chance of 1/2 from single games: "
          f"{100 * 0.5 / math.sqrt(args.rollouts):.2f} points (target <= 3.5 at 200)")

    if args.seconds <= 0 and not args.strength_games:
        return
    played, against = strength(args.seconds, args.strength_games, args.jobs, selfplay=False)
    won = against["default policy"]
    print(f"default policy against three uniform players: wins {100 * won:.1f}% of {played} games, standard error "
          f"{100 * math.sqrt(won * (1 - won) / played):.1f} points (1 in 4 would be no better than uniform)")
    played, seats = strength(args.seconds, args.strength_games, args.jobs, selfplay=True)
    print(f"default policy in self-play, {played} games: " +
          ", ".join(f"{s} {100 * w:.1f}%" for s, w in seats.items()) + " (about 25% each expected)")


if __name__ == "__main__":
    main()
