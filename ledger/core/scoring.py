"""Final scoring, with the full breakdown and the tie-break trail."""


from collections.abc import Callable

from whispers.ledger.core import events as ev
from whispers.ledger.core.names import MULTIPLIER
from whispers.ledger.core.state import GameState, control


def society_score(state: GameState, society: str) -> ev.SocietyScore:
    """One society's score if the game ended now, from its own tokens alone (EN "Final Scoring")."""
    loyalty = state.loyalty[society]
    assert loyalty is not None and loyalty.tokens is not None
    slot_of = {empire: slot for slot, empire in loyalty.tokens.items()}
    empires: dict[str, ev.EmpireScore] = {}
    total = loyalty.concealed * state.ruleset.concealed_bonus
    held = control(state.board, state.banners).cities  # each empire's `state.cities`, counted once for all of them
    agents_with = [state.controller(region) for region in state.field_regions(society)]
    for empire in state.board.empires:
        cities = held.get(empire, 0)
        agents = agents_with.count(empire)
        slot = slot_of[empire]
        points = MULTIPLIER[slot] * (cities + agents)
        empires[empire] = {
            "slot": slot,
            "multiplier": MULTIPLIER[slot],
            "cities": cities,
            "field_agents": agents,
            "points": points,
        }
        total += points
    return {
        "total": total,
        "empires": empires,
        "concealed": loyalty.concealed,
        "concealed_points": loyalty.concealed * state.ruleset.concealed_bonus,
        "swaps": loyalty.swaps,
        "cards": state.hands[society].size,
    }


def score(state: GameState) -> ev.GameScored:
    """Final scoring (EN "Final Scoring"; EN "Advanced Rules"; FR advanced +1 per concealed token; REV "Scoring")."""
    scores = {society: society_score(state, society) for society in state.players}
    keys: dict[str, Callable[[str], int]] = {
        "fewest_swaps": lambda p: -scores[p]["swaps"],
        "most_concealed": lambda p: scores[p]["concealed"],
        "most_cards": lambda p: scores[p]["cards"],
    }
    breaks = [(rule, keys[rule]) for rule in state.ruleset.tie_breaks]
    ranking = tuple(sorted(state.players, key=lambda p: (-scores[p]["total"], *(-key(p) for _, key in breaks))))
    best = scores[ranking[0]]["total"]
    tied = [p for p in ranking if scores[p]["total"] == best]
    trail: list[ev.TrailStep] = [{"step": "highest", "score": best, "societies": tuple(tied)}]
    for rule, key in breaks:
        if len(tied) == 1:
            break
        top = max(key(p) for p in tied)
        tied = [p for p in tied if key(p) == top]
        trail.append({"step": "tie-break", "rule": rule, "societies": tuple(tied)})
    if len(tied) == 1:
        winner: str | None = tied[0]
        trail.append({"step": "winner", "society": tied[0]})
    else:
        winner = None
        trail.append({"step": "still-tied", "outcome": state.ruleset.final_tie})
    return ev.GameScored(scores, ranking, winner, tuple(tied) if winner is None else (), tuple(trail))
