"""`analyse`: each society's chance of winning and expected final score after every move, from playouts (issue 34).

The playouts are the rules' (ledger/core/rollout.py: the engine's, and its simulator's where it is proven equal),
from positions sampled as the viewer knew them (projections/analysis.py). Their tallies are a read model in the store
(`Store.save_tracked`, one projection per game), keyed by the game's head, the viewer, the policy's version and the
seed: a second run reads them at once, a run asking for more playouts adds to those stored (the playouts are
numbered, and a position's next ones carry on its numbering), and an interrupted run keeps every position it
finished.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from whispers.application.stores import opened
from whispers.ledger.core.errors import WhispersError
from whispers.ledger.core.plain import Data
from whispers.ledger.core.rollout import DEFAULT_POLICY, ENDINGS, POLICY_VERSIONS
from whispers.ledger.core.words import say

if TYPE_CHECKING:
    from whispers.ledger.core import events as ev
    from whispers.ledger.core.state import GameState
    from whispers.ledger.io.store import Store
    from whispers.projections.analysis import Tally

LAYOUT = 1
"""The stored tallies' layout: a change to it starts the analyses afresh."""
CHUNK = 25
"""Playouts per task given to a worker: small enough for a smooth progress bar and a prompt Ctrl-C."""
SAVE_EVERY = 20
"""Tasks finished between two writes of the tallies to the store (and one at the end, or at an interruption)."""
TURNING_POINTS = 5
DEFAULT_ROLLOUTS = 200


class AnalysisError(WhispersError):
    """An analysis asked for that cannot be made: no playouts, an unknown policy or range of moves."""


@dataclass(frozen=True, slots=True)
class Point:
    """The estimates after one move (move 0: the game as set up, before the first move)."""

    move: int
    version: int  # the event it is after
    label: str | None  # the move's label, `m95 3.eagle.chancellor`
    rollouts: int
    chances: dict[str, tuple[float, float | None]]  # society -> (chance of winning, its standard error)
    scores: dict[str, tuple[float, float | None]]  # society -> (expected final score, its standard error)

    def to_json(self) -> Data:
        return {"move": self.move, "version": self.version, "label": self.label, "rollouts": self.rollouts,
                "chances": {s: {"chance": round(c, 4), "se": _rounded(se)} for s, (c, se) in self.chances.items()},
                "scores": {s: {"expected": round(x, 2), "se": _rounded(se)} for s, (x, se) in self.scores.items()}}


@dataclass(frozen=True, slots=True)
class Turn:
    move: int
    version: int
    label: str | None
    society: str
    change: float

    def to_json(self) -> Data:
        return {"move": self.move, "version": self.version, "label": self.label, "society": self.society,
                "change": round(self.change, 4)}


@dataclass(frozen=True, slots=True)
class Analysis:
    game: str
    viewer: str | None
    policy: str  # its version
    rollouts: int  # asked for at each move
    points: tuple[Point, ...]
    turning: tuple[Turn, ...]
    complete: bool  # every point has the rollouts asked for
    societies: tuple[str, ...] = field(default=())

    def to_json(self) -> Data:
        return {"game": self.game, "viewer": self.viewer, "policy": self.policy, "rollouts": self.rollouts,
                "complete": self.complete, "points": [p.to_json() for p in self.points],
                "turning_points": [t.to_json() for t in self.turning]}


def _rounded(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


@dataclass(frozen=True, slots=True)
class Position:
    move: int
    version: int
    label: str | None
    state: GameState  # as the viewer knew it (projections.analysis.seen)


Progress = Callable[[int, int], None]
"""Called with (playouts done, playouts to do) as the work goes on."""


def positions(events: tuple[ev.Event, ...], viewer: str | None) -> list[Position]:
    """The positions after every standing move (the engine's own events after it folded in), as `viewer` knew them."""
    from whispers.ledger.core.notation import format_event
    from whispers.projections.analysis import seen
    from whispers.projections.labels import labels
    from whispers.projections.replay import Replay, standing

    pairs = standing(events)
    rep = Replay(tuple(event for _, event in pairs))
    named = labels(events)  # by the record's own event numbers, as replay --at and the labels count them
    found: list[Position] = []
    count, label = 0, None
    for index, (version, event) in enumerate(pairs, 1):
        if event.MOVE and format_event(event) is not None:
            count += 1
            label = str(named[version]) if version in named else None
        if index < len(pairs) and format_event(pairs[index][1]) is None:
            continue
        if found and found[-1].move == count:
            continue
        found.append(Position(count, version, label, seen(rep.at(index), viewer)))
    return found


def parse_moves(text: str | None, last: int) -> tuple[int, int]:
    """`--moves`: `A-B`, `A-`, `-B` or `N` (move numbers, 0 the game as set up) -> (first, last)."""
    if text is None:
        return 0, last
    found = re.fullmatch(r"\s*(\d*)\s*(-?)\s*(\d*)\s*", text)
    if found is None or not (found[1] or found[3]):
        raise AnalysisError(say("--moves takes move numbers such as 10-40, 10-, -40 or 25, not {text}",
                                text=repr(text)))
    first = int(found[1]) if found[1] else 0
    end = int(found[3]) if found[3] else (last if found[2] else first)
    if first > end:
        raise AnalysisError(say("--moves takes move numbers such as 10-40, 10-, -40 or 25, not {text}",
                                text=repr(text)))
    return first, min(end, last)


def _key(viewer: str | None, policy: str, seed: int, version: int, head: str) -> str:
    """The stored tallies' row: the viewer, what a playout is (the policy's version, its endings) and its seed, and the
    game's head."""
    return f"{viewer or 'record'}|{POLICY_VERSIONS[policy]}|{ENDINGS}|{seed}|{version}|{head}"


def _projection(game: str) -> str:
    return f"analysis:{game}"


def _head(events: tuple[ev.Event, ...]) -> str:
    """The last link of the record's hash chain: another record at the same version is another game."""
    from whispers.ledger.io.recordfile import chain

    return chain([e.to_fact() for e in events])[-1] if events else ""


def _stored(store: Store, game: str, key: str) -> dict[int, Tally]:
    from whispers.projections.analysis import from_data

    for row, data in store.read_model(_projection(game)):
        if row == key:
            return from_data(json.loads(data))
    return {}


def _save(store: Store, game: str, key: str, tallies: dict[int, Tally]) -> None:
    from whispers.projections.analysis import to_data

    projection = _projection(game)
    data = json.dumps(to_data(tallies), sort_keys=True)
    for _ in range(3):  # another analysis of the game may have written first: write again on its position
        position, layout, _fingerprint = store.tracked(projection)
        expected = position if layout == LAYOUT else None
        if store.save_tracked(projection, LAYOUT, expected, store.head(), [(key, None, data)]):
            return


_STATES: dict[int, GameState] = {}
"""The positions of the analysis running, by version, for the workers: they are forked with them (a state holds
read-only mappings, which do not pickle)."""


def _work(seed: int, version: int, start: int, count: int, policy: str) -> Tally:
    from whispers.projections.analysis import tally

    return tally(_STATES[version], seed, version, start, count, policy)


def _quiet() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it keeps what is done


def analyse(store: Store | str | None, game: str, rollouts: int = DEFAULT_ROLLOUTS, viewer: str | None = None,
            moves: str | None = None, jobs: int = 1, seed: int = 0, policy: str = DEFAULT_POLICY,
            progress: Progress | None = None) -> Analysis:
    """Each society's chances after every move of GAME (those in `moves`), from `rollouts` playouts a move, as
    `viewer` knew the game; what the store holds already is read, and only the missing playouts are played.
    KeyboardInterrupt is raised once what was finished is stored."""
    from whispers.ledger.io.game import load
    from whispers.projections.analysis import Tally
    from whispers.projections.visibility import check_viewer

    if rollouts < 1:
        raise AnalysisError(say("--rollouts must be at least 1, not {n}", n=rollouts))
    if policy not in POLICY_VERSIONS:
        raise AnalysisError(say("unknown playout policy {text}: the policies are {kinds}", text=repr(policy),
                                kinds=", ".join(POLICY_VERSIONS)))
    with opened(store) as s:
        record = load(s, game)
        check_viewer(game, record.state.players, viewer)
        found = positions(record.events, viewer)
        first, last = parse_moves(moves, found[-1].move if found else 0)
        chosen = [p for p in found if first <= p.move <= last]
        key = _key(viewer, policy, seed, len(record.events), _head(record.events))
        tallies = _stored(s, game, key)
        tasks = [(p, start, min(CHUNK, rollouts - start))
                 for p in chosen for start in range(tallies.get(p.version, Tally()).n, rollouts, CHUNK)]
        total = sum(count for _, _, count in tasks)
        done = 0
        if progress:
            progress(0, total)
        try:
            for finished, (position, found_now) in enumerate(_run(tasks, seed, policy, jobs), 1):
                tallies[position.version] = tallies.get(position.version, Tally()).merged(found_now)
                done += found_now.n
                if progress:
                    progress(done, total)
                if finished % SAVE_EVERY == 0:
                    _save(s, game, key, tallies)
        finally:
            if tasks:
                _save(s, game, key, tallies)
    return build(game, viewer, policy, rollouts, chosen, tallies)


def _run(tasks: list[tuple[Position, int, int]], seed: int, policy: str,
         jobs: int) -> Iterator[tuple[Position, Tally]]:
    """Each task's tally, in the tasks' order (so a position's playouts are added in their numbering's order)."""
    _STATES.clear()
    _STATES.update({p.version: p.state for p, _, _ in tasks})
    if jobs <= 1 or len(tasks) <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        for position, start, count in tasks:
            yield position, _work(seed, position.version, start, count, policy)
        return
    with ProcessPoolExecutor(jobs, multiprocessing.get_context("fork"), initializer=_quiet) as pool:
        futures: list[Future[Tally]] = [pool.submit(_work, seed, p.version, start, count, policy)
                                        for p, start, count in tasks]
        try:
            for (position, _, _), future in zip(tasks, futures, strict=True):
                yield position, future.result()
        finally:
            pool.shutdown(wait=False, cancel_futures=True)


def stored(store: Store | str | None, game: str, viewer: str | None = None, policy: str = DEFAULT_POLICY,
           seed: int = 0) -> Analysis | None:
    """The analysis the store holds for GAME at its head as `viewer` knew it (None: none yet); nothing is played."""
    from whispers.ledger.io.game import load
    from whispers.projections.visibility import check_viewer

    with opened(store) as s:
        record = load(s, game)
        check_viewer(game, record.state.players, viewer)
        if not s.read_model_size(_projection(game)):  # no analysis of the game kept: no chain to hash for its key
            return None
        tallies = _stored(s, game, _key(viewer, policy, seed, len(record.events), _head(record.events)))
        if not tallies:
            return None
        chosen = positions(record.events, viewer)
    return build(game, viewer, policy, max(t.n for t in tallies.values()), chosen, tallies)


def build(game: str, viewer: str | None, policy: str, rollouts: int, chosen: list[Position],
          tallies: dict[int, Tally]) -> Analysis:
    """The estimates of the positions that have playouts, and the turning points among them."""
    from whispers.projections.analysis import turning_points

    points = []
    for position in chosen:
        found = tallies.get(position.version)
        if found is None or found.n == 0:
            continue
        players = position.state.players
        points.append(Point(position.move, position.version, position.label, found.n,
                            {s: found.chance(s) for s in players}, {s: found.score(s) for s in players}))
    swings = turning_points([{s: c for s, (c, _) in p.chances.items()} for p in points], TURNING_POINTS)
    turning = tuple(Turn(points[i].move, points[i].version, points[i].label, society, change)
                    for i, society, change in swings)
    complete = len(points) == len(chosen) and all(p.rollouts >= rollouts for p in points)
    societies = chosen[0].state.players if chosen else ()
    return Analysis(game, viewer, POLICY_VERSIONS[policy], rollouts, tuple(points), turning, complete, societies)


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
