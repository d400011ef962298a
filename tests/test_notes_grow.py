"""Notes that grow: edits and withdrawals appended to the notes stream (history kept), PGN-style glyphs, notes
shown as a society saw their moves, and record files chaining the edits as they chain the notes."""

from pathlib import Path

import msgpack
import pytest
from test_cli import invoke, ok, refused

from whispers.application import review
from whispers.ledger.core.errors import RecordFileError, StoreError
from whispers.ledger.core.notes import current, history, problem
from whispers.ledger.io.game import annotate, edit_note, import_lines, read_notes, withdraw_note
from whispers.ledger.io.recordfile import dumps, loads
from whispers.ledger.io.store import open_store

GAMES = Path(__file__).resolve().parent.parent / "fixtures" / "games"
TIME = "2026-01-01T00:00:00+00:00"


@pytest.fixture
def store_file(tmp_path: Path) -> Path:
    path = tmp_path / "w.sqlite"
    with open_store(str(path)) as s:
        import_lines(s, "g", (GAMES / "official-4p.txt").read_text(encoding="utf-8").splitlines())
    return path


def test_an_edit_and_a_withdrawal_keep_the_history(store_file: Path) -> None:
    with open_store(str(store_file)) as s:
        annotate(s, "g", 5, "sealed at first", "Ana", None, "!?")
        annotate(s, "g", 9, "a fine deploy", None, "good")
        edit_note(s, "g", 1, "a bold sealed set", "Bo", glyph="!")
        withdraw_note(s, "g", 2, "Ana")
        with pytest.raises(StoreError, match="no note 2 standing"):
            edit_note(s, "g", 2, "again", None)
        with pytest.raises(StoreError, match="unknown glyph"):
            annotate(s, "g", 5, "x", None, None, "?!?")
        entries, skipped = read_notes(s, "g")
    assert skipped == []
    now = current(entries)
    assert [(n["number"], n["at"], n["text"], n["glyph"], n["author"]) for n in now] == [
        (1, 5, "a bold sealed set", "!", "Ana")]
    assert [(e["kind"], e["note"]) for e in history(entries)] == [("note", 1), ("note", 2), ("edit", 1),
                                                                   ("withdrawal", 2)]
    assert history(entries)[0]["text"] == "sealed at first"


def test_a_stream_entry_must_name_a_standing_note() -> None:
    note = {"at": 1, "text": "x", "author": None, "tag": None, "time": TIME}
    withdrawn = {"withdraws": 1, "author": None, "time": TIME}
    edit = {"edits": 1, "text": "y", "author": None, "tag": None, "glyph": None, "time": TIME}
    assert problem(edit, 10, [note]) is None
    assert problem(edit, 10, []) == "it names no note before it"
    assert problem(edit, 10, [note, withdrawn]) == "note 1 was withdrawn already"
    assert problem(withdrawn, 10, [withdrawn]) == "it names no note before it"
    assert problem({**note, "glyph": "!!!"}, 10).startswith("its glyph is not one of")
    assert problem({**edit, "text": " "}, 10, [note]).startswith("its text is not")


def test_record_files_chain_edits_and_old_files_still_import(store_file: Path) -> None:
    with open_store(str(store_file)) as s:
        annotate(s, "g", 5, "first", None, None)
        edit_note(s, "g", 1, "second", None)
        facts = s.facts("g")
        entries, _ = read_notes(s, "g")
    data = dumps("g", facts, entries)
    assert loads(data, "f")[2] == entries
    body = msgpack.unpackb(data, raw=False)
    body["notes"][1]["text"] = "forged"
    with pytest.raises(RecordFileError, match="the notes were altered"):
        loads(msgpack.packb(body, use_bin_type=True), "f")
    # an edit that names no note is refused even in a file from before notes were chained
    body["notes"] = [body["notes"][1]]
    del body["header"]["notes_head"]
    with pytest.raises(RecordFileError, match="note 1 is malformed: it names no note before it"):
        loads(msgpack.packb(body, use_bin_type=True), "f")
    # a plain note in such an old file (no glyph, no edits) still imports, marked unchained
    body["notes"] = [entries[0]]
    assert loads(msgpack.packb(body, use_bin_type=True), "f")[2] == [{**entries[0], "unchained": True}]


def test_notes_as_a_society_show_the_move_as_it_saw_it(store_file: Path) -> None:
    with open_store(str(store_file)) as s:
        annotate(s, "g", 5, "line one\nline two # not a move", None, None, "??")
    record = review.notes(str(store_file), "g")
    assert "devout=" in record.moves[0]
    seen = review.notes(str(store_file), "g", "rat")
    assert seen.moves[0] == "serpent loyalty sealed"
    out = ok(invoke(store_file, "notes", "g", "--as", "rat"))
    assert "note 1 on event 5 (serpent loyalty sealed) [??]" in out and "devout" not in out
    ok(invoke(store_file, "edit-note", "g", "1", "--glyph", "!"))
    history_out = ok(invoke(store_file, "notes", "g", "--history"))
    assert "edit of note 1 [!]" in history_out
    log = ok(invoke(store_file, "log", "g"))
    noted = [line for line in log.splitlines() if "note on event 5" in line]
    assert len(noted) == 1 and noted[0].startswith("#") and "(!, edited)" in noted[0]
    ok(invoke(store_file, "withdraw-note", "g", "1"))
    assert "note on event" not in ok(invoke(store_file, "log", "g"))
    refused(invoke(store_file, "withdraw-note", "g", "1"), "no note 1 standing")
    refused(invoke(store_file, "notes", "g", "--as", "nobody"))
