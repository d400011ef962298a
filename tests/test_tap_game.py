"""A game recorded by taps on the table page (issue 32's "Done when"), in Debian's headless Chromium at phone size
(390x844) on `whispers serve` (SQLite): the bundled four-player game's moves, setup included, tapped on the council,
the board or a picker (benchmarks/tapping.py, which benchmarks/taps.py counts), each previewed before Record and
none recordable from an incomplete selection; rat seals its set at its own page and, when the table records a swap
for it that its set contradicts, disputes it (EN "Swap Phase": the two tokens swapped are turned face up), the
table's page shows the dispute and the swap is taken back; rat reveals its set from its page at the end (rat's
phone opens its page for these three, its set kept on the phone between); then a move ten moves back is amended
from the replay page.

By default every move of round 1 is tapped (its setup, deploys, recruits, attacks, draws with and without a card,
swap of an agent, passes, and the disputed swap), and past it the first move of each tap path round 1 lacks (a
retrieve, a card played with its board change typed, one paid for with another card, a discard, a swap of tokens
shown, rat's reveal); the moves between are recorded by the table's application in a batch, which the table's page
follows live. With `--slow` (WHISPERS_SLOW=1) every move of the game is tapped (about two minutes). The recorded log
is the bundled game's either way. Screenshots of each page state go to $WHISPERS_SCREENSHOTS when it is set (none
otherwise)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest
from sizes import slow
from test_amend_browser import _open_amend, _preview
from test_browser import PHONE, missing, wait
from test_council_taps import both_sizes as council_shots
from test_council_taps import ready, seal_at_seat, shown
from test_seat_pages import LINES, RATS_SET, WRONG_SWAP

from whispers.application import files, reading, recording, sharing
from whispers.ledger.io.game import import_lines
from whispers.ledger.io.store import open_store
from whispers.projections.labels import resolve

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

pytestmark = pytest.mark.skipif(bool(missing), reason=f"no {', '.join(missing)}")

if not missing:
    from selenium.webdriver.common.by import By
    from tapping import SETTLE, Table, served

RATS_SWAP = next(i for i, line in enumerate(LINES) if line == "rat pass")  # round 1's swap phase, rat's turn
WAS = "spider recruit order=recruit_per_fort at=elephant.marshal brass-market=3"  # ten moves before the last
SHOWN = "spider recruit order=recruit_per_fort brass-market=3"  # as the amend field offers it (no `at=` needed)
FIXED = "spider recruit order=recruit_per_fort brass-market=2 ivory-gate=1"
ROUND_2 = LINES.index("spider retrieve lion.sheriff")  # round 2 opens with its retrieve phase
REVEAL = next(i for i, line in enumerate(LINES) if line.startswith("rat reveal"))
BEYOND = [LINES.index(line) for line in (  # past round 1, the first move of each tap path it lacks:
    "spider retrieve lion.sheriff",  # a tap on the council taking an agent back
    "serpent play horse ability=1 move=windmoor:amber-steppe:1",  # a card's ability chosen, its board change typed
    "rat discard lion:2",  # a card discarded
    "serpent swap-loyalty dutiful opposed",  # a swap of tokens the engine knows (no sealed set)
    "rat play lion:3 ability=2 pay=eagle:4 add=horse:ochre-plains:3",  # a card paid for with another
)] + [REVEAL]  # rat's reveal, from its own page
TAPPED = range(1, len(LINES)) if slow() else sorted({*range(1, ROUND_2), *BEYOND})
"""The lines tapped: the whole game under `--slow`, else round 1 and the first of each tap path past it."""


def standing(log: list[str]) -> list[str]:
    """The moves standing in a log: a take-back removes the move before it; a note is no move."""
    moves: list[str] = []
    for line in log:
        if line.startswith("undo"):
            moves.pop()
        elif not line.startswith("#"):
            moves.append(line)
    return moves


def both_sizes(driver: Any, name: str) -> None:
    """A screenshot of the page state at both sizes, when asked for ($WHISPERS_SCREENSHOTS): two resizes and
    two pictures a state cost the suite half a minute of CPU otherwise."""
    council_shots(driver, f"tap-game-{name}")


def log_of(store: Any) -> list[str]:
    return [line for line in reading.log(store, "g", comments=False).lines if not line.startswith("game ")]


def test_a_game_recorded_by_taps_alone_with_a_disputed_swap_and_an_amendment(browser, tmp_path) -> None:
    """Each move tapped (deploy/retrieve on the council, recruit/attack on the board, the rest in pickers; round 1
    and the first of each other tap path by default, every move under `--slow`) recorded only by Record after its
    preview; the log equals the bundled game's (rat's set sealed at its seat, and revealed there). A wrong swap for
    rat (EN "Swap Phase") is disputed by rat's page and shown on the table's, then taken back; a move ten moves
    back is then amended from the replay (issue 32 §4), and verify passes."""
    store = str(tmp_path / "s.sqlite")
    with open_store(store) as s:
        import_lines(s, "g", LINES[:1])
    server, base = served(store)
    try:
        links = sharing.share(store, "g", base=base)
        seat = links.url(links.seats["rat"])
        rat = seal_at_seat(browser, seat, RATS_SET)  # rat seals its set at its own phone
        browser.get("about:blank")  # and leaves its page (what it sealed is kept on the phone) until the swap phase
        browser.switch_to.new_window("window")
        browser.set_window_size(*PHONE)
        browser.get(links.url(links.table))
        table = browser.current_window_handle
        page = Table(browser, lambda name: both_sizes(browser, name))
        page.ready()
        both_sizes(browser, "setup")
        tapped, batch = [], []
        for n, line in enumerate(LINES[1:], start=1):
            if line == "rat loyalty sealed":
                continue  # sealed at rat's page above
            if n not in TAPPED:
                batch.append(line)
                continue
            batch = followed(page, store, batch)
            if line.startswith("rat reveal"):
                browser.switch_to.window(rat)  # its page opened again: filled in from what the phone kept, one tap
                browser.get(seat)
                page.wait(lambda d: d.find_elements(By.ID, "reveal"))
                browser.find_element(By.CSS_SELECTOR, "#reveal button[type=submit]").click()
                browser.switch_to.window(table)
                page.wait(lambda d: d.find_elements(By.CSS_SELECTOR, ".result, #result"))
                continue
            if n == RATS_SWAP:
                disputed(browser, page, (rat, seat), table)
            tapped.append(page.move(line))
        batch = followed(page, store, batch)
        assert [t.line for t in tapped if t.early] == []  # no Record on before a selection was complete
        assert {line.split()[1] for line in LINES[1:]} == {t.verb for t in tapped} | {"reveal"}  # every kind
        assert all(t.keys == 0 for t in tapped if t.verb != "play")  # only a card's board changes are typed
        browser.execute_script("window.scrollTo(0, 0)")
        both_sizes(browser, "game-over")
        recorded = log_of(store)
        with open_store("memory:") as whole:
            import_lines(whole, "g", LINES)
            wanted = log_of(whole)
        # rat's set is sealed with a commitment at its seat (before the others: the
        # setup's loyalty lines in any order), and its reveal gives the code: the rest is the same
        sealed = [r for r in recorded if r.startswith("rat loyalty sealed sha256:")]
        assert len(sealed) == 1 and "rat loyalty sealed" in wanted, recorded[:5]
        rest = [r.split(" salt=")[0] for r in recorded if r not in sealed]
        at = rest.index(WRONG_SWAP)  # the record keeps the wrong swap, the seat's dispute and the take-back
        assert rest[at + 1].startswith("# note on event") and "rat's seat disputes this swap" in rest[at + 1]
        assert rest[at + 2] == "undo 'the seat disputes this swap'" and rest[at + 3] == "rat pass"
        assert rest[:at] + rest[at + 3:] == [w for w in wanted if w != "rat loyalty sealed"]
        amended(browser, links, store)
    finally:
        server.terminate()
        server.wait(timeout=20)


def followed(page: Any, store: str, batch: list[str]) -> list[str]:
    """The moves of `batch` (not tapped) recorded by the application, once the table's page has followed them
    live: an empty batch for the next ones."""
    if batch:
        version = recording.record_batch(store, "g", batch).after.version
        page.newer(version - 1)
        time.sleep(SETTLE)  # its parts swapped in place
    return []


def disputed(browser: Any, page: Any, rat: tuple[str, str], table: str) -> None:
    """Rat's page open at its phone (`rat`: its window, its URL), the table taps a swap for rat that contradicts
    rat's sealed set; rat's page disputes it, the table's page shows so in place, and the swap is taken back (one
    tap on Take back, its reason typed)."""
    browser.switch_to.window(rat[0])
    browser.get(rat[1])
    ready(browser)
    browser.switch_to.window(table)
    page.move(WRONG_SWAP)
    browser.switch_to.window(rat[0])
    page.wait(lambda d: shown(d, "#disputed .told"))
    assert "contradicts" in shown(browser, "#disputed")
    both_sizes(browser, "seat-disputes")
    browser.get("about:blank")  # rat's phone leaves its page again
    browser.switch_to.window(table)
    page.wait(lambda d: "rat's seat disputes this swap" in (shown(d, "#disputes") or ""))
    assert WRONG_SWAP.split(" ", 1)[1] in shown(browser, "#disputes")
    browser.execute_script("window.scrollTo(0, 0)")
    both_sizes(browser, "dispute")
    before = page.version()
    browser.find_element(By.ID, "reason").send_keys("the seat disputes this swap")
    page.tap(browser.find_element(By.CSS_SELECTOR, "#undo button[type=submit]"), complete=True)
    page.wait(lambda d: page.version() > before and not shown(d, "#disputes"))
    page.wait(lambda d: "swap-loyalty" in (shown(d, "#said") or ""))  # which move the take-back removed
    browser.execute_script("window.scrollTo(0, 0)")
    both_sizes(browser, "take-back")


def amended(browser: Any, links: Any, store: str) -> None:
    """The move ten moves before the last, amended from the table's replay (issue 32 §4): previewed, then recorded;
    the record verifies and holds the corrected move, every later move decided again."""
    with open_store(store) as s:
        moves = standing(log_of(s))
        target = len(moves) - 10  # m{target}: ten moves before the last
        event = resolve("g", recording.open_game(s, "g").events, f"m{target}")
    was = moves[target - 1]
    assert was == WAS
    _open_amend(browser, links.url(links.table).split("?")[0] + "replay", event)
    line = browser.find_element(By.ID, "amend-line")
    assert line.get_attribute("value") == SHOWN  # the move as recorded, to correct in place
    line.clear()
    line.send_keys(FIXED)
    browser.find_element(By.ID, "amend-reason").send_keys("the banners were placed elsewhere")
    browser.find_element(By.CSS_SELECTOR, "#amend-form button.ask").click()
    box = _preview(browser)
    assert "ok" in box.get_attribute("class") and "10 later moves decided again" in box.text, box.text
    browser.find_element(By.CSS_SELECTOR, "#amend-form button.record").click()
    wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".event.amended"))
    assert browser.find_element(By.CSS_SELECTOR, ".event.amended").text.endswith("brass-market=2 ivory-gate=1")
    both_sizes(browser, "amended-replay")
    with open_store(store) as s:
        files.verify(s, "g")  # raises if any move disagrees with the rules
        after = standing(log_of(s))  # the log writes an amendment as its take-backs, then the moves decided again
        assert after[target - 1] == WAS.replace("=3", "=2 ivory-gate=1")
        assert after[:target - 1] + after[target:] == moves[:target - 1] + moves[target:]
