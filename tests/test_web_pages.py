"""The pages of issue 13: pickers for each legal move, a seat sealing its loyalty, the replay's rounds, notes and
forks, the council grid, and the director's screen. Over HTTP (Starlette's test client); the pickers and the
sealing also in a real headless Chromium where one is installed (the session's: tests/conftest.py's `browser`)."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_browser import missing
from test_sealing import PLACED, SALT, play_to_the_reveal

from whispers.application import recording, review, sharing, table
from whispers.ledger.core.randomgame import random_command
from whispers.ledger.core.sealing import CODE, RULE, commitment, committed_text, group
from whispers.ledger.io.game import load
from whispers.ledger.io.store import Store, open_store
from whispers.web.app import create_app

DIRECTOR = "d" * 32
ROOT = Path(__file__).resolve().parent.parent


def served(store: Store, tournament: Path | None = None) -> TestClient:
    return TestClient(create_app(store, DIRECTOR, tournament))


def path(game: str, token: str) -> str:
    return f"/g/{game}/{token}/"


def write(client: TestClient, url: str, token: str | None, body: Any) -> Any:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    return client.post(url, json=body, headers=headers)


class Forms(HTMLParser):
    """The picker forms of a page: for each, its move and the options of each select / the inputs' formats."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self.select: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form" and "pick" in (a.get("class") or ""):
            self.forms.append({"society": a["data-society"], "verb": a["data-verb"], "selects": [], "inputs": []})
        elif self.forms and tag == "select" and a.get("data-fmt"):
            self.select = []
            self.forms[-1]["selects"].append((a["data-fmt"], self.select))
        elif self.forms and tag == "option" and self.select is not None and a.get("value"):  # not "choose…"
            self.select.append(a["value"])
        elif self.forms and tag == "input" and a.get("data-fmt"):
            self.forms[-1]["inputs"].append((a["data-fmt"], a.get("value")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None


def forms_of(page: str) -> list[dict[str, Any]]:
    parser = Forms()
    parser.feed(page)
    return parser.forms


def playing(seed: int, moves: int, players: tuple[str, ...] = ("raven", "spider", "rat")) -> Store:
    store = open_store("memory:")
    recording.new(store, "g", list(players))
    rng = random.Random(seed)
    for _ in range(moves):
        state = load(store, "g").state
        if state.over:
            break
        recording.record_move(store, "g", random_command(state, rng, named=True))
    return store


@pytest.mark.parametrize("seed", range(3))
def test_the_table_offers_a_picker_for_each_legal_move_with_its_domains(seed: int) -> None:
    """Each legal move of the prompt (ledger/core/prompt.py) is a form on the table's page, its selects holding exactly
    the move's domain (regions, positions, slots, empires); seats and spectators get none."""
    from whispers.application.reading import status

    store = playing(seed, 20 + 37 * seed)
    links = sharing.share(store, "g")
    client = served(store)
    expected = status(store, "g").options
    forms = forms_of(client.get(path("g", links.table)).text)
    assert [(f["society"], f["verb"]) for f in forms] == [(o.society, o.verb) for o in expected]
    for form, option in zip(forms, expected, strict=True):
        domains = {fmt: values for fmt, values in form["selects"]}
        if option.verb in ("deploy", "retrieve"):
            assert domains["{}"] == list(option.choices["where"])
        if option.verb == "loyalty":
            assert {fmt for fmt in domains} == {f"{slot}={{}}" for slot in option.choices["slots"]}
            assert all(values == list(option.choices["empires"]) for values in domains.values())
        if option.verb == "swap-agent":
            assert domains["{}"] == list(option.choices["targets"])
        if option.verb == "recruit":
            assert {fmt for fmt, _ in form["inputs"]} >= {f"{r}={{}}" for r in option.choices["regions"]}
    for token in [links.spectator, *links.seats.values()]:
        assert forms_of(client.get(path("g", token)).text) == []


def test_the_prompt_line_names_the_acting_society_once() -> None:
    store = playing(1, 12)
    links = sharing.share(store, "g")
    page = served(store).get(path("g", links.table)).text
    line = re.search(r'<p class="next">(.*?)</p>', page, re.S)
    assert line is not None
    text = re.sub(r"<[^>]+>", "", line[1])
    actor = load(store, "g").state
    from whispers.ledger.core.prompt import prompt

    who = prompt(actor).actors[0]
    assert text.count(who) == 1 and not text.startswith(f"{who}: ")


def test_a_seat_seals_its_own_loyalty_and_nobody_else_can() -> None:
    """whispers (issue 13): a player seals its set from its own seat; the record keeps only the commitment."""
    store = open_store("memory:")
    recording.new(store, "g", ["raven", "spider"])
    links = sharing.share(store, "g")
    client = served(store)
    sealed = commitment(PLACED, SALT)
    raven = links.seats["raven"]
    # the table, a spectator, another seat's token for raven's route, no header: all 404, nothing recorded
    for token, bearer in [(links.table, links.table), (links.spectator, links.spectator), (raven, None),
                          (raven, links.table)]:
        assert write(client, path("g", token) + "seal", bearer, {"commitment": sealed}).status_code == 404
    assert store.version("g") == 1
    assert write(client, path("g", raven) + "seal", raven, {"commitment": "sha256:nope"}).status_code == 422
    assert write(client, path("g", raven) + "seal", raven, {"commitment": 3}).status_code == 400
    done = write(client, path("g", raven) + "seal", raven, {"commitment": sealed, "version": 1})
    assert done.status_code == 201, done.text
    assert done.json() == {"game": "g", "society": "raven", "version": 2, "move": f"raven loyalty sealed {sealed}"}
    spider = links.seats["spider"]
    assert write(client, path("g", spider) + "seal", spider, {"commitment": sealed, "version": 1}).status_code == 409
    # the table can neither record a set over it nor take it back
    line = "raven loyalty " + " ".join(f"{k}={v}" for k, v in PLACED.items())
    over = write(client, path("g", links.table) + "moves", links.table, {"line": line})
    assert over.status_code == 422
    back = write(client, path("g", links.table) + "moves", links.table, {"line": 'undo "oops"', "version": 2})
    assert back.status_code == 422 and back.json()["rule"] == RULE
    for token in [links.table, spider, raven]:
        view = client.get(path("g", token) + "api/status").json()
        assert view["loyalty"]["raven"]["committed"] and view["loyalty"]["raven"]["tokens"] is None
    seat_page = client.get(path("g", raven)).text
    assert 'id="seal"' not in seat_page and "Sealed at this seat" in seat_page
    assert 'id="seal"' in client.get(path("g", spider)).text


def test_a_seat_reveals_what_it_sealed_and_the_table_cannot_for_it() -> None:
    store = open_store("memory:")
    recording.new(store, "g", ["raven", "spider", "rat"])
    links = sharing.share(store, "g")
    client = served(store)
    raven = links.seats["raven"]
    assert write(client, path("g", raven) + "seal", raven, {"commitment": commitment(PLACED, SALT)}).status_code == 201
    play_to_the_reveal(store, 2)
    assert "Reveal" in client.get(path("g", raven)).text
    wrong = write(client, path("g", raven) + "reveal", raven, {"tokens": PLACED, "salt": "ab" * 16})
    assert wrong.status_code == 422 and wrong.json()["rule"] == RULE
    assert write(client, path("g", links.table) + "reveal", links.table,
                 {"tokens": PLACED, "salt": SALT}).status_code == 404
    assert write(client, path("g", raven) + "reveal", raven, {"tokens": "x", "salt": SALT}).status_code == 400
    done = write(client, path("g", raven) + "reveal", raven, {"tokens": PLACED, "salt": SALT})
    assert done.status_code == 201, done.text
    held = load(store, "g").state.loyalty["raven"]
    assert held.at_setup(held.tokens) == PLACED
    checked = client.get(f"/director/{DIRECTOR}/verify/g").text
    assert "verified" in checked


def test_the_replay_groups_the_rounds_shows_notes_and_takes_notes_and_forks_from_table_and_director() -> None:
    store = playing(4, 40)
    links = sharing.share(store, "g")
    client = served(store)
    review.annotate(store, "g", 9, "look <here> & there", "Dana")
    page = client.get(path("g", links.spectator) + "replay?at=9").text
    assert "<summary>setup" in page and "<summary>round 1" in page
    assert "look &lt;here&gt; &amp; there" in page and "<here>" not in page
    assert 'id="note"' not in page and 'id="fork"' not in page  # a spectator neither annotates nor forks
    assert 'id="fork"' in client.get(path("g", links.table) + "replay?at=9").text
    for token in [links.spectator, *links.seats.values()]:
        assert write(client, path("g", token) + "notes", token, {"at": 3, "text": "x"}).status_code == 404
        assert write(client, path("g", token) + "forks", token, {"name": "f", "at": 3}).status_code == 404
    assert write(client, path("g", links.table) + "notes", None, {"at": 3, "text": "x"}).status_code == 404
    noted = write(client, path("g", links.table) + "notes", links.table, {"at": 3, "text": "a slip?"})
    assert noted.status_code == 201
    assert write(client, path("g", links.table) + "notes", links.table, {"at": 999, "text": "x"}).status_code == 404
    by_director = write(client, f"/director/{DIRECTOR}/g/g/notes", DIRECTOR, {"at": 4, "text": "ruled fine"})
    assert by_director.status_code == 201
    assert write(client, f"/director/{'x' * 32}/g/g/notes", "x" * 32, {"at": 4, "text": "no"}).status_code == 404
    for where, token in ((path("g", links.table), links.table), (f"/director/{DIRECTOR}/g/g/", DIRECTOR)):
        escaped = write(client, where + "notes", token, {"at": 3, "text": "look \x1b[31mred"})
        assert escaped.status_code in (400, 422) and "control character" in escaped.text, escaped.text
    forked = write(client, path("g", links.table) + "forks", links.table, {"name": "what-if", "at": 20})
    assert forked.status_code == 201, forked.text
    assert client.get(forked.json()["open"]).status_code == 200  # the fork's own table link
    assert store.version("g.what-if") == 21  # its first 20 events and the fork marker, named under the game's
    bad = write(client, path("g", links.table) + "forks", links.table, {"name": "../etc", "at": 5})
    assert bad.status_code == 422
    again = write(client, f"/director/{DIRECTOR}/g/g/forks", DIRECTOR, {"name": "g-ruling", "at": 10})
    assert again.status_code == 201 and client.get(again.json()["open"]).status_code == 200
    notes = [n["text"] for n in review.notes(store, "g").to_json()]
    assert {"a slip?", "ruled fine"} <= set(notes)


def test_the_council_grid_shows_agents_hands_and_the_score_if_it_ended_now() -> None:
    """EN "Final Scoring" if the game ended now: the table (the record) computes every society's score; a seat
    only its own (the others' loyalty is hidden from it), so theirs show as ?."""
    from whispers.application.reading import status

    store = playing(2, 90)
    links = sharing.share(store, "g")
    client = served(store)
    state = status(store, "g")
    page = client.get(path("g", links.table)).text
    for position, society in state.view["council"].items():
        empire, office = position.split(".")
        row = re.search(rf'<th scope="row">{empire}</th>(.*?)</tr>', page, re.S)
        assert row is not None
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row[1])
        assert cells[["sheriff", "steward", "marshal", "chancellor"].index(office)] == society
    def scores_on(page: str) -> list[str]:
        return [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r'<td class="score">(.*?)</td>', page)]

    def shown(scores: dict[str, int | None]) -> list[str]:
        return ["?" if scores[p] is None else str(scores[p]) for p in state.view["players"]]

    assert scores_on(page) == shown(state.scores)
    assert sum(v is not None for v in state.scores.values()) >= 2  # the record computes the recorded sets
    seat = scores_on(client.get(path("g", links.seats["spider"])).text)
    mine = status(store, "g", "spider").scores
    assert seat == shown(mine) and mine["spider"] is not None
    assert sum(v is None for v in mine.values()) == len(mine) - 1


def test_the_director_sees_every_game_live_its_standings_and_its_chain_head(tmp_path: Path) -> None:
    store = playing(3, 30)
    recording.new(store, "t2", ["raven", "spider"])
    table.describe(store, "g", {"table": "Table 7", "seats": {"raven": "Ana <b>", "spider": "Bo", "rat": "Cy"}})
    (tmp_path / "cup.toml").write_text('name = "Cup"\n[[game]]\nname = "g"\n'
                                       'seats = { raven = "Ana", spider = "Bo", rat = "Cy" }\n', encoding="utf-8")
    client = served(store, tmp_path / "cup.toml")
    hall = client.get(f"/director/{DIRECTOR}/").text
    assert "Table 7" in hall and "Ana &lt;b&gt;" in hall and "t2" in hall
    last = store.last_written("g").isoformat(timespec="seconds")  # the table facts, recorded last
    assert f'datetime="{last}"' in hall
    assert 'class="state playing"' in hall and 'class="state setup"' in hall
    assert 'data-live="/director/' in hall
    standings = client.get(f"/director/{DIRECTOR}/standings")
    assert standings.status_code == 200 and "Cup" in standings.text and "in progress: g" in standings.text
    from whispers.application.files import verify

    head = verify(store, "g").head
    assert head in client.get(f"/director/{DIRECTOR}/verify/g").text
    assert client.get(f"/director/{DIRECTOR}/g/g/replay").status_code == 200
    for wrong in [f"/director/{'x' * 32}/", f"/director/{'x' * 32}/standings", f"/director/{DIRECTOR}/g/nosuch/replay",
                  f"/director/{DIRECTOR}/g/../replay", f"/director/{'x' * 32}/g/g/replay"]:
        assert client.get(wrong).status_code == 404, wrong
    no_file = served(store).get(f"/director/{DIRECTOR}/standings")
    assert "whispers serve --tournament FILE" in no_file.text


@pytest.mark.skipif(not shutil.which("node"), reason="node is not installed")
def test_the_pages_sha256_is_the_one_the_rules_check() -> None:
    """web/static/sha256.js (vendored: crypto.subtle needs https) gives the commitment ledger/core/sealing.py checks."""
    import hashlib

    text = committed_text(PLACED, SALT)
    texts = [text, "", "abc", "x" * 55, "x" * 56, "x" * 64, "é✓" + "y" * 200]
    script = ("const h = require(process.argv[1]); for (const t of JSON.parse(process.argv[2])) console.log(h(t));")
    import json

    out = subprocess.run(["node", "-e", script, str(ROOT / "web" / "static" / "sha256.js"), json.dumps(texts)],
                         capture_output=True, text=True, timeout=30, check=True).stdout.split()
    assert out == [hashlib.sha256(t.encode()).hexdigest() for t in texts]
    assert "sha256:" + out[0] == commitment(PLACED, SALT)


# --- in a real browser ---------------------------------------------------------------------------------------

def _until(driver: Any, script: str, *args: Any) -> Any:
    """Until the page's `script` answers something, asked every 0.1 s (20 s at most): its answer."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, 20, poll_frequency=0.1).until(lambda d: d.execute_script(script, *args))


@pytest.mark.skipif(bool(missing), reason=f"no {', '.join(missing)}")
def test_a_real_browser_seals_at_the_seat_and_records_by_tapping_a_picker(browser, tmp_path: Path) -> None:
    """In Chromium at phone size (tests/conftest.py's `browser`): raven's seat seals its set (the page hashes it;
    the record holds only the commitment of the tokens and the code the page kept), and the table records spider's
    loyalty by tapping its picker's Record button."""
    import httpx2
    from test_browser import serve

    store = str(tmp_path / "s.sqlite")
    recording.new(store, "g1", ["raven", "spider"])
    with serve(store) as base:
        links = sharing.share(store, "g1", base=base).to_json()
        browser.set_window_size(390, 844)
        browser.get(links["seats"]["raven"])
        _until(browser, "return document.documentElement.dataset.script === 'ran'")
        browser.execute_script("""const f = document.getElementById('seal');
            for (const [slot, empire] of Object.entries(arguments[0])) { f.elements[slot].value = empire; }
            f.querySelector('button[type=submit]').click();""", PLACED)
        code = _until(browser, "const c = document.getElementById('sealed-code'); return !c.hidden && c.textContent")
        kept = browser.execute_script("return JSON.parse(localStorage.getItem('whispers:sealed:g1:raven'))")
        assert kept["tokens"] == PLACED and group(kept["salt"]) in code and CODE.fullmatch(kept["salt"])
        log = httpx2.get(links["table"] + "api/log").json()["lines"]
        assert f"raven loyalty sealed {commitment(PLACED, kept['salt'])}" in log
        assert not any("devout=" in line for line in log)  # the tokens are nowhere in the record

        browser.get(links["table"])
        _until(browser, "return document.documentElement.dataset.script === 'ran'")
        version = browser.execute_script("return Number(document.getElementById('game').dataset.version)")
        browser.execute_script("""const f = document.querySelector('form.pick[data-verb=loyalty]');
            for (const [slot, empire] of Object.entries(arguments[0])) {
              f.querySelector('select[data-fmt="' + slot + '={}"]').value = empire; }
            f.dispatchEvent(new Event('change'));""", PLACED)
        _until(browser, "return !document.querySelector('form.pick[data-verb=loyalty] button.record').disabled")
        browser.execute_script("document.querySelector('form.pick[data-verb=loyalty] button.record').click()")
        _until(browser, "const g = document.getElementById('game'); return g && Number(g.dataset.version) > "
                        "arguments[0]", version)
        assert httpx2.get(links["table"] + "api/status").json()["phase"] == "deploy"
        browser.get("about:blank")  # the pages' live streams end before the server stops


def test_on_a_phone_the_council_grid_names_a_society_by_its_first_word() -> None:
    """A society's name in the reader's language may be two or three words (Araignée Ancillaire): the grid holds
    it whole for a wide screen and its first word for a phone (app.css shows one of them), the whole as its title."""
    store = playing(2, 90)
    links = sharing.share(store, "g")
    client = served(store)
    french = client.get(path("g", links.table) + "?lang=fr").text
    start = french.index('<table class="grid">')
    grid = french[start:french.index("</table>", start)]
    assert ('<abbr title="Corbeau Blanc"><span class="long">Corbeau Blanc</span>'
            '<span class="short">Corbeau</span>') in grid
    english = client.get(path("g", links.table)).text
    assert '<span class="short">raven' not in english


def test_every_link_of_a_finished_game_shows_the_final_result_and_the_table_no_move_box() -> None:
    """Issue 32: a finished game said only "The game is over.", and still offered the move box and take-back. Now
    every link shows the result as `whispers score` prints it (EN Final Scoring): who wins, each society's points
    by empire and in total, the tie-break trail; the table records nothing more from its page."""
    from whispers.application.reading import score
    from whispers.ledger.io.game import import_lines

    store = open_store("memory:")
    import_lines(store, "g", (ROOT / "fixtures" / "games" / "official-4p.txt").read_text(encoding="utf-8")
                 .splitlines())
    links = sharing.share(store, "g")
    client = served(store)
    scored = score(store, "g").scored
    assert scored.winner == "rat"
    for token in [links.table, links.spectator, *links.seats.values()]:
        page = client.get(path("g", token)).text
        result = page[page.index('<section class="result"'):page.index("</section>", page.index('class="result"'))]
        assert '<p class="winner"><strong>rat wins</strong></p>' in result
        totals = re.findall(r"<td><b>(-?\d+)</b></td>", result)
        assert totals == [str(scored.scores[s]["total"]) for s in scored.ranking] == ["51", "49", "44", "39"]
        assert "highest score 51: rat" in result
        assert 'id="move"' not in page and 'id="undo"' not in page and "form class=\"pick\"" not in page
    french = client.get(path("g", links.table) + "?lang=fr").text
    assert "Résultat final" in french and "rat wins" not in french
    going = playing(0, 5)
    going_links = sharing.share(going, "g")
    page = served(going).get(path("g", going_links.table)).text
    assert 'class="result"' not in page and 'id="move"' in page and 'id="undo"' in page
