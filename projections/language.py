"""The reader's language: which one (`--lang`, WHISPERS_LANG, the locale, a browser's Accept-Language), its
message catalogue (gettext, through Babel), and the user's own words read back to canonical ids.

The catalogues are `locales/<lang>/LC_MESSAGES/whispers.po` beside this module. The build compiles each to
its `.mo` (setup.py); where a `.mo` is missing or older than its `.po` (a fresh clone, an edited catalogue), the
`.po` is compiled in memory instead, so the words are never stale and never missing. The sentences themselves
live in ledger/core/words.py (and the faces), as English message ids.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Mapping
from functools import cache
from io import BytesIO
from pathlib import Path

from whispers.ledger.core.errors import WhispersError
from whispers.ledger.core.names import DRAW_ORDERS, RECRUIT_ORDERS
from whispers.ledger.core.words import ENGLISH, KEYS, KIND_OF, LANGUAGES, TERMS, Tongue, reset, use

LOCALES = Path(__file__).with_name("locales")
DOMAIN = "whispers"


class UnknownLanguage(WhispersError):
    """A language whispers has no catalogue for."""


def catalogue_path(code: str, suffix: str = ".po") -> Path:
    return LOCALES / code / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def _code(value: str | None) -> str | None:
    """`fr`, `fr_FR.UTF-8`, `fr-CH` -> "fr" when it is one of ours; None otherwise (C, POSIX, de...)."""
    if not value:
        return None
    code = re.split(r"[_.@-]", value.strip().lower(), maxsplit=1)[0]
    return code if code in LANGUAGES else None


def choose(asked: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language: `--lang`, else WHISPERS_LANG, else the locale (LC_ALL, LC_MESSAGES, LANG, as gettext
    reads them), else English. An asked or WHISPERS_LANG language we lack is refused; a locale we lack is
    English (the locale is the machine's, not a request)."""
    environ = os.environ if environ is None else environ
    for said, source in ((asked, "--lang"), (environ.get("WHISPERS_LANG"), "WHISPERS_LANG")):
        if said:
            code = _code(said)
            if code is None:
                raise UnknownLanguage(f"{source} {said!r}: whispers speaks {', '.join(LANGUAGES)}")
            return code
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(variable):
            return _code(environ[variable]) or "en"
    return "en"


def from_header(accept_language: str | None) -> str:
    """The best of our languages for a browser's Accept-Language header (quality values honoured), else English."""
    if not accept_language:
        return "en"
    ranked = []
    for index, part in enumerate(accept_language.split(",")):
        tag, _semi, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        code = _code(tag)
        if code is not None and quality > 0:
            ranked.append((-quality, index, code))
    return min(ranked)[2] if ranked else "en"


def _translations(code: str):  # -> babel.support.Translations
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    po, mo = catalogue_path(code), catalogue_path(code, ".mo")
    if not po.exists():
        raise UnknownLanguage(f"no catalogue for {code!r}: whispers speaks {', '.join(LANGUAGES)}")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        with mo.open("rb") as compiled:
            return Translations(compiled, domain=DOMAIN)
    with po.open("rb") as source:
        catalog = read_po(source, locale=code, domain=DOMAIN)
    buffer = BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


@cache
def load(code: str) -> Tongue:
    """The Tongue of `code`: its catalogue's lookups and its way with numbers."""
    if code == "en":
        return ENGLISH
    from babel.numbers import format_decimal

    found = _translations(code)

    def number(n: float) -> str:
        return format_decimal(n, format="#,##0" if isinstance(n, int) else "#,##0.0", locale=code)

    def effect(effect_id: str) -> str:
        name = effect_names().get(effect_id)
        return found.pgettext("effect", name) if name is not None else effect_id

    return Tongue(code, found.gettext, found.ngettext, found.pgettext, effect, number)


@cache
def effect_names() -> dict[str, str]:
    """Each decree effect's id to its name as the shipped catalogue holds it (English, the rulebooks' EN and REV):
    the message id of its name in the catalogues (context "effect"). Read when an effect is first named."""
    from whispers.ledger.io.decree_files import shipped_catalogue

    return {decree.id: decree.name for decree in shipped_catalogue().decrees.values()}


def speak(code: str):  # -> contextvars.Token
    """Make `code` the language of this context (a CLI run, a request)."""
    return use(load(code))


def stop(token) -> None:
    reset(token)


def format_date(value, code: str) -> str:
    """A date (or an ISO date string) as the language writes it."""
    from datetime import date, datetime

    from babel.dates import format_date as babel_date

    if isinstance(value, str):
        value = datetime.fromisoformat(value).date()
    elif isinstance(value, datetime):
        value = value.date()
    assert isinstance(value, date)
    return babel_date(value, format="medium", locale=code)


# --- the user's words read back ---------------------------------------------------------------------------


def _folded(text: str) -> str:
    """Lower case, no accents, no articles' apostrophes: "L'Araignée" and "araignee" meet."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in plain if not unicodedata.combining(c)).replace("’", "'")


@cache
def vocabulary(code: str) -> dict[str, str]:
    """Every word of the glossary in `code` (and its canonical id itself), folded, to its canonical id (the verbs
    as the rulebooks print them: `Récupérer` is retrieve). A
    society's name of several words is also known by its first word ("Corbeau" for "Corbeau Blanc") where
    that word names nothing else."""
    tongue = load(code)
    found: dict[str, str] = {}
    first: dict[str, set[str]] = {}
    for kind, ids in sorted(TERMS.items(), key=lambda item: item[0] != "verb"):  # a verb before an order's name:
        for word in ids:  # `Changer d'emplacement` is the verb swap-agent, as a line writes it
            found[_folded(word)] = word
            said = _folded(tongue.pgettext(kind, word))
            found.setdefault(said, word)
            if " " in said and kind == "society":
                first.setdefault(said.split()[0], set()).add(word)
    for head, named in first.items():
        if len(named) == 1 and head not in found:
            found[head] = named.pop()
    found.setdefault(_folded(tongue.pgettext("key", "sealed")), "sealed")  # `loyalty sealed`
    return found


@cache
def keys(code: str) -> dict[str, str]:
    """The notation's keys (words.KEYS: `order=`, `pay=`, `to=`) in `code`, and each key itself, folded, to the key:
    read only before `=` (French `de=` is `from=`, while a lone `de` is nobody's)."""
    tongue = load(code)
    found = {_folded(key): key for key in KEYS}
    for key in KEYS:
        found.setdefault(_folded(tongue.pgettext("key", key)), key)
    return found


@cache
def effect_vocabulary(code: str) -> dict[str, str]:
    """Every decree effect's name in `code` and in English, and its id, folded, to its id (`«Renforts»`)."""
    tongue = load(code)
    found: dict[str, str] = {}
    for effect_id, name in effect_names().items():
        for said in (effect_id, name, tongue.pgettext("effect", name)):
            found.setdefault(_folded(said), effect_id)
    return found


EFFECT_NAMED = re.compile(r"«\s*([^«»]*?)\s*»")
"""A decree effect named by its words, in guillemets (`effet=«Renforts»`, application/moves.said_line)."""

QUOTED = re.compile(r'"(?:[^"\\]|\\.)*(?:"|\\?\Z)|(?<![^\s])\'[^\']*\'(?![^\s])', re.DOTALL)
"""Quoted text: in double quotes, or in single quotes that open and close a word (as `log` writes a reason,
`'misheard the office'`); an apostrophe inside a word (`Changer d'emplacement`, `L'Araignée`) quotes nothing. A
double quote left open (`"a reason\\"`: its last quote escaped) runs to the end of the line: still the user's text,
left as typed for the notation to refuse."""


def canonical(text: str, code: str) -> str:
    """A line the user typed in their words, in notation's canonical ids (`_canonical`); quoted text (a
    take-back's or a ruling's reason, an amendment's) is the user's and is left exactly as typed."""
    if '"' not in text and "'" not in text:
        return _canonical(text, code)
    out, at = [], 0
    for found in (*QUOTED.finditer(text), None):
        end = found.start() if found is not None else len(text)
        inner = text[at:end]
        lead, trail = inner[:len(inner) - len(inner.lstrip())], inner[len(inner.rstrip()):]
        out.append(lead + _canonical(inner, code) + trail if inner.strip() else inner)
        if found is not None:
            out.append(found.group())
            at = found.end()
    return "".join(out)


def _canonical(text: str, code: str) -> str:
    """A line the user typed in their words, in notation's canonical ids: each glossary word (one or several
    words, any case, with or without accents) becomes its id; a `position` written `Ours.Commissaire` or
    `Ours Commissaire` becomes `bear.sheriff`; a key (`payer=`), a card (`Ours:7`), an order's words in its verb's
    place and a decree effect named in guillemets (`«Renforts»`) become the notation's. Anything else is left as
    typed, for the notation to judge."""
    if "«" in text:  # a decree effect named in guillemets: `effet=«Renforts»`
        effects = effect_vocabulary(code)
        text = EFFECT_NAMED.sub(lambda found: effects.get(_folded(found[1]), found[0]), text)
    words, named_keys = vocabulary(code), keys(code)
    longest = max((len(w.split()) for w in words), default=1)
    tokens = text.split()
    out: list[str] = []
    i = 0
    while i < len(tokens):
        for size in range(min(longest, len(tokens) - i), 0, -1):
            phrase = " ".join(tokens[i:i + size])
            if any("=" in t for t in tokens[i:i + size - 1]):
                continue  # a key=value word ends a phrase: `Non alleato=Orso`, never `Devoto=Orso Fedele`
            key, eq, value = phrase.partition("=")
            if eq and (_folded(key) in words or _folded(key) in named_keys):
                said = named_keys.get(_folded(key)) or words[_folded(key)]
                out.append(f"{said}={_value(value, words)}")
                i += size
                break
            if size == 1 and ":" in phrase and not eq:
                out.append(_value(phrase, words))  # a card, `Ours:7`
                i += 1
                break
            if size == 1 and "." in phrase:
                left, _dot, right = phrase.partition(".")
                if _folded(left) in words and _folded(right) in words:
                    out.append(f"{words[_folded(left)]}.{words[_folded(right)]}")
                    i += 1
                    break
            if not eq and _folded(phrase) in words:
                out.append(words[_folded(phrase)])
                i += size
                break
        else:
            out.append(tokens[i])
            i += 1
    # an empire followed by an office is a position: `Ours Commissaire` -> bear.sheriff; an order's words where the
    # verb goes are the verb and the order: `Recruter 1 par Ferme` -> recruit order=recruit_per_farm
    joined: list[str] = []
    for word in out:
        if joined and KIND_OF.get(word) == "office" and KIND_OF.get(joined[-1]) == "empire":
            joined[-1] = f"{joined[-1]}.{word}"
        elif word in ORDER_OF and (not joined or KIND_OF.get(joined[-1]) == "society"):
            joined.append(f"{ORDER_OF[word]} order={word}")
        else:
            joined.append(word)
    return " ".join(joined)


def read_label(text: str, code: str) -> str:
    """A move's label in the reader's words (`R1 Déployer 8`, `1.Éléphant.Maréchal`) as projections/labels.py
    writes it (`R1 deploy 8`, `1.elephant.marshal`): each word of the glossary its id, the rest as typed."""
    return "".join(part if part in ".#" else _canonical(part, code) for part in re.split(r"([.#])", text))


ORDER_OF = {**{order: "recruit" for order in RECRUIT_ORDERS}, **{order: "draw" for order in DRAW_ORDERS}}
"""The orders a line may name in its verb's place, and that verb."""


def _value(value: str, words: Mapping[str, str]) -> str:
    """A value in the reader's words in canonical ids, part by part (`Ours:7`, `Ours.Commissaire:Lion.Maréchal`,
    `Ours:5,Lion`); a part that is no glossary word (a region, a number) stays as typed."""
    parts = re.split(r"([:,])", value)
    for i, part in enumerate(parts):
        left, dot, right = part.partition(".")
        if dot and _folded(left) in words and _folded(right) in words:
            parts[i] = f"{words[_folded(left)]}.{words[_folded(right)]}"
        elif part not in ":," and _folded(part) in words:
            parts[i] = words[_folded(part)]
    return "".join(parts)
