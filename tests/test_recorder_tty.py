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
from click.testing import CliRunner
from support import DEPLOYED

from whispers.cli.main import whispers as cli

pexpect = pytest.importorskip("pexpect")

WHISPERS = shutil.which("whispers", path=str(Path(sys.executable).parent)) or shutil.which("whispers")
TIMEOUT = 15
PROMPT = "move>"  # prompt_toolkit draws the space after it as a cursor move

# Round 1 set up and seven agents deployed: serpent's second agent is the next move.
OPENING = DEPLOYED.removesuffix("serpent deploy lion.steward\n")
OPENING_MOVES = OPENING.splitlines()[1:]


def environment(store: Path) -> dict[str, str]:
    # a terminal prompt_toolkit draws in full (a dumb one gets no completion and no template on the line)
    return {**os.environ, "WHISPERS_STORE": str(store), "TERM": "xterm"}


def whispers(store: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [WHISPERS, *args], capture_output=True, text=True, env=environment(store), timeout=TIMEOUT, check=False
    )


def logged_moves(store: Path) -> list[str]:
    """The moves of game `tty` as `whispers log` prints them, read afresh from the store (in this process: the
    recorder is the process under test)."""
    result = CliRunner().invoke(cli, ["log", "tty", "--store", str(store)])
    assert result.exit_code == 0, result.output
    return [line for line in result.output.splitlines()[1:] if line and not line.startswith("#")]


@pytest.fixture(scope="module")
def opening(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding the opening, imported once for the module: each test records on a copy of its own."""
    folder = tmp_path_factory.mktemp("opening")
    path = folder / "whispers.sqlite"
    notation = folder / "tty.txt"
    notation.write_text(OPENING, encoding="utf-8")
    result = whispers(path, "import", str(notation))
    assert result.returncode == 0, result.stderr
    return path


@pytest.fixture
def store(opening: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(opening, tmp_path / "whispers.sqlite"))


@pytest.fixture
def recorder(store: Path):
    child = pexpect.spawn(
        WHISPERS, ["record", "tty"], env=environment(store), encoding="utf-8", timeout=TIMEOUT, dimensions=(50, 250)
    )
    yield child
    if child.isalive():
        child.close(force=True)


def confirm(child, shown: bool = False, recorded: bool = True) -> None:
    """A move is shown before it is recorded (issue 32): Enter on the line the recorder puts back records it
    (`shown`: the preview was read already; `recorded`: and it says so)."""
    if not shown:
        child.expect_exact("Preview")
    child.expect_exact(PROMPT)
    child.sendline("")
    if recorded:
        child.expect_exact("Recorded:")


def offered(child, pattern: str) -> int:
    """The number the recorder printed before its prompt for the first choice matching `pattern`."""
    child.expect_exact(PROMPT)
    found = re.search(rf"^\s*(\d+)\. {pattern}(\s+\(.*\))?\s*$", child.before, re.MULTILINE)
    assert found, f"no choice like {pattern!r} in:\n{child.before}"
    return int(found.group(1))


def test_record_moves_refusals_and_ctrl_c_clears_the_line(store: Path, recorder) -> None:
    child = recorder
    # a numbered choice that is complete is shown first, and recorded on one more Enter
    number = offered(child, r"serpent deploy lion\.steward")
    child.sendline(str(number))
    confirm(child)
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
    child.expect_exact("raven Recruit 1 per farm frost-gate=1 ice-hall=1")
    confirm(child, shown=True)
    # an incomplete choice is put on the line to be finished
    number = offered(child, r"rat recruit …")
    child.sendline(str(number))
    child.expect_exact(PROMPT)
    child.expect_exact("rat recruit")
    child.sendline("frost-gate=2")
    confirm(child)
    child.expect_exact("rat Recruit 2 frost-gate=2")
    # ? lists the verbs and records nothing
    child.expect_exact(PROMPT)
    child.sendline("?")
    child.expect_exact("swap-agent")
    # a line typed but not entered: Ctrl-C clears it (nothing recorded), Enter on the empty line asks again,
    # and Ctrl-D leaves
    child.expect_exact(PROMPT)
    child.send("spider recruit frost-gate=2")
    child.expect_exact("spider recruit frost-gate=2")
    child.sendintr()
    child.sendline("")
    child.expect_exact("tty · official · round 1")  # asked again
    child.expect_exact(PROMPT)
    child.sendeof()
    child.expect_exact("tty: stopped.")
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
    confirm(child)
    child.expect_exact("raven controls the bear sheriff")
    child.expect_exact(PROMPT)
    child.sendline("raven attack red-cliffs windmoor 1")
    confirm(child)
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
    confirm(child)
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
    # someone else records serpent's deployment from another terminal (here, this process)
    other = CliRunner().invoke(cli, ["move", "tty", "serpent deploy lion.steward", "--store", str(store)])
    assert other.exit_code == 0, other.output
    child.sendline("serpent deploy lion.marshal")  # shown against the game as this recorder saw it
    confirm(child, recorded=False)  # and refused when recorded
    child.expect_exact("Refused: the game moved on")
    child.expect_exact("raven controls the bear sheriff")
    child.expect_exact(PROMPT)
    child.sendline("raven recruit frost-gate=2")
    confirm(child)
    child.expect_exact(PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)
    assert logged_moves(store) == [
        *OPENING_MOVES,
        "serpent deploy lion.steward",
        "raven recruit order=recruit_per_farm frost-gate=2",
    ]


def test_the_recap_on_opening_names_the_last_moves(recorder) -> None:
    child = recorder
    child.expect_exact("tty: the last 5 moves:")
    # labels from projections/labels.py: the running move number and where it was played
    child.expect(r"m7 R1 deploy 3\s+spider deploy lion\.sheriff")
    child.expect(r"m11 R1 deploy 7\s+spider deploy bear\.marshal")
    child.expect_exact(PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)


def test_the_society_is_implied_when_only_one_can_act(store: Path, recorder) -> None:
    child = recorder
    child.expect_exact(PROMPT)
    child.sendline("deploy lion.steward")  # only serpent can act: the recorder adds it and echoes the line
    confirm(child)
    child.expect_exact("serpent deploy lion.steward")
    # and after it, the consequences in words: whose turn it is
    child.expect_exact("Next: raven controls the bear sheriff")
    child.expect_exact(PROMPT)
    child.sendline("attack red-cliffs windmoor 1")
    child.expect_exact("raven attack red-cliffs windmoor 1")
    child.expect(r"= bear attacks windmoor .*: the attacker loses \d+, the defender \d+; windmoor is now held by ")
    confirm(child, shown=True)
    child.expect_exact(PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)
    assert logged_moves(store) == [*OPENING_MOVES, "serpent deploy lion.steward", "raven attack red-cliffs windmoor 1"]


def test_tab_completes_a_legal_word_with_its_space(store: Path, recorder) -> None:
    child = recorder
    child.expect_exact(PROMPT)
    # serpent's deployment: "lion.st" can only be lion.steward among the open positions
    # the recorded line proves both words were completed, each with its space
    child.send("serpent dep")
    child.send("\t")
    child.expect_exact("loy")
    child.send("lion.st")
    child.send("\t")
    child.expect_exact("eward")
    child.sendline("")
    confirm(child)
    child.expect_exact("serpent deploy lion.steward")
    child.expect_exact(PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)
    assert logged_moves(store) == [*OPENING_MOVES, "serpent deploy lion.steward"]


def test_tab_offers_no_word_that_cannot_be_legal(recorder) -> None:
    child = recorder
    child.expect_exact(PROMPT)
    # a taken position (bear.marshal is spider's) is not offered: nothing to complete after "bear.m"
    child.send("serpent deploy bear.m\t")
    child.expect_exact("bear.m")
    child.sendline("")
    child.expect_exact("Refused:")
    child.expect_exact(PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)


def test_board_council_and_hand_inside_the_recorder(store: Path, recorder) -> None:
    child = recorder
    child.expect_exact(PROMPT)
    child.sendline("board")
    child.expect_exact("regions held")
    child.expect_exact(PROMPT)
    child.sendline("council")
    child.expect_exact("chancellor")
    child.expect_exact(PROMPT)
    child.sendline("hand rat")
    child.expect_exact("Hand of rat")
    child.expect_exact(PROMPT)
    child.sendline("serpent deploy lion.steward")  # still recording, nothing recorded by the tables
    confirm(child)
    child.expect_exact(PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)
    assert logged_moves(store) == [*OPENING_MOVES, "serpent deploy lion.steward"]


def test_choices_keep_their_numbers_between_moves(recorder) -> None:
    child = recorder
    number = offered(child, r"serpent deploy lion\.steward")
    child.sendline(str(number))
    confirm(child)
    child.expect_exact("raven controls the bear sheriff")
    attack = offered(child, r"raven attack wolfmere saltmarsh …")
    child.sendline("raven recruit frost-gate=1 ice-hall=1")
    confirm(child)
    child.expect_exact("rat controls the bear steward")
    recruit = offered(child, r"rat recruit …")
    assert recruit == 1  # recruit was choice 1 for raven too: numbered by kind, not by place in the list
    assert attack != recruit
    child.sendeof()
    child.expect(pexpect.EOF)


def recording_from_setup(tmp_path: Path) -> tuple[Path, pexpect.spawn]:
    """A store holding the opening's game line only, and the guided recorder started on it in a wide terminal."""
    store = tmp_path / "whispers.sqlite"
    notation = tmp_path / "tty.txt"
    notation.write_text(OPENING.splitlines()[0] + "\n", encoding="utf-8")
    imported = CliRunner().invoke(cli, ["import", str(notation), "--store", str(store)])
    assert imported.exit_code == 0, imported.output
    return store, pexpect.spawn(WHISPERS, ["record", "tty"], env=environment(store), encoding="utf-8",
                                timeout=TIMEOUT, dimensions=(50, 250))


def test_a_choice_keeps_its_number_when_another_societys_choice_of_its_kind_is_recorded(tmp_path: Path) -> None:
    """Issue 15: "the choices keep stable numbers between moves". At setup every society may seal its loyalty:
    the same kind offered four times. Once raven's (the first) is recorded, rat's keeps the number it had."""
    _store, child = recording_from_setup(tmp_path)
    try:
        raven = offered(child, r"raven loyalty sealed")
        rat = re.search(r"^\s*(\d+)\. rat loyalty sealed\s*$", child.before, re.MULTILINE)
        assert rat and int(rat.group(1)) != raven
        child.sendline(str(raven))
        confirm(child)
        assert offered(child, r"rat loyalty sealed") == int(rat.group(1))
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        if child.isalive():
            child.close(force=True)


def settle(child) -> None:
    """Wait until the recorder has drawn what the keys sent so far did (no output for a moment): prompt_toolkit
    redraws only what changed, so there is no whole line to wait for, and a Tab sent while the last one's
    completion is still being computed would not see it."""
    for _ in range(20):
        try:
            child.read_nonblocking(100_000, timeout=0.4)
        except pexpect.TIMEOUT:
            return


def test_a_template_is_filled_in_place_slot_by_slot_with_tab(tmp_path: Path) -> None:
    """Issue 15: "a template such as the loyalty line can be edited in place". The cursor starts at the first
    blank; Tab completes a slot's legal word, and Tab on a filled slot goes on to the next blank."""
    store, child = recording_from_setup(tmp_path)
    try:
        template = offered(child, r"raven loyalty devout= dutiful= affiliated= unallied= opposed= …")
        child.sendline(str(template))
        child.expect_exact(PROMPT)
        for typed in ("b", "ea", "li", "h", "el"):  # bear, eagle, lion, horse, elephant: one completion each
            child.send(typed)
            settle(child)
            child.send("\t")  # completes the slot's word
            settle(child)
            child.send("\t")  # on to the next blank: what is typed next lands there
            settle(child)
        child.send("\r")
        confirm(child)
        child.expect_exact(PROMPT)
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        if child.isalive():
            child.close(force=True)
    assert logged_moves(store) == ["raven loyalty devout=bear dutiful=eagle affiliated=lion unallied=horse "
                                   "opposed=elephant"]


def test_tab_completes_a_recruit_region_with_its_equals_sign_and_no_space(store: Path, recorder) -> None:
    """Issue 32: Tab on a region of a recruit gave `pinewatch ` (refused); it gives `pinewatch=`, the count next."""
    child = recorder
    child.expect_exact(PROMPT)
    child.sendline("serpent deploy lion.steward")
    confirm(child)
    child.expect_exact("raven controls the bear sheriff")
    child.expect_exact(PROMPT)
    child.send("raven recruit frost-g")
    child.send("\t")
    child.expect_exact("ate=")
    child.send("1 ice-h")
    child.send("\t")
    child.expect_exact("all=")
    child.sendline("1")
    confirm(child)
    child.expect_exact(PROMPT)
    child.sendeof()
    child.expect(pexpect.EOF)
    assert logged_moves(store)[-1] == "raven recruit order=recruit_per_farm frost-gate=1 ice-hall=1"
