"""The application layer: each use case called directly, as the web face will call it. Its results' JSON is what
the CLI's --json prints; a batch lands whole or not at all; "the game moved on" is one typed error; and the CLI
reaches the store and the rules only through it."""

import ast
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from whispers.application import files, reading, recording, review
from whispers.cli.main import whispers
from whispers.ledger.core.errors import GameMovedOn, NotationError, RuleError
from whispers.ledger.io.store import open_store

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("raven", "rat", "spider", "serpent")
SETUP = ["raven loyalty sealed", "rat loyalty sealed", "spider loyalty sealed", "serpent loyalty sealed"]


@pytest.fixture
def store():
    with open_store("memory:") as opened:
        recording.new(opened, "g", PLAYERS, "raven")
        yield opened


def test_new_reports_the_labels_and_seats(store) -> None:
    created = recording.new(store, "h", PLAYERS, "rat", ruleset="revised")
    assert created.to_json() == {"game": "h", "ruleset": "revised", "board": "standin", "players": list(PLAYERS),
                                 "first": "rat", "cards": None, "card_sets": ["base"]}


def test_new_pins_a_card_sheet_and_names_its_card_sets(store) -> None:
    """Issue 11: a game pins a card sheet and names its card sets at its start (docs/decrees.md)."""
    created = recording.new(store, "k", PLAYERS, "rat", ruleset="revised", cards="example",
                            card_sets=["dark-alliances"])
    assert (created.cards, created.card_sets) == ("example", ("base", "dark-alliances"))
    state = recording.open_game(store, "k").state
    assert state.cards is not None and state.cards["id"] == "example"
    with pytest.raises(RuleError, match="unknown card set 'dark'"):
        recording.new(store, "m", PLAYERS, "rat", card_sets=["dark"])


def test_a_batch_lands_whole_or_not_at_all(store) -> None:
    with pytest.raises(NotationError, match=r"^line 3: "):
        recording.record_batch(store, "g", [*SETUP[:2], "raven frobnicate", *SETUP[2:]])
    assert store.version("g") == 1
    done = recording.record_batch(store, "g", ["# setup", *SETUP, ""])
    assert store.version("g") == done.after.version == 1 + len(done.events)
    assert not done.over and done.next


def test_a_rule_broken_in_a_batch_names_its_line(store) -> None:
    with pytest.raises(RuleError, match=r"^line 2: "):
        recording.record_batch(store, "g", [SETUP[0], SETUP[0]])
    assert store.version("g") == 1


def test_a_recorder_behind_the_record_is_told_the_game_moved_on(store) -> None:
    seen = recording.open_game(store, "g")
    recording.record_move(store, "g", recording.parse_move(SETUP[0]))
    with pytest.raises(GameMovedOn):
        recording.record_move(store, seen, recording.parse_move(SETUP[1]))
    assert store.version("g") == 2


def test_a_game_line_is_not_a_move() -> None:
    with pytest.raises(NotationError, match="starts a game"):
        recording.parse_move("game ruleset=official board=standin players=raven,rat")


def test_no_provisional_score_while_a_loyalty_set_is_sealed(store) -> None:
    recording.record_batch(store, "g", SETUP)
    with pytest.raises(RuleError, match="raven's loyalty set is sealed: no provisional score"):
        reading.score(store, "g")


def test_a_new_game_s_score_says_no_loyalty_set_is_recorded_yet_not_that_one_is_sealed(store) -> None:
    """Issue 31: before any loyalty is recorded, nothing is sealed; the refusal says what is true."""
    with pytest.raises(RuleError, match="g is not over and raven has recorded no loyalty set yet") as refusal:
        reading.score(store, "g")
    assert "sealed" not in str(refusal.value)
    recording.record_batch(store, "g", ["raven loyalty devout=bear dutiful=eagle affiliated=lion unallied=horse "
                                        "opposed=elephant", "rat loyalty sealed"])
    with pytest.raises(RuleError, match="spider has recorded no loyalty set yet"):
        reading.score(store, "g")
    recording.record_batch(store, "g", ["spider loyalty devout=lion dutiful=horse affiliated=bear unallied=elephant "
                                        "opposed=eagle", "serpent loyalty sealed"])
    with pytest.raises(RuleError, match="rat's loyalty set is sealed"):
        reading.score(store, "g")


def test_next_move_names_who_must_act(store) -> None:
    prompt = recording.next_move(recording.open_game(store, "g"))
    assert {o.society for o in prompt.options} == set(PLAYERS)


@pytest.mark.parametrize("args, use_case", [
    (["status", "g", "--json"], lambda url: reading.status(url, "g")),
    (["status", "g", "--json", "--as", "rat"], lambda url: reading.status(url, "g", "rat")),
    (["replay", "g", "--json", "--at", "3"], lambda url: review.replay(url, "g", 3)),
    (["replay", "g", "--json", "--as", "spider"], lambda url: review.replay(url, "g", viewer="spider")),
    (["games", "--json"], reading.games),
    (["notes", "g", "--json"], lambda url: review.notes(url, "g")),
    (["stats", "g", "--json"], lambda url: review.stats(url, "g")),
], ids=["status", "status-as", "replay", "replay-as", "games", "notes", "stats"])
def test_the_cli_json_is_the_results_json(tmp_path: Path, args: list[str], use_case) -> None:
    url = str(tmp_path / "s.sqlite")
    recording.new(url, "g", PLAYERS, "raven")
    recording.record_batch(url, "g", SETUP)
    review.annotate(url, "g", 2, "sealed early", "ann", None)
    result = CliRunner().invoke(whispers, [*args, "--store", url])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == json.loads(json.dumps(use_case(url).to_json(), default=list))


def test_export_then_verify_agree_on_the_heads(tmp_path: Path, store) -> None:
    recording.record_batch(store, "g", SETUP)
    exported = files.export_record(store, "g")
    path = tmp_path / "g.whispers"
    files.write_export(exported, path)
    verified = files.verify(None, str(path))
    assert (verified.events, verified.head, verified.notes_head) == (exported.events, exported.head,
                                                                    exported.notes_head)


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_cli_reaches_the_store_and_the_rules_only_through_the_application() -> None:
    forbidden = {"whispers.ledger.io.store", "whispers.ledger.io.game", "whispers.ledger.core.rules"}
    reached = {f"cli/{path.name}": sorted(_imports(path) & forbidden) for path in sorted((ROOT / "cli").glob("*.py"))}
    assert {name: found for name, found in reached.items() if found} == {}


def test_the_application_prints_nothing_and_knows_no_face() -> None:
    for path in sorted((ROOT / "application").glob("*.py")):
        faces = {m for m in _imports(path) if m.split(".")[0] in ("click", "rich") or m.startswith("whispers.cli")}
        assert not faces, f"{path.name} imports {sorted(faces)}"
        assert "print(" not in path.read_text(encoding="utf-8"), path.name


def test_the_collector_is_paused_only_inside_and_left_as_it_was() -> None:
    import gc

    from whispers.application.collector import uncollected

    assert gc.isenabled()
    with pytest.raises(ValueError), uncollected():
        assert not gc.isenabled()
        raise ValueError
    assert gc.isenabled()
    gc.disable()
    try:
        with uncollected():
            pass
        assert not gc.isenabled()  # a caller's own pause is not ended by this one
    finally:
        gc.enable()
