"""The engine's own moves: what happens with no one to decide (phase changes, skipped turns and
offices, supply checks, the marker passing, the end of the game), recorded as events."""

from whispers.ledger import events as ev
from whispers.ledger.evolve import evolve
from whispers.ledger.legal import (
    deploy_targets,
    order_actor,
    order_options,
    order_positions,
    turn_society,
    window_waits,
)
from whispers.ledger.names import OFFICES, ROUNDS
from whispers.ledger.scoring import score
from whispers.ledger.state import SUPPLY_DUE, TURN_DONE, GameState, position_name


def advance(state: GameState, close: bool = False) -> list[ev.Event]:
    """The events the engine records on its own until a person must act (or the game is over). It waits after an
    empire's last order while the society that took it may still play a card; `close` ends that wait (another
    move was made)."""
    produced = []
    while (event := next_automatic(state, close)) is not None:
        produced.append(event)
        state = evolve(state, event)
    return produced


def next_automatic(s: GameState, close: bool = False) -> ev.Event | None:
    rs = s.ruleset
    if s.phase == "setup":
        if len(s.loyalty) == len(s.players):
            return ev.PhaseStarted(1, "deploy")
        return None
    if s.phase == "retrieve":
        if s.step >= len(s.players):
            return after_retrieval(s)
        society = turn_society(s)
        if not s.agents_out(society):
            return ev.Skipped(society, "retrieve", "no-agent-on-board")
        return None
    if s.phase == "deploy":
        if s.step >= len(s.players) * s.per_round():
            return ev.PhaseStarted(s.round, "empire")
        society = turn_society(s)
        if not deploy_targets(s, society):
            reason = "no-agent-left" if s.agents_in_hand(society) == 0 else "no-open-position"
            return ev.Skipped(society, "deploy", reason)
        return None
    if s.phase == "empire":
        if s.office_index == TURN_DONE:
            if s.empire_index + 1 < len(s.board.empires):
                return ev.EmpireTurnStarted(s.board.empires[s.empire_index + 1])
            return ev.RoundEnded(s.round)
        if s.office_index == SUPPLY_DUE:
            return None if window_waits(s) and not close else supply_check(s)
        actor = order_actor(s)
        office = OFFICES[s.office_index]
        if actor is None:
            return ev.OfficeSkipped(s.empire, office, None, "uncontrolled")
        if not order_options(s, actor):
            positions = order_positions(s)
            where = tuple(position_name(p) for p in positions)
            empire, office = positions[0] if s.pending else (s.empire, office)
            return ev.OfficeSkipped(empire, office, actor, "no-legal-order", where)
        return None
    if s.phase == "round_end" or s.phase in rs.round_end:
        if s.phase == "cleanup" and any(s.excess_cards(p) for p in s.players):
            return None
        if s.phase == "swap" and s.step < len(s.players):
            society = turn_society(s)
            # a swap turns two concealed tokens face up
            if s.loyalty[society].concealed < 2:
                return ev.Skipped(society, "swap", "too-few-concealed")
            return None
        if s.phase == "round_end" and s.round == ROUNDS:
            return end_of_game(s)
        return _step_after(s, -1 if s.phase == "round_end" else rs.round_end.index(s.phase))
    if s.phase == "reveal":
        if all(s.loyalty[p].tokens is not None for p in s.players):
            return score(s)
        return None
    return None


def after_retrieval(s: GameState) -> ev.Event:
    if s.ruleset.retrieve == "round_start":
        return ev.PhaseStarted(s.round, "deploy")
    # retrieval is a round-end step (REV Phase 3): carry on with the next step
    return _step_after(s, s.ruleset.round_end.index("retrieve"))


def _step_after(s: GameState, index: int) -> ev.Event:
    """What follows round-end step `index` of the ruleset's steps (-1: the round's end itself): the next step,
    the first-player marker passing clockwise ("mark"), or the next round."""
    steps = s.ruleset.round_end
    if index + 1 < len(steps):
        step = steps[index + 1]
        if step == "mark":
            return ev.FirstPlayerPassed(s.first, s.seat_order()[1])
        return ev.PhaseStarted(s.round, step)
    return ev.PhaseStarted(s.round + 1, "retrieve" if s.ruleset.retrieve == "round_start" else "deploy")


def end_of_game(s: GameState) -> ev.Event:
    """EN "Mark the Turn": after the fourth round the game ends at once (no Cleanup, no Swap)."""
    if any(s.loyalty[p].tokens is None for p in s.players):
        return ev.PhaseStarted(s.round, "reveal")
    return score(s)


def supply_check(s: GameState) -> ev.SupplyChecked:
    """EN "Checking Supply": the ruleset's limit a region, a higher one with a farm; scope per ruleset (FR: the active
    empire)."""
    losses = {}
    for region, (empire, count) in s.banners.items():
        if s.ruleset.supply_scope == "active" and empire != s.empire:
            continue
        excess = count - s.supply_limit(region)
        if excess > 0:
            losses[region] = (empire, excess)
    return ev.SupplyChecked(s.empire, s.ruleset.supply_scope, losses)
