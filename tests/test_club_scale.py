"""At a club's scale (issue 35): `games` lists the latest 50 unless told otherwise, and the standings read the
catalog rows of the games they rank, by name, never every game's."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from whispers.application import table
from whispers.application.recording import new
from whispers.cli.main import whispers
from whispers.ledger.io.store import Store, open_store


def run(store: str, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(whispers, list(args), env={"WHISPERS_STORE": store, "COLUMNS": "200"})
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> str:
    """60 games g0..g59, created in that order; g58 archived, Ana at g3 and g57."""
    url = str(tmp_path_factory.mktemp("club") / "club.sqlite")
    for number in range(60):
        seats = {"raven": "Ana"} if number in (3, 57) else {"raven": "Bo"}
        new(url, f"g{number}", ["raven", "rat", "spider"], table={"seats": seats, "event": "Club night"})
    table.archive(url, "g58")
    return url


def names(text: str) -> list[str]:
    return [line.split()[0] for line in text.splitlines() if line.startswith("g")]


def test_games_lists_the_latest_50_and_says_how_to_see_more(club: str) -> None:
    code, out, _ = run(club, "games")
    assert code == 0
    # the 50 latest created but the archived one, oldest first as the store orders them
    assert names(out) == [f"g{n}" for n in range(9, 60) if n != 58]
    assert "The latest 50 shown: --limit N for more, --all for every game." in out
    rows = json.loads(run(club, "games", "--json")[1])
    assert [r["game"] for r in rows] == names(out)


def test_games_limit_all_and_the_filters(club: str) -> None:
    assert names(run(club, "games", "--limit", "3")[1]) == ["g56", "g57", "g59"]
    everything = run(club, "games", "--all")[1]
    assert len(names(everything)) == 60 and "g58" in names(everything) and "The latest" not in everything
    assert names(run(club, "games", "--all", "--limit", "2")[1]) == ["g58", "g59"]
    # a filter picks among every game, then the limit keeps the latest it kept
    assert names(run(club, "games", "--player", "Ana")[1]) == ["g3", "g57"]
    assert names(run(club, "games", "--player", "Ana", "--limit", "1")[1]) == ["g57"]
    assert names(run(club, "games", "--limit", "3", "--sort", "name")[1]) == ["g56", "g57", "g59"]
    assert names(run(club, "games", "--limit", "60")[1]) == [f"g{n}" for n in range(60) if n != 58]


@pytest.mark.parametrize("limit", ["0", "-4"])
def test_a_limit_below_one_is_one_line(club: str, limit: str) -> None:
    code, out, err = run(club, "games", "--limit", limit)
    assert code == 2 and out == "" and "--limit" in err and len(err.strip().splitlines()) == 1


def test_standings_read_only_the_rows_of_the_games_they_rank(club: str, monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    """The catalog is asked for the named games' rows and gives those alone, however many the store holds."""
    asked: list[tuple[str, object, object, int]] = []
    read_model = Store.read_model

    def spy(self: Store, projection: str, games: object = None, last: object = None,
            skip: int = 0) -> list[tuple[str, str]]:
        rows = read_model(self, projection, games, last, skip)
        asked.append((projection, games, last, len(rows)))
        return rows

    monkeypatch.setattr(Store, "read_model", spy)
    code, out, _ = run(club, "standings", "--games", "g2,g40", "--json")
    assert code == 0 and json.loads(out)["in_progress"] == ["g2", "g40"]
    assert asked and all(games is not None for _, games, _, _ in asked)
    assert [(projection, rows) for projection, _, _, rows in asked] == [("catalog", 2)]
    asked.clear()
    (tmp_path / "cup.toml").write_text('name = "Club"\n[[game]]\nname = "g7"\nround = 1\n[[game]]\nname = "r2-t1"\n'
                                       'round = 2\n', encoding="utf-8")
    code, out, _ = run(club, "tournament", str(tmp_path / "cup.toml"), "--json")
    data = json.loads(out)
    assert code == 0 and data["in_progress"] == ["g7"] and data["not_started"] == ["r2-t1"]
    assert [(projection, rows) for projection, _, _, rows in asked] == [("catalog", 1)]


def test_read_model_by_name_and_latest_agree_with_the_whole(club: str) -> None:
    with open_store(club) as store:
        whole = store.read_model("listing")
        assert store.read_model("listing", ["g40", "g2", "nope"]) == [whole[2], whole[40]]
        assert store.read_model("listing", last=3) == whole[-3:]
        assert store.read_model("listing", last=3, skip=5) == whole[-8:-5]  # a page of the listing
        assert store.read_model("listing", last=3, skip=59) == whole[:1]
        assert store.read_model("listing", [f"g{n}" for n in range(60)] * 10)[:3] == whole[:3]
        assert store.read_model_size("listing") == 60


@pytest.mark.postgres
def test_read_model_by_name_and_latest_on_postgresql(pg_own_url: str) -> None:
    for number in range(5):
        new(pg_own_url, f"p{number}", ["raven", "rat"])
    code, out, _ = run(pg_own_url, "games", "--limit", "2")
    assert code == 0 and names(out.replace("p", "g")) == ["g3", "g4"]
    with open_store(pg_own_url) as store:
        whole = store.read_model("listing")
        assert [game for game, _ in whole] == [f"p{n}" for n in range(5)]
        assert store.read_model("listing", ["p3", "p0", "p3"]) == [whole[0], whole[3]]
        assert store.read_model("listing", last=2) == whole[-2:] and store.read_model_size("listing") == 5
        assert store.read_model("listing", last=2, skip=2) == whole[1:3]
