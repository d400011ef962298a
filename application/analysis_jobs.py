"""Analyses in the background (issue 34, the web face): a queue of analyses kept in the store, worked through by
analyst processes, one analysis at a time per game.

A link asks for the analysis of a finished game as its viewer knew it (`ask`): a job, one row of the read model
`analysis-jobs` per game and viewer. An analyst (`analyst`, a process of its own that the server starts) claims
the oldest job whose game has no analysis running (`claim`), runs the analysis use case on it (`run`:
application/analysis.py, whose tallies are stored as they are for `whispers analyse`), and writes its progress on
the job's row as it goes (moves done of all, the time left). A second ask for the same game and viewer joins the
job already queued or running; the figures of a finished one are read from the store.

Every write of a row goes through the read model's tracking record as a compare-and-set (its position counts the
writes), so two analysts (two server processes, two machines over one PostgreSQL store) never claim one job or
run two of one game at once. A job whose analyst died (killed with its server, a lost machine) is taken over: at
once when the analyst was a process of this machine that no longer exists, else once it has not written for
STALE_SECONDS; its analysis goes on from the playouts stored (application/analysis.py keeps every finished batch).
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict, TypeVar

import msgspec

from whispers.application import analysis
from whispers.application.stores import opened
from whispers.ledger.core.errors import WhispersError
from whispers.ledger.core.words import _

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from whispers.ledger.io.store import Store

PROJECTION = "analysis-jobs"
LAYOUT = 1
WEB_ROLLOUTS = analysis.DEFAULT_ROLLOUTS
"""Playouts a move an analysis asked for in the browser has by default (`whispers serve --analysis-rollouts`): as
many as `whispers analyse`'s, so that the page's figures are the command's (the tallies are shared) with standard
errors of 3.54 points at most (0.5/√200); a 150-move game in about a minute and a half of one core
(docs/analysis.md)."""
BEAT_SECONDS = 1.0
"""A running job's progress is written at most this often."""
STALE_SECONDS = 30.0
"""A running job whose analyst has written nothing for this long is taken over by another."""
IDLE_SECONDS = 1.0
"""How long an analyst with nothing to do waits before it looks at the queue again."""
RETIRE_SECONDS = 60.0
"""An analyst with nothing to do for this long ends (the server starts one again for the next analysis)."""
TRIES = 50
"""Compare-and-set attempts of one write before it gives up (another writer moved the queue on each time)."""
LOG = logging.getLogger("whispers.analysis")

State = Literal["none", "queued", "running", "done", "failed"]


class NotOver(WhispersError):
    """An analysis asked for a game still being played."""


class Job(msgspec.Struct, frozen=True, kw_only=True):
    """One analysis asked for: GAME as VIEWER knew it (None: the record), at the game's `version` then."""

    game: str
    viewer: str | None
    version: int
    rollouts: int
    state: State = "queued"
    asked: float = 0.0
    moves: int = 0  # positions to analyse (known once an analyst has started it)
    moves_done: int = 0
    left: float | None = None  # seconds, estimated from the rate so far
    resumed: int = 0  # moves already done when this run started (by a run before it)
    owner: str | None = None  # the analyst running it: host:pid
    beat: float = 0.0  # when its analyst last wrote


def _row(game: str, viewer: str | None) -> str:
    return f"{game}|{viewer or ''}"  # a game's name holds no '|' (ledger/io/store_games.check_name)


def _rows(store: Store, names: list[str] | None = None) -> tuple[int, dict[str, Job]]:
    """The queue's write counter and its rows (those named, else all)."""
    position, layout, _fingerprint = store.tracked(PROJECTION)
    found = {}
    if layout == LAYOUT:
        for name, data in store.read_model(PROJECTION, names):
            found[name] = msgspec.json.decode(data, type=Job)
    return (position if layout == LAYOUT else 0), found


def _write(store: Store, counter: int, jobs: list[Job]) -> bool:
    """The jobs written, if no one wrote to the queue since `counter` was read (False: read again, decide again)."""
    rows = [(_row(j.game, j.viewer), None, msgspec.json.encode(j).decode()) for j in jobs]
    return store.save_tracked(PROJECTION, LAYOUT, counter, counter + 1, rows)


T = TypeVar("T")  # what a compare-and-set's decision answers


def _cas(store: Store, names: list[str] | None, decide: Callable[[dict[str, Job]], tuple[list[Job], T]]) -> T:
    """`decide` over the rows read, its jobs written as one compare-and-set, again until none wrote in between."""
    for _attempt in range(TRIES):
        counter, jobs = _rows(store, names)
        if not counter:
            # the queue's first write starts it empty (a compare-and-set needs a counter to compare; starting it
            # is no compare-and-set): only two first asks of a store at the same instant could lose one, which
            # the page then offers again
            store.save_tracked(PROJECTION, LAYOUT, None, 1, [])
            continue
        writes, answer = decide(jobs)
        if not writes or _write(store, counter, writes):
            return answer
    raise WhispersError(_("the analyses' queue is too busy: try again in a moment"))


# --- the web's side: ask, and read the progress ------------------------------------------------------------------


def _alive(job: Job, now: float) -> bool:
    """Whether the analyst running `job` still runs it (a dead process of this machine is known dead at once)."""
    if job.owner is None:
        return False
    host, _sep, pid = job.owner.rpartition(":")
    if host == socket.gethostname() and pid.isdigit() and not _process_exists(int(pid)):
        return False
    return now - job.beat < STALE_SECONDS


def _process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: it exists
        return True
    return True


def ask(store: Store | str | None, game: str, viewer: str | None, rollouts: int = WEB_ROLLOUTS,
        now: float | None = None) -> Job:
    """The analysis of GAME as `viewer` knew it, asked for: queued, or the job already queued or running for it
    (joined), or the one done at the game's version. NotOver for a game still being played: a seat's analysis
    of a game in play would be advice at the table."""
    from whispers.ledger.io.game import head

    now = time.time() if now is None else now
    with opened(store) as s:
        record = head(s, game)
        if not record.state.over:
            raise NotOver(_("the game is not over: it can be analysed once it has ended"))
        version = s.version(game)
        existing = analysis.stored(s, game, viewer)
        name = _row(game, viewer)

        def decide(jobs: dict[str, Job]) -> tuple[list[Job], Job]:
            held = jobs.get(name)
            if held is not None and held.version == version and (
                    held.state in ("queued", "running") or (held.state == "done" and existing is not None)):
                return [], held  # joined (or done already)
            if existing is not None and existing.complete and existing.rollouts >= rollouts:
                done = Job(game=game, viewer=viewer, version=version, rollouts=existing.rollouts, state="done",
                           asked=now, moves=len(existing.points), moves_done=len(existing.points), left=0.0)
                return [done], done
            queued = Job(game=game, viewer=viewer, version=version, rollouts=rollouts, asked=now)
            return [queued], queued

        return _cas(s, [name], decide)


def status(store: Store | str | None, game: str, viewer: str | None) -> Job | None:
    """The job of GAME as `viewer` knew it, at the game's version now (None: none asked for since it moved)."""
    with opened(store) as s:
        _counter, jobs = _rows(s, [_row(game, viewer)])
        held = jobs.get(_row(game, viewer))
        if held is None or held.version != s.version(game):
            return None
        return held


def waiting(store: Store | str | None) -> bool:
    """Whether some analysis is queued, or was running (its analyst may have died with its server)."""
    with opened(store) as s:
        return any(job.state in ("queued", "running") for job in _rows(s)[1].values())


class Progress(TypedDict):
    """`progress_json`: a job's state, and its progress once there is a job."""

    state: State
    moves: NotRequired[int]
    moves_done: NotRequired[int]
    left: NotRequired[int | None]  # seconds
    rollouts: NotRequired[int]


def progress_json(job: Job | None) -> Progress:
    """What a page reads of a job: its state and its progress, and nothing of who runs it."""
    if job is None:
        return {"state": "none"}
    left = None if job.left is None else round(job.left)
    return {"state": job.state, "moves": job.moves, "moves_done": job.moves_done, "left": left,
            "rollouts": job.rollouts}


# --- the analyst's side: claim, run ------------------------------------------------------------------------------


def owner_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def claim(store: Store, owner: str, now: float | None = None) -> Job | None:
    """The oldest job waiting (or left by an analyst that died) whose game has no analysis running, now marked
    as run by `owner`; None when there is none."""
    now = time.time() if now is None else now

    def decide(jobs: dict[str, Job]) -> tuple[list[Job], Job | None]:
        busy = {j.game for j in jobs.values() if j.state == "running" and _alive(j, now)}
        waiting = [j for j in jobs.values() if j.game not in busy
                   and (j.state == "queued" or (j.state == "running" and not _alive(j, now)))]
        if not waiting:
            return [], None
        first = min(waiting, key=lambda j: (j.asked, j.game, j.viewer or ""))
        mine = msgspec.structs.replace(first, state="running", owner=owner, beat=now)
        return [mine], mine

    return _cas(store, None, decide)


class Lost(Exception):
    """The job was taken over by another analyst (this one was thought dead): it stops."""


def _update(store: Store, job: Job, by: str, **changes: object) -> Job:
    """`job`'s row with `changes`, written only while `by` (its owner) still runs it (else Lost)."""
    name = _row(job.game, job.viewer)

    def decide(jobs: dict[str, Job]) -> tuple[list[Job], Job]:
        held = jobs.get(name)
        if held is None or held.owner != by or held.state != "running":
            raise Lost
        changed = msgspec.structs.replace(held, **changes)
        return [changed], changed

    return _cas(store, [name], decide)


def run(store: Store, job: Job, owner: str, stopping: Callable[[], bool] = lambda: False,
        clock: Callable[[], float] = time.time) -> Job:
    """`job` (claimed by `owner`) run by the analysis use case, its progress written as it goes; done, or failed.
    When `stopping()` says so (the server stops), what is finished is kept and the job waits for the next
    analyst (KeyboardInterrupt is raised once it is)."""
    from whispers.ledger.io.game import load

    try:
        record = load(store, job.game)
        found = analysis.positions(record.events, job.viewer)
        kept = analysis.stored(store, job.game, job.viewer)
        had = {p.version: p.rollouts for p in kept.points} if kept else {}
        owed = [max(0, job.rollouts - had.get(p.version, 0)) for p in found]  # in the order they are played
        before = sum(1 for n in owed if n == 0)
        started = clock()
        job = _update(store, job, owner, moves=len(found), moves_done=before, resumed=before, beat=started,
                      left=None)
        written = started

        def step(done: int, total: int) -> None:
            nonlocal job, written
            if stopping():
                raise KeyboardInterrupt
            now = clock()
            if now - written < BEAT_SECONDS:
                return
            written = now
            left = (total - done) * (now - started) / done if done else None
            job = _update(store, job, owner, moves_done=before + _finished(owed, done), left=left, beat=now)

        analysis.analyse(store, job.game, job.rollouts, job.viewer, jobs=1, progress=step)
        return _update(store, job, owner, state="done", moves_done=len(found), left=0.0, beat=clock())
    except KeyboardInterrupt:
        with contextlib.suppress(Lost, WhispersError):  # left for the next analyst, from what is stored
            _update(store, job, owner, state="queued", owner=None, left=None)
        raise
    except Lost:
        return job
    except Exception:
        LOG.exception("the analysis of %s as %s failed", job.game, job.viewer or "the record")
        with contextlib.suppress(Lost, WhispersError):
            job = _update(store, job, owner, state="failed", left=None, beat=clock())
        return job


def _finished(owed: list[int], done: int) -> int:
    """How many of the moves still owed playouts have all of theirs among the first `done` played (they are
    played in the moves' order)."""
    count = 0
    for n in owed:
        if n == 0:
            continue
        if done < n:
            break
        done -= n
        count += 1
    return count


def analyst(url: str, stop: Connection, idle: float = IDLE_SECONDS, retire: float = RETIRE_SECONDS) -> None:
    """An analyst process's life (the server starts it, `web/analysts.py`): claim a job, run it, again, until it
    had nothing to do for `retire` seconds, or its server says stop or is gone: `stop` is the reading end of a
    pipe whose other end only the server holds, so it reads as ready (`poll`) when the server closes it, or dies.
    It runs at a lower priority than the server, so a table's move is decided first."""
    import signal

    from whispers.ledger.io.store import open_store

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C on the server's terminal: the server stops it
    with contextlib.suppress(OSError):
        os.nice(10)
    owner = owner_id()

    def stopping() -> bool:
        return bool(stop.poll())

    with open_store(url) as store:
        worked = time.monotonic()
        while not stopping() and time.monotonic() - worked < retire:
            try:
                job = claim(store, owner)
            except WhispersError as exc:  # the store failed for a moment: look again later
                LOG.warning("the analyses' queue could not be read: %s", exc)
                job = None
            if job is None:
                stop.poll(idle)
                continue
            try:
                run(store, job, owner, stopping)
            except KeyboardInterrupt:
                return
            worked = time.monotonic()
