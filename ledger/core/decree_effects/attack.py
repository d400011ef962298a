"""The attack cards: effects that change the attack they are played with, resolved by the rules' own combat (EN
"Attack Action": a fort kills one entering banner, then losses 1:1, control after). Registered in the order an
`Attacked` event names them (`Attacked.cards`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING

import msgspec

from whispers.ledger.core import events as ev
from whispers.ledger.core.card_checks import game_sheet
from whispers.ledger.core.decree_effects.base import (
    AttackCard,
    Params,
    Play,
    Played,
    needs,
    placements,
    registered,
)
from whispers.ledger.core.effects import require
from whispers.ledger.core.errors import RuleError
from whispers.ledger.core.legal import attacks, movable_banners, order_actor, order_positions, route_allows
from whispers.ledger.core.state import GameState, Route
from whispers.ledger.core.words import _, plural, say

if TYPE_CHECKING:
    from whispers.ledger.core.decrees import Catalogue


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


def _own_regions(state: GameState, society: str) -> tuple[str, ...] | None:
    """The regions the attacking empire holds a banner in that may leave, when `society`'s order is to come."""
    if order_actor(state) != society:
        return None
    empire = order_positions(state)[0][0]
    return tuple(r for r in state.board.regions if r in state.banners and state.controller(r) == empire
                 and movable_banners(state, empire, r) >= 1)


def _enemy_regions(state: GameState, society: str, empty: bool) -> tuple[str, ...] | None:
    if order_actor(state) != society:
        return None
    empire = order_positions(state)[0][0]
    return tuple(r for r in state.board.regions if state.controller(r) != empire
                 and (not empty or r not in state.banners))


def _own(state: GameState) -> list[str]:
    return [r for r in state.board.regions if r in state.banners and state.controller(r) == state.empire]


@registered
class Armada(AttackCard):
    """REV 361, 421: "It modifies its behavior, it is not another attack. You must still chose a region controlled
    by an enemy empire. (You may not declare the empire is attacking itself.)"; "If you do it from a conquered
    territory, you may not lose control of it". The attack then goes from `from` to `to`: across a land border, or
    across a sea when the card sheet marks the card's Armada `sea = true` (its text is in no rulebook)."""

    id = "armada"
    checks = ("the order to come is an attack", "the attack from `from` to `to`, nothing else",
              "the target is controlled by an enemy empire, not the attacking empire itself",
              "a conquered source keeps a banner", "when the card sheet marks the card's Armada `sea = true`")

    def decide(self, state: GameState, cmd: Played, params: Mapping[str, str], catalogue: Catalogue,
               rule: str) -> dict[str, str]:
        sheet = game_sheet(state, catalogue)
        offered = sheet.card(cmd.card).offers(self.id) if sheet is not None and ":" in cmd.card else None
        return {"sea": "yes" if offered is not None and offered.sea else "no"}

    def check_card(self, state: GameState, empire: str, params: Mapping[str, str], outcome: Mapping[str, str],
                   rule: str) -> None:
        needs(params, self.id, "from", "to", rule=rule)
        source, target = params["from"], params["to"]
        require(state.controller(target) != empire,
                say("armada: {region} is controlled by {empire} itself: the target is a region controlled by an "
                    "enemy empire (REV 361, 421)", region=target, empire=empire), "REV 361")
        require(state.controller(source) == empire and movable_banners(state, empire, source) >= 1,
                say("armada: {region} holds no {empire} banner that may leave it (a conquered region is never lost, "
                    "REV 421)", region=source, empire=empire), "REV 421")
        crossing = outcome.get("sea") == "yes"
        if not route_allows(state, self.route(outcome), source, target):
            require(crossing, say("armada: {source} does not border {target} by land, and the card sheet does not "
                                  "say this card's Armada crosses the sea (sea = true)", source=source,
                                  target=target), rule)
            raise RuleError(say("armada: {source} and {target} are not on the coasts of one sea of this board",
                                source=source, target=target), rule)

    def route(self, carried: Mapping[str, str]) -> Route:
        return Route(carried.get("from"), carried.get("to"), "sea" if carried.get("sea") == "yes" else "land")

    def check_attack(self, state: GameState, empire: str, source: str, target: str, carried: Mapping[str, str]
                     ) -> None:
        require((source, target) == (carried["from"], carried["to"]),
                say("the armada played with this attack goes from {source} to {target}", source=carried["from"],
                    target=carried["to"]), "REV 361")

    def computed(self, outcome: Mapping[str, str] | None) -> bool:
        # a play recorded before the engine adjudicated it (issue 33) typed its changes and decided no crossing
        return "sea" in (outcome or {})

    def domain(self, state: GameState, society: str, name: str) -> tuple[str, ...] | None:
        return _enemy_regions(state, society, empty=False) if name == "to" else _own_regions(state, society)

    def random_params(self, state: GameState, society: str, rng: random.Random) -> list[Params]:
        open_attacks = attacks(state, state.empire)
        return [(("from", s), ("to", t)) for s, t, _most in rng.sample(open_attacks, min(3, len(open_attacks)))]


@registered
class EmptyRegionAttack(AttackCard):
    """REV 343-347: "Your attack may target any empty region": not only an adjacent one; a fort there still kills
    one entering banner."""

    id = "empty-region-attack"
    checks = ("may target any empty enemy region", "A conquered source keeps at least 1 banner",
              "A fort at the destination still kills one entering banner")

    def check_card(self, state: GameState, empire: str, params: Mapping[str, str], outcome: Mapping[str, str],
                   rule: str) -> None:
        needs(params, self.id, "to", rule=rule)
        target = params["to"]
        require(target not in state.banners and state.controller(target) != empire,
                say("empty-region-attack: {region} is not an empty region another empire controls",
                    region=target), rule)
        require(any(state.controller(r) == empire and movable_banners(state, empire, r) >= 1
                    for r in state.banners), say("{empire} has no banner that may leave its region",
                                                 empire=empire), rule)

    def route(self, carried: Mapping[str, str]) -> Route:
        return Route(None, carried.get("to"), "any", empty=True)

    def check_attack(self, state: GameState, empire: str, source: str, target: str, carried: Mapping[str, str]
                     ) -> None:
        require(target == carried["to"], say("the empty-region-attack card played with this attack targets {to}, "
                                             "not {target}", to=carried["to"], target=target), "REV 343-347")
        require(target not in state.banners, say("{target} is not empty any more", target=target), "REV 343-347")

    def domain(self, state: GameState, society: str, name: str) -> tuple[str, ...] | None:
        return _enemy_regions(state, society, empty=True)

    def random_params(self, state: GameState, society: str, rng: random.Random) -> list[Params]:
        empty = [r for r in state.board.regions if r not in state.banners]
        return [(("to", rng.choice(empty)),) for _ in range(3)] if empty else [()]


@registered
class Reinforce(AttackCard):
    """EN 432: "Move banners from any one region controlled by the active empire into the region being attacked.
    ... before combat"; REV 387, 405: adjacent or not, a conquered region never left empty, "You may add 0
    banners" (OFFICIAL, "move banners": at least 1, digest §8 item 19)."""

    id = "reinforce"
    checks = ("from any one region the attacking empire controls",
              "the source may not be a conquered region left empty")

    def check_card(self, state: GameState, empire: str, params: Mapping[str, str], outcome: Mapping[str, str],
                   rule: str) -> None:
        needs(params, self.id, "from", "n", rule=rule)
        source, n = params["from"], int(params["n"])
        require(n >= 1 or not state.ruleset.play_after_order,
                _("reinforce moves at least 1 banner under the official rules (EN 432; REV 387 allows 0)"), rule)
        require(state.controller(source) == empire and source in state.banners,
                say("reinforce: {region} holds no {empire} banners", region=source, empire=empire), rule)
        movable = movable_banners(state, empire, source)
        require(n <= movable, say("reinforce: at most {banners} may leave {region}",
                                  banners=plural(movable, "banner"), region=source), rule)

    def reinforced(self, state: GameState, empire: str, source: str, target: str, carried: Mapping[str, str]
                   ) -> tuple[tuple[str, int], ...]:
        region, n = carried["from"], int(carried["n"])
        require(region not in (source, target), say("reinforce brings banners from another region than the "
                                                    "attack's own ({source})", source=region), "EN 432")
        require(state.controller(region) == empire and n <= movable_banners(state, empire, region),
                say("reinforce: {source} has no {banners} that may leave it", source=region,
                    banners=plural(n, f"{empire} banner")), "EN 432")
        return ((region, n),)

    def domain(self, state: GameState, society: str, name: str) -> tuple[str, ...] | None:
        return _own_regions(state, society) if name == "from" else None

    def random_params(self, state: GameState, society: str, rng: random.Random) -> list[Params]:
        own = _own(state)
        return [(("from", rng.choice(own)), ("n", "1")) for _ in range(3)] if own else [()]


class _AddToAttack(AttackCard):
    """REV 369, 371: banners of the attacking empire join the army from its reserve before combat, as many as the
    reserve holds (REV 437)."""

    banners = 0

    def added(self, carried: Mapping[str, str]) -> int:
        return self.banners


@registered
class AddOneToAttack(_AddToAttack):
    id = "add-1-to-attack"
    checks = ("from its reserve before combat",)
    banners = 1


@registered
class AddThreeToAttack(_AddToAttack):
    id = "add-3-to-attack"
    checks = ("from its reserve before combat",)
    banners = 3


@registered
class KillAll(AttackCard):
    """EN 426: "kill all the banners involved in the attack"; REV 313: even against a fort, a single banner can
    destroy a whole defending army; the region, emptied, goes back to its home empire (EN "Empire Control")."""

    id = "kill-all"
    checks = ("even against a fort",)
    kills_all = True

    def check_card(self, state: GameState, empire: str, params: Mapping[str, str], outcome: Mapping[str, str],
                   rule: str) -> None:
        require(ExtraAttack.id not in dict(state.attack_cards),
                _("kill-all leaves no surviving banner for an extra attack (REV 310-311, EN 426)"), rule)


@registered
class Subjugate(AttackCard):
    """REV 329, 407: the attacker's killed banners come back from the reserve, each into a region it controls once
    the combat is over (the conquered target included)."""

    id = "subjugate"
    checks = ("the placements add up to the attacker's losses",)

    def check_card(self, state: GameState, empire: str, params: Mapping[str, str], outcome: Mapping[str, str],
                   rule: str) -> None:
        needs(params, self.id, "to", rule=rule)
        placements(params["to"], self.id, "to", state, rule)

    def returned(self, state: GameState, empire: str, target: str, losses: int, controller: str,
                 carried: Mapping[str, str]) -> dict[str, int] | None:
        rule = "REV 329"
        into = placements(carried["to"], self.id, "to", state, rule)
        require(sum(into.values()) == losses, say("subjugate: the attack kills {banners}, and to= returns {returned}",
                                                  banners=plural(losses, f"{empire} banner"),
                                                  returned=sum(into.values())), rule)
        for region in into:
            held = controller if region == target else state.controller(region)
            require(held == empire, say("subjugate: {region} is not controlled by {empire} after the attack",
                                        region=region, empire=empire), rule)
        return into

    def after(self, state: GameState, cmd: Played, params: Mapping[str, str], rule: str) -> Play:
        first = state.last_attack
        assert first is not None
        require("to" in params, _("subjugate names to="), rule)
        into = self.returned(state, first.empire, first.target, first.attacker_losses,
                             state.controller(first.target), params) or {}
        return Play(ev.Effects(add=tuple((first.empire, region, n) for region, n in into.items())),
                    outcome={"after": "attack"})

    def random_params(self, state: GameState, society: str, rng: random.Random) -> list[Params]:
        if state.last_attack is not None:
            losses = state.last_attack.attacker_losses
            return [(("to", f"{rng.choice(state.controlled(state.last_attack.empire))}:{losses}"),)
                    for _ in range(3)]
        own = _own(state)
        return [(("to", f"{rng.choice(own)}:{rng.randint(1, 2)}"),) for _ in range(3)] if own else [()]


@registered
class ExtraAttack(AttackCard):
    """REV 310-311: after the attack, a second one from the region it just conquered, with its surviving banners,
    at least 1 staying behind; resolved by the same combat and recorded as a `CardAttacked` event after it."""

    id = "extra-attack"
    checks = ("from the region the first attack just conquered", "at least 1 banner stays behind there")
    follows_up = True

    def check_card(self, state: GameState, empire: str, params: Mapping[str, str], outcome: Mapping[str, str],
                   rule: str) -> None:
        needs(params, self.id, "to", "n", rule=rule)
        require(KillAll.id not in dict(state.attack_cards),
                _("kill-all leaves no surviving banner for an extra attack (REV 310-311, EN 426)"), rule)

    def follows(self, state: GameState, society: str, attacked: ev.Attacked, carried: Mapping[str, str]
                ) -> ev.Event:
        """The extra attack, from the state once the first one is resolved."""
        rule = "REV 310-311"
        empire, source, target, n = attacked.empire, attacked.target, carried["to"], int(carried["n"])
        survivors = state.banners_in(source) if state.controller(source) == empire else 0
        require(attacked.controller == empire and survivors >= 2, say(
            "extra-attack: the attack must conquer {source} with at least 2 banners surviving, so that one stays "
            "behind (it leaves {banners})", source=source, banners=plural(survivors, "banner")), rule)
        require(state.board.adjacent(source, target), say("extra-attack: {source} does not border {target}",
                                                          source=source, target=target), rule)
        require(state.controller(target) != empire, say("extra-attack: {target} is controlled by {empire}",
                                                        target=target, empire=empire), rule)
        require(n <= survivors - 1, say("extra-attack: at most {banners} may attack from {source} (at least 1 stays "
                                        "behind)", banners=plural(survivors - 1, "banner"), source=source), rule)
        fight = combat(state, empire, target, n)
        return ev.CardAttacked(society, self.id, empire, source, target, n, state.controller(target),
                               fight.defending, fight.fort_kill, fight.attacker_losses, fight.defender_losses,
                               fight.controller)

    def after(self, state: GameState, cmd: Played, params: Mapping[str, str], rule: str) -> Play:
        first = state.last_attack
        assert first is not None
        require("to" in params and "n" in params, _("extra-attack names to= and n="), rule)
        return Play(outcome={"after": "attack"},
                    then=lambda after: self.follows(after, cmd.society, first, params))

    def random_params(self, state: GameState, society: str, rng: random.Random) -> list[Params]:
        if state.last_attack is not None:  # just after the attack (EN 380)
            return [(("to", rng.choice(state.board.regions[state.last_attack.target].adjacent)), ("n", "1"))
                    for _ in range(3)]
        # the extra attack goes on from a target of a strong attack
        beyond = [b for _, t, most in attacks(state, state.empire) if most >= 3
                  for b in state.board.regions[t].adjacent if state.controller(b) != state.empire]
        return [(("to", rng.choice(beyond)), ("n", "1")) for _ in range(3)] if beyond else [()]

