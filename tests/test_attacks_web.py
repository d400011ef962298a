"""The web face under attack (issue 31): each fall the adversary found, held now, and its class kept in the suite.

A revoked link's open stream ends, in every server process; numbers in a query, a header or a body are ASCII
digits within bounds; a body is bounded in size, depth and numbers; a wrong token costs what a missing game costs;
a fork neither names the store nor squats a name; store faults answer 503 without naming the database; every
answer, a 500 too, carries the security headers."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import sqlite3
import subprocess
import time
from typing import Any

import pytest
from click.testing import CliRunner
from sizes import sized
from starlette.testclient import TestClient
from test_web import DIRECTOR, EXE, LOYALTY, serving

from whispers.application import recording, sharing
from whispers.application.numbers import whole
from whispers.cli.main import whispers
from whispers.ledger.io.store import open_store
from whispers.web.app import create_app
from whispers.web.live import Hub

# --- a revoked link's open stream ends -------------------------------------------------------------------------


def test_revoking_ends_an_open_stream_before_it_sends_another_event() -> None:
    """The Hub asks the store again before each change it sends: after `share --revoke`, the next move of the game
    is not sent to a stream of the old link, and the stream ends."""
    store = open_store("memory:")
    recording.new(store, "g1", ["raven", "spider"])
    links = sharing.share(store, "g1")
    found = sharing.access(store, "g1", links.table)

    async def follow() -> list[str]:
        hub = Hub(store)
        stream = hub.stream("g1", None, None, lambda: sharing.still_opens(store, found, links.table))
        heard = [await anext(stream)]
        sharing.share(store, "g1", revoke=True)
        recording.record_line(store, "g1", LOYALTY)
        try:
            async with asyncio.timeout(5):
                heard += [text async for text in stream]
        finally:
            hub.stop()
        return heard

    heard = asyncio.run(follow())
    assert heard == ["event: version\ndata: 1\n\n"]  # the stream ended, and the move never reached it


def test_a_stream_of_a_link_still_shared_goes_on() -> None:
    """The re-check is not a refusal of everything: the link shared now hears the next move."""
    store = open_store("memory:")
    recording.new(store, "g1", ["raven", "spider"])
    links = sharing.share(store, "g1")
    found = sharing.access(store, "g1", links.spectator)

    async def follow() -> str:
        hub = Hub(store)
        stream = hub.stream("g1", found.viewer, None, lambda: sharing.still_opens(store, found, links.spectator))
        try:
            await anext(stream)
            recording.record_line(store, "g1", LOYALTY)
            async with asyncio.timeout(5):
                return await anext(stream)
        finally:
            hub.stop()

    assert asyncio.run(follow()).startswith("id: 2\nevent: event\n")


def _until_the_end(lines_of: Any, seconds: float) -> list[str]:
    """Every line left of a stream until it ends; AssertionError if it is still open after `seconds`."""
    lines, ends = [], time.monotonic() + seconds
    for line in lines_of:
        lines.append(line)
        assert time.monotonic() < ends, "the stream is still open"
    return lines


def _revoking_ends_every_stream_on_every_server(tmp_path, store: str | None) -> None:
    import httpx2

    with serving(tmp_path, servers=2, store=store) as (env, links, bases):
        urls = [links["table"], links["spectator"], *links["seats"].values()]
        urls += [url.replace(bases[0], bases[1]) for url in urls]
        with contextlib.ExitStack() as streams:
            lives = [streams.enter_context(httpx2.stream("GET", url + "live", timeout=8)).iter_lines()
                     for url in urls]
            for live in lives:
                assert next(live) == "event: version"
            shared = CliRunner().invoke(whispers, ["share", "g1", "--revoke", "--json"], env=env)
            assert shared.exit_code == 0, shared.output
            fresh = json.loads(shared.stdout)["table"].replace("http://127.0.0.1:8000", bases[0])
            token = fresh.rstrip("/").rsplit("/", 1)[1]
            moved = httpx2.post(fresh + "moves", json={"line": LOYALTY, "version": 1},
                                headers={"Authorization": f"Bearer {token}"})
            assert moved.status_code == 201
            for live in lives:
                rest = _until_the_end(live, 6)
                assert not any(line.startswith("id: ") for line in rest), rest  # the move after the revoke: never


def test_revoking_ends_every_open_stream_of_the_old_links_on_every_sqlite_server(tmp_path) -> None:
    """Table, seats and spectator, on two `serve` processes over one SQLite store: `share --revoke` run by the CLI
    (in a third process: the test's own) ends them all, and the move recorded with the new table link reaches none
    of them."""
    _revoking_ends_every_stream_on_every_server(tmp_path, None)


@pytest.mark.postgres
def test_revoking_ends_every_open_stream_of_the_old_links_on_every_postgresql_server(tmp_path, pg_own_url) -> None:
    _revoking_ends_every_stream_on_every_server(tmp_path, pg_own_url)




# --- numbers in a query or a header: ASCII digits within bounds ------------------------------------------------

NOT_NUMBERS = ["²", "①", "٣", "1²", "-1", " 1", "1 ", "+1", "0x1", "1e3", "9" * 10, "9" * 5000, "", "1\n"]


@pytest.fixture
def table() -> tuple[Any, sharing.Links, TestClient]:
    store = open_store("memory:")
    recording.new(store, "g1", ["raven", "spider"])
    recording.record_line(store, "g1", LOYALTY)
    links = sharing.share(store, "g1")
    return store, links, TestClient(create_app(store, DIRECTOR), raise_server_exceptions=False)


async def answers(app: Any, asked: list[tuple[str, str, dict[str, Any], Any]]) -> list[Any]:
    """The app's answer to each request, in order: the same ASGI app TestClient drives, driven in one event loop
    (TestClient crosses to its loop's thread several times a request, most of what a small request costs)."""
    import httpx2

    transport = httpx2.ASGITransport(app=app, raise_app_exceptions=False)  # a 500 is an answer, as TestClient's
    async with httpx2.AsyncClient(transport=transport, base_url="http://testserver") as client:
        return [await client.request(method, url, headers={**headers, "Content-Type": "application/json"},
                                     content=body, follow_redirects=False)
                for method, url, headers, body in asked]


def test_a_number_is_ascii_digits_within_bounds() -> None:
    assert [whole(text) for text in ["0", "7", "007", "999999999"]] == [0, 7, 7, 999_999_999]
    assert [whole(text) for text in NOT_NUMBERS] == [None] * len(NOT_NUMBERS)
    assert whole("12", largest=11) is None and whole(None) is None


@pytest.mark.parametrize("raw", ["²", "①", "٣", "9" * 5000, "-1"])
def test_a_number_no_int_reads_answers_400_in_one_line_on_every_link(table, raw: str) -> None:
    """`replay?at=²` and the like answered 500: `str.isdigit()` is true of what `int()` refuses (issue 31)."""
    _, links, client = table
    pages = [f"replay?at={raw}", f"api/replay?at={raw}", f"timeline.svg?round={raw}", f"timeline.svg?at={raw}",
             f"board.svg?at={raw}", f"live?after={raw}"]
    asked, resumed = [], []
    for token in [links.table, links.spectator, *links.seats.values()]:
        asked += [("GET", f"/g/g1/{token}/{page}", {}, None) for page in pages]
        resumed += [("GET", f"/g/g1/{token}/live", {"Last-Event-ID": header}, None)
                    for header in [raw.encode(), b"\xb2", b"1\xb9"]]  # a header is read as Latin-1: 0xB2 is '²'
    directors = [("GET", f"/director/{DIRECTOR}/g/g1/{page}", {}, None)
                 for page in [f"replay?at={raw}", f"timeline.svg?round={raw}", f"board.svg?at={raw}"]]
    answered = asyncio.run(answers(client.app, asked + resumed + directors))
    for (_, url, _, _), answer in zip(asked, answered[:len(asked)], strict=True):
        assert answer.status_code == 400, (url, answer.text)
        assert "\n" not in answer.json()["error"]
    for (_, url, _, _), answer in zip(resumed + directors, answered[len(asked):], strict=True):
        assert answer.status_code == 400, (url, answer.text)


# --- a write's body: bounded in size, depth and numbers ----------------------------------------------------------

def writes(links: sharing.Links) -> list[tuple[str, str]]:
    """Every write (path, the token its Authorization carries), as the link allowed to make it."""
    seat = links.seats["raven"]
    return [(f"/g/g1/{links.table}/{w}", links.table)
            for w in ("moves", "preview", "notes", "forks", "amend", "amend/preview")] + [
        (f"/g/g1/{seat}/{w}", seat) for w in ("seal", "reveal")] + [
        (f"/director/{DIRECTOR}/g/g1/{w}", DIRECTOR) for w in ("notes", "forks", "amend", "amend/preview")]


HOSTILE_BODIES = {
    "deep": b"[" * 100_000 + b"]" * 100_000,
    "deep in an object": b'{"line": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    "nested past the limit": json.dumps({"at": 1, "text": [[[[[["x"]]]]]]}).encode(),
    "a number past 64 bits": b'{"name": "f1", "at": 9223372036854775808, "line": "x", "text": "x"}',
    "a number of 5000 digits": b'{"at": ' + b"9" * 5000 + b"}",
    "a huge negative": b'{"at": -99999999999999999999}',
    "a float past every bound": b'{"at": 1e400}',
    "NaN": b'{"at": NaN}',
    "too big": json.dumps({"text": "x" * 70_000}).encode(),
    "not UTF-8": b'{"text": "\xff"}',
}


@pytest.mark.parametrize("kind", HOSTILE_BODIES)
def test_a_hostile_body_answers_400_in_one_line_on_every_write_and_changes_nothing(table, kind: str) -> None:
    """A body nesting 100,000 arrays answered 500 (RecursionError), `{"at": 9223372036854775808}` to forks 500
    (OverflowError): every write reads its body in one place, bounded (issue 31)."""
    store, links, client = table
    before = store.version("g1"), store.names()
    asked = [("POST", url, {"Authorization": f"Bearer {token}"}, HOSTILE_BODIES[kind]) for url, token in writes(links)]
    for (_, url, _, _), answer in zip(asked, asyncio.run(answers(client.app, asked)), strict=True):
        assert answer.status_code == 400, (url, answer.status_code, answer.text[:200])
        assert "\n" not in answer.json()["error"]
    assert (store.version("g1"), store.names()) == before


def test_a_fork_at_a_large_event_number_is_a_404_not_a_crash(table) -> None:
    _, links, client = table
    answer = client.post(f"/g/g1/{links.table}/forks", json={"name": "f1", "at": 999_999_999},
                         headers={"Authorization": f"Bearer {links.table}"})
    assert answer.status_code == 404, answer.text


# --- hygiene: same work for any wrong token, neutral words, bounded forks, 503, take-backs, redirects ------------

def test_a_wrong_token_costs_the_same_work_for_a_shared_an_unshared_and_a_missing_game(table, monkeypatch) -> None:
    """A wrong token for a shared game answered measurably slower than for an unshared or missing one: it told
    which names are shared games (issue 31). Now each hashes the token once and compares it with as many hashes."""
    import hmac as hmac_module

    store, _, client = table
    recording.new(store, "g2", ["raven", "spider", "rat", "serpent"])  # exists, never shared
    recording.new(store, "g3", ["raven", "spider", "rat", "serpent"])
    sharing.share(store, "g3")
    calls: list[str] = []
    digest, compare = sharing.digest, hmac_module.compare_digest
    monkeypatch.setattr(sharing, "digest", lambda token: calls.append("digest") or digest(token))
    monkeypatch.setattr(sharing.hmac, "compare_digest", lambda a, b: calls.append("compare") or compare(a, b))
    work = {}
    for game in ("g3", "g2", "nosuch", "g1"):
        calls.clear()
        assert client.get(f"/g/{game}/{'x' * 32}/api/status").status_code == 404
        work[game] = list(calls)
    assert work["g3"] == work["g2"] == work["nosuch"]  # four societies' links, or as many decoys
    assert work["g3"].count("digest") == 1 and work["g3"].count("compare") == 6
    assert work["g1"].count("digest") == 1  # two societies' game: one hash too, fewer links to compare


def fork(client: TestClient, links: sharing.Links, name: Any, at: int = 2) -> Any:
    return client.post(f"/g/g1/{links.table}/forks", json={"name": name, "at": at},
                       headers={"Authorization": f"Bearer {links.table}"})


def test_a_forks_name_tells_nothing_of_the_store_and_takes_no_name_outside_its_game(table, tmp_path) -> None:
    """`POST …/forks {"name": "finals-t9"}` answered "a game named 'finals-t9' is in /path/store.sqlite already":
    the store's path and the game's existence; and any unused name could be taken (issue 31). A table link's
    fork is named GAME.NAME; every refusal of a name is one sentence naming neither the store nor another game."""
    store = open_store(str(tmp_path / "s.sqlite"))
    recording.new(store, "g1", ["raven", "spider"])
    recording.new(store, "finals-t9", ["raven", "spider"])
    recording.record_line(store, "g1", LOYALTY)
    links = sharing.share(store, "g1")
    client = TestClient(create_app(store, DIRECTOR), raise_server_exceptions=False)
    made = fork(client, links, "finals-t9")
    assert made.status_code == 201 and made.json()["game"] == "g1.finals-t9"
    assert store.version("finals-t9") == 1  # the game of that name untouched
    refusals = {name: fork(client, links, name) for name in ["finals-t9", "../etc", "a.b", "x" * 40, "", 7]}
    assert {answer.status_code for answer in refusals.values()} <= {400, 422}
    said = {answer.json()["error"].replace(repr(name), "NAME") for name, answer in refusals.items()
            if isinstance(name, str)}
    assert len(said) <= 2 and not any(str(tmp_path) in text or "sqlite" in text for text in said)
    fork_links = made.json()["links"]
    token = fork_links["table"].rstrip("/").rsplit("/", 1)[1]
    deeper = client.post(f"/g/g1.finals-t9/{token}/forks", json={"name": "again", "at": 2},
                         headers={"Authorization": f"Bearer {token}"})
    assert deeper.status_code == 201 and deeper.json()["game"] == "g1.again"  # under the first game's name


def test_the_forks_a_link_makes_are_bounded(table) -> None:
    """Nothing limited how many forks a link created (issue 31): FORKS_OVER_LINKS in all, the forks' own links
    included; the director is not counted."""
    store, links, client = table
    made = [fork(client, links, f"f{n}") for n in range(sharing.FORKS_OVER_LINKS)]
    assert [answer.status_code for answer in made] == [201] * sharing.FORKS_OVER_LINKS
    token = made[0].json()["links"]["table"].rstrip("/").rsplit("/", 1)[1]
    over = client.post(f"/g/g1.f0/{token}/forks", json={"name": "one-more", "at": 2},
                       headers={"Authorization": f"Bearer {token}"})
    assert fork(client, links, "one-more").status_code == 422 and over.status_code == 422
    assert not store.exists("g1.one-more")
    by_director = client.post(f"/director/{DIRECTOR}/g/g1/forks", json={"name": "ruling", "at": 2},
                              headers={"Authorization": f"Bearer {DIRECTOR}"})
    assert by_director.status_code == 201
    again = client.post(f"/director/{DIRECTOR}/g/g1/forks", json={"name": "ruling", "at": 2},
                        headers={"Authorization": f"Bearer {DIRECTOR}"})
    assert again.status_code == 400 and "s.sqlite" not in again.text and "memory" not in again.text


def test_a_store_fault_answers_503_naming_no_host_port_or_path(table, monkeypatch) -> None:
    """The 503 answers named the database's host and port to every link; a full disk answered 422 (issue 31)."""
    from whispers.ledger.core.errors import StoreError, StoreUnavailable

    store, links, client = table
    secret = "postgresql://127.0.0.1:5432/test at /srv/whispers/store.sqlite"

    def full(*args: Any, **kwargs: Any) -> None:  # as the store translates its driver's error
        raise StoreError(f"the store {secret} failed: database or disk is full") from sqlite3.OperationalError("full")

    monkeypatch.setattr(store, "append", full)
    auth = {"Authorization": f"Bearer {links.table}"}
    moved = client.post(f"/g/g1/{links.table}/moves", json={"line": LOYALTY.replace("raven", "spider"),
                                                             "version": 2}, headers=auth)
    noted = client.post(f"/g/g1/{links.table}/notes", json={"at": 1, "text": "x"}, headers=auth)
    monkeypatch.setattr(store, "add_note", full)
    noted = client.post(f"/g/g1/{links.table}/notes", json={"at": 1, "text": "x"}, headers=auth)

    def gone(*args: Any, **kwargs: Any) -> None:
        raise StoreUnavailable(f"cannot reach {secret}")

    monkeypatch.setattr(store, "side_stream", gone)
    opened = client.get(f"/g/g1/{links.table}/api/status")
    for answer in (moved, noted, opened):
        assert answer.status_code == 503, answer.text
        assert "5432" not in answer.text and "/srv" not in answer.text and "127.0.0.1" not in answer.text
    monkeypatch.undo()
    empty = client.post(f"/g/g1/{links.table}/notes", json={"at": 1, "text": " "}, headers=auth)
    assert empty.status_code == 422 and "text" in empty.json()["error"]  # what was asked, not the store: no 503


def test_a_take_back_needs_the_version_so_a_double_tap_takes_back_one_move(table) -> None:
    """Two take-backs posted without `version` both landed: a double tap undid two moves (issue 31)."""
    _, links, client = table
    auth = {"Authorization": f"Bearer {links.table}"}
    moved = client.post(f"/g/g1/{links.table}/moves", json={"line": LOYALTY.replace("raven", "spider"),
                                                             "version": 2}, headers=auth)
    version = moved.json()["version"]
    bare = client.post(f"/g/g1/{links.table}/moves", json={"line": 'undo "slip"'}, headers=auth)
    assert bare.status_code == 400 and "version" in bare.json()["error"]
    taps = [client.post(f"/g/g1/{links.table}/moves", json={"line": 'undo "slip"', "version": version},
                        headers=auth)
            for _ in range(2)]
    assert [tap.status_code for tap in taps] == [201, 409]


def test_the_page_sends_the_version_with_every_move_a_take_back_too() -> None:
    from pathlib import Path

    script = (Path(__file__).parent.parent / "web" / "static" / "app.js").read_text()
    assert 'post(game, \'undo "\' + reason + \'"\')' in script
    assert "{line: line, version: Number(game.dataset.version)}" in script  # post() sends the page's version


def test_a_path_without_its_slash_redirects_relatively_never_to_the_host_header(table) -> None:
    """`/g/GAME/TOKEN` redirected to http://HOST-HEADER/g/GAME/TOKEN/, the token with it (issue 31)."""
    _, links, client = table
    answer = client.get(f"/g/g1/{links.table}?lang=fr", headers={"Host": "evil.example"}, follow_redirects=False)
    assert answer.status_code == 307
    assert answer.headers["location"] == f"/g/g1/{links.table}/?lang=fr"
    director = client.get(f"/director/{DIRECTOR}", headers={"Host": "evil.example"}, follow_redirects=False)
    assert director.headers["location"] == f"/director/{DIRECTOR}/"
    assert client.get("/nowhere", follow_redirects=False).status_code == 404
    assert client.get(f"/g/g1/{links.table}/replay/", follow_redirects=False).status_code == 404


def test_a_500_carries_the_security_headers(table, monkeypatch) -> None:
    from whispers.application import reading

    _, links, client = table
    monkeypatch.setattr(reading, "status", lambda *args: 1 / 0)
    answer = client.get(f"/g/g1/{links.table}/api/status")
    assert answer.status_code == 500 and "ZeroDivision" not in answer.text
    assert answer.headers["content-security-policy"].startswith("default-src 'none'")
    assert answer.headers["referrer-policy"] == "no-referrer" and answer.headers["cache-control"] == "no-store"


def test_each_picture_is_drawn_once_per_game_version_viewer_and_parameters(table, monkeypatch) -> None:
    """Two spectators looping timeline.svg took the table's median move from 20 ms to 491 ms (issue 31): a picture
    is drawn once for what it shows, and again only when the game moves on."""
    from whispers.application import svg

    store, links, client = table
    drawn: list[tuple[str, Any]] = []
    timeline, board = svg.timeline_svg, svg.board_svg
    monkeypatch.setattr(svg, "timeline_svg", lambda *a: drawn.append(("timeline", a[2:])) or timeline(*a))
    monkeypatch.setattr(svg, "board_svg", lambda *a: drawn.append(("board", a[2:])) or board(*a))
    for _ in range(5):
        for token in (links.spectator, links.table):
            assert client.get(f"/g/g1/{token}/timeline.svg").status_code == 200
            assert client.get(f"/g/g1/{token}/board.svg?at=1").status_code == 200
    assert len(drawn) == 3  # the timeline as each viewer may see it, the board (public) once
    first = client.get(f"/g/g1/{links.spectator}/timeline.svg").text
    recording.record_line(store, "g1", LOYALTY.replace("raven", "spider"))
    assert client.get(f"/g/g1/{links.spectator}/timeline.svg").status_code == 200
    assert len(drawn) == 4  # the game moved on: drawn again
    assert client.get(f"/g/g1/{links.spectator}/timeline.svg?lang=fr").status_code == 200
    assert len(drawn) == 5 and first


def test_serve_never_prints_a_director_token_it_was_given(tmp_path) -> None:
    """`serve` printed the WHISPERS_DIRECTOR_TOKEN it was given (the docs say it prints only one it made), and a
    too-short one exited 1 after printing it (issue 31)."""
    import os

    env = {**os.environ, "WHISPERS_STORE": str(tmp_path / "s.sqlite")}
    short = subprocess.run([EXE, "serve", "--port", "1"], env={**env, "WHISPERS_DIRECTOR_TOKEN": "tooshort-secret"},
                           capture_output=True, text=True, timeout=60)
    assert short.returncode == 2 and "tooshort-secret" not in short.stdout + short.stderr
    assert len(short.stderr.strip().splitlines()) == 1 and "Traceback" not in short.stderr
    given = "g" * 10 + "secret-director-token"
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = str(free.getsockname()[1])
    with subprocess.Popen([EXE, "serve", "--port", port], env={**env, "WHISPERS_DIRECTOR_TOKEN": given},
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as server:
        assert server.stderr is not None
        said = server.stderr.readline()
        server.terminate()
        rest = server.communicate(timeout=20)
    assert "director:" in said and given not in said + "".join(rest)


# --- the adversary's classes on every route -----------------------------------------------------------------------

HOSTILE_QUERIES = [*NOT_NUMBERS[:-1], "9223372036854775808", "1" * 20, "%00", "<script>", "\u202e1", "1.5", "NaN"]
HOSTILE_SEGMENTS = ["²", "①", "..", "x" * 300, "%00", "%F0%9F%98%80", "a%2Fb", "9" * 40]
WRONG_TYPES = [[], "x", 5, None, {"line": 5}, {"at": "1", "text": 1}, {"name": [], "at": True},
               {"commitment": {}, "version": "1"}, {"tokens": [], "salt": 1}, {"line": "x", "version": 1.5},
               {"at": -1, "text": "x"}, {"version": -999999999, "line": "raven pass"}, {"move": 5}, {"move": ""},
               {"move": "m1"}, {"move": "m" + "9" * 40}, {"move": "<script>"}, {"move": "round1"},
               {"at": 2, "line": "raven pass", "reason": ["x"]}, {"at": 999_999_999, "line": "x", "reason": "x"},
               {"at": 2, "line": "raven pass", "reason": "\u202e\n<b>"}]
SECURITY = {"content-security-policy", "referrer-policy", "x-content-type-options", "cache-control"}


QUERIES = ("at", "round", "after", "page", "state", "q", "lang")
QUERY_VALUES = sized(7, len(HOSTILE_QUERIES))  # of HOSTILE_QUERIES to each query of each page, the next ones in turn


def in_turn(values: list[str], count: int, turn: int) -> list[str]:
    """`count` of `values`, the following ones at the next turn: over enough turns, every value is asked."""
    return [values[(turn * count + i) % len(values)] for i in range(min(count, len(values)))]


def routes_asked(app: Any, links: sharing.Links) -> list[tuple[str, str, dict[str, Any], Any]]:
    """(method, path, headers, body) for every route of the app's table with hostile parameters: each path
    parameter hostile in turn, hostile numbers in each query a page reads (QUERY_VALUES of them to each query of
    each page, the next ones to the next: every value to every query over the pages), hostile bodies and wrong
    types to each write; streams only where the request must be refused before one opens."""
    from starlette.routing import Route

    asked, turn = [], 0
    for route in app.routes:
        if not isinstance(route, Route):
            continue
        director = route.path.startswith("/director/")
        good = {"game": "g1", "token": DIRECTOR if director else links.table}
        streams = route.path.endswith("/live")
        for method in sorted(route.methods or {"GET"}):
            if method == "HEAD":
                continue
            for name in route.param_convertors:
                for value in HOSTILE_SEGMENTS:
                    bad_path = route.path.format(**{**good, name: value})
                    asked.append((method, bad_path, {"Authorization": f"Bearer {value}".encode()}, b"{}"))
            url = route.path.format(**good)
            auth = {"Authorization": f"Bearer {good['token']}"}
            if method == "GET":
                for query in QUERIES:
                    if not streams or (query == "after" and not director):  # the director's: no query
                        turn += 1
                        asked += [(method, f"{url}?{query}={value}", {}, None)
                                  for value in in_turn(HOSTILE_QUERIES, QUERY_VALUES, turn)]
                if streams and not director:
                    asked += [(method, url, {"Last-Event-ID": value.encode()}, None) for value in ("²", "-1", "9" * 30)]
            else:  # each write with the table's token and a seat's (a seat's own writes: seal, reveal, dispute)
                for token in (good["token"], *([] if director else [links.seats["raven"]])):
                    url = route.path.format(**{**good, "token": token})
                    auth = {"Authorization": f"Bearer {token}"}
                    asked += [(method, url, auth, body) for body in HOSTILE_BODIES.values()]
                    asked += [(method, url, auth, json.dumps(body).encode()) for body in WRONG_TYPES]
    return asked


def test_every_route_with_hostile_parameters_answers_no_500_and_carries_the_security_headers(table) -> None:
    """Every route of the Starlette table (a route added later is walked too): non-ASCII and huge numbers, deep and
    oversized bodies, wrong types, hostile path segments: never a 500, and every answer, whatever its status,
    carries the security headers (issue 31). Each query of each page is asked QUERY_VALUES of the hostile numbers
    (a third of them; all with --slow), every one of them over the pages."""
    store, links, client = table
    before = store.version("g1")
    statuses: dict[int, int] = {}
    asked = routes_asked(client.app, links)
    assert len({path.split("?")[0] for _, path, _, _ in asked}) > 20
    queried = {(path.split("?")[1].split("=")[0], path.split("=", 1)[1]) for _, path, _, _ in asked if "?" in path}
    assert queried == {(query, value) for query in QUERIES for value in HOSTILE_QUERIES}
    for (method, url, _, body), answer in zip(asked, asyncio.run(answers(client.app, asked)), strict=True):
        assert answer.status_code != 500, (method, url, body and body[:80], answer.text[:300])  # 503: no tournament
        assert set(answer.headers) >= SECURITY, (method, url, answer.status_code)
        statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
    assert {400, 404} <= set(statuses)
    assert store.version("g1") == before
