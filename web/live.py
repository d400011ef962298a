"""Live updates for the web face: one follower of the store per server process, fanned out to every open stream.

A thread reads the store's log (application.following.Follower: LISTEN/NOTIFY on PostgreSQL, else a short poll)
and hands each change to the event loop, which passes it to the streams following that game. A stream sends
each new event once, numbered (`id:` is its version, so a browser that reconnects resumes with Last-Event-ID and
misses nothing), then the game's version; a keep-alive comment when nothing happens.

What is stored beside a game's record (its notes, a seat's dispute among them) does not move its version: a stream
hears of it as `event: noted`, at once from the server that stored it (`announce`), and from the follower for a
note another process stored.

A link's stream lasts only while its link does: before it sends a change, and at least every REVALIDATE_SECONDS
when none comes, it asks the store again whether the link still opens the game (`still_opens`), and ends when it
does not. So `whispers share --revoke`, run anywhere (another process, another machine), ends every open stream of
the old links on every server: the links' hashes live in the store, not in a process."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING

from whispers.application import following
from whispers.application.following import Change

if TYPE_CHECKING:
    from whispers.application.stores import Store
    from whispers.ledger.core.events import Event

POLL_SECONDS = 0.05  # the log's head, read once per process: a cheap query
WAIT_SECONDS = 1.0  # on PostgreSQL a NOTIFY ends the wait at once; this bounds how stale a missed one leaves us
KEEPALIVE_SECONDS = 15.0
REVALIDATE_SECONDS = 1.0  # how long a revoked link's idle stream may stay open (it never receives a change)
EVERY_GAME = ""  # the key of the streams that hear of every game's changes (the director's screen); no game has it
NOTED = "noted"  # the event a game's streams hear when its notes change (a seat's dispute among them)


class Hub:
    """The streams of one server process, by game, fed by one follower thread (started with the first stream)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._streams: dict[str, set[asyncio.Queue[Change | str]]] = {}
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._notes: dict[str, int] = {}  # how many notes each followed game held when last asked
        self._nudged = threading.Event()

    def nudge(self) -> None:
        """This process has just stored something: the follower reads the log now rather than at its next poll
        (the log stays the one source; a move stored by another process is read at the poll, as before)."""
        self._nudged.set()

    def _start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self._loop = asyncio.get_running_loop()
        self._stop.clear()
        # made here, before the first stream reads its game's version: the follower starts from a position no
        # later than that, so the first change after it is passed on, not only noticed at the next one
        follower = following.Follower(self._store, POLL_SECONDS, self._nudged)
        self._thread = threading.Thread(target=self._follow, args=(follower,), name="whispers-follower",
                                        daemon=True)
        self._thread.start()

    def _follow(self, follower: following.Follower) -> None:
        noted = self._notes
        try:
            while not self._stop.is_set():
                try:
                    changes = follower.changes(WAIT_SECONDS)
                    told = self._noted(noted, follower.beside)
                except Exception:  # the store failed for a moment (a lost connection): retry, streams wait
                    self._stop.wait(WAIT_SECONDS)
                    continue
                if changes and self._loop is not None:
                    self._loop.call_soon_threadsafe(self._publish, changes)
                for game in told:
                    if self._loop is not None:
                        self._loop.call_soon_threadsafe(self.announce, game, NOTED)
        finally:
            follower.close()

    def _noted(self, noted: dict[str, int], beside: bool) -> list[str]:
        """The followed games whose notes changed, when the log met something beside the games' events (any
        process may have stored it: a seat's dispute posted to another server). Each game's count is first taken
        when a stream of it opens (`stream`)."""
        if not beside:
            return []
        told = []
        for game in [game for game in list(self._streams) if game != EVERY_GAME]:
            count = following.notes_count(self._store, game)
            if noted.get(game, count) != count:
                told.append(game)
            noted[game] = count
        return told

    def _publish(self, changes: list[Change]) -> None:
        for change in changes:
            for queue in (*self._streams.get(change.game, ()), *self._streams.get(EVERY_GAME, ())):
                queue.put_nowait(change)

    def announce(self, game: str, kind: str) -> None:
        """Tells this process's streams of `game` that something beside its record changed (`kind`: NOTED, its
        notes, a seat's dispute among them), which its version does not show. Called on the event loop: by the
        server that stored it, at once, and by the follower for what another process stored (`_noted`)."""
        for queue in self._streams.get(game, ()):
            queue.put_nowait(kind)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    @contextlib.contextmanager
    def subscribed(self, game: str):
        self._start()
        queue: asyncio.Queue[Change | str] = asyncio.Queue()
        self._streams.setdefault(game, set()).add(queue)
        try:
            yield queue
        finally:
            self._streams[game].discard(queue)
            if not self._streams[game]:
                del self._streams[game]
                self._notes.pop(game, None)

    async def stream(self, game: str, viewer: str | None, after: int | None,
                     still_opens: Callable[[], bool] = lambda: True) -> AsyncIterator[str]:
        """The server-sent events for one viewer of `game`, from version `after` (None: from now), for as long as
        `still_opens()` (asked in a worker thread: it reads the store) says its link opens the game."""
        with self.subscribed(game) as queue:  # first, so nothing stored from here on is missed
            last = following.version(self._store, game)
            self._notes.setdefault(game, following.notes_count(self._store, game))
            if after is not None and after < last:  # a reconnection: what it missed first
                for text in _sent(following.events_between(self._store, game, after, last), viewer):
                    yield text
            yield f"event: version\ndata: {last}\n\n"
            quiet_since = time.monotonic()
            async for change in _waited(queue, REVALIDATE_SECONDS):
                if not await asyncio.to_thread(still_opens):
                    return  # revoked: nothing more, not even this change
                if isinstance(change, str):  # announced (`announce`): its kind, as an event of its own
                    yield f"event: {change}\ndata: {last}\n\n"
                    continue
                if change is None:
                    if time.monotonic() - quiet_since >= KEEPALIVE_SECONDS:
                        quiet_since = time.monotonic()
                        yield ": still here\n\n"
                    continue
                if change.version <= last:
                    continue  # sent already (the catch-up read it)
                events = change.events
                if change.first > last + 1:  # the stream began between two reads of the log
                    events = following.events_between(self._store, game, last, change.version)
                for text in _sent(tuple((v, e) for v, e in events if v > last), viewer):
                    yield text
                last = change.version
                quiet_since = time.monotonic()
                yield f"event: version\ndata: {last}\n\n"

    async def every_game(self) -> AsyncIterator[str]:
        """The server-sent events of the director's screen: `event: changed` (the game's name) whenever any game
        of the store changes, whichever process stored it."""
        with self.subscribed(EVERY_GAME) as queue:
            yield ": following\n\n"  # subscribed: from here on no change is missed
            async for change in _waited(queue, KEEPALIVE_SECONDS):
                if change is None:
                    yield ": still here\n\n"
                elif not isinstance(change, str):  # an announcement is for its game's pages only
                    yield f"event: changed\ndata: {json.dumps(change.game)}\n\n"


async def _waited(queue: asyncio.Queue[Change | str], seconds: float) -> AsyncIterator[Change | str | None]:
    """Each change as it comes, and None whenever none came for `seconds`."""
    while True:
        try:
            yield await asyncio.wait_for(queue.get(), seconds)
        except TimeoutError:
            yield None


def _sent(events: tuple[tuple[int, Event], ...], viewer: str | None) -> list[str]:
    return [f"id: {v}\nevent: event\ndata: {json.dumps({'version': v, 'event': following.event_json(e, viewer)})}\n\n"
            for v, e in events]
