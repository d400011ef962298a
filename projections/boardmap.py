"""The board map at any version: a node per region (name, cities, farm and fort, banners, the controlling
empire's colour, field agents) and an edge per land border, as Graphviz DOT for `neato`. A sea the board file
gives is a blue oval joined to the regions on its shores by dotted blue lines, never drawn as a border.

Where the board file gives positions (`pos`) they are pinned, so every map of a board has the same layout;
otherwise neato lays the regions out itself.
"""


from collections.abc import Mapping
from typing import TYPE_CHECKING

from whispers.ledger.core import events as ev
from whispers.ledger.core.names import OFFICES
from whispers.ledger.core.state import GameState, position_name
from whispers.ledger.core.words import ENGLISH, _, plural, say, term, tongue
from whispers.projections.colours import empire_colour, society_colour
from whispers.projections.render import escape as _esc
from whispers.projections.render import plain

if TYPE_CHECKING:
    from graphviz import Digraph

FONT = "DejaVu Sans"
SCALE = 1.6
"""Inches per unit of the board file's `pos`."""
SEA_FILL, SEA_LINE, SEA_INK = "#e3f2fd", "#64b5f6", "#1565c0"



def _order(order: str) -> str:
    """An order as the map names it: `attack` in English, the rulebook's word for it in another language."""
    return order.replace("_", " ") if tongue() is ENGLISH else term(order, "order")


def _legend(state: GameState) -> str:
    """Each empire's colour with its banners on the board and in reserve and its cities; the societies'
    colours where field agents are in play; how to read a region."""
    heads = [_esc(word) for word in (_("empire"), _("banners"), _("reserve"), _("cities"))]
    rows = [f"<TR><TD></TD><TD ALIGN='LEFT'><B>{heads[0]}</B></TD><TD><B>{heads[1]}</B></TD>"
            f"<TD><B>{heads[2]}</B></TD><TD><B>{heads[3]}</B></TD></TR>"]
    for empire in state.board.empires:
        colour = empire_colour(empire)
        rows.append(f"<TR><TD BGCOLOR='{colour.strong}' WIDTH='14'> </TD><TD ALIGN='LEFT'>{_esc(term(empire))}</TD>"
                    f"<TD>{state.on_board(empire)}</TD><TD>{state.reserve.get(empire, 0)}</TD>"
                    f"<TD>{state.cities(empire)}</TD></TR>")
    # the empires' table nested, so the notes under it do not stretch its swatches
    outer = ["<TR><TD ALIGN='LEFT'><TABLE BORDER='0' CELLSPACING='1' CELLPADDING='2'>" + "".join(rows)
             + "</TABLE></TD></TR>"]
    if state.ruleset.field_agents:
        agents = " ".join(f"<FONT COLOR='{society_colour(s).strong}'><B>◆ {_esc(term(s))}</B></FONT>"
                          for s in state.players)
        field = _esc(_("field agents:"))
        outer.append(f"<TR><TD ALIGN='LEFT'>{field} {agents}</TD></TR>")
    how = _("fill: the empire in control · border: the home empire (thick: a fort) · ● a city")
    outer.append(f"<TR><TD ALIGN='LEFT'><FONT POINT-SIZE='9'>{_esc(how)}</FONT></TD></TR>")
    if state.board.seas:
        seas = _esc(_("grey line: a land border · dotted blue line: a region on a sea's shore "
                      "(a sea is never a border)"))
        outer.append(f"<TR><TD ALIGN='LEFT'><FONT POINT-SIZE='9' COLOR='{SEA_INK}'>{seas}</FONT></TD></TR>")
    return ("<<TABLE BORDER='1' COLOR='#bdbdbd' CELLBORDER='0' CELLSPACING='1' CELLPADDING='3'>"
            + "".join(outer) + "</TABLE>>")


def _legend_x(state: GameState) -> float:
    """Where the pinned legend's centre goes: under the map's left part."""
    xs = [region.pos[0] for region in state.board.regions.values() if region.pos is not None]
    return (min(xs) * SCALE + 2.2) if xs else 0.0


def _council(state: GameState, last: ev.Event | None, scores: Mapping[str, int | None] | None,
             phase: str) -> str:
    """The council beside the board: each empire's offices with the society whose agent holds each (the
    position the last move took is outlined), then where the game stands and the scores if it ended now."""
    held = {position_name(pos): s for pos, s in state.council.items()}
    taken = getattr(last, "where", None) if isinstance(last, ev.AgentDeployed) else None
    if taken is None and getattr(last, "empire", None) and getattr(last, "office", None):
        taken = f"{last.empire}.{last.office}"  # type: ignore[union-attr]  # the office the move was played at
    rows = ["<TR><TD></TD>" + "".join(f"<TD><B>{_esc(term(o))}</B></TD>" for o in OFFICES) + "</TR>"]
    for empire in state.board.empires:
        colour = empire_colour(empire)
        cells = [f"<TD BGCOLOR='{colour.strong}'><FONT COLOR='{colour.ink}'><B>{_esc(term(empire))}</B></FONT></TD>"]
        for office in OFFICES:
            position = f"{empire}.{office}"
            society = held.get(position)
            border = " BORDER='2' COLOR='#000000'" if position == taken else ""
            if society is None:
                cells.append(f"<TD{border}><FONT COLOR='#9e9e9e'>·</FONT></TD>")
            else:
                tint = society_colour(society)
                cells.append(f"<TD BGCOLOR='{tint.light}'{border}><FONT COLOR='{tint.strong}'><B>{_esc(term(society))}"
                             "</B></FONT></TD>")
        rows.append("<TR>" + "".join(cells) + "</TR>")
    council = _esc(_("council"))
    outer = [f"<TR><TD><B>{council}</B></TD></TR>",
             "<TR><TD><TABLE BORDER='0' CELLSPACING='2' CELLPADDING='4'>" + "".join(rows) + "</TABLE></TD></TR>",
             f"<TR><TD ALIGN='LEFT'>{_esc(phase)}</TD></TR>"]
    if scores is not None:
        shown = " · ".join(f"<FONT COLOR='{society_colour(s).strong}'><B>{_esc(term(s))}</B></FONT> "
                           f"{'?' if v is None else v}" for s, v in scores.items())
        if_now = _esc(_("score if it ended now:"))
        outer.append(f"<TR><TD ALIGN='LEFT'>{if_now} {shown}</TD></TR>")
        if any(v is None for v in scores.values()):
            unknown = _esc(_("? a sealed set, or tokens this viewer may not see"))
            outer.append(f"<TR><TD ALIGN='LEFT'><FONT POINT-SIZE='9'>{unknown}</FONT></TD></TR>")
    return ("<<TABLE BORDER='1' COLOR='#bdbdbd' CELLBORDER='0' CELLSPACING='1' CELLPADDING='3'>"
            + "".join(outer) + "</TABLE>>")


def _seas(g: "Digraph", state: GameState) -> None:
    """Each sea as an oval where the file puts it (else amid its shores, when they are placed), and a dotted
    line to each region on its shores. Node ids `sea_ID`: a region id holds no underscore."""
    regions = state.board.regions
    for sea in state.board.seas.values():
        attrs = {"id": f"sea_{sea.id}", "class": "sea", "shape": "ellipse", "style": "filled",
                 "fillcolor": SEA_FILL, "color": SEA_LINE, "fontcolor": SEA_INK, "fontsize": "11",
                 "tooltip": plain(say("{sea}: on its shores {regions}", sea=sea.name,
                                      regions=", ".join(regions[r].name for r in sea.coasts)))}
        shores = [regions[r].pos for r in sea.coasts]
        if sea.pos is not None:
            attrs["pos"] = f"{sea.pos[0] * SCALE:.2f},{sea.pos[1] * SCALE:.2f}!"
        elif all(p is not None for p in shores):
            xs, ys = [p[0] for p in shores if p], [p[1] for p in shores if p]
            attrs["pos"] = f"{sum(xs) / len(xs) * SCALE:.2f},{sum(ys) / len(ys) * SCALE:.2f}!"
        g.node(f"sea_{sea.id}", f"<<I>{_esc(sea.name)}</I>>", **attrs)
        for region in sea.coasts:
            g.edge(f"sea_{sea.id}", region, style="dotted", color=SEA_LINE, penwidth="1.6",
                   **{"class": "sea-shore"})


def board_map(state: GameState, title: str | None = None, last: ev.Event | None = None,
              scores: Mapping[str, int | None] | None = None, phase: str | None = None) -> str:
    """DOT source of the board as it stands in `state` (lay it out with neato), with the council beside it
    and, given the last move, an arrow for an attack (and the recruits' regions outlined)."""
    import graphviz

    board = state.board
    pinned = all(region.pos is not None for region in board.regions.values())
    g = graphviz.Graph(name="map", engine="neato", comment=plain(f"whispers map of {state.name}"))
    heading = title or say("{game} · {board} · after event {n}", game=state.name, board=board.name, n=state.version)
    g.attr(label=plain(heading), labelloc="t", fontname=FONT, fontsize="18", overlap="false" if not pinned else "true",
           splines="true", outputorder="edgesfirst", pad="0.4", bgcolor="white", sep="+12")
    g.attr("node", shape="box", style="rounded,filled", fontname=FONT, fontsize="10", margin="0.08,0.04")
    g.attr("edge", color="#9e9e9e", penwidth="1.2")
    agents: dict[str, list[str]] = {}
    for society, place in sorted(state.field_agents):
        agents.setdefault(place, []).append(society)
    for region in board.regions.values():
        controller = state.controller(region.id)
        colour = empire_colour(controller)
        home = empire_colour(region.home)
        count = state.banners_in(region.id)
        marks = " · ".join(m for m, on in ((_("farm"), region.farm), (_("fort"), region.fort)) if on)
        cities = "●" * region.cities
        rows = [f"<B>{_esc(region.name)}</B>"]
        counted = cities + " " + plural(region.cities, "city") if region.cities else ""
        details = " · ".join(x for x in (counted, marks) if x)
        if details:
            rows.append(f"<FONT POINT-SIZE='9'>{_esc(details)}</FONT>")
        if count:
            # a pill in the controller's own colour: readable for every empire (yellow on pale yellow was not)
            rows.append(f"<TD BGCOLOR='{colour.strong}'><FONT COLOR='{colour.ink}'><B>{_esc(term(controller))} ×{count}"
                        "</B></FONT></TD>")
        else:
            none = _esc(_("no banners"))
            rows.append(f"<FONT POINT-SIZE='9' COLOR='#616161'>{_esc(term(controller))} · {none}</FONT>")
        if region.id in agents:
            names = " ".join(
                f"<FONT COLOR='{society_colour(s).strong}'><B>◆ {_esc(term(s))}</B></FONT>" for s in agents[region.id])
            rows.append(f"<FONT POINT-SIZE='9'>{names}</FONT>")
        if isinstance(last, ev.BannersRecruited) and region.id in last.placed:
            recruited = _esc(say("+{n} recruited", n=last.placed[region.id]))
            rows.append(f"<FONT POINT-SIZE='9'><B>{recruited}</B></FONT>")
        attrs = {
            "id": region.id, "class": f"region controller-{controller} home-{region.home}",
            "fillcolor": colour.light, "color": home.strong, "penwidth": "3" if region.fort else "1.5",
            "tooltip": plain(say("{region}: home {home}, held by {controller}", region=region.name, home=region.home,
                                 controller=controller)),
        }
        if region.pos is not None:
            x, y = region.pos
            attrs["pos"] = f"{x * SCALE:.2f},{y * SCALE:.2f}!"
        cells = [row if row.startswith("<TD") else f"<TD>{row}</TD>" for row in rows]
        label = "<TABLE BORDER='0' CELLPADDING='1' CELLSPACING='1'>" + "".join(f"<TR>{c}</TR>" for c in cells)
        g.node(region.id, f"<{label}</TABLE>>", **attrs)
    attack = {last.source, last.target} if isinstance(last, ev.Attacked) else set()
    for a, b in board.borders():
        if {a, b} != attack:  # the attack's arrow is drawn over that border instead
            g.edge(a, b, **{"class": "border"})
    _seas(g, state)
    if isinstance(last, ev.Attacked):
        colour = empire_colour(last.empire)
        g.edge(last.source, last.target, dir="forward", color=colour.strong, penwidth="4", arrowsize="1.6",
               label=plain(say("{order} ×{n}", order=_order("attack"), n=last.banners)), fontcolor=colour.strong,
               fontsize="14", fontname=FONT,
               **{"class": "last-move attack"})
    xs = [region.pos[0] for region in board.regions.values() if region.pos is not None]
    ys = [region.pos[1] for region in board.regions.values() if region.pos is not None]
    phase = phase or say("round {round} · {phase}", round=state.round, phase=term(state.phase, "phase"))
    g.node("council", _council(state, last, scores, phase),
           shape="plaintext", style="", fontsize="11", margin="0",
           **({"pos": f"{max(xs) * SCALE + 4.2:.2f},{max(ys) * SCALE - 2.2:.2f}!"} if pinned and xs else {}))
    g.node("legend", _legend(state), shape="plaintext", style="", fontsize="10", margin="0",
           **({"pos": f"{_legend_x(state):.2f},-0.9!"} if pinned else {}))
    return g.source
