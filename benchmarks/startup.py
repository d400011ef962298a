"""Start-up time of the `whispers` command, against the bare cost of importing its core dependencies.

Run from the repository root with the virtualenv's python:

    .venv/bin/python benchmarks/startup.py [--runs 15]

Each command runs once to warm the file cache, then --runs times; the table gives the median wall time and its
ratio to the baseline `python -c "import click, eventsourcing, msgpack"` measured in the same run (the bare
interpreter is listed too, for scale). `status`
reads a complete game imported into a temporary SQLite store first (a bundled game from fixtures/games/, or a
random legal game when none is bundled).
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def whispers_script() -> str:
    found = shutil.which("whispers", path=str(Path(sys.executable).parent)) or shutil.which("whispers")
    if not found:
        sys.exit("benchmarks/startup.py: no `whispers` script next to this python; run it with .venv/bin/python")
    return found


def game_text() -> tuple[str, str]:
    """(where the game comes from, the game in notation)."""
    bundled = sorted((REPO / "fixtures" / "games").glob("*.txt"))
    if bundled:
        return bundled[0].name, bundled[0].read_text(encoding="utf-8")
    from whispers.ledger.core import randomgame
    from whispers.ledger.io.board_files import load_board
    from whispers.ledger.io.ruleset_files import load_ruleset
    from whispers.projections.log import format_record

    events = []
    players = ("raven", "rat", "spider", "serpent")
    for _, produced, _ in randomgame.play(players, load_ruleset("official"), load_board("standin"), seed=1):
        events.extend(produced)
    return "a random official 4-player game", "\n".join(format_record(events)) + "\n"


def median_seconds(command: list[str], env: dict[str, str], runs: int) -> float:
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="timed runs per command (default 15)")
    runs = parser.parse_args().runs
    script = whispers_script()
    source, text = game_text()
    with tempfile.TemporaryDirectory(prefix="whispers-bench-") as folder:
        store = Path(folder) / "bench.sqlite"
        notation = Path(folder) / "bench.txt"
        notation.write_text(text, encoding="utf-8")
        env = {**os.environ, "WHISPERS_STORE": str(store)}
        subprocess.run([script, "import", str(notation)], env=env, check=True, stdout=subprocess.DEVNULL)
        cases = [
            (
                'python -c "import click, eventsourcing, msgpack"',
                [sys.executable, "-c", "import click, eventsourcing, msgpack"],
            ),
            ('python -c "pass"  (the interpreter alone)', [sys.executable, "-c", "pass"]),
            ("whispers --help", [script, "--help"]),
            ("whispers status bench", [script, "status", "bench"]),
        ]
        medians = {label: median_seconds(command, env, runs) for label, command in cases}
    baseline = medians[cases[0][0]]
    width = max(len(label) for label in medians)
    print(f"Start-up, median of {runs} runs after a warm-up (Python {sys.version.split()[0]}; status reads {source})")
    print(f"{'command':<{width}}  {'median':>9}  {'× baseline':>10}")
    for label, seconds in medians.items():
        ratio = "baseline" if label == cases[0][0] else f"{seconds / baseline:.2f}"
        print(f"{label:<{width}}  {seconds * 1000:>6.1f} ms  {ratio:>10}")


if __name__ == "__main__":
    main()
