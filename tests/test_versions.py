"""Versioned events: every record ever written still loads, replays and verifies.

tests/data/legacy-43585f5 holds a store and record files written before events were versioned (their skip
reasons and tie-break trails are English sentences); the upcasters turn them into today's codes.
"""

import shutil
from pathlib import Path

import pytest

from whispers.ledger.core import events as ev
from whispers.ledger.core.words import SKIP_REASONS, describe, office_skip_reason, skip_reason, trail_step
from whispers.ledger.io import recordfile
from whispers.ledger.io.game import load, read_facts, replay_lines
from whispers.ledger.io.store import open_store
from whispers.ledger.io.verify import verify

LEGACY = Path(__file__).parent / "data" / "legacy-43585f5"


@pytest.fixture
def legacy_store(tmp_path: Path) -> Path:
    copy = tmp_path / "store.sqlite"
    shutil.copy(LEGACY / "store.sqlite", copy)
    return copy


def test_a_store_written_before_versioning_opens_and_every_game_verifies(legacy_store: Path) -> None:
    with open_store(str(legacy_store)) as store:
        names = store.names()
        assert names == ["official-4p", "revised-3p", "official-2p", "what-if"]
        for name in names:
            facts = store.facts(name)
            game = load(store, name)
            assert verify(facts, name).events == game.version == len(facts)
        assert [n["at"] for n in store.notes("official-4p")] == [57, 100]


RECORDS = ["official-4p.whispers", "revised-3p.whispers", "legacy-official-0.whispers", "legacy-advanced-0.whispers",
           "legacy-official-1.whispers"]


@pytest.mark.parametrize("file", RECORDS)
def test_a_record_file_written_before_versioning_loads_and_verifies(file: str) -> None:
    header, facts, _notes = recordfile.loads((LEGACY / file).read_bytes(), file)
    verified = verify(facts, file)
    assert verified.events == header["events"] and verified.head == header["head"] and verified.state.over


def test_the_legacy_english_becomes_codes_and_reads_back_as_the_same_words() -> None:
    codes: set[str] = set()
    for file in RECORDS:
        _, facts, _ = recordfile.loads((LEGACY / file).read_bytes(), file)
        assert all("class_version" not in fact for fact in facts)  # written before versioning
        events = read_facts(facts, file)
        for fact, event in zip(facts, events, strict=True):
            if isinstance(event, ev.OfficeSkipped):
                assert office_skip_reason(event) == fact["reason"]
                codes.add(event.reason)
            elif isinstance(event, ev.Skipped):
                assert skip_reason(event.reason) == fact["reason"]
                codes.add(event.reason)
            elif isinstance(event, ev.GameScored):
                assert [trail_step(step) for step in event.trail] == fact["trail"]
                assert describe(event).endswith(fact["trail"][-1])
                codes.update(step["step"] for step in event.trail)
    assert codes >= {"uncontrolled", "no-legal-order", "too-few-concealed", "highest", "tie-break", "winner",
                     "still-tied"}


@pytest.mark.parametrize("words", sorted(SKIP_REASONS.values()))
def test_every_legacy_skip_sentence_upcasts_to_its_code(words: str) -> None:
    event = ev.from_fact({"type": "Skipped", "society": "raven", "phase": "deploy", "reason": words})
    assert isinstance(event, ev.Skipped) and event.reason in ev.SKIP_REASONS and skip_reason(event.reason) == words


def test_new_facts_carry_their_version_and_old_ones_none() -> None:
    fact = ev.Skipped("raven", "deploy", "no-agent-left").to_fact()
    assert fact["class_version"] == 2
    assert "class_version" not in ev.RoundEnded(1).to_fact()
    assert ev.from_fact(fact) == ev.Skipped("raven", "deploy", "no-agent-left")
    assert ev.from_fact({"type": "Skipped", "society": "raven", "phase": "deploy", "reason": "no agent left"}) \
        == ev.Skipped("raven", "deploy", "no-agent-left")


@pytest.mark.parametrize("fact", [
    {"type": "Skipped", "class_version": 3, "society": "raven", "phase": "deploy", "reason": "no-agent-left"},
    {"type": "Skipped", "class_version": "2", "society": "raven", "phase": "deploy", "reason": "no-agent-left"},
    {"type": "Skipped", "society": "raven", "phase": "deploy", "reason": "because I say so"},
    {"type": "OfficeSkipped", "empire": "bear", "office": "marshal", "controller": None, "reason": "tea time"},
    {"type": "GameScored", "scores": {}, "ranking": [], "winner": None, "tied": [], "trail": ["who knows"]},
])
def test_a_fact_from_a_newer_whispers_or_a_forged_reason_is_refused(fact: dict) -> None:
    with pytest.raises(ValueError):
        ev.from_fact(fact)


def test_a_take_back_that_reopened_a_finished_game_before_it_had_to_be_said_still_verifies(
        legacy_store: Path) -> None:
    """official-2p in the legacy store was finished, then `undo 'a slip'` reopened it, as every take-back of a
    finished game did then. It verifies by the rules of its time, and its log says `undo reopen` as today."""
    from whispers.projections.log import format_record

    with open_store(str(legacy_store)) as store:
        game = load(store, "official-2p")
    undo = game.events[-1]
    assert isinstance(undo, ev.MoveTakenBack) and undo.reopen is None
    lines = [line for line in format_record(game.events) if not line.startswith("#")]
    assert lines[-2:] == ["spider no-card", "undo reopen 'a slip'"]
    again = replay_lines("again", lines)
    assert not again.state.over and isinstance(again.events[-1], ev.MoveTakenBack) and again.events[-1].reopen


def test_the_log_of_a_game_finished_before_the_engine_waited_for_a_last_card_imports_finished(
        legacy_store: Path) -> None:
    """EN "Playing Cards": a card may be played immediately after an action of a position you control, so today's
    engine waits after an empire's last order for the society that gave it. A record made before closed that
    moment on its own; its log says `no-card` there, so that it imports as the finished game it was."""
    from whispers.projections.log import format_record

    with open_store(str(legacy_store)) as store:
        game = load(store, "official-4p")
    again = replay_lines("again", list(format_record(game.events)))
    assert again.state.over
    assert again.events[-1].to_fact()["scores"] == game.events[-1].to_fact()["scores"]
