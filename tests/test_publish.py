"""`whispers publish`: a folder of static pages to open from the disk (application/publish.py).

The pages: the index (a tournament's standings and rounds, or the games named), each game's replay with every
step in the page. A finished game as the record shows it; a game not over as its spectators see it, tested
differentially (a hidden loyalty changed changes no byte of the archive). Names from the record are hostile text:
escaped, never a path. The folder: refused when not empty, replaced whole with --force only when it is an archive.
A browser test opens index.html from file://, follows a game and steps it with the arrow keys.

Publishing a whole game costs about two seconds of CPU (its charts and Graphviz pictures): the tests that only read
an archive share one (`archive`, published once per module), and a test about the folder or the command line,
not about what a whole game's pages hold, publishes a game of a few moves (`SHORT`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_cli import invoke, ok, refused

from whispers.application import analysis, review, table
from whispers.application.publish import MANIFEST, Published, PublishError, folder_of, publish
from whispers.ledger.io.game import import_lines
from whispers.ledger.io.store import open_store

GAMES = Path(__file__).resolve().parent.parent / "fixtures" / "games"
TWO = (GAMES / "official-2p.txt").read_text(encoding="utf-8").splitlines()
SPIDER = "spider loyalty devout=eagle dutiful=horse affiliated=bear unallied=elephant opposed=lion"
SPIDER_OTHER = "spider loyalty devout=horse dutiful=eagle affiliated=lion unallied=elephant opposed=bear"
HOSTILE = "<script>alert(1)</script> ../x \"'&"
SHORT = 5
"""The moves of the `short` game: a game not over, cheap to publish."""


def started(lines: list[str], moves: int = 30) -> list[str]:
    """The game's header and loyalties and its first `moves` moves: a game not over."""
    kept, count = [], 0
    for line in lines:
        if line.strip() and not line.startswith("#") and not line.startswith(("game ", "#")):
            count += 1
        if count > moves:
            break
        kept.append(line)
    return kept


@pytest.fixture
def store() -> Iterator:
    with open_store("memory:") as s:
        import_lines(s, "over", TWO)
        import_lines(s, "playing", started(TWO))
        import_lines(s, "short", started(TWO, SHORT))
        yield s


@dataclass(frozen=True)
class Archive:
    site: Path
    done: Published


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Archive:
    """`over` and `playing` published once, for the tests that only read the archive."""
    site = tmp_path_factory.mktemp("archive") / "site"
    with open_store("memory:") as s:
        import_lines(s, "over", TWO)
        import_lines(s, "playing", started(TWO))
        return Archive(site, publish(s, site, ["over", "playing"]))


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_an_archive_holds_an_index_each_game_s_replay_its_pictures_and_the_stylesheet(archive) -> None:
    done, site = archive.done, archive.site
    assert [g.game for g in done.games] == ["over", "playing"]
    index = (site / "index.html").read_text(encoding="utf-8")
    for game in done.games:
        assert f'href="{game.page}"' in index and (site / game.page).is_file()
    assert {"static/app.css", "static/archive.js", "static/archive.css", MANIFEST} <= set(files_of(site))
    over = (site / done.games[0].page).read_text(encoding="utf-8")
    total = done.games[0].events
    # every step in the page, the last shown; the move list links each step; nothing fetched, no inline script
    assert over.count('<section class="step"') == total and f'id="step-{total}" data-round' in over
    assert over.count(" hidden>") >= total - 1 and 'href="#e1"' in over
    assert "<script>" not in over.replace('<script src="../../static/archive.js" defer></script>', "")
    assert 'href="../../static/app.css"' in over and "/static/" not in over.replace("../../static/", "")
    # the council grid, the board as each round began, the round's timeline, the charts: files beside the page
    pictures = [name for name in os.listdir(site / Path(done.games[0].page).parent) if name.endswith(".svg")]
    assert "board-1.svg" in pictures and f"board-{total}.svg" in pictures and "timeline-1.svg" in pictures
    assert {"chart-score.svg", "chart-cities.svg", "chart-banners.svg"} <= set(pictures)
    for name in re.findall(r'src="([^"]+\.svg)"', over):
        assert name in pictures, name
    assert 'class="grid"' in over and "The game is over: the whole record." in over
    manifest = json.loads((site / MANIFEST).read_text(encoding="utf-8"))
    assert [g["viewer"] for g in manifest["games"]] == [None, "spectator"]


def test_a_finished_game_shows_the_record_and_a_game_not_over_only_what_spectators_see(archive) -> None:
    done, site = archive.done, archive.site
    playing = (site / done.games[1].page).read_text(encoding="utf-8")
    assert "published as its spectators see it" in playing
    # a spectator sees no loyalty recorded at setup: the record's page shows spider's tokens from event 2 on
    assert "loyalty: hidden" in playing and 'class="token"' not in playing
    over = (site / done.games[0].page).read_text(encoding="utf-8")
    step2 = over.split('id="step-2"')[1].split('<section class="step"')[0]
    assert '<span class="token" data-slot="devout">devout eagle</span>' in step2


DIFFERENTIAL = 28
"""The moves of the differential's game not over: every secret it changes is recorded within them."""


def spectators_archive(folder: Path, lines: list[str]) -> tuple[dict[str, bytes], object]:
    """The files published of the game `lines` (not over, so as its spectators see it, with a note and a
    spectator's analysis), and its record."""
    with open_store("memory:") as s:
        import_lines(s, "playing", lines)
        review.annotate(s, "playing", 3, "watch the eagle")
        analysis.analyse(s, "playing", 2, "spectator", "1-4")  # its turning points are published too
        publish(s, folder, ["playing"])
        record = review.replay(s, "playing").to_json()
    return files_of(folder), record


@pytest.fixture(scope="module")
def unchanged(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], object]:
    """The differential's first world, the same whichever secret the second changes: published once."""
    return spectators_archive(tmp_path_factory.mktemp("unchanged") / "a", started(TWO, DIFFERENTIAL))


@pytest.mark.parametrize(("secret", "instead"), [
    (SPIDER, SPIDER_OTHER),  # a loyalty set recorded at setup (EN "Final Scoring": secret until the reveal)
    ("spider draw horse:3", "spider draw horse:5"),  # the name of a card drawn, not yet played
], ids=["loyalty", "card-drawn"])
def test_a_secret_changed_in_a_game_not_over_changes_nothing_published(unchanged, tmp_path, secret, instead) -> None:
    """The differential: two stores whose unfinished game differs only in a secret a spectator may not know
    publish byte-identical archives (the spectator's stored analysis, its chart and turning points, included)."""
    other = [instead if line == secret else line for line in started(TWO, DIFFERENTIAL)]
    assert other != started(TWO, DIFFERENTIAL)
    changed = spectators_archive(tmp_path / "b", other)
    archives, records = [unchanged[0], changed[0]], [unchanged[1], changed[1]]
    assert records[0] != records[1]  # the record holds the secret: the test can fail
    assert archives[0].keys() == archives[1].keys()
    assert any(name.endswith("/chances.svg") for name in archives[0])  # the analysis is in what is compared
    differing = [name for name in archives[0] if archives[0][name] != archives[1][name]]
    assert differing == []


def test_a_finished_game_is_published_as_the_record_so_its_secrets_show(archive, tmp_path) -> None:
    """The game `over` of the shared archive against the same game with another loyalty set: its folder differs."""
    with open_store("memory:") as s:
        import_lines(s, "over", [SPIDER_OTHER if line == SPIDER else line for line in TWO])
        publish(s, tmp_path / "d", ["over"])
    game = Path("games") / folder_of("over")
    assert files_of(archive.site / game) != files_of(tmp_path / "d" / game)


def test_an_archive_shows_the_turning_points_stored_for_the_viewer_it_is_published_as_and_plays_none(
        store, tmp_path, monkeypatch) -> None:
    """Issue 35: each game's page shows the chances and turning points `whispers analyse` stored for the viewer the
    game is published as (the record for a game over, a spectator for one not over), each a link to its step;
    publishing plays no playout, and a seat's analysis of a game not over is never shown (it knows a loyalty)."""
    analysis.analyse(store, "over", 2, None, "1-8")
    analysis.analyse(store, "playing", 2, "spider", "1-8")  # a seat's: not what a spectator may see

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("an analysis was played while publishing")

    with monkeypatch.context() as patched:
        patched.setattr(analysis, "_run", refused)
        done = publish(store, tmp_path / "a", ["over", "playing"])
    over, playing = ((tmp_path / "a" / g.page).read_text(encoding="utf-8") for g in done.games)
    turning = analysis.stored(store, "over").turning
    assert turning and "turning points:" in over
    assert (tmp_path / "a" / done.games[0].page).with_name("chances.svg").is_file()
    for turn in turning:
        assert f'<a href="#e{turn.version}">{turn.label}</a>' in over and f'id="step-{turn.version}"' in over
    assert 'src="chances.svg"' in over
    assert "turning points:" not in playing and "chances.svg" not in playing
    assert not (tmp_path / "a" / done.games[1].page).with_name("chances.svg").exists()

    analysis.analyse(store, "playing", 2, "spectator", "1-8")
    done = publish(store, tmp_path / "b", ["playing"])
    playing = (tmp_path / "b" / done.games[0].page).read_text(encoding="utf-8")
    for turn in analysis.stored(store, "playing", "spectator").turning:
        assert f'<a href="#e{turn.version}">{turn.label}</a>' in playing


def test_names_from_the_record_are_escaped_and_never_a_path(store, tmp_path) -> None:
    table.rename(store, "short", HOSTILE)
    table.describe(store, "short", {"seats": {"spider": HOSTILE}})
    review.annotate(store, "short", 5, HOSTILE, author=HOSTILE)
    done = publish(store, tmp_path / "site", ["short"])
    site = tmp_path / "site"
    for page in ("index.html", done.games[0].page):
        text = (site / page).read_text(encoding="utf-8")
        assert "<script>alert" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert not (tmp_path / "x").exists() and sorted(p.name for p in tmp_path.iterdir()) == ["site"]
    for name in ("../x", "<script>", "CON", "a/b\\c", "..", "", "Demo", "demo"):
        folder = folder_of(name)
        assert re.fullmatch(r"[a-z0-9-]+-[0-9a-f]{10}", folder), folder
    assert folder_of("Demo") != folder_of("demo")


def test_a_folder_in_the_way_is_refused_and_force_replaces_only_an_archive(store, tmp_path) -> None:
    site = tmp_path / "site"
    site.mkdir()
    publish(store, site, ["short"])  # an empty folder is fine
    with pytest.raises(PublishError, match="is not empty"):
        publish(store, site, ["playing"])
    done = publish(store, site, ["playing"], force=True)
    assert [g.game for g in done.games] == ["playing"] and len(list((site / "games").iterdir())) == 1
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.txt").write_text("keep me")
    with pytest.raises(PublishError, match="holds no archive"):
        publish(store, mine, ["over"], force=True)
    assert [p.name for p in mine.iterdir()] == ["thesis.txt"]
    (tmp_path / "file").write_text("x")
    with pytest.raises(PublishError, match="not a folder"):
        publish(store, tmp_path / "file", ["over"])
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no half-built folder left


def test_publishing_into_the_working_folder_keeps_that_folder(store, tmp_path, monkeypatch) -> None:
    """`publish . --force` where a shell or a web server sits: the folder itself stays (its entries are swapped)."""
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    before = os.stat(here).st_ino
    publish(store, ".", ["short"])
    publish(store, ".", ["playing"], force=True)
    assert os.stat(here).st_ino == before and os.getcwd() == str(here)
    assert sorted(p.name for p in here.iterdir()) == ["games", "index.html", "static", MANIFEST]
    assert [p.name for p in (here / "games").iterdir()] == [folder_of("playing")]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["here"]  # nothing left beside it


def test_the_command_line(tmp_path) -> None:
    """A whole finished game (`two`) where a finished game is the point (the tournament's standings, the record
    as the viewer), else a game of a few moves (`short`)."""
    db = tmp_path / "w.sqlite"
    ok(invoke(db, "import", str(GAMES / "official-2p.txt"), "--game", "two"))
    (tmp_path / "short.txt").write_text("\n".join(started(TWO, SHORT)) + "\n", encoding="utf-8")
    ok(invoke(db, "import", str(tmp_path / "short.txt"), "--game", "short"))
    out = ok(invoke(db, "publish", str(tmp_path / "site"), "short"))
    assert "Published 1 game into" in out and (tmp_path / "site" / "index.html").is_file()
    data = json.loads(ok(invoke(db, "publish", str(tmp_path / "site"), "short", "--force", "--json")))
    assert data["games"][0]["viewer"] == "spectator" and data["index"].endswith("index.html")
    refused(invoke(db, "publish", str(tmp_path / "site"), "two"), "is not empty")
    refused(invoke(db, "publish", str(tmp_path / "new")), "name the games to publish, or --tournament FILE")
    refused(invoke(db, "publish", str(tmp_path / "new"), "two", "--tournament", "cup.toml"), "not both")
    refused(invoke(db, "publish", str(tmp_path / "new"), "nope"), "nope")
    refused(invoke(db, "publish", str(tmp_path / "new"), "../x"), "invalid game name")
    assert not (tmp_path / "new").exists()
    cup = tmp_path / "cup.toml"
    cup.write_text('name = "Cup <b>"\n[[game]]\nname = "two"\nround = 1\nseats = { spider = "Ana", serpent = "Bo" }\n'
                   '[[game]]\nname = "later"\nround = 2\nseats = { spider = "Bo", serpent = "Ana" }\n',
                   encoding="utf-8")
    published = json.loads(ok(invoke(db, "publish", str(tmp_path / "cup"), "--tournament", str(cup), "--json")))
    assert [g["game"] for g in published["games"]] == ["two"] and published["not_published"] == ["later"]
    assert published["games"][0]["viewer"] is None  # a finished game: the record
    index = (tmp_path / "cup" / "index.html").read_text(encoding="utf-8")
    assert "Cup &lt;b&gt;" in index and "Standings" in index and "Ana" in index and "not started: later" in index
    assert "<strong>later</strong>" in index and index.count('href="games/two-') == 3  # the list and both entrants
    fr = ok(invoke(db, "--lang", "fr", "publish", str(tmp_path / "fr"), "short"))
    assert "Publié" in fr
    assert 'lang="fr"' in (tmp_path / "fr" / "index.html").read_text(encoding="utf-8")


# --- in a real browser, from the disk ---------------------------------------------------------------------------

def test_the_archive_opens_from_the_disk_and_steps_with_the_arrow_keys(archive, request) -> None:
    from test_browser import DESKTOP, PHONE, missing

    if missing:
        pytest.skip(f"no {', '.join(missing)}")
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from test_browser import wait

    done = archive.done
    browser = request.getfixturevalue("browser")  # tests/conftest.py's, shared
    browser.get_log("browser")  # what the pages opened before this test logged is not this test's
    shots = os.environ.get("WHISPERS_SCREENSHOTS")  # only when asked: each costs the suite CPU
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)

    def shot(name: str, size: tuple[int, int]) -> None:
        if shots:
            browser.save_screenshot(str(Path(shots) / f"{name}-{size[0]}x{size[1]}.png"))

    for size in (PHONE, DESKTOP):
        browser.set_window_size(*size)
        browser.get((archive.site / "index.html").as_uri())
        assert _fits(browser)
        shot("archive-index", size)
        browser.find_element(By.LINK_TEXT, "over").click()
        wait(browser, lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-script") == "ran")
        total = done.games[0].events
        assert _shown(browser) == total  # the game as it ended
        assert browser.execute_script("return document.documentElement.dataset.at") == str(total)
        assert _fits(browser)
        shot("archive-replay", size)
        boards = set()
        for key, at in [(Keys.ARROW_LEFT, total - 1), (Keys.ARROW_RIGHT, total)]:
            ActionChains(browser).send_keys(key).perform()
            wait(browser, lambda d, at=at: _shown(d) == at)
        # the first step: the board as the game was set up; a step into round 2: the board as it began
        browser.find_element(By.CSS_SELECTOR, "nav.moves details summary").click()
        browser.find_element(By.CSS_SELECTOR, "#m1 a").click()
        wait(browser, lambda d: _shown(d) == 1 and d.current_url.endswith("#e1"))
        boards.add(_board(browser))
        regions = _regions(browser)
        ActionChains(browser).send_keys(*[Keys.ARROW_RIGHT] * 60).perform()  # sixty key presses, sent at once
        wait(browser, lambda d: _shown(d) == 61)
        boards.add(_board(browser))
        assert _regions(browser) != regions  # banners recruited and moved: the board changed
        shot("archive-step", size)
        assert len(boards) == 2, boards
        ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
        wait(browser, lambda d: _shown(d) == 60)
    refused_ = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert refused_ == []


def _shown(driver) -> int:
    shown = driver.execute_script("return [...document.querySelectorAll('section.step')]"
                                  ".filter(s => !s.hidden).map(s => s.id)")
    assert len(shown) == 1, shown
    return int(shown[0].removeprefix("step-"))


def _board(driver) -> str:
    return driver.execute_script("const s = [...document.querySelectorAll('section.step')].find(s => !s.hidden);"
                                 "const i = s.querySelector('.pictures img'); return i ? i.getAttribute('src') : ''")


def _regions(driver) -> str:
    return driver.execute_script("const s = [...document.querySelectorAll('section.step')].find(s => !s.hidden);"
                                 "return [...s.querySelectorAll('table')].pop().innerText")


def _fits(driver) -> bool:
    width = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    return width[0] <= width[1]
