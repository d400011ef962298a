"""Move numbers and places (docs/notation.md, "Move labels"), counted as the game goes, as a chess position
carries its move number: the fold keeps them in the state (ledger/core/evolve.py), so the label of a game's last move
is known at its head without reading its history, and projections/labels.py labels a whole record with the same
rule.

A council order is placed `ROUND.EMPIRE.OFFICE` (`2.bear.marshal`), any other move `RROUND VERB K`, the K-th move
of that verb in the round (`R2 deploy 3`); a place met again in a round gets `#2`, `#3`.
"""

from collections.abc import Mapping

from whispers.ledger.core import events as ev

VERBS: dict[type, str] = {
    ev.LoyaltyRecorded: "loyalty", ev.LoyaltyCommitted: "loyalty", ev.AgentDeployed: "deploy",
    ev.AgentRetrieved: "retrieve",
    ev.CardPlayed: "play", ev.CardsDiscarded: "discard", ev.LoyaltySwapped: "swap", ev.SwapPassed: "pass",
    ev.LoyaltyRevealed: "reveal", ev.AfterOrderPassed: "no-card", ev.RulingApplied: "ruling",
    ev.TableChecked: "check",
}
ORDERS = (ev.BannersRecruited, ev.CardsDrawn, ev.Attacked, ev.AgentSwapped)


def place(round_: int, move: ev.Event, counted: Mapping[str, int]) -> tuple[str, dict[str, int]]:
    """Where `move` (a move's first event) was played in round `round_`, given what this round `counted` so far
    (each verb's moves, each place's); with the counts that include it."""
    counts = dict(counted)
    if isinstance(move, ORDERS):
        # an order's place is met again when a position is borrowed: counted, at most one per council position
        where = f"{round_}.{move.empire}.{move.office}"
        counts[where] = seen = counts.get(where, 0) + 1
        return (f"{where}#{seen}" if seen > 1 else where), counts
    # any other move's place is new by its count: only the verb is counted (so the counts stay a few dozen, however
    # many moves a round holds: every state kept for a take-back holds its own)
    verb = f"R{round_} {VERBS.get(type(move), type(move).__name__.lower())}"
    counts[verb] = counts.get(verb, 0) + 1
    return f"{verb} {counts[verb]}", counts
