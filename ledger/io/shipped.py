"""What whispers ships (the rulesets, boards, decree catalogue and card sheets in fixtures/), by content hash, and
the pins of a game against it: the adapter around the pure ledger.pins that reads the shipped files."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Final

from whispers.fixtures import FOLDER
from whispers.ledger.core.digests import sha256
from whispers.ledger.core.pins import Kind, Pin, classify, content_hash

if TYPE_CHECKING:
    from whispers.ledger.core import events as ev
    from whispers.ledger.core.board import Board
    from whispers.ledger.core.ruleset import Ruleset
    from whispers.ledger.core.state import GameState


@cache
def shipped_hashes(kind: Kind) -> Mapping[str, str]:
    """id -> content hash of every shipped ruleset, board, decree catalogue or card sheet."""
    if kind == "decrees":
        from whispers.ledger.io.decree_files import shipped_catalogue

        catalogue = shipped_catalogue()
        return {catalogue.id: catalogue.content_hash}
    if kind == "cards":
        from whispers.ledger.io.decree_files import load_sheet, shipped_sheets

        return {sid: load_sheet(sid).content_hash for sid in shipped_sheets()}
    if kind == "ruleset":
        from whispers.ledger.io.ruleset_files import load_ruleset, shipped_rulesets

        return {rid: load_ruleset(rid).content_hash for rid in shipped_rulesets()}
    from whispers.ledger.io.board_files import load_board, shipped_boards

    return {bid: load_board(bid).content_hash for bid in shipped_boards()}


KNOWN: Final = "shipped-hashes.json"
"""In fixtures/: each shipped ruleset's and board's content hash beside the sha256 of its file's bytes, written by
tools/shipped_hashes.py. Only a shortcut: an entry is used only while the file still has those bytes."""
_FOLDERS: Final = {"ruleset": "rulesets", "board": "boards"}


@cache
def _known() -> Mapping[str, list[str]]:
    try:
        known = json.loads(FOLDER.joinpath(KNOWN).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return known if isinstance(known, dict) else {}


def file_digest(data: bytes) -> str:
    return sha256(data).hexdigest()


def parsed_hash(kind: Kind, ident: str) -> str:
    """The content hash of the shipped ruleset or board `ident`, its file parsed and its data hashed."""
    if kind == "ruleset":
        from whispers.ledger.io.ruleset_files import load_ruleset

        return load_ruleset(ident).content_hash
    from whispers.ledger.io.board_files import load_board

    return load_board(ident).content_hash


@cache
def shipped_hash(kind: Kind, ident: str) -> str | None:
    """The content hash of the shipped ruleset or board `ident` (None if none is shipped by that id). A status or
    a listing asks it of one ruleset and one board: their files' bytes are hashed and looked up in KNOWN, where
    parsing and checking them cost every command 20 ms and the imports of the file readers."""
    if kind not in _FOLDERS:
        return shipped_hashes(kind).get(ident)
    folder = FOLDER.joinpath(_FOLDERS[kind])
    names = {entry.name for entry in folder.iterdir()}
    if f"{ident}.toml" not in names:  # never a path made of what a record says
        return None
    known = _known().get(f"{kind}/{ident}")
    if isinstance(known, list) and len(known) == 2 and known[0] == file_digest(folder.joinpath(
            f"{ident}.toml").read_bytes()):
        return str(known[1])
    return parsed_hash(kind, ident)


@cache  # a listing of 10,000 games asks for the same few pins again and again (a Pin is a frozen value)
def pin(kind: Kind, ident: str, digest: str) -> Pin:
    """Whether `ident` with content `digest` is the shipped one, a modified one, or custom."""
    return classify(kind, ident, digest, shipped_hash(kind, ident))


def started_pins(started: ev.GameStarted) -> tuple[Pin, Pin]:
    """(ruleset, board) of a game's first event, each hashed from the data the event embeds."""
    return started_ruleset(started), pin("board", str(started.board["id"]), content_hash(started.board))


def started_ruleset(started: ev.GameStarted) -> Pin:
    """`started_pins`' ruleset alone: hashing the board as well costs twelve times as much (its label goes in
    every game's summary, the board's does not)."""
    return pin("ruleset", str(started.ruleset["id"]), content_hash(started.ruleset))


def cards_pin(started: ev.GameStarted) -> Pin | None:
    """The card sheet a game's first event embeds, shipped or custom, or None when it pins none."""
    if started.cards is None:
        return None
    return pin("cards", str(started.cards["id"]), content_hash(started.cards))


def state_pins(state: GameState) -> tuple[Pin, Pin]:
    """(ruleset, board) of a game as folded."""
    return built_pins(state.ruleset, state.board)


def built_pins(ruleset: Ruleset, board: Board) -> tuple[Pin, Pin]:
    """(ruleset, board) of a game's ruleset and board as built from its first event (evolve.pinned)."""
    return pin("ruleset", ruleset.id, ruleset.content_hash), pin("board", board.id, board.content_hash)


def labels(state: GameState) -> tuple[str, str]:
    """(ruleset, board) as shown in listings: the id alone only when it is the shipped content."""
    ruleset, board = state_pins(state)
    return ruleset.label, board.label
