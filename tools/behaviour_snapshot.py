"""What whispers prints and serves, written to a folder, to compare byte for byte before and after a change.

    python tools/behaviour_snapshot.py /tmp/before          # on the old code: makes the store, then captures
    python tools/behaviour_snapshot.py /tmp/after --store /tmp/before/store    # on the new code, the same store
    diff -r /tmp/before/out /tmp/after/out

The store (the bundled games imported, a fork of one in mid-game, both shared) is made once, by the first run, and
read by the later ones from a copy: the imports' timestamps and the links' random tokens stay the same, so any
difference is the code's. Captured: `status`, `log`, `score`, `games`, `stats`, `standings`, `replay` (text and
--json, as the record has it and as one seat and a spectator knew it, at a few points), and the table, seat,
spectator, replay and director's pages with their JSON, over the web app in-process.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "fixtures" / "games").glob("*.txt"))
SHARED = ["official-4p", "mid"]
"""The games whose pages are captured: a finished one and one in mid-game (a fork)."""


def _whispers(store: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "WHISPERS_STORE": str(store / "whispers.sqlite"), "WHISPERS_LANG": "en",
           "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "COLUMNS": "120", "TERM": "dumb", "NO_COLOR": "1"}
    return subprocess.run([str(Path(sys.executable).parent / "whispers"), *args], env=env, capture_output=True,
                          text=True, check=False)


def make_store(store: Path) -> None:
    """The bundled games imported, `mid` forked from official-4p at round 3, and both shared (links.json)."""
    store.mkdir(parents=True)
    for made in [_whispers(store, "import", *map(str, GAMES)),
                 _whispers(store, "fork", "official-4p", "mid", "--at", "round3")]:
        if made.returncode:
            sys.exit(made.stderr)
    links = {}
    for game in SHARED:
        shared = _whispers(store, "share", game, "--json")
        if shared.returncode:
            sys.exit(shared.stderr)
        links[game] = json.loads(shared.stdout)
    (store / "links.json").write_text(json.dumps(links, indent=1))


def capture_cli(store: Path, out: Path) -> None:
    games = [path.stem for path in GAMES] + ["mid"]
    asked: list[list[str]] = [["games"], ["games", "--json"], ["games", "--all", "--sort", "name"]]
    for game in games:
        asked += [["status", game], ["status", game, "--json"], ["log", game], ["log", game, "--comments"],
                  ["score", game], ["score", game, "--json"],
                  ["status", game, "--as", "spectator"], ["log", game, "--as", "spectator"],
                  ["status", game, "--at", "round2"], ["status", game, "--at", "round2", "--json"],
                  ["status", game, "--at", "20", "--json"]]
    asked += [["status", "official-4p", "--as", "rat"], ["status", "official-4p", "--as", "rat", "--json"],
              ["log", "official-4p", "--as", "rat"], ["status", "mid", "--as", "raven", "--json"],
              ["stats", "official-4p"], ["stats", "official-4p", "--json"], ["stats", "--all"],
              ["stats", "--all", "--json"], ["stats", "--all", "--by", "player"],
              ["standings", "--games", ",".join(games)], ["standings", "--games", ",".join(games), "--json"],
              ["replay", "official-4p", "--at", "40"], ["replay", "official-4p", "--at", "40", "--json"],
              ["replay", "mid", "--as", "rat", "--json"]]
    for args in asked:
        done = _whispers(store, *args)
        name = "_".join(arg.lstrip("-") for arg in args)
        (out / "cli" / f"{name}.txt").write_text(f"exit {done.returncode}\n--- stdout\n{done.stdout}"
                                                  f"--- stderr\n{done.stderr}")


def capture_web(store: Path, out: Path) -> None:
    os.environ["WHISPERS_LANG"] = "en"
    from starlette.testclient import TestClient

    from whispers.web.app import create_app

    links = json.loads((store / "links.json").read_text())
    with TestClient(create_app(str(store / "whispers.sqlite"), "director-token")) as client:
        for game, shared in links.items():
            viewers = {"table": shared["table"], "spectator": shared["spectator"],
                       **{f"seat-{name}": link for name, link in shared["seats"].items()}}
            for viewer, link in viewers.items():
                path = "/" + link.split("/", 3)[3]
                for page in ["", "replay", "replay?at=30", "api/status", "api/replay?at=30", "api/log"]:
                    answer = client.get(path + page)
                    name = f"{game}_{viewer}_{page or 'page'}".replace("?", "_").replace("/", "-")
                    (out / "web" / f"{name}.txt").write_text(f"{answer.status_code}\n{answer.text}")
        director = "/director/director-token/"
        for page in ["", "?state=playing", "g/official-4p/replay?at=50", "verify/mid"]:
            answer = client.get(director + page)
            name = f"director_{page or 'page'}".replace("?", "_").replace("/", "-")
            (out / "web" / f"{name}.txt").write_text(f"{answer.status_code}\n{answer.text}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path, help="where the store (unless --store) and the output go")
    parser.add_argument("--store", type=Path, help="the store a first run made (default: FOLDER/store, made)")
    asked = parser.parse_args()
    kept = asked.store or asked.folder / "store"
    if asked.store is None and not kept.exists():
        make_store(kept)
    out = asked.folder / "out"
    shutil.rmtree(out, ignore_errors=True)
    (out / "cli").mkdir(parents=True)
    (out / "web").mkdir()
    with tempfile.TemporaryDirectory() as scratch:  # a copy: reading may build read models in the store
        store = Path(scratch) / "store"
        shutil.copytree(kept, store)
        capture_cli(store, out)
        capture_web(store, out)
    print(f"{sum(1 for _ in out.rglob('*.txt'))} outputs in {out}")


if __name__ == "__main__":
    main()
