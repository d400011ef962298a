"""Reading a file a user names: the one adapter every reader of a file goes through.

A file is read whole, but never more than a cap: its size is checked before it is read, and at most cap + 1
bytes are read (`/dev/zero`, a pipe or a file growing as it is read never fill the memory). A content file
(a board, a ruleset, the decree catalogue, a card sheet, a tournament file) is UTF-8 TOML whose values nest at
most MAX_DEPTH deep, whose numbers are finite and within +-NUMBER_LIMIT (docs/boards.md), and whose text holds
no control or format character (ledger/core/text.py's CONTROLS). Each problem is one line, raised as the error type
of the kind of file being read.
"""

from __future__ import annotations

import math
import os
import stat
from pathlib import Path
from typing import BinaryIO, Final

from whispers.ledger.core.errors import WhispersError
from whispers.ledger.core.plain import Data
from whispers.ledger.core.text import file_control_problem
from whispers.ledger.core.words import say

CONTENT_LIMIT: Final = 1 << 20
"""The most bytes a content file may hold (1 MiB): the shipped board is 9 KB, the decree catalogue 22 KB."""

RECORD_LIMIT: Final = 64 << 20
"""The most bytes a record file or a notation file may hold (64 MiB, as much as one state may expand to): a
finished four-player game's record file takes about 44 KB (fixtures/games/official-4p.txt exported)."""

MAX_DEPTH: Final = 16
"""How deep a content file's values may nest (tables and arrays): a board's region positions are 4 deep."""

NUMBER_LIMIT: Final = 1_000_000
"""The largest magnitude of a number in a content file: no count, position or point of a board, a ruleset, a
card sheet or a tournament comes near it, and every number within it is stored, hashed and exported as it is
(a record file's msgpack holds no integer past 64 bits)."""


def read_capped(path: Path, source: str, error: type[WhispersError], limit: int = CONTENT_LIMIT) -> bytes:
    """The bytes of the file at `path` (named `source` in messages), refused as `error` when it cannot be read or
    holds more than `limit` bytes."""
    try:
        with path.open("rb") as handle:
            size = _size(handle)
            data = b"" if size > limit else handle.read(limit + 1)
    except FileNotFoundError:
        raise error(say("{file}: no such file", file=source)) from None
    except IsADirectoryError:
        raise error(say("{file}: is a directory, not a file whispers reads", file=source)) from None
    except OSError as exc:
        raise error(say("{file}: cannot read it ({message})", file=source, message=exc.strerror or str(exc))) from None
    if size > limit or len(data) > limit:
        raise error(say("{file}: larger than {limit} bytes, more than whispers reads from such a file",
                        file=source, limit=limit))
    return data


def _size(handle: BinaryIO) -> int:
    """The size the file system gives a regular file (0 for a device or a pipe, which are read up to the cap)."""
    status = os.fstat(handle.fileno())
    return status.st_size if stat.S_ISREG(status.st_mode) else 0


_BOM: Final = b"\xef\xbb\xbf"


def utf8_text(raw: bytes, source: str, error: type[WhispersError]) -> str:
    """The text of a UTF-8 file; a byte order mark at its start (which Windows' Notepad writes) is no part of it."""
    bom = len(_BOM) if raw.startswith(_BOM) else 0
    try:
        return raw[bom:].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(say("{file}: not UTF-8 text (byte {n})", file=source, n=bom + exc.start)) from None


def toml_file(path: Path, source: str, error: type[WhispersError]) -> Data:
    """The data of the content file at `path`, checked (module docstring)."""
    return toml_bytes(read_capped(path, source, error), source, error)


def toml_bytes(raw: bytes, source: str, error: type[WhispersError]) -> Data:
    if len(raw) > CONTENT_LIMIT:
        raise error(say("{file}: larger than {limit} bytes, more than whispers reads from such a file",
                        file=source, limit=CONTENT_LIMIT))
    return toml_text(utf8_text(raw, source, error), source, error)


def toml_text(text: str, source: str, error: type[WhispersError]) -> Data:
    """The data of a content file's text, checked (module docstring)."""
    import tomllib  # imported by the commands that read a content file only

    try:
        data = tomllib.loads(text)
    except ValueError as exc:  # TOMLDecodeError, or an integer of more digits than Python converts
        raise error(say("{file}: not valid TOML: {message}", file=source, message=" ".join(str(exc).split()))) from None
    except RecursionError:  # tomllib parses nested arrays and inline tables by recursion: far past MAX_DEPTH
        raise error(say("{file}: its values nest more than {limit} deep", file=source, limit=MAX_DEPTH)) from None
    if why := shape_problem(data, source) or file_control_problem(data, source):
        raise error(why)
    return data


def shape_problem(data: object, source: str) -> str | None:
    """Why parsed data cannot be used (None if it can): nesting past MAX_DEPTH, or a number that is not finite
    or lies past NUMBER_LIMIT (named by its key). Walked without recursion, so that no depth breaks the walk."""
    pending: list[tuple[object, tuple[str, ...]]] = [(data, ())]
    while pending:
        value, where = pending.pop()
        if isinstance(value, dict | list):
            if len(where) >= MAX_DEPTH:
                return say("{file}: its values nest more than {limit} deep", file=source, limit=MAX_DEPTH)
            items = value.items() if isinstance(value, dict) else enumerate(value, start=1)
            pending.extend((part, (*where, str(key))) for key, part in items)
        elif isinstance(value, int | float) and not isinstance(value, bool) and not (
                math.isfinite(value) and abs(value) <= NUMBER_LIMIT):
            return say("{file}: {key} is out of bounds: every number is between -{limit} and {limit}",
                       file=source, key=".".join(where)[:200], limit=NUMBER_LIMIT)
    return None
