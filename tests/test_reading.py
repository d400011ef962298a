"""The reading commands and their refusals (issue 9): results read from the events still standing, one check and
one wording for a viewer who is not playing and for an event that does not exist, diffs of unrelated games,
conflicting output flags, and counts that agree with their nouns."""

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from whispers.cli.main import whispers
from whispers.ledger.core import events as ev
from whispers.ledger.core import randomgame
from whispers.ledger.core.errors import NoSuchEvent
from whispers.ledger.core.evolve import fold
from whispers.ledger.core.words import plural
from whispers.ledger.io.board_files import load_board
from whispers.ledger.io.game import load
from whispers.ledger.io.ruleset_files import load_ruleset
from whispers.ledger.io.store import open_store
from whispers.projections.timeline import timeline

ROOT = Path(__file__).resolve().parent.parent


# --- counts and their nouns ------------------------------------------------------------------------------------


def test_a_count_agrees_with_its_noun() -> None:
    assert plural(1, "bear banner") == "1 bear banner"
    assert plural(2, "bear banner") == "2 bear banners"
    assert plural(0, "card") == "0 cards"
    assert plural(1, "city") == "1 city"
    assert plural(3, "city") == "3 cities"
    assert plural(2, "day") == "2 days"
    assert plural(2, "ox", "oxen") == "2 oxen"


def test_no_message_hedges_a_plural_with_parentheses() -> None:
    """"1 card(s)" reads badly: every count in a message goes through ledger.words.plural. Only the text of
    string literals is searched (a call such as `waits(s)` is code, not a message)."""
    import io
    import tokenize

    hedged = []
    for folder in ("ledger", "projections", "application", "cli"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
            hedged += [f"{path.relative_to(ROOT)}:{token.start[0]}" for token in tokens
                       if token.type == tokenize.STRING
                       and re.search(r"[a-z]\(s\)", re.sub(r"\{[^{}]*\}", "", token.string))]
    assert hedged == []


# --- results read from the events still standing ----------------------------------------------------------------

BOARD = load_board("standin")


def finished_events(seed: int, name: str, ruleset: str = "official") -> list[ev.Event]:
    events: list[ev.Event] = []
    for _, produced, _ in randomgame.play(("raven", "rat", "spider"), load_ruleset(ruleset), BOARD, seed, name=name):
        events.extend(produced)
    return events


def take_back_the_last_move(store, name: str) -> None:
    """Appends a take-back of the game's last move as a fact, the way the engine records one: whatever the
    recording commands come to require for a finished game, the reading commands must read what it leaves."""
    events = load(store, name).events
    state = fold(events)
    store.append(name, len(events), [ev.MoveTakenBack("scored too early", state.moves[-1]).to_fact()])


@pytest.fixture(scope="module")
def reopened_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The store of `reopened`, written once for the module."""
    path = tmp_path_factory.mktemp("reopened") / "reopened.sqlite"
    with open_store(str(path)) as store:
        for name in ("done", "again"):
            events = finished_events(3, name)
            store.create(name, [e.to_fact() for e in events])
        take_back_the_last_move(store, "again")
    return path


@pytest.fixture
def reopened(reopened_once: Path, tmp_path: Path) -> Path:
    """A store with `done` (finished), `again` (the same game, its last move taken back) and a tournament file;
    a copy of the test's own."""
    path = Path(shutil.copy(reopened_once, tmp_path / "reopened.sqlite"))
    (tmp_path / "cup.toml").write_text('name = "cup"\n[[game]]\nname = "done"\n[[game]]\nname = "again"\n',
                                       encoding="utf-8")
    return path


def cli(store: Path, *args: str) -> Result:
    return CliRunner().invoke(whispers, list(args), env={"WHISPERS_STORE": str(store), "COLUMNS": "200"},
                              prog_name="whispers")


def ok_json(store: Path, *args: str) -> Any:
    result = cli(store, *args)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return json.loads(result.stdout)


def test_a_taken_back_final_move_reopens_the_game_for_every_read(reopened: Path, tmp_path: Path) -> None:
    """After a take-back of the move that ended the game, no read reports the old final result."""
    assert ok_json(reopened, "status", "again", "--json")["over"] is False
    done = ok_json(reopened, "score", "done", "--json")
    assert done["final"] is True
    score = cli(reopened, "score", "again", "--json")
    assert score.exit_code == 2 or json.loads(score.stdout)["final"] is False
    assert "final scores" not in cli(reopened, "score", "again").stdout
    listed = {row["game"]: row for row in ok_json(reopened, "games", "--json")}
    assert listed["done"]["over"] and listed["done"]["winner"] == done["winner"]
    assert not listed["again"]["over"] and listed["again"]["winner"] is None
    diff = ok_json(reopened, "diff", "done", "again", "--json")
    assert diff["outcome"]["again"] is None and diff["outcome"]["done"]["winner"] == done["winner"]
    assert "score_change" not in diff
    assert "again: not over" in cli(reopened, "diff", "done", "again").stdout
    stats = ok_json(reopened, "stats", "again", "--json")
    assert stats["over"] is False and stats["score"] is None
    across = ok_json(reopened, "stats", "--all", "--json")
    assert (across["finished"], across["in_progress"]) == (1, 1)
    standings = ok_json(reopened, "standings", "--games", "done,again", "--json")
    assert standings["in_progress"] == ["again"]
    assert {g["game"] for rows in standings["rulesets"].values() for row in rows for g in row["games"]} == {"done"}
    cup = ok_json(reopened, "tournament", str(tmp_path / "cup.toml"), "--json")
    assert cup["in_progress"] == ["again"]


# --- one refusal for a viewer not at the table ---------------------------------------------------------------


def refused(result: Result) -> str:
    """Exit status 2, one line on stderr, nothing on stdout, no traceback; the line."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.stdout == "" and len(result.stderr.splitlines()) == 1, (result.stdout, result.stderr)
    return result.stderr.strip()


VIEWS_AS = {
    "status": ["status", "done", "--as", "serpent"],
    "status --json --at": ["status", "done", "--json", "--at", "5", "--as", "serpent"],
    "log": ["log", "done", "--as", "serpent"],
    "replay": ["replay", "done", "--as", "serpent"],
    "replay --json": ["replay", "done", "--at", "3", "--json", "--as", "serpent"],
    "replay --step": ["replay", "done", "--step", "--as", "serpent"],
    "timeline": ["timeline", "done", "-o", "-", "--as", "serpent"],
}


@pytest.mark.parametrize("args", list(VIEWS_AS.values()), ids=list(VIEWS_AS))
def test_a_view_as_a_society_not_playing_is_refused_in_one_wording(reopened: Path, args: list[str]) -> None:
    """`--as serpent` on a game of raven, rat and spider: there is nothing serpent saw."""
    assert refused(cli(reopened, *args)) == "Error: serpent is not playing in done (raven, rat, spider are)"


# --- a spectator sees public facts only -----------------------------------------------------------------------


def test_a_spectator_sees_public_facts_only(tmp_path: Path) -> None:
    """`--as spectator` on status, log, replay and timeline: hand sizes and played cards, no card name drawn by
    anyone and no loyalty token until it is revealed; and nothing refused, whoever plays."""
    events: list[ev.Event] = []
    for _, produced, _ in randomgame.play(("raven", "rat", "spider"), load_ruleset("official"), BOARD, 4,
                                          name="open", named=True):
        events.extend(produced)
    path = tmp_path / "spectator.sqlite"
    with open_store(str(path)) as store:
        store.create("open", [e.to_fact() for e in events])
    drawn = {card for e in events if isinstance(e, ev.CardsDrawn) for card in e.cards}
    played = {e.card for e in events if isinstance(e, ev.CardPlayed)}
    secret_cards = drawn - played
    recorded = [e for e in events if isinstance(e, ev.LoyaltyRecorded) and e.tokens is not None]
    assert secret_cards and recorded
    middle = next(v for v, e in enumerate(events, start=1) if isinstance(e, ev.CardsDrawn) and e.cards)

    status = ok_json(path, "status", "open", "--json", "--at", str(middle), "--as", "spectator")
    assert status["viewer"] == "spectator" and status["next"]["moves"] == []
    assert all("known" not in hand and hand["size"] >= 0 for hand in status["hands"].values())
    assert all(loyalty is None or loyalty["tokens"] is None for loyalty in status["loyalty"].values())
    shown = ok_json(path, "replay", "open", "--json", "--at", str(middle), "--as", "spectator")
    assert shown["event"]["cards"] is None and shown["event"]["hidden"] == "cards"

    log = cli(path, "log", "open", "--as", "spectator").stdout
    assert all(f"{e.society} loyalty sealed" in log for e in recorded)
    texts = {"log": log,
             "status": cli(path, "status", "open", "--at", str(middle), "--as", "spectator").stdout,
             "replay": cli(path, "replay", "open", "--at", str(middle), "--as", "spectator").stdout,
             "timeline": cli(path, "timeline", "open", "-o", "-", "--as", "spectator").stdout}
    assert "as a spectator saw it" in texts["timeline"]
    for face, text in texts.items():
        assert text, face
        for card in secret_cards:
            assert not re.search(rf"(?<![\w:]){re.escape(card)}(?![\w:])", text), f"{face} names {card}"
    assert any(card in cli(path, "log", "open").stdout for card in secret_cards)


# --- one wording for an event that is not in the record ---------------------------------------------------------

AT = {
    "status --at": ["status", "done", "--at", "{n}"],
    "replay --at": ["replay", "done", "--at", "{n}"],
    "map --at": ["map", "done", "--at", "{n}", "-o", "-"],
    "fork --at": ["fork", "done", "what-if", "--at", "{n}"],
    "annotate": ["annotate", "done", "--", "{n}", "a note"],
}


@pytest.mark.parametrize("n", [0, -3, 9999])
@pytest.mark.parametrize("args", list(AT.values()), ids=list(AT))
def test_an_event_outside_the_record_is_refused_in_one_wording(reopened: Path, args: list[str], n: int) -> None:
    with open_store(str(reopened)) as store:
        last = store.version("done")
        before = {name: store.facts(name) for name in store.names()}, store.notes("done")
    line = refused(cli(reopened, *(a.replace("{n}", str(n)) for a in args)))
    assert line == f"Error: game done has events 1 to {last}: there is no event {n}"
    with open_store(str(reopened)) as store:
        assert ({name: store.facts(name) for name in store.names()}, store.notes("done")) == before


def test_the_store_words_a_missing_event_as_the_commands_do(reopened: Path) -> None:
    with open_store(str(reopened)) as store:
        last = store.version("done")
        for n in (0, last + 1):
            with pytest.raises(NoSuchEvent) as caught:
                store.facts("done", n)
            assert str(caught.value) == f"game done has events 1 to {last}: there is no event {n}"
        store.create("short", store.facts("done", 1))
        with pytest.raises(NoSuchEvent, match=r"^game short has only event 1: there is no event 2$"):
            store.facts("short", 2)


# --- diffs of games that are not forks of one another ------------------------------------------------------------


def test_a_diff_of_two_games_set_up_differently_says_what_differs(reopened: Path) -> None:
    with open_store(str(reopened)) as store:
        events: list[ev.Event] = []
        for _, produced, _ in randomgame.play(("rat", "raven"), load_ruleset("revised"), BOARD, 5, name="other"):
            events.extend(produced)
        store.create("other", [e.to_fact() for e in events])
        first = {name: load(store, name).events[0].first for name in ("done", "other")}
    data = ok_json(reopened, "diff", "done", "other", "--json")
    assert data["setup"]["players"] == {"done": ["raven", "rat", "spider"], "other": ["rat", "raven"]}
    assert data["setup"]["ruleset"] == {"done": "official", "other": "revised"}
    assert "board" not in data["setup"] and ("first" in data["setup"]) == (first["done"] != first["other"])
    assert "score_change" not in data  # scores of different tables are not a change from one to the other
    text = cli(reopened, "diff", "done", "other")
    assert text.exit_code == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0].startswith("done and other are different games, set up differently: "
                               "players raven,rat,spider / rat,raven; ")
    assert "ruleset official / revised" in lines[0] and "GameStarted" not in text.stdout


def test_a_diff_of_a_game_and_its_fork_still_says_where_they_part(reopened: Path) -> None:
    data = ok_json(reopened, "diff", "done", "again", "--json")
    assert "setup" not in data and data["first_difference"]["event"] == data["common"] + 1


# --- options that contradict each other ---------------------------------------------------------------------

CONTRADICTIONS = {
    "stats GAME --all": (["stats", "done", "--all"], "give a GAME or --all, not both"),
    "stats with neither": (["stats"], "give a GAME, or --all"),
    "stats GAME --ruleset": (["stats", "done", "--ruleset", "official"], "--ruleset picks games for --all"),
    "stats --all --ruleset nope": (["stats", "--all", "--ruleset", "nope"],
                                   "unknown ruleset 'nope': the rulesets are advanced, official, revised"),
    "stats GAME --json --csv": (["stats", "done", "--json", "--csv"], "--json and --csv are two output formats"),
    "stats --all --json --csv": (["stats", "--all", "--csv", "--json"], "--json and --csv are two output formats"),
    "standings --json --csv": (["standings", "--games", "done", "--json", "--csv"],
                               "--json and --csv are two output formats"),
    "tournament --json --csv": (["tournament", "{cup}", "--json", "--csv"], "--json and --csv are two output formats"),
}


@pytest.mark.parametrize("args, message", list(CONTRADICTIONS.values()), ids=list(CONTRADICTIONS))
def test_contradictory_options_are_refused_in_one_line(reopened: Path, tmp_path: Path, args: list[str],
                                                       message: str) -> None:
    args = [a.replace("{cup}", str(tmp_path / "cup.toml")) for a in args]
    assert message in refused(cli(reopened, *args))


def test_figures_under_a_shipped_ruleset_no_game_uses_are_zeros(reopened: Path) -> None:
    data = ok_json(reopened, "stats", "--all", "--ruleset", "advanced", "--json")
    assert (data["ruleset"], data["games"], data["finished"]) == ("advanced", 0, 0)


# --- the timeline's words for an attack on an empty region ---------------------------------------------------------


def test_an_attack_on_an_empty_region_is_not_told_as_a_combat() -> None:
    """EN Attack Action / rules digest §5.4: against an empty region (d = 0) the attackers simply move in; a fort
    kills one of them first. No defender, so no "1 v 0, both wiped out"."""
    for seed in range(40):  # a game with an attack lost to a fort on an empty region, and others that move in
        events = finished_events(seed, "empty")
        empty = [e for e in events if isinstance(e, ev.Attacked) and e.defending == 0]
        if any(e.banners == e.attacker_losses for e in empty) and any(e.banners > e.attacker_losses for e in empty):
            break
    else:
        raise AssertionError("no random game of 40 has an attack lost to a fort on an empty region")
    dot = timeline(events)
    assert re.search(r" v 0,", dot) is None
    for attack in empty:
        result = "moved in" if attack.banners > attack.attacker_losses else "all lost to the fort"
        assert f"attack {attack.source} → {attack.target}: {attack.banners} v none, {result}" in dot
        assert (f"the fort kills {attack.fort_kill}" if attack.fort_kill else "no losses") in dot
