"""Applying events to the state. Replaying a record never re-runs a rule: every fact is in the event."""

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar, cast

import msgspec
from msgspec.structs import force_setattr

from whispers.ledger.core import events as ev
from whispers.ledger.core import numbering
from whispers.ledger.core.board import Board
from whispers.ledger.core.decree_effects import effect
from whispers.ledger.core.effects import apply_agent_moves, apply_banner_effects, swap_agent_council
from whispers.ledger.core.names import BANNERS_PER_EMPIRE
from whispers.ledger.core.plain import Data, SheetData
from whispers.ledger.core.ruleset import Ruleset
from whispers.ledger.core.state import (
    SUPPLY_DUE,
    TURN_DONE,
    Deck,
    GameState,
    Hand,
    Loyalty,
    Pending,
    card_empire,
    copy_state,
    deck_numbers,
)


def fold(events: Iterable[ev.Event]) -> GameState:
    """Replay a record from its first event."""
    iterator = iter(events)
    state = evolve(None, next(iterator))
    for event in iterator:
        state = evolve(state, event)
    return state


def progress(events: Sequence[ev.Event]) -> tuple[int, str]:
    """The round and phase `fold(events)` reaches, read from the few events that change them (`_PHASE_OF`,
    `_a_phase`) without building a state per event: what a summary of every game in a store needs of each
    (projections/catalog.py). A take-back returns to the round and phase before the move it takes back, as the fold
    returns to that move's prior state."""
    round_, phase = _SET_UP
    phase_of = _PHASE_OF
    if ev.MoveTakenBack not in map(type, events):  # most records (a scan at C speed): nothing returns to earlier
        later: str | None = None  # ones, so the last events that change them say them, found from the end
        for event in reversed(events):
            kind = type(event)
            if kind is ev.PhaseStarted:
                return event.round, later or event.phase  # type: ignore[attr-defined]
            if later is None and kind in phase_of:
                later = phase_of[kind]
        return round_, later or phase
    before: list[tuple[int, str]] = []  # the round and phase before each move still standing, as the priors hold them
    for event in events[1:]:
        kind = type(event)
        if kind is ev.MoveTakenBack:
            round_, phase = before.pop()
            continue
        if event.MOVE:
            before.append((round_, phase))
        if kind is ev.PhaseStarted:
            round_, phase = event.round, event.phase  # type: ignore[attr-defined]
        elif kind in phase_of:
            phase = phase_of[kind]
    return round_, phase


def evolve(state: GameState | None, event: ev.Event) -> GameState:
    """Apply one event. A move's first event remembers the state before it, for a take-back."""
    if state is None:
        assert isinstance(event, ev.GameStarted), "a record begins with GameStarted"
        return _started(event)
    version = state.version + 1
    if isinstance(event, ev.MoveTakenBack):
        assert state.prior is not None
        taken_back = copy_state(state.prior)
        force_setattr(taken_back, "version", version)
        return taken_back
    # One copy per event, changed in place by the event's function before anyone else sees it: the states
    # already folded (this one, the priors) are never changed.
    new = copy_state(state)
    _APPLY[type(event)](new, event)
    if event.MOVE:
        # only the last move: the earlier ones are the priors' own (a tuple of all of them, in every state of
        # the prior chain, took memory quadratic in the number of moves)
        where, placed = numbering.place(new.round, event, new.placed)
        _set(new, prior=state, moves=(version,), version=version, move_number=state.move_number + 1,
             move_place=where, placed=placed)
    else:
        force_setattr(new, "version", version)
    return new


def _set(work: GameState, **changes: object) -> None:
    """Changes the fold's working copy (frozen to everyone else) in place."""
    _changed(work, **changes)


def _changed(work: GameState, **changes: object) -> GameState:
    """`work`, the fold's working copy of the state for one event, changed in place. Every function below is
    given that copy (never a state already folded), reads it as it stands and changes it in turn."""
    for name, value in changes.items():
        force_setattr(work, name, value)
    return work


_Built = TypeVar("_Built", Board, Ruleset)
_PINNED: dict[tuple[str, str], tuple[Data, Board | Ruleset]] = {}
"""(kind, content hash) -> (the data, the Board or Ruleset built from it): games on one board and ruleset (a
tournament's) validate and build them once per process. Found only when the data is equal, so a record whose data
does not match its claimed hash still gets its own."""


def _pinned(kind: str, claimed: str, data: Data, build: Callable[..., _Built], source: str) -> _Built:
    found = _PINNED.get((kind, claimed))
    if found is not None and found[0] == data:
        return cast(_Built, found[1])  # built by `build`: the kind says which
    built = build(data, source=source)
    if len(_PINNED) >= 32:  # a handful of boards and rulesets in use; a long-lived server is not a leak
        _PINNED.clear()
    _PINNED[(kind, claimed)] = (data, built)
    return built


def pinned(e: ev.GameStarted) -> tuple[Board, Ruleset]:
    """The board and ruleset a game's first event embeds, as the fold builds them (once per process per content)."""
    return (_pinned("board", e.board_hash, e.board, Board.from_data, f"record of {e.name}"),
            _pinned("ruleset", e.ruleset_hash, e.ruleset, Ruleset.from_data, f"record of {e.name}"))


def _started(e: ev.GameStarted) -> GameState:
    board, ruleset = pinned(e)
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
        decks={emp: Deck(len(deck_numbers(cast("SheetData | None", e.cards), e.card_sets, emp)))
               for emp in board.empires},
        card_sets=tuple(e.card_sets),
        cards=cast("SheetData | None", e.cards),  # checked when the game pinned it
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
        return _changed(state, pending=again, oil=False, last_actor=actor, last_was_draw=draw, last_order=last,
                       attack_cards=(), attack_route=None, last_attack=None)
    if ends:
        index = SUPPLY_DUE
    elif pending is not None and pending.resume is not None:
        index = pending.resume
    else:
        index = _next_office(state, state.office_index)
    return _changed(state, office_index=index, pending=None, last_actor=actor, last_was_draw=draw, last_order=last,
                   attack_cards=(), attack_route=None, last_attack=None)


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


_DEFAULTS = {f.name: f.default for f in msgspec.structs.fields(GameState)}
_SET_UP = (_DEFAULTS["round"], _DEFAULTS["phase"])
"""The round and phase a game begins at: the state's defaults, which `_started` leaves as they are."""
_PHASE_OF: dict[type, str] = {ev.RoundEnded: "round_end", ev.FirstPlayerPassed: "mark", ev.GameScored: "over"}
"""The phase each of these events begins; with PhaseStarted (which says its own phase and round), the only events
that change the round or the phase (`progress` reads them alone)."""


def _a_phase(state: GameState, e: ev.PhaseStarted) -> GameState:
    # the empire turns phase starts "after" a virtual empire -1, so the engine starts the first one
    empire = e.phase == "empire"
    return _changed(
        state,
        round=e.round,
        placed=state.placed if e.round == state.round else {},
        phase=e.phase,
        step=0,
        last_actor=None,
        last_was_draw=False,
        empire_index=-1 if empire else 0,
        office_index=TURN_DONE if empire else 0,
        pending=None,
    )


def _a_skipped(state: GameState, e: ev.Skipped) -> GameState:
    return _changed(state, step=state.step + 1)


def _put_away(state: GameState, until: tuple[str, ...]) -> GameState:
    """The decrees lying beside the board until the end of `until` leave it, as spent cards do (REV 353, 355), and
    their effects end."""
    ending = [entry for entry in state.beside if entry[2] in until]
    if not ending:
        return state
    decks = dict(state.decks)
    for card, _ended, _until in ending:
        deck = decks[card_empire(card)]
        decks[card_empire(card)] = (Deck(deck.draw + 1, deck.discard) if state.ruleset.spent == "deck"
                                    else Deck(deck.draw, deck.discard + 1))
    ended = [ended for _card, ended, _until in ending]
    state = _lasting(state, tuple(lasting for lasting in state.lasting if lasting not in ended))
    return _changed(state, decks=decks, beside=tuple(entry for entry in state.beside if entry[2] not in until))


def _lasting(state: GameState, lasting: tuple[str, ...]) -> GameState:
    """The effects lasting now, and the icons they count twice (read by ledger.legal)."""
    doubled = tuple(dict.fromkeys(icon for lasts in lasting for icon in getattr(effect(lasts), "doubles", ())))
    return _changed(state, lasting=lasting, doubled=doubled)


def _a_empire_turn(state: GameState, e: ev.EmpireTurnStarted) -> GameState:
    state = _put_away(state, ("turn",))
    return _changed(state, empire_index=state.board.empires.index(e.empire), office_index=0, pending=None,
                   counter_clockwise=False, oil=False, last_order=None)


def _a_office_skipped(state: GameState, e: ev.OfficeSkipped) -> GameState:
    state = _changed(state, attack_cards=(), attack_route=None)  # an attack card goes with the order skipped
    if state.pending is not None:
        actor = state.last_actor  # read before _after_order changes it
        return _changed(_after_order(state, state.pending.society), last_actor=actor)
    return _changed(state, office_index=_next_office(state, state.office_index))


def _a_supply(state: GameState, e: ev.SupplyChecked) -> GameState:
    banners, reserve = state.banners, state.reserve
    for region, (empire, n) in e.losses.items():
        banners = _place(banners, region, empire, -n)
        reserve = _add_reserve(reserve, empire, n)
    # the empire's turn is over: no card may be played "immediately after" its orders any more
    return _changed(state, banners=banners, reserve=reserve, office_index=TURN_DONE, last_actor=None,
                   last_was_draw=False)


def _a_supply_suspended(state: GameState, e: ev.SupplySuspended) -> GameState:
    return _changed(state, office_index=TURN_DONE, last_actor=None, last_was_draw=False,
                   supply_owed=(*state.supply_owed, e.empire))


def _a_deferred_supply(state: GameState, e: ev.DeferredSupplyChecked) -> GameState:
    banners, reserve = state.banners, state.reserve
    for region, (empire, n) in e.losses.items():
        banners = _place(banners, region, empire, -n)
        reserve = _add_reserve(reserve, empire, n)
    return _changed(state, banners=banners, reserve=reserve, supply_owed=())


def _a_round_ended(state: GameState, e: ev.RoundEnded) -> GameState:
    state = _put_away(state, ("turn", "year"))
    return _changed(state, phase=_PHASE_OF[ev.RoundEnded], step=0, last_actor=None, last_was_draw=False, pending=None,
                   lasting=(), doubled=(), counter_clockwise=False)


def _a_first(state: GameState, e: ev.FirstPlayerPassed) -> GameState:
    return _changed(state, first=e.first, phase=_PHASE_OF[ev.FirstPlayerPassed], step=0)


def _a_scored(state: GameState, e: ev.GameScored) -> GameState:
    return _changed(state, phase=_PHASE_OF[ev.GameScored], scored=True)


def _a_loyalty(state: GameState, e: ev.LoyaltyRecorded) -> GameState:
    return _changed(state, loyalty={**state.loyalty, e.society: Loyalty(e.tokens, {})})


def _a_committed(state: GameState, e: ev.LoyaltyCommitted) -> GameState:
    return _changed(state, loyalty={**state.loyalty, e.society: Loyalty(None, {}, commitment=e.commitment)})


def _remove_agent(state: GameState, society: str, where: str) -> GameState:
    if "." in where:
        empire, office = where.split(".", 1)
        council = dict(state.council)
        del council[(empire, office)]
        return _changed(state, council=council)
    return _changed(state, field_agents=state.field_agents - {(society, where)})


def _a_retrieved(state: GameState, e: ev.AgentRetrieved) -> GameState:
    return _changed(_remove_agent(state, e.society, e.where), step=state.step + 1)


def _a_deployed(state: GameState, e: ev.AgentDeployed) -> GameState:
    if "." in e.where:
        empire, office = e.where.split(".", 1)
        state = _changed(state, council={**state.council, (empire, office): e.society})
    else:
        state = _changed(state, field_agents=state.field_agents | {(e.society, e.where)})
    return _changed(state, step=state.step + 1)


def _a_recruited(state: GameState, e: ev.BannersRecruited) -> GameState:
    banners = state.banners
    for region, n in e.placed.items():
        banners = _place(banners, region, e.empire, n)
    state = _changed(state, banners=banners, reserve=_add_reserve(state.reserve, e.empire, -e.amount))
    return _after_order(state, e.society, given=(e.empire, e.office, e.order))


def _a_drawn(state: GameState, e: ev.CardsDrawn) -> GameState:
    hand = state.hands[e.society]
    counts = dict(hand.counts)
    if e.drawn:
        counts[e.empire] = counts.get(e.empire, 0) + e.drawn
    deck = state.decks[e.empire]
    deck = Deck(deck.draw + e.reshuffled - e.drawn, deck.discard - e.reshuffled)
    state = _changed(state, hands={**state.hands, e.society: Hand(counts, hand.known + e.cards)},
                     decks={**state.decks, e.empire: deck}, drawn=(e.empire, tuple(e.cards), e.drawn))
    return _after_order(state, e.society, draw=True, given=(e.empire, e.office, e.order))


def _a_attacked(state: GameState, e: ev.Attacked) -> GameState:
    banners: Mapping[str, tuple[str, int]] = _place(state.banners, e.source, e.empire, -e.banners)
    reserve: Mapping[str, int] = _add_reserve(state.reserve, e.empire, e.attacker_losses - e.added)
    for region, n in e.reinforced:
        banners = _place(banners, region, e.empire, -n)
    banners, reserve = _combat(state, banners, reserve, e.empire, e.target, e.army, e.defending,
                               e.attacker_losses, e.defender_losses)
    for region, n in (e.returned or {}).items():
        banners = _place(banners, region, e.empire, n)
        reserve = _add_reserve(reserve, e.empire, -n)
    state = _changed(state, banners=banners, reserve=reserve, attack_cards=(), attack_route=None)
    return _changed(_after_order(state, e.society, given=(e.empire, e.office, e.order)), last_attack=e)


def _a_card_attacked(state: GameState, e: ev.CardAttacked) -> GameState:
    banners: Mapping[str, tuple[str, int]] = _place(state.banners, e.source, e.empire, -e.banners)
    reserve: Mapping[str, int] = _add_reserve(state.reserve, e.empire, e.attacker_losses)
    banners, reserve = _combat(state, banners, reserve, e.empire, e.target, e.banners, e.defending,
                               e.attacker_losses, e.defender_losses)
    return _changed(state, banners=banners, reserve=reserve)


def _combat(state: GameState, banners: Mapping[str, tuple[str, int]], reserve: Mapping[str, int], empire: str,
            target: str, army: int, defending: int, attacker_losses: int, defender_losses: int
            ) -> tuple[Mapping[str, tuple[str, int]], Mapping[str, int]]:
    """The defenders' losses and the attackers' survivors in the target (the attackers' losses are counted back
    into the reserve by the caller)."""
    if defending:
        defender = state.banners[target][0]
        reserve = _add_reserve(reserve, defender, defender_losses)
        banners = _place(banners, target, defender, -defender_losses)
    if army - attacker_losses:
        banners = _place(banners, target, empire, army - attacker_losses)
    return banners, reserve


def _a_swapped(state: GameState, e: ev.AgentSwapped) -> GameState:
    council = swap_agent_council(state, (e.empire, e.office), e.target, e.society, e.displaced)
    options = tuple((e.empire, o) for o in e.options)
    pending = Pending(e.society, options, state.ruleset.swap_agent_ends_council)
    return _changed(state, council=council, pending=pending, last_actor=e.society, last_was_draw=False,
                   last_attack=None)


def _spent(state: GameState, society: str, cards: tuple[str, ...]) -> GameState:
    decks = dict(state.decks)
    for card in cards:
        empire = card_empire(card)
        deck = decks[empire]
        if state.ruleset.spent == "deck":
            decks[empire] = Deck(deck.draw + 1, deck.discard)
        else:
            decks[empire] = Deck(deck.draw, deck.discard + 1)
    return _changed(state, hands={**state.hands, society: state.hands[society].without(cards)}, decks=decks)


def _effects(state: GameState, effects: ev.Effects) -> GameState:
    banners, reserve = apply_banner_effects(state, effects, "record")
    flat = {r: (e, n) for r, army in banners.items() for e, n in army.items() if n}
    council = apply_agent_moves(state, effects.agent, "record")
    return _changed(state, banners=flat, reserve=reserve, council=council)


def _a_played(state: GameState, e: ev.CardPlayed) -> GameState:
    until = (e.outcome or {}).get("until")
    if until is not None:  # the decree lies beside the board until then (REV 353, 355); what paid for it is spent
        state = _spent(state, e.society, tuple(e.pay))
        hand = state.hands[e.society].without((e.card,))
        state = _changed(state, hands={**state.hands, e.society: hand},
                         beside=(*state.beside, (e.card, e.effect or "", until)))
    else:
        state = _spent(state, e.society, (e.card, *e.pay))
    state = _effects(state, e.effects)
    adjudicated = effect(e.effect)
    if adjudicated is not None and adjudicated.computed(e.outcome):
        state = _changed(state, **adjudicated.apply(state, e))
        if adjudicated.lasting:
            state = _lasting(state, (*state.lasting, adjudicated.id))
    if e.act is not None:
        empire, office = e.act.split(".", 1)
        state = _changed(state, pending=Pending(e.society, ((empire, office),), False))
    return state


def _a_discarded(state: GameState, e: ev.CardsDiscarded) -> GameState:
    return _spent(state, e.society, e.cards)


def _a_after_passed(state: GameState, e: ev.AfterOrderPassed) -> GameState:
    return _changed(state, last_actor=None, last_was_draw=False)


def _a_loyalty_swapped(state: GameState, e: ev.LoyaltySwapped) -> GameState:
    loyalty = state.loyalty[e.society]
    a, b = e.slots
    tokens = loyalty.tokens
    if tokens is not None:
        tokens = {**tokens, a: tokens[b], b: tokens[a]}
    new = msgspec.structs.replace(loyalty, tokens=tokens, revealed={**loyalty.revealed, **e.revealed},
                                  swaps=loyalty.swaps + 1, swapped=(*loyalty.swapped, (a, b)))
    return _changed(state, loyalty={**state.loyalty, e.society: new}, step=state.step + 1)


def _a_passed(state: GameState, e: ev.SwapPassed) -> GameState:
    return _changed(state, step=state.step + 1)


def _a_revealed(state: GameState, e: ev.LoyaltyRevealed) -> GameState:
    loyalty = state.loyalty[e.society]
    revealed = msgspec.structs.replace(loyalty, tokens=dict(e.tokens))
    return _changed(state, loyalty={**state.loyalty, e.society: revealed})


def _a_ruling(state: GameState, e: ev.RulingApplied) -> GameState:
    return _effects(state, e.effects)


def _a_checked(state: GameState, e: ev.TableChecked) -> GameState:
    return state


def _a_forked(state: GameState, e: ev.GameForked) -> GameState:
    return state


def _a_finalized(state: GameState, e: ev.GameFinalized) -> GameState:
    return _changed(state, finalised=e.by)


def _a_reopened(state: GameState, e: ev.GameReopened) -> GameState:
    return _changed(state, finalised=None)


_APPLY: dict[type[ev.Event], Callable[..., GameState]] = {
    ev.GameFinalized: _a_finalized,
    ev.GameReopened: _a_reopened,
    ev.GameForked: _a_forked,
    ev.GameDescribed: lambda state, e: state,  # table facts (ledger/core/meta.py) are not the game's state
    ev.MoveAmended: lambda state, e: state,  # a marker: the take-backs before it and the moves after it change it
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
    ev.LoyaltyCommitted: _a_committed,
    ev.AgentRetrieved: _a_retrieved,
    ev.AgentDeployed: _a_deployed,
    ev.BannersRecruited: _a_recruited,
    ev.CardsDrawn: _a_drawn,
    ev.Attacked: _a_attacked,
    ev.CardAttacked: _a_card_attacked,
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
