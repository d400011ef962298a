"""A game's board, ruleset and card sheet stored once per content hash (issue 12: "the board and ruleset stored
once per content hash, referenced by each game; a record file stays self-contained").

tests/data/before-content holds a store written while every game embedded them whole, and the record files that
version exported: it still opens, reads the same facts and verifies.
"""

import json
import shutil
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.store_rows import rows_of
from whispers.application.files import export_record
from whispers.cli.main import whispers as whispers_cli
from whispers.ledger.core import events as ev
from whispers.ledger.core.content import content_hash
from whispers.ledger.core.errors import GameExists, StoreError
from whispers.ledger.core.streams import CONTENT_CREATED, content_id
from whispers.ledger.io.board_files import load_board
from whispers.ledger.io.decree_files import load_sheet
from whispers.ledger.io.game import load
from whispers.ledger.io.ruleset_files import load_ruleset
from whispers.ledger.io.store import Store, open_store
from whispers.ledger.io.transcoder import packed, unpacked
from whispers.ledger.io.verify import verify

BEFORE = Path(__file__).parent / "data" / "before-content"
GAMES = ["official-2p", "official-4p", "revised-3p-decrees", "revised-3p", "carded"]


def started(name: str, ruleset: str = "official", cards: bool = False) -> dict[str, Any]:
    board, rules = load_board("standin"), load_ruleset(ruleset)
    sheet = load_sheet("example").to_data() if cards else None
    return ev.GameStarted(name=name, players=("raven", "spider"), first="raven", ruleset=rules.to_data(),
                          board=board.to_data(), board_hash=board.content_hash, ruleset_hash=rules.content_hash,
                          cards=sheet, cards_hash=None if sheet is None else content_hash(sheet)).to_fact()


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    url = {"memory": "memory:", "sqlite": str(tmp_path / "store.sqlite")}.get(request.param)
    with open_store(url or request.getfixturevalue("pg_own_url")) as opened:
        yield opened


@pytest.fixture
def before(tmp_path: Path) -> Path:
    copy = tmp_path / "store.sqlite"
    shutil.copy(BEFORE / "store.sqlite", copy)
    return copy


def stored_first(path: Path, name: str) -> dict[str, Any]:
    """The first fact of a game as its row holds it (not as the store reads it back)."""
    from whispers.ledger.core.streams import game_id

    db = rows_of(path)
    try:
        (state,) = db.execute("SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = 1",
                              (game_id(name).hex,)).fetchone()
    finally:
        db.close()
    return msgpack.unpackb(unpacked(state), ext_hook=lambda code, data: data, strict_map_key=False)["fact"]


def content_streams(path: Path) -> int:
    db = rows_of(path)
    try:
        return db.execute("SELECT count(*) FROM stored_events WHERE topic = ?", (CONTENT_CREATED,)).fetchone()[0]
    finally:
        db.close()


def test_a_game_reads_back_the_board_ruleset_and_card_sheet_it_was_given(store: Store) -> None:
    name = f"g-{uuid.uuid4().hex[:8]}"
    facts = [started(name, "revised", cards=True), {"type": "PhaseStarted", "round": 1, "phase": "deploy"}]
    store.create(name, facts)
    assert store.facts(name) == facts
    assert list(store.facts(name)[0]) == list(facts[0])  # the keys in their order: an export hashes them so
    assert store.facts_after(name, 0) == facts
    tail = store.tail(name, 2)
    assert tail is not None and tail[0] == facts[0]


def test_games_with_the_same_board_and_ruleset_store_them_once(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    with open_store(str(path)) as store:
        store.create("one", [started("one")])
        store.create("two", [started("two")])
        store.create("three", [started("three", "revised")])
        assert store.facts("two")[0] == started("two")
    assert content_streams(path) == 3  # the standin board, the official and the revised rulesets
    first = stored_first(path, "two")
    assert first["board"] is None and first["ruleset"] is None
    assert first["content"] == {"ruleset": load_ruleset("official").content_hash,
                                "board": load_board("standin").content_hash}
    assert len(msgpack.packb(first)) < 700  # where it embedded 6.7 KB (before compression: tests/test_compression.py)


def test_the_record_file_of_a_game_stored_by_reference_is_self_contained(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "a.sqlite")) as store:
        store.create("carded", [started("carded", cards=True)])
        exported = export_record(store, "carded")
    with open_store("memory:") as other:
        other.create("carded", [started("carded", cards=True)])
        assert export_record(other, "carded").data == exported.data
    # the file holds the data whole, not a hash to look up in a store it may never see
    assert load_board("standin").to_data()["id"].encode() in exported.data
    assert b'"content"' not in exported.data and b"\xa7content" not in exported.data


def test_another_writer_storing_the_same_new_board_at_the_same_moment_is_no_conflict(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = str(tmp_path / "store.sqlite")
    with open_store(path) as first, open_store(path) as second:
        recorder = second._events.recorder
        real, fooled = recorder.select_events, []

        def late(originator_id: Any, *args: Any, **kwargs: Any) -> Any:
            if originator_id == content_id(load_board("standin").content_hash) and not fooled:
                fooled.append(True)
                first.create("a", [started("a")])  # lands between the check and the save
                return []
            return real(originator_id, *args, **kwargs)

        monkeypatch.setattr(recorder, "select_events", late)
        second.create("b", [started("b")])
        assert fooled and second.facts("b") == [started("b")] and first.facts("a") == [started("a")]
        with pytest.raises(GameExists):
            second.create("b", [started("b")])


def test_writers_storing_a_new_game_s_board_and_ruleset_in_two_separate_moments_are_no_conflict(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sixteen tables opening games at once: one writer stores the board just before our save, another the ruleset
    just before our second try. Each round leaves less to save, so it is never taken for the game's own name."""
    path = str(tmp_path / "store.sqlite")
    board, revised = content_id(load_board("standin").content_hash), content_id(load_ruleset("revised").content_hash)
    with open_store(path) as first, open_store(path) as second:
        recorder = second._events.recorder
        real, checks, landed = recorder.select_events, {board: 0, revised: 0}, []

        def late(originator_id: Any, *args: Any, **kwargs: Any) -> Any:
            if originator_id in checks:
                checks[originator_id] += 1
                if (originator_id, checks[originator_id]) == (board, 1):
                    first.create("a", [started("a")])  # the board lands between the check and the first save
                    landed.append("a")
                    return []
                if (originator_id, checks[originator_id]) == (revised, 2):
                    first.create("c", [started("c", "revised")])  # the ruleset lands before the second save
                    landed.append("c")
                    return []
            return real(originator_id, *args, **kwargs)

        monkeypatch.setattr(recorder, "select_events", late)
        second.create("b", [started("b", "revised")])
        assert landed == ["a", "c"] and checks == {board: 2, revised: 3}
        assert second.facts("b") == [started("b", "revised")] and first.facts("c") == [started("c", "revised")]
        with pytest.raises(GameExists):
            second.create("b", [started("b", "revised")])
    with open_store(path) as store:
        with pytest.raises(GameExists):  # the name taken, with a board nobody stored yet: refused, not retried on
            store.create("b", [started("b", cards=True)])
        assert store.facts("b") == [started("b", "revised")]


def test_altered_or_missing_content_is_named_as_damage_never_read_as_another_board(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    with open_store(str(path)) as store:
        store.create("g", [started("g")])
    digest = load_board("standin").content_hash
    db = rows_of(path)
    (state,) = db.execute("SELECT state FROM stored_events WHERE originator_id = ?", (content_id(digest).hex,)
                          ).fetchone()
    altered = packed(unpacked(state).replace(b"standin", b"standim"))
    db.execute("UPDATE stored_events SET state = ? WHERE originator_id = ?", (altered, content_id(digest).hex))
    db.commit()
    db.close()
    with open_store(str(path)) as store, pytest.raises(StoreError, match=r"missing or altered: the store .* damaged"):
        store.facts("g")
    result = CliRunner().invoke(whispers_cli, ["status", "g", "--store", str(path)])
    assert result.exit_code == 2 and "missing or altered" in result.output and "Traceback" not in result.output
    db = rows_of(path)
    db.execute("DELETE FROM stored_events WHERE originator_id = ?", (content_id(digest).hex,))
    db.commit()
    db.close()
    result = CliRunner().invoke(whispers_cli, ["export", "g", "-o", str(tmp_path / "g.whispers"), "--store", str(path)])
    assert result.exit_code == 2 and "damaged" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "g.whispers").exists()


@pytest.mark.parametrize("named", [{"players": "HASH"}, {"board": "sha256:00"}, {"board": 7}])
def test_a_stored_first_fact_naming_anything_else_is_named_as_damage(tmp_path: Path, named: dict[str, Any]) -> None:
    path = tmp_path / "store.sqlite"
    with open_store(str(path)) as store:
        store.create("g", [started("g")])
    from whispers.ledger.core.streams import game_id

    first = stored_first(path, "g")
    digest = first["content"]["board"]
    first["content"] = {key: digest if value == "HASH" else value for key, value in named.items()}
    db = rows_of(path)
    db.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = 1",
               (msgpack.packb({"fact": first, "name": "g"}), game_id("g").hex))
    db.commit()
    db.close()
    with open_store(str(path)) as store, pytest.raises(StoreError, match="missing or altered"):
        store.facts("g")


def test_a_first_fact_that_names_content_itself_is_refused_before_anything_is_stored(store: Store) -> None:
    fact = {**started("g"), "content": {"board": "sha256:00"}}
    with pytest.raises(ValueError):
        store.create("g", [fact])
    assert not store.exists("g")


@pytest.mark.parametrize("game", GAMES)
def test_a_store_written_with_whole_boards_reads_the_same_and_exports_the_same_bytes(before: Path, game: str
                                                                                     ) -> None:
    with open_store(str(before)) as store:
        assert store.names() == GAMES
        facts = store.facts(game)
        assert verify(facts, game).events == load(store, game).version == len(facts)
        assert export_record(store, game).data == (BEFORE / f"{game}.whispers").read_bytes()


def test_a_store_written_with_whole_boards_takes_new_games_by_reference_and_moves_on_old_ones(before: Path) -> None:
    runner = CliRunner()
    moved = runner.invoke(whispers_cli, ["move", "carded", "raven", "loyalty", "devout=bear", "dutiful=eagle",
                                         "affiliated=lion", "unallied=horse", "opposed=elephant", "--store",
                                         str(before)])
    assert moved.exit_code == 0, moved.output
    created = runner.invoke(whispers_cli, ["new", "fresh", "--players", "raven,rat", "--store", str(before)])
    assert created.exit_code == 0, created.output
    assert stored_first(before, "fresh")["content"]["board"] == load_board("standin").content_hash
    assert stored_first(before, "carded")["board"]["id"] == "standin"  # the old game's row is never rewritten
    listed = runner.invoke(whispers_cli, ["games", "--json", "--store", str(before)])
    assert listed.exit_code == 0
    with open_store(str(before)) as store:
        assert store.names() == [*GAMES, "fresh"]
        assert store.facts("fresh")[0]["board"] == load_board("standin").to_data()
        assert store.version("carded") == 2


def test_a_store_from_before_gets_the_read_models_index_at_its_first_read_and_lists_without_sorting(
        before: Path) -> None:
    db = sqlite3.connect(before)
    assert not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'whispers_summaries_created'").fetchall()
    db.close()
    listed = CliRunner().invoke(whispers_cli, ["games", "--json", "--store", str(before)])
    assert listed.exit_code == 0 and [game["game"] for game in json.loads(listed.output)] == GAMES
    db = sqlite3.connect(before)
    plan = " ".join(str(row) for row in db.execute(
        "EXPLAIN QUERY PLAN SELECT game, data FROM whispers_summaries WHERE projection = ? ORDER BY created, game",
        ("listing",)))
    db.close()
    assert "whispers_summaries_created" in plan and "TEMP B-TREE" not in plan


_JSONISH = st.recursive(st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=20),
                        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                                     max_size=3), max_leaves=8)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(named=_JSONISH, board=_JSONISH)
def test_whatever_a_stored_first_fact_names_it_reads_as_its_content_or_as_damage(tmp_path_factory: Any,
                                                                                  named: Any, board: Any) -> None:
    """Fuzz: a first fact's `content` and `board` as a damaged or forged row may hold them: the game reads back
    whole (only when they are what create() wrote) or fails with the store's one-line damage error."""
    from whispers.ledger.core.streams import game_id

    path = tmp_path_factory.mktemp("fuzz") / "store.sqlite"
    with open_store(str(path)) as store:
        store.create("g", [started("g")])
    first = stored_first(path, "g")
    first["content"], first["board"] = named, board
    db = rows_of(path)
    db.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = 1",
               (msgpack.packb({"fact": first, "name": "g"}), game_id("g").hex))
    db.commit()
    db.close()
    exported = CliRunner().invoke(whispers_cli, ["export", "g", "-o", str(path.parent / "g.whispers"), "--force",
                                                 "--store", str(path)])
    assert exported.exit_code in (0, 2) and "Traceback" not in exported.output, exported.output
    with open_store(str(path)) as store:
        try:
            facts = store.facts("g")
        except StoreError as e:
            assert "\n" not in str(e) and "damaged" in str(e)
        else:
            named_board = isinstance(named, dict) and "board" in named
            assert facts[0]["board"] == (load_board("standin").to_data() if named_board else board)
