"""Free text in a picture is text, never DOT: whatever a reason, a game's name or a board's names hold, the
timeline and the map parse with Graphviz and keep the same nodes and edges."""

import functools
import os
import re
import shutil
import subprocess
from importlib import resources

import graphviz
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace
from sizes import sized

from whispers.ledger.core import events as ev
from whispers.ledger.core.notation import MAX_LINE
from whispers.ledger.io.game import Game, replay_lines
from whispers.projections.boardmap import board_map
from whispers.projections.render import escape, plain
from whispers.projections.timeline import timeline

HAVE_DOT = shutil.which("dot") is not None and shutil.which("neato") is not None
needs_graphviz = pytest.mark.skipif(
    not HAVE_DOT and os.environ.get("WHISPERS_REQUIRE_GRAPHVIZ") != "1", reason="Graphviz's programs are not installed"
)
EXAMPLES = int(os.environ.get("WHISPERS_FUZZ_EXAMPLES") or sized(100, 300)) // 6 or 1
DOT_FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))

# what DOT, its quoted strings and its HTML-like labels give a meaning to, and then anything at all
NASTY = st.sampled_from(['\\', '"', "'", "\n", "\r", "\t", "<", ">", "&", "&amp;", "]", "[", ";", "}", "{", "=",
                         "//", "/*", "#", "\x00", "\x01", "\x1b", "\x7f", "\ufffe", "\u2028", "<B>", "</TD>",
                         "\\N", "\\G", "\\l", "\\n", "\\\"", "-->", "<!--", "é", "🂡", " "])
TEXT = st.one_of(st.lists(st.one_of(NASTY, st.text(max_size=4)), max_size=12).map("".join), st.text(max_size=40))
REASON = NAME = TEXT.filter(lambda text: bool(text.strip()))  # as the rules and the board loader demand
TRICKS = ["]", "wrong\\", 'ends in a quote"', "<<B>bold</B>>", "<x>", "a\n\nb\\", "\\N \\G", "x\x00y",
          "]; evil [label=1"]


@pytest.fixture(scope="module")
def opening() -> Game:
    game = resources.files("whispers.fixtures").joinpath("games", "revised-3p.txt")
    lines = game.read_text(encoding="utf-8").splitlines()
    return replay_lines("g", lines[:40])


def _with_ruling(game: Game, reason: str) -> list[ev.Event]:
    """The game with a ruling whose reason is any text at all: today's rules refuse a reason with a line break or
    over 500 characters, but a store written by an older whispers may hold one, and the picture must still draw."""
    return [*game.events, ev.RulingApplied(reason, ev.Effects())]


LAYOUT_WARNING = "Warning: some nodes with margin"
"""neato's note that a long name made two regions touch: the layout's business, not the DOT's."""


@functools.cache
def _drawn(source: str, engine: str) -> dict[str, int]:
    """Graphviz's own count of the nodes, edges and clusters it drew; AssertionError when it cannot read the DOT.
    Kept per source: the plain picture each example is compared with is drawn once."""
    done = subprocess.run([engine, "-Tsvg"], input=source.encode("utf-8"), capture_output=True, timeout=60)
    complaints = [line for line in done.stderr.decode("utf-8", "replace").splitlines()
                  if line.strip() and not line.startswith(LAYOUT_WARNING)]
    assert done.returncode == 0 and not complaints, complaints
    svg = done.stdout.decode("utf-8")
    return {kind: len(re.findall(rf'<g id="[^"]*" class="{kind}[ "]', svg)) for kind in ("node", "edge", "cluster")}


@needs_graphviz
@DOT_FUZZ
@given(REASON)
@example("wrong\\")
@example('ends in a quote"')
@example("<<B>bold</B>>")
@example("x\x00y\n\\")
def test_any_ruling_reason_leaves_the_timeline_whole(opening: Game, reason: str) -> None:
    """A reason ending in a backslash once ended the tooltip's string: dot said "syntax error in line 44"."""
    expected = _drawn(timeline(_with_ruling(opening, "a plain reason")), "dot")
    assert _drawn(timeline(_with_ruling(opening, reason)), "dot") == expected


@needs_graphviz
@pytest.mark.parametrize("text", ["x" * (MAX_LINE - 20), "&" * (MAX_LINE - 20), "<]\\\n" * (MAX_LINE // 5)])
def test_long_rulings_piled_on_one_office_still_draw(opening: Game, text: str) -> None:
    """Graphviz 2.43 refuses a run of over 16384 characters in one string: five rulings as long as a notation
    line allows, on one office, made its tooltip that long."""
    events = [*opening.events, *(ev.RulingApplied(text, ev.Effects()) for _ in range(5))]
    assert _drawn(timeline(events), "dot") == _drawn(timeline(_with_ruling(opening, "a plain reason")), "dot")


@needs_graphviz
@DOT_FUZZ
@given(TEXT)
def test_any_game_name_leaves_the_timeline_whole(opening: Game, name: str) -> None:
    events = [replace(opening.events[0], name=name), *opening.events[1:]]
    assert _drawn(timeline(events), "dot") == _drawn(timeline(opening.events), "dot")


@needs_graphviz
@DOT_FUZZ
@given(NAME, NAME, TEXT)
def test_any_board_and_region_names_leave_the_map_whole(opening: Game, board: str, region: str, game: str) -> None:
    state = opening.state
    first, *_ = state.board.regions
    regions = {**state.board.regions, first: replace(state.board.regions[first], name=region)}
    odd = replace(state, name=game, board=replace(state.board, name=board, regions=regions))
    assert _drawn(board_map(odd), "neato") == _drawn(board_map(state), "neato")


@pytest.mark.parametrize("text", TRICKS)
def test_escaped_text_has_nothing_dot_or_html_would_read(text: str) -> None:
    """Without Graphviz: the HTML-like form holds no markup and no character XML refuses; the quoted form
    holds no unescaped quote, no odd run of backslashes at its end, no line end, and is never taken as HTML."""
    html = escape(text)
    assert "<" not in html and ">" not in html and "\x00" not in html
    assert not re.search(r"&(?!(amp|lt|gt|#93);)", html) and "]" not in html
    quoted = graphviz.quoting.quote(plain(text))
    assert (quoted.startswith('"') and quoted.endswith('"')) or re.fullmatch(r"\w+", quoted)
    inner = quoted[1:-1] if quoted.startswith('"') else quoted
    assert not re.search(r'(?<!\\)(\\\\)*"', inner), quoted  # every quote inside is escaped
    assert not re.search(r"(?<!\\)(\\\\)*\\$", inner), quoted  # no final backslash escapes the closing quote
    assert "\n" not in inner and "\r" not in inner
