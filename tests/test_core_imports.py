"""The pure core imports no I/O: importing it in a fresh interpreter brings no file loading, no store, no
terminal and no serialisation with it, and its source opens no file.

The core is the tree ledger/core; what it may not import is listed once, in pyproject.toml's import-linter
contract ("The pure core..."), which `lint-imports` checks statically; this test checks the same lists at run time.
"""

import ast
import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _core_contract() -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["type"] == "forbidden" and c["source_modules"] == ["whispers.ledger.core"])


CONTRACT = _core_contract()
# every module of the core's tree (ledger/core), so a module added there is checked without being listed
CORE_TREE = ROOT / "ledger" / "core"
CORE: list[str] = sorted(
    "whispers.ledger.core." + ".".join(p.relative_to(CORE_TREE).with_suffix("").parts).removesuffix(".__init__")
    for p in CORE_TREE.rglob("*.py"))
# importlib itself is part of every interpreter's start; what loads package files is importlib.resources
FORBIDDEN: list[str] = ["importlib.resources" if m == "importlib" else m for m in CONTRACT["forbidden_modules"]]


def test_the_core_tree_holds_the_engine() -> None:
    for module in ("rules", "legal", "evolve", "flow", "state", "scoring", "effects", "board", "ruleset", "pins"):
        assert f"whispers.ledger.core.{module}" in CORE
    assert "whispers.ledger.io" in FORBIDDEN


def test_importing_the_core_brings_no_io_with_it() -> None:
    code = (
        "import importlib, json, sys\n"
        f"for name in {CORE!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    loaded = set(json.loads(result.stdout))
    assert set(CORE) <= loaded
    came_along = sorted(m for m in loaded if any(m == f or m.startswith(f + ".") for f in FORBIDDEN))
    assert came_along == []


def test_the_core_opens_no_file() -> None:
    """What an import check cannot see: the built-in open(), and a Path read or written."""
    file_calls = {"open", "read_bytes", "read_text", "write_bytes", "write_text"}
    offenders = []
    paths = sorted(CORE_TREE.rglob("*.py"))
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if called in file_calls:
                    offenders.append(f"{path.name}:{node.lineno} {called}()")
    assert offenders == []
