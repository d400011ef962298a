"""Decrees as data: the catalogue of card effects the rulebooks name, the card sheet that says which printed card
carries which effects at what cost, and the payment check. Pure values: nothing here reads a file (the loaders
are in ledger.decree_files); the formats are in docs/decrees.md.

A catalogue or sheet is built with `from_data`, which validates and raises DecreeError naming the first problem
on one line. `sheet_problems` lists every problem of a card sheet instead, for `whispers cards check`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal, NoReturn

import msgspec
from msgspec.structs import force_setattr

from whispers.ledger.core.errors import DecreeError
from whispers.ledger.core.names import ABILITIES_PER_CARD, CARDS_PER_DECK
from whispers.ledger.core.plain import CardData, Data, EffectData, SheetData
from whispers.ledger.core.text import is_whole
from whispers.ledger.core.words import _, effect_name, n_, say, term, value_kind

if TYPE_CHECKING:
    from whispers.ledger.core.ruleset import Ruleset

DECKS: tuple[str, ...] = ("bear", "eagle", "elephant", "lion", "horse")
"""The five empire decks (EN 103-104: 40 empire cards, 8 per empire)."""

CARD_SETS: tuple[str, ...] = ("base", "dark-alliances")
"""`dark-alliances`: the expansion's instant (I) decrees, which only REV describes (REV 290; digest §8 item 38)."""

MOMENTS: tuple[str, ...] = ("before", "during", "after")
"""The official window: immediately before, during or immediately after an action of a position you control
(EN 380, FR 400)."""

OFFICIAL_SPECIAL: tuple[str, ...] = ("when-drawn", "never")
REVISED_TYPES: tuple[str, ...] = ("G", "M", "I", "never")
"""REV 290-296: G before an order, M during the active agent's order, I at once when drawn; `never` for Treasure."""

FAMILIES: tuple[str, ...] = ("official", "revised")
ON: tuple[str, ...] = ("any", "attack")
MECHANICS: tuple[str, ...] = ("adjudicated", "recorded")
PARAMETER_KINDS: tuple[str, ...] = ("region", "position", "empire", "count", "amount", "placements")

ID_PATTERN: re.Pattern[str] = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
"""An effect id: kebab-case, in the user's words (fixtures/decrees.toml)."""
SOURCE_PATTERN: re.Pattern[str] = re.compile(r"(EN|FR|IT|ES|REV) \d+(?:-\d+)?")
"""A rulebook line or range: `REV 310-311`, `EN 426`."""

CATALOGUE_KEYS: tuple[str, ...] = ("id", "name", "note", "effects")
DECREE_KEYS: tuple[str, ...] = ("name", "decks", "card_set", "type", "on", "mechanics", "effect", "parameters",
                                "source", "notes", "playable", "sea")
REQUIRED_DECREE_KEYS: tuple[str, ...] = ("name", "decks", "card_set", "type", "on", "mechanics", "effect",
                                         "parameters", "source")
PARAMETER_KEYS: tuple[str, ...] = ("name", "kind", "note")
SHEET_KEYS: tuple[str, ...] = ("id", "name", "note", "example", "decks")
CARD_KEYS: tuple[str, ...] = ("set", "title", "effects")
CARD_EFFECT_KEYS: tuple[str, ...] = ("effect", "cost", "sea")

Family = Literal["official", "revised"]


class Parameter(msgspec.Struct, frozen=True):
    name: str
    kind: str
    note: str = ""

    def to_data(self) -> dict[str, str]:
        data = {"name": self.name, "kind": self.kind}
        if self.note:
            data["note"] = self.note
        return data


class Decree(msgspec.Struct, frozen=True):
    """One card effect as the rulebooks name it."""

    id: str
    name: str
    decks: tuple[str, ...]
    card_set: str
    official: str
    """`before|during|after` (a subset, in that order), `when-drawn` or `never`."""
    revised: str
    """G, M, I or never."""
    on: str
    """`any` order, or `attack`: the effect accompanies an attack order."""
    mechanics: str
    effect: str
    parameters: tuple[Parameter, ...]
    source: tuple[str, ...]
    notes: tuple[str, ...] = ()
    playable: bool = True
    """False for Treasure: only ever discarded as payment."""
    sea: bool = False
    """A card sheet may say that a card's effect crosses the sea (`sea = true` on the card): its text is in no
    rulebook (Armada, digest §8 item 25)."""

    @property
    def adjudicated(self) -> bool:
        return self.mechanics == "adjudicated"

    def timing(self, family: Family) -> str:
        return self.official if family == "official" else self.revised

    def window(self) -> tuple[str, ...]:
        """The official moments, or () for `when-drawn` and `never`."""
        return () if self.official in OFFICIAL_SPECIAL else tuple(self.official.split("|"))

    def timing_words(self, family: Family) -> str:
        """The timing as a person reads it: "before|during an attack of a position you control", "G"."""
        if family == "revised":
            return {"G": "G (before an order)", "M": "M (during the order)", "I": "I (at once, when drawn)",
                    "never": "never played (payment)"}[self.revised]
        if self.official == "never":
            return "never played (payment)"
        if self.official == "when-drawn":
            return "when drawn"
        action = "an attack" if self.on == "attack" else "an action"
        return f"{self.official} {action} of a position you control"

    def to_data(self) -> Data:
        data: Data = {
            "name": self.name,
            "decks": list(self.decks),
            "card_set": self.card_set,
            "type": {"official": self.official, "revised": self.revised},
            "on": self.on,
            "mechanics": self.mechanics,
            "effect": self.effect,
            "parameters": [p.to_data() for p in self.parameters],
            "source": list(self.source),
            "notes": list(self.notes),
            "playable": self.playable,
            "sea": self.sea,
        }
        return data


class Catalogue(msgspec.Struct, frozen=True, dict=True):
    """Every effect the rulebooks name, by id, in file order."""

    id: str
    name: str
    note: str
    decrees: Mapping[str, Decree]

    def __post_init__(self) -> None:
        force_setattr(self, "decrees", MappingProxyType(dict(self.decrees)))

    def __hash__(self) -> int:
        return hash((self.id, tuple(self.decrees)))

    def __contains__(self, effect: object) -> bool:
        return effect in self.decrees

    def __getitem__(self, effect: str) -> Decree:
        return self.decrees[effect]

    def get(self, effect: str) -> Decree:
        """The decree of id `effect`; DecreeError naming the known ids otherwise."""
        decree = self.decrees.get(effect)
        if decree is None:
            raise DecreeError(say("unknown effect {effect}: `whispers decrees` lists the {n} effects the rulebooks "
                                  "name", effect=repr(effect), n=len(self.decrees)))
        return decree

    def in_sets(self, card_sets: Iterable[str]) -> tuple[Decree, ...]:
        """The decrees a game with these card sets can meet (a game names its card sets at its start)."""
        wanted = set(card_sets)
        return tuple(d for d in self.decrees.values() if d.card_set in wanted)

    def to_data(self) -> Data:
        return {"id": self.id, "name": self.name, "note": self.note,
                "effects": {did: d.to_data() for did, d in self.decrees.items()}}

    @classmethod
    def from_data(cls, data: Mapping[str, object], source: str = "<data>") -> Catalogue:
        """Validate `data` (the shape of a catalogue file) and build it. DecreeError names the first problem."""
        return _CatalogueValidator(source).catalogue(data)

    @cached_property
    def content_hash(self) -> str:
        """What a game pins its catalogue by (ledger.pins.content_hash of `to_data()`)."""
        from whispers.ledger.core.pins import content_hash

        return content_hash(self.to_data())


def family(ruleset: Ruleset) -> Family:
    """Which timing column a ruleset reads: REVISED's G/M/I types when decrees may not be played after an order
    (REV 300), the official window otherwise (EN 380)."""
    return "official" if ruleset.play_after_order else "revised"


# ------------------------------------------------------------------------------------------------ card sheets


class CardEffect(msgspec.Struct, frozen=True):
    effect: str
    cost: Mapping[str, int]
    """deck -> symbols of that empire to discard, the played card included (EN 382). Empty for Treasure."""
    sea: bool = False
    """The sheet says this card's effect crosses the sea (Armada: its printed text is in no rulebook)."""

    def cost_list(self) -> tuple[str, ...]:
        return tuple(deck for deck in DECKS for _ in range(self.cost.get(deck, 0)))

    def to_data(self) -> EffectData:
        data: EffectData = {"effect": self.effect}
        if self.cost:
            data["cost"] = {deck: self.cost[deck] for deck in DECKS if deck in self.cost}
        if self.sea:
            data["sea"] = True
        return data


class Card(msgspec.Struct, frozen=True):
    deck: str
    number: int
    set: str
    effects: tuple[CardEffect, ...]
    title: str = ""

    @property
    def ref(self) -> str:
        """`lion:2`, as a play names it."""
        return f"{self.deck}:{self.number}"

    @property
    def wild(self) -> bool:
        """A Treasure card: it pays any one symbol (REV 315)."""
        return any(e.effect == "treasure" for e in self.effects)

    def offers(self, effect: str) -> CardEffect | None:
        return next((e for e in self.effects if e.effect == effect), None)

    def to_data(self) -> CardData:
        data: CardData = {"set": self.set, "effects": [e.to_data() for e in self.effects]}
        if self.title:
            data["title"] = self.title
        return data


class CardSheet(msgspec.Struct, frozen=True, dict=True):
    """A club's transcription of its printed cards: per deck, each card number -> its effects and their costs."""

    id: str
    name: str
    note: str
    example: bool
    """True for a made-up sheet (the printed cards are in no rulebook): shown as such wherever it is named."""
    cards: Mapping[str, Mapping[int, Card]]

    def __post_init__(self) -> None:
        frozen = {deck: MappingProxyType(dict(cards)) for deck, cards in self.cards.items()}
        force_setattr(self, "cards", MappingProxyType(frozen))

    def __hash__(self) -> int:
        return hash((self.id, tuple(self.cards)))

    def card(self, ref: str) -> Card:
        """The card `deck:number`; DecreeError if the sheet has no such card."""
        deck, _, number = ref.partition(":")
        found = self.cards.get(deck, {}).get(int(number)) if is_whole(number) else None
        if found is None:
            raise DecreeError(say("card {card} is not on card sheet {sheet} (a card is DECK:NUMBER, such as lion:2)",
                                  card=repr(ref), sheet=repr(self.id)))
        return found

    def count(self) -> int:
        return sum(len(cards) for cards in self.cards.values())

    def to_data(self) -> SheetData:
        return {"id": self.id, "name": self.name, "note": self.note, "example": self.example,
                "decks": {deck: {str(n): card.to_data() for n, card in cards.items()}
                          for deck, cards in self.cards.items()}}

    @classmethod
    def from_data(cls, data: Mapping[str, object], catalogue: Catalogue, source: str = "<data>") -> CardSheet:
        """Validate `data` against `catalogue` and build the sheet. DecreeError names the first problem."""
        checker = _SheetChecker(source, catalogue)
        sheet = checker.sheet(data)
        if checker.problems:
            raise DecreeError(checker.problems[0])
        assert sheet is not None
        return sheet

    @cached_property
    def content_hash(self) -> str:
        from whispers.ledger.core.pins import content_hash

        return content_hash(self.to_data())


def sheet_problems(data: Mapping[str, object], catalogue: Catalogue, source: str = "<data>") -> list[str]:
    """Every problem of a card sheet, one line each, in file order; [] for a valid sheet."""
    checker = _SheetChecker(source, catalogue)
    checker.sheet(data)
    return checker.problems


# ------------------------------------------------------------------------------------------------- payment


class PlayCheck(msgspec.Struct, frozen=True):
    """What could be checked of a card play, and what could not (said by `verify`)."""

    unchecked: tuple[str, ...] = msgspec.field(default=())


def check_play(catalogue: Catalogue, effect: str, played: str, paid: Iterable[str],
               sheet: CardSheet | None = None, card_sets: Iterable[str] = CARD_SETS) -> PlayCheck:
    """Check a play of `effect` by the card `played` (`lion:2`, or `lion` when the record does not know which),
    paying with the other cards `paid`. The played card counts toward the cost and Treasure is wild (EN 382,
    REV 298, REV 315). Without a sheet, the cost cannot be checked: the result says so. DecreeError names the
    first thing wrong. Whether the cards are in the hand is the engine's to check (it holds the hand)."""
    decree = catalogue.get(effect)
    if not decree.playable:
        raise DecreeError(say("{name} is never played: it is discarded to pay for another card (REV 315)",
                              name=effect_name(decree.name)))
    if decree.card_set not in set(card_sets):
        raise DecreeError(say("{effect} is a {set} decree, and this game plays without that card set "
                              "(digest §8 item 38)", effect=effect, set=decree.card_set))
    paid = tuple(paid)
    deck = played.partition(":")[0]
    for ref in (played, *paid):
        if ref.partition(":")[0] not in DECKS:
            raise DecreeError(say("card {card}: a card is DECK:NUMBER or DECK, the decks being {decks}", card=repr(ref),
                                  decks=", ".join(DECKS)))
    if deck not in decree.decks:
        raise DecreeError(n_("{effect} is on no {deck} card: the rulebooks put it in the {decks} deck",
                             "{effect} is on no {deck} card: the rulebooks put it in the {decks} decks",
                             len(decree.decks), effect=effect, deck=deck, decks=_terms_and(decree.decks)))
    known = [ref for ref in (played, *paid) if ":" in ref]
    repeated = [ref for ref, n in Counter(known).items() if n > 1]
    if repeated:
        raise DecreeError(say("card {card} is named twice: the played card already counts toward the cost (EN 382)",
                              card=repeated[0]))
    if sheet is None:
        cards = _said_and((played, *paid))
        return PlayCheck(unchecked=(_("{effect}: no card sheet, so neither the card's effects nor the cost of "
                                      "{cards} could be checked").format(effect=effect, cards=cards),))
    if ":" not in played:
        return PlayCheck(unchecked=(say("{effect}: the record does not say which {deck} card was played, so its "
                                        "cost could not be checked", effect=effect, deck=deck),))
    card = sheet.card(played)
    offered = card.offers(effect)
    if offered is None:
        raise DecreeError(say("card {card} does not carry {effect} (it carries {effects}, card sheet {sheet})",
                              card=played, effect=effect, effects=_terms_and(e.effect for e in card.effects),
                              sheet=sheet.id))
    unknown = [ref for ref in paid if ":" not in ref]
    if unknown:
        return PlayCheck(unchecked=(say("{effect}: the record does not say which {deck} card was paid, so Treasure "
                                        "could not be told apart and the cost was not checked", effect=effect,
                                        deck=unknown[0]),))
    _match_cost(offered, card, tuple(sheet.card(ref) for ref in paid))
    return PlayCheck()


def _match_cost(offered: CardEffect, played: Card, paid: tuple[Card, ...]) -> None:
    needed = Counter(offered.cost_list())
    cost_words = _terms_and(offered.cost_list())
    if needed[played.deck] < 1:
        raise DecreeError(say("{card} cannot pay for its own {effect}: the cost ({cost}) has no {deck} symbol",
                              card=played.ref, effect=offered.effect, cost=cost_words, deck=played.deck))
    needed[played.deck] -= 1
    wild = 0
    for card in paid:
        if needed[card.deck] > 0 and not card.wild:
            needed[card.deck] -= 1
        elif card.wild:
            wild += 1
        else:
            raise DecreeError(say("{card} pays nothing of {effect}'s cost ({cost}, {played} included): a card pays a "
                                  "symbol of its own empire, Treasure any one (EN 382, REV 315)", card=card.ref,
                                  effect=offered.effect, cost=cost_words, played=played.ref))
    short = sum(needed.values())
    if short > wild:
        missing = _terms_and(tuple(deck for deck, n in needed.items() for _ in range(n)))
        raise DecreeError(n_("{effect} on {card} costs {cost}, the played card included: the payment is {n} more "
                             "card, for {missing} (EN 382)",
                             "{effect} on {card} costs {cost}, the played card included: the payment is {n} more "
                             "cards, for {missing} (EN 382)", short - wild, effect=offered.effect, card=played.ref,
                             cost=cost_words, missing=missing))
    if wild != short:
        raise DecreeError(n_("{effect} on {card} costs {cost}, the played card included: the payment is {n} Treasure "
                             "card too many (EN 382)",
                             "{effect} on {card} costs {cost}, the played card included: the payment is {n} Treasure "
                             "cards too many (EN 382)", wild - short, effect=offered.effect, card=played.ref,
                             cost=cost_words))


def _terms_and(items: Iterable[str]) -> str:
    """Decks (put in words) or effect ids, "a, b and c", in the reader's language (a refusal's list)."""
    items = [term(item) for item in items]
    if len(items) <= 1:
        return "".join(items) or say("nothing")
    return say("{items} and {last}", items=", ".join(items[:-1]), last=items[-1])


def _said_and(items: Iterable[str]) -> str:
    """Cards (`lion:2`, `bear`) listed as the reader's language lists them, each as the notation writes it."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items) or _("nothing")
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


def _and(items: Iterable[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items) or "nothing"
    return ", ".join(items[:-1]) + " and " + items[-1]


# ---------------------------------------------------------------------------------------------- validation


class _CatalogueValidator:
    """Checks catalogue data in a fixed order and stops at the first problem."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str | None, what: str) -> NoReturn:
        prefix = self.source if where is None else say("{file}: {message}", file=self.source, message=where)
        raise DecreeError(say("{file}: {message}", file=prefix, message=what))

    def keys(self, where: str | None, table: Mapping[str, object], allowed: tuple[str, ...],
             required: tuple[str, ...]) -> None:
        for key in table:
            if key not in allowed:
                self.fail(where, say("unknown key {text} (allowed: {allowed})", text=repr(key),
                                     allowed=", ".join(allowed)))
        for key in required:
            if key not in table:
                self.fail(where, say("missing key {text}", text=repr(key)))

    def text(self, where: str | None, key: str, value: object, empty: bool = False) -> str:
        if not isinstance(value, str):
            self.fail(where, say("{text} must be a string, not {kind}", text=key, kind=value_kind(value)))
        if not empty and not value.strip():
            self.fail(where, say("{text} must not be empty", text=key))
        return value

    def choice(self, where: str, key: str, value: object, allowed: tuple[str, ...]) -> str:
        if value not in allowed:
            self.fail(where, say("{text} must be one of {allowed}, not {value}", text=key, allowed=", ".join(allowed),
                                 value=repr(value)))
        assert isinstance(value, str)
        return value

    def strings(self, where: str, key: str, value: object, empty: bool = True) -> tuple[str, ...]:
        if not isinstance(value, list):
            self.fail(where, say("{text} must be an array, not {kind}", text=key, kind=value_kind(value)))
        if not empty and not value:
            self.fail(where, say("{text} must not be empty", text=key))
        return tuple(self.text(where, key, item) for item in value)

    def catalogue(self, data: Mapping[str, object]) -> Catalogue:
        if not isinstance(data, Mapping):
            self.fail(None, say("a catalogue is a table, not {kind}", kind=value_kind(data)))
        self.keys(None, data, CATALOGUE_KEYS, ("id", "name", "effects"))
        ident = self.text(None, "id", data["id"])
        if not ID_PATTERN.fullmatch(ident):
            self.fail(None, say("id {text} must be kebab-case (lower-case letters and digits joined by hyphens)",
                                 text=repr(ident)))
        name = self.text(None, "name", data["name"])
        note = self.text(None, "note", data.get("note", ""), empty=True)
        effects = data["effects"]
        if not isinstance(effects, Mapping) or not effects:
            self.fail(None, say("effects must be a table holding at least one effect"))
        decrees = {did: self.decree(did, fields) for did, fields in effects.items()}
        return Catalogue(ident, name, note, decrees)

    def decree(self, did: str, fields: object) -> Decree:
        where = say("effect {text}", text=did)
        if not ID_PATTERN.fullmatch(did):
            self.fail(where, say("the id must be kebab-case (lower-case letters and digits joined by hyphens)"))
        if not isinstance(fields, Mapping):
            self.fail(where, say("must be a table, not {kind}", kind=value_kind(fields)))
        self.keys(where, fields, DECREE_KEYS, REQUIRED_DECREE_KEYS)
        decks = self.strings(where, "decks", fields["decks"], empty=False)
        for deck in decks:
            self.choice(where, say("a deck"), deck, DECKS)
        if len(set(decks)) != len(decks):
            self.fail(where, say("decks lists a deck twice"))
        card_set = self.choice(where, "card_set", fields["card_set"], CARD_SETS)
        official, revised = self.timing(where, fields["type"])
        if (card_set == "dark-alliances") != (revised == "I"):
            self.fail(where, say("the dark-alliances decrees, and only they, are type I (REV 290)"))
        if (official == "when-drawn") != (revised == "I"):
            self.fail(where, say("type.official is when-drawn exactly when type.revised is I (REV 296)"))
        playable = fields.get("playable", True)
        if not isinstance(playable, bool):
            self.fail(where, say("{text} must be true or false, not {kind}", text="playable",
                                 kind=value_kind(playable)))
        sea = fields.get("sea", False)
        if not isinstance(sea, bool):
            self.fail(where, say("{text} must be true or false, not {kind}", text="sea", kind=value_kind(sea)))
        if (not playable) != (official == "never" or revised == "never"):
            self.fail(where, say("an effect never played (type never) is exactly one with playable = false"))
        parameters = self.parameters(where, fields["parameters"])
        source = self.strings(where, "source", fields["source"], empty=False)
        for ref in source:
            if not SOURCE_PATTERN.fullmatch(ref):
                self.fail(where, say("source {text} must be a rulebook tag and a line or range, such as 'REV 310-311'",
                                     text=repr(ref)))
        return Decree(
            id=did,
            name=self.text(where, "name", fields["name"]),
            decks=decks,
            card_set=card_set,
            official=official,
            revised=revised,
            on=self.choice(where, "on", fields["on"], ON),
            mechanics=self.choice(where, "mechanics", fields["mechanics"], MECHANICS),
            effect=self.text(where, "effect", fields["effect"]),
            parameters=parameters,
            source=source,
            notes=self.strings(where, "notes", fields.get("notes", [])),
            playable=playable,
            sea=sea,
        )

    def timing(self, where: str, value: object) -> tuple[str, str]:
        if not isinstance(value, Mapping):
            self.fail(where, say("type must be a table {{ official = ..., revised = ... }}, not {kind}",
                                 kind=value_kind(value)))
        self.keys(f"{where} type", value, FAMILIES, FAMILIES)
        official = self.text(f"{where} type", "official", value["official"])
        if official not in OFFICIAL_SPECIAL:
            moments = official.split("|")
            if not moments or any(m not in MOMENTS for m in moments) or len(set(moments)) != len(moments) \
                    or sorted(moments, key=MOMENTS.index) != moments:
                self.fail(where, say("type.official must be {special} or a subset of {moments} in that order, not "
                                     "{text}", special=", ".join(OFFICIAL_SPECIAL), moments="|".join(MOMENTS),
                                     text=repr(official)))
        revised = self.choice(where, "type.revised", value["revised"], REVISED_TYPES)
        return official, revised

    def parameters(self, where: str, value: object) -> tuple[Parameter, ...]:
        if not isinstance(value, list):
            self.fail(where, say("{text} must be an array, not {kind}", text="parameters", kind=value_kind(value)))
        seen: list[str] = []
        out: list[Parameter] = []
        for item in value:
            if not isinstance(item, Mapping):
                self.fail(where, say("a parameter must be a table {{ name = ..., kind = ... }}, not {kind}",
                                     kind=value_kind(item)))
            self.keys(f"{where} parameter", item, PARAMETER_KEYS, ("name", "kind"))
            name = self.text(where, "parameter name", item["name"])
            if name in seen:
                self.fail(where, say("parameter {text} is listed twice", text=repr(name)))
            seen.append(name)
            kind = self.choice(where, f"parameter {name}: kind", item["kind"], PARAMETER_KINDS)
            out.append(Parameter(name, kind, self.text(where, "note", item.get("note", ""), empty=True)))
        return tuple(out)


class _SheetChecker:
    """Checks card-sheet data and collects every problem, one line each; the sheet when there are none."""

    def __init__(self, source: str, catalogue: Catalogue) -> None:
        self.source = source
        self.catalogue = catalogue
        self.problems: list[str] = []

    def problem(self, where: str | None, what: str) -> None:
        prefix = self.source if where is None else say("{file}: {message}", file=self.source, message=where)
        self.problems.append(say("{file}: {message}", file=prefix, message=what))

    def sheet(self, data: Mapping[str, object]) -> CardSheet | None:
        if not isinstance(data, Mapping):
            self.problem(None, say("a card sheet is a table, not {kind}", kind=value_kind(data)))
            return None
        for key in data:
            if key not in SHEET_KEYS:
                self.problem(None, say("unknown key {text} (allowed: {allowed})", text=repr(key),
                                       allowed=", ".join(SHEET_KEYS)))
        header: dict[str, str] = {}
        for key in ("id", "name"):
            value = data.get(key)
            if not isinstance(value, str) or not value.strip():
                self.problem(None, say("{text} must be a non-empty string", text=key))
            else:
                header[key] = value
        if "id" in header and not ID_PATTERN.fullmatch(header["id"]):
            self.problem(None, say("id {text} must be kebab-case", text=repr(header["id"])))
        note = data.get("note", "")
        if not isinstance(note, str):
            self.problem(None, say("{text} must be a string, not {kind}", text="note", kind=value_kind(note)))
        example = data.get("example", False)
        if not isinstance(example, bool):
            self.problem(None, say("{text} must be true or false, not {kind}", text="example",
                                   kind=value_kind(example)))
        decks = data.get("decks")
        cards: dict[str, dict[int, Card]] = {}
        if not isinstance(decks, Mapping):
            self.problem(None, say("decks must be a table: [decks.bear.1], [decks.bear.2], ..."))
        else:
            for deck, table in decks.items():
                if deck not in DECKS:
                    self.problem(say("deck {text}", text=deck), say("unknown deck (decks: {decks})",
                                                                       decks=", ".join(DECKS)))
                    continue
                cards[deck] = self.deck(deck, table)
            for deck in DECKS:
                if deck not in decks:
                    self.problem(say("deck {text}", text=deck),
                                 say("missing: a sheet transcribes all five decks ([decks.{text}.1] to "
                                     "[decks.{text}.{n}])", text=deck, n=CARDS_PER_DECK))
        if self.problems:
            return None
        return CardSheet(header["id"], header["name"], str(note), bool(example), cards)

    def deck(self, deck: str, table: object) -> dict[int, Card]:
        if not isinstance(table, Mapping):
            self.problem(say("deck {text}", text=deck),
                         say("must be a table of cards by number, not {kind}", kind=value_kind(table)))
            return {}
        cards: dict[int, Card] = {}
        for number, fields in table.items():
            if not isinstance(number, str) or not is_whole(number) or number.startswith("0"):
                self.problem(say("deck {text}", text=deck),
                             say("card number {value} must be a whole number from 1", value=repr(number)))
                continue
            card = self.card(deck, int(number), fields)
            if card is not None:
                cards[int(number)] = card
        # Numbers as the file gives them, so that a card with a problem of its own is not also "missing".
        declared = {int(n): (f.get("set", "base") if isinstance(f, Mapping) else "base")
                    for n, f in table.items() if isinstance(n, str) and is_whole(n) and not n.startswith("0")}
        base = sorted(n for n, card_set in declared.items() if card_set != "dark-alliances")
        expected = list(range(1, CARDS_PER_DECK + 1))
        missing = [str(n) for n in expected if n not in base]
        extra = [str(n) for n in base if n not in expected]
        if missing or extra:
            detail = "; ".join(part for part in (
                say("missing {numbers}", numbers=", ".join(missing)) if missing else "",
                say("numbered beyond {n}: {numbers}", n=CARDS_PER_DECK, numbers=", ".join(extra)) if extra else "")
                if part)
            self.problem(say("deck {text}", text=deck),
                         say("base cards must be numbered 1 to {n}, {n} cards per empire (EN 103-104): {detail}",
                             n=CARDS_PER_DECK, detail=detail))
        for n, card_set in declared.items():
            if card_set == "dark-alliances" and n <= CARDS_PER_DECK:
                self.problem(say("card {text}", text=f"{deck}:{n}"),
                             say("dark-alliances cards are numbered after the base cards, from {n}",
                                 n=CARDS_PER_DECK + 1))
        return cards

    def card(self, deck: str, number: int, fields: object) -> Card | None:
        where = say("card {text}", text=f"{deck}:{number}")
        before = len(self.problems)
        if not isinstance(fields, Mapping):
            self.problem(where, say("must be a table, not {kind}", kind=value_kind(fields)))
            return None
        for key in fields:
            if key not in CARD_KEYS:
                self.problem(where, say("unknown key {text} (allowed: {allowed})", text=repr(key),
                                        allowed=", ".join(CARD_KEYS)))
        card_set = fields.get("set", "base")
        if card_set not in CARD_SETS:
            self.problem(where, say("{text} must be one of {allowed}, not {value}", text="set",
                                    allowed=", ".join(CARD_SETS), value=repr(card_set)))
            card_set = "base"
        title = fields.get("title", "")
        if not isinstance(title, str):
            self.problem(where, say("{text} must be a string, not {kind}", text="title", kind=value_kind(title)))
            title = ""
        entries = fields.get("effects")
        if not isinstance(entries, list) or not 1 <= len(entries) <= ABILITIES_PER_CARD:
            self.problem(where, say("effects must list the card's one or two effects: "
                                    "[{{ effect = ID, cost = {{ DECK = N, ... }} }}, ...]"))
            return None
        effects = [e for i, entry in enumerate(entries)
                   if (e := self.effect(where, deck, card_set, i, entry)) is not None]
        ids = [e.effect for e in effects]
        if len(set(ids)) != len(ids):
            self.problem(where, say("carries {effect_id} twice", effect_id=ids[0]))
        if "treasure" in ids and len(entries) != 1:
            self.problem(where, say("a Treasure card carries nothing else: it is only discarded as payment (REV 315)"))
        if len(self.problems) > before:
            return None
        return Card(deck, number, str(card_set), tuple(effects), title)

    def effect(self, where: str, deck: str, card_set: str, index: int, entry: object) -> CardEffect | None:
        if not isinstance(entry, Mapping):
            self.problem(where, say("an effect must be a table {{ effect = ID, cost = {{ ... }} }}, not {kind}",
                                    kind=value_kind(entry)))
            return None
        for key in entry:
            if key not in CARD_EFFECT_KEYS:
                self.problem(where, say("unknown key {text} in an effect (allowed: {allowed})", text=repr(key),
                                        allowed=", ".join(CARD_EFFECT_KEYS)))
        effect = entry.get("effect")
        decree = self.catalogue.decrees.get(effect) if isinstance(effect, str) else None
        if decree is None or not isinstance(effect, str):
            self.problem(where, say("unknown effect {text}: not in the catalogue (`whispers decrees` lists them)",
                                    text=repr(effect)))
            return None
        if deck not in decree.decks:
            self.problem(where, say("{effect_id} is not in the {deck} deck: the rulebooks put it in {decks} ({source})",
                                    effect_id=effect, deck=deck, decks=_terms_and(decree.decks),
                                    source=", ".join(decree.source)))
        if decree.card_set != card_set:
            self.problem(where, say("{effect_id} is a {set} effect, on a {text} card", effect_id=effect,
                                    set=decree.card_set, text=card_set))
        cost_value = entry.get("cost", {})
        if not isinstance(cost_value, Mapping):
            self.problem(where, say("{effect_id}: cost must be a table {{ DECK = N, ... }}, not {kind}",
                                    effect_id=effect, kind=value_kind(cost_value)))
            return None
        cost: dict[str, int] = {}
        for symbol, n in cost_value.items():
            if symbol not in DECKS:
                self.problem(where, say("{effect_id}: cost names {text}, not an empire (decks: {decks})",
                                        effect_id=effect, text=repr(symbol), decks=", ".join(DECKS)))
            elif isinstance(n, bool) or not isinstance(n, int) or n < 1:
                self.problem(where, say("{effect_id}: cost {text} = {value} must be a whole number of at least 1",
                                        effect_id=effect, text=symbol, value=repr(n)))
            else:
                cost[symbol] = n
        sea = entry.get("sea", False)
        if not isinstance(sea, bool):
            self.problem(where, say("{effect_id}: sea must be true or false, not {kind}", effect_id=effect,
                                    kind=value_kind(sea)))
        elif sea and not decree.sea:
            self.problem(where, say("{effect_id}: only {effects} may cross the sea (sea = true)", effect_id=effect,
                                    effects=", ".join(d.id for d in self.catalogue.decrees.values() if d.sea)))
        if not decree.playable:
            if cost_value:
                self.problem(where, say("{effect_id} is never played, so it has no cost", effect_id=effect))
            return CardEffect(effect, {})
        if len(cost) != len(cost_value):
            return None
        if not cost:
            self.problem(where, say("{effect_id}: missing cost (the symbols to discard, the card itself included)",
                                    effect_id=effect))
            return None
        if cost.get(deck, 0) < 1:
            self.problem(where, say("{effect_id}: the cost must include a {deck} symbol, since the played card counts "
                                    "toward it (EN 382)", effect_id=effect, deck=deck))
        elif index == 0 and cost != {deck: 1}:
            self.problem(where, say("{effect_id}: the first effect costs the card alone ({text} = 1): \"the first "
                                    "ability on each card can be played without discarding additional cards\" (EN 382)",
                                    effect_id=effect, text=deck))
        return CardEffect(effect, MappingProxyType(cost), sea is True)
