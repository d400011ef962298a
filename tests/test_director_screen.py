"""The director's screen at a tournament's scale (issues 12, 35): every game's line is read from the catalog's
listing, its last-written time included, one page at a time (only that page's rows when no tab or search is asked),
by state and by a search; no game is read to show it."""

from __future__ import annotations

import random
import re
from datetime import UTC
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sizes import slow
from starlette.testclient import TestClient

from tests.store_rows import rows_of
from whispers.application import director, recording, table
from whispers.ledger.core.errors import WhispersError
from whispers.ledger.core.randomgame import random_command
from whispers.ledger.io.game import load
from whispers.ledger.io.store import Store, open_store
from whispers.web.app import create_app

DIRECTOR = "d" * 32
HALL = f"/director/{DIRECTOR}/"


def hall_of(count: int) -> Store:
    """`count` games in setup, g0 first, each with a table and a seat's name to find it by."""
    store = open_store("memory:")
    for n in range(count):
        recording.new(store, f"g{n}", ["raven", "spider"])
        table.describe(store, f"g{n}", {"table": f"Table {n}", "seats": {"raven": f"Ana{n}", "spider": "Bo"}})
    return store


def names(shown: director.Hall) -> list[str]:
    return [row["game"] for row in shown.rows]


def test_the_pages_hold_every_game_once_the_latest_created_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(director, "PAGE", 2)
    store = hall_of(5)
    table.describe(store, "g1", {"event": "Spring Cup"})  # written again: its place is where it was created
    pages = [director.hall(store, page=n) for n in (1, 2, 3)]
    assert [names(p) for p in pages] == [["g4", "g3"], ["g2", "g1"], ["g0"]]
    assert all((p.pages, p.found, p.counts) == (3, 5, {"all": 5}) for p in pages)
    assert director.hall(store, page=99).page == 3  # past the last: the last (a link from before games were added)
    # the line's time is when the game's last event was stored, as the store says it
    for p in pages:
        for row in p.rows:
            assert row["last_move"] == store.last_written(row["game"]).astimezone(UTC).isoformat(timespec="seconds")


def test_a_page_reads_only_its_own_rows_and_its_links_lead_through_every_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: the director's page of a club's store asks the catalog for its page's rows alone (by the index of
    creation), and its older/newer links step through every game once. Four pages and a part: 230 games at the
    screen's 50 a page under `--slow`, 46 at 10 a page by default."""
    if not slow():
        monkeypatch.setattr(director, "PAGE", 10)
    count = director.PAGE * 46 // 10
    store = open_store("memory:")
    for n in range(count):
        recording.new(store, f"g{n}", ["raven", "spider"])
    director.hall(store)  # the catalog catches up
    asked: list[tuple[object, object, int, int]] = []
    read_model = Store.read_model

    def spy(self: Store, projection: str, games: object = None, last: object = None,
            skip: int = 0) -> list[tuple[str, str]]:
        rows = read_model(self, projection, games, last, skip)
        asked.append((games, last, skip, len(rows)))
        return rows

    monkeypatch.setattr(Store, "read_model", spy)
    client = TestClient(create_app(store, DIRECTOR))
    seen: list[str] = []
    link: str | None = "?lang=en"
    while link is not None:
        asked.clear()
        page = client.get(HALL + unescape(link)).text
        shown = re.findall(r'<th scope="row"><a href="/director/d+/g/(g[0-9]+)/replay', page)
        assert asked == [(None, director.PAGE, len(seen), len(shown))]  # this page's rows, nothing more
        seen += shown
        found = re.search(r'<a rel="next" href="([^"]*)"', page)
        link = found[1] if found else None
    assert seen == [f"g{n}" for n in reversed(range(count))] and len(asked) == 1
    assert asked[0][3] == count % director.PAGE
    back = re.search(r'<a rel="prev" href="([^"]*)"', page)
    assert back is not None and "page=4" in back[1] and "page 5 of 5" in page
    newest = count - 3 * director.PAGE - 1  # the newest game of page 4
    assert re.findall(r'/g/(g[0-9]+)/replay', client.get(HALL + unescape(back[1])).text)[0] == f"g{newest}"


def test_a_tab_keeps_the_games_of_one_state_and_the_search_finds_by_name_table_event_or_seat() -> None:
    store = hall_of(3)
    rng = random.Random(7)
    while (state := load(store, "g2").state).phase == "setup":
        recording.record_move(store, "g2", random_command(state, rng, named=True))
    shown = director.hall(store, state="playing")
    assert names(shown) == ["g2"] and shown.rows[0]["state"] == "playing" and shown.found == 1
    assert names(director.hall(store, state="setup")) == ["g1", "g0"]
    assert director.hall(store, state="setup").counts == {"all": 3, "playing": 1, "setup": 2, "over": 0}
    assert director.hall(store).counts == {"all": 3}  # the whole store's count alone: no row but the page's read
    assert names(director.hall(store, text="table 1")) == ["g1"]
    assert names(director.hall(store, text="ANA2")) == ["g2"]
    assert names(director.hall(store, text="  bo ")) == ["g2", "g1", "g0"]
    table.describe(store, "g0", {"event": "Spring Cup"})
    assert names(director.hall(store, text="spring")) == ["g0"]
    assert director.hall(store, state="over", text="g").found == 0


def test_the_screen_reads_no_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the catalog holds them, the screen is the listing: a game read per line cost 1.5 s over 10,000 games."""
    store = hall_of(3)
    director.hall(store)  # the catalog catches up

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("a game was read")

    for reader in ("facts", "events", "written_events", "last_written"):
        monkeypatch.setattr(Store, reader, refused)
    monkeypatch.setattr(type(store._backend), "rows", refused)
    assert len(director.hall(store).rows) == 3


def test_an_archived_game_is_listed_and_marked() -> None:
    """The director's list is of every game: one archived (left out of `whispers games`) is there, marked."""
    store = hall_of(2)
    table.archive(store, "g0")
    page = TestClient(create_app(store, DIRECTOR)).get(HALL).text
    assert names(director.hall(store)) == ["g1", "g0"] and page.count("(archived)") == 1
    assert page.index("(archived)") > page.index("/g/g0/replay")


def test_a_state_or_page_that_is_not_one_is_refused_in_one_line() -> None:
    store = hall_of(1)
    with pytest.raises(WhispersError, match="no such state 'won': one of playing, setup, over"):
        director.hall(store, state="won")
    with pytest.raises(WhispersError, match="no page 0: pages count from 1"):
        director.hall(store, page=0)
    client = TestClient(create_app(store, DIRECTOR))
    for query, said in [("state=won", "no such state &#39;won&#39;"), ("page=-1", "no page &#39;-1&#39;"),
                        ("page=2x", "no page &#39;2x&#39;"), ("page=0", "no page 0"),
                        ("page=99999999", "no page &#39;99999999&#39;")]:
        answer = client.get(f"{HALL}?{query}")
        assert answer.status_code == 400 and said in answer.text, query
        assert answer.text.count("<p") == 1
    assert client.get(f"{HALL}?page=7").status_code == 200


def test_the_page_links_its_tabs_and_pages_keeping_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(director, "PAGE", 2)
    client = TestClient(create_app(hall_of(5), DIRECTOR))
    page = client.get(f"{HALL}?q=bo&page=2&lang=fr").text
    links = [unescape(link) for link in re.findall(r'href="(\?[^"]*)"', page)]
    asked = [{key: values[0] for key, values in parse_qs(urlsplit(link).query).items()} for link in links]
    assert {"lang": "fr", "q": "bo", "page": "3"} in asked and {"lang": "fr", "q": "bo"} in asked  # next, previous
    assert {"lang": "fr", "state": "setup", "q": "bo"} in asked  # a tab starts at its first page
    assert 'data-next="?lang=fr&amp;q=bo&amp;page=3"' in page and "page 2 sur 3" in page


@settings(max_examples=40, deadline=None)
@given(text=st.text(st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_a_search_is_text_in_the_page_and_its_links_never_markup(text: str) -> None:
    """Free text is hostile: what the director typed comes back in the search box and the links, escaped."""
    answer = SEARCHING.get(HALL, params={"q": text, "state": "setup"})
    assert answer.status_code == 200
    page = answer.text
    assert "<script" not in page.replace('<script src="/static/', "")
    shown = re.search(r'<input type="search" id="q" name="q" value="([^"]*)"', page)
    assert shown is not None and unescape(shown[1]) == text.strip()
    for link in re.findall(r'href="(\?[^"]*)"', page):
        asked = parse_qs(urlsplit(unescape(link)).query, keep_blank_values=True)
        assert asked.get("q", [""]) == [text.strip()]


SEARCHED = hall_of(3)
SEARCHING = TestClient(create_app(SEARCHED, DIRECTOR))
"""One app over SEARCHED for every search asked (an app made for each cost ten times the search)."""


def test_a_last_event_that_holds_no_time_is_named_as_damage_in_one_line(tmp_path) -> None:
    """A row forged so that its timestamp is text: the catalog (and so `games` and the director's screen) says
    which game is damaged, in one line, exit status 2."""

    import msgpack
    from test_cli import invoke, refused

    from whispers.ledger.io.store import game_id
    from whispers.ledger.io.transcoder import packed, unpacked

    url = tmp_path / "s.sqlite"
    recording.new(str(url), "g", ["raven", "spider"])
    db = rows_of(url)
    (state,) = db.execute("SELECT state FROM stored_events WHERE originator_id = ?", (game_id("g").hex,)).fetchone()
    data = msgpack.unpackb(unpacked(state), raw=False, strict_map_key=False, ext_hook=msgpack.ExtType)
    data["timestamp"] = "yesterday"
    db.execute("UPDATE stored_events SET state = ? WHERE originator_id = ?", (packed(msgpack.packb(data)),
                                                                                game_id("g").hex))
    db.commit()
    db.close()
    refused(invoke(url, "games"), "game 'g': its last event holds no time it was stored")


@pytest.mark.parametrize(("lang", "headings"), [
    ("en", ["All games", "Games being played", "Games in setup", "Games over"]),
    ("fr", ["Toutes les parties", "Parties en cours", "Parties en mise en place", "Parties terminées"])])
def test_the_heading_says_which_games_a_tab_shows(lang: str, headings: list[str]) -> None:
    """Under a state's tab the page says it shows the games of that state, not all of them, in the reader's language."""
    client = TestClient(create_app(hall_of(1), DIRECTOR))
    for state, heading in zip(["", "playing", "setup", "over"], headings, strict=True):
        page = client.get(HALL, params={"state": state, "lang": lang} if state else {"lang": lang}).text
        assert re.findall(r"<h1>(.*?)</h1>", page) == [heading], state
