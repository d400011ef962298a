"""Long input costs linear time or is refused: a notation line has a length limit, its words are read in one
pass, and a record file's notes are stored in one save."""

import shlex
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from sizes import sized

from whispers.cli.main import whispers
from whispers.ledger.core import commands as c
from whispers.ledger.core import randomgame, rules
from whispers.ledger.core.errors import NotationError
from whispers.ledger.core.notation import MAX_LINE, parse_line, parse_lines, split
from whispers.ledger.io.board_files import load_board
from whispers.ledger.io.game import import_record, read_facts, replay_lines
from whispers.ledger.io.recordfile import dumps
from whispers.ledger.io.ruleset_files import load_ruleset
from whispers.ledger.io.store import open_store
from whispers.ledger.io.verify import verify

GAME = resources.files("whispers.fixtures").joinpath("games", "revised-3p.txt").read_text(encoding="utf-8").splitlines()

# the characters that mean something to the reader, and a few that do not
SHELL_TEXT = st.text(alphabet=st.sampled_from(" \t'\"\\#=a:é"), max_size=16)


@settings(max_examples=sized(300, 2000), deadline=None)
@given(SHELL_TEXT)
def test_words_are_read_as_shlex_read_them(line: str) -> None:
    """The one-pass reader gives the words (and refusals) shlex.split(comments=True) gave."""
    try:
        expected: list[str] | str = shlex.split(line, comments=True)
    except ValueError as exc:
        expected = f"cannot read the line: {exc}"
    try:
        got: list[str] | str = split(line)
    except NotationError as exc:
        got = str(exc)
    assert got == expected


@given(st.text(max_size=40))
def test_a_quoted_reason_reads_back_whole(reason: str) -> None:
    assert split(f"undo {shlex.quote(reason)}") == ["undo", reason]


def _undo_line(length: int) -> str:
    """An undo line of exactly `length` characters, its reason full of what needs quoting."""
    head = "undo '"
    body = ("it's \\ \"x\" # " * length)[: length - len(head) - 1].replace("'", "_")
    line = f"{head}{body}'"
    assert len(line) == length
    return line


def test_the_longest_line_allowed_is_read_and_one_more_character_is_refused_naming_the_limit() -> None:
    longest = _undo_line(MAX_LINE)
    assert parse_line(longest) == c.Undo(longest[6:-1])
    with pytest.raises(NotationError) as refused:
        parse_line(_undo_line(MAX_LINE + 1))
    assert str(refused.value) == (f"the line is {MAX_LINE + 1} characters long: a notation line may be at most "
                                  f"{MAX_LINE}")
    with pytest.raises(NotationError) as refused:
        list(parse_lines(["# a game", "", _undo_line(MAX_LINE + 1)]))
    assert str(refused.value) == (f"line 3 is {MAX_LINE + 1} characters long: a notation line may be at most "
                                  f"{MAX_LINE}")


def test_importing_a_megabyte_line_is_refused_in_one_line_and_stores_nothing(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    store = tmp_path / "s.sqlite"
    monkeypatch.setenv("WHISPERS_STORE", str(store))
    path = tmp_path / "long.txt"
    lines = [*GAME[:5], 'undo "' + "x" * (1 << 20) + '"', *GAME[5:]]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(whispers, ["import", str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"Error: line 6 is {(1 << 20) + 7} characters long: a notation line may be at most {MAX_LINE}"]
    with open_store(str(store)) as s:
        assert s.names() == []


def _verified_game(reason: str) -> list[dict]:
    facts = []
    for _, produced, after in randomgame.play(("raven", "rat"), load_ruleset("revised"), load_board("standin"), 3):
        facts += [e.to_fact() for e in produced]
        if len(facts) > 30:
            return facts + [e.to_fact() for e in rules.decide(after, c.Undo(reason))]
    raise AssertionError("the game ended before 30 events")


def test_the_longest_reason_quoted_at_its_worst_still_fits_a_line_and_verifies() -> None:
    """A reason may be written back longer than typed (each ' quoted as '"'"'): the longest reason the rules allow,
    all quotes, still fits a notation line, reads back whole and verifies."""
    from whispers.ledger.core.rules import REASON_LIMIT
    from whispers.projections.log import format_record

    reason = "'" * REASON_LIMIT
    facts = _verified_game(reason)
    assert verify(facts, "test").events == len(facts)
    line = list(format_record(read_facts(facts, "test")))[-1]
    assert len(line) <= MAX_LINE and parse_line(line).reason == reason  # type: ignore[union-attr]


def test_importing_a_record_file_reads_its_notes_stream_once_however_many(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each note used to reload every note stored before it: 8,000 notes took ten minutes."""
    facts = _verified_game("slip")
    reads = {}
    for count in (10, 200):
        notes = [{"at": 1 + i % len(facts), "text": f"note {i}", "author": None, "tag": None,
                  "time": "2026-11-22T17:00:00+00:00"} for i in range(count)]
        with open_store("memory:") as store:
            repository = store._events.repository
            real_get = repository.get
            calls = []

            def counting_get(*args, **kwargs):
                calls.append(args)  # noqa: B023  # read within this iteration
                return real_get(*args, **kwargs)  # noqa: B023

            monkeypatch.setattr(repository, "get", counting_get)
            import_record(store, dumps("g", facts, notes), "test")
            assert store.notes("g") == notes
            reads[count] = len(calls)
    assert reads[200] == reads[10], reads


def _ruled(count: int) -> list[str]:
    return [*GAME[:40], *(f'ruling "table ruling {i}"' for i in range(count))]


def test_a_long_record_takes_memory_linear_in_its_moves() -> None:
    """Every state kept for take-backs held a tuple of all the moves before it: a notation file of 64,000
    rulings (1.8 MB) ran out of memory. Measured in bytes, not seconds: twice the moves, about twice the peak
    (750 and 1,500 rulings; 1,500 and 3,000 with --slow), where states holding every move before them take
    about three times."""
    import tracemalloc

    peaks, fewer = {}, sized(750, 1500)
    for count in (fewer, 2 * fewer):
        lines = _ruled(count)
        tracemalloc.start()
        game = replay_lines("g", lines)
        peaks[count] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert game.version > count
    assert peaks[2 * fewer] < 2.6 * peaks[fewer], peaks


def test_take_backs_in_a_row_still_undo_one_move_each() -> None:
    game = replay_lines("g", [*_ruled(5), 'undo "one"', 'undo "two"', 'undo "three"'])
    expected = replay_lines("g", _ruled(2))
    assert game.state.moves == expected.state.moves
    assert game.state.council == expected.state.council and game.state.prior == expected.state.prior
