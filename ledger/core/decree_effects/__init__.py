"""The decree effects whose consequences the engine computes (catalogue `mechanics = "adjudicated"`), one object
each, registered by id (issue 33): attack.py (the attack cards), flow.py (the order sequence and what lasts through
the turn), board.py (the board effects). ledger.rules, evolve, flow, the timeline and the random game read them here
and write no effect's id; ledger.legal reads what they put in the state (`GameState.attack_route`, `doubled`).

Every other catalogue effect, which the rulebooks call self-explanatory, is played with its board changes recorded as
explicit primitive effects (add=, kill=, move=, agent=), and only its deck, cost, timing and parameters are checked.
docs/decrees.md says how to add an effect."""

from __future__ import annotations

from whispers.ledger.core.decree_effects import attack, board, flow  # noqa: F401  (each module registers its effects)
from whispers.ledger.core.decree_effects.attack import Combat, combat
from whispers.ledger.core.decree_effects.base import EFFECTS, AttackCard, Effect, Play, placements
from whispers.ledger.core.decrees import Catalogue, Family, family
from whispers.ledger.core.legal import PlayableEffect, after_order, decree_timing_refusal, order_actor, order_positions
from whispers.ledger.core.names import OFFICES
from whispers.ledger.core.plain import Data
from whispers.ledger.core.state import GameState
from whispers.ledger.core.words import N_

__all__ = ["EFFECTS", "AttackCard", "Combat", "Effect", "Play", "adjudicated", "combat", "effect",
           "engine_computed", "engine_mode", "listing", "placements", "playable_effects"]


def effect(effect_id: str | None) -> Effect | None:
    """The adjudicated effect of that id; None for a recorded one (or none)."""
    return EFFECTS.get(effect_id) if effect_id is not None else None


def adjudicated() -> frozenset[str]:
    """The ids of every effect the engine adjudicates."""
    return frozenset(EFFECTS)


def engine_computed(effect_id: str | None, outcome: dict[str, str] | None) -> bool:
    """Whether the engine computed a recorded play's consequences (so its log line types none)."""
    found = effect(effect_id)
    return found is not None and found.computed(outcome)


def engine_mode(effect_id: str) -> str:
    """`adjudicated` by the engine, or `recorded` (its board changes typed with the play)."""
    return "adjudicated" if effect_id in EFFECTS else "recorded"


def listing(catalogue: Catalogue, timing: Family | None = None) -> Data:
    """The catalogue in the stable JSON shape of `whispers decrees --json`: every effect in catalogue order; with
    `timing`, each effect also says when that ruleset family lets it be played, in words."""
    effects = []
    for decree in catalogue.decrees.values():
        row: Data = {"id": decree.id, **decree.to_data(), "engine": engine_mode(decree.id)}
        if timing is not None:
            row["timing"] = {"family": timing, "type": decree.timing(timing), "words": decree.timing_words(timing)}
        effects.append(row)
    return {"catalogue": {"id": catalogue.id, "name": catalogue.name, "content_hash": catalogue.content_hash},
            "effects": effects}


_DOMAINS = {"count": N_("a whole number, 1 or more"), "amount": N_("a whole number, 0 or more"),
            "placements": N_("REGION:N, one or more, comma-separated")}
"""A free parameter's domain, as a field's hint says it (in the reader's words where it is shown: `_`)."""


def playable_effects(state: GameState, society: str, catalogue: Catalogue) -> dict[str, PlayableEffect]:
    """The catalogue effects `society` could play now, by deck held and timing: effect -> {"engine": adjudicated
    or recorded, "name": the catalogue's name of it, "parameters": name -> its domain}. A recorded effect's play
    also types its board changes; an attack card is offered only when the society's order to come is an attack."""
    hand = state.hands[society]
    timing = family(state.ruleset)
    found: dict[str, PlayableEffect] = {}
    for decree in catalogue.decrees.values():
        if not decree.playable or not any(hand.counts.get(deck, 0) for deck in decree.decks):
            continue
        if decree.card_set not in state.card_sets:
            continue
        if decree_timing_refusal(state, society, decree.timing(timing)) is not None:
            continue
        adjudicating = effect(decree.id)
        after = (timing == "official" and "after" in decree.window() and state.last_attack is not None
                 and after_order(state) == society)
        if isinstance(adjudicating, AttackCard) and not (after or _attack_to_come(state, society, decree.id)):
            continue
        domains: dict[str, object] = {}
        for p in decree.parameters:
            narrowed = adjudicating.domain(state, society, p.name) if adjudicating is not None else None
            if narrowed is not None:
                domains[p.name] = narrowed
            elif p.kind == "region":
                domains[p.name] = tuple(state.board.regions)
            elif p.kind == "empire":
                domains[p.name] = state.board.empires
            elif p.kind == "position":
                domains[p.name] = tuple(f"{e}.{o}" for e in state.board.empires for o in OFFICES)
            else:
                domains[p.name] = _DOMAINS.get(p.kind, p.kind)
        found[decree.id] = {"engine": engine_mode(decree.id), "name": decree.name, "parameters": domains}
    return found


def _attack_to_come(state: GameState, society: str, effect_id: str) -> bool:
    return (order_actor(state) == society and effect_id not in dict(state.attack_cards)
            and (state.pending is None or state.pending.order in (None, "attack"))
            and any("attack" in state.board.orders(*p) for p in order_positions(state)))
