"""A state view (projections.visibility.state_view) as rich tables a person reads: the council, the board by
empire, hands, loyalties and the scores if the game ended now. Given the view before, the cells that changed
are highlighted (the replay stepper).

Only what the view holds is shown: the view is already cut to what its viewer may know.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from whispers.ledger.names import OFFICES, SLOTS
from whispers.ledger.words import plural

CHANGED = "bold black on yellow"
"""How a cell that changed since the step before is drawn."""

Rows = list[list[str]]


def council_rows(view: Mapping[str, Any]) -> Rows:
    return [[empire, *(view["council"].get(f"{empire}.{office}", "·") for office in OFFICES)]
            for empire in view["cities"]]


def board_rows(view: Mapping[str, Any]) -> Rows:
    rows = []
    for empire, cities in view["cities"].items():
        held = [(r, v["banners"]) for r, v in view["regions"].items() if v["controller"] == empire and v["banners"]]
        rows.append([empire, str(cities), str(sum(n for _, n in held)), str(view["reserve"][empire]),
                     ", ".join(f"{r} {n}" for r, n in held) or "—"])
    return rows


def hand_rows(view: Mapping[str, Any]) -> Rows:
    rows = []
    for society, hand in view["hands"].items():
        by_empire = " ".join(f"{e}×{n}" for e, n in hand["by_empire"].items() if n) or "—"
        known = " ".join(hand["known"]) if "known" in hand else "(hidden)"
        rows.append([society, str(hand["size"]), by_empire, known or "—"])
    return rows


def loyalty_rows(view: Mapping[str, Any]) -> Rows:
    rows = []
    for society, loyalty in view["loyalty"].items():
        if loyalty is None:
            rows.append([society, *("not recorded" if i == 0 else "" for i, _ in enumerate(SLOTS)), "", ""])
            continue
        known = loyalty["tokens"] or loyalty["revealed"]
        cells = [known.get(slot, "?") for slot in SLOTS]
        if loyalty["sealed"] and not loyalty["revealed"]:
            cells = ["sealed", *([""] * (len(SLOTS) - 1))]
        rows.append([society, *cells, str(loyalty["swaps"]), str(loyalty["concealed"])])
    return rows


def score_rows(scores: Mapping[str, int | None]) -> Rows:
    return [[society, "?" if total is None else str(total)] for society, total in scores.items()]


def field_rows(view: Mapping[str, Any]) -> Rows:
    return [[society, region] for society, region in view["field_agents"]]


def _table(title: str, headers: list[str], rows: Rows, before: Rows | None,
           right: tuple[int, ...] = ()) -> Table:
    table = Table(title=title, title_justify="left", title_style="bold", show_edge=False, pad_edge=False,
                  min_width=len(title))
    for index, header in enumerate(headers):
        table.add_column(header, justify="right" if index in right else "left")
    old = {row[0]: row for row in before} if before is not None else None
    for row in rows:
        previous = old.get(row[0]) if old is not None else None
        cells = []
        for index, cell in enumerate(row):
            changed = old is not None and (previous is None or index >= len(previous) or previous[index] != cell)
            cells.append(Text(cell, style=CHANGED if changed else ""))
        table.add_row(*cells)
    return table


def _pair(rows_of: Callable[[Mapping[str, Any]], Rows], view: Mapping[str, Any],
          before: Mapping[str, Any] | None) -> tuple[Rows, Rows | None]:
    return rows_of(view), None if before is None else rows_of(before)


def view_tables(view: Mapping[str, Any], scores: Mapping[str, int | None],
                before: Mapping[str, Any] | None = None,
                scores_before: Mapping[str, int | None] | None = None) -> RenderableType:
    """The tables of one view; with `before` (the view a step earlier), what changed is highlighted."""
    parts: list[RenderableType] = []
    parts.append(_table("Council", ["empire", *OFFICES], *_pair(council_rows, view, before)))
    parts.append(_table("Board", ["empire", "cities", "banners", "reserve", "regions held (banners)"],
                        *_pair(board_rows, view, before), right=(1, 2, 3)))
    if view["field_agents"] or (before is not None and before["field_agents"]):
        parts.append(_table("Agents in the field", ["society", "region"], *_pair(field_rows, view, before)))
    parts.append(_table("Hands", ["society", "cards", "by empire", "names"], *_pair(hand_rows, view, before),
                        right=(1,)))
    viewer = view.get("viewer")
    title = "Loyalty" + ("" if viewer is None else f" (as {viewer} knows it; ? = concealed)")
    parts.append(_table(title, ["society", *SLOTS, "swaps", "concealed"], *_pair(loyalty_rows, view, before),
                        right=(len(SLOTS) + 1, len(SLOTS) + 2)))
    unknown = sum(1 for v in scores.values() if v is None)
    note = (None if not unknown else
            f"?: {plural(unknown, 'score')} not computable here (a sealed set, or tokens this viewer may not see)")
    parts.append(_table("Score if the game ended now", ["society", "points"], score_rows(scores),
                        None if scores_before is None else score_rows(scores_before), right=(1,)))
    if note:
        parts.append(Text(note, style="dim"))
    return Group(*(item for part in parts for item in (part, Text("") if isinstance(part, Table) else None)
                   if item is not None))
