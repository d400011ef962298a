"""The board cards: effects whose board changes the engine computes at the play from its parameters. They become
the primitive `Effects` of the `CardPlayed` event, so replay applies them as it applies any play; the play's line
names only the effect and its parameters, and replaying it computes them again."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING

from whispers.ledger.core import events as ev
from whispers.ledger.core.decree_effects.base import (
    Effect,
    Params,
    Play,
    Played,
    acting_empire,
    needs,
    placed,
    placements,
    registered,
)
from whispers.ledger.core.decrees import family
from whispers.ledger.core.effects import require
from whispers.ledger.core.legal import movable_banners
from whispers.ledger.core.state import GameState
from whispers.ledger.core.words import _, plural, say

if TYPE_CHECKING:
    from whispers.ledger.core.decrees import Catalogue


def _held(state: GameState) -> tuple[str, ...]:
    return tuple(r for r in state.board.regions if r in state.banners)


def _armies(state: GameState, rng: random.Random) -> list[str]:
    """Three regions holding an army (any region on an empty board), for the random game to try."""
    held = _held(state) or tuple(state.board.regions)
    return [rng.choice(held) for _ in range(3)]


class BoardEffect(Effect, ABC):
    family = "board"

    def play(self, state: GameState, cmd: Played, params: Mapping[str, str], catalogue: Catalogue,
             rule: str) -> Play:
        return Play(self.changes(state, cmd.society, params, family(state.ruleset) == "official", rule))

    @abstractmethod
    def changes(self, state: GameState, society: str, params: Mapping[str, str], official: bool,
                rule: str) -> ev.Effects:
        """The board changes, computed from the parameters; RuleError when the rules forbid them."""


@registered
class Disperse(BoardEffect):
    """EN 428, REV 331: the army scatters into adjacent regions its empire controls, as chosen; with none, back to
    the reserve. The whole army goes (a reading), and a conquered region so emptied is lost (REV 331)."""

    id = "disperse"
    checks = ("into adjacent regions its empire controls", "the banners go back to its reserve")

    def changes(self, state: GameState, society: str, params: Mapping[str, str], official: bool,
                rule: str) -> ev.Effects:
        needs(params, self.id, "region", rule=rule)
        region = params["region"]
        held = state.banners.get(region)
        require(held is not None, say("disperse: {region} holds no army to disperse", region=region), rule)
        assert held is not None
        empire, n = held
        into = placements(params.get("to", ""), self.id, "to", state, rule)
        friendly = [r for r in state.board.regions[region].adjacent if state.controller(r) == empire]
        if not friendly:
            require(not into, say("disperse: {empire} controls no region adjacent to {region}: its banners go back "
                                  "to its reserve (name no to=)", empire=empire, region=region), rule)
            return ev.Effects(kill=((region, empire, n),))
        for target in into:
            require(target in friendly, say("disperse: {target} is not a region adjacent to {region} that {empire} "
                                            "controls ({friendly})", target=target, region=region, empire=empire,
                                            friendly=", ".join(friendly)), rule)
        require(sum(into.values()) == n, say("disperse: the whole army of {banners} scatters: to= places {placed}",
                                             banners=plural(n, "banner"), placed=sum(into.values())), rule)
        return ev.Effects(move=tuple((region, target, empire, k) for target, k in into.items()))

    def domain(self, state: GameState, society: str, name: str) -> tuple[str, ...] | None:
        return _held(state) if name == "region" else None

    def random_params(self, state: GameState, society: str, rng: random.Random) -> list[Params]:
        tries: list[Params] = []
        for region in _armies(state, rng):
            empire = state.controller(region)
            friendly = [r for r in state.board.regions[region].adjacent if state.controller(r) == empire]
            split: dict[str, int] = {}
            for _n in range(state.banners_in(region) if friendly else 0):
                pick = rng.choice(friendly)
                split[pick] = split.get(pick, 0) + 1
            tries.append((("region", region), *((("to", placed(split)),) if split else ())))
        return tries


@registered
class AddThreeToCity(BoardEffect):
    """REV 393: "Add 3 friendly banners to any one city". Friendly (digest §8 item 32): OFFICIAL the region's
    controller (EN 406), REVISED the active council's empire; from the reserve, as many as it holds (REV 437)."""

    id = "add-3-to-city"
    checks = ("one region with a city",)

    def changes(self, state: GameState, society: str, params: Mapping[str, str], official: bool,
                rule: str) -> ev.Effects:
        needs(params, self.id, "region", rule=rule)
        region = params["region"]
        require(state.board.regions[region].cities > 0, say("add-3-to-city: {region} has no city", region=region),
                rule)
        empire = state.controller(region) if official else acting_empire(state, society)
        holder = state.banners.get(region)
        require(holder is None or holder[0] == empire,
                say("add-3-to-city: {region} is held by {holder}, not by the active empire {empire}: what follows "
                    "two empires in one region is not in the rulebooks (digest §8 item 32), so the engine refuses it",
                    region=region, holder=holder[0] if holder else "", empire=empire), rule)
        n = min(3, state.reserve[empire])
        require(n >= 1, say("add-3-to-city: {empire}'s reserve is empty", empire=empire), rule)
        return ev.Effects(add=((empire, region, n),))

    def domain(self, state: GameState, society: str, name: str) -> tuple[str, ...] | None:
        return tuple(r for r, region in state.board.regions.items() if region.cities > 0)

    def random_params(self, state: GameState, society: str, rng: random.Random) -> list[Params]:
        cities = self.domain(state, society, "region") or ()
        return [(("region", rng.choice(cities)),) for _ in range(3)] if cities else [()]


@registered
class MoveArmy(BoardEffect):
    """EN 436, REV 411: banners of the active empire move from one region to another it controls, adjacency not
    needed; a conquered region may not be left empty. "Active" (digest §8 item 34): OFFICIAL the acting council's
    empire, REVISED any one army."""

    id = "move-army"
    checks = ("another region it controls", "a conquered region may not be left empty")

    def changes(self, state: GameState, society: str, params: Mapping[str, str], official: bool,
                rule: str) -> ev.Effects:
        needs(params, self.id, "from", "to", "n", rule=rule)
        source, target, n = params["from"], params["to"], int(params["n"])
        held = state.banners.get(source)
        require(held is not None, say("move-army: {region} holds no army", region=source), rule)
        assert held is not None
        empire = held[0]
        if official:
            active = acting_empire(state, society)
            require(empire == active, say("move-army moves an army of the active empire ({active}), not {empire}'s "
                                          "(EN 436)", active=active, empire=empire), rule)
        require(target != source, _("move-army moves the army to another region"), rule)
        require(state.controller(target) == empire, say("move-army: {region} is not controlled by {empire}",
                                                        region=target, empire=empire), rule)
        movable = movable_banners(state, empire, source)
        require(n <= movable, say("move-army: at most {banners} may leave {region} (a conquered region is never "
                                  "abandoned)", banners=plural(movable, "banner"), region=source), rule)
        return ev.Effects(move=((source, target, empire, n),))

    def domain(self, state: GameState, society: str, name: str) -> tuple[str, ...] | None:
        return _held(state) if name == "from" else None

    def random_params(self, state: GameState, society: str, rng: random.Random) -> list[Params]:
        tries: list[Params] = []
        for region in _armies(state, rng):
            mine = [r for r in state.controlled(state.controller(region)) if r != region]
            if mine:
                tries.append((("from", region), ("to", rng.choice(mine)), ("n", "1")))
        return tries or [()]


@registered
class Rearrange(BoardEffect):
    """REV 413: one empire's banners are redistributed among the regions it controls and its empty home regions;
    the total does not change, and a conquered region is not left empty (the general rule). Recorded as moves."""

    id = "rearrange"
    checks = ("the total does not change",)
    placements_zero = True

    def changes(self, state: GameState, society: str, params: Mapping[str, str], official: bool,
                rule: str) -> ev.Effects:
        needs(params, self.id, "empire", "to", rule=rule)
        empire = params["empire"]
        counts = {r: state.banners_in(r) for r in state.controlled(empire)}
        wanted = placements(params["to"], self.id, "to", state, rule, zero=True)
        for region in wanted:
            require(region in counts, say("rearrange: {region} is neither controlled by {empire} nor an empty home "
                                          "region of it", region=region, empire=empire), rule)
        after = {**counts, **wanted}
        require(sum(after.values()) == sum(counts.values()),
                say("rearrange: {empire} has {banners} on the board, to= leaves {left}", empire=empire,
                    banners=plural(sum(counts.values()), "banner"), left=sum(after.values())), rule)
        for region, n in after.items():
            conquered = counts[region] > 0 and state.board.regions[region].home != empire
            require(n > 0 or not conquered, say("rearrange: {region} is a conquered region and may not be left "
                                                "empty", region=region), rule)
        require(after != counts, _("rearrange: to= changes nothing"), rule)
        give = [(r, counts[r] - n) for r, n in after.items() if n < counts[r]]  # (region, banners it gives)
        take = [(r, n - counts[r]) for r, n in after.items() if n > counts[r]]
        moves: list[tuple[str, str, str, int]] = []
        while give and take:
            (source, given), (target, taken) = give[0], take[0]
            k = min(given, taken)
            moves.append((source, target, empire, k))
            give[0], take[0] = (source, given - k), (target, taken - k)
            if given == k:
                give.pop(0)
            if taken == k:
                take.pop(0)
        return ev.Effects(move=tuple(moves))

    def random_params(self, state: GameState, society: str, rng: random.Random) -> list[Params]:
        tries: list[Params] = []
        for region in _armies(state, rng):
            empire = state.controller(region)
            mine = [r for r in state.controlled(empire) if r != region]
            if mine:
                to = rng.choice(mine)
                tries.append((("empire", empire), ("to", placed({region: state.banners_in(region) - 1,
                                                                 to: state.banners_in(to) + 1}))))
        return tries or [()]


@registered
class NomadicLife(BoardEffect):
    """REV 417: a whole army moves from one region into one single empty region; the source is emptied even if
    conquered (digest §8 item 21). Any empty region: a reading."""

    id = "nomadic-life"
    checks = ("into one single empty region",)

    def changes(self, state: GameState, society: str, params: Mapping[str, str], official: bool,
                rule: str) -> ev.Effects:
        needs(params, self.id, "from", "to", rule=rule)
        source, target = params["from"], params["to"]
        held = state.banners.get(source)
        require(held is not None, say("nomadic-life: {region} holds no army", region=source), rule)
        assert held is not None
        require(target != source and target not in state.banners,
                say("nomadic-life: {region} is not an empty region", region=target), rule)
        return ev.Effects(move=((source, target, held[0], held[1]),))

    def domain(self, state: GameState, society: str, name: str) -> tuple[str, ...] | None:
        return _held(state) if name == "from" else tuple(r for r in state.board.regions if r not in state.banners)

    def random_params(self, state: GameState, society: str, rng: random.Random) -> list[Params]:
        empty = [r for r in state.board.regions if r not in state.banners]
        return [(("from", region), ("to", rng.choice(empty))) for region in _armies(state, rng)] if empty else [()]
