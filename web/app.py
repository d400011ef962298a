"""The web face: pages and a JSON API over the application layer, opened by capability links (docs/api.md).

Every route resolves its token through application.sharing first; a bad token, a revoked one, a game never
shared and a game that does not exist all answer the same 404. Views go through the visibility policy as the
link's viewer (the record for the table, a society for its seat, the spectator), via the application's use cases.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from whispers.application import files, following, reading, recording, review, sharing, svg
from whispers.application.sharing import Access
from whispers.ledger.errors import GameMovedOn, NoSuchEvent, RuleError, UnknownGame, WhispersError
from whispers.ledger.words import LANGUAGES, _, cite, n_, position, term, tongue
from whispers.projections.language import canonical, from_header, speak, stop

HERE = Path(__file__).parent
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {"content-security-policy": CSP, "referrer-policy": "no-referrer",  # a link's token must not leak
           "x-content-type-options": "nosniff", "cache-control": "no-store"}
POLL_SECONDS = 1.0
NOT_FOUND = "Not found"


class SecurityHeaders:
    """Adds the CSP (no inline script) and the no-referrer policy to every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.decode().lower() not in HEADERS]
                headers += [(k.encode(), v.encode()) for k, v in HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)


def _not_found(api: bool) -> Response:
    if api:
        return JSONResponse({"error": NOT_FOUND}, status_code=404)
    return HTMLResponse(f"<!doctype html><title>{NOT_FOUND}</title><p>{NOT_FOUND}</p>", status_code=404)


def create_app(store: Any, director_token: str) -> Starlette:
    """The application over `store` (an open Store, shared by every request, or a URL opened once here)."""
    from whispers.application.stores import opened

    holder = None
    if not hasattr(store, "facts"):  # a URL: opened once, closed when the server stops
        holder = opened(store)
        store = holder.__enter__()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            if holder is not None:
                holder.__exit__(None, None, None)
    templates = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                            extensions=["jinja2.ext.i18n"])
    # looked up when a page renders, in the language of its request (`speaking`)
    templates.install_gettext_callables(gettext=_, ngettext=lambda s, p, n: n_(s, p, n), newstyle=True)
    templates.filters["term"] = term
    templates.filters["position"] = position

    def page(name: str, **context: Any) -> HTMLResponse:
        return HTMLResponse(templates.get_template(name).render(lang=tongue().code, **context))

    def resolve(request: Request) -> Access:
        return sharing.access(store, request.path_params["game"], request.path_params["token"])

    def guarded(api: bool = False):
        def wrap(handler):
            async def endpoint(request: Request) -> Response:
                token = speak(language_of(request))
                try:
                    return await _guarded(request, handler)
                finally:
                    stop(token)

            async def _guarded(request: Request, handler) -> Response:
                try:
                    found = resolve(request)
                except UnknownGame:
                    return _not_found(api)
                except WhispersError as exc:  # the store failed: nothing about the game
                    return JSONResponse({"error": str(exc)}, status_code=503)
                try:
                    return await handler(request, found)
                except UnknownGame:
                    return _not_found(api)
                except NoSuchEvent as exc:
                    return JSONResponse({"error": str(exc)}, status_code=404) if api else _not_found(False)
                except GameMovedOn as exc:
                    return JSONResponse({"error": str(exc), "moved_on": True}, status_code=409)
                except RuleError as exc:
                    return JSONResponse({"error": exc.reason, "rule": exc.rule, "cited": cite(exc.rule)},
                                        status_code=422)
                except WhispersError as exc:
                    return JSONResponse({"error": str(exc)}, status_code=422 if api else 400)
            return endpoint
        return wrap

    def base(found: Access, request: Request) -> str:
        return f"/g/{request.path_params['game']}/{request.path_params['token']}/"

    @guarded()
    async def game_page(request: Request, found: Access) -> Response:
        state = reading.status(store, found.game, found.viewer)
        return page("game.html", found=found, s=state.to_json(), base=base(found, request),
                    options=[reading.option_json(o) for o in state.options] if found.may_record else [])

    @guarded()
    async def replay_page(request: Request, found: Access) -> Response:
        at = _at(request)
        replayed = review.replay(store, found.game, at, found.viewer)
        frame = replayed.frame(replayed.at)
        moves = following.move_labels(replayed)
        return page("replay.html", found=found, f=frame.to_json(), s=frame.view, at=replayed.at,
                    total=len(replayed), moves=moves, base=base(found, request))

    @guarded(api=True)
    async def timeline_picture(request: Request, found: Access) -> Response:
        picture = svg.timeline_svg(store, found.game, found.viewer, _at(request))
        return Response(picture, media_type="image/svg+xml")

    @guarded(api=True)
    async def board_picture(request: Request, found: Access) -> Response:
        return Response(svg.board_svg(store, found.game, _at(request)), media_type="image/svg+xml")

    @guarded(api=True)
    async def api_status(request: Request, found: Access) -> Response:
        return JSONResponse(reading.status(store, found.game, found.viewer).to_json())

    @guarded(api=True)
    async def api_replay(request: Request, found: Access) -> Response:
        return JSONResponse(review.replay(store, found.game, _at(request), found.viewer).to_json())

    @guarded(api=True)
    async def api_log(request: Request, found: Access) -> Response:
        return JSONResponse(reading.log(store, found.game, found.viewer).to_json())

    @guarded(api=True)
    async def api_move(request: Request, found: Access) -> Response:
        # The token must come in the Authorization header as well: a cross-site form cannot set it.
        given = request.headers.get("authorization", "")
        if not found.may_record or given != f"Bearer {request.path_params['token']}":
            return _not_found(True)
        try:
            body = await request.json()
        except ValueError:
            return JSONResponse({"error": "the body is not JSON"}, status_code=400)
        if not isinstance(body, dict) or not isinstance(body.get("line"), str):
            return JSONResponse({"error": 'send {"line": "<one notation line>"}'}, status_code=400)
        seen = body.get("version")
        if seen is not None and (not isinstance(seen, int) or isinstance(seen, bool)):
            return JSONResponse({"error": "version: the number of events the page showed"}, status_code=400)
        current = recording.open_game(store, found.game)
        if seen is not None and seen != current.version:
            raise GameMovedOn(f"the game moved on: it is at event {current.version}, this page showed {seen}")
        # the table may type its own words (Ours Commissaire); the notation reads canonical ids
        line = body["line"] if tongue().code == "en" else canonical(body["line"], tongue().code)
        command = recording.parse_move(line)
        if command is None:
            return JSONResponse({"error": "an empty line: nothing to record"}, status_code=422)
        done = recording.record_move(store, current, command)
        return JSONResponse({**done.to_json(), "line": line}, status_code=201)

    @guarded(api=True)
    async def live(request: Request, found: Access) -> Response:
        """Server-sent events: the game's version whenever it changes, read from the store's notification log
        (so a move recorded by another process or the CLI is seen too)."""
        async def stream():
            position = following.position(store)
            while not await request.is_disconnected():
                await asyncio.sleep(POLL_SECONDS)
                position, version = following.changed_since(store, found.game, position)
                if version is not None:
                    yield f"event: version\ndata: {json.dumps(version)}\n\n"
                else:
                    yield ": still here\n\n"
        return StreamingResponse(stream(), media_type="text/event-stream")

    def director(handler):
        async def endpoint(request: Request) -> Response:
            if not sharing.director_allows(director_token, request.path_params["token"]):
                return _not_found(False)
            token = speak(language_of(request))
            try:
                return await handler(request)
            except WhispersError as exc:
                return page("error.html", message=str(exc))
            finally:
                stop(token)
        return endpoint

    @director
    async def director_page(request: Request) -> Response:
        rows = reading.games(store).to_json()
        return page("director.html", rows=rows, token=request.path_params["token"])

    @director
    async def director_verify(request: Request) -> Response:
        game = request.path_params["game"]
        if not any(r["game"] == game for r in reading.games(store).to_json()):
            return _not_found(False)
        checked = files.verify(store, game).to_json()
        return page("verify.html", game=game, checked=checked, token=request.path_params["token"])

    routes = [
        Route("/g/{game}/{token}/", game_page),
        Route("/g/{game}/{token}/replay", replay_page),
        Route("/g/{game}/{token}/api/status", api_status),
        Route("/g/{game}/{token}/api/replay", api_replay),
        Route("/g/{game}/{token}/api/log", api_log),
        Route("/g/{game}/{token}/moves", api_move, methods=["POST"]),
        Route("/g/{game}/{token}/live", live),
        Route("/g/{game}/{token}/timeline.svg", timeline_picture),
        Route("/g/{game}/{token}/board.svg", board_picture),
        Route("/director/{token}/", director_page),
        Route("/director/{token}/verify/{game}", director_verify),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]

    async def missing(request: Request, exc: Exception) -> Response:
        return _not_found(False)

    return Starlette(routes=routes, middleware=[Middleware(SecurityHeaders)], lifespan=lifespan,
                     exception_handlers={404: missing, 405: missing})


def from_environment() -> Starlette:
    """The application `whispers serve` runs: the store of $WHISPERS_STORE, the director's token of
    $WHISPERS_DIRECTOR_TOKEN (serve sets both)."""
    import os

    token = os.environ.get("WHISPERS_DIRECTOR_TOKEN", "")
    if len(token) < 22:  # 128 bits in url-safe base64
        raise SystemExit("WHISPERS_DIRECTOR_TOKEN: at least 22 characters (whispers serve makes one)")
    return create_app(os.environ.get("WHISPERS_STORE"), token)


def language_of(request: Request) -> str:
    """The page's language: the link's ?lang= when it names one of ours, else the browser's Accept-Language."""
    asked = request.query_params.get("lang")
    return asked if asked in LANGUAGES else from_header(request.headers.get("accept-language"))


def _at(request: Request) -> int | None:
    raw = request.query_params.get("at")
    if raw is None:
        return None
    if not raw.isdigit():
        raise WhispersError("at: a number of events")
    return int(raw)

