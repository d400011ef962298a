"""Notes and the other free text of a record: never read back as a move, covered by what `verify` publishes,
validated on the way in, readable on the way out, and imported with their game in one transaction."""

import contextlib
import json
import shutil
import sys
from importlib import resources
from pathlib import Path
from unittest import mock

import msgpack
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from whispers.cli.main import whispers
from whispers.ledger.core import commands as c
from whispers.ledger.core.errors import RecordFileError, RuleError
from whispers.ledger.core.text import LINE_BREAKS, has_line_break, one_line
from whispers.ledger.io import store as store_module
from whispers.ledger.io.game import annotate, import_lines, import_record, load, read_notes, record
from whispers.ledger.io.recordfile import dumps, loads
from whispers.ledger.io.store import EventStore, open_store
from whispers.ledger.io.verify import VerifyError
from whispers.projections.log import format_record

GAME = resources.files("whispers.fixtures").joinpath("games", "revised-3p.txt").read_text(encoding="utf-8").splitlines()
INJECTED = 'undo "the note took this move back"'


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding GAME as `g`, imported once for the module: each test has a copy of its own."""
    path = tmp_path_factory.mktemp("imported") / "notes.sqlite"
    with open_store(str(path)) as store:
        import_lines(store, "g", GAME)
    return path


@pytest.fixture
def store_file(imported: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = Path(shutil.copy(imported, tmp_path / "notes.sqlite"))
    monkeypatch.setenv("WHISPERS_STORE", str(path))
    return path


def run(*args: str) -> CliRunner:
    result = CliRunner().invoke(whispers, list(args))
    assert result.exit_code == 0, (result.output, result.stderr)
    return result


def refused(*args: str) -> str:
    result = CliRunner().invoke(whispers, list(args))
    assert result.exit_code == 2 and "Traceback" not in result.output + result.stderr, (result.output, result.stderr)
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    return result.stderr


def facts_of(store_file: Path, name: str) -> list[dict]:
    with open_store(str(store_file)) as store:
        facts = store.facts(name)
    return [{k: v for k, v in fact.items() if k != "name"} for fact in facts]


# --- free text is never a move ---------------------------------------------------------------------------

def test_what_str_splitlines_splits_on_is_exactly_the_line_breaks_we_escape() -> None:
    breaks = {chr(i) for i in range(sys.maxunicode + 1) if len(f"a{chr(i)}b".splitlines()) > 1}
    assert breaks == set(LINE_BREAKS)
    assert all(len(one_line(f"a{ch}b").splitlines()) == 1 for ch in LINE_BREAKS)


@given(st.text(alphabet=st.one_of(st.characters(), st.sampled_from([*LINE_BREAKS, "\\", "u", "x"]))))
def test_one_line_escapes_each_line_break_and_nothing_else(text: str) -> None:
    """Each break becomes its escape as Python writes it (\\n, \\x85, \\u2028), the rest is left as it is: what is
    written is one line, and has_line_break says whether anything was escaped."""
    written = one_line(text)
    assert len(written.splitlines()) <= 1 and not has_line_break(written)
    assert written == "".join(ch.encode("unicode_escape").decode("ascii") if ch in LINE_BREAKS else ch for ch in text)
    assert has_line_break(text) == (written != text)


@pytest.mark.parametrize("brk", list(LINE_BREAKS), ids=[f"U+{ord(b):04X}" for b in LINE_BREAKS])
def test_a_note_with_a_line_break_cannot_inject_a_move_through_log_and_import(
        store_file: Path, tmp_path: Path, brk: str) -> None:
    """The issue's attack: a note holding `\\n` + a move, in its text, and another in its author; log, import the
    log: the copy must be the same game."""
    with open_store(str(store_file)) as store:
        last = store.version("g")
        note = {"at": last, "text": f"a note{brk}{INJECTED}", "author": None, "tag": None,
                "time": "2026-01-01T00:00:00+00:00"}
        by = {**note, "text": "a note", "author": f"ana{brk}{INJECTED}"}
        with mock.patch.object(store_module, "_refuse_controls", lambda *_: None):
            store.add_note("g", note)
            store.add_note("g", by)  # as an older whispers let an author with a line break in
    log = run("log", "g").stdout
    assert INJECTED not in log.splitlines()
    (tmp_path / "g.txt").write_text(log, encoding="utf-8")
    run("import", str(tmp_path / "g.txt"), "--game", "copy")
    assert facts_of(store_file, "copy") == facts_of(store_file, "g")
    assert "every move agrees" in run("verify", "copy").stdout


def test_the_issue_example_annotate_with_a_newline_then_log_and_import_is_the_same_game(
        store_file: Path, tmp_path: Path) -> None:
    with open_store(str(store_file)) as store:
        last = store.version("g")
    run("annotate", "g", str(last), f"text\n{INJECTED}", "--tag", "ruling")
    (tmp_path / "g.txt").write_text(run("log", "g").stdout, encoding="utf-8")
    run("import", str(tmp_path / "g.txt"), "--game", "copy")
    assert facts_of(store_file, "copy") == facts_of(store_file, "g")
    with open_store(str(store_file)) as store:
        assert load(store, "copy").state.over


@pytest.mark.parametrize("brk", ["\n", "\r", "\u2028", "\x85", "\x0c"])
@pytest.mark.parametrize("verb", ["undo", "ruling"])
def test_a_take_back_or_ruling_reason_with_a_line_break_is_refused(brk: str, verb: str) -> None:
    """A reason is written on its move's line: a break in it would start a line read as another move."""
    with open_store("memory:") as store:
        game = import_lines(store, "g", GAME[:60])
        reason = f"slip{brk}raven pass"
        command = c.Undo(reason) if verb == "undo" else c.Ruling(reason)
        with pytest.raises(RuleError, match="one line"):
            record(store, game, command)
        assert store.version("g") == game.version


def test_a_ruling_reason_that_starts_with_an_effect_is_refused_as_the_notation_could_not_read_it_back() -> None:
    with open_store("memory:") as store:
        game = import_lines(store, "g", GAME[:60])
        with pytest.raises(RuleError, match="cannot start with an effect"):
            record(store, game, c.Ruling("kill=ice-hall:1 was wrong"))


def test_a_record_file_holding_a_reason_with_a_line_break_is_refused() -> None:
    with open_store("memory:") as store:
        game = import_lines(store, "g", [*GAME[:60], 'undo "slip"'])
        facts = store.facts("g")
    assert facts[-1]["type"] == "MoveTakenBack"
    facts[-1]["reason"] = f"slip\n{GAME[59]}"
    with open_store("memory:") as store:
        with pytest.raises(VerifyError, match="not legal"):
            import_record(store, dumps("g", facts), "g.whispers")
        assert store.names() == [] and game.version == len(facts)


@pytest.mark.parametrize("odd", [f"x\n{INJECTED}", "x\u2028y", "two words", 7])
def test_a_record_file_whose_ruleset_id_is_not_one_word_is_refused(odd: object) -> None:
    """The id is written on a log's game line (a ruleset file's id is checked when it is read; a record
    file's embedded ruleset only here)."""
    with open_store("memory:") as store:
        import_lines(store, "g", GAME[:40])
        facts = store.facts("g")
    facts[0] = {**facts[0], "ruleset": {**facts[0]["ruleset"], "id": odd}}
    with open_store("memory:") as store:
        with pytest.raises((VerifyError, RecordFileError), match=r"event 1|ruleset") as caught:
            import_record(store, dumps("g", facts), "g.whispers")
        assert "\n" not in str(caught.value) and store.names() == []


@pytest.mark.parametrize("odd", [f"x\n{INJECTED}", "x\nraven pass #", "x\u2028raven pass"])
def test_a_stored_game_whose_ruleset_id_holds_a_line_break_logs_no_extra_move(store_file: Path, odd: str) -> None:
    """Older whispers took any ruleset id: such a game still loads, and its id, wherever the log writes it
    (the game line, a comment on a ruleset that is not shipped), never starts a line of its own."""
    with open_store(str(store_file)) as store:
        facts = store.facts("g")
        facts[0] = {**facts[0], "name": "odd", "ruleset": {**facts[0]["ruleset"], "id": odd}}
        store.create("odd", facts)
    moves = [line for line in run("log", "odd").stdout.splitlines() if line.strip() and not line.startswith("#")]
    plain = [line for line in run("log", "g").stdout.splitlines() if line.strip() and not line.startswith("#")]
    assert len(moves) == len(plain) and moves[1:] == plain[1:] and moves[0].startswith("game ruleset=")


def test_note_comments_in_a_log_are_one_line_each() -> None:
    with open_store("memory:") as store:
        game = import_lines(store, "g", GAME)
    notes = [{"at": 2, "text": "one\u2028two\rthree", "author": "a\x85b", "tag": "good"}]
    lines = list(format_record(game.events, notes=notes))
    assert "# note on event 2 (good, a\\x85b): one\\u2028two\\rthree" in lines


# --- notes are covered by what verify checks and publishes -------------------------------------------------

def exported(store_file: Path, tmp_path: Path) -> Path:
    run("annotate", "g", "5", "Bold deployment", "--author", "ana", "--tag", "good")
    run("annotate", "g", "9", "Was this legal?", "--tag", "question")
    run("export", "g", "-o", str(tmp_path / "g.whispers"))
    return tmp_path / "g.whispers"


def test_a_forged_note_in_a_record_file_is_refused(store_file: Path, tmp_path: Path) -> None:
    path = exported(store_file, tmp_path)
    body = msgpack.unpackb(path.read_bytes(), raw=False)
    body["notes"].append({**body["notes"][0], "text": "Ruling: raven forfeits", "author": "tournament-director",
                          "tag": "ruling"})
    path.write_bytes(msgpack.packb(body, use_bin_type=True))
    assert "notes were altered" in refused("import", str(path), "--game", "copy")
    assert "notes were altered" in refused("verify", str(path))
    body["notes"].pop()
    body["notes"][0]["text"] = "Terrible deployment"
    path.write_bytes(msgpack.packb(body, use_bin_type=True))
    assert "notes were altered" in refused("import", str(path), "--game", "copy")


def test_verify_prints_a_notes_head_beside_the_chain_head_for_the_store_and_the_file(
        store_file: Path, tmp_path: Path) -> None:
    path = exported(store_file, tmp_path)
    in_store, in_file = run("verify", "g").stdout, run("verify", str(path)).stdout
    heads = [line.rsplit(" ", 1)[1] for line in (in_store + in_file).splitlines() if "notes head" in line]
    assert len(heads) == 2 and heads[0] == heads[1] and len(heads[0]) == 64
    run("annotate", "g", "9", "one more")
    assert run("verify", "g").stdout.splitlines()[-1].rsplit(" ", 1)[1] != heads[0]


def test_a_record_file_from_before_notes_were_chained_imports_its_notes_marked_unchained(
        store_file: Path, tmp_path: Path) -> None:
    """Decision: the events (chained) import as always; the unchained notes come too, marked, and shown so."""
    path = exported(store_file, tmp_path)
    body = msgpack.unpackb(path.read_bytes(), raw=False)
    del body["header"]["notes"], body["header"]["notes_head"]
    path.write_bytes(msgpack.packb(body, use_bin_type=True))
    assert "NOT covered" in run("verify", str(path)).stdout
    result = run("import", str(path), "--game", "old")
    assert "unchained" in result.stderr
    notes = json.loads(run("notes", "old", "--json").stdout)
    assert [n.get("unchained") for n in notes] == [True, True]
    assert "[good, ana, unchained]" in run("notes", "old").stdout
    run("export", "old", "-o", str(tmp_path / "again.whispers"))  # the mark travels, now under the chain
    run("import", str(tmp_path / "again.whispers"), "--game", "again")
    assert json.loads(run("notes", "again", "--json").stdout) == notes


# --- notes are validated on the way in, and a bad stored note never breaks a command ----------------------

BAD_NOTES = {
    "tag-int": {"tag": 3},
    "tag-unknown": {"tag": "brilliant"},
    "author-list": {"author": ["a", "b"]},
    "author-int": {"author": 7},
    "author-newline": {"author": "ana\nraven pass"},
    "time-ext": {"time": msgpack.ExtType(42, b"x")},
    "time-garbage": {"time": "yesterday"},
    "at-bool": {"at": True},
    "at-beyond": {"at": 10_000},
    "text-empty": {"text": "  "},
    "text-long": {"text": "x" * 5000},
    "extra-key": {"move": "raven pass"},
}


def good_note() -> dict:
    return {"at": 3, "text": "fine", "author": "ana", "tag": "good", "time": "2026-01-01T00:00:00+00:00"}


@pytest.mark.parametrize("change", BAD_NOTES.values(), ids=BAD_NOTES.keys())
def test_a_record_file_with_a_malformed_note_is_refused_in_one_line_and_nothing_is_stored(change: dict) -> None:
    with open_store("memory:") as store:
        import_lines(store, "g", GAME[:40])
        facts = store.facts("g")
    data = dumps("g", facts, [good_note(), {**good_note(), **change}])
    with open_store("memory:") as store:
        with pytest.raises(RecordFileError, match="note 2 is malformed") as caught:
            import_record(store, data, "g.whispers")
        assert "\n" not in str(caught.value) and store.names() == []


@pytest.mark.parametrize("change", BAD_NOTES.values(), ids=BAD_NOTES.keys())
def test_a_store_holding_a_bad_note_still_serves_every_command(store_file: Path, tmp_path: Path, change: dict) -> None:
    """An older whispers let such notes into the append-only store: report them, skip them, never a traceback."""
    with open_store(str(store_file)) as store:
        store.add_note("g", good_note())
        store.add_note("g", {**good_note(), **change})
        store.add_note("g", {**good_note(), "text": "after"})
    for args in (["notes", "g"], ["notes", "g", "--json"], ["log", "g"], ["replay", "g", "--at", "3"],
                 ["export", "g", "-o", str(tmp_path / "g.whispers")], ["verify", "g"]):
        result = run(*args)
        assert "note 2 skipped" in result.stderr, args
    run("annotate", "g", "4", "still works")
    assert [n["text"] for n in json.loads(run("notes", "g", "--json").stdout)] == ["fine", "after", "still works"]
    run("import", str(tmp_path / "g.whispers"), "--game", "copy")
    assert [n["text"] for n in json.loads(run("notes", "copy", "--json").stdout)] == ["fine", "after"]


def test_annotate_refuses_an_author_that_is_not_one_line(store_file: Path) -> None:
    assert "author" in refused("annotate", "g", "3", "x", "--author", "ana\u2028raven pass")
    with open_store(str(store_file)) as store:
        assert read_notes(store, "g") == ([], [])


# --- importing notes: one transaction, linear -------------------------------------------------------------

def test_a_record_and_its_notes_are_saved_in_one_transaction(monkeypatch: pytest.MonkeyPatch) -> None:
    """A crash after the first save (SIGKILL part-way) once left a game with some of its notes."""
    with open_store("memory:") as store:
        import_lines(store, "g", GAME[:40])
        data = dumps("g", store.facts("g"), [{**good_note(), "text": f"n{i}"} for i in range(50)])
    saves = []
    real = EventStore.save

    def crashing_save(self: EventStore, *objs: object, **kwargs: object) -> object:
        if saves:
            raise KeyboardInterrupt  # the process dies here
        saves.append(objs)
        return real(self, *objs, **kwargs)

    monkeypatch.setattr(EventStore, "save", crashing_save)
    with open_store("memory:") as store:
        with contextlib.suppress(KeyboardInterrupt):
            import_record(store, data, "g.whispers")
        assert store.names() == ["g"] and len(store.notes("g")) == 50


def test_adding_a_note_does_not_reload_the_notes_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    with open_store("memory:") as store:
        import_lines(store, "g", GAME[:40])
        annotate(store, "g", 3, "first", None, None)

        def no_reload(*args: object, **kwargs: object) -> None:
            raise AssertionError("the notes stream was reloaded")

        monkeypatch.setattr(store._events.repository, "get", no_reload)
        for i in range(3):
            assert store.add_note("g", {**good_note(), "text": f"n{i}"}) == i + 2
    with open_store("memory:") as store:  # and the first note of a game creates its stream
        import_lines(store, "h", GAME[:40])
        assert store.add_note("h", good_note()) == 1 and store.add_note("h", good_note()) == 2


# --- a flipped byte names its event -----------------------------------------------------------------------

def test_a_byte_that_is_not_utf8_in_a_record_file_names_its_event() -> None:
    with open_store("memory:") as store:
        import_lines(store, "g", GAME[:40])
        facts = store.facts("g")
    data = bytearray(dumps("g", facts))
    entries = msgpack.unpackb(bytes(data), raw=False)["events"]
    number = next(i for i, (fact, _) in enumerate(entries, start=1) if fact["type"] == "AgentDeployed")
    marker = msgpack.packb(entries[number - 1][0], use_bin_type=True)
    at = bytes(data).index(marker) + marker.index(b"AgentDeployed")
    data[at] = 0xFF
    with pytest.raises(RecordFileError, match=f"event {number} is corrupt") as caught:
        loads(bytes(data), "g.whispers")
    assert "\n" not in str(caught.value)


def test_a_record_file_cut_short_names_the_event_where_it_stops() -> None:
    with open_store("memory:") as store:
        import_lines(store, "g", GAME[:40])
        data = dumps("g", store.facts("g"))
    with pytest.raises(RecordFileError, match=r"truncated at event \d+") as caught:
        loads(data[: len(data) * 3 // 4], "g.whispers")
    assert "\n" not in str(caught.value)


@pytest.mark.postgres
def test_a_record_and_its_notes_land_together_on_postgresql(pg_url: str) -> None:
    with open_store("memory:") as store:
        import_lines(store, "g", GAME[:40])
        data = dumps("g", store.facts("g"), [{**good_note(), "text": f"n{i}"} for i in range(300)])
    with open_store(pg_url) as store:
        import_record(store, data, "g.whispers", "notes-pg")
        store.add_note("notes-pg", {**good_note(), "text": "one more"})
        assert len(store.notes("notes-pg")) == 301 and read_notes(store, "notes-pg")[1] == []
