"""Every file the CLI writes (export, timeline, map) lands whole or not at all, never through a planted link,
and export never replaces a file without --force."""

import errno
import io
import os
import shutil
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from whispers.cli.main import whispers
from whispers.ledger.io import recordfile

HAVE_DOT = shutil.which("dot") is not None
needs_graphviz = pytest.mark.skipif(
    not HAVE_DOT and os.environ.get("WHISPERS_REQUIRE_GRAPHVIZ") != "1", reason="Graphviz's programs are not installed"
)

# (command, output file name, a test of the written bytes)
WRITERS = [
    pytest.param(["export", "g"], "g.whispers", recordfile.looks_like_record, id="export"),
    pytest.param(["timeline", "g", "--round", "1"], "t.dot", lambda b: b.startswith(b"// whispers timeline"),
                 id="timeline-dot"),
    pytest.param(["map", "g"], "m.dot", lambda b: b"graph map {" in b, id="map-dot"),
    pytest.param(["timeline", "g", "--round", "1"], "t.svg", lambda b: b"<svg" in b, id="timeline-svg",
                 marks=needs_graphviz),
    pytest.param(["map", "g"], "m.png", lambda b: b.startswith(b"\x89PNG"), id="map-png", marks=needs_graphviz),
]


@pytest.fixture
def stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WHISPERS_STORE", str(tmp_path / "s.sqlite"))
    notation = tmp_path / "g.txt"
    bundled = resources.files("whispers.fixtures").joinpath("games", "revised-3p.txt")
    notation.write_text(bundled.read_text(encoding="utf-8"), encoding="utf-8")
    assert CliRunner().invoke(whispers, ["import", str(notation), "--game", "g"]).exit_code == 0
    out = tmp_path / "out"
    out.mkdir()
    return out


def run(*args: str) -> Result:
    return CliRunner().invoke(whispers, list(args))


def refused(result: Result, *contains: str) -> str:
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert "Traceback" not in result.stdout + result.stderr and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    for text in contains:
        assert text in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize(("command", "name", "looks_right"), WRITERS)
def test_a_link_planted_at_the_part_file_is_not_followed(stored: Path, command: list[str], name: str,
                                                          looks_right) -> None:
    victim = stored.parent / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    (stored / f"{name}.part").symlink_to(victim)
    result = run(*command, "-o", str(stored / name))
    assert result.exit_code == 0, result.stderr
    assert victim.read_text(encoding="utf-8") == "precious"
    written = stored / name
    assert not written.is_symlink() and looks_right(written.read_bytes())
    assert sorted(p.name for p in stored.iterdir()) == sorted([name, f"{name}.part"])  # no temporary file left


class _FullDisk:
    """A file whose writes fail as on a full disk."""

    def __init__(self, real: io.IOBase) -> None:
        self._real = real

    def write(self, data: bytes) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __getattr__(self, name: str):
        return getattr(self._real, name)

    def __enter__(self) -> "_FullDisk":
        return self

    def __exit__(self, *exc: object) -> None:
        self._real.close()


@pytest.mark.parametrize(("command", "name", "looks_right"), WRITERS)
def test_a_full_disk_leaves_no_file_behind(stored: Path, monkeypatch: pytest.MonkeyPatch, command: list[str],
                                           name: str, looks_right) -> None:
    real_open = io.open

    def full_open(file, mode="r", *args, **kwargs):
        handle = real_open(file, mode, *args, **kwargs)
        return _FullDisk(handle) if "w" in mode and "b" in mode else handle

    monkeypatch.setattr(io, "open", full_open)
    line = refused(run(*command, "-o", str(stored / name)), "cannot write", "No space left on device")
    assert str(stored / name) in line
    assert list(stored.iterdir()) == []


@pytest.mark.parametrize(("command", "name", "looks_right"), WRITERS)
def test_an_existing_output_is_replaced_whole(stored: Path, command: list[str], name: str, looks_right) -> None:
    """timeline and map replace their picture (a picture is made again at will); export needs --force."""
    target = stored / name
    target.write_bytes(b"old")
    force = ["--force"] if command[0] == "export" else []
    result = run(*command, *force, "-o", str(target))
    assert result.exit_code == 0, result.stderr
    assert looks_right(target.read_bytes())
    assert [p.name for p in stored.iterdir()] == [name]


def test_export_refuses_to_replace_a_file_without_force(stored: Path) -> None:
    target = stored / "g.whispers"
    target.write_bytes(b"someone's record")
    refused(run("export", "g", "-o", str(target)), str(target), "exists", "--force")
    assert target.read_bytes() == b"someone's record"
    assert [p.name for p in stored.iterdir()] == ["g.whispers"]


def test_export_refuses_a_link_even_a_dangling_one_and_force_replaces_the_link_not_its_target(stored: Path) -> None:
    victim = stored.parent / "victim.txt"
    target = stored / "g.whispers"
    target.symlink_to(victim)  # dangling
    refused(run("export", "g", "-o", str(target)), "exists")
    assert not victim.exists() and target.is_symlink()
    victim.write_text("precious", encoding="utf-8")
    result = run("export", "g", "--force", "-o", str(target))
    assert result.exit_code == 0, result.stderr
    assert victim.read_text(encoding="utf-8") == "precious"
    assert not target.is_symlink() and recordfile.looks_like_record(target.read_bytes())


def test_one_writer_keeps_a_replaced_files_permissions_and_says_a_failure_in_words(tmp_path: Path) -> None:
    """safefile.save (the tournament file `pair` rewrites, a chart, seat cards) is write_file with its failure in
    words: the file keeps its mode, a folder that is not there is a StoreError naming it."""
    from whispers.ledger.core.errors import StoreError
    from whispers.ledger.io.safefile import save

    def replace_file(path: Path, text: str) -> None:
        save(path, text.encode("utf-8"))

    kept = tmp_path / "cup.toml"
    kept.write_text("old", encoding="utf-8")
    kept.chmod(0o640)
    replace_file(kept, "new ✓")
    assert kept.read_text(encoding="utf-8") == "new ✓" and kept.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["cup.toml"]
    with pytest.raises(StoreError, match=r"cannot write .*missing"):
        replace_file(tmp_path / "missing" / "cup.toml", "x")
