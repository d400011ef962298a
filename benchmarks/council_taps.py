"""Taps per deploy or retrieve on the table page (issue 32's target: median <= 3), from a browser-driven run: Debian's
headless Chromium at phone size (390x844) on `whispers serve`, through every deploy and retrieve of a bundled game.

Run from the repository root with the virtualenv's python:

    .venv/bin/python benchmarks/council_taps.py [--game fixtures/games/official-4p.txt]

The game's setup is imported; then each of its moves in order: a deploy or retrieve of a council position is tapped
on the table page (its cell, then Record once the preview shows the move), counting every tap; any other move is
recorded at the side (as another recorder would), and the page follows it live before the next tap. Before each tap
the script checks that no Record button of the page is on (a move recordable from an incomplete selection), and after
it that the move recorded is the game's line. The log recorded must equal the bundled game's.
"""

from __future__ import annotations

import argparse
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from whispers.application import reading, recording, sharing  # noqa: E402
from whispers.ledger.io.game import import_lines  # noqa: E402
from whispers.ledger.io.store import open_store  # noqa: E402

WAIT = 30
SETTLE = 0.3  # seconds between the page showing a new version and the next tap


def lines_of(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]


def tapped(line: str) -> bool:
    words = line.split()
    return len(words) == 3 and words[1] in ("deploy", "retrieve") and "." in words[2]


def served(store: str) -> tuple[subprocess.Popen, str]:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    exe = shutil.which("whispers", path=str(Path(sys.executable).parent)) or "whispers"
    env = {"WHISPERS_STORE": store, "WHISPERS_DIRECTOR_TOKEN": "d" * 32, "PATH": str(Path(sys.executable).parent)}
    server = subprocess.Popen([exe, "serve", "--port", str(port)], env=env, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    import httpx2

    for _ in range(300):
        try:
            httpx2.get(base + "/static/app.css", timeout=1)
            return server, base
        except httpx2.TransportError:
            time.sleep(0.1)
    server.terminate()
    sys.exit("whispers serve did not start")


def browser() -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                              options=options)
    driver.set_window_size(390, 844)
    return driver


def version(driver: webdriver.Chrome) -> int:
    try:
        return int(driver.find_element(By.ID, "game").get_attribute("data-version") or 0)
    except Exception:  # the page swapping its parts in place
        return -1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", type=Path, default=REPO / "fixtures" / "games" / "official-4p.txt")
    args = parser.parse_args()
    lines = lines_of(args.game)
    first = next(i for i, line in enumerate(lines) if tapped(line))
    folder = Path(tempfile.mkdtemp(prefix="council-taps-"))
    store = str(folder / "s.sqlite")
    with open_store(store) as s:
        import_lines(s, "g", lines[:first])
    server, base = served(store)
    driver = browser()
    taps: list[int] = []
    recordable_early = 0
    began = time.perf_counter()
    try:
        links = sharing.share(store, "g", base=base)
        driver.get(links.url(links.table))
        wait = WebDriverWait(driver, WAIT, poll_frequency=0.05)
        wait.until(lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-script") == "ran")
        for line in lines[first:]:
            expected = open_store(store).version("g")
            wait.until(lambda d, expected=expected: version(d) == expected)  # the page followed what came before
            if not tapped(line):
                recording.record_line(store, "g", line)
                continue
            time.sleep(SETTLE)  # a person looks before tapping: the page has done swapping in what came
            recordable_early += driver.execute_script(
                "return Array.from(document.querySelectorAll('button.record')).filter(b => !b.disabled).length")
            cell = driver.find_element(By.CSS_SELECTOR, f'td.office.tappable[data-position="{line.split()[2]}"]')
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", cell)
            cell.click()
            form = driver.find_element(By.CSS_SELECTOR, "form.pick.pinned")
            record = form.find_element(By.CSS_SELECTOR, "button.record")
            wait.until(lambda d, record=record: record.is_enabled())
            preview = form.find_element(By.CSS_SELECTOR, ".preview").text
            if not preview.startswith(line):
                sys.exit(f"the preview of {line!r} reads {preview!r}")
            record.click()
            count = 2  # the cell, Record: each tap above is made once, or the run stops
            wait.until(lambda d, expected=expected: version(d) > expected)
            taps.append(count)
        took = time.perf_counter() - began
        logged = [line for line in reading.log(store, "g", comments=False).lines if not line.startswith("game ")]
    finally:
        driver.quit()
        server.terminate()
        server.wait(timeout=20)
    with open_store("memory:") as whole:
        import_lines(whole, "g", lines)
        wanted = [line for line in reading.log(whole, "g", comments=False).lines if not line.startswith("game ")]
    same = logged == wanted
    print(f"game: {args.game.name}; {len(taps)} deploys and retrieves tapped on the table page at 390x844, "
          f"{len(lines) - first - len(taps)} other moves recorded beside; the log equal to the bundled game's: {same}")
    print(f"taps per deploy or retrieve: median {statistics.median(taps)}, mean {statistics.fmean(taps):.1f}, "
          f"max {max(taps)} (target: median <= 3)")
    print(f"Record buttons on before any choice was made: {recordable_early} (target: 0)")
    print(f"wall time: {took:.1f} s")
    if not same:
        sys.exit("the log recorded differs from the bundled game's")


if __name__ == "__main__":
    main()
