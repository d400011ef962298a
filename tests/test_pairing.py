"""Seating a tournament round at tables of 3 and 4 (docs/tournament.md, "Pairing a round").

The claims tested: every entrant sits exactly once per round at a table of 3 or 4; no arrangement has fewer
repeat meetings (checked against every arrangement of small fields), nor, at as few, a smaller Swiss spread;
societies and the first seat rotate; the same file gives the same tables; the round lands in the file with
its comments kept, and `whispers tournament FILE` reads it.
"""

import json
from collections import Counter
from importlib import resources
from itertools import combinations
from math import factorial
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from whispers.cli.main import whispers
from whispers.ledger.core.names import SOCIETIES
from whispers.ledger.io.game import import_lines
from whispers.ledger.io.store import open_store
from whispers.projections.pairing import (
    History,
    PairingError,
    Plan,
    pair_round,
    repeat_count,
    spread,
    table_sizes,
    with_round,
)
from whispers.projections.standings import TournamentError, load_tournament

NAMES = [f"P{i:02d}" for i in range(40)]


def assert_seated_once(plan: Plan, entrants: list[str]) -> None:
    seated = [s.entrant for t in plan.tables for s in t.seats]
    assert sorted(seated) == sorted(entrants)
    assert all(len(t.seats) in (3, 4) for t in plan.tables)
    for t in plan.tables:
        societies = [s.society for s in t.seats]
        assert len(set(societies)) == len(societies) and set(societies) <= set(SOCIETIES)
    assert [t.game for t in plan.tables] == [f"r{plan.round}-t{k}" for k in range(1, len(plan.tables) + 1)]


def history_of(rounds: list[list[list[str]]]) -> History:
    history = History()
    for groups in rounds:
        for group in groups:
            history.add_game(dict(zip(SOCIETIES, group, strict=False)), SOCIETIES[0])
    return history


def every_arrangement(people: list[str], sizes: Counter[int]) -> list[list[tuple[str, ...]]]:
    """All ways to split `people` into tables of the given sizes (tables unordered), without pruning."""
    if not people:
        return [[]]
    head, rest = people[0], people[1:]
    found = []
    for size in [s for s in sizes if sizes[s]]:
        for mates in combinations(rest, size - 1):
            left = [p for p in rest if p not in mates]
            for tail in every_arrangement(left, sizes - Counter({size: 1})):
                found.append([(head, *mates), *tail])
    return found


def arrangements_count(sizes: list[int]) -> int:
    """n! / (product of size! × product of (tables of one size)!)."""
    count = factorial(sum(sizes))
    for size in sizes:
        count //= factorial(size)
    for same in Counter(sizes).values():
        count //= factorial(same)
    return count


@pytest.mark.parametrize("count", [*range(3, 5), *range(6, 41)])
def test_any_field_but_five_splits_into_tables_of_3_and_4_as_many_of_4_as_possible(count: int) -> None:
    sizes = table_sizes(count)
    assert sum(sizes) == count and set(sizes) <= {3, 4} and sizes.count(3) <= 3


@pytest.mark.parametrize("count", [0, 1, 2, 5])
def test_a_field_that_cannot_sit_at_3s_and_4s_is_refused_plainly(count: int) -> None:
    with pytest.raises(PairingError, match="cannot be seated at tables of 3 and 4"):
        table_sizes(count)


rounds_strategy = st.integers(min_value=3, max_value=24).filter(lambda n: n != 5).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(st.permutations(range(n)), max_size=3),
                        st.lists(st.integers(0, 9), min_size=n, max_size=n), st.integers(0, 2**32)))


@settings(max_examples=60, deadline=None)
@given(rounds_strategy)
def test_every_entrant_is_seated_exactly_once_per_round_at_a_table_of_3_or_4(case) -> None:
    n, earlier, scores, seed = case
    entrants = NAMES[:n]
    sizes = table_sizes(n)
    rounds = []
    for shuffle in earlier:  # earlier rounds: any seating of the same field
        order = [entrants[i] for i in shuffle]
        rounds.append([order[sum(sizes[:k]):sum(sizes[:k + 1])] for k in range(len(sizes))])
    plan = pair_round(len(rounds) + 1, entrants, history_of(rounds), dict(zip(entrants, scores, strict=True)),
                      seed, budget=2_000)
    assert_seated_once(plan, entrants)


@pytest.mark.parametrize("sizes", [[3, 3], [4, 3], [4, 4], [3, 3, 3], [4, 3, 3]])
def test_the_exhaustive_enumeration_sees_every_arrangement(sizes: list[int]) -> None:
    """The yardstick of the next test is complete: it lists n!/(∏ size! ∏ same-size tables!) arrangements."""
    found = every_arrangement(NAMES[:sum(sizes)], Counter(sizes))
    assert len(found) == len({frozenset(frozenset(t) for t in a) for a in found}) == arrangements_count(sizes)


small_fields = st.sampled_from([6, 7, 8, 9, 10]).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(st.permutations(range(n)), min_size=1, max_size=3),
                        st.lists(st.sampled_from([0, 0.5, 1, 2, 3, 6]), min_size=n, max_size=n),
                        st.integers(0, 2**32)))


@settings(max_examples=40, deadline=None)
@given(small_fields)
def test_repeat_meetings_are_the_fewest_any_arrangement_allows_then_the_swiss_spread(case) -> None:
    """Checked against every arrangement of 6 to 10 entrants after 1 to 3 earlier rounds."""
    n, earlier, scores, seed = case
    entrants = NAMES[:n]
    sizes = table_sizes(n)
    rounds = []
    for shuffle in earlier:
        order = [entrants[i] for i in shuffle]
        rounds.append([order[sum(sizes[:k]):sum(sizes[:k + 1])] for k in range(len(sizes))])
    history = history_of(rounds)
    points = dict(zip(entrants, scores, strict=True))
    plan = pair_round(len(rounds) + 1, entrants, history, points, seed)
    groups = [t.entrants for t in plan.tables]
    best = min((repeat_count(a, history.meetings), spread(a, points))
               for a in every_arrangement(entrants, Counter(sizes)))
    assert plan.exact
    assert (repeat_count(groups, history.meetings), spread(groups, points)) == best
    assert len(plan.repeats) == best[0]


def test_later_rounds_are_swiss_the_leaders_of_round_1_sit_together() -> None:
    entrants = NAMES[:16]
    first_round = [entrants[k:k + 4] for k in range(0, 16, 4)]
    points = {e: float(3 - i) for group in first_round for i, e in enumerate(group)}  # place 1 takes 3 points
    plan = pair_round(2, entrants, history_of([first_round]), points, seed=7)
    assert plan.exact and plan.repeats == []
    assert [sorted(t.entrants) for t in plan.tables] == [sorted(g[i] for g in first_round) for i in range(4)]


def test_when_the_search_outgrows_its_budget_swaps_never_add_repeats() -> None:
    """A large field with the budget spent at once: the Swiss slices, improved by swaps, no worse than them."""
    entrants = NAMES[:40]
    sizes = table_sizes(40)
    first_round = [entrants[k:k + 4] for k in range(0, 40, 4)]
    points = {e: float(3 - i) for group in first_round for i, e in enumerate(group)}
    history = history_of([first_round])
    plan = pair_round(2, entrants, history, points, seed=3, budget=0)
    assert_seated_once(plan, entrants) and not plan.exact
    ranked = sorted(entrants, key=lambda e: -points[e])
    slices = [ranked[sum(sizes[:k]):sum(sizes[:k + 1])] for k in range(len(sizes))]
    assert len(plan.repeats) <= repeat_count(slices, history.meetings)
    # a field where the slices repeat: the top 4 all met in round 1
    history = history_of([[entrants[:4]]])
    plan = pair_round(2, entrants[:8], history, dict.fromkeys(entrants[:4], 5.0), seed=1, budget=0)
    assert_seated_once(plan, entrants[:8]) and len(plan.repeats) < 6


def test_the_same_file_gives_the_same_tables_and_the_seed_changes_them() -> None:
    entrants = NAMES[:11]
    one = pair_round(1, entrants, History(), {}, seed=42)
    assert one == pair_round(1, entrants, History(), {}, seed=42)
    assert any(pair_round(1, entrants, History(), {}, seed=s) != one for s in range(43, 48))


def test_societies_and_the_first_seat_rotate_over_four_rounds_of_four() -> None:
    entrants = NAMES[:4]
    history = History()
    for round_no in range(1, 5):
        (table,) = pair_round(round_no, entrants, history, {}, seed=round_no).tables
        history.add_game({s.society: s.entrant for s in table.seats}, table.first)
    assert all(sorted(history.societies[e].values()) == [1, 1, 1, 1] for e in entrants)
    assert sorted(history.firsts.values()) == [1, 1, 1, 1]


def test_three_players_never_repeat_a_society_nor_the_first_seat_in_three_rounds() -> None:
    entrants = NAMES[:3]
    history = History()
    for round_no in range(1, 4):
        (table,) = pair_round(round_no, entrants, history, {}, seed=99).tables
        history.add_game({s.society: s.entrant for s in table.seats}, table.first)
    assert all(max(history.societies[e].values()) == 1 for e in entrants)
    assert sorted(history.firsts.values()) == [1, 1, 1]


CUP = """# the Winter Cup: keep this comment
name = "Winter Cup"
entrants = ["Ana", "Bo", "Cy", "Dee", "Eve", "Fin", "Gus"]   # seven: a table of 4 and one of 3

[points]                 # by table size
4 = [6, 3, 1, 0]
"""


def test_the_round_is_written_into_the_file_with_its_comments_and_read_back() -> None:
    entrants = ["Ana", "Bo", "Cy", "Dee", "Eve", "Fin", "Gus"]
    plan = pair_round(1, entrants, History(), {}, seed=5)
    text = with_round(CUP, plan)
    assert text.startswith(CUP)
    spec = load_tournament(text, "cup.toml")
    assert spec.games == ["r1-t1", "r1-t2"] and spec.rounds == {"r1-t1": 1, "r1-t2": 1}
    for table in plan.tables:
        assert list(spec.seats[table.game].items()) == [(s.society, s.entrant) for s in table.seats]
        assert spec.firsts[table.game] == table.first
    with pytest.raises(PairingError, match="round 1 is already in the file"):
        with_round(text, plan)
    again = with_round(text, pair_round(1, entrants, History(), {}, seed=6), force=True)
    assert load_tournament(again, "cup.toml").games == ["r1-t1", "r1-t2"] and again.startswith(CUP)
    clash = CUP + '\n[[game]]\nname = "r1-t2"\n'
    with pytest.raises(PairingError, match="already has a game named r1-t2"):
        with_round(clash, plan)
    assert load_tournament(with_round("game = []\n" + CUP, plan), "cup.toml").games == ["r1-t1", "r1-t2"]
    with pytest.raises(PairingError, match=r"write them as \[\[game\]\] tables"):
        with_round(CUP.replace("name =", 'game = [{ name = "t0" }]\nname ='), plan)


@pytest.mark.parametrize(("text", "message"), [
    ('entrants = ["Ana", "Ana", "Bo"]', "entrant 'Ana' is listed twice"),
    ('entrants = ["Ana", 3]', "entrants must list"),
    ('[[game]]\nname = "t"\nround = 0', "round must be a whole number"),
    ('[[game]]\nname = "t"\nseats = { rat = "Ana" }\nfirst = "raven"', "first must be one of its seats"),
    ('[[game]]\nname = "t"\n[[game]]\nname = "t"', "game t is listed twice"),
])
def test_a_bad_entrants_list_or_round_is_named(text: str, message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        load_tournament(text, "cup.toml")


@pytest.fixture
def cup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Round 1 of eight entrants played: r1-t1 and r1-t2 are the bundled 4-player game (rat first, raven
    second, serpent third, spider fourth)."""
    monkeypatch.setenv("WHISPERS_STORE", str(tmp_path / "s.sqlite"))
    text = resources.files("whispers.fixtures").joinpath("games", "official-4p.txt").read_text(encoding="utf-8")
    with open_store(str(tmp_path / "s.sqlite")) as store:
        import_lines(store, "r1-t1", text.splitlines())
        import_lines(store, "r1-t2", text.splitlines())
        import_lines(store, "going", text.splitlines()[:60])
    (tmp_path / "cup.toml").write_text(
        '# Spring Cup\nname = "Spring Cup"\nentrants = ["Ana", "Bo", "Cy", "Dee", "Eve", "Fin", "Gus", "Hal"]\n\n'
        '[[game]]  # round 1, table 1\nname = "r1-t1"\nround = 1\nfirst = "rat"\n'
        'seats = { rat = "Ana", raven = "Bo", serpent = "Cy", spider = "Dee" }\n\n'
        '[[game]]\nname = "r1-t2"\nround = 1\nfirst = "rat"\n'
        'seats = { rat = "Eve", raven = "Fin", serpent = "Gus", spider = "Hal" }\n', encoding="utf-8")
    return tmp_path


def test_pair_seats_round_2_by_points_writes_it_and_the_standings_still_read_the_file(cup: Path) -> None:
    file = cup / "cup.toml"
    before = file.read_text(encoding="utf-8")
    result = CliRunner().invoke(whispers, ["tournament", "pair", str(file), "--round", "2", "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.output)
    tables = [{s["entrant"] for s in t["seats"]} for t in data["tables"]]
    # Swiss: the two winners and the two seconds, then the thirds and fourths. Two tables of 4 out of two
    # tables of 4 cannot avoid two old pairs each, and these are the fewest
    assert tables == [{"Ana", "Eve", "Bo", "Fin"}, {"Cy", "Gus", "Dee", "Hal"}]
    assert data["repeats"] == [["Ana", "Bo"], ["Cy", "Dee"], ["Eve", "Fin"], ["Gus", "Hal"]]
    assert data["exact"] and data["tables"][0]["command"].startswith("whispers new r2-t1 --players ")
    for table in data["tables"]:
        societies = [s["society"] for s in table["seats"]]
        seats = " ".join(f"--seat {s['society']}={s['entrant']}" for s in table["seats"])
        assert table["command"] == f"whispers new {table['game']} --players {','.join(societies)} " \
                                   f"--first {table['first']} {seats} --event 'Spring Cup' --round 2 " \
                                   f"--table {table['table']}"
        assert table["first"] == societies[0] != "rat"  # rat was first at both tables of round 1
    text = file.read_text(encoding="utf-8")
    assert text.startswith(before)
    shown = CliRunner().invoke(whispers, ["tournament", str(file), "--json"])
    assert shown.exit_code == 0, shown.stderr
    assert json.loads(shown.output)["not_started"] == ["r2-t1", "r2-t2"]  # until their tables start them
    assert "Not started yet: r2-t1, r2-t2" in CliRunner().invoke(whispers, ["tournament", str(file)]).output
    printed = CliRunner().invoke(whispers, ["tournament", "pair", str(file), "--round", "2", "--force"])
    assert printed.exit_code == 0 and file.read_text(encoding="utf-8") == text  # the same tables again
    assert "whispers new r2-t2 --players" in printed.output
    assert "Meeting again: Ana and Bo, Cy and Dee, Eve and Fin, Gus and Hal (no arrangement has fewer)" in " ".join(
        printed.output.split())


@pytest.mark.parametrize(("edit", "args", "message"), [
    (lambda t: t.replace('"Fin", "Gus", "Hal"', ''), ["--round", "2"], "5 entrants cannot be seated"),
    (lambda t: t, ["--round", "1"], "round 1 is already in the file"),
    (lambda t: t, ["--round", "1", "--force"], "r1-t1 of round 1 has started in the store"),
    (lambda t: t.replace('name = "r1-t2"', 'name = "going"'), ["--round", "2"], "going is still in progress"),
    (lambda t: t.replace('name = "r1-t2"', 'name = "r1-t3"'), ["--round", "2"], "r1-t3 is not in the store yet"),
    (lambda t: t.replace("round = 1\nfirst", "round = 3\nfirst", 1), ["--round", "2"], "round 3 is already"),
    (lambda t: t.replace("entrants", "players"), ["--round", "2"], "unknown key 'players'"),
    (lambda t: t, ["--round", "0"], "--round counts from 1"),
])
def test_a_round_that_cannot_be_paired_is_one_line_and_the_file_untouched(cup: Path, edit, args, message) -> None:
    file = cup / "cup.toml"
    file.write_text(edit(file.read_text(encoding="utf-8")), encoding="utf-8")
    before = file.read_text(encoding="utf-8")
    result = CliRunner().invoke(whispers, ["tournament", "pair", str(file), *args])
    assert result.exit_code == 2, result.output
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert file.read_text(encoding="utf-8") == before
    assert [p.name for p in cup.iterdir() if p.name.endswith(".tmp")] == []


def test_the_printed_new_line_starts_the_game_with_its_seats_event_round_and_table(cup: Path) -> None:
    """The lines `pair` prints are run as a shell would split them (a name with a quote, a semicolon and a
    space stays one argument, never a command): the game starts with the seats' names and the table facts."""
    import shlex

    file = cup / "cup.toml"
    file.write_text(file.read_text(encoding="utf-8").replace('"Hal"', '"O\'Hara; rm -rf ~"')
                    .replace('spider = "Hal"', 'spider = "O\'Hara; rm -rf ~"'), encoding="utf-8")
    data = json.loads(CliRunner().invoke(whispers, ["tournament", "pair", str(file), "--round", "2", "--json"]).output)
    for table in data["tables"]:
        argv = shlex.split(table["command"])
        assert argv[:2] == ["whispers", "new"]
        assert CliRunner().invoke(whispers, argv[1:]).exit_code == 0
        listed = json.loads(CliRunner().invoke(whispers, ["games", "--all", "--json"]).output)
        meta = next(row for row in listed if row["game"] == table["game"])["meta"]
        assert meta["seats"] == {s["society"]: s["entrant"] for s in table["seats"]}
        assert (meta["event"], meta["round"], meta["table"]) == ("Spring Cup", "2", str(table["table"]))
    assert any("O'Hara; rm -rf ~" in [s["entrant"] for s in t["seats"]] for t in data["tables"])


def test_pair_start_creates_each_tables_game_seated_and_labelled_and_prints_the_table_cards(cup: Path) -> None:
    file = cup / "cup.toml"
    result = CliRunner().invoke(whispers, ["tournament", "pair", str(file), "--round", "2", "--start"],
                                env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.stderr
    assert "whispers new" not in result.output  # started, not to be typed
    for game, number in (("r2-t1", 1), ("r2-t2", 2)):
        assert f"{game} · Spring Cup · round 2 · table {number}" in result.output
        assert f"Started: whispers status {game}" in result.output
    listed = {row["game"]: row for row in json.loads(CliRunner().invoke(whispers, ["games", "--json"]).output)}
    paired = load_tournament(file.read_text(encoding="utf-8"), "cup.toml")
    for game in ("r2-t1", "r2-t2"):
        row = listed[game]
        # seated as the file says: the same societies in the same seat order, the same names, its first player
        assert row["players"] == list(paired.seats[game]) and row["meta"]["seats"] == paired.seats[game]
        assert row["players"][0] == paired.firsts[game]
        assert (row["meta"]["event"], row["meta"]["round"], row["meta"]["table"]) == ("Spring Cup", "2", game[-1])
        assert row["events"] == 2  # its start and its table facts, stored in one write
    standings = json.loads(CliRunner().invoke(whispers, ["tournament", str(file), "--json"]).output)
    assert standings["not_started"] == [] and {"r2-t1", "r2-t2"} <= set(standings["in_progress"])


def test_pair_start_refuses_a_round_one_of_whose_games_exists_and_makes_nothing(cup: Path) -> None:
    file = cup / "cup.toml"
    before = file.read_text(encoding="utf-8")
    with open_store(str(cup / "s.sqlite")) as store:
        text = resources.files("whispers.fixtures").joinpath("games", "official-2p.txt").read_text(encoding="utf-8")
        import_lines(store, "r2-t2", text.splitlines())
    result = CliRunner().invoke(whispers, ["tournament", "pair", str(file), "--round", "2", "--start", "--json"])
    assert result.exit_code == 2 and result.stdout == ""
    assert "a game named r2-t2 is in the store already: no game of round 2 was started" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert file.read_text(encoding="utf-8") == before
    with open_store(str(cup / "s.sqlite")) as store:
        assert not store.exists("r2-t1")
