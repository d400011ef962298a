"""A tournament at a club's scale (issue 35): its standings in a store of 10,000 games, beside the command's floor.

    .venv/bin/python benchmarks/tournament.py [--games 10000] [--tournament 100] [--runs 9] [--no-postgres]

On SQLite (a temporary file) and PostgreSQL (a fresh schema in the local `test` database, when reachable), a store
of N finished games (random legal games, bench.py's, stored under new names), of which the first T make a
tournament of 4-player tables (`rR-tT`, 4 tables a round, seats named). The catalog is caught up first (its cold
rebuild is `stats --all`'s figure in bench.py). Then, as commands, CPU medians of the process and its children,
each run in turn with its floors:
- `whispers tournament FILE --json` (the tournament's standings) and `whispers standings --games` of 4 games;
- `whispers games` (the latest 50 by default) and `whispers games --all --json` (every game);
- in process, the director's page (application/director.py): its first page and a page deep in the store (the
  page's rows alone, by the catalog's index), a tab and a search (which read every row), beside `games`' listing
  of the latest 50 as the application reads it;
- F1 (`python -c "import click, eventsourcing.application, eventsourcing.sqlite, msgpack"`, with psycopg on
  PostgreSQL) and F1 + rich (its console and table), the floor of a command that prints a rich table;
- and the tournament command's own floor: what it imports of those (click, sqlite3 or psycopg, rich's console and
  table). A read of the catalog imports neither eventsourcing nor msgpack, so F1 + rich holds about 20 ms of
  imports the command never pays: each tournament figure is shown against both floors.
It ends with the issue's target, for the JSON and for the table: the tournament's standings <= 1.3x F1 + rich, on
each backend, and the same ratio against the command's own floor beside it.
"""

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench import game_facts, interleaved_ms, postgres_url

from whispers.ledger.io.store import open_store
from whispers.projections.catalog import Catalog

DISTINCT = 40
"""Random games made (the others are copies of them under other names): making 10,000 would take minutes."""


def fill(url: str, games: int, tournament: int) -> list[tuple[str, list[str]]]:
    """Stores `games` games; returns the tournament's games (name, societies) in order."""
    made = [game_facts(seed) for seed in range(DISTINCT)]
    fours = [facts for facts in made if len(facts[0]["players"]) == 4]
    chosen = []
    with open_store(url) as store:
        for number in range(games):
            if number < tournament:
                facts = fours[number % len(fours)]
                name = f"r{number // 4 + 1}-t{number % 4 + 1}"
                chosen.append((name, list(facts[0]["players"])))
            else:
                facts = made[number % len(made)]
                name = f"club-{number}"
            store.create(name, [{**facts[0], "name": name}, *facts[1:]])
        Catalog(store).refresh()
    return chosen


def tournament_file(folder: Path, games: list[tuple[str, list[str]]]) -> Path:
    entrants = [f"Player {n}" for n in range(16)]
    lines = ['name = "Club season"']
    for number, (name, societies) in enumerate(games):
        seats = ", ".join(f'{s} = "{entrants[(number * 3 + k * 5) % 16]}"' for k, s in enumerate(societies))
        lines += ["[[game]]", f'name = "{name}"', f"round = {number // 4 + 1}", f"seats = {{ {seats} }}"]
    path = folder / "season.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def medians(url: str, file: Path, games: list[tuple[str, list[str]]], runs: int, postgres: bool) -> dict[str, float]:
    python = sys.executable
    whispers = str(Path(python).with_name("whispers"))
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "WHISPERS_STORE": url}
    floor = "import click, eventsourcing.application, eventsourcing.sqlite, msgpack" + (", psycopg" if postgres
                                                                                         else "")

    own = "import click, " + ("psycopg" if postgres else "sqlite3") + ", rich.console, rich.table"

    def run(argv: list[str]) -> Callable[[], object]:
        return lambda: subprocess.run(argv, env=env, capture_output=True, check=True)

    four = ",".join(name for name, _ in games[:4])
    return interleaved_ms({
        "F1": run([python, "-c", floor]),
        "F1 + rich": run([python, "-c", floor + ", rich.console, rich.table"]),
        "own floor": run([python, "-c", own]),
        "tournament FILE --json": run([whispers, "tournament", str(file), "--json"]),
        "tournament FILE (table)": run([whispers, "tournament", str(file)]),
        "standings --games (4)": run([whispers, "standings", "--games", four, "--json"]),
        "games (latest 50)": run([whispers, "games"]),
        "games --all --json": run([whispers, "games", "--all", "--json"]),
    }, runs)


def director_pages(url: str, runs: int) -> dict[str, float]:
    """CPU medians (ms) of the director's page of the store, in process, beside the listing it could be read as."""
    from whispers.application.director import PAGE, hall
    from whispers.application.reading import LATEST, games

    with open_store(url) as store:
        deep = max(1, store.read_model_size("listing") // PAGE // 2)
        return interleaved_ms({
            f"games, latest {LATEST} (listing)": lambda: games(store, limit=LATEST),
            "director: page 1": lambda: hall(store),
            f"director: page {deep}": lambda: hall(store, page=deep),
            "director: tab 'over'": lambda: hall(store, state="over"),
            "director: search 'r1-'": lambda: hall(store, text="r1-"),
        }, runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000, help="games in the store (default 10,000)")
    parser.add_argument("--tournament", type=int, default=100, help="of which the tournament's (default 100)")
    parser.add_argument("--runs", type=int, default=9, help="repetitions per median (default 9)")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parser.parse_args()
    verdicts = []
    with tempfile.TemporaryDirectory() as tmp:
        backends = [("sqlite", str(Path(tmp) / "club.sqlite"))]
        cleanup: Callable[[], None] = lambda: None  # noqa: E731
        if not args.no_postgres:
            url, cleanup = postgres_url(None)
            if url:
                backends.append(("postgres", url))
        try:
            for backend, url in backends:
                games = fill(url, args.games, args.tournament)
                file = tournament_file(Path(tmp), games)
                times = medians(url, file, games, args.runs, backend == "postgres")
                floor = times["F1 + rich"]
                print(f"\n{backend}: {args.games:,} games, a tournament of {args.tournament} "
                      f"(CPU medians of {args.runs})")
                own = times["own floor"]
                for label, value in times.items():
                    beside = f"  {value / own:5.2f}x its own floor" if label.startswith("tournament") else ""
                    print(f"  {label:<26} {value:8.1f} ms  {value / floor:5.2f}x F1 + rich{beside}")
                pages = director_pages(url, args.runs)
                listing = next(iter(pages.values()))
                for label, value in pages.items():
                    print(f"  {label:<26} {value:8.1f} ms  {value / listing:5.2f}x the listing of the latest 50")
                for form in ("tournament FILE --json", "tournament FILE (table)"):
                    for ratio, against in ((times[form] / floor, "F1 + rich"), (times[form] / own, "its own floor")):
                        verdicts.append(f"{'met   ' if ratio <= 1.3 else 'MISSED'} {backend}: {form} of a "
                                        f"{args.tournament}-game tournament in {args.games:,} games: {ratio:.2f}x "
                                        f"{against} against <= 1.3x")
        finally:
            cleanup()
    print()
    print("\n".join(verdicts))


if __name__ == "__main__":
    main()
