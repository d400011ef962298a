"""Every command of the README works as written (the brief: "The README's commands must work as written").

The test reads README.md's ```sh blocks and runs each command, in order, in a scratch folder with WHISPERS_STORE
naming a scratch SQLite store, as a reader pasting them into a shell would (bash, `whispers` on the PATH, nothing
on stdin). A section added to the README is run the day it is written: nothing here lists the README's commands.
The few that cannot run here are skipped by the prefix in SKIPPED, each with its reason; any other command that
does not end within TIMEOUT seconds fails.
"""

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
TIMEOUT = 120

# A command starting with one of these is not run; say why. Keep this short: a command that can run, runs.
SKIPPED = {
    "python3 -m venv": "makes and installs a virtualenv: the test runs in the installed whispers",
    "bash .ci/run": "is the test run itself",
    "whispers serve": "serves until stopped (tests/test_web.py serves it and asks it pages)",
    "sudo ": "installs and configures a PostgreSQL server (the postgres-marked tests use one)",
    ".venv/bin/pip ": "installs into the reader's virtualenv",
    "export WHISPERS_STORE=postgresql": "points the reader's shell at the PostgreSQL server set up above",
    ".venv/bin/python benchmarks/": "measures for minutes on a quiet machine (benchmarks/README.md)",
}

FENCE = re.compile(r"^(?P<indent> *)```sh\n(?P<body>.*?)^(?P=indent)```$", re.M | re.S)


@dataclass(frozen=True)
class Command:
    line: int  # where it starts in README.md
    text: str


def readme_commands(text: str) -> list[Command]:
    """The commands of the ```sh blocks, a backslash-continued line joined to the next, in README order."""
    found = []
    for block in FENCE.finditer(text):
        first = text.count("\n", 0, block.start("body")) + 1
        pending: list[str] = []
        for offset, raw in enumerate(block["body"].splitlines()):
            line = raw[len(block["indent"]):]
            if not pending and (not line.strip() or line.lstrip().startswith("#")):
                continue
            pending.append(line.rstrip("\\").rstrip() if line.endswith("\\") else line)
            if not line.endswith("\\"):
                found.append(Command(first + offset - len(pending) + 1, " ".join(p.strip() for p in pending)))
                pending = []
    return found


def skip_reason(command: str) -> str | None:
    return next((why for prefix, why in SKIPPED.items() if command.startswith(prefix)), None)


def test_the_readme_has_commands_and_the_parser_reads_continuations() -> None:
    parsed = readme_commands("a\n```sh\nwhispers new g \\\n    --players raven,rat   # two\n\n# only a comment\n"
                             "whispers status g\n```\n  ```sh\n  whispers games\n  ```\n")
    assert parsed == [Command(3, "whispers new g --players raven,rat   # two"), Command(7, "whispers status g"),
                      Command(10, "whispers games")]
    commands = readme_commands(README.read_text(encoding="utf-8"))
    assert len(commands) > 40 and sum(c.text.startswith("whispers ") for c in commands) > 40


def test_every_readme_command_works_as_written(tmp_path: Path) -> None:
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "WHISPERS_STORE": str(tmp_path / "store.sqlite"), "HOME": str(tmp_path),
           "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config"), "COLUMNS": "120"}
    env.pop("WHISPERS_LANG", None)  # the README's reader has none set: its commands choose (`--lang fr`)
    env["LANG"] = "C.UTF-8"
    work = tmp_path / "work"  # the reader's clone: its commands name the repository's fixtures/ and docs/
    work.mkdir()
    for folder in ("fixtures", "docs"):
        (work / folder).symlink_to(ROOT / folder, target_is_directory=True)
    failed, ran = [], 0
    for command in readme_commands(README.read_text(encoding="utf-8")):
        if skip_reason(command.text):
            continue
        try:
            done = subprocess.run(["bash", "-c", command.text], cwd=work, env=env, stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True, timeout=TIMEOUT, check=False)
        except subprocess.TimeoutExpired:
            failed.append(f"README.md:{command.line}: {command.text}\n  did not end within {TIMEOUT} s")
            continue
        ran += 1
        if done.returncode != 0:
            said = (done.stderr or done.stdout).strip().splitlines()[-3:]
            failed.append(f"README.md:{command.line}: {command.text}\n  exit {done.returncode}: " + " | ".join(said))
    assert not failed, f"{len(failed)} of the README's commands fail as written:\n" + "\n".join(failed)
    assert ran > 40


@pytest.mark.parametrize("prefix", sorted(SKIPPED))
def test_each_skip_still_names_a_readme_command(prefix: str) -> None:
    """A skip whose command left the README is dropped, so the list stays the few that cannot run."""
    assert any(c.text.startswith(prefix) for c in readme_commands(README.read_text(encoding="utf-8")))
