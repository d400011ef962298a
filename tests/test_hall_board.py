"""The public board for the hall (issue 35): `serve --tournament FILE` gives one more link, public and read-only,
with the current round's tables and the standings; it shows spectator facts only, tested differentially."""

import re
from importlib import resources
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from whispers.application.board import board_allows, board_token, public_board
from whispers.ledger.io.game import import_lines
from whispers.ledger.io.store import Store, open_store
from whispers.web.app import create_app

DIRECTOR = "d" * 32
RAVEN = "raven loyalty devout=bear dutiful=eagle affiliated=lion unallied=horse opposed=elephant"
OTHER_RAVEN = "raven loyalty devout=eagle dutiful=bear affiliated=lion unallied=horse opposed=elephant"
CUP = """name = "Spring <Cup>"
entrants = ["Ana", "Bo", "Cy", "Dee", "Eve", "Fin", "Gus", "<i>Hal</i>"]

[[game]]
name = "r1-t1"
round = 1
first = "raven"
seats = { raven = "Ana", spider = "Bo", rat = "Cy", serpent = "Dee" }

[[game]]
name = "r1-t2"
round = 1
first = "raven"
seats = { raven = "Eve", spider = "Fin", rat = "Gus", serpent = "<i>Hal</i>" }
"""


def bundled() -> list[str]:
    return resources.files("whispers.fixtures").joinpath("games", "official-4p.txt").read_text(
        encoding="utf-8").splitlines()


def store_with(t1: list[str], t2: list[str]) -> Store:
    store = open_store("memory:")
    import_lines(store, "r1-t1", t1)
    import_lines(store, "r1-t2", t2)
    return store


def board_of(store: Store, file: Path) -> str:
    client = TestClient(create_app(store, DIRECTOR, file))
    answer = client.get(f"/hall/{board_token(DIRECTOR)}/")
    assert answer.status_code == 200
    assert answer.headers["content-security-policy"].startswith("default-src 'none'")
    return answer.text


@pytest.fixture
def cup(tmp_path: Path) -> Path:
    (tmp_path / "cup.toml").write_text(CUP, encoding="utf-8")
    return tmp_path / "cup.toml"


def test_the_board_shows_the_rounds_tables_and_the_labelled_standings(cup: Path) -> None:
    lines = bundled()
    page = board_of(store_with(lines, lines[:120]), cup)
    assert "Spring &lt;Cup&gt;" in page and "<i>Hal</i>" not in page and "&lt;i&gt;Hal&lt;/i&gt;" in page
    tables = re.findall(r'<article class="table (\w+)">\s*<h2>table (\d)', page)
    assert tables == [("over", "1"), ("playing", "2")]
    assert "game over" in page and "playing · round" in page
    # seats in seat order from the first player, with the entrants' names
    first_table = page.split('<article class="table over">')[1].split("</article>")[0]
    assert re.findall(r"<strong>(\w*)</strong>", first_table) == ["Ana", "Bo", "Cy", "Dee"]
    # standings: r1-t1 only (r1-t2 is in progress), rat (Cy) won it; nothing finalised yet, so provisional
    places = re.findall(r'<td class="place[^"]*">([=\d]+)</td><th scope="row">(\w+)</th>', page)
    assert places[0] == ("1", "Cy") and len(places) == 4
    assert page.count('<tr class="provisional">') == 4 and "0/1" in page
    board = public_board(store_with(lines, lines[:120]), cup)
    assert board.round == 1 and board.standings["in_progress"] == ["r1-t2"]


def test_a_hidden_loyalty_changes_nothing_on_the_board_before_the_game_ends(cup: Path) -> None:
    """Spectator facts only: two stores alike but for raven's loyalty set in r1-t2, a game in progress (set and
    kept secret, as the record holds it), give the same board, byte for byte."""
    lines = bundled()
    changed = [OTHER_RAVEN if line == RAVEN else line for line in lines]
    assert changed != lines
    for cut in (24, 60, 150, len(lines) - 2):
        assert board_of(store_with(lines, lines[:cut]), cup) == board_of(store_with(lines, changed[:cut]), cup), cut


def test_once_the_game_ends_its_result_shows_the_control_of_the_differential(cup: Path) -> None:
    """The same difference once r1-t2 is over: the final scoring is public, and the standings show it. (So the
    test above compares boards that would differ if the board read a secret.)"""
    lines = bundled()
    changed = [OTHER_RAVEN if line == RAVEN else line for line in lines]
    assert board_of(store_with(lines, lines), cup) != board_of(store_with(lines, changed), cup)


def test_the_board_link_is_its_own_and_wrong_ones_are_not_found(cup: Path) -> None:
    store = store_with(bundled(), bundled()[:60])
    client = TestClient(create_app(store, DIRECTOR, cup))
    token = board_token(DIRECTOR)
    assert DIRECTOR not in token and board_allows(DIRECTOR, token) and not board_allows(DIRECTOR, DIRECTOR)
    for path in (f"/hall/{DIRECTOR}/", f"/hall/{token[:-1]}x/", "/hall/x/", f"/hall/{token}/live/x"):
        answer = client.get(path)
        assert answer.status_code == 404 and "Not found" in answer.text
    # the board is read-only: no route takes a write
    assert client.post(f"/hall/{token}/", json={}).status_code in (404, 405)
    # a server without --tournament has no board
    assert TestClient(create_app(store, DIRECTOR)).get(f"/hall/{token}/").status_code == 404


def test_the_board_speaks_the_readers_language(cup: Path) -> None:
    page = TestClient(create_app(store_with(bundled(), bundled()[:60]), DIRECTOR, cup)).get(
        f"/hall/{board_token(DIRECTOR)}/?lang=fr").text
    assert 'lang="fr"' in page and "Corbeau Blanc" in page and "classement" in page.lower()
