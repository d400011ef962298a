"""Control characters (ESC, BEL, CR, C1...) in free text: a terminal acts on them, so no record keeps one and no
file whispers reads may carry one; an error quoting a file's bytes shows them escaped. Free text is data: it never
recolours, moves or links the reader's terminal."""

import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_cli import OPENING, invoke, ok, refused

from whispers.ledger.core.text import CONTROLS, FORMATS, JOINERS, LINE_BREAKS, control_in, shown
from whispers.ledger.io.store import open_store

ESC = "\x1b[31mRED\x1b]8;;http://evil\x07"


def refused_here(c: str) -> bool:
    """What no text may hold, from Python's own Unicode data: a control character but tab and line feed, or a
    format character (Cf) but the two joiners."""
    return (unicodedata.category(c) == "Cc" and c not in "\t\n") or (
        unicodedata.category(c) == "Cf" and c not in "\u200c\u200d")


@given(st.text())
def test_control_in_finds_exactly_the_control_and_format_characters_but_tab_line_feed_and_joiners(text: str) -> None:
    wanted = next((c for c in text if refused_here(c)), None)
    assert control_in(text) == wanted == control_in({"k": [("x", {text: 1})]})


@given(st.text(st.characters(whitelist_categories=("Cf",))) | st.sampled_from(sorted(FORMATS | JOINERS)))
def test_every_format_character_but_the_joiners_is_refused(text: str) -> None:
    assert control_in(text) == next((c for c in text if c not in JOINERS), None)


def test_the_format_characters_are_exactly_unicode_s_category_cf_but_the_joiners() -> None:
    """A newer Python's Unicode data adding a format character names it here, to be added to ledger/core/text.py."""
    cf = {chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf"}
    assert cf - JOINERS == FORMATS and cf >= JOINERS
    assert {"\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200b", "\u200e", "\ufeff", "\U000e0041"} <= CONTROLS


@given(st.text())
def test_shown_text_holds_no_control_character_or_line_break(text: str) -> None:
    out = shown(text)
    assert not any(c in CONTROLS or c in LINE_BREAKS for c in out)
    assert (out == text) == (not any(c in CONTROLS or c in LINE_BREAKS for c in text))


@pytest.fixture
def game(tmp_path: Path) -> Path:
    store = tmp_path / "s.sqlite"
    (tmp_path / "g.txt").write_text(OPENING, encoding="utf-8")
    ok(invoke(store, "import", str(tmp_path / "g.txt")))
    return store


def record_of(store: Path) -> tuple[list, list]:
    with open_store(str(store)) as s:
        return s.facts("g"), s.notes("g")


@pytest.mark.parametrize("args", [
    ["annotate", "g", "3", f"look {ESC}"],
    ["annotate", "g", "3", "fine", "--author", f"Ann{ESC}"],
    ["move", "g", f'undo "misread {ESC}"'],
    ["move", "g", f'ruling "the table agreed {ESC}" add=bear:frost-gate:1'],
    ["annotate", "g", "3", "carriage\rreturn"],
])
def test_a_control_character_in_any_text_is_refused_in_one_line_and_the_record_untouched(
        game: Path, args: list[str]) -> None:
    before = record_of(game)
    err = refused(invoke(game, *args), "control character")
    assert "\x1b" not in err and "\x07" not in err and "\r" not in err
    assert record_of(game) == before


@pytest.mark.parametrize("args", [
    ["annotate", "g", "3", "looks fine \u202eenif"],
    ["annotate", "g", "3", "fine", "--author", "An\u200ba"],
    ["annotate", "g", "3", "\ufeffbom"],
    ["annotate", "g", "3", "a \u2066hidden\u2069 part"],
    ["annotate", "g", "3", "tags\U000e0069\U000e0067\U000e006e"],
    ["move", "g", 'undo "misread \u202e"'],
    ["move", "g", 'ruling "the table \u2067agreed" add=bear:frost-gate:1'],
])
def test_a_bidirectional_override_or_zero_width_character_is_refused_as_a_control_character_is(
        game: Path, args: list[str]) -> None:
    """Issue 31: a text that shows in another order than it is stored, or hides a character, is not kept."""
    before = record_of(game)
    err = refused(invoke(game, *args), "control character")
    assert not any(c in FORMATS for c in err)
    assert record_of(game) == before


def test_an_emoji_zwj_sequence_and_a_persian_zwnj_stay_allowed_in_a_note(game: Path) -> None:
    text = "gg \U0001f468\u200d\U0001f469\u200d\U0001f467 \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"
    ok(invoke(game, "annotate", "g", "3", text, "--author", "\U0001f9d1\u200d\U0001f4bb"))
    assert (record_of(game)[1][-1]["text"], record_of(game)[1][-1]["author"]) == (
        text, "\U0001f9d1\u200d\U0001f4bb")


def test_tab_and_line_feed_stay_allowed_in_a_note(game: Path) -> None:
    ok(invoke(game, "annotate", "g", "3", "first line\n\tindented second"))
    assert record_of(game)[1][-1]["text"] == "first line\n\tindented second"


def test_a_record_file_carrying_a_control_character_is_refused_whole(game: Path, tmp_path: Path) -> None:
    """A record file made elsewhere, its hash chain whole, with an escape sequence in a note and in a move's
    reason: never imported."""
    from whispers.ledger.core import events as ev
    from whispers.ledger.io import recordfile

    facts, _notes = record_of(game)
    ok(invoke(game, "annotate", "g", "3", "plain"))
    note = {**record_of(game)[1][-1], "text": f"look {ESC}"}
    last_move = max(i for i, fact in enumerate(facts, start=1) if getattr(ev.from_fact(fact), "MOVE", False))
    undo = {"type": "MoveTakenBack", "move": last_move, "reason": f"misread {ESC}", "reopen": False}
    for name, made in (("noted", recordfile.dumps("noted", facts, [note])),
                       ("undone", recordfile.dumps("undone", [*facts, undo]))):
        (tmp_path / f"{name}.whispers").write_bytes(made)
        other = tmp_path / f"{name}.sqlite"
        err = refused(invoke(other, "import", str(tmp_path / f"{name}.whispers")), "control character")
        assert "\x1b" not in err
        assert not other.exists() or name not in open_store(str(other)).names()


@pytest.mark.parametrize("kind", ["board", "tournament", "notation"])
def test_a_file_carrying_a_control_character_is_refused_and_the_error_shows_it_escaped(
        game: Path, tmp_path: Path, kind: str) -> None:
    if kind == "board":
        from whispers.ledger.io.board_files import template_text

        path = tmp_path / "b.toml"
        path.write_text(template_text().replace('name = "The printed board"', 'name = "Evil \\u001b[31m"'),
                        encoding="utf-8")
        assert "u001b" in path.read_text(encoding="utf-8")
        result = invoke(game, "board", "check", str(path))
    elif kind == "tournament":
        path = tmp_path / "t.toml"
        path.write_text('[[game]]\nname = "x\\u001b[31mRED"\nbogus = 1\n', encoding="utf-8")
        result = invoke(game, "tournament", str(path))
    else:
        path = tmp_path / "n.txt"
        path.write_text("game ruleset=official board=st\x1b[31mandin players=raven,spider\n", encoding="utf-8")
        result = invoke(game, "import", str(path), "--game", "n")
    err = refused(result)
    assert "\x1b" not in err and ("control character" in err or "\\x1b" in err)


def test_a_board_s_name_is_shown_as_written_never_as_emoji_or_markup(tmp_path: Path) -> None:
    """`board show`: a name holding an emoji code, rich markup and a trailing backslash is printed as written."""
    shipped = (Path(__file__).resolve().parent.parent / "fixtures" / "boards" / "standin.toml").read_text("utf-8")
    path = tmp_path / "evil.toml"
    lines = ['id = "evil"' if line.startswith("id = ") else
             'name = "Evil :pile_of_poo: [bold]x\\\\"' if line.startswith("name = ") else line
             for line in shipped.splitlines()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = ok(invoke(tmp_path / "s.sqlite", "board", "show", str(path)))
    assert out.splitlines()[0].startswith("Evil :pile_of_poo: [bold]x\\ (evil, sha256:")


def test_a_content_file_holding_a_bidirectional_override_is_refused_escaped(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('name = "Winter Cup \u202epuc"\n', encoding="utf-8")
    err = refused(invoke(tmp_path / "s.sqlite", "tournament", str(path)), "control character", "\\u202e")
    assert "\u202e" not in err
