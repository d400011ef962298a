"""What every adjudicated decree effect is (`Effect`, and `AttackCard` for those that change the attack they go with),
the registry they are kept in by id, and the helpers their checks share. Each effect is one class in the module of
its family (attack.py, flow.py, board.py), registered with `@registered`; the rules, evolve, flow, the timeline and
the random game ask the registry (ledger.decree_effects.EFFECTS), never an effect's id.

An effect answers, each where it is asked:
- at a play (ledger.rules): `check` (what the play must satisfy beyond the catalogue's deck, cost, timing and
  parameter kinds) and `play` (what it decides: its board changes, the position it lends, its `outcome`);
- at replay (ledger.evolve): `apply`, the state's changes once the play's event is applied; events are facts, so
  nothing here re-runs a rule on replay;
- to the legal moves (ledger.legal, through the state), the flow (ledger.flow), the timeline and the random game:
  the class attributes below, `domain` and `random_params`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Protocol

from whispers.ledger.core import events as ev
from whispers.ledger.core.effects import require
from whispers.ledger.core.legal import attacks, order_actor, order_positions
from whispers.ledger.core.plain import Data
from whispers.ledger.core.state import REACHES, GameState, Route
from whispers.ledger.core.text import is_whole
from whispers.ledger.core.words import _, say

if TYPE_CHECKING:
    from whispers.ledger.core.decrees import Catalogue

Params = tuple[tuple[str, str], ...]


class Played(Protocol):
    """A card play as the effects read it (ledger.commands.PlayCard)."""

    @property
    def society(self) -> str: ...

    @property
    def card(self) -> str: ...


@dataclass(frozen=True)
class Play:
    """What a play of an adjudicated effect decides: the `CardPlayed` event's board changes, the position whose
    order it lends (`act`) and its `outcome`; `carried`: the attack to come carries the card (the rules then check
    that some attack open now can); `then`: an event that follows the play, made from the state once the play is
    applied (the Bear's extra attack after an attack)."""

    effects: ev.Effects = field(default_factory=ev.Effects)
    act: str | None = None
    outcome: dict[str, str] = field(default_factory=dict)
    carried: bool = False
    then: Callable[[GameState], ev.Event] | None = None


class Effect:
    """An effect whose consequences the engine computes (catalogue `mechanics = "adjudicated"`)."""

    id: ClassVar[str]
    family: ClassVar[str]
    """attack, flow or board: the module it is in."""
    checks: ClassVar[tuple[str, ...]] = ()
    """What the catalogue's text says is checked, in its words (tests/test_decree_registry.py reads them there)."""
    leaps: ClassVar[bool] = False
    """It sends the next order out of the council's sequence (the timeline draws the leap with its name)."""
    lasting: ClassVar[bool] = False
    """It lasts to the end of the turn, its card beside the board meanwhile (REV 353, 355; the ruleset's `lasting`)."""
    suspends_supply: ClassVar[bool] = False
    """While it lasts, the supply checks are suspended and made up later (REV 355)."""
    doubles: ClassVar[tuple[str, ...]] = ()
    """While it lasts, these icons count twice for an action (REV 353)."""
    outcome_since: ClassVar[tuple[str, ...]] = ()
    """`outcome` keys its plays record since a later version: a play recorded without them was decided before, and
    `verify` lets it stand as recorded (events are facts)."""
    placements_zero: ClassVar[bool] = False
    """Its placements parameters may name 0 (the new count of a region)."""

    def check(self, state: GameState, cmd: Played, params: Mapping[str, str], rule: str) -> None:
        """RuleError when the play breaks a rule of the effect's own, checked with the catalogue's."""

    def play(self, state: GameState, cmd: Played, params: Mapping[str, str], catalogue: Catalogue,
             rule: str) -> Play:
        """What the play decides, from its parameters and the board; RuleError when the rules forbid it."""
        return Play()

    def apply(self, state: GameState, e: ev.CardPlayed) -> Data:
        """The state's changes once the play is applied (its cards spent and board changes made already)."""
        return {}

    def computed(self, outcome: Mapping[str, str] | None) -> bool:
        """Whether the engine computed this play's consequences, so its log line types none."""
        return True

    def domain(self, state: GameState, society: str, name: str) -> tuple[str, ...] | None:
        """The values parameter `name` may take now where the board decides them; None: its kind's domain."""
        return None

    def random_params(self, state: GameState, society: str, rng: random.Random) -> list[Params]:
        """A few parameter sets for the random game to try (the rules then keep the legal ones)."""
        return [()]


class AttackCard(Effect):
    """An effect that changes the attack it is played with (REV 294: "invade/attack"): the attack to come carries it
    (`GameState.attack_cards`), resolved by the rules' own combat; or, in the official window after an attack
    (EN 380), it changes the attack just resolved (`after`)."""

    family = "attack"
    kills_all: ClassVar[bool] = False
    """Every attacking and defending banner in the combat dies (EN 426, REV 313)."""
    follows_up: ClassVar[bool] = False
    """The attack brings on another event once resolved (`follows`)."""

    def check_card(self, state: GameState, empire: str, params: Mapping[str, str], outcome: Mapping[str, str],
                   rule: str) -> None:
        """The card's own checks at the play, against the board now, for an attack by `empire`."""

    def decide(self, state: GameState, cmd: Played, params: Mapping[str, str], catalogue: Catalogue,
               rule: str) -> dict[str, str]:
        """What the play decides for the attack to come (its outcome)."""
        return {}

    def route(self, carried: Mapping[str, str]) -> Route | None:
        """How the card binds the attack to come: its source, target and reach; None: it does not."""
        return None

    def check_attack(self, state: GameState, empire: str, source: str, target: str, carried: Mapping[str, str]
                     ) -> None:
        """RuleError when the attack is not the one the card was played with."""

    def added(self, carried: Mapping[str, str]) -> int:
        """Banners it asks from the reserve for the attacking army (as many as the reserve holds join)."""
        return 0

    def reinforced(self, state: GameState, empire: str, source: str, target: str, carried: Mapping[str, str]
                   ) -> tuple[tuple[str, int], ...]:
        """(region, banners) that join the attacking army from another region before combat."""
        return ()

    def returned(self, state: GameState, empire: str, target: str, losses: int, controller: str,
                 carried: Mapping[str, str]) -> dict[str, int] | None:
        """region -> the attacker's killed banners that come back there once the combat is over."""
        return None

    def follows(self, state: GameState, society: str, attacked: ev.Attacked, carried: Mapping[str, str]
                ) -> ev.Event | None:
        """An event the attack brings on once resolved (the state is the one after it), or None."""
        return None

    def after(self, state: GameState, cmd: Played, params: Mapping[str, str], rule: str) -> Play | None:
        """What a play immediately after the attack it changes decides (the official window `after`, EN 380), or
        None when the card does not change an attack already resolved."""
        return None

    # --- the common part of every attack card ------------------------------------------------------------

    def play(self, state: GameState, cmd: Played, params: Mapping[str, str], catalogue: Catalogue,
             rule: str) -> Play:
        """An attack card is played with the attack to come (REV: "invade/attack"; the official window's before or
        during): the society's order to come must be an attack, and each card goes with it once; then the card's
        own checks, against the board now."""
        require(order_actor(state) == cmd.society and (state.pending is None
                                                      or state.pending.order in (None, "attack")),
                say("{effect} goes with an attack: it is played by the society whose order is to come, before it is "
                    "given", effect=self.id), rule)
        require(bool(attack_positions(state)), say("{effect} goes with an attack, and the order to come is not an "
                                                   "attack", effect=self.id), rule)
        require(self.id not in dict(state.attack_cards), say("{effect} is played already with this attack",
                                                             effect=self.id), rule)
        outcome = self.decide(state, cmd, params, catalogue, rule)
        empire = attack_positions(state)[0][0]
        self.check_card(state, empire, params, outcome, rule)
        if self.route({**params, **outcome}) is None:
            require(bool(attacks(state, empire)), say("{empire} has no attack to make", empire=empire), rule)
        return Play(outcome=outcome, carried=True)

    def apply(self, state: GameState, e: ev.CardPlayed) -> Data:
        if (e.outcome or {}).get("after"):
            return {"last_attack": None}  # played after the attack it changed: once
        carried = {**(e.params or {}), **(e.outcome or {})}
        return {"attack_cards": (*state.attack_cards, (self.id, tuple(carried.items()))),
                "attack_route": joined(state.attack_route, self.route(carried))}


# --- the registry -------------------------------------------------------------------------------------------

EFFECTS: dict[str, Effect] = {}
"""Every adjudicated effect by id, attack cards in the order an attack names them (`Attacked.cards`)."""


def registered(cls: type[Effect]) -> type[Effect]:
    """Class decorator: one instance of the effect, kept under its id."""
    assert cls.id not in EFFECTS, cls.id
    EFFECTS[cls.id] = cls()
    return cls


# --- shared helpers -----------------------------------------------------------------------------------------


def attack_positions(state: GameState) -> list[tuple[str, str]]:
    """The positions of the order to come that offer an attack."""
    return [p for p in order_positions(state) if "attack" in state.board.orders(*p)]


def joined(route: Route | None, more: Route | None) -> Route | None:
    """Two cards' bindings of one attack together: both sources and targets hold (two different ones: no attack
    is open), and it reaches as far as the farther."""
    if route is None or more is None:
        return route or more
    reach = max(route.reach, more.reach, key=REACHES.index)
    source = route.source or more.source
    target = route.target or more.target
    fits = all(a is None or b is None or a == b for a, b in ((route.source, more.source), (route.target,
                                                                                          more.target)))
    return Route(source, target, reach, route.empty or more.empty, route.open and more.open and fits)


def needs(params: Mapping[str, str], effect: str, *names: str, rule: str) -> None:
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


def placements(value: str, effect: str, name: str, state: GameState, rule: str, zero: bool = False
               ) -> dict[str, int]:
    """`REGION:N,REGION:N` as region -> N; RuleError naming what is wrong. An empty value is no placement. With
    `zero`, N may be 0 (the new count of a region that changes)."""
    found: dict[str, int] = {}
    for part in (p for p in value.split(",") if p):
        region, _colon, n = part.partition(":")
        require(region in state.board.regions and is_whole(n) and int(n) >= (0 if zero else 1),
                say("{effect}: {name}= is REGION:N, comma-separated, each N at least {least} (not {part!r})",
                    effect=effect, name=name, least=0 if zero else 1, part=part),
                rule)
        require(region not in found, say("{effect}: {name}= names {region} twice", effect=effect, name=name,
                                         region=region), rule)
        found[region] = int(n)
    return found


def placed(counts: Mapping[str, int]) -> str:
    """region -> N as a placements parameter."""
    return ",".join(f"{r}:{n}" for r, n in counts.items())

