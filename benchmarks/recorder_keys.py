"""Keystrokes per order in the guided recorder (issue 32's target: median <= 12 per order of the empire turns, with
Tab completion), measured by driving `whispers record` in a pseudo-terminal (pexpect) through a bundled game.

Run from the repository root with the virtualenv's python:

    .venv/bin/python benchmarks/recorder_keys.py [--game fixtures/games/official-4p.txt]

Every move of the game is entered in one recorder session. For each order (recruit, draw, attack, swap-agent) the
script takes the cheaper of two ways a person would: the offered choice's number (and, for a template, the rest of
the line), or the line typed with Tab completing each word from its shortest unambiguous prefix (the society left
out when the recorder implies it; `order=`/`at=` left out when the order is the society's only one of that verb).
Both end with Enter (the preview) and Enter (recording it). The keys are really sent, and the move recorded is
checked against the game's line: a count is only printed for moves that landed as intended. Other moves are typed
whole and not counted.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import pexpect  # noqa: E402

ORDERS = ("recruit", "draw", "attack", "swap-agent")
PROMPT = "move>"
CHOICE = re.compile(r"^\s*(\d+)\. (.*?)( …)?(  \(.*\))?\s*$", re.MULTILINE)


def whispers() -> str:
    found = shutil.which("whispers", path=str(Path(sys.executable).parent)) or shutil.which("whispers")
    if not found:
        sys.exit("the whispers console script is not installed (pip install -e .)")
    return found


def settle(child: pexpect.spawn) -> None:
    """Until the recorder has drawn what the keys sent did (no output for a moment)."""
    for _ in range(20):
        try:
            child.read_nonblocking(100_000, timeout=0.3)
        except pexpect.TIMEOUT:
            return


def typed_keys(prompt, words: list[str], already: list[str] | None = None) -> tuple[list[str], int]:
    """The key presses that type `words` with Tab completion at `prompt` (after the words `already` on the line):
    each word from its shortest prefix that only it (among the words that can be legal there) starts with, then
    Tab; a KEY=VALUE word's `KEY=` so, then its value typed. (pieces to send, keys)."""
    from whispers.cli.recorder import legal_words

    pieces: list[str] = []
    keys = 0
    done = list(already or [])
    for word in words:
        head, eq, value = word.partition("=")
        legal = legal_words(prompt, done)
        target = f"{head}=" if eq and f"{head}=" in legal else word
        prefix = next((target[:size] for size in range(1, len(target))
                       if target in legal and [w for w in legal if w.startswith(target[:size])] == [target]), None)
        if prefix is not None and len(prefix) + 1 < len(target) + (0 if target.endswith("=") else 1):
            pieces += [prefix, "\t"]
            keys += len(prefix) + 1
            if target.endswith("=") and value:
                pieces.append(value + " ")
                keys += len(value) + 1
        else:
            pieces.append(word + " ")
            keys += len(word) + 1
        done.append(word)
    return pieces, keys


def plan(prompt, line: str, offered: dict[int, tuple[str, bool]]) -> tuple[list[str], int]:
    """The cheaper way to enter an order `line` at `prompt`, given the offered choices (number -> text, complete)."""
    from whispers.cli.recorder import implied

    words = line.split()
    society, verb = words[0], words[1]
    same = [o for o in prompt.options if o.society == society and o.verb == verb]
    rest = [w for w in words[2:] if not (len(same) == 1 and w.split("=")[0] in ("order", "at"))]
    bare = " ".join([society, verb, *rest])
    ways: list[tuple[list[str], int]] = []
    for number, (text, complete) in offered.items():
        text = text.strip()
        if complete and text == bare:
            ways.append(([str(number)], len(str(number))))
        elif not complete and bare.startswith(text + " "):
            more = bare[len(text) + 1:].split()
            pieces, keys = typed_keys(prompt, more, text.split())
            ways.append(([str(number), "\r", *pieces], len(str(number)) + 1 + keys))
    lead = [] if implied(prompt, verb) == society else [society]
    pieces, keys = typed_keys(prompt, [*lead, verb, *rest])
    ways.append((pieces, keys))
    return min(ways, key=lambda way: way[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default=str(REPO / "fixtures/games/official-4p.txt"))
    args = parser.parse_args()
    from whispers.application import recording

    lines = [line.split("#")[0].strip() for line in Path(args.game).read_text(encoding="utf-8").splitlines()]
    lines = [line for line in lines if line]
    exe = whispers()
    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder) / "keys.sqlite"
        start = Path(folder) / "start.txt"
        start.write_text(lines[0] + "\n", encoding="utf-8")
        env = {**os.environ, "WHISPERS_STORE": str(store), "TERM": "xterm"}
        subprocess.run([exe, "import", str(start), "--game", "k"], env=env, check=True, capture_output=True)
        child = pexpect.spawn(exe, ["record", "k"], env=env, encoding="utf-8", timeout=20, dimensions=(60, 250))
        counts: list[int] = []
        for number, line in enumerate(lines[1:], start=2):
            child.expect_exact(PROMPT)
            shown = child.before
            game = recording.open_game(str(store), "k")
            prompt = recording.next_move(game)
            words = line.split()
            if len(words) > 1 and words[1] in ORDERS:
                offered = {int(m[1]): (m[2], m[3] is None) for m in CHOICE.finditer(shown)}
                pieces, keys = plan(prompt, line, offered)
                for piece in pieces:
                    child.send(piece)
                    settle(child)
                counts.append(keys + 2)  # Enter shows the preview, Enter records it
            else:
                child.send(line)
            child.send("\r")
            child.expect_exact("Preview")
            child.expect_exact(PROMPT)
            child.send("\r")
            child.expect_exact("Recorded:")
            after = recording.open_game(str(store), "k")
            if after.version == game.version:
                sys.exit(f"line {number} ({line}) was not recorded:\n{child.before}")
        child.sendeof()
        child.expect(pexpect.EOF)
        logged = subprocess.run([exe, "log", "k"], env=env, check=True, capture_output=True, text=True).stdout
        moves = [m for m in logged.splitlines()[1:] if m and not m.startswith("#")]
        subprocess.run([exe, "import", args.game, "--game", "ref"], env=env, check=True, capture_output=True)
        reference = subprocess.run([exe, "log", "ref"], env=env, check=True, capture_output=True, text=True).stdout
        if not moves or moves != [m for m in reference.splitlines()[1:] if m and not m.startswith("#")]:
            sys.exit("the game recorded by keys differs from the bundled game")
    print(f"game: {Path(args.game).name}; {len(moves)} moves recorded by keys, the log equal to the bundled game's; "
          f"orders entered: {len(counts)}")
    print(f"keystrokes per order: median {statistics.median(counts)}, mean {statistics.mean(counts):.1f}, "
          f"min {min(counts)}, max {max(counts)} (target: median <= 12)")


if __name__ == "__main__":
    main()
