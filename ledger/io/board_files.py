"""The adapter that reads boards from TOML (shipped in fixtures/boards/ or given by path) and hands their data to
the pure model in ledger.board."""

from __future__ import annotations

import os
from pathlib import Path

from whispers.fixtures import FOLDER
from whispers.ledger.core.board import ID_PATTERN, Board
from whispers.ledger.core.errors import BoardError
from whispers.ledger.core.words import _, say
from whispers.ledger.io.input_files import toml_bytes, toml_file

SHIPPED_PACKAGE = "whispers.fixtures"
SHIPPED_FOLDER = "boards"


def shipped_boards() -> tuple[str, ...]:
    """Ids of the boards shipped in fixtures/boards/."""
    folder = FOLDER / SHIPPED_FOLDER
    return tuple(sorted(entry.name.removesuffix(".toml") for entry in folder.iterdir() if entry.name.endswith(".toml")))


def load_board(ref: str) -> Board:
    """Load a shipped board by id ("standin") or a board file by path. BoardError names the first problem."""
    if not ref:
        raise BoardError(_("no board given: name a shipped board (such as standin) or a board file"))
    looks_like_path = ref.endswith(".toml") or "/" in ref or os.sep in ref
    if not looks_like_path and ID_PATTERN.fullmatch(ref):
        shipped = FOLDER / SHIPPED_FOLDER / f"{ref}.toml"
        if shipped.is_file():
            return parse_board(shipped.read_bytes(), f"{SHIPPED_PACKAGE}/{SHIPPED_FOLDER}/{ref}.toml")
        if not Path(ref).exists():
            known = ", ".join(shipped_boards()) or _("none")
            raise BoardError(say("{file}: no such file, and no shipped board of that id (shipped: {known})", file=ref,
                                 known=known))
    return load_board_file(Path(ref), ref)


def load_board_file(path: Path, source: str | None = None) -> Board:
    """Load and validate the board file at `path`; messages name it as `source` (default: the path)."""
    source = str(path) if source is None else source
    return Board.from_data(toml_file(path, source, BoardError), source)


def parse_board(raw: bytes, source: str) -> Board:
    """Parse the bytes of a board file (UTF-8 TOML, ledger/io/input_files.py) and validate them."""
    return Board.from_data(toml_bytes(raw, source, BoardError), source)


TEMPLATE_SOURCE = "standin"
"""The shipped board whose empires and councils a template copies: its councils are the revised rulebook's
(rules digest §4.2); its regions are invented, so the template leaves them to the club."""


def template_text(board_id: str = "printed", name: str = "The printed board") -> str:
    """A board file to fill in (docs/boards.md): the five empires and their councils as the revised rulebook
    gives them, and per empire one empty region to fill in and copy once per home region of the printed map.
    It is a valid board as written, so `board check` reads it from the first step."""
    source = load_board(TEMPLATE_SOURCE)
    lines = [
        "# A board file to fill in from the printed map: docs/boards.md walks through it.",
        "# The empires and councils below are the revised rulebook's; check them against the council boards.",
        "# Then, per empire, fill in its first region and copy it once per further home region. The file checks",
        "# as it is (one empty region per empire), so `board check` and `map --board` show the work at each step.",
        "# `whispers board check FILE` counts what to compare with the printed map.",
        "",
        f'id = "{board_id}"',
        f'name = "{name}"',
        'note = "Transcribed from the printed map by ..."',
        "",
        f"empires = [{', '.join(repr(e).replace(chr(39), chr(34)) for e in source.empires)}]   # empire turn order",
        "",
    ]
    for empire in source.empires:
        lines.append(f"[council.{empire}]")
        for office, orders in source.council[empire].items():
            lines.append(f"{office} = [{', '.join(f'{chr(34)}{o}{chr(34)}' for o in orders)}]")
        lines.append("")
    lines += ["# Regions: one table per region; the key is its id (lower-case letters, digits, hyphens).",
              "# Borders: adjacent holds land borders only (seas are not borders), listed on both sides.",
              "[regions]", ""]
    for empire in source.empires:
        lines += [
            f"# --- {empire}: each home region of the {empire} (its colour on the map) ---",
            f"[regions.{empire}-1]",
            f'name = "{empire.capitalize()} 1"',
            f'home = "{empire}"',
            "cities = 0            # city icons",
            "farm = false",
            "fort = false",
            "banners = 0           # starting banner icons of the home empire",
            "adjacent = []         # land neighbours' ids",
            "# pos = [0.0, 0.0]    # optional: where to draw it, [x east, y north]",
            "",
        ]
    lines += [
        "# Seas and oceans: one table per sea, naming the regions on its shores. A sea is never a border",
        '# ("You cannot attack across oceans or seas"): the rules read none of this; `board check` lists the seas',
        "# and `whispers map --board FILE` draws them, to compare with the printed map. Copy once per sea.",
        "# [seas.sea-1]",
        '# name = "Sea 1"',
        '# coasts = ["bear-1", "eagle-1"]   # ids of the regions on its shores',
        "# pos = [0.0, 0.0]    # optional: where to draw its name, [x east, y north]",
        "",
    ]
    return "\n".join(lines)
