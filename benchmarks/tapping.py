"""The table page driven by taps alone (issue 32): each notation line of a game tapped on the page as a player would,
through the council grid (deploy, retrieve, swap-agent, swap-loyalty: web/static/council.js), the board (recruit,
attack: web/static/board.js) and the pickers' selects and buttons (every other move: web/templates/pickers.html),
counting the taps. Shared by benchmarks/taps.py and tests/test_tap_game.py.

A select choice counts as one tap. Text a move can only be typed (a card play's board changes)
is typed and its keystrokes counted apart. Before every tap that leaves the selection incomplete, no Record button of
the page may be on: a move recordable from an incomplete selection is counted (issue 32's target: none)."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

PHONE, DESKTOP = (390, 844), (1280, 800)
WAIT = 30  # seconds a page may take on a loaded machine (a bound, not a measurement)
SETTLE = 0.2  # seconds after the page shows a new version: it is done swapping its parts in place
COUNCIL = ("deploy", "retrieve", "swap-agent", "swap-loyalty")
BOARD = ("recruit", "attack")
ORDERS = ("recruit", "attack", "draw", "swap-agent")  # what an order of the empire turns records
VERSION = "Number(document.getElementById('game')?.dataset.version ?? -1)"  # -1 while the page swaps its parts
RECORDS_ON = "Array.from(document.querySelectorAll('button.record')).filter(b => !b.disabled).length"


def lines_of(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]


def served(store: str) -> tuple[subprocess.Popen, str]:
    """`whispers serve` on a free port over `store` (its output in serve.log beside it): (the process, its URL)."""
    import httpx2

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    exe = shutil.which("whispers", path=str(Path(sys.executable).parent)) or "whispers"
    env = {"WHISPERS_STORE": store, "WHISPERS_DIRECTOR_TOKEN": "d" * 32, "PATH": str(Path(sys.executable).parent)}
    log = open(Path(store).parent / "serve.log", "w")  # noqa: SIM115 (the server's, for as long as it runs)
    server = subprocess.Popen([exe, "serve", "--port", str(port)], env=env, stderr=log, stdout=log)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            httpx2.get(base + "/static/app.css", timeout=1)
            return server, base
        except httpx2.TransportError:
            time.sleep(0.1)
    server.terminate()
    raise RuntimeError("whispers serve did not start")


def chromium() -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                              options=options)
    driver.set_window_size(*PHONE)
    return driver


def tap(driver: WebDriver, element: WebElement) -> int:
    """A tap on `element`, as a finger's: scrolled to the middle of the window (a sticky bar never covers what is
    tapped), then the mouse moved, pressed and released at its middle, which must be on it (nothing covering it
    there), as chromedriver's own click does it, but sent to the browser's input directly (chromedriver's click
    costs the browser several times as much CPU). How many Record buttons were on before it."""
    on, x, y, hit = driver.execute_script(f"""
        const el = arguments[0];
        el.scrollIntoView({{block: 'center', inline: 'center'}});
        const r = el.getClientRects()[0] || el.getBoundingClientRect();
        const x = (Math.max(r.left, 0) + Math.min(r.right, window.innerWidth)) / 2;
        const y = (Math.max(r.top, 0) + Math.min(r.bottom, window.innerHeight)) / 2;
        const hit = document.elementFromPoint(x, y);
        return [{RECORDS_ON}, x, y, hit && (el.contains(hit) ? '' : hit.outerHTML.slice(0, 120))];""", element)
    if hit != "":
        raise AssertionError(f"a tap on {element.tag_name} would land on {hit!r}")
    for kind, buttons in (("mouseMoved", 0), ("mousePressed", 1), ("mouseReleased", 0)):
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {
            "type": kind, "x": x, "y": y, "button": "none" if kind == "mouseMoved" else "left",
            "buttons": buttons, "clickCount": 0 if kind == "mouseMoved" else 1})
    return on


@dataclass
class Tapped:
    """One move tapped: its line, its verb, the taps and the keystrokes it took, and whether a Record button was on
    before its selection was complete."""

    line: str
    verb: str
    taps: int
    keys: int
    early: bool


class Table:
    """The table page of one game in `driver`, its moves tapped one line at a time. `shoot(name)` is called at each
    page state worth a screenshot (the move composed, previewed, before Record)."""

    def __init__(self, driver: WebDriver, shoot: Callable[[str], object] | None = None) -> None:
        self.driver, self.shoot = driver, shoot or (lambda name: None)
        self.taps = self.keys = 0
        self.early = False

    # --- the page -------------------------------------------------------------------------------------------------

    def wait(self, until: Callable[[WebDriver], object]) -> None:
        """Until `until(driver)` holds, asked from here every 0.1 s (each ask is a round trip to the browser: for
        what the page can answer itself, `until_page` waits in the page)."""
        WebDriverWait(self.driver, WAIT, poll_frequency=0.1, ignored_exceptions=(
            NoSuchElementException, StaleElementReferenceException)).until(lambda d: until(d))

    def until_page(self, expression: str, *args: object) -> object:
        """Until the JavaScript `expression` (over `args`: arguments[0]...) is truthy in the page, checked by the
        page itself every 50 ms, in one round trip (a poll from here costs the browser a script a time): its value.
        For a page that changes in place; a reload while waiting fails the wait."""
        late = (WAIT - 2) * 1000  # ms: the answer (falsy) before the driver's own script timeout
        return self.driver.execute_async_script(f"""
            const done = arguments[arguments.length - 1];
            const holds = () => {{ try {{ return ({expression}); }} catch (e) {{ return null; }} }};
            const started = Date.now();
            (function check() {{
              const value = holds();
              if (value || Date.now() - started > {late}) {{ done(value); }} else {{ setTimeout(check, 50); }}
            }})();""", *args)

    def version(self) -> int:
        """The version of the game the page shows (-1 while it swaps its parts in place)."""
        return self.driver.execute_script(f"return {VERSION}")

    def newer(self, than: int) -> None:
        """Until the page shows a version of the game newer than `than`."""
        if not self.until_page(f"{VERSION} > arguments[0]", than):
            raise AssertionError(f"the page never showed a version after {than}")

    def ready(self) -> None:
        if not self.until_page("document.documentElement.dataset.script === 'ran'"):
            raise AssertionError("the page's script never ran")

    def records_on(self) -> int:
        return self.driver.execute_script(f"return {RECORDS_ON}")

    def _before(self, complete: bool, on: bool) -> None:
        """Whether a Record button was `on` before a tap that leaves the selection incomplete."""
        if not complete and on:
            self.early = True

    def tap(self, element: WebElement, complete: bool = False) -> None:
        """A tap on `element` (`tap` below); `complete`: the selection is already complete before it (no check)."""
        self._before(complete, tap(self.driver, element))
        self.taps += 1

    def choose(self, select: WebElement, value: str) -> None:
        """A tap on the choice `value` of `select`: as chromedriver does it for an option (in the page, not through
        the browser's input: an open list of choices is no part of the page), the choice made and the select's
        input and change told, once the select is shown and both are enabled."""
        on, made = self.driver.execute_script(f"""
            const select = arguments[0];
            select.scrollIntoView({{block: 'center'}});
            const on = {RECORDS_ON};
            const option = Array.from(select.options).find(o => o.value === arguments[1]);
            const shown = select.getClientRects().length > 0;
            if (!option || option.disabled || select.disabled || !shown) {{ return [on, false]; }}
            option.selected = true;
            select.dispatchEvent(new Event('input', {{bubbles: true}}));
            select.dispatchEvent(new Event('change', {{bubbles: true}}));
            return [on, true];""", select, value)
        if not made:
            raise AssertionError(f"no choice {value!r} to make in {select.get_dom_attribute('data-fmt')!r}")
        self._before(False, on)
        self.taps += 1

    def type(self, field: WebElement, text: str) -> None:
        self._before(False, self.driver.execute_script(
            f"arguments[0].scrollIntoView({{block: 'center'}}); return {RECORDS_ON}", field))
        field.send_keys(text + Keys.TAB)  # Tab: the field's change, which previews the move
        self.keys += len(text) + 1

    def css(self, css: str, within: WebElement | None = None) -> WebElement:
        return (within or self.driver).find_element(By.CSS_SELECTOR, css)

    def picker(self, society: str, verb: str) -> WebElement:
        found = self.driver.execute_script(
            "return Array.from(document.querySelectorAll('form.pick'))"
            ".find(f => f.dataset.society === arguments[0] && f.dataset.verb === arguments[1]) || null", society, verb)
        if found is None:
            raise AssertionError(f"no picker offers {society} {verb}")
        return found

    def record(self, form: WebElement, line: str, shot: str | None = None) -> None:
        """Record, once the preview shows the move; then the page follows it."""
        button = self.css("button.record", form)
        # once Record is on: the preview's text, and the version of the game the page shows
        shown = self.until_page(f"!arguments[0].disabled && [arguments[1].querySelector('.preview').innerText, "
                                f"{VERSION}]", button, form)
        if not shown:
            raise AssertionError(f"{line!r} was never previewed recordable")
        preview, before = shown
        # the society and the verb, as the preview says them (an order by its words: `raven Recruit 1 per farm`)
        if " ".join(line.split()[:2]).casefold() not in preview.casefold():
            raise AssertionError(f"the preview of {line!r} reads {preview!r}")
        if shot:
            self.shoot(shot)
        self.tap(button, complete=True)
        self.newer(before)
        time.sleep(SETTLE)

    # --- one line -------------------------------------------------------------------------------------------------

    def move(self, line: str) -> Tapped:
        """`line` tapped on the page and recorded: what it took."""
        self.taps = self.keys = 0
        self.early = False
        if self.records_on():  # nothing is chosen ahead: no Record is on before the first tap
            self.early = True
        society, verb, *args = line.split()
        shot = None if verb in getattr(self, "_shot", set()) else verb
        self._shot = getattr(self, "_shot", set()) | {verb}
        form = getattr(self, "_" + verb.replace("-", "_"), self._picked)(society, verb, args)
        self.record(form, line, shot)
        return Tapped(line, verb, self.taps, self.keys, self.early)

    def _deploy(self, society: str, verb: str, args: list[str]) -> WebElement:
        cells = self.driver.find_elements(By.CSS_SELECTOR, f'td.office.tappable[data-position="{args[0]}"]')
        if not cells:  # a region (the revised rules' agents on the board): no council cell, the picker's select
            form = self.picker(society, verb)
            self.choose(self.css('select[data-fmt="{}"]', form), args[0])
            return form
        self.tap(cells[0])
        return self.css("form.pick.pinned")

    _retrieve = _deploy

    def _swap_agent(self, society: str, verb: str, args: list[str]) -> WebElement:
        empire = (self.picker(society, verb).get_dom_attribute("data-at") or "").split(".")[0]
        self.tap(self.css(f'td.office.tappable[data-position="{empire}.{args[0]}"]'))
        return self.css("form.pick.pinned")

    def _swap_loyalty(self, society: str, verb: str, args: list[str]) -> WebElement:
        for arg in args:
            self.tap(self.css(f'tr.loyalty[data-society="{society}"] [data-slot="{arg.split("=")[0]}"]'))
        form = self.css("form.pick.pinned")
        shows = [a.split("=")[1] for a in args if "=" in a]
        fields = form.find_elements(By.CSS_SELECTOR, 'select[data-fmt="={}"]')  # only for a sealed set: else the
        for field, empire in zip(fields, shows if fields else [], strict=True):  # engine knows what each shows
            self.choose(field, empire)
        return form

    def _board(self, society: str, verb: str, args: list[str]) -> WebElement:
        section = self.css("#boardmap")
        moves = json.loads(section.get_dom_attribute("data-moves") or "[]")
        named = [a for a in args if a.split("=")[0] in ("order", "at")]  # which order, where the line says so
        args = [a for a in args if a not in named]
        moves = [m if all(n in m["line"].split() for n in named if n.split("=")[0] + "=" in m["line"]) else
                 {**m, "verb": ""} for m in moves]
        if verb == "recruit":
            placed = {a.split("=")[0]: int(a.split("=")[1]) for a in args}
            fits = [m["verb"] == verb and set(placed) <= set(m["regions"]) and sum(placed.values()) == m["amount"]
                    for m in moves]
        else:
            fits = [m["verb"] == verb and any(a[:2] == args[:2] and a[2] >= int(args[2]) for a in m["attacks"])
                    for m in moves]
        index = next((i for i, m in enumerate(moves) if fits[i] and m["society"] == society), None)
        if index is None:
            raise AssertionError(f"no move on the board fits {society} {verb} {' '.join(named + args)}: {moves}")
        mode = section.find_elements(By.CSS_SELECTOR, "button.mode")[index]
        if mode.get_dom_attribute("aria-pressed") != "true":
            self.tap(mode)
        region = '#boardmap .region[data-region="{}"]'
        if verb == "recruit":
            for where, n in placed.items():
                for _ in range(n):
                    self.tap(self.css(region.format(where)))
        else:
            self.tap(self.css(region.format(args[0])))
            self.tap(self.css(region.format(args[1])))
            for n in range(int(args[2])):
                self.tap(self.css("#boardmap .stepper-row .more"), complete=n > 0)
        return self.css("#move")

    _recruit = _attack = _board

    def _picked(self, society: str, verb: str, args: list[str]) -> WebElement:
        """Every other move in its picker: a select per `slot=empire` or card, a box per card, typed fields last."""
        form = self.picker(society, verb)
        if verb in ("loyalty", "reveal"):
            if args == ["sealed"]:
                self.tap(self.css("input.sealed", form))
            for arg in args if args != ["sealed"] else []:
                slot, empire = arg.split("=")
                self.choose(self.css(f'select[data-fmt="{slot}={{}}"]', form), empire)
        elif verb == "draw":
            fields = form.find_elements(By.CSS_SELECTOR, 'select[data-fmt="{}"]')
            cards = [a for a in args if ":" in a and "=" not in a]
            for field, card in zip(fields, cards, strict=False):
                self.choose(field, card)
            if not cards:
                self.tap(self.css("button.ask", form))
        elif verb in ("pass", "no-card"):
            self.tap(self.css("button.ask", form))
        elif verb in ("discard", "play"):
            # what may be left out (payment, board changes) first; what the move needs (its card, its ability) last,
            # so that a Record on before the last tap is one on before the selection was complete
            keys = dict(a.split("=", 1) for a in args if "=" in a)
            if "effect" in keys:  # a decree's effect, then each of its parameters
                self.choose(self.css("select.effect", form), keys["effect"])
                fieldset = self.css(f'fieldset.params[data-effect="{keys["effect"]}"]', form)
                for key in list(keys):
                    fields = fieldset.find_elements(By.CSS_SELECTOR, f'[data-fmt="{key}={{}}"]')
                    if fields and fields[0].tag_name == "select":
                        self.choose(fields[0], keys.pop(key))
                    elif fields:  # a parameter the page offers no choices for: typed
                        self.type(fields[0], keys.pop(key))
            changes = [f"{k}={v}" for k, v in keys.items() if k not in ("ability", "pay", "effect")]
            if changes:  # a card's board changes (add=, kill=, move=, agent=, act=): typed
                self.type(self.css('.field.wide input[data-fmt="{}"]', form), " ".join(changes))
            for card in keys.get("pay", "").split(",") if "pay" in keys else []:
                self.tap(self.css(f'.pay input[value="{card}"]', form).find_element(By.XPATH, ".."))
            for card in (a for a in args if "=" not in a):  # a card's box not yet ticked (a card may be held twice)
                label = self.driver.execute_script(
                    "return Array.from(arguments[0].querySelectorAll('.cards:not(.pay) input'))"
                    ".find(b => b.value === arguments[1] && !b.checked).parentElement", form, card)
                self.tap(label)
            if "ability" in keys:
                self.choose(self.css('select[data-fmt="ability={}"]', form), keys["ability"])
        else:
            raise AssertionError(f"no tap path for {verb!r}")
        return form
