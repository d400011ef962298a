"""Tournament standings: places by each game's tie-breaks, points per place, entrants across tables."""

import json
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from whispers.cli.main import whispers
from whispers.ledger import events as ev
from whispers.ledger.game import import_lines, replay_lines
from whispers.ledger.store import open_store
from whispers.ledger.text import CONTROLS
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
    assert csv_text.splitlines()[0] == "ruleset,rank,entrant,points,wins,score,games"


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
    from whispers.ledger.meta import text_problem

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
