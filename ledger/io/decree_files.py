"""The adapter that reads decree catalogues and card sheets from TOML (shipped in fixtures/ or given by path)
and hands their data to the pure models in ledger.decrees."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from whispers.fixtures import FOLDER
from whispers.ledger.core.decrees import ID_PATTERN, CardSheet, Catalogue, sheet_problems
from whispers.ledger.core.errors import DecreeError
from whispers.ledger.core.plain import Data
from whispers.ledger.core.words import _, say
from whispers.ledger.io.input_files import read_capped, toml_bytes

SHIPPED_PACKAGE = "whispers.fixtures"
CATALOGUE_FILE = "decrees.toml"
CARDS_FOLDER = "cards"


def read_toml(raw: bytes, source: str) -> Data:
    """The data of a UTF-8 TOML file, checked (ledger/io/input_files.py); DecreeError on one line otherwise."""
    return toml_bytes(raw, source, DecreeError)


def read_path(path: Path, source: str | None = None) -> bytes:
    return read_capped(path, str(path) if source is None else source, DecreeError)


@cache
def shipped_catalogue() -> Catalogue:
    """The catalogue shipped in fixtures/decrees.toml."""
    raw = (FOLDER / CATALOGUE_FILE).read_bytes()
    source = f"{SHIPPED_PACKAGE}/{CATALOGUE_FILE}"
    return Catalogue.from_data(read_toml(raw, source), source)


def load_catalogue(ref: str | None = None) -> Catalogue:
    """The shipped catalogue (no ref, or its id), or a catalogue file by path."""
    shipped = shipped_catalogue()
    if ref is None or ref == shipped.id:
        return shipped
    path = Path(ref)
    return Catalogue.from_data(read_toml(read_path(path, ref), ref), ref)


def shipped_sheets() -> tuple[str, ...]:
    """Ids of the card sheets shipped in fixtures/cards/."""
    folder = FOLDER / CARDS_FOLDER
    return tuple(sorted(e.name.removesuffix(".toml") for e in folder.iterdir() if e.name.endswith(".toml")))


def _sheet_source(ref: str) -> tuple[bytes, str]:
    looks_like_path = ref.endswith(".toml") or "/" in ref or os.sep in ref
    if not looks_like_path and ID_PATTERN.fullmatch(ref):
        shipped = FOLDER / CARDS_FOLDER / f"{ref}.toml"
        if shipped.is_file():
            return shipped.read_bytes(), f"{SHIPPED_PACKAGE}/{CARDS_FOLDER}/{ref}.toml"
        if not Path(ref).exists():
            raise DecreeError(say("{file}: no such file, and no shipped card sheet of that id (shipped: {known})",
                                  file=ref, known=", ".join(shipped_sheets()) or _("none")))
    return read_path(Path(ref), ref), ref


def check_sheet(ref: str, catalogue: Catalogue | None = None) -> tuple[CardSheet | None, list[str]]:
    """(the sheet, []) when the sheet at `ref` (a shipped id or a path) is valid, else (None, every problem).
    A file that cannot be read or parsed raises DecreeError."""
    catalogue = catalogue or shipped_catalogue()
    raw, source = _sheet_source(ref)
    data = read_toml(raw, source)
    problems = sheet_problems(data, catalogue, source)
    if problems:
        return None, problems
    return CardSheet.from_data(data, catalogue, source), []


def load_sheet(ref: str, catalogue: Catalogue | None = None) -> CardSheet:
    """A valid card sheet, or DecreeError naming its first problem."""
    sheet, problems = check_sheet(ref, catalogue)
    if sheet is None:
        raise DecreeError(problems[0])
    return sheet
