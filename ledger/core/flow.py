"""The engine's own moves: what happens with no one to decide (phase changes, skipped turns and
offices, supply checks, the marker passing, the end of the game), recorded as events."""

from whispers.ledger.core import events as ev
from whispers.ledger.core.decree_effects import effect
from whispers.ledger.core.evolve import evolve
from whispers.ledger.core.kept import Kept
from whispers.ledger.core.legal import (
    deploy_targets,
    order_actor,
    order_offered,
    order_positions,
    turn_society,
    window_waits,
)
from whispers.ledger.core.names import OFFICES, ROUNDS
from whispers.ledger.core.scoring import score
from whispers.ledger.core.state import SUPPLY_DUE, TURN_DONE, GameState, position_name


def advance(state: GameState, close: bool = False) -> list[ev.Event]:
    """The events the engine records on its own until a person must act (or the game is over). It waits after an
    empire's last order while the society that took it may still play a card; `close` ends that wait (another
    move was made)."""
    return advanced(state, close)[0]


def advanced(state: GameState, close: bool = False) -> tuple[list[ev.Event], GameState]:
    """`advance`'s events, with the state they fold `state` into."""
    produced = []
    while (event := next_automatic(state, close)) is not None:
        produced.append(event)
        state = evolve(state, event)
    return produced, state


_CLOSED: Kept[GameState, tuple[list[ev.Event], GameState]] = Kept(1)
"""The last window closed (`closed`): the events that close it and the state they fold it into."""


def closed(state: GameState) -> tuple[list[ev.Event], GameState]:
    """`advanced(state, close=True)`, kept for the last state asked: in the window after an empire's last order, the
    prompt lists the moves past it (ledger/core/prompt.py), and the move that closes it is decided past the same events
    (rules.decided): they are worked out once. The events are a new list each time."""
    kept = _CLOSED.get(state)
    events, after = kept if kept is not None else _CLOSED.keep(state, advanced(state, close=True))
    return list(events), after


def next_automatic(state: GameState, close: bool = False) -> ev.Event | None:
    rs = state.ruleset
    if state.phase == "setup":
        if len(state.loyalty) == len(state.players):
            return ev.PhaseStarted(1, "deploy")
        return None
    if state.phase == "retrieve":
        if state.step >= len(state.players):
            return after_retrieval(state)
        society = turn_society(state)
        if not state.agents_out(society):
            return ev.Skipped(society, "retrieve", "no-agent-on-board")
        return None
    if state.phase == "deploy":
        if state.step >= len(state.players) * state.per_round():
            return ev.PhaseStarted(state.round, "empire")
        society = turn_society(state)
        if not deploy_targets(state, society):
            reason = "no-agent-left" if state.agents_in_hand(society) == 0 else "no-open-position"
            return ev.Skipped(society, "deploy", reason)
        return None
    if state.phase == "empire":
        if state.office_index == TURN_DONE:
            if state.supply_owed and any(until == "turn" and _suspends(lasts) for _card, lasts, until in state.beside):
                return deferred_supply_check(state)  # suspended for the empire's turn: checked before the next one
            if state.empire_index + 1 < len(state.board.empires):
                return ev.EmpireTurnStarted(state.board.empires[state.empire_index + 1])
            if state.supply_owed:
                return deferred_supply_check(state)
            return ev.RoundEnded(state.round)
        if state.office_index == SUPPLY_DUE:
            if window_waits(state) and not close:
                return None
            suspending = next((lasts for lasts in state.lasting if _suspends(lasts)), None)
            if suspending is not None:
                return ev.SupplySuspended(state.empire, suspending)
            return supply_check(state)
        actor = order_actor(state)
        office = OFFICES[state.office_index]
        if actor is None:
            return ev.OfficeSkipped(state.empire, office, None, "uncontrolled")
        if not order_offered(state):
            positions = order_positions(state)
            where = tuple(position_name(p) for p in positions)
            empire, office = positions[0] if state.pending else (state.empire, office)
            return ev.OfficeSkipped(empire, office, actor, "no-legal-order", where)
        return None
    if state.phase == "round_end" or state.phase in rs.round_end:
        if state.phase == "cleanup" and any(state.excess_cards(p) for p in state.players):
            return None
        if state.phase == "swap" and state.step < len(state.players):
            society = turn_society(state)
            # a swap turns two concealed tokens face up
            if state.loyalty[society].concealed < 2:
                return ev.Skipped(society, "swap", "too-few-concealed")
            return None
        if state.phase == "round_end" and state.round == ROUNDS:
            return end_of_game(state)
        return _step_after(state, -1 if state.phase == "round_end" else rs.round_end.index(state.phase))
    if state.phase == "reveal":
        if all(state.loyalty[p].tokens is not None for p in state.players):
            return score(state)
        return None
    return None


def _suspends(lasting: str) -> bool:
    """Whether a lasting effect suspends the supply checks (REV 355)."""
    found = effect(lasting)
    return found is not None and found.suspends_supply


def after_retrieval(state: GameState) -> ev.Event:
    if state.ruleset.retrieve == "round_start":
        return ev.PhaseStarted(state.round, "deploy")
    # retrieval is a round-end step (REV Phase 3): carry on with the next step
    return _step_after(state, state.ruleset.round_end.index("retrieve"))


def _step_after(state: GameState, index: int) -> ev.Event:
    """What follows round-end step `index` of the ruleset's steps (-1: the round's end itself): the next step,
    the first-player marker passing clockwise ("mark"), or the next round."""
    steps = state.ruleset.round_end
    if index + 1 < len(steps):
        step = steps[index + 1]
        if step == "mark":
            return ev.FirstPlayerPassed(state.first, state.seat_order()[1])
        return ev.PhaseStarted(state.round, step)
    return ev.PhaseStarted(state.round + 1, "retrieve" if state.ruleset.retrieve == "round_start" else "deploy")


def end_of_game(state: GameState) -> ev.Event:
    """EN "Mark the Turn": after the fourth round the game ends at once (no Cleanup, no Swap)."""
    if any(state.loyalty[p].tokens is None for p in state.players):
        return ev.PhaseStarted(state.round, "reveal")
    return score(state)


def deferred_supply_check(state: GameState) -> ev.DeferredSupplyChecked:
    """REV 355: the check Hoard suspended, made before the next turn begins (the ruleset's `lasting`: the next year,
    or the next empire's turn); for the empires whose
    checks were suspended, or every region when the ruleset checks the whole board."""
    owed = tuple(dict.fromkeys(state.supply_owed))
    return ev.DeferredSupplyChecked(owed, state.ruleset.supply_scope, _excess(state, owed))


def supply_check(state: GameState) -> ev.SupplyChecked:
    """EN "Checking Supply": the ruleset's limit a region, a higher one with a farm; scope per ruleset (FR: the active
    empire)."""
    return ev.SupplyChecked(state.empire, state.ruleset.supply_scope, _excess(state, (state.empire,)))


def _excess(state: GameState, active: tuple[str, ...]) -> dict[str, tuple[str, int]]:
    """region -> (empire, banners over its limit), for the `active` empires' regions when the ruleset checks only
    the active empire, else every region."""
    losses = {}
    for region, (empire, count) in state.banners.items():
        if state.ruleset.supply_scope == "active" and empire not in active:
            continue
        excess = count - state.supply_limit(region)
        if excess > 0:
            losses[region] = (empire, excess)
    return losses
