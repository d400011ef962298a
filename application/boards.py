"""Transcribing the printed board (docs/boards.md): a template to fill in, the counts to compare with the
printed map, and the empty board drawn."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from whispers.ledger.core.plain import Data

if TYPE_CHECKING:
    from whispers.ledger.core.board import Census
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from whispers.ledger.core.board import Board
    from whispers.ledger.core.pins import Pin


@dataclass(frozen=True, slots=True)
class NewBoard:
    path: str

    def to_json(self) -> Data:
        return {"path": self.path}


def new_board(path: str, force: bool = False) -> NewBoard:
    """Write a board template at `path`; an existing file is kept unless `force` (BoardError says so)."""
    from whispers.ledger.core.errors import BoardError
    from whispers.ledger.core.words import say
    from whispers.ledger.io.board_files import template_text
    from whispers.ledger.io.safefile import save

    try:
        save(Path(path), template_text().encode("utf-8"), overwrite=force, error=BoardError)
    except FileExistsError:
        raise BoardError(say("{file}: already exists; --force replaces it", file=str(path))) from None
    return NewBoard(path)


@dataclass(frozen=True, slots=True)
class BoardCensus:
    ref: str
    id: str
    content_hash: str
    census: Census  # ledger.board.census

    def to_json(self) -> Data:
        return {"board": self.ref, "id": self.id, "content_hash": self.content_hash, **self.census}


def board_census(ref: str) -> BoardCensus:
    from whispers.ledger.core.board import census

    loaded = load(ref)
    return BoardCensus(ref, loaded.id, loaded.content_hash, census(loaded))


def load(ref: str) -> Board:
    """The board `ref` (a shipped board's id or a board file's path); BoardError names its first problem."""
    from whispers.ledger.io.board_files import load_board

    return load_board(ref)


@dataclass(frozen=True, slots=True)
class BoardCheck:
    board: Board
    census: BoardCensus
    pin: Pin  # shipped, modified or custom: a modified shipped board is refused without --allow-modified


def check_board(ref: str) -> BoardCheck:
    """The board `ref` checked (BoardError names its first problem), counted, and pinned against the shipped."""
    from whispers.ledger.core.board import census
    from whispers.ledger.io.shipped import pin

    loaded = load(ref)
    counted = BoardCensus(ref, loaded.id, loaded.content_hash, census(loaded))
    return BoardCheck(loaded, counted, pin("board", loaded.id, loaded.content_hash))


def draw_board(ref: str, output: str) -> str:
    """The board as it is set up (its starting banners, no agent) drawn to `output`, to lay beside the printed
    one. Drawn through a game started on it in memory, so it is the very picture `whispers map` makes."""
    from whispers.ledger.core import rules
    from whispers.ledger.core.evolve import evolve
    from whispers.ledger.core.names import SOCIETIES
    from whispers.ledger.core.words import say
    from whispers.ledger.io.board_files import load_board
    from whispers.ledger.io.ruleset_files import load_ruleset
    from whispers.projections.boardmap import board_map as draw
    from whispers.projections.render import check, write

    check(output, "neato")
    board = load_board(ref)
    started = rules.start(board.id, SOCIETIES[:2], SOCIETIES[0], load_ruleset("official"), board)
    title = say("{board} ({file}) · as set up: the starting banners, no agent yet", board=board.name, file=board.id)
    write(draw(evolve(None, started), title), output, engine="neato")
    return output
