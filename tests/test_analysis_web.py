"""Analyses in the browser (issue 34): asked for on a finished game's replay page, run by analyst processes of the
server's own (never on a request), one at a time per game, their progress on the page, their chart for the link's
viewer only (a secret it could not know changes nothing on its page: tested differentially), a point of the chart
opening its move; a server killed mid-analysis leaves the store whole, and the next run goes on from it."""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_analysis import FOUR
from test_web import DIRECTOR, EXE, LOYALTY

from whispers.application import analysis, recording, sharing
from whispers.application import analysis_jobs as jobs
from whispers.ledger.io.game import import_lines
from whispers.ledger.io.store import open_store
from whispers.web.app import create_app

GAMES = Path(__file__).resolve().parent.parent / "fixtures" / "games"
TWO = (GAMES / "official-2p.txt").read_text(encoding="utf-8").splitlines()  # 125 moves, spider and serpent
EARLY = "replay?at=100"
"""A step before spider's tokens are revealed (the replay's frame after the reveal shows them)."""


def _hidden_changed(lines: list[str]) -> list[str]:
    """FOUR with what raven could not know changed: spider's loyalty tokens (another set that scores the same 39,
    so the final scores the move list shows to all are the same) and the name of a card rat drew and never played
    in the open."""
    spider = "spider loyalty devout=eagle dutiful=lion affiliated=elephant unallied=horse opposed=bear"
    out = [spider if line.startswith("spider loyalty ") else line.replace("rat draw lion:2", "rat draw lion:6")
           for line in lines]
    assert out != lines
    return out
PATIENCE = 240.0
"""Seconds a test waits for an analysis of a few playouts a move on a loaded machine (a bound, not a measure)."""


def _until(check: Any, seconds: float = PATIENCE, every: float = 0.2) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(every)
    raise AssertionError(f"not within {seconds} s")


def _sqlite(tmp_path: Path, lines: list[str], game: str = "g") -> tuple[str, sharing.Links]:
    url = str(tmp_path / "s.sqlite")
    with open_store(url) as store:
        import_lines(store, game, lines)
        return url, sharing.share(store, game)


@functools.cache
def _fresh(viewer: str | None, rollouts: int) -> dict[str, Any]:
    """The analysis `whispers analyse` makes of TWO in a store of its own (made once for the module: two tests
    compare with the spectator's)."""
    store = open_store("memory:")
    import_lines(store, "g", TWO)
    return analysis.analyse(store, "g", rollouts, viewer, jobs=1).to_json()


def _progressed(url: str, viewer: str) -> jobs.Job | None:
    """The job of game g as `viewer` knew it once its analyst has written that it finished some moves (its first
    such write comes analysis_jobs.BEAT_SECONDS after it started)."""
    job = jobs.status(url, "g", viewer)
    assert job is None or job.state in ("queued", "running"), f"the analysis ended before its progress was seen: {job}"
    return job if job is not None and job.state == "running" and job.moves_done > 0 else None


def _saved(url: str) -> bool:
    """Whether an analysis of game g has stored some playouts (its read model has a row: a cheap look)."""
    with open_store(url) as store:
        return any(True for _ in store.read_model(analysis._projection("g")))


def _ask(client: TestClient, base: str, token: str) -> Any:
    return client.post(base + "analysis", headers={"Authorization": f"Bearer {token}"})


def test_an_analyst_process_runs_the_analysis_a_page_asks_for_and_stores_it(tmp_path):
    """The analysis asked for on a page is run by a process of its own and lands in the analysis read model, as
    `whispers analyse` would store it; the page then draws its chart, each point a link to its move."""
    url, links = _sqlite(tmp_path, TWO)
    base = f"/g/g/{links.spectator}/"
    with TestClient(create_app(url, DIRECTOR, analysis_rollouts=1)) as client:
        assert 'id="analyse"' in client.get(base + "replay").text  # offered: the game is over
        asked = _ask(client, base, links.spectator)
        assert asked.status_code == 202 and asked.json()["state"] in ("queued", "running")
        _until(lambda: client.get(base + "analysis").json()["state"] == "done")
        page = client.get(base + "replay?at=40").text
    stored = analysis.stored(url, "g", "spectator")
    assert stored is not None and stored.complete
    assert stored.to_json() == _fresh("spectator", 1)
    assert '<svg class="chart"' in page and 'id="analyse"' not in page
    for point in stored.points:  # a point on the chart opens that move
        assert f'href="{base}replay?at={point.version}&amp;lang=en"><rect class="move"' in page
    assert analysis.stored(url, "g") is None  # the spectator's analysis is not the record's


def test_a_move_is_recorded_while_an_analysis_runs(tmp_path):
    """The table's moves never wait for an analysis: one is accepted while an analyst is busy on another game
    (an analysis asked for with so many playouts a move that it is surely still running after the move)."""
    url, links = _sqlite(tmp_path, TWO)
    with open_store(url) as store:
        recording.new(store, "live", ["raven", "spider"])
        table = sharing.share(store, "live").table
    base = f"/g/g/{links.table}/"
    with TestClient(create_app(url, DIRECTOR, analysis_rollouts=100_000)) as client:
        _ask(client, base, links.table)
        _until(lambda: client.get(base + "analysis").json()["moves"] > 0)  # its analyst has started it
        moved = client.post(f"/g/live/{table}/moves", json={"line": LOYALTY},
                            headers={"Authorization": f"Bearer {table}"})
        assert moved.status_code == 201, moved.text
        running = client.get(base + "analysis").json()
        assert running["state"] == "running" and running["moves_done"] < running["moves"]
    # the server stopped: its analyst kept what it finished and left the job for the next one
    assert jobs.status(url, "g", None).state == "queued"
    assert open_store(url).version("live") == 2


def test_a_second_ask_joins_the_first(tmp_path):
    """Two asks for one game and viewer (two taps, two devices of one seat): one job, run once."""
    url, links = _sqlite(tmp_path, TWO)
    base = f"/g/g/{links.spectator}/"
    with TestClient(create_app(url, DIRECTOR, analysis_rollouts=100_000)) as client:
        first, second = _ask(client, base, links.spectator), _ask(client, base, links.spectator)
        assert first.status_code == second.status_code == 202
        assert first.json()["rollouts"] == second.json()["rollouts"] == 100_000
        with open_store(url) as store:
            assert len(store.read_model(jobs.PROJECTION)) == 1  # joined, not queued twice
        director = client.get(f"/director/{DIRECTOR}/g/g/analysis").json()
        assert director == {"state": "none"}  # the record's analysis is another viewer's: not asked for


def test_a_game_has_one_analysis_running_at_a_time():
    """Analysts claim the oldest job whose game has none running; one whose analyst stopped writing is taken over.
    (No server: the analysts here are this test's own claims.)"""
    store = open_store("memory:")
    for game in ("g", "other"):
        import_lines(store, game, TWO)
    jobs.ask(store, "g", "spectator", 1, now=100.0)
    jobs.ask(store, "g", "spectator", 1, now=101.0)  # joined
    jobs.ask(store, "g", "spider", 1, now=102.0)
    jobs.ask(store, "other", None, 1, now=103.0)
    assert len(store.read_model(jobs.PROJECTION)) == 3
    now = time.time()
    one = jobs.claim(store, "elsewhere:1", now)
    assert (one.game, one.viewer, one.asked) == ("g", "spectator", 100.0)  # the oldest asked
    two = jobs.claim(store, "elsewhere:2", now)
    assert (two.game, two.viewer) == ("other", None)  # g's spider waits: g has one running
    assert jobs.claim(store, "elsewhere:3", now) is None
    assert jobs.status(store, "g", "spider").state == "queued"
    later = now + jobs.STALE_SECONDS + 1  # the analysts of another machine stopped writing
    taken = jobs.claim(store, "elsewhere:4", later)
    assert (taken.game, taken.owner) in {("g", "elsewhere:4"), ("other", "elsewhere:4")}
    gone = f"{socket.gethostname()}:{_dead_pid()}"  # an analyst of this machine that no longer exists
    store2 = open_store("memory:")
    import_lines(store2, "g", TWO)
    jobs.ask(store2, "g", None, 1)
    assert jobs.claim(store2, gone, now).owner == gone
    assert jobs.claim(store2, "here:5", now).owner == "here:5"  # taken over at once, not after STALE_SECONDS


def _dead_pid() -> int:
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


def test_an_analysis_is_asked_for_a_finished_game_only_and_by_the_links_bearer(tmp_path):
    url, links = _sqlite(tmp_path, TWO)
    with open_store(url) as store:
        recording.new(store, "live", ["raven", "spider"])
        live = sharing.share(store, "live")
    client = TestClient(create_app(url, DIRECTOR))
    refused = _ask(client, f"/g/live/{live.seats['raven']}/", live.seats["raven"])
    assert refused.status_code == 422 and "not over" in refused.json()["error"]
    assert client.post(f"/g/g/{links.spectator}/analysis").status_code == 404  # no bearer: refused as unknown
    assert client.get(f"/g/g/{links.spectator}/analysis").json() == {"state": "none"}
    assert 'id="analyse"' not in client.get(f"/g/live/{live.table}/replay").text  # not over: not offered
    memory = open_store("memory:")  # no other process can open it: no analyst, no analysis offered
    import_lines(memory, "g", TWO)
    token = sharing.share(memory, "g").table
    in_memory = TestClient(create_app(memory, DIRECTOR))
    assert 'id="analyse"' not in in_memory.get(f"/g/g/{token}/replay").text
    refused = _ask(in_memory, f"/g/g/{token}/", token)
    assert refused.status_code == 422 and "runs no analyses" in refused.json()["error"]


def _paused_run(store: Any, viewer: str, client: TestClient, base: str) -> tuple[bytes, bytes, bytes]:
    """raven's analysis run by an analyst in this process on a clock of its own (each reading 1.5 s later), with
    its progress and page read halfway: (the progress then, the page then, the page once done)."""
    jobs.ask(store, "g", viewer, 1, now=1000.0)
    job = jobs.claim(store, "test:1", now=1000.0)
    ticks = itertools.count(1000.0, 1.5)
    seen: list[bytes] = []
    calls = itertools.count()

    def stopping() -> bool:
        if next(calls) == 60:  # halfway through 148 moves
            seen.append(client.get(base + "analysis").content)
            seen.append(client.get(base + EARLY).content)
        return False

    done = jobs.run(store, job, "test:1", stopping, lambda: next(ticks))
    assert done.state == "done"
    return seen[0], seen[1], client.get(base + EARLY).content


def test_a_secret_the_seat_could_not_know_changes_nothing_on_its_page_nor_in_its_progress():
    """Secrets stay secret: the same game with spider's loyalty tokens and the name of a card rat drew changed gives
    raven's link the same progress and the same page, byte for byte, halfway through its analysis and once it is
    done; the record's analysis, stored too and different in the two games, is never drawn on it."""
    shown, records = [], []
    for lines in (FOUR, _hidden_changed(FOUR)):
        store = open_store("memory:")
        import_lines(store, "g", lines)
        links = sharing.share(store, "g")
        token = links.seats["raven"]
        client = TestClient(create_app(store, DIRECTOR))
        records.append(analysis.analyse(store, "g", 1, None, "45-65", jobs=1).to_json())  # the all-knowing one
        got = _paused_run(store, "raven", client, f"/g/g/{token}/")
        shown.append([part.replace(token.encode(), b"TOKEN") for part in got])
    (progress, halfway, done), other = shown
    assert json.loads(progress)["state"] == "running" and 0 < json.loads(progress)["moves_done"] < 148
    assert b'<svg class="chart"' in done and b"as raven knew the game" in done
    assert b"Analysing:" in halfway and b'<svg class="chart"' not in halfway
    assert records[0] != records[1]  # the record's analysis tells the two games apart: a page showing it would
    assert [progress, halfway, done] == other


@contextlib.contextmanager
def _serve(env: dict[str, str], *args: str) -> Iterator[tuple[str, subprocess.Popen]]:
    """`whispers serve` in a process group of its own (so that it can be killed with its analysts)."""
    import httpx2

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([EXE, "serve", "--port", str(port), *args], env=env, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        _until(lambda: _answers(httpx2, base), 60)
        yield base, server
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def _answers(httpx2: Any, base: str) -> bool:
    try:
        return httpx2.get(base + "/static/app.css", timeout=1).status_code == 200
    except httpx2.TransportError:
        return False


def test_a_server_killed_mid_analysis_leaves_the_store_whole_and_the_next_run_goes_on(tmp_path):
    """kill -9 of the server and its analyst halfway: the store opens and reads, holds the playouts finished, and
    a server started again takes the job over (its analyst is known dead) and completes it from there, to the
    figures one uninterrupted run gives (the spectator's, one playout a move: the run the first test compares)."""
    import httpx2

    url, links = _sqlite(tmp_path, TWO)
    env = {**os.environ, "WHISPERS_STORE": url, "WHISPERS_DIRECTOR_TOKEN": DIRECTOR}
    token = links.spectator
    path = f"/g/g/{token}/"
    with _serve(env, "--analysis-rollouts", "1") as (base, server):
        assert httpx2.post(base + path + "analysis", headers={"Authorization": f"Bearer {token}"}).status_code == 202
        # killed as soon as its tallies are first written (every analysis.SAVE_EVERY batches, a move each), long
        # before its last: looked at often, and cheaply
        _until(lambda: _saved(url), every=0.02)
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=30)
    kept = analysis.stored(url, "g", "spectator")
    assert kept is not None and not kept.complete and len(kept.points) >= analysis.SAVE_EVERY
    job = jobs.status(url, "g", "spectator")
    assert job.state == "running"  # as it was when killed: its analyst's process is gone
    with _serve(env, "--analysis-rollouts", "1") as (base, _server):
        _until(lambda: httpx2.get(base + path + "analysis").json()["state"] == "done")
    resumed = jobs.status(url, "g", "spectator")
    assert resumed.resumed >= len(kept.points)  # went on from the stored playouts
    assert analysis.stored(url, "g", "spectator").to_json() == _fresh("spectator", 1)


@pytest.mark.parametrize("words", ["en", "fr"])
def test_the_progress_words_are_the_readers(tmp_path, words):
    url, links = _sqlite(tmp_path, TWO)
    with open_store(url) as store:
        jobs.ask(store, "g", "spider", 1)
        job = jobs.claim(store, "here:1")
        jobs._update(store, job, "here:1", moves=125, moves_done=30, left=75.0)
    page = TestClient(create_app(url, DIRECTOR)).get(f"/g/g/{links.seats['spider']}/replay?lang={words}").text
    assert 'value="30"' in page
    expected = {"en": "Analysing: 30 of 125 moves · about 2 min left",
                "fr": "Analyse : 30 coups sur 125 · environ 2 min restantes"}[words]
    assert expected in page


SHOTS = os.environ.get("WHISPERS_SCREENSHOTS")
"""A folder for the screenshots of the browser test (none are taken without it: their resizes cost CPU)."""


def _screenshots(browser: Any, name: str) -> None:
    """The analysis section at a phone's size and a desktop's, when WHISPERS_SCREENSHOTS names a folder."""
    if not SHOTS:
        return
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    for width, height in ((390, 844), (1280, 800)):
        browser.set_window_size(width, height)
        browser.execute_script("document.getElementById('analysis').scrollIntoView();")
        browser.save_screenshot(str(Path(SHOTS) / f"analysis-{name}-{width}.png"))


def test_the_replay_page_asks_follows_the_progress_and_draws_the_chart_in_place(tmp_path, browser):
    """In the browser: the button asks, the progress bar moves in place, the chart appears without a reload, and
    a point on it opens its move; screenshots at a phone's size and a desktop's when WHISPERS_SCREENSHOTS is set.
    The analyst is held still (SIGSTOP) once it has written some progress, until the page shows it, then let go:
    the page is seen following a running analysis however fast the machine plays its playouts. Eight a move: with the
    simulator (ledger/core/simulator.py) two a move ended in half a second, before the analyst's first write of its
    progress (analysis_jobs.BEAT_SECONDS)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    from test_browser import missing, wait

    if missing:
        pytest.skip(f"no {', '.join(missing)}")
    url, links = _sqlite(tmp_path, FOUR)
    env = {**os.environ, "WHISPERS_STORE": url, "WHISPERS_DIRECTOR_TOKEN": DIRECTOR}
    token = links.seats["raven"]
    with _serve(env, "--analysis-rollouts", "8") as (base, _server):
        browser.set_window_size(390, 844)
        browser.get(f"{base}/g/g/{token}/replay?at=100")
        wait(browser, lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-script") == "ran")
        browser.execute_script("window.stayed = true;")  # gone if the page were loaded again
        browser.find_element(By.ID, "analyse-go").click()
        # an analyst is started, reads the game and plays its first moves' playouts: on a loaded machine, a while
        job = _until(lambda: _progressed(url, "raven"), every=0.05)
        analyst = int(job.owner.rpartition(":")[2])  # analysis_jobs.owner_id: its host and process id
        os.kill(analyst, signal.SIGSTOP)
        try:
            WebDriverWait(browser, PATIENCE, poll_frequency=0.2).until(lambda d: d.execute_script(
                "const bar = document.querySelector('#analysis progress');"  # read at once: the section is swapped
                "return bar !== null && bar.value > 0 && document.getElementById('analysis').textContent"
                ".includes('Analysing:');"))
            _screenshots(browser, "progress")
        finally:
            os.kill(analyst, signal.SIGCONT)
        WebDriverWait(browser, PATIENCE, poll_frequency=0.2).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "svg.chart"))
        assert browser.execute_script("return window.stayed === true;")  # swapped in place
        _screenshots(browser, "chart")
        stored = analysis.stored(url, "g", "raven")
        point = stored.points[len(stored.points) // 2]
        browser.find_element(By.CSS_SELECTOR, f'svg.chart a[href*="replay?at={point.version}&"]').click()
        wait(browser, lambda d: f"replay?at={point.version}&" in d.current_url)
        assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
