"""The words shown for the codes that events keep (skip reasons, tie-break steps, the engine's own events), and
for counts in messages.

Events store codes and parameters (never sentences), so the words can be chosen when they are shown.
"""

from collections.abc import Mapping
from typing import Any

from whispers.ledger import events as ev

SKIP_REASONS = {
    "no-agent-on-board": "no agent on the board",
    "no-agent-left": "no agent left",
    "no-open-position": "no open position",
    "too-few-concealed": "fewer than two concealed tokens",
}
TIE_BREAKS = {
    "fewest_swaps": "fewest loyalty swaps",
    "most_concealed": "most concealed loyalties",
    "most_cards": "most cards in hand",
}


def skip_reason(code: str) -> str:
    return SKIP_REASONS.get(code, code)


def office_skip_reason(event: ev.OfficeSkipped) -> str:
    if event.reason == "uncontrolled":
        return "no agent controls it"
    return f"no legal order at {', '.join(event.positions)}"


def trail_step(step: dict[str, Any]) -> str:
    """One step of a tie-break trail (events.GameScored) in words."""
    match step.get("step"):
        case "highest":
            return f"highest score {step['score']}: {', '.join(step['societies'])}"
        case "tie-break":
            return f"tie-break, {TIE_BREAKS.get(step['rule'], step['rule'])}: {', '.join(step['societies'])}"
        case "winner":
            return f"{step['society']} wins"
        case "still-tied":
            return f"still tied after every tie-break: {'a shared win' if step['outcome'] == 'shared' else 'no winner'}"
    return str(step)


def describe(event: ev.Event) -> str:
    """A few words on one of the engine's own events."""
    match event:
        case ev.PhaseStarted(round=r, phase=p):
            return f"round {r}: {p}"
        case ev.Skipped(society=s, phase=p, reason=why):
            return f"{s} skips {p}: {skip_reason(why)}"
        case ev.EmpireTurnStarted(empire=e):
            return f"{e}'s turn"
        case ev.OfficeSkipped(empire=e, office=o):
            return f"{e} {o} skipped: {office_skip_reason(event)}"
        case ev.SupplyChecked(empire=e, losses=losses):
            lost = ", ".join(f"{r} -{n} {emp}" for r, (emp, n) in losses.items())
            return f"supply check after {e}: {lost or 'nothing lost'}"
        case ev.RoundEnded(round=r):
            return f"round {r} ends"
        case ev.CardAttacked(effect=effect, empire=e, source=a, target=b, banners=n, controller=held):
            return (f"{effect}: {e} attacks {b} from {a} with {plural(n, 'banner')} "
                    f"(-{event.attacker_losses} {e}, -{event.defender_losses} {event.held_by}); {b} held by {held}")
        case ev.FirstPlayerPassed(first=f):
            return f"first player: {f}"
        case ev.GameDescribed(changes=changes):
            said = {k: ", ".join(f"{s} {n or '(cleared)'}" for s, n in v.items()) if k == "seats"
                    else ", ".join(v) if k == "tags" else "(cleared)" if v is None else v for k, v in changes.items()}
            return "table facts: " + "; ".join(f"{key} {value}" for key, value in said.items())
        case ev.GameForked(parent=parent, at=at):
            return f"forked from {parent} at event {at}"
        case ev.GameScored(scores=scores, winner=w, trail=trail):
            totals = ", ".join(f"{s} {v['total']}" for s, v in scores.items())
            return f"final scores: {totals}; {trail_step(trail[-1]) if trail else w}"
    return type(event).__name__


def plural(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and `noun`, the noun agreeing with the number: "1 card", "2 cards", "0 bear banners".

    `noun` may carry words before the counted one ("bear banner"); `plural` gives an irregular plural whole.
    """
    if n == 1:
        return f"{n} {noun}"
    if plural is None:
        plural = f"{noun[:-1]}ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else f"{noun}s"
    return f"{n} {plural}"


def value_kind(value: object) -> str:
    """A value's type in TOML's words, for messages about a board, ruleset, catalogue or card sheet file."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, Mapping):
        return "a table"
    return type(value).__name__
