"""The web face: pages and a JSON API over the application layer, opened by capability links (docs/api.md).

Module-level handlers over a small `Site` (the store, the held games, the hub, the templates), in one table of
routes (`ROUTES`) each with its guard; every write passes its guard's one `may` and bearer check and reads its
body through `_json`. Every route resolves its token through application.sharing first; a bad token, a revoked
one, a game never shared and a game that does not exist all answer the same 404. Views go through the visibility
policy as the link's viewer (the record for the table, a society for its seat, the spectator), via the
application's use cases.
"""

from __future__ import annotations

import contextlib
import html
import json
import logging
import os
import re
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TypedDict, TypeVar, cast
from urllib.parse import quote, urlencode

from jinja2 import Environment, FileSystemLoader, pass_context, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import BaseRoute, Match, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from whispers.application import (
    analysis_jobs,
    files,
    following,
    moves,
    numbers,
    reading,
    recording,
    review,
    seats,
    sharing,
    svg,
)
from whispers.application import director as hall
from whispers.application.analysis import stored as stored_analysis
from whispers.application.sharing import Access
from whispers.ledger.core import errors
from whispers.ledger.core.errors import (
    GameMovedOn,
    NoSuchEvent,
    NotationError,
    RuleError,
    StoreError,
    StoreUnavailable,
    UnknownGame,
    VerifyError,
    WhispersError,
)
from whispers.ledger.core.names import ABILITIES_PER_CARD, OFFICES, SLOTS
from whispers.ledger.core.plain import Data
from whispers.ledger.core.words import (
    KIND_OF,
    LANGUAGES,
    N_,
    _,
    cite,
    effect_name,
    key_word,
    n_,
    position,
    say,
    term,
    tongue,
    trail_step,
)
from whispers.projections.language import from_header, speak, stop
from whispers.web.analysts import Analysts
from whispers.web.hall import hall_routes
from whispers.web.live import NOTED, Hub

if TYPE_CHECKING:
    from whispers.application.analysis import Analysis
    from whispers.application.analysis_jobs import Progress
    from whispers.application.stores import Store
    from whispers.ledger.core.commands import Command
    from whispers.projections.chances_plot import Plot
    from whispers.projections.visibility import HandView

HERE = Path(__file__).parent
# form-action 'self': the director's search is a plain GET form to its own page (every write goes by fetch)
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = {"content-security-policy": CSP, "referrer-policy": "no-referrer",  # a link's token must not leak
           "x-content-type-options": "nosniff", "cache-control": "no-store"}
NOT_FOUND = N_("Not found")
LOG = logging.getLogger("whispers.web")


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
    said = html.escape(_(NOT_FOUND))
    if api:
        return JSONResponse({"error": _(NOT_FOUND)}, status_code=404)
    return HTMLResponse(f"<!doctype html><title>{said}</title><p>{said}</p>", status_code=404)


class BadRequest(Exception):
    """A body that is not what the route takes: 400 with one line."""


BODY_LIMIT = 64 * 1024
"""Bytes a write's body may hold: the longest is a note (4,000 characters and a 64-character author)."""
DEPTH_LIMIT = 4
"""How deep a body's arrays and objects may nest: a reveal's `tokens` object, the deepest a write takes, is 2."""


async def _json(request: Request) -> object:
    """The JSON a write sent, read once by every write: at most BODY_LIMIT bytes (refused as they come, before
    the rest is read), nested at most DEPTH_LIMIT deep, each number within application.numbers.LARGEST either way
    and finite; else BadRequest, one line."""
    sent = bytearray()
    async for chunk in request.stream():
        sent += chunk
        if len(sent) > BODY_LIMIT:
            raise BadRequest(say("the body is larger than {limit} bytes", limit=BODY_LIMIT))
    try:
        body = json.loads(bytes(sent), parse_int=_bounded, parse_float=_bounded_float, parse_constant=_no_constant)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the decoder goes
        raise BadRequest(_("the body is not JSON")) from None
    if _deeper_than(body, DEPTH_LIMIT):
        raise BadRequest(say("the body nests deeper than {depth}", depth=DEPTH_LIMIT))
    return body


def _bounded(text: str) -> int:
    number = numbers.whole(text.removeprefix("-"))
    if number is None:
        raise BadRequest(say("a number in the body is beyond {largest}", largest=numbers.LARGEST))
    return -number if text.startswith("-") else number


def _bounded_float(text: str) -> float:
    number = float(text)
    if not abs(number) <= numbers.LARGEST:  # inf and nan too
        raise BadRequest(say("a number in the body is beyond {largest}", largest=numbers.LARGEST))
    return number


def _no_constant(text: str) -> NoReturn:
    raise ValueError(text)  # NaN, Infinity: not JSON


def _deeper_than(value: object, limit: int) -> bool:
    """Whether `value` nests arrays or objects more than `limit` deep (walked without recursion)."""
    waiting = [(value, 1)]
    while waiting:
        item, depth = waiting.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            waiting += [(inner, depth + 1) for inner in (item.values() if isinstance(item, dict) else item)]
    return False


async def _body(request: Request, fields: dict[str, type]) -> Data:
    """The JSON object a write takes (read by `_json`), each named field of its type (optional ones may be missing
    or null): `_given` reads them."""
    body = await _json(request)
    if not isinstance(body, dict):
        raise BadRequest("send a JSON object")
    for name, kind in fields.items():
        value = body.get(name)
        if value is not None and (not isinstance(value, kind) or (isinstance(value, bool) and kind is int)):
            raise BadRequest(f"{name}: {kind.__name__} expected")
    return body


_T = TypeVar("_T")


def _given(body: Data, name: str, kind: type[_T]) -> _T | None:
    """The field `name` of a `_body` read with it of type `kind`; None when it is missing or null."""
    value = body.get(name)
    return value if isinstance(value, kind) else None


def _bearer_ok(request: Request) -> bool:
    """A write carries the link's token in the Authorization header too: a cross-site form cannot set it, and
    no cookie is ever used."""
    return request.headers.get("authorization", "") == f"Bearer {request.path_params['token']}"


def _hand_list(hand: HandView) -> list[str]:
    """A hand's cards as a picker offers them: the names the viewer knows, then the bare empire for each card of
    that empire it does not (the notation takes either)."""
    known = list(hand.get("known") or [])
    cards = list(known)
    for empire, count in hand.get("by_empire", {}).items():
        named = sum(1 for card in known if card.split(":", 1)[0] == empire)
        cards += [empire] * max(0, count - named)
    return cards


def _per_page(words: Callable[..., str]) -> Callable[..., str]:
    """A filter that puts ids in words, called as each page renders, in its reader's language. Jinja works out a
    filter of constants (`"setup" | term("phase")`) once, when it compiles the template, in the language of the
    first page it served; a filter that takes the render's context is never worked out ahead."""
    return pass_context(lambda _context, *args: words(*args))


@dataclass(frozen=True, slots=True)
class Site:
    """What every handler works over: the store (open for the server's life), the games held folded between
    moves, the hub of live streams, the page templates, the pictures drawn lately, the director's token, the
    tournament file the director's pages show, the analysts with the playouts a move an analysis asks for, and the
    game pages rendered lately (game_page), kept as the pictures are."""

    store: Store
    director_token: str
    tournament: Path | None
    hub: Hub
    held: recording.HeldGames
    templates: Environment
    pictures: Pictures
    analysts: Analysts
    analysis_rollouts: int
    pages: Pictures
    """The game pages rendered lately (game_page), kept as the pictures are."""

    def page(self, name: str, status_code: int = 200, **context: object) -> HTMLResponse:
        return HTMLResponse(self.templates.get_template(name).render(lang=tongue().code, **context),
                            status_code=status_code)

    def resolve(self, request: Request, by_director: bool) -> Access:
        game, token = request.path_params["game"], request.path_params["token"]
        if by_director:
            if not sharing.director_allows(self.director_token, token):
                raise UnknownGame("no such page")
            return sharing.director_access(self.store, game)
        return sharing.access(self.store, game, token)


def _templates() -> Environment:
    templates = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["html"]),
                            extensions=["jinja2.ext.i18n"])
    # looked up when a page renders, in the language of its request (`speaking`)
    templates.install_gettext_callables(  # type: ignore[attr-defined]  # the i18n extension adds it
        gettext=_, ngettext=lambda s, p, n: n_(s, p, n), newstyle=True)
    templates.filters["term"] = _per_page(term)
    templates.filters["position"] = _per_page(position)
    templates.filters["said"] = _per_page(moves.said_line)  # a notation line in the reader's words
    templates.filters["label"] = _per_page(moves.said_label)  # a move's label: m12 R1 Déployer 8
    templates.filters["effect"] = _per_page(effect_name)  # a decree effect's (English) name: Renforts
    templates.filters["key"] = _per_page(key_word)  # a notation key or an effect's parameter: payer, vers
    templates.globals["word"] = _word
    templates.globals["asking"] = _asking
    templates.globals.update(offices=OFFICES, slots=SLOTS, abilities=ABILITIES_PER_CARD, hand_list=_hand_list,
                             words_of=_words_of, card_names=reading.card_choices,
                             trail_step=trail_step, said_line=moves.said_line)
    return templates


@dataclass(frozen=True, slots=True)
class Guard:
    """How a route of a game is opened: by a link's token or the director's (`by_director`), answering JSON or a
    page when refused (`api`); a write names who `may` make it, and carries its token as a bearer too."""

    api: bool = False
    by_director: bool = False
    may: Callable[[Access], bool] | None = None


def _base(found: Access, request: Request) -> str:
    game, token = request.path_params["game"], request.path_params["token"]
    return f"/director/{token}/g/{game}/" if found.role == "director" else f"/g/{game}/{token}/"


# --- a game's pages and API, as a link (or the director) opens them -----------------------------------------------

async def game_page(site: Site, request: Request, found: Access) -> Response:
    # Every open page fetches itself again after each move (app.js): drawn in a worker thread (with the request's
    # language: its context is copied), as a move is, so that the event loop keeps streaming meanwhile; and kept
    # by what it shows (the link, the game's version, the language, the table's disputes), so that the four
    # spectators' pages of a table (one link) cost one render a move. The version is read first: a page kept under
    # it is never older.
    version = following.version(site.store, found.game)
    token = request.path_params["token"]
    # the board to tap (public: one drawing per version and language, whoever asks)
    board = await site.pictures.drawn(("board-page", found.game, version, tongue().code),
                                      lambda: svg.board_page_svg(site.store, found.game, version))
    # a seat's dispute is a note, which moves no version on: the table's page is kept by its disputes too
    disputes = seats.disputes(site.store, found.game, version) if found.may_record else ()

    def render() -> bytes:
        state = reading.status(site.store, found.game, found.viewer)
        result = _final_result(site, found.game) if state.view["over"] else None
        recording_here = found.may_record and not state.view["over"]
        # what the last move did as this link may know it; a seat's swaps, for its page to check
        happened = reading.happened(site.store, found.game, found.viewer, version)
        swaps = seats.swaps(site.store, found.game, found.society, version) if found.society else ()
        return bytes(site.page("game.html", found=found, s=state.to_json(), base=_base(found, request),
                               scores=state.scores, token=token, result=result, board=board,
                               board_moves=moves.board_moves(state.options) if recording_here else [],
                               happened=happened, disputes=disputes, swaps=[swap.to_json() for swap in swaps],
                               options=[reading.option_json(o) for o in state.options] if found.may_record
                               else []).body)

    shown = ("page", found.game, version, _base(found, request), token, tongue().code,
             tuple(dispute.label for dispute in disputes))
    return HTMLResponse(await site.pages.drawn(shown, render))


def _final_result(site: Site, game: str) -> reading.Score | None:
    """The final scores of a game that is over, for every link: its sets are all revealed and scored in the record
    (`GameScored`), so no link learns a secret from them; None when the record holds no final scoring."""
    found = reading.score(site.store, game)
    return found if found.final else None


async def replay_page(site: Site, request: Request, found: Access) -> Response:
    at = _at(request)
    replayed = review.replay(site.store, found.game, at, found.viewer)
    frame = replayed.frame(replayed.at)
    labelled = following.move_labels(replayed)  # worded once: the move list, and the timeline of each round
    rounds, here = following.by_round(replayed, labelled)
    here_base = _base(found, request)
    back = (f"/director/{request.path_params['token']}/", _("all games")) if found.role == "director" else \
        (here_base, _("back to the game"))
    over = replayed.replay.at(len(replayed)).over
    return site.page("replay.html", found=found, f=frame.to_json(), s=frame.view, at=replayed.at,
                     amended=following.amendments(replayed),
                     amend_line=replayed.amendable(replayed.at) if found.may_amend else None,
                     total=len(replayed), rounds=rounds, here_round=here, timeline_round=here or None,
                     moves_by_version=dict(labelled), noted=following.notes_by_event(replayed),
                     scores=frame.scores, base=here_base, token=request.path_params["token"], back=back[0],
                     back_label=back[1], **_analysis_view(site, found, replayed.at, over))


class AnalysisView(TypedDict):
    """`_analysis_view`: what the replay page's analysis panel reads."""

    chances: Analysis | None
    plot: Plot | None
    progress: Progress
    offer: bool
    knew: str


def _analysis_view(site: Site, found: Access, at: int, over: bool) -> AnalysisView:
    """What the replay page shows of the analysis for the link's viewer: its progress while it runs, else the
    chart of the stored one (as that viewer knew the game: never the record's on a seat's or the spectator's
    link), and whether it offers to ask for one (a finished game, analysts running, none complete yet)."""
    from whispers.projections.chances_plot import plot
    from whispers.projections.colours import society_colour

    job = analysis_jobs.status(site.store, found.game, found.viewer)
    progress = analysis_jobs.progress_json(job)
    chances = stored_analysis(site.store, found.game, found.viewer)
    drawn = None
    if chances is not None and chances.points:
        points = chances.points
        drawn = plot([p.move for p in points], [p.version for p in points],
                     [p.label or f"m{p.move}" for p in points],
                     {s: [p.chances[s] for p in points] for s in chances.societies},
                     {s: society_colour(s).strong for s in chances.societies},
                     {t.version: t.society for t in chances.turning}, at,
                     {s: term(s) for s in chances.societies})
    running = progress["state"] in ("queued", "running")
    offer = (over and site.analysts.available and not running
             and (chances is None or not chances.complete or chances.rollouts < site.analysis_rollouts))
    knew = {None: _("the record"), "spectator": _("the spectator")}.get(found.viewer) or term(found.viewer or "")
    return {"chances": chances, "plot": drawn, "progress": progress, "offer": offer, "knew": knew}


async def analysis_progress(site: Site, request: Request, found: Access) -> Response:
    """The link's viewer's analysis: queued, running (moves done of all, seconds left), done, failed or none."""
    job = analysis_jobs.status(site.store, found.game, found.viewer)
    if job is not None and job.state == "queued":
        site.analysts.start()  # none runs (the last one ended as this was queued): one is
    return JSONResponse(analysis_jobs.progress_json(job))


async def ask_analysis(site: Site, request: Request, found: Access) -> Response:
    """An analysis of the finished game as the link's viewer knew it, queued for the analysts (or the one queued,
    running or done already, joined): 202 and its progress."""
    if not site.analysts.available:
        raise WhispersError(_("this server runs no analyses: run whispers analyse on the game instead"))
    job = await run_in_threadpool(analysis_jobs.ask, site.store, found.game, found.viewer, site.analysis_rollouts)
    if job.state != "done":
        site.analysts.start()
    return JSONResponse(analysis_jobs.progress_json(job), status_code=202)


async def chances_picture(site: Site, request: Request, found: Access) -> Response:
    """The chances chart `whispers analyse` stored for the link's viewer (never computed here)."""
    from whispers.application.charts import ChartError, chances_svg

    try:
        return Response(chances_svg(site.store, found.game, found.viewer), media_type="image/svg+xml")
    except ChartError:
        return _not_found(True)


async def timeline_picture(site: Site, request: Request, found: Access) -> Response:
    at, round_ = _at(request), _number(request, "round")
    picture = await site.pictures.drawn(("timeline", found.game, following.version(site.store, found.game),
                                         found.viewer, at, round_, tongue().code),
                                        lambda: svg.timeline_svg(site.store, found.game, found.viewer, at, round_))
    return Response(picture, media_type="image/svg+xml")


async def board_picture(site: Site, request: Request, found: Access) -> Response:
    at = _at(request)
    picture = await site.pictures.drawn(("board", found.game, following.version(site.store, found.game), at,
                                         tongue().code), lambda: svg.board_svg(site.store, found.game, at))
    return Response(picture, media_type="image/svg+xml")


async def api_status(site: Site, request: Request, found: Access) -> Response:
    return JSONResponse(reading.status(site.store, found.game, found.viewer).to_json())


async def api_replay(site: Site, request: Request, found: Access) -> Response:
    return JSONResponse(review.replay(site.store, found.game, _at(request), found.viewer).to_json())


async def api_log(site: Site, request: Request, found: Access) -> Response:
    return JSONResponse(reading.log(site.store, found.game, found.viewer).to_json())


async def live(site: Site, request: Request, found: Access) -> Response:
    """Server-sent events (web/live.py): each new event as the viewer may see it, then the game's version,
    whichever process stored it; from Last-Event-ID (a reconnection) or ?after=N when given; ended once the
    link is revoked."""
    raw = request.headers.get("last-event-id") or request.query_params.get("after")
    after = None if raw is None else numbers.whole(raw)
    if raw is not None and after is None:
        raise BadRequest(say("{name}: a number of events", name="after"))
    token = request.path_params["token"]
    return StreamingResponse(site.hub.stream(found.game, found.viewer, after,
                                             lambda: sharing.still_opens(site.store, found, token)),
                             media_type="text/event-stream")


# --- writes: each reached only past its guard's `may` and bearer check, its body read by `_body` or `_json` -------

async def _asked_move(site: Site, request: Request, found: Access) -> tuple[str, Command, int | None]:
    """The move a write to `moves` or `preview` asks for: its line (canonical ids), the command it reads as against
    the game held now, and the version the page showed (None when not sent); BadRequest for a body of another
    shape, a refusal (422) for an empty line."""
    body = await _json(request)
    if not isinstance(body, dict) or not isinstance(body.get("line"), str):
        raise BadRequest(say("send {shape}", shape='{"line": "<one notation line>"}'))
    seen = body.get("version")
    if seen is not None and (not isinstance(seen, int) or isinstance(seen, bool)):
        raise BadRequest("version: the number of events the page showed")
    # the table may type its own words (Ours Commissaire), and leave out the society that alone can act
    line = moves.canonical_line(body["line"])
    command = await run_in_threadpool(lambda: recording.read_move(site.held.current(found.game), line))
    if command is None:
        raise NotationError(_("an empty line: nothing to record"))
    if seen is None and recording.takes_back(command):  # a double tap must not take back two moves
        raise BadRequest(say("a take-back needs the version the page showed: send {shape}",
                             shape='{"line": "undo \\"...\\"", "version": N}'))
    return line, command, seen


async def api_move(site: Site, request: Request, found: Access) -> Response:
    line, command, seen = await _asked_move(site, request, found)
    # decided in a worker thread: the event loop keeps streaming while this move is folded and committed
    began = time.perf_counter()
    done = await run_in_threadpool(site.held.record, found.game, command, seen)
    site.hub.nudge()
    took = (time.perf_counter() - began) * 1000
    return JSONResponse({**done.to_json(), "line": line}, status_code=201,
                        headers={"server-timing": f"move;dur={took:.1f}"})


async def api_preview(site: Site, request: Request, found: Access) -> Response:
    """The move a `moves` write would record, decided and said, nothing appended: the same body and the same
    refusals (422 with the rule, 400, 409 when the game moved on from the version sent)."""
    line, _command, seen = await _asked_move(site, request, found)
    shown = await run_in_threadpool(site.held.preview, found.game, line, seen)
    return JSONResponse(shown.to_json())


async def _asked_amendment(request: Request) -> tuple[int, str, str, int | None]:
    """What a write to `amend` or `amend/preview` asks: the event number of the move to correct, the corrected line,
    the reason, and the version the page showed (None when not sent); BadRequest for a body of another shape."""
    body = await _body(request, {"at": int, "line": str, "reason": str, "version": int})
    at, line, reason = _given(body, "at", int), _given(body, "line", str), _given(body, "reason", str)
    if at is None or line is None or reason is None:
        raise BadRequest(say("send {shape}", shape='{"at": EVENT, "line": "...", "reason": "...", "version": N}'))
    return at, line, reason, _given(body, "version", int)


async def amend_preview(site: Site, request: Request, found: Access) -> Response:
    """The amendment an `amend` write would record, decided and said, nothing appended (issue 32): the corrected
    move, what it and every later move decided again do, or the refusal naming the later move it makes illegal."""
    at, line, reason, seen = await _asked_amendment(request)
    shown = await run_in_threadpool(site.held.amend, found.game, at, line, reason, seen, False)
    head = n_("Preview, nothing recorded: {move} corrected; {n} later move decided again.",
              "Preview, nothing recorded: {move} corrected; {n} later moves decided again.", shown.moves - 1,
              move=shown.move)
    # `head` says what the marker's own line says (which counts the corrected move among those decided again)
    return JSONResponse({**shown.to_json(), "head": head, "said": list(shown.said[1:])})


async def amend_move(site: Site, request: Request, found: Access) -> Response:
    """A past move corrected and every later move decided again, in one append, at the version the page previewed
    (409 if the game moved on since): a double tap cannot amend twice."""
    at, line, reason, seen = await _asked_amendment(request)
    if seen is None:
        raise BadRequest(say("an amendment needs the version the page showed: send {shape}",
                             shape='{"at": EVENT, "line": "...", "reason": "...", "version": N}'))
    done = await run_in_threadpool(site.held.amend, found.game, at, line, reason, seen)
    site.hub.nudge()
    head = n_("Amended: {move} corrected; {n} later move decided again.",
              "Amended: {move} corrected; {n} later moves decided again.", done.moves - 1, move=done.move)
    return JSONResponse({**done.to_json(), "head": head, "said": list(done.said[1:])}, status_code=201)


async def add_note(site: Site, request: Request, found: Access) -> Response:
    body = await _body(request, {"at": int, "text": str, "author": str, "tag": str})
    at, text = _given(body, "at", int), _given(body, "text", str)
    if at is None or text is None:
        raise BadRequest(say("send {shape} (author and tag optional)", shape='{"at": EVENT, "text": "..."}'))
    done = review.annotate(site.store, found.game, at, text, _given(body, "author", str) or None,
                           _given(body, "tag", str) or None)
    return JSONResponse(done.to_json(), status_code=201)


async def add_fork(site: Site, request: Request, found: Access) -> Response:
    """A "what if" from event `at`: the table gets the new game's own links (shared at once, so its table
    can record on), named GAME.NAME; the director, its replay, named as asked."""
    body = await _body(request, {"name": str, "at": int})
    name, at = _given(body, "name", str), _given(body, "at", int)
    if name is None or at is None:
        raise BadRequest(say("send {shape}", shape='{"name": "NEW-GAME", "at": EVENT}'))
    if found.role == "director":
        try:
            forked = review.fork(site.store, found.game, name, at)
        except errors.GameExists:  # its words name the store's path
            raise BadRequest(say("a game named {game} is in the store already", game=repr(name))) from None
        answer = {**forked.to_json(), "open": f"/director/{request.path_params['token']}/g/{forked.game}/replay"}
    else:  # named under the game's own name, and counted (application.sharing.fork_over_link)
        forked, links = sharing.fork_over_link(site.store, found, name, at)
        answer = {**forked.to_json(), "links": links.to_json(), "open": links.to_json()["table"]}
    return JSONResponse(answer, status_code=201)


async def seal(site: Site, request: Request, found: Access) -> Response:
    """A seat seals its own loyalty: the body holds only the commitment its page computed."""
    body = await _body(request, {"commitment": str, "version": int})
    commitment = _given(body, "commitment", str)
    if commitment is None:
        raise BadRequest(say("send {shape}", shape='{"commitment": "sha256:..."}'))
    assert found.seals is not None  # the SEALS guard: a seat's own link
    sealed = seats.seal(site.store, found.game, found.seals, commitment, _given(body, "version", int))
    site.hub.nudge()
    return JSONResponse(sealed.to_json(), status_code=201)


async def reveal(site: Site, request: Request, found: Access) -> Response:
    """A seat reveals the set it sealed: the tokens as placed and the salt its page kept."""
    body = await _body(request, {"tokens": dict, "salt": str, "version": int})
    tokens, salt = _given(body, "tokens", dict), _given(body, "salt", str)
    if tokens is None or salt is None:
        raise BadRequest(say("send {shape}", shape='{"tokens": {"devout": EMPIRE, ...}, "salt": "..."}'))
    assert found.seals is not None  # the SEALS guard: a seat's own link
    revealed = seats.reveal(site.store, found.game, found.seals, tokens, salt, _given(body, "version", int))
    site.hub.nudge()
    return JSONResponse(revealed.to_json(), status_code=201)


async def dispute(site: Site, request: Request, found: Access) -> Response:
    """A seat disputes a swap the table recorded for it: the body names the move only (its page found that the set
    it keeps contradicts the swap; the set never leaves the device). Kept in the store (application/seats.py) and
    told at once to the streams of this server, so the table's page shows it in place."""
    body = await _body(request, {"move": str})
    move = _given(body, "move", str)
    if move is None or not move.strip():
        raise BadRequest(say("send {shape}", shape='{"move": "m25"}'))
    assert found.seals is not None  # the SEALS guard: a seat's own link
    made = await run_in_threadpool(seats.dispute, site.store, found.game, found.seals, move.strip())
    if made.new:
        site.hub.announce(found.game, NOTED)
    return JSONResponse(made.to_json(), status_code=201 if made.new else 200)


# --- the director's own pages, opened by the director's token alone -----------------------------------------------

async def director_page(site: Site, request: Request) -> Response:
    asked = request.query_params
    number = asked.get("page", "1")
    if not re.fullmatch(r"[0-9]{1,6}", number):
        raise WhispersError(say("no page {text}: pages count from 1", text=repr(number)))
    # in a worker thread, as a move is: the event loop keeps streaming the tables' moves meanwhile
    shown = await run_in_threadpool(hall.hall, site.store, asked.get("state") or None, asked.get("q", ""),
                                    int(number))
    return site.page("director.html", shown=shown, token=request.path_params["token"],
                     tournament=site.tournament is not None)


async def director_live(site: Site, request: Request) -> Response:
    """Server-sent events for the director's screen: `event: changed` whenever any game of the store moves."""
    return StreamingResponse(site.hub.every_game(), media_type="text/event-stream")


async def director_standings(site: Site, request: Request) -> Response:
    standing = hall.tournament_standings(site.store, site.tournament).to_json()
    return site.page("standings.html", t=standing, token=request.path_params["token"])


async def director_verify(site: Site, request: Request) -> Response:
    game = request.path_params["game"]
    if not hall.exists(site.store, game):
        return _not_found(False)
    try:
        checked, failed = files.verify(site.store, game).to_json(), None
    except VerifyError as exc:
        checked, failed = None, str(exc)
    return site.page("verify.html", game=game, checked=checked, failed=failed, token=request.path_params["token"])


# --- the table of routes, each with its guard ---------------------------------------------------------------------

PAGE, API = Guard(), Guard(api=True)
DIRECTORS_PAGE, DIRECTORS_API = Guard(by_director=True), Guard(api=True, by_director=True)
RECORDS, SEALS = Guard(api=True, may=lambda found: found.may_record), Guard(api=True, may=lambda f: f.seals is not None)
ANNOTATES = Guard(api=True, may=lambda found: found.may_annotate)
AMENDS = Guard(api=True, may=lambda found: found.may_amend)
DIRECTOR_AMENDS = Guard(api=True, by_director=True, may=lambda found: found.may_amend)
DIRECTOR_ANNOTATES = Guard(api=True, by_director=True, may=lambda found: found.may_annotate)
# an analysis as the link's own viewer: every link may ask (its bearer too), each for what it could know
ASKS, DIRECTOR_ASKS = Guard(api=True, may=lambda found: True), Guard(api=True, by_director=True, may=lambda f: True)
DIRECTORS_TOKEN = None
"""The guard of a director's page that is no game's: the director's token, and nothing else."""
POST = ("POST",)

ROUTES: tuple[tuple[str, Callable[..., Awaitable[Response]], Guard | None, tuple[str, ...] | None], ...] = (
    ("/g/{game}/{token}/", game_page, PAGE, None),
    ("/g/{game}/{token}/replay", replay_page, PAGE, None),
    ("/g/{game}/{token}/api/status", api_status, API, None),
    ("/g/{game}/{token}/api/replay", api_replay, API, None),
    ("/g/{game}/{token}/api/log", api_log, API, None),
    ("/g/{game}/{token}/moves", api_move, RECORDS, POST),
    ("/g/{game}/{token}/preview", api_preview, RECORDS, POST),
    ("/g/{game}/{token}/amend", amend_move, AMENDS, POST),
    ("/g/{game}/{token}/amend/preview", amend_preview, AMENDS, POST),
    ("/g/{game}/{token}/notes", add_note, ANNOTATES, POST),
    ("/g/{game}/{token}/forks", add_fork, ANNOTATES, POST),
    ("/g/{game}/{token}/seal", seal, SEALS, POST),
    ("/g/{game}/{token}/reveal", reveal, SEALS, POST),
    ("/g/{game}/{token}/dispute", dispute, SEALS, POST),
    ("/g/{game}/{token}/live", live, API, None),
    ("/g/{game}/{token}/timeline.svg", timeline_picture, API, None),
    ("/g/{game}/{token}/chances.svg", chances_picture, API, None),
    ("/g/{game}/{token}/analysis", analysis_progress, API, None),
    ("/g/{game}/{token}/analysis", ask_analysis, ASKS, POST),
    ("/g/{game}/{token}/board.svg", board_picture, API, None),
    ("/director/{token}/", director_page, DIRECTORS_TOKEN, None),
    ("/director/{token}/live", director_live, DIRECTORS_TOKEN, None),
    ("/director/{token}/standings", director_standings, DIRECTORS_TOKEN, None),
    ("/director/{token}/verify/{game}", director_verify, DIRECTORS_TOKEN, None),
    ("/director/{token}/g/{game}/replay", replay_page, DIRECTORS_PAGE, None),
    ("/director/{token}/g/{game}/timeline.svg", timeline_picture, DIRECTORS_API, None),
    ("/director/{token}/g/{game}/chances.svg", chances_picture, DIRECTORS_API, None),
    ("/director/{token}/g/{game}/analysis", analysis_progress, DIRECTORS_API, None),
    ("/director/{token}/g/{game}/analysis", ask_analysis, DIRECTOR_ASKS, POST),
    ("/director/{token}/g/{game}/board.svg", board_picture, DIRECTORS_API, None),
    ("/director/{token}/g/{game}/amend", amend_move, DIRECTOR_AMENDS, POST),
    ("/director/{token}/g/{game}/amend/preview", amend_preview, DIRECTOR_AMENDS, POST),
    ("/director/{token}/g/{game}/notes", add_note, DIRECTOR_ANNOTATES, POST),
    ("/director/{token}/g/{game}/forks", add_fork, DIRECTOR_ANNOTATES, POST),
)
"""Every route: its path, handler, guard (None: the director's token alone) and methods (None: GET and HEAD)."""


def _guarded(site: Site, handler: Callable[..., Awaitable[Response]], guard: Guard):
    """`handler` of a game behind `guard`: the link (or director) resolved first, a write's `may` and bearer
    checked next, then each failure in its one answer."""
    async def endpoint(request: Request) -> Response:
        token = speak(language_of(request))
        try:
            return await _answer(request)
        finally:
            stop(token)

    async def _answer(request: Request) -> Response:
        api = guard.api
        try:
            found = site.resolve(request, guard.by_director)
        except UnknownGame:
            return _not_found(api)
        except WhispersError as exc:  # the store failed: nothing about the game
            return _unavailable(exc)
        try:
            # a write: the token must come in the Authorization header as well (a cross-site form cannot set it)
            if guard.may is not None and not (guard.may(found) and _bearer_ok(request)):
                return _not_found(True)
            return await handler(site, request, found)
        except UnknownGame:
            return _not_found(api)
        except NoSuchEvent as exc:
            return JSONResponse({"error": str(exc)}, status_code=404) if api else _not_found(False)
        except GameMovedOn as exc:
            return JSONResponse({"error": str(exc), "moved_on": True}, status_code=409)
        except RuleError as exc:
            return JSONResponse({"error": exc.reason, "rule": exc.rule, "cited": cite(exc.rule)}, status_code=422)
        except BadRequest as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        except WhispersError as exc:
            if _store_failed(exc):  # a lost server, a full disk: not the request
                return _unavailable(exc)
            return JSONResponse({"error": str(exc)}, status_code=422 if api else 400)
    return endpoint


def _directors(site: Site, handler: Callable[..., Awaitable[Response]]):
    """`handler` of a director's page that is no game's: the director's token, else the page 404."""
    async def endpoint(request: Request) -> Response:
        token = speak(language_of(request))
        try:
            if not sharing.director_allows(site.director_token, request.path_params["token"]):
                return _not_found(False)
            return await handler(site, request)
        except StoreError as exc:  # the store failed
            return site.page("error.html", 503, message=str(exc))
        except WhispersError as exc:  # what the link asked for is not one (a page, a state)
            return site.page("error.html", 400, message=str(exc))
        finally:
            stop(token)
    return endpoint


def create_app(store: Store | str | None, director_token: str, tournament: Path | None = None, analysts: int = 1,
               analysis_rollouts: int = analysis_jobs.WEB_ROLLOUTS) -> Starlette:
    """The application over `store` (an open Store, shared by every request, or a URL opened once here);
    `tournament`, a tournament file whose standings the director's page shows; `analysts`, the processes that
    run the analyses the pages ask for (started with the server; none over a store in memory), each asked for
    with `analysis_rollouts` playouts a move."""
    from whispers.application.stores import opened

    holder, url = None, getattr(store, "url", None)
    if hasattr(store, "facts"):
        served = cast("Store", store)
    else:  # a URL: opened once, closed when the server stops
        url = store or os.environ.get("WHISPERS_STORE")
        holder = opened(store)
        served = holder.__enter__()
        url = url or served.url
    site = Site(served, director_token, tournament, Hub(served), recording.HeldGames(served), _templates(),
                Pictures(PICTURES_KEPT), Analysts(url, analysts), analysis_rollouts, Pictures(PICTURES_KEPT))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if site.analysts.available and _analyses_waiting(site.store):
            site.analysts.start()
        try:
            yield
        finally:
            site.analysts.stop()
            site.hub.stop()
            if holder is not None:
                holder.__exit__(None, None, None)

    routes: list[BaseRoute] = [
        Route(path, _directors(site, handler) if guard is None else _guarded(site, handler, guard),
              methods=list(methods) if methods else None)
        for path, handler, guard, methods in ROUTES]
    # web/hall.py: the public board
    routes += hall_routes(site.store, site.hub, site.page, site.director_token, site.tournament, language_of)
    routes.append(Mount("/static", StaticFiles(directory=HERE / "static"), name="static"))

    async def missing(request: Request, exc: Exception) -> Response:
        slashed = _slashed(request, routes)
        if slashed is not None:
            return slashed
        token = speak(language_of(request))
        try:
            return _not_found(False)
        finally:
            stop(token)

    app = Starlette(routes=routes, middleware=[Middleware(SecurityHeaders)], lifespan=lifespan,
                    exception_handlers={404: missing, 405: missing, 500: _crashed})
    app.router.redirect_slashes = False  # its redirect is absolute, to the Host header's host: `_slashed` instead
    return app


def _analyses_waiting(store: Store) -> bool:
    """Whether the store holds analyses waiting for an analyst (left by a server stopped or killed). Not one read
    may stop a server starting (several starting at once over a new PostgreSQL schema race to make the read
    models' tables): the analysts start at the next ask, or when a page sees one waiting, instead."""
    try:
        return analysis_jobs.waiting(store)
    except Exception:
        LOG.warning("the analyses waiting could not be read at the start", exc_info=True)
        return False


def _slashed(request: Request, routes: list[BaseRoute]) -> Response | None:
    """A GET of a route's path without its trailing slash: a redirect to it, relative (the Host header a request
    carries is never written into an answer); None when the path with a slash is no route either."""
    path = request.url.path
    if request.method not in ("GET", "HEAD") or path.endswith("/"):
        return None
    scope = {**request.scope, "path": path + "/"}
    if not any(route.matches(scope)[0] == Match.FULL for route in routes if isinstance(route, Route)):
        return None
    query = request.url.query
    return RedirectResponse(quote(path, safe="/") + "/" + (f"?{query}" if query else ""), status_code=307)


async def _crashed(request: Request, exc: Exception) -> Response:
    """A fault of ours: 500 with one line and the security headers (this handler runs outside SecurityHeaders,
    which Starlette places inside its error handling); the traceback goes to the server's log."""
    return PlainTextResponse("Internal Server Error", status_code=500, headers=HEADERS)


def _store_failed(exc: WhispersError) -> bool:
    """Whether `exc` is the store failing (unreachable, locked, a full disk: a driver's error the store translated),
    not what was asked of it (an empty note, a name that is no game's), which the ledger raises as StoreError too."""
    cause = exc.__cause__
    return isinstance(exc, StoreUnavailable) or (isinstance(exc, StoreError) and cause is not None
                                                 and not isinstance(cause, WhispersError))


def _unavailable(exc: Exception) -> Response:
    """The store failed: 503 in words that name no host, port or path (the operator finds them in the log)."""
    LOG.warning("the store failed: %s", exc)
    return JSONResponse({"error": _("the store is unavailable: try again in a moment")}, status_code=503)


PICTURES_KEPT = 256
"""Rendered pictures each server process keeps (a few KB each): every viewer of every table at its last version."""


class Pictures:
    """The pictures rendered lately, by what they show (game, version, viewer, parameters, language), the least
    recently asked dropped first: a spectator reloading a picture in a loop is answered from here, and the table's
    moves do not queue behind its drawing. A picture is drawn in a worker thread, as a move is decided."""

    def __init__(self, most: int) -> None:
        self._most = most
        self._kept: OrderedDict[tuple[object, ...], bytes | str] = OrderedDict()

    async def drawn(self, key: tuple[object, ...], draw: Callable[[], bytes | str]) -> bytes | str:
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        picture = await run_in_threadpool(draw)
        self._kept[key] = picture
        while len(self._kept) > self._most:
            self._kept.popitem(last=False)
        return picture


def from_environment() -> Starlette:
    """The application `whispers serve` runs: the store of $WHISPERS_STORE, the director's token of
    $WHISPERS_DIRECTOR_TOKEN, the analysts of $WHISPERS_ANALYSTS and their playouts a move of
    $WHISPERS_ANALYSIS_ROLLOUTS (serve sets them)."""

    token = os.environ.get("WHISPERS_DIRECTOR_TOKEN", "")
    if len(token) < sharing.DIRECTOR_TOKEN_SHORTEST:  # serve refused it already; a server started by hand
        raise SystemExit(f"WHISPERS_DIRECTOR_TOKEN: at least {sharing.DIRECTOR_TOKEN_SHORTEST} characters "
                         "(whispers serve makes one)")
    tournament = os.environ.get("WHISPERS_TOURNAMENT")
    analysts = numbers.whole(os.environ.get("WHISPERS_ANALYSTS", "1"))
    rollouts = numbers.whole(os.environ.get("WHISPERS_ANALYSIS_ROLLOUTS", str(analysis_jobs.WEB_ROLLOUTS)))
    return create_app(os.environ.get("WHISPERS_STORE"), token, Path(tournament) if tournament else None,
                      1 if analysts is None else analysts, rollouts or analysis_jobs.WEB_ROLLOUTS)


def _asking(shown: hall.Hall, **changes: object) -> str:
    """The director's page as `shown`, with `changes` (state, page): a link's query string, the empty ones left out,
    the search text encoded (never markup or a path)."""
    asked = {"lang": tongue().code, "state": shown.state, "q": shown.text, "page": shown.page, **changes}
    return "?" + urlencode({key: value for key, value in asked.items() if value not in (None, "", 1)})


def _words_of(*groups: Iterable[str]) -> dict[str, str]:
    """Canonical ids (slots, empires) and their words in the reader's language, for a script that shows them."""
    return {word: term(word) for group in groups for word in group}


def _word(value: object) -> object:
    """A picker's option in the reader's words: a glossary id, a council position (`bear.sheriff`) or a card's
    empire (`Ours:7`); a region or a count stays as it is (the option's value is the notation's either way)."""
    if not isinstance(value, str):
        return value
    empire, dot, office = value.partition(".")
    if dot:
        return position(value) if KIND_OF.get(empire) == "empire" and KIND_OF.get(office) == "office" else value
    return moves.said_value(value)  # an id, or a card: `Ours:7`


def language_of(request: Request) -> str:
    """The page's language: the link's ?lang= when it names one of ours, else the browser's Accept-Language."""
    asked = request.query_params.get("lang")
    return asked if asked in LANGUAGES else from_header(request.headers.get("accept-language"))


def _at(request: Request) -> int | None:
    return _number(request, "at", N_("{name}: a number of events"))


def _number(request: Request, name: str, what: str = N_("{name}: a number")) -> int | None:
    """The query's `name` as a whole number of ASCII digits (application.numbers), None when not given; a 400
    with one line for anything else ('²', '①', a sign, ten digits)."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    number = numbers.whole(raw)
    if number is None:
        raise BadRequest(say(what, name=name))
    return number
