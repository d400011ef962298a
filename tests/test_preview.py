"""Preview, then record (issue 32): one dry-run use case decides a move against the game without appending and says
what it would do, in the order it would happen; the CLI's `move --preview` and the guided recorder show it, and a
number or a line records only on one more Enter."""

from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from support import DEPLOYED

from whispers.application import moves, recording
from whispers.application.moves import with_society
from whispers.cli.main import whispers
from whispers.ledger.core.errors import GameMovedOn, NotationError, RuleError
from whispers.ledger.core.legal import Option
from whispers.ledger.core.prompt import Prompt
from whispers.ledger.io.store import open_store

# Round 1 set up, every agent deployed; raven's bear sheriff and rat's bear steward have given their orders:
# spider's bear marshal is next, and rat (holding a bear card) could play it.
OPENING = DEPLOYED + "raven recruit frost-gate=1 ice-hall=1\nrat draw\n"
ATTACK = "spider attack wolfmere saltmarsh 1"


def run(store: Path, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(whispers, list(args), input=stdin, env={"WHISPERS_STORE": str(store)},
                              prog_name="whispers")


def ok(result: Result) -> str:
    assert result.exit_code == 0, f"exit {result.exit_code}\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.fixture
def store(tmp_path: Path) -> Path:
    path = tmp_path / "s.sqlite"
    notation = tmp_path / "p.txt"
    notation.write_text(OPENING, encoding="utf-8")
    ok(run(path, "import", str(notation), "--game", "p"))
    return path


def test_move_preview_records_nothing_and_says_the_attack_before_the_next_empires_turn(store: Path) -> None:
    """EN "Attack Action" (302): the attack's losses and its holder come first; then the empty chancellor is
    skipped, bear's supply is checked and eagle's turn begins (EN "Empire Turns Phase") — in that order."""
    before = ok(run(store, "log", "p"))
    out = ok(run(store, "move", "p", *ATTACK.split(), "--preview"))
    assert ok(run(store, "log", "p")) == before
    lines = out.splitlines()
    assert "nothing recorded" in lines[0]
    attack = next(i for i, line in enumerate(lines) if line.strip() == ATTACK)
    outcome = next(i for i, line in enumerate(lines) if "saltmarsh is now held by horse" in line)
    turn = next(i for i, line in enumerate(lines) if "eagle's turn" in line)
    assert attack < outcome < turn
    assert lines[-1] == "Next: serpent controls the eagle sheriff"
    # --dry-run is the same; the move then recorded prints the same consequences
    assert ok(run(store, "move", "p", *ATTACK.split(), "--dry-run")) == out
    assert ok(run(store, "move", "p", *ATTACK.split())).splitlines() == lines[1:]


def test_an_illegal_move_previewed_is_refused_as_recording_it_would_be(store: Path) -> None:
    before = ok(run(store, "log", "p"))
    previewed = run(store, "move", "p", "spider", "attack", "wolfmere", "saltmarsh", "5", "--preview")
    recorded = run(store, "move", "p", "spider", "attack", "wolfmere", "saltmarsh", "5")
    assert previewed.exit_code == recorded.exit_code == 2 and previewed.stderr == recorded.stderr
    assert ok(run(store, "log", "p")) == before


def test_a_preview_records_exactly_itself_and_only_at_the_version_it_saw(store: Path) -> None:
    with open_store(str(store)) as s:
        shown = recording.preview(s, "p", ATTACK)
        assert shown.line == ATTACK and shown.before.version == recording.open_game(s, "p").version
        done = recording.record_preview(s, shown)
        assert [e.to_fact() for e in done.events] == [e.to_fact() for e in shown.events]
        assert done.said == shown.said
        with pytest.raises(GameMovedOn):  # the game moved on since this preview was made
            recording.record_preview(s, shown)


def test_a_batch_dry_run_appends_nothing(store: Path) -> None:
    before = ok(run(store, "log", "p"))
    out = ok(run(store, "move", "p", "-", "--preview", stdin=ATTACK + "\n"))
    assert "nothing recorded" in out and ok(run(store, "log", "p")) == before


def test_the_recorder_records_a_number_only_on_one_more_enter(store: Path) -> None:
    """A number fills the move and shows its preview; a line read after it other than Enter records nothing."""
    before = ok(run(store, "log", "p"))
    out = ok(run(store, "record", "p", stdin="5\nq\n"))  # choice 5: spider attack wolfmere saltmarsh …
    assert ok(run(store, "log", "p")) == before and "Recorded" not in out
    out = ok(run(store, "record", "p", stdin=f"{ATTACK}\nboard\n{ATTACK}\n\nq\n"))
    assert out.count("Preview") == 2 and "Not recorded." in out
    assert ok(run(store, "log", "p")).count(ATTACK) == 1
    said = out[out.index("Recorded:"):]
    assert said.index("saltmarsh is now held by horse") < said.index("eagle's turn")


def test_a_take_back_says_which_move_it_removed(store: Path) -> None:
    out = ok(run(store, "move", "p", 'undo "wrong count"'))
    assert "takes back m14 1.bear.steward: rat Draw 1 card per 2 farms" in out


def test_a_line_without_a_society_is_the_one_that_owes_the_order(store: Path) -> None:
    """While rat could play a card, spider owes the bear marshal's order: `attack ...` is spider's."""
    with open_store(str(store)) as s:
        p = recording.next_move(recording.open_game(s, "p"))
    assert {o.society for o in p.options} == {"spider", "rat"}
    assert with_society("attack wolfmere saltmarsh 1", p) == ATTACK
    assert with_society("play bear:1", p) == "rat play bear:1"
    two = Prompt(1, "empire", "bear", "marshal", ("raven", "rat"),
                 (Option("play", "raven", {}), Option("play", "rat", {}), Option("no-card", "rat", {})), "")
    with pytest.raises(NotationError, match=r"play: which society\? .*raven: play; rat: play, no-card"):
        with_society("play bear:1", two)


def test_french_words_are_read_by_move_as_by_the_recorder(store: Path) -> None:
    """One reading of a line for every face: `whispers --lang fr move` reads the French rulebook's verbs and
    words (FR "Attaquer")."""
    out = ok(run(store, "--lang", "fr", "move", "p", "Araignée", "Attaquer", "wolfmere", "saltmarsh", "1"))
    assert "spider attack wolfmere saltmarsh 1" in ok(run(store, "log", "p")) and "Attaquer" in out
    with pytest.raises((NotationError, RuleError)):
        recording.parse_move("Araignée Attaquer wolfmere saltmarsh 1")  # English reader: French is not read


def test_templates_name_no_internal_id_for_the_reader(store: Path) -> None:
    """No order id (`recruit_per_fort`) in a choice's line or hint, in English or French."""
    from whispers.projections import language

    with open_store(str(store)) as s:
        p = recording.next_move(recording.open_game(s, "p"))
    for code in ("en", "fr"):
        token = language.speak(code)
        try:
            shown = [(t.said, t.hint) for t in moves.templates(p.options)]
        finally:
            language.stop(token)
        assert shown and not any("recruit_per" in said + hint or "_" in said for said, hint in shown)
    token = language.speak("fr")
    try:
        said = [t.said.strip() for t in moves.templates(p.options)]
    finally:
        language.stop(token)
    assert "Araignée Ancillaire Attaquer wolfmere saltmarsh" in said


def test_a_recruit_completes_to_region_equals(store: Path) -> None:
    """Tab offers `REGION=` for a recruit (never `REGION ` with a space), and not a region already given."""
    from whispers.cli.recorder import legal_words

    with open_store(str(store)) as s:
        p = recording.next_move(recording.open_game(s, "p"))
    words = legal_words(p, ["spider", "recruit", "frost-gate=1"])
    assert "ice-hall=" in words and "frost-gate=" not in words and "ice-hall" not in words


def test_a_recorded_moves_json_says_what_it_did_for_the_table_page(store: Path) -> None:
    """The table page's answer to a move (docs/api.md) carries what it did, in order, as the CLI prints it."""
    with open_store(str(store)) as s:
        done = recording.record_line(s, "p", ATTACK)
    said = done.to_json()["said"]
    assert said[0] == ATTACK and "saltmarsh is now held by horse" in said[1] and "eagle's turn" in said[-1]


def test_move_leaves_out_the_society_as_the_recorder_does(store: Path) -> None:
    """One path for a move: `whispers move p attack ...` is spider's (the one owing the order) as in the recorder;
    a line two societies could make is refused naming who can act and what, and records nothing."""
    before = ok(run(store, "log", "p"))
    assert ok(run(store, "move", "p", "attack", "wolfmere", "saltmarsh", "1", "--preview")).splitlines()[1] == \
        f"  {ATTACK}"
    refused = run(store, "move", "p", "deploy", "lion.marshal")
    assert refused.exit_code == 2 and "which society?" in refused.stderr and "spider: recruit, attack" in refused.stderr
    assert ok(run(store, "log", "p")) == before


def test_move_json_says_whether_it_was_recorded(store: Path) -> None:
    import json

    before = ok(run(store, "log", "p"))
    shown = json.loads(ok(run(store, "move", "p", *ATTACK.split(), "--preview", "--json")))
    assert shown["recorded"] is False and shown["said"][0] == ATTACK and ok(run(store, "log", "p")) == before
    done = json.loads(ok(run(store, "move", "p", *ATTACK.split(), "--json")))
    assert done["recorded"] is True and done["events"] == shown["events"] and done["said"] == shown["said"]
    amended = json.loads(ok(run(store, "move", "p", "amend", "m15", "spider attack red-cliffs windmoor 1", "wrong",
                                "--json")))
    assert amended["recorded"] is True and amended["moves"] == 1 and "spider attack red-cliffs windmoor 1" in \
        amended["said"]
