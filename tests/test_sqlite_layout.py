"""An SQLite store's compact layout (ledger/io/sqlite_layout.py), and the migration of a store written in
eventsourcing's own layout by an earlier whispers (issue 12: "stores written by today's main still open, migrated
in place or read as they are, and their games verify")."""

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.store_rows import rows_of
from whispers.cli.main import whispers as whispers_cli
from whispers.ledger.core.errors import StoreError
from whispers.ledger.core.streams import game_id
from whispers.ledger.io import sqlite_layout
from whispers.ledger.io.store import open_store

BEFORE = Path(__file__).parent / "data" / "before-compact"
GAMES = ["official-4p", "revised-3p", "what-if"]


@pytest.fixture
def before(tmp_path: Path) -> Path:
    copy = tmp_path / "store.sqlite"
    shutil.copy(BEFORE / "store.sqlite", copy)
    return copy


def run(*args: str) -> str:
    result = CliRunner().invoke(whispers_cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_a_store_in_eventsourcings_layout_is_migrated_at_its_first_opening_and_reads_as_it_did(before: Path) -> None:
    old = sqlite3.connect(before)
    rows = old.execute("SELECT rowid, originator_id, originator_version, topic, state FROM stored_events "
                       "ORDER BY rowid").fetchall()
    (tracked,) = old.execute("SELECT fingerprint FROM whispers_tracking WHERE projection = 'catalog'").fetchone()
    old.close()
    size = before.stat().st_size
    assert run("games", "--json", "--store", str(before)) == (BEFORE / "games.json").read_text(encoding="utf-8")
    db = sqlite3.connect(before)
    assert sqlite_layout.tables(db) == {sqlite_layout.EVENTS}
    db.close()
    with rows_of(before) as db:  # every event at its own position, with its stream, version, topic and bytes
        assert db.execute("SELECT position, originator_id, originator_version, topic, state FROM stored_events "
                          "ORDER BY position").fetchall() == rows
    for game in GAMES:
        assert run("log", "--store", str(before), game) == (BEFORE / f"{game}.log").read_text(encoding="utf-8")
    assert run("notes", "--store", str(before), "revised-3p") == (BEFORE / "revised-3p.notes").read_text("utf-8")
    for game in ("official-4p", "revised-3p"):
        assert "verified" in run("verify", "--store", str(before), game)
    with open_store(str(before)) as store:  # the catalog's position names the same event: it is not rebuilt
        assert store.fingerprint(464) == tracked
        assert 464 in store.tracked("catalog") and store.tracked("catalog")[-1] == tracked
    assert before.stat().st_size < size  # its states were kept byte for byte: the ids and topics went


def test_a_store_is_migrated_once_when_two_processes_open_it_at_the_same_moment(before: Path) -> None:
    code = "import sys; from whispers.ledger.io.store import open_store; print(open_store(sys.argv[1]).names())"
    openers = [subprocess.Popen([sys.executable, "-c", code, str(before)], stdout=subprocess.PIPE, text=True)
               for _ in range(3)]
    outputs = [opener.communicate(timeout=60)[0] for opener in openers]
    assert all(opener.returncode == 0 for opener in openers)
    assert outputs == [f"{GAMES[:1] + GAMES[1:2] + GAMES[2:]}\n"] * 3 or all("official-4p" in o for o in outputs)
    with open_store(str(before)) as store:
        assert sorted(store.names()) == sorted(GAMES)


def test_a_store_that_cannot_be_migrated_says_why_in_one_line_and_is_left_as_it_was(before: Path) -> None:
    """An event without a topic would join no topic's row: the migration is refused, not done short."""
    db = sqlite3.connect(before)
    db.execute("UPDATE stored_events SET topic = NULL WHERE rowid = 7")
    db.commit()
    db.close()
    content = before.read_bytes()
    with pytest.raises(StoreError) as refused:
        open_store(str(before))
    message = str(refused.value)
    assert "\n" not in message and "1 of its 464 events have no topic" in message
    assert before.read_bytes() == content


def test_each_stream_is_written_once_under_its_ids_first_bytes(tmp_path: Path) -> None:
    """The compact layout's figures: a stream's id once (not in every event and its index entry), its number the
    id's first 8 bytes, and a topic once."""
    path = tmp_path / "store.sqlite"
    with open_store(str(path)) as store:
        store.create("g", [{"n": i} for i in range(50)])
        store.append("g", 50, [{"n": 50}])
    db = sqlite3.connect(path)
    streams = db.execute("SELECT id, originator FROM whispers_streams").fetchall()
    assert streams == [(sqlite_layout.stream_of(game_id("g")), game_id("g").bytes)]
    assert db.execute("SELECT count(*) FROM whispers_topics").fetchone() == (2,)
    assert db.execute("SELECT count(*), min(position), max(position) FROM whispers_events").fetchone() == (51, 1, 51)


def test_a_stream_whose_row_names_another_id_is_damage(before: Path) -> None:
    with open_store(str(before)) as store:
        store.names()
    db = sqlite3.connect(before)
    db.execute("UPDATE whispers_streams SET originator = ? WHERE id = ?",
               (game_id("someone-else").bytes, sqlite_layout.stream_of(game_id("revised-3p"))))
    db.commit()
    db.close()
    with open_store(str(before)) as store, pytest.raises(StoreError) as damaged:
        store.names()  # the log's scan reads each stream's row (a game is read by its number alone)
    assert "is damaged" in str(damaged.value) and "\n" not in str(damaged.value)


def test_the_migrated_store_takes_new_moves_after_its_old_ones(before: Path) -> None:
    with open_store(str(before)) as store:
        head = store.head()
        store.create("after", [{"n": 0}])
        assert store.head() == head + 1 and store.facts("after") == [{"n": 0}]
        assert store.fingerprint(head + 1) is not None and store.fingerprint(head + 2) is None


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.tuples(st.one_of(st.none(), st.integers(min_value=-(2**63), max_value=2**63 - 1),
                                         st.text(max_size=40), st.binary(max_size=20),
                                         st.uuids().map(lambda u: u.hex)),
                               st.integers(min_value=-3, max_value=5),
                               st.one_of(st.none(), st.sampled_from(["whispers:GameRecord.Created", "x"]),
                                         st.text(max_size=10)),
                               st.binary(max_size=30)), max_size=12))
def test_whatever_eventsourcings_table_held_is_moved_whole_or_refused(rows: list[tuple]) -> None:
    """Fuzzed: any rows in the old table (ids of any type, versions repeated, topics missing) are moved each at its
    own position with its state and version, or the migration is refused and the table left as it was."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    db.execute("CREATE TABLE stored_events (originator_id TEXT, originator_version INTEGER, topic TEXT, state BLOB)")
    db.executemany("INSERT INTO stored_events VALUES (?, ?, ?, ?)", rows)
    before = db.execute("SELECT rowid, originator_version, topic, state FROM stored_events ORDER BY rowid").fetchall()
    try:
        sqlite_layout.migrate(db)
    except sqlite3.Error:
        assert sqlite_layout.tables(db) == {sqlite_layout.OLD_EVENTS}
        assert db.execute("SELECT rowid, originator_version, topic, state FROM stored_events ORDER BY rowid"
                          ).fetchall() == before
    else:
        assert sqlite_layout.tables(db) == {sqlite_layout.EVENTS}
        assert db.execute("SELECT position, version, topic, state FROM whispers_log ORDER BY position"
                          ).fetchall() == before
    finally:
        db.close()
