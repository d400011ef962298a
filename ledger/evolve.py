"""Applying events to the state. Replaying a record never re-runs a rule: every fact is in the event."""

from collections.abc import Iterable, Mapping
from typing import Any

from whispers.ledger import events as ev
from whispers.ledger.board import Board
from whispers.ledger.effects import apply_agent_moves, apply_banner_effects, swap_agent_council
from whispers.ledger.names import BANNERS_PER_EMPIRE
from whispers.ledger.ruleset import Ruleset
from whispers.ledger.state import (
    SUPPLY_DUE,
    TURN_DONE,
    Deck,
    GameState,
    Hand,
    Loyalty,
    Pending,
    card_empire,
    deck_numbers,
    replace,
)


def fold(events: Iterable[ev.Event]) -> GameState:
    """Replay a record from its first event."""
    iterator = iter(events)
    state = evolve(None, next(iterator))
    for event in iterator:
        state = evolve(state, event)
    return state


def evolve(state: GameState | None, event: ev.Event) -> GameState:
    """Apply one event. A move's first event remembers the state before it, for a take-back."""
    if state is None:
        assert isinstance(event, ev.GameStarted), "a record begins with GameStarted"
        return _started(event)
    version = state.version + 1
    if isinstance(event, ev.MoveTakenBack):
        assert state.prior is not None
        return replace(state.prior, version=version)
    new = _APPLY[type(event)](state, event)
    if event.MOVE:
        # only the last move: the earlier ones are the priors' own (a tuple of all of them, in every state of
        # the prior chain, took memory quadratic in the number of moves)
        return replace(new, prior=state, moves=(version,), version=version)
    return replace(new, version=version)


def _started(e: ev.GameStarted) -> GameState:
    board = Board.from_data(e.board, source=f"record of {e.name}")
    ruleset = Ruleset.from_data(e.ruleset, source=f"record of {e.name}")
    banners = {r.id: (r.home, r.banners) for r in board.regions.values() if r.banners}
    reserve = {emp: BANNERS_PER_EMPIRE - sum(n for h, n in banners.values() if h == emp) for emp in board.empires}
    return GameState(
        name=e.name,
        board=board,
        ruleset=ruleset,
        players=tuple(e.players),
        first=e.first,
        banners=banners,
        reserve=reserve,
        hands={p: Hand({}) for p in e.players},
        decks={emp: Deck(len(deck_numbers(e.cards, e.card_sets, emp))) for emp in board.empires},
        card_sets=tuple(e.card_sets),
        cards=e.cards,
        version=1,
    )


def _after_order(state: GameState, actor: str, draw: bool = False, given: tuple[str, str, str] | None = None
                 ) -> GameState:
    """Move on once an order is taken: past the active office, or past the council (REV swap); or, when Midnight
    Oil was played during it, to the same order once more (REV 401)."""
    pending = state.pending
    ends = pending is not None and pending.ends_council
    repeat = pending is not None and pending.order is not None
    last = (*given, ends, repeat) if given is not None else state.last_order
    if state.oil and given is not None:
        again = Pending(actor, ((given[0], given[1]),), ends, pending.resume if pending else None, given[2])
        return replace(state, pending=again, oil=False, last_actor=actor, last_was_draw=draw, last_order=last)
    if ends:
        index = SUPPLY_DUE
    elif pending is not None and pending.resume is not None:
        index = pending.resume
    else:
        index = _next_office(state, state.office_index)
    return replace(state, office_index=index, pending=None, last_actor=actor, last_was_draw=draw, last_order=last)


def _next_office(state: GameState, index: int) -> int:
    """The office after `index` in the council sequence: clockwise, or back towards the Sheriff once Succession
    Crisis reversed it (REV 419); past either end, the supply check."""
    if state.counter_clockwise:
        return index - 1 if index > 0 else SUPPLY_DUE
    return index + 1


def _place(banners: Mapping[str, tuple[str, int]], region: str, empire: str, delta: int) -> dict[str, tuple[str, int]]:
    new = dict(banners)
    current = new.get(region)
    count = (current[1] if current else 0) + delta
    if count:
        new[region] = (empire, count)
    else:
        new.pop(region, None)
    return new


def _add_reserve(reserve: Mapping[str, int], empire: str, delta: int) -> dict[str, int]:
    new = dict(reserve)
    new[empire] += delta
    return new


def _a_phase(state: GameState, e: ev.PhaseStarted) -> GameState:
    # the empire turns phase starts "after" a virtual empire -1, so the engine starts the first one
    empire = e.phase == "empire"
    return replace(
        state,
        round=e.round,
        phase=e.phase,
        step=0,
        last_actor=None,
        last_was_draw=False,
        empire_index=-1 if empire else 0,
        office_index=TURN_DONE if empire else 0,
        pending=None,
    )


def _a_skipped(state: GameState, e: ev.Skipped) -> GameState:
    return replace(state, step=state.step + 1)


def _a_empire_turn(state: GameState, e: ev.EmpireTurnStarted) -> GameState:
    return replace(state, empire_index=state.board.empires.index(e.empire), office_index=0, pending=None,
                   counter_clockwise=False, oil=False, last_order=None)


def _a_office_skipped(state: GameState, e: ev.OfficeSkipped) -> GameState:
    if state.pending is not None:
        return replace(_after_order(state, state.pending.society), last_actor=state.last_actor)
    return replace(state, office_index=_next_office(state, state.office_index))


def _a_supply(state: GameState, e: ev.SupplyChecked) -> GameState:
    banners, reserve = state.banners, state.reserve
    for region, (empire, n) in e.losses.items():
        banners = _place(banners, region, empire, -n)
        reserve = _add_reserve(reserve, empire, n)
    # the empire's turn is over: no card may be played "immediately after" its orders any more
    return replace(state, banners=banners, reserve=reserve, office_index=TURN_DONE, last_actor=None,
                   last_was_draw=False)


def _a_supply_suspended(state: GameState, e: ev.SupplySuspended) -> GameState:
    return replace(state, office_index=TURN_DONE, last_actor=None, last_was_draw=False,
                   supply_owed=(*state.supply_owed, e.empire))


def _a_deferred_supply(state: GameState, e: ev.DeferredSupplyChecked) -> GameState:
    banners, reserve = state.banners, state.reserve
    for region, (empire, n) in e.losses.items():
        banners = _place(banners, region, empire, -n)
        reserve = _add_reserve(reserve, empire, n)
    return replace(state, banners=banners, reserve=reserve, supply_owed=())


def _a_round_ended(state: GameState, e: ev.RoundEnded) -> GameState:
    return replace(state, phase="round_end", step=0, last_actor=None, last_was_draw=False, pending=None, lasting=(),
                   counter_clockwise=False)


def _a_first(state: GameState, e: ev.FirstPlayerPassed) -> GameState:
    return replace(state, first=e.first, phase="mark", step=0)


def _a_scored(state: GameState, e: ev.GameScored) -> GameState:
    return replace(state, phase="over", scored=True)


def _a_loyalty(state: GameState, e: ev.LoyaltyRecorded) -> GameState:
    return replace(state, loyalty={**state.loyalty, e.society: Loyalty(e.tokens, {})})


def _remove_agent(state: GameState, society: str, where: str) -> GameState:
    if "." in where:
        empire, office = where.split(".", 1)
        council = dict(state.council)
        del council[(empire, office)]
        return replace(state, council=council)
    return replace(state, field_agents=state.field_agents - {(society, where)})


def _a_retrieved(state: GameState, e: ev.AgentRetrieved) -> GameState:
    return replace(_remove_agent(state, e.society, e.where), step=state.step + 1)


def _a_deployed(state: GameState, e: ev.AgentDeployed) -> GameState:
    if "." in e.where:
        empire, office = e.where.split(".", 1)
        state = replace(state, council={**state.council, (empire, office): e.society})
    else:
        state = replace(state, field_agents=state.field_agents | {(e.society, e.where)})
    return replace(state, step=state.step + 1)


def _a_recruited(state: GameState, e: ev.BannersRecruited) -> GameState:
    banners = state.banners
    for region, n in e.placed.items():
        banners = _place(banners, region, e.empire, n)
    state = replace(state, banners=banners, reserve=_add_reserve(state.reserve, e.empire, -e.amount))
    return _after_order(state, e.society, given=(e.empire, e.office, e.order))


def _a_drawn(state: GameState, e: ev.CardsDrawn) -> GameState:
    hand = state.hands[e.society]
    counts = dict(hand.counts)
    if e.drawn:
        counts[e.empire] = counts.get(e.empire, 0) + e.drawn
    deck = state.decks[e.empire]
    deck = Deck(deck.draw + e.reshuffled - e.drawn, deck.discard - e.reshuffled)
    state = replace(state, hands={**state.hands, e.society: Hand(counts, hand.known + e.cards)},
                    decks={**state.decks, e.empire: deck}, drawn=(e.empire, tuple(e.cards), e.drawn))
    return _after_order(state, e.society, draw=True, given=(e.empire, e.office, e.order))


def _a_attacked(state: GameState, e: ev.Attacked) -> GameState:
    banners = _place(state.banners, e.source, e.empire, -e.banners)
    reserve = _add_reserve(state.reserve, e.empire, e.attacker_losses)
    survivors = e.banners - e.attacker_losses
    if e.defending:
        defender = state.banners[e.target][0]
        reserve = _add_reserve(reserve, defender, e.defender_losses)
        banners = _place(banners, e.target, defender, -e.defender_losses)
    if survivors:
        banners = _place(banners, e.target, e.empire, survivors)
    return _after_order(replace(state, banners=banners, reserve=reserve), e.society,
                        given=(e.empire, e.office, e.order))


def _a_swapped(state: GameState, e: ev.AgentSwapped) -> GameState:
    council = swap_agent_council(state, (e.empire, e.office), e.target, e.society, e.displaced)
    options = tuple((e.empire, o) for o in e.options)
    pending = Pending(e.society, options, state.ruleset.swap_agent_ends_council)
    return replace(state, council=council, pending=pending, last_actor=e.society, last_was_draw=False)


def _spent(state: GameState, society: str, cards: tuple[str, ...]) -> GameState:
    decks = dict(state.decks)
    for card in cards:
        empire = card_empire(card)
        deck = decks[empire]
        if state.ruleset.spent == "deck":
            decks[empire] = Deck(deck.draw + 1, deck.discard)
        else:
            decks[empire] = Deck(deck.draw, deck.discard + 1)
    return replace(state, hands={**state.hands, society: state.hands[society].without(cards)}, decks=decks)


def _effects(state: GameState, effects: ev.Effects) -> GameState:
    banners, reserve = apply_banner_effects(state, effects, "record")
    flat = {r: (e, n) for r, army in banners.items() for e, n in army.items() if n}
    council = apply_agent_moves(state, effects.agent, "record")
    return replace(state, banners=flat, reserve=reserve, council=council)


def _a_played(state: GameState, e: ev.CardPlayed) -> GameState:
    state = _effects(_spent(state, e.society, (e.card, *e.pay)), e.effects)
    if e.effect in ("hoard", "trade"):
        state = replace(state, lasting=(*state.lasting, e.effect))
    elif e.effect == "midnight-oil" and (e.outcome or {}).get("repeat") == "after":
        # the order just given, once more, owed now; the sequence then resumes where it stood
        assert state.last_order is not None
        empire, office, order, ends, _ = state.last_order
        state = replace(state, pending=Pending(e.society, ((empire, office),), ends, state.office_index, order))
    elif e.effect == "midnight-oil":
        state = replace(state, oil=True)
    elif e.effect == "succession-crisis":
        # the sequence runs counter-clockwise from the position that drew the card: the office before it is next
        current = min(state.office_index, SUPPLY_DUE) - 1
        state = replace(state, counter_clockwise=True, office_index=current - 1 if current > 0 else SUPPLY_DUE)
    if e.act is not None:
        empire, office = e.act.split(".", 1)
        state = replace(state, pending=Pending(e.society, ((empire, office),), False))
    return state


def _a_discarded(state: GameState, e: ev.CardsDiscarded) -> GameState:
    return _spent(state, e.society, e.cards)


def _a_after_passed(state: GameState, e: ev.AfterOrderPassed) -> GameState:
    return replace(state, last_actor=None, last_was_draw=False)


def _a_loyalty_swapped(state: GameState, e: ev.LoyaltySwapped) -> GameState:
    loyalty = state.loyalty[e.society]
    a, b = e.slots
    tokens = loyalty.tokens
    if tokens is not None:
        tokens = {**tokens, a: tokens[b], b: tokens[a]}
    new = Loyalty(tokens, {**loyalty.revealed, **e.revealed}, loyalty.swaps + 1, (*loyalty.swapped, (a, b)))
    return replace(state, loyalty={**state.loyalty, e.society: new}, step=state.step + 1)


def _a_passed(state: GameState, e: ev.SwapPassed) -> GameState:
    return replace(state, step=state.step + 1)


def _a_revealed(state: GameState, e: ev.LoyaltyRevealed) -> GameState:
    loyalty = state.loyalty[e.society]
    revealed = Loyalty(dict(e.tokens), loyalty.revealed, loyalty.swaps, loyalty.swapped)
    return replace(state, loyalty={**state.loyalty, e.society: revealed})


def _a_ruling(state: GameState, e: ev.RulingApplied) -> GameState:
    return _effects(state, e.effects)


def _a_checked(state: GameState, e: ev.TableChecked) -> GameState:
    return state


def _a_forked(state: GameState, e: ev.GameForked) -> GameState:
    return state


def _a_finalized(state: GameState, e: ev.GameFinalized) -> GameState:
    return replace(state, finalised=e.by)


def _a_reopened(state: GameState, e: ev.GameReopened) -> GameState:
    return replace(state, finalised=None)


_APPLY: dict[type, Any] = {
    ev.GameFinalized: _a_finalized,
    ev.GameReopened: _a_reopened,
    ev.GameForked: _a_forked,
    ev.GameDescribed: lambda state, e: state,  # table facts (ledger/meta.py) are not the game's state
    ev.PhaseStarted: _a_phase,
    ev.Skipped: _a_skipped,
    ev.EmpireTurnStarted: _a_empire_turn,
    ev.OfficeSkipped: _a_office_skipped,
    ev.SupplyChecked: _a_supply,
    ev.SupplySuspended: _a_supply_suspended,
    ev.DeferredSupplyChecked: _a_deferred_supply,
    ev.RoundEnded: _a_round_ended,
    ev.FirstPlayerPassed: _a_first,
    ev.GameScored: _a_scored,
    ev.LoyaltyRecorded: _a_loyalty,
    ev.AgentRetrieved: _a_retrieved,
    ev.AgentDeployed: _a_deployed,
    ev.BannersRecruited: _a_recruited,
    ev.CardsDrawn: _a_drawn,
    ev.Attacked: _a_attacked,
    ev.AgentSwapped: _a_swapped,
    ev.CardPlayed: _a_played,
    ev.CardsDiscarded: _a_discarded,
    ev.LoyaltySwapped: _a_loyalty_swapped,
    ev.SwapPassed: _a_passed,
    ev.AfterOrderPassed: _a_after_passed,
    ev.LoyaltyRevealed: _a_revealed,
    ev.RulingApplied: _a_ruling,
    ev.TableChecked: _a_checked,
}
