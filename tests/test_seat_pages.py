"""What every link's page says after a move, and a seat's dispute of a swap the table recorded (issue 32 §3, §5).

After each move every seat's page and the spectator's show what the move did, as the CLI prints it
(application/recording.happenings), as that viewer may know it (projections/visibility.py); after a take-back, which
move it removed. A seat whose page finds that a swap the table recorded contradicts the set it sealed disputes it
by the move's label (POST …/dispute, never the set); the table's page shows it until the swap is amended or taken
back. Both are tested differentially, as the rest of the visibility policy is (tests/test_digest_secrets.py): two
games that differ only in a secret a viewer may not know must look the same to it, byte for byte."""

from __future__ import annotations

import asyncio
import html
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_digest_secrets import streamed as live_stream

from whispers.application import reading, recording, seats, sharing
from whispers.ledger.core.sealing import commitment
from whispers.ledger.io import game as ledger_game
from whispers.ledger.io.game import import_lines
from whispers.ledger.io.store import Store, open_store
from whispers.web.app import create_app
from whispers.web.live import Hub

DIRECTOR = "d" * 32
GAMES = Path(__file__).resolve().parent.parent / "fixtures" / "games"
LINES = [line for line in (GAMES / "official-4p.txt").read_text(encoding="utf-8").splitlines()
         if line.strip() and not line.startswith("#")]
RAVEN = "raven loyalty devout=bear dutiful=eagle affiliated=lion unallied=horse opposed=elephant"
FIRST_DRAW = LINES.index("rat draw lion:3")
RATS_TURN = LINES.index("rat pass", LINES.index("serpent swap-loyalty dutiful opposed"))
"""The swap phase of round 3 at rat's turn: rat may swap two of its concealed tokens."""
RATS_SET = {"devout": "horse", "dutiful": "bear", "affiliated": "elephant", "unallied": "eagle", "opposed": "lion"}
OTHER_SET = {"devout": "lion", "dutiful": "bear", "affiliated": "elephant", "unallied": "eagle", "opposed": "horse"}
SALT = "7KQ2M9XDA4B6C8E0F1G3H5J7KM"
WRONG_SWAP = "rat swap-loyalty devout=eagle affiliated=lion"
"""A swap the table records for rat that neither of rat's sets above holds (devout and affiliated swapped show
elephant and horse, or elephant and lion)."""


@pytest.fixture(autouse=True)
def still_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A note keeps the time it was added: two worlds keep the same one."""
    monkeypatch.setattr(ledger_game, "_now", lambda: "2026-01-01T00:00:00+00:00")


def client_of(store: Store) -> TestClient:
    return TestClient(create_app(store, DIRECTOR), raise_server_exceptions=False)


def page(client: TestClient, game: str, token: str) -> str:
    answer = client.get(f"/g/{game}/{token}/")
    assert answer.status_code == 200, answer.text
    return answer.text.replace(token, "TOKEN")


def unescaped(text: str) -> str:
    return html.unescape(text)


def said_box(shown: str) -> list[str]:
    """The lines of the page's `#said` box: what the last move did."""
    box = re.search(r'<div id="said"[^>]*>(.*?)</div>\n', shown, re.S)
    assert box is not None
    return [unescaped(line) for line in re.findall(r"<div>(.*?)</div>", box.group(1))]


def streamed(store: Store, game: str, viewer: str | None) -> str:
    """What the live stream sends a viewer connecting with `?after=0`: every event, then the version."""
    return "".join(live_stream(store, game, viewer))


# --- what happened, on every link -----------------------------------------------------------------------------------

def drawn_world(lines: list[str]) -> tuple[Store, sharing.Links]:
    store = open_store("memory:")
    import_lines(store, "g", lines)
    return store, sharing.share(store, "g")


def test_every_link_says_what_the_last_move_did_as_its_viewer_may_know_it() -> None:
    """Rat draws lion:3 (EN "Draw": the card is the drawer's to know): the table's page and rat's seat name the card,
    raven's seat and the spectator see the draw without it; after a take-back every page says which move it
    removed, as that viewer knew it."""
    store, links = drawn_world(LINES[:FIRST_DRAW + 1])
    client = client_of(store)
    table, rat = said_box(page(client, "g", links.table)), said_box(page(client, "g", links.seats["rat"]))
    raven, spectator = said_box(page(client, "g", links.seats["raven"])), said_box(page(client, "g", links.spectator))
    assert table[0] == rat[0] and re.fullmatch(r"rat Draw 1 card( per \d farms)? lion:3", table[0]), table
    assert raven[0] == spectator[0] == table[0].removesuffix(" lion:3")
    assert raven == spectator and "lion:3" not in "".join(raven)
    recording.record_line(store, "g", 'undo "wrong card"')
    table, raven = said_box(page(client, "g", links.table)), said_box(page(client, "g", links.seats["raven"]))
    assert table[0] == raven[0] and "wrong card" in table[0]
    assert re.fullmatch(r"= takes back m\d+ \S+: rat Draw 1 card( per \d farms)? lion:3", table[1]), table
    assert re.fullmatch(r"= takes back m\d+ \S+: rat Draw 1 card( per \d farms)?", raven[1]), raven


def test_what_happened_is_said_in_the_readers_language() -> None:
    store, links = drawn_world(LINES[:FIRST_DRAW + 1])
    answer = client_of(store).get(f"/g/g/{links.seats['raven']}/?lang=fr")
    said = said_box(answer.text)
    assert said[0].startswith("Culte du Rat Piocher") and "Ce qui s" in answer.text, said


@pytest.mark.parametrize("secret", ["loyalty set", "drawn card", "taken back"])
def test_a_seats_page_and_stream_do_not_tell_apart_games_differing_in_a_secret(secret: str) -> None:
    """Two games that differ only in raven's recorded tokens, or in the card rat drew (the last move), or in the
    card of a draw the last move took back: spider's and the spectator's page and live stream are the same byte
    for byte; the secret's owner (and the table) tell them apart, so the comparison can fail."""
    base = LINES[:FIRST_DRAW + 1]
    other = {"loyalty set": [line.replace("devout=bear dutiful=eagle", "devout=eagle dutiful=bear") if line == RAVEN
                             else line for line in base],
             "drawn card": [*base[:-1], "rat draw lion:5"],
             "taken back": [*base[:-1], "rat draw lion:5"]}[secret]
    owner = "raven" if secret == "loyalty set" else "rat"
    worlds = [drawn_world(base), drawn_world(other)]
    if secret == "taken back":
        for store, _links in worlds:
            recording.record_line(store, "g", 'undo "misread"')
    shown: list[dict[str, str]] = []
    for store, links in worlds:
        client = client_of(store)
        shown.append({viewer: page(client, "g", token) + streamed(store, "g", viewer)
                      for viewer, token in [("spider", links.seats["spider"]), ("spectator", links.spectator),
                                            (owner, links.seats[owner]), ("table", links.table)]})
    for viewer in ("spider", "spectator"):
        assert shown[0][viewer] == shown[1][viewer], viewer
    assert shown[0][owner] != shown[1][owner] and shown[0]["table"] != shown[1]["table"]


# --- a seat's dispute of a swap -------------------------------------------------------------------------------------

def swap_world(rats_set: dict[str, str]) -> tuple[Store, sharing.Links, str]:
    """The four-player game up to rat's swap, rat's set sealed at its seat (a commitment only), and a swap the
    table recorded for rat that contradicts it: (the store, the links, the swap's label)."""
    store = open_store("memory:")
    sealed_at = LINES.index("rat loyalty sealed")
    import_lines(store, "g", LINES[:sealed_at])
    seats.seal(store, "g", "rat", commitment(rats_set, SALT))
    recording.record_batch(store, "g", LINES[sealed_at + 1:RATS_TURN])
    recording.record_line(store, "g", WRONG_SWAP)
    (swap,) = seats.swaps(store, "g", "rat")
    return store, sharing.share(store, "g"), swap.label


def dispute(client: TestClient, links: sharing.Links, society: str, move: Any) -> Any:
    token = links.seats[society]
    return client.post(f"/g/g/{token}/dispute", json={"move": move}, headers={"Authorization": f"Bearer {token}"})


def test_a_seat_disputes_a_swap_and_the_table_page_shows_it_until_it_is_taken_back() -> None:
    """A seat that sealed its set (whispers: ledger/core/sealing.py) names the swap it disputes by its label; the
    table's page says "rat's seat disputes this swap" with the swap's line; disputing it again makes no second
    dispute; the dispute is kept in the store (a new server over it still shows it) and never moves the game on;
    taking the swap back ends it."""
    store, links, label = swap_world(RATS_SET)
    client = client_of(store)
    version = store.version("g")
    assert "disputes this swap" not in page(client, "g", links.table)
    made = dispute(client, links, "rat", label)
    assert made.status_code == 201, made.text
    assert made.json()["move"] == label and made.json()["line"] == WRONG_SWAP
    again = dispute(client, links, "rat", label)
    assert again.status_code == 200 and again.json()["new"] is False
    shown = page(client, "g", links.table)
    assert "rat's seat disputes this swap:" in shown and WRONG_SWAP in shown
    assert store.version("g") == version  # a note: the table's composed move is not refused for it
    assert "rat's seat disputes this swap" in page(client_of(store), "g", links.table)  # another server
    assert len(seats.disputes(store, "g")) == 1
    for seat in ("raven", "rat"):  # a seat's page and the spectator's do not list disputes: the table acts on them
        assert 'id="disputes"' not in page(client, "g", links.seats[seat])
    french = client.get(f"/g/g/{links.table}/?lang=fr").text
    assert "conteste cet échange" in french, french
    recording.record_line(store, "g", 'undo "the table misread the tokens"')
    assert "disputes this swap" not in page(client, "g", links.table)
    assert seats.disputes(store, "g") == ()


def test_a_dispute_names_a_standing_swap_of_the_seats_own_tokens() -> None:
    """Refused in one line (422, nothing kept): another seat's swap, a move that is no swap, a label that names
    nothing; the table's and the spectator's links may not dispute at all (404, as for any write they may not
    make); a body of another shape is a 400."""
    store, links, label = swap_world(RATS_SET)
    client = client_of(store)
    for society, move in [("raven", label), ("rat", "m1"), ("rat", "m999"), ("rat", "R9 swap-loyalty 1")]:
        answer = dispute(client, links, society, move)
        assert answer.status_code == 422 and len(answer.json()["error"].splitlines()) == 1, (society, move)
    for token in (links.table, links.spectator):
        answer = client.post(f"/g/g/{token}/dispute", json={"move": label},
                             headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 404
    rat = links.seats["rat"]
    for body in ({"move": 25}, {}, {"move": "  "}, [label]):
        answer = client.post(f"/g/g/{rat}/dispute", json=body, headers={"Authorization": f"Bearer {rat}"})
        assert answer.status_code == 400, body
    assert client.post(f"/g/g/{rat}/dispute", json={"move": label}).status_code == 404  # no bearer: no write
    assert seats.disputes(store, "g") == ()


def test_a_dispute_tells_nothing_of_the_sealed_set() -> None:
    """Two games that differ only in rat's sealed set (the same swap recorded, disputed by rat's seat in both):
    the table's page, every seat's and the spectator's, their live streams and the dispute's answer are the same
    byte for byte once the commitment (a salted hash, public: ledger/core/sealing.py) is set aside."""
    shown, raw = [], []
    for rats_set in (RATS_SET, OTHER_SET):
        store, links, label = swap_world(rats_set)
        client = client_of(store)
        answer = dispute(client, links, "rat", label).text
        sealed = commitment(rats_set, SALT)
        pages = {who: page(client, "g", token).replace(sealed, "COMMITMENT")
                 for who, token in [("table", links.table), ("spectator", links.spectator), *links.seats.items()]}
        pages.update({f"{who} live": streamed(store, "g", who).replace(sealed, "COMMITMENT")
                      for who in ("spectator", *links.seats)})
        shown.append((answer, pages))
        raw.append(streamed(store, "g", "spectator"))
    assert shown[0] == shown[1]
    assert raw[0] != raw[1]  # the commitments in the streams differ, and the comparison sees them: it can fail
    assert "disputes this swap" in shown[0][1]["table"]


def test_the_stream_tells_the_tables_page_of_a_dispute_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dispute never moves the game's version, so the server announces a new one to its streams of the game
    as an event of its own (`noted`), which the table's page follows by fetching its disputes again
    (web/static/council.js); a dispute made already is not announced again."""
    store, links, label = swap_world(RATS_SET)
    announced: list[tuple[str, str]] = []
    monkeypatch.setattr(Hub, "announce", lambda hub, game, kind: announced.append((game, kind)))
    client = client_of(store)
    assert dispute(client, links, "rat", label).status_code == 201
    assert dispute(client, links, "rat", label).status_code == 200
    assert announced == [("g", "noted")]
    monkeypatch.undo()

    async def heard() -> list[str]:
        hub = Hub(store)
        stream = hub.stream("g", None, None)
        sent = [await anext(stream)]
        hub.announce("g", "noted")
        hub.announce("another game", "noted")
        sent.append(await anext(stream))
        await stream.aclose()
        hub.stop()
        return sent

    version = store.version("g")
    assert asyncio.run(heard()) == [f"event: version\ndata: {version}\n\n", f"event: noted\ndata: {version}\n\n"]


def test_happened_before_any_move_is_none() -> None:
    store = open_store("memory:")
    recording.new(store, "g1", ["raven", "spider"])
    assert reading.happened(store, "g1") is None


def test_a_note_stored_elsewhere_reaches_the_streams_and_the_follower_waits_again() -> None:
    """A dispute posted to another server process (here: stored straight into the store, past this Hub) reaches
    this process's streams of the game as `event: noted`, through the follower; and the follower, having met a
    note in the log, waits for the next change again (it returned at once for ever after a note: a busy loop)."""
    from whispers.application import following, review

    store, _links, label = swap_world(RATS_SET)
    follower = following.Follower(store, 0.01)
    review.annotate(store, "g", 1, "a note, beside the record")
    assert follower.changes(5) == [] and follower.beside
    assert follower.changes(0.05) == [] and not follower.beside  # it waited: nothing new
    recording.record_line(store, "g", "serpent retrieve horse.steward")
    assert [change.game for change in follower.changes(5)] == ["g"] and not follower.beside
    follower.close()
    recording.record_line(store, "g", 'undo "not yet"')

    async def heard() -> list[str]:
        hub = Hub(store)
        stream = hub.stream("g", "spider", None)
        try:
            sent = [await anext(stream)]
            seats.dispute(store, "g", "rat", label)  # as another process would: past this Hub
            async with asyncio.timeout(10):
                sent.append(await anext(stream))
        finally:
            await stream.aclose()
            hub.stop()
        return sent

    version = store.version("g")
    assert asyncio.run(heard()) == [f"event: version\ndata: {version}\n\n", f"event: noted\ndata: {version}\n\n"]
