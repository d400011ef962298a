"""Move labels (issue 15, docs/notation.md "Move labels"): one pure function from the events, one resolver for
every `--at`, one wording for a label that names nothing."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from whispers.cli.main import whispers
from whispers.ledger.core import events as ev
from whispers.ledger.io.game import replay_lines
from whispers.projections.labels import UnknownLabel, labels, resolve, round_starts

GAME_FILE = Path(__file__).resolve().parent.parent / "fixtures" / "games" / "official-2p.txt"


@pytest.fixture(scope="module")
def game():
    return replay_lines("t", GAME_FILE.read_text().splitlines())


def test_every_standing_move_has_one_label_and_no_label_names_two_moves(game):
    found = labels(game.events)
    moves = [v for v, e in enumerate(game.events, start=1) if e.MOVE]
    assert sorted(found) == moves  # the fixture takes nothing back
    assert [label.number for label in found.values()] == list(range(1, len(moves) + 1))
    places = [label.place for label in found.values()]
    assert len(set(places)) == len(places)


def test_an_order_is_named_by_round_empire_and_office_and_other_moves_by_their_count_in_the_round(game):
    for version, label in labels(game.events).items():
        event = game.events[version - 1]
        if isinstance(event, ev.BannersRecruited | ev.CardsDrawn | ev.Attacked | ev.AgentSwapped):
            assert label.place.split("#")[0].endswith(f".{event.empire}.{event.office}")
        elif isinstance(event, ev.AgentDeployed):
            assert label.place.startswith("R") and " deploy " in label.place


def test_resolve_reads_numbers_move_numbers_labels_rounds_and_end(game):
    found = labels(game.events)
    some = list(found.values())[40]
    assert resolve("t", game.events, str(some.version)) == some.version
    assert resolve("t", game.events, f"m{some.number}") == some.version
    assert resolve("t", game.events, some.place.upper()) == some.version  # case and spacing do not matter
    assert resolve("t", game.events, str(some)) == some.version
    assert resolve("t", game.events, "end") == len(game.events)
    start = round_starts(game.events)[2]
    assert resolve("t", game.events, "round2") == start == resolve("t", game.events, "round 2")
    assert isinstance(game.events[start - 1], ev.PhaseStarted) and game.events[start - 1].round == 2


@pytest.mark.parametrize("text", ["nonsense", "m0", "m9999", "round9", "9.bear.marshal", "R2 deploy 99"])
def test_an_unknown_label_is_refused_with_one_wording(game, text):
    with pytest.raises(UnknownLabel, match=r"t has no event .*: give an event number \(1-\d+\), a move number"):
        resolve("t", game.events, text)


def test_a_taken_back_move_loses_its_label_and_the_redo_takes_it(game):
    lines = GAME_FILE.read_text().splitlines()
    deploy = next(i for i, line in enumerate(lines) if line.startswith("spider deploy"))
    again = replay_lines("u", [*lines[:deploy + 1], 'undo "wrong agent"', lines[deploy]])
    found = labels(again.events)
    assert [label.place for label in found.values()][-1] == "R1 deploy 1"
    assert len(found) == 3  # two loyalties and the deploy that stands


def test_every_at_takes_a_label_and_says_the_same_for_an_unknown_one(tmp_path):
    url = f"sqlite:///{tmp_path}/s.db"
    runner = CliRunner()
    assert runner.invoke(whispers, ["import", str(GAME_FILE), "--game", "t", "--store", url]).exit_code == 0
    at = json.loads(runner.invoke(whispers, ["replay", "t", "--at", "2.bear.marshal", "--json", "--store", url])
                    .output)
    assert at["label"].endswith("2.bear.marshal")
    assert "Last move: m" in runner.invoke(whispers, ["status", "t", "--at", "R2 deploy 3", "--store", url]).output
    assert runner.invoke(whispers, ["map", "t", "--at", "round2", "-o", str(tmp_path / "m.dot"),
                                    "--store", url]).exit_code == 0
    fork = runner.invoke(whispers, ["fork", "t", "f", "--at", "m10", "--store", url])
    assert fork.exit_code == 0 and "at event 14" in fork.output
    note = runner.invoke(whispers, ["annotate", "t", "end", "a note", "--store", url])
    assert note.exit_code == 0, note.output
    errors = set()
    for args in (["replay", "t", "--at", "x9"], ["status", "t", "--at", "x9"], ["fork", "t", "g", "--at", "x9"],
                 ["annotate", "t", "x9", "text"], ["map", "t", "--at", "x9", "-o", str(tmp_path / "n.dot")]):
        result = runner.invoke(whispers, [*args, "--store", url])
        assert result.exit_code == 2 and "Traceback" not in result.output, (args, result.output)
        errors.add(result.output.strip())
    assert len(errors) == 1 and "t has no event 'x9'" in errors.pop()


def test_the_timeline_shows_each_order_and_card_play_by_its_label(game):
    """Issue 15: the labels are shown by the pictures: each executed order's node and each card play's note."""
    from whispers.projections.timeline import timeline

    source = timeline(game.events)
    found = labels(game.events)
    orders = [label for version, label in found.items()
              if isinstance(game.events[version - 1], ev.BannersRecruited | ev.CardsDrawn | ev.Attacked)]
    plays = [label for version, label in found.items() if isinstance(game.events[version - 1], ev.CardPlayed)]
    assert orders and plays
    for label in orders:
        assert f"m{label.number} {label.place}</FONT>" in source, label
    for label in plays:
        assert f"m{label.number} {label.place} · " in source, label
    assert timeline(game.events, viewer="spider").count(" 1.bear.sheriff</FONT>") == 1  # the same for a society


def test_the_map_title_names_the_move_by_its_label_or_the_move_an_engine_event_follows(tmp_path):
    runner = CliRunner()
    url = f"sqlite:///{tmp_path}/s.db"
    assert runner.invoke(whispers, ["import", str(GAME_FILE), "--game", "t", "--store", url]).exit_code == 0
    game = replay_lines("t", GAME_FILE.read_text().splitlines())
    marshal = next(label for label in labels(game.events).values() if label.place == "2.bear.marshal")
    for at, title in (("2.bear.marshal", f'label="t · {marshal}: '), ("round2", 'label="t · event '),
                      ("1", 'label="t · event 1: set up"'), ("end", 'label="t · event ')):
        assert runner.invoke(whispers, ["map", "t", "--at", at, "-o", str(tmp_path / "m.dot"),
                                        "--store", url]).exit_code == 0
        assert title in (tmp_path / "m.dot").read_text(), at
    assert " after m" in (tmp_path / "m.dot").read_text().split("\n", 3)[2]


def test_end_is_the_games_last_event_not_a_change_of_table_facts_after_it(game):
    """A rename or a seat's name recorded after the game is not the game: `--at end` still names its end."""
    described = ev.from_fact(ev.GameDescribed({"title": "Final"}, "2026-11-22T20:00:00+00:00").to_fact())
    events = [*game.events, described]
    assert resolve("t", events, "end") == len(game.events)
    assert resolve("t", game.events, "end") == len(game.events)


@pytest.mark.parametrize("seed", range(6))
def test_the_state_carries_the_last_moves_label_through_take_backs(seed):
    """The fold counts moves as it goes (ledger/core/numbering.py), so `status` labels a game's last move from its
    head: at every event of random games with take-backs (one in three moves taken back, sometimes two in a
    row), the state's number and place are the label `labels` gives the whole record's last standing move."""
    import random

    from whispers.ledger.core import commands as c
    from whispers.ledger.core import randomgame, rules
    from whispers.ledger.core.evolve import evolve
    from whispers.ledger.core.names import SOCIETIES
    from whispers.ledger.io.board_files import load_board
    from whispers.ledger.io.ruleset_files import load_ruleset

    rng = random.Random(seed)
    events = []
    state = None
    for event in next(iter(randomgame.play(SOCIETIES[: 2 + seed % 3], load_ruleset(("official", "revised")[seed % 2]),
                                           load_board("standin"), seed, name="t")))[1][:1]:
        events.append(event)
        state = evolve(state, event)
    checked = 0
    while not state.over and len(events) < 600:
        undo = state.moves and rng.random() < 0.33
        produced = rules.decide(state, c.Undo("test") if undo else randomgame.random_command(state, rng))
        for event in produced:
            events.append(event)
            state = evolve(state, event)
            named = labels(events)
            last = named[max(named)] if named else None
            assert (state.move_number, state.move_place) == ((last.number, last.place) if last else (0, None))
            checked += 1
    assert checked > 100 and any(isinstance(e, ev.MoveTakenBack) for e in events)
