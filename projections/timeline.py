"""The council-order timeline: what each office did, round by round, as a Graphviz diagram (DOT source).

One cluster per round, and in it one cluster per empire in turn order; in each empire's cluster a node per
office as it was executed (the order taken and its result in a few words, filled with the colour of the
society that controlled it), faded for an office skipped, with the reason; the supply check ends the turn.
Solid edges follow the execution order. Time leaps are dashed edges of the acting society's colour: a
swap-agent order jumping to another office, a card lending another position's order (`act`), and an agent
moved by a card or a ruling. The legend gives the societies' colours (and loyalties, as far as the viewer
may know them); each round's label names its first player.

Built from the record's events alone (the moves taken back are left out); only the CLI imports this module.
"""

import itertools
import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from whispers.ledger.core import events as ev
from whispers.ledger.core.decree_effects import effect
from whispers.ledger.core.evolve import evolve
from whispers.ledger.core.legal import order_actor
from whispers.ledger.core.names import OFFICES, SLOTS
from whispers.ledger.core.state import GameState
from whispers.ledger.core.words import (
    ENGLISH,
    _,
    office_skip_reason,
    plural,
    position,
    say,
    skip_reason,
    term,
    terms,
    tongue,
)
from whispers.ledger.io.shipped import labels as pin_labels
from whispers.projections.colours import Colour, empire_colour, society_colour
from whispers.projections.labels import Label, labels
from whispers.projections.render import PictureError, plain
from whispers.projections.render import escape as _esc
from whispers.projections.replay import standing
from whispers.projections.visibility import AnyViewer, can_see, check_viewer, knows, viewer_of

if TYPE_CHECKING:
    from graphviz import Digraph

OrderEvent = ev.BannersRecruited | ev.CardsDrawn | ev.Attacked | ev.AgentSwapped
"""The events of an order given (`Timeline.order`)."""

FONT = "DejaVu Sans"
ORDER_EVENTS = (ev.BannersRecruited, ev.CardsDrawn, ev.Attacked, ev.AgentSwapped)
SUPPLY_COLUMN = len(OFFICES)
NOTE_WRAP = 64
_TAG = re.compile(r"<[^>]+>")


# --- what happened, in the timeline's terms -------------------------------------------------------------


@dataclass
class Node:
    id: str
    kind: str
    """office (executed), skipped, supply, owed."""
    empire: str
    office: str | None
    column: int
    society: str | None
    head: str
    lines: list[str]
    notes: list[str] = field(default_factory=list)
    leap: str | None = None
    """How this office came to act out of sequence: swap or card (None: in its turn)."""
    label: str | None = None
    """The move's label a person can say (projections/labels.py): `m23 2.bear.marshal`."""
    lost: bool = False
    """A supply check that cost banners (drawn in orange)."""


@dataclass
class Turn:
    round: int
    empire: str
    nodes: list[Node] = field(default_factory=list)


@dataclass
class Leap:
    kind: str
    """swap, card-act, card-agent, ruling-agent."""
    round: int
    tail: str | tuple[str, str]
    """A node id, or a council position resolved against the round's nodes at the end."""
    head: str | tuple[str, str]
    society: str | None
    label: str
    fallback: str


@dataclass
class Round:
    number: int
    first: str
    turns: list[Turn] = field(default_factory=list)
    end: list[str] = field(default_factory=list)
    passed: list[str] = field(default_factory=list)
    """Societies that kept their loyalty tokens in the swap phase."""

    def closing(self) -> list[str]:
        kept = [say("kept their loyalty: {societies}", societies=terms(self.passed))] if self.passed else []
        return [*self.end, *kept]


class _Reader:
    """Walks the standing events once, folding the state beside them, and collects rounds, nodes and leaps."""

    def __init__(self, viewer: AnyViewer) -> None:
        self.viewer = viewer
        self.rounds: dict[int, Round] = {}
        self.leaps: list[Leap] = []
        self.turn: Turn | None = None
        self.waiting: list[str] = []
        """Notes (cards played before an order) for the next node of the turn."""
        self.pending_leap: tuple[str, str, str | None, str] | None = None
        self.effect_leap: str | None = None
        """The label of a card effect that sends the next order out of sequence (an effect that `leaps`)."""
        """(kind, tail node id, society, label) of a leap whose order node comes next."""
        self.scores: ev.GameScored | None = None
        self.state: GameState | None = None
        self.label: str | None = None
        """The label of the move being read (None for an event the engine recorded on its own)."""

    # rounds and turns

    def round(self, number: int, first: str) -> Round:
        if number not in self.rounds:
            self.rounds[number] = Round(number, first)
        return self.rounds[number]

    def current_round(self) -> Round:
        assert self.state is not None
        return self.round(self.state.round, self.state.first)

    def node(self, kind: str, office: str | None, column: int, society: str | None, head: str,
             lines: list[str]) -> Node:
        assert self.turn is not None
        suffix = "supply" if kind == "supply" else str(len(self.turn.nodes))
        node = Node(f"r{self.turn.round}_{self.turn.empire}_{suffix}", kind, self.turn.empire, office, column,
                    society, head, lines)
        if self.waiting:
            node.notes, self.waiting = self.waiting, []
        self.turn.nodes.append(node)
        return node

    def last_node(self) -> Node | None:
        return self.turn.nodes[-1] if self.turn and self.turn.nodes else None

    # the walk

    def read(self, events: Sequence[tuple[int, ev.Event]], named: Mapping[int, Label]) -> None:
        """Read the standing (version, event) pairs; `named` holds the moves' labels by event number."""
        for version, event in events:
            label = named.get(version)
            self.label = None if label is None else _label_text(label)
            before = self.state
            if before is not None:
                self.see(before, event)
            self.state = evolve(before, event)
        if self.pending_leap is not None and self.turn is not None and self.state is not None:
            self.owed(self.state)

    def see(self, state: GameState, event: ev.Event) -> None:
        match event:
            case ev.PhaseStarted(round=number):
                self.round(number, state.first)
                if event.phase != "empire":
                    self.turn = None
            case ev.EmpireTurnStarted(empire=empire):
                self.turn = Turn(state.round, empire)
                self.current_round().turns.append(self.turn)
                self.waiting = []
                self.effect_leap = None  # a reversed council or a repeat ends with its empire's turn
            case ev.BannersRecruited() | ev.CardsDrawn() | ev.Attacked() | ev.AgentSwapped():
                self.order(state, event)
            case ev.OfficeSkipped():
                self.skipped(state, event)
            case ev.SupplyChecked():
                self.supply(event)
            case ev.SupplySuspended(effect=effect) if self.turn is not None:
                self.node("supply", None, SUPPLY_COLUMN, None, _head(_("supply check")),
                          [say("suspended ({effect})", effect=effect)])
            case ev.DeferredSupplyChecked():
                lost = ", ".join(say("{region} −{n} {empire}", region=region, n=n, empire=empire)
                                 for region, (empire, n) in event.losses.items())
                self.current_round().end.append(
                    say("deferred supply check: {lost}", lost=lost or _("no losses")))
            case ev.CardAttacked() if (last := self.last_node()) is not None:
                # the Bear's extra attack belongs to the attack (or the card) just drawn
                last.lines.append(say("{effect}: {source} → {target}: {banners} v {defending}, losses "
                                      "{attacker} {empire} / {defender} {held_by}", effect=event.effect,
                                      source=event.source, target=event.target, banners=event.banners,
                                      defending=event.defending, attacker=event.attacker_losses, empire=event.empire,
                                      defender=event.defender_losses, held_by=event.held_by))
            case ev.CardPlayed():
                self.card(state, event)
            case ev.RulingApplied():
                self.ruling(state, event)
            case ev.LoyaltySwapped(society=society, slots=(a, b), revealed=revealed):
                self.current_round().end.append(
                    self.labelled(say("{society} swaps {a} ↔ {b}: {a} {shows_a}, {b} {shows_b}", society=society,
                                      a=a, b=b, shows_a=revealed[a], shows_b=revealed[b])))
            case ev.SwapPassed(society=society):
                self.current_round().passed.append(society)
            case ev.Skipped(society=society, phase="swap", reason=reason):
                self.current_round().end.append(say("{society} cannot swap: {why}", society=society,
                                                    why=skip_reason(reason)))
            case ev.CardsDiscarded(society=society, cards=cards):
                self.current_round().end.append(self.labelled(say("{society} discards {cards}", society=society,
                                                                  cards=_cards(len(cards)))))
            case ev.FirstPlayerPassed(first=first):
                self.current_round().end.append(say("first player → {society}", society=first))
            case ev.GameScored():
                self.scores = event

    def labelled(self, text: str) -> str:
        """A line about the move being read, led by its label."""
        return f"{self.label} · {text}" if self.label else text

    def column(self, state: GameState, empire: str, office: str) -> int:
        """Where an office's node stands in its turn: the office's own column when it acts out of sequence
        in its own council (a swap), else the column of the office whose turn it is."""
        swapping = self.pending_leap is not None and self.pending_leap[0] == "swap"
        if state.pending is not None and empire == state.empire and swapping:
            return OFFICES.index(office)
        return min(state.office_index, SUPPLY_COLUMN - 1)

    def order(self, state: GameState, e: OrderEvent) -> None:
        if self.effect_leap is not None and self.pending_leap is None:
            self.pending_leap = ("card", f"{e.empire}.{e.office}", e.society, self.effect_leap)
            self.effect_leap = None
        leap = self.pending_leap
        lent = state.pending is not None and (e.empire, e.office) != (state.empire, state.office)
        head = _head(term(e.office) if e.empire == state.empire else f"{term(e.empire)} {term(e.office)}",
                     _("swapped in") if leap and leap[0] == "swap" else _("lent") if lent else None)
        node = self.node("office", e.office, self.column(state, e.empire, e.office), e.society, head,
                         _order_lines(e, self.viewer))
        node.leap = leap[0] if leap else None
        node.label = self.label
        self.link(node, leap)
        if isinstance(e, ev.AgentSwapped):
            self.pending_leap = ("swap", node.id, e.society, say("swap → {target}", target=position(e.target)))

    def skipped(self, state: GameState, e: ev.OfficeSkipped) -> None:
        leap = self.pending_leap
        why = office_skip_reason(e)
        if state.pending is not None:
            positions = state.pending.positions
            office = positions[0][1] if len(positions) == 1 and positions[0][0] == state.empire else e.office
            words = ", ".join(position(f"{p[0]}.{p[1]}") for p in positions)
            head = _head(term(office), _("swapped in") if leap and leap[0] == "swap" else _("lent"))
            node = self.node("skipped", office, self.column(state, state.empire, office), e.controller, head,
                             [say("skipped: {why}", why=why) if words in why
                              else say("{positions} skipped: {why}", positions=words, why=why)])
        else:
            node = self.node("skipped", e.office, OFFICES.index(e.office), e.controller, _head(term(e.office)),
                             [say("skipped: {why}", why=why)])
        node.leap = leap[0] if leap else None
        self.link(node, leap)

    def link(self, node: Node, leap: tuple[str, str, str | None, str] | None) -> None:
        """The leap that led to `node`, if one did (a swap's order, or a lent position's)."""
        if leap is None:
            return
        self.pending_leap = None
        kind, tail, society, label = leap
        assert self.turn is not None
        if kind == "swap":
            self.leaps.append(Leap("swap", self.turn.round, tail, node.id, society, label, node.id))
        else:
            # a lent order: from the lending position's own node this round, to where it was taken
            position = tuple(tail.split(".", 1))
            previous = self.turn.nodes[-2].id if len(self.turn.nodes) > 1 else node.id
            self.leaps.append(Leap("card-act", self.turn.round, (position[0], position[1]), node.id, society, label,
                                   previous))

    def owed(self, state: GameState) -> None:
        """A record that stops between a leap and its order: show the order as owed."""
        assert self.pending_leap is not None
        where = ", ".join(position(f"{p[0]}.{p[1]}") for p in state.pending.positions) if state.pending else "?"
        node = self.node("owed", None, min(state.office_index, SUPPLY_COLUMN - 1), self.pending_leap[2],
                         _head(_("owed")), [say("an order at {positions}", positions=where)])
        self.link(node, self.pending_leap)

    def supply(self, e: ev.SupplyChecked) -> None:
        if self.turn is None:
            return
        node = self.node("supply", None, SUPPLY_COLUMN, None, _head(_("supply check")), _supply_lines(e))
        node.lost = bool(e.losses)

    def card(self, state: GameState, e: ev.CardPlayed) -> None:
        effects = _effect_words(e.effects)
        played = say("{card} ({effect})", card=e.card, effect=e.effect) if e.effect else e.card
        note = self.labelled(say("{society} plays {card}: {effects}", society=e.society, card=played, effects=effects)
                             if effects else say("{society} plays {card}", society=e.society, card=played))
        if getattr(effect(e.effect), "leaps", False):
            self.effect_leap = say("card {card}: {effect}", card=e.card, effect=e.effect)
        if e.act is not None:
            note += " · " + say("takes the {position} order", position=_spaced(e.act))
        self.agent_leaps(e.effects, e.society, say("card {card}", card=e.card), "card-agent")
        if e.act is not None:
            self.pending_leap = ("card", e.act, e.society, say("card {card}: {position}", card=e.card,
                                                               position=position(e.act)))
        last = self.last_node()
        if e.act is None and last is not None and last.kind != "supply" and e.society != order_actor(state):
            last.notes.append(note)  # played after the order just taken (EN; REV type-I when drawn)
        else:
            self.waiting.append(note)

    def ruling(self, state: GameState, e: ev.RulingApplied) -> None:
        effects = _effect_words(e.effects)
        note = (say("ruling: {reason} ({effects})", reason=e.reason, effects=effects) if effects
                else say("ruling: {reason}", reason=e.reason))
        last = self.last_node()
        if state.phase == "empire" and last is not None:
            last.notes.append(note)
        elif state.phase == "empire" and self.turn is not None:
            self.waiting.append(note)
        else:
            self.current_round().end.append(note)
        self.agent_leaps(e.effects, None, _("ruling"), "ruling-agent")

    def agent_leaps(self, effects: ev.Effects, society: str | None, why: str, kind: str) -> None:
        if not effects.agent:
            return
        s = self.state
        assert s is not None
        host = self.last_node()
        for source, target in effects.agent:
            tail = tuple(source.split(".", 1))
            head = tuple(target.split(".", 1))
            mover = society or s.council.get((tail[0], tail[1]))
            fallback = host.id if host is not None else ""
            self.leaps.append(Leap(kind, s.round, (tail[0], tail[1]), (head[0], head[1]), mover,
                                   say("{why}: agent {source} → {target}", why=why, source=position(source),
                                       target=position(target)), fallback))


def _label_text(label: Label) -> str:
    return f"m{label.number} {label.place}"


def _cards(n: int) -> str:
    return plural(n, "card")


def _spaced(act: str) -> str:
    """A council position as a card's `act` names it in a note: `bear sheriff` (the empire's and office's terms)."""
    return act.replace(".", " ") if tongue() is ENGLISH else position(act)


def _head(office: str, how: str | None = None) -> str:
    text = f"<B>{_esc(office)}</B>"
    return f"{text} <I>({how})</I>" if how else text


def _order_name(order: str) -> str:
    """An order as a reader says it: recruit_2_per_fort -> "recruit 2 per fort" (in English; the rulebook's
    words in another language)."""
    return order.replace("_", " ") if tongue() is ENGLISH else term(order, "order")


def _order_lines(e: OrderEvent, viewer: AnyViewer) -> list[str]:
    match e:
        case ev.BannersRecruited():
            order = _order_name(e.order)
            placed = ", ".join(f"{r} +{n}" for r, n in e.placed.items())
            amount = (say("{order}: +{n} (reserve short of {counted})", order=order, n=e.amount, counted=e.counted)
                      if e.amount < e.counted else say("{order}: +{n}", order=order, n=e.amount))
            return [amount, placed or _("nothing to place")]
        case ev.CardsDrawn():
            order, cards = _order_name(e.order), _cards(e.drawn)
            lines = [say("{order}: {cards} (reshuffled {n})", order=order, cards=cards, n=e.reshuffled)
                     if e.reshuffled else say("{order}: {cards}", order=order, cards=cards)]
            if e.cards and can_see(viewer, e):
                lines.append(", ".join(e.cards))
            return lines
        case ev.Attacked() if e.defending == 0:
            # an empty region: no combat, no defender's losses; only a fort (or a card killing all) costs the attacker
            kills_all = any(getattr(effect(card), "kills_all", False) for card in e.cards)
            lost = _("all lost to the fort") if e.fort_kill and not kills_all else _("all lost")
            result = _("moved in") if e.army > e.attacker_losses else lost
            losses = say("the fort kills {n}", n=e.fort_kill) if e.fort_kill else _("no losses")
            return [say("{order} {source} → {target}: {army} v none, {result}", order=_order_name("attack"),
                        source=e.source, target=e.target, army=e.army, result=result), losses, *_attack_cards(e)]
        case ev.Attacked():
            survivors = e.army - e.attacker_losses
            if e.controller == e.empire and survivors:
                result = _("taken")
            elif e.defending - e.defender_losses > 0:
                result = _("held")
            else:
                result = _("both wiped out")
            lost_by = {"attacker": e.attacker_losses, "empire": e.empire, "defender": e.defender_losses,
                       "held_by": e.held_by}
            return [say("{order} {source} → {target}: {army} v {defending}, {result}", order=_order_name("attack"),
                        source=e.source, target=e.target, army=e.army, defending=e.defending, result=result),
                    say("losses {attacker} {empire} / {defender} {held_by}, fort kills {fort}", fort=e.fort_kill,
                        **lost_by) if e.fort_kill else say("losses {attacker} {empire} / {defender} {held_by}",
                                                           **lost_by),
                    *_attack_cards(e)]
        case ev.AgentSwapped():
            swapped = say("trades with {society}", society=e.displaced) if e.displaced else _("to the empty seat")
            return [say("{order} → {target}", order=_order_name("swap_agent"), target=position(e.target)), swapped]
    return [type(e).__name__]


def _attack_cards(e: ev.Attacked) -> list[str]:
    """The decree cards an attack carried (issue 11), and what they brought."""
    if not e.cards:
        return []
    brought = [say("+{n} from the reserve", n=e.added)] if e.added else []
    brought += [say("+{n} from {region}", n=n, region=region) for region, n in e.reinforced]
    brought += [say("{region} +{n} back", region=region, n=n) for region, n in (e.returned or {}).items()]
    return [", ".join(e.cards) + (f": {', '.join(brought)}" if brought else "")]


def _supply_lines(e: ev.SupplyChecked) -> list[str]:
    if not e.losses:
        return [_("no losses")]
    by_empire: dict[str, list[tuple[str, int]]] = {}
    for region, (empire, n) in e.losses.items():
        by_empire.setdefault(empire, []).append((region, n))
    return [say("{empire} −{n}: {regions}", empire=empire, n=sum(n for _r, n in lost),
                regions=", ".join(f"{r} {n}" for r, n in lost)) for empire, lost in by_empire.items()]


def _effect_words(effects: ev.Effects) -> str:
    words = [say("+{n} {empire} in {region}", n=n, empire=e, region=r) for e, r, n in effects.add]
    words += [say("−{n} {empire} in {region}", n=n, empire=e, region=r) for r, e, n in effects.kill]
    words += [say("{n} {empire} {source} → {target}", n=n, empire=e, source=a, target=b)
              for a, b, e, n in effects.move]
    words += [say("agent {source} → {target}", source=position(a), target=position(b)) for a, b in effects.agent]
    return ", ".join(words)



# --- drawing ---------------------------------------------------------------------------------------------


def timeline(events: Sequence[ev.Event], round: int | None = None, viewer: AnyViewer = None) -> str:
    """The council-order timeline of a record as DOT source: the whole game, or one round (`round`);
    all-seeing, or as `viewer` (a society, a spectator) saw it: then what the visibility policy hides is
    left out (names of cards others drew, loyalties not its own until revealed).

    PictureError when the record holds no such round; NotPlaying when the viewer is not playing."""
    import graphviz

    named = labels(events)
    kept = standing(events)
    events = [e for _, e in kept]
    if not events or not isinstance(events[0], ev.GameStarted):
        raise PictureError(_("the record does not begin with its game line"))
    started = events[0]
    check_viewer(started.name, started.players, viewer)
    reader = _Reader(viewer)
    reader.read(kept, named)
    played = [r for r in sorted(reader.rounds) if reader.rounds[r].turns]
    if round is not None and round not in reader.rounds:
        have = say("rounds {first} to {last}", first=played[0], last=played[-1]) if played else _("no round yet")
        raise PictureError(say("{game} has no round {round} ({have})", game=started.name, round=round, have=have))
    shown = [reader.rounds[r] for r in sorted(reader.rounds) if round in (None, r)]
    assert reader.state is not None
    state = reader.state

    title = f"{started.name} · " + _("council-order timeline")
    if round is not None:
        title += " · " + say("round {round}", round=round)
    ruleset_label, board_label = pin_labels(state)
    subtitle = say("{ruleset} rules · {board} board · {players}", ruleset=ruleset_label, board=board_label,
                   players=terms(started.players))
    shown_as = viewer_of(viewer)
    if not shown_as.sees_all:
        subtitle += " · " + say("as {viewer} saw it", viewer=shown_as.society or _("a spectator"))
    scores = reader.scores if round is None else None

    g = graphviz.Digraph(name="timeline", comment=plain(f"whispers timeline of {started.name}"))
    heading = _heading(title, subtitle, _legend(started, state, viewer), scores)
    g.attr(rankdir="LR", newrank="true", compound="true", label=heading, labelloc="t", labeljust="l",
           fontname=FONT, fontsize="14", nodesep="0.18", ranksep="0.35", pad="0.3", bgcolor="white")
    g.attr("node", shape="box", style="rounded,filled", fontname=FONT, fontsize="11", margin="0.10,0.05")
    g.attr("edge", fontname=FONT, fontsize="9", arrowsize="0.7")

    ids: dict[tuple[int, str, str], str] = {}
    first_column: list[list[str]] = []
    widths: dict[int, float] = {}
    for node in (n for rnd in shown for turn in rnd.turns for n in turn.nodes):
        widths[node.column] = max(widths.get(node.column, 0.0), _width(node))
    endings = {rnd.number: _end_lines(rnd) for rnd in shown}
    for lines in endings.values():
        if lines:  # the round's closing note stands in the supply checks' column
            needed = max(len(line) for line in lines) * 9 * 0.52 / 72 + 0.35
            widths[SUPPLY_COLUMN] = max(widths.get(SUPPLY_COLUMN, 0.0), needed)
    for rnd in reversed(shown):  # dot stacks clusters of one rank bottom-up in the order they are defined
        with g.subgraph(name=f"cluster_r{rnd.number}") as rg:
            rg.attr(label=plain(say("Round {round} · first player: {society}", round=rnd.number, society=rnd.first)),
                    labeljust="l", fontsize="16",
                    style="rounded", color="#9e9e9e", penwidth="1.2", margin="10")
            first_column.append([row for turn in rnd.turns
                                 if (row := _draw_turn(rg, turn, ids, widths)) is not None])
            if endings[rnd.number]:
                end_id = f"r{rnd.number}_end"
                said = "".join(f"<BR ALIGN='LEFT'/>{_esc(line)}" for line in endings[rnd.number])
                ends = _esc(say("round {round} ends", round=rnd.number))
                rg.node(end_id, f"<<B>{ends}</B>{said}<BR ALIGN='LEFT'/>>", shape="note",
                        style="filled", fillcolor="#fafafa", color="#bdbdbd", fontsize="9",
                        width=f"{widths.get(SUPPLY_COLUMN, 1.0):.2f}", **{"class": "roundend"})
                last = next((t.nodes[-1].id for t in reversed(rnd.turns) if t.nodes), None)
                if last is not None:
                    # under the last supply check, so it widens no column of offices
                    with rg.subgraph() as same:
                        same.attr(rank="same")
                        same.node(last)
                        same.node(end_id)
                    rg.edge(last, end_id, style="invis")
    # every empire's row, in every round, starts in one column, in turn order from the top
    with g.subgraph() as column:
        column.attr(rank="same")
        for row in itertools.chain.from_iterable(first_column):
            column.node(row)
    for rows in first_column:
        for upper, lower in itertools.pairwise(rows):
            g.edge(upper, lower, style="invis")
    for later, earlier in itertools.pairwise([rows for rows in first_column if rows]):
        g.edge(earlier[-1], later[0], style="invis")
    drawn = {node.id for rnd in shown for turn in rnd.turns for node in turn.nodes}
    for leap in reader.leaps:
        if round not in (None, leap.round):
            continue
        tail = _resolve(leap.tail, leap.round, ids, drawn) or leap.fallback
        head = _resolve(leap.head, leap.round, ids, drawn) or leap.fallback
        if not tail or not head:
            continue
        colour = society_colour(leap.society).strong
        # no words on the edge (they sat on other edges): the nodes say it, the SVG's tooltip too
        g.edge(tail, head, style="dashed", color=colour, penwidth="2", constraint="false", arrowhead="vee",
               comment=f"leap {leap.kind}", tooltip=plain(leap.label), **{"class": f"leap leap-{leap.kind}"})
    return g.source


def _resolve(end: str | tuple[str, str], rnd: int, ids: dict[tuple[int, str, str], str],
             drawn: set[str]) -> str | None:
    """A leap's end as a node id: a node's own id when drawn, or the node of a council position this round."""
    if isinstance(end, str):
        return end if end in drawn else None
    return ids.get((rnd, end[0], end[1]))


def _draw_turn(rg: "Digraph", turn: Turn, ids: dict[tuple[int, str, str], str], widths: dict[int, float]) -> str | None:
    colour = empire_colour(turn.empire)
    with rg.subgraph(name=f"cluster_r{turn.round}_{turn.empire}") as tg:
        tg.attr(label=f"<<B>{_esc(term(turn.empire))}</B>>", labeljust="l", fontsize="13", fontcolor=colour.strong,
                color=colour.strong, penwidth="2", style="rounded,filled", fillcolor="#ffffff", margin="6")
        columns: dict[int, list[str]] = {}
        for node in turn.nodes:
            _draw_node(tg, node, widths.get(node.column))
            columns.setdefault(node.column, []).append(node.id)
            if node.office is not None and node.kind in ("office", "skipped"):
                ids.setdefault((turn.round, turn.empire, node.office), node.id)
        for index, node in enumerate(turn.nodes[1:], start=1):
            before = turn.nodes[index - 1]
            if node.leap == "swap":
                continue  # drawn as the swap's leap edge
            tg.edge(before.id, node.id, color="#424242", penwidth="1.3", weight="10", **{"class": "next"})
        present = sorted(columns)
        for column in present:
            if len(columns[column]) > 1:
                with tg.subgraph() as same:
                    same.attr(rank="same")
                    for node_id in columns[column]:
                        same.node(node_id)
        for a, b in itertools.pairwise(present):
            tg.edge(columns[a][0], columns[b][0], style="invis", weight="5")
    return turn.nodes[0].id if turn.nodes else None


def _draw_node(tg: "Digraph", node: Node, width: float | None = None) -> None:
    attrs: dict[str, str] = {"id": node.id}
    if width is not None:
        attrs["width"] = f"{width:.2f}"  # one width per column: the columns line up like a table's
    who = node.society
    colour = society_colour(who)
    if node.kind == "supply":
        lost = node.lost
        attrs.update({"class": "supply", "shape": "box", "style": "rounded,filled", "fontsize": "10",
                      "fillcolor": "#fff3e0" if lost else "#fafafa", "color": "#e65100" if lost else "#bdbdbd",
                      "fontcolor": "#000000" if lost else "#757575"})
        who_text = ""
    elif node.kind in ("skipped", "owed"):
        attrs.update({"class": f"office {node.kind}" if node.kind == "skipped" else "owed",
                      "style": "rounded,dashed,filled", "fillcolor": "#fafafa", "color": "#bdbdbd",
                      "fontcolor": "#9e9e9e"})
        who_text = term(who) if who else _("no agent")
    else:
        attrs.update({"class": "office executed", "fillcolor": colour.light, "color": colour.strong,
                      "penwidth": "1.5"})
        who_text = term(who) if who else ""
    if node.leap is not None:
        attrs["class"] += f" leapt-{node.leap}"
    rows = [node.head + (f"  <FONT COLOR='{_ink(node, colour)}'>{_esc(who_text)}</FONT>" if who_text else "")
            + (f"  <FONT POINT-SIZE='9' COLOR='#616161'>{_esc(node.label)}</FONT>" if node.label else "")]
    rows += [_esc(line) for line in node.lines[:1]]
    rows += [f"<FONT POINT-SIZE='9'>{_esc(line)}</FONT>" for line in node.lines[1:]]
    rows += [f"<FONT POINT-SIZE='9'><I>{_esc(part)}</I></FONT>" for part in _note_lines(node)]
    attrs["tooltip"] = plain(" | ".join([*([node.label] if node.label else []), *node.lines, *node.notes]))
    tg.node(node.id, "<" + "".join(f"{row}<BR ALIGN='LEFT'/>" for row in rows) + ">", **attrs)


def _end_lines(rnd: Round) -> list[str]:
    return [part for line in rnd.closing() for part in textwrap.wrap(line, 40, subsequent_indent="   ")]


def _note_lines(node: Node) -> list[str]:
    return [part for note in node.notes for part in textwrap.wrap(note, NOTE_WRAP, subsequent_indent="  ")]


def _width(node: Node) -> float:
    """A generous guess at the width (inches) the node's label needs in DejaVu Sans: the text of its widest
    line at its point size, at about 0.52 em a character, plus the margins."""
    head = _TAG.sub("", node.head) + "  " + (term(node.society) if node.society else _("no agent"))
    head += " " * (2 + round(len(node.label or "") * 9 / 11))  # the label, at 9 points, in 11-point spaces
    sized = [(head, 11.0), *((line, 11.0 if i == 0 else 9.0) for i, line in enumerate(node.lines)),
             *((part, 9.0) for part in _note_lines(node))]
    return round(max(len(text) * size * 0.52 for text, size in sized) / 72 + 0.3, 2)


def _ink(node: Node, colour: Colour) -> str:
    return "#9e9e9e" if node.kind in ("skipped", "owed") else colour.strong


def _legend(started: ev.GameStarted, state: GameState, viewer: AnyViewer) -> str:
    societies = _esc(_("Societies"))
    rows = [f"<TR><TD COLSPAN='3' ALIGN='LEFT'><B>{societies}</B></TD></TR>"]
    for society in started.players:
        colour = society_colour(society)
        loyalty = state.loyalty.get(society)
        known = _("loyalty not yet recorded")  # never an empty <FONT>: Graphviz refuses it
        if loyalty is not None:
            # stricter than state_view at the end (tests/test_pictures.py holds it): only the revealed slots
            if loyalty.tokens is not None and knows(viewer, society):
                known = " · ".join(f"{term(slot)} {term(loyalty.tokens[slot])}" for slot in SLOTS)
            elif loyalty.revealed:
                shown = " · ".join(f"{term(slot)} {term(loyalty.revealed[slot])}" for slot in SLOTS
                                   if slot in loyalty.revealed)
                known = say("{tokens} (revealed)", tokens=shown)
            else:
                known = _("loyalty sealed") if viewer_of(viewer).sees_all else _("loyalty concealed")
        rows.append(f"<TR><TD BGCOLOR='{colour.light}' COLOR='{colour.strong}' BORDER='2' WIDTH='18'> </TD>"
                    f"<TD ALIGN='LEFT'><B>{_esc(term(society))}</B></TD>"
                    f"<TD ALIGN='LEFT'><FONT POINT-SIZE='10'>{_esc(known)}</FONT></TD></TR>")
    empires = " ".join(f"<FONT COLOR='{empire_colour(e).strong}'><B>{_esc(term(e))}</B></FONT>"
                       for e in state.board.empires)
    in_order = _esc(_("Empires, in turn order:"))
    rows.append(f"<TR><TD COLSPAN='3' ALIGN='LEFT'>{in_order} {empires}</TD></TR>")
    arrows = _esc(_("solid arrow: the next office · dashed arrow: a time leap (swap agent, a card lending a position, "
                    "an agent moved by a card or ruling) · faded: skipped"))
    rows.append(f"<TR><TD COLSPAN='3' ALIGN='LEFT'><FONT POINT-SIZE='10'>{arrows}</FONT></TD></TR>")
    return ("<TABLE BORDER='1' COLOR='#bdbdbd' CELLBORDER='0' CELLSPACING='2' CELLPADDING='3'>"
            + "".join(rows) + "</TABLE>")


def _heading(title: str, subtitle: str, legend: str, scored: ev.GameScored | None) -> str:
    """The graph's label: title, legend and (for a whole finished game) the final scores, side by side."""
    cells = [f"<TD VALIGN='TOP' ALIGN='LEFT' BALIGN='LEFT'><FONT POINT-SIZE='22'><B>{_esc(title)}</B></FONT>"
             f"<BR/><FONT POINT-SIZE='13'>{_esc(subtitle)}</FONT></TD>",
             f"<TD VALIGN='TOP'>{legend}</TD>"]
    if scored is not None:
        totals = "<BR/>".join(f"{_esc(term(s))} {scored.scores[s]['total']}" for s in scored.ranking)
        winner = (say("winner: {society}", society=scored.winner) if scored.winner
                  else say("tied: {societies}", societies=terms(scored.tied) or _("no winner")))
        final = _esc(_("final scores"))
        cells.append(f"<TD VALIGN='TOP' BGCOLOR='#fffde7' COLOR='#f9a825' BORDER='1' BALIGN='LEFT'>"
                     f"<B>{final}</B><BR/>{totals}<BR/><B>{_esc(winner)}</B></TD>")
    return "<<TABLE BORDER='0' CELLSPACING='12' CELLPADDING='6'><TR>" + "".join(cells) + "</TR></TABLE>>"
