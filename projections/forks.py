"""Forks: where two records part, and how their outcomes differ."""


from collections.abc import Sequence
from typing import NotRequired, TypedDict

from whispers.ledger.core import events as ev
from whispers.ledger.core.notation import format_event
from whispers.ledger.core.plain import Data
from whispers.ledger.core.words import describe
from whispers.projections.replay import final_scoring
from whispers.projections.visibility import RECORD, moves_seen


def fork_of(events: Sequence[ev.Event]) -> ev.GameForked | None:
    if ev.GameForked not in map(type, events):  # most records (a scan at C speed, as replay.standing's)
        return None
    return next((e for e in events if isinstance(e, ev.GameForked)), None)


def _comparable(event: ev.Event) -> Data:
    fact = event.to_fact()
    if isinstance(event, ev.GameStarted):
        fact.pop("name")
    return fact


def _event_line(event: ev.Event | None) -> str | None:
    """The event in one line: its notation, or described when it is the engine's own."""
    if event is None:
        return None
    return format_event(event) or describe(event)


class Outcome(TypedDict):
    scores: dict[str, int]
    winner: str | None


class MoveAfter(TypedDict):
    event: int
    move: str


class Diff(TypedDict):
    """`diff`: where two games part, and how their outcomes differ (`whispers diff`, its JSON)."""

    games: list[str]
    common: int
    identical: bool
    first_difference: dict[str, int | str | None] | None  # "event", and each game's line there (None: it ended)
    outcome: dict[str, Outcome | None]
    moves: dict[str, list[MoveAfter]]
    setup: NotRequired[dict[str, dict[str, object]]]
    score_change: NotRequired[dict[str, int]]


def setup_differences(a: ev.GameStarted, b: ev.GameStarted, name_a: str, name_b: str) -> dict[str, dict[str, object]]:
    """What differs between two games' setups: players (and their seating), first player, ruleset, board, card
    sets, card sheet (None: none). One of the same id but other content is told apart by " (other content)"."""

    def label(data: Data, other: Data) -> str:
        return str(data["id"]) if data["id"] != other["id"] else f"{data['id']} (other content)"

    found: dict[str, dict[str, object]] = {}
    if tuple(a.players) != tuple(b.players):
        found["players"] = {name_a: list(a.players), name_b: list(b.players)}
    if a.first != b.first:
        found["first"] = {name_a: a.first, name_b: b.first}
    if a.ruleset != b.ruleset:
        found["ruleset"] = {name_a: label(a.ruleset, b.ruleset), name_b: label(b.ruleset, a.ruleset)}
    if a.board != b.board or a.board_hash != b.board_hash:
        found["board"] = {name_a: label(a.board, b.board), name_b: label(b.board, a.board)}
    if tuple(a.card_sets) != tuple(b.card_sets):
        found["card_sets"] = {name_a: list(a.card_sets), name_b: list(b.card_sets)}
    if a.cards != b.cards:
        found["cards"] = {name_a: label(a.cards, b.cards) if a.cards and b.cards else (a.cards or {}).get("id"),
                          name_b: label(b.cards, a.cards) if a.cards and b.cards else (b.cards or {}).get("id")}
    return found


def _moves_after(events: tuple[ev.Event, ...], numbered: list[tuple[int, ev.Event]], common: int
                 ) -> list[MoveAfter]:
    """The moves (take-backs, rulings and the director's seal included) after the first `common` events (a fork's
    marker aside), each with its event number in its own record and its notation line as the record shows it
    (through the visibility policy, as every listing of a line's moves); the engine's own events are left out."""
    after = numbered[common][0] - 1 if common < len(numbered) else len(events)
    return [{"event": number, "move": line} for number, line in moves_seen(events, RECORD, after)]


def diff(a: tuple[ev.Event, ...], b: tuple[ev.Event, ...], name_a: str, name_b: str) -> Diff:
    """The first event where the records differ (a fork's marker aside), and both outcomes. Two games set up
    differently are not a fork of one another: `setup` says what differs, and no score change is given."""
    numbered_a = [(n, e) for n, e in enumerate(a, start=1) if not isinstance(e, ev.GameForked)]
    numbered_b = [(n, e) for n, e in enumerate(b, start=1) if not isinstance(e, ev.GameForked)]
    left, right = [e for _, e in numbered_a], [e for _, e in numbered_b]
    common = 0
    while common < min(len(left), len(right)) and _comparable(left[common]) == _comparable(right[common]):
        common += 1
    parted = common < max(len(left), len(right))

    def outcome(events: list[ev.Event]) -> Outcome | None:
        scored = final_scoring(events)
        if scored is None:
            return None
        return {"scores": {s: v["total"] for s, v in scored.scores.items()}, "winner": scored.winner}

    result: Diff = {
        "games": [name_a, name_b], "common": common, "identical": not parted,
        "first_difference": None if not parted else {
            "event": common + 1,
            name_a: _event_line(left[common]) if common < len(left) else None,
            name_b: _event_line(right[common]) if common < len(right) else None,
        },
        "outcome": {name_a: outcome(left), name_b: outcome(right)},
        "moves": {name_a: _moves_after(a, numbered_a, common), name_b: _moves_after(b, numbered_b, common)},
    }
    started_a, started_b = left[0], right[0]
    assert isinstance(started_a, ev.GameStarted) and isinstance(started_b, ev.GameStarted)
    setup = setup_differences(started_a, started_b, name_a, name_b)
    if setup:
        result["setup"] = setup
    oa, ob = result["outcome"][name_a], result["outcome"][name_b]
    if oa and ob and not setup:
        result["score_change"] = {s: ob["scores"][s] - oa["scores"][s] for s in oa["scores"]}
    return result
