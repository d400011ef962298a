"""The hall's public board in a real browser (headless Chromium through Selenium, as tests/test_browser.py): at
phone (390x844) and projector (1920x1080) size, nothing wider than the window, its script run under the CSP, a
screenshot kept ($WHISPERS_SCREENSHOTS, else the test's folder); and live: a game finalised by the director
(another process) changes the board without a reload."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_browser import missing, serve, wait
from test_hall_board import CUP, bundled
from test_web import DIRECTOR, EXE

from whispers.application import files
from whispers.application.board import board_token

pytestmark = pytest.mark.skipif(bool(missing), reason=f"no {', '.join(missing)}")
PHONE, PROJECTOR = (390, 844), (1920, 1080)


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    """`whispers serve --tournament` over a store with r1-t1 over and r1-t2 in progress: (the board's URL, env)."""
    folder = tmp_path_factory.mktemp("hall")
    env = {**os.environ, "WHISPERS_STORE": str(folder / "s.sqlite"), "WHISPERS_DIRECTOR_TOKEN": DIRECTOR}
    lines = bundled()
    for name, kept in (("r1-t1", lines), ("r1-t2", lines[:150])):
        (folder / f"{name}.txt").write_text("\n".join(kept) + "\n", encoding="utf-8")
        files.import_file(env["WHISPERS_STORE"], folder / f"{name}.txt", name)
    (folder / "cup.toml").write_text(CUP, encoding="utf-8")
    with serve(env["WHISPERS_STORE"], "--tournament", str(folder / "cup.toml")) as base:
        yield f"{base}/hall/{board_token(DIRECTOR)}/", env


@pytest.mark.parametrize("size", [PHONE, PROJECTOR], ids=["phone", "projector"])
def test_the_board_fits_phone_and_projector_and_is_shot(hall, browser, size, tmp_path) -> None:
    url, _ = hall
    folder = Path(os.environ.get("WHISPERS_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    browser.set_window_size(*size)
    browser.get_log("browser")
    browser.get(url)
    wait(browser, lambda d: d.execute_script("return document.documentElement.dataset.script") == "ran")
    width = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the board is {width[0]} px wide in a {width[1]} px window"
    shot = folder / f"hall-{size[0]}x{size[1]}.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 2000
    assert [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_the_board_follows_the_tournament_live(hall, browser) -> None:
    from selenium.webdriver.common.by import By

    url, env = hall
    browser.set_window_size(*PROJECTOR)
    browser.get(url)
    wait(browser, lambda d: d.execute_script("return document.documentElement.dataset.script") == "ran")
    browser.execute_script("window.stayed = true")  # gone if the page were reloaded
    assert browser.find_elements(By.CSS_SELECTOR, "tr.provisional")
    subprocess.run([EXE, "finalize", "r1-t1", "--by", "TD"], env=env, check=True, capture_output=True)
    wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "tr.provisional"))
    assert browser.execute_script("return window.stayed") is True
    assert len(browser.find_elements(By.CSS_SELECTOR, "tr.final")) == 4
