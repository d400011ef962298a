"""A digest is a secret's shadow (DESIGN.md; issue 31): no viewer is shown a hash of data it may not see.

A fork's marker (`GameForked.head`) is the chain hash of its parent's first events, hidden facts included: a seat
or a spectator of the fork that saw it could try the 120 orders of another society's loyalty set, or the cards
of a deck, until one gave the head. And a variation kept inside a game listed its moves as the record wrote
them, drawn cards named. Tested as the rest of the visibility policy is (tests/test_views.py), differentially:
two parents that differ only in a secret a viewer may not know (another society's loyalty set, the name of a
card another drew; or a variation whose drawn card differs), forked and varied identically; every face and
format that viewer reaches (the CLI's `--as` outputs and their `--json`, the link's pages, `api/replay`,
`api/status`, `api/log`, the live stream, forks made over HTTP with the table's `POST …/forks`) must be the
same, byte for byte. The record and the secret's owner tell the two apart, so each comparison can fail. The
attack itself is run last: against a seat's view it must not single out the set, against the record's it does.
"""

import asyncio
import itertools
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest
from starlette.testclient import TestClient
from test_cli import invoke, ok

from whispers.application import recording, review, sharing
from whispers.ledger.core.names import SLOTS
from whispers.ledger.io import game as ledger_game
from whispers.ledger.io.game import import_lines
from whispers.ledger.io.recordfile import GENESIS, link
from whispers.ledger.io.store import Store, open_store
from whispers.projections.visibility import SPECTATOR_NAME
from whispers.web.app import create_app
from whispers.web.live import Hub

GAMES = Path(__file__).resolve().parent.parent / "fixtures" / "games"
DIRECTOR = "d" * 32
LINES = (GAMES / "official-4p.txt").read_text(encoding="utf-8").splitlines()
CUT = LINES.index("rat draw lion:3") + 1
"""The parent: the four-player game up to Rat's first draw (raven, spider and serpent recorded their loyalty sets,
rat sealed its own; rat drew lion:3), 35 events. The fork is taken at its end."""
RAVEN = "raven loyalty devout=bear dutiful=eagle affiliated=lion unallied=horse opposed=elephant"
RAVENS_SET = dict(pair.split("=") for pair in RAVEN.split()[2:])
SPIDERS_LINE = "devout=elephant dutiful=lion affiliated=horse unallied=bear opposed=eagle"
FORK_MOVE = "rat draw lion:2"
"""The fork's move (kept as the variation `secretline`): Rat draws a card only Rat may know."""

SECRETS: dict[str, tuple[Callable[[list[str]], list[str]], str, str, str]] = {
    # secret: (the parent's lines changed, the fork's move in the second world, whose secret, a viewer's seat)
    "loyalty set": (lambda lines: [line.replace("devout=bear dutiful=eagle", "devout=eagle dutiful=bear")
                                   if line == RAVEN else line for line in lines], FORK_MOVE, "raven", "spider"),
    "drawn card": (lambda lines: [*lines[:-1], "rat draw lion:5"], FORK_MOVE, "rat", "raven"),
    "variation's card": (lambda lines: lines, "rat draw lion:6", "rat", "serpent"),
}


def world(folder: Path, lines: list[str], fork_move: str) -> tuple[str, int]:
    """A store holding the parent `g`, its fork `f` at its end with one move, that move kept inside `g` as the
    variation `secretline`: (the store's path, the parent's events)."""
    folder.mkdir()
    path = str(folder / "w.sqlite")
    with open_store(path) as s:
        parent = len(import_lines(s, "g", lines).events)
    review.fork(path, "g", "f", parent)
    recording.record_line(path, "f", fork_move)
    review.keep_variation(path, "g", "f", "secretline")
    return path, parent


@pytest.fixture(autouse=True)
def still_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """A variation or a note keeps the time it was kept: the two worlds keep the same one."""
    monkeypatch.setattr(ledger_game, "_now", lambda: "2026-01-01T00:00:00+00:00")


def worlds(tmp_path: Path, secret: str) -> tuple[tuple[str, str], int, str, str]:
    """The two worlds of `secret`: (their stores, the parent's events, whose secret, a seat that may not know)."""
    changed, other_move, owner, seat = SECRETS[secret]
    base = LINES[:CUT]
    a, parent = world(tmp_path / "a", base, FORK_MOVE)
    b, same = world(tmp_path / "b", changed(base), other_move)
    assert same == parent
    return (a, b), parent, owner, seat


def cli_outputs(store: str, viewer: str, parent: int) -> Iterator[tuple[str, str]]:
    """Every CLI output `viewer` reaches of the parent, its fork and the variation, one by one: text, JSON,
    pictures' DOT."""
    for game, marker in (("g", parent), ("f", parent + 1)):
        for args in (["status"], ["status", "--json"], ["log"], ["replay"], ["replay", "--json"],
                     ["replay", "--at", str(marker)], ["replay", "--json", "--at", str(marker)],
                     ["notes", "--history"], ["notes", "--history", "--json"], ["notes", "--json"],
                     ["timeline", "-o", "-"], ["map", "--at", str(marker), "-o", "-"]):
            yield f"{game} {' '.join(args)}", ok(invoke(store, args[0], game, *args[1:], "--as", viewer))
    for args in ([], ["--json"], ["secretline"], ["secretline", "--json"], ["secretline", "--at", str(parent + 1)]):
        yield f"variation {' '.join(args)}", ok(invoke(store, "variation", "g", *args, "--as", viewer))


def cli_faces(store: str, viewer: str, parent: int) -> dict[str, str]:
    """Every CLI output `viewer` reaches of the parent, its fork and the variation, by the command's words."""
    return dict(cli_outputs(store, viewer, parent))


def link_pages(client: TestClient, game: str, token: str, at: int) -> dict[str, str]:
    """Every page and API answer of one link (the replay at the fork's marker and at the end)."""
    base = f"/g/{game}/{token}/"
    shown = {}
    for page in ("", "replay", f"replay?at={at}", "api/status", "api/replay", f"api/replay?at={at}", "api/log"):
        answer = client.get(base + page)
        assert answer.status_code == 200, (page, answer.text)
        shown[page] = answer.text.replace(token, "TOKEN")
    return shown


def streamed(store: Store, game: str, viewer: str | None) -> list[str]:
    """What the live stream sends a viewer that connects with `?after=0`: every event, then the game's version."""

    async def heard() -> list[str]:
        hub = Hub(store)
        sent: list[str] = []
        stream = hub.stream(game, viewer, 0)
        try:
            async for text in stream:
                sent.append(text)
                if text.startswith("event: version"):
                    break
        finally:
            await stream.aclose()
            hub.stop()
        return sent

    return asyncio.run(heard())


def web_faces(store_path: str, viewers: tuple[str, ...], parent: int) -> dict[str, dict[str, str]]:
    """For each viewer in turn (one server): the fork's and the parent's pages as the viewer's link shows them, the
    fork's live stream, and a fork made over HTTP by the parent's table (`POST …/forks`) seen through the link it
    hands out for that viewer."""
    store = open_store(store_path)
    try:
        client = TestClient(create_app(store, DIRECTOR))
        every: dict[str, dict[str, str]] = {}
        for viewer in viewers:
            shown = every[viewer] = {}
            for game, marker in (("g", parent), ("f", parent + 1)):
                links = sharing.share(store, game, revoke=True)
                token = links.spectator if viewer == SPECTATOR_NAME else links.seats[viewer]
                shown.update({f"{game} {k}": v for k, v in link_pages(client, game, token, marker).items()})
            shown["f live"] = "".join(streamed(store, "f", viewer))
            table = sharing.share(store, "g", revoke=True).table
            made = client.post(f"/g/g/{table}/forks", json={"name": f"h-{viewer}", "at": parent},
                               headers={"Authorization": f"Bearer {table}"})
            assert made.status_code == 201, made.text
            fork = f"g.h-{viewer}"  # a fork made through a link is named under its game (docs/api.md)
            url = made.json()["links"]["spectator" if viewer == SPECTATOR_NAME else "seats"]
            url = url if isinstance(url, str) else url[viewer]
            token = url.rstrip("/").rsplit("/", 1)[1]
            shown.update({f"h {k}": v for k, v in link_pages(client, fork, token, parent + 1).items()})
            shown["h live"] = "".join(streamed(store, fork, viewer))
        return every
    finally:
        store.close()


@pytest.mark.parametrize("secret", list(SECRETS))
def test_no_cli_face_of_a_fork_or_variation_tells_apart_worlds_that_differ_in_a_secret(tmp_path: Path,
                                                                                       secret: str) -> None:
    """Every `--as` output (text and --json) of the parent, its fork and its variation is the same, byte for
    byte, for a seat that may not know the secret and for the spectator; the record and the secret's owner tell
    the worlds apart (the fork's head, the card's name), so the comparison can fail."""
    (a, b), parent, owner, seat = worlds(tmp_path, secret)
    for viewer in (seat, SPECTATOR_NAME):
        seen, other = cli_faces(a, viewer, parent), cli_faces(b, viewer, parent)
        assert [face for face in seen if seen[face] != other[face]] == [], viewer
    # (read until the first face that differs)
    assert any(x != y for (_, x), (_, y) in zip(cli_outputs(a, owner, parent), cli_outputs(b, owner, parent),
                                                strict=True))
    assert ok(invoke(a, "log", "f")) != ok(invoke(b, "log", "f"))
    marker = ["replay", "f", "--json", "--at", str(parent + 1)]
    if secret != "variation's card":  # the parents differ: so do the heads, which the record sees
        assert ok(invoke(a, *marker)) != ok(invoke(b, *marker))


def test_a_variation_names_a_drawn_card_only_to_the_record_and_to_the_society_that_drew_it(tmp_path: Path) -> None:
    """Issue 31: `variation GAME --as SOCIETY` listed `rat draw order=draw_1 lion:6` to Raven and the spectator, in
    text and in --json; the notes' history held the same line."""
    (a, _), _, _, _ = worlds(tmp_path, "variation's card")
    for viewer in ("raven", "spider", "serpent", SPECTATOR_NAME):
        for args in (["variation", "g"], ["variation", "g", "--json"], ["variation", "g", "secretline", "--json"],
                     ["notes", "g", "--history", "--json"]):
            shown = ok(invoke(a, *args, "--as", viewer))
            assert "rat draw order=" in shown and "lion:2" not in shown, (viewer, args)
    for who in (["--as", "rat"], []):
        assert "rat draw order=draw_per_3_farms lion:2" in ok(invoke(a, "variation", "g", *who))
        assert "lion:2" in ok(invoke(a, "notes", "g", "--history", "--json", *who))


@pytest.mark.parametrize("secret", list(SECRETS))
def test_no_web_face_of_a_fork_tells_apart_worlds_that_differ_in_a_secret(tmp_path: Path, secret: str) -> None:
    """The pages, `api/status`, `api/replay`, `api/log` and the live stream of the parent and of its forks (one
    recorded at the CLI, one made by the table over HTTP) are the same, byte for byte, through a seat's link
    that may not know the secret and through the spectator's."""
    (a, b), parent, _owner, seat = worlds(tmp_path, secret)
    both = web_faces(a, (seat, SPECTATOR_NAME), parent), web_faces(b, (seat, SPECTATOR_NAME), parent)
    for viewer in (seat, SPECTATOR_NAME):
        seen, other = both[0][viewer], both[1][viewer]
        assert [face for face in seen if seen[face] != other[face]] == [], viewer
        assert '"hidden": "head"' in seen["f live"] and '"hidden":"head"' in seen[f"f api/replay?at={parent + 1}"]


def test_the_record_still_holds_and_checks_the_forks_head(tmp_path: Path) -> None:
    """The head is withheld from views, not from the record: the table's stream still carries the parent's chain
    hash, and `verify` still checks the fork."""
    (a, _), parent, _, _ = worlds(tmp_path, "loyalty set")
    with open_store(a) as s:
        facts = s.facts("g", parent)
    head = GENESIS
    for fact in facts:
        head = link(head, fact)
    store = open_store(a)
    try:
        assert f'"head": "{head}"' in "".join(streamed(store, "f", None))
    finally:
        store.close()
    ok(invoke(a, "verify", "f"))


# --- the attack ---------------------------------------------------------------------------------------------


def candidate_sets() -> list[dict[str, str]]:
    """Every loyalty set a society may hold: the board's five empires in the five slots, 120 orders."""
    return [dict(zip(SLOTS, order, strict=True)) for order in itertools.permutations(sorted(RAVENS_SET.values()))]


def seen_up_to_the_marker(client: TestClient, game: str, token: str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The fork's events before its marker, and the marker, as one link shows them (`api/replay?at=N`)."""
    facts: list[dict[str, Any]] = []
    while (event := client.get(f"/g/{game}/{token}/api/replay?at={len(facts) + 1}").json()["event"])["type"] \
            != "GameForked":
        facts.append(event)
    return facts, event


def sets_that_give(facts: list[dict[str, Any]], head: str | None, parent: str) -> list[tuple[dict[str, str], ...]]:
    """The attack of issue 31: put each of the 120 orders in place of every loyalty set the viewer saw hidden (all
    their combinations: 14,400 for two), hash the parent's chain as the record does (sha256(previous +
    msgpack(fact))) and keep the combinations whose chain gives `head`."""
    facts = [{k: v for k, v in fact.items() if k != "hidden"} for fact in facts]
    facts[0] = {**facts[0], "name": parent}  # the fork renamed its first event; the head is over the parent's
    hidden = [i for i, fact in enumerate(facts) if fact["type"] == "LoyaltyRecorded" and fact["tokens"] is None]
    prefix = GENESIS
    for fact in facts[: hidden[0]]:
        prefix = link(prefix, fact)
    found = []
    for combination in itertools.product(candidate_sets(), repeat=len(hidden)):
        tried = list(facts)
        for i, tokens in zip(hidden, combination, strict=True):
            tried[i] = {**tried[i], "tokens": tokens}
        chained = prefix
        for fact in tried[hidden[0]:]:
            chained = link(chained, fact)
        if chained == head:
            found.append(combination)
    return found


def test_the_brute_force_of_a_forks_head_fails_through_a_seat_and_the_spectator() -> None:
    """Issue 31's attack, over HTTP on a fork the table made with `POST …/forks` of a game where Raven and Spider
    recorded their sets: Spider's link tries the 120 orders of Raven's set, the spectator's the 14,400 of both.
    Neither singles anything out: the marker's head is withheld. Given the head the record holds, the same attack
    on the same views finds exactly the true sets, so it is a real one."""
    store = open_store("memory:")
    import_lines(store, "g", LINES[: LINES.index(f"spider loyalty {SPIDERS_LINE}") + 1])
    client = TestClient(create_app(store, DIRECTOR))
    table = sharing.share(store, "g").table
    made = client.post(f"/g/g/{table}/forks", json={"name": "f", "at": store.version("g")},
                       headers={"Authorization": f"Bearer {table}"})
    assert made.status_code == 201, made.text
    links = made.json()["links"]

    def token(url: str) -> str:
        return url.rstrip("/").rsplit("/", 1)[1]

    _, recorded = seen_up_to_the_marker(client, "g.f", token(links["table"]))  # named under its game
    assert recorded["head"] is not None
    spiders = dict(pair.split("=") for pair in SPIDERS_LINE.split())
    for url, truth in ((links["seats"]["spider"], (RAVENS_SET,)), (links["spectator"], (RAVENS_SET, spiders))):
        facts, marker = seen_up_to_the_marker(client, "g.f", token(url))
        assert marker["head"] is None and marker["hidden"] == "head"
        assert sets_that_give(facts, marker["head"], "g") == []
        assert sets_that_give(facts, recorded["head"], "g") == [truth]


def test_the_record_file_and_verify_keep_the_chain_for_whoever_holds_the_record(tmp_path: Path) -> None:
    """The chain heads a record file and `verify` carry are over the record, for the record's holder (no face
    gives them to a seat): an exported fork still imports and verifies, its marker's head intact."""
    (a, _), _, _, _ = worlds(tmp_path, "drawn card")
    ok(invoke(a, "export", "f", "-o", str(tmp_path / "f.whispers")))
    body = msgpack.unpackb((tmp_path / "f.whispers").read_bytes(), raw=False)
    marker = next(fact for fact, _ in body["events"] if fact["type"] == "GameForked")
    assert marker["head"] and len(marker["head"]) == 64
    ok(invoke(a, "import", str(tmp_path / "f.whispers"), "--game", "f2"))
    ok(invoke(a, "verify", "f2"))
    assert json.loads(ok(invoke(a, "replay", "f2", "--json", "--at", "36")))["event"]["head"] == marker["head"]
    assert json.loads(ok(invoke(a, "replay", "f2", "--json", "--at", "36", "--as", "raven")))["event"] == {
        **{k: v for k, v in marker.items() if k != "head"}, "head": None, "hidden": "head"}


def test_an_old_fork_loads_and_hides_its_head(tmp_path: Path) -> None:
    """A fork recorded before the head was private (the same fact: nothing about it changed) still loads and
    verifies; its head is withheld from every view but the record's."""
    (a, _), parent, _, _ = worlds(tmp_path, "loyalty set")
    with open_store(a) as s:
        facts = s.facts("f")
    assert facts[parent]["type"] == "GameForked" and "class_version" not in facts[parent]
    ok(invoke(a, "verify", "f"))
    for viewer in ("raven", "spider", "rat", "serpent", SPECTATOR_NAME):
        shown = json.loads(ok(invoke(a, "replay", "f", "--json", "--at", str(parent + 1), "--as", viewer)))
        assert shown["event"]["head"] is None and shown["event"]["hidden"] == "head"


# --- a sealed set's commitment ------------------------------------------------------------------------------


def test_a_commitments_salt_holds_at_least_128_bits_the_other_seats_never_see() -> None:
    """The one digest of a hidden set every viewer sees is a sealed set's commitment: safe only while its salt is
    128 bits or more and stays at its seat. A salt of 31 hex digits (124 bits) is refused at the reveal even when
    it matches; the seat's page draws 26 base32 characters (130 bits); and before the reveal no fact of the record
    holds a salt."""
    from test_sealing import PLACED, play_to_the_reveal

    from whispers.application import seats
    from whispers.ledger.core.errors import RuleError
    from whispers.ledger.core.sealing import RULE, commitment, good_salt

    assert good_salt("0f" * 16) and not good_salt("0f" * 15 + "0") and not good_salt("0F" * 16)
    short = "a" * 31
    store = open_store("memory:")
    recording.new(store, "g", ["raven", "spider", "rat"])
    seats.seal(store, "g", "raven", commitment(PLACED, short))
    play_to_the_reveal(store, 0)
    assert all("salt" not in fact or fact["salt"] is None for fact in store.facts("g"))
    with pytest.raises(RuleError) as refused:
        seats.reveal(store, "g", "raven", PLACED, short)
    assert refused.value.rule == RULE and "32 to 128" in refused.value.reason
    script = (Path(__file__).resolve().parent.parent / "web" / "static" / "app.js").read_text(encoding="utf-8")
    # the page's code: one base32 character (5 bits: a random byte's low 5) per random byte drawn
    drawn = re.findall(r"function randomCode\(\) \{\s+const values = new Uint8Array\((\d+)\)", script)
    assert "const salt = randomCode();" in script and "BASE32[b & 31]" in script
    assert drawn and all(int(n) * 5 >= 128 for n in drawn) and "crypto.getRandomValues" in script
