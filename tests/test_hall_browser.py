"""The hall's public board in a real browser (headless Chromium through Selenium, as tests/test_browser.py): at
phone (390x844) and projector (1920x1080) size, nothing wider than the window, its script run under the CSP, a
screenshot kept ($WHISPERS_SCREENSHOTS, else the test's folder); and live: a game finalised by the director
(another process) changes the board without a reload."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_browser import missing, wait
from test_hall_board import CUP, bundled
from test_web import DIRECTOR, EXE

from whispers.application.board import board_token

pytestmark = pytest.mark.skipif(bool(missing), reason=f"no {', '.join(missing)}")
PHONE, PROJECTOR = (390, 844), (1920, 1080)


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    """`whispers serve --tournament` over a store with r1-t1 over and r1-t2 in progress: (the board's URL, env)."""
    import httpx2

    folder = tmp_path_factory.mktemp("hall")
    env = {**os.environ, "WHISPERS_STORE": str(folder / "s.sqlite"), "WHISPERS_DIRECTOR_TOKEN": DIRECTOR}
    lines = bundled()
    (folder / "r1-t1.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "r1-t2.txt").write_text("\n".join(lines[:150]) + "\n", encoding="utf-8")
    subprocess.run([EXE, "import", str(folder / "r1-t1.txt"), str(folder / "r1-t2.txt")], env=env, check=True,
                   capture_output=True)
    (folder / "cup.toml").write_text(CUP, encoding="utf-8")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([EXE, "serve", "--port", str(port), "--tournament", str(folder / "cup.toml")],
                              env=env, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                httpx2.get(base + "/static/hall.css", timeout=1)
                break
            except httpx2.TransportError:
                time.sleep(0.1)
        yield f"{base}/hall/{board_token(DIRECTOR)}/", env
    finally:
        server.terminate()
        server.wait(timeout=20)


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
