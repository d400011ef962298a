"""Amending a past move (issue 32): `whispers move GAME amend m12 "LINE" "REASON"` corrects the move at its place
and decides every later move again on the corrected game, as new events in one append (the record keeps the
original, the amendment and its reason); refused, with nothing changed, when a later move becomes illegal."""

from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from support import DEPLOYED

from whispers.application import recording
from whispers.ledger.core import events as ev
from whispers.ledger.core.errors import RuleError
from whispers.ledger.io.store import open_store

# m1-m4 the loyalties (raven's and serpent's recorded face down: only their society may see them), m5-m12 the
# deployments, m13-m15 bear's sheriff, steward and marshal.
OPENING = (DEPLOYED.replace("raven loyalty devout=bear dutiful=eagle affiliated=lion unallied=horse opposed=elephant",
                            "raven loyalty {raven}")
           + "raven recruit frost-gate=1 ice-hall=1\nrat draw\nspider attack wolfmere saltmarsh 1\n")
RAVEN = "devout=bear dutiful=eagle affiliated=lion unallied=horse opposed=elephant"
OTHER_RAVEN = "devout=horse dutiful=lion affiliated=eagle unallied=bear opposed=elephant"


def run(store: Path, *args: str) -> Result:
    return CliRunner().invoke(whispers_cli(), list(args), env={"WHISPERS_STORE": str(store)}, prog_name="whispers")


def whispers_cli():
    from whispers.cli.main import whispers

    return whispers


def ok(result: Result) -> str:
    assert result.exit_code == 0, f"exit {result.exit_code}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def made(tmp_path: Path, raven: str = RAVEN, name: str = "s") -> Path:
    store = tmp_path / f"{name}.sqlite"
    notation = tmp_path / f"{name}.txt"
    notation.write_text(OPENING.format(raven=raven), encoding="utf-8")
    ok(run(store, "import", str(notation), "--game", "p"))
    return store


def standing_log(store: Path, *args: str) -> list[str]:
    """The moves still standing, as `replay` folds them: the log's lines after the last take-back."""
    lines = ok(run(store, "log", "p", *args)).splitlines()
    last_undo = max((i for i, line in enumerate(lines) if line.startswith("undo ")), default=0)
    return [line for line in lines[last_undo + 1:] if line and not line.startswith("#")]


def test_the_corrected_move_stands_and_every_later_move_is_decided_again(tmp_path: Path) -> None:
    store = made(tmp_path)
    out = ok(run(store, "move", "p", "amend", "m12", "serpent deploy lion.marshal", "misheard the office"))
    assert "m12 R1 deploy 8 amended (misheard the office); 4 moves decided again" in out
    # the attack's outcome is said again, in the order it happened, on the corrected game
    assert out.index("serpent deploy lion.marshal") < out.index("saltmarsh is now held by horse") < \
        out.index("eagle's turn")
    assert standing_log(store)[-4:] == ["serpent deploy lion.marshal",
                                        "raven recruit order=recruit_per_farm frost-gate=1 ice-hall=1",
                                        "rat draw order=draw_per_2_farms", "spider attack wolfmere saltmarsh 1"]
    with open_store(str(store)) as s:
        game = recording.open_game(s, "p")
        events = game.events
        council = game.state.council
        assert council[("lion", "marshal")] == "serpent" and ("lion", "steward") not in council
    # the record keeps the original move, the amendment and its reason: nothing was edited
    assert any(isinstance(e, ev.AgentDeployed) and e.where == "lion.steward" for e in events)
    marker = [e for e in events if isinstance(e, ev.MoveAmended)]
    assert len(marker) == 1 and marker[0].reason == "misheard the office" and marker[0].moves == 4
    assert sum(isinstance(e, ev.MoveTakenBack) for e in events) == 4
    # a take-back after it stays what it is: the last move
    said = ok(run(store, "move", "p", 'undo "wrong attack"'))
    assert "takes back m15 1.bear.marshal: spider attack wolfmere saltmarsh 1" in said
    assert "Last move: m14 1.bear.steward" in ok(run(store, "status", "p"))


def test_an_amendment_making_a_later_move_illegal_is_refused_naming_it_and_changes_nothing(tmp_path: Path) -> None:
    """EN Deploy Agents Phase: a position holds one agent. Spider's m7 moved to lion.steward leaves serpent's m12
    (lion.steward) illegal: the amendment is refused naming m12, and the record is as it was."""
    store = made(tmp_path)
    before = ok(run(store, "log", "p"))
    result = run(store, "move", "p", "amend", "m7", "spider deploy lion.steward", "wrong office")
    assert result.exit_code == 2 and result.stdout == ""
    assert "m12 R1 deploy 8" in result.stderr and "serpent deploy lion.steward" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert ok(run(store, "log", "p")) == before
    # so is an illegal corrected move, and a label that names no move
    bad = run(store, "move", "p", "amend", "m12", "serpent deploy bear.sheriff", "taken")
    assert bad.exit_code == 2 and "the corrected m12 R1 deploy 8" in bad.stderr
    assert run(store, "move", "p", "amend", "m99", "serpent deploy lion.marshal", "x").exit_code == 2
    assert run(store, "move", "p", "amend", "m12", "serpent deploy lion.marshal").exit_code == 2  # no reason
    assert ok(run(store, "log", "p")) == before


def test_a_preview_of_an_amendment_records_nothing(tmp_path: Path) -> None:
    store = made(tmp_path)
    before = ok(run(store, "log", "p"))
    out = ok(run(store, "move", "p", "amend", "m12", "serpent deploy lion.marshal", "misheard", "--preview"))
    assert "nothing recorded" in out and "serpent deploy lion.marshal" in out
    assert ok(run(store, "log", "p")) == before


def test_an_amended_record_verifies_and_its_record_file_carries_the_amendment(tmp_path: Path) -> None:
    store = made(tmp_path)
    ok(run(store, "move", "p", "amend", "m12", "serpent deploy lion.marshal", "misheard the office"))
    assert "every move agrees with the rules" in ok(run(store, "verify", "p"))
    record = tmp_path / "p.whispers"
    ok(run(store, "export", "p", "-o", str(record)))
    other = tmp_path / "other.sqlite"
    ok(run(other, "import", str(record), "--game", "p"))
    assert "every move agrees with the rules" in ok(run(other, "verify", "p"))
    assert ok(run(other, "status", "p")) == ok(run(store, "status", "p"))
    with open_store(str(other)) as s:
        events = recording.open_game(s, "p").events
    assert [e.reason for e in events if isinstance(e, ev.MoveAmended)] == ["misheard the office"]
    # the replay marks it, and the statistics follow the amended game
    marked = "amended: the move of event 14 is corrected (misheard the office); 4 moves decided again"
    assert marked in ok(run(store, "log", "p"))
    at = next(i for i, e in enumerate(events, start=1) if isinstance(e, ev.MoveAmended))
    assert marked in ok(run(store, "replay", "p", "--at", str(at)))
    assert ok(run(store, "stats", "p", "--json")) == ok(run(other, "stats", "p", "--json"))


def test_a_seats_view_of_an_amended_game_shows_nothing_hidden(tmp_path: Path) -> None:
    """Differential: two games alike but for raven's face-down loyalty, amended alike; what rat sees of them is the
    same, in the log, the replay and the status."""
    one, two = made(tmp_path, RAVEN, "one"), made(tmp_path, OTHER_RAVEN, "two")
    for store in (one, two):
        ok(run(store, "move", "p", "amend", "m1", f"raven loyalty {RAVEN if store == one else OTHER_RAVEN}",
               "recorded in the wrong order"))
    for view in (("log", "p", "--as", "rat"), ("replay", "p", "--as", "rat"), ("status", "p", "--as", "rat")):
        assert ok(run(one, *view)) == ok(run(two, *view))
    assert "devout=horse" not in ok(run(two, "log", "p", "--as", "rat"))


def test_an_amendment_goes_through_the_application_for_every_face(tmp_path: Path) -> None:
    store = made(tmp_path)
    with open_store(str(store)) as s:
        version = recording.open_game(s, "p").version
        with pytest.raises(RuleError):
            recording.amend(s, "p", "m7", "spider deploy lion.steward", "wrong office")
        assert recording.open_game(s, "p").version == version
        done = recording.amend(s, "p", "m12", "serpent deploy lion.marshal", "misheard")
        assert done.after.version == recording.open_game(s, "p").version > version
        assert done.to_json()["moves"] == 4
