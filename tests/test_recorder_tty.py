"""The guided recorder (`whispers record GAME`) in a real terminal, driven with pexpect.

Each move is saved the moment it is accepted: Ctrl-C or a closed terminal must lose nothing accepted and save
nothing else. Every wait has a 15 s timeout so a hung recorder fails the test instead of hanging CI.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

WHISPERS = shutil.which("whispers", path=str(Path(sys.executable).parent)) or shutil.which("whispers")
TIMEOUT = 15
PROMPT = "move> "

# Round 1 set up and seven agents deployed: serpent's second agent is the next move.
OPENING = """\
game ruleset=official board=standin players=raven,rat,spider,serpent first=raven
raven loyalty devout=bear dutiful=eagle affiliated=lion unallied=horse opposed=elephant
rat loyalty devout=lion dutiful=horse affiliated=bear unallied=elephant opposed=eagle
spider loyalty sealed
serpent loyalty devout=eagle dutiful=bear affiliated=horse unallied=lion opposed=elephant
raven deploy bear.sheriff
rat deploy bear.steward
spider deploy lion.sheriff
serpent deploy eagle.sheriff
raven deploy horse.sheriff
rat deploy elephant.sheriff
spider deploy bear.marshal
"""
OPENING_MOVES = OPENING.splitlines()[1:]


def environment(store: Path) -> dict[str, str]:
    # a dumb terminal keeps readline from writing escape sequences between the words we look for
    return {**os.environ, "WHISPERS_STORE": str(store), "TERM": "dumb"}


def whispers(store: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [WHISPERS, *args], capture_output=True, text=True, env=environment(store), timeout=TIMEOUT, check=False
    )


def logged_moves(store: Path) -> list[str]:
    """The moves of game `tty` as a fresh `whispers log` prints them."""
    result = whispers(store, "log", "tty")
    assert result.returncode == 0, result.stderr
    return [line for line in result.stdout.splitlines()[1:] if line and not line.startswith("#")]


@pytest.fixture
def store(tmp_path: Path) -> Path:
    path = tmp_path / "whispers.sqlite"
    notation = tmp_path / "tty.txt"
    notation.write_text(OPENING, encoding="utf-8")
    result = whispers(path, "import", str(notation))
    assert result.returncode == 0, result.stderr
    return path


@pytest.fixture
def recorder(store: Path):
    child = pexpect.spawn(
        WHISPERS, ["record", "tty"], env=environment(store), encoding="utf-8", timeout=TIMEOUT, dimensions=(50, 250)
    )
    yield child
    if child.isalive():
        child.close(force=True)


def offered(child, pattern: str) -> int:
    """The number the recorder printed before its prompt for the first choice matching `pattern`."""
    child.expect_exact(PROMPT)
    found = re.search(rf"^\s*(\d+)\. {pattern}(\s+\(.*\))?\s*$", child.before, re.MULTILINE)
    assert found, f"no choice like {pattern!r} in:\n{child.before}"
    return int(found.group(1))


def test_record_moves_refusals_and_ctrl_c(store: Path, recorder) -> None:
    child = recorder
    # a numbered choice that is complete is recorded at once
    number = offered(child, r"serpent deploy lion\.steward")
    child.sendline(str(number))
    child.expect_exact("Recorded:")
    child.expect_exact("serpent deploy lion.steward")
    # the empire turns begin: an illegal move is refused with its rule and the recorder asks again
    child.expect_exact("raven controls the bear sheriff")
    child.expect_exact(PROMPT)
    child.sendline("raven attack red-cliffs windmoor 5")
    child.expect_exact("Refused: red-cliffs has only 1 bear banner (EN Attack Action)")
    # an unparseable line is refused too
    child.expect_exact(PROMPT)
    child.sendline("raven attack red-cliffs windmoor lots")
    child.expect_exact("Refused: the number of attacking banners must be a whole number")
    # a full line typed by hand
    child.expect_exact(PROMPT)
    child.sendline("raven recruit frost-gate=1 ice-hall=1")
    child.expect_exact("raven recruit order=recruit_per_farm frost-gate=1 ice-hall=1")
    # an incomplete choice is put on the line to be finished
    number = offered(child, r"rat recruit order=recruit_2 at=bear\.steward …")
    child.sendline(str(number))
    child.expect_exact(PROMPT)
    child.expect_exact("rat recruit order=recruit_2 at=bear.steward ")
    child.sendline("frost-gate=2")
    child.expect_exact("Recorded:")
    child.expect_exact("rat recruit order=recruit_2 frost-gate=2")
    # ? lists the verbs and records nothing
    child.expect_exact(PROMPT)
    child.sendline("?")
    child.expect_exact("swap-agent")
    # a line typed but not entered, then Ctrl-C
    child.expect_exact(PROMPT)
    child.send("spider recruit frost-gate=2")
    child.expect_exact("spider recruit frost-gate=2")
    child.sendintr()
    child.expect_exact("Stopped. Every move accepted so far is saved.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "Traceback" not in child.before
    assert logged_moves(store) == [
        *OPENING_MOVES,
        "serpent deploy lion.steward",
        "raven recruit order=recruit_per_farm frost-gate=1 ice-hall=1",
        "rat recruit order=recruit_2 frost-gate=2",
    ]


def test_closing_the_terminal_loses_nothing_accepted(store: Path, recorder) -> None:
    child = recorder
    child.expect_exact(PROMPT)
    child.sendline("serpent deploy lion.steward")
    child.expect_exact("Recorded:")
    child.expect_exact("raven controls the bear sheriff")
    child.expect_exact(PROMPT)
    child.sendline("raven attack red-cliffs windmoor 1")
    child.expect_exact("Recorded:")
    child.expect_exact("raven attack red-cliffs windmoor 1")
    child.expect_exact(PROMPT)
    child.send("rat draw")  # typed, never entered
    child.expect_exact("rat draw")
    child.close(force=True)
    assert not child.isalive()
    assert logged_moves(store) == [*OPENING_MOVES, "serpent deploy lion.steward", "raven attack red-cliffs windmoor 1"]


def test_end_of_input_and_quit_stop_cleanly(store: Path, recorder) -> None:
    child = recorder
    child.expect_exact(PROMPT)
    child.sendline("serpent deploy lion.steward")
    child.expect_exact("Recorded:")
    child.expect_exact(PROMPT)
    child.sendline("q")
    child.expect_exact("tty: stopped.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    # and again, ended with Ctrl-D
    again = pexpect.spawn(
        WHISPERS, ["record", "tty"], env=environment(store), encoding="utf-8", timeout=TIMEOUT, dimensions=(50, 250)
    )
    try:
        again.expect_exact("raven controls the bear sheriff")
        again.expect_exact(PROMPT)
        again.sendeof()
        again.expect_exact("tty: stopped.")
        again.expect(pexpect.EOF)
    finally:
        again.close(force=True)
    assert again.exitstatus == 0
    assert logged_moves(store) == [*OPENING_MOVES, "serpent deploy lion.steward"]


def test_an_unknown_game_is_refused(store: Path) -> None:
    child = pexpect.spawn(WHISPERS, ["record", "nope"], env=environment(store), encoding="utf-8", timeout=TIMEOUT)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert child.before.strip().splitlines() == [f"Error: no game named 'nope' in {store}"]


def test_another_recorder_moving_first_is_reported_and_reloaded(store: Path, recorder) -> None:
    child = recorder
    child.expect_exact(PROMPT)
    # someone else records serpent's deployment from another terminal
    other = whispers(store, "move", "tty", "serpent deploy lion.steward")
    assert other.returncode == 0, other.stderr
    child.sendline("serpent deploy lion.marshal")
    child.expect_exact("Refused: the game moved on")
    child.expect_exact("raven controls the bear sheriff")
    child.expect_exact(PROMPT)
    child.sendline("raven recruit frost-gate=2")
    child.expect_exact("Recorded:")
    child.expect_exact(PROMPT)
    child.sendintr()
    child.expect(pexpect.EOF)
    assert logged_moves(store) == [
        *OPENING_MOVES,
        "serpent deploy lion.steward",
        "raven recruit order=recruit_per_farm frost-gate=2",
    ]
