"""Who must act now, and which kinds of move are legal, with their parameter domains: the one answer that
`status`, the guided recorder, error messages and the random legal games all use.

It sits above legal.py (what each move allows) and flow.py (what the engine records on its own), because
looking past a closing card window means asking the flow what follows.
"""

from collections.abc import Callable

import msgspec

from whispers.ledger.core.card_checks import owed_instants
from whispers.ledger.core.decree_effects import playable_effects
from whispers.ledger.core.decrees import Catalogue
from whispers.ledger.core.flow import closed as closed_window
from whispers.ledger.core.legal import (
    Choices,
    Option,
    card_window,
    deploy_targets,
    order_actor,
    order_options,
    playable_cards,
    turn_society,
    window_waits,
)
from whispers.ledger.core.names import SLOTS
from whispers.ledger.core.state import GameState, position_name
from whispers.ledger.core.words import _, position, say, term


class Prompt(msgspec.Struct, frozen=True):
    round: int
    phase: str
    empire: str | None
    office: str | None
    actors: tuple[str, ...]
    options: tuple[Option, ...]
    note: str


Decrees = Callable[[], Catalogue]
"""How a prompt gets the decree catalogue: asked only when a card window is open (reading and checking the shipped
one costs a command about 18 ms, which a game between windows, or over, never needs)."""


def prompt(state: GameState, catalogue: Decrees | None = None, noted: bool = True) -> Prompt:
    """Who must act now, and the legal moves (a card play is listed where a card window is open; with the decree
    `catalogue`, with the effects playable now and their parameters' domains). `noted=False`: without the note in
    words (empty), for a caller that reads only the moves (a random game, a playout: wording it was a fifth of the
    prompt's time)."""
    owed = owed_instants(state)
    if owed and state.last_actor is not None:  # a Dark alliances decree just drawn is resolved first (REV 290)
        drawer = state.last_actor
        note = say("{society} has just drawn {cards}, a Dark alliances decree: it is played at once", society=drawer,
                   cards=", ".join(owed)) if noted else ""
        return Prompt(state.round, state.phase, state.empire, state.office, (drawer,),
                      (_play_option(state, drawer, catalogue),), note)
    holder = window_waits(state)
    if holder is not None:
        return _after_last_order(state, holder, catalogue, noted)
    options: list[Option] = []
    empire = office = None
    if state.phase == "setup":
        for society in state.players:
            if society not in state.loyalty:
                options.append(Option("loyalty", society, {"slots": SLOTS, "empires": state.board.empires}))
        note = _("each society records its loyalty tokens, or seals them") if noted else ""
    elif state.phase == "retrieve":
        society = turn_society(state)
        options.append(Option("retrieve", society, {"where": state.agents_out(society)}))
        note = say("{society} takes back one agent", society=society) if noted else ""
    elif state.phase == "deploy":
        society = turn_society(state)
        options.append(Option("deploy", society, {"where": deploy_targets(state, society)}))
        note = say("{society} deploys an agent ({n} of {of})", society=society, n=state.step // len(state.players) + 1,
                   of=state.per_round()) if noted else ""
    elif state.phase == "empire":
        empire, office = state.empire, state.office
        actor = order_actor(state)
        if actor is not None:
            options.extend(order_options(state, actor))
        for society in card_window(state):
            if state.hands[society].size:
                options.append(_play_option(state, society, catalogue))
        if not noted:
            note = ""
        elif state.pending:
            where = ", ".join(position(position_name(p)) for p in state.pending.positions)
            note = say("{society} takes one order at {where}", society=state.pending.society, where=where)
        elif actor is None or office is None:
            # a state inside the engine's own steps (after an order, before the next office starts): a replay
            # can stop there; nobody acts until the engine moves on
            note = say("the {empire} turn moves on", empire=empire)
        else:
            note = say("{society} controls the {empire} {office}", society=actor, empire=empire, office=office)
    elif state.phase == "cleanup":
        limit = state.ruleset.hand_limit
        for society in state.seat_order():
            excess = state.excess_cards(society)
            if excess > 0:
                options.append(Option("discard", society, {"count": excess, "hand": dict(state.hands[society].counts)}))
        note = say("societies over {limit} cards discard down to {limit}", limit=limit) if noted else ""
    elif state.phase == "swap":
        society = turn_society(state)
        unrevealed = tuple(slot for slot in SLOTS if slot not in state.loyalty[society].revealed)
        options.append(Option("swap-loyalty", society, {"slots": unrevealed}))
        options.append(Option("pass", society, {}))
        note = say("{society} may swap two concealed loyalty tokens, revealing both, or pass",
                   society=society) if noted else ""
    elif state.phase == "reveal":
        for society in state.players:
            if state.loyalty[society].tokens is None:
                options.append(Option("reveal", society, {"slots": SLOTS, "empires": state.board.empires}))
        note = _("sealed loyalty sets are revealed for final scoring") if noted else ""
    else:
        note = _("the game is over") if noted else ""
    actors = tuple(dict.fromkeys(o.society for o in options if o.verb != "play"))
    return Prompt(state.round, state.phase, empire, office, actors, tuple(options), note)


def _play_option(state: GameState, society: str, catalogue: Decrees | None) -> Option:
    choices: Choices = {"hand": dict(state.hands[society].counts)}
    if catalogue is not None:
        decrees = catalogue()
        choices["effects"] = effects = playable_effects(state, society, decrees)
        # which card plays which of them, and what else in the hand can pay (the guided recorder completes these)
        choices["cards"] = playable_cards(state, society, effects, decrees)
    return Option("play", society, choices)


def _after_last_order(state: GameState, holder: str, catalogue: Decrees | None = None, noted: bool = True
                      ) -> Prompt:
    """The window after an empire's last order: `holder` may play or say no-card; any other move closes the window
    (the supply check and what follows are recorded first), so the moves of the closed position are offered too."""
    _events, closed = closed_window(state)
    after = prompt(closed, catalogue, noted)
    mine = [_play_option(state, holder, catalogue), Option("no-card", holder, {})]
    # the holder's `play` is the window's; a play of the closed position comes after its no-card
    others = [o for o in after.options if not (o.society == holder and o.verb == "play")]
    then = _("the game ends") if closed.over else after.note
    if not noted:
        note = ""
    elif state.ruleset.play_after_order:
        note = say("{society} may still play a card after the {empire} council's last order, or {no_card}; "
                   "the supply check follows, then: {then}", society=holder, empire=state.empire, then=then,
                   no_card=term("no-card", "verb"))
    else:  # REV 300: no decree follows an executed order, but an (I) decree is played as it is drawn (REV 296)
        note = say("{society} has just drawn with the {empire} council's last order: it may play an instant (I) "
                   "decree it drew (REV 296), no other (REV 300), or {no_card}; the supply check follows, then: "
                   "{then}", society=holder, empire=state.empire, then=then, no_card=term("no-card", "verb"))
    if closed.over:
        return Prompt(state.round, state.phase, state.empire, None, (holder,), tuple(mine), note)
    return Prompt(after.round, after.phase, after.empire, after.office, after.actors, (*mine, *others), note)


