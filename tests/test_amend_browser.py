"""Amending a past move from the table page's replay in a real browser (issue 32, item 4): Debian's headless
Chromium at phone (390x844) and desktop (1280x800) size. A 14-move game; the move ten moves back (m4, serpent's
loyalty, recorded with two tokens misread) is amended from the replay page: the form is filled in with the move as
recorded, the preview says what the corrected move does and how many later moves are decided again, and only one
more tap records it; the replay then marks the amendment, `verify` passes, and a seat's page, open meanwhile,
follows in place (no reload). A refused amendment shows the refusal naming the later move it makes illegal, offers
nothing to record, and changes nothing. Screenshots go to $WHISPERS_SCREENSHOTS when set. One `whispers serve`
serves the module, each test amending a copy of the game of its own (`site`)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_amend_web import ILLEGAL_LATER, OPENING, SERPENT
from test_browser import DESKTOP, PHONE, Site, missing, serve, wait

from whispers.application import files, recording, sharing
from whispers.ledger.io.store import open_store
from whispers.projections.labels import resolve

pytestmark = pytest.mark.skipif(bool(missing), reason=f"no {', '.join(missing)}")

if not missing:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys


GAMES = ["phone", "desktop", "refused"]
"""A copy of the 14-move game for each test that amends it."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """`whispers serve` over a store holding GAMES, each the 14-move game imported and shared."""
    folder = tmp_path_factory.mktemp("amend")
    store, notation = str(folder / "s.sqlite"), folder / "p.txt"
    notation.write_text(OPENING, encoding="utf-8")
    for game in GAMES:
        files.import_file(store, notation, game)
    with serve(store) as base:
        yield Site(store, base, {game: sharing.share(store, game, base=base).to_json() for game in GAMES})


def _event(store: str, game: str, move: str) -> int:
    with open_store(store) as opened:
        return resolve(game, recording.open_game(opened, game).events, move)


def _version(store: str, game: str) -> int:
    with open_store(store) as opened:
        return opened.version(game)


def _ran(driver: Any) -> bool:
    return driver.find_element(By.TAG_NAME, "html").get_attribute("data-script") == "ran"


def _open_amend(driver: Any, replay: str, event: int) -> None:
    """The table's replay at its last event, then the move `event` chosen in the move list, then its amend action."""
    driver.get(replay)
    wait(driver, _ran)
    link = driver.find_element(By.CSS_SELECTOR, f'.moves li[value="{event}"] a')
    driver.execute_script("arguments[0].closest('details').open = true", link)
    link.click()
    wait(driver, lambda d: d.find_element(By.ID, "replay").get_attribute("data-at") == str(event) and _ran(d))
    driver.find_element(By.CSS_SELECTOR, "details#amend summary").click()


def _preview(driver: Any) -> Any:
    box = driver.find_element(By.CSS_SELECTOR, "#amend-form .preview")
    wait(driver, lambda d: box.is_displayed() and "wait" not in box.get_attribute("class"))
    return box


def _fits(driver: Any) -> None:
    width = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"{width[0]} px wide in a {width[1]} px window"


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_move_ten_moves_back_is_amended_from_the_replay_previewed_first(site, browser, tmp_path, size) -> None:
    folder = Path(os.environ.get("WHISPERS_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    shape = f"{size[0]}x{size[1]}"
    game = "phone" if size == PHONE else "desktop"
    store, links = site.store, site.links[game]
    browser.set_window_size(*size)
    browser.get_log("browser")
    # a seat's page open meanwhile, with a marker on its window that a reload would wipe
    browser.get(links["seats"]["rat"])
    wait(browser, _ran)
    browser.execute_script("window.stayed = true")
    seat = browser.current_window_handle
    browser.switch_to.new_window("window")
    browser.set_window_size(*size)
    m4, before = _event(store, game, "m4"), _version(store, game)
    assert _event(store, game, "m14") > m4  # 14 moves: m4 is the move ten moves back
    _open_amend(browser, links["table"] + "replay", m4)
    line = browser.find_element(By.ID, "amend-line")
    recorded = "serpent loyalty devout=eagle dutiful=bear affiliated=horse unallied=lion opposed=elephant"
    assert line.get_attribute("value") == recorded  # the move as recorded, to correct in place
    record = browser.find_element(By.CSS_SELECTOR, "#amend-form button.record")
    assert not record.is_enabled()
    line.clear()
    line.send_keys(SERPENT, Keys.ARROW_LEFT, Keys.ARROW_RIGHT)  # the arrows move in the text, not the replay
    browser.find_element(By.ID, "amend-reason").send_keys("devout and dutiful tokens misread")
    browser.find_element(By.CSS_SELECTOR, "#amend-form button.ask").click()
    box = _preview(browser)
    said = box.text
    assert "ok" in box.get_attribute("class"), said
    assert said.startswith("Preview, nothing recorded: m4 R1 loyalty 4 corrected; 10 later moves decided again.")
    assert SERPENT in said and "Then: spider controls the bear marshal" in said
    assert _version(store, game) == before  # the preview decided it and appended nothing
    wait(browser, lambda d: record.is_enabled())
    _fits(browser)
    browser.execute_script("document.getElementById('amend').scrollIntoView()")
    browser.save_screenshot(str(folder / f"amend-preview-{shape}.png"))
    record.click()
    wait(browser, lambda d: "at=" in d.current_url and d.find_elements(By.CSS_SELECTOR, ".event.amended"))
    after = _version(store, game)
    assert after > before
    # the replay stands at the corrected move, saying what amended it, and its move list marks the amendment
    assert browser.find_element(By.CSS_SELECTOR, ".event.amended").text == SERPENT
    assert browser.find_element(By.CSS_SELECTOR, ".amended-note").text == "This move corrects the move first " \
        "recorded at event 5 (devout and dutiful tokens misread): see the amendment (event 30)"
    marker = browser.find_element(By.CSS_SELECTOR, ".moves li.amended:not(.here)")
    assert "take the moves back" in marker.get_attribute("textContent")
    original = browser.find_element(By.CSS_SELECTOR, f'.moves li[value="{m4}"]')
    assert original.get_attribute("class") == "corrected"  # struck through, in a round that may be folded
    assert "amended at event" in original.get_attribute("textContent")
    _fits(browser)
    browser.save_screenshot(str(folder / f"amend-replay-{shape}.png"))
    with open_store(store) as opened:
        checked = files.verify(opened, game)  # raises VerifyError if any move disagrees with the rules
        assert checked.to_json()["events"] == after
        assert recording.open_game(opened, game).state.loyalty["serpent"].tokens["devout"] == "bear"
    # the seat's page followed the amendment in place, without a reload
    browser.switch_to.window(seat)
    wait(browser, lambda d: d.find_element(By.ID, "game").get_attribute("data-version") == str(after))
    assert browser.execute_script("return window.stayed") is True
    # and a seat never sees the action on its replay
    browser.get(links["seats"]["rat"] + f"replay?at={m4}")
    assert not browser.find_elements(By.ID, "amend")
    assert [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_a_refused_amendment_names_the_later_move_and_changes_nothing(site, browser, tmp_path) -> None:
    """EN Deploy Agents Phase, Step 2: a position holds one agent. Spider's m7 corrected to lion.steward leaves
    serpent's m12 (lion.steward) illegal: the preview names m12, Record stays off, and the record is as it was."""
    folder = Path(os.environ.get("WHISPERS_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    store, links = site.store, site.links["refused"]
    browser.set_window_size(*PHONE)
    move, corrected = ILLEGAL_LATER
    before = _version(store, "refused")
    _open_amend(browser, links["table"] + "replay", _event(store, "refused", move))
    line = browser.find_element(By.ID, "amend-line")
    line.clear()
    line.send_keys(corrected)
    reason = browser.find_element(By.ID, "amend-reason")
    reason.send_keys("wrong office")
    line.send_keys(Keys.ENTER)  # Enter in the line: a preview, never a record
    box = _preview(browser)
    assert "no" in box.get_attribute("class").split()
    assert box.text.startswith("the amendment makes m12 R1 deploy 8 illegal (serpent deploy lion.steward)")
    record = browser.find_element(By.CSS_SELECTOR, "#amend-form button.record")
    assert not record.is_enabled()
    reason.send_keys(Keys.ENTER)  # Enter again: still only the preview (nothing to record)
    _preview(browser)
    browser.save_screenshot(str(folder / "amend-refused-390x844.png"))
    assert _version(store, "refused") == before
