"""Taps per move on the table page (issue 32's targets: median <= 3 taps per deploy or retrieve, <= 5 per order of
the empire turns, no move recordable from an incomplete selection), from a browser-driven run: Debian's headless
Chromium at phone size (390x844) on `whispers serve` (SQLite), through a whole bundled game recorded by taps alone.

Run from the repository root with the virtualenv's python:

    .venv/bin/python benchmarks/taps.py [--game fixtures/games/official-4p.txt] [--shots /tmp/shots-tapgame]

Every line of the game, setup included, is tapped on the table page (benchmarks/tapping.py: the council, the board,
a picker's selects and buttons), previewed, then recorded by Record; what can only be typed is typed and its
keystrokes counted apart. The log recorded must equal the bundled game's. With --shots, each page state (the first
move of each kind composed and previewed, the game over) is shot at 390x844 and 1280x800.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from tapping import COUNCIL, DESKTOP, ORDERS, PHONE, Table, Tapped, chromium, lines_of, served  # noqa: E402

from whispers.application import reading, sharing  # noqa: E402
from whispers.ledger.io.game import import_lines  # noqa: E402
from whispers.ledger.io.store import open_store  # noqa: E402


def shooter(driver, folder: Path | None):
    def shoot(name: str) -> None:
        if folder is None:
            return
        folder.mkdir(parents=True, exist_ok=True)
        for size in (PHONE, DESKTOP):
            driver.set_window_size(*size)
            driver.save_screenshot(str(folder / f"table-{name}-{size[0]}x{size[1]}.png"))
        driver.set_window_size(*PHONE)
    return shoot


def summary(tapped: list[Tapped]) -> list[str]:
    def row(name: str, counts: list[int]) -> str:
        return (f"{name:<24} {len(counts):>4} moves  taps: median {statistics.median(counts):>4}  "
                f"max {max(counts):>3}")

    kinds: dict[str, list[int]] = defaultdict(list)
    for t in tapped:
        kinds[t.verb].append(t.taps)
    said = [row(verb, counts) for verb, counts in sorted(kinds.items())]
    said.append(row("deploy or retrieve", [t.taps for t in tapped if t.verb in ("deploy", "retrieve")])
                + "  (target: median <= 3)")
    said.append(row("order of the empire turns", [t.taps for t in tapped if t.verb in ORDERS])
                + "  (target: median <= 5)")
    typed = [t for t in tapped if t.keys]
    said.append(f"typed (no tap path): {len(typed)} moves, "
                + "; ".join(f"{t.line!r}: {t.keys} keystrokes" for t in typed))
    said.append(f"moves recordable from an incomplete selection: {sum(t.early for t in tapped)} (target: 0)"
                + "".join(f"\n  {t.line}" for t in tapped if t.early))
    return said


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", type=Path, default=REPO / "fixtures" / "games" / "official-4p.txt")
    parser.add_argument("--shots", type=Path, default=None)
    args = parser.parse_args()
    lines = lines_of(args.game)
    folder = Path(tempfile.mkdtemp(prefix="taps-"))
    store = str(folder / "s.sqlite")
    with open_store(store) as s:
        import_lines(s, "g", lines[:1])  # the game's header (players, ruleset): the director's, not a move
    server, base = served(store)
    driver = chromium()
    shoot = shooter(driver, args.shots)
    table = Table(driver, shoot)
    tapped: list[Tapped] = []
    began = time.perf_counter()
    try:
        links = sharing.share(store, "g", base=base)
        driver.get(links.url(links.table))
        table.ready()
        shoot("setup")
        for line in lines[1:]:
            tapped.append(table.move(line))
        took = time.perf_counter() - began
        driver.execute_script("window.scrollTo(0, 0)")
        shoot("game-over")
        logged = [line for line in reading.log(store, "g", comments=False).lines if not line.startswith("game ")]
    finally:
        driver.quit()
        server.terminate()
        server.wait(timeout=20)
    with open_store("memory:") as whole:
        import_lines(whole, "g", lines)
        wanted = [line for line in reading.log(whole, "g", comments=False).lines if not line.startswith("game ")]
    same = logged == wanted
    print(f"game: {args.game.name}; {len(tapped)} moves tapped on the table page at 390x844 "
          f"({sum(t.verb in COUNCIL for t in tapped)} on the council); the log equal to the bundled game's: {same}")
    print("\n".join(summary(tapped)))
    print(f"taps in all: {sum(t.taps for t in tapped)}; wall time: {took:.1f} s")
    if not same:
        for got, want in zip(logged, wanted, strict=False):
            if got != want:
                print(f"first difference: recorded {got!r}, bundled {want!r}")
                break
        sys.exit("the log recorded differs from the bundled game's")


if __name__ == "__main__":
    main()
