"""The decree effects whose board changes the engine computes from a play's parameters (issue 11), and the card
modifications of an attack, resolved by the rules' own combat (EN "Attack Action": a fort kills one entering
banner, then losses 1:1, control after).

Board effects (`disperse`, `add-3-to-city`, `move-army`, `rearrange`, `nomadic-life`) become the primitive
`Effects` of the CardPlayed event, so replay applies them as it applies any play; the play's line names only the
effect and its parameters, and replaying it computes them again. Attack cards (`ATTACK_CARDS`) are carried by the
next attack order (`GameState.attack_cards`) and recorded on its `Attacked` event, and the Bear's extra attack as a
`CardAttacked` event after it.
"""

from collections.abc import Mapping
from typing import Any

import msgspec

from whispers.ledger import events as ev
from whispers.ledger.decrees import ATTACK_CARDS, ENGINE_ADJUDICATED, Catalogue, family
from whispers.ledger.effects import require
from whispers.ledger.errors import RuleError
from whispers.ledger.legal import (
    after_order,
    armada_route,
    attacks,
    decree_timing_refusal,
    movable_banners,
    order_actor,
    order_positions,
)
from whispers.ledger.names import OFFICES
from whispers.ledger.state import GameState
from whispers.ledger.words import _, plural, say

BOARD_EFFECTS: frozenset[str] = frozenset({"disperse", "add-3-to-city", "move-army", "rearrange", "nomadic-life"})
"""The effects whose board changes the engine computes at the play (the CardPlayed's own `effects`)."""


# --- parameters ----------------------------------------------------------------------------------------------


def placements(value: str, effect: str, name: str, state: GameState, rule: str, zero: bool = False
               ) -> dict[str, int]:
    """`REGION:N,REGION:N` as region -> N; RuleError naming what is wrong. An empty value is no placement. With
    `zero`, N may be 0 (rearrange: the new count of a region that changes)."""
    found: dict[str, int] = {}
    for part in (p for p in value.split(",") if p):
        region, _, n = part.partition(":")
        require(region in state.board.regions and n.isdigit() and int(n) >= (0 if zero else 1),
                say("{effect}: {name}= is REGION:N, comma-separated, each N at least {least} (not {part!r})",
                    effect=effect, name=name, least=0 if zero else 1, part=part),
                rule)
        require(region not in found, say("{effect}: {name}= names {region} twice", effect=effect, name=name,
                                         region=region), rule)
        found[region] = int(n)
    return found


def _needs(params: Mapping[str, str], effect: str, *names: str, rule: str) -> None:
    missing = [n for n in names if n not in params]
    named = (" " + _("and") + " ").join(n + "=" for n in missing)
    require(not missing, say("{effect} names {missing}", effect=effect, missing=named), rule)


def acting_empire(state: GameState, society: str) -> str:
    """The active empire for a card: the empire of the order `society` is to give, or of the order it just gave
    (a card played immediately after it, EN 380)."""
    if order_actor(state) == society:
        return order_positions(state)[0][0]
    if state.last_order is not None:
        return state.last_order[0]
    return state.empire


# --- board effects -------------------------------------------------------------------------------------------


def board_effects(state: GameState, society: str, effect: str, params: Mapping[str, str], official: bool,
                  rule: str) -> ev.Effects:
    """The board changes of a board effect, computed from its parameters; RuleError when the rules forbid it."""
    if effect == "disperse":
        return _disperse(state, params, rule)
    if effect == "add-3-to-city":
        return _add_to_city(state, society, params, official, rule)
    if effect == "move-army":
        return _move_army(state, society, params, official, rule)
    if effect == "rearrange":
        return _rearrange(state, params, rule)
    assert effect == "nomadic-life"
    return _nomadic_life(state, params, rule)


def _disperse(state: GameState, params: Mapping[str, str], rule: str) -> ev.Effects:
    """EN 428, REV 331: the army scatters into adjacent regions its empire controls, as chosen; with none, back to
    the reserve. The whole army goes (a reading), and a conquered region so emptied is lost (REV 331)."""
    _needs(params, "disperse", "region", rule=rule)
    region = params["region"]
    held = state.banners.get(region)
    require(held is not None, say("disperse: {region} holds no army to disperse", region=region), rule)
    assert held is not None
    empire, n = held
    into = placements(params.get("to", ""), "disperse", "to", state, rule)
    friendly = [r for r in state.board.regions[region].adjacent if state.controller(r) == empire]
    if not friendly:
        require(not into, say("disperse: {empire} controls no region adjacent to {region}: its banners go back to its "
                    "reserve (name no to=)", empire=empire, region=region), rule)
        return ev.Effects(kill=((region, empire, n),))
    for target in into:
        require(target in friendly, say("disperse: {target} is not a region adjacent to {region} that {empire} "
                                        "controls ({friendly})",
                    target=target, region=region, empire=empire, friendly=", ".join(friendly)), rule)
    require(sum(into.values()) == n, say("disperse: the whole army of {banners} scatters: to= places {placed}",
                banners=plural(n, "banner"), placed=sum(into.values())), rule)
    return ev.Effects(move=tuple((region, target, empire, k) for target, k in into.items()))


def _add_to_city(state: GameState, society: str, params: Mapping[str, str], official: bool,
                 rule: str) -> ev.Effects:
    """REV 393: "Add 3 friendly banners to any one city". Friendly (digest §8 item 32): OFFICIAL the region's
    controller (EN 406), REVISED the active council's empire; from the reserve, as many as it holds (REV 437)."""
    _needs(params, "add-3-to-city", "region", rule=rule)
    region = params["region"]
    require(state.board.regions[region].cities > 0, say("add-3-to-city: {region} has no city", region=region), rule)
    empire = state.controller(region) if official else acting_empire(state, society)
    holder = state.banners.get(region)
    require(holder is None or holder[0] == empire,
            say("add-3-to-city: {region} is held by {holder}, not by the active empire {empire}: what follows two "
                "empires in one region is not in the rulebooks (digest §8 item 32), so the engine refuses it",
                region=region, holder=holder[0] if holder else "", empire=empire), rule)
    n = min(3, state.reserve[empire])
    require(n >= 1, say("add-3-to-city: {empire}'s reserve is empty", empire=empire), rule)
    return ev.Effects(add=((empire, region, n),))


def _move_army(state: GameState, society: str, params: Mapping[str, str], official: bool, rule: str) -> ev.Effects:
    """EN 436, REV 411: banners of the active empire move from one region to another it controls, adjacency not
    needed; a conquered region may not be left empty. "Active" (digest §8 item 34): OFFICIAL the acting council's
    empire, REVISED any one army."""
    _needs(params, "move-army", "from", "to", "n", rule=rule)
    source, target, n = params["from"], params["to"], int(params["n"])
    held = state.banners.get(source)
    require(held is not None, say("move-army: {region} holds no army", region=source), rule)
    assert held is not None
    empire = held[0]
    if official:
        active = acting_empire(state, society)
        require(empire == active, say("move-army moves an army of the active empire ({active}), not {empire}'s "
                                      "(EN 436)",
                                     active=active, empire=empire), rule)
    require(target != source, _("move-army moves the army to another region"), rule)
    require(state.controller(target) == empire, say("move-army: {region} is not controlled by {empire}", region=target,
                                                        empire=empire), rule)
    movable = movable_banners(state, empire, source)
    require(n <= movable, say("move-army: at most {banners} may leave {region} (a conquered region is never "
                                "abandoned)", banners=plural(movable, "banner"), region=source), rule)
    return ev.Effects(move=((source, target, empire, n),))


def _rearrange(state: GameState, params: Mapping[str, str], rule: str) -> ev.Effects:
    """REV 413: one empire's banners are redistributed among the regions it controls and its empty home regions;
    the total does not change, and a conquered region is not left empty (the general rule)."""
    _needs(params, "rearrange", "empire", "to", rule=rule)
    empire = params["empire"]
    counts = {r: state.banners_in(r) for r in state.controlled(empire)}
    wanted = placements(params["to"], "rearrange", "to", state, rule, zero=True)
    for region in wanted:
        require(region in counts, say("rearrange: {region} is neither controlled by {empire} nor an empty home "
                                         "region of it", region=region, empire=empire), rule)
    after = {**counts, **wanted}
    require(sum(after.values()) == sum(counts.values()), say("rearrange: {empire} has {banners} on the board, "
                                                             "to= leaves {left}",
                                                 empire=empire, banners=plural(sum(counts.values()), "banner"),
                                                 left=sum(after.values())), rule)
    for region, n in after.items():
        conquered = counts[region] > 0 and state.board.regions[region].home != empire
        require(n > 0 or not conquered, say("rearrange: {region} is a conquered region and may not be left empty",
                                             region=region), rule)
    require(after != counts, _("rearrange: to= changes nothing"), rule)
    give = [[r, counts[r] - n] for r, n in after.items() if n < counts[r]]
    take = [[r, n - counts[r]] for r, n in after.items() if n > counts[r]]
    moves: list[tuple[str, str, str, int]] = []
    while give and take:
        k = min(give[0][1], take[0][1])
        moves.append((str(give[0][0]), str(take[0][0]), empire, int(k)))
        for pile in (give, take):
            pile[0][1] -= k
            if pile[0][1] == 0:
                pile.pop(0)
    return ev.Effects(move=tuple(moves))


def _nomadic_life(state: GameState, params: Mapping[str, str], rule: str) -> ev.Effects:
    """REV 417: a whole army moves from one region into one single empty region; the source is emptied even if
    conquered (digest §8 item 21). Any empty region: a reading."""
    _needs(params, "nomadic-life", "from", "to", rule=rule)
    source, target = params["from"], params["to"]
    held = state.banners.get(source)
    require(held is not None, say("nomadic-life: {region} holds no army", region=source), rule)
    assert held is not None
    require(target != source and target not in state.banners, say("nomadic-life: {region} is not an empty region",
                                                                                       region=target), rule)
    return ev.Effects(move=((source, target, held[0], held[1]),))


# --- attack cards --------------------------------------------------------------------------------------------


def check_attack_card(state: GameState, society: str, effect: str, params: Mapping[str, str], rule: str,
                      crossing: bool = False) -> None:
    """An attack card is played with the attack to come (REV: "invade/attack"; the official window's before or
    during): the society's order to come must be an attack, and each card goes with it once. Its parameters are
    checked against the board now where the attack does not decide them, and at the attack otherwise."""
    require(order_actor(state) == society and (state.pending is None or state.pending.order in (None, "attack")),
            say("{effect} goes with an attack: it is played by the society whose order is to come, before it is given",
                effect=effect),
            rule)
    attacking = [p for p in order_positions(state) if "attack" in state.board.orders(*p)]
    require(bool(attacking), say("{effect} goes with an attack, and the order to come is not an attack",
                                    effect=effect), rule)
    require(effect not in dict(state.attack_cards), say("{effect} is played already with this attack",
                                                                    effect=effect), rule)
    together = {effect, *dict(state.attack_cards)}
    require(not {"kill-all", "extra-attack"} <= together, _("kill-all leaves no surviving banner for an extra attack "
                                                             "(REV 310-311, EN 426)"), rule)
    empire = attacking[0][0]
    if effect == "empty-region-attack":
        _needs(params, effect, "to", rule=rule)
        target = params["to"]
        require(target not in state.banners and state.controller(target) != empire,
                say("empty-region-attack: {region} is not an empty region another empire controls",
                    region=target), rule)
        require(any(state.controller(r) == empire and movable_banners(state, empire, r) >= 1
                    for r in state.banners), say("{empire} has no banner that may leave its region",
                                                 empire=empire), rule)
        return
    if effect == "reinforce":
        _needs(params, effect, "from", "n", rule=rule)
        source, n = params["from"], int(params["n"])
        # REV 387, 405: "You may add 0 banners"; OFFICIAL (EN 432 "move banners") reads at least 1 (digest §8 19)
        require(n >= 1 or family(state.ruleset) == "revised",
                _("reinforce moves at least 1 banner under the official rules (EN 432; REV 387 allows 0)"), rule)
        require(state.controller(source) == empire and source in state.banners,
                say("reinforce: {region} holds no {empire} banners", region=source, empire=empire), rule)
        movable = movable_banners(state, empire, source)
        require(n <= movable, say("reinforce: at most {banners} may leave {region}",
                                    banners=plural(movable, "banner"), region=source), rule)
    elif effect == "armada":
        _check_armada(state, empire, params, crossing, rule)
    elif effect == "extra-attack":
        _needs(params, effect, "to", "n", rule=rule)
    elif effect == "subjugate":
        _needs(params, effect, "to", rule=rule)
        placements(params["to"], effect, "to", state, rule)
    if "empty-region-attack" not in dict(state.attack_cards):
        require(bool(attacks(state, empire)), say("{empire} has no attack to make", empire=empire), rule)


def _check_armada(state: GameState, empire: str, params: Mapping[str, str], crossing: bool, rule: str) -> None:
    """REV 361, 421: Armada "modifies [the attack's] behavior, it is not another attack. You must still chose a region
    controlled by an enemy empire. (You may not declare the empire is attacking itself.)"; "If you do it from a
    conquered territory, you may not lose control of it". The attack then goes from `from` to `to`: across a land
    border, or across a sea when the card sheet says the card crosses it (`sea = true`)."""
    _needs(params, "armada", "from", "to", rule=rule)
    source, target = params["from"], params["to"]
    require(state.controller(target) != empire,
            say("armada: {region} is controlled by {empire} itself: the target is a region controlled by an enemy "
                "empire (REV 361, 421)", region=target, empire=empire), "REV 361")
    require(state.controller(source) == empire and movable_banners(state, empire, source) >= 1,
            say("armada: {region} holds no {empire} banner that may leave it (a conquered region is never lost, "
                "REV 421)", region=source, empire=empire), "REV 421")
    if not armada_route(state, source, target, crossing):
        require(crossing, say("armada: {source} does not border {target} by land, and the card sheet does not say "
                              "this card's Armada crosses the sea (sea = true)", source=source, target=target), rule)
        raise RuleError(say("armada: {source} and {target} are not on the coasts of one sea of this board",
                            source=source, target=target), rule)


class Combat(msgspec.Struct, frozen=True):
    defending: int
    fort_kill: int
    attacker_losses: int
    defender_losses: int
    controller: str


def combat(state: GameState, empire: str, target: str, army: int, kill_all: bool = False) -> Combat:
    """EN "Attack Action": a fort kills one entering banner, then each attacker and defender kill one another 1:1;
    the empire left with banners controls the region, else its home empire. Kill-all (EN 426, REV 313): every
    attacking and defending banner dies, even against a fort."""
    defending = state.banners_in(target)
    fort_kill = 1 if state.board.regions[target].fort else 0
    if kill_all:
        return Combat(defending, fort_kill, army, defending, state.board.regions[target].home)
    attacking = army - fort_kill
    losses = min(attacking, defending)
    survivors, holders = attacking - losses, defending - losses
    if survivors > 0:
        controller = empire
    elif holders > 0:
        controller = state.banners[target][0]
    else:
        controller = state.board.regions[target].home
    return Combat(defending, fort_kill, fort_kill + losses, losses, controller)


def card_params(state: GameState) -> dict[str, dict[str, str]]:
    """The attack cards the next attack carries: effect -> its parameters."""
    return {effect: dict(params) for effect, params in state.attack_cards if effect in ATTACK_CARDS}


# --- what prompt offers --------------------------------------------------------------------------------------

_DOMAINS = {"count": "a whole number, 1 or more", "amount": "a whole number, 0 or more",
            "placements": "REGION:N, one or more, comma-separated"}


def playable_effects(state: GameState, society: str, catalogue: Catalogue) -> dict[str, dict[str, Any]]:
    """The catalogue effects `society` could play now, by deck held and timing: effect -> {"engine": adjudicated
    or recorded, "parameters": name -> its domain}. A recorded effect's play also types its board changes; an
    attack card is offered only when the society's order to come is an attack."""
    hand = state.hands[society]
    timing = family(state.ruleset)
    found: dict[str, dict[str, Any]] = {}
    for decree in catalogue.decrees.values():
        if not decree.playable or not any(hand.counts.get(deck, 0) for deck in decree.decks):
            continue
        if decree.card_set not in state.card_sets:
            continue
        if decree_timing_refusal(state, society, decree.timing(timing)) is not None:
            continue
        after = (timing == "official" and "after" in decree.window() and state.last_attack is not None
                 and after_order(state) == society)
        if decree.id in ATTACK_CARDS and not (after or _attack_to_come(state, society, decree.id)):
            continue
        domains: dict[str, Any] = {}
        for p in decree.parameters:
            narrowed = _narrowed(state, society, decree.id, p.name)
            if narrowed is not None:
                domains[p.name] = narrowed
            elif p.kind == "region":
                domains[p.name] = tuple(state.board.regions)
            elif p.kind == "empire":
                domains[p.name] = state.board.empires
            elif p.kind == "position":
                domains[p.name] = tuple(f"{e}.{o}" for e in state.board.empires for o in OFFICES)
            else:
                domains[p.name] = _DOMAINS.get(p.kind, p.kind)
        found[decree.id] = {"engine": "adjudicated" if decree.id in ENGINE_ADJUDICATED else "recorded",
                            "parameters": domains}
    return found


def _attack_to_come(state: GameState, society: str, effect: str) -> bool:
    return (order_actor(state) == society and effect not in dict(state.attack_cards)
            and (state.pending is None or state.pending.order in (None, "attack"))
            and any("attack" in state.board.orders(*p) for p in order_positions(state)))


def _narrowed(state: GameState, society: str, effect: str, name: str) -> tuple[str, ...] | None:
    """The regions a region parameter may name, or the positions a position parameter may name, where the board
    and the council decide them before the play; None otherwise."""
    if (effect, name) == ("move-agent", "to"):  # an empty position, any council (EN 430, REV 335)
        return tuple(f"{e}.{o}" for e in state.board.empires for o in OFFICES if (e, o) not in state.council)
    if (effect, name) == ("use-position", "position"):  # another position the player controls (EN 434, REV 391)
        active = (state.empire, OFFICES[state.office_index]) if state.office_index < len(OFFICES) else None
        return tuple(f"{e}.{o}" for e in state.board.empires for i, o in enumerate(OFFICES)
                     if (e, o) != active and state.office_controller(e, i) == society)
    held = tuple(r for r in state.board.regions if r in state.banners)
    empty = tuple(r for r in state.board.regions if r not in state.banners)
    if (effect, name) in (("disperse", "region"), ("move-army", "from"), ("nomadic-life", "from")):
        return held
    if (effect, name) == ("nomadic-life", "to"):
        return empty
    if (effect, name) == ("add-3-to-city", "region"):
        return tuple(r for r, region in state.board.regions.items() if region.cities > 0)
    if effect == "armada" and order_actor(state) == society:  # REV 361: from its own region, at an enemy's
        empire = order_positions(state)[0][0]
        if name == "to":
            return tuple(r for r in state.board.regions if state.controller(r) != empire)
        return tuple(r for r in held if state.controller(r) == empire and movable_banners(state, empire, r) >= 1)
    if effect in ("empty-region-attack", "reinforce") and order_actor(state) == society:
        empire = order_positions(state)[0][0]
        if name == "to":
            return tuple(r for r in empty if state.controller(r) != empire)
        return tuple(r for r in held if state.controller(r) == empire and movable_banners(state, empire, r) >= 1)
    return None
