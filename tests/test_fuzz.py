"""Fuzzing the notation parser and the record-file reader: no input may raise anything but a whispers error
(one line for the user), and a refused input never changes the store.

CI runs a bounded number of examples; set WHISPERS_FUZZ_EXAMPLES (e.g. 20000) for a longer run locally.
"""

import os
from importlib import resources

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.errors import WhispersError
from ledger.game import import_lines, import_record, load, record
from ledger.names import OFFICES, SLOTS, SOCIETIES
from ledger.notation import VERBS, Header, parse_line
from ledger.recordfile import dumps
from ledger.store import open_store

EXAMPLES = int(os.environ.get("WHISPERS_FUZZ_EXAMPLES", "300"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))

GAME = resources.files("fixtures").joinpath("games", "revised-3p.txt").read_text(encoding="utf-8").splitlines()
REGIONS = ("frost-gate", "ice-hall", "red-cliffs", "windmoor", "saltmarsh", "monsoon-delta", "nowhere")
WORDS = (*SOCIETIES, *VERBS, *REGIONS, *OFFICES, *SLOTS, "bear", "lion", "bear.sheriff", "lion.marshal",
         "bear:3", "lion:9", "bear:", "sealed", "order=recruit_2", "at=bear.steward", "ability=1", "pay=bear:1",
         "add=bear:frost-gate:2", "kill=ice-hall:1", "move=a:b:2", "agent=bear.sheriff:lion.marshal",
         "act=lion.marshal", "1", "0", "-1", "99999999999", "²", "=", ":", '"', "#", "'", "\\")

tokens = st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=8)), max_size=9).map(" ".join)
lines = st.one_of(st.text(max_size=120), tokens)


@FUZZ
@given(lines)
def test_the_parser_returns_a_move_or_a_one_line_error(text: str) -> None:
    try:
        parsed = parse_line(text)
    except WhispersError as exc:
        assert "\n" not in str(exc)
        return
    assert parsed is None or isinstance(parsed, Header) or type(parsed).__module__ == "ledger.commands"


@pytest.fixture(scope="module")
def mid_game() -> list[dict]:
    with open_store("memory:") as store:
        import_lines(store, "fuzz", GAME[: len(GAME) // 2])
        return store.facts("fuzz")


@FUZZ
@given(lines)
def test_a_fuzzed_move_is_recorded_or_refused_leaving_the_store_unchanged(mid_game: list[dict], text: str) -> None:
    with open_store("memory:") as store:
        store.create("fuzz", mid_game)
        game = load(store, "fuzz")
        try:
            command = parse_line(text)
            if command is None or isinstance(command, Header):
                return
            _, produced = record(store, game, command)
        except WhispersError as exc:
            assert "\n" not in str(exc)
            assert store.facts("fuzz") == mid_game
            return
        assert store.version("fuzz") == len(mid_game) + len(produced)  # a legal move lands whole


@pytest.fixture(scope="module")
def record_bytes() -> bytes:
    with open_store("memory:") as store:
        import_lines(store, "g", GAME)
        return dumps("g", store.facts("g"), store.notes("g"))


def _check_import(data: bytes) -> None:
    with open_store("memory:") as store:
        try:
            import_record(store, data, "fuzzed.whispers")
        except WhispersError as exc:
            assert "\n" not in str(exc)
            assert store.names() == []


@FUZZ
@given(st.binary(max_size=400))
def test_random_bytes_are_refused_in_one_line(data: bytes) -> None:
    _check_import(b"\x84" + data)  # a msgpack map's first byte, so the reader gets past its first look


@FUZZ
@given(st.data())
def test_a_mutated_record_file_is_imported_whole_or_refused(record_bytes: bytes, data: st.DataObject) -> None:
    blob = bytearray(record_bytes)
    kind = data.draw(st.sampled_from(["flip", "truncate", "insert", "splice"]))
    at = data.draw(st.integers(0, len(blob) - 1))
    if kind == "flip":
        blob[at] ^= data.draw(st.integers(1, 255))
    elif kind == "truncate":
        del blob[at:]
    elif kind == "insert":
        blob[at:at] = data.draw(st.binary(min_size=1, max_size=8))
    else:
        length = data.draw(st.integers(1, 64))
        blob[at:at + length] = data.draw(st.binary(max_size=64))
    _check_import(bytes(blob))


@FUZZ
@given(st.data())
def test_a_rewritten_record_body_is_refused_or_consistent(record_bytes: bytes, data: st.DataObject) -> None:
    """Well-formed msgpack with fuzzed values in its fields: a deeper reach than byte flips."""
    body = msgpack.unpackb(record_bytes, raw=False)
    index = data.draw(st.integers(0, len(body["events"]) - 1))
    fact = body["events"][index][0]
    key = data.draw(st.sampled_from(sorted(fact)))
    values = st.one_of(st.none(), st.integers(-5, 50), st.text(max_size=10),
                       st.lists(st.integers(-999, 999), max_size=3))
    fact[key] = data.draw(values)
    _check_import(msgpack.packb(body, use_bin_type=True))


def test_found_by_fuzzing_a_newline_in_an_event_type_still_gives_one_line(record_bytes: bytes) -> None:
    """A record whose event type holds a newline once broke the one-line rule (found by the long fuzz run)."""
    body = msgpack.unpackb(record_bytes, raw=False)
    body["events"][1][0]["type"] = "Phase\nStarted"
    _check_import(msgpack.packb(body, use_bin_type=True))
