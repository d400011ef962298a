"""Amending a past move from the table page's replay (issue 32, item 4), over HTTP: `POST amend/preview` decides the
amendment and appends nothing, `POST amend` records exactly it in one append at the version the page previewed;
only the table's link and the director may (a seat and a spectator never see the action, and their routes answer
404); refusals are the CLI's own words, 4xx, and leave the record as it was."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from support import DEPLOYED
from test_amend import run

from whispers.application import files, recording, sharing
from whispers.ledger.io.store import open_store
from whispers.projections.labels import resolve
from whispers.web.app import create_app

DIRECTOR = "d" * 40
# 14 moves: m1-m4 the loyalties, m5-m12 the deployments, m13-m14 bear's sheriff and steward
OPENING = DEPLOYED + "raven recruit frost-gate=1 ice-hall=1\nrat draw\n"
SERPENT = "serpent loyalty devout=bear dutiful=eagle affiliated=horse unallied=lion opposed=elephant"
# EN Deploy Agents Phase, Step 2: a position holds one agent; spider's m7 moved to lion.steward leaves serpent's m12
# (lion.steward) illegal
ILLEGAL_LATER = ("m7", "spider deploy lion.steward")


@pytest.fixture
def table(tmp_path: Path) -> tuple[Path, Any, sharing.Links, TestClient]:
    store_path = tmp_path / "s.sqlite"
    notation = tmp_path / "g.txt"
    notation.write_text(OPENING, encoding="utf-8")
    assert run(store_path, "import", str(notation), "--game", "p").exit_code == 0
    store = open_store(str(store_path))
    links = sharing.share(store, "p")
    yield store_path, store, links, TestClient(create_app(store, DIRECTOR), raise_server_exceptions=False)
    store.close()


def at(store: Any, move: str) -> int:
    return resolve("p", recording.open_game(store, "p").events, move)


def post(client: TestClient, token: str, route: str, body: dict[str, Any], director: bool = False) -> Any:
    base = f"/director/{token}/g/p/" if director else f"/g/p/{token}/"
    return client.post(base + route, json=body, headers={"Authorization": f"Bearer {token}"})


def test_the_preview_says_what_the_amendment_does_and_appends_nothing_then_amend_records_it(table) -> None:
    _, store, links, client = table
    before = store.version("p")
    body = {"at": at(store, "m4"), "line": SERPENT, "reason": "tokens misread", "version": before}
    shown = post(client, links.table, "amend/preview", body)
    assert shown.status_code == 200, shown.text
    answer = shown.json()
    assert answer["head"] == "Preview, nothing recorded: m4 R1 loyalty 4 corrected; 10 later moves decided again."
    assert answer["later"] == 10 and answer["line"] == SERPENT and answer["said"][0] == SERPENT
    assert store.version("p") == before
    done = post(client, links.table, "amend", body)
    assert done.status_code == 201, done.text
    assert done.json()["head"] == "Amended: m4 R1 loyalty 4 corrected; 10 later moves decided again."
    assert done.json()["version"] == store.version("p") > before
    # one append: the take-backs, the marker, the corrected move and the later moves again, all at once
    assert done.json()["version"] - before == len(done.json()["events"])
    files.verify(store, "p")  # raises VerifyError if any move of the amended record disagrees with the rules
    marker = done.json()["marker"]
    page = client.get(f"/g/p/{links.table}/replay?at={marker}").text
    assert 'class="event amended"' in page and "amended: the move of event 5 is corrected (tokens misread)" in page
    assert "amended at event" in page  # the move list marks the move first recorded, linking to the amendment
    # the amendment's 11 take-backs are one line of the move list, not eleven
    assert f"events {marker - 11} to {marker - 1} take the moves back" in page
    assert f'<li value="{marker - 1}"' not in page and f'<li value="{marker}" class="here amended"' in page
    # every viewer sees that a move was amended (as a take-back, it is public), on the corrected move too
    seat = client.get(f"/g/p/{links.seats['rat']}/replay?at={marker + 1}").text
    assert 'class="event amended"' in seat and "This move corrects the move first recorded at event 5" in seat
    # the same body again: the version the page showed is gone (409), nothing recorded twice
    again = post(client, links.table, "amend", body)
    assert again.status_code == 409 and again.json()["moved_on"] is True
    assert store.version("p") == done.json()["version"]


def test_refusals_are_the_clis_words_4xx_and_leave_the_record_untouched(table) -> None:
    store_path, store, links, client = table
    version = store.version("p")
    move, line = ILLEGAL_LATER
    cli = run(store_path, "move", "p", "amend", move, line, "wrong office", "--preview")
    assert cli.exit_code == 2 and "m12 R1 deploy 8" in cli.stderr
    for route in ("amend/preview", "amend"):
        answer = post(client, links.table, route, {"at": at(store, move), "line": line, "reason": "wrong office",
                                                   "version": version})
        assert answer.status_code == 422
        assert answer.json()["error"] in cli.stderr and "\n" not in answer.json()["error"]
    refused = {
        422: [{"at": at(store, "m12"), "line": "serpent deploy bear.sheriff", "reason": "x"},  # illegal itself
              {"at": 1, "line": "raven pass", "reason": "x"},  # no standing move
              {"at": at(store, "m12"), "line": "undo \"x\"", "reason": "x"},  # not a move
              {"at": at(store, "m12"), "line": "serpent deploy lion.marshal", "reason": "  "}],  # no reason
        400: [{"at": "m12", "line": "x", "reason": "x"}, {"at": 5, "line": "x"}, {"at": 5, "reason": 1, "line": "x"}],
        409: [{"at": at(store, "m12"), "line": "serpent deploy lion.marshal", "reason": "x", "version": 3}],
    }
    for status, bodies in refused.items():
        for body in bodies:
            answer = post(client, links.table, "amend/preview", body)
            assert answer.status_code == status, (body, answer.text)
            assert "\n" not in answer.json()["error"]
    # recording asks for the version the page previewed: a double tap cannot amend twice
    bare = post(client, links.table, "amend", {"at": at(store, "m12"), "line": "serpent deploy lion.marshal",
                                               "reason": "x"})
    assert bare.status_code == 400
    assert store.version("p") == version


def test_only_the_table_and_the_director_amend_seats_and_spectators_never_see_the_action(table) -> None:
    _, store, links, client = table
    version, m12 = store.version("p"), at(store, "m12")
    body = {"at": m12, "line": "serpent deploy lion.marshal", "reason": "misheard", "version": version}
    for token in (*links.seats.values(), links.spectator):
        page = client.get(f"/g/p/{token}/replay?at={m12}").text
        assert 'id="amend"' not in page and "amend.js" not in page
        for route in ("amend/preview", "amend"):
            assert post(client, token, route, body).status_code == 404
    for route in ("amend/preview", "amend"):  # the table's token, without it as a bearer
        assert client.post(f"/g/p/{links.table}/{route}", json=body).status_code == 404
    assert store.version("p") == version
    # the table's replay offers it, the form filled in with the move as recorded
    page = client.get(f"/g/p/{links.table}/replay?at={m12}").text
    assert re.search(r'<textarea id="amend-line"[^>]*>serpent deploy lion.steward</textarea>', page)
    # an event that is no standing move (the game's start) offers nothing
    assert 'id="amend"' not in client.get(f"/g/p/{links.table}/replay?at=1").text
    # the director amends from its replay too
    assert 'id="amend"' in client.get(f"/director/{DIRECTOR}/g/p/replay?at={m12}").text
    done = post(client, DIRECTOR, "amend", body, director=True)
    assert done.status_code == 201, done.text
    assert recording.open_game(store, "p").state.council[("lion", "marshal")] == "serpent"


def test_a_reason_typed_as_markup_is_shown_as_text(table) -> None:
    _, store, links, client = table
    hostile = '<script>alert(1)</script>" onmouseover="x'
    done = post(client, links.table, "amend", {"at": at(store, "m12"), "line": "serpent deploy lion.marshal",
                                               "reason": hostile, "version": store.version("p")})
    assert done.status_code == 201
    for event in (done.json()["marker"], done.json()["marker"] + 1):  # the amendment, and the corrected move
        page = client.get(f"/g/p/{links.table}/replay?at={event}").text
        assert hostile not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
