"""A PostgreSQL store's compact layout (ledger/io/postgres_layout.py: a row per append, streams numbered), and the
migration of a store written in an earlier layout by an earlier whispers (issue 12: "stores written by today's main
still open, migrated in place or read as they are, and their games verify"): eventsourcing's own (a row per event,
`whispers_events`), or the appends of mains up to f8f4b1b (`whispers_appends`, a stream's UUID in every row).

The old stores are made as earlier mains made them: eventsourcing's own PostgreSQL recorder creates its table, or
the appends' table as f8f4b1b created it, and the events are those an earlier main wrote (tests/data/before-compact,
the same states on either kind of store), each at its notification id, with a gap in the ids where a transaction
was rolled back."""

import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any
from uuid import UUID

import msgpack
import psycopg
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sizes import sized

from tests.store_rows import pg_rows
from whispers.cli.main import whispers as whispers_cli
from whispers.ledger.core.errors import StoreError
from whispers.ledger.core.streams import game_id
from whispers.ledger.io import postgres_layout
from whispers.ledger.io.eventstore import EventStore
from whispers.ledger.io.store import _fingerprint, open_store

pytestmark = pytest.mark.postgres

BEFORE = Path(__file__).parent / "data" / "before-compact"
GAMES = ["official-4p", "revised-3p", "what-if"]
GAP = 100  # the ids after this one are 3 further on, as a rolled-back transaction leaves them


def old_rows() -> list[tuple[int, UUID, int, str, bytes]]:
    db = sqlite3.connect(BEFORE / "store.sqlite")
    rows = db.execute("SELECT rowid, originator_id, originator_version, topic, state FROM stored_events "
                      "ORDER BY rowid").fetchall()
    db.close()
    return [(rowid + (3 if rowid > GAP else 0), UUID(hex=originator), version, topic, state)
            for rowid, originator, version, topic, state in rows]


def appends_layout(url: str, rows: list[tuple[int, UUID, int, str, bytes]], longest: int) -> None:
    """The store at `url` made anew in the layout of mains up to f8f4b1b (`whispers_appends`: a row per append of at
    most `longest` events, its stream's UUID and first topic in it), holding `rows` (eventsourcing's, in order)."""
    schema = url.split("schema=")[1]
    with psycopg.connect(url.split("?")[0], autocommit=True) as conn, conn.transaction():
        for table in (postgres_layout.LOG, postgres_layout.STREAMS, postgres_layout.HEAD, postgres_layout.TOPICS):
            conn.execute(f"DROP TABLE IF EXISTS {schema}.{table}")
        conn.execute(f"CREATE TABLE {schema}.whispers_topics (id smallint PRIMARY KEY, topic text NOT NULL UNIQUE)")
        conn.execute(f"CREATE TABLE {schema}.{postgres_layout.OLD_APPENDS} (position bigint PRIMARY KEY, "
                     "stream uuid NOT NULL, version integer NOT NULL, count integer NOT NULL, topic smallint NOT NULL, "
                     "events bytea NOT NULL, UNIQUE (stream, version))")
        numbers: dict[str, int] = {}
        for run in postgres_layout.runs(rows, longest):
            for *_, topic, _ in run:
                if topic not in numbers:
                    numbers[topic] = len(numbers) + 1
                    conn.execute(f"INSERT INTO {schema}.whispers_topics VALUES (%s, %s)", [numbers[topic], topic])
            position, stream, version, topic, _ = run[0]
            conn.execute(f"INSERT INTO {schema}.{postgres_layout.OLD_APPENDS} VALUES (%s, %s, %s, %s, %s, %s)",
                         [position, stream, version, len(run), numbers[topic],
                          postgres_layout.pack((numbers[t], state) for *_, t, state in run)])


def eventsourcing_layout(url: str) -> None:
    """The store at `url` made in eventsourcing's own layout, by its own recorder, holding the old rows."""
    schema = url.split("schema=")[1]
    app = EventStore(env={"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": "test",
                          "POSTGRES_HOST": "127.0.0.1", "POSTGRES_PORT": "5432", "POSTGRES_USER": "postgres",
                          "POSTGRES_PASSWORD": "", "POSTGRES_SCHEMA": schema, "CREATE_TABLE": "y"})
    app.close()
    with psycopg.connect(url.split("?")[0], autocommit=True) as conn:
        conn.cursor().executemany(
            f"INSERT INTO {schema}.whispers_events (notification_id, originator_id, originator_version, topic, state) "
            "VALUES (%s, %s, %s, %s, %s)", old_rows())


@pytest.fixture(params=["events", "appends"])
def before(request: pytest.FixtureRequest, pg_own_url: str) -> str:
    """A store in eventsourcing's layout, or in the appends' layout before streams were numbered, as an earlier main
    left it."""
    if request.param == "appends":
        appends_layout(pg_own_url, old_rows(), postgres_layout.ROW_EVENTS)
    else:
        eventsourcing_layout(pg_own_url)
    return pg_own_url


def run(*args: str) -> str:
    result = CliRunner().invoke(whispers_cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def tables(url: str) -> set[str]:
    schema = url.split("schema=")[1]
    with psycopg.connect(url.split("?")[0], autocommit=True) as conn:
        return {name for (name,) in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = %s", [schema])}


def test_a_store_in_an_earlier_layout_is_migrated_at_its_first_opening_and_reads_as_it_did(before: str) -> None:
    assert run("games", "--json", "--store", before) == (BEFORE / "games.json").read_text(encoding="utf-8")
    assert {postgres_layout.OLD_EVENTS, postgres_layout.OLD_APPENDS} & tables(before) == set()
    assert postgres_layout.LOG in tables(before)
    for game in GAMES:
        assert run("log", "--store", before, game) == (BEFORE / f"{game}.log").read_text(encoding="utf-8")
    assert run("notes", "--store", before, "revised-3p") == (BEFORE / "revised-3p.notes").read_text("utf-8")
    for game in ("official-4p", "revised-3p", "what-if"):
        assert "verified" in run("verify", "--store", before, game)
    rows = old_rows()
    with pg_rows(before) as conn:  # every event at its own position, with its stream, version, topic and bytes
        moved = conn.execute("SELECT notification_id, originator_id, originator_version, topic, state "
                             "FROM whispers_events ORDER BY notification_id").fetchall()
    assert moved == rows
    with open_store(before) as store:  # a read model's tracked position names the same event as before
        assert store.head() == rows[-1][0]
        assert all(store.fingerprint(row[0]) == _fingerprint(*row) for row in rows)
        assert [store.fingerprint(position) for position in range(GAP + 1, GAP + 4)] == [None] * 3


def test_the_migration_cuts_the_log_into_appends_of_one_stream_at_following_positions(before: str) -> None:
    with open_store(before) as store:
        store.names()
    schema = before.split("schema=")[1]
    with psycopg.connect(before.split("?")[0], autocommit=True) as conn:
        appends = conn.execute(f"SELECT position, count FROM {schema}.whispers_log ORDER BY position").fetchall()
    assert len(appends) < len(old_rows()) // 2
    assert (GAP + 4, ) in {(position,) for position, _ in appends}  # no append spans the gap
    assert all(position + count <= after for (position, count), (after, _) in pairwise(appends))


def test_a_store_is_migrated_once_when_three_processes_open_it_at_the_same_moment(before: str) -> None:
    code = "import sys; from whispers.ledger.io.store import open_store; print(sorted(open_store(sys.argv[1]).names()))"
    openers = [subprocess.Popen([sys.executable, "-c", code, before], stdout=subprocess.PIPE, text=True)
               for _ in range(3)]
    outputs = [opener.communicate(timeout=60)[0] for opener in openers]
    assert [opener.returncode for opener in openers] == [0, 0, 0]
    assert outputs == [f"{sorted(GAMES)}\n"] * 3


@pytest.mark.parametrize(("layout", "update", "key", "reason"), [
    ("events", "whispers_events SET topic = NULL WHERE notification_id = 7",
     "notification_id", "1 of its 464 events have no topic or state"),
    ("appends", "whispers_appends SET events = '\\x00' WHERE position = 1",
     "position", "the append at position 1 is malformed"),
], ids=["events", "appends"])
def test_a_store_that_cannot_be_migrated_says_why_in_one_line_and_is_left_as_it_was(
        pg_own_url: str, layout: str, update: str, key: str, reason: str) -> None:
    """An event without a topic would be written as no topic's, an append that cannot be read as nothing: the
    migration is refused, not done short."""
    if layout == "appends":
        appends_layout(pg_own_url, old_rows(), postgres_layout.ROW_EVENTS)
    else:
        eventsourcing_layout(pg_own_url)
    schema = pg_own_url.split("schema=")[1]
    dump = f"SELECT * FROM {schema}.{update.split()[0]} ORDER BY {key}"
    with psycopg.connect(pg_own_url.split("?")[0], autocommit=True) as conn:
        conn.execute(f"UPDATE {schema}.{update}")
        content = conn.execute(dump).fetchall()
    with pytest.raises(StoreError) as refused:
        open_store(pg_own_url)
    message = str(refused.value)
    assert "\n" not in message and reason in message and "cannot bring the store" in message
    assert postgres_layout.LOG not in tables(pg_own_url)
    with psycopg.connect(pg_own_url.split("?")[0], autocommit=True) as conn:
        assert conn.execute(dump).fetchall() == content


def test_the_migrated_store_takes_new_moves_after_its_old_ones(before: str) -> None:
    with open_store(before) as store:
        head = store.head()
        store.create("after", [{"n": 0}, {"n": 1}])
        store.append("after", 2, [{"n": 2}])
        assert store.head() == head + 3 and store.facts("after") == [{"n": 0}, {"n": 1}, {"n": 2}]
        assert store.fingerprint(head + 3) is not None and store.fingerprint(head + 4) is None
        assert "after" in store.changed_games(head)[1]


def test_an_append_is_one_row_and_its_events_follow_on_in_the_log(pg_own_url: str) -> None:
    """The layout's figures: a game created whole is one row, or one per ROW_EVENTS events when it is longer; each
    later append one more; positions run on."""
    longest = postgres_layout.ROW_EVENTS
    with open_store(pg_own_url) as store:
        store.create("g", [{"n": i} for i in range(50)])
        store.append("g", 50, [{"n": 50}, {"n": 51}])
        store.create("h", [{"n": 0}])
        store.create("long", [{"n": i} for i in range(2 * longest + 5)])
        assert store.head() == 53 + 2 * longest + 5
        assert store.facts("long") == [{"n": i} for i in range(2 * longest + 5)]
    schema = pg_own_url.split("schema=")[1]
    with psycopg.connect(pg_own_url.split("?")[0], autocommit=True) as conn:
        assert conn.execute(f"SELECT position, stream, version, count FROM {schema}.whispers_log ORDER BY position"
                            ).fetchall() == [(1, 1, 1, 50), (51, 1, 51, 2), (53, 2, 1, 1), (54, 3, 1, longest),
                                             (54 + longest, 3, 1 + longest, longest),
                                             (54 + 2 * longest, 3, 1 + 2 * longest, 5)]
        assert conn.execute(f"SELECT count(*) FROM {schema}.whispers_topics").fetchone() == (2,)
        assert conn.execute(f"SELECT id, stream FROM {schema}.whispers_streams ORDER BY id").fetchall() == [
            (1, game_id("g")), (2, game_id("h")), (3, game_id("long"))]
        assert conn.execute(f"SELECT position FROM {schema}.whispers_head").fetchall() == [(53 + 2 * longest + 5,)]


@settings(max_examples=sized(100, 300), deadline=None)
@given(rows=st.lists(st.tuples(st.integers(1, 30), st.sampled_from("abc"), st.integers(-2, 6), st.just("t"),
                               st.binary(max_size=4)), max_size=20), longest=st.integers(1, 8))
def test_whatever_a_log_held_is_cut_into_runs_that_give_it_back_whole(rows: list[tuple], longest: int) -> None:
    """Fuzzed: the runs, put together, are the rows as given; each run is one stream at following positions and
    versions, of at most `longest` rows, and two runs meet only where that stops or the first is full."""
    cut = list(postgres_layout.runs(rows, longest))
    assert [row for run in cut for row in run] == rows
    for run in cut:
        assert len(run) <= longest
        assert all(b[1] == a[1] and b[0] == a[0] + 1 and b[2] == a[2] + 1 for a, b in pairwise(run))
    for a, b in pairwise(cut):
        assert len(a) == longest or not (b[0][1] == a[-1][1] and b[0][0] == a[-1][0] + 1 and b[0][2] == a[-1][2] + 1)


LISTED = st.lists(st.one_of(st.integers(-9, 99), st.binary(max_size=3), st.text(max_size=3), st.none()), max_size=4)


@settings(max_examples=sized(100, 300), deadline=None)
@given(packed=st.one_of(st.binary(max_size=60),
                        st.lists(st.tuples(st.integers(0, 40), st.binary(max_size=8)), max_size=5).map(
                            postgres_layout.pack),
                        st.tuples(LISTED, LISTED).map(lambda pair: msgpack.packb(list(pair)))),
       count=st.integers(0, 5))
def test_an_append_read_back_is_its_events_or_refused_as_malformed(packed: bytes, count: int) -> None:
    """Fuzzed: any bytes in an append's events column are either `count` events of (topic number, state) or a
    ValueError (the store reports the append as damaged), never anything else; its first event, read alone, is
    the first of them."""
    try:
        head = postgres_layout.first(packed)
    except ValueError:
        head = None
    try:
        topics, states = postgres_layout.unpack(packed, count)
    except ValueError:
        return
    assert len(topics) == len(states) == count
    assert all(type(topic) is int for topic in topics) and all(type(state) is bytes for state in states)
    assert head == ((topics[0], states[0]) if count else None)


def test_a_games_first_event_and_its_tail_are_read_alike_from_any_cut_of_its_appends(pg_own_url: str) -> None:
    """What `status` and `move` read below a snapshot (the first event, then those from `since` on) is the same
    events as the whole record gives, wherever `since` falls: inside the first append, at an append's start, past
    the head."""
    with open_store(pg_own_url) as store:
        store.create("cut", [{"n": i} for i in range(30)])
        store.append("cut", 30, [{"n": 30}, {"n": 31}])
        store.append("cut", 32, [{"n": 32}])
        whole = store._backend.rows(game_id("cut"), None)
        assert [v for v, _, _ in whole] == list(range(1, 34))
        for since in range(1, 36):
            assert store._backend.rows(game_id("cut"), None, since) == [r for r in whole if r[0] == 1 or r[0] >= since]
            assert store._backend.rows(game_id("cut"), 31, since) == [r for r in whole
                                                              if (r[0] == 1 or r[0] >= since) and r[0] <= 31]


def test_a_game_that_an_earlier_main_wrote_as_one_row_of_more_events_than_a_row_now_holds_reads_and_plays_on(
        pg_own_url: str) -> None:
    """Before ROW_EVENTS, a game imported whole was one row however long: in a store of that layout, such a row is
    cut into rows of at most ROW_EVENTS at the migration (a position is found within ROW_EVENTS of its row), and the
    game reads as it did, whole and from any cut below a snapshot, and takes new appends after it."""
    longest = postgres_layout.ROW_EVENTS
    facts = [{"n": i} for i in range(2 * longest + 40)]
    with open_store(pg_own_url) as store:
        store.create("long", facts)
        rows_before = store._backend.rows(game_id("long"), None)
    with pg_rows(pg_own_url) as conn:
        rows = conn.execute("SELECT notification_id, originator_id, originator_version, topic, state "
                            "FROM whispers_events ORDER BY notification_id").fetchall()
    appends_layout(pg_own_url, rows, len(rows))
    with open_store(pg_own_url) as store:
        assert store.facts("long") == facts
        whole = store._backend.rows(game_id("long"), None)
        assert whole == rows_before
        for since in (1, 2, longest, len(facts) - 1, len(facts), len(facts) + 1):
            assert store._backend.rows(game_id("long"), None, since) == [r for r in whole if r[0] == 1 or r[0] >= since]
        assert [store.fingerprint(p) is not None for p in (1, longest + 1, len(facts), len(facts) + 1)] == [
            True, True, True, False]
        store.append("long", len(facts), [{"n": "after"}])
        assert store.facts("long") == [*facts, {"n": "after"}] and store.head() == len(facts) + 1
    schema = pg_own_url.split("schema=")[1]
    with psycopg.connect(pg_own_url.split("?")[0], autocommit=True) as conn:
        assert conn.execute(f"SELECT count FROM {schema}.whispers_log ORDER BY position").fetchall() == [
            (longest,), (longest,), (40,), (1,)]


@pytest.fixture(scope="module")
def long_log() -> Iterator[tuple[str, list[tuple]]]:
    """A store migrated from the appends' layout (a gap in its positions), then a game of 2 * ROW_EVENTS + 40 events
    created whole and 300 appends of one after it: (its URL, its events as eventsourcing's rows)."""
    from tests.conftest import _pg_schema

    for url in _pg_schema():
        appends_layout(url, old_rows(), postgres_layout.ROW_EVENTS)
        with open_store(url) as store:
            store.create("long", [{"n": i} for i in range(2 * postgres_layout.ROW_EVENTS + 40)])
            for version in range(2 * postgres_layout.ROW_EVENTS + 40, 2 * postgres_layout.ROW_EVENTS + 340):
                store.append("long", version, [{"n": version}])
        with pg_rows(url) as conn:
            log = conn.execute("SELECT notification_id, originator_id, originator_version, topic, state "
                               "FROM whispers_events ORDER BY notification_id").fetchall()
        yield url, log


@settings(max_examples=sized(50, 150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(start=st.integers(-3, 1400), limit=st.integers(1, 1300), stop=st.one_of(st.none(), st.integers(0, 1400)),
       inclusive=st.booleans(), topics=st.sampled_from([(), ("whispers:GameRecord.Recorded",)]))
def test_the_log_read_in_order_is_every_event_from_where_it_is_asked_whatever_the_rows_and_gaps(
        long_log: tuple[str, list[tuple]], start: int, limit: int, stop: int | None, inclusive: bool,
        topics: tuple[str, ...]) -> None:
    """Fuzzed: eventsourcing's notifications (read by windows of positions that the BRIN index finds, from the row
    holding the first wanted) are exactly the events at the positions asked for, in order, across a gap an earlier
    layout left, rows of ROW_EVENTS events and appends of one. (The store is the module's, read only.)"""
    from whispers.ledger.io.postgres_reads import WINDOW

    url, log = long_log
    assert log[-1][0] > WINDOW + postgres_layout.ROW_EVENTS
    low = max(1, start if inclusive else start + 1)
    expected = [row for row in log if row[0] >= low and (stop is None or row[0] <= stop)
                and (not topics or row[3] in topics)][:limit]
    with open_store(url) as store:
        found = store._events.recorder.select_notifications(start, limit, stop, topics, inclusive_of_start=inclusive)
    assert [(n.id, n.originator_id, n.originator_version, n.topic, n.state) for n in found] == expected


def test_every_position_of_the_log_is_found_alone_wherever_its_row_starts(long_log: tuple[str, list[tuple]]) -> None:
    """Each event read alone (as a read model's fingerprint reads it), the last of a full row included: the row that
    holds a position is looked for as far back as a row reaches, and no further is needed."""
    url, log = long_log
    with open_store(url) as store:
        recorder = store._events.recorder
        for row in log:
            found = recorder.select_notifications(row[0], 1, stop=row[0])
            assert [(n.id, n.originator_id, n.originator_version, n.topic, n.state) for n in found] == [row]
        assert recorder.select_notifications(log[-1][0] + 1, 5) == []


@pytest.fixture(scope="module")
def fuzzed_url() -> Iterator[str]:
    """A schema of the module's own, laid anew by each example."""
    from tests.conftest import _pg_schema

    yield from _pg_schema()


TOPIC_TEXT = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)), min_size=1,
                     max_size=12)  # text PostgreSQL holds: no NUL, and UTF-8 (no lone surrogate)
EVENTS_OF_A_STREAM = st.lists(st.tuples(TOPIC_TEXT, st.binary(max_size=12)), min_size=1, max_size=6)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(streams=st.lists(st.tuples(st.uuids(), EVENTS_OF_A_STREAM), min_size=1, max_size=4, unique_by=lambda s: s[0]),
       order=st.randoms(use_true_random=False), gaps=st.lists(st.integers(0, 3), max_size=30),
       longest=st.integers(1, 5))
def test_whatever_the_appends_layout_held_is_moved_event_by_event_with_its_topic_and_bytes(
        fuzzed_url: str, streams: list, order: Any, gaps: list[int], longest: int) -> None:
    """Fuzzed: any topic text (quotes, SQL, any script) and any state bytes of a store in the appends' layout, its
    streams interleaved and its positions with gaps, are moved whole by the migration: each event at its position,
    with its stream, version, topic and bytes, as data (never a statement), and the head at the last position."""
    pending = [[(stream, version, topic, state) for version, (topic, state) in enumerate(events, start=1)]
               for stream, events in streams]
    rows, position = [], 0
    while pending:
        events = order.choice(pending)
        position += 1 + (gaps[len(rows)] if len(rows) < len(gaps) else 0)
        rows.append((position, *events.pop(0)))
        if not events:
            pending.remove(events)
    appends_layout(fuzzed_url, rows, longest)
    with open_store(fuzzed_url) as store:
        assert store.head() == position
    with pg_rows(fuzzed_url) as conn:
        moved = conn.execute("SELECT notification_id, originator_id, originator_version, topic, state "
                             "FROM whispers_events ORDER BY notification_id").fetchall()
    assert moved == rows
