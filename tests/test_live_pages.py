"""What keeps the live pages quick (issue 32's latency target, measured in benchmarks/live_latency.py): a move this
process stored wakes the log's follower at once, and a game page is kept per link and version, never shown stale."""

from __future__ import annotations

import threading

from starlette.testclient import TestClient
from test_web import DIRECTOR, LOYALTY

from whispers.application import following, recording, sharing
from whispers.ledger.io.store import open_store
from whispers.web.app import create_app


def test_a_nudge_wakes_the_follower_before_its_next_poll() -> None:
    """With a poll far longer than the test's bound, the change is read only if the nudge ends the pause; it is still
    read from the store's log (the one source), as a move of another process is."""
    store = open_store("memory:")
    recording.new(store, "g1", ["raven", "spider"])
    nudged = threading.Event()
    follower = following.Follower(store, poll_seconds=3600, nudged=nudged)
    heard: list[following.Change] = []
    waiting = threading.Thread(target=lambda: heard.extend(follower.changes(timeout=7200)), daemon=True)
    waiting.start()
    recording.record_line(store, "g1", LOYALTY)
    nudged.set()
    waiting.join(timeout=60)
    assert not waiting.is_alive(), "the nudge did not end the poll's pause"
    assert [(c.game, c.version) for c in heard] == [("g1", store.version("g1"))]


def test_a_kept_game_page_is_the_links_own_and_follows_each_move() -> None:
    store = open_store("memory:")
    recording.new(store, "g1", ["raven", "spider"])
    links = sharing.share(store, "g1")
    client = TestClient(create_app(store, DIRECTOR))
    spectator, seat = f"/g/g1/{links.spectator}/", f"/g/g1/{links.seats['raven']}/"
    first = client.get(spectator).text
    assert client.get(spectator).text == first  # kept: the same page while the game stands still
    assert 'data-version="1"' in first and client.get(seat).text != first  # each link its own page
    assert "spectateur" in client.get(spectator + "?lang=fr").text  # and each language
    recording.record_line(store, "g1", LOYALTY)  # stored by another hand (the CLI, another server)
    assert f'data-version="{store.version("g1")}"' in client.get(spectator).text
