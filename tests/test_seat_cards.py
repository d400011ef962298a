"""Seat cards to print (issue 35): `share --round R TOURNAMENT --cards FILE.pdf|.html` shares a round's games and
lays every link out as a card (the table's, one per seat with its player's name, the spectators'), with its QR
code and the link printed below it; A4, a game a page."""

import json
import re
from pathlib import Path

import pytest
import segno
from click.testing import CliRunner

from whispers.application.sharing import access
from whispers.cli.main import whispers

CUP = ('name = "Winter <Cup>"\nentrants = ["Ana", "Bo", "Cy", "<b>Dee</b>", "Eve", "Fin", "Gus", "$x^$ Hal"]\n')


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(whispers, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def started(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Round 1 of eight entrants paired and started: r1-t1 and r1-t2 are in the store, seated and named."""
    monkeypatch.setenv("WHISPERS_STORE", str(tmp_path / "s.sqlite"))
    (tmp_path / "cup.toml").write_text(CUP, encoding="utf-8")
    assert run("tournament", "pair", str(tmp_path / "cup.toml"), "--round", "1", "--start")[0] == 0
    return tmp_path


def cards_of(page: str) -> list[dict[str, str]]:
    found = []
    for kind, head, title, who, qr, url in re.findall(
            r'<section class="card (\w+)"><p class="head">(.*?)</p><h2>(.*?)</h2><p class="who">(.*?)</p>'
            r'<div class="qr">(.*?)</div><p class="url">(.*?)</p></section>', page):
        found.append({"kind": kind, "head": head, "title": title, "who": who, "qr": qr, "url": url})
    return found


def test_a_rounds_cards_one_per_seat_named_with_its_qr_code_and_link(started: Path) -> None:
    out = started / "cards.html"
    code, printed, err = run("share", "--round", "1", str(started / "cup.toml"), "--cards", str(out), "--json")
    assert code == 0, err
    links = json.loads(printed)
    assert set(links) == {"r1-t1", "r1-t2"}
    page = out.read_text(encoding="utf-8")
    assert page.count('class="sheet"') == 2  # a page per game
    cards = cards_of(page)
    assert len(cards) == 2 * (1 + 4 + 1)
    listed = json.loads(run("games", "--json")[1])
    for row in listed:
        game, meta = row["game"], row["meta"]
        mine = [c for c in cards if links[game]["table"].split("/g/")[1].split("/")[0] == c["url"].split("/g/")[1]
                .split("/")[0]]
        assert [c["kind"] for c in mine] == ["table", "seat", "seat", "seat", "seat", "spectator"]
        for card in mine:
            # the event, round and table, the event's name as text, never markup
            assert card["head"] == f"Winter &lt;Cup&gt; · round 1 · table {meta['table']}"
            # the QR code is the link printed below it
            assert card["qr"] == segno.make(card["url"], error="m").svg_inline(scale=5, border=2, omitsize=True)
        seats = [c for c in mine if c["kind"] == "seat"]
        assert [c["title"] for c in seats] == row["players"]  # in seat order, as English names them
        for card, society in zip(seats, row["players"], strict=True):
            name = meta["seats"][society].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            assert card["who"] in (name, f"{name} (first)")
            assert card["url"] == links[game]["seats"][society]
            assert access(str(started / "s.sqlite"), game, card["url"].rstrip("/").rsplit("/", 1)[1]).society == society
        assert mine[0]["url"] == links[game]["table"] and mine[-1]["url"] == links[game]["spectator"]
    assert "<b>Dee</b>" not in page and "&lt;b&gt;Dee&lt;/b&gt;" in page


def test_the_cards_as_pdf_a4_a_game_a_page(started: Path) -> None:
    out = started / "cards.pdf"
    code, _, err = run("share", "--round", "1", str(started / "cup.toml"), "--cards", str(out))
    assert code == 0, err  # "$x^$ Hal" is a name, not matplotlib's mathtext
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type /Page\b", data)) == 2
    assert re.search(rb"/MediaBox \[ ?0 0 595\.\d* 841\.\d* ?\]", data)  # A4 in points


def test_one_games_cards_carry_its_table_facts(started: Path) -> None:
    out = started / "one.html"
    code, _, err = run("share", "r1-t2", "--cards", str(out))
    assert code == 0, err
    cards = cards_of(out.read_text(encoding="utf-8"))
    assert len(cards) == 6 and all(c["head"] == "Winter &lt;Cup&gt; · round 1 · table 2" for c in cards)


@pytest.mark.parametrize(("args", "message"), [
    (["--round", "2"], "has no round 2"),
    (["--round", "1", "--cards", "cards.docx"], "seat cards are written as .pdf or .html"),
    (["--round", "1", "--cards", "nowhere/cards.pdf"], "no such directory"),
])
def test_a_refused_round_makes_no_link(started: Path, monkeypatch: pytest.MonkeyPatch, args: list[str],
                                       message: str) -> None:
    monkeypatch.chdir(started)
    code, out, err = run("share", str(started / "cup.toml"), *args)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1
    # nothing was shared: sharing each game now is not refused as shared already
    assert run("share", "r1-t1")[0] == 0 and run("share", "r1-t2")[0] == 0


def test_a_round_one_of_whose_games_is_shared_or_missing_is_refused_whole(started: Path) -> None:
    assert run("share", "r1-t2")[0] == 0
    code, _, err = run("share", "--round", "1", str(started / "cup.toml"), "--cards", str(started / "c.pdf"))
    assert code == 2 and "r1-t2 is shared already" in err and not (started / "c.pdf").exists()
    assert run("share", "r1-t1")[0] == 0  # r1-t1 was not shared by the refused round
    text = (started / "cup.toml").read_text(encoding="utf-8").replace('name = "r1-t2"', 'name = "r1-t9"')
    (started / "cup.toml").write_text(text, encoding="utf-8")
    code, _, err = run("share", "--round", "1", str(started / "cup.toml"), "--revoke")
    assert code == 2 and "r1-t9 is not in the store yet" in err
