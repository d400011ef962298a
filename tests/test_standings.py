"""Tournament standings: places by each game's tie-breaks, points per place, entrants across tables."""

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from whispers.cli.main import whispers
from whispers.ledger.core import events as ev
from whispers.ledger.core.text import CONTROLS
from whispers.ledger.io.game import import_lines, replay_lines
from whispers.ledger.io.store import open_store
from whispers.projections.standings import TournamentError, load_tournament, placings, standings_data

GAMES = ("official-4p.txt", "official-2p.txt", "revised-3p.txt")


def bundled(name: str) -> list[ev.Event]:
    text = resources.files("whispers.fixtures").joinpath("games", name).read_text(encoding="utf-8")
    return list(replay_lines(name, text.splitlines()).events)


def test_places_follow_scores_and_default_points_are_players_minus_place() -> None:
    placed = placings("g", bundled("official-4p.txt"))
    assert [(p.society, p.place, p.points) for p in placed] == [
        ("rat", 1, 3), ("raven", 2, 2), ("serpent", 3, 1), ("spider", 4, 0)]
    assert [p.won for p in placed] == [True, False, False, False]


def test_a_revised_tie_with_no_winner_shares_first_place_REV_scoring() -> None:
    """REV "Scoring": "If there is still a tie, there is no winner." The bundled 3-player game ends 60-60."""
    placed = {p.society: p for p in placings("g", bundled("revised-3p.txt"))}
    level = [s for s, p in placed.items() if p.place == 1.5]
    assert len(level) == 2 and all(placed[s].points == 1.5 and not placed[s].won for s in level)
    (third,) = [p for p in placed.values() if p.place == 3]
    assert third.points == 0


def test_tie_breaks_decide_places_when_scores_are_level_EN_final_scoring() -> None:
    """EN "Final Scoring": level scores go to the fewer swaps, then the more cards in hand."""
    events = bundled("official-4p.txt")
    scored = events[-1]
    assert isinstance(scored, ev.GameScored)
    scores = {s: dict(v) for s, v in scored.scores.items()}
    scores["spider"]["total"] = scores["rat"]["total"]
    scores["spider"]["swaps"], scores["rat"]["swaps"] = 0, 1
    events[-1] = ev.GameScored(scores, scored.ranking, scored.winner, scored.tied, scored.trail)
    placed = {p.society: p.place for p in placings("g", events)}
    assert placed["spider"] == 1 and placed["rat"] == 2


def test_games_in_progress_are_listed_and_not_counted() -> None:
    events = bundled("official-2p.txt")
    data = standings_data({"done": events, "going": events[:60]})
    assert data["in_progress"] == ["going"]
    rows = data["rulesets"]["official"]
    assert [len(r["games"]) for r in rows] == [1, 1]


def test_standings_are_kept_by_ruleset() -> None:
    data = standings_data({name: bundled(name) for name in GAMES})
    assert set(data["rulesets"]) == {"official", "revised"}
    official = {r["entrant"]: r for r in data["rulesets"]["official"]}
    assert official["spider"]["games"][0]["game"] in ("official-4p.txt", "official-2p.txt")


TOURNAMENT = """
name = "Test Cup"
[points]
4 = [6, 3, 1, 0]
[[game]]
name = "t1"
seats = { raven = "Ana", rat = "Bo", spider = "Cy", serpent = "Dee" }
[[game]]
name = "t2"
seats = { raven = "Bo", rat = "Ana", spider = "Dee", serpent = "Cy" }
[[game]]
name = "t3"
"""


@pytest.fixture
def cup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WHISPERS_STORE", str(tmp_path / "s.sqlite"))
    text = resources.files("whispers.fixtures").joinpath("games", "official-4p.txt").read_text(encoding="utf-8")
    with open_store(str(tmp_path / "s.sqlite")) as store:
        import_lines(store, "t1", text.splitlines())
        import_lines(store, "t2", text.splitlines())
        import_lines(store, "t3", text.splitlines()[:60])
    (tmp_path / "cup.toml").write_text(TOURNAMENT, encoding="utf-8")
    return tmp_path


def test_the_tournament_command_ranks_entrants_across_tables(cup: Path) -> None:
    result = CliRunner().invoke(whispers, ["tournament", str(cup / "cup.toml"), "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.output)
    rows = {r["entrant"]: r for r in data["rulesets"]["official"]}
    # rat won both tables (Bo at t1, Ana at t2): 6 points each, one win each
    assert rows["Bo"]["points"] == rows["Ana"]["points"] == 6 + 3 and rows["Bo"]["wins"] == 1
    assert data["in_progress"] == ["t3"]
    assert rows["Bo"]["rank"] == rows["Ana"]["rank"] == 1
    text = CliRunner().invoke(whispers, ["tournament", str(cup / "cup.toml")]).output
    assert "Test Cup" in text and "In progress, not counted: t3" in text
    csv_text = CliRunner().invoke(whispers, ["tournament", str(cup / "cup.toml"), "--csv"]).output
    assert csv_text.splitlines()[0] == "ruleset,place,rank,entrant,points,wins,score,games,finalised"


def test_entrants_names_are_shown_as_typed_never_read_as_markup(cup: Path) -> None:
    """A name is data: brackets in it are not rich's markup (which "Bo[/]" once crashed with a traceback)."""
    marked = TOURNAMENT.replace('"Ana"', '"[red]Ana"').replace('"Bo"', '"Bo[/]"').replace("Test Cup", "[bold]Cup")
    (cup / "marked.toml").write_text(marked, encoding="utf-8")
    result = CliRunner().invoke(whispers, ["tournament", str(cup / "marked.toml")], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "[red]Ana" in result.output and "Bo[/]" in result.output and "[bold]Cup" in result.output


def test_the_standings_command(cup: Path) -> None:
    result = CliRunner().invoke(whispers, ["standings", "--games", "t1,t2,t3", "--json"])
    data = json.loads(result.output)
    assert data["rulesets"]["official"][0]["entrant"] == "rat" and data["rulesets"]["official"][0]["points"] == 6


@pytest.mark.parametrize(("text", "message"), [
    ("name = 1 [", "not valid TOML"),
    ('[[game]]\nname = "t1"\nseats = { wolf = "Ana" }', "seats maps societies"),
    ('[points]\n4 = [1, 2]\n[[game]]\nname = "t1"', "points.4 must list 4 numbers"),
    ('name = "x"', "no [[game]]"),
    ('colour = "red"\n[[game]]\nname = "t1"', "unknown key 'colour'"),
    # people's names are one printable line, as a seat's name in a game's table facts
    ('entrants = ["Ana\\u001b[2J", "Bo"]', "cup.toml: holds the control character '\\x1b'"),
    ('name = "Cup\\nNight"\n[[game]]\nname = "t1"', "name holds a line break"),
    ('[[game]]\nname = "t1"\nseats = { raven = "Ana\\u2028" }', "game t1: entrant 'Ana\\u2028' holds a line break"),
    ('entrants = [" Ana"]', "entrant ' Ana' starts or ends with a space"),
    ('name = 7\n[[game]]\nname = "t1"', "name is not text"),
])
def test_a_bad_tournament_file_is_one_line(cup: Path, text: str, message: str) -> None:
    with pytest.raises(TournamentError) as error:
        load_tournament(text, "cup.toml")
    assert message in str(error.value)
    (cup / "bad.toml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(whispers, ["tournament", str(cup / "bad.toml")])
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1


def test_an_unknown_game_in_standings_is_one_line(cup: Path) -> None:
    result = CliRunner().invoke(whispers, ["standings", "--games", "t1,nope"])
    assert result.exit_code == 2 and "no game named 'nope'" in result.stderr


@pytest.fixture(scope="module")
def cup_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The cup's two finished tables and one in progress, in a store the fuzzed files share."""
    path = tmp_path_factory.mktemp("cup") / "s.sqlite"
    text = resources.files("whispers.fixtures").joinpath("games", "official-4p.txt").read_text(encoding="utf-8")
    with open_store(str(path)) as store:
        import_lines(store, "t1", text.splitlines())
        import_lines(store, "t2", text.splitlines())
        import_lines(store, "t3", text.splitlines()[:60])
    return path


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(name=st.text(min_size=1, max_size=30))
def test_an_entrant_named_anything_is_refused_in_one_line_or_shown_exactly_as_typed(cup_store: Path, name: str
                                                                                   ) -> None:
    """Fuzzed: whatever a director types as a name (markup, emoji codes, escapes, quotes), `whispers tournament`
    prints it exactly as typed when it is one printable line (as a seat's name must be), and otherwise refuses
    the file in one line holding no control character."""
    from whispers.ledger.core.meta import text_problem

    folder = cup_store.parent / "fuzz"
    folder.mkdir(exist_ok=True)
    text = TOURNAMENT.replace('"Ana"', json.dumps(name, ensure_ascii=False))  # TOML reads JSON's escapes
    (folder / "cup.toml").write_text(text, encoding="utf-8", errors="surrogatepass")
    result = CliRunner().invoke(whispers, ["tournament", str(folder / "cup.toml"), "--store", str(cup_store)],
                                env={"COLUMNS": "250"})
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if text_problem(name, "name") is None and name not in ("Bo", "Cy", "Dee"):  # not another seat's
        assert result.exit_code == 0, result.output
        assert name in result.output
    else:
        assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1, result.output
        assert not any(c in CONTROLS for c in result.stderr)


def _scored(totals: dict[str, int]) -> ev.GameScored:
    """A final scoring with these totals (no tie-break can tell equal totals apart: same swaps, concealed, cards)."""
    ranking = tuple(sorted(totals, key=totals.__getitem__, reverse=True))
    scores = {s: {"total": t, "empires": {}, "concealed": 3, "concealed_points": 0, "swaps": 0, "cards": 1}
              for s, t in totals.items()}
    return ev.GameScored(scores, ranking, ranking[0], (), ())


def _result(totals: dict[str, int], finalised: bool = True) -> Any:
    from whispers.projections.standings import Result

    return Result(tuple(totals), "official", ("fewest_swaps", "most_cards"), _scored(totals), finalised)


SEATS = ("raven", "rat", "spider", "serpent")


def _cup(*games: dict[str, tuple[str, int]]) -> dict:
    """Standings of games given as {society: (entrant, total)}, every game finalised."""
    results = {f"g{n}": _result({s: t for s, (_, t) in g.items()}) for n, g in enumerate(games, start=1)}
    seats = {f"g{n}": {s: e for s, (e, _) in g.items()} for n, g in enumerate(games, start=1)}
    return standings_data(results, seats)


def test_level_on_points_more_wins_ranks_higher_however_the_scores_go() -> None:
    """docs/tournament.md, "How standings are computed" 3: points, then wins, then score. X wins one table and is
    last at the other (3 + 0 points, 1 win, scores 50 + 1); Y is third then second (1 + 2 points, no win, scores
    30 + 55): level on points, X is above on wins although Y scored more, and they do not share a place."""
    rows = _cup({"raven": ("X", 50), "rat": ("A", 40), "spider": ("Y", 30), "serpent": ("B", 10)},
                {"raven": ("X", 1), "rat": ("Y", 55), "spider": ("C", 60), "serpent": ("D", 5)})["rulesets"]["official"]
    by = {r["entrant"]: r for r in rows}
    # the ranking above is what the table gives: X 3 points with 1 win; Y 3 points with none, more score
    assert (by["X"]["points"], by["X"]["wins"], by["Y"]["points"], by["Y"]["wins"]) == (3, 1, 3, 0)
    assert by["Y"]["score"] > by["X"]["score"]
    order = [r["entrant"] for r in rows]
    assert order.index("X") < order.index("Y")
    assert by["X"]["rank"] != by["Y"]["rank"] and not by["X"]["tied"] and not by["Y"]["tied"]
    assert by["X"]["place"] == str(by["X"]["rank"])


def test_level_on_points_and_wins_the_higher_score_ranks_higher_and_places_differ() -> None:
    """docs/tournament.md, standings 3: level on points and wins, the sum of game scores decides (not the name:
    "Ana" sorts first, "Zed" scored more), and they do not share a place."""
    rows = _cup({"raven": ("Ana", 30), "rat": ("Zed", 20), "spider": ("C", 10), "serpent": ("D", 5)},
                {"raven": ("Ana", 20), "rat": ("Zed", 50), "spider": ("C", 10), "serpent": ("D", 5)})
    rows = rows["rulesets"]["official"]
    assert [r["entrant"] for r in rows][:2] == ["Zed", "Ana"]
    assert [(r["points"], r["wins"]) for r in rows[:2]] == [(5, 1), (5, 1)]
    assert [r["place"] for r in rows[:2]] == ["1", "2"] and not rows[0]["tied"]


def test_entrants_level_on_points_wins_and_score_share_a_marked_place() -> None:
    """Level on all three: one place, labelled "=N" on each, and the next entrant's place skips it."""
    rows = _cup({"raven": ("Ana", 30), "rat": ("Bo", 20), "spider": ("C", 10), "serpent": ("D", 5)},
                {"raven": ("Bo", 30), "rat": ("Ana", 20), "spider": ("C", 10), "serpent": ("D", 5)})
    rows = rows["rulesets"]["official"]
    assert [(r["entrant"], r["place"], r["tied"]) for r in rows] == [
        ("Ana", "=1", True), ("Bo", "=1", True), ("C", "3", False), ("D", "4", False)]


def test_a_game_finalised_then_reopened_is_not_finalised() -> None:
    """whispers (docs/tournament.md, the director's seal): the seal stands only while the last of the director's
    seal events is a GameFinalized; a reopened game counts as provisional again, and a second seal restores it."""
    from whispers.projections.standings import finalised, result_of

    events = bundled("official-4p.txt")
    sealed = [*events, ev.GameFinalized("Dana")]
    reopened = [*sealed, ev.GameReopened("Dana", "a misread card")]
    resealed = [*reopened, ev.GameFinalized("Dana")]
    assert [finalised(e) for e in (events, sealed, reopened, resealed)] == [False, True, False, True]
    # the catalog's result (what the commands read) says the same
    assert [result_of(e).finalised for e in (events, sealed, reopened, resealed)] == [False, True, False, True]
    data = standings_data({"sealed": sealed, "reopened": reopened})
    assert data["finalised"] == ["sealed"] and data["unfinalised"] == ["reopened"]
    rows = data["rulesets"]["official"]
    assert all(r["finalised"] == 1 and r["provisional"] for r in rows)
    assert all({g["game"]: g["finalised"] for g in r["games"]} == {"sealed": True, "reopened": False} for r in rows)


def test_the_finalised_column_in_csv_and_json_and_the_marked_places_in_the_table(cup: Path) -> None:
    """t1 finalised, t2 not: every entrant played both, so each row has 1 of 2 games finalised (provisional)."""
    with open_store(str(cup / "s.sqlite")) as store:
        from whispers.application.recording import finalize

        finalize(store, "t1", "Dana", "")
    data = json.loads(CliRunner().invoke(whispers, ["tournament", str(cup / "cup.toml"), "--json"]).output)
    rows = data["rulesets"]["official"]
    assert all(r["finalised"] == 1 and r["provisional"] for r in rows)
    # rat and raven swapped seats between t1 and t2 (as did spider and serpent): Ana and Bo share first, Cy and
    # Dee share third
    assert [r["place"] for r in rows] == ["=1", "=1", "=3", "=3"]
    lines = CliRunner().invoke(whispers, ["tournament", str(cup / "cup.toml"), "--csv"]).output.splitlines()
    assert lines[0] == "ruleset,place,rank,entrant,points,wins,score,games,finalised"
    assert lines[1].startswith("official,=1,1,") and lines[1].endswith(",2,1")
    text = CliRunner().invoke(whispers, ["tournament", str(cup / "cup.toml")], env={"COLUMNS": "200"}).output
    assert "=1" in text and "1/2" in text and "a place shared" in text


@pytest.mark.parametrize("name", GAMES)
def test_a_result_read_back_from_the_catalog_is_the_result_of_the_record(name: str) -> None:
    """The catalog keeps each game's result as data (result_data); read back (result_from_data, msgspec in C) its
    final scoring is the very event the record holds, and the one ev.from_fact reads: its trail's lists frozen."""
    from whispers.projections.standings import result_data, result_from_data, result_of

    events = bundled(name)
    kept = result_data(result_of(events))
    read = result_from_data(json.loads(json.dumps(kept)))  # as the catalog's JSON gives it
    scored = next(e for e in events if isinstance(e, ev.GameScored))
    assert read.scored == scored == ev.from_fact(dict(kept["scored"]))
    assert all(isinstance(step["societies"], tuple) for step in read.scored.trail if "societies" in step)
    assert read == result_of(events)


def test_each_entrants_places_are_listed_under_the_table_packed_to_the_width_a_place_never_split() -> None:
    """`tournament FILE` lists each entrant's places under the table (a season's entrant plays dozens of games):
    lines of at most the screen's width in cells (a wide character counts two), every place whole and in order,
    an entrant's further lines under its first place."""
    import re

    from rich.cells import cell_len

    from whispers.cli.tournament import places_lines

    names = ["Ana", "Bo", "Zoë 子"]
    places = [[f"r{n}-t1: {n % 4 + 1}{'*' * (n % 2)}" for n in range(1, 30)], ["r1-t1: 2"], []]
    lines = places_lines(names, places, 40)
    assert all(cell_len(line) <= 40 for line in lines) and len(lines) > 4
    assert re.findall(r"r\d+-t1: \d\*?", "\n".join(lines)) == places[0] + places[1]
    assert lines[0].startswith("  Ana     r1-t1: 2*,") and lines[1].startswith(" " * 10 + "r")
    assert [line for line in lines if not line.startswith("   ")] == [lines[0], "  Bo      r1-t1: 2", "  Zoë 子"]
