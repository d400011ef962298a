"""One path for a move, for every face: a line typed in the reader's language read into the notation's canonical
ids, and every legal option turned into the lines that can record it (a template to fill in, or a whole move),
with the choices of each field and a hint in the reader's words.

The notation (ledger/core/notation.py) reads canonical ids only; what a person typed or tapped comes through here."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict

from whispers.ledger.core.errors import NotationError
from whispers.ledger.core.names import MOVE_VERBS, SOCIETIES
from whispers.ledger.core.words import (
    KEYS,
    METAVARS,
    TERMS,
    effect_word,
    key_word,
    metavar,
    plural,
    position,
    say,
    term,
    terms,
    tongue,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from whispers.ledger.core.legal import Choices, Option
    from whispers.ledger.core.prompt import Prompt


def canonical_line(text: str) -> str:
    """`text` as the reader typed it (their language's societies, positions, slots and verbs: `Corbeau Blanc
    Récupérer Ours Commissaire`) in canonical ids (`raven retrieve bear.sheriff`); quoted text stays as typed."""
    code = tongue().code
    if code == "en" and not _names_an_order(text):
        return text  # English is the notation itself, but for an order named by its words (said_line)
    from whispers.projections.language import canonical

    return canonical(text, code)


def _names_an_order(text: str) -> bool:
    """Whether an English line names an order by its words (`raven Recruit 1 per farm pinewatch=1`)."""
    folded = text.casefold()
    return any(term(order, "order").casefold() in folded for order in TERMS["order"] if order not in MOVE_VERBS)


NO_SOCIETY = ("undo", "ruling", "finalize", "reopen", "check", "amend")
"""Verbs written without a society in front: never given an implied one."""

_KIND = {word: kind for kind in ("verb", "society", "empire", "office", "slot") for word in TERMS[kind]}
"""The ids a line holds that the reader has a word for: a verb first (swap-agent, not the order swap_agent)."""


def said_line(line: str) -> str:
    """A canonical line in the reader's words, as `canonical_line` reads it back (the inverse): each society, verb,
    slot, empire and position as the rulebook of the reader's language prints it, an order named by its words in
    place of its verb (`Recruter 1 par Ferme` for `recruit order=recruit_per_farm`), the notation's keys in that
    language (`payer=`), a card's empire (`Ours:7`), and a decree effect by its name in guillemets
    (`effet=«Renforts»`); regions, numbers and quoted text (a reason) as they are. English is the notation itself,
    but for an order, named by its words there too (`Recruit 1 per farm`): no internal id in what a player reads."""
    english = tongue().code == "en"
    if english and " order=" not in line:
        return line
    from whispers.projections.language import QUOTED

    out, at = [], 0
    for found in (*QUOTED.finditer(line), None):
        out.append(_said_words(line[at:found.start() if found is not None else len(line)], english))
        if found is not None:
            out.append(found.group())
            at = found.end()
    return "".join(out)


def said_label(label: str) -> str:
    """A move's label (`m12 R1 deploy 8`, `m15 1.elephant.marshal`: projections/labels.py) in the reader's words
    (`m12 R1 Déployer 8`, `m15 1.Éléphant.Maréchal`), as `--at` reads it back."""
    if tongue().code == "en":
        return label
    return "".join(term(part, _KIND[part]) if part in _KIND else part for part in re.split(r"([ .#])", label))


ORDER_VERBS = ("recruit", "draw")
"""The verbs whose line may name its order (`order=`): said as the order's words in the verb's place."""


def _said_words(text: str, orders_only: bool = False) -> str:
    words, out, i = text.split(" "), [], 0
    while i < len(words):
        word, after = words[i], words[i + 1] if i + 1 < len(words) else ""
        if word in ORDER_VERBS and after.startswith("order=") and after[6:] in TERMS["order"]:
            out.append(term(after[6:], "order"))
            i += 2
            continue
        out.append(word if orders_only else _said_word(word))
        i += 1
    return " ".join(out)


def _said_word(word: str) -> str:
    key, eq, value = word.partition("=")
    if eq and key == "effect" and value:
        return f"{key_word(key)}=«{effect_word(value)}»"
    if eq:
        said_key = key_word(key) if key in KEYS else term(key, _KIND[key]) if key in _KIND else key
        return f"{said_key}={said_value(value)}"
    if word == "sealed":
        return key_word(word)
    if word.count(".") == 1 and _position(word):
        return position(word)
    return said_value(word)


def _position(word: str) -> bool:
    left, _dot, right = word.partition(".")
    return _KIND.get(left) == "empire" and _KIND.get(right) == "office"


def said_value(value: str) -> str:
    """A value's parts (`bear:7`, `bear.sheriff:lion.marshal`, `bear:5,lion`) in words: `Ours:7`."""
    parts = re.split(r"([:,])", value)
    for i, part in enumerate(parts):
        if _position(part):
            left, _dot, right = part.partition(".")
            parts[i] = f"{term(left, 'empire')}.{term(right, 'office')}"
        elif part in _KIND:
            parts[i] = term(part, _KIND[part])
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class Template:
    """One way to record a legal option: `line` (canonical notation), whole (`complete`) or a template whose
    blanks are the `fields` still to fill (each with its legal choices; a free field's choices are empty), and a
    `hint` in the reader's words."""

    line: str
    complete: bool
    hint: str = ""
    verb: str = ""
    fields: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def said(self) -> str:
        """The line in the reader's words."""
        return said_line(self.line)


def _order_words(choices: Choices, order: str = "attack") -> str:
    """The order being given, in words: `Recruter 2 (Ours Intendant)`."""
    return f"{term(choices.get('order', order), 'order')} ({position(choices['at'])})"


def templates(options: tuple[Option, ...]) -> list[Template]:
    """Every legal option (ledger/core/legal.py) as the lines that record it. An order's `order=` and `at=` are written
    only where the same society has two options of that verb (the hint names the order in words)."""
    found: list[Template] = []
    seen: dict[tuple[str, str], int] = {}
    for o in options:
        seen[o.society, o.verb] = seen.get((o.society, o.verb), 0) + 1
    for o in options:
        s, ch, verb = o.society, o.choices, o.verb
        named = f" order={ch['order']} at={ch['at']}" if seen[s, verb] > 1 and "order" in ch else ""
        slots = {slot: tuple(ch.get("empires", ())) for slot in TERMS["slot"]}
        match verb:
            case "loyalty":
                found += [Template(f"{s} loyalty sealed", True, verb=verb),
                          Template(f"{s} loyalty " + " ".join(f"{slot}=" for slot in TERMS["slot"]), False,
                                   verb=verb, fields=slots)]
            case "retrieve" | "deploy":  # the position in the reader's words beside it, where they differ
                found += [Template(f"{s} {verb} {w}", True, "" if position(w) == w else position(w), verb)
                          for w in ch["where"]]
            case "recruit":
                complete = ch["amount"] == 0
                hint = _order_words(ch) + ": " + say("place {amount} in: {regions}", amount=ch["amount"],
                                                     regions=", ".join(ch["regions"]))
                found.append(Template(f"{s} recruit{named}" + ("" if complete else " "), complete, hint, verb,
                                      {region: () for region in ch["regions"]}))
            case "draw":
                found.append(Template(f"{s} draw{named}", True,
                                      _order_words(ch) + ": " + plural(ch["count"], "card"), verb))
            case "attack":
                found += [Template(f"{s} attack{named} {a} {b} ", False,
                                   _order_words(ch) + ": " + (say("1 to {n} banners", n=n) if n > 1
                                                              else plural(1, "banner")), verb,
                                   {"banners": tuple(str(i) for i in range(1, n + 1))})
                          for a, b, n in ch["attacks"]]
            case "swap-agent":
                found += [Template(f"{s} swap-agent {t}", True, term(t, "office"), verb) for t in ch["targets"]]
            case "play":
                cards: dict[str, tuple[str, ...]] = ch.get("cards", {})
                effects = sorted({e for playable in cards.values() for e in playable})
                # each effect by its name, and the id Tab completes (`effect=` takes it in every language)
                hint = (say("CARD effect=ID [PARAM=VALUE ...] [pay=CARD,...]; Tab completes; playable now: {effects}",
                            effects=", ".join(e if effect_word(e) == e else f"{effect_word(e)} ({e})"
                                              for e in effects)) if effects
                        else "CARD [ability=N] [pay=...] [add=/kill=/move=/agent=/act=...]")
                found.append(Template(f"{s} play ", False, hint, verb, {"card": tuple(cards)}))
            case "discard":
                found.append(Template(f"{s} discard ", False, plural(ch["count"], "card"), verb))
            case "swap-loyalty":
                found.append(Template(f"{s} swap-loyalty ", False, say("two of: {slots}", slots=terms(
                    [term(t, "slot") for t in ch["slots"]])), verb, {"slots": tuple(ch["slots"])}))
            case "pass" | "no-card":
                found.append(Template(f"{s} {verb}", True, verb=verb))
            case "reveal":
                found.append(Template(f"{s} reveal " + " ".join(f"{slot}=" for slot in TERMS["slot"]), False,
                                      verb=verb, fields=slots))
    return found


def summary(option: Option, limit: int = 12) -> str:
    """A legal option in one line, as `status` lists it: the move as the notation starts it, in the reader's words
    (its society, verb, slots and placeholders: `Recruter RÉGION=N`), its choices in brackets."""
    notation, hint = _summary(option, limit)
    said = re.sub(r"\b[A-Z]{2,}\b", lambda found: metavar(found[0]) if found[0] in METAVARS else found[0],
                  " | ".join(said_line(part) for part in notation.split(" | ")))
    return f"{said}  ({hint})" if hint else said


def _summary(option: Option, limit: int) -> tuple[str, str]:
    """The notation that starts the move (the reader's words but for the line's own) and its choices in words."""
    ch = option.choices
    s = option.society

    def some(items: Iterable[object]) -> str:
        items = list(items)
        more = ", … " + say("({n} in all)", n=len(items)) if len(items) > limit else ""
        return ", ".join(str(i) for i in items[:limit]) + more

    def held() -> str:
        return say("holds {cards}", cards=", ".join(f"{term(e)}×{n}" for e, n in ch["hand"].items()))

    slots = " ".join(f"{slot}=E" for slot in TERMS["slot"])
    match option.verb:
        case "loyalty":
            return f"{s} loyalty {slots}   |   {s} loyalty sealed", ""
        case "retrieve" | "deploy":
            return f"{s} {option.verb} {{{some(position(w) for w in ch['where'])}}}", ""
        case "recruit":
            return f"{s} recruit REGION=N …", say("{at} {order}: {banners} into {regions}", at=position(ch["at"]),
                                                   order=term(ch["order"], "order"),
                                                   banners=plural(ch["amount"], "banner"), regions=some(ch["regions"]))
        case "draw":
            return f"{s} draw", f"{position(ch['at'])} {term(ch['order'], 'order')}: {plural(ch['count'], 'card')}"
        case "attack":
            attacks = [f"{a}→{b} (≤{n})" for a, b, n in ch["attacks"]]
            return f"{s} attack FROM TO N", f"{position(ch['at'])}: {some(attacks)}"
        case "swap-agent":
            targets = ", ".join(term(t, "office") for t in ch["targets"])
            return f"{s} swap-agent {{{targets}}}", position(ch["at"])
        case "play":
            return f"{s} play CARD …", held()
        case "discard":
            return f"{s} discard {plural(ch['count'], 'card')}", held()
        case "swap-loyalty":
            return f"{s} swap-loyalty SLOT SLOT", say("concealed: {slots}", slots=", ".join(
                term(slot, "slot") for slot in ch["slots"]))
        case "reveal":
            return f"{s} reveal {slots}", ""
    return f"{s} {option.verb}", ""


def implied(p: Prompt, verb: str | None = None) -> str | None:
    """The society a line without one is recorded for: the only one that can act now; else, for a line of `verb`,
    the only one that can make that move (the one that owes the order, while another could play a card)."""
    societies = {o.society for o in p.options}
    if len(societies) == 1:
        return societies.pop()
    able = {o.society for o in p.options if o.verb == verb}
    return able.pop() if len(able) == 1 else None


def with_society(line: str, p: Prompt) -> str:
    """`line` with the implied society put in front, when it starts with a verb; NotationError naming who can act
    and what when that is not one society."""
    words = line.split(maxsplit=1)
    if not words or words[0] in SOCIETIES or words[0] in NO_SOCIETY or words[0] not in MOVE_VERBS:
        return line
    society = implied(p, words[0])
    if society is None:
        can: dict[str, list[str]] = {}
        for o in p.options:
            can.setdefault(o.society, []).append(term(o.verb, "verb"))
        who = "; ".join(f"{term(s)}: {', '.join(dict.fromkeys(verbs))}" for s, verbs in can.items())
        raise NotationError(say("{verb}: which society? Write it first. Can act now: {who}",
                                verb=term(words[0], "verb"), who=who))
    return f"{society} {line}"


def verb_words() -> dict[str, str]:
    """Each notation verb in the reader's words (for `?` and --help in the faces)."""
    return {verb: term(verb, "verb") for verb in MOVE_VERBS}


class BoardMove(TypedDict):
    """A move a tap on the board composes (board_moves), as the table page's script reads it."""

    verb: str
    society: str
    line: str
    label: str
    regions: list[str]
    amount: int
    attacks: list[list[object]]


def board_moves(options: tuple[Option, ...]) -> list[BoardMove]:
    """The legal options a tap on the board composes (the table page, web/static/board.js): each recruit (its
    regions and how many banners) and each attack (its source, target and most banners), with the line it starts
    (as `templates` writes it: `order=` and `at=` only where the society has two options of that verb) and its
    name in the reader's words. The page offers exactly these choices: it knows no rule of its own."""
    seen: dict[tuple[str, str], int] = {}
    for o in options:
        seen[o.society, o.verb] = seen.get((o.society, o.verb), 0) + 1
    found: list[BoardMove] = []
    for o in options:
        if o.verb not in ("recruit", "attack") or (o.verb == "recruit" and not o.choices.get("amount")):
            continue
        ch = o.choices
        named = f" order={ch['order']} at={ch['at']}" if seen[o.society, o.verb] > 1 and "order" in ch else ""
        found.append({"verb": o.verb, "society": o.society, "line": f"{o.society} {o.verb}{named}",
                      "label": _order_words(ch), "regions": list(ch.get("regions", ())),
                      "amount": ch.get("amount", 0), "attacks": [list(a) for a in ch.get("attacks", ())]})
    return found
