"""Commands: what a person at the table says happened. `rules.decide` turns one into events or refuses it.

Every command that a society makes names it first; the engine checks that it is that society's move.
"""

from dataclasses import dataclass, field

from ledger.events import Effects


@dataclass(frozen=True, slots=True)
class Command:
    pass


@dataclass(frozen=True, slots=True)
class RecordLoyalty(Command):
    society: str
    tokens: dict[str, str] | None  # slot -> empire, or None for a sealed set


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


@dataclass(frozen=True, slots=True)
class Undo(Command):
    reason: str
    reopen: bool = False  # taking back a finished game's last move reopens it: said on purpose, never by default


@dataclass(frozen=True, slots=True)
class Ruling(Command):
    reason: str
    effects: Effects = field(default_factory=Effects)


@dataclass(frozen=True, slots=True)
class Check(Command):
    counts: dict[str, int]
