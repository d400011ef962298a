"""Issue 35's "Done when": a whole small tournament (8 entrants, 3 rounds) end to end through the CLI and the
pages; by default 2 rounds (ROUNDS: each round's two games cost about five seconds of CPU to publish), the 3 rounds
with --slow. Each round is paired and started with `tournament pair --start`, every game recorded through `whispers
move GAME -` (random legal games, played from the seats and first player the pairing chose), finalised by the
director; the public board is read between moves, differentially (a world whose one game differs only in a
hidden loyalty gives the same board until that game ends); the entrants are rated; the seat cards are written.
the tournament is published as static pages, which the browser opens from file:// and steps through."""

import json
import random
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from sizes import sized
from starlette.testclient import TestClient
from test_browser import missing, wait

from whispers.application.board import board_token
from whispers.cli.main import whispers
from whispers.ledger.core import rules
from whispers.ledger.core.randomgame import random_command
from whispers.ledger.io.game import load
from whispers.ledger.io.store import open_store
from whispers.projections.log import format_record
from whispers.web.app import create_app

DIRECTOR = "t" * 32
ENTRANTS = ["Ana", "Bo", "Cy", "Dee", "Eve", "Fin", "Gus", "Hal"]
ROUNDS = sized(2, 3)  # round 2 is paired by round 1's standings (Swiss), round 3 by both
CUP = 'name = "Club Cup"\nentrants = [' + ", ".join(f'"{e}"' for e in ENTRANTS) + "]\n"


def cli(store: Path, *args: str, stdin: str | None = None) -> str:
    result = CliRunner().invoke(whispers, list(args), input=stdin, env={"WHISPERS_STORE": str(store),
                                                                        "COLUMNS": "160"})
    assert result.exit_code == 0, f"{args}: {result.stderr}"
    return result.stdout


def moves_for(store: Path, game: str, seed: int) -> list[str]:
    """A random legal game from the stored start (its seats and first player as paired), as notation lines."""
    with open_store(str(store)) as s:
        started = load(s, game)
    rng = random.Random(seed)
    state, events = started.state, [started.events[0]]
    while not state.over:
        for event in rules.decide(state, random_command(state, rng)):
            state = rules.evolve(state, event)
            events.append(event)
    return [line for line in format_record(events, comments=False) if not line.startswith(("game ", "["))]


def other_loyalty(lines: list[str]) -> tuple[list[str], int]:
    """The same moves with the first recorded loyalty set's first two tokens' empires swapped (the set stays
    legal, and hidden from the spectators), and the line's index."""
    index = next(i for i, line in enumerate(lines) if " loyalty " in line and "sealed" not in line)
    words = lines[index].split()
    tokens = [w for w in words if "=" in w]
    (a_slot, a), (b_slot, b) = (t.split("=") for t in tokens[:2])
    changed = [f"{a_slot}={b}" if w == tokens[0] else f"{b_slot}={a}" if w == tokens[1] else w for w in words]
    return [*lines[:index], " ".join(changed), *lines[index + 1:]], index


def board(store: Path, cup: Path) -> str:
    with open_store(str(store)) as s:
        answer = TestClient(create_app(s, DIRECTOR, cup)).get(f"/hall/{board_token(DIRECTOR)}/")
    assert answer.status_code == 200
    return answer.text


def test_a_small_tournament_end_to_end(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    a, b = tmp_path / "a", tmp_path / "b"  # two worlds: b differs from a in one hidden loyalty set of round 1
    for world in (a, b):
        world.mkdir()
        (world / "cup.toml").write_text(CUP, encoding="utf-8")
    store_a, store_b, cup_a, cup_b = a / "s.sqlite", b / "s.sqlite", a / "cup.toml", b / "cup.toml"
    seed = 0
    for round_no in range(1, ROUNDS + 1):
        worlds = [(store_a, cup_a), (store_b, cup_b)] if round_no == 1 else [(store_a, cup_a)]
        for store, cup in worlds:
            printed = cli(store, "tournament", "pair", str(cup), "--round", str(round_no), "--start")
            assert f"Club Cup · round {round_no} · table 1" in printed
        games = json.loads(cli(store_a, "games", "--event", "Club Cup", "--json"))
        games = [g for g in games if g["meta"]["round"] == str(round_no)]
        assert len(games) == 2 and all(len(g["meta"]["seats"]) == 4 for g in games)
        for game in games:
            seed += 1
            lines = moves_for(store_a, game["game"], seed)
            if round_no == 1 and game["game"] == "r1-t1":
                changed, index = other_loyalty(lines)
                # in progress: the loyalty recorded, then half the game, then all but its last move
                previous = 0
                for cut in (index + 1, len(lines) // 2, len(lines) - 1, len(lines)):
                    cli(store_a, "move", "r1-t1", "-", stdin="\n".join(lines[previous:cut]) + "\n")
                    cli(store_b, "move", "r1-t1", "-", stdin="\n".join(changed[previous:cut]) + "\n")
                    previous = cut
                    if cut < len(lines):
                        assert board(store_a, cup_a) == board(store_b, cup_b), cut
                # over: its final scoring is public, and the differing set shows (the control of the comparison)
                assert board(store_a, cup_a) != board(store_b, cup_b)
            else:
                cli(store_a, "move", game["game"], "-", stdin="\n".join(lines) + "\n")
        for game in games:
            cli(store_a, "finalize", game["game"], "--by", "TD")
        standings = json.loads(cli(store_a, "tournament", str(cup_a), "--json"))
        assert standings["in_progress"] == [] and standings["unfinalised"] == []
        assert {r["entrant"] for r in standings["rulesets"]["official"]} == set(ENTRANTS)
    rows = json.loads(cli(store_a, "tournament", str(cup_a), "--json"))["rulesets"]["official"]
    assert all(len(r["games"]) == ROUNDS and r["finalised"] == ROUNDS and not r["provisional"] for r in rows)
    assert rows[0]["place"] in ("1", "=1")
    page = board(store_a, cup_a)
    assert 'class="provisional"' not in page and page.count('<article class="table over">') == 2
    rated = json.loads(cli(store_a, "ratings", "--json"))
    assert rated["rated"] == 2 * ROUNDS and {r["person"] for r in rated["ratings"]} == set(ENTRANTS)
    assert all(r["games"] == ROUNDS and len(r["history"]) == ROUNDS for r in rated["ratings"])
    assert sum(row["games"] for row in rated["effects"]["by_seat"]) == 2 * ROUNDS * 4
    cli(store_a, "share", "--round", str(ROUNDS), str(cup_a), "--cards", str(a / "cards.pdf"))
    assert (a / "cards.pdf").read_bytes().startswith(b"%PDF")
    shutil.rmtree(b)
    published = json.loads(cli(store_a, "publish", str(a / "site"), "--tournament", str(cup_a), "--json"))
    assert len(published["games"]) == 2 * ROUNDS and published["not_published"] == []
    if missing:  # no browser here: the pages are checked as files
        return
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    driver = request.getfixturevalue("browser")
    driver.get((a / "site" / "index.html").as_uri())
    assert "Club Cup" in driver.title
    driver.find_element(By.CSS_SELECTOR, f"a[href^='games/r{ROUNDS}-t2-']").click()  # a finished game opens at its end
    at = "return document.documentElement.dataset.at"
    wait(driver, lambda d: (d.execute_script(at) or "").isdigit())
    last = int(driver.execute_script(at))
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT)
    wait(driver, lambda d: d.execute_script(at) == str(last - 2))

