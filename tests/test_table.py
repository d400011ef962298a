"""Who, when, where (issue 15): table facts as events of their own, PGN-style tag lines that `import` reads back
(free text never a move), the `games` listing and its filters, each person's record, archive and rename."""

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from whispers.application import reading, table
from whispers.application.files import import_file
from whispers.application.recording import new, record_line
from whispers.cli.main import whispers
from whispers.ledger.core import events as ev
from whispers.ledger.core import meta
from whispers.ledger.core.errors import NotationError, RecordFileError, StoreError
from whispers.ledger.core.notation import parse_line
from whispers.ledger.io.game import load, replay_lines
from whispers.ledger.io.recordfile import dumps, loads
from whispers.ledger.io.store import open_store
from whispers.ledger.io.verify import VerifyError, verify
from whispers.projections.log import format_record

GAME_FILE = Path(__file__).resolve().parent.parent / "fixtures" / "games" / "official-2p.txt"
# printable text, with what could turn it into a move or break a tag line over-represented
CHARS = st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs")) | st.sampled_from(
    list(' "[]#\\,='))
PIECES = st.lists(st.text(CHARS, max_size=8) | st.sampled_from(["raven recruit bear.sheriff", '"]', "\\n", "# "]),
                  min_size=1, max_size=6).map("".join)
TEXT = PIECES.map(lambda t: t.strip()[: meta.MAX_TEXT].strip()).filter(lambda t: meta.text_problem(t, "x") is None)


def moves(events):
    return [e for e in events if not isinstance(e, ev.GameDescribed)]


def test_new_records_the_table_facts_with_the_time_it_ran():
    with open_store("memory:") as s:
        new(s, "g", ["raven", "rat"], table={"seats": {"raven": "Ana", "rat": "Bo"}, "place": "Club Sud",
                                              "event": "Winter Cup", "table": "3", "tags": ["x"]})
        game = load(s, "g")
        described = game.events[1]
        assert isinstance(described, ev.GameDescribed) and described.time is not None
        facts = meta.of_events(game.events)
        assert facts.seats == {"raven": "Ana", "rat": "Bo"} and facts.place == "Club Sud" and facts.tags == ("x",)
        assert facts.recorded == described.time
        # changed later, as an event of its own; the rest is kept, a seat is cleared by None
        table.describe(s, "g", {"seats": {"rat": None}, "round": "2"})
        facts = meta.of_events(load(s, "g").events)
        assert facts.seats == {"raven": "Ana"} and facts.round == "2" and facts.event == "Winter Cup"


def test_a_game_without_table_facts_records_no_extra_event_and_has_no_date():
    with open_store("memory:") as s:
        new(s, "g", ["raven", "rat"])
        assert load(s, "g").version == 1
        assert reading.games(s).rows[0].meta.recorded is None  # never made up


@pytest.mark.parametrize("changes, says", [
    ({"place": "a\nraven recruit bear.sheriff"}, "line break"),
    ({"place": "a\u2028b"}, "line break"),
    ({"event": "x" * 121}, "at most 120"),
    ({"seats": {"bear": "Ana"}}, "not one of this game's societies"),
    ({"seats": {"spider": "Ana"}}, "not one of this game's societies"),  # not playing in this game
    ({"tags": ["a,b"]}, "comma"),
    ({"colour": "red"}, "unknown field"),
    ({}, "changes nothing"),
])
def test_bad_table_facts_are_refused_and_nothing_is_recorded(changes, says):
    with open_store("memory:") as s:
        new(s, "g", ["raven", "rat"])
        with pytest.raises(StoreError, match=says):
            table.describe(s, "g", changes)
        assert load(s, "g").version == 1


@given(TEXT)
def test_a_tag_line_reads_back_to_its_text(text):
    (line,) = meta.tag_lines({"place": text}, None)
    assert "\n" not in line and len(line.splitlines()) == 1
    assert parse_line(line) == meta.TagLine("place", text)


@given(st.text(max_size=80))
def test_no_line_starting_with_a_bracket_is_ever_a_move(text):
    try:
        parsed = parse_line("[" + text)
    except NotationError:
        return
    assert isinstance(parsed, meta.TagLine)


def _played_game(store, name="g"):
    import_file(store, GAME_FILE, name)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(place=TEXT, name=TEXT, tags=st.lists(TEXT.filter(lambda t: "," not in t), max_size=3))
def test_fuzzed_table_facts_survive_log_and_export_and_never_add_a_move(place, name, tags):
    with open_store("memory:") as s:
        _played_game(s)
        table.describe(s, "g", {"place": place, "seats": {"spider": name}, "tags": tags})
        game = load(s, "g")
        lines = list(format_record(game.events))
        again = replay_lines("g", lines)
        assert moves(again.events) == moves(game.events)
        assert [e for e in again.events if isinstance(e, ev.GameDescribed)] == \
               [e for e in game.events if isinstance(e, ev.GameDescribed)]
        assert meta.of_events(again.events) == meta.of_events(game.events)
        # and through a record file, re-verified
        _header, facts, _notes = loads(dumps(game.name, [e.to_fact() for e in game.events], []), "x")
        verified = verify(facts, "x")
        assert verified.events == game.version


def test_verify_refuses_a_record_whose_table_facts_hold_a_line_break():
    with open_store("memory:") as s:
        new(s, "g", ["raven", "rat"], table={"place": "Club Sud"})
        facts = s.facts("g")
    facts[1]["changes"]["place"] = "Club\nraven recruit bear.sheriff"
    with pytest.raises(VerifyError, match=r"event 2 .*line break"):
        verify(facts, "tampered")


def test_a_take_back_after_a_change_of_table_facts_keeps_them():
    with open_store("memory:") as s:
        new(s, "g", ["raven", "rat"])
        record_line(s, "g", "raven loyalty devout=bear dutiful=eagle affiliated=lion unallied=horse opposed=elephant")
        table.describe(s, "g", {"place": "Club Sud"})
        record_line(s, "g", 'undo "wrong tokens"')
        game = load(s, "g")
        assert meta.of_events(game.events).place == "Club Sud"
        assert game.state.loyalty.get("raven") is None or not game.state.loyalty["raven"]


def _games(url, *args):
    result = CliRunner().invoke(whispers, ["games", "--json", *args, "--store", url])
    assert result.exit_code == 0, result.output
    return [row["game"] for row in json.loads(result.output)]


def test_games_filters_sorts_and_hides_archived(tmp_path):
    url = f"sqlite:///{tmp_path}/s.db"
    new(url, "b", ["raven", "rat"], table={"seats": {"raven": "Ana"}, "event": "Winter Cup"})
    new(url, "a", ["raven", "rat"], table={"seats": {"rat": "ana"}, "event": "Spring Cup"})
    with open_store(url) as s:
        _played_game(s, "c")
    assert _games(url) == ["b", "a", "c"] or sorted(_games(url)) == ["a", "b", "c"]
    assert _games(url, "--sort", "name") == ["a", "b", "c"]
    assert _games(url, "--player", "ANA", "--sort", "name") == ["a", "b"]
    assert _games(url, "--event", "winter cup") == ["b"]
    assert _games(url, "--state", "over") == ["c"]
    assert _games(url, "--since", "2000-01-01", "--sort", "name") == ["a", "b"]  # c has no date recorded
    assert _games(url, "--since", "2999-01-01") == []
    table.archive(url, "a")
    assert sorted(_games(url)) == ["b", "c"]
    assert sorted(_games(url, "--all")) == ["a", "b", "c"]
    table.rename(url, "b", "The long night")
    text = CliRunner().invoke(whispers, ["games", "--store", url]).output
    assert '"The long night"' in text and "raven=Ana" in text and "Winter Cup" in text


def test_the_listing_rows_are_the_typed_rows_json(tmp_path):
    """`games` makes each row's JSON form straight from the catalog's listing; the GameRow read back from it (as
    `rows` gives it) writes the same JSON again, for a fork, table facts, an archived game and a bare one."""
    from whispers.application.review import fork

    url = f"sqlite:///{tmp_path}/s.db"
    new(url, "b", ["raven", "rat", "spider"], table={"seats": {"raven": "Ana", "spider": "Éloïse"},
                                                     "event": "Winter Cup", "tags": ["x", "y z"]})
    with open_store(url) as s:
        _played_game(s, "c")
    fork(url, "c", "c-what-if", 5)
    table.archive(url, "b")
    table.rename(url, "c", "The long night")
    listed = reading.games(url, reading.GameFilter(archived=True))
    assert [row["game"] for row in listed.to_json()] == ["b", "c", "c-what-if"]
    assert json.dumps([row.to_json() for row in listed.rows]) == json.dumps(listed.to_json())  # keys in order too
    assert listed.rows[2].fork_of == ("c", 5) and listed.rows[0].meta.tags == ("x", "y z")
    assert listed.rows[0].meta.archived and listed.rows[1].meta.title == "The long night"


def test_a_bad_since_or_table_fact_is_one_line_exit_2_and_the_store_untouched(tmp_path):
    url = f"sqlite:///{tmp_path}/s.db"
    new(url, "g", ["raven", "rat"])
    for args in (["games", "--since", "yesterday"], ["meta", "g", "--place", "a\nrat recruit x"],
                 ["meta", "g", "--seat", "raven"], ["new", "h", "--players", "raven,rat", "--seat", "bear=X"]):
        result = CliRunner().invoke(whispers, [*args, "--store", url])
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output and len(result.output.strip().splitlines()) <= 3
    with open_store(url) as s:
        assert s.names() == ["g"] and s.version("g") == 1


def test_stats_by_player_counts_each_persons_games_wins_and_mean_score(tmp_path):
    url = f"sqlite:///{tmp_path}/s.db"
    with open_store(url) as s:
        _played_game(s, "one")
        _played_game(s, "two")
        table.describe(s, "one", {"seats": {"spider": "Ana", "serpent": "Bo"}})
        table.describe(s, "two", {"seats": {"spider": "Bo", "serpent": "Ana"}})
        scored = [e for e in load(s, "one").events if isinstance(e, ev.GameScored)][-1]
    result = CliRunner().invoke(whispers, ["stats", "--all", "--by", "player", "--json", "--store", url])
    assert result.exit_code == 0, result.output
    people = json.loads(result.output)
    spider, serpent = scored.scores["spider"]["total"], scored.scores["serpent"]["total"]
    assert people["Ana"]["games"] == 2 and people["Bo"]["games"] == 2
    assert people["Ana"]["mean_score"] == round((spider + serpent) / 2, 2)
    assert people["Ana"]["wins"] + people["Bo"]["wins"] == 2 * (scored.winner is not None)
    assert people["Ana"]["by_society"]["spider"] == {"games": 1, "wins": int(scored.winner == "spider"),
                                                     "win_rate": float(scored.winner == "spider"),
                                                     "mean_score": float(spider)}
    assert set(people["Ana"]["by_seat"]) == {"1", "2"}  # spider holds the first-player marker in that game
    shown = CliRunner().invoke(whispers, ["stats", "--all", "--by", "player", "--store", url])
    assert shown.exit_code == 0 and "Traceback" not in shown.output, shown.output
    assert "Players (finished games)" in shown.output and re.search(r"Ana\s+│\s+2\s+│", shown.output)
    with open_store(url) as s:  # read from the catalog: a game recorded since the last read counts too
        _played_game(s, "three")
        table.describe(s, "three", {"seats": {"spider": "Ana"}})
    again = json.loads(CliRunner().invoke(whispers, ["stats", "--all", "--by", "player", "--json", "--store", url])
                       .output)
    assert again["Ana"]["games"] == 3 and again["Bo"]["games"] == 2


def _cup(s):
    new(s, "cup", ["raven", "rat"], table={"seats": {"raven": "Ana", "rat": "Bo"}, "place": "Club Sud",
                                          "event": "Winter Cup", "round": "2", "table": "3", "tags": ["friendly"]})
    table.describe(s, "cup", {"seats": {"rat": "Bea"}})
    return dumps("cup", s.facts("cup"), [])


def test_the_record_files_header_says_who_when_and_where_and_import_reads_it_back(tmp_path):
    with open_store("memory:") as s:
        data = _cup(s)
        facts = meta.of_events(load(s, "cup").events)
    header, _, _ = loads(data, "cup.whispers")
    assert header["table"] == facts.to_json()
    assert header["table"]["seats"] == {"raven": "Ana", "rat": "Bea"} and header["table"]["table"] == "3"
    assert header["table"]["recorded"] is not None
    (tmp_path / "cup.whispers").write_bytes(data)
    result = CliRunner().invoke(whispers, ["import", str(tmp_path / "cup.whispers"), "--game", "c2",
                                           "--store", f"sqlite:///{tmp_path}/s.db"])
    assert result.exit_code == 0, result.output
    assert "table facts: raven Ana, rat Bea; place Club Sud; event Winter Cup; round 2; table 3; tags friendly; " \
           f"recorded {facts.recorded}" in result.output


def test_a_header_whose_table_facts_differ_from_the_events_is_refused_and_nothing_imported(tmp_path):
    import msgpack

    with open_store("memory:") as s:
        body = msgpack.unpackb(_cup(s))
    body["header"]["table"]["seats"]["rat"] = "Mallory"
    (tmp_path / "cup.whispers").write_bytes(msgpack.packb(body))
    with open_store("memory:") as s:
        with pytest.raises(RecordFileError, match=r"table facts .* do not match the record's events: the header was"):
            import_file(s, tmp_path / "cup.whispers")
        assert s.names() == []


def test_a_record_file_from_before_the_table_header_still_imports_with_its_table_facts():
    """tests/data/before-table-header: written by the previous recordfile.dumps, with no `table` in its header."""
    old = Path(__file__).parent / "data" / "before-table-header" / "cup-t3.whispers"
    header, _, _ = loads(old.read_bytes(), old.name)
    assert "table" not in header
    with open_store("memory:") as s:
        imported = import_file(s, old)
        assert imported.game == "cup-t3" and imported.events == 3
        assert imported.table.seats == {"raven": "Ana", "rat": "Bea"} and imported.table.event == "Winter Cup"
        assert imported.to_json()["table"]["table"] == "3"
