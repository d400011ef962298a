"""Ratings across events (issue 35): openskill's Plackett-Luce over each finished game's finishing order, per
person (the seats' names in the table facts), with the seat and society effects."""

import json
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner
from openskill.models import PlackettLuce

from whispers.application.recording import new
from whispers.application.review import fork
from whispers.cli.main import whispers
from whispers.ledger.core import events as ev
from whispers.ledger.io.game import import_lines
from whispers.ledger.io.store import open_store
from whispers.projections.ratings import Played, ratings_data
from whispers.projections.standings import Result


def scored(totals: dict[str, int], swaps: dict[str, int] | None = None) -> Result:
    """A finished official game with these totals (first listed plays first); `swaps` per society, else 0."""
    ranking = tuple(sorted(totals, key=totals.__getitem__, reverse=True))
    scores = {s: {"total": t, "empires": {}, "concealed": 3, "concealed_points": 0, "swaps": (swaps or {}).get(s, 0),
                  "cards": 1} for s, t in totals.items()}
    level = [s for s in ranking if totals[s] == totals[ranking[0]] and not (swaps or {}).get(s)]
    winner = ranking[0] if len(level) == 1 or swaps else None  # a tie no tie-break decides has no winner
    return Result(tuple(totals), "official", ("fewest_swaps", "most_cards"),
                  ev.GameScored(scores, ranking, winner, (), ()), True)


def played(name: str, totals: dict[str, int], names: dict[str, str], swaps: dict[str, int] | None = None) -> Played:
    return Played(name, scored(totals, swaps), names, next(iter(totals)))


def by_person(data: dict) -> dict[str, dict]:
    return {row["person"]: row for row in data["ratings"]}


def test_a_game_moves_ratings_as_the_model_does_for_its_finishing_order() -> None:
    """The ratings are openskill's own for the finishing order: the same numbers as rating the order directly."""
    data = ratings_data([played("g", {"raven": 40, "rat": 55, "spider": 30, "serpent": 45},
                                {"raven": "Ana", "rat": "Bo", "spider": "Cy", "serpent": "Dee"})])
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in range(4)], ranks=[3, 1, 4, 2])
    rows = by_person(data)
    for person, [rating] in zip(("Ana", "Bo", "Cy", "Dee"), expected, strict=True):
        assert rows[person]["mu"] == pytest.approx(rating.mu) and rows[person]["sigma"] == pytest.approx(rating.sigma)
        assert rows[person]["rating"] == pytest.approx(rating.mu - 3 * rating.sigma)
    assert [row["person"] for row in data["ratings"]] == ["Bo", "Dee", "Ana", "Cy"]
    assert [row["place"] for row in data["ratings"]] == ["1", "2", "3", "4"]
    assert rows["Bo"]["wins"] == 1 and all(row["games"] == 1 for row in data["ratings"])


def test_level_scores_go_by_the_rulesets_tie_breaks_EN_final_scoring() -> None:
    """EN "Final Scoring": level scores go to the fewer loyalty swaps. Ana and Bo score 50 each; Bo swapped
    once, so Ana finishes first and is rated above Bo."""
    data = ratings_data([played("g", {"raven": 50, "rat": 50, "spider": 30},
                                {"raven": "Ana", "rat": "Bo", "spider": "Cy"}, swaps={"rat": 1})])
    rows = by_person(data)
    assert rows["Ana"]["mu"] > rows["Bo"]["mu"] > rows["Cy"]["mu"]
    assert rows["Ana"]["wins"] == 1 and rows["Bo"]["wins"] == 0


def test_players_still_level_after_every_tie_break_tie_REV_scoring() -> None:
    """Level after every tie-break: one shared place, rated as a tie (equal ratings from equal priors), and
    marked as a shared place in the ratings; a shared first is no one's win."""
    data = ratings_data([played("g", {"raven": 50, "rat": 50, "spider": 30},
                                {"raven": "Ana", "rat": "Bo", "spider": "Cy"})])
    rows = by_person(data)
    assert rows["Ana"]["mu"] == pytest.approx(rows["Bo"]["mu"]) and rows["Ana"]["place"] == rows["Bo"]["place"] == "=1"
    assert rows["Ana"]["wins"] == rows["Bo"]["wins"] == 0
    model = PlackettLuce()
    [[tied], _, _] = model.rate([[model.rating()] for _ in range(3)], ranks=[1.5, 1.5, 3])
    assert rows["Ana"]["mu"] == pytest.approx(tied.mu)


def test_games_are_rated_in_order_each_person_across_tables_and_unnamed_seats_are_not_listed() -> None:
    games = [played("g1", {"raven": 50, "rat": 40, "spider": 30}, {"raven": "Ana", "rat": "Bo"}),
             played("g2", {"spider": 50, "raven": 40, "rat": 30}, {"spider": "Ana", "raven": "Cy", "rat": "Bo"}),
             played("g3", {"raven": 50, "rat": 40}, {})]
    data = ratings_data(games)
    rows = by_person(data)
    assert set(rows) == {"Ana", "Bo", "Cy"}  # g1's spider had no name: rated as a newcomer, never listed
    assert (data["rated"], data["unrated"]) == (2, 1)
    assert (rows["Ana"]["games"], rows["Ana"]["wins"], rows["Bo"]["games"]) == (2, 2, 2)
    assert [h["game"] for h in rows["Ana"]["history"]] == ["g1", "g2"]
    assert [h["society"] for h in rows["Ana"]["history"]] == ["raven", "spider"]
    assert rows["Ana"]["history"][-1]["mu"] == rows["Ana"]["mu"]
    # in order: Ana's second game starts from her first game's rating
    assert rows["Ana"]["history"][1]["mu"] > rows["Ana"]["history"][0]["mu"]
    assert rows["Ana"]["history"][1]["sigma"] < rows["Ana"]["history"][0]["sigma"]


def test_seat_and_society_effects_count_every_finished_game() -> None:
    """Seat 1 is the first player (the first society listed in these games); counts beside every rate."""
    games = [played("g1", {"raven": 50, "rat": 40, "spider": 30}, {}),
             played("g2", {"rat": 50, "raven": 40}, {}),
             played("g3", {"spider": 20, "raven": 40}, {})]
    effects = ratings_data(games)["effects"]
    assert effects["by_seat"] == [{"seat": 1, "games": 3, "wins": 2, "win_rate": 2 / 3},
                                  {"seat": 2, "games": 3, "wins": 1, "win_rate": 1 / 3},
                                  {"seat": 3, "games": 1, "wins": 0, "win_rate": 0}]
    assert {row["society"]: (row["games"], row["wins"]) for row in effects["by_society"]} == {
        "raven": (3, 2), "rat": (2, 1), "spider": (2, 0)}
    societies = ratings_data(games, by="society")
    assert {row["person"]: (row["games"], row["wins"]) for row in societies["ratings"]} == {
        "raven": (3, 2), "rat": (2, 1), "spider": (2, 0)}


def _bundled(name: str) -> list[str]:
    return resources.files("whispers.fixtures").joinpath("games", name).read_text(encoding="utf-8").splitlines()


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    url = str(tmp_path / "s.sqlite")
    monkeypatch.setenv("WHISPERS_STORE", url)
    with open_store(url) as store:
        for number in range(3):
            import_lines(store, f"t{number}", _bundled("official-4p.txt"))
    for number, seats in enumerate((["Ana", "Bo", "Cy", "Dee"], ["Bo", "Cy", "Dee", "Ana"],
                                    ["Cy", "Dee", "Ana", "Bo"])):
        args = [f"--seat={society}={name}" for society, name in zip(("raven", "rat", "spider", "serpent"), seats,
                                                                     strict=True)]
        assert CliRunner().invoke(whispers, ["meta", f"t{number}", *args]).exit_code == 0
    fork(url, "t0", "t0-what-if", 5)  # a fork is a "what if", not a game played: never rated
    new(url, "going", ["raven", "rat"], table={"seats": {"raven": "Eve"}})  # in progress: not rated
    return tmp_path


def test_the_ratings_command_in_json_csv_and_table(club: Path) -> None:
    result = CliRunner().invoke(whispers, ["ratings", "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.output)
    assert data["rated"] == 3 and {row["person"] for row in data["ratings"]} == {"Ana", "Bo", "Cy", "Dee"}
    # rat wins each bundled game: Bo, Cy then Dee sat at the rat
    assert {row["person"]: row["wins"] for row in data["ratings"]} == {"Ana": 0, "Bo": 1, "Cy": 1, "Dee": 1}
    assert all(row["games"] == 3 and len(row["history"]) == 3 for row in data["ratings"])
    assert data["effects"]["by_society"][0] == {"society": "rat", "games": 3, "wins": 3, "win_rate": 1.0}
    lines = CliRunner().invoke(whispers, ["ratings", "--csv"]).output.splitlines()
    assert lines[0] == "place,rank,person,rating,mu,sigma,games,wins" and len(lines) == 5
    text = CliRunner().invoke(whispers, ["ratings"], env={"COLUMNS": "120"}).output
    assert "ratings over 3 finished games" in text and "win rate by seat" in text and "Eve" not in text


def test_chart_ratings_draws_a_persons_history_and_refuses_an_unknown_one(club: Path) -> None:
    out = club / "ana.png"
    result = CliRunner().invoke(whispers, ["chart", "--ratings", "Ana", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    assert out.read_bytes().startswith(b"\x89PNG")
    refused = CliRunner().invoke(whispers, ["chart", "--ratings", "Eve", "-o", str(club / "eve.png")])
    assert refused.exit_code == 2 and "'Eve' has no rated game" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1 and not (club / "eve.png").exists()


def test_a_persons_name_is_drawn_as_written_never_read_as_mathtext(club: Path) -> None:
    """A "$" in a name is a dollar: matplotlib's mathtext would read "$\\frac{1}{0}$" (and refuse "$x^$")."""
    name = "$\\frac{1}{0}$ $x^$"
    assert CliRunner().invoke(whispers, ["meta", "t1", f"--seat=raven={name}"]).exit_code == 0
    result = CliRunner().invoke(whispers, ["chart", "--ratings", name, "-o", str(club / "n.svg")])
    assert result.exit_code == 0, result.stderr
    assert (club / "n.svg").read_bytes().startswith(b"<?xml")
