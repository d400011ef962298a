"""The flow cards: effects that change who acts next or what lasts through the turn, not the board. Midnight Oil
repeats an order, Succession Crisis turns the council back, Use Position and Move Agent lend another position's
order, and Bountiful Harvest (Trade, Hoard) lasts to the end of the turn."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING

from whispers.ledger.core import events as ev
from whispers.ledger.core.decree_effects.base import Effect, Params, Play, Played, registered
from whispers.ledger.core.effects import require, where
from whispers.ledger.core.legal import after_order, order_actor
from whispers.ledger.core.names import OFFICES
from whispers.ledger.core.plain import Data
from whispers.ledger.core.state import SUPPLY_DUE, GameState, Pending, position_name
from whispers.ledger.core.words import _, say
from whispers.ledger.core.words import position as position_words

if TYPE_CHECKING:
    from whispers.ledger.core.decrees import Catalogue


class FlowEffect(Effect):
    family = "flow"


@registered
class MidnightOil(FlowEffect):
    """Midnight Oil (REV 401, 423): "the current order is carried out once more"; the repeat is an effect, not a
    second order, so two cannot be chained on one order (digest §8 item 36). Played during the order to come (REV's
    M), or under the official rules also just after the order the society gave (EN 380), which it then repeats."""

    id = "midnight-oil"
    checks = ("Two Midnight oils cannot be chained on one order",)
    leaps = True

    def play(self, state: GameState, cmd: Played, params: Mapping[str, str], catalogue: Catalogue,
             rule: str) -> Play:
        owed_repeat = state.pending is not None and state.pending.order is not None
        last = state.last_order
        if state.ruleset.play_after_order and after_order(state) == cmd.society and last is not None:
            require(not last[4], _("Midnight Oil cannot be chained: that order was itself a Midnight Oil repeat"), rule)
            require(state.pending is None, _("an order is owed already: Midnight Oil repeats the order just given"),
                    rule)
            return Play(outcome={"repeat": "after"})
        require(not state.oil, _("Midnight Oil is played already for this order: two cannot be chained"), rule)
        require(not owed_repeat, _("Midnight Oil cannot be chained: the order owed is itself a Midnight Oil repeat"),
                rule)
        return Play(outcome={"repeat": "during"})

    def apply(self, state: GameState, e: ev.CardPlayed) -> Data:
        if (e.outcome or {}).get("repeat") == "after":
            # the order just given, once more, owed now; the sequence then resumes where it stood
            assert state.last_order is not None
            empire, office, order, ends, _repeat = state.last_order
            return {"pending": Pending(e.society, ((empire, office),), ends, state.office_index, order)}
        return {"oil": True}


@registered
class SuccessionCrisis(FlowEffect):
    """Succession Crisis (REV 419): the rest of the council runs counter-clockwise from the position that drew the
    card: the office before the one whose order drew it acts next, or, past the Sheriff, the supply check. The
    drawing office is the last order's, not the active one: offices no one controls may have been skipped since."""

    id = "succession-crisis"
    checks = ("runs counter-clockwise from the current position",)
    leaps = True

    def check(self, state: GameState, cmd: Played, params: Mapping[str, str], rule: str) -> None:
        require(not state.counter_clockwise, _("the council already runs counter-clockwise (REV 419)"), rule)
        require(state.pending is None,
                _("Succession Crisis reverses the council sequence, not an order owed out of it"), rule)

    def play(self, state: GameState, cmd: Played, params: Mapping[str, str], catalogue: Catalogue,
             rule: str) -> Play:
        last = state.last_order
        drew = OFFICES.index(last[1]) if last is not None and last[0] == state.empire else min(
            state.office_index, SUPPLY_DUE) - 1
        return Play(outcome={"next": OFFICES[drew - 1] if drew > 0 else "supply"})

    def apply(self, state: GameState, e: ev.CardPlayed) -> Data:
        # the office that acts next, decided by the engine; a play recorded without it counts back from the active
        # office
        following = (e.outcome or {}).get("next")
        if following is not None:
            index = SUPPLY_DUE if following == "supply" else OFFICES.index(following)
        else:
            current = min(state.office_index, SUPPLY_DUE) - 1
            index = current - 1 if current > 0 else SUPPLY_DUE
        return {"counter_clockwise": True, "office_index": index}


class _LentPosition(FlowEffect, ABC):
    """Played in place of the active position's order, by the society that controls it: the order is taken at
    another position (`act`), owed at once."""

    def play(self, state: GameState, cmd: Played, params: Mapping[str, str], catalogue: Catalogue,
             rule: str) -> Play:
        require(state.pending is None and order_actor(state) == cmd.society,
                say("{effect} is played in place of the active position's order, by the society that controls it",
                    effect=self.id), rule)
        require(not state.attack_cards, say("{effect} gives the active position's order up, and an attack card was "
                                            "played with it", effect=self.id), rule)
        return self.lend(state, params, rule)

    @abstractmethod
    def lend(self, state: GameState, params: Mapping[str, str], rule: str) -> Play:
        """The play: the position this effect lends, checked against the rules (RuleError when they forbid it)."""


@registered
class UsePosition(_LentPosition):
    """EN 434, REV 391: the active position's action is given up for the action of another position the player
    controls; the sequence continues after the replaced position."""

    id = "use-position"
    checks = ("another position you control",)

    def lend(self, state: GameState, params: Mapping[str, str], rule: str) -> Play:
        require("position" in params, _("use-position names the position used: position=EMPIRE.OFFICE"), rule)
        target = params["position"]
        require(where(state, target)[0] != (state.empire, OFFICES[state.office_index]),
                _("use-position uses another position than the active one"), rule)
        return Play(act=target)

    def domain(self, state: GameState, society: str, name: str) -> tuple[str, ...] | None:
        # another position the player controls (EN 434, REV 391)
        active = (state.empire, OFFICES[state.office_index]) if state.office_index < len(OFFICES) else None
        return tuple(f"{e}.{o}" for e in state.board.empires for i, o in enumerate(OFFICES)
                     if (e, o) != active and state.office_controller(e, i) == society)

    def random_params(self, state: GameState, society: str, rng: random.Random) -> list[Params]:
        seats = [f"{e}.{o}" for (e, o), s in state.council.items() if s == society]
        return [(("position", p),) for p in rng.sample(seats, min(3, len(seats)))]


@registered
class MoveAgent(_LentPosition):
    """EN 430, REV 335-341: the active agent moves to an empty council position and its action is taken there at
    once; the sequence resumes one step after the abandoned position; unusable when no position is empty."""

    id = "move-agent"
    checks = ("to an empty council position",)

    def lend(self, state: GameState, params: Mapping[str, str], rule: str) -> Play:
        require("to" in params, _("move-agent names the empty position the agent moves to: to=EMPIRE.OFFICE"), rule)
        target = params["to"]
        position = where(state, target)[0]
        assert position is not None
        require(position not in state.council,
                say("{position} is not empty: the agent moves to an empty position", position=position_words(target)),
                rule)
        seat = state.active_agent(state.empire, state.office_index)
        assert seat is not None  # the society controls the active office, so an agent sits on or after it
        return Play(ev.Effects(agent=((position_name(seat), target),)), act=target)

    def domain(self, state: GameState, society: str, name: str) -> tuple[str, ...] | None:
        # an empty position, any council (EN 430, REV 335)
        return tuple(f"{e}.{o}" for e in state.board.empires for o in OFFICES if (e, o) not in state.council)

    def random_params(self, state: GameState, society: str, rng: random.Random) -> list[Params]:
        empty = list(self.domain(state, society, "to") or ())
        return [(("to", p),) for p in rng.sample(empty, min(3, len(empty)))]


class _BountifulHarvest(FlowEffect):
    """REV 353, 355: "Discard this decree only at the end of the turn; put it next to the board for the duration of
    the turn": it lasts to the end of the turn, the ruleset's `lasting` (the year or the empire's turn, digest §8
    item 37), its card beside the board meanwhile; the play records which (`outcome["until"]`)."""

    lasting = True
    outcome_since = ("until",)  # issue 33: before it, the card went to the discard pile at once

    def check(self, state: GameState, cmd: Played, params: Mapping[str, str], rule: str) -> None:
        require(self.id not in state.lasting, say("{effect} already lasts to the end of this turn", effect=self.id),
                rule)

    def play(self, state: GameState, cmd: Played, params: Mapping[str, str], catalogue: Catalogue,
             rule: str) -> Play:
        return Play(outcome={"until": state.ruleset.lasting})


@registered
class Trade(_BountifulHarvest):
    """REV 353: "Whenever a farm icon is considered for an action, count relevant farms twice each"."""

    id = "trade"
    checks = ("until the end of the turn", "counts twice")
    doubles = ("farm",)


@registered
class Hoard(_BountifulHarvest):
    """REV 355: "Ignore supply checks until the end of the turn. Perform a supply check before the beginning of the
    next turn"."""

    id = "hoard"
    checks = ("until the end of the turn", "no supply check is made")
    suspends_supply = True
