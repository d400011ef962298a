"""What whispers ships (the rulesets, boards, decree catalogue and card sheets in fixtures/), by content hash, and
the pins of a game against it: the adapter around the pure ledger.pins that reads the shipped files."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING

from whispers.ledger.pins import Kind, Pin, classify, content_hash

if TYPE_CHECKING:
    from whispers.ledger import events as ev
    from whispers.ledger.board import Board
    from whispers.ledger.ruleset import Ruleset
    from whispers.ledger.state import GameState


@cache
def shipped_hashes(kind: Kind) -> Mapping[str, str]:
    """id -> content hash of every shipped ruleset, board, decree catalogue or card sheet."""
    if kind == "decrees":
        from whispers.ledger.decree_files import shipped_catalogue

        catalogue = shipped_catalogue()
        return {catalogue.id: catalogue.content_hash}
    if kind == "cards":
        from whispers.ledger.decree_files import load_sheet, shipped_sheets

        return {sid: load_sheet(sid).content_hash for sid in shipped_sheets()}
    if kind == "ruleset":
        from whispers.ledger.ruleset_files import load_ruleset, shipped_rulesets

        return {rid: load_ruleset(rid).content_hash for rid in shipped_rulesets()}
    from whispers.ledger.board_files import load_board, shipped_boards

    return {bid: load_board(bid).content_hash for bid in shipped_boards()}


@cache
def shipped_hash(kind: Kind, ident: str) -> str | None:
    """The content hash of the shipped ruleset or board `ident` (None if none is shipped by that id): that one
    file read, where `shipped_hashes` reads every one (a status read all three rulesets to label one)."""
    if kind not in ("ruleset", "board"):
        return shipped_hashes(kind).get(ident)
    if kind == "ruleset":
        from whispers.ledger.ruleset_files import load_ruleset, shipped_rulesets

        return load_ruleset(ident).content_hash if ident in shipped_rulesets() else None
    from whispers.ledger.board_files import load_board, shipped_boards

    return load_board(ident).content_hash if ident in shipped_boards() else None


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
