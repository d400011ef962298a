"""whispers benchmarks: CPU medians over repeated runs, each beside a raw baseline measured in the same run.

Every figure is CPU time (of this process, and of the commands it runs), as the issue measures: on a machine shared
with other work, wall time measures the other work. On PostgreSQL the server's own CPU is not counted, on either
side of a ratio. The catalog's cold rebuild also prints its wall time (on stderr).

    python benchmarks/bench.py [--games 1000] [--runs 15] [--postgres URL | --no-postgres]

On SQLite (a temporary file) and on PostgreSQL (a fresh schema in the local `test` database, when reachable):
- append one move in process, beside a bare eventsourcing aggregate appending one event;
- replay a complete 4-player game from the store, beside reading the same rows, expanding them (each is stored
  deflated with a preset dictionary, ledger/io/transcoder.py) and msgpack-decoding them;
- rebuild the catalog (every projection's summary) over N games (the median of three), and the incremental update
  after one more;
- long input: the longest notation line allowed read beside shlex.split of it, and record files with 1,000 and
  8,000 notes imported (linear: the second at most about 8x the first, not 64x);
- `whispers import FOLDER` of 1,000 record files (--import-files) in one process (issue 12: <= 60 s on SQLite);
- the director's web page of every game (its first page, application/director.py), beside the listing it reads
  (`games` in process), the catalog caught up;
- `whispers status`, `games --all` (every game: `games` lists the latest 50) and `stats --all` as commands,
  beside F1 (`python -c "import click, eventsourcing.application, eventsourcing.sqlite, msgpack"`, with psycopg
  on PostgreSQL), and F1 with rich's console and table imported too (not a target: what status's tables cost
  before whispers runs a line); status and its floors are run in turn, a run of each after a run of each, as are
  the two statuses of the long game below;
- a game of about 5,000 events (a move and its take-back, again and again) beside a 214-event game standing at the
  same point of play: `whispers status` of each, and one move each loaded as `whispers move` loads it (from its
  snapshot, ledger/io/snapshots.py), decided and appended in process.
It ends with issue 12's targets, each met or MISSED by how much: `games` <= 0.5 s and <= 3x `status`; `stats --all`
cold over 10,000 games <= 10 s (judged only when the store holds 10,000: --games 10000; never scaled from fewer),
incremental <= 0.3 s; `status` <= 1.3x F1; a
214-event game loaded <= 3x its raw floor (the whole record replayed; the load at its head is printed beside it);
a 5,000-event game's `status` and move <= 1.2x a 214-event game's; <= 16 KB stored per 4-player game; 1,000
record files imported <= 60 s.
"""

import argparse
import os
import random
import resource
import secrets
import shlex
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from uuid import uuid4

import msgpack
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from whispers.ledger.core import randomgame
from whispers.ledger.core.names import SOCIETIES
from whispers.ledger.core.notation import MAX_LINE, parse_line
from whispers.ledger.io import postgres_layout, sqlite_layout
from whispers.ledger.io.board_files import load_board
from whispers.ledger.io.game import head, import_lines, import_record, load, record
from whispers.ledger.io.recordfile import dumps
from whispers.ledger.io.ruleset_files import load_ruleset
from whispers.ledger.io.store import game_id, open_store
from whispers.ledger.io.transcoder import unpacked
from whispers.projections.catalog import PROJECTION, Catalog

RULESETS = ("official", "advanced", "revised")
MOVED_GAMES = 30
"""Games recorded move by move for their storage figure: a PostgreSQL relation grows by whole 8 KB pages, so 10 games
moved the figure by 0.8 KB a page a relation (15.2 to 17.6 KB for the same layout), 30 by a third of that."""
COLD_RUNS = 3
"""The catalog's cold rebuild is timed this many times (its median is the figure): one run of 10,000 games varied
by 5% from one run of the benchmark to the next, across the target."""


class Counter(Aggregate):
    """The bare baseline: an eventsourcing aggregate with one event and no domain logic."""

    @event("Incremented")
    def increment(self) -> None:
        self.count = getattr(self, "count", 0) + 1


def cpu_seconds() -> float:
    """CPU time of this process and of the commands it ran and waited for (the issue measures CPU medians: on a
    machine shared with other work, wall time measures the other work)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def median_ms(func: Callable[[], object], runs: int) -> float:
    return interleaved_ms({"": func}, runs)[""]


def interleaved_ms(funcs: dict[str, Callable[[], object]], runs: int) -> dict[str, float]:
    """The median of each, run in turn (a, b, c, a, b, c...) after one warm-up each: a figure and its floor are
    measured in the same stretch of the machine's time, so a slower minute cannot fall on one of them alone."""
    for func in funcs.values():
        func()
    times: dict[str, list[float]] = {name: [] for name in funcs}
    for _ in range(runs):
        for name, func in funcs.items():
            start = cpu_seconds()
            func()
            times[name].append(cpu_seconds() - start)
    return {name: statistics.median(found) * 1000 for name, found in times.items()}


def game_facts(seed: int) -> list[dict]:
    facts = []
    for _, produced, _ in randomgame.play(SOCIETIES[: 2 + seed % 3], load_ruleset(RULESETS[seed % 3]),
                                         load_board("standin"), seed, name=f"b{seed}"):
        facts += [e.to_fact() for e in produced]
    return facts


def bare_append(url: str, runs: int) -> float:
    """A bare eventsourcing aggregate on the same kind of store, appending one event per save."""
    with open_store(url) as store:  # the same persistence settings as whispers uses
        env = {**store._events.env, "CREATE_TABLE": "y"}  # its own table, made at its first opening
    app = Application(env=env)
    counter = Counter()
    app.save(counter)

    def once() -> None:
        counter.increment()
        app.save(counter)

    try:
        return median_ms(once, runs)
    finally:
        app.close()


def append_move(url: str, runs: int) -> float:
    """One legal move decided and appended in process (a fresh move each run)."""
    with open_store(url) as store:
        text = resources.files("whispers.fixtures").joinpath("games", "official-4p.txt").read_text(encoding="utf-8")
        name = f"append-{uuid4().hex[:8]}"
        game = import_lines(store, name, text.splitlines()[:40])
        rng = random.Random(1)
        state = {"game": game}

        def once() -> None:
            current = state["game"]
            if current.state.over:
                return
            state["game"], _ = record(store, current, randomgame.random_command(current.state, rng, cards=False))

        return median_ms(once, runs)


def replay(url: str, runs: int) -> tuple[float, float, float]:
    """(whispers: load and fold a complete 4-player game, raw: the same rows read, expanded and msgpack-decoded, and
    the game loaded at its head as `status`, `move` and `undo` load it: from its snapshot and the events after it)."""
    with open_store(url) as store:
        text = resources.files("whispers.fixtures").joinpath("games", "official-4p.txt").read_text(encoding="utf-8")
        name = f"replay-{uuid4().hex[:8]}"
        import_lines(store, name, text.splitlines())
        recorder = store._events.recorder
        originator = game_id(name)

        path = None if url.startswith("postgresql") else url

        def raw() -> None:
            if path is None:  # the appends' rows on the store's own pooled connection, each expanded, then decoded
                from psycopg.rows import tuple_row

                with (recorder.datastore.get_connection() as conn,
                      conn.cursor(row_factory=tuple_row, binary=True) as cursor):
                    schema = recorder.datastore.schema
                    cursor.execute(f"SELECT events FROM {schema}.{postgres_layout.LOG} WHERE stream = (SELECT id "
                                   f"FROM {schema}.{postgres_layout.STREAMS} WHERE stream = %s) ORDER BY version",
                                   [originator])
                    for (packed,) in cursor.fetchall():
                        _, states = msgpack.unpackb(packed)
                        for state in states:
                            msgpack.unpackb(unpacked(state), raw=False)
                return
            db = sqlite3.connect(path)  # the floor the issue names: connect, select, decode (the rows expanded first)
            for (state,) in db.execute("SELECT state FROM whispers_events WHERE stream = ? ORDER BY version",
                                       (sqlite_layout.stream_of(originator),)):
                msgpack.unpackb(unpacked(state), raw=False)
            db.close()

        def ours() -> None:
            assert load(store, name).state.over

        def at_head() -> None:
            assert head(store, name).state.over

        at_head()  # its snapshot kept, as the first `status` or move keeps it
        return median_ms(ours, runs), median_ms(raw, runs), median_ms(at_head, runs)


def long_and_short(url: str, runs: int, target: int = 5000) -> dict[str, float]:
    """A game of about `target` events beside one of 214 standing at the same point of play: the long one reaches
    it, then grows by a move and its take-back, again and again. Their `whispers status` (as commands) and one move
    each (loaded, decided and appended in process, then taken back unmeasured), in ms of CPU."""
    from whispers.ledger.core import commands as c
    from whispers.ledger.core import rules

    players = SOCIETIES[:4]
    prefix: list = []
    for _, produced, state in randomgame.play(players, load_ruleset("official"), load_board("standin"), 7,
                                              name="short", cards=False):
        prefix += produced
        if len(prefix) >= 214 and not state.over:
            break
    rng = random.Random(7)
    padding: list = []
    while len(prefix) + len(padding) < target:
        produced = rules.decide(state, randomgame.random_command(state, rng, cards=False))
        after = state
        for happened in produced:
            after = rules.evolve(after, happened)
        undo = rules.decide(after, c.Undo("bench"))
        for happened in undo:
            after = rules.evolve(after, happened)
        state = after  # the same point of play, further on in the record
        padding += [*produced, *undo]
    tag = uuid4().hex[:6]
    short, long = f"short-{tag}", f"long-{tag}"
    with open_store(url) as store:
        store.create(short, [{**prefix[0].to_fact(), "name": short}, *(e.to_fact() for e in prefix[1:])])
        store.create(long, [{**prefix[0].to_fact(), "name": long}, *(e.to_fact() for e in [*prefix[1:], *padding])])
        events = {short: len(prefix), long: store.version(long)}

        def move(name: str) -> Callable[[], object]:
            moves = random.Random(1)

            def once() -> None:
                game = head(store, name)  # as `whispers move` loads it: from its snapshot
                after, _ = record(store, game, randomgame.random_command(game.state, moves, cards=False))
                paused = cpu_seconds()
                record(store, after, c.Undo("bench"))
                nonlocal_pause[0] += cpu_seconds() - paused
            return once

        nonlocal_pause = [0.0]
        result: dict[str, float] = {}
        for name in (short, long):
            times = []
            once = move(name)
            once()
            for _ in range(runs):
                nonlocal_pause[0] = 0.0
                start = cpu_seconds()
                once()
                times.append(cpu_seconds() - start - nonlocal_pause[0])
            result[f"move {'long' if name == long else 'short'}"] = statistics.median(times) * 1000
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "WHISPERS_STORE": url}
    whispers = str(Path(sys.executable).with_name("whispers"))
    statuses = interleaved_ms({f"status {'long' if name == long else 'short'}":
                               (lambda name=name: subprocess.run([whispers, "status", name], env=env,
                                                                 capture_output=True, check=True))
                               for name in (short, long)}, runs)
    result.update(statuses)
    result["events long"], result["events short"] = events[long], events[short]
    return result


def fill(url: str, facts_of: list[list[dict]]) -> str:
    """Stores the given games under a fresh prefix; returns the prefix."""
    prefix = uuid4().hex[:6]
    with open_store(url) as store:
        for seed, facts in enumerate(facts_of):
            facts = [{**facts[0], "name": f"{prefix}-{seed}"}, *facts[1:]]
            store.create(f"{prefix}-{seed}", facts)
    return prefix


def fill_by_moves(url: str, seeds: list[int]) -> int:
    """Stores the given seeds' games as a table records them, an append per command (a move and its
    consequences); returns how many."""
    prefix = uuid4().hex[:6]
    with open_store(url) as store:
        for seed in seeds:
            name = f"{prefix}-moves-{seed}"
            version = 0
            for _, produced, _ in randomgame.play(SOCIETIES[: 2 + seed % 3], load_ruleset(RULESETS[seed % 3]),
                                                  load_board("standin"), seed, name=name):
                facts = [e.to_fact() for e in produced]
                if not facts:
                    continue
                version = store.create(name, facts) if not version else store.append(name, version, facts)
    return len(seeds)


def catalog(url: str, extra: list[dict]) -> tuple[float, float, int, int]:
    """(seconds to build the catalog cold over the store's games, to update it after one more, games the cold
    rebuild read, games the update read)."""
    with open_store(url) as store:
        view = Catalog(store)
        rebuilds = []
        for _ in range(COLD_RUNS):
            store.save_tracked(PROJECTION, 0, None, 0, [])  # cold: as if never read (layout 0 is rebuilt)
            start, wall = cpu_seconds(), time.perf_counter()
            cold = view.refresh().games
            rebuilds.append(cpu_seconds() - start)
            print(f"(catalog rebuild: {rebuilds[-1]:.1f} s CPU, {time.perf_counter() - wall:.1f} s wall)",
                  file=sys.stderr)
        rebuild = statistics.median(rebuilds)
        name = f"extra-{uuid4().hex[:8]}"
        store.create(name, [{**extra[0], "name": name}, *extra[1:]])
        start = cpu_seconds()
        refreshed = view.refresh()
        update = cpu_seconds() - start
        return rebuild, update, cold, refreshed.games


def stored_bytes(url: str) -> int:
    """Bytes the store takes: the SQLite file's pages in use, or the PostgreSQL layout's tables with their indexes
    (in the database and schema the URL names, on the store's own connection)."""
    if not url.startswith("postgresql"):
        db = sqlite3.connect(url)
        try:
            (used,) = db.execute("SELECT (SELECT page_count FROM pragma_page_count()) - "
                                 "(SELECT freelist_count FROM pragma_freelist_count())").fetchone()
            (page,) = db.execute("PRAGMA page_size").fetchone()
            return int(used) * int(page)
        finally:
            db.close()
    with open_store(url) as store:
        datastore = store._events.recorder.datastore
        schema = datastore.schema or "public"
        tables = [f"{schema}.{table}" for table in (postgres_layout.LOG, postgres_layout.STREAMS,
                                                       postgres_layout.TOPICS, postgres_layout.HEAD)]
        from psycopg.rows import tuple_row

        with datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as cursor:
            row = cursor.execute("SELECT sum(coalesce(pg_total_relation_size(to_regclass(t)), 0)) "
                                 "FROM unnest(%s::text[]) AS t", [tables]).fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def cli_medians(url: str, runs: int, game: str, postgres: bool) -> dict[str, float]:
    """`status`, `games` and `stats --all` (caught up) as commands, beside F1 (with the PostgreSQL driver)."""
    python = sys.executable
    whispers = str(Path(python).with_name("whispers"))
    # As installed for a user, with bytecode cached (the warm-up run writes it): a session that sets
    # PYTHONDONTWRITEBYTECODE would otherwise measure compiling whispers at every command.
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "WHISPERS_STORE": url}
    floor = "import click, eventsourcing.application, eventsourcing.sqlite, msgpack" + (", psycopg" if postgres
                                                                                         else "")

    def run(argv: list[str]) -> Callable[[], object]:
        return lambda: subprocess.run(argv, env=env, capture_output=True, check=True)

    return {**interleaved_ms({"F1": run([python, "-c", floor]),
                              # not a target: F1 with the library that draws status's tables (click's and rich's
                              # conventions are the project's), to show how much of status's ratio is rich's import
                              "F1 + rich": run([python, "-c", floor + ", rich.console, rich.table"]),
                              "status": run([whispers, "status", game])}, runs),
            "games": median_ms(run([whispers, "games", "--all", "--json"]), max(3, runs // 3)),
            "stats --all": median_ms(run([whispers, "stats", "--all", "--json"]), max(3, runs // 3))}


def director_screen(url: str, runs: int) -> tuple[float, float]:
    """(the director's screen, its first page of games; the listing it is read from, as `games` reads it), in
    process, the catalog caught up."""
    from whispers.application.director import hall
    from whispers.application.reading import games

    with open_store(url) as store:
        games(store)
        return median_ms(lambda: hall(store), runs), median_ms(lambda: games(store), runs)


def long_input(url: str, runs: int) -> list[tuple[str, str, str, str, str]]:
    """The longest notation line read, and record files with many notes imported (issue 9: both were quadratic)."""
    reason = ('a \\ "quoted" word # ' * MAX_LINE)[: MAX_LINE - len("ruling ''")]
    line = f"ruling '{reason}'"  # as long as a line may be
    ours = median_ms(lambda: parse_line(line), runs)
    raw = median_ms(lambda: shlex.split(line, comments=True), runs)
    rows = [("", f"read a {len(line)}-character line", f"{ours:.2f} ms", f"{raw:.2f} ms (shlex.split)",
             f"{ours / raw:.2f}x")]
    facts = game_facts(1)
    seconds = {}
    with open_store(url) as store:
        for count in (1000, 8000):
            notes = [{"at": 1 + i % len(facts), "text": f"note {i} " + "n" * 100, "author": None, "tag": None,
                      "time": "2026-01-01T00:00:00+00:00"}
                     for i in range(count)]
            data = dumps("notes", facts, notes)
            start = time.perf_counter()
            import_record(store, data, "bench", f"notes-{count}-{uuid4().hex[:8]}")
            seconds[count] = time.perf_counter() - start
            rows.append(("", f"import a record file, {count} notes", f"{seconds[count]:.2f} s",
                         f"{len(data) / 1e6:.1f} MB", ""))
    rows[-1] = (*rows[-1][:4], f"{seconds[8000] / seconds[1000]:.1f}x the 1,000")
    return rows


def batch_import(url: str, facts_of: list[list[dict]], count: int, folder: Path) -> tuple[float, int]:
    """`whispers import FOLDER` of `count` record files (the random games, renamed), as a user runs it:
    (seconds, games the store gained)."""
    prefix = uuid4().hex[:6]
    folder.mkdir()
    for i in range(count):
        facts = facts_of[i % len(facts_of)]
        name = f"imp{prefix}-{i}"
        (folder / f"{name}.whispers").write_bytes(dumps(name, [{**facts[0], "name": name}, *facts[1:]], []))
    with open_store(url) as store:
        before = len(store.names())
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "WHISPERS_STORE": url}
    whispers = str(Path(sys.executable).with_name("whispers"))
    start, wall = cpu_seconds(), time.perf_counter()
    subprocess.run([whispers, "import", str(folder), "--json"], env=env, capture_output=True, check=True)
    seconds = cpu_seconds() - start
    print(f"(import of {count:,} files: {seconds:.1f} s CPU, {time.perf_counter() - wall:.1f} s wall)", file=sys.stderr)
    with open_store(url) as store:
        return seconds, len(store.names()) - before


def postgres_url(given: str | None) -> tuple[str | None, Callable[[], None]]:
    if given:
        return given, lambda: None
    try:
        import psycopg

        conn = psycopg.connect(host="127.0.0.1", port=5432, dbname="test", user="postgres", connect_timeout=3,
                               autocommit=True)
    except Exception as exc:  # no server: the PostgreSQL rows are left out, and the output says so
        print(f"(PostgreSQL not reachable, its rows are left out: {str(exc).splitlines()[0]})")
        return None, lambda: None
    schema = f"whispers_bench_{secrets.token_hex(4)}"
    conn.execute(f"CREATE SCHEMA {schema}")

    def drop() -> None:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")
        conn.close()

    return f"postgresql://postgres@127.0.0.1:5432/test?schema={schema}", drop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400,
                        help="random games per store (default 400; --games 10000 for the issue's full run)")
    parser.add_argument("--runs", type=int, default=15, help="repetitions per median (default 15)")
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL store URL (default: a fresh local schema)")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    parser.add_argument("--no-sqlite", action="store_true", help="PostgreSQL only")
    parser.add_argument("--distinct", type=int, metavar="N",
                        help="play only N distinct random games and store each again under names of its own until "
                             "the store holds --games of them (every game is still stored, read and counted: on a "
                             "shared machine, playing 10,000 games is most of a full run's time)")
    parser.add_argument("--import-files", type=int, default=1000,
                        help="record files for `whispers import FOLDER` (default 1000, the issue's target)")
    args = parser.parse_args()

    rows: list[tuple[str, str, str, str, str]] = []
    verdicts: list[str] = []

    def target(what: str, value: float, limit: float, unit: str) -> str:
        if not value > 0:  # an empty figure measured nothing (a store read in the wrong place): never "met"
            raise SystemExit(f"bench.py: {what} measured {value}{unit}: an empty figure, so nothing was measured")
        met = value <= limit
        verdicts.append(f"{'met   ' if met else 'MISSED'} {what}: {value:.2f}{unit} against <= {limit:g}{unit}"
                        + ("" if met else f" ({(value / limit - 1) * 100:.0f}% over)"))
        return "met" if met else "MISSED"

    start_all = time.perf_counter()
    played = [game_facts(seed) for seed in range(min(args.games, args.distinct or args.games))]
    facts_of = [played[seed % len(played)] for seed in range(args.games)]  # `fill` names each game afresh
    extra = game_facts(args.games)
    four = [f for f in facts_of if len(f[0]["players"]) == 4] or [extra]
    with tempfile.TemporaryDirectory() as tmp:
        backends = [] if args.no_sqlite else [("sqlite", str(Path(tmp) / "bench.sqlite"))]
        cleanup = lambda: None  # noqa: E731
        if not args.no_postgres:
            url, cleanup = postgres_url(args.postgres)
            if url:
                backends.append(("postgres", url))
        try:
            for backend, url in backends:
                empty = stored_bytes(url)
                fill(url, four[:50])
                per_game = (stored_bytes(url) - empty) / len(four[:50])
                rows.append((backend, "stored per 4-player game", f"{per_game / 1024:.1f} KB", "imported whole", ""))
                target(f"{backend}: stored per 4-player game (imported whole)", per_game / 1024, 16, " KB")
                empty = stored_bytes(url)
                moved = fill_by_moves(url, [seed for seed in range(args.games) if len(facts_of[seed][0]["players"]) == 4
                                            ][:MOVED_GAMES])
                per_game = (stored_bytes(url) - empty) / moved
                rows.append((backend, "stored per 4-player game", f"{per_game / 1024:.1f} KB",
                             f"recorded move by move ({moved} games)", ""))
                target(f"{backend}: stored per 4-player game (recorded move by move)", per_game / 1024, 16, " KB")
                prefix = fill(url, facts_of)
                rebuild, update, cold, read = catalog(url, extra)
                rows.append((backend, f"stats --all cold, {cold:,} games", f"{rebuild:.2f} s", "", ""))
                if cold >= 10_000:  # the target is for 10,000 games, measured, never scaled from fewer
                    target(f"{backend}: stats --all cold over {cold:,} games", rebuild, 10, " s")
                else:
                    verdicts.append(f"not judged {backend}: stats --all cold over 10,000 games (this run read "
                                    f"{cold:,}: --games 10000)")
                rows.append((backend, "stats --all, after one more game", f"{update * 1000:.1f} ms",
                             f"read {read} game", ""))
                target(f"{backend}: stats --all incremental after one more game", update, 0.3, " s")
                ours, raw, at_head = replay(url, args.runs)
                rows.append((backend, "load a 214-event game", f"{ours:.2f} ms", f"{raw:.2f} ms (rows + msgpack)",
                             f"{ours / raw:.2f}x"))
                rows.append((backend, "  the same at its head (snapshot)", f"{at_head:.2f} ms",
                             f"{raw:.2f} ms (rows + msgpack)", f"{at_head / raw:.2f}x"))
                target(f"{backend}: load a 214-event game / its raw floor", ours / raw, 3, "x")
                times = cli_medians(url, args.runs, f"{prefix}-0", backend == "postgres")
                f1 = times["F1"]
                for label, value in times.items():
                    rows.append((backend, f"whispers {label}" if not label.startswith("F1") else f"{label} (imports)",
                                 f"{value:.1f} ms", f"{f1:.1f} ms (F1)", f"{value / f1:.2f}x"))
                target(f"{backend}: status / F1", times["status"] / f1, 1.3, "x")
                # not a target: status beside the floor that includes the library drawing its tables
                rich_floor = times["F1 + rich"]
                rows.append((backend, "  status beside F1 + rich", f"{times['status']:.1f} ms",
                             f"{rich_floor:.1f} ms (F1 + rich)", f"{times['status'] / rich_floor:.2f}x"))
                screen, listing = director_screen(url, max(3, args.runs // 3))
                rows.append((backend, f"director's page, {cold + 1:,} games", f"{screen:.1f} ms",
                             f"{listing:.1f} ms (the listing)", f"{screen / listing:.2f}x"))
                target(f"{backend}: games over {cold + 1:,} games", times["games"] / 1000, 0.5, " s")
                target(f"{backend}: games / status", times["games"] / times["status"], 3, "x")
                grown = long_and_short(url, args.runs)
                for what in ("status", "move"):
                    long, short = grown[f"{what} long"], grown[f"{what} short"]
                    rows.append((backend, f"{what}, a {grown['events long']:,}-event game", f"{long:.1f} ms",
                                 f"{short:.1f} ms ({grown['events short']} events)", f"{long / short:.2f}x"))
                    target(f"{backend}: {what} of a {grown['events long']:,}-event game / a "
                           f"{grown['events short']}-event game's", long / short, 1.2, "x")
                ours, bare = append_move(url, args.runs), bare_append(url, args.runs)
                rows.append((backend, "append one move", f"{ours:.2f} ms", f"{bare:.2f} ms (bare aggregate)",
                             f"{ours / bare:.1f}x"))
                rows += [(backend, *row[1:]) for row in long_input(url, args.runs)]
                seconds, landed = batch_import(url, facts_of, args.import_files, Path(tmp) / f"import-{backend}")
                if landed != args.import_files:
                    raise SystemExit(f"bench.py: {backend}: {landed} of {args.import_files:,} record files landed")
                rows.append((backend, f"import {args.import_files:,} record files (one process)", f"{seconds:.1f} s",
                             f"{landed} landed", ""))
                if backend == "sqlite" and args.import_files >= 1000:
                    target(f"sqlite: importing {args.import_files:,} record files", seconds, 60, " s")
                elif backend == "sqlite":
                    verdicts.append(f"not judged sqlite: importing 1,000 record files (this run imported "
                                    f"{args.import_files:,})")
        finally:
            cleanup()
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    header = ("store", "what", "median", "baseline", "ratio")
    widths = [max(w, len(h)) for w, h in zip(widths, header, strict=True)]
    print(f"whispers benchmarks: CPU medians of {args.runs} runs (Python {sys.version.split()[0]}), "
          f"{args.games:,} random games per store ({len(played):,} distinct) and {50 + MOVED_GAMES + 1} more, "
          f"{time.perf_counter() - start_all:.0f} s in all")
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))
    print("targets (issue 12):")
    for line in verdicts:
        print("  " + line)


if __name__ == "__main__":
    main()
