"""The notation: one move per line, the same verbs and arguments as `whispers move` (docs/notation.md).

`parse_line` reads a line into a command (or a `Header` for the `game` line); `format_event` writes one
event's move, `format_header` the `game` line, as lines `parse_line` reads back to the same moves (a whole
record, as a viewer may see it, is written by projections/log.py). `#` starts a comment.
"""

import re
import shlex
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from whispers.ledger.core import commands as c
from whispers.ledger.core import events as ev
from whispers.ledger.core.decree_effects import engine_computed
from whispers.ledger.core.errors import NotationError
from whispers.ledger.core.meta import TagLine, is_tag_line, tag_line
from whispers.ledger.core.names import SLOTS, SOCIETIES
from whispers.ledger.core.words import N_, _, say, term


@dataclass(frozen=True, slots=True)
class Header:
    """The `game` line: how a game was set up."""

    ruleset: str
    board: str
    players: tuple[str, ...]
    first: str | None
    cards: str | None = None
    """The card sheet the game pins (a shipped id or a file), or None."""
    card_sets: tuple[str, ...] = ()
    """The card sets named beside the base set (`dark-alliances`): docs/decrees.md."""


VERBS: dict[str, str] = {
    "game": "game ruleset=official board=standin players=raven,rat,spider,serpent first=raven",
    "loyalty": "raven loyalty devout=bear dutiful=eagle affiliated=lion unallied=horse opposed=elephant"
               "   |   rat loyalty sealed   |   rat loyalty sealed sha256:HASH (sealed at the seat)",
    "deploy": "raven deploy bear.steward   |   rat deploy frost-gate   (a field agent, where the ruleset allows)",
    "retrieve": "raven retrieve bear.steward",
    "recruit": "raven recruit frost-gate=1 ice-hall=1   [order=recruit_2] [at=bear.steward]",
    "attack": "raven attack frost-gate ice-hall 3   (FROM TO BANNERS) [at=bear.marshal]",
    "draw": "raven draw   |   raven draw bear:3 bear:7   (name the cards when known) [order=...] [at=...]",
    "swap-agent": "raven swap-agent marshal   (then the order taken there is the society's next move)",
    "play": "raven play elephant:2 effect=ID pay=elephant:3 [PARAM=VALUE ...] (whispers decrees lists them)   |   "
            "raven play lion:2 ability=1 pay=bear:5 add=bear:frost-gate:3 kill=ice-hall:2 move=a:b:2 "
            "agent=bear.sheriff:lion.marshal act=lion.marshal",
    "discard": "raven discard bear:5 lion   (a card, or just its empire when the record does not know which)",
    "swap-loyalty": "raven swap-loyalty devout opposed   |   rat swap-loyalty devout=lion opposed=bear (sealed set)",
    "pass": "raven pass   (declines the swap phase)",
    "no-card": "raven no-card   (plays no more card after an empire's last order: its supply check follows)",
    "reveal": "rat reveal devout=lion dutiful=bear affiliated=eagle unallied=horse opposed=elephant [salt=CODE]",
    "undo": 'undo "entered the wrong region"   |   undo reopen "TD: a misread final reveal"   (a finished game)',
    "ruling": 'ruling "TD: the attack stands though the fort was missed" kill=ice-hall:1',
    "finalize": 'finalize "Dana (TD)" ["results checked"]   (the director\'s seal on a finished game)',
    "reopen": 'reopen "Dana (TD)" "a misread final reveal"   (lifts the seal)',
    "check": "check frost-gate=3 ice-hall=0   (the table's count; a mismatch is flagged, not fatal)",
}


MAX_LINE = 4096
"""The longest notation line read, in characters: far above any move, and it keeps a bad file cheap to refuse."""

# One piece of a word, as a POSIX shell reads it (and shlex.split(comments=True) did): blanks, a comment,
# a quoted string, an escaped character, plain characters. Read piece by piece in one pass: linear in the
# line's length (shlex grows each word a character at a time, quadratic in its length).
_PIECE = re.compile(r"""
    (?P<blank>[ \t\r\n]+)
  | (?P<comment>\#.*)
  | '(?P<single>[^']*)'
  | "(?P<double>[^"\\]*(?:\\.[^"\\]*)*)"
  | \\(?P<escaped>.)
  | (?P<plain>[^ \t\r\n'"\\\#]+)
""", re.VERBOSE | re.DOTALL)
_DOUBLE_BODY = re.compile(r'[^"\\]*(?:\\.[^"\\]*)*', re.DOTALL)
_ESCAPED_IN_DOUBLE = re.compile(r'\\([\\"])')


def _open_quote(line: str, position: int) -> bool:
    """Whether the line ends inside the quotation opened at `position` (not on a backslash escaping nothing)."""
    if line[position] != '"':
        return line[position] == "'"
    rest = line[position + 1:]
    return _DOUBLE_BODY.match(rest).end() == len(rest)  # type: ignore[union-attr]  # it matches the empty text


def split(line: str) -> list[str]:
    """The words of a line, as shlex.split(line, comments=True) gives them; NotationError for an open quote
    or a final backslash."""
    words: list[str] = []
    word: list[str] | None = None  # None between words; a quoted "" starts a word that stays empty
    position, end = 0, len(line)
    while position < end:
        match = _PIECE.match(line, position)
        if match is None:
            problem = N_("No closing quotation") if _open_quote(line, position) else N_("No escaped character")
            raise NotationError(say("cannot read the line: {problem}", problem=_(problem)))  # shlex's words
        position = match.end()
        kind = match.lastgroup
        if kind in ("blank", "comment"):
            if word is not None:
                words.append("".join(word))
                word = None
            if kind == "comment":
                break
            continue
        if word is None:
            word = []
        text = match.group(kind or 0)
        word.append(_ESCAPED_IN_DOUBLE.sub(r"\1", text) if kind == "double" else text)
    if word is not None:
        words.append("".join(word))
    return words


def parse_line(line: str, limit: int | None = MAX_LINE) -> c.Command | Header | TagLine | None:
    """One line of notation; None for a blank or comment line. NotationError says what is wrong.

    A line longer than `limit` characters is refused unread (None: no limit, for lines whispers wrote)."""
    if limit is not None and len(line) > limit:
        raise NotationError(say("the line is {n} characters long: a notation line may be at most {limit}", n=len(line),
                                limit=limit))
    if is_tag_line(line):
        return tag_line(line)  # a table fact ([Event "..."]): never a move, whatever its text
    words = split(line)
    if not words:
        return None
    head, rest = words[0], words[1:]
    if head == "game":
        return _parse_header(rest)
    if head == "undo":
        # `undo REASON`, or `undo reopen REASON` to take back a finished game's last move (one word: a reason)
        if len(rest) == 2 and rest[0] == "reopen":
            return c.Undo(_reason(rest[1:], "undo"), reopen=True)
        return c.Undo(_reason(rest, "undo"))
    if head == "ruling":
        reason = _reason(rest[:1], "ruling")
        if re.match(r"(add|kill|move|agent)=", reason):
            raise NotationError(say("ruling takes its reason first, in quotes: {example}", example=VERBS["ruling"]))
        return c.Ruling(reason, _effects(_keywords(rest[1:], "ruling", {"add", "kill", "move", "agent"})))
    if head == "finalize":
        if len(rest) not in (1, 2):
            raise NotationError(say("finalize takes the director's name and maybe a reason, quoted: {example}",
                                    example=VERBS["finalize"]))
        return c.Finalize(rest[0], rest[1] if len(rest) == 2 else "")
    if head == "reopen":
        if len(rest) != 2:
            raise NotationError(say("reopen takes the director's name and a reason, quoted: {example}",
                                    example=VERBS["reopen"]))
        return c.Reopen(rest[0], rest[1])
    if head == "check":
        counts = {region: _int(n, say("count for {name}", name=region)) for region, n in _pairs(rest, "check").items()}
        return c.Check(counts)
    if head not in SOCIETIES:
        raise NotationError(say("unknown society or verb {head}: a move starts with a society ({societies}) or is "
                                "undo, ruling, check, finalize, reopen or game", head=repr(head),
                                societies=", ".join(SOCIETIES)))
    if not rest:
        raise NotationError(say("{society} what? a verb follows the society: {verbs}", society=head,
                                verbs=", ".join(v for v in VERBS if "-" in v or v)))
    verb, args = rest[0], rest[1:]
    parser = _VERB_PARSERS.get(verb)
    if parser is None:
        raise NotationError(say("unknown verb {text}: the verbs are {verbs}", text=repr(verb),
                                verbs=", ".join(_VERB_PARSERS)))
    return parser(head, args)


def parse_lines(lines: Iterable[str]) -> Iterator[tuple[int, c.Command | Header | TagLine]]:
    """(line number, command) for each line that holds a move; NotationError names the bad line."""
    for number, line in enumerate(lines, start=1):
        if len(line) > MAX_LINE:
            raise NotationError(say("line {number} is {n} characters long: a notation line may be at most {limit}",
                                    number=number, n=len(line), limit=MAX_LINE))
        try:
            parsed = parse_line(line)
        except NotationError as exc:
            raise NotationError(say("line {number}: {message}", number=number, message=str(exc))) from None
        if parsed is not None:
            yield number, parsed


def _parse_header(args: list[str]) -> Header:
    keys = _keywords(args, "game", {"ruleset", "board", "players", "first", "cards", "card-set"})
    if "players" not in keys:
        raise NotationError(_("game needs players=SOCIETY,SOCIETY,..."))
    players = tuple(p for p in keys["players"][0].split(",") if p)
    return Header(keys.get("ruleset", ["official"])[0], keys.get("board", ["standin"])[0], players,
                  keys.get("first", [None])[0], keys.get("cards", [None])[0], tuple(keys.get("card-set", ())))


def _reason(args: list[str], verb: str) -> str:
    if len(args) != 1 or not args[0].strip():
        raise NotationError(say("{verb} takes one quoted reason, e.g. {example}", verb=verb, example=VERBS[verb]))
    return args[0]


def _keywords(args: list[str], verb: str, allowed: set[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if not sep or key not in allowed:
            raise NotationError(say("{verb}: unexpected {text}; it takes {takes}", verb=verb, text=repr(arg),
                                    takes=", ".join(sorted(k + "=" for k in allowed))))
        if not value:
            raise NotationError(say("{verb}: {text}= needs a value", verb=verb, text=key))
        found.setdefault(key, []).append(value)
    return found


def _pairs(args: list[str], verb: str) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if not sep or not key or not value:
            raise NotationError(say("{verb}: expected NAME=VALUE, not {text}", verb=verb, text=repr(arg)))
        if key in pairs:
            raise NotationError(say("{verb}: {text} is named twice", verb=verb, text=key))
        pairs[key] = value
    return pairs


_INTEGER = re.compile(r"-?[0-9]{1,9}")


def _int(text: str, what: str) -> int:
    if not _INTEGER.fullmatch(text):
        raise NotationError(say("{what} must be a whole number, not {text}", what=_(what), text=repr(text)))
    return int(text)


def _tokens(args: list[str], verb: str) -> dict[str, str]:
    tokens = _pairs(args, verb)
    for slot in tokens:
        if slot not in SLOTS:
            raise NotationError(say("{verb}: unknown slot {slot}; the slots are {slots}", verb=verb, slot=repr(slot),
                                    slots=", ".join(SLOTS)))
    return tokens


def _split_options(args: list[str], options: set[str]) -> tuple[list[str], dict[str, str]]:
    """Separate `key=value` options (order=, at=...) from the other arguments."""
    plain, chosen = [], {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if sep and key in options:
            chosen[key] = value
        else:
            plain.append(arg)
    return plain, chosen


def _loyalty(society: str, args: list[str]) -> c.Command:
    if args == ["sealed"]:
        return c.RecordLoyalty(society, None)
    if len(args) == 2 and args[0] == "sealed" and args[1].startswith("sha256:"):
        return c.RecordLoyalty(society, None, args[1])
    tokens = _tokens(args, "loyalty")
    if set(tokens) != set(SLOTS):
        raise NotationError(say("loyalty names all five slots ({slots}) or is 'sealed'",
                                slots=", ".join(s + "=EMPIRE" for s in SLOTS)))
    return c.RecordLoyalty(society, tokens)


def _one(args: list[str], verb: str, what: str) -> str:
    if len(args) != 1:
        raise NotationError(say("{verb} takes one {what}, e.g. {example}", verb=verb, what=_(what),
                                example=VERBS[verb]))
    return args[0]


def _recruit(society: str, args: list[str]) -> c.Command:
    plain, options = _split_options(args, {"order", "at"})
    placed = {region: _int(n, say("banners for {name}", name=region)) for region, n in _pairs(plain, "recruit").items()}
    return c.Recruit(society, placed, options.get("order"), options.get("at"))


def _draw(society: str, args: list[str]) -> c.Command:
    plain, options = _split_options(args, {"order", "at"})
    for card in plain:
        if ":" not in card:
            raise NotationError(say("draw: name a card as EMPIRE:NUMBER, not {card}", card=repr(card)))
    return c.Draw(society, tuple(plain), options.get("order"), options.get("at"))


def _attack(society: str, args: list[str]) -> c.Command:
    plain, options = _split_options(args, {"at"})
    if len(plain) != 3:
        raise NotationError(say("attack takes FROM TO BANNERS, e.g. {example}", example=VERBS["attack"]))
    banners = _int(plain[2], N_("the number of attacking banners"))
    return c.Attack(society, plain[0], plain[1], banners, options.get("at"))


def _effects(keys: dict[str, list[str]]) -> ev.Effects:
    add, kill, move, agent = [], [], [], []
    for value in keys.get("add", []):
        parts = value.split(":")
        if len(parts) != 3:
            raise NotationError(say("add=EMPIRE:REGION:N, not add={text}", text=value))
        add.append((parts[0], parts[1], _int(parts[2], N_("banners added"))))
    for value in keys.get("kill", []):
        parts = value.split(":")
        if len(parts) == 2:
            kill.append((parts[0], "", _int(parts[1], N_("banners killed"))))
        elif len(parts) == 3:
            kill.append((parts[0], parts[1], _int(parts[2], N_("banners killed"))))
        else:
            raise NotationError(say("kill=REGION:N or kill=REGION:EMPIRE:N, not kill={text}", text=value))
    for value in keys.get("move", []):
        parts = value.split(":")
        if len(parts) == 3:
            move.append((parts[0], parts[1], "", _int(parts[2], N_("banners moved"))))
        elif len(parts) == 4:
            move.append((parts[0], parts[1], parts[2], _int(parts[3], N_("banners moved"))))
        else:
            raise NotationError(say("move=FROM:TO:N or move=FROM:TO:EMPIRE:N, not move={text}", text=value))
    for value in keys.get("agent", []):
        parts = value.split(":")
        if len(parts) != 2:
            raise NotationError(say("agent=EMPIRE.OFFICE:EMPIRE.OFFICE, not agent={text}", text=value))
        agent.append((parts[0], parts[1]))
    return ev.Effects(tuple(add), tuple(kill), tuple(move), tuple(agent))


def _play(society: str, args: list[str]) -> c.Command:
    if not args or "=" in args[0]:
        raise NotationError(say("play names the card first, e.g. {example}", example=VERBS["play"]))
    own = {"ability", "pay", "add", "kill", "move", "agent", "act", "effect"}
    named = [a for a in args[1:] if a.partition("=")[0] in own]
    keys = _keywords(named, "play", own)
    effect = keys["effect"][0] if "effect" in keys else None
    if len(keys.get("effect", [])) > 1:
        raise NotationError(_("play: one effect= a play"))
    rest = [a for a in args[1:] if a.partition("=")[0] not in own]
    if rest and effect is None:
        _keywords(rest, "play", own)  # says what play takes
    params = tuple(_pairs(rest, "play").items())
    ability = _int(keys["ability"][0], N_("ability")) if "ability" in keys else None
    pay = tuple(card for value in keys.get("pay", []) for card in value.split(",") if card)
    act = keys["act"][0] if "act" in keys else None
    return c.PlayCard(society, args[0], ability, pay, _effects(keys), act, effect, params)


def _discard(society: str, args: list[str]) -> c.Command:
    if not args:
        raise NotationError(say("discard names the cards, e.g. {example}", example=VERBS["discard"]))
    return c.Discard(society, tuple(args))


def _swap_loyalty(society: str, args: list[str]) -> c.Command:
    if len(args) != 2:
        raise NotationError(say("swap-loyalty takes two slots, e.g. {example}", example=VERBS["swap-loyalty"]))
    if all("=" in a for a in args):
        revealed = _tokens(args, "swap-loyalty")
        a, b = revealed
        return c.SwapLoyalty(society, (a, b), revealed)
    for slot in args:
        if slot not in SLOTS:
            raise NotationError(say("swap-loyalty: unknown slot {text}; the slots are {slots}", text=repr(slot),
                                    slots=", ".join(SLOTS)))
    return c.SwapLoyalty(society, (args[0], args[1]))


def _reveal(society: str, args: list[str]) -> c.Command:
    plain, options = _split_options(args, {"salt"})
    tokens = _tokens(plain, "reveal")
    if set(tokens) != set(SLOTS):
        raise NotationError(say("reveal names all five slots: {slots}", slots=" ".join(s + "=EMPIRE" for s in SLOTS)))
    return c.Reveal(society, tokens, options.get("salt"))


def _pass(society: str, args: list[str]) -> c.Command:
    if args:
        raise NotationError(_("pass takes nothing more"))
    return c.Pass(society)


def _no_card(society: str, args: list[str]) -> c.Command:
    if args:
        raise NotationError(say("{no_card} takes nothing more", no_card=term("no-card", "verb")))
    return c.NoCard(society)


_VERB_PARSERS = {
    "loyalty": _loyalty,
    "deploy": lambda s, a: c.Deploy(s, _one(a, "deploy", N_("place"))),
    "retrieve": lambda s, a: c.Retrieve(s, _one(a, "retrieve", N_("place"))),
    "recruit": _recruit,
    "attack": _attack,
    "draw": _draw,
    "swap-agent": lambda s, a: c.SwapAgent(s, _one(a, "swap-agent", N_("office"))),
    "play": _play,
    "discard": _discard,
    "swap-loyalty": _swap_loyalty,
    "pass": _pass,
    "no-card": _no_card,
    "reveal": _reveal,
}


# --- writing --------------------------------------------------------------------------------------


def format_header(started: ev.GameStarted, ruleset_ref: str | None = None, board_ref: str | None = None,
                  cards_ref: str | None = None) -> str:
    # quoted: a record from before ruleset ids were checked may hold any text as its id
    ruleset, board = (_quote(str(ref)) for ref in (ruleset_ref or started.ruleset["id"],
                                                   board_ref or started.board["id"]))
    line = f"game ruleset={ruleset} board={board} players={','.join(started.players)} first={started.first}"
    if started.cards is not None:
        line += f" cards={_quote(cards_ref or str(started.cards['id']))}"
    return line + "".join(f" card-set={s}" for s in started.card_sets if s != "base")


def _effect_args(effects: ev.Effects) -> list[str]:
    args = [f"add={e}:{r}:{n}" for e, r, n in effects.add]
    args += [f"kill={r}:{e}:{n}" for r, e, n in effects.kill]
    args += [f"move={a}:{b}:{e}:{n}" for a, b, e, n in effects.move]
    args += [f"agent={a}:{b}" for a, b in effects.agent]
    return args


def _quote(text: str) -> str:
    return shlex.quote(text) if text else '""'


def format_event(event: ev.Event, borrowed: bool = False, hide_private: bool = False) -> str | None:
    """The notation line of a move's event (None for the engine's own events).

    `borrowed` adds `at=` to an order taken out of sequence; `hide_private` leaves out what only the
    acting society may know (loyalty tokens, names of drawn cards)."""
    match event:
        case ev.LoyaltyRecorded(society=s, tokens=tokens):
            if tokens is None or hide_private:
                return f"{s} loyalty sealed"
            return f"{s} loyalty " + " ".join(f"{slot}={tokens[slot]}" for slot in SLOTS)
        case ev.LoyaltyCommitted(society=s, commitment=commitment):
            return f"{s} loyalty sealed {commitment}"
        case ev.AgentDeployed(society=s, where=w):
            return f"{s} deploy {w}"
        case ev.AgentRetrieved(society=s, where=w):
            return f"{s} retrieve {w}"
        case ev.BannersRecruited():
            args = [f"{r}={n}" for r, n in event.placed.items()]
            at = f" at={event.empire}.{event.office}" if borrowed else ""
            return f"{event.society} recruit order={event.order}{at}" + "".join(" " + a for a in args)
        case ev.CardsDrawn():
            at = f" at={event.empire}.{event.office}" if borrowed else ""
            cards = "" if hide_private else "".join(" " + card for card in event.cards)
            return f"{event.society} draw order={event.order}{at}{cards}"
        case ev.Attacked():
            at = f" at={event.empire}.{event.office}" if borrowed else ""
            return f"{event.society} attack {event.source} {event.target} {event.banners}{at}"
        case ev.AgentSwapped(society=s, target=t):
            return f"{s} swap-agent {t}"
        case ev.CardPlayed():
            args = [event.card]
            if event.effect is not None:
                args.append(f"effect={event.effect}")
                args += [f"{k}={v}" for k, v in (event.params or {}).items()]
            if event.ability is not None:
                args.append(f"ability={event.ability}")
            if event.pay:
                args.append("pay=" + ",".join(event.pay))
            if not engine_computed(event.effect, event.outcome):  # else the engine computes them again on replay
                args += _effect_args(event.effects)
                if event.act:
                    args.append(f"act={event.act}")
            return f"{event.society} play " + " ".join(args)
        case ev.CardsDiscarded(society=s, cards=cards):
            return f"{s} discard " + " ".join(cards)
        case ev.LoyaltySwapped(society=s, slots=(a, b), revealed=revealed):
            return f"{s} swap-loyalty {a}={revealed[a]} {b}={revealed[b]}"
        case ev.SwapPassed(society=s):
            return f"{s} pass"
        case ev.AfterOrderPassed(society=s):
            return f"{s} no-card"
        case ev.LoyaltyRevealed(society=s, tokens=tokens, salt=salt):
            line = f"{s} reveal " + " ".join(f"{slot}={tokens[slot]}" for slot in SLOTS)
            return line + (f" salt={salt}" if salt else "")
        case ev.MoveTakenBack(reason=reason, reopen=reopen):
            return f"undo {'reopen ' if reopen else ''}{_quote(reason)}"
        case ev.RulingApplied(reason=reason, effects=effects):
            return " ".join(["ruling", _quote(reason), *_effect_args(effects)])
        case ev.GameFinalized(by=by, reason=reason):
            return " ".join(["finalize", _quote(by), *([_quote(reason)] if reason else [])])
        case ev.GameReopened(by=by, reason=reason):
            return f"reopen {_quote(by)} {_quote(reason)}"
        case ev.TableChecked(counts=counts):
            return "check " + " ".join(f"{r}={n}" for r, n in counts.items())
    return None
