"""Domain events: the facts of a game, with their consequences, as the record keeps them.

Each event is a frozen msgspec Struct of plain values. `to_fact` gives the dict the store keeps (msgpack);
`from_fact` reads it back. Replaying facts never re-runs a rule: everything a rule decided is in the fact.

`MOVE` marks the events that begin a move a person made (what a take-back undoes); the others are
consequences the engine records on its own (skipped offices, supply checks, phase changes, scoring).
`private` names the field (if any) that only `society` may see.

Events are versioned the way eventsourcing versions its own: a class whose fields change raises its
`class_version` and gains a static `upcast_vN_vM(fact)` that rewrites a stored fact of version N in place, so
every record ever written still loads. A fact of version 1 carries no version (so facts written before
versioning are version 1). Events hold codes and parameters, never sentences: the words are chosen when shown.
"""

from collections.abc import Iterable, Sequence
from functools import cache
from typing import ClassVar, Final, NotRequired, TypedDict, cast

import msgspec

from whispers.ledger.core.errors import StoreError
from whispers.ledger.core.plain import Data, filled

_PACKED: Final = msgspec.msgpack.Encoder()
_PLAIN: Final = msgspec.msgpack.Decoder()
_OF_ANY_DATA: Final = frozenset({"GameStarted", "GameDescribed"})
"""The events holding data a file or a person gave (a board, a ruleset, metadata), which may hold values that msgspec
would write as another type (a date as text): `to_fact` thaws them value by value, as they are."""

Where = str
"""An agent's place: a council position `empire.office`, or a region id for a field agent."""


class EmpireScore(TypedDict):
    slot: str
    multiplier: int
    cities: int
    field_agents: int
    points: int


class SocietyScore(TypedDict):
    """One society's score and its breakdown (ledger.scoring.society_score)."""

    total: int
    empires: dict[str, EmpireScore]
    concealed: int
    concealed_points: int
    swaps: int
    cards: int


class TrailStep(TypedDict):
    """One step of a final scoring's tie-break trail (GameScored.trail)."""

    step: str
    score: NotRequired[int]
    societies: NotRequired[tuple[str, ...]]
    rule: NotRequired[str]
    society: NotRequired[str]
    outcome: NotRequired[str]


class TableChanges(TypedDict, total=False):
    """What one `GameDescribed` changes of a game's table facts (ledger/core/meta.py): only the fields it names, a
    value setting one and None clearing it; `seats` names only the seats it changes (a name None clears one).
    `meta.problem` says whether data given as changes is one."""

    seats: dict[str, str | None]
    title: str | None
    place: str | None
    event: str | None
    round: str | None
    table: str | None
    tags: Sequence[str]  # a list as given, a tuple as a stored event is read back
    archived: bool


class Event(msgspec.Struct, frozen=True, tag_field="type", tag=True, gc=False):
    MOVE: ClassVar[bool] = False
    private: ClassVar[str | None] = None
    class_version: ClassVar[int] = 1

    def to_fact(self) -> Data:
        if type(self).__name__ not in _OF_ANY_DATA:
            try:  # in C, through msgpack: thawed value by value in Python, a final scoring cost 40 us
                fact = _PLAIN.decode(_PACKED.encode(self))
            except (TypeError, ValueError, OverflowError):  # a value msgspec does not write: thawed as below
                pass
            else:
                return fact if self.class_version == 1 else {"type": fact.pop("type"),
                                                              "class_version": self.class_version, **fact}
        fact = {"type": type(self).__name__}
        if self.class_version > 1:
            fact["class_version"] = self.class_version
        for name in self.__struct_fields__:
            fact[name] = _thaw(getattr(self, name))
        return fact


class Effects(msgspec.Struct, frozen=True):
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


class GameStarted(Event, frozen=True):
    name: str
    players: tuple[str, ...]
    first: str
    ruleset: Data
    board: Data
    board_hash: str
    ruleset_hash: str
    card_sets: tuple[str, ...] = ("base", "dark-alliances")
    """The card sets the game plays with (ledger.decrees.CARD_SETS): `base`, and `dark-alliances` when it is named."""
    cards: Data | None = None
    """The card sheet the game pins (ledger.decrees.CardSheet.to_data), embedded like the board; None: no sheet."""
    cards_hash: str | None = None

    class_version = 3

    @staticmethod
    def upcast_v1_v2(fact: Data) -> None:
        """Version 1, before rulesets were pinned by content, had no ruleset hash: hash the embedded ruleset."""
        from whispers.ledger.core.content import content_hash

        fact["ruleset_hash"] = content_hash(cast("Data", fact["ruleset"]))

    @staticmethod
    def upcast_v2_v3(fact: Data) -> None:
        """Version 2, before a game named its card sets and pinned a card sheet: no sheet, and both card sets, as
        the engine allowed every effect then (a record that played a Dark alliances decree still loads and
        verifies)."""
        fact["card_sets"] = ["base", "dark-alliances"]
        fact["cards"] = None
        fact["cards_hash"] = None


class LoyaltyRecorded(Event, frozen=True):
    """A society's five tokens as placed at setup, or `None` when the set is sealed until revealed."""

    MOVE = True
    private = "tokens"
    society: str
    tokens: dict[str, str] | None


class LoyaltyCommitted(Event, frozen=True):
    """A society sealed its loyalty set from its own seat: the record keeps only `commitment`, a salted hash of
    the five tokens as placed (ledger/core/sealing.py), until the reveal gives tokens and salt that match it. Public:
    the hash tells nothing of the set."""

    MOVE = True
    society: str
    commitment: str


# --- flow ------------------------------------------------------------------------------------------


class PhaseStarted(Event, frozen=True):
    round: int
    phase: str


class Skipped(Event, frozen=True):
    """A society's turn in a phase passed over by the engine; `reason` is one of SKIP_REASONS."""

    class_version = 2
    society: str
    phase: str
    reason: str

    @staticmethod
    def upcast_v1_v2(fact: Data) -> None:
        """Version 1 kept the reason in English."""
        fact["reason"] = _code_of(fact["reason"], _SKIP_WORDS_V1)


class EmpireTurnStarted(Event, frozen=True):
    empire: str


class OfficeSkipped(Event, frozen=True):
    """An office passed over: `reason` is "uncontrolled" (no agent) or "no-legal-order" at `positions` (the
    position or positions its controller could have acted from)."""

    class_version = 2
    empire: str
    office: str
    controller: str | None
    reason: str
    positions: tuple[str, ...] = ()

    @staticmethod
    def upcast_v1_v2(fact: Data) -> None:
        """Version 1 kept the reason in English: "no agent controls it" or "no legal order at P, Q"."""
        words = fact["reason"]
        if words == "no agent controls it":
            fact["reason"], fact["positions"] = "uncontrolled", []
        elif isinstance(words, str) and words.startswith("no legal order at "):
            fact["reason"] = "no-legal-order"
            fact["positions"] = words.removeprefix("no legal order at ").split(", ")
        else:
            raise ValueError(f"an office skipped for an unknown reason: {words!r}")


class SupplyChecked(Event, frozen=True):
    """The check at the end of an empire's turn: `losses` maps region -> [empire, banners returned]."""

    empire: str
    scope: str
    losses: dict[str, tuple[str, int]]


class RoundEnded(Event, frozen=True):
    round: int


class FirstPlayerPassed(Event, frozen=True):
    previous: str
    first: str


class GameScored(Event, frozen=True):
    """Final scoring with the full breakdown and the tie-break trail.

    Each step of `trail` is a dict: {"step": "highest", "score": N, "societies": [...]}, then one
    {"step": "tie-break", "rule": RULE, "societies": [...]} per tie-break used (RULE as the ruleset names it),
    then {"step": "winner", "society": S} or {"step": "still-tied", "outcome": "shared" | "none"}.
    """

    class_version = 2
    scores: dict[str, SocietyScore]
    ranking: tuple[str, ...]
    winner: str | None
    tied: tuple[str, ...]
    trail: tuple[TrailStep, ...]

    @staticmethod
    def upcast_v1_v2(fact: Data) -> None:
        """Version 1 kept the trail as English sentences."""
        fact["trail"] = [_trail_step_v1(line) for line in cast("list[str]", fact["trail"])]


# --- agents ----------------------------------------------------------------------------------------


class AgentRetrieved(Event, frozen=True):
    MOVE = True
    society: str
    where: Where


class AgentDeployed(Event, frozen=True):
    MOVE = True
    society: str
    where: Where


# --- orders ----------------------------------------------------------------------------------------


class BannersRecruited(Event, frozen=True):
    MOVE = True
    society: str
    empire: str
    office: str
    order: str
    counted: int
    amount: int
    placed: dict[str, int]


class CardsDrawn(Event, frozen=True):
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


class Attacked(Event, frozen=True):
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
    cards: tuple[str, ...] = ()
    """The decree effects played with this attack, in the order ledger.decree_effects registers them (issue 11)."""
    added: int = 0
    """Banners of the attacking empire that joined the attacking army from its reserve (add-N-to-attack)."""
    reinforced: tuple[tuple[str, int], ...] = ()
    """(region, banners) that joined the attacking army from another region (a card's reinforcement)."""
    returned: dict[str, int] | None = None
    """region -> the attacker's killed banners that came back there from the reserve (a card's)."""

    class_version = 2

    @staticmethod
    def upcast_v1_v2(fact: Data) -> None:
        fact["cards"] = []
        fact["added"] = 0
        fact["reinforced"] = []
        fact["returned"] = None

    @property
    def army(self) -> int:
        """The banners that fought: those moved from the source and those a card added."""
        return self.banners + self.added + sum(n for _, n in self.reinforced)


class AgentSwapped(Event, frozen=True):
    """The swap-agent order: the active agent moved to `target` (trading places with `displaced`)."""

    MOVE = True
    society: str
    empire: str
    office: str
    target: str
    displaced: str | None
    options: tuple[str, ...]


# --- cards -----------------------------------------------------------------------------------------


class CardPlayed(Event, frozen=True):
    """A card play: the card, its cost (the cards that left the hand) and its effects, all explicit.

    `act` is a council position whose order replaces the active one (a card that lends a position).
    """

    MOVE = True
    class_version = 2
    society: str
    card: str
    ability: int | None
    pay: tuple[str, ...]
    effects: Effects
    act: str | None
    effect: str | None = None
    """The catalogue effect played (fixtures/decrees.toml), or None for a play recorded before issue 11."""
    params: dict[str, str] | None = None
    """The effect's parameters as the catalogue names them (`region` -> `frost-gate`)."""
    outcome: dict[str, str] | None = None
    """What the engine decided of an effect it adjudicates, where the play alone does not say it (Midnight Oil:
    `repeat` = `during`, the order to come, or `after`, the order just given)."""

    @staticmethod
    def upcast_v1_v2(fact: Data) -> None:
        fact["effect"] = None
        fact["params"] = {}
        fact["outcome"] = {}


class CardsDiscarded(Event, frozen=True):
    MOVE = True
    society: str
    cards: tuple[str, ...]


# --- decrees (issue 11): what a card effect the engine adjudicates decided ------------------------------


class SupplySuspended(Event, frozen=True):
    """Hoard (REV 355, "ignore supply checks until the end of the turn"): the supply check that ends this empire's
    turn is not made. The turn is read as the round (digest §8 item 37): a check is owed before the next one."""

    empire: str
    effect: str


class DeferredSupplyChecked(Event, frozen=True):
    """The supply check Hoard deferred, run at the end of the round (REV 355: "perform a supply check before the
    beginning of the next turn"): over the empires whose checks were suspended (`empires`), or every region when the
    ruleset checks the whole board. losses: region -> (empire, banners) back to the reserve."""

    empires: tuple[str, ...]
    scope: str
    losses: dict[str, tuple[str, int]]


class CardAttacked(Event, frozen=True):
    """A combat a card brings on after an attack (the Bear's extra attack, REV 310-311): from the region the attack
    just conquered, resolved by the rules' combat (EN "Attack Action": fort loss, 1:1 losses, control after). It is
    a consequence of the attack that carried the card, not an order: the sequence does not move on."""

    society: str
    effect: str
    empire: str
    source: str
    target: str
    banners: int
    held_by: str
    defending: int
    fort_kill: int
    attacker_losses: int
    defender_losses: int
    controller: str


# --- loyalty ---------------------------------------------------------------------------------------


class LoyaltySwapped(Event, frozen=True):
    MOVE = True
    society: str
    slots: tuple[str, str]
    revealed: dict[str, str]


class SwapPassed(Event, frozen=True):
    MOVE = True
    society: str


class LoyaltyRevealed(Event, frozen=True):
    MOVE = True
    society: str
    tokens: dict[str, str]
    salt: str | None = None
    """The salt of a committed set (LoyaltyCommitted), which the reveal shows so anyone can check the match."""

    class_version = 2

    @staticmethod
    def upcast_v1_v2(fact: Data) -> None:
        """Version 1, before a set could be committed, had no salt."""
        fact["salt"] = None


# --- the table -------------------------------------------------------------------------------------


class AfterOrderPassed(Event, frozen=True):
    """The society that took an empire's last order plays no (more) card after it: the supply check follows."""

    MOVE = True
    society: str


class MoveTakenBack(Event, frozen=True):
    """A take-back of the last move still standing: `move` is the 1-based index of its first event.
    `reopen` marks the take-back that reopened a finished game (its scoring is undone with the move)."""

    reason: str
    move: int
    reopen: bool | None = False
    """None on a take-back recorded before reopening a finished game had to be said (version 1), when any
    take-back of a finished game reopened it."""

    class_version = 2

    @staticmethod
    def upcast_v1_v2(fact: Data) -> None:
        fact["reopen"] = None


class MoveAmended(Event, frozen=True):
    """An amendment (issue 32): the move first recorded at event `move` is corrected. It follows the take-backs of
    that move and of every standing move after it (`moves` of them, newest first, each a MoveTakenBack with the same
    reason), and comes before the corrected move and the later moves decided again on the corrected game: all one
    append. The original moves stay in the record; this marker says why they no longer stand. Not a move."""

    move: int
    reason: str
    moves: int


class RulingApplied(Event, frozen=True):
    MOVE = True
    reason: str
    effects: Effects


class TableChecked(Event, frozen=True):
    """The table's physical banner count; `mismatches` maps region -> [recorded, counted]."""

    MOVE = True
    counts: dict[str, int]
    mismatches: dict[str, tuple[int, int]]


class GameForked(Event, frozen=True):
    """This game's record up to here is `parent`'s first `at` events ("what if"); `head` is their chain hash.

    The head is a digest of every fact of those events, the hidden ones included (loyalty sets, drawn cards), and
    those facts are few and shown otherwise: whoever sees the rest of the fork could try each loyalty set or card
    against it. So it is private to the record (no society is its owner): every seat and the spectator see the
    marker with `head` withheld (projections/visibility.py; DESIGN.md "A digest is a secret's shadow")."""

    private = "head"
    parent: str
    at: int
    head: str


class GameFinalized(Event, frozen=True):
    """The director's seal on a finished game: nothing more is recorded until a GameReopened."""

    by: str
    reason: str = ""


class GameReopened(Event, frozen=True):
    """The director lifts the seal of a finalised game, for `reason` (moves, take-backs, rulings may follow)."""

    by: str
    reason: str


class GameDescribed(Event, frozen=True):
    """Who, when, where (ledger/core/meta.py): `changes` holds only what changes (None clears a field); `time` is when
    it was recorded (UTC ISO 8601, the recording machine's clock), None when the source did not say. Never part of
    the game state, never a move."""

    changes: TableChanges
    time: str | None


EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls for cls in Event.__subclasses__()
}


_ATOMS = frozenset({str, int, float, bool, type(None)})


def _thaw(value: object) -> object:
    if type(value) in _ATOMS:  # most values: answered before the three checks below (a final scoring has 300)
        return value
    if isinstance(value, Effects):
        return {name: _thaw(getattr(value, name)) for name in value.__struct_fields__}
    if isinstance(value, tuple | list):
        return [_thaw(v) for v in value]
    if isinstance(value, dict):
        return {k: _thaw(v) for k, v in value.items()}
    return value


def _freeze(value: object) -> object:
    """A plain value with its lists as tuples (all the way down): a frozen event's field."""
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return {k: _freeze(v) for k, v in value.items()}
    return value


SKIP_REASONS: tuple[str, ...] = ("no-agent-on-board", "no-agent-left", "no-open-position", "too-few-concealed")
_SKIP_WORDS_V1 = {
    "no agent on the board": "no-agent-on-board",
    "no agent left": "no-agent-left",
    "no open position": "no-open-position",
    "fewer than two concealed tokens": "too-few-concealed",
}
_TIE_BREAK_WORDS_V1 = {
    "fewest loyalty swaps": "fewest_swaps",
    "most concealed loyalties": "most_concealed",
    "most cards in hand": "most_cards",
}


def _code_of(words: object, table: dict[str, str]) -> str:
    if words not in table:
        raise ValueError(f"an unknown reason: {words!r}")
    return table[words]


def _trail_step_v1(line: str) -> dict[str, object]:
    import re

    if m := re.fullmatch(r"highest score (-?\d+): (.*)", line):
        return {"step": "highest", "score": int(m[1]), "societies": m[2].split(", ")}
    if m := re.fullmatch(r"tie-break, (.*?): (.*)", line):
        return {"step": "tie-break", "rule": _code_of(m[1], _TIE_BREAK_WORDS_V1), "societies": m[2].split(", ")}
    if m := re.fullmatch(r"still tied after every tie-break: (a shared win|no winner)", line):
        return {"step": "still-tied", "outcome": "shared" if m[1] == "a shared win" else "none"}
    if m := re.fullmatch(r"(\w+) wins", line):
        return {"step": "winner", "society": m[1]}
    raise ValueError(f"a tie-break step that cannot be read: {line!r}")


def upcast(fact: Data) -> tuple[type[Event], Data]:
    """The event class of a stored fact and its fields at the class's current version (a copy)."""
    cls = EVENT_TYPES[cast(str, fact["type"])]  # not text: a KeyError or TypeError, a malformed fact
    values = {k: v for k, v in fact.items() if k not in ("type", "class_version")}
    version = fact.get("class_version", 1)
    if not isinstance(version, int) or not 1 <= version <= cls.class_version:
        raise ValueError(f"{fact['type']} version {version!r}: this whispers reads up to {cls.class_version}")
    while version < cls.class_version:
        getattr(cls, f"upcast_v{version}_v{version + 1}")(values)
        version += 1
    return cls, values


def from_fact(fact: Data) -> Event:
    """Read a stored fact back into its event; raises KeyError/TypeError/ValueError on a malformed fact."""
    cls, values = upcast(fact)
    for name, value in values.items():
        if name == "effects":
            values[name] = filled(Effects, {k: _freeze(v) for k, v in cast("Data", value).items()})
        elif not (cls is GameStarted and name in ("ruleset", "board", "cards")):
            values[name] = _freeze(value)
    return cls(**values)


def from_frozen_fact(fact: Data) -> Event:
    """`from_fact` for a fact decoded with its lists as tuples already (ledger.transcoder.decode_frozen), which it may
    consume: at the class's current version, the event is built from it as it is, without copying or freezing
    it value by value (the lean read path of a game's load). A game's first fact comes with lists (its board and
    ruleset data as their files give them) and is read as `from_fact` reads it."""
    if fact.get("type") == "GameStarted":
        return from_fact(fact)
    cls = EVENT_TYPES[cast(str, fact.pop("type"))]  # not text: a KeyError or TypeError, a malformed fact
    version = fact.pop("class_version", 1)
    if version != cls.class_version:  # an older fact: upcast the way every fact was read before
        return from_fact(cast("Data", _thaw({**fact, "type": cls.__name__, "class_version": version})))
    if "effects" in fact:
        fact["effects"] = filled(Effects, cast("Data", fact["effects"]))
    return cls(**fact)


@cache
def stand_in(cls: type[Event]) -> Event:
    """An event of type `cls` with none of its fields read (each None): what a reader that needs only the type of
    an event is given in its place (transcoder.decode_events with `read_whole`). One per type, shared."""
    return cls(*[None] * len(cls.__struct_fields__))


def read_frozen_facts(facts: Iterable[Data], source: str) -> list[Event]:
    """`read_facts` for facts decoded with their lists as tuples (ledger.transcoder.decode_frozen); it consumes them."""
    events: list[Event] = []
    append = events.append
    try:
        for fact in facts:
            append(from_frozen_fact(fact))
    except (KeyError, TypeError, ValueError, AttributeError):
        raise StoreError(f"{source}: event {len(events) + 1} is not a whispers event") from None
    return events


def read_facts(facts: Iterable[Data], source: str) -> list[Event]:
    """The events of stored facts, upcast; StoreError names the first fact that is not an event."""
    events = []
    for index, fact in enumerate(facts, start=1):
        try:
            events.append(from_fact(fact))
        except (KeyError, TypeError, ValueError, AttributeError):
            raise StoreError(f"{source}: event {index} is not a whispers event") from None
    return events
