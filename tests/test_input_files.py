"""Hostile files to every reader (issue 31): a content file (board, ruleset, decree catalogue, card sheet,
tournament file) or a record or notation file is refused in one line, exit 2, when it is too large, not UTF-8,
nested past any sense or holds a number past the bounds, and nothing reads more than its cap. A store that holds
a game recorded before numbers were bounded still answers verify and export in one line."""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizes import sized
from test_cli import invoke, ok, refused

from whispers.application import files
from whispers.fixtures import FOLDER
from whispers.ledger.core.errors import DecreeError, RecordFileError, WhispersError
from whispers.ledger.io import input_files
from whispers.ledger.io.decree_files import load_catalogue
from whispers.ledger.io.input_files import CONTENT_LIMIT, MAX_DEPTH, NUMBER_LIMIT, RECORD_LIMIT, read_capped
from whispers.ledger.io.store import open_store
from whispers.ledger.io.verify import VerifyError

STANDIN = (FOLDER / "boards" / "standin.toml").read_text(encoding="utf-8")
OFFICIAL = (FOLDER / "rulesets" / "official.toml").read_text(encoding="utf-8")
DEEP = "a = " + "[" * 50_000 + "]" * 50_000 + "\n"

HOSTILE: dict[str, tuple[bytes, str]] = {
    "deep": (DEEP.encode(), "nest more than"),
    "deep-tables": (("x = " + "{ a = " * 40 + "1" + " }" * 40 + "\n").encode(), "nest more than"),
    "utf16": ('id = "x"\n'.encode("utf-16"), "not UTF-8 text"),
    "byte-ff": (b'id = "x\xff"\n', "not UTF-8 text"),
    "huge-int": (b"a = 99999999999999999999\n", "out of bounds"),
    "digits": (b"a = " + b"9" * 5000 + b"\n", "not valid TOML"),
    "inf": (b"a = [1.0, inf]\n", "out of bounds"),
    "nan": (b"a = { b = nan }\n", "out of bounds"),
    "too-large": (b"# " + b"x" * CONTENT_LIMIT + b"\n", "larger than"),
}

READERS = {
    "board check": lambda f: ("board", "check", f),
    "new --board": lambda f: ("new", "g", "--players", "raven,rat,spider", "--board", f),
    "new --ruleset": lambda f: ("new", "g", "--players", "raven,rat,spider", "--ruleset", f),
    "cards check": lambda f: ("cards", "check", f),
    "new --cards": lambda f: ("new", "g", "--players", "raven,rat,spider", "--cards", f),
    "tournament": lambda f: ("tournament", f),
}


@pytest.mark.parametrize("kind", HOSTILE)
@pytest.mark.parametrize("reader", READERS)
def test_every_content_reader_refuses_a_hostile_file_in_one_line(tmp_path: Path, reader: str, kind: str) -> None:
    raw, words = HOSTILE[kind]
    path = tmp_path / f"{kind}.toml"
    path.write_bytes(raw)
    refused(invoke(tmp_path / "s.sqlite", *READERS[reader](str(path))), words)
    if (tmp_path / "s.sqlite").exists():
        with open_store(str(tmp_path / "s.sqlite")) as store:
            assert not store.exists("g")


@pytest.mark.parametrize("kind", HOSTILE)
def test_the_decree_catalogue_reader_refuses_a_hostile_file(tmp_path: Path, kind: str) -> None:
    raw, words = HOSTILE[kind]
    path = tmp_path / f"{kind}.toml"
    path.write_bytes(raw)
    with pytest.raises(DecreeError, match=words) as refusal:
        load_catalogue(str(path))
    assert "\n" not in str(refusal.value)


@pytest.mark.parametrize("reader", ["board check", "new --board", "tournament"])
def test_a_content_file_starting_with_a_utf8_byte_order_mark_reads_as_without_it(tmp_path: Path, reader: str) -> None:
    """Notepad writes one; a U+FEFF anywhere else is a format character no text may hold (ledger/core/text.py)."""
    text = TOURNAMENT if reader == "tournament" else STANDIN
    (tmp_path / "f.toml").write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    ok(invoke(tmp_path / "s.sqlite", *READERS[reader](str(tmp_path / "f.toml"))))
    (tmp_path / "g.toml").write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8") + b"\xff")
    refused(invoke(tmp_path / "s.sqlite", *READERS[reader](str(tmp_path / "g.toml"))),
            f"not UTF-8 text (byte {3 + len(text.encode())})")


def test_a_board_counting_a_number_past_the_bound_is_refused_and_the_bound_itself_passes(tmp_path: Path) -> None:
    """docs/boards.md: every number of a content file lies within +-NUMBER_LIMIT."""
    at_bound = STANDIN.replace("banners = 3", f"banners = {NUMBER_LIMIT}", 1)
    assert at_bound != STANDIN
    (tmp_path / "bound.toml").write_text(at_bound.replace('id = "standin"', 'id = "bound"'), encoding="utf-8")
    out = invoke(tmp_path / "s.sqlite", "board", "check", str(tmp_path / "bound.toml"))
    assert "out of bounds" not in out.stdout + out.stderr
    past = STANDIN.replace("cities = 1\n", "cities = 99999999999999999999\n", 1).replace('id = "standin"', 'id = "big"')
    (tmp_path / "big.toml").write_text(past, encoding="utf-8")
    refused(invoke(tmp_path / "s.sqlite", "board", "check", str(tmp_path / "big.toml")), "cities is out of bounds")


def test_a_ruleset_nested_just_past_the_depth_limit_is_refused_and_at_it_parses(tmp_path: Path) -> None:
    def nested(depth: int) -> str:  # the table itself is level 1, then depth - 1 arrays
        return OFFICIAL + "\n[extra]\nx = " + "[" * (depth - 2) + "]" * (depth - 2) + "\n"

    (tmp_path / "deep.toml").write_text(nested(MAX_DEPTH + 1), encoding="utf-8")
    refused(invoke(tmp_path / "s.sqlite", "new", "g", "--players", "raven,rat", "--ruleset",
                   str(tmp_path / "deep.toml")), "nest more than")
    (tmp_path / "at.toml").write_text(nested(MAX_DEPTH), encoding="utf-8")
    refused(invoke(tmp_path / "s.sqlite", "new", "g", "--players", "raven,rat", "--ruleset",
                   str(tmp_path / "at.toml")), "unknown key")  # read whole: the ruleset's own check speaks


def test_import_of_an_endless_device_reads_no_more_than_its_cap(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(input_files, "RECORD_LIMIT", 4096)
    monkeypatch.setattr("whispers.application.files.RECORD_LIMIT", 4096)
    refused(invoke(tmp_path / "s.sqlite", "import", "/dev/zero"), "larger than 4096 bytes")


def test_a_capped_read_of_a_device_stops_one_byte_past_the_cap() -> None:
    with pytest.raises(RecordFileError, match="larger than 1000 bytes"):
        read_capped(Path("/dev/zero"), "zero", RecordFileError, limit=1000)


@pytest.mark.parametrize("command", [("import",), ("verify",)])
def test_a_sparse_file_past_the_record_cap_is_refused_before_it_is_read(tmp_path: Path, command: tuple) -> None:
    big = tmp_path / "big.whispers"
    with big.open("wb") as handle:
        handle.truncate(RECORD_LIMIT + 1)  # sparse: no disk, but a read would take 64 MiB
    assert os.stat(big).st_size == RECORD_LIMIT + 1
    refused(invoke(tmp_path / "s.sqlite", *command, str(big)), "larger than")


def test_a_store_holding_a_number_past_64_bits_still_answers_verify_and_export_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game recorded before the bound: written by going around the reader's check."""
    store = tmp_path / "s.sqlite"
    big = STANDIN.replace("cities = 1\n", "cities = 99999999999999999999\n").replace('id = "standin"', 'id = "big"')
    (tmp_path / "big.toml").write_text(big, encoding="utf-8")
    with monkeypatch.context() as around:
        around.setattr(input_files, "shape_problem", lambda data, source: None)
        ok(invoke(store, "new", "g", "--players", "raven,rat,spider", "--board", str(tmp_path / "big.toml")))
    ok(invoke(store, "status", "g"))
    refused(invoke(store, "verify", "g"), "g: event 1 holds a number past 64 bits")
    with pytest.raises(VerifyError, match="past 64 bits"):  # what the director's verify page shows as a break
        files.verify(str(store), "g")
    assert "broken: g: event 1 holds a number past 64 bits" in invoke(store, "verify", "--all").stderr
    refused(invoke(store, "export", "g", "-o", str(tmp_path / "g.whispers")), "past 64 bits")
    assert not (tmp_path / "g.whispers").exists()


# --- fuzzing every content reader -------------------------------------------------------------------------------

EXAMPLES = int(os.environ.get("WHISPERS_FUZZ_EXAMPLES") or sized(60, 300))  # each kind of content file
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
TOKENS = ("99999999999999999999", "-99999999999999999999", "1000001", "-1", "0", "inf", "-inf", "nan", "1e400",
          "0x7fffffffffffffffff", "1979-05-27", "true", "[[[[[[[[[[[[[[[[[[", "]]", "{", "}", "[", "]", '"', "'''",
          '"""', "=", ",", ".", "\n", "[x]\n", "[[game]]\n", "\u202e", "\u200b", "\x1b[31m", "\\u0000", "#", "\ufeff")
TOURNAMENT = """name = "Winter Cup"
entrants = ["Ana", "Ben", "Cy", "Dee"]
[points]
4 = [5, 3, 1, 0]
[[game]]
name = "t1"
round = 1
first = "raven"
seats = { raven = "Ana", rat = "Ben", spider = "Cy", serpent = "Dee" }
"""
SHIPPED = {
    "board": STANDIN,
    "ruleset": OFFICIAL,
    "sheet": (FOLDER / "cards" / "example.toml").read_text(encoding="utf-8"),
    "catalogue": (FOLDER / "decrees.toml").read_text(encoding="utf-8"),
    "tournament": TOURNAMENT,
}


def read_as(kind: str, text: str) -> object:
    """The content file `text` read by the reader of its kind, as whispers reads a file of it."""
    from whispers.ledger.core.decrees import CardSheet, Catalogue, sheet_problems
    from whispers.ledger.io.board_files import parse_board
    from whispers.ledger.io.decree_files import read_toml, shipped_catalogue
    from whispers.ledger.io.ruleset_files import parse_ruleset
    from whispers.projections.standings import load_tournament

    raw = text.encode("utf-8", "surrogatepass")
    if kind == "board":
        return parse_board(raw, "f.toml")
    if kind == "ruleset":
        return parse_ruleset(text, "f.toml")
    if kind == "tournament":
        return load_tournament(text, "f.toml")
    data = read_toml(raw, "f.toml")
    if kind == "catalogue":
        return Catalogue.from_data(data, "f.toml")
    problems = sheet_problems(data, shipped_catalogue(), "f.toml")
    return problems or CardSheet.from_data(data, shipped_catalogue(), "f.toml")


@st.composite
def spliced(draw: st.DrawFn, kind: str) -> str:
    """A shipped content file with a few hostile tokens put in at random places, or a number made any integer."""
    text = SHIPPED[kind]
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        token = draw(st.one_of(st.sampled_from(TOKENS), st.integers().map(str), st.text(max_size=6)))
        text = text[:at] + token + text[at + draw(st.integers(0, 3)):]
    return text


@pytest.mark.parametrize("kind", SHIPPED)
def test_the_shipped_content_files_read_whole(kind: str) -> None:
    assert read_as(kind, SHIPPED[kind]) not in (None, [])


@pytest.mark.parametrize("kind", SHIPPED)
@FUZZ
@given(data=st.data())
def test_a_spliced_content_file_is_read_or_refused_in_one_line(kind: str, data: st.DataObject) -> None:
    text = data.draw(spliced(kind))
    try:
        read_as(kind, text)
    except WhispersError as refusal:
        assert "\n" not in str(refusal) and "Traceback" not in str(refusal)
