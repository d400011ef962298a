"""Commands: what a person at the table says happened. `rules.decide` turns one into events or refuses it.

Every command that a society makes names it first; the engine checks that it is that society's move.
"""

from dataclasses import dataclass, field

from whispers.ledger.core import events as ev
from whispers.ledger.core.decree_effects import engine_computed
from whispers.ledger.core.events import Effects, Event


@dataclass(frozen=True, slots=True)
class Command:
    pass


@dataclass(frozen=True, slots=True)
class RecordLoyalty(Command):
    society: str
    tokens: dict[str, str] | None  # slot -> empire, or None for a sealed set
    commitment: str | None = None  # a set sealed by its player: the salted hash of its tokens (ledger/core/sealing.py)


@dataclass(frozen=True, slots=True)
class Retrieve(Command):
    society: str
    where: str


@dataclass(frozen=True, slots=True)
class Deploy(Command):
    society: str
    where: str


@dataclass(frozen=True, slots=True)
class Recruit(Command):
    society: str
    placed: dict[str, int]
    order: str | None = None
    at: str | None = None  # the position whose order this is, when more than one is owed (`empire.office`)


@dataclass(frozen=True, slots=True)
class Draw(Command):
    society: str
    cards: tuple[str, ...] = ()
    order: str | None = None
    at: str | None = None


@dataclass(frozen=True, slots=True)
class Attack(Command):
    society: str
    source: str
    target: str
    banners: int
    at: str | None = None


@dataclass(frozen=True, slots=True)
class SwapAgent(Command):
    society: str
    target: str  # an office of the same council


@dataclass(frozen=True, slots=True)
class PlayCard(Command):
    society: str
    card: str  # `lion:2`, or `lion` when the record does not know which
    ability: int | None = None
    pay: tuple[str, ...] = ()
    effects: Effects = field(default_factory=Effects)
    act: str | None = None
    effect: str | None = None
    """A catalogue effect id; None for a play of primitive effects only (records before issue 11)."""
    params: tuple[tuple[str, str], ...] = ()
    """The effect's parameters as the catalogue names them, in the order given."""


@dataclass(frozen=True, slots=True)
class Discard(Command):
    society: str
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SwapLoyalty(Command):
    society: str
    slots: tuple[str, str]
    revealed: dict[str, str] | None = None  # slot -> empire seen there once swapped (needed for a sealed set)


@dataclass(frozen=True, slots=True)
class Pass(Command):
    society: str


@dataclass(frozen=True, slots=True)
class NoCard(Command):
    """The society that gave an empire's last order plays no (more) card after it; any other move says the same."""

    society: str


@dataclass(frozen=True, slots=True)
class Reveal(Command):
    society: str
    tokens: dict[str, str]
    salt: str | None = None  # for a committed set: the salt its commitment was made with


@dataclass(frozen=True, slots=True)
class Undo(Command):
    reason: str
    reopen: bool | None = False  # taking back a finished game's last move reopens it: said on purpose, never by
    # default. None re-adjudicates a take-back recorded before that had to be said (events.MoveTakenBack).


@dataclass(frozen=True, slots=True)
class Ruling(Command):
    reason: str
    effects: Effects = field(default_factory=Effects)


@dataclass(frozen=True, slots=True)
class Check(Command):
    counts: dict[str, int]


@dataclass(frozen=True, slots=True)
class Finalize(Command):
    by: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Reopen(Command):
    by: str
    reason: str


def of_event(event: Event, borrowed: bool = False) -> Command | None:
    """The command that a move's first event records, for re-adjudicating it (None for the engine's own events).

    `borrowed` says the order was taken out of sequence (owed after a swap-agent order or a lent position), so the
    command names the position it was taken at, as the person at the table had to.
    """
    match event:
        case ev.LoyaltyRecorded(society=s, tokens=tokens):
            return RecordLoyalty(s, None if tokens is None else dict(tokens))
        case ev.LoyaltyCommitted(society=s, commitment=commitment):
            return RecordLoyalty(s, None, commitment)
        case ev.AgentDeployed(society=s, where=where):
            return Deploy(s, where)
        case ev.AgentRetrieved(society=s, where=where):
            return Retrieve(s, where)
        case ev.BannersRecruited(society=s, placed=placed, order=order):
            return Recruit(s, dict(placed), order, _at(event, borrowed))
        case ev.CardsDrawn(society=s, cards=cards, order=order):
            return Draw(s, tuple(cards), order, _at(event, borrowed))
        case ev.Attacked(society=s, source=source, target=target, banners=banners):
            return Attack(s, source, target, banners, _at(event, borrowed))
        case ev.AgentSwapped(society=s, target=target):
            return SwapAgent(s, target)
        case ev.CardPlayed(society=s, card=card, ability=ability, pay=pay, effects=effects, act=act):
            params = tuple((event.params or {}).items())
            if engine_computed(event.effect, event.outcome):  # the engine computed the changes: the move typed none
                effects, act = Effects(), None
            return PlayCard(s, card, ability, tuple(pay), effects, act, event.effect, params)
        case ev.CardsDiscarded(society=s, cards=cards):
            return Discard(s, tuple(cards))
        case ev.LoyaltySwapped(society=s, slots=(a, b), revealed=revealed):
            return SwapLoyalty(s, (a, b), {a: revealed[a], b: revealed[b]})
        case ev.SwapPassed(society=s):
            return Pass(s)
        case ev.AfterOrderPassed(society=s):
            return NoCard(s)
        case ev.LoyaltyRevealed(society=s, tokens=tokens, salt=salt):
            return Reveal(s, dict(tokens), salt)
        case ev.MoveTakenBack(reason=reason, reopen=reopen):
            return Undo(reason, reopen)
        case ev.RulingApplied(reason=reason, effects=effects):
            return Ruling(reason, effects)
        case ev.TableChecked(counts=counts):
            return Check(dict(counts))
        case ev.GameFinalized(by=by, reason=reason):
            return Finalize(by, reason)
        case ev.GameReopened(by=by, reason=reason):
            return Reopen(by, reason)
    return None


def _at(event: ev.BannersRecruited | ev.CardsDrawn | ev.Attacked, borrowed: bool) -> str | None:
    return f"{event.empire}.{event.office}" if borrowed else None
