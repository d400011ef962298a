"""The lean read path (issue 12): a game's rows decoded straight into the event types, in C, give the very events
the lenient path gives (each row decoded into a dict, then an event built from it), for every kind of event; an
older fact is upcast as before; and a row that is not an event falls back to the lenient path, which names it."""

from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from whispers.ledger import events as ev
from whispers.ledger import rules
from whispers.ledger.board_files import load_board
from whispers.ledger.decree_files import shipped_catalogue
from whispers.ledger.errors import StoreError
from whispers.ledger.events import read_facts
from whispers.ledger.names import SOCIETIES
from whispers.ledger.randomgame import play as random_play
from whispers.ledger.ruleset_files import load_ruleset
from whispers.ledger.store import open_store
from whispers.ledger.transcoder import MsgpackTranscoder, decode_events

RULESETS = ("official", "advanced", "revised")


def stored(fact: dict) -> bytes:
    return MsgpackTranscoder().encode({"timestamp": datetime(2026, 11, 23, tzinfo=UTC), "fact": fact})


def same(a: object, b: object) -> bool:
    """Equal, and of the same types all the way down (a list where the lenient path gives a tuple is not the same
    event: events hold tuples, and a tuple never equals a list)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, ev.Event | ev.Effects):
        return all(same(getattr(a, f), getattr(b, f)) for f in a.__struct_fields__)
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())  # type: ignore[attr-defined]
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))  # type: ignore[arg-type]
    return a == b


@pytest.mark.parametrize("seed", range(6))
def test_a_game_read_straight_into_its_events_is_the_game_read_the_lenient_way(tmp_path: Path, seed: int) -> None:
    catalogue = shipped_catalogue()
    facts = []
    for _, produced, _ in random_play(SOCIETIES[: 2 + seed % 3], load_ruleset(RULESETS[seed % 3]),
                                      load_board("standin"), seed, name="g", undo_rate=0.05, named=True,
                                      catalogue=catalogue):
        facts += [e.to_fact() for e in produced]
    kinds = {f["type"] for f in facts}
    with open_store(str(tmp_path / "store.sqlite")) as store:
        store.create("g", facts)
        lean = store.events("g")
        lenient = read_facts(store.facts("g"), "g")
        assert len(lean) == len(lenient) == len(facts)
        assert all(same(a, b) for a, b in zip(lean, lenient, strict=True))
        assert [type(e).__name__ for e in lean] == [f["type"] for f in facts]
        half = len(facts) // 2
        assert all(same(a, b) for a, b in zip(store.events("g", half), lenient[:half], strict=True))
    assert {"CardPlayed", "Attacked", "GameScored"} <= kinds  # the game played what the comparison is for


def test_an_older_fact_read_straight_is_upcast_as_before() -> None:
    """Skipped version 1 kept its reason in English; read today it says the code (events.Skipped.upcast_v1_v2)."""
    old = {"type": "Skipped", "society": "raven", "phase": "retrieve", "reason": "no agent left"}
    read = decode_events([stored({"type": "PhaseStarted", "round": 1, "phase": "retrieve"}), stored(old)])
    assert read == [ev.PhaseStarted(1, "retrieve"), ev.Skipped("raven", "retrieve", "no-agent-left")]


@pytest.mark.parametrize("fact", [
    {"type": "Unheard", "round": 1},  # no such event
    {"type": "PhaseStarted", "round": 1},  # a field missing
    {"type": "Skipped", "class_version": 9, "society": "raven", "phase": "retrieve", "reason": "no-agent-left"},
    {"round": 1, "phase": "retrieve"},  # no type at all
])
def test_a_row_that_is_not_an_event_is_left_to_the_lenient_read_which_names_it(tmp_path: Path, fact: dict) -> None:
    assert decode_events([stored({"type": "PhaseStarted", "round": 1, "phase": "retrieve"}), stored(fact)]) is None
    with open_store(str(tmp_path / "store.sqlite")) as store:
        started = rules.start("g", SOCIETIES[:2], SOCIETIES[0], load_ruleset("official"), load_board("standin"))
        store.create("g", [started.to_fact(), ev.PhaseStarted(1, "retrieve").to_fact(), fact])
        with pytest.raises(StoreError, match=r"^g: event 3 is not a whispers event$"):
            store.events("g")


def test_a_field_of_another_kind_is_read_as_the_lenient_read_reads_it(tmp_path: Path) -> None:
    """The typed decoder refuses a round that is not a number; the lenient read, which builds events without
    checking their fields' kinds, reads it as it always did (the rules' replay is what finds such a record wrong)."""
    fact = {"type": "PhaseStarted", "round": "one", "phase": "retrieve"}
    assert decode_events([stored(fact)]) is None
    with open_store(str(tmp_path / "store.sqlite")) as store:
        started = rules.start("g", SOCIETIES[:2], SOCIETIES[0], load_ruleset("official"), load_board("standin"))
        store.create("g", [started.to_fact(), fact])
        assert store.events("g")[1] == ev.PhaseStarted("one", "retrieve")  # type: ignore[arg-type]


_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8) | st.binary(max_size=8),
                       lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                     max_size=4), max_leaves=12)
_TYPES = st.sampled_from([*ev.EVENT_TYPES, "Nope", ""])


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.one_of(
    st.binary(max_size=40),  # any bytes at all
    st.builds(lambda t, fields: stored({"type": t, **fields}), _TYPES,
              st.dictionaries(st.text(max_size=10), _VALUES, max_size=6)),  # a fact of a known type, any fields
), max_size=5))
def test_any_stored_bytes_read_straight_are_events_or_left_to_the_lenient_read(states: list[bytes]) -> None:
    """Fuzzed: whatever a row holds, the typed decoder gives events or None (then the lenient read names the row);
    it never raises, and never gives anything but events."""
    read = decode_events(states)
    assert read is None or (len(read) == len(states) and all(isinstance(e, ev.Event) for e in read))
