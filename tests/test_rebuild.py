"""`whispers rebuild`: every read model (the catalog with its listing and figures, each game's snapshot) made again
from the events alone, whatever damage it held (issue 31: a damaged catalog made `status` refuse the store while
`verify` passed the record, and nothing rebuilt it). The events are never touched."""

import json
import sqlite3
from pathlib import Path

import pytest
from test_cli import OPENING, invoke, ok, refused

from whispers.application import reading, stores
from whispers.ledger.io.store import open_store


@pytest.fixture
def store(tmp_path: Path) -> Path:
    path = tmp_path / "s.sqlite"
    (tmp_path / "g.txt").write_text(OPENING, encoding="utf-8")
    ok(invoke(path, "import", str(tmp_path / "g.txt")))
    ok(invoke(path, "fork", "g", "h", "--at", "5"))
    ok(invoke(path, "games"))  # the catalog kept
    ok(invoke(path, "status", "g"))  # and a snapshot
    return path


def facts_of(path: Path) -> dict[str, list]:
    with open_store(str(path)) as s:
        return {name: s.facts(name) for name in s.names()}


def damage(path: Path, *statements: str) -> None:
    with sqlite3.connect(path) as db:
        for statement in statements:
            db.execute(statement)


DAMAGE = {
    "a table altered": ("DROP TABLE whispers_summaries", "CREATE TABLE whispers_summaries (x TEXT)"),
    "listing rows garbled": ("UPDATE whispers_summaries SET data = '{\"game\": ' WHERE projection = 'listing'",),
    "tracking table gone": ("DROP TABLE whispers_tracking",),
}


@pytest.mark.parametrize("kind", DAMAGE)
def test_rebuild_makes_a_damaged_catalog_again_from_the_events_and_touches_no_event(store: Path, kind: str) -> None:
    listed = ok(invoke(store, "games", "--json"))
    before = facts_of(store)
    damage(store, *DAMAGE[kind])
    if kind != "listing rows garbled":
        refused(invoke(store, "games"), "failed")  # what the issue saw: the store refused...
        ok(invoke(store, "verify", "g"))  # ...while the record stands
        ok(invoke(store, "status", "g"))  # a game's status never needs its snapshot: the record is replayed
    out = ok(invoke(store, "rebuild"))
    assert "the catalog over 2 games" in out and "2 games' snapshots" in out
    assert ok(invoke(store, "games", "--json")) == listed  # `written` too: when each game was stored
    ok(invoke(store, "status", "g"))
    assert facts_of(store) == before


def test_rebuild_makes_a_garbled_snapshot_again(store: Path) -> None:
    status = ok(invoke(store, "status", "g", "--json"))
    damage(store, "UPDATE whispers_summaries SET data = 'garbage' WHERE projection = 'snapshot'")
    ok(invoke(store, "rebuild"))
    with sqlite3.connect(store) as db:
        snapshots = db.execute("SELECT game, data FROM whispers_summaries WHERE projection = 'snapshot'").fetchall()
    assert {game for game, _ in snapshots} == {"g", "h"} and all(data != "garbage" for _, data in snapshots)
    assert ok(invoke(store, "status", "g", "--json")) == status


def test_rebuild_json_says_what_it_made(store: Path) -> None:
    made = json.loads(ok(invoke(store, "rebuild", "--json")))
    assert made["games"] == made["snapshots"] == 2 and made["events"] > 0
    assert made["read_models"] == ["catalog", "listing", "figures", "snapshot"]


def test_rebuild_has_help() -> None:
    assert "every read model" in ok(invoke("memory:", "rebuild", "--help"))


@pytest.mark.parametrize("url", ["memory:", "pg"])
def test_rebuild_on_every_kind_of_store_gives_the_catalog_it_had(request: pytest.FixtureRequest, url: str) -> None:
    from whispers.application import recording

    with open_store(url if url == "memory:" else request.getfixturevalue("pg_own_url")) as s:
        recording.new(s, "g", ("raven", "rat"), "raven")
        recording.record_batch(s, "g", ["raven loyalty sealed", "rat loyalty sealed"])
        listed = reading.games(s).to_json()
        rebuilt = stores.rebuild(s)
        assert (rebuilt.games, rebuilt.snapshots) == (1, 1)
        assert reading.games(s).to_json() == listed
