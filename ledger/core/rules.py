"""The rules engine: a pure functional core.

- `start` checks a new game's setup and gives its first event.
- `decide(state, command)` gives the events a legal move makes, with every consequence the engine records
  on its own (skipped offices, supply checks, phase changes, scoring), or raises `RuleError` naming the
  rule that forbids it. It never changes `state`.
- `evolve(state, event)` applies one event; `fold(events)` replays a record. Neither re-runs a rule.
- `prompt(state)` says who must act now and which moves are legal, with their parameter domains.

Rule citations name the rulebook and section: EN (official, English), FR, IT, ES, REV (revised edition).
"""

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from whispers.ledger.core import commands as c
from whispers.ledger.core import events as ev
from whispers.ledger.core import sealing
from whispers.ledger.core.board import Board
from whispers.ledger.core.card_checks import check_ability, check_card, check_drawn, owed_instants
from whispers.ledger.core.decree_effects import EFFECTS, AttackCard, combat, effect, placements
from whispers.ledger.core.decrees import (
    CARD_SETS,
    CardSheet,
    Catalogue,
    family,
)
from whispers.ledger.core.effects import (
    apply_agent_moves,
    check_effects,
    require,
    resolve_effects,
    swap_agent_council,
    where,
)
from whispers.ledger.core.errors import DecreeError, RuleError
from whispers.ledger.core.evolve import evolve, fold
from whispers.ledger.core.flow import advance, advanced
from whispers.ledger.core.flow import closed as closed_window
from whispers.ledger.core.legal import (
    Option,
    after_order,
    card_window,
    decree_timing_refusal,
    draw_count,
    movable_banners,
    open_orders,
    order_actor,
    order_options,
    order_positions,
    order_refusal,
    recruit_amount,
    recruit_count,
    route_allows,
    swap_targets,
    turn_society,
    window_waits,
)
from whispers.ledger.core.names import (
    ABILITIES_PER_CARD,
    AGENTS_PER_SOCIETY,
    CARDS_PER_DECK,
    DRAW_ORDERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OFFICES,
    RECRUIT_ORDERS,
    SLOTS,
    SOCIETIES,
)
from whispers.ledger.core.prompt import Prompt, prompt
from whispers.ledger.core.ruleset import Ruleset
from whispers.ledger.core.scoring import score
from whispers.ledger.core.state import GameState, Position, card_empire, position_name
from whispers.ledger.core.state import replace as replace_state
from whispers.ledger.core.text import has_line_break, is_utf8, is_whole
from whispers.ledger.core.words import N_, _, plural, say, term
from whispers.ledger.core.words import position as position_words

__all__ = ["Option", "Prompt", "advance", "decide", "decided", "evolve", "fold", "prompt", "score", "start",
           "window_waits"]

SOCIETY_RULE = "EN Setup: Player Boards and Tokens"

# --- start ------------------------------------------------------------------------------------------


def start(name: str, players: Iterable[str], first: str | None, ruleset: Ruleset, board: Board,
          card_sets: Iterable[str] = CARD_SETS, cards: CardSheet | None = None) -> ev.GameStarted:
    """The first event of a game, once its setup is legal (EN "Setup"; EN "Overview": the player counts), with the
    card sets it plays with (the base set always) and the card sheet it pins, if any (docs/decrees.md)."""
    players = tuple(players)
    sets = _card_sets(card_sets)
    for society in players:
        if society not in SOCIETIES:
            raise RuleError(say("unknown society {name}: the societies are {societies}", name=repr(society),
                                societies=", ".join(SOCIETIES)), SOCIETY_RULE)
    if len(set(players)) != len(players):
        raise RuleError(_("a society is listed twice"), SOCIETY_RULE)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise RuleError(say("A War of Whispers is for {low} to {high} players, not {n}", low=MIN_PLAYERS,
                            high=MAX_PLAYERS, n=len(players)),
                        "EN Overview")
    first = first or players[0]
    if first not in players:
        raise RuleError(say("the first player {first} is not playing", first=repr(first)), "EN Setup: First Player")
    if len(board.empires) != len(SLOTS):
        raise RuleError(
            say("board {board} has {n} empires; loyalty needs exactly {slots} (one token per empire)",
                board=repr(board.id), n=len(board.empires), slots=len(SLOTS)),
            "EN Loyalty Tokens and Scoring",
        )
    return ev.GameStarted(name, players, first, ruleset.to_data(), board.to_data(), board.content_hash,
                          ruleset.content_hash, sets, dict(cards.to_data()) if cards is not None else None,
                          cards.content_hash if cards is not None else None)


def _card_sets(named: Iterable[str]) -> tuple[str, ...]:
    """The card sets a game plays with, in CARD_SETS order: the base set, and those named (REV 290)."""
    named = set(named)
    unknown = sorted(named - set(CARD_SETS))
    if unknown:
        raise RuleError(say("unknown card set {name}: the card sets are {sets}", name=repr(unknown[0]),
                            sets=", ".join(CARD_SETS)), "REV Decrees")
    return tuple(s for s in CARD_SETS if s == "base" or s in named)


# --- decide -----------------------------------------------------------------------------------------


def decide(state: GameState, command: c.Command, catalogue: Catalogue | None = None) -> list[ev.Event]:
    """The events of a legal move and its automatic consequences; RuleError if the move is illegal. `catalogue`
    (fixtures/decrees.toml) is needed to play a card for a named effect (`effect=`)."""
    return decided(state, command, catalogue)[0]


def decided(state: GameState, command: c.Command, catalogue: Catalogue | None = None
            ) -> tuple[list[ev.Event], GameState]:
    """`decide`'s events, with the state they fold `state` into: deciding a move folds its events already (to find
    its automatic consequences), so a caller that plays it on (a playout, ledger/core/rollout.py) need not fold them
    again."""
    if isinstance(command, c.Finalize | c.Reopen) or state.finalised is not None:
        return _folded(state, [_decide_director(state, command)])
    if isinstance(command, c.Undo):
        return _folded(state, [_decide_undo(state, command)])
    if state.over:
        raise RuleError(_("the game is over: only a take-back can change its record"), "EN Final Scoring")
    decider = _DECIDERS.get(type(command))
    if decider is None:
        raise RuleError(say("unknown command {name}", name=type(command).__name__), "whispers")
    _check_owed_instant(state, command)
    holder = window_waits(state)
    closing, state = _close_window(state, holder, command)
    if state.over:
        raise RuleError(
            say("the last order is given: {holder} may still play a card or say {no_card}, and then the game ends",
                holder=holder, no_card=term("no-card", "verb")),
            _card_rule(state),
        )
    made = _decide_play(state, command, catalogue) if isinstance(command, c.PlayCard) else decider(state, command)
    events = [*closing, *made]
    after = state
    for event in events[len(closing):]:
        after = evolve(after, event)
    automatic, after = advanced(after)
    events.extend(automatic)
    return events, after


def _folded(state: GameState, events: list[ev.Event]) -> tuple[list[ev.Event], GameState]:
    for event in events:
        state = evolve(state, event)
    return events, state


def _close_window(state: GameState, holder: str | None, command: c.Command) -> tuple[list[ev.Event], GameState]:
    """The supply check and what follows, with the state they fold `state` into, when a move other than the waiting
    society's (`holder`'s) play or no-card is made in the window after an empire's last order (EN "Playing Cards":
    "immediately after" ends with the turn)."""
    if holder is None or isinstance(command, c.Ruling | c.Check | c.NoCard):
        return [], state
    if isinstance(command, c.PlayCard | c.NoCard) and command.society == holder:
        return [], state
    return closed_window(state)


REOPEN_RULE = "whispers: a finished game is reopened only on purpose"


REASON_LIMIT = 500


def _reason(text: str, what: str, rule: str) -> str:
    """A take-back's or ruling's reason: words on one line, so that a record's log reads back as the same
    moves (a line break in it would start a line of its own, read as a move)."""
    reason = text.strip()
    what = _(what)
    require(bool(reason), say("{what} needs a reason", what=what), rule)
    require(not has_line_break(reason), say("{what}'s reason must be one line", what=what), rule)
    require(is_utf8(reason), say("{what}'s reason is not UTF-8 text", what=what), rule)
    require(len(reason) <= REASON_LIMIT,
            say("{what}'s reason is longer than {limit} characters", what=what, limit=REASON_LIMIT), rule)
    return reason


def _decide_undo(state: GameState, command: c.Undo) -> ev.MoveTakenBack:
    reason = _reason(command.reason, N_("a take-back"), "whispers: history is never erased")
    if not state.moves:
        raise RuleError(_("there is no move to take back"), "whispers: take-back")
    # reopen None re-adjudicates a take-back recorded before reopening had to be said, by the rules of its time
    if command.reopen is False and state.over:
        raise RuleError(
            _("the game is over: taking back its last move reopens it; say so with undo reopen \"REASON\" "
              "(whispers move GAME undo --reopen REASON)"),
            REOPEN_RULE,
        )
    before = state.prior.loyalty if state.prior is not None else {}
    for society, held in state.loyalty.items():
        # else the table could take the seal back and record a set of its own choosing in its place
        require(held.commitment is None or society in before,
                say("{society}'s sealed set cannot be taken back: nobody but its player may change it, and the "
                    "reveal must match it", society=society), sealing.RULE)
    if command.reopen and not state.over:
        raise RuleError(_("the game is not over: there is nothing to reopen; take a move back with undo \"REASON\""),
                        REOPEN_RULE)
    return ev.MoveTakenBack(reason, state.moves[-1], command.reopen)


SEALED_RULE = "whispers: a finalised game is sealed"
NAME_LIMIT = 64


def _decide_director(state: GameState, command: c.Command) -> ev.GameFinalized | ev.GameReopened:
    """The director's seal on a finished game, and its lifting: while sealed, nothing else is recorded."""
    if state.finalised is not None and not isinstance(command, c.Reopen):
        raise RuleError(say("the game is finalised (by {author}): nothing is recorded until the director reopens it "
                            "(whispers reopen {game} --by NAME --reason \"REASON\")", author=state.finalised,
                            game=state.name), SEALED_RULE)
    if isinstance(command, c.Finalize):
        require(state.over, _("the game is not over: only a finished game is finalised"), SEALED_RULE)
        reason = _reason(command.reason, N_("a finalisation"), SEALED_RULE) if command.reason.strip() else ""
        return ev.GameFinalized(_director(command.by), reason)
    assert isinstance(command, c.Reopen)
    require(state.finalised is not None, _("the game is not finalised: there is no seal to lift"), SEALED_RULE)
    return ev.GameReopened(_director(command.by), _reason(command.reason, N_("reopening"), SEALED_RULE))


def _director(name: str) -> str:
    """The director's name: words on one line (it is written in the log), at most NAME_LIMIT characters."""
    name = name.strip()
    require(bool(name) and len(name) <= NAME_LIMIT and not has_line_break(name) and is_utf8(name),
            say("the director's name must be one line of 1 to {limit} characters", limit=NAME_LIMIT), SEALED_RULE)
    return name


def _check_society(state: GameState, society: str) -> None:
    if society not in SOCIETIES:
        raise RuleError(say("unknown society {name}", name=repr(society)), SOCIETY_RULE)
    if society not in state.players:
        raise RuleError(say("{society} is not playing in this game", society=society), SOCIETY_RULE)


def _check_phase(state: GameState, phase: str, verb: str) -> None:
    if state.phase != phase:
        raise RuleError(say("{verb} is not a move of the {phase} phase", verb=term(verb, "verb"),
                            phase=term(state.phase, "phase")), "EN Gameplay Overview")


def _check_move(state: GameState, society: str, phase: str, verb: str, turn_rule: str | None = None) -> None:
    """A move of a playing society in its phase, and in a phase taken in turn (`turn_rule`), on its turn."""
    _check_society(state, society)
    _check_phase(state, phase, verb)
    if turn_rule is not None:
        _check_turn(state, society, turn_rule)


def _check_turn(state: GameState, society: str, rule: str) -> None:
    expected = turn_society(state)
    if society != expected:
        raise RuleError(say("it is {expected}'s turn, not {society}'s", expected=expected, society=society), rule)


def _check_tokens(state: GameState, tokens: Mapping[str, str], rule: str) -> None:
    require(set(tokens) == set(SLOTS), say("name an empire for each slot: {slots}", slots=", ".join(SLOTS)), rule)
    for slot, empire in tokens.items():
        require(empire in state.board.empires,
            say("unknown empire {empire} on {slot}", empire=repr(empire), slot=slot), rule)
    require(len(set(tokens.values())) == len(SLOTS), _("each empire's token sits on exactly one slot"), rule)


def _decide_loyalty(state: GameState, cmd: c.RecordLoyalty) -> list[ev.Event]:
    rule = "EN Setup: Loyalty"
    _check_move(state, cmd.society, "setup", "loyalty")
    require(cmd.society not in state.loyalty, say("{society}'s loyalty is recorded already", society=cmd.society), rule)
    if cmd.commitment is not None:
        require(cmd.tokens is None, _("a committed set records its hash, not its tokens"), sealing.RULE)
        require(sealing.well_formed(cmd.commitment),
                _("a commitment is sha256: and 64 hexadecimal digits (made at the society's own seat)"), sealing.RULE)
        return [ev.LoyaltyCommitted(cmd.society, cmd.commitment)]
    if cmd.tokens is not None:
        _check_tokens(state, cmd.tokens, rule)
        _check_distinct_devout(state, cmd.society, cmd.tokens)
    return [ev.LoyaltyRecorded(cmd.society, dict(cmd.tokens) if cmd.tokens is not None else None)]


def _check_distinct_devout(state: GameState, society: str, tokens: Mapping[str, str]) -> None:
    """REV "Setup": devout empires are dealt from one set, so no two societies start devout to one empire.
    A swap may move a devout token later, so the sets are compared as they were placed at setup."""
    if not state.ruleset.distinct_devout:
        return
    mine = state.loyalty[society].at_setup(tokens)["devout"] if society in state.loyalty else tokens["devout"]
    for other, loyalty in state.loyalty.items():
        if other != society and loyalty.tokens is not None:
            require(
                loyalty.at_setup(loyalty.tokens)["devout"] != mine,
                say("{other} is devout to {mine} already: devout empires are dealt from one set", other=other,
                    mine=mine),
                "REV Setup",
            )


def _decide_retrieve(state: GameState, cmd: c.Retrieve) -> list[ev.Event]:
    rule = "EN Deploy Agents Phase, Step 1" if state.ruleset.retrieve == "round_start" else "REV Phase 3: Year end"
    _check_move(state, cmd.society, "retrieve", "retrieve", rule)
    position, region = where(state, cmd.where)
    if position is not None:
        if state.council.get(position) != cmd.society:
            raise RuleError(say("{society} has no agent on {where}", society=cmd.society, where=cmd.where), rule)
    else:
        if (cmd.society, region) not in state.field_agents:
            raise RuleError(say("{society} has no agent in {where}", society=cmd.society, where=cmd.where), rule)
    return [ev.AgentRetrieved(cmd.society, cmd.where)]


def _decide_deploy(state: GameState, cmd: c.Deploy) -> list[ev.Event]:
    rule = "EN Deploy Agents Phase, Step 2"
    _check_move(state, cmd.society, "deploy", "deploy", rule)
    if state.agents_in_hand(cmd.society) <= 0:
        raise RuleError(say("{society} has no agent left", society=cmd.society),
                        f"EN Components: {AGENTS_PER_SOCIETY} agents")
    position, region = where(state, cmd.where)
    if position is not None:
        holder = state.council.get(position)
        if holder is not None:
            raise RuleError(say("{where} is taken by {holder}: deploy to an open council position",
                                where=position_words(cmd.where), holder=holder), rule)
    else:
        field_rule = "EN Advanced Rules: Assigning Agents to Regions"
        if not state.ruleset.field_agents:
            raise RuleError(say("the {ruleset} rules have no field agents: deploy to a council position "
                                "(EMPIRE.OFFICE)", ruleset=state.ruleset.id), field_rule)
        own = state.field_regions(cmd.society)
        if len(own) >= state.ruleset.max_field_agents:
            raise RuleError(say("{society} has {agents} on the map already (at most {most})", society=cmd.society,
                                agents=plural(len(own), "agent"), most=state.ruleset.max_field_agents), field_rule)
        if region in own:
            raise RuleError(say("{society} has an agent in {region} already", society=cmd.society, region=region),
                            field_rule)
    return [ev.AgentDeployed(cmd.society, cmd.where)]


def _check_order_turn(state: GameState, society: str) -> None:
    rule = "EN Empire Turns Phase"
    _check_society(state, society)
    if state.phase != "empire":
        raise RuleError(say("orders are given in the empire turns phase, not the {phase} phase",
                            phase=term(state.phase, "phase")), rule)
    actor = order_actor(state)
    if state.pending:
        where = ", ".join(position_words(position_name(p)) for p in state.pending.positions)
        if society != actor:
            raise RuleError(say("{actor} owes an order at {where}, not {society}", actor=actor, where=where,
                                society=society), rule)
    else:
        if society != actor:
            raise RuleError(say("{actor} controls the {empire} {office}, not {society}", actor=actor,
                                empire=state.empire, office=state.office, society=society), rule)


def _pick_order(
    state: GameState, society: str, verb: str, kinds: tuple[str, ...], order: str | None, at: str | None
) -> tuple[Position, str]:
    """The position and order a command means, among those owed now; RuleError naming why it cannot be."""
    _check_order_turn(state, society)
    rule = "EN Council Positions"
    candidates = []
    refusals = []
    short_of_banners: list[bool] = []
    for position in order_positions(state):
        if at is not None and position_name(position) != at and position[1] != at:
            continue
        for name in state.board.orders(*position):
            if name not in kinds or (order is not None and name != order):
                continue
            if state.pending and name == "swap_agent":
                refusals.append(_("a swapped-in agent takes an order, not another swap"))
                short_of_banners.append(False)
                continue
            if state.attack_cards and name != "attack":
                cards = ", ".join(e for e, _ in state.attack_cards)
                refusals.append(say("{cards} was played with the attack to come: the order is that attack",
                                    cards=cards))
                continue
            if state.pending and state.pending.order not in (None, name):
                refusals.append(say("Midnight Oil repeats {order}, not {name} (REV 401)",
                                    order=state.pending.order, name=name))
                short_of_banners.append(False)
                continue
            # open_orders holds the pairs that pass these same checks and have no refusal
            refusal = None if (position, name) in open_orders(state) else order_refusal(state, position[0], name,
                                                                                         position)
            if refusal is None:
                candidates.append((position, name))
            else:
                refusals.append(say("{order} at {position} cannot be chosen: {refusal}", order=term(name, "order"),
                                    position=position_words(position_name(position)), refusal=refusal))
                short_of_banners.append(name in RECRUIT_ORDERS and state.reserve[position[0]] == 0)
    if not candidates:
        if refusals:
            raise RuleError(refusals[0], "EN Add Banner Actions" if short_of_banners[:1] == [True] else rule)
        offered = "; ".join(
            f"{position_words(position_name(p))}: {', '.join(term(o, 'order') for o in state.board.orders(*p))}"
                            for p in order_positions(state))
        raise RuleError(say("{verb} is not an order offered here ({offered})", verb=term(verb, "verb"),
                            offered=offered), rule)
    if len(candidates) > 1:
        names = ", ".join(f"{position_name(p)} {o}" for p, o in candidates)
        raise RuleError(say("more than one {verb} order is owed ({names}): say which with order= or at=", verb=verb,
                            names=names), rule)
    return candidates[0]


def _decide_recruit(state: GameState, cmd: c.Recruit) -> list[ev.Event]:
    rule = "EN Add Banner Actions"
    position, order = _pick_order(state, cmd.society, "recruit", RECRUIT_ORDERS, cmd.order, cmd.at)
    empire = position[0]
    counted, amount = recruit_count(state, empire, order), recruit_amount(state, empire, order)
    controlled = set(state.controlled(empire))
    for region, n in cmd.placed.items():
        if region not in state.board.regions:
            raise RuleError(say("unknown region {region}", region=repr(region)), "EN The Map")
        if region not in controlled:
            raise RuleError(say("{region} is not controlled by {empire}", region=region, empire=empire), rule)
        if not (isinstance(n, int) and n >= 1):
            raise RuleError(say("banners placed in {region} must be a whole number of at least 1", region=region), rule)
    placed = sum(cmd.placed.values())
    short = " " + say("(the reserve has only {n})", n=state.reserve[empire]) if amount < counted else ""
    if placed != amount:
        raise RuleError(say("{order} adds {banners}{short}, not {placed}", order=term(order, "order"),
                            banners=plural(amount, f"{empire} banner"), short=short, placed=placed), rule)
    return [ev.BannersRecruited(cmd.society, empire, position[1], order, counted, amount, dict(cmd.placed))]


def _decide_draw(state: GameState, cmd: c.Draw) -> list[ev.Event]:
    rule = "EN Draw Empire Card Actions"
    position, order = _pick_order(state, cmd.society, "draw", DRAW_ORDERS, cmd.order, cmd.at)
    empire = position[0]
    counted, drawn, reshuffled = draw_count(state, empire, order)
    if len(cmd.cards) > drawn:
        raise RuleError(say("{order} draws {cards}: cannot name {named}", order=term(order, "order"),
                            cards=plural(drawn, f"{empire} card"), named=len(cmd.cards)), rule)
    known = {card for hand in state.hands.values() for card in hand.known}
    for card in cmd.cards:
        _check_card_id(state, card, rule)
        if card_empire(card) != empire:
            raise RuleError(say("{card} is not from the {empire} deck", card=card, empire=empire), rule)
        if card in known:
            raise RuleError(say("{card} is in a hand already", card=card), rule)
    if len(set(cmd.cards)) != len(cmd.cards):
        raise RuleError(_("a card is named twice"), rule)
    return [ev.CardsDrawn(cmd.society, empire, position[1], order, counted, drawn, tuple(cmd.cards), reshuffled)]


def _check_card_id(state: GameState, card: str, rule: str) -> None:
    empire, colon, number = card.partition(":")
    if empire not in state.board.empires:
        raise RuleError(say("unknown empire {empire!r} in card {card!r}", empire=empire,
                            card=card), rule)
    if colon:
        numbers = state.card_numbers(empire)
        if state.cards is None:
            if number not in {str(n) for n in numbers}:
                raise RuleError(say("card {card!r}: an empire's cards are numbered 1 to {last}", card=card,
                                    last=CARDS_PER_DECK), rule)
        else:
            if number not in {str(n) for n in numbers}:
                raise RuleError(say("card {card!r} is not on this game's card sheet, in the "
                                    "card sets it plays ({sets}): {empire} cards are numbered {numbers}", card=card,
                                    sets=", ".join(state.card_sets), empire=empire,
                                    numbers=", ".join(map(str, numbers))), rule)


def _decide_attack(state: GameState, cmd: c.Attack) -> list[ev.Event]:
    rule = "EN Attack Action"
    position, order = _pick_order(state, cmd.society, "attack", ("attack",), None, cmd.at)
    empire = position[0]
    cards = _carried(state)
    for region in (cmd.source, cmd.target):
        if region not in state.board.regions:
            raise RuleError(say("unknown region {region}", region=repr(region)), "EN The Map")
    held_by = state.controller(cmd.target)
    if held_by == empire:
        raise RuleError(say("{target} is controlled by {empire} itself: an attack must target a region controlled by "
                            "another empire", target=cmd.target, empire=empire), rule)
    if state.controller(cmd.source) != empire or state.banners_in(cmd.source) == 0:
        raise RuleError(say("{source} holds no {empire} banners to attack with", source=cmd.source, empire=empire),
                        rule)
    for card, carried in cards:
        card.check_attack(state, empire, cmd.source, cmd.target, carried)
    if not route_allows(state, state.attack_route, cmd.source, cmd.target):
        raise RuleError(say("{source} does not border {target} by land: no attacks across seas", source=cmd.source,
                            target=cmd.target), rule)
    if cmd.banners < 1:
        raise RuleError(_("an attack moves at least one banner"), rule)
    available = state.banners_in(cmd.source)
    movable = movable_banners(state, empire, cmd.source)
    if movable < available:
        if cmd.banners > movable:
            raise RuleError(say("{source} is a conquered region: at most {movable} of its {banners} may leave (you "
                                "can never completely abandon a conquered region)", source=cmd.source,
                                movable=movable, banners=plural(available, "banner")), rule)
    else:
        if cmd.banners > available:
            raise RuleError(say("{source} has only {banners}", source=cmd.source,
                                banners=plural(available, f"{empire} banner")), rule)
    # what the cards played with the attack bring to it (ledger.decree_effects.attack), before combat
    added = min(sum(card.added(carried) for card, carried in cards), state.reserve[empire])  # REV 437
    reinforced = tuple(r for card, carried in cards for r in card.reinforced(state, empire, cmd.source, cmd.target,
                                                                             carried))
    army = cmd.banners + added + sum(n for _, n in reinforced)
    fight = combat(state, empire, cmd.target, army, kill_all=any(card.kills_all for card, _ in cards))
    returned = next((into for card, carried in cards if (into := card.returned(
        state, empire, cmd.target, fight.attacker_losses, fight.controller, carried)) is not None), None)
    attacked = ev.Attacked(cmd.society, empire, position[1], order, cmd.source, cmd.target, cmd.banners, held_by,
                           fight.defending, fight.fort_kill, fight.attacker_losses, fight.defender_losses,
                           fight.controller, tuple(card.id for card, _ in cards), added, reinforced, returned)
    if not any(card.follows_up for card, _ in cards):
        return [attacked]
    after = evolve(state, attacked)
    return [attacked, *(follow for card, carried in cards
                        if (follow := card.follows(after, cmd.society, attacked, carried)) is not None)]


def _carried(state: GameState) -> list[tuple[AttackCard, dict[str, str]]]:
    """The cards the attack to come carries, with their parameters and what their plays decided, in the order an
    attack names them (the registry's)."""
    carried = dict(state.attack_cards)
    return [(card, dict(carried[card.id])) for card in EFFECTS.values()
            if isinstance(card, AttackCard) and card.id in carried]


def _after_attack(state: GameState, cmd: c.PlayCard, catalogue: Catalogue | None) -> bool:
    """An attack card played immediately after the attack it changes (EN 380: the official window `after`), by the
    society that gave it."""
    assert catalogue is not None and cmd.effect is not None
    return (family(state.ruleset) == "official" and "after" in catalogue[cmd.effect].window()
            and state.last_attack is not None and after_order(state) == cmd.society)


def _decide_swap_agent(state: GameState, cmd: c.SwapAgent) -> list[ev.Event]:
    rule = "EN Swap Agent Action" if state.ruleset.swap_agent_target == "any" else "REV Council orders: Chancellor"
    position, _order = _pick_order(state, cmd.society, "swap-agent", ("swap_agent",), None, None)
    empire = position[0]
    if cmd.target not in OFFICES:
        raise RuleError(say("unknown office {text}", text=repr(cmd.target)), rule)
    targets = swap_targets(state, position)
    if cmd.target not in targets:
        raise RuleError(say("the agent cannot swap to the {empire} {office} (it may swap to: {targets})", empire=empire,
                            office=cmd.target, targets=", ".join(term(t, "office") for t in targets) or _("nowhere")),
                        rule)
    displaced = state.council.get((empire, cmd.target))
    after = replace_state(state, council=swap_agent_council(state, position, cmd.target, cmd.society, displaced))
    if state.ruleset.swap_agent_then == "target":
        options: tuple[str, ...] = (cmd.target,)
    else:
        # REV: "from any position you just acquired control of" -- the target, and any position whose
        # control passed to this society with the swap (not those it held already, which have acted)
        options = tuple(
            o
            for i, o in enumerate(OFFICES)
            if o == cmd.target
            or (after.office_controller(empire, i) == cmd.society and state.office_controller(empire, i) != cmd.society)
        )
    return [ev.AgentSwapped(cmd.society, empire, position[1], cmd.target, displaced, options)]


def _card_rule(state: GameState) -> str:
    return "EN Playing Cards" if state.ruleset.play_after_order else "REV Decrees"


def _decide_play(state: GameState, cmd: c.PlayCard, catalogue: Catalogue | None = None) -> list[ev.Event]:
    rule = _card_rule(state)
    _check_society(state, cmd.society)
    require(
        cmd.society in card_window(state),
        say("{society} may not play a card now: cards are played around an order of a council position you control",
            society=cmd.society),
        rule,
    )
    cards = (cmd.card, *cmd.pay)
    _check_spend(state, cmd.society, cards, rule)
    params = _check_decree(state, cmd, catalogue) if cmd.effect is not None else {}
    if cmd.effect is None and cmd.ability is not None and catalogue is not None:
        try:
            check_ability(state, cmd.card, cmd.ability, tuple(cmd.pay), catalogue)
        except DecreeError as error:
            raise RuleError(str(error), rule) from None
    require(cmd.ability is None or 1 <= cmd.ability <= ABILITIES_PER_CARD,
            say("a card has at most {n} abilities, numbered from 1: ability={ability} names none",
                n=ABILITIES_PER_CARD, ability=cmd.ability),
            "EN 382")
    outcome: dict[str, str] = {}
    adjudicating = effect(cmd.effect)
    if adjudicating is not None:
        assert catalogue is not None
        if isinstance(adjudicating, AttackCard) and _after_attack(state, cmd, catalogue):
            decided = adjudicating.after(state, cmd, params, "EN 380")
            require(decided is not None, say("{effect} goes with the attack to come, not after one",
                                             effect=cmd.effect), "EN 380")
            assert decided is not None
        else:
            decided = adjudicating.play(state, cmd, params, catalogue, rule)
        outcome = decided.outcome
        if decided.carried:
            _check_an_attack_carries(state, cmd, params, rule, outcome)
        if decided.then is not None:
            played = ev.CardPlayed(cmd.society, cmd.card, cmd.ability, tuple(cmd.pay), decided.effects, None,
                                   cmd.effect, params, outcome)
            return [played, decided.then(evolve(state, played))]
        cmd = replace(cmd, effects=decided.effects, act=decided.act)
    effects = resolve_effects(state, cmd.effects, rule)
    act = None
    if cmd.act is not None:
        position, _region = where(state, cmd.act)
        require(position is not None, _("act= names a council position EMPIRE.OFFICE"), rule)
        assert position is not None
        require(
            state.pending is None and order_actor(state) == cmd.society,
            _("a card may lend another position only in place of the active position's order"),
            rule,
        )
        council = apply_agent_moves(state, effects.agent, rule)
        after = replace_state(state, council=council)
        require(
            after.office_controller(position[0], OFFICES.index(position[1])) == cmd.society,
            say("{society} does not control {position}", society=cmd.society, position=position_words(cmd.act)),
            rule,
        )
        act = cmd.act
    check_effects(state, effects, rule)
    return [ev.CardPlayed(cmd.society, cmd.card, cmd.ability, tuple(cmd.pay), effects, act, cmd.effect, params,
                          outcome)]


def _check_an_attack_carries(state: GameState, cmd: c.PlayCard, params: dict[str, str], rule: str,
                             outcome: dict[str, str]) -> None:
    """An attack card binds the order to come to an attack that carries it; if no attack open now could (a return's
    placements that match no attack's losses, an extra attack no conquest could make), the play is refused now,
    rather than leaving the player with no legal order but a take-back."""
    played = ev.CardPlayed(cmd.society, cmd.card, cmd.ability, tuple(cmd.pay), ev.Effects(), None, cmd.effect,
                           params, outcome)
    after = evolve(state, played)
    refusal = None
    for option in order_options(after, cmd.society):
        if option.verb != "attack":
            continue
        for source, target, most in option.choices["attacks"]:
            for n in range(most, 0, -1):
                try:
                    _decide_attack(after, c.Attack(cmd.society, source, target, n, option.choices["at"]))
                    return
                except RuleError as error:
                    refusal = error.reason
    if refusal is None:
        raise RuleError(say("{effect}: no attack open to {society} now could carry it", effect=cmd.effect,
                            society=cmd.society), rule)
    raise RuleError(say("{effect}: no attack open to {society} now could carry it (the last tried: {refusal})",
                        effect=cmd.effect, society=cmd.society, refusal=refusal), rule)


def _check_decree(state: GameState, cmd: c.PlayCard, catalogue: Catalogue | None) -> dict[str, str]:
    """The catalogue's checks of a play naming an effect: the effect exists and is played, the card is of a deck
    that carries it, the payment (the played card counts toward it, Treasure is wild: EN 382, REV 298, REV 315),
    the timing per ruleset (EN 380; REV 290-300), and the parameters named as the catalogue names them."""
    rule = _card_rule(state)
    require(catalogue is not None, say("effect={effect}: the decree catalogue is not loaded", effect=cmd.effect), rule)
    assert catalogue is not None and cmd.effect is not None
    require(cmd.effect in catalogue,
            say("unknown effect {effect}: `whispers decrees` lists them", effect=repr(cmd.effect)), rule)
    try:
        check_card(state, cmd.effect, cmd.card, cmd.pay, catalogue)
        decree = catalogue[cmd.effect]
        refusal = decree_timing_refusal(state, cmd.society, decree.timing(family(state.ruleset)))
        require(refusal is None, refusal or "", rule)
        check_drawn(state, cmd.society, cmd.effect, cmd.card, catalogue)
    except DecreeError as error:
        raise RuleError(str(error), rule) from None
    allowed = {p.name: p.kind for p in decree.parameters}
    params = dict(cmd.params)
    require(len(params) == len(cmd.params), say("{effect}: a parameter is named twice", effect=cmd.effect), rule)
    for name, value in params.items():
        takes = ", ".join(n + "=" for n in allowed)
        require(name in allowed, say("{effect} takes no {name}=; it takes {takes}", effect=cmd.effect, name=name,
                                     takes=takes) if allowed else say("{effect} takes no {name}=", effect=cmd.effect,
                                                                      name=name), rule)
        _check_param(state, cmd.effect, name, allowed[name], value, rule)
    adjudicating = effect(cmd.effect)
    if adjudicating is not None:
        require(not cmd.effects and cmd.act is None,
                say("{effect} is adjudicated by the engine: its consequences are not typed (no add=, kill=, move=, "
                    "agent=, act=)", effect=cmd.effect), rule)
        adjudicating.check(state, cmd, params, rule)
    return params


def _check_param(state: GameState, effect_id: str, name: str, kind: str, value: str, rule: str) -> None:
    if kind == "region":
        require(value in state.board.regions,
                say("{effect}: {text} is not a region of this board", effect=effect_id, text=f"{name}={value}"), rule)
    elif kind == "empire":
        require(value in state.board.empires,
                say("{effect}: {text} is not an empire", effect=effect_id, text=f"{name}={value}"), rule)
    elif kind == "position":
        require(where(state, value)[0] is not None,
                say("{effect}: {text}= names a position EMPIRE.OFFICE", effect=effect_id, text=name), rule)
    elif kind == "count":
        require(is_whole(value) and int(value) > 0,
                say("{effect}: {text}= is a whole number above 0", effect=effect_id, text=name), rule)
    elif kind == "amount":
        require(is_whole(value), say("{effect}: {text}= is a whole number, 0 or more", effect=effect_id, text=name),
                rule)
    elif kind == "placements":
        placements(value, effect_id, name, state, rule, zero=getattr(effect(effect_id), "placements_zero", False))


def _check_spend(state: GameState, society: str, cards: Iterable[str], rule: str) -> None:
    """RuleError unless the society's hand holds these cards (what the hand becomes is `Hand.without`'s, applied
    when the event is)."""
    hand = state.hands[society]
    for card in cards:
        _check_card_id(state, card, rule)
        empire = card_empire(card)
        require(hand.counts.get(empire, 0) > 0, say("{society} holds no {empire} card", society=society, empire=empire),
                rule)
        if ":" in card:
            require(card in hand.known or hand.unknown(empire) > 0,
                    say("{society} does not hold {card}", society=society, card=card), rule)
        elif hand.unknown(empire) == 0:
            named = ", ".join(k for k in hand.known if card_empire(k) == empire)
            raise RuleError(say("the record knows {society}'s {empire} cards ({named}): name the one that leaves",
                                society=society, empire=empire, named=named), rule)
        hand = hand.without((card,))


def _decide_discard(state: GameState, cmd: c.Discard) -> list[ev.Event]:
    rule = "EN Cleanup Phase"
    _check_move(state, cmd.society, "cleanup", "discard")
    limit = state.ruleset.hand_limit
    size, excess = state.hands[cmd.society].size, state.excess_cards(cmd.society)
    require(excess > 0, say("{society} holds {cards}: only hands over {limit} discard", society=cmd.society,
                            cards=plural(size, "card"), limit=limit), rule)
    require(
        1 <= len(cmd.cards) <= excess,
        say("{society} discards down to {limit}: {cards}, not {named}", society=cmd.society, limit=limit,
            cards=plural(excess, "card"), named=len(cmd.cards)),
        rule,
    )
    _check_spend(state, cmd.society, cmd.cards, rule)
    return [ev.CardsDiscarded(cmd.society, tuple(cmd.cards))]


def _decide_swap_loyalty(state: GameState, cmd: c.SwapLoyalty) -> list[ev.Event]:
    rule = "EN Swap Phase"
    _check_move(state, cmd.society, "swap", "swap-loyalty", rule)
    a, b = cmd.slots
    for slot in (a, b):
        require(slot in SLOTS, say("unknown loyalty slot {slot}: the slots are {slots}", slot=repr(slot),
                                   slots=", ".join(SLOTS)), rule)
    require(a != b, _("swap two different slots"), rule)
    loyalty = state.loyalty[cmd.society]
    for slot in (a, b):
        require(slot not in loyalty.revealed,
                say("the token on {slot} is revealed already and cannot be swapped", slot=slot), rule)
    given = dict(cmd.revealed or {})
    if given:
        require(set(given) == {a, b}, say("name the empire now on each swapped slot: {example}",
                                          example=f"{a}=EMPIRE {b}=EMPIRE"), rule)
        for empire in given.values():
            require(empire in state.board.empires, say("unknown empire {text}", text=repr(empire)), rule)
        require(
            len(set(given.values())) == 2,
            say("the two swapped slots cannot both hold {empire}: each empire has one token",
                empire=next(iter(given.values()))),
            rule,
        )
    if loyalty.tokens is not None:
        actual = {a: loyalty.tokens[b], b: loyalty.tokens[a]}
        require(
            not given or given == actual,
            say("the record has {line} after this swap, not what was named", line=f"{a}={actual[a]} {b}={actual[b]}"),
            "whispers: a reveal must agree with the recorded loyalty",
        )
        given = actual
    else:
        require(
            bool(given), say("{society}'s loyalty is sealed: name the revealed empires, {example}", society=cmd.society,
                             example=f"{a}=EMPIRE {b}=EMPIRE"), rule
        )
        shown = set(loyalty.revealed.values())
        require(not shown & set(given.values()), _("an empire's token is revealed on another slot already"), rule)
    return [ev.LoyaltySwapped(cmd.society, (a, b), given)]


def _decide_pass(state: GameState, cmd: c.Pass) -> list[ev.Event]:
    _check_move(state, cmd.society, "swap", "pass", "EN Swap Phase")
    return [ev.SwapPassed(cmd.society)]


def _decide_no_card(state: GameState, cmd: c.NoCard) -> list[ev.Event]:
    _check_society(state, cmd.society)
    holder = window_waits(state)
    require(
        holder == cmd.society,
        say("{no_card} closes the moment after an empire's last order, and {society} is not waited for ({holder} is)",
            no_card=term("no-card", "verb"), society=cmd.society, holder=holder) if holder else
        say("{no_card} closes the moment after an empire's last order, and {society} is not waited for",
            no_card=term("no-card", "verb"), society=cmd.society),
        _card_rule(state),
    )
    return [ev.AfterOrderPassed(cmd.society)]


def _decide_reveal(state: GameState, cmd: c.Reveal) -> list[ev.Event]:
    rule = "EN Final Scoring"
    _check_move(state, cmd.society, "reveal", "reveal")
    loyalty = state.loyalty[cmd.society]
    _check_tokens(state, cmd.tokens, rule)
    if loyalty.tokens is not None:
        require(
            dict(loyalty.tokens) == dict(cmd.tokens),
            say("{society}'s reveal disagrees with its recorded loyalty", society=cmd.society),
            "whispers: a reveal must agree with the recorded loyalty",
        )
        raise RuleError(say("{society}'s loyalty is recorded already and agrees: nothing to reveal",
                            society=cmd.society), rule)
    for slot, empire in loyalty.revealed.items():
        require(
            cmd.tokens[slot] == empire,
            say("{slot} was revealed as {empire} by a swap, not {other}", slot=slot, empire=empire,
                other=cmd.tokens[slot]),
            "whispers: a reveal must agree with what was revealed",
        )
    if loyalty.commitment is not None:
        salt = sealing.read_code(cmd.salt or "")
        require(bool(salt), say("{society} sealed its set with a commitment: the reveal gives its salt too "
                                "(salt=CODE, kept at the seat that sealed it)", society=cmd.society), sealing.RULE)
        require(sealing.good_salt(salt), _("a code is 26 characters of 0-9 and A-Z (no I, L, O, U), in groups or "
                                           "not; or, sealed before, 32 to 128 hexadecimal digits"), sealing.RULE)
        require(sealing.commitment(loyalty.at_setup(cmd.tokens), salt) == loyalty.commitment,
                say("{society}'s reveal does not match the set it sealed (tokens or salt differ)", society=cmd.society),
                sealing.RULE)
    else:
        require(cmd.salt is None, say("{society} sealed no commitment: a reveal without salt=", society=cmd.society),
                rule)
    _check_distinct_devout(state, cmd.society, cmd.tokens)
    # the salt as it was hashed (a code typed in lower case or in groups is recorded in its one spelling)
    return [ev.LoyaltyRevealed(cmd.society, dict(cmd.tokens),
                               sealing.read_code(cmd.salt) if cmd.salt is not None else None)]


def _decide_ruling(state: GameState, cmd: c.Ruling) -> list[ev.Event]:
    rule = "whispers: an adjudicator's ruling"
    reason = _reason(cmd.reason, N_("a ruling"), rule)
    # the notation reads a ruling whose first word is an effect as one that forgot its reason
    require(re.match(r"(add|kill|move|agent)=", reason) is None,
            _("a ruling's reason cannot start with an effect (add=, kill=, move=, agent=)"), rule)
    effects = resolve_effects(state, cmd.effects, rule)
    check_effects(state, effects, rule)
    return [ev.RulingApplied(reason, effects)]


def _decide_check(state: GameState, cmd: c.Check) -> list[ev.Event]:
    rule = "whispers: a table count"
    require(bool(cmd.counts), _("name at least one region and its banner count"), rule)
    mismatches = {}
    for region, counted in cmd.counts.items():
        require(region in state.board.regions, say("unknown region {name}", name=repr(region)), rule)
        require(counted >= 0, _("a banner count cannot be negative"), rule)
        recorded = state.banners_in(region)
        if recorded != counted:
            mismatches[region] = (recorded, counted)
    return [ev.TableChecked(dict(cmd.counts), mismatches)]


def _check_owed_instant(state: GameState, command: c.Command) -> None:
    """A Dark alliances decree just drawn is resolved at once (REV 290): until it is played, no other move (a
    ruling excepted, and a take-back, decided above)."""
    owed = owed_instants(state)
    if not owed or isinstance(command, c.Ruling):
        return
    if isinstance(command, c.PlayCard) and command.society == state.last_actor and command.card in owed:
        return
    raise RuleError(say("{society} has just drawn {cards}, a Dark alliances decree: it is played at once, before any "
                        "other move (REV 290)", society=state.last_actor, cards=", ".join(owed)), "REV Decrees")


_DECIDERS: dict[type[c.Command], Callable[..., list[ev.Event]]] = {
    c.RecordLoyalty: _decide_loyalty,
    c.Retrieve: _decide_retrieve,
    c.Deploy: _decide_deploy,
    c.Recruit: _decide_recruit,
    c.Draw: _decide_draw,
    c.Attack: _decide_attack,
    c.SwapAgent: _decide_swap_agent,
    c.PlayCard: _decide_play,
    c.Discard: _decide_discard,
    c.SwapLoyalty: _decide_swap_loyalty,
    c.Pass: _decide_pass,
    c.NoCard: _decide_no_card,
    c.Reveal: _decide_reveal,
    c.Ruling: _decide_ruling,
    c.Check: _decide_check,
}
