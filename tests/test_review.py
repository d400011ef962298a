"""Post-game review: replay, statistics, the catalog, forks, diffs and annotations."""

import functools
import io
import json
import os
import shutil
import sqlite3
import sys
import uuid
from collections import Counter
from datetime import UTC
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner
from rich.console import Console
from sizes import sized

from whispers.cli.main import whispers
from whispers.ledger.core import events as ev
from whispers.ledger.core import randomgame, rules
from whispers.ledger.core.errors import StoreError
from whispers.ledger.core.names import SOCIETIES
from whispers.ledger.io.board_files import load_board
from whispers.ledger.io.game import annotate, fork, load, read_facts
from whispers.ledger.io.ruleset_files import load_ruleset
from whispers.ledger.io.store import open_store
from whispers.projections.catalog import Catalog
from whispers.projections.log import format_record
from whispers.projections.replay import Replay, standing
from whispers.projections.stats import across, game_stats

BOARD = load_board("standin")
RULESETS = {r: load_ruleset(r) for r in ("official", "advanced", "revised")}


def random_events(seed: int, ruleset: str = "official", players: int = 4, undo_rate: float = 0.0) -> list[ev.Event]:
    return list(_played(seed, ruleset, players, undo_rate))


@functools.cache
def _played(seed: int, ruleset: str, players: int, undo_rate: float) -> tuple[ev.Event, ...]:
    """A random game's events, played once for the module (the tests share their seeds)."""
    return tuple(event for _, produced, _ in randomgame.play(SOCIETIES[:players], RULESETS[ruleset], BOARD, seed,
                                                             undo_rate=undo_rate) for event in produced)


def put(store, name: str, events: list[ev.Event]) -> None:
    facts = [e.to_fact() for e in events]
    facts[0]["name"] = name
    store.create(name, facts)


@pytest.fixture
def store_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "review.sqlite"
    monkeypatch.setenv("WHISPERS_STORE", str(path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return path


def run(*args: str, stdin: str | None = None) -> str:
    result = CliRunner().invoke(whispers, list(args), input=stdin)
    assert result.exit_code == 0, (result.output, result.stderr)
    return result.output


# --- replay -------------------------------------------------------------------------------------------


def test_replay_reaches_every_version_without_refolding() -> None:
    events = random_events(1)
    replay = Replay(tuple(events))
    state = None
    for version, event in enumerate(events, start=1):
        state = rules.evolve(state, event)
        assert replay.at(version) == state
    assert replay.round_start(3) is not None and replay.at(replay.round_start(3)).round == 3
    turn = replay.empire_turn("lion", 2)
    assert isinstance(replay.event(turn), ev.EmpireTurnStarted) and replay.at(turn).round == 2
    with pytest.raises(IndexError):
        replay.at(len(events) + 1)


def test_replay_command_at_a_version_and_as_a_society(store_file: Path) -> None:
    with open_store(str(store_file)) as store:
        put(store, "g", random_events(2))
    mid = json.loads(run("replay", "g", "--at", "60", "--json"))
    assert mid["version"] == 60 and mid["event"]["type"]
    raven = json.loads(run("replay", "g", "--at", "60", "--as", "raven", "--json"))
    assert raven["viewer"] == "raven"
    for other in ("rat", "spider", "serpent"):
        assert raven["loyalty"][other]["tokens"] is None or mid["over"]
    text = run("replay", "g", "--at", "60")
    assert text.startswith("event 60/")
    result = CliRunner().invoke(whispers, ["replay", "g", "--at", "9999"])
    assert result.exit_code == 2 and "there is no event 9999" in result.stderr


def test_standing_events_drop_what_a_take_back_took_back() -> None:
    events = random_events(7, undo_rate=0.05)
    undone = [e for e in events if isinstance(e, ev.MoveTakenBack)]
    assert undone
    kept = standing(events)
    assert not any(isinstance(e, ev.MoveTakenBack) for _, e in kept)
    folded, live = rules.fold(e for _, e in kept), rules.fold(events)
    for field in ("banners", "reserve", "loyalty", "hands", "decks", "council", "field_agents", "phase", "round"):
        assert getattr(folded, field) == getattr(live, field), field


@pytest.mark.skipif(shutil.which("whispers") is None and not Path(sys.executable).with_name("whispers").exists(),
                    reason="the console script is not installed")
def test_the_stepper_in_a_real_terminal(store_file: Path) -> None:
    """replay --step: next, back, jump, round, empire turn, quit — in a pseudo-terminal."""
    with open_store(str(store_file)) as store:
        put(store, "g", random_events(3))
        annotate(store, "g", 5, "a note on five", "ana", "good")
    exe = shutil.which("whispers") or str(Path(sys.executable).with_name("whispers"))
    child = pexpect.spawn(exe, ["replay", "g", "--step", "--at", "4"], env={**os.environ}, encoding="utf-8",
                          timeout=15, dimensions=(50, 200))
    child.expect("event 4/")
    child.expect("step> ")
    child.sendline("")
    child.expect("event 5/")
    child.expect("note \\(good, ana\\): a note on five")
    child.expect("step> ")
    child.sendline("b")
    child.expect("event 4/")
    child.sendline("j 100")
    child.expect("event 100/")
    child.sendline("r 2")
    child.expect("round 2")
    child.sendline("e horse 2")
    child.expect("horse's turn")
    child.sendline("j 99999")
    child.expect("no such place")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


# --- statistics ---------------------------------------------------------------------------------------


def test_an_attack_s_figures_are_the_army_that_fought_and_the_extra_attack_is_a_row_REV_310_REV_371_EN_432(
) -> None:
    """REV 371 (add banners to your attack) and EN 432 (reinforce): the banners a card adds fight, so they are the
    attack's banners, as the timeline counts them; REV 310 (extra attack): the combat after the conquest is a row
    of its own, its fort kills counted, though it is no order."""
    from importlib import resources

    from whispers.cli.tables import game_stats_tables
    from whispers.ledger.io.decree_files import shipped_catalogue
    from whispers.ledger.io.game import replay_lines

    text = (resources.files("whispers.fixtures") / "games" / "revised-3p-decrees.txt").read_text(encoding="utf-8")
    games = [replay_lines("d", text.splitlines()).events]
    for seed in range(200):  # the random games of the property tests: a few make an extra attack
        events = [e for _, produced, _ in randomgame.play(SOCIETIES[: 2 + seed % 3],
                                                          load_ruleset(("official", "revised")[seed % 2]),
                                                          load_board("standin"), seed, catalogue=shipped_catalogue())
                  for e in produced]
        if any(isinstance(e, ev.CardAttacked) for e in events):
            games.append(events)
            break
    assert len(games) == 2, "no random game made an extra attack"
    for events in games:
        stats = game_stats(events)
        combats = [e for _, e in standing(events) if isinstance(e, ev.Attacked | ev.CardAttacked)]
        assert [(a["target"], a["banners"], a["by_card"], a["cards"]) for a in stats["attacks"]] == [
            (e.target, e.banners, e.effect, []) if isinstance(e, ev.CardAttacked) else
            (e.target, e.army, None, list(e.cards)) for e in combats]
        assert sum(stats["fort_kills"].values()) == sum(e.fort_kill for e in combats)
        orders = [e for e in combats if isinstance(e, ev.Attacked)]
        assert sum(o.get("attack", 0) for o in stats["orders"].values()) == len(orders)
    added = next(a for a in game_stats(games[0])["attacks"] if "add-3-to-attack" in a["cards"])
    assert added["banners"] == 5  # the fixture's 2 moved and 3 from the reserve: "5 v 1, taken" on the timeline
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(game_stats_tables(game_stats(games[1])))
    extra, shown = next(e for e in games[1] if isinstance(e, ev.CardAttacked)), console.file.getvalue()
    assert f"{extra.source} → {extra.target} (" in shown and "extra-attack)" in shown


def test_game_stats_agree_with_the_record() -> None:
    events = random_events(4, ruleset="revised", players=3, undo_rate=0.03)
    stats = game_stats(events)
    kept = [e for _, e in standing(events)]
    attacks = [e for e in kept if isinstance(e, ev.Attacked)]
    assert len(stats["attacks"]) == len(attacks)
    assert sum(stats["fort_kills"].values()) == sum(a.fort_kill for a in attacks)
    drawn = Counter()
    for e in kept:
        if isinstance(e, ev.CardsDrawn):
            drawn[e.society] += e.drawn
    assert {s: c["drawn"] for s, c in stats["cards"].items()} == {s: drawn[s] for s in stats["players"]}
    assert len(stats["cities_after_each_empire_turn"]) == 4 * 5
    assert [r["round"] for r in stats["cities_after_each_round"]] == [1, 2, 3, 4]
    scored = next(e for e in reversed(kept) if isinstance(e, ev.GameScored))
    assert stats["score"]["winner"] == scored.winner
    lost = sum(n for e in kept if isinstance(e, ev.SupplyChecked) for _, n in e.losses.values())
    assert sum(sum(r.values()) for r in stats["supply_losses"].values()) == lost


def test_stats_command_json_and_csv(store_file: Path) -> None:
    with open_store(str(store_file)) as store:
        put(store, "g", random_events(5))
    data = json.loads(run("stats", "g", "--json"))
    assert data["over"] and set(data["orders"]) == set(SOCIETIES)
    csv_text = run("stats", "g", "--csv")
    assert csv_text.splitlines()[0] == "path,value" and "score.winner" in csv_text
    result = CliRunner().invoke(whispers, ["stats"])
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1


def direct_figures(games: list[list[ev.Event]]) -> dict:
    """Win rates and mean scores recomputed straight from the scoring events, without the catalog."""
    played, wins, total = Counter(), Counter(), Counter()
    for events in games:
        scored = next(e for e in reversed(events) if isinstance(e, ev.GameScored))
        for society, entry in scored.scores.items():
            played[society] += 1
            total[society] += entry["total"]
        if scored.winner:
            wins[scored.winner] += 1
    return {"win_rate": {s: wins[s] / played[s] for s in sorted(played)},
            "mean_score": {s: total[s] / played[s] for s in sorted(played)}}


STATS_GAMES = sized(30, 100)


def test_stats_all_over_many_games_and_one_more_reads_one_more(store_file: Path) -> None:
    """`stats --all` over 30 imported games (100 with --slow) equals a direct recomputation; one more game is one
    more read.

    How it is measured: the catalog reports how many games and events each refresh read from the store."""
    games = [random_events(seed, ruleset=("official", "advanced", "revised")[seed % 3], players=2 + seed % 3)
             for seed in range(STATS_GAMES)]
    with open_store(str(store_file)) as store:
        for seed, events in enumerate(games):
            put(store, f"g{seed:03}", events)
    data = json.loads(run("stats", "--all", "--json"))
    assert data["read"]["games"] == STATS_GAMES and data["finished"] == STATS_GAMES
    expected = direct_figures(games)
    assert data["win_rate"] == pytest.approx(expected["win_rate"])
    assert data["mean_score"] == pytest.approx(expected["mean_score"])
    again = json.loads(run("stats", "--all", "--json"))
    assert again["read"] == {"games": 0, "events": 0} and again["win_rate"] == data["win_rate"]
    extra = random_events(STATS_GAMES)
    with open_store(str(store_file)) as store:
        put(store, f"g{STATS_GAMES:03}", extra)
    after = json.loads(run("stats", "--all", "--json"))
    assert after["read"] == {"games": 1, "events": len(extra)}
    assert after["finished"] == STATS_GAMES + 1
    assert after["win_rate"] == pytest.approx(direct_figures([*games, extra])["win_rate"])
    revised = json.loads(run("stats", "--all", "--ruleset", "revised", "--json"))
    assert revised["games"] == sum(1 for seed in range(STATS_GAMES) if seed % 3 == 2)


def test_the_catalog_counts_games_in_progress_apart() -> None:
    with open_store("memory:") as store:
        events = random_events(6)
        put(store, "done", events)
        put(store, "going", events[:80])
        catalog = Catalog(store)
        catalog.refresh()
        figures = across(catalog.summaries().values())
        assert figures["finished"] == 1 and figures["in_progress"] == 1
        store.append("going", 80, [e.to_fact() for e in events[80:90]])
        assert catalog.refresh().games == 1


def test_stats_all_forgets_a_store_deleted_and_made_anew_at_the_same_place(store_file: Path) -> None:
    """The catalog belongs to one store: a new store at the old path (even a longer one) is read afresh."""
    with open_store(str(store_file)) as store:
        put(store, "old", random_events(1))
    assert json.loads(run("stats", "--all", "--json"))["games"] == 1
    store_file.unlink()
    with open_store(str(store_file)) as store:
        for seed in (2, 3):
            put(store, f"new{seed}", random_events(seed))
    data = json.loads(run("stats", "--all", "--json"))
    assert data["read"]["games"] == 2 and data["games"] == 2
    assert data["finished"] == 2


def folded_summaries(store) -> dict:
    """Every game's summary folded afresh from its events, as the catalog must hold it, with when its last event
    was stored (read apart, as eventsourcing decodes that event)."""
    from whispers.projections.catalog import game_summary

    return {name: {**game_summary(name, read_facts(store.facts(name), name)),
                   "written": store.last_written(name).astimezone(UTC).isoformat(timespec="microseconds")}
            for name in store.names()}


def mixed_game(seed: int) -> list[ev.Event]:
    return random_events(seed, ruleset=("official", "advanced", "revised")[seed % 3], players=2 + seed % 3,
                         undo_rate=0.05 if seed % 4 == 0 else 0.0)


def fill(store, seeds: range, prefix: str = "g") -> None:
    for seed in seeds:
        events = mixed_game(seed)
        put(store, f"{prefix}{seed:03}", events if seed % 5 else events[: len(events) // 2])


def check_listing(catalog: Catalog, folded: dict) -> None:
    """The listing (what `games` reads) is the listing's fields of the same summaries, game for game, in order."""
    from whispers.projections.catalog import LISTED

    assert catalog.listing() == {name: {key: summary[key] for key in LISTED} for name, summary in folded.items()}
    assert list(catalog.listing()) == list(folded)
    # and the figures (what `stats --all` reads): the figures' fields of the same summaries, unfinished games too
    from whispers.projections.catalog import FIGURED
    from whispers.projections.stats import across

    figures = catalog.figures()
    assert figures == {name: {key: summary[key] for key in FIGURED if key in summary}
                       for name, summary in folded.items()}
    assert list(figures) == list(folded)
    assert across(figures.values()) == across(folded.values())
    assert any(not summary["over"] for summary in folded.values()) and any(s["over"] for s in folded.values())


def check_catalog_equals_fold(url: str) -> None:
    """(The PostgreSQL schema is the test session's: other tests' games may be in it already.)"""
    p = f"c{uuid.uuid4().hex[:6]}-"
    with open_store(url) as store:
        catalog = Catalog(store)
        catalog.refresh()
        fill(store, range(12), p)
        assert catalog.refresh().games == 12
        assert catalog.summaries() == folded_summaries(store)
        assert list(catalog.summaries()) == store.names()  # in the order the games were created
        store.append(f"{p}005", store.version(f"{p}005"),
                     [e.to_fact() for e in mixed_game(5)[store.version(f"{p}005"):]])
        fill(store, range(12, 14), p)
        assert catalog.refresh().games == 3
        assert catalog.summaries() == folded_summaries(store)
        check_listing(catalog, folded_summaries(store))
    with open_store(url) as store:  # another process: the summaries are the store's, not this process's
        assert Catalog(store).refresh().games == 0
        assert Catalog(store).summaries() == folded_summaries(store)
        check_listing(Catalog(store), folded_summaries(store))


def test_the_catalog_in_an_sqlite_store_equals_a_fold_of_every_game(tmp_path: Path) -> None:
    check_catalog_equals_fold(str(tmp_path / "s.sqlite"))
    tables = sqlite3.connect(tmp_path / "s.sqlite").execute("SELECT name FROM sqlite_master").fetchall()
    assert ("whispers_summaries",) in tables and ("whispers_tracking",) in tables
    assert not (tmp_path / "cache").exists()


def test_the_catalog_in_memory_equals_a_fold_of_every_game() -> None:
    with open_store("memory:") as store:
        fill(store, range(6))
        catalog = Catalog(store)
        catalog.refresh()
        assert catalog.summaries() == folded_summaries(store)
        check_listing(catalog, folded_summaries(store))


@pytest.mark.postgres
def test_the_catalog_in_a_postgresql_schema_equals_a_fold_of_every_game(pg_own_url: str) -> None:
    """On a schema of its own: the session's shared one holds the damaged games other tests store on purpose."""
    check_catalog_equals_fold(pg_own_url)


def test_stats_all_and_games_are_right_after_the_store_file_is_replaced(store_file: Path, tmp_path: Path) -> None:
    """A store restored from elsewhere brings its own summaries: nothing read from the old one survives."""
    other = tmp_path / "other.sqlite"
    with open_store(str(store_file)) as store:
        put(store, "mine", random_events(1))
    with open_store(str(other)) as store:
        for seed in (2, 3, 4):
            put(store, f"theirs{seed}", random_events(seed))
        Catalog(store).refresh()
    assert json.loads(run("stats", "--all", "--json"))["games"] == 1
    assert [r["game"] for r in json.loads(run("games", "--json"))] == ["mine"]
    shutil.copyfile(other, store_file)
    data = json.loads(run("stats", "--all", "--json"))
    assert data["games"] == 3 and data["read"]["games"] == 0  # their own summaries, already caught up
    assert [r["game"] for r in json.loads(run("games", "--json"))] == ["theirs2", "theirs3", "theirs4"]
    with open_store(str(store_file)) as store:
        assert Catalog(store).summaries() == folded_summaries(store)


def test_a_catalog_of_another_layout_is_rebuilt_not_trusted(tmp_path: Path) -> None:
    from whispers.projections import catalog as catalog_module

    url = str(tmp_path / "s.sqlite")
    with open_store(url) as store:
        put(store, "kept", random_events(7))
        Catalog(store).refresh()
    db = sqlite3.connect(tmp_path / "s.sqlite")
    db.execute("UPDATE whispers_tracking SET layout = ?", (catalog_module.LAYOUT - 1,))
    db.execute("UPDATE whispers_summaries SET data = '{}'")
    db.execute("INSERT INTO whispers_summaries VALUES ('catalog', 'deleted', 0, '{}')")
    db.commit()
    db.close()
    with open_store(url) as store:
        catalog = Catalog(store)
        assert catalog.refresh().games == 1
        assert catalog.summaries() == folded_summaries(store)


def test_a_refresh_that_lost_the_race_keeps_what_the_winner_wrote(tmp_path: Path) -> None:
    """Two processes catching up at once: the tracking record moves only from the position each read."""
    url = str(tmp_path / "s.sqlite")
    with open_store(url) as store:
        put(store, "a", random_events(1))
        Catalog(store).refresh()
        position = store.tracked("catalog")[0]
        put(store, "b", random_events(2))
        Catalog(store).refresh()
        assert not store.save_tracked("catalog", 3, position, store.head(), [("b", None, "{}")])
        assert Catalog(store).summaries() == folded_summaries(store)


def test_a_store_written_by_43585f5_is_caught_up_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    legacy = tmp_path / "store.sqlite"
    shutil.copyfile(Path(__file__).parent / "data" / "legacy-43585f5" / "store.sqlite", legacy)
    monkeypatch.setenv("WHISPERS_STORE", str(legacy))
    rows = json.loads(run("games", "--json"))
    with open_store(str(legacy)) as store:
        names = store.names()
        assert [r["game"] for r in rows] == names and names
        assert Catalog(store).summaries() == folded_summaries(store)
    for name in names:
        run("verify", name)


# --- forks and diffs ----------------------------------------------------------------------------------


def test_a_fork_continues_with_different_moves_and_scores_differently() -> None:
    """A fork of a game at a mid-game version, recorded onward with other moves, ends with other scores."""
    with open_store("memory:") as store:
        original = random_events(8)
        put(store, "orig", original)
        at = len(original) // 2
        forked = fork(store, "orig", "what-if", at)
        marker = next(e for e in forked.events if isinstance(e, ev.GameForked))
        assert marker.parent == "orig" and marker.at == at
        assert [e.to_fact() for e in forked.events[1:at]] == [e.to_fact() for e in original[1:at]]
        # play the fork onward with other random choices
        import random

        from whispers.ledger.core.randomgame import random_command
        from whispers.ledger.io.game import record

        rng = random.Random(99)
        game = forked
        while not game.state.over:
            game, _ = record(store, game, random_command(game.state, rng))
        ours = next(e for e in reversed(game.events) if isinstance(e, ev.GameScored))
        theirs = next(e for e in reversed(original) if isinstance(e, ev.GameScored))
        assert ours.scores != theirs.scores
        reloaded = load(store, "what-if")
        assert reloaded.state == game.state


def test_fork_diff_and_games_through_the_cli(store_file: Path) -> None:
    with open_store(str(store_file)) as store:
        put(store, "orig", random_events(9))
    run("fork", "orig", "alt", "--at", "100")
    listing = json.loads(run("games", "--json"))
    assert {g["game"]: g["fork_of"] for g in listing} == {"orig": None, "alt": {"game": "orig", "at": 100}}
    text = run("games")
    assert "└ alt" in text
    same = json.loads(run("diff", "orig", "alt", "--json"))
    assert same["common"] >= 100 and not same["identical"]  # the engine's own events after the fork may agree
    assert same["first_difference"]["alt"] is None  # the fork has not moved on yet
    result = CliRunner().invoke(whispers, ["fork", "orig", "alt2", "--at", "0"])
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
    result = CliRunner().invoke(whispers, ["fork", "orig", "alt", "--at", "5"])
    assert result.exit_code == 2 and "already" in result.stderr


# --- annotations --------------------------------------------------------------------------------------


def test_annotations_live_in_their_own_stream_and_travel(store_file: Path, tmp_path: Path) -> None:
    with open_store(str(store_file)) as store:
        put(store, "g", random_events(10))
        version = store.version("g")
    run("annotate", "g", "12", "Bold deployment", "--author", "ana", "--tag", "good")
    run("annotate", "g", "40", "Was this legal?", "--tag", "question")
    with open_store(str(store_file)) as store:
        assert store.version("g") == version  # the record is never reopened
    notes = json.loads(run("notes", "g", "--json"))
    assert [(n["at"], n["tag"]) for n in notes] == [(12, "good"), (40, "question")]
    log = run("log", "g")
    assert "# note on event 12 (good, ana): Bold deployment" in log
    replayed = json.loads(run("replay", "g", "--at", "40", "--json"))
    assert replayed["notes"][0]["text"] == "Was this legal?"
    run("export", "g", "-o", str(tmp_path / "g.whispers"))
    run("import", str(tmp_path / "g.whispers"), "--game", "copy")
    assert [n["text"] for n in json.loads(run("notes", "copy", "--json"))] == ["Bold deployment", "Was this legal?"]
    for bad in (["annotate", "g", "0", "x"], ["annotate", "g", "99999", "x"], ["annotate", "g", "3", " "],
                ["annotate", "g", "3", "x", "--tag", "nope"], ["annotate", "nogame", "3", "x"]):
        result = CliRunner().invoke(whispers, bad)
        assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1, bad


def test_a_logged_game_with_notes_imports_back_the_same(store_file: Path, tmp_path: Path) -> None:
    events = random_events(11, ruleset="revised", players=3, undo_rate=0.03)
    with open_store(str(store_file)) as store:
        put(store, "g", events)
        annotate(store, "g", 30, "hm", None, None)
    (tmp_path / "g.txt").write_text(run("log", "g"), encoding="utf-8")
    run("import", str(tmp_path / "g.txt"), "--game", "back")
    with open_store(str(store_file)) as store:
        back = rules.fold(read_facts(store.facts("back"), "back"))
    original = rules.fold(events)
    assert back.banners == original.banners and back.loyalty == original.loyalty and back.over


def test_annotate_refuses_an_unknown_game() -> None:
    with open_store("memory:") as store, pytest.raises(StoreError):
        annotate(store, "nope", 1, "x", None, None)


def test_format_record_puts_notes_under_their_event() -> None:
    events = random_events(12)
    lines = list(format_record(events, notes=[{"at": 3, "text": "third"}]))
    index = lines.index("# note on event 3: third")
    assert lines[index - 1].startswith(("raven", "rat", "spider", "serpent", "#"))


def test_a_fork_of_a_bundled_game_at_mid_game_scores_differently() -> None:
    """Issue 4's example: fork official-4p.txt half-way, record other moves onward, and the scores differ."""
    import random
    from importlib import resources

    from whispers.ledger.core.randomgame import random_command
    from whispers.ledger.io.game import import_lines, record

    text = resources.files("whispers.fixtures").joinpath("games", "official-4p.txt").read_text(encoding="utf-8")
    with open_store("memory:") as store:
        original = import_lines(store, "bundled", text.splitlines())
        at = original.version // 2
        game = fork(store, "bundled", "what-if", at)
        rng = random.Random(2026)
        moves = 0
        while not game.state.over:
            game, _ = record(store, game, random_command(game.state, rng))
            moves += 1
        ours = next(e for e in reversed(game.events) if isinstance(e, ev.GameScored))
        theirs = next(e for e in reversed(original.events) if isinstance(e, ev.GameScored))
        assert moves > 10 and ours.scores != theirs.scores
        assert [e.to_fact() for e in game.events[1:at]] == [e.to_fact() for e in original.events[1:at]]


def test_standings_from_the_catalog_equal_standings_folded_from_every_game(tmp_path: Path) -> None:
    from whispers.application.tournament import standings
    from whispers.projections.standings import standings_data

    url = str(tmp_path / "s.sqlite")
    with open_store(url) as store:
        fill(store, range(10))
        names = store.names()
        folded = standings_data({name: read_facts(store.facts(name), name) for name in names})
    assert standings(url, names).to_json() == folded
    with open_store(url) as store:
        assert store.tracked("catalog")[0] == store.head()  # it read the catalog, caught up


def test_a_compact_step_fits_a_40_row_terminal_and_t_shows_every_table(store_file: Path) -> None:
    """Issue 32: `replay --step` printed ~55 lines a step, so the header and the council scrolled off a 40-row
    terminal. Each step is now the move, what changed (at most 12 lines, one row each) and the council; `t` shows
    every table of the same step."""
    with open_store(str(store_file)) as store:
        put(store, "g", random_events(5))
    steps = "\n" * 60 + "j 3\nj 150\nt\nq\n"
    result = CliRunner().invoke(whispers, ["replay", "g", "--step", "--at", "1"], input=steps,
                                env={"WHISPERS_STORE": str(store_file), "COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    shown = result.output.split("step> ")[:-2]  # every step but the last one's, which `t` shows whole
    assert len(shown) > 60
    for step in shown:
        rows = sum(max(1, -(-len(line) // 100)) for line in step.splitlines())  # a long line wraps onto more rows
        assert rows <= 40 and "Council" in step and "regions held (×banners)" not in step  # no board table
    whole = result.output.split("step> ")[-2]
    for table in ("Council", "Board", "Hands", "Loyalty", "Score if the game ended now"):
        assert table in whole
