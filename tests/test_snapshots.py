"""Snapshots (ledger/io/snapshots.py): a game loaded from its kept head state and the events after it is the game
replayed from its first event, at every version of random games with take-backs, and a snapshot that does not
fit (another record's, another layout, damaged, cut short before a take-back) falls back to the replay."""

from __future__ import annotations

import pytest
from sizes import sized

from whispers.application.reading import status_of
from whispers.ledger.core import commands as c
from whispers.ledger.core import events as ev
from whispers.ledger.core import rules
from whispers.ledger.core.evolve import evolve, fold
from whispers.ledger.core.names import SOCIETIES
from whispers.ledger.core.randomgame import play as random_play
from whispers.ledger.core.state import GameState
from whispers.ledger.io import snapshots
from whispers.ledger.io.board_files import load_board
from whispers.ledger.io.game import Game, head, load, play, record
from whispers.ledger.io.ruleset_files import load_ruleset
from whispers.ledger.io.store import open_store


def random_events(seed: int, limit: int, undo_rate: float = 0.3) -> list[ev.Event]:
    players = SOCIETIES[: 2 + seed % 3]
    events: list[ev.Event] = []
    for _, produced, _ in random_play(players, load_ruleset("official"), load_board("standin"), seed,
                                      name="g", undo_rate=undo_rate):
        events += produced
        if len(events) >= limit:
            break
    return events


def assert_same(cached: GameState, replayed: GameState) -> None:
    """The same state, and the same earlier states as far as the cached one keeps them."""
    a: GameState | None = cached
    b: GameState | None = replayed
    while a is not None:
        assert b is not None
        assert {k: getattr(a, k) for k in a.__struct_fields__ if k != "prior"} == \
            {k: getattr(b, k) for k in b.__struct_fields__ if k != "prior"}
        if snapshots.is_cut(a):
            return
        a, b = a.prior, b.prior
    assert b is None


def assert_same_outputs(cached: GameState, replayed: GameState) -> None:
    for viewer in (None, *cached.players):
        mine, theirs = status_of(cached, viewer), status_of(replayed, viewer)
        assert mine.to_json() == theirs.to_json()
        assert mine.options == theirs.options and mine.scores == theirs.scores


@pytest.mark.parametrize("seed", [8, 3][:sized(1, 2)])  # 4 players (and 2 with --slow)
def test_a_snapshot_read_back_is_the_state_it_was_taken_of_at_every_version(seed, monkeypatch):
    monkeypatch.setattr(snapshots, "DEPTH", 2)  # cut short often, so take-backs past the cut are met
    events = random_events(seed, 260)
    started = evolve(None, events[0])
    state = None
    for version, event in enumerate(events, start=1):
        state = evolve(state, event)
        found = snapshots.version_of(snapshots.encode(state, b"event"))
        assert found is not None
        at, stored, chain, complete = found
        assert (at, stored) == (version, b"event")
        back = snapshots.decode(chain, complete, started)
        assert back is not None
        assert_same(back, state)
        if version % 5 == 0 or isinstance(event, ev.MoveTakenBack):
            assert_same_outputs(back, state)
        if state.moves and not state.over:
            # a take-back from the snapshot, even past the earlier states it keeps, is the replayed one's
            undo = c.Undo("test")
            mine, _ = play(Game("g", tuple(events[:version]), back), undo)
            theirs, _ = play(Game("g", tuple(events[:version]), state), undo)
            assert_same(mine.state, theirs.state)


@pytest.mark.parametrize("seed", [4, 11][:sized(1, 2)])  # 3 players (and 4 with --slow)
def test_a_game_loaded_at_its_head_is_the_replayed_game_at_every_version(seed, monkeypatch):
    monkeypatch.setattr(snapshots, "DEPTH", 2)
    monkeypatch.setattr(snapshots, "EVERY", 3)  # snapshots kept again and again, tails folded on them
    events = random_events(seed, 220, undo_rate=0.4)
    with open_store("memory:") as store:
        store.create("g", [events[0].to_fact()])
        for version, event in enumerate(events[1:], start=2):
            store.append("g", version - 1, [event.to_fact()])
            cached, replayed = head(store, "g"), load(store, "g")
            assert cached.version == replayed.version == version
            assert_same(cached.state, replayed.state)
            assert cached.events == replayed.events  # read when asked for
            if version % 7 == 0:
                assert_same_outputs(cached.state, replayed.state)


def test_take_backs_past_the_kept_states_replay_the_record(monkeypatch):
    """More take-backs in a row than a snapshot keeps earlier states: each is the replayed game's."""
    monkeypatch.setattr(snapshots, "DEPTH", 1)
    events = random_events(5, 120, undo_rate=0.0)
    with open_store("memory:") as store:
        store.create("g", [e.to_fact() for e in events])
        head(store, "g")  # no snapshot yet: replayed, and one is kept
        game = head(store, "g")
        assert game._events is None  # from the snapshot
        full = load(store, "g")
        for _ in range(6):
            game, _ = record(store, game, c.Undo("test"))
            full, _ = play(full, c.Undo("test"))
            assert_same(game.state, full.state)
        assert_same(head(store, "g").state, load(store, "g").state)
        assert head(store, "g").events == load(store, "g").events


def test_a_snapshot_that_does_not_fit_is_not_used():
    """Another game's snapshot, another layout's, or damaged text: the game is replayed as if none was kept."""
    one, other = random_events(6, 90), random_events(7, 90)
    with open_store("memory:") as store:
        store.create("a", [e.to_fact() for e in one])
        store.create("b", [{**other[0].to_fact(), "name": "b"}, *(e.to_fact() for e in other[1:])])
        head(store, "a")
        foreign = store.snapshot("a")
        assert foreign is not None
        for text in (foreign, "not a snapshot", foreign.replace(foreign[:12], "AAAAAAAAAAAA")):
            store.keep_snapshot("b", text)
            assert_same(head(store, "b").state, load(store, "b").state)
        layout = snapshots.encode(fold(other), b"x")
        store.keep_snapshot("b", layout)  # taken at no event of b
        assert_same(head(store, "b").state, load(store, "b").state)


def test_a_store_without_snapshots_is_read_as_it_is(tmp_path):
    """A store written before snapshots (no snapshot row, no read model table) loads, and keeps one from then on."""
    events = random_events(9, 60)
    url = str(tmp_path / "old.sqlite")
    with open_store(url) as store:
        store.create("g", [e.to_fact() for e in events])
    with open_store(url) as store:
        assert store.snapshot("g") is None
        assert_same(head(store, "g").state, load(store, "g").state)
        assert store.snapshot("g") is not None
    with open_store(url) as store:
        game = head(store, "g")
        assert game._events is None
        assert_same(game.state, load(store, "g").state)


def test_rules_decide_the_same_from_a_snapshot():
    events = random_events(12, 150, undo_rate=0.2)
    with open_store("memory:") as store:
        store.create("g", [e.to_fact() for e in events])
        head(store, "g")
        cached, replayed = head(store, "g"), load(store, "g")
        assert cached._events is None
        import random

        from whispers.ledger.core.randomgame import random_command

        command = random_command(replayed.state, random.Random(1))
        assert rules.decide(cached.state, command) == rules.decide(replayed.state, command)


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_snapshots_are_kept_and_read_on_each_database(backend, request, tmp_path, monkeypatch):
    """The snapshot row and the tail read after it, on SQLite and PostgreSQL, as on the in-memory store."""
    monkeypatch.setattr(snapshots, "EVERY", 4)
    url = str(tmp_path / "s.sqlite") if backend == "sqlite" else request.getfixturevalue("pg_url")
    name = f"g{tmp_path.name[-8:].replace('_', '')}"
    events = random_events(10, 90, undo_rate=0.3)
    with open_store(url) as store:
        store.create(name, [{**events[0].to_fact(), "name": name}])
        for version, event in enumerate(events[1:], start=2):
            store.append(name, version - 1, [event.to_fact()])
            if version % 3 == 0:
                cached, replayed = head(store, name), load(store, name)
                assert cached.version == replayed.version == version
                assert_same(cached.state, replayed.state)
        assert store.snapshot(name) is not None
        assert head(store, name)._events is None
