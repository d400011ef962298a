"""`whispers verify --all`: every game of a tournament's store checked in one process, each sound one's chain head
printed as `verify GAME` prints it, each broken one named with its first bad event while the others are still
checked (exit status 2)."""

from __future__ import annotations

import json
from pathlib import Path

import msgpack
from test_cli import invoke, ok, refused

from tests.store_rows import rows_of
from whispers.ledger.io.store import game_id
from whispers.ledger.io.transcoder import packed, unpacked

GAMES = Path(__file__).resolve().parent.parent / "fixtures" / "games"
BUNDLED = ("official-2p", "official-4p", "revised-3p")


def imported(tmp_path: Path) -> Path:
    store = tmp_path / "s.sqlite"
    ok(invoke(store, "import", *[str(GAMES / f"{name}.txt") for name in BUNDLED]))
    return store


def head_of(store: Path, game: str) -> str:
    return json.loads(ok(invoke(store, "verify", game, "--json")))["head"]


def rewrite(store: Path, game: str, version: int, change) -> None:
    """Changes one stored event of `game` in place, as someone with the database file could."""
    db = rows_of(store)
    oid = game_id(game).hex
    (state,) = db.execute("SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?",
                          (oid, version)).fetchone()
    db.execute("UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
               (change(state), oid, version))
    db.commit()
    db.close()


def fact_changed(key: str, value: object):
    def change(state: bytes) -> bytes:
        data = msgpack.unpackb(unpacked(state), raw=False, strict_map_key=False, ext_hook=msgpack.ExtType)
        data["fact"][key] = value
        return packed(msgpack.packb(data, use_bin_type=True))
    return change


def test_every_game_is_verified_and_its_head_printed_as_verify_prints_it(tmp_path: Path) -> None:
    store = imported(tmp_path)
    result = invoke(store, "verify", "--all")
    assert ok(result).splitlines() == [f"{head_of(store, game)}  {game}" for game in BUNDLED]
    assert "3 games verified: every move agrees with the rules; 0 broken." in result.stderr
    data = json.loads(ok(invoke(store, "verify", "--all", "--json")))
    assert (data["verified"], data["broken"]) == (3, 0)
    assert [(g["game"], g["head"], g["broken"]) for g in data["games"]] == [
        (game, head_of(store, game), None) for game in BUNDLED]


def test_a_tampered_game_is_named_at_its_first_bad_event_and_the_others_still_stand(tmp_path: Path) -> None:
    """A move rewritten in the database (no hash to fool: the store's own rows) and a row whose compressed bytes are
    damaged: each game named once, with why; the sound game's head still printed; exit status 2."""
    store = imported(tmp_path)
    sound = head_of(store, "revised-3p")
    rows = rows_of(store).execute(
        "SELECT originator_version, state FROM stored_events WHERE originator_id = ? ORDER BY originator_version",
        (game_id("official-2p").hex,)).fetchall()
    deployed = next(v for v, s in rows if msgpack.unpackb(unpacked(s), raw=False, strict_map_key=False,
                                                          ext_hook=msgpack.ExtType)["fact"]["type"] == "AgentDeployed")
    rewrite(store, "official-2p", deployed, fact_changed("society", "serpent"))  # not a player of the game
    # after the marker and the dictionary's number, a first deflate byte 0xff: a block of the reserved type 3
    rewrite(store, "official-4p", 7, lambda state: state[:2] + b"\xff" + state[3:])
    result = invoke(store, "verify", "--all")
    assert result.exit_code == 2 and "Traceback" not in result.stdout + result.stderr
    assert result.stdout.splitlines() == [f"{sound}  revised-3p"]
    broken = [line for line in result.stderr.splitlines() if line.startswith("broken: ")]
    assert len(broken) == 2
    assert f"official-2p: event {deployed}" in broken[0]
    assert "'official-4p', event 7: its stored bytes cannot be decoded" in broken[1]
    assert "1 game verified: every move agrees with the rules; 2 broken." in result.stderr
    data = json.loads(invoke(store, "verify", "--all", "--json").stdout)
    assert (data["verified"], data["broken"]) == (1, 2)
    assert [g["head"] is None for g in data["games"]] == [True, True, False]


def test_verify_takes_a_game_or_all_of_them_not_both() -> None:
    refused(invoke("memory:", "verify"), "give a GAME or FILE to verify, or --all")
    refused(invoke("memory:", "verify", "g", "--all"), "give a GAME or FILE to verify, or --all")
    empty = invoke("memory:", "verify", "--all")
    assert ok(empty) == "" and "0 games verified" in empty.stderr
