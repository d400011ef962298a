"""The director's tools: `finalize` seals a finished game, `reopen` lifts the seal for a recorded reason.

Both are events in the game's record (GameFinalized, GameReopened: new types, no stored event changed shape),
re-adjudicated by verify, written in the log and read back by import."""

import json
from pathlib import Path

import pytest
from support import assert_refused
from test_cli import invoke, moves_of, ok, refused, snapshot

from whispers.ledger.core import commands as c
from whispers.ledger.core import events as ev
from whispers.ledger.core import rules
from whispers.ledger.core.evolve import fold
from whispers.ledger.io.game import import_lines
from whispers.ledger.io.store import open_store
from whispers.ledger.io.verify import VerifyError, verify

GAMES = Path(__file__).resolve().parent.parent / "fixtures" / "games"


@pytest.fixture(scope="module")
def over():
    """The 4-player fixture game, finished and scored, as a state."""
    with open_store("memory:") as s:
        game = import_lines(s, "g", (GAMES / "official-4p.txt").read_text(encoding="utf-8").splitlines())
    assert game.state.over
    return game


def test_a_finalised_game_refuses_moves_take_backs_and_rulings(over) -> None:
    """whispers: a finalised game is sealed. Only `reopen` is decided while the seal stands."""
    sealed_events = rules.decide(over.state, c.Finalize("Dana", "results checked"))
    assert sealed_events == [ev.GameFinalized("Dana", "results checked")]
    sealed = rules.evolve(over.state, sealed_events[0])
    assert sealed.finalised == "Dana"
    for move in (c.Undo("misread", reopen=True), c.Ruling("TD: a banner more"), c.Finalize("Dana"),
                 c.Check({})):
        error = assert_refused(sealed, move, "finalised (by Dana)", rule="whispers: a finalised game is sealed")
        assert "whispers reopen g --by NAME" in error.reason
    lifted = rules.decide(sealed, c.Reopen("Dana", "a misread reveal"))
    assert lifted == [ev.GameReopened("Dana", "a misread reveal")]
    reopened = rules.evolve(sealed, lifted[0])
    assert reopened.finalised is None and reopened.over
    # the reopened game takes its last move back as any finished game does
    assert isinstance(rules.decide(reopened, c.Undo("misread", reopen=True))[0], ev.MoveTakenBack)


def test_finalize_needs_a_finished_game_a_name_and_reopen_a_reason(over) -> None:
    started = fold(list(over.events)[:30])
    assert_refused(started, c.Finalize("Dana"), "only a finished game is finalised")
    assert_refused(over.state, c.Reopen("Dana", "why"), "not finalised")
    assert_refused(over.state, c.Finalize("Da\nna"), "one line")
    assert_refused(over.state, c.Finalize("x" * 65), "one line of 1 to 64")
    sealed = rules.evolve(over.state, ev.GameFinalized("Dana"))
    assert_refused(sealed, c.Reopen("Dana", "  "), "needs a reason")


def test_verify_re_adjudicates_the_seal(over) -> None:
    facts = [e.to_fact() for e in over.events]
    sealed = [*facts, ev.GameFinalized("Dana").to_fact(), ev.GameReopened("Dana", "misread").to_fact()]
    assert verify(sealed, "g").state.finalised is None
    assert verify(sealed[:-1], "g").state.finalised == "Dana"
    with pytest.raises(VerifyError, match="not legal: the game is not finalised"):
        verify([*facts, ev.GameReopened("Dana", "misread").to_fact()], "g")
    with pytest.raises(VerifyError, match="a finalised game is sealed"):
        verify([*sealed[:-1], ev.GameFinalized("Bo").to_fact()], "g")


def test_finalize_and_reopen_from_the_command_line(tmp_path: Path) -> None:
    store = tmp_path / "whispers.sqlite"
    ok(invoke(store, "import", str(GAMES / "official-4p.txt"), "--game", "done"))
    ok(invoke(store, "import", str(GAMES / "official-2p.txt"), "--game", "two"))
    refused(invoke(store, "reopen", "done", "--by", "Dana", "--reason", "x"), "not finalised")
    out = ok(invoke(store, "finalize", "done", "--by", "Dana", "--reason", "checked at the table"))
    assert "finalised by Dana (checked at the table)" in out and "whispers reopen done" in out
    before = snapshot(store)
    for args in (["move", "done", "undo", "--reopen", "misread"], ["move", "done", "ruling", "TD: x"],
                 ["finalize", "done", "--by", "Bo"]):
        refused(invoke(store, *args), "a finalised game is sealed", "whispers reopen done --by NAME")
    assert snapshot(store) == before
    standings = ok(invoke(store, "standings", "--games", "done,two"))
    assert "Finalised by the director: done" in standings
    assert "Finished, not finalised yet (* above, provisional): two" in standings
    ok(invoke(store, "verify", "done"))
    log = ok(invoke(store, "log", "done"))
    assert moves_of(log)[-1] == "finalize Dana 'checked at the table'"
    out = ok(invoke(store, "reopen", "done", "--by", "Dana", "--reason", "a misread reveal"))
    assert "reopened by Dana (a misread reveal)" in out
    ok(invoke(store, "move", "done", "undo", "--reopen", "misread"))
    log = ok(invoke(store, "log", "done"))
    assert moves_of(log)[-3:] == ["finalize Dana 'checked at the table'", "reopen Dana 'a misread reveal'",
                                  "undo reopen misread"]
    # the log reads back to the same record
    path = store.parent / "again.txt"
    path.write_text(log, encoding="utf-8")
    ok(invoke(store, "import", str(path), "--game", "again"))
    facts = snapshot(store)
    assert facts["again"][1:] == facts["done"][1:]
    standings = ok(invoke(store, "standings", "--games", "done,two"))
    assert "In progress, not counted: done" in standings


def test_a_finished_games_log_as_a_society_shows_the_final_reveal(over) -> None:
    """EN "Final Scoring": every loyalty set is turned face up at the end, so a society's log ends with what the
    whole table saw then, though it hid the other sets' tokens while the game ran; the record's log (every
    token written on its loyalty lines already) and a game not over add nothing."""
    from whispers.projections.log import format_record

    seen = list(format_record(over.events, viewer="rat"))
    reveal = [line for line in seen if line.startswith("#   final reveal:")]
    others = [s for s in over.state.players if s != "rat"]
    assert [line.split()[3] for line in reveal] == others
    for line in reveal:
        society = line.split()[3]
        tokens = dict(pair.split("=") for pair in line.split()[4:])
        assert tokens == dict(over.state.loyalty[society].tokens)
    assert seen.index(reveal[0]) > max(i for i, line in enumerate(seen) if line.startswith("#   final scores"))
    assert not any("final reveal" in line for line in format_record(over.events))
    assert not any("final reveal" in line for line in format_record(over.events[:-1], viewer="rat"))
    spectator = [line for line in format_record(over.events, viewer="spectator") if "final reveal" in line]
    assert len(spectator) == len(over.state.players)


def test_diff_shows_the_moves_on_each_side_after_the_parting(tmp_path: Path) -> None:
    store = tmp_path / "whispers.sqlite"
    ok(invoke(store, "import", str(GAMES / "official-4p.txt"), "--game", "g"))
    ok(invoke(store, "fork", "g", "f", "--at", "200"))
    ok(invoke(store, "move", "f", "undo", "a different line"))
    data = json.loads(ok(invoke(store, "diff", "g", "f", "--json")))
    assert {"games", "common", "identical", "first_difference", "outcome", "score_change"} - set(data) == {
        "score_change"}  # the keys of before (no score change: f is not over), and the moves
    facts = snapshot(store)
    g_moves = data["moves"]["g"]
    assert g_moves[0] == {"event": 201, "move": data["first_difference"]["g"]}
    assert [m["event"] for m in g_moves] == sorted(m["event"] for m in g_moves) and g_moves[-1]["event"] <= 214
    assert len(g_moves) == sum(1 for f in facts["g"][200:] if ev.EVENT_TYPES[f["type"]].MOVE)
    assert data["moves"]["f"] == [{"event": 202, "move": "undo 'a different line'"}]  # its event 201 is the fork
    out = ok(invoke(store, "diff", "g", "f"))
    assert f"g after event 200: {len(g_moves)} moves" in out and "f after event 200: 1 move" in out
    assert "   202  undo 'a different line'" in out
