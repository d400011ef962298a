"""Domain events: the facts of a game, with their consequences, as the record keeps them.

Each event is a frozen dataclass of plain values. `to_fact` gives the dict the store keeps (msgpack);
`from_fact` reads it back. Replaying facts never re-runs a rule: everything a rule decided is in the fact.

`MOVE` marks the events that begin a move a person made (what a take-back undoes); the others are
consequences the engine records on its own (skipped offices, supply checks, phase changes, scoring).
`private` names the field (if any) that only `society` may see.
"""

from dataclasses import dataclass, fields
from typing import Any, ClassVar

Where = str
"""An agent's place: a council position `empire.office`, or a region id for a field agent."""


@dataclass(frozen=True, slots=True)
class Event:
    MOVE: ClassVar[bool] = False
    private: ClassVar[str | None] = None

    def to_fact(self) -> dict[str, Any]:
        fact: dict[str, Any] = {"type": type(self).__name__}
        for f in fields(self):
            fact[f.name] = _thaw(getattr(self, f.name))
        return fact


@dataclass(frozen=True, slots=True)
class Effects:
    """Primitive board changes a card or a ruling makes, each explicit.

    add: (empire, region, n) banners from the reserve; kill: (region, empire, n) back to the reserve;
    move: (from, to, empire, n); agent: (from, to) council positions `empire.office`.
    """

    add: tuple[tuple[str, str, int], ...] = ()
    kill: tuple[tuple[str, str, int], ...] = ()
    move: tuple[tuple[str, str, str, int], ...] = ()
    agent: tuple[tuple[str, str], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.add or self.kill or self.move or self.agent)


# --- setup -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    name: str
    players: tuple[str, ...]
    first: str
    ruleset: dict[str, Any]
    board: dict[str, Any]
    board_hash: str


@dataclass(frozen=True, slots=True)
class LoyaltyRecorded(Event):
    """A society's five tokens as placed at setup, or `None` when the set is sealed until revealed."""

    MOVE = True
    private = "tokens"
    society: str
    tokens: dict[str, str] | None


# --- flow ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PhaseStarted(Event):
    round: int
    phase: str


@dataclass(frozen=True, slots=True)
class Skipped(Event):
    """A society's turn in a phase passed over by the engine (no agent to retrieve or deploy, no swap)."""

    society: str
    phase: str
    reason: str


@dataclass(frozen=True, slots=True)
class EmpireTurnStarted(Event):
    empire: str


@dataclass(frozen=True, slots=True)
class OfficeSkipped(Event):
    empire: str
    office: str
    controller: str | None
    reason: str


@dataclass(frozen=True, slots=True)
class SupplyChecked(Event):
    """The check at the end of an empire's turn: `losses` maps region -> [empire, banners returned]."""

    empire: str
    scope: str
    losses: dict[str, tuple[str, int]]


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    round: int


@dataclass(frozen=True, slots=True)
class FirstPlayerPassed(Event):
    previous: str
    first: str


@dataclass(frozen=True, slots=True)
class GameScored(Event):
    """Final scoring with the full breakdown and the tie-break trail."""

    scores: dict[str, dict[str, Any]]
    ranking: tuple[str, ...]
    winner: str | None
    tied: tuple[str, ...]
    trail: tuple[str, ...]


# --- agents ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AgentRetrieved(Event):
    MOVE = True
    society: str
    where: Where


@dataclass(frozen=True, slots=True)
class AgentDeployed(Event):
    MOVE = True
    society: str
    where: Where


# --- orders ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BannersRecruited(Event):
    MOVE = True
    society: str
    empire: str
    office: str
    order: str
    counted: int
    amount: int
    placed: dict[str, int]


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    """`cards` names the drawn cards the record knows (private to the drawer); `drawn` is public."""

    MOVE = True
    private = "cards"
    society: str
    empire: str
    office: str
    order: str
    counted: int
    drawn: int
    cards: tuple[str, ...]
    reshuffled: int


@dataclass(frozen=True, slots=True)
class Attacked(Event):
    MOVE = True
    society: str
    empire: str
    office: str
    order: str
    source: str
    target: str
    banners: int
    held_by: str
    defending: int
    fort_kill: int
    attacker_losses: int
    defender_losses: int
    controller: str


@dataclass(frozen=True, slots=True)
class AgentSwapped(Event):
    """The swap-agent order: the active agent moved to `target` (trading places with `displaced`)."""

    MOVE = True
    society: str
    empire: str
    office: str
    target: str
    displaced: str | None
    options: tuple[str, ...]


# --- cards -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card play: the card, its cost (the cards that left the hand) and its effects, all explicit.

    `act` is a council position whose order replaces the active one (a card that lends a position).
    """

    MOVE = True
    society: str
    card: str
    ability: int | None
    pay: tuple[str, ...]
    effects: Effects
    act: str | None


@dataclass(frozen=True, slots=True)
class CardsDiscarded(Event):
    MOVE = True
    society: str
    cards: tuple[str, ...]


# --- loyalty ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LoyaltySwapped(Event):
    MOVE = True
    society: str
    slots: tuple[str, str]
    revealed: dict[str, str]


@dataclass(frozen=True, slots=True)
class SwapPassed(Event):
    MOVE = True
    society: str


@dataclass(frozen=True, slots=True)
class LoyaltyRevealed(Event):
    MOVE = True
    society: str
    tokens: dict[str, str]


# --- the table -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AfterOrderPassed(Event):
    """The society that took an empire's last order plays no (more) card after it: the supply check follows."""

    MOVE = True
    society: str


@dataclass(frozen=True, slots=True)
class MoveTakenBack(Event):
    """A take-back of the last move still standing: `move` is the 1-based index of its first event.
    `reopen` marks the take-back that reopened a finished game (its scoring is undone with the move)."""

    reason: str
    move: int
    reopen: bool = False


@dataclass(frozen=True, slots=True)
class RulingApplied(Event):
    MOVE = True
    reason: str
    effects: Effects


@dataclass(frozen=True, slots=True)
class TableChecked(Event):
    """The table's physical banner count; `mismatches` maps region -> [recorded, counted]."""

    MOVE = True
    counts: dict[str, int]
    mismatches: dict[str, tuple[int, int]]


@dataclass(frozen=True, slots=True)
class GameForked(Event):
    """This game's record up to here is `parent`'s first `at` events ("what if"); `head` is their chain hash."""

    parent: str
    at: int
    head: str


EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls for cls in Event.__subclasses__()
}


def _thaw(value: Any) -> Any:
    if isinstance(value, Effects):
        return {f.name: _thaw(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple | list):
        return [_thaw(v) for v in value]
    if isinstance(value, dict):
        return {k: _thaw(v) for k, v in value.items()}
    return value


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return {k: _freeze(v) for k, v in value.items()}
    return value


def from_fact(fact: dict[str, Any]) -> Event:
    """Read a stored fact back into its event; raises KeyError/TypeError on a malformed fact."""
    cls = EVENT_TYPES[fact["type"]]
    values = {k: v for k, v in fact.items() if k != "type"}
    for name, value in values.items():
        if name == "effects":
            values[name] = Effects(**{k: _freeze(v) for k, v in value.items()})
        elif name not in ("ruleset", "board"):
            values[name] = _freeze(value)
    return cls(**values)
