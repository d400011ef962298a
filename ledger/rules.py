"""The rules engine: a pure functional core.

- `start` checks a new game's setup and gives its first event.
- `decide(state, command)` gives the events a legal move makes, with every consequence the engine records
  on its own (skipped offices, supply checks, phase changes, scoring), or raises `RuleError` naming the
  rule that forbids it. It never changes `state`.
- `evolve(state, event)` applies one event; `fold(events)` replays a record. Neither re-runs a rule.
- `prompt(state)` says who must act now and which moves are legal, with their parameter domains.

Rule citations name the rulebook and section: EN (official, English), FR, IT, ES, REV (revised edition).
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ledger import commands as c
from ledger import events as ev
from ledger.board import Board
from ledger.errors import RuleError
from ledger.names import (
    BANNERS_PER_EMPIRE,
    CARDS_PER_DECK,
    DRAW_ORDERS,
    MULTIPLIER,
    OFFICES,
    RECRUIT_ORDERS,
    SLOTS,
    SOCIETIES,
)
from ledger.ruleset import Ruleset
from ledger.state import Deck, GameState, Hand, Loyalty, Pending, Position, card_empire, position_name

SOCIETY_RULE = "EN Setup: Player Boards and Tokens"

# --- prompt: who acts now and what is legal ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Option:
    """One kind of legal move for one society, with the domains of its parameters."""

    verb: str
    society: str
    choices: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Prompt:
    round: int
    phase: str
    empire: str | None
    office: str | None
    actors: tuple[str, ...]
    options: tuple[Option, ...]
    note: str


def prompt(state: GameState) -> Prompt:
    """Who must act now, and the legal moves (a card play is listed where a card window is open)."""
    options: list[Option] = []
    empire = office = None
    if state.phase == "setup":
        for society in state.players:
            if society not in state.loyalty:
                options.append(Option("loyalty", society, {"slots": SLOTS, "empires": state.board.empires}))
        note = "each society records its loyalty tokens, or seals them"
    elif state.phase == "retrieve":
        society = _turn_society(state)
        options.append(Option("retrieve", society, {"where": state.agents_out(society)}))
        note = f"{society} takes back one agent"
    elif state.phase == "deploy":
        society = _turn_society(state)
        options.append(Option("deploy", society, {"where": _deploy_targets(state, society)}))
        note = f"{society} deploys an agent ({state.step // len(state.players) + 1} of {state.per_round()})"
    elif state.phase == "empire":
        empire, office = state.empire, state.office
        actor = _order_actor(state)
        if actor is not None:
            options.extend(_order_options(state, actor))
        for society in _card_window(state):
            if state.hands[society].size:
                options.append(Option("play", society, {"hand": dict(state.hands[society].counts)}))
        if state.pending:
            where = ", ".join(position_name(p) for p in state.pending.positions)
            note = f"{state.pending.society} takes one order at {where}"
        else:
            note = f"{actor} controls the {empire} {office}"
    elif state.phase == "cleanup":
        limit = state.ruleset.hand_limit
        for society in state.seat_order():
            excess = state.hands[society].size - limit
            if excess > 0:
                options.append(Option("discard", society, {"count": excess, "hand": dict(state.hands[society].counts)}))
        note = f"societies over {limit} cards discard down to {limit}"
    elif state.phase == "swap":
        society = _turn_society(state)
        unrevealed = tuple(slot for slot in SLOTS if slot not in state.loyalty[society].revealed)
        options.append(Option("swap-loyalty", society, {"slots": unrevealed}))
        options.append(Option("pass", society, {}))
        note = f"{society} may swap two concealed loyalty tokens, revealing both, or pass"
    elif state.phase == "reveal":
        for society in state.players:
            if state.loyalty[society].tokens is None:
                options.append(Option("reveal", society, {"slots": SLOTS, "empires": state.board.empires}))
        note = "sealed loyalty sets are revealed for final scoring"
    else:
        note = "the game is over"
    actors = tuple(dict.fromkeys(o.society for o in options if o.verb != "play"))
    return Prompt(state.round, state.phase, empire, office, actors, tuple(options), note)


def _turn_society(state: GameState) -> str:
    order = state.seat_order()
    return order[state.step % len(order)]


def _order_actor(state: GameState) -> str | None:
    if state.pending:
        return state.pending.society
    if state.office_index >= len(OFFICES):
        return None
    return state.office_controller(state.empire, state.office_index)


def _order_positions(state: GameState) -> tuple[Position, ...]:
    if state.pending:
        return state.pending.positions
    return ((state.empire, OFFICES[state.office_index]),)


def _order_options(state: GameState, society: str) -> list[Option]:
    options = []
    for position in _order_positions(state):
        empire = position[0]
        for order in state.board.orders(*position):
            if state.pending and order == "swap_agent":
                continue
            if _order_refusal(state, empire, order, position) is not None:
                continue
            at = position_name(position)
            if order in RECRUIT_ORDERS:
                options.append(Option("recruit", society, {
                    "at": at, "order": order, "amount": _recruit_amount(state, empire, order),
                    "regions": state.controlled(empire)}))
            elif order in DRAW_ORDERS:
                _, drawn, _ = _draw_count(state, empire, order)
                options.append(Option("draw", society, {"at": at, "order": order, "count": drawn}))
            elif order == "attack":
                options.append(Option("attack", society, {"at": at, "attacks": _attacks(state, empire)}))
            else:
                options.append(Option("swap-agent", society, {"at": at, "targets": _swap_targets(state, position)}))
    return options


def _deploy_targets(state: GameState, society: str) -> tuple[str, ...]:
    if state.agents_in_hand(society) == 0:
        return ()
    open_positions = tuple(
        position_name((e, o)) for e in state.board.empires for o in OFFICES if (e, o) not in state.council
    )
    regions: tuple[str, ...] = ()
    own = [r for s, r in state.field_agents if s == society]
    if state.ruleset.field_agents and len(own) < state.ruleset.max_field_agents:
        regions = tuple(r for r in state.board.regions if r not in own)
    return open_positions + regions


def _card_window(state: GameState) -> tuple[str, ...]:
    """Who may play a card now (EN "Playing Cards"; REV "Decrees": G/M before or during, I when drawn)."""
    if state.phase != "empire":
        return ()
    window = []
    actor = _order_actor(state)
    if actor is not None:
        window.append(actor)
    last = state.last_actor
    if last and (state.ruleset.play_after_order or (state.ruleset.instant_when_drawn and state.last_was_draw)):
        window.append(last)
    return tuple(dict.fromkeys(window))


# --- counting ---------------------------------------------------------------------------------------

_ICON = {"farm": "farm", "farms": "farm", "fort": "fort", "forts": "fort"}


def _recruit_count(state: GameState, empire: str, order: str) -> int:
    """EN "Add Banner Actions": icons counted over all regions the empire controls."""
    if order == "recruit_2":
        return 2
    if order == "recruit_per_farm":
        return state.icons(empire, "farm")
    if order == "recruit_per_fort":
        return state.icons(empire, "fort")
    return 2 * state.icons(empire, "fort")  # recruit_2_per_fort


def _recruit_amount(state: GameState, empire: str, order: str) -> int:
    """Partial when the reserve runs short (EN "Add Banner Actions")."""
    return min(_recruit_count(state, empire, order), state.reserve[empire])


def _draw_count(state: GameState, empire: str, order: str) -> tuple[int, int, int]:
    """(cards the order gives, cards actually drawn, discards reshuffled in first). Rounded down (EN)."""
    if order == "draw_1":
        counted = 1
    else:
        _, per, icon = order.split("_")[1:]
        counted = state.icons(empire, _ICON[icon]) // int(per)
    deck = state.decks[empire]
    reshuffled = 0
    if deck.draw < counted and state.ruleset.reshuffle_when_empty:
        reshuffled = deck.discard
    return counted, min(counted, deck.draw + reshuffled), reshuffled


def _attack_sources(state: GameState, empire: str) -> dict[str, int]:
    """Regions the empire can attack from, with the most banners that may leave (EN "Attack Action":
    a conquered region keeps at least one banner)."""
    sources = {}
    for region, (holder, count) in state.banners.items():
        if holder != empire:
            continue
        movable = count if state.board.regions[region].home == empire else count - 1
        if movable >= 1:
            sources[region] = movable
    return sources


def _attacks(state: GameState, empire: str) -> tuple[tuple[str, str, int], ...]:
    found = []
    for source, movable in _attack_sources(state, empire).items():
        for target in state.board.regions[source].adjacent:
            if state.controller(target) != empire:
                found.append((source, target, movable))
    return tuple(found)


def _swap_targets(state: GameState, position: Position) -> tuple[str, ...]:
    empire, office = position
    agent = state.active_agent(empire, OFFICES.index(office))
    others = [o for o in OFFICES if agent is None or o != agent[1]]
    if state.ruleset.swap_agent_target == "occupied":
        others = [o for o in others if (empire, o) in state.council]
    return tuple(others)


def _order_refusal(state: GameState, empire: str, order: str, position: Position) -> str | None:
    """Why an order cannot be chosen now, or None when it can (EN "Council Positions"; REV FAQ)."""
    if order in RECRUIT_ORDERS:
        if state.reserve[empire] == 0:
            return f"{empire} has no banners left in its reserve"
        if not state.controlled(empire) and _recruit_count(state, empire, order) > 0:
            return f"{empire} controls no region to add banners to"
        return None
    if order in DRAW_ORDERS:
        return None
    if order == "attack":
        return None if _attacks(state, empire) else f"{empire} has no region adjacent to an enemy region to attack from"
    if order == "swap_agent":
        if state.active_agent(*_office_index(position)) is None:
            return "there is no agent to swap"
        if not _swap_targets(state, position):
            return f"there is no other agent in the {empire} council to swap with"
        return None
    return f"unknown order {order!r}"


def _office_index(position: Position) -> tuple[str, int]:
    return position[0], OFFICES.index(position[1])


# --- start ------------------------------------------------------------------------------------------


def start(name: str, players: Iterable[str], first: str | None, ruleset: Ruleset, board: Board) -> ev.GameStarted:
    """The first event of a game, once its setup is legal (EN "Setup"; 2 to 4 players)."""
    players = tuple(players)
    for society in players:
        if society not in SOCIETIES:
            raise RuleError(f"unknown society {society!r}: the societies are {', '.join(SOCIETIES)}", SOCIETY_RULE)
    if len(set(players)) != len(players):
        raise RuleError("a society is listed twice", SOCIETY_RULE)
    if not 2 <= len(players) <= 4:
        raise RuleError(f"A War of Whispers is for 2 to 4 players, not {len(players)}", "EN Overview")
    first = first or players[0]
    if first not in players:
        raise RuleError(f"the first player {first!r} is not playing", "EN Setup: First Player")
    if len(board.empires) != len(SLOTS):
        raise RuleError(
            f"board {board.id!r} has {len(board.empires)} empires; loyalty needs exactly 5 (one token per empire)",
            "EN Loyalty Tokens and Scoring",
        )
    return ev.GameStarted(name, players, first, ruleset.to_data(), board.to_data(), board.content_hash)


# --- decide -----------------------------------------------------------------------------------------


def decide(state: GameState, command: c.Command) -> list[ev.Event]:
    """The events of a legal move and its automatic consequences; RuleError if the move is illegal."""
    if isinstance(command, c.Undo):
        return [_decide_undo(state, command)]
    if state.over:
        raise RuleError("the game is over: only a take-back can change its record", "EN Final Scoring")
    decider = _DECIDERS.get(type(command))
    if decider is None:
        raise RuleError(f"unknown command {type(command).__name__}", "whispers")
    events = list(decider(state, command))
    after = state
    for event in events:
        after = evolve(after, event)
    events.extend(advance(after))
    return events


def advance(state: GameState) -> list[ev.Event]:
    """The events the engine records on its own until a person must act (or the game is over)."""
    produced = []
    while (event := _next_automatic(state)) is not None:
        produced.append(event)
        state = evolve(state, event)
    return produced


def _next_automatic(s: GameState) -> ev.Event | None:
    rs = s.ruleset
    if s.phase == "setup":
        if len(s.loyalty) == len(s.players):
            return ev.PhaseStarted(1, "deploy")
        return None
    if s.phase == "retrieve":
        if s.step >= len(s.players):
            return _after_retrieval(s)
        society = _turn_society(s)
        if not s.agents_out(society):
            return ev.Skipped(society, "retrieve", "no agent on the board")
        return None
    if s.phase == "deploy":
        if s.step >= len(s.players) * s.per_round():
            return ev.PhaseStarted(s.round, "empire")
        society = _turn_society(s)
        if not _deploy_targets(s, society):
            reason = "no agent left" if s.agents_in_hand(society) == 0 else "no open position"
            return ev.Skipped(society, "deploy", reason)
        return None
    if s.phase == "empire":
        if s.office_index == 5:
            if s.empire_index + 1 < len(s.board.empires):
                return ev.EmpireTurnStarted(s.board.empires[s.empire_index + 1])
            return ev.RoundEnded(s.round)
        if s.office_index == 4:
            return _supply_check(s)
        actor = _order_actor(s)
        office = OFFICES[s.office_index]
        if actor is None:
            return ev.OfficeSkipped(s.empire, office, None, "no agent controls it")
        if not _order_options(s, actor):
            where = ", ".join(position_name(p) for p in _order_positions(s))
            return ev.OfficeSkipped(s.empire, office, actor, f"no legal order at {where}")
        return None
    if s.phase == "round_end" or s.phase in rs.round_end:
        if s.phase == "cleanup" and any(s.hands[p].size > rs.hand_limit for p in s.players):
            return None
        if s.phase == "swap" and s.step < len(s.players):
            society = _turn_society(s)
            if len(s.loyalty[society].revealed) > 3:
                return ev.Skipped(society, "swap", "fewer than two concealed tokens")
            return None
        if s.phase == "round_end" and s.round == 4:
            return _end_of_game(s)
        steps = rs.round_end
        index = -1 if s.phase == "round_end" else steps.index(s.phase)
        if index + 1 < len(steps):
            step = steps[index + 1]
            if step == "mark":
                order = s.players
                return ev.FirstPlayerPassed(s.first, order[(order.index(s.first) + 1) % len(order)])
            return ev.PhaseStarted(s.round, step)
        next_round = s.round + 1
        return ev.PhaseStarted(next_round, "retrieve" if rs.retrieve == "round_start" else "deploy")
    if s.phase == "reveal":
        if all(s.loyalty[p].tokens is not None for p in s.players):
            return score(s)
        return None
    return None


def _after_retrieval(s: GameState) -> ev.Event:
    if s.ruleset.retrieve == "round_start":
        return ev.PhaseStarted(s.round, "deploy")
    # retrieval is a round-end step (REV Phase 3): carry on with the next step
    steps = s.ruleset.round_end
    step = steps[steps.index("retrieve") + 1] if steps.index("retrieve") + 1 < len(steps) else None
    if step == "mark":
        order = s.players
        return ev.FirstPlayerPassed(s.first, order[(order.index(s.first) + 1) % len(order)])
    if step is None:
        return ev.PhaseStarted(s.round + 1, "deploy")
    return ev.PhaseStarted(s.round, step)


def _end_of_game(s: GameState) -> ev.Event:
    """EN "Mark the Turn": after the fourth round the game ends at once (no Cleanup, no Swap)."""
    if any(s.loyalty[p].tokens is None for p in s.players):
        return ev.PhaseStarted(s.round, "reveal")
    return score(s)


def _supply_check(s: GameState) -> ev.SupplyChecked:
    """EN "Checking Supply": 4 banners a region, 6 with a farm; scope per ruleset (FR: the active empire)."""
    losses = {}
    for region, (empire, count) in s.banners.items():
        if s.ruleset.supply_scope == "active" and empire != s.empire:
            continue
        excess = count - s.supply_limit(region)
        if excess > 0:
            losses[region] = (empire, excess)
    return ev.SupplyChecked(s.empire, s.ruleset.supply_scope, losses)


def score(s: GameState) -> ev.GameScored:
    """Final scoring (EN "Final Scoring"; EN "Advanced Rules"; FR advanced +1 per concealed token; REV "Scoring")."""
    scores: dict[str, dict[str, Any]] = {}
    cities = {e: s.cities(e) for e in s.board.empires}
    for society in s.players:
        loyalty = s.loyalty[society]
        assert loyalty.tokens is not None
        slot_of = {empire: slot for slot, empire in loyalty.tokens.items()}
        empires = {}
        total = loyalty.concealed * s.ruleset.concealed_bonus
        for empire in s.board.empires:
            agents = sum(1 for owner, region in s.field_agents if owner == society and s.controller(region) == empire)
            slot = slot_of[empire]
            points = MULTIPLIER[slot] * (cities[empire] + agents)
            empires[empire] = {"slot": slot, "multiplier": MULTIPLIER[slot], "cities": cities[empire],
                               "field_agents": agents, "points": points}
            total += points
        scores[society] = {
            "total": total, "empires": empires, "concealed": loyalty.concealed,
            "concealed_points": loyalty.concealed * s.ruleset.concealed_bonus,
            "swaps": loyalty.swaps, "cards": s.hands[society].size,
        }
    keys = {
        "fewest_swaps": ("fewest loyalty swaps", lambda p: -scores[p]["swaps"]),
        "most_concealed": ("most concealed loyalties", lambda p: scores[p]["concealed"]),
        "most_cards": ("most cards in hand", lambda p: scores[p]["cards"]),
    }
    breaks = [keys[rule] for rule in s.ruleset.tie_breaks]
    ranking = tuple(sorted(s.players, key=lambda p: (-scores[p]["total"], *(-key(p) for _, key in breaks))))
    best = scores[ranking[0]]["total"]
    tied = [p for p in ranking if scores[p]["total"] == best]
    trail = [f"highest score {best}: {', '.join(tied)}"]
    for label, key in breaks:
        if len(tied) == 1:
            break
        top = max(key(p) for p in tied)
        tied = [p for p in tied if key(p) == top]
        trail.append(f"tie-break, {label}: {', '.join(tied)}")
    if len(tied) == 1:
        winner: str | None = tied[0]
        trail.append(f"{winner} wins")
    else:
        winner = None
        outcome = "a shared win" if s.ruleset.final_tie == "shared" else "no winner"
        trail.append(f"still tied after every tie-break: {outcome}")
    return ev.GameScored(scores, ranking, winner, tuple(tied) if winner is None else (), tuple(trail))


def _decide_undo(state: GameState, command: c.Undo) -> ev.MoveTakenBack:
    if not command.reason.strip():
        raise RuleError("a take-back needs a reason", "whispers: history is never erased")
    if not state.moves:
        raise RuleError("there is no move to take back", "whispers: take-back")
    return ev.MoveTakenBack(command.reason.strip(), state.moves[-1])


def _require(condition: bool, message: str, rule: str) -> None:
    if not condition:
        raise RuleError(message, rule)


def _check_society(state: GameState, society: str) -> None:
    _require(society in SOCIETIES, f"unknown society {society!r}", SOCIETY_RULE)
    _require(society in state.players, f"{society} is not playing in this game", SOCIETY_RULE)


def _check_phase(state: GameState, phase: str, verb: str) -> None:
    _require(state.phase == phase, f"{verb} is not a move of the {state.phase} phase", "EN Gameplay Overview")


def _check_turn(state: GameState, society: str, rule: str) -> None:
    expected = _turn_society(state)
    _require(society == expected, f"it is {expected}'s turn, not {society}'s", rule)


def _check_tokens(state: GameState, tokens: Mapping[str, str], rule: str) -> None:
    _require(set(tokens) == set(SLOTS), f"name an empire for each slot: {', '.join(SLOTS)}", rule)
    for slot, empire in tokens.items():
        _require(empire in state.board.empires, f"unknown empire {empire!r} on {slot}", rule)
    _require(len(set(tokens.values())) == len(SLOTS), "each empire's token sits on exactly one slot", rule)


def _decide_loyalty(state: GameState, cmd: c.RecordLoyalty) -> list[ev.Event]:
    rule = "EN Setup: Loyalty"
    _check_society(state, cmd.society)
    _check_phase(state, "setup", "recording loyalty")
    _require(cmd.society not in state.loyalty, f"{cmd.society}'s loyalty is recorded already", rule)
    if cmd.tokens is not None:
        _check_tokens(state, cmd.tokens, rule)
        _check_distinct_devout(state, cmd.society, cmd.tokens)
    return [ev.LoyaltyRecorded(cmd.society, dict(cmd.tokens) if cmd.tokens is not None else None)]


def _check_distinct_devout(state: GameState, society: str, tokens: Mapping[str, str]) -> None:
    if not state.ruleset.distinct_devout:
        return
    for other, loyalty in state.loyalty.items():
        if other != society and loyalty.tokens is not None:
            _require(loyalty.tokens["devout"] != tokens["devout"],
                     f"{other} is devout to {tokens['devout']} already: devout empires are dealt from one set",
                     "REV Setup")


def _where(state: GameState, where: str) -> tuple[Position | None, str | None]:
    """Parse an agent's place: (council position, None) or (None, region)."""
    if "." in where:
        empire, office = where.split(".", 1)
        _require(empire in state.board.empires, f"unknown empire {empire!r}", "EN Setup: The Five Empires")
        _require(office in OFFICES, f"unknown office {office!r}: the offices are {', '.join(OFFICES)}",
                 "EN Deploy Agents Phase")
        return (empire, office), None
    _require(where in state.board.regions, f"unknown region {where!r} on board {state.board.id!r}", "EN The Map")
    return None, where


def _decide_retrieve(state: GameState, cmd: c.Retrieve) -> list[ev.Event]:
    rule = ("EN Deploy Agents Phase, Step 1" if state.ruleset.retrieve == "round_start"
            else "REV Phase 3: Year end")
    _check_society(state, cmd.society)
    _check_phase(state, "retrieve", "retrieve")
    _check_turn(state, cmd.society, rule)
    position, region = _where(state, cmd.where)
    if position is not None:
        _require(state.council.get(position) == cmd.society, f"{cmd.society} has no agent on {cmd.where}", rule)
    else:
        _require((cmd.society, region) in state.field_agents, f"{cmd.society} has no agent in {cmd.where}", rule)
    return [ev.AgentRetrieved(cmd.society, cmd.where)]


def _decide_deploy(state: GameState, cmd: c.Deploy) -> list[ev.Event]:
    rule = "EN Deploy Agents Phase, Step 2"
    _check_society(state, cmd.society)
    _check_phase(state, "deploy", "deploy")
    _check_turn(state, cmd.society, rule)
    _require(state.agents_in_hand(cmd.society) > 0, f"{cmd.society} has no agent left", "EN Components: 9 agents")
    position, region = _where(state, cmd.where)
    if position is not None:
        holder = state.council.get(position)
        _require(holder is None, f"{cmd.where} is taken by {holder}: deploy to an open council position", rule)
    else:
        field_rule = "EN Advanced Rules: Assigning Agents to Regions"
        _require(state.ruleset.field_agents, f"the {state.ruleset.id} rules have no field agents: "
                 "deploy to a council position (EMPIRE.OFFICE)", field_rule)
        own = [r for s, r in state.field_agents if s == cmd.society]
        _require(len(own) < state.ruleset.max_field_agents,
                 f"{cmd.society} has {len(own)} agents on the map already (at most "
                 f"{state.ruleset.max_field_agents})", field_rule)
        _require(region not in own, f"{cmd.society} has an agent in {region} already", field_rule)
    return [ev.AgentDeployed(cmd.society, cmd.where)]


def _check_order_turn(state: GameState, society: str) -> None:
    rule = "EN Empire Turns Phase"
    _check_society(state, society)
    _require(state.phase == "empire", f"orders are given in the empire turns phase, not the {state.phase} phase",
             rule)
    actor = _order_actor(state)
    if state.pending:
        where = ", ".join(position_name(p) for p in state.pending.positions)
        _require(society == actor, f"{actor} owes an order at {where}, not {society}", rule)
    else:
        _require(society == actor, f"{actor} controls the {state.empire} {state.office}, not {society}", rule)


def _pick_order(state: GameState, society: str, verb: str, kinds: tuple[str, ...], order: str | None,
                at: str | None) -> tuple[Position, str]:
    """The position and order a command means, among those owed now; RuleError naming why it cannot be."""
    _check_order_turn(state, society)
    rule = "EN Council Positions"
    candidates = []
    refusals = []
    for position in _order_positions(state):
        if at is not None and position_name(position) != at and position[1] != at:
            continue
        for name in state.board.orders(*position):
            if name not in kinds or (order is not None and name != order):
                continue
            if state.pending and name == "swap_agent":
                refusals.append("a swapped-in agent takes an order, not another swap")
                continue
            refusal = _order_refusal(state, position[0], name, position)
            if refusal is None:
                candidates.append((position, name))
            else:
                refusals.append(f"{name} at {position_name(position)} cannot be chosen: {refusal}")
    if not candidates:
        if refusals:
            raise RuleError(refusals[0], rule if "reserve" not in refusals[0] else "EN Add Banner Actions")
        offered = "; ".join(f"{position_name(p)}: {', '.join(state.board.orders(*p))}" for p in _order_positions(state))
        raise RuleError(f"{verb} is not an order offered here ({offered})", rule)
    if len(candidates) > 1:
        names = ", ".join(f"{position_name(p)} {o}" for p, o in candidates)
        raise RuleError(f"more than one {verb} order is owed ({names}): say which with order= or at=", rule)
    return candidates[0]


def _decide_recruit(state: GameState, cmd: c.Recruit) -> list[ev.Event]:
    rule = "EN Add Banner Actions"
    position, order = _pick_order(state, cmd.society, "recruit", RECRUIT_ORDERS, cmd.order, cmd.at)
    empire = position[0]
    counted = _recruit_count(state, empire, order)
    amount = min(counted, state.reserve[empire])
    controlled = set(state.controlled(empire))
    for region, n in cmd.placed.items():
        _require(region in state.board.regions, f"unknown region {region!r}", "EN The Map")
        _require(region in controlled, f"{region} is not controlled by {empire}", rule)
        _require(isinstance(n, int) and n >= 1, f"banners placed in {region} must be a whole number of at least 1",
                 rule)
    placed = sum(cmd.placed.values())
    short = f" (the reserve has only {state.reserve[empire]})" if amount < counted else ""
    _require(placed == amount, f"{order} adds {amount} {empire} banners{short}, not {placed}", rule)
    return [ev.BannersRecruited(cmd.society, empire, position[1], order, counted, amount, dict(cmd.placed))]


def _decide_draw(state: GameState, cmd: c.Draw) -> list[ev.Event]:
    rule = "EN Draw Empire Card Actions"
    position, order = _pick_order(state, cmd.society, "draw", DRAW_ORDERS, cmd.order, cmd.at)
    empire = position[0]
    counted, drawn, reshuffled = _draw_count(state, empire, order)
    _require(len(cmd.cards) <= drawn, f"{order} draws {drawn} {empire} cards, but {len(cmd.cards)} were named", rule)
    known = {card for hand in state.hands.values() for card in hand.known}
    for card in cmd.cards:
        _check_card_id(state, card, rule)
        _require(card_empire(card) == empire, f"{card} is not from the {empire} deck", rule)
        _require(card not in known, f"{card} is in a hand already", rule)
    _require(len(set(cmd.cards)) == len(cmd.cards), "a card is named twice", rule)
    return [ev.CardsDrawn(cmd.society, empire, position[1], order, counted, drawn, tuple(cmd.cards), reshuffled)]


def _check_card_id(state: GameState, card: str, rule: str) -> None:
    empire, _, number = card.partition(":")
    _require(empire in state.board.empires, f"unknown empire {empire!r} in card {card!r}", rule)
    if number:
        _require(number.isdigit() and 1 <= int(number) <= CARDS_PER_DECK,
                 f"card {card!r}: an empire's cards are numbered 1 to {CARDS_PER_DECK}", rule)


def _decide_attack(state: GameState, cmd: c.Attack) -> list[ev.Event]:
    rule = "EN Attack Action"
    position, order = _pick_order(state, cmd.society, "attack", ("attack",), None, cmd.at)
    empire = position[0]
    for region in (cmd.source, cmd.target):
        _require(region in state.board.regions, f"unknown region {region!r}", "EN The Map")
    held_by = state.controller(cmd.target)
    _require(held_by != empire, f"{cmd.target} is controlled by {empire} itself: an attack must target a region "
             "controlled by another empire", rule)
    _require(state.controller(cmd.source) == empire and state.banners_in(cmd.source) > 0,
             f"{cmd.source} holds no {empire} banners to attack with", rule)
    _require(state.board.adjacent(cmd.source, cmd.target),
             f"{cmd.source} does not border {cmd.target} by land: no attacks across seas", rule)
    _require(cmd.banners >= 1, "an attack moves at least one banner", rule)
    available = state.banners_in(cmd.source)
    conquered = state.board.regions[cmd.source].home != empire
    movable = available - 1 if conquered else available
    if conquered:
        _require(cmd.banners <= movable, f"{cmd.source} is a conquered region: at most {movable} of its {available} "
                 "banners may leave (you can never completely abandon a conquered region)", rule)
    else:
        _require(cmd.banners <= available, f"{cmd.source} has only {available} {empire} banners", rule)
    defending = state.banners_in(cmd.target)
    fort_kill = 1 if state.board.regions[cmd.target].fort else 0
    attacking = cmd.banners - fort_kill
    losses = min(attacking, defending)
    survivors, holders = attacking - losses, defending - losses
    if survivors > 0:
        controller = empire
    elif holders > 0:
        controller = state.banners[cmd.target][0]
    else:
        controller = state.board.regions[cmd.target].home
    return [ev.Attacked(cmd.society, empire, position[1], order, cmd.source, cmd.target, cmd.banners, held_by,
                        defending, fort_kill, fort_kill + losses, losses, controller)]


def _decide_swap_agent(state: GameState, cmd: c.SwapAgent) -> list[ev.Event]:
    rule = ("EN Swap Agent Action" if state.ruleset.swap_agent_target == "any" else "REV Council orders: Chancellor")
    position, _ = _pick_order(state, cmd.society, "swap-agent", ("swap_agent",), None, None)
    empire = position[0]
    _require(cmd.target in OFFICES, f"unknown office {cmd.target!r}", rule)
    targets = _swap_targets(state, position)
    _require(cmd.target in targets, f"the agent cannot swap to the {empire} {cmd.target}"
             f" (it may swap to: {', '.join(targets) or 'nowhere'})", rule)
    agent = state.active_agent(*_office_index(position))
    assert agent is not None
    displaced = state.council.get((empire, cmd.target))
    moved = dict(state.council)
    moved[(empire, cmd.target)] = cmd.society
    if displaced is not None:
        moved[agent] = displaced
    else:
        del moved[agent]
    after = replace(state, council=moved)
    if state.ruleset.swap_agent_then == "target":
        options: tuple[str, ...] = (cmd.target,)
    else:
        options = tuple(o for i, o in enumerate(OFFICES)
                        if o != position[1] and after.office_controller(empire, i) == cmd.society)
    return [ev.AgentSwapped(cmd.society, empire, position[1], cmd.target, displaced, options)]


def _decide_play(state: GameState, cmd: c.PlayCard) -> list[ev.Event]:
    rule = ("EN Playing Cards" if state.ruleset.play_after_order else "REV Decrees")
    _check_society(state, cmd.society)
    _require(cmd.society in _card_window(state),
             f"{cmd.society} may not play a card now: cards are played around an order of a council position "
             "you control", rule)
    cards = (cmd.card, *cmd.pay)
    _spend(state, cmd.society, cards, rule)
    effects = _resolve_effects(state, cmd.effects, rule)
    act = None
    if cmd.act is not None:
        position, _ = _where(state, cmd.act)
        _require(position is not None, "act= names a council position EMPIRE.OFFICE", rule)
        assert position is not None
        _require(state.pending is None and _order_actor(state) == cmd.society,
                 "a card may lend another position only in place of the active position's order", rule)
        council = _apply_agent_moves(state, effects.agent, rule)
        after = replace(state, council=council)
        _require(after.office_controller(position[0], OFFICES.index(position[1])) == cmd.society,
                 f"{cmd.society} does not control {cmd.act}", rule)
        act = cmd.act
    _check_effects(state, effects, rule)
    return [ev.CardPlayed(cmd.society, cmd.card, cmd.ability, tuple(cmd.pay), effects, act)]


def _spend(state: GameState, society: str, cards: Iterable[str], rule: str) -> Hand:
    """The hand once these cards leave it; RuleError if the hand does not hold them."""
    hand = state.hands[society]
    counts = dict(hand.counts)
    known = list(hand.known)
    for card in cards:
        _check_card_id(state, card, rule)
        empire = card_empire(card)
        _require(counts.get(empire, 0) > 0, f"{society} holds no {empire} card", rule)
        if ":" in card:
            if card in known:
                known.remove(card)
            else:
                _require(Hand(counts, tuple(known)).unknown(empire) > 0, f"{society} does not hold {card}", rule)
        else:
            unknown = Hand(counts, tuple(known)).unknown(empire)
            if unknown == 0:
                named = ", ".join(k for k in known if card_empire(k) == empire)
                raise RuleError(f"the record knows {society}'s {empire} cards ({named}): name the one that leaves",
                                rule)
        counts[empire] -= 1
    return Hand({e: n for e, n in counts.items() if n}, tuple(known))


def _apply_agent_moves(state: GameState, moves: Iterable[tuple[str, str]], rule: str) -> dict[Position, str]:
    council = dict(state.council)
    for source, target in moves:
        src, _ = _where(state, source)
        dst, _ = _where(state, target)
        _require(src is not None and dst is not None, "agent= moves a council agent: EMPIRE.OFFICE:EMPIRE.OFFICE",
                 rule)
        assert src is not None and dst is not None
        _require(src in council, f"there is no agent on {source}", rule)
        _require(dst not in council, f"{target} is taken by {council.get(dst)}", rule)
        council[dst] = council.pop(src)
    return council


def _resolve_effects(state: GameState, effects: ev.Effects, rule: str) -> ev.Effects:
    """Fill in the empire of `kill=REGION:N` and `move=FROM:TO:N`: the one whose banners are there."""

    def holder(region: str) -> str:
        _require(region in state.board.regions, f"unknown region {region!r}", rule)
        held = state.banners.get(region)
        _require(held is not None, f"{region} holds no banners", rule)
        assert held is not None
        return held[0]

    kill = tuple((r, e or holder(r), n) for r, e, n in effects.kill)
    move = tuple((a, b, e or holder(a), n) for a, b, e, n in effects.move)
    return replace(effects, kill=kill, move=move)


def _check_effects(state: GameState, effects: ev.Effects, rule: str) -> None:
    """Effects must be possible and leave a board the rules allow: no region holding two empires' banners."""
    banners, _ = _apply_banner_effects(state, effects, rule)
    _apply_agent_moves(state, effects.agent, rule)
    for region, armies in banners.items():
        held = {e: n for e, n in armies.items() if n}
        _require(len(held) <= 1, f"{region} would hold banners of {' and '.join(sorted(held))}: record the combat's "
                 "losses too (kill=REGION:N)", "EN Combat")


def _apply_banner_effects(state: GameState, effects: ev.Effects, rule: str
                          ) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    banners = {r: {e: n} for r, (e, n) in state.banners.items()}
    reserve = dict(state.reserve)
    for empire, region, n in effects.add:
        _require(empire in state.board.empires, f"unknown empire {empire!r}", rule)
        _require(region in state.board.regions, f"unknown region {region!r}", rule)
        _require(n >= 1, "banners added must be at least 1", rule)
        _require(reserve[empire] >= n, f"{empire}'s reserve holds only {reserve[empire]} banners", "EN Components")
        reserve[empire] -= n
        army = banners.setdefault(region, {})
        army[empire] = army.get(empire, 0) + n
    for region, empire, n in effects.kill:
        _require(region in state.board.regions, f"unknown region {region!r}", rule)
        army = banners.get(region, {})
        _require(n >= 1 and army.get(empire, 0) >= n,
                 f"{region} holds {army.get(empire, 0)} {empire} banners, cannot kill {n}", rule)
        army[empire] -= n
        reserve[empire] += n
    for source, target, empire, n in effects.move:
        for region in (source, target):
            _require(region in state.board.regions, f"unknown region {region!r}", rule)
        army = banners.get(source, {})
        _require(n >= 1 and army.get(empire, 0) >= n,
                 f"{source} holds {army.get(empire, 0)} {empire} banners, cannot move {n}", rule)
        army[empire] -= n
        dest = banners.setdefault(target, {})
        dest[empire] = dest.get(empire, 0) + n
    return banners, reserve


def _decide_discard(state: GameState, cmd: c.Discard) -> list[ev.Event]:
    rule = "EN Cleanup Phase"
    _check_society(state, cmd.society)
    _check_phase(state, "cleanup", "discard")
    limit = state.ruleset.hand_limit
    size = state.hands[cmd.society].size
    _require(size > limit, f"{cmd.society} holds {size} cards: only hands over {limit} discard", rule)
    _require(1 <= len(cmd.cards) <= size - limit,
             f"{cmd.society} discards down to {limit}: {size - limit} card(s), not {len(cmd.cards)}", rule)
    _spend(state, cmd.society, cmd.cards, rule)
    return [ev.CardsDiscarded(cmd.society, tuple(cmd.cards))]


def _decide_swap_loyalty(state: GameState, cmd: c.SwapLoyalty) -> list[ev.Event]:
    rule = "EN Swap Phase"
    _check_society(state, cmd.society)
    _check_phase(state, "swap", "swapping loyalty")
    _check_turn(state, cmd.society, rule)
    a, b = cmd.slots
    for slot in (a, b):
        _require(slot in SLOTS, f"unknown loyalty slot {slot!r}: the slots are {', '.join(SLOTS)}", rule)
    _require(a != b, "swap two different slots", rule)
    loyalty = state.loyalty[cmd.society]
    for slot in (a, b):
        _require(slot not in loyalty.revealed, f"the token on {slot} is revealed already and cannot be swapped", rule)
    given = dict(cmd.revealed or {})
    if given:
        _require(set(given) == {a, b}, f"name the empire now on each swapped slot: {a}=EMPIRE {b}=EMPIRE", rule)
        for empire in given.values():
            _require(empire in state.board.empires, f"unknown empire {empire!r}", rule)
        _require(len(set(given.values())) == 2, "the two swapped tokens are of different empires", rule)
    if loyalty.tokens is not None:
        actual = {a: loyalty.tokens[b], b: loyalty.tokens[a]}
        _require(not given or given == actual, f"the record has {a}={actual[a]} {b}={actual[b]} after this swap, "
                 "not what was named", "whispers: a reveal must agree with the recorded loyalty")
        given = actual
    else:
        _require(bool(given), f"{cmd.society}'s loyalty is sealed: name the revealed empires, "
                 f"{a}=EMPIRE {b}=EMPIRE", rule)
        shown = set(loyalty.revealed.values())
        _require(not shown & set(given.values()), "an empire's token is revealed on another slot already", rule)
    return [ev.LoyaltySwapped(cmd.society, (a, b), given)]


def _decide_pass(state: GameState, cmd: c.Pass) -> list[ev.Event]:
    _check_society(state, cmd.society)
    _check_phase(state, "swap", "pass")
    _check_turn(state, cmd.society, "EN Swap Phase")
    return [ev.SwapPassed(cmd.society)]


def _decide_reveal(state: GameState, cmd: c.Reveal) -> list[ev.Event]:
    rule = "EN Final Scoring"
    _check_society(state, cmd.society)
    _check_phase(state, "reveal", "the final reveal")
    loyalty = state.loyalty[cmd.society]
    _check_tokens(state, cmd.tokens, rule)
    if loyalty.tokens is not None:
        _require(dict(loyalty.tokens) == dict(cmd.tokens),
                 f"{cmd.society}'s reveal disagrees with its recorded loyalty",
                 "whispers: a reveal must agree with the recorded loyalty")
        raise RuleError(f"{cmd.society}'s loyalty is recorded already and agrees: nothing to reveal", rule)
    for slot, empire in loyalty.revealed.items():
        _require(cmd.tokens[slot] == empire, f"{slot} was revealed as {empire} by a swap, not {cmd.tokens[slot]}",
                 "whispers: a reveal must agree with what was revealed")
    _check_distinct_devout(state, cmd.society, cmd.tokens)
    return [ev.LoyaltyRevealed(cmd.society, dict(cmd.tokens))]


def _decide_ruling(state: GameState, cmd: c.Ruling) -> list[ev.Event]:
    rule = "whispers: an adjudicator's ruling"
    _require(bool(cmd.reason.strip()), "a ruling needs a reason", rule)
    effects = _resolve_effects(state, cmd.effects, rule)
    _check_effects(state, effects, rule)
    return [ev.RulingApplied(cmd.reason.strip(), effects)]


def _decide_check(state: GameState, cmd: c.Check) -> list[ev.Event]:
    rule = "whispers: a table count"
    _require(bool(cmd.counts), "name at least one region and its banner count", rule)
    mismatches = {}
    for region, counted in cmd.counts.items():
        _require(region in state.board.regions, f"unknown region {region!r}", rule)
        _require(counted >= 0, "a banner count cannot be negative", rule)
        recorded = state.banners_in(region)
        if recorded != counted:
            mismatches[region] = (recorded, counted)
    return [ev.TableChecked(dict(cmd.counts), mismatches)]


_DECIDERS: dict[type, Any] = {
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
    c.Reveal: _decide_reveal,
    c.Ruling: _decide_ruling,
    c.Check: _decide_check,
}


# --- evolve -----------------------------------------------------------------------------------------


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
        new = replace(new, prior=state, moves=(*state.moves, version))
    return replace(new, version=version)


def _started(e: ev.GameStarted) -> GameState:
    board = Board.from_data(e.board, source=f"record of {e.name}")
    ruleset = Ruleset.from_data(e.ruleset, source=f"record of {e.name}")
    banners = {r.id: (r.home, r.banners) for r in board.regions.values() if r.banners}
    reserve = {emp: BANNERS_PER_EMPIRE - sum(n for h, n in banners.values() if h == emp) for emp in board.empires}
    return GameState(
        name=e.name, board=board, ruleset=ruleset, players=tuple(e.players), first=e.first, banners=banners,
        reserve=reserve, hands={p: Hand({}) for p in e.players},
        decks={emp: Deck(CARDS_PER_DECK) for emp in board.empires}, version=1,
    )


def _after_order(s: GameState, actor: str, draw: bool = False) -> GameState:
    """Move on once an order is taken: past the active office, or past the council (REV swap)."""
    ends = s.pending is not None and s.pending.ends_council
    index = 4 if ends else s.office_index + 1
    return replace(s, office_index=index, pending=None, last_actor=actor, last_was_draw=draw)


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


def _a_phase(s: GameState, e: ev.PhaseStarted) -> GameState:
    # the empire turns phase starts "after" a virtual empire -1, so the engine starts the first one
    empire = e.phase == "empire"
    return replace(s, round=e.round, phase=e.phase, step=0, last_actor=None, last_was_draw=False,
                   empire_index=-1 if empire else 0, office_index=5 if empire else 0, pending=None)


def _a_skipped(s: GameState, e: ev.Skipped) -> GameState:
    return replace(s, step=s.step + 1)


def _a_empire_turn(s: GameState, e: ev.EmpireTurnStarted) -> GameState:
    return replace(s, empire_index=s.board.empires.index(e.empire), office_index=0, pending=None)


def _a_office_skipped(s: GameState, e: ev.OfficeSkipped) -> GameState:
    if s.pending is not None:
        return replace(_after_order(s, s.pending.society), last_actor=s.last_actor)
    return replace(s, office_index=s.office_index + 1)


def _a_supply(s: GameState, e: ev.SupplyChecked) -> GameState:
    banners, reserve = s.banners, s.reserve
    for region, (empire, n) in e.losses.items():
        banners = _place(banners, region, empire, -n)
        reserve = _add_reserve(reserve, empire, n)
    return replace(s, banners=banners, reserve=reserve, office_index=5)


def _a_round_ended(s: GameState, e: ev.RoundEnded) -> GameState:
    return replace(s, phase="round_end", step=0, last_actor=None, last_was_draw=False, pending=None)


def _a_first(s: GameState, e: ev.FirstPlayerPassed) -> GameState:
    return replace(s, first=e.first, phase="mark", step=0)


def _a_scored(s: GameState, e: ev.GameScored) -> GameState:
    return replace(s, phase="over", scored=True)


def _a_loyalty(s: GameState, e: ev.LoyaltyRecorded) -> GameState:
    return replace(s, loyalty={**s.loyalty, e.society: Loyalty(e.tokens, {})})


def _remove_agent(s: GameState, society: str, where: str) -> GameState:
    if "." in where:
        empire, office = where.split(".", 1)
        council = dict(s.council)
        del council[(empire, office)]
        return replace(s, council=council)
    return replace(s, field_agents=s.field_agents - {(society, where)})


def _a_retrieved(s: GameState, e: ev.AgentRetrieved) -> GameState:
    return replace(_remove_agent(s, e.society, e.where), step=s.step + 1)


def _a_deployed(s: GameState, e: ev.AgentDeployed) -> GameState:
    if "." in e.where:
        empire, office = e.where.split(".", 1)
        s = replace(s, council={**s.council, (empire, office): e.society})
    else:
        s = replace(s, field_agents=s.field_agents | {(e.society, e.where)})
    return replace(s, step=s.step + 1)


def _a_recruited(s: GameState, e: ev.BannersRecruited) -> GameState:
    banners = s.banners
    for region, n in e.placed.items():
        banners = _place(banners, region, e.empire, n)
    s = replace(s, banners=banners, reserve=_add_reserve(s.reserve, e.empire, -e.amount))
    return _after_order(s, e.society)


def _a_drawn(s: GameState, e: ev.CardsDrawn) -> GameState:
    hand = s.hands[e.society]
    counts = dict(hand.counts)
    if e.drawn:
        counts[e.empire] = counts.get(e.empire, 0) + e.drawn
    deck = s.decks[e.empire]
    deck = Deck(deck.draw + e.reshuffled - e.drawn, deck.discard - e.reshuffled)
    s = replace(s, hands={**s.hands, e.society: Hand(counts, hand.known + e.cards)},
                decks={**s.decks, e.empire: deck})
    return _after_order(s, e.society, draw=True)


def _a_attacked(s: GameState, e: ev.Attacked) -> GameState:
    banners = _place(s.banners, e.source, e.empire, -e.banners)
    reserve = _add_reserve(s.reserve, e.empire, e.attacker_losses)
    survivors = e.banners - e.attacker_losses
    if e.defending:
        defender = s.banners[e.target][0]
        reserve = _add_reserve(reserve, defender, e.defender_losses)
        banners = _place(banners, e.target, defender, -e.defender_losses)
    if survivors:
        banners = _place(banners, e.target, e.empire, survivors)
    return _after_order(replace(s, banners=banners, reserve=reserve), e.society)


def _a_swapped(s: GameState, e: ev.AgentSwapped) -> GameState:
    agent = s.active_agent(e.empire, OFFICES.index(e.office))
    assert agent is not None
    council = dict(s.council)
    council[(e.empire, e.target)] = e.society
    if e.displaced is not None:
        council[agent] = e.displaced
    else:
        del council[agent]
    options = tuple((e.empire, o) for o in e.options)
    pending = Pending(e.society, options, s.ruleset.swap_agent_ends_council)
    return replace(s, council=council, pending=pending, last_actor=e.society, last_was_draw=False)


def _spent(s: GameState, society: str, cards: Iterable[str]) -> GameState:
    hand = s.hands[society]
    counts = dict(hand.counts)
    known = list(hand.known)
    decks = dict(s.decks)
    for card in cards:
        empire = card_empire(card)
        counts[empire] -= 1
        if card in known:
            known.remove(card)
        deck = decks[empire]
        if s.ruleset.spent == "deck":
            decks[empire] = Deck(deck.draw + 1, deck.discard)
        else:
            decks[empire] = Deck(deck.draw, deck.discard + 1)
    hand = Hand({e: n for e, n in counts.items() if n}, tuple(known))
    return replace(s, hands={**s.hands, society: hand}, decks=decks)


def _effects(s: GameState, effects: ev.Effects) -> GameState:
    banners, reserve = _apply_banner_effects(s, effects, "record")
    flat = {r: (e, n) for r, army in banners.items() for e, n in army.items() if n}
    council = _apply_agent_moves(s, effects.agent, "record")
    return replace(s, banners=flat, reserve=reserve, council=council)


def _a_played(s: GameState, e: ev.CardPlayed) -> GameState:
    s = _effects(_spent(s, e.society, (e.card, *e.pay)), e.effects)
    if e.act is not None:
        empire, office = e.act.split(".", 1)
        s = replace(s, pending=Pending(e.society, ((empire, office),), False))
    return s


def _a_discarded(s: GameState, e: ev.CardsDiscarded) -> GameState:
    return _spent(s, e.society, e.cards)


def _a_loyalty_swapped(s: GameState, e: ev.LoyaltySwapped) -> GameState:
    loyalty = s.loyalty[e.society]
    a, b = e.slots
    tokens = loyalty.tokens
    if tokens is not None:
        tokens = {**tokens, a: tokens[b], b: tokens[a]}
    new = Loyalty(tokens, {**loyalty.revealed, **e.revealed}, loyalty.swaps + 1)
    return replace(s, loyalty={**s.loyalty, e.society: new}, step=s.step + 1)


def _a_passed(s: GameState, e: ev.SwapPassed) -> GameState:
    return replace(s, step=s.step + 1)


def _a_revealed(s: GameState, e: ev.LoyaltyRevealed) -> GameState:
    loyalty = s.loyalty[e.society]
    return replace(s, loyalty={**s.loyalty, e.society: replace(loyalty, tokens=dict(e.tokens))})


def _a_ruling(s: GameState, e: ev.RulingApplied) -> GameState:
    return _effects(s, e.effects)


def _a_checked(s: GameState, e: ev.TableChecked) -> GameState:
    return s


_APPLY: dict[type, Any] = {
    ev.PhaseStarted: _a_phase,
    ev.Skipped: _a_skipped,
    ev.EmpireTurnStarted: _a_empire_turn,
    ev.OfficeSkipped: _a_office_skipped,
    ev.SupplyChecked: _a_supply,
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
    ev.LoyaltyRevealed: _a_revealed,
    ev.RulingApplied: _a_ruling,
    ev.TableChecked: _a_checked,
}
