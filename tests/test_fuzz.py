"""Fuzzing the notation parser and the record-file reader: no input may raise anything but a whispers error
(one line for the user), and a refused input never changes the store.

CI runs a bounded number of examples (50 a test, 300 with `--slow`); set WHISPERS_FUZZ_EXAMPLES (e.g. 20000) for a
longer run locally.
"""

import contextlib
import os
from importlib import resources

import msgpack
import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from sizes import sized

from whispers.ledger.core import commands as c
from whispers.ledger.core.errors import WhispersError
from whispers.ledger.core.names import OFFICES, SLOTS, SOCIETIES
from whispers.ledger.core.notation import VERBS, Header, parse_line
from whispers.ledger.core.notes import TAGS
from whispers.ledger.core.text import LINE_BREAKS, is_utf8
from whispers.ledger.io.game import annotate, import_lines, import_record, load, read_notes, record
from whispers.ledger.io.recordfile import dumps, notes_head
from whispers.ledger.io.store import open_store
from whispers.projections.log import format_record

EXAMPLES = int(os.environ.get("WHISPERS_FUZZ_EXAMPLES") or sized(50, 300))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))

GAME = resources.files("whispers.fixtures").joinpath("games", "revised-3p.txt").read_text(encoding="utf-8").splitlines()
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
    assert parsed is None or isinstance(parsed, Header) or type(parsed).__module__ == "whispers.ledger.core.commands"


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


# --- free text written out and read back: notes, authors, tags, reasons ------------------------------------

ATTACKS = tuple(f"x{brk}{line}" for brk in LINE_BREAKS for line in ('undo "injected"', 'ruling "x"', GAME[40]))
free_text = st.one_of(
    st.text(alphabet=st.one_of(st.characters(), st.sampled_from([*LINE_BREAKS, "#", "'", '"', "\\", " ", "="])),
            max_size=40),
    st.sampled_from([*ATTACKS, "kill=ice-hall:1", "# not a comment", "'", '"', "\\", "a # b"]),
)
notes_drawn = st.lists(st.tuples(st.integers(1, 200), free_text, st.one_of(st.none(), free_text),
                                 st.one_of(st.none(), st.sampled_from(TAGS))), max_size=3)


def _same_record(store, name: str, original: list[dict]) -> None:
    facts = store.facts(name)
    assert len(facts) == len(original)  # never an extra move
    assert [{**f, "name": ""} for f in facts] == [{**f, "name": ""} for f in original]


@settings(FUZZ, max_examples=max(EXAMPLES // 3, 20))
@given(notes_drawn, free_text, free_text)
def test_free_text_round_trips_through_log_and_export_with_never_an_extra_move(
        mid_game: list[dict], drawn: list, undo_reason: str, ruling_reason: str) -> None:
    with open_store("memory:") as store:
        store.create("fuzz", mid_game)
        game = load(store, "fuzz")
        for command in (c.Ruling(ruling_reason), c.Undo(undo_reason)):
            try:
                game, _ = record(store, game, command)
            except WhispersError as exc:
                assert "\n" not in str(exc)
        for at, text, author, tag in drawn:
            try:
                annotate(store, "fuzz", at, text, author, tag)
            except WhispersError as exc:
                assert "\n" not in str(exc)
        original, notes = store.facts("fuzz"), store.notes("fuzz")
        assert read_notes(store, "fuzz") == (notes, [])  # what annotate accepts reads back whole
        log = format_record(load(store, "fuzz").events, notes=notes)
        import_lines(store, "via-log", "\n".join(log).splitlines())
        _same_record(store, "via-log", original)
        import_record(store, dumps("fuzz", original, notes), "fuzz.whispers", "via-file")
        _same_record(store, "via-file", original)
        assert store.notes("via-file") == notes


note_values = st.one_of(st.none(), st.booleans(), st.integers(-5, 300), free_text.filter(is_utf8),  # a file's text
                        st.lists(st.integers(-999, 999), max_size=2),
                        st.builds(msgpack.ExtType, st.integers(0, 127), st.binary(max_size=4)))


VALID_NOTE = {"at": 3, "text": "fine", "author": None, "tag": None, "time": "2026-01-01T00:00:00+00:00"}
valid_values = st.sampled_from([None, *TAGS, 1, 9, True, "ana", "2026-02-02T10:00:00"])
fuzzed_notes = st.lists(st.dictionaries(st.sampled_from([*VALID_NOTE, "unchained", "x"]),
                                        st.one_of(valid_values, note_values), max_size=2)
                        .map(lambda changes: {**VALID_NOTE, **changes}), min_size=1, max_size=2)


@FUZZ
@given(fuzzed_notes, st.booleans())
def test_a_record_file_with_fuzzed_notes_is_refused_in_one_line_or_every_note_reads_back(
        record_bytes: bytes, notes: list[dict], chained: bool) -> None:
    body = msgpack.unpackb(record_bytes, raw=False)
    body["notes"] = notes
    if chained:
        body["header"]["notes"], body["header"]["notes_head"] = len(notes), notes_head(notes)
    else:
        del body["header"]["notes"], body["header"]["notes_head"]
    with open_store("memory:") as store:
        try:
            import_record(store, msgpack.packb(body, use_bin_type=True), "fuzzed.whispers")
        except WhispersError as exc:
            assert "\n" not in str(exc) and store.names() == []
            event("refused")
            return
        event("imported")
        good, skipped = read_notes(store, "g")
        assert skipped == [] and good == [note if chained else {**note, "unchained": True} for note in notes]
        assert all("\n" not in line for line in format_record(load(store, "g").events, notes=good))


@FUZZ
@given(before=st.text(max_size=60).filter(lambda t: '"' not in t),
       reason=st.text(max_size=60).filter(lambda t: '"' not in t),
       code=st.sampled_from(["fr", "it", "es"]))
@example(before="", reason="\r\\", code="fr")  # its closing quote escaped: an open quote, kept as typed
def test_a_line_in_the_users_words_keeps_its_quoted_reason_and_adds_no_line(before: str, reason: str,
                                                                           code: str) -> None:
    """Reading a line typed in the user's words back to canonical ids (the recorder and the table page in fr, it,
    es) never fails, never adds a line break, and leaves a quoted reason exactly as typed; the notation then
    takes the result or refuses it in one NotationError, like any line."""
    from whispers.ledger.core.errors import NotationError
    from whispers.projections.language import canonical

    line = f'{before} "{reason}"'
    read = canonical(line, code)
    assert f'"{reason}"' in read
    assert len(read.splitlines()) <= len(line.splitlines())
    with contextlib.suppress(NotationError):
        parse_line(read)
