"""`whispers verify`: the hash chain, and every move re-adjudicated by the rules engine."""

import copy
import hashlib
from importlib import resources
from pathlib import Path

import msgpack
import pytest
from click.testing import CliRunner

from whispers.cli.main import whispers
from whispers.ledger.core import randomgame
from whispers.ledger.core.names import SOCIETIES
from whispers.ledger.io.board_files import load_board
from whispers.ledger.io.game import fork, import_lines
from whispers.ledger.io.recordfile import dumps
from whispers.ledger.io.ruleset_files import load_ruleset
from whispers.ledger.io.store import open_store
from whispers.ledger.io.verify import VerifyError, verify

GAMES = ("official-4p.txt", "official-2p.txt", "revised-3p.txt", "revised-3p-decrees.txt")


def bundled_facts(name: str) -> list[dict]:
    text = resources.files("whispers.fixtures").joinpath("games", name).read_text(encoding="utf-8")
    with open_store("memory:") as store:
        import_lines(store, "g", text.splitlines())
        return store.facts("g")


@pytest.mark.parametrize("name", GAMES)
def test_every_bundled_game_verifies(name: str) -> None:
    facts = bundled_facts(name)
    verified = verify(facts, name)
    assert verified.events == len(facts) and verified.state.over and len(verified.head) == 64


@pytest.mark.parametrize("seed", range(12))
def test_random_games_with_take_backs_and_cards_verify(seed: int) -> None:
    ruleset = load_ruleset(("official", "advanced", "revised")[seed % 3])
    facts = []
    for _, produced, _ in randomgame.play(SOCIETIES[: 2 + seed % 3], ruleset, load_board("standin"), seed,
                                         undo_rate=0.03):
        facts += [e.to_fact() for e in produced]
    assert verify(facts, "random").state.over


def test_a_fork_verifies() -> None:
    with open_store("memory:") as store:
        text = resources.files("whispers.fixtures").joinpath("games", "official-2p.txt").read_text(encoding="utf-8")
        import_lines(store, "g", text.splitlines())
        fork(store, "g", "f", 77)
        assert not verify(store.facts("f"), "f").state.over


def test_a_fork_cut_inside_a_moves_consequences_verifies() -> None:
    """A fork may be cut after any event, between a move and the events the rules made of it (`fork --at 40` of
    official-4p ends on a move whose turn's start follows): its marker stands where the rest was, and the rules give
    the rest again after it. verify said the record had GameForked where the rules gave EmpireTurnStarted."""
    with open_store("memory:") as store:
        text = resources.files("whispers.fixtures").joinpath("games", "official-4p.txt").read_text(encoding="utf-8")
        import_lines(store, "g", text.splitlines())
        for at in sorted({40, *range(1, len(store.facts("g")) + 1, 3)}):
            fork(store, "g", f"f{at}", at)
            assert verify(store.facts(f"f{at}"), f"f{at}").events == len(store.facts(f"f{at}"))
        moved = store.facts("f40")
        moved[40] = {**moved[40], "at": 39}  # a marker that does not stand where the cut is: not a fork's
        with pytest.raises(VerifyError, match="event 41"):
            verify(moved, "moved")


@pytest.mark.parametrize(
    ("mutate", "names"),
    [
        (lambda f: f[_first(f, "Attacked")].__setitem__("defender_losses", 99), "event {}"),
        (lambda f: f[-1]["scores"]["rat"].__setitem__("total", 0), "event {}"),
        (lambda f: f.__delitem__(40), "event 41"),
        (lambda f: f[_first(f, "SupplyChecked")].__setitem__("losses", {"frost-gate": ["bear", 1]}), "event {}"),
        (lambda f: f[_first(f, "AgentDeployed")].__setitem__("where", "bear.nowhere"), "event {}"),
    ],
)
def test_a_record_that_breaks_the_rules_is_named_at_its_first_bad_event(mutate, names: str) -> None:
    facts = copy.deepcopy(bundled_facts("official-4p.txt"))
    before = copy.deepcopy(facts)
    mutate(facts)
    changed = next(i for i, (a, b) in enumerate(zip(before, facts, strict=False)) if a != b) + 1
    with pytest.raises(VerifyError) as error:
        verify(facts, "f")
    assert names.format(changed) in str(error.value)


def test_a_finished_game_reopened_by_a_plain_take_back_does_not_stand_whispers_take_back() -> None:
    """Reopening a finished game is a deliberate act: `undo reopen REASON` verifies; the same take-back recorded
    without its reopen mark (as a record made before the mark, or a tampered one) is named as not legal."""
    facts = bundled_facts("official-2p.txt")
    assert facts[-1]["type"] == "GameScored"
    lines = [*_log(facts), 'undo reopen "TD: the final move was misread"']
    with open_store("memory:") as store:
        import_lines(store, "g", lines)
        reopened = store.facts("g")
    assert reopened[-1]["type"] == "MoveTakenBack" and reopened[-1]["reopen"] is True
    assert not verify(reopened, "g").state.over
    plain = copy.deepcopy(reopened)
    plain[-1]["reopen"] = False
    with pytest.raises(VerifyError) as error:
        verify(plain, "g")
    assert f"event {len(plain)}" in str(error.value) and "undo reopen" in str(error.value)


def _log(facts: list[dict]) -> list[str]:
    from whispers.ledger.io.game import read_facts
    from whispers.projections.log import format_record

    return list(format_record(read_facts(facts, "g"), comments=False))


def _first(facts: list[dict], kind: str) -> int:
    return next(i for i, f in enumerate(facts) if f["type"] == kind)


def _rechain(data: bytes) -> bytes:
    """A tamperer who recomputes the chain after editing: only re-adjudication can catch this."""
    body = msgpack.unpackb(data, raw=False)
    previous = "0" * 64
    for entry in body["events"]:
        previous = hashlib.sha256(bytes.fromhex(previous) + msgpack.packb(entry[0], use_bin_type=True)).hexdigest()
        entry[1] = previous
    body["header"]["head"] = previous
    return msgpack.packb(body, use_bin_type=True)


def test_verify_command_on_a_game_a_file_and_a_rechained_tamper(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WHISPERS_STORE", str(tmp_path / "s.sqlite"))
    facts = bundled_facts("revised-3p.txt")
    with open_store(str(tmp_path / "s.sqlite")) as store:
        store.create("g", facts)
    runner = CliRunner()
    ok = runner.invoke(whispers, ["verify", "g"])
    assert ok.exit_code == 0 and "200 events verified" in ok.output and "every move agrees" in ok.output
    good = tmp_path / "g.whispers"
    good.write_bytes(dumps("g", facts))
    assert runner.invoke(whispers, ["verify", str(good)]).exit_code == 0
    tampered = copy.deepcopy(facts)
    tampered[_first(tampered, "Attacked")]["attacker_losses"] = 0
    bad = tmp_path / "bad.whispers"
    bad.write_bytes(_rechain(dumps("g", tampered)))
    result = runner.invoke(whispers, ["verify", str(bad)])
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
    assert f"event {_first(tampered, 'Attacked') + 1} (Attacked) disagrees with the rules" in result.stderr
    # the refusal in the user's language, the record's own words (its field, its values) as they are
    french = runner.invoke(whispers, ["--lang", "fr", "verify", str(bad)])
    assert french.exit_code == 2 and len(french.stderr.strip().splitlines()) == 1
    assert (f"l'événement {_first(tampered, 'Attacked') + 1} (Attacked) contredit les règles : attacker_losses vaut 0 "
            "dans l'enregistrement") in french.stderr
    broken = bytearray(good.read_bytes())
    broken[len(broken) // 2] ^= 0x01
    (tmp_path / "flip.whispers").write_bytes(bytes(broken))
    result = runner.invoke(whispers, ["verify", str(tmp_path / "flip.whispers")])
    assert result.exit_code == 2 and "Traceback" not in result.output + result.stderr


def test_import_refuses_a_rechained_tamper_and_stores_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Import re-adjudicates too: a tamperer who recomputed the chain is still refused, and nothing is stored."""
    monkeypatch.setenv("WHISPERS_STORE", str(tmp_path / "s.sqlite"))
    tampered = copy.deepcopy(bundled_facts("official-2p.txt"))
    tampered[_first(tampered, "BannersRecruited")]["amount"] += 1
    bad = tmp_path / "bad.whispers"
    bad.write_bytes(_rechain(dumps("g", tampered)))
    result = CliRunner().invoke(whispers, ["import", str(bad)])
    assert result.exit_code == 2 and "disagrees with the rules" in result.stderr
    with open_store(str(tmp_path / "s.sqlite")) as store:
        assert store.names() == []


@pytest.mark.parametrize("seed", range(12))
def test_the_command_rebuilt_from_an_event_is_the_one_its_notation_line_reads_back_as(seed: int) -> None:
    """verify rebuilds each move's command from its event (commands.of_event), not through text: the two ways
    must agree on every kind of move, borrowed orders, card plays and take-backs included."""
    from whispers.ledger.core.commands import of_event
    from whispers.ledger.core.notation import format_event, parse_line

    ruleset = load_ruleset(("official", "advanced", "revised")[seed % 3])
    state = None
    for _, produced, after in randomgame.play(SOCIETIES[: 2 + seed % 3], ruleset, load_board("standin"), seed,
                                               undo_rate=0.03):
        event = produced[0]
        if state is not None and (event.MOVE or type(event).__name__ == "MoveTakenBack"):
            borrowed = state.pending is not None
            assert of_event(event, borrowed) == parse_line(format_event(event, borrowed=borrowed) or "")
        state = after
