"""What one society knew: views of the state and the events at any version. A security property.

A society's view holds its own loyalty tokens and hand, other societies' tokens only once revealed, hand
sizes and every public fact. A sealed set is unknown even to the record until it is revealed. The
all-seeing view (`society=None`) is the record's own.
"""

from collections.abc import Sequence
from typing import Any

from whispers.ledger import events as ev
from whispers.ledger.errors import WhispersError
from whispers.ledger.names import SLOTS
from whispers.ledger.shipped import labels
from whispers.ledger.state import GameState, position_name


class NotPlaying(WhispersError):
    """A view asked for as a society that is not at the table."""


def check_viewer(game: str, players: Sequence[str], society: str | None) -> None:
    """Every view as a society (each face, each command) refuses one not playing, in these words."""
    if society is not None and society not in players:
        raise NotPlaying(f"{society} is not playing in {game} ({', '.join(players)} are)")


def state_view(state: GameState, society: str | None = None) -> dict[str, Any]:
    """The state as `society` knew it (everything the record holds when `society` is None)."""
    from whispers.ledger.legal import prompt

    check_viewer(state.name, state.players, society)
    p = prompt(state)
    loyalty: dict[str, Any] = {}
    for s in state.players:
        held = state.loyalty.get(s)
        if held is None:
            loyalty[s] = None
            continue
        # at the end every token is turned face up (EN "Final Scoring"), so every known set is public
        shown = society is None or society == s or state.phase in ("reveal", "over")
        loyalty[s] = {
            "tokens": dict(held.tokens) if shown and held.tokens is not None else None,
            "revealed": dict(held.revealed),
            "sealed": held.tokens is None,
            "swaps": held.swaps,
            "concealed": held.concealed,
        }
    hands: dict[str, Any] = {}
    for s in state.players:
        hand = state.hands[s]
        hands[s] = {"size": hand.size, "by_empire": dict(hand.counts)}
        if society is None or society == s:
            hands[s]["known"] = list(hand.known)
    ruleset_label, board_label = labels(state)
    return {
        "game": state.name, "ruleset": ruleset_label, "board": board_label, "version": state.version,
        "viewer": society, "round": p.round, "phase": p.phase, "empire": p.empire, "office": p.office,
        "first": state.first, "players": list(state.players), "over": state.over,
        "next": {"societies": list(p.actors), "note": p.note},
        "regions": {
            r: {"controller": state.controller(r), "banners": state.banners_in(r)} for r in state.board.regions
        },
        "reserve": dict(state.reserve),
        "cities": {e: state.cities(e) for e in state.board.empires},
        "decks": {e: {"draw": d.draw, "discard": d.discard} for e, d in state.decks.items()},
        "council": {position_name(pos): s for pos, s in state.council.items()},
        "field_agents": sorted([s, r] for s, r in state.field_agents),
        "hands": hands,
        "loyalty": loyalty,
    }


def event_view(event: ev.Event, society: str | None = None) -> dict[str, Any]:
    """An event as `society` saw it: a private part is left out unless it is `society`'s own."""
    fact = event.to_fact()
    private = event.private
    if private is not None and society is not None and getattr(event, "society", None) != society:
        fact[private] = None
        fact["hidden"] = private
    return fact


def secrets_hidden_from(state: GameState, society: str) -> tuple[set[tuple[str, str, str]], set[str]]:
    """What `society` could not know at `state`: other societies' unrevealed (society, slot, empire) tokens and
    the names of cards in other hands. For the security tests."""
    tokens = set()
    cards = set()
    for other in state.players:
        if other == society:
            continue
        held = state.loyalty.get(other)
        if held is not None and held.tokens is not None and state.phase not in ("reveal", "over"):
            for slot in SLOTS:
                if slot not in held.revealed:
                    tokens.add((other, slot, held.tokens[slot]))
        cards.update(state.hands[other].known)
    return tokens, cards
