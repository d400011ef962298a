"""The server's analysts: processes of their own that run the analyses the pages ask for (issue 34).

An analysis plays thousands of games to their end: seconds of CPU a move. It never runs on a request, nor in a
thread of the server: each analyst is a process of its own (application.analysis_jobs.analyst), started by the
server when the first analysis is asked for (or at its start when some wait in the store),
at a lower priority, which claims the queued analyses from the store one after the other, one at a time per game.
The server only queues them and reads their progress, so a table's move never waits for one. The analysts are
stopped with the server (what they finished is kept; the next run goes on from it), and stop by themselves when
their server is gone.
"""

from __future__ import annotations

import multiprocessing
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

STOP_SECONDS = 10.0
"""How long the server waits for an analyst to keep what it finished before it is terminated."""


class Analysts:
    """`count` analyst processes over the store at `url`; none when the store is in this process's memory (another
    process cannot open it) or `count` is 0: the pages then offer no analysis."""

    def __init__(self, url: str | None, count: int) -> None:
        self.url = url
        self.count = count if url and url != "memory:" else 0
        self._context = multiprocessing.get_context("spawn")  # not a fork of a server holding threads and sockets
        # the writing end of the analysts' pipe: closed (or the server gone), they stop
        self._stop: Connection | None = None
        self._processes: list[BaseProcess] = []

    @property
    def available(self) -> bool:
        return self.count > 0

    def start(self) -> None:
        """The analysts started, unless some run already: the server starts them when an analysis is asked for or
        is seen waiting (a page following one, or the server's start: one left by a server stopped or killed);
        an analyst with nothing to do ends after a while (analysis_jobs.RETIRE_SECONDS)."""
        from whispers.application.analysis_jobs import analyst

        self._processes = [p for p in self._processes if p.is_alive()]
        if not self.count or self._processes:
            return
        if self._stop is not None:
            self._stop.close()
        heard, self._stop = self._context.Pipe(duplex=False)
        for number in range(self.count):
            process = self._context.Process(target=analyst, args=(self.url, heard),
                                            name=f"whispers-analyst-{number}", daemon=True)
            process.start()
            self._processes.append(process)
        heard.close()  # the analysts hold it now: the server keeps only the end it closes to stop them

    def stop(self) -> None:
        if self._stop is not None:
            self._stop.close()
            self._stop = None
        for process in self._processes:
            process.join(STOP_SECONDS)
            if process.is_alive():
                process.terminate()
                process.join(STOP_SECONDS)
        self._processes.clear()
