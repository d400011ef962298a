"""Pictures for the web: the council-order timeline and the board map as SVG, as a viewer may see them, and the
board the table page draws to be tapped."""

from __future__ import annotations

from typing import TYPE_CHECKING

from whispers.application.stores import opened

if TYPE_CHECKING:
    from whispers.ledger.io.store import Store


def timeline_svg(store: Store | str | None, game: str, viewer: str | None, at: int | None = None,
                 round_: int | None = None) -> bytes:
    """The timeline (`whispers timeline`) up to event `at`, drawn by Graphviz's dot (GraphvizMissing if absent)."""
    from whispers.ledger.io.game import load
    from whispers.projections.render import render
    from whispers.projections.timeline import timeline
    from whispers.projections.visibility import check_viewer

    with opened(store) as s:
        record = load(s, game, at)
    check_viewer(game, record.state.players, viewer)
    return render(timeline(record.events, round_, viewer), "svg", engine="dot")


def board_svg(store: Store | str | None, game: str, at: int | None = None) -> bytes:
    """The board after event `at` (`whispers map`): public facts only, so every viewer gets the same picture."""
    from whispers.ledger.io.game import load
    from whispers.projections.boardmap import board_map
    from whispers.projections.render import render

    with opened(store) as s:
        state = load(s, game, at).state
    return render(board_map(state), "svg", engine="neato")


def board_page_svg(store: Store | str | None, game: str, version: int) -> str:
    """The board after event `version` as the table page draws it (projections/boardsvg.py): public facts only,
    the same for every viewer; its head read from the snapshot when the game is still there."""
    from whispers.ledger.io.game import head, load
    from whispers.projections.boardsvg import board_svg

    with opened(store) as s:
        state = head(s, game).state
        if state.version != version:  # a move landed since the page read the game: draw what the page shows
            state = load(s, game, version).state
    return board_svg(state)
