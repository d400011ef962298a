"""Variations kept inside their game (as PGN and SGF keep them): a fork's moves after its fork point, stored
in the game's notes stream (so they travel in record files under the notes chain), decided by the rules again
whenever they are replayed."""

import json
from pathlib import Path

import msgpack
import pytest
from test_cli import invoke, ok, refused

from whispers.ledger.core.errors import RecordFileError, RuleError
from whispers.ledger.io.game import import_lines, play_variation, read_notes
from whispers.ledger.io.recordfile import loads
from whispers.ledger.io.store import open_store

GAMES = Path(__file__).resolve().parent.parent / "fixtures" / "games"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    path = tmp_path / "w.sqlite"
    with open_store(str(path)) as s:
        import_lines(s, "g", (GAMES / "official-4p.txt").read_text(encoding="utf-8").splitlines())
    ok(invoke(path, "fork", "g", "f", "--at", "200"))
    ok(invoke(path, "move", "f", "undo", "what if serpent held back"))
    return path


def test_a_fork_kept_as_a_variation_is_listed_and_replayed(store: Path) -> None:
    refused(invoke(store, "variation", "f", "x", "--keep", "g"), "g is not a fork of f")
    out = ok(invoke(store, "variation", "g", "held-back", "--keep", "f", "--author", "Ana"))
    assert "variation 'held-back' kept: 1 move after event 200" in out
    listed = json.loads(ok(invoke(store, "variation", "g", "--json")))
    assert listed == [{"name": "held-back", "at": 200, "moves": ["undo 'what if serpent held back'"],
                       "author": "Ana", "time": listed[0]["time"]}]
    refused(invoke(store, "variation", "g", "held-back", "--keep", "f"), "kept already")
    shown = json.loads(ok(invoke(store, "variation", "g", "held-back", "--json")))
    assert shown["parted"] == 200 and shown["moves"] == [{"event": 201, "move": "undo 'what if serpent held back'"}]
    forked = json.loads(ok(invoke(store, "status", "f", "--json")))
    assert shown["status"]["next"] == forked["next"]  # the same position as the fork it came from
    text = ok(invoke(store, "variation", "g", "held-back", "--at", "200"))
    assert "After event 200 of 201:" in text
    refused(invoke(store, "variation", "g", "nope"), "no variation named 'nope'")
    # the game itself is untouched: its log, its notes, its verdict
    assert "held-back" not in ok(invoke(store, "log", "g"))
    assert "variation 'held-back' kept after event 200" in ok(invoke(store, "notes", "g", "--history"))
    ok(invoke(store, "verify", "g"))


def test_variations_travel_in_record_files_and_are_decided_again(store: Path, tmp_path: Path) -> None:
    ok(invoke(store, "variation", "g", "held-back", "--keep", "f"))
    ok(invoke(store, "export", "g", "-o", str(tmp_path / "g.whispers")))
    ok(invoke(store, "import", str(tmp_path / "g.whispers"), "--game", "g2"))
    assert "held-back" in ok(invoke(store, "variation", "g2"))
    data = (tmp_path / "g.whispers").read_bytes()
    body = msgpack.unpackb(data, raw=False)
    body["notes"][0]["lines"] = ["raven pass"]
    with pytest.raises(RecordFileError, match="the notes were altered"):
        loads(msgpack.packb(body, use_bin_type=True), "f")
    with open_store(str(store)) as s:
        entry = read_notes(s, "g")[0][0]
        with pytest.raises(RuleError, match="variation 'held-back' move 1: "):
            play_variation(s, "g", {**entry, "lines": ["raven pass"]})
