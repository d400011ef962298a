"""The event store, on each backend: memory, an SQLite file and PostgreSQL."""

import contextlib
import random
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from click.testing import CliRunner

import whispers.ledger.io.store
import whispers.ledger.io.store_postgres
import whispers.ledger.io.store_sqlite
from tests.store_rows import pg_rows, rows_of
from whispers.cli.main import whispers as whispers_cli
from whispers.ledger.core.errors import GameExists, GameMovedOn, StoreError, UnknownGame
from whispers.ledger.io.game import import_lines
from whispers.ledger.io.store import GameRecord, Store, open_store
from whispers.ledger.io.store_backend import Backend
from whispers.ledger.io.store_sqlite import SQLiteBackend
from whispers.ledger.io.transcoder import MsgpackTranscoder

NESTED: list[dict[str, Any]] = [
    {"kind": "setup", "players": ["raven", "spider"], "board": {"hash": "ab12", "regions": 20}},
    {"kind": "note", "text": "Ōrdo Templi ⚔ 渡鸦", "ünïcode_kéy": True, "empty": {}, "none": None},
    {"kind": "numbers", "big": 2**40, "negative": -(2**35), "huge": 2**63 - 1, "float": 0.1, "zero": 0},
    {"kind": "deep", "a": [[1, [2, [3, {"b": [False, None, ""]}]]]]},
]


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "memory":
        return "memory:"
    if request.param == "sqlite":
        return str(tmp_path / "store.sqlite")
    return request.getfixturevalue("pg_url")


@pytest.fixture
def shared_url(store_url: str) -> str:
    """A store that two Store objects can open at once (not memory:, where each opening is a new store)."""
    if store_url == "memory:":
        pytest.skip("each memory: store is private to its Store object")
    return store_url


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    with open_store(store_url) as s:
        yield s


@pytest.fixture
def name() -> str:
    """A game name no other test uses (the PostgreSQL schema is shared by the whole session)."""
    return f"game-{uuid.uuid4().hex[:12]}"


def test_create_append_and_read_back(store: Store, name: str) -> None:
    assert not store.exists(name)
    assert store.create(name, NESTED[:1]) == 1
    assert store.append(name, 1, NESTED[1:]) == len(NESTED)
    assert store.exists(name)
    assert store.version(name) == len(NESTED)
    assert store.facts(name) == NESTED


def test_facts_at_an_earlier_version(store: Store, name: str) -> None:
    store.create(name, NESTED)
    assert store.facts(name, 1) == NESTED[:1]
    assert store.facts(name, 3) == NESTED[:3]
    assert store.facts(name, len(NESTED)) == NESTED


@pytest.mark.parametrize("version", [0, -1, len(NESTED) + 1, 1000])
def test_a_version_outside_the_record_is_refused(store: Store, name: str, version: int) -> None:
    store.create(name, NESTED)
    with pytest.raises(StoreError, match=f"game {name} has events 1 to {len(NESTED)}: there is no event {version}$"):
        store.facts(name, version)


def test_tuples_come_back_as_lists(store: Store, name: str) -> None:
    store.create(name, [{"path": ("a", "b"), "pairs": [(1, 2)]}])
    assert store.facts(name) == [{"path": ["a", "b"], "pairs": [[1, 2]]}]


def test_a_taken_name_is_refused(store: Store, name: str) -> None:
    store.create(name, [{"n": 1}])
    with pytest.raises(GameExists, match=name):
        store.create(name, [{"n": 2}])
    assert store.facts(name) == [{"n": 1}]


def test_an_unknown_game(store: Store, name: str) -> None:
    with pytest.raises(UnknownGame, match=name):
        store.facts(name)
    with pytest.raises(UnknownGame):
        store.version(name)
    with pytest.raises(UnknownGame):
        store.append(name, 1, [{"n": 1}])
    assert not store.exists(name)


@pytest.mark.parametrize("stale", [0, 1, 3])
def test_a_stale_expected_version_is_refused(store: Store, name: str, stale: int) -> None:
    store.create(name, [{"n": 1}, {"n": 2}])
    with pytest.raises(GameMovedOn, match="the game moved on: re-run status"):
        store.append(name, stale, [{"n": 3}])
    assert store.facts(name) == [{"n": 1}, {"n": 2}]


def test_appending_nothing_checks_the_version(store: Store, name: str) -> None:
    store.create(name, [{"n": 1}])
    assert store.append(name, 1, []) == 1
    with pytest.raises(GameMovedOn):
        store.append(name, 2, [])


def test_a_writer_that_loses_the_race_is_told_and_writes_nothing(
    shared_url: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The damage check compares a read with the game's last version: a writer appending in between is not damage."""
    with open_store(shared_url) as a, open_store(shared_url) as b:
        a.create(name, [{"n": 0}])
        check_version = b._backend.version

        def other_writer_goes_first(game: str) -> int:
            version = check_version(game)  # b sees version 1 and is about to write...
            a.append(game, version, [{"by": "a"}])  # ...but a writes first
            return version

        monkeypatch.setattr(b._backend, "version", other_writer_goes_first)
        with pytest.raises(GameMovedOn, match="the game moved on: re-run status"):
            b.append(name, 1, [{"by": "b", "i": i} for i in range(3)])
        assert b.facts(name) == [{"n": 0}, {"by": "a"}]


def test_racing_writers_in_threads(shared_url: str, name: str) -> None:
    with open_store(shared_url) as s:
        s.create(name, [{"n": 0}])
    writers = 4
    barrier = threading.Barrier(writers, timeout=30)
    results: dict[int, str] = {}

    def write(i: int) -> None:
        try:
            with open_store(shared_url) as s:
                barrier.wait()
                try:
                    s.append(name, 1, [{"writer": i, "part": p} for p in range(3)])
                    results[i] = "won"
                except GameMovedOn:
                    results[i] = "moved on"
        except BaseException as e:
            barrier.abort()  # release the others rather than leave them waiting
            results[i] = f"{type(e).__name__}: {e}"

    threads = [threading.Thread(target=write, args=(i,)) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(results.values()) == ["moved on"] * (writers - 1) + ["won"], results
    winner = next(i for i, r in results.items() if r == "won")
    with open_store(shared_url) as s:
        assert s.facts(name) == [{"n": 0}] + [{"writer": winner, "part": p} for p in range(3)]


def test_an_append_lands_whole_or_not_at_all(store: Store, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    store.create(name, [{"n": 1}])
    # Plant a conflicting version 3 behind the store's back, then let an append at version 1 past the check:
    # its version 2 would fit, its version 3 collides, so none of it may land.
    planted = GameRecord.Recorded(
        originator_id=whispers.ledger.io.store.game_id(name),
        originator_version=3,
        timestamp=datetime.now(UTC),
        fact={"planted": True},
    )
    store._events.save(planted)
    monkeypatch.setattr(store._backend, "version", lambda game: 1)
    with pytest.raises(GameMovedOn):
        store.append(name, 1, [{"n": 2}, {"n": 3}])
    stored = store._events.recorder.select_events(whispers.ledger.io.store.game_id(name))
    versions = [e.originator_version for e in stored]
    assert versions == [1, 3]


def test_names_in_creation_order(store: Store) -> None:
    created = [f"order-{i}-{uuid.uuid4().hex[:8]}" for i in (3, 1, 2)]
    for n in created:
        store.create(n, [{"n": n}])
        store.append(n, 1, [{"more": True}])
    mine = set(created)
    assert [n for n in store.names() if n in mine] == created


def test_names_of_an_empty_store(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "empty.sqlite")) as s:
        assert s.names() == []


@pytest.mark.parametrize("bad", ["", "-lead", ".lead", "_lead", "has space", "x" * 65, "slash/y", "ok\n", "é"])
def test_an_invalid_name_is_refused(store: Store, bad: str) -> None:
    for attempt in (
        lambda: store.create(bad, [{"n": 1}]),
        lambda: store.append(bad, 1, [{"n": 1}]),
        lambda: store.facts(bad),
        lambda: store.version(bad),
        lambda: store.exists(bad),
    ):
        with pytest.raises(StoreError, match="invalid game name") as e:
            attempt()
        assert "\n" not in str(e.value)


@pytest.mark.parametrize("good", ["a", "A.b-c_d", "9" * 64, "game.2024-06-01"])
def test_valid_names(store: Store, good: str) -> None:
    assert store.create(good, [{"n": 1}]) == 1
    assert good in store.names()


def test_a_long_record_reloads(store: Store, name: str) -> None:
    facts = [{"i": i, "kind": "attack", "losses": {"attacker": i % 3, "defender": 1}} for i in range(500)]
    store.create(name, facts[:1])
    version = 1
    for start in range(1, 500, 50):
        version = store.append(name, version, facts[start : start + 50])
    assert version == 500
    assert store.facts(name) == facts
    assert store.facts(name, 250) == facts[:250]


def test_the_store_closes(store_url: str, name: str) -> None:
    with open_store(store_url) as s:
        s.create(name, [{"n": 1}])
    with pytest.raises(StoreError, match="closed"):
        s.facts(name)
    s.close()


def test_records_persist_across_openings(shared_url: str, name: str) -> None:
    with open_store(shared_url) as s:
        s.create(name, NESTED)
    with open_store(shared_url) as s:
        assert s.facts(name) == NESTED


# A damaged store: never a short read, never a traceback


BUNDLED = "official-4p"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, list[dict[str, Any]]]:
    """An SQLite store holding the bundled 4-player game (214 events), as bytes, and the game's facts."""
    path = tmp_path_factory.mktemp("recorded") / "store.sqlite"
    text = resources.files("whispers.fixtures").joinpath("games", f"{BUNDLED}.txt").read_text(encoding="utf-8")
    with open_store(str(path)) as s:
        import_lines(s, BUNDLED, text.splitlines())
        facts = s.facts(BUNDLED)
    assert len(facts) == 214
    return path.read_bytes(), facts


def pages(content: bytes) -> tuple[int, list[bytes]]:
    size = int.from_bytes(content[16:18])  # the page size, as PRAGMA page_size gives it
    return size, [content[i : i + size] for i in range(0, len(content), size)]


def read_damaged(path: Path) -> tuple[list[str], list[dict[str, Any]]] | str:
    """The store's list of games and the game's facts, or the one-line StoreError the damaged store gives."""
    try:
        with open_store(str(path)) as s:
            return s.names(), s.facts(BUNDLED)
    except StoreError as e:
        message = str(e)
        assert "\n" not in message and message
        return message


def test_a_page_of_garbage_anywhere_in_an_sqlite_store_is_damage_never_a_short_read(
    recorded: tuple[bytes, list[dict[str, Any]]], tmp_path: Path
) -> None:
    """Each page after the header in turn is overwritten with random bytes, and with a copy of another page
    (garbage that looks like a valid page to SQLite): the list of games and the game read whole, or the store
    says it is damaged."""
    content, facts = recorded
    size, original = pages(content)
    path = tmp_path / "damaged.sqlite"
    damaged = 0
    for page in range(1, len(original)):
        garbage = [random.Random(page).randbytes(size)] + [p for i, p in enumerate(original) if i not in (0, page)]
        for junk in garbage:
            for leftover in ("-wal", "-shm"):  # what SQLite kept of the last damaged file must not repair this one
                path.with_name(path.name + leftover).unlink(missing_ok=True)
            path.write_bytes(b"".join(original[:page]) + junk + b"".join(original[page + 1 :]))
            outcome = read_damaged(path)
            if outcome != ([BUNDLED], facts):
                assert isinstance(outcome, str), f"page {page + 1}: a short or wrong read: {outcome[0]}, " \
                                                 f"{len(outcome[1])} events"
                assert "is damaged" in outcome or "cannot be read" in outcome, outcome
                damaged += 1
    assert damaged > len(original)


def test_verify_refuses_a_game_whose_index_was_replaced_by_a_valid_looking_page(
    recorded: tuple[bytes, list[dict[str, Any]]], tmp_path: Path
) -> None:
    """The (game, version) index's root replaced by one of its own leaves: SQLite finds a consistent index of
    fewer events, so the game read short and `verify` said "verified" before the store counted its log."""
    content, _ = recorded
    probe = tmp_path / "probe.sqlite"
    probe.write_bytes(content)
    with open_store(str(probe)) as store:  # the game again under other names: an index of more than one page
        text = resources.files("whispers.fixtures").joinpath("games", f"{BUNDLED}.txt").read_text(encoding="utf-8")
        for copy in range(4):
            import_lines(store, f"copy-{copy}", text.splitlines())
    _, original = pages(probe.read_bytes())
    db = sqlite3.connect(probe)
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'whispers_events_by_stream'").fetchone()[0]
    db.close()
    leaf = next(i for i, p in enumerate(original) if i and i != root - 1 and p[0] == 0x0A)  # an index leaf page
    path = tmp_path / "damaged.sqlite"
    path.write_bytes(b"".join(original[leaf] if i == root - 1 else p for i, p in enumerate(original)))
    result = CliRunner().invoke(whispers_cli, ["verify", "--store", str(path), BUNDLED])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "is damaged" in lines[0] and "Traceback" not in result.output, result.output


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_events_missing_from_the_middle_of_a_game_are_damage(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest, name: str
) -> None:
    url = str(tmp_path / "store.sqlite") if backend == "sqlite" else request.getfixturevalue("pg_url")
    with open_store(url) as s:
        s.create(name, [{"i": i} for i in range(214)])
        assert len(s.facts(name)) == 214  # the SQLite log was checked at this first read: the damage comes after
        delete = "DELETE FROM {table} WHERE originator_id = %s AND originator_version BETWEEN 113 AND 150"
        if backend == "sqlite":
            with rows_of(url) as db:
                game = whispers.ledger.io.store.game_id(name).hex
                db.execute(delete.format(table="stored_events").replace("%s", "?"), [game])
        else:
            with pg_rows(url) as conn:
                conn.execute(delete.format(table="whispers_events"), [whispers.ledger.io.store.game_id(name)])
        for version, then in ((None, ", then event 151 where 113 was due"), (200, ", then event 151 where 113 was due"),
                              (120, "")):
            with pytest.raises(StoreError) as e:
                s.facts(name, version)
            assert one_line(e) == f"game {name!r}: the store holds events 1-112{then} but 214 were recorded: " \
                                  f"the store {s.url} is damaged"
        assert s.facts(name, 100) == [{"i": i} for i in range(100)]


@pytest.mark.postgres
def test_a_postgresql_stores_changed_games_equal_the_generic_paths_from_every_position(
    pg_own_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`changed_games` on PostgreSQL is grouped by the server; the generic path (a notification per event, each
    game's first event asked for on its own) gives the same answer from every position of the log, among content
    and notes streams that are not games, and names the same game when its first event is missing."""
    from test_content_store import started

    with open_store(pg_own_url) as s:
        def generic(after: int) -> tuple[int, dict[str, int | None]]:
            with s._backend.translated():
                return Backend.changed_games(s._backend, after, limit=3)

        names = [f"pg-changed-{i}" for i in range(4)]
        s.create(names[0], [started(names[0]), {"n": 1}])
        s.create(names[1], [started(names[1], cards=True)])  # a new card sheet: a content stream of its own
        s.append(names[0], 2, [{"n": 2}, {"n": 3}])
        s.create(names[2], [started(names[2], ruleset="revised"), {"n": 1}])
        s.add_note(names[1], {"text": "a note is no change of the game"})
        s.append(names[1], 1, [{"n": 1}])
        s.create(names[3], [{"n": 0}])  # a game whose first fact is not a GameStarted
        s.append(names[0], 4, [{"n": 4}])
        head = s.head()
        answers = {after: s.changed_games(after) for after in range(head + 2)}
        position, games = answers[0]
        assert position == head and list(games) == names
        assert all(isinstance(created, int) for created in games.values())
        assert answers[games[names[1]]][1] == {names[0]: None, names[1]: None, names[2]: games[names[2]],
                                               names[3]: games[names[3]]}
        assert answers[head] == (head, {}) and answers[head + 1] == (head + 1, {})
        assert {after: generic(after) for after in range(head + 2)} == answers

        with pg_rows(pg_own_url) as conn:
            conn.execute("DELETE FROM whispers_events WHERE originator_id = %s AND originator_version = 1",
                         [whispers.ledger.io.store.game_id(names[2])])
        for after in (0, answers[0][1][names[2]]):
            with pytest.raises(StoreError) as fast:
                s.changed_games(after)
            with pytest.raises(StoreError) as slow:
                generic(after)
            assert one_line(fast) == one_line(slow) == (
                f"game {whispers.ledger.io.store.game_id(names[2])}: the store holds no first event for it: the store "
                f"{s.url} is damaged")


def test_an_sqlite_stores_games_read_from_the_start_equal_the_grouped_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From the start of its log, `changed_games` on SQLite reads each stream's first event in one pass
    (SQLiteBackend.every_game) rather than grouping every event by its game: the same games, order, creation
    positions and position read, among content and notes streams that are not games; and a game whose first event
    is gone or is not a game's start is named as the grouping names it, not left out."""
    from test_content_store import started

    url = str(tmp_path / "store.sqlite")
    with open_store(url) as s:
        def grouped() -> tuple[int, dict[str, int | None]]:
            with monkeypatch.context() as patched:
                patched.setattr(SQLiteBackend, "every_game", staticmethod(lambda cursor: None))
                return s.changed_games(0)

        names = [f"changed-{i}" for i in range(4)]
        s.create(names[0], [started(names[0]), {"n": 1}])
        s.create(names[1], [started(names[1], cards=True)])  # a new card sheet: a content stream of its own
        s.append(names[0], 2, [{"n": 2}, {"n": 3}])
        s.create(names[2], [started(names[2], ruleset="revised"), {"n": 1}])
        s.append(names[1], 1, [{"n": 1}])
        s.create(names[3], [{"n": 0}])  # a game whose first fact is not a GameStarted
        s.append(names[0], 4, [{"n": 4}])
        s.add_note(names[1], {"text": "a note, last in the log, is no change of a game"})
        every_game = SQLiteBackend.every_game
        read: list[object] = []
        monkeypatch.setattr(SQLiteBackend, "every_game", staticmethod(
            lambda cursor: read.append(every_game(cursor)) or read[-1]))
        position, games = s.changed_games(0)
        assert read and read[-1] is not None  # read in one pass, not grouped
        assert list(games) == names and position < s.head()  # the notes after it are not read
        assert (position, games) == grouped()
        for damage, why in (("UPDATE stored_events SET originator_version = 0", "no first event for it"),
                            ("UPDATE stored_events SET topic = 'whispers:GameRecord.Recorded'", "no first event")):
            with rows_of(url) as db:
                db.execute(damage + " WHERE originator_id = ? AND originator_version = 1",
                           [whispers.ledger.io.store.game_id(names[2]).hex])
            with pytest.raises(StoreError) as fast:
                s.changed_games(0)
            with pytest.raises(StoreError) as slow:
                grouped()
            assert one_line(fast) == one_line(slow) and why in one_line(fast) and "is damaged" in one_line(fast)
            with rows_of(url) as db:  # put back as it was for the next damage
                db.execute("UPDATE stored_events SET originator_version = 1, topic = 'whispers:GameRecord.Created' "
                           "WHERE originator_id = ? AND originator_version IN (0, 1)",
                           [whispers.ledger.io.store.game_id(names[2]).hex])


def test_a_game_that_grows_while_it_is_read_is_not_called_damaged(
    shared_url: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The damage check compares a read with the game's last version: a writer appending in between is not damage."""
    with open_store(shared_url) as a, open_store(shared_url) as b:
        a.create(name, [{"n": 0}])
        check_version = b._backend.version
        grown: list[int] = []

        def other_writer_appends_between_the_read_and_the_check(game: str) -> int:
            if not grown:
                grown.append(a.append(game, 1, [{"n": 1}]))
            return check_version(game)

        monkeypatch.setattr(b._backend, "version", other_writer_appends_between_the_read_and_the_check)
        # PostgreSQL looks the last version up only when a read falls short of the version asked for
        asked = 2 if shared_url.startswith("postgresql") else None
        assert b.facts(name, asked) == [{"n": 0}, {"n": 1}] and grown


# The transcoder


def test_transcoder_round_trip() -> None:
    t = MsgpackTranscoder()
    state = {
        "id": uuid.uuid4(),
        "when": datetime(2024, 6, 1, 20, 15, 30, 123456, tzinfo=timezone(timedelta(hours=5, minutes=30))),
        "west": datetime(2024, 1, 1, tzinfo=timezone(timedelta(hours=-8))),
        "naive": datetime(2024, 1, 1, 12, 0),
        "money": Decimal("12.3400"),
        "infinite": Decimal("-Infinity"),
        "pair": (1, (2, 3)),
        "bigger_than_64_bits": [2**64, -(2**64) - 1, 10**30],
        "bytes": b"\x00\xff",
        "nested": {"list": [None, True, 1.5, "ü"]},
        "int_keys": {1: "one", -2: "minus two"},
    }
    decoded = t.decode(t.encode(state))
    assert type(decoded) is dict
    decoded["mutable"] = True
    assert decoded.pop("pair") == [1, [2, 3]]
    expected = {k: v for k, v in state.items() if k != "pair"} | {"mutable": True}
    assert decoded == expected
    assert decoded["when"].utcoffset() == timedelta(hours=5, minutes=30)
    assert decoded["west"].utcoffset() == timedelta(hours=-8)
    assert decoded["naive"].tzinfo is None
    assert str(decoded["money"]) == "12.3400"


@pytest.mark.parametrize("when", [
    datetime(2026, 11, 23, 1, 2, 3, 456789, tzinfo=UTC), datetime(1969, 7, 20, tzinfo=UTC),
    datetime(1, 1, 1, tzinfo=UTC), datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC)])
def test_an_events_utc_timestamp_is_stored_in_ten_bytes_to_the_microsecond(when: datetime) -> None:
    t = MsgpackTranscoder()
    encoded = t.encode_plain({"timestamp": when})  # before compression (tests/test_compression.py)
    assert len(encoded) == len(t.encode_plain({"timestamp": 0})) - 1 + 10  # the ISO text took 35
    decoded = t.decode(t.encode({"timestamp": when}))["timestamp"]
    assert decoded == when and decoded.tzinfo is UTC


def test_a_timestamp_stored_as_iso_text_by_an_earlier_whispers_still_reads() -> None:
    import msgpack

    when = datetime(2026, 11, 23, 0, 56, 43, 281233, tzinfo=UTC)
    older = msgpack.packb({"timestamp": msgpack.ExtType(2, when.isoformat().encode())})
    assert MsgpackTranscoder().decode(older) == {"timestamp": when}


def test_transcoder_refuses_what_it_cannot_store() -> None:
    with pytest.raises(TypeError, match="set"):
        MsgpackTranscoder().encode({"s": {1, 2}})


# Where the store is


def test_default_store_is_an_sqlite_file_in_the_user_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("WHISPERS_STORE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    with open_store() as s:
        expected = tmp_path / "data" / "whispers" / "whispers.sqlite"
        assert s.url == str(expected)
        s.create("g", [{"n": 1}])
    assert expected.is_file()
    with open_store() as s:
        assert s.names() == ["g"]


def test_the_environment_names_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("WHISPERS_STORE", str(tmp_path / "env.sqlite"))
    with open_store() as s:
        assert s.url == str(tmp_path / "env.sqlite")
    with open_store(str(tmp_path / "given.sqlite")) as s:
        assert s.url == str(tmp_path / "given.sqlite")
    assert not (tmp_path / "data").exists()


def test_eventsourcing_settings_in_the_environment_are_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.popo")
    monkeypatch.setenv("WHISPERS_SQLITE_DBNAME", str(tmp_path / "elsewhere.sqlite"))
    monkeypatch.setenv("COMPRESSOR_TOPIC", "zlib")
    path = tmp_path / "here.sqlite"
    with open_store(str(path)) as s:
        s.create("g", [{"n": 1}])
    assert path.is_file() and not (tmp_path / "elsewhere.sqlite").exists()
    monkeypatch.delenv("COMPRESSOR_TOPIC")
    with open_store(str(path)) as s:
        assert s.facts("g") == [{"n": 1}]


def test_an_sqlite_url(tmp_path: Path) -> None:
    path = tmp_path / "url.sqlite"
    with open_store(f"sqlite://{path}") as s:
        assert s.url == str(path)
        s.create("g", [{"n": 1}])
    with open_store(str(path)) as s:
        assert s.facts("g") == [{"n": 1}]


def test_memory_stores_are_separate() -> None:
    with open_store("memory:") as a, open_store("memory:") as b:
        a.create("g", [{"n": 1}])
        assert not b.exists("g")


# Failures a user can cause: one line each


def one_line(error: pytest.ExceptionInfo[StoreError]) -> str:
    message = str(error.value)
    assert message and "\n" not in message and "Traceback" not in message
    return message


def test_a_missing_sqlite_directory(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as e:
        open_store(str(tmp_path / "nowhere" / "store.sqlite"))
    assert one_line(e) == f"no such directory: {tmp_path / 'nowhere'}"
    assert not (tmp_path / "nowhere").exists()


def test_a_directory_is_not_a_store(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a directory") as e:
        open_store(str(tmp_path))
    one_line(e)


def test_a_file_that_is_not_an_sqlite_database(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("raven attacks the low fens\n" * 100)
    with pytest.raises(StoreError, match="not an SQLite database") as e:
        open_store(str(path))
    one_line(e)


def test_a_locked_sqlite_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(whispers.ledger.io.store_sqlite, "SQLITE_LOCK_TIMEOUT", 1)
    path = tmp_path / "store.sqlite"
    with open_store(str(path)) as s:
        s.create("g", [{"n": 1}])
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            with pytest.raises(StoreError, match="locked by another process") as e:
                s.append("g", 1, [{"n": 2}])
            one_line(e)
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert s.append("g", 1, [{"n": 2}]) == 2


@pytest.mark.parametrize(
    "url",
    ["mysql://h/db", "postgresql://h:notaport/db", "postgresql://h/", "postgresql://h/db?pool=9"],
)
def test_a_malformed_url(url: str) -> None:
    with pytest.raises(StoreError) as e:
        open_store(url)
    one_line(e)


TIMEOUT = 3
"""POSTGRES_CONNECT_TIMEOUT in the tests of a PostgreSQL gone down; elapsed times are only bounded by 3 x it."""


def test_unreachable_postgresql() -> None:
    started = time.monotonic()
    with pytest.raises(StoreError) as e:
        open_store("postgresql://postgres:s3cret@127.0.0.1:1/test")
    assert time.monotonic() - started < 3 * whispers.ledger.io.store_postgres.POSTGRES_CONNECT_TIMEOUT
    message = one_line(e)
    assert message.startswith("cannot reach PostgreSQL at 127.0.0.1:1: ")
    assert "Connection refused" in message
    assert "s3cret" not in message


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A loopback port that accepts connections (the kernel's backlog) and never says a word."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        yield listener.getsockname()[1]


def test_a_postgresql_port_that_never_answers(silent_port: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(whispers.ledger.io.store_postgres, "POSTGRES_CONNECT_TIMEOUT", TIMEOUT)
    started = time.monotonic()
    with pytest.raises(StoreError) as e:
        open_store(f"postgresql://postgres@127.0.0.1:{silent_port}/test")
    assert time.monotonic() - started < 3 * TIMEOUT
    assert one_line(e) == (f"cannot reach PostgreSQL at 127.0.0.1:{silent_port}: no answer within {TIMEOUT} s "
                           "(connection timeout expired)")


class Relay:
    """A loopback TCP relay to the test PostgreSQL server, that can be cut: the server 'goes down'."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", 5432), timeout=10)
            server.settimeout(None)
            self.sockets += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass

    def cut(self) -> None:
        """Refuses new connections and drops the open ones."""
        for s in (self.listener, *self.sockets):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()


@pytest.mark.postgres
@pytest.mark.parametrize("after", ["refused", "silent"])
def test_a_postgresql_server_lost_after_opening_is_reported_within_the_timeout(
    pg_url: str, after: str, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """The server went down under an open store: the refusal took 41.8 s while it said "after 5.00 sec"."""
    monkeypatch.setattr(whispers.ledger.io.store_postgres, "POSTGRES_CONNECT_TIMEOUT", TIMEOUT)
    relay = Relay()
    url = pg_url.replace("127.0.0.1:5432", f"127.0.0.1:{relay.port}")
    with open_store(url) as s:
        s.create(name, [{"n": 1}])
        relay.cut()
        with contextlib.ExitStack() as later:
            if after == "silent":
                later.enter_context(socket.create_server(("127.0.0.1", relay.port)))
            started = time.monotonic()
            with pytest.raises(StoreError) as e:
                s.append(name, 1, [{"n": 2}])
            assert time.monotonic() - started < 3 * TIMEOUT
            message = one_line(e)
            assert message.startswith(f"lost PostgreSQL at 127.0.0.1:{relay.port}: no connection for {TIMEOUT} s, "
                                      "and a new one failed: ")
            assert ("Connection refused" if after == "refused" else f"no answer within {TIMEOUT} s") in message
            assert "couldn't get a connection" not in message


@pytest.mark.postgres
def test_a_postgresql_server_lost_under_a_store_that_only_read_is_reported_in_one_line(
    pg_url: str, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """A store that has only read reads on the connection it was opened with (no pool): the server lost under it,
    the next read says so in one line, within the timeout, and reads again once the server is back."""
    monkeypatch.setattr(whispers.ledger.io.store_postgres, "POSTGRES_CONNECT_TIMEOUT", TIMEOUT)
    with open_store(pg_url) as s:
        s.create(name, [{"n": 1}])
    relay = Relay()
    url = pg_url.replace("127.0.0.1:5432", f"127.0.0.1:{relay.port}")
    with open_store(url) as s:
        assert s.facts(name) == [{"n": 1}] and s._backend.app is None
        relay.cut()
        started = time.monotonic()
        with pytest.raises(StoreError) as e:
            s.facts(name)
        assert time.monotonic() - started < 3 * TIMEOUT
        assert one_line(e).startswith(f"cannot reach PostgreSQL at 127.0.0.1:{relay.port}: ")


@pytest.mark.postgres
def test_a_postgresql_schema_that_does_not_exist_is_refused_saying_how_to_create_it(pg_url: str) -> None:
    url = pg_url.split("?")[0] + "?schema=whispers_no_such_schema"
    with pytest.raises(StoreError, match="no schema 'whispers_no_such_schema'") as e:
        open_store(url)
    assert one_line(e).endswith("create it with CREATE SCHEMA whispers_no_such_schema;")


@pytest.mark.parametrize("schema", ["RelauditUpper", "has space", "9lives", "dotted.name", 'quo"te', "x" * 64])
def test_a_postgresql_schema_name_that_needs_quotes_is_refused_before_connecting(schema: str) -> None:
    """With ?schema=RelauditUpper reads worked and every write failed ("Composite type 'stored_event_uuid' not
    found"): eventsourcing looks its types up by the unquoted name. Refused up front, on an unreachable port."""
    with pytest.raises(StoreError, match="unusable PostgreSQL schema name") as e:
        open_store(f"postgresql://postgres@127.0.0.1:1/test?schema={quote(schema, safe='')}")
    assert "lower-case" in one_line(e)


@pytest.mark.postgres
def test_a_mixed_case_postgresql_schema_that_exists_is_refused_and_left_empty(pg_url: str) -> None:
    import psycopg
    from psycopg import sql

    schema = f"Upper_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg_url.split("?")[0], autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
        try:
            with (
                pytest.raises(StoreError, match="unusable PostgreSQL schema name") as e,
                open_store(pg_url.split("?")[0] + f"?schema={schema}") as s,
            ):
                s.create("g", [{"n": 1}])
            one_line(e)
            tables = conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = %s", [schema]).fetchone()
            assert tables == (0,)
        finally:
            conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))


@pytest.mark.postgres
def test_a_postgresql_url_hides_its_password(pg_url: str) -> None:
    # Trust authentication ignores the password; the store must not repeat it.
    with open_store(pg_url.replace("postgres@", "postgres:hunter2@")) as s:
        assert "hunter2" not in s.url
        assert s.url == pg_url


def test_importing_the_store_does_not_import_psycopg() -> None:
    out = subprocess.run(
        [sys.executable, "-c", "import whispers.ledger.io.store, sys; print('psycopg' in sys.modules)"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "False"


def _count_table_creation(monkeypatch: pytest.MonkeyPatch, recorder: type) -> list[int]:
    calls: list[int] = []
    original = recorder.create_table

    def counted(self) -> None:  # type: ignore[no-untyped-def]
        calls.append(1)
        original(self)

    monkeypatch.setattr(recorder, "create_table", counted)
    return calls


def test_an_sqlite_store_creates_its_tables_once_not_at_every_opening(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from eventsourcing.sqlite import SQLiteApplicationRecorder

    calls = _count_table_creation(monkeypatch, SQLiteApplicationRecorder)
    url = str(tmp_path / "s.sqlite")
    with open_store(url) as s:
        s.create("g", [{"n": 1}])
    assert len(calls) == 1
    with open_store(url) as s:
        assert s.facts("g") == [{"n": 1}]
    assert len(calls) == 1


@pytest.mark.postgres
def test_a_postgresql_store_creates_its_tables_once_not_at_every_opening(pg_url: str,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from eventsourcing.postgres import PostgresApplicationRecorder

    name = f"once-{uuid.uuid4().hex[:8]}"
    with open_store(pg_url) as s:
        s.create(name, [{"n": 1}])
    calls = _count_table_creation(monkeypatch, PostgresApplicationRecorder)
    with open_store(pg_url) as s:
        assert s.facts(name) == [{"n": 1}]
    assert calls == []


def test_a_game_read_for_its_facts_drops_only_the_events_timestamps() -> None:
    from whispers.ledger.io.transcoder import decode_frozen

    t = MsgpackTranscoder()
    fact = {"type": "T", "n": 2**70, "list": [1, [2]], "when": "2026-11-23"}
    for when in (datetime(2026, 11, 23, tzinfo=UTC), datetime(2026, 11, 23, tzinfo=timezone(timedelta(hours=1)))):
        stored = t.encode({"timestamp": when, "fact": fact})
        assert decode_frozen(stored) == {"timestamp": None, "fact": {**fact, "list": (1, (2,))}}
        assert t.decode(stored) == {"timestamp": when, "fact": fact}


def test_a_process_that_only_reads_finds_when_each_game_was_last_written(tmp_path: Path) -> None:
    """The director's "last move" column, in a server that has stored nothing yet: the stored events' classes are
    defined on first use (ledger/io/records.py), so a read that decodes one the eventsourcing way must define them."""
    path = tmp_path / "store.sqlite"
    with open_store(str(path)) as store:
        store.create("g", [{"n": 0}, {"n": 1}])
        written = store.last_written("g")
    read = subprocess.run([sys.executable, "-c", "import sys\nfrom whispers.ledger.io.store import open_store\n"
                           "with open_store(sys.argv[1]) as s: print(s.last_written('g').isoformat())", str(path)],
                          capture_output=True, text=True)
    assert read.returncode == 0, read.stderr
    assert read.stdout.strip() == written.isoformat()


@pytest.mark.postgres
def test_a_postgresql_server_lost_during_verify_all_is_the_store_s_error_not_every_game_broken(
    pg_own_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`verify --all` over a tournament's store: the server lost after the first game must not report every game
    after it broken (a verdict on games nobody could read); the run stops with the store's one-line error."""
    from whispers.application.files import verify_store
    from whispers.ledger.core.errors import StoreUnavailable

    monkeypatch.setattr(whispers.ledger.io.store_postgres, "POSTGRES_CONNECT_TIMEOUT", TIMEOUT)
    text = resources.files("whispers.fixtures").joinpath("games", "official-2p.txt").read_text(encoding="utf-8")
    with open_store(pg_own_url) as s:
        for game in ("t1", "t2", "t3"):
            import_lines(s, game, text.splitlines())
    relay = Relay()
    seen: list[str] = []

    def each(checked: Any, done: int, total: int) -> None:
        seen.append(checked.game)
        assert checked.broken is None, checked.broken
        relay.cut()

    with pytest.raises(StoreUnavailable) as e:
        verify_store(pg_own_url.replace("127.0.0.1:5432", f"127.0.0.1:{relay.port}"), each)
    assert seen == ["t1"] and f"PostgreSQL at 127.0.0.1:{relay.port}: " in one_line(e)
    assert not verify_store(pg_own_url).broken  # the server there: every game verifies
