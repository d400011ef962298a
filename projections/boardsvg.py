"""The board as the table page draws it, to be tapped: SVG written here from the board's data, not by Graphviz.

Every region is a group (`<g class="region" data-region="ID">`) holding its box (filled in the colour of the empire
in control, outlined in its home empire's, thick for a fort), its name, its cities, farm and fort, and a pill with
its banners (the controlling empire and how many). The page's script (web/static/board.js) marks the regions a
move may use and the taps made; an empty badge in each group is where it writes a tap's count.

Why not Graphviz (projections/boardmap.py draws `whispers map` with neato): the board files give every region's
place (`pos`), so no layout is needed; a page needs `data-` attributes and the same sizes at every version (its
script finds a region by them, and a region must stay where the finger expects it), which Graphviz does not
write; and the page then draws without Graphviz installed, in microseconds rather than a program's run per move.
A board without places is laid out in a plain grid, a column per home empire in turn order.

Public facts only: the board, the banners, who controls what, the field agents. Nothing a seat keeps secret is
read, so every viewer is sent the same bytes (tests/test_board_taps.py checks it differentially).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

from whispers.ledger.core.board import Board
from whispers.ledger.core.state import GameState
from whispers.ledger.core.words import _, plural, say, term
from whispers.projections.colours import empire_colour, society_colour

UNIT = 100
"""SVG units per unit of the board file's `pos`: the stand-in board's closest regions are 1.2 apart across."""
WIDE, HIGH = 108, 76
"""A region's box: narrower than the closest regions side by side, lower than the closest one above another."""
MARGIN = 12
TOP = 26
"""Room above the top row for a tap's badge."""
NAME_LINE = 13
"""Characters on a line of a region's name before it wraps (two lines at most, then "…": its title has it all)."""
SEA_INK = "#1565c0"

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _x(text: str) -> str:
    """Text (a name from a board file) for XML content or a quoted attribute: no markup, nothing XML refuses."""
    return html.escape(_NOT_XML.sub("\ufffd", text), quote=True)


def places(board: Board) -> dict[str, tuple[float, float]]:
    """Each region's centre in SVG units (y down): the file's `pos` (y north), else a grid of home empires."""
    regions = board.regions
    if all(region.pos is not None for region in regions.values()):
        xs = [r.pos[0] for r in regions.values() if r.pos]
        ys = [r.pos[1] for r in regions.values() if r.pos]
        left, top = min(xs), max(ys)
        return {r.id: (MARGIN + WIDE / 2 + (r.pos[0] - left) * UNIT, TOP + HIGH / 2 + (top - r.pos[1]) * UNIT)
                for r in regions.values() if r.pos}
    homes = list(board.empires) + sorted({r.home for r in regions.values()} - set(board.empires))
    rows: dict[str, int] = {}
    found = {}
    for region in regions.values():
        row = rows[region.home] = rows.get(region.home, -1) + 1
        found[region.id] = (MARGIN + WIDE / 2 + homes.index(region.home) * (WIDE + 24),
                            TOP + HIGH / 2 + row * (HIGH + 24))
    return found


def _name_lines(name: str) -> list[str]:
    """A region's name on one or two lines, cut at a space when it can be, "…" past the second."""
    if len(name) <= NAME_LINE:
        return [name]
    cut = name.rfind(" ", 0, NAME_LINE + 1)
    first, rest = (name[:cut], name[cut + 1:]) if cut > 0 else (name[:NAME_LINE], name[NAME_LINE:])
    return [first, rest if len(rest) <= NAME_LINE else rest[: NAME_LINE - 1] + "…"]


def _region(state: GameState, region_id: str, x: float, y: float, agents: list[str]) -> Iterator[str]:
    region = state.board.regions[region_id]
    controller, count = state.controller(region_id), state.banners_in(region_id)
    fill, home = empire_colour(controller), empire_colour(region.home)
    left, top = x - WIDE / 2, y - HIGH / 2
    icons = "●" * region.cities + (" ■" if region.farm else "") + (" ▲" if region.fort else "")
    described = [say("{region}: held by {empire} with {banners}", region=region.name, empire=controller,
                     banners=plural(count, "banner"))
                 if count else say("{region}: no banners, held by its home empire {empire}", region=region.name,
                                   empire=controller),
                 say("home {empire}", empire=region.home)]
    if region.cities:
        described.append(plural(region.cities, "city"))
    described += [word for word, on in ((_("farm"), region.farm), (_("fort"), region.fort)) if on]
    described += [say("field agent of {society}", society=s) for s in agents]
    title = " · ".join(described)
    yield (f'<g class="region" id="region-{region_id}" data-region="{region_id}" data-controller="{controller}" '
           f'data-banners="{count}" data-name="{_x(region.name)}" tabindex="0" role="button" aria-label="{_x(title)}">')
    yield f"<title>{_x(title)}</title>"
    yield (f'<rect class="box" x="{left:.1f}" y="{top:.1f}" width="{WIDE}" height="{HIGH}" rx="9" '
           f'fill="{fill.light}" stroke="{home.strong}" stroke-width="{5 if region.fort else 2}"/>')
    lines = _name_lines(region.name)
    for i, line in enumerate(lines):
        yield (f'<text class="name" x="{x:.1f}" y="{top + 17 + i * 15:.1f}" text-anchor="middle">'
               f"{_x(line)}</text>")
    if icons.strip():
        yield (f'<text class="icons" x="{x:.1f}" y="{top + 19 + len(lines) * 15:.1f}" text-anchor="middle">'
               f"{icons}</text>")
    pill = f"{term(controller)} {count}"
    pill_wide = min(WIDE - 10, 12 + 8 * len(pill))
    solid = f'fill="{fill.strong}"' if count else f'fill="#ffffff" stroke="{fill.strong}"'
    ink = fill.ink if count else "#555555"
    yield (f'<rect class="pill" x="{x - pill_wide / 2:.1f}" y="{top + HIGH - 22:.1f}" width="{pill_wide}" '
           f'height="18" rx="9" {solid}/>')
    yield (f'<text class="count" x="{x:.1f}" y="{top + HIGH - 8.5:.1f}" text-anchor="middle" fill="{ink}">'
           f"{_x(pill)}</text>")
    for i, society in enumerate(agents):
        yield (f'<text class="agent" x="{left + 6 + i * 12:.1f}" y="{top + 14:.1f}" '
               f'fill="{society_colour(society).strong}">◆</text>')
    # where the page's script writes a tap's count (+2, "from", "to"): drawn empty, shown only once filled
    yield (f'<g class="badge"><rect x="{left + WIDE - 40:.1f}" y="{top - 19:.1f}" width="48" height="22" rx="11"/>'
           f'<text x="{left + WIDE - 16:.1f}" y="{top - 3:.1f}" text-anchor="middle"></text></g>')
    yield "</g>"


def board_svg(state: GameState) -> str:
    """The board as it stands in `state`, as an SVG element for the table page (no XML declaration)."""
    board = state.board
    at = places(board)
    width = max(x for x, _y in at.values()) + WIDE / 2 + MARGIN
    height = max(y for _x, y in at.values()) + HIGH / 2 + MARGIN
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {width:.0f} {height:.0f}" '
           f'role="group" aria-label="{_x(say("the board {board}", board=board.name))}">']
    out += [f'<line class="border" x1="{at[a][0]:.1f}" y1="{at[a][1]:.1f}" x2="{at[b][0]:.1f}" y2="{at[b][1]:.1f}"/>'
            for a, b in board.borders()]
    for sea in board.seas.values():
        shores = [at[r] for r in sea.coasts]
        sx, sy = sum(p[0] for p in shores) / len(shores), sum(p[1] for p in shores) / len(shores)
        out += [f'<line class="shore" x1="{sx:.1f}" y1="{sy:.1f}" x2="{px:.1f}" y2="{py:.1f}"/>' for px, py in shores]
        out.append(f'<text class="sea" x="{sx:.1f}" y="{sy:.1f}" text-anchor="middle" fill="{SEA_INK}">'
                   f"{_x(sea.name)}</text>")
    agents: dict[str, list[str]] = {}
    for society, region in sorted(state.field_agents):
        agents.setdefault(region, []).append(society)
    for region_id, (x, y) in at.items():
        out += _region(state, region_id, x, y, agents.get(region_id, []))
    out.append("</svg>")
    return "\n".join(out)
