"""What is legal now: who must act, the moves open to them with their parameter domains, and the counts
the orders make (icons over controlled regions, cards a draw gives, attacks open to an empire)."""

from collections.abc import Iterable, Iterator
from typing import TypedDict

import msgspec

from whispers.ledger.core.card_checks import check_drawn
from whispers.ledger.core.decrees import Catalogue
from whispers.ledger.core.errors import DecreeError
from whispers.ledger.core.kept import Kept
from whispers.ledger.core.names import DRAW_ORDERS, OFFICES, RECRUIT_ORDERS
from whispers.ledger.core.plain import NO_CARD
from whispers.ledger.core.state import SUPPLY_DUE, GameState, Position, Route, card_empire, position_name
from whispers.ledger.core.words import N_, _, say

# --- the moves one society may make -----------------------------------------------------------------


class PlayableEffect(TypedDict):
    """A catalogue effect a society could play now (decree_effects.playable_effects)."""

    engine: str
    """adjudicated or recorded"""
    name: str
    """its name as the catalogue writes it (English; words.effect_word says it in the reader's words)"""
    parameters: dict[str, object]
    """each parameter's domain: a tuple of the values it may take, or a word saying what it is written as"""


class Choices(TypedDict, total=False):
    """The domains of a legal move's parameters, those its verb takes."""

    at: str  # the council position whose order it is
    order: str
    amount: int
    regions: tuple[str, ...]
    count: int
    attacks: tuple[tuple[str, str, int], ...]  # (from, to, most banners)
    targets: tuple[str, ...]
    where: tuple[str, ...]
    slots: tuple[str, ...]
    empires: tuple[str, ...]
    hand: dict[str, int]
    effects: dict[str, PlayableEffect]
    cards: dict[str, tuple[str, ...]]  # legal.playable_cards


class Option(msgspec.Struct, frozen=True):
    """One kind of legal move for one society, with the domains of its parameters."""

    verb: str
    society: str
    choices: Choices



def turn_society(state: GameState) -> str:
    order = state.seat_order()
    return order[state.step % len(order)]


def order_actor(state: GameState) -> str | None:
    if state.pending:
        return state.pending.society
    if state.office_index >= SUPPLY_DUE:
        return None
    return state.office_controller(state.empire, state.office_index)


def order_positions(state: GameState) -> tuple[Position, ...]:
    if state.pending:
        return state.pending.positions
    return ((state.empire, OFFICES[state.office_index]),)


_OPEN: Kept[GameState, tuple[tuple[Position, str], ...]] = Kept(8)
"""The open orders of the last few states asked (`open_orders`)."""


def open_orders(state: GameState) -> tuple[tuple[Position, str], ...]:
    """The (position, order) pairs the society owing the order may choose now (`listed_orders`), kept for the last few
    states: one state is asked by the engine's skip of an office with no legal order, by the prompt listing its moves
    and by each move decided from it (a playout's candidates)."""
    kept = _OPEN.get(state)
    return kept if kept is not None else _OPEN.keep(state, tuple(listed_orders(state)))


def listed_orders(state: GameState) -> Iterator[tuple[Position, str]]:
    """The (position, order) pairs the society owing the order may choose now, one by one."""
    for position in order_positions(state):
        empire = position[0]
        for order in state.board.orders(*position):
            if state.pending and (order == "swap_agent" or state.pending.order not in (None, order)):
                continue
            if state.attack_cards and order != "attack":  # a card played with the attack to come
                continue
            if order_refusal(state, empire, order, position) is None:
                yield position, order


def order_offered(state: GameState) -> bool:
    """Whether any order is open now (the engine asks it at every office, to skip one with no legal order)."""
    return bool(open_orders(state))


def order_options(state: GameState, society: str) -> list[Option]:
    options = []
    for position, order in open_orders(state):
        empire = position[0]
        at = position_name(position)
        if order in RECRUIT_ORDERS:
            options.append(
                Option(
                    "recruit",
                    society,
                    {
                        "at": at,
                        "order": order,
                        "amount": recruit_amount(state, empire, order),
                        "regions": state.controlled(empire),
                    },
                )
            )
        elif order in DRAW_ORDERS:
            _counted, drawn, _reshuffled = draw_count(state, empire, order)
            options.append(Option("draw", society, {"at": at, "order": order, "count": drawn}))
        elif order == "attack":
            options.append(Option("attack", society, {"at": at, "attacks": attacks(state, empire)}))
        else:
            options.append(Option("swap-agent", society, {"at": at, "targets": swap_targets(state, position)}))
    return options


def deploy_targets(state: GameState, society: str) -> tuple[str, ...]:
    if state.agents_in_hand(society) == 0:
        return ()
    open_positions = tuple(
        position_name((e, o)) for e in state.board.empires for o in OFFICES if (e, o) not in state.council
    )
    regions: tuple[str, ...] = ()
    own = state.field_regions(society)
    if state.ruleset.field_agents and len(own) < state.ruleset.max_field_agents:
        regions = tuple(r for r in state.board.regions if r not in own)
    return open_positions + regions


def card_window(state: GameState) -> tuple[str, ...]:
    """Who may play a card now (EN "Playing Cards"; REV "Decrees": G/M before or during, I when drawn)."""
    if state.phase != "empire":
        return ()
    window = []
    actor = order_actor(state)
    if actor is not None:
        window.append(actor)
    last = after_order(state)
    if last is not None:
        window.append(last)
    return tuple(dict.fromkeys(window))


def decree_timing_refusal(state: GameState, society: str, timing: str) -> str | None:
    """Why a decree of this timing may not be played by `society` now, or None. EN 380: "immediately before,
    during or immediately after any action taken for a council position you control"; REV 290-300: G before an
    order, M during it (both while the order is the player's to give), I at once when drawn by the one who drew it,
    and no decree after an order is executed."""
    acting = order_actor(state) == society
    after = state.last_actor is not None and society == state.last_actor
    if timing == "never":
        return _("this card is never played: it is discarded to pay for another (REV 315)")
    if timing in ("I", "when-drawn"):
        return None if after and state.last_was_draw else (
            _("an instant decree is played at once when drawn, by the society that drew it"))
    if timing == "G":
        return None if acting else _("a G decree is played before an order of a position the player controls, not "
                                     "after an order is executed (REV 300)")
    if timing == "M":
        return None if acting else _("a M decree is played during an order of a position the player controls, not "
                                     "after an order is executed (REV 300)")
    window = set(timing.split("|"))
    if (acting and window & {"before", "during"}) or (after and "after" in window):
        return None
    moments = ", ".join(_(MOMENTS[moment]) if moment in MOMENTS else moment for moment in timing.split("|"))
    return say("this effect is played {moments} an action of a position the player controls (EN 380)",
               moments=moments)


MOMENTS = {"before": N_("before"), "during": N_("during"), "after": N_("after")}
"""The official window's moments (EN 380), as a refusal names them."""


def playable_cards(state: GameState, society: str, effects: Iterable[str], catalogue: Catalogue
                   ) -> dict[str, tuple[str, ...]]:
    """The cards `society` may play now, each with the `effects` (those playable now) it can play: a card the record
    names by its id, the others by their deck. A card plays its deck's effects, or with a card sheet the card's own
    (ledger.card_checks); an instant decree only on a card just drawn (REV 296)."""
    hand = state.hands[society]
    cards = [*dict.fromkeys(hand.known), *(deck for deck in state.board.empires if hand.unknown(deck) > 0)]
    found: dict[str, tuple[str, ...]] = {}
    for card in cards:
        deck = card_empire(card)
        printed = _printed(state, card)
        allowed = []
        for effect in effects:
            if deck not in catalogue[effect].decks or (printed is not None and effect not in printed):
                continue
            try:
                check_drawn(state, society, effect, card, catalogue)
            except DecreeError:
                continue
            allowed.append(effect)
        found[card] = tuple(allowed)
    return found


def _printed(state: GameState, card: str) -> tuple[str, ...] | None:
    """The effects a card sheet prints on `card`, or None without a sheet or for a card the record does not name."""
    deck, _, number = card.partition(":")
    if state.cards is None or not number:
        return None
    entry = (state.cards["decks"].get(deck) or {}).get(number, NO_CARD)
    return tuple(e["effect"] for e in entry["effects"])


def after_order(state: GameState) -> str | None:
    """The society whose window "immediately after" an order is open: the one that took the last order (EN
    "Playing Cards"), or under REV only the one that drew with it (an (I) decree "played ... as it is drawn")."""
    last = state.last_actor
    if state.phase != "empire" or last is None:
        return None
    if state.ruleset.play_after_order or (state.ruleset.instant_when_drawn and state.last_was_draw
                                          and instant_may_be_drawn(state)):
        return last
    return None


def instant_may_be_drawn(state: GameState) -> bool:
    """Whether the last draw may hold an instant decree, the only one played after an executed order under REV (REV
    296, 300): the game plays the Dark alliances set (REV 290), the draw drew a card, and unless the record names
    every card drawn and the game's card sheet shows none of them is of that set."""
    empire, named, count = state.drawn
    if "dark-alliances" not in state.card_sets or count == 0:
        return False
    if state.cards is None or len(named) < count:
        return True
    deck = state.cards["decks"].get(empire) or {}
    return any(deck.get(card.partition(":")[2], NO_CARD)["set"] == "dark-alliances" for card in named)


def window_waits(state: GameState) -> str | None:
    """The society the engine waits for after an empire's last order, before its supply check: that check ends the
    empire's turn and with it the moment "immediately after" the order (EN "Playing Cards"), so it is recorded
    once that society plays or says no-card, or another move is made. None when no card could be played (empty hand)."""
    if state.phase != "empire" or state.office_index != SUPPLY_DUE or state.pending is not None:
        return None
    holder = after_order(state)
    return holder if holder is not None and state.hands[holder].size > 0 else None


# --- counting ---------------------------------------------------------------------------------------

_ICON = {"farm": "farm", "farms": "farm", "fort": "fort", "forts": "fort"}


def recruit_numbers(order: str) -> tuple[int, str | None]:
    """A recruit order's numbers, from its name (names.RECRUIT_ORDERS): (banners, None) for `recruit_N`, N banners;
    (banners per icon, the icon) for `recruit_N_per_ICON`, N a controlled icon, and `recruit_per_ICON`, one."""
    words = order.removeprefix("recruit_").split("_")
    each = int(words.pop(0)) if words[0].isdigit() else 1
    return each, _ICON[words[1]] if words else None


def draw_numbers(order: str) -> tuple[int, str | None]:
    """A draw order's numbers, from its name (names.DRAW_ORDERS): (cards, None) for `draw_N`, N cards; (icons per
    card, the icon) for `draw_per_N_ICONS`, one card per N controlled icons (rounded down, EN)."""
    words = order.removeprefix("draw_").split("_")
    if len(words) == 1:
        return int(words[0]), None
    _, per, icon = words
    return int(per), _ICON[icon]


def recruit_count(state: GameState, empire: str, order: str) -> int:
    """EN "Add Banner Actions": icons counted over all regions the empire controls (`recruit_numbers`)."""
    each, icon = recruit_numbers(order)
    return each if icon is None else each * counted_icons(state, empire, icon)


def counted_icons(state: GameState, empire: str, icon: str) -> int:
    """The icons an action counts; while an effect doubling them lasts, twice each (REV 353)."""
    n = state.icons(empire, icon)
    return 2 * n if icon in state.doubled else n


def recruit_amount(state: GameState, empire: str, order: str) -> int:
    """Partial when the reserve runs short (EN "Add Banner Actions")."""
    return min(recruit_count(state, empire, order), state.reserve[empire])


def draw_count(state: GameState, empire: str, order: str) -> tuple[int, int, int]:
    """(cards the order gives, cards actually drawn, discards reshuffled in first), by its numbers (`draw_numbers`)."""
    number, icon = draw_numbers(order)
    counted = number if icon is None else counted_icons(state, empire, icon) // number
    deck = state.decks[empire]
    reshuffled = 0
    if deck.draw < counted and state.ruleset.reshuffle_when_empty:
        reshuffled = deck.discard
    return counted, min(counted, deck.draw + reshuffled), reshuffled


def attack_sources(state: GameState, empire: str) -> dict[str, int]:
    """Regions the empire can attack from, with the most banners that may leave (EN "Attack Action":
    a conquered region keeps at least one banner)."""
    sources = {}
    for region, (holder, _count) in state.banners.items():
        if holder != empire:
            continue
        movable = movable_banners(state, empire, region)
        if movable >= 1:
            sources[region] = movable
    return sources


def movable_banners(state: GameState, empire: str, region: str) -> int:
    """How many of the empire's banners in a region it controls may leave it to attack (EN "Attack Action"): all
    from a home region, all but one from a conquered one ("you can never completely abandon a conquered region")."""
    count = state.banners_in(region)
    return count if state.board.regions[region].home == empire else count - 1


def attacks(state: GameState, empire: str) -> tuple[tuple[str, str, int], ...]:
    """(source, target, most banners that may leave) for each attack open to the empire: into an adjacent region
    another empire controls, or where the cards played with the attack to come bind it (`GameState.attack_route`:
    its source, its target, how far it reaches)."""
    return tuple(_attacks(state, empire))


def attack_open(state: GameState, empire: str) -> bool:
    """Whether `attacks` is not empty, found without listing them all."""
    return next(_attacks(state, empire), None) is not None


def _attacks(state: GameState, empire: str) -> Iterator[tuple[str, str, int]]:
    route = state.attack_route
    if route is not None and not route.open:
        return
    for source, movable in attack_sources(state, empire).items():
        if route is not None and route.source not in (None, source):
            continue
        targets = (route.target,) if route is not None and route.target is not None else (
            state.board.regions[source].adjacent if route is None or route.reach == "land" else state.board.regions)
        for target in targets:
            if state.controller(target) != empire and route_allows(state, route, source, target):
                yield source, target, movable


def route_allows(state: GameState, route: Route | None, source: str, target: str) -> bool:
    """Whether an attack may go from `source` to `target` as the cards played with it bind it: by a land border
    (EN 310: "You cannot attack across oceans or seas"), along the coasts of one of the board's seas when a card
    crosses the sea, or anywhere; into an empty region when a card says so."""
    if route is None:
        return state.board.adjacent(source, target)
    if route.source not in (None, source) or route.target not in (None, target):
        return False
    if route.empty and target in state.banners:
        return False
    if route.reach == "any" or state.board.adjacent(source, target):
        return True
    return route.reach == "sea" and any(source in sea.coasts and target in sea.coasts
                                        for sea in state.board.seas.values())


def swap_targets(state: GameState, position: Position) -> tuple[str, ...]:
    empire, office = position
    agent = state.active_agent(empire, OFFICES.index(office))
    others = [o for o in OFFICES if agent is None or o != agent[1]]
    if state.ruleset.swap_agent_target == "occupied":
        others = [o for o in others if (empire, o) in state.council]
    return tuple(others)


def order_refusal(state: GameState, empire: str, order: str, position: Position) -> str | None:
    """Why an order cannot be chosen now, or None when it can (EN "Council Positions"; REV FAQ)."""
    if order in RECRUIT_ORDERS:
        if state.reserve[empire] == 0:
            return say("{empire} has no banners left in its reserve", empire=empire)
        if not state.controlled(empire) and recruit_count(state, empire, order) > 0:
            return say("{empire} controls no region to add banners to", empire=empire)
        return None
    if order in DRAW_ORDERS:
        return None
    if order == "attack":
        return None if attack_open(state, empire) else say(
            "{empire} has no region adjacent to an enemy region to attack from", empire=empire)
    if order == "swap_agent":
        if state.active_agent(*office_index(position)) is None:
            return _("there is no agent to swap")
        if not swap_targets(state, position):
            return say("there is no other agent in the {empire} council to swap with", empire=empire)
        return None
    return f"unknown order {order!r}"


def office_index(position: Position) -> tuple[str, int]:
    return position[0], OFFICES.index(position[1])
