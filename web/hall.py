"""The public board for the hall (`serve --tournament FILE`): one page and its live stream, public and read-only,
for a projector and phones (application/board.py). Beside web/app.py, which registers these routes."""

from __future__ import annotations

import asyncio
import contextlib
import html
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response, StreamingResponse
from starlette.routing import Route

from whispers.application.board import board_allows, public_board
from whispers.ledger.core.errors import StoreError, WhispersError
from whispers.ledger.core.words import N_, _
from whispers.projections.language import speak, stop

if TYPE_CHECKING:
    from whispers.application.stores import Store
    from whispers.web.live import Hub

KEEPALIVE_SECONDS = 15.0


def hall_routes(store: Store, hub: Hub, page: Callable[..., HTMLResponse], director_token: str,
                tournament: Path | None, language_of: Callable[[Request], str]) -> list[Route]:
    """/hall/{token}/ (the board) and /hall/{token}/live (`event: changed` when a game of the tournament moves,
    with no data: what moved is the page's to show). A wrong token, or a server without --tournament, is a 404 in
    the words every other page not found uses."""

    def not_found() -> Response:
        said = html.escape(_(N_("Not found")))
        return HTMLResponse(f"<!doctype html><title>{said}</title><p>{said}</p>", status_code=404)

    async def board_page(request: Request) -> Response:
        token = speak(language_of(request))
        try:
            if tournament is None or not board_allows(director_token, request.path_params["token"]):
                return not_found()
            try:
                board = await run_in_threadpool(public_board, store, tournament)
            except StoreError as exc:
                return page("error.html", 503, message=str(exc))
            except WhispersError as exc:  # the file changed under the server and is no longer valid
                return page("error.html", 400, message=str(exc))
            return page("hall.html", board=board.to_json(), token=request.path_params["token"])
        finally:
            stop(token)

    async def board_live(request: Request) -> Response:
        if tournament is None or not board_allows(director_token, request.path_params["token"]):
            return not_found()
        return StreamingResponse(_changes(hub, tournament), media_type="text/event-stream")

    return [Route("/hall/{token}/", board_page), Route("/hall/{token}/live", board_live)]


async def _changes(hub: Hub, tournament: Path) -> AsyncIterator[str]:
    """`event: changed` whenever a game the tournament file names changes (read again at each change: a round
    paired while the server runs is followed too); a keep-alive comment otherwise."""
    from whispers.application.tournament import read_text
    from whispers.projections.standings import load_tournament
    from whispers.web.live import EVERY_GAME

    with hub.subscribed(EVERY_GAME) as queue:
        yield ": following\n\n"
        while True:
            try:
                change = await asyncio.wait_for(queue.get(), KEEPALIVE_SECONDS)
            except TimeoutError:
                yield ": still here\n\n"
                continue
            games: set[str] = set()
            with contextlib.suppress(WhispersError):
                games = set(load_tournament(read_text(tournament), str(tournament)).games)
            if change.game in games:
                yield "event: changed\ndata: {}\n\n"
