"""Stored states compressed with a preset dictionary (issue 12's storage per game): what is stored reads back as
it was written, whatever a person typed into it; a state stored plain by an earlier whispers reads as it is, beside
compressed ones in the same game; and damaged or hostile compressed bytes are refused with a reason, not expanded."""

import hashlib
import zlib
from datetime import UTC, datetime
from pathlib import Path

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizes import sized
from test_lean_read import BACKENDS, same, small_game, store_url

from whispers.ledger.core.events import read_facts
from whispers.ledger.io import transcoder
from whispers.ledger.io.store import game_id, open_store
from whispers.ledger.io.transcoder import (
    COMPRESSED,
    DICTIONARIES,
    WRITTEN_WITH,
    MsgpackTranscoder,
    decode_events,
    decode_timestamp,
    packed,
    unpacked,
    unpacked_all,
)

WHEN = datetime(2026, 11, 23, 6, 30, 1, 250_000, tzinfo=UTC)

plain_data = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2 ** 63), max_value=2 ** 64 - 1) | st.text() | st.binary()
    | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=12), inner, max_size=6),
    max_leaves=30)


@settings(max_examples=sized(100, 300), suppress_health_check=[HealthCheck.too_slow])
@given(data=plain_data)
def test_any_state_reads_back_as_it_was_written(data: object) -> None:
    """Free text, bytes, numbers and nesting of any kind: compression is below the encoding, and loses nothing."""
    t = MsgpackTranscoder()
    plain = t.encode_plain({"timestamp": WHEN, "fact": data})
    assert plain[0] != COMPRESSED  # no msgpack state starts with the marker, so none is mistaken for compressed
    stored = t.encode({"timestamp": WHEN, "fact": data})
    assert unpacked(stored) == plain
    assert t.decode(stored) == t.decode(plain)
    assert decode_timestamp(stored) == t.decode(stored)["timestamp"] == WHEN


def test_a_games_states_are_stored_in_a_fraction_of_their_msgpack() -> None:
    """What the dictionary is for: a recorded event's state, about 120 bytes of msgpack, stored in under a third."""
    t = MsgpackTranscoder()
    facts = small_game(3, "g")[1:]
    plain = [t.encode_plain({"timestamp": WHEN, "fact": fact}) for fact in facts]
    stored = [packed(state) for state in plain]
    assert all(state[:2] == bytes((COMPRESSED, WRITTEN_WITH)) for state in stored)
    assert sum(map(len, stored)) * 3 < sum(map(len, plain))
    assert [unpacked(state) for state in stored] == plain


def test_a_state_compression_would_not_shorten_is_stored_as_it_is() -> None:
    tiny = msgpack.packb({})
    assert packed(tiny) == tiny and unpacked(tiny) == tiny


def test_the_shipped_dictionary_is_the_one_rows_were_compressed_with() -> None:
    """A dictionary is part of the stored format: its bytes may never change (tools/state_dictionary.py adds the
    next one beside it)."""
    for number, digest in DICTIONARIES.items():
        data = (Path(transcoder.__file__).with_name(f"state-dictionary-{number}.zdict")).read_bytes()
        assert hashlib.sha256(data).hexdigest() == digest and 0 < len(data) <= 32 * 1024  # deflate's window


def compressed(plain: bytes, number: int = WRITTEN_WITH) -> bytes:
    """Deflate of `plain` with dictionary `number`, without the marker."""
    data = Path(transcoder.__file__).with_name(f"state-dictionary-{number}.zdict").read_bytes()
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, zdict=data)
    return deflate.compress(plain) + deflate.flush()


STATE = MsgpackTranscoder().encode_plain({"timestamp": WHEN, "fact": {"type": "PhaseStarted", "round": 1,
                                                                       "phase": "deploy"}})
DAMAGED = {
    "no dictionary number": (b"\xc1", "no dictionary number"),
    "an unknown dictionary": (b"\xc1\x09" + compressed(STATE), "dictionary 9, which this whispers does not have"),
    "a reserved block type": (b"\xc1\x01\xff" + compressed(STATE)[1:], "compressed bytes are damaged"),
    "cut short": (b"\xc1\x01" + compressed(STATE)[:-2], "cut short"),
    "followed by others": (b"\xc1\x01" + compressed(STATE) + b"\x00", "followed by others"),
}


@pytest.mark.parametrize("kind", DAMAGED)
def test_damaged_compressed_bytes_are_refused_with_why(kind: str) -> None:
    stored, why = DAMAGED[kind]
    with pytest.raises(ValueError, match=why):
        unpacked(stored)
    with pytest.raises(ValueError, match=why):
        MsgpackTranscoder().decode(stored)
    with pytest.raises(ValueError, match=why):
        unpacked_all([packed(STATE), stored])
    assert decode_events([stored]) is None  # the lenient read names it, as for any row that is not an event


def test_bytes_that_would_expand_without_end_are_refused_not_expanded(monkeypatch: pytest.MonkeyPatch) -> None:
    bomb = b"\xc1\x01" + compressed(b"\x00" * 100_000)
    assert len(bomb) < 200
    monkeypatch.setattr(transcoder, "MAX_STATE", 10_000)
    with pytest.raises(ValueError, match="expand to more than 10000 bytes"):
        unpacked(bomb)
    with pytest.raises(ValueError, match="expand to more than 10000 bytes"):
        unpacked_all([bomb])


@settings(max_examples=sized(100, 300))
@given(data=st.binary(max_size=200))
def test_any_bytes_after_the_marker_either_expand_whole_or_are_refused(data: bytes) -> None:
    """Fuzz of the reader: whatever follows the marker, a ValueError or the bytes deflate's stream holds; read
    among others (`unpacked_all`, the catalog's loop), the same."""
    try:
        plain = unpacked(b"\xc1\x01" + data)
    except ValueError:
        with pytest.raises(ValueError):
            unpacked_all([b"\xc1\x01" + data])
        return
    assert isinstance(plain, bytes) and len(plain) <= transcoder.MAX_STATE
    assert unpacked_all([packed(STATE), b"\xc1\x01" + data, STATE]) == [STATE, plain, STATE]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_game_stored_plain_by_an_earlier_whispers_reads_on_with_its_new_moves_compressed(
        backend: str, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stores written before compression are read as they are: a game begun plain, then played on compressed,
    reads as the same game stored either way."""
    game = {name: small_game(4, name) for name in ("g", "whole", "h")}
    facts = game["g"]
    half = len(facts) // 2
    with open_store(store_url(backend, tmp_path, request)) as store:
        with monkeypatch.context() as before:
            before.setattr(transcoder, "packed", lambda plain: plain)  # as main wrote before this change
            store.create("g", facts[:half])
            store.create("whole", game["whole"])
        store.append("g", half, facts[half:])
        store.create("h", game["h"])
        assert [store.facts(name)[1:] for name in game] == [facts[1:]] * 3
        rows = {name: store._backend.rows(game_id(name), None) for name in game}
        first_bytes = {name: {state[0] for _, _, state in rows[name][1:]} for name in game}
        assert first_bytes["whole"].isdisjoint({COMPRESSED}) and first_bytes["h"] == {COMPRESSED}
        assert first_bytes["g"] == first_bytes["whole"] | {COMPRESSED}
        mixed, plain, new = store.events("g"), store.events("whole"), store.events("h")
        assert all(same(a, b) and same(a, c) for a, b, c in zip(mixed[1:], plain[1:], new[1:], strict=True))
        assert all(same(a, b) for a, b in zip(mixed, read_facts(facts, "g"), strict=True))
        together = {name: events for name, events, _ in store.written_games(["g", "whole", "h"])}
        assert all(same(a, b) for a, b in zip(together["g"][1:], together["h"][1:], strict=True))
