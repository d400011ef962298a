"""The board map at any version: a node per region (name, cities, farm and fort, banners, the controlling
empire's colour, field agents) and an edge per land border, as Graphviz DOT for `neato`.

Where the board file gives positions (`pos`) they are pinned, so every map of a board has the same layout;
otherwise neato lays the regions out itself.
"""

import html

from ledger.state import GameState
from projections.colours import empire_colour, society_colour

FONT = "DejaVu Sans"
SCALE = 1.6
"""Inches per unit of the board file's `pos`."""


def _esc(text: str) -> str:
    return html.escape(text, quote=False)


def board_map(state: GameState, title: str | None = None) -> str:
    """DOT source of the board as it stands in `state` (lay it out with neato)."""
    import graphviz

    board = state.board
    pinned = all(region.pos is not None for region in board.regions.values())
    g = graphviz.Graph(name="map", engine="neato", comment=f"whispers map of {state.name}")
    heading = title or f"{state.name} · {board.name} · after event {state.version}"
    g.attr(label=heading, labelloc="t", fontname=FONT, fontsize="18", overlap="false" if not pinned else "true",
           splines="true", outputorder="edgesfirst", pad="0.4", bgcolor="white", sep="+12")
    g.attr("node", shape="box", style="rounded,filled", fontname=FONT, fontsize="10", margin="0.08,0.04")
    g.attr("edge", color="#9e9e9e", penwidth="1.2")
    agents: dict[str, list[str]] = {}
    for society, region in sorted(state.field_agents):
        agents.setdefault(region, []).append(society)
    for region in board.regions.values():
        controller = state.controller(region.id)
        colour = empire_colour(controller)
        home = empire_colour(region.home)
        count = state.banners_in(region.id)
        marks = " · ".join(m for m, on in (("farm", region.farm), ("fort", region.fort)) if on)
        cities = "●" * region.cities
        rows = [f"<B>{_esc(region.name)}</B>"]
        details = " · ".join(x for x in (f"{cities} {region.cities} city" if region.cities else "", marks) if x)
        if region.cities > 1:
            details = details.replace(" city", " cities")
        if details:
            rows.append(f"<FONT POINT-SIZE='9'>{_esc(details)}</FONT>")
        held = f"{controller} ×{count}" if count else f"{controller} (empty)"
        rows.append(f"<FONT COLOR='{colour.strong}'><B>{_esc(held)}</B></FONT>")
        if region.id in agents:
            names = ", ".join(
                f"<FONT COLOR='{society_colour(s).strong}'>{_esc(s)}</FONT>" for s in agents[region.id])
            rows.append(f"<FONT POINT-SIZE='9'>agents: {names}</FONT>")
        attrs = {
            "id": region.id, "class": f"region controller-{controller} home-{region.home}",
            "fillcolor": colour.light, "color": home.strong, "penwidth": "3" if region.fort else "1.5",
            "tooltip": f"{region.name}: home {region.home}, held by {controller}",
        }
        if region.pos is not None:
            x, y = region.pos
            attrs["pos"] = f"{x * SCALE:.2f},{y * SCALE:.2f}!"
        g.node(region.id, "<" + "<BR/>".join(rows) + ">", **attrs)
    for a, b in board.borders():
        g.edge(a, b, **{"class": "border"})
    legend = " ".join(f"<FONT COLOR='{empire_colour(e).strong}'><B>{_esc(e)}</B></FONT>" for e in board.empires)
    g.node("legend", f"<fill: the empire in control · border: the home empire (thick: a fort)<BR/>{legend}>",
           shape="plaintext", style="", fontsize="10", **({"pos": "0,-1!"} if pinned else {}))
    return g.source
