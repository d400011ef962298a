"""One path for a move, for every face: a line typed in the reader's language read into the notation's canonical
ids, and every legal option turned into the lines that can record it (a template to fill in, or a whole move),
with the choices of each field and a hint in the reader's words.

The notation (ledger/core/notation.py) reads canonical ids only; what a person typed or tapped comes through here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from whispers.ledger.core.errors import NotationError
from whispers.ledger.core.names import MOVE_VERBS, SOCIETIES
from whispers.ledger.core.words import TERMS, plural, position, say, term, terms, tongue

if TYPE_CHECKING:
    from collections.abc import Iterable

    from whispers.ledger.core.legal import Choices, Option
    from whispers.ledger.core.prompt import Prompt


def canonical_line(text: str) -> str:
    """`text` as the reader typed it (their language's societies, positions, slots and verbs: `Corbeau Blanc
    Récupérer Ours Commissaire`) in canonical ids (`raven retrieve bear.sheriff`); quoted text stays as typed."""
    code = tongue().code
    if code == "en":
        return text
    from whispers.projections.language import canonical

    return canonical(text, code)


NO_SOCIETY = ("undo", "ruling", "finalize", "reopen", "check", "amend")
"""Verbs written without a society in front: never given an implied one."""

_KIND = {word: kind for kind in ("verb", "society", "empire", "office", "slot") for word in TERMS[kind]}
"""The ids a line holds that the reader has a word for: a verb first (swap-agent, not the order swap_agent)."""


def said_line(line: str) -> str:
    """A canonical line in the reader's words, as `canonical_line` reads it back (the inverse): each society, verb,
    slot and position as the rulebook of the reader's language prints it; regions, cards and numbers as they are."""
    if tongue().code == "en":
        return line

    def said(word: str) -> str:
        if "." in word and word.count(".") == 1:
            left, right = word.split(".")
            if _KIND.get(left) == "empire" and _KIND.get(right) == "office":
                return f"{term(left, 'empire')} {term(right, 'office')}"
        return term(word, _KIND[word]) if word in _KIND else word

    out = []
    for word in line.split(" "):
        key, eq, value = word.partition("=")
        out.append(f"{said(key)}={said(value) if value else ''}" if eq else said(word))
    return " ".join(out)


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
                hint = (say("CARD effect=ID [PARAM=VALUE ...] [pay=CARD,...]; Tab completes; playable now: {effects}",
                            effects=", ".join(effects)) if effects
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
    """A legal option in one line, as `status` lists it: the move as the notation starts it (its society and verb in
    the reader's words), its choices in brackets."""
    society, verb, rest = [*_summary(option, limit).split(" ", 2), "", ""][:3]
    return f"{said_line(f'{society} {verb}')} {rest}".rstrip()


def _summary(option: Option, limit: int) -> str:
    ch = option.choices
    s = option.society

    def some(items: Iterable[object]) -> str:
        items = list(items)
        more = ", … " + say("({n} in all)", n=len(items)) if len(items) > limit else ""
        return ", ".join(str(i) for i in items[:limit]) + more

    match option.verb:
        case "loyalty":
            return f"{s} loyalty devout=E dutiful=E affiliated=E unallied=E opposed=E   |   {s} loyalty sealed"
        case "retrieve" | "deploy":
            return f"{s} {option.verb} {{{some(ch['where'])}}}"
        case "recruit":
            into = say("{at} {order}: {banners} into {regions}", at=position(ch["at"]),
                       order=term(ch["order"], "order"), banners=plural(ch["amount"], "banner"),
                       regions=some(ch["regions"]))
            return f"{s} recruit REGION=N …  ({into})"
        case "draw":
            return f"{s} draw  ({position(ch['at'])} {term(ch['order'], 'order')}: {plural(ch['count'], 'card')})"
        case "attack":
            attacks = [f"{a}→{b} (≤{n})" for a, b, n in ch["attacks"]]
            return f"{s} attack FROM TO N  ({position(ch['at'])}: {some(attacks)})"
        case "swap-agent":
            return f"{s} swap-agent {{{', '.join(ch['targets'])}}}  ({position(ch['at'])})"
        case "play":
            held = say("holds {cards}", cards=", ".join(f"{term(e)}×{n}" for e, n in ch["hand"].items()))
            return f"{s} play CARD …  ({held})"
        case "discard":
            held = say("holds {cards}", cards=", ".join(f"{term(e)}×{n}" for e, n in ch["hand"].items()))
            return f"{s} discard {plural(ch['count'], 'card')}  ({held})"
        case "swap-loyalty":
            concealed = say("concealed: {slots}", slots=", ".join(term(slot, "slot") for slot in ch["slots"]))
            return f"{s} swap-loyalty SLOT SLOT  ({concealed})"
        case "pass":
            return f"{s} pass"
        case "reveal":
            return f"{s} reveal devout=E dutiful=E affiliated=E unallied=E opposed=E"
    return f"{s} {option.verb}"


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
