"""Start-up stays light: a command imports only what it needs (cli/main.py loads commands lazily).

Each case runs the installed `whispers` script under `python -X importtime` in a fresh interpreter and reads
the modules it imported from stderr. benchmarks/startup.py measures the time itself. What a case only sets up (a
store's game, the snapshot or catalog a first run keeps) is done by the same commands in this process.
"""

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from whispers.cli.main import whispers

WHISPERS = shutil.which("whispers", path=str(Path(sys.executable).parent)) or shutil.which("whispers")
GAME = """\
game ruleset=official board=standin players=raven,rat first=raven
raven loyalty sealed
rat loyalty sealed
raven deploy bear.sheriff
"""


def imported(store: Path | str, *args: str) -> set[str]:
    """The modules a `whispers ARGS` run imports (from `-X importtime`), after checking it succeeded."""
    env = {**os.environ, "WHISPERS_STORE": str(store)}
    env.pop("PYTHONPROFILEIMPORTTIME", None)
    result = subprocess.run(
        [sys.executable, "-X", "importtime", WHISPERS, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    modules = set()
    for line in result.stderr.splitlines():
        if line.startswith("import time:") and line.count("|") == 2:
            name = line.rsplit("|", 1)[1].strip()
            if name != "imported package":
                modules.add(name)
    assert {"click", "whispers.cli.main"} <= modules, "could not read -X importtime output"
    return modules


def packages(modules: set[str]) -> set[str]:
    return {name.split(".")[0] for name in modules}


def warm(store: Path | str, *args: str) -> None:
    """`whispers ARGS` run in this process, for what it keeps in the store (a game's snapshot, the catalog): the
    run measured after it only reads."""
    result = CliRunner().invoke(whispers, list(args), env={"WHISPERS_STORE": str(store)}, prog_name="whispers")
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("startup")
    path = folder / "whispers.sqlite"
    notation = folder / "light.txt"
    notation.write_text(GAME, encoding="utf-8")
    warm(path, "import", str(notation))
    return path


def test_help_imports_no_heavy_dependency() -> None:
    heavy = packages(imported("memory:", "--help")) & {"graphviz", "rich", "psycopg", "psycopg_pool", "eventsourcing"}
    assert not heavy, f"whispers --help imports {sorted(heavy)}"


def test_help_imports_no_command_module() -> None:
    """The command list comes from cli/main.py alone (with the help's formatter, cli/spoken.py, carved out of it):
    no command module, no store, no rules engine."""
    modules = imported("memory:", "--help")
    ours = {m for m in modules if m.split(".")[0] == "whispers"}
    assert ours <= {"whispers", "whispers.cli", "whispers.cli.main", "whispers.cli.spoken", "whispers.ledger",
                    "whispers.ledger.core", "whispers.ledger.core.errors"}, sorted(ours)
    assert not packages(modules) & {"msgpack", "sqlite3"}


@pytest.mark.parametrize("extra", [(), ("--json",)], ids=["text", "json"])
def test_status_imports_no_renderer_and_no_postgres_driver(store: Path, extra: tuple[str, ...]) -> None:
    """The text is rich tables since issue 16 (rich is then imported); the JSON for scripts imports no rich."""
    renderers = {"graphviz", "psycopg", "psycopg_pool", "matplotlib", "prompt_toolkit"}
    heavy = packages(imported(store, "status", "light", *extra)) & (renderers | ({"rich"} if extra else set()))
    assert not heavy, f"whispers status imports {sorted(heavy)}"


def test_status_loads_neither_openssl_nor_the_emoji_codes(store: Path) -> None:
    """Issue 12: hashlib loads OpenSSL (ledger.digests has the two digests status computes), and rich's table of
    emoji codes is never needed for status's tables (titles and headers of whispers' own words): 3 ms each."""
    warm(store, "status", "light")  # the first keeps the game's snapshot
    modules = imported(store, "status", "light")
    assert not modules & {"hashlib", "_hashlib", "rich._emoji_codes"}, sorted(modules & {"hashlib", "_hashlib"})


@pytest.mark.parametrize("command", [("status", "light"), ("status", "light", "--json"), ("log", "light"), ("games",),
                                     ("stats", "--all")])
def test_a_command_that_only_reads_an_sqlite_store_never_imports_eventsourcing(store: Path,
                                                                                command: tuple[str, ...]) -> None:
    """Issue 12: import only what a command needs. The games are read with plain sqlite3 (a sixth of status's
    start-up was importing the event store library it did not use); a write opens the library when it needs it."""
    warm(store, *command)  # the first keeps the game's snapshot, or the catalog: a write, measured apart below
    modules = imported(store, *command)
    assert "eventsourcing" not in packages(modules), command
    assert "whispers.ledger.io.store_sqlite" in modules and "whispers.ledger.io.store_postgres" not in modules, \
        "an SQLite store loaded the PostgreSQL backend"


@pytest.fixture(scope="module")
def pg_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, set[str]]]:
    """A PostgreSQL store of the module's own holding the game `light`, imported by the script: (its URL, the
    modules that import imported)."""
    from tests.conftest import _pg_schema

    notation = tmp_path_factory.mktemp("startup-pg") / "light.txt"
    notation.write_text(GAME, encoding="utf-8")
    for url in _pg_schema():
        yield url, imported(url, "import", str(notation))


@pytest.mark.postgres
@pytest.mark.parametrize("command", [("status", "light"), ("log", "light"), ("games",), ("stats", "--all"),
                                     ("verify", "light")])
def test_a_command_that_only_reads_a_postgresql_store_reads_it_on_its_opening_connection(
        pg_store: tuple[str, set[str]], command: tuple[str, ...]) -> None:
    """Issue 12: on PostgreSQL too, a command that only reads games imports neither eventsourcing's application nor
    its PostgreSQL recorder and pool (a tenth of status there): the layout's reads (ledger/io/postgres_reads.py) run on
    the connection that opened the store. A write opens them. Nor does the opening load OpenSSL for its lock's key, nor
    the store SQLite's driver."""
    url, import_modules = pg_store
    assert {"eventsourcing", "psycopg_pool"} <= packages(import_modules)
    warm(url, *command)  # the first keeps the game's snapshot, or the catalog
    modules = imported(url, *command)
    assert not {"eventsourcing", "psycopg_pool"} & packages(modules), command
    assert "_hashlib" not in modules, "the opening lock's blake2b loaded OpenSSL (ledger.digests has it)"
    assert "_sqlite3" not in modules, "a PostgreSQL store loaded SQLite's driver"
    assert "whispers.ledger.io.store_postgres" in modules and "whispers.ledger.io.store_sqlite" not in modules, \
        "a PostgreSQL store loaded the SQLite backend"


def test_a_write_opens_the_event_store_library_when_it_needs_it(tmp_path: Path) -> None:
    """As do the notes of a game that has some (decoded as the library's domain events, upcast as their class
    says): a game without notes is read without it."""
    path = tmp_path / "whispers.sqlite"
    notation = tmp_path / "light.txt"
    notation.write_text(GAME, encoding="utf-8")
    assert "eventsourcing" in packages(imported(path, "import", str(notation)))
    assert "eventsourcing" not in packages(imported(path, "notes", "light"))
    assert "eventsourcing" in packages(imported(path, "annotate", "light", "3", "a note"))
    assert "eventsourcing" in packages(imported(path, "notes", "light"))


@given(name=st.text(st.characters(blacklist_categories=("Cs",)), max_size=80))
def test_a_streams_id_is_the_standard_librarys_uuid5_and_the_digests_are_hashlibs(name: str) -> None:
    """ledger.streams computes uuid5 on ledger.digests' sha1 (not hashlib's, which loads OpenSSL): every stored game's
    id depends on it being the standard library's uuid5 to the bit."""
    import hashlib
    import uuid

    from whispers.ledger.core import digests
    from whispers.ledger.core.streams import NAMESPACE, uuid5

    assert uuid5(NAMESPACE, name) == uuid.uuid5(NAMESPACE, name)
    data = name.encode("utf-8")
    assert digests.sha1(data).hexdigest() == hashlib.sha1(data).hexdigest()
    assert digests.sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
    # the PostgreSQL store's opening lock is keyed by this digest: another would let an older whispers open beside it
    assert digests.blake2b(data, digest_size=8).digest() == hashlib.blake2b(data, digest_size=8).digest()
