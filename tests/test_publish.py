"""`whispers publish` (issue 35): static pages of a tournament or of games that need no server and no internet,
opened from file:// in a headless browser and stepped through with ← →; a game not over is never published."""

import json
import re
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_browser import missing, wait
from test_hall_browser import browser  # noqa: F401  (the fixture)

from whispers.cli.main import whispers
from whispers.ledger.game import import_lines
from whispers.ledger.store import open_store

NOTE = "</script><script>document.title='owned'</script> <b>bold?</b>"
CUP = """name = "Archive <Cup>"
[[game]]
name = "r1-t1"
round = 1
seats = { raven = "Ana", spider = "Bo", rat = "Cy", serpent = "Dee" }
[[game]]
name = "r1-t2"
round = 1
seats = { raven = "Eve", spider = "Fin", rat = "Gus", serpent = "Hal" }
"""


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(whispers, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """r1-t1 finished (with a hostile note on its event 30), r1-t2 in progress, published from the tournament."""
    folder = tmp_path_factory.mktemp("archive")
    url = str(folder / "s.sqlite")
    lines = resources.files("whispers.fixtures").joinpath("games", "official-4p.txt").read_text(
        encoding="utf-8").splitlines()
    with open_store(url) as store:
        import_lines(store, "r1-t1", lines)
        import_lines(store, "r1-t2", lines[:100])
    (folder / "cup.toml").write_text(CUP, encoding="utf-8")
    env = {"WHISPERS_STORE": url}
    assert CliRunner().invoke(whispers, ["annotate", "r1-t1", "30", NOTE], env=env).exit_code == 0
    result = CliRunner().invoke(whispers, ["publish", str(folder / "site"), "--tournament", str(folder / "cup.toml"),
                                           "--json"], env=env)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["games"] == ["r1-t1"] and json.loads(result.stdout)["not_published"] == ["r1-t2"]
    return folder / "site"


def test_the_archive_holds_the_standings_rounds_and_each_finished_games_replay(archive: Path) -> None:
    index = (archive / "index.html").read_text(encoding="utf-8")
    assert "Archive &lt;Cup&gt;" in index and "games/r1-t1.html" in index and "games/r1-t2.html" not in index
    assert "not over: not published" in index
    assert re.search(r"<td>1</td><th>Cy</th>", index)  # rat (Cy) won r1-t1
    page = (archive / "games" / "r1-t1.html").read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S).group(1))
    assert len(data["steps"]) > 200 and data["steps"][29]["notes"] == [NOTE]
    assert "</script><script>" not in page.split('id="data">')[1].split("</script>")[0]
    assert (archive / "games" / "r1-t1-score.svg").exists() and (archive / "archive.js").exists()
    assert not any(name.startswith("r1-t2") for name in (p.name for p in (archive / "games").iterdir()))
    # nothing the page needs comes from elsewhere: no URL with a scheme in any page
    assert not re.search(r"(src|href)=[\"']?(https?:)?//", page + index)


def test_a_named_game_not_over_refuses_the_publish_and_writes_nothing(tmp_path: Path, archive: Path) -> None:
    env = {"WHISPERS_STORE": str(archive.parent / "s.sqlite")}
    result = CliRunner().invoke(whispers, ["publish", str(tmp_path / "out"), "r1-t1", "r1-t2"], env=env)
    assert result.exit_code == 2 and "r1-t2 is not a finished game" in result.stderr
    assert not (tmp_path / "out").exists()
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "thesis.txt").write_text("keep me", encoding="utf-8")
    result = CliRunner().invoke(whispers, ["publish", str(tmp_path / "mine"), "r1-t1"], env=env)
    assert result.exit_code == 2 and "holds other files" in result.stderr
    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == ["thesis.txt"]
    assert CliRunner().invoke(whispers, ["publish", str(tmp_path / "out")], env=env).exit_code == 2


@pytest.mark.skipif(bool(missing), reason=f"no {', '.join(missing)}")
def test_the_archive_opens_from_file_and_steps_with_the_arrow_keys(archive: Path, browser) -> None:  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.set_window_size(390, 844)
    browser.get((archive / "index.html").as_uri())
    browser.find_element(By.CSS_SELECTOR, "a[href='games/r1-t1.html']").click()
    wait(browser, lambda d: d.execute_script("return document.documentElement.dataset.at") == "1")
    body = browser.find_element(By.TAG_NAME, "body")
    for _ in range(29):
        body.send_keys(Keys.ARROW_RIGHT)
    wait(browser, lambda d: d.execute_script("return document.documentElement.dataset.at") == "30")
    assert browser.find_element(By.ID, "notes").text == NOTE  # the note as text, never markup
    assert browser.title != "owned"
    body.send_keys(Keys.ARROW_LEFT)
    wait(browser, lambda d: d.execute_script("return document.documentElement.dataset.at") == "29")
    assert browser.find_element(By.ID, "board").get_attribute("src").startswith("file://")
    assert browser.execute_script("return document.getElementById('board').naturalWidth") > 0
    width = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1]
