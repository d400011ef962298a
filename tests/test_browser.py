"""The pages in a real browser: Debian's headless Chromium driven by Selenium through Debian's chromedriver.

Recording moves by tapping the table page's buttons, the seat page following live, stepping a replay with the
arrow keys, and a screenshot of each page at phone (390x844) and desktop (1280x800) size, checked for what a
person would see first: nothing wider than the window, no script refused by the Content-Security-Policy.
Screenshots go to $WHISPERS_SCREENSHOTS when set (to look at them), else to the test's temporary folder.
One `whispers serve` serves the module's tests, each on a game of its own in its store (`site`); one Chromium
serves the test session (tests/conftest.py's `browser`).

Why Selenium: it drives the Chromium the system ships, through the chromedriver built with it
(`chromium-driver`), so the two always match and nothing is downloaded; Playwright drives its own pinned
browser build and supports another Chromium only loosely."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from test_web import DIRECTOR, EXE, LOYALTY, free_port, wait_answering

from whispers.application import recording, sharing

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
REQUIRED = os.environ.get("WHISPERS_REQUIRE_CHROMIUM") == "1"
PHONE, DESKTOP = (390, 844), (1280, 800)
WAIT = 20  # seconds a page may take to answer on a loaded machine (a bound, not a measurement)

try:
    from selenium import webdriver
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:  # pragma: no cover - the test extra installs it
    webdriver = None

missing = [what for what, there in [("selenium", webdriver is not None), ("chromium", os.path.exists(CHROMIUM)),
                                    ("chromedriver", os.path.exists(CHROMEDRIVER))] if not there]
if missing and REQUIRED:
    raise RuntimeError(f"WHISPERS_REQUIRE_CHROMIUM=1 but {', '.join(missing)} is missing")
pytestmark = pytest.mark.skipif(bool(missing), reason=f"no {', '.join(missing)}")

SPIDER = LOYALTY.replace("raven", "spider").replace("devout=eagle dutiful=horse", "devout=horse dutiful=eagle")


@contextlib.contextmanager
def serve(store: str, *options: str) -> Iterator[str]:
    """`whispers serve` as a user runs it (`options` added) over the SQLite store `store`, on a free port, until
    the block ends: its base URL."""
    assert EXE
    env = {**os.environ, "WHISPERS_STORE": store, "WHISPERS_DIRECTOR_TOKEN": DIRECTOR}
    port = free_port()
    server = subprocess.Popen([EXE, "serve", "--port", str(port), *options], env=env, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_answering(base)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=20)


@dataclass(frozen=True)
class Site:
    """The module's server: its store's path, its base URL, and the links of each game it holds."""

    store: str
    base: str
    links: dict[str, dict[str, Any]]


GAMES = ["g1", "record", "seal", "sees"]
"""The module's games, raven and spider at the setup: g1 shared by the tests that only read it after the first,
each other the game of one test (a game whose record a test reads is its own)."""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[Site]:
    """`whispers serve` over a store holding GAMES, each shared."""
    store = str(tmp_path_factory.mktemp("site") / "s.sqlite")
    for game in GAMES:
        recording.new(store, game, ["raven", "spider"])
    with serve(store) as base:
        yield Site(store, base, {game: sharing.share(store, game, base=base).to_json() for game in GAMES})


def version_of(driver: Any) -> int:
    return int(driver.find_element(By.ID, "game").get_attribute("data-version"))


def wait(driver: Any, until) -> None:
    WebDriverWait(driver, WAIT, poll_frequency=0.1).until(lambda d: until(d))


def tap_and_record(driver: Any, line: str) -> None:
    """Taps the move's picker (one form per legal move), chooses each value of `line` in its fields by tapping
    (a `key=value` in the select whose notation is `key=...`, a bare word in its `{}` select), waits for the
    move's preview, and taps Record."""
    from selenium.webdriver.support.select import Select

    society, verb, rest = line.split(" ", 2)
    form = next(f for f in driver.find_elements(By.CSS_SELECTOR, "form.pick")
                if (f.get_attribute("data-society"), f.get_attribute("data-verb")) == (society, verb))
    for word in rest.split():
        key, _, value = word.rpartition("=")
        fmt = f"{key}={{}}" if key else "{}"
        Select(form.find_element(By.CSS_SELECTOR, f'select[data-fmt="{fmt}"]')).select_by_value(value)
    before = version_of(driver)
    record = form.find_element(By.CSS_SELECTOR, "button.record")
    wait(driver, lambda d: record.is_enabled())  # the move is previewed first; only then may it be recorded
    assert form.find_element(By.CSS_SELECTOR, ".preview").text.startswith(line)
    record.click()
    wait(driver, lambda d: _version_or_none(d) not in (None, before))


def _version_or_none(driver: Any) -> int | None:
    try:
        return version_of(driver)
    except Exception:  # between two pages while it reloads
        return None


def test_tapping_the_table_page_records_moves_and_the_seat_page_follows_live(site, browser) -> None:
    """Two windows, as two phones at one table: the scorekeeper's table page and spider's seat page. Each move
    tapped on the first reaches the second through its live stream, without a touch on the second and without a
    reload (issue 32: the page updates in place)."""
    links = site.links["g1"]
    browser.set_window_size(*PHONE)
    browser.get(links["seats"]["spider"])
    seat = browser.current_window_handle
    assert version_of(browser) == 1
    browser.execute_script("window.stayed = true")  # gone if the page reloads
    browser.switch_to.new_window("window")
    browser.set_window_size(*PHONE)
    browser.get(links["table"])
    table = browser.current_window_handle
    wait(browser, lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-script") == "ran")
    for line in [LOYALTY, SPIDER]:
        browser.switch_to.window(table)
        tap_and_record(browser, line)
        recorded = version_of(browser)
        browser.switch_to.window(seat)
        wait(browser, lambda d, recorded=recorded: _version_or_none(d) == recorded)
    assert version_of(browser) > 3  # both loyalties, and the engine's next step
    assert browser.execute_script("return window.stayed") is True  # followed in place, never reloaded
    page = browser.find_element(By.TAG_NAME, "body").text
    assert "seat of spider" in page
    browser.switch_to.window(table)
    browser.close()
    browser.switch_to.window(seat)


def test_the_replay_steps_with_the_arrow_keys(site, browser) -> None:
    links = site.links["g1"]
    browser.set_window_size(*DESKTOP)
    browser.get(links["spectator"] + "replay?at=2")
    assert "event 2 of" in browser.find_element(By.TAG_NAME, "h1").text
    for key, at in [(Keys.ARROW_RIGHT, 3), (Keys.ARROW_LEFT, 2), (Keys.ARROW_LEFT, 1)]:
        ActionChains(browser).send_keys(key).perform()
        wait(browser, lambda d, at=at: d.current_url.endswith(f"replay?at={at}&lang=en") and _heading(d).startswith(
            f"g1: event {at} of"))
    assert browser.find_element(By.CSS_SELECTOR, ".moves li.here").get_attribute("value") == "1"
    ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()  # nothing before the first event
    assert browser.current_url.endswith("replay?at=1&lang=en")  # the step keeps the page's language


def test_the_directors_screen_follows_the_hall_but_keeps_a_search_being_typed(site, browser) -> None:
    """The director's screen reloads as games move, unless the director is typing a search (`/` goes to it): then
    it says that games moved on and keeps what was typed."""
    hall = f"{site.base}/director/{DIRECTOR}/"
    browser.set_window_size(*DESKTOP)
    browser.get(hall)
    wait(browser, lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-script") == "ran")
    recording.new(site.store, "g2", ["raven", "spider"])
    wait(browser, lambda d: "g2" in _text(d))  # followed by itself
    wait(browser, lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-script") == "ran")
    ActionChains(browser).send_keys("/").perform()
    wait(browser, lambda d: d.switch_to.active_element.get_attribute("id") == "q")
    ActionChains(browser).send_keys("g1").perform()
    recording.new(site.store, "g3", ["raven", "spider"])
    wait(browser, lambda d: d.find_element(By.ID, "moved").is_displayed())
    assert browser.find_element(By.ID, "q").get_attribute("value") == "g1" and "g3" not in _text(browser)
    browser.find_element(By.ID, "q").send_keys(Keys.ENTER)
    wait(browser, lambda d: d.current_url.endswith("q=g1"))
    assert "g1" in _text(browser) and "g2" not in _text(browser)


def _text(driver: Any) -> str:
    try:
        return driver.find_element(By.TAG_NAME, "main").text
    except Exception:  # between two pages
        return ""


def _heading(driver: Any) -> str:
    try:
        return driver.find_element(By.TAG_NAME, "h1").text
    except Exception:  # between two pages
        return ""


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_page_fits_its_window_runs_its_script_and_is_shot(site, browser, size, tmp_path) -> None:
    """Each page at phone and desktop size: nothing wider than the window (no sideways scrolling on a phone),
    the page's script ran under the CSP and the console shows no refusal; the screenshot is kept."""
    links, base = site.links["g1"], site.base
    folder = Path(os.environ.get("WHISPERS_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    pages = {"table": links["table"], "seat": links["seats"]["raven"], "spectator": links["spectator"],
             "replay": links["seats"]["raven"] + "replay", "director": f"{base}/director/{DIRECTOR}/"}
    browser.set_window_size(*size)
    browser.get_log("browser")  # drop what came before
    for name, url in pages.items():
        browser.get(url)
        wait(browser, lambda d: d.execute_script("return document.readyState") == "complete")
        if name != "director":
            assert browser.find_element(By.TAG_NAME, "html").get_attribute("data-script") == "ran", name
        width = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"{name} is {width[0]} px wide in a {width[1]} px window"
        shot = folder / f"{name}-{size[0]}x{size[1]}.png"
        assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 2000
    refused = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert refused == []


def test_a_tap_on_record_records_nothing_until_every_choice_is_made_and_then_exactly_the_move_previewed(
        site, browser) -> None:
    """Issue 32: one tap on Record recorded whatever the pickers held by default (`spider play elephant`). Now
    nothing is chosen ahead, Record stays off while a choice is missing (a tap records nothing), and once every
    choice is made the page shows the move's preview; Record then records exactly that move, and the page says what
    it did (a take-back: which move it removed)."""
    import httpx2
    from selenium.webdriver.support.select import Select

    links = site.links["record"]
    browser.set_window_size(*PHONE)
    browser.get(links["table"])
    wait(browser, lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-script") == "ran")
    browser.execute_script("window.stayed = true")  # gone if the page reloads
    needed, checked = browser.execute_script(  # what each needed choice holds, and what is ticked: read at once
        "return [Array.from(document.querySelectorAll('form.pick select[data-need]'), s => s.value), "
        "document.querySelectorAll('form.pick input:checked').length]")
    assert needed and all(value == "" for value in needed)
    assert checked == 0
    form = next(f for f in browser.find_elements(By.CSS_SELECTOR, "form.pick")
                if (f.get_attribute("data-society"), f.get_attribute("data-verb")) == ("raven", "loyalty"))
    record, shown = form.find_element(By.CSS_SELECTOR, "button.record"), form.find_element(By.CSS_SELECTOR,
                                                                                           ".preview")
    words = LOYALTY.split()[2:]
    for word in words[:-1]:  # all but the last slot
        key, _, value = word.partition("=")
        Select(form.find_element(By.CSS_SELECTOR, f'select[data-fmt="{key}={{}}"]')).select_by_value(value)
    wait(browser, lambda d: shown.is_displayed() and "every field" in shown.text)
    assert not record.is_enabled()
    record.click()
    browser.execute_script("arguments[0].requestSubmit()", form)  # Enter in a field: the same submit
    assert httpx2.get(links["table"] + "api/status").json()["version"] == 1 == version_of(browser)
    key, _, value = words[-1].partition("=")
    Select(form.find_element(By.CSS_SELECTOR, f'select[data-fmt="{key}={{}}"]')).select_by_value(value)
    wait(browser, lambda d: record.is_enabled())
    preview = shown.text.splitlines()
    assert preview[0] == LOYALTY and len(preview) == 2 and any(line.startswith("Then:") for line in preview)
    assert httpx2.get(links["table"] + "api/status").json()["version"] == 1  # shown, not recorded
    record.click()
    wait(browser, lambda d: _version_or_none(d) == 2)
    assert httpx2.get(links["table"] + "api/log").json()["lines"][-1] == LOYALTY
    # what it did, said on the page it came back to; then a take-back says which move it removed
    wait(browser, lambda d: _said(d)[1:] == [LOYALTY])
    browser.find_element(By.ID, "reason").send_keys("a slip")
    browser.find_element(By.CSS_SELECTOR, "#undo button").click()
    wait(browser, lambda d: _version_or_none(d) == 3)
    wait(browser, lambda d: any(line.startswith("= takes back m1") and line.endswith(LOYALTY)
                                for line in _said(d)))
    assert browser.execute_script("return window.stayed") is True  # both moves shown in place, no reload
    assert len(browser.find_elements(By.CSS_SELECTOR, "form.pick[data-verb=loyalty]")) == 2  # raven's is back


def _said(driver: Any) -> list[str]:
    """The lines of the page's "what the move did" box, empty while it is hidden (or the page is reloading)."""
    try:
        box = driver.find_element(By.ID, "said")
        return box.text.splitlines() if box.is_displayed() else []
    except Exception:  # between two pages
        return []


def test_the_seal_form_is_a_one_to_one_picker_and_the_seat_follows_its_own_seal_in_place(site, browser,
                                                                                         tmp_path) -> None:
    """Issue 32 (seat page): an empire could be chosen on two slots, the refusal named no slot, and after sealing
    the seat's own page said "The game moved on. Refresh". Now no slot starts chosen; choosing an empire on a slot
    swaps it with the slot that held it; sending an incomplete set is refused naming the slot; and the seal is
    followed in place, its code still shown, also when the table records the next move."""
    import httpx2
    from selenium.webdriver.support.select import Select

    from whispers.ledger.core.sealing import group

    links = site.links["seal"]
    folder = Path(os.environ.get("WHISPERS_SCREENSHOTS") or tmp_path)
    browser.set_window_size(*PHONE)
    browser.get(links["seats"]["raven"])
    wait(browser, lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-script") == "ran")
    browser.execute_script("window.stayed = true")  # gone if the page reloads
    form = browser.find_element(By.ID, "seal")
    slots = ["devout", "dutiful", "affiliated", "unallied", "opposed"]
    pick = {s: Select(form.find_element(By.NAME, s)) for s in slots}

    def held() -> dict[str, str]:  # what each slot holds, read at once in the page
        return browser.execute_script("return Object.fromEntries(arguments[1].map(s => [s, arguments[0].elements[s]"
                                      ".value]))", form, slots)

    assert set(held().values()) == {""}  # nothing chosen ahead
    for slot, empire in zip(slots, ["bear", "eagle", "lion", "horse"], strict=False):
        pick[slot].select_by_value(empire)
    pick["opposed"].select_by_value("eagle")  # eagle was on dutiful: the two slots swap
    assert held() == {"devout": "bear", "dutiful": "", "affiliated": "lion", "unallied": "horse",
                      "opposed": "eagle"}
    pick["devout"].select_by_value("lion")  # lion was on affiliated, which takes devout's bear
    assert held() == {"devout": "lion", "dutiful": "", "affiliated": "bear", "unallied": "horse",
                      "opposed": "eagle"}
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    refused = browser.find_element(By.ID, "seat-refused")
    wait(browser, lambda d: refused.is_displayed())
    label = form.find_element(By.XPATH, ".//select[@name='dutiful']/preceding-sibling::span").text
    assert refused.text == f"choose an empire for the slot {label}"  # the slot as its label names it
    assert form.find_element(By.NAME, "dutiful").get_attribute("aria-invalid") == "true"
    assert httpx2.get(links["table"] + "api/status").json()["version"] == 1  # nothing sent
    browser.save_screenshot(str(folder / "seal-refused-390x844.png"))
    pick["dutiful"].select_by_value("elephant")
    placed = held()
    assert sorted(placed.values()) == ["bear", "eagle", "elephant", "horse", "lion"]
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    code = browser.find_element(By.ID, "sealed-code")
    wait(browser, lambda d: _version_or_none(d) == 2 and _shown(d, "sealed-code"))
    assert not browser.find_element(By.ID, "moved").is_displayed()  # its own seal: no "The game moved on"
    assert browser.find_elements(By.ID, "seal") == []
    code = browser.find_element(By.ID, "sealed-code").text
    kept = browser.execute_script("return JSON.parse(localStorage.getItem('whispers:sealed:seal:raven'))")
    assert kept["tokens"] == placed and group(kept["salt"]) in code
    browser.save_screenshot(str(folder / "seal-sealed-390x844.png"))
    recording.record_batch(site.store, "seal", [SPIDER])  # the table records spider's
    wait(browser, lambda d: (_version_or_none(d) or 0) > 2)
    assert group(kept["salt"]) in browser.find_element(By.ID, "sealed-code").text  # still there to write down
    assert not browser.find_element(By.ID, "moved").is_displayed()
    assert browser.execute_script("return window.stayed") is True


def test_a_seat_sees_at_once_a_swap_the_table_recorded_against_its_sealed_set(site, browser, tmp_path) -> None:
    """Issue 32, item 5 (EN "Swapping Loyalty": the swapped tokens are turned face up): a wrong swap of a sealed set
    recorded at the table was found only at the final reveal. The seat's page checks each recorded swap against
    the set its device keeps and says so at once, naming the slot; the other pages carry nothing of the set. (The
    seat's page is opened once raven may swap: what it checks arrives live, the moves before it need no page.)"""
    import random

    import httpx2
    from test_sealing import PLACED, SALT

    from whispers.application import seats
    from whispers.ledger.core import commands as c
    from whispers.ledger.core.errors import RuleError
    from whispers.ledger.core.randomgame import random_command
    from whispers.ledger.core.sealing import commitment
    from whispers.ledger.io.game import load
    from whispers.ledger.io.store import open_store

    links = site.links["sees"]
    store = open_store(site.store)
    sealed = commitment(PLACED, SALT)
    seats.seal(store, "sees", "raven", sealed)
    rng, now, wrong, disputed = random.Random(1), dict(PLACED), None, None  # seed 1: raven's swap at move 18
    while wrong is None:
        state = load(store, "sees").state
        assert not state.over and state.phase != "reveal", "no swap of raven's came up"
        command = random_command(state, rng, cards=False)
        if isinstance(command, c.SwapLoyalty) and command.society == "raven":
            if disputed is None:  # raven's phone opens its page, the set it sealed kept on it
                browser.set_window_size(*PHONE)
                browser.get(links["seats"]["raven"])
                browser.execute_script("localStorage.setItem('whispers:sealed:sees:raven', "
                                       "JSON.stringify(arguments[0]))",
                                       {"tokens": PLACED, "salt": SALT, "commitment": sealed})
                browser.get(links["seats"]["raven"])
                wait(browser, lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-script") == "ran")
                disputed = browser.find_element(By.ID, "disputed")
                assert not disputed.is_displayed()
            a, b = command.slots
            try:  # the table names the empires as if the tokens had not moved: a wrong swap
                recording.record_move(store, "sees", c.SwapLoyalty("raven", (a, b), {a: now[a], b: now[b]}))
                wrong = (a, b)
                continue
            except RuleError:  # such a swap is refused outright here: record the right one, try the next
                command = c.SwapLoyalty("raven", (a, b), {a: now[b], b: now[a]})
            now[a], now[b] = now[b], now[a]
        recording.record_move(store, "sees", command)
    # live, no touch on the page; its text read whole once it is shown (the page may swap its parts meanwhile)
    label = _shown_text(browser, "disputed")
    assert label.startswith("The table recorded a swap your sealed set contradicts")
    assert any(f" {slot} " in label for slot in wrong)
    folder = Path(os.environ.get("WHISPERS_SCREENSHOTS") or tmp_path)
    browser.save_screenshot(str(folder / "seat-disputes-390x844.png"))
    for other in (links["seats"]["spider"], links["table"], links["spectator"]):
        page = httpx2.get(other).text
        assert SALT not in page and "contradicts" not in page.split("data-say=")[0]


def _shown_text(driver: Any, element: str) -> str:
    """The text of the element once it is displayed, read in the page at once (no part swapped between a find and
    a read)."""
    found: list[str] = []

    def read(d: Any) -> bool:
        text = d.execute_script("const e = document.getElementById(arguments[0]); "
                                "return e && e.checkVisibility() ? e.innerText : null", element)
        found[:] = [text] if text else []
        return bool(found)

    wait(driver, read)
    return found[0]


def _shown(driver: Any, element: str) -> bool:
    """Whether the element is displayed; False while the page swaps its parts in place (a stale element)."""
    try:
        return driver.find_element(By.ID, element).is_displayed()
    except Exception:  # replaced between the find and the look
        return False
