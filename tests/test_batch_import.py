"""`whispers import FILE...` and a folder: many games in one process, one transaction per game, the refused
files named with their reasons (issue 12, batch import)."""

import json
from pathlib import Path

import pytest

from tests.test_cli import OPENING, invoke, ok, refused
from whispers.ledger.io.store import open_store


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "whispers.sqlite"


def names_in(store: Path) -> set[str]:
    with open_store(str(store)) as s:
        return set(s.names())


@pytest.fixture
def batch(tmp_path: Path) -> Path:
    """A folder of five files: two good (notation, record file) and three bad (truncated record, illegal
    notation line, a stem that is no game name), plus a stray file and a subfolder a batch does not read."""
    folder = tmp_path / "batch"
    folder.mkdir()
    source = tmp_path / "source.sqlite"
    (tmp_path / "second.txt").write_text(OPENING, encoding="utf-8")
    ok(invoke(source, "import", str(tmp_path / "second.txt")))
    ok(invoke(source, "export", "second", "-o", str(folder / "b-second.whispers")))
    (tmp_path / "cut.txt").write_text(OPENING, encoding="utf-8")
    ok(invoke(source, "import", str(tmp_path / "cut.txt")))
    ok(invoke(source, "export", "cut", "-o", str(tmp_path / "cut.whispers")))
    data = (tmp_path / "cut.whispers").read_bytes()
    (folder / "c-cut.whispers").write_bytes(data[: len(data) * 2 // 3])
    (folder / "a-first.txt").write_text(OPENING, encoding="utf-8")
    (folder / "d-illegal.txt").write_text(OPENING + "raven attack bear.nowhere lion.nowhere 3\n", encoding="utf-8")
    (folder / "e bad name!.txt").write_text(OPENING, encoding="utf-8")
    (folder / "notes.md").write_text("not a game\n", encoding="utf-8")
    (folder / "sub").mkdir()
    (folder / "sub" / "deeper.txt").write_text(OPENING, encoding="utf-8")
    return folder


def test_a_folder_lands_the_good_games_and_names_each_refused_file_with_its_reason(batch: Path,
                                                                                  store: Path) -> None:
    result = invoke(store, "import", str(batch))
    assert result.exit_code == 2, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert result.stdout.splitlines() == [
        "a-first: imported 16 events (official, raven, rat, spider, serpent; round 1, empire).",
        "second: imported 16 events (official, raven, rat, spider, serpent; round 1, empire).",
        "2 games imported, 3 files refused.",
    ]
    lines = result.stderr.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith(f"refused {batch / 'c-cut.whispers'}: ")
    assert lines[1].startswith(f"refused {batch / 'd-illegal.txt'}: line 14: ")
    assert lines[2].startswith(f"refused {batch / 'e bad name!.txt'}: invalid game name 'e bad name!'")
    # nothing half-imported: the refused games are absent; the subfolder and the stray file were not read
    assert names_in(store) == {"a-first", "second"}


def test_several_files_and_json(batch: Path, store: Path) -> None:
    files = [batch / "a-first.txt", batch / "d-illegal.txt", batch / "b-second.whispers"]
    result = invoke(store, "import", *map(str, files), "--json")
    assert result.exit_code == 2, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"imported", "refused"}
    assert [g["game"] for g in data["imported"]] == ["a-first", "second"]
    assert data["imported"][0]["events"] == 16
    assert [r["file"] for r in data["refused"]] == [str(batch / "d-illegal.txt")]
    assert data["refused"][0]["reason"].startswith("line 14: ")
    assert names_in(store) == {"a-first", "second"}


def test_all_good_exits_0_and_a_taken_name_is_refused_on_the_second_run(batch: Path, store: Path) -> None:
    files = [str(batch / "a-first.txt"), str(batch / "b-second.whispers")]
    out = ok(invoke(store, "import", *files))
    assert out.endswith("2 games imported, 0 files refused.\n")
    again = invoke(store, "import", *files, "--json")
    assert again.exit_code == 2
    reasons = [r["reason"] for r in json.loads(again.stdout)["refused"]]
    assert len(reasons) == 2 and all("already" in r for r in reasons)


def test_game_name_only_with_a_single_file(batch: Path, store: Path) -> None:
    refused(invoke(store, "import", str(batch / "a-first.txt"), str(batch / "b-second.whispers"),
                   "--game", "x"), "--game")
    refused(invoke(store, "import", str(batch), "--game", "x"), "--game")
    assert names_in(store) == set()
    # and with one file it names the game, as before
    assert ok(invoke(store, "import", str(batch / "a-first.txt"), "--game", "x")).startswith("x: imported")


def test_a_folder_with_nothing_to_import_is_refused(tmp_path: Path, store: Path) -> None:
    (tmp_path / "empty").mkdir()
    refused(invoke(store, "import", str(tmp_path / "empty")), "nothing to import")


def test_a_terminal_sees_a_progress_bar_and_a_pipe_does_not(batch: Path, store: Path) -> None:
    import os
    import shutil
    import sys

    import pexpect

    whispers = shutil.which("whispers", path=str(Path(sys.executable).parent))
    assert whispers
    env = {**os.environ, "WHISPERS_STORE": str(store)}
    child = pexpect.spawn(whispers, ["import", str(batch)], env=env, encoding="utf-8", timeout=60,
                          dimensions=(40, 200))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert "5/5" in child.before and "Importing" in child.before  # rich's bar: files done of files in all
    assert "2 games imported, 3 files refused." in child.before
    # piped (CliRunner): no bar at all, only the summary
    again = invoke(store.with_name("other.sqlite"), "import", str(batch))
    assert "Importing" not in again.stdout + again.stderr


def test_a_store_locked_by_another_process_midway_stops_the_batch_it_refuses_no_file(
        batch: Path, store: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store, not a file: once another process holds it locked, the files after are not tried (and not named
    refused, as if they were bad); the games imported before it stay, whole."""
    import sqlite3

    import whispers.application.files as files
    import whispers.ledger.io.store_sqlite

    monkeypatch.setattr(whispers.ledger.io.store_sqlite, "SQLITE_LOCK_TIMEOUT", 1)
    real, holder = files.import_file, []

    def then_locked(s, path, *args):  # type: ignore[no-untyped-def]
        if holder:
            return real(s, path, *args)
        imported = real(s, path, *args)
        holder.append(sqlite3.connect(str(store), isolation_level=None))
        holder[0].execute("BEGIN EXCLUSIVE")  # another process's write transaction, held
        return imported

    monkeypatch.setattr(files, "import_file", then_locked)
    try:
        with pytest.raises(files.StoreUnavailable, match="locked by another process"):
            files.import_files(str(store), files.batch_files([batch]))
    finally:
        holder[0].rollback()
        holder[0].close()
    assert names_in(store) == {"a-first"}
