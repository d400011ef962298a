"""The lean read path (issue 12): a game's rows decoded straight into the event types, in C, give the very events
the lenient path gives (each row decoded into a dict, then an event built from it), for every kind of event; an
older fact is upcast as before; and a row that is not an event falls back to the lenient path, which names it."""

from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizes import sized

from tests.store_rows import pg_rows, rows_of
from whispers.ledger.core import events as ev
from whispers.ledger.core import rules
from whispers.ledger.core.errors import StoreError
from whispers.ledger.core.events import read_facts
from whispers.ledger.core.names import SOCIETIES
from whispers.ledger.core.randomgame import play as random_play
from whispers.ledger.io import store as store_module
from whispers.ledger.io.board_files import load_board
from whispers.ledger.io.decree_files import shipped_catalogue
from whispers.ledger.io.ruleset_files import load_ruleset
from whispers.ledger.io.store import open_store
from whispers.ledger.io.transcoder import MsgpackTranscoder, decode_events

RULESETS = ("official", "advanced", "revised")


def stored(fact: dict) -> bytes:
    return MsgpackTranscoder().encode({"timestamp": datetime(2026, 11, 23, tzinfo=UTC), "fact": fact})


def same(a: object, b: object) -> bool:
    """Equal, and of the same types all the way down (a list where the lenient path gives a tuple is not the same
    event: events hold tuples, and a tuple never equals a list)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, ev.Event | ev.Effects):
        return all(same(getattr(a, f), getattr(b, f)) for f in a.__struct_fields__)
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(v, b[k]) for k, v in a.items())  # type: ignore[attr-defined]
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))  # type: ignore[arg-type]
    return a == b


@pytest.mark.parametrize("seed", range(6))
def test_a_game_read_straight_into_its_events_is_the_game_read_the_lenient_way(tmp_path: Path, seed: int) -> None:
    catalogue = shipped_catalogue()
    facts = []
    for _, produced, _ in random_play(SOCIETIES[: 2 + seed % 3], load_ruleset(RULESETS[seed % 3]),
                                      load_board("standin"), seed, name="g", undo_rate=0.05, named=True,
                                      catalogue=catalogue):
        facts += [e.to_fact() for e in produced]
    kinds = {f["type"] for f in facts}
    with open_store(str(tmp_path / "store.sqlite")) as store:
        store.create("g", facts)
        lean = store.events("g")
        lenient = read_facts(store.facts("g"), "g")
        assert len(lean) == len(lenient) == len(facts)
        assert all(same(a, b) for a, b in zip(lean, lenient, strict=True))
        assert [type(e).__name__ for e in lean] == [f["type"] for f in facts]
        half = len(facts) // 2
        assert all(same(a, b) for a, b in zip(store.events("g", half), lenient[:half], strict=True))
    assert {"CardPlayed", "Attacked", "GameScored"} <= kinds  # the game played what the comparison is for


def test_an_older_fact_read_straight_is_upcast_as_before() -> None:
    """Skipped version 1 kept its reason in English; read today it says the code (events.Skipped.upcast_v1_v2)."""
    old = {"type": "Skipped", "society": "raven", "phase": "retrieve", "reason": "no agent left"}
    read = decode_events([stored({"type": "PhaseStarted", "round": 1, "phase": "retrieve"}), stored(old)])
    assert read == [ev.PhaseStarted(1, "retrieve"), ev.Skipped("raven", "retrieve", "no-agent-left")]


@pytest.mark.parametrize("fact", [
    {"type": "Unheard", "round": 1},  # no such event
    {"type": "PhaseStarted", "round": 1},  # a field missing
    {"type": "Skipped", "class_version": 9, "society": "raven", "phase": "retrieve", "reason": "no-agent-left"},
    {"round": 1, "phase": "retrieve"},  # no type at all
])
def test_a_row_that_is_not_an_event_is_left_to_the_lenient_read_which_names_it(tmp_path: Path, fact: dict) -> None:
    assert decode_events([stored({"type": "PhaseStarted", "round": 1, "phase": "retrieve"}), stored(fact)]) is None
    with open_store(str(tmp_path / "store.sqlite")) as store:
        started = rules.start("g", SOCIETIES[:2], SOCIETIES[0], load_ruleset("official"), load_board("standin"))
        store.create("g", [started.to_fact(), ev.PhaseStarted(1, "retrieve").to_fact(), fact])
        with pytest.raises(StoreError, match=r"^g: event 3 is not a whispers event$"):
            store.events("g")


def test_a_field_of_another_kind_is_read_as_the_lenient_read_reads_it(tmp_path: Path) -> None:
    """The typed decoder refuses a round that is not a number; the lenient read, which builds events without
    checking their fields' kinds, reads it as it always did (the rules' replay is what finds such a record wrong)."""
    fact = {"type": "PhaseStarted", "round": "one", "phase": "retrieve"}
    assert decode_events([stored(fact)]) is None
    with open_store(str(tmp_path / "store.sqlite")) as store:
        started = rules.start("g", SOCIETIES[:2], SOCIETIES[0], load_ruleset("official"), load_board("standin"))
        store.create("g", [started.to_fact(), fact])
        assert store.events("g")[1] == ev.PhaseStarted("one", "retrieve")  # type: ignore[arg-type]


_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8) | st.binary(max_size=8),
                       lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                     max_size=4), max_leaves=12)
_TYPES = st.sampled_from([*ev.EVENT_TYPES, "Nope", ""])


@settings(max_examples=sized(100, 300), deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.one_of(
    st.binary(max_size=40),  # any bytes at all
    st.builds(lambda t, fields: stored({"type": t, **fields}), _TYPES,
              st.dictionaries(st.text(max_size=10), _VALUES, max_size=6)),  # a fact of a known type, any fields
), max_size=5), st.sampled_from([None, frozenset({"PhaseStarted", "GameScored"})]))
def test_any_stored_bytes_read_straight_are_events_or_left_to_the_lenient_read(
        states: list[bytes], read_whole: frozenset[str] | None) -> None:
    """Fuzzed: whatever a row holds, the typed decoder gives events or None (then the lenient read names the row);
    it never raises, and never gives anything but events. So too when it reads only some types whole (the others
    as their types' stand-ins): then it gives what it gives reading every type whole, but for the stand-ins."""
    read = decode_events(states, read_whole)
    assert read is None or (len(read) == len(states) and all(isinstance(e, ev.Event) for e in read))
    if read_whole is not None and read is not None:
        full = decode_events(states)
        if full is not None:
            assert [type(e) for e in read] == [type(e) for e in full]
            assert all(same(a, b) for a, b in zip(read, full, strict=True) if type(a).__name__ in read_whole)


# Games read together (Store.written_games, what the catalog's rebuild reads): each as it is read on its own

def small_game(seed: int, name: str) -> list[dict]:
    facts = []
    for _, produced, _ in random_play(SOCIETIES[: 2 + seed % 3], load_ruleset(RULESETS[seed % 3]),
                                      load_board("standin"), seed, name=name, undo_rate=0.05):
        facts += [e.to_fact() for e in produced]
    return facts


def store_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    return {"sqlite": lambda: str(tmp_path / "store.sqlite"), "memory": lambda: "memory:",
            "postgres": lambda: request.getfixturevalue("pg_own_url")}[backend]()


BACKENDS = ["sqlite", "memory", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_games_read_together_are_each_game_read_on_its_own(backend: str, tmp_path: Path,
                                                           request: pytest.FixtureRequest) -> None:
    names = [f"g{i}" for i in range(7)]
    with open_store(store_url(backend, tmp_path, request)) as store:
        for seed, name in enumerate(names):
            store.create(name, small_game(seed, name))
        order = names[::-1]  # not the order they were stored in: read in the order asked
        together = list(store.written_games(order, chunk=3))  # three chunks, the last of one game
        assert [name for name, _, _ in together] == order
        for name, events, written in together:
            alone, when = store.written_events(name)
            assert written == when
            assert len(events) == len(alone) and all(same(a, b) for a, b in zip(events, alone, strict=True))
        # read together, the games share their board's data (read once), and it is the data each game pins
        boards = {id(events[0].board) for _, events, _ in together}
        assert len(boards) == 1 and together[0][1][0].board == store.events(names[0])[0].board


DAMAGES = {  # what is done to one game's rows: some of its events deleted, one made a second start of a game
    "gap": "DELETE FROM {table} WHERE originator_id = %s AND originator_version BETWEEN 20 AND 30",
    "second start": "UPDATE {table} SET topic = 'whispers:GameRecord.Created' WHERE originator_id = %s "
                    "AND originator_version = 25",
}


@pytest.mark.parametrize("damage", DAMAGES)
@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_a_damaged_game_among_games_read_together_is_named_as_it_is_read_on_its_own(
        backend: str, damage: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:

    from whispers.ledger.io.store import game_id

    url = store_url(backend, tmp_path, request)
    names = [f"g{i}" for i in range(5)]
    with open_store(url) as store:
        for seed, name in enumerate(names):
            store.create(name, small_game(seed, name))
        delete = DAMAGES[damage]
        if backend == "sqlite":
            with rows_of(url) as db:
                db.execute(delete.format(table="stored_events").replace("%s", "?"), [game_id("g3").hex])
        else:
            with pg_rows(url) as conn:
                conn.execute(delete.format(table="whispers_events"), [game_id("g3")])
        with pytest.raises(StoreError) as alone:
            store.written_events("g3")
        read: list[str] = []
        with pytest.raises(StoreError) as together:
            for name, _, _ in store.written_games(names, chunk=2):
                read.append(name)
        assert str(together.value) == str(alone.value) and "g3" in str(alone.value)
        assert "is damaged" in str(alone.value)
        assert read == names[:3]  # the games before it were read, none after it


def test_an_unknown_game_among_games_read_together_is_named(tmp_path: Path) -> None:
    from whispers.ledger.core.errors import UnknownGame

    with open_store(str(tmp_path / "store.sqlite")) as store:
        store.create("g0", small_game(0, "g0"))
        with pytest.raises(UnknownGame, match="no game named 'nope'"):
            list(store.written_games(["g0", "nope"]))


def thawed(event: ev.Event) -> dict:
    """An event's fact built value by value (what `to_fact` gave before it went through msgpack in C)."""
    fact: dict = {"type": type(event).__name__}
    if event.class_version > 1:
        fact["class_version"] = event.class_version
    return {**fact, **{name: ev._thaw(getattr(event, name)) for name in event.__struct_fields__}}


@pytest.mark.parametrize("seed", range(3))
def test_an_events_fact_is_its_values_thawed_one_by_one(seed: int) -> None:
    """`to_fact` writes an event through msgpack in C: the same keys in the same order, lists where the event holds
    tuples, and every value of the same type (a bool stays a bool), for every kind of event a game records."""
    kinds = set()
    for _, produced, _ in random_play(SOCIETIES[: 2 + seed % 3], load_ruleset(RULESETS[seed % 3]),
                                      load_board("standin"), seed, name="g", undo_rate=0.05, named=True,
                                      catalogue=shipped_catalogue()):
        for event in produced:
            fact, expected = event.to_fact(), thawed(event)
            assert list(fact) == list(expected) and same(fact, expected), (fact, expected)
            kinds.add(type(event).__name__)
    assert {"CardPlayed", "Attacked", "GameScored", "MoveTakenBack"} <= kinds


def test_a_value_msgpack_does_not_write_is_thawed_as_it_is() -> None:
    big = 2 ** 70  # more than msgpack's 64 bits: the store's transcoder writes it as an extension
    scored = ev.GameScored({"raven": {"total": big}}, ("raven",), "raven", (), ())
    assert scored.to_fact() == thawed(scored) and scored.to_fact()["scores"]["raven"]["total"] == big


@pytest.mark.parametrize("when", [datetime(2026, 11, 23, 4, 5, 6, 789, tzinfo=UTC),
                                  datetime.fromisoformat("2026-11-23T04:05:06.000789+05:30"), None])
def test_a_stored_events_timestamp_is_read_without_its_fact(when: datetime | None) -> None:
    from whispers.ledger.io.transcoder import decode_timestamp

    fact = ev.GameScored({"raven": {"total": 3}}, ("raven",), "raven", (), ()).to_fact()
    state = MsgpackTranscoder().encode({"fact": fact} if when is None else {"timestamp": when, "fact": fact})
    read = decode_timestamp(state)
    assert read == MsgpackTranscoder().decode(state).get("timestamp") == when
    assert read is None or read.utcoffset() == when.utcoffset()  # type: ignore[union-attr]


_FAILED = object()


def _or_failed(read: Any) -> Any:
    try:
        return read()
    except Exception:  # whatever the bytes make a decoder raise
        return _FAILED


@settings(max_examples=sized(100, 300), deadline=None)
@given(st.one_of(st.binary(max_size=40), st.builds(
    lambda stamp, fact: MsgpackTranscoder().encode({"timestamp": stamp, "fact": fact}),
    _VALUES | st.datetimes(timezones=st.just(UTC)), _VALUES)))
def test_a_timestamp_read_alone_is_the_one_a_whole_decoding_reads(data: bytes) -> None:
    """Fuzzed, differentially: whatever the bytes, the timestamp read without the fact is the one the store's
    decoder reads decoding the whole state, wherever both read one (where either fails, GameRecords._written says the
    game holds no time it was stored)."""
    from whispers.ledger.io.transcoder import decode_timestamp

    alone = _or_failed(lambda: decode_timestamp(data))
    whole = _or_failed(lambda: MsgpackTranscoder().decode(data))
    if alone is not _FAILED and isinstance(whole, dict):
        assert alone == whole.get("timestamp") and type(alone) is type(whole.get("timestamp"))


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(max_size=40), st.text(max_size=12))
def test_a_summary_written_by_msgspec_reads_back_as_typed_whatever_text_a_person_gave(title: str, seat: str) -> None:
    """Fuzzed: the catalog writes each game's summaries as JSON with msgspec (Catalog.refresh); a title or a seat's
    name of any text (quotes, backslashes, line and paragraph separators, NUL) reads back from the listing exactly
    as the game's own metadata gives it, and as json.dumps would have written it."""
    import json

    from msgspec.json import encode

    from whispers.ledger.core.meta import of_events
    from whispers.projections.catalog import LISTED, Catalog, game_summary

    started = rules.start("g", SOCIETIES[:2], SOCIETIES[0], load_ruleset("official"), load_board("standin"))
    described = ev.GameDescribed({"title": title, "seats": {SOCIETIES[0]: seat}}, None)
    with open_store("memory:") as store, mock.patch.object(store_module, "_refuse_controls", lambda *_: None):
        store.create("g", [started.to_fact(), described.to_fact()])  # as an older whispers let any text in
        catalog = Catalog(store)
        catalog.refresh()
        listed = catalog.listing()["g"]
        events = store.events("g")
    assert listed["meta"] == of_events(events).to_json()
    assert listed["meta"]["title"] == title and listed["meta"]["seats"] == {SOCIETIES[0]: seat}
    summary = {key: game_summary("g", events)[key] for key in LISTED if key != "written"}
    assert json.loads(encode(summary)) == json.loads(json.dumps(summary))


def test_an_sqlite_store_is_read_from_many_threads_then_written_and_read_again(tmp_path: Path) -> None:
    """Until something needs the event store library, an SQLite store's games are read with plain sqlite3, one
    connection per thread (a server answers from several over one open store): each thread reads what was written,
    a write opens the library and is read at once, and a closed store refuses reads in one line."""
    from concurrent.futures import ThreadPoolExecutor

    path = str(tmp_path / "store.sqlite")
    games = {f"g{i}": small_game(i, f"g{i}") for i in range(4)}
    with open_store(path) as store:
        for name, facts in games.items():
            store.create(name, facts)
    store = open_store(path)
    with ThreadPoolExecutor(8) as pool:
        read = list(pool.map(lambda n: (f"g{n % 4}", store.facts(f"g{n % 4}")), range(64)))
    assert all(facts == games[name] for name, facts in read)
    more = {"type": "PhaseStarted", "round": 9, "phase": "deploy"}
    store.append("g0", len(games["g0"]), [more])
    assert store.facts("g0") == [*games["g0"], more] and store.version("g0") == len(games["g0"]) + 1
    with ThreadPoolExecutor(4) as pool:
        assert all(facts[-1] == more for facts in pool.map(lambda _: store.facts("g0"), range(8)))
    store.close()
    with pytest.raises(StoreError, match="is closed"):
        store.facts("g1")


def test_an_sqlite_stores_fingerprint_read_directly_is_the_one_the_library_reads(tmp_path: Path) -> None:
    """The catalog proves its store is the one it read by the fingerprint of an event at a log position: read with
    plain sqlite3 (so that `games` imports no event store library), it is the digest of the very notification the
    library reads at that position, and there is none past the log's end."""
    import hashlib

    with open_store(str(tmp_path / "store.sqlite")) as store:
        store.create("g", small_game(2, "g"))
        for position in (1, 2, store.head()):
            n = store._events.recorder.select_notifications(position, 1, stop=position)[0]
            digest = hashlib.sha256(f"{n.id}:{n.originator_id}:{n.originator_version}:{n.topic}:".encode())
            digest.update(n.state)
            assert store.fingerprint(position) == digest.hexdigest()
        assert store.fingerprint(store.head() + 1) is None and store.fingerprint(0) is None
