"""whispers benchmarks: medians over repeated runs, each beside a raw baseline measured in the same run.

    python benchmarks/bench.py [--games 1000] [--runs 15] [--postgres URL | --no-postgres]

On SQLite (a temporary file) and on PostgreSQL (a fresh schema in the local `test` database, when reachable):
- append one move in process, beside a bare eventsourcing aggregate appending one event;
- replay a complete 4-player game from the store, beside reading the same rows and msgpack-decoding them;
- rebuild the catalog (every projection's summary) over N games, and the incremental update after one more;
- long input: the longest notation line allowed read beside shlex.split of it, and record files with 1,000 and
  8,000 notes imported (linear: the second at most about 8x the first, not 64x);
- CLI start-up of `whispers --help` and `whispers status GAME`, beside `python -c "import click"` and
  `python -c "import click, eventsourcing, msgpack"`.
Targets (issue 6): replay within 5x its baseline and under 15 ms; incremental update under 1 s;
`whispers status` under 1.5x the start-up of `python -c "import click, eventsourcing, msgpack"`.
"""

import argparse
import os
import random
import secrets
import shlex
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

from whispers.ledger import randomgame
from whispers.ledger.board_files import load_board
from whispers.ledger.game import import_lines, import_record, load, record
from whispers.ledger.names import SOCIETIES
from whispers.ledger.notation import MAX_LINE, parse_line
from whispers.ledger.recordfile import dumps
from whispers.ledger.ruleset_files import load_ruleset
from whispers.ledger.store import game_id, open_store
from whispers.projections.catalog import Catalog

RULESETS = ("official", "advanced", "revised")


class Counter(Aggregate):
    """The bare baseline: an eventsourcing aggregate with one event and no domain logic."""

    @event("Incremented")
    def increment(self) -> None:
        self.count = getattr(self, "count", 0) + 1


def median_ms(func: Callable[[], object], runs: int) -> float:
    func()  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def game_facts(seed: int) -> list[dict]:
    facts = []
    for _, produced, _ in randomgame.play(SOCIETIES[: 2 + seed % 3], load_ruleset(RULESETS[seed % 3]),
                                         load_board("standin"), seed, name=f"b{seed}"):
        facts += [e.to_fact() for e in produced]
    return facts


def bare_append(url: str, runs: int) -> float:
    """A bare eventsourcing aggregate on the same kind of store, appending one event per save."""
    with open_store(url) as store:  # the same persistence settings as whispers uses
        env = dict(store._events.env)
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


def replay(url: str, runs: int) -> tuple[float, float]:
    """(whispers: load and fold a complete 4-player game, raw: the same rows read and msgpack-decoded)."""
    with open_store(url) as store:
        text = resources.files("whispers.fixtures").joinpath("games", "official-4p.txt").read_text(encoding="utf-8")
        name = f"replay-{uuid4().hex[:8]}"
        import_lines(store, name, text.splitlines())
        recorder = store._events.recorder
        originator = game_id(name)

        def raw() -> None:
            for stored in recorder.select_events(originator):
                msgpack.unpackb(stored.state, raw=False)

        def ours() -> None:
            assert load(store, name).state.over

        return median_ms(ours, runs), median_ms(raw, runs)


def catalog(url: str, games: int) -> tuple[float, float, int]:
    """(seconds to rebuild the catalog over `games` games, seconds to update it after one more, games read)."""
    with open_store(url) as store:
        prefix = uuid4().hex[:6]
        for seed in range(games):
            facts = game_facts(seed)
            facts[0]["name"] = f"{prefix}-{seed}"
            store.create(f"{prefix}-{seed}", facts)
        view = Catalog(store)
        start = time.perf_counter()
        view.refresh()
        rebuild = time.perf_counter() - start
        facts = game_facts(games)
        facts[0]["name"] = f"{prefix}-{games}"
        store.create(f"{prefix}-{games}", facts)
        start = time.perf_counter()
        refreshed = view.refresh()
        update = time.perf_counter() - start
        return rebuild, update, refreshed.games


def startup(url: str, runs: int) -> dict[str, float]:
    python = sys.executable
    whispers = str(Path(python).with_name("whispers"))
    env = {**os.environ, "WHISPERS_STORE": url}
    with open_store(url) as store:
        text = resources.files("whispers.fixtures").joinpath("games", "official-4p.txt").read_text(encoding="utf-8")
        name = f"status-{uuid4().hex[:8]}"
        import_lines(store, name, text.splitlines())

    def run(argv: list[str]) -> Callable[[], object]:
        return lambda: subprocess.run(argv, env=env, capture_output=True, check=True)

    return {
        'python -c "import click"': median_ms(run([python, "-c", "import click"]), runs),
        'python -c "import click, eventsourcing, msgpack"': median_ms(
            run([python, "-c", "import click, eventsourcing, msgpack"]), runs),
        "whispers --help": median_ms(run([whispers, "--help"]), runs),
        "whispers status GAME": median_ms(run([whispers, "status", name]), runs),
    }


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
            notes = [{"at": 1 + i % len(facts), "text": f"note {i} " + "n" * 100, "author": None, "tag": None}
                     for i in range(count)]
            data = dumps("notes", facts, notes)
            start = time.perf_counter()
            import_record(store, data, "bench", f"notes-{count}-{uuid4().hex[:8]}")
            seconds[count] = time.perf_counter() - start
            rows.append(("", f"import a record file, {count} notes", f"{seconds[count]:.2f} s",
                         f"{len(data) / 1e6:.1f} MB", ""))
    rows[-1] = (*rows[-1][:4], f"{seconds[8000] / seconds[1000]:.1f}x the 1,000")
    return rows


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
    parser.add_argument("--games", type=int, default=1000, help="games for the catalog rebuild (default 1000)")
    parser.add_argument("--runs", type=int, default=15, help="repetitions per median (default 15)")
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL store URL (default: a fresh local schema)")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parser.parse_args()

    rows: list[tuple[str, str, str, str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        backends = [("sqlite", str(Path(tmp) / "bench.sqlite"))]
        cleanup = lambda: None  # noqa: E731
        if not args.no_postgres:
            url, cleanup = postgres_url(args.postgres)
            if url:
                backends.append(("postgres", url))
        try:
            for backend, url in backends:
                ours, bare = append_move(url, args.runs), bare_append(url, args.runs)
                rows.append((backend, "append one move", f"{ours:.2f} ms", f"{bare:.2f} ms (bare aggregate)",
                             f"{ours / bare:.1f}x"))
                ours, raw = replay(url, args.runs)
                rows.append((backend, "replay a 4-player game", f"{ours:.2f} ms", f"{raw:.2f} ms (rows + msgpack)",
                             f"{ours / raw:.1f}x"))
                rebuild, update, read = catalog(url, args.games)
                rows.append((backend, f"catalog rebuild, {args.games} games", f"{rebuild:.2f} s", "", ""))
                rows.append((backend, "catalog update, one more game", f"{update * 1000:.1f} ms",
                             f"read {read} game", ""))
                rows += [(backend, *row[1:]) for row in long_input(url, args.runs)]
            times = startup(backends[0][1], args.runs)
            base = times['python -c "import click, eventsourcing, msgpack"']
            for label, value in times.items():
                rows.append(("cli", label, f"{value:.1f} ms", "", f"{value / base:.2f}x"))
        finally:
            cleanup()
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    header = ("store", "what", "median", "baseline", "ratio")
    widths = [max(w, len(h)) for w, h in zip(widths, header, strict=True)]
    print(f"whispers benchmarks: medians of {args.runs} runs (Python {sys.version.split()[0]})")
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))
    print("targets: replay < 5x its baseline and < 15 ms; catalog update < 1 s; "
          "status < 1.5x the click+eventsourcing+msgpack import; 8,000 notes at most about 8x 1,000")


if __name__ == "__main__":
    main()
