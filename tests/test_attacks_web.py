"""The web face under attack (issue 31): each fall the adversary found, held now, and its class kept in the suite.

A revoked link's open stream ends, in every server process; numbers in a query, a header or a body are ASCII
digits within bounds; a body is bounded in size, depth and numbers; a wrong token costs what a missing game costs;
a fork neither names the store nor squats a name; store faults answer 503 without naming the database; every
answer, a 500 too, carries the security headers."""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import time
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_web import DIRECTOR, EXE, LOYALTY, serving

from whispers.application import recording, sharing
from whispers.application.numbers import whole
from whispers.ledger.store import open_store
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
            shared = subprocess.run([EXE, "share", "g1", "--revoke", "--json"], env=env, check=True,
                                    capture_output=True, text=True)
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
    (a third process) ends them all, and the move recorded with the new table link reaches none of them."""
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


def test_a_number_is_ascii_digits_within_bounds() -> None:
    assert [whole(text) for text in ["0", "7", "007", "999999999"]] == [0, 7, 7, 999_999_999]
    assert [whole(text) for text in NOT_NUMBERS] == [None] * len(NOT_NUMBERS)
    assert whole("12", largest=11) is None and whole(None) is None


@pytest.mark.parametrize("raw", ["²", "①", "٣", "9" * 5000, "-1"])
def test_a_number_no_int_reads_answers_400_in_one_line_on_every_link(table, raw: str) -> None:
    """`replay?at=²` and the like answered 500: `str.isdigit()` is true of what `int()` refuses (issue 31)."""
    _, links, client = table
    asked = [f"replay?at={raw}", f"api/replay?at={raw}", f"timeline.svg?round={raw}", f"timeline.svg?at={raw}",
             f"board.svg?at={raw}", f"live?after={raw}"]
    for token in [links.table, links.spectator, *links.seats.values()]:
        for page in asked:
            answer = client.get(f"/g/g1/{token}/{page}")
            assert answer.status_code == 400, (page, answer.text)
            assert "\n" not in answer.json()["error"]
        for header in [raw.encode(), b"\xb2", b"1\xb9"]:  # a header is read as Latin-1: 0xB2 is '²'
            resumed = client.get(f"/g/g1/{token}/live", headers={"Last-Event-ID": header})
            assert resumed.status_code == 400, resumed.text
    for page in [f"replay?at={raw}", f"timeline.svg?round={raw}", f"board.svg?at={raw}"]:
        assert client.get(f"/director/{DIRECTOR}/g/g1/{page}").status_code == 400


# --- a write's body: bounded in size, depth and numbers ----------------------------------------------------------

def writes(links: sharing.Links) -> list[tuple[str, str]]:
    """Every write (path, the token its Authorization carries), as the link allowed to make it."""
    seat = links.seats["raven"]
    return [(f"/g/g1/{links.table}/{w}", links.table) for w in ("moves", "notes", "forks")] + [
        (f"/g/g1/{seat}/{w}", seat) for w in ("seal", "reveal")] + [
        (f"/director/{DIRECTOR}/g/g1/{w}", DIRECTOR) for w in ("notes", "forks")]


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
    for url, token in writes(links):
        answer = client.post(url, content=HOSTILE_BODIES[kind], headers={
            "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        assert answer.status_code == 400, (url, answer.status_code, answer.text[:200])
        assert "\n" not in answer.json()["error"]
    assert (store.version("g1"), store.names()) == before


def test_a_fork_at_a_large_event_number_is_a_404_not_a_crash(table) -> None:
    _, links, client = table
    answer = client.post(f"/g/g1/{links.table}/forks", json={"name": "f1", "at": 999_999_999},
                         headers={"Authorization": f"Bearer {links.table}"})
    assert answer.status_code == 404, answer.text
