"""Many tables, racing recorders and killed processes, on SQLite and PostgreSQL.

- Two processes (sixteen with --slow) record complete games into one PostgreSQL store at once; every event of
  every game is there exactly once and each game replays to the state it had when recorded alone.
- Two recorders on one game: one move lands, the other is told the game moved on (exit 2); nothing lost.
- A process killed with SIGKILL in the middle of an import or a move leaves the game as before, never half.
"""

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from sizes import sized

from whispers.cli.main import whispers
from whispers.ledger.core import randomgame, rules
from whispers.ledger.core.errors import GameMovedOn
from whispers.ledger.core.names import SOCIETIES
from whispers.ledger.io.board_files import load_board
from whispers.ledger.io.game import load, read_facts, record
from whispers.ledger.io.ruleset_files import load_ruleset
from whispers.ledger.io.store import open_store
from whispers.projections.log import format_record

WHISPERS = str(Path(sys.executable).with_name("whispers"))
RULESETS = ("official", "advanced", "revised")


def env_for(url: str) -> dict[str, str]:
    """A user's environment on the store at `url`."""
    return {**os.environ, "WHISPERS_STORE": url}


def solo_game(seed: int) -> list:
    """The game a seed plays, recorded alone in memory: what every concurrent recording must equal."""
    events = []
    ruleset = load_ruleset(RULESETS[seed % 3])
    for _, produced, _ in randomgame.play(SOCIETIES[: 2 + seed % 3], ruleset, load_board("standin"), seed,
                                         name=f"table-{seed}"):
        events.extend(produced)
    return events


RECORDER = """
import sys
from whispers.ledger.core import randomgame
from whispers.ledger.io.board_files import load_board
from whispers.ledger.core.names import SOCIETIES
from whispers.ledger.io.ruleset_files import load_ruleset
from whispers.ledger.io.store import open_store

url, seed = sys.argv[1], int(sys.argv[2])
ruleset = load_ruleset(("official", "advanced", "revised")[seed % 3])
with open_store(url) as store:
    for command, produced, state in randomgame.play(SOCIETIES[: 2 + seed % 3], ruleset, load_board("standin"), seed,
                                                    name=f"table-{seed}"):
        facts = [e.to_fact() for e in produced]
        if command is None:
            store.create(f"table-{seed}", facts)
        else:
            store.append(f"table-{seed}", state.version - len(produced), facts)
"""


@pytest.mark.postgres
def test_tables_record_into_one_postgres_store_at_once(pg_url: str) -> None:
    """Two tables at once (sixteen with --slow), each a process recording a random game move by move: two writers
    racing on one store are the race."""
    seeds = list(range(1000, 1000 + sized(2, 16)))
    processes = [subprocess.Popen([sys.executable, "-c", RECORDER, pg_url, str(seed)], env=env_for(pg_url))
                 for seed in seeds]
    for process in processes:
        assert process.wait(timeout=300) == 0
    with open_store(pg_url) as store:
        names = set(store.names())
        for seed in seeds:
            facts = store.facts(f"table-{seed}")
            solo = solo_game(seed)
            assert facts == [e.to_fact() for e in solo], f"table-{seed} differs from its solo recording"
            assert rules.fold(read_facts(facts, "t")) == rules.fold(solo)
    assert {f"table-{seed}" for seed in seeds} <= names


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "race.sqlite")
    request.applymarker(pytest.mark.postgres)
    return request.getfixturevalue("pg_url")


def cli(url: str, *args: str) -> None:
    """A `whispers` command that sets a race up, run in this process (the racers are the processes)."""
    result = CliRunner().invoke(whispers, list(args), env={"WHISPERS_STORE": url}, prog_name="whispers")
    assert result.exit_code == 0, result.output


def _new_game(url: str, name: str) -> None:
    cli(url, "new", name, "--players", "raven,rat")
    for line in ("raven loyalty sealed", "rat loyalty sealed"):
        cli(url, "move", name, line)


def test_two_recorders_on_one_game_one_lands_the_other_is_told(store_url: str) -> None:
    name = f"race-{random.randrange(10**9)}"
    _new_game(store_url, name)
    with open_store(store_url) as first, open_store(store_url) as second:
        mine, theirs = load(first, name), load(second, name)
        assert mine.version == theirs.version
        command = rules.prompt(mine.state).options[0]
        from whispers.ledger.core import commands as c

        record(first, mine, c.Deploy(command.society, command.choices["where"][0]))
        with pytest.raises(GameMovedOn, match="the game moved on: re-run status"):
            record(second, theirs, c.Deploy(command.society, command.choices["where"][1]))
        facts = first.facts(name)
    assert [f["where"] for f in facts if f["type"] == "AgentDeployed"] == [command.choices["where"][0]]


def test_a_recorder_behind_the_game_is_refused_by_the_cli(store_url: str) -> None:
    """Two `whispers move` processes at once on one game: every move lands exactly once or is refused with
    exit 2 and the moved-on message; the record has no duplicate and no gap."""
    name = f"cli-race-{random.randrange(10**9)}"
    _new_game(store_url, name)
    env = env_for(store_url)
    moves = ["raven deploy bear.sheriff", "raven deploy eagle.sheriff"]
    results = []
    for _ in range(3):
        procs = [subprocess.Popen([WHISPERS, "move", name, line], env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for line in moves]
        results += [(p.wait(timeout=60), p.stderr.read()) for p in procs]
        with open_store(store_url) as store:
            deployed = [f for f in store.facts(name) if f["type"] == "AgentDeployed"]
        if deployed:
            break
    landed = [r for r in results if r[0] == 0]
    refused = [r for r in results if r[0] != 0]
    assert len(deployed) == 1 and len(landed) >= 1
    for code, stderr in refused:
        assert code == 2 and len(stderr.strip().splitlines()) == 1
        assert "the game moved on" in stderr or "it is rat's turn" in stderr or "is taken" in stderr


def _kill_during(argv: list[str], env: dict[str, str], delay: float, stdin: str | None = None) -> None:
    process = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, text=True)
    if stdin is not None:
        process.stdin.write(stdin)
    process.stdin.close()
    time.sleep(delay)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)


def test_sigkill_during_an_import_leaves_all_or_nothing(store_url: str, tmp_path: Path) -> None:
    """`whispers import` killed at a random moment, four times (eight with --slow): the game is whole, or absent."""
    events = solo_game(7)
    notation = tmp_path / "game.txt"
    notation.write_text("\n".join(format_record(events)) + "\n", encoding="utf-8")
    env = env_for(store_url)
    rng = random.Random(1)
    for attempt in range(sized(4, 8)):
        name = f"killed-{random.randrange(10**9)}-{attempt}"
        _kill_during([WHISPERS, "import", str(notation), "--game", name], env, rng.uniform(0.05, 0.9))
        with open_store(store_url) as store:
            if store.exists(name):
                assert store.version(name) == len(events), "a killed import left half a game"


def test_sigkill_during_moves_from_stdin_leaves_the_game_as_before_or_after(store_url: str) -> None:
    """`whispers move GAME -` killed at a random moment, up to three times (six with --slow) until every move is in:
    the game is as before the run or after it, never between."""
    events = solo_game(8)
    lines = [line for line in format_record(events, comments=False)][1:]
    name = f"moves-{random.randrange(10**9)}"
    env = env_for(store_url)
    header = next(iter(format_record(events)))
    players = header.split("players=")[1].split()[0]
    first = header.split("first=")[1].split()[0]
    cli(store_url, "new", name, "--players", players, "--first", first, "--ruleset", RULESETS[8 % 3])
    rng = random.Random(2)
    for _ in range(sized(3, 6)):
        with open_store(store_url) as store:
            before = store.version(name)
        _kill_during([WHISPERS, "move", name, "-"], env, rng.uniform(0.05, 0.6), stdin="\n".join(lines) + "\n")
        with open_store(store_url) as store:
            after = store.version(name)
            assert after in (before, len(events)), f"a killed move left {after} events (before {before})"
            assert rules.fold(read_facts(store.facts(name), name)).version == after
        if after == len(events):
            break
