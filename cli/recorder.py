"""The guided recorder's terminal side: stable numbered choices, the implied society, Tab completion of the
words that can be legal now, the tables typed at the prompt, and a move's consequences in words.

Numbering (decided here, the issue leaves it open): a choice is numbered by its kind, the move's words
without the society and its key=value words (`deploy bear.steward`, `recruit`, `pass`, `attack red-cliffs
windmoor`). A kind gets the next free number the first time it is offered in a phase (or an empire's turn)
and keeps it until that ends, so `pass` or a position keeps its number from one move to the next while the
list around it changes; a new phase numbers from 1 again, so the numbers stay short. A choice once shown keeps
its own number while it is offered, even when the kind is offered to several societies (loyalty at setup) and
the one that had the kind's number has moved.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from whispers.application.moves import canonical_line, implied
from whispers.ledger.core.names import SOCIETIES
from whispers.ledger.core.words import ENGLISH, KIND_OF, N_, _, term, tongue

if TYPE_CHECKING:
    from prompt_toolkit.completion import CompleteEvent, Completer
    from prompt_toolkit.document import Document
    from prompt_toolkit.key_binding import KeyPressEvent

    from whispers.ledger.core.legal import Choices
    from whispers.ledger.core.prompt import Prompt

PROMPT = N_("move> ")
TABLES = ("board", "council", "hand")
"""Words typed at the prompt that show a table instead of recording a move (`hand SOCIETY`)."""


class Numbers:
    """Stable numbers for the offered choices: by kind, kept for the whole session."""

    def __init__(self) -> None:
        self._by_kind: dict[str, int] = {}
        self._by_choice: dict[str, int] = {}
        """The number each choice was shown with: it keeps it while it is offered (serpent's `loyalty sealed`
        stays 3 after spider's, number 1, is recorded)."""
        self._phase: tuple[object, ...] | None = None

    def renumber_at(self, phase: tuple[object, ...]) -> None:
        """A new phase or empire turn (round, phase, empire) starts the numbers again."""
        if phase != self._phase:
            self._by_kind, self._by_choice, self._phase = {}, {}, phase

    def number(self, text: str) -> int:
        kind = " ".join(w for w in text.split() if w not in SOCIETIES and "=" not in w) or text
        return self._by_kind.setdefault(kind, len(self._by_kind) + 1)

    def numbered(self, offered: list[tuple[str, bool, str]]) -> dict[int, tuple[str, bool, str]]:
        found: dict[int, tuple[str, bool, str]] = {}
        for choice in offered:
            n = self._by_choice.get(choice[0]) or self.number(choice[0])
            while n in found:  # the same kind offered to two societies at once (loyalty): the next free number
                n = self._by_kind.setdefault(f"{choice[0]}#{n}", len(self._by_kind) + 1)
            found[n] = choice
            self._by_choice[choice[0]] = n
        return dict(sorted(found.items()))


def interactive() -> bool:
    """Whether the recorder reads a terminal (a line is edited in place) rather than a pipe."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _words(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, inner in value.items():
            yield from _words(key)
            yield from _words(inner)
    elif isinstance(value, Iterable):
        for inner in value:
            yield from _words(inner)


def legal_words(p: Prompt, typed: list[str]) -> list[str]:
    """The words that can be legal next after the words `typed` (complete ones) on a line at prompt `p`."""
    acting = sorted({o.society for o in p.options})
    only = implied(p)
    if not typed:
        verbs = sorted({o.verb for o in p.options}) if only else []
        return [*acting, *verbs, *TABLES]
    if typed[0] == "hand":
        return sorted(SOCIETIES) if len(typed) == 1 else []
    if typed[0] in SOCIETIES:
        society, rest = typed[0], typed[1:]
    elif only is not None:
        society, rest = only, typed
    else:
        return []
    options = [o for o in p.options if o.society == society]
    if not rest:
        return sorted({o.verb for o in options})
    words: set[str] = set()
    for o in options:
        if o.verb == rest[0] == "play":
            words.update(play_words(o.choices, rest[1:]))
        elif o.verb == rest[0] == "recruit":  # REGION=N: Tab completes `REGION=`, the count typed after it
            placed = {w.split("=", 1)[0] for w in rest[1:]}
            words.update(f"{region}=" for region in o.choices["regions"] if region not in placed)
        elif o.verb == rest[0]:
            words.update(w for w in _words(list(o.choices.values())) if not w.isdigit())
    return sorted(words - set(rest))


def play_words(choices: Choices, typed: list[str]) -> list[str]:
    """The next words of a card play (`play CARD effect=ID [PARAM=VALUE ...] [pay=CARD]`), from the prompt's choices
    (ledger.prompt): the cards in the hand; the effects that card may play now; each parameter of the effect with
    the values of its domain (`to=lion.sheriff`), or `n=` alone for a free number; the other cards, to pay."""
    cards = choices.get("cards", {})
    if not typed:
        return list(cards)
    card, named = typed[0], dict(w.split("=", 1) for w in typed[1:] if "=" in w)
    if "effect" not in named:
        return [f"effect={effect}" for effect in cards.get(card, ())]
    words = []
    playable = choices.get("effects", {}).get(named["effect"])
    domains = playable["parameters"] if playable is not None else {}
    for name, domain in domains.items():
        if name in named:
            continue
        words += [f"{name}={value}" for value in domain] if isinstance(domain, tuple | list) else [f"{name}="]
    if "pay" not in named:
        words += [f"pay={other}" for other in cards if other != card]
    return words


def completer(current: Callable[[], Prompt]) -> Completer:
    """A prompt_toolkit completer offering `legal_words` for the prompt `current()` returns, each with its space."""
    from prompt_toolkit.completion import Completer, Completion

    class Legal(Completer):
        def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
            text = document.text_before_cursor
            words = text.split()
            partial = "" if not text or text[-1] == " " else words.pop()
            stem = partial.rsplit("=", 1)[-1] if "=" in partial else partial
            # inside a template the space is there already: Tab then goes on to the next blank (asker)
            space = "" if document.text_after_cursor[:1] == " " else " "
            # the words typed so far may be the user's own (Corbeau, Ours.Commissaire)
            words = canonical_line(" ".join(words)).split()
            for word in legal_words(current(), words):
                if "=" in word and "=" in partial:  # a KEY=VALUE word: the whole of it is completed
                    if word.startswith(partial) and word != partial:
                        yield Completion(word + space, start_position=-len(partial))
                    continue
                for said in (word, *said_forms(word)):
                    if fold(said).startswith(fold(stem)):
                        yield Completion(said if said.endswith("=") else said + space, start_position=-len(stem))

    return Legal()


BLANK = re.compile(r"=(?=\s|$)")
"""A `key=` of a template still to fill in."""


def first_blank(template: str) -> int:
    """Where the cursor goes in a template put on the line: just after its first blank `key=` (else the end)."""
    found = BLANK.search(template)
    return found.end() if found else len(template)


def filled_slot(text: str, cursor: int, legal: Iterable[str]) -> int | None:
    """Where Tab goes from a template's slot just filled in with a legal word (`devout=bear|`): just after the
    next blank `key=`; None when the cursor is not at such a slot (Tab then completes as anywhere)."""
    before, after = text[:cursor], text[cursor:]
    word = before.split()[-1] if before.strip() and not before.endswith(" ") else ""
    if "=" not in word or not after.startswith(" ") or word.rsplit("=", 1)[1] not in legal:
        return None
    found = BLANK.search(text, cursor)
    return found.end() if found else len(text)


def asker(current: Callable[[], Prompt]) -> Callable[[str], str]:
    """How the recorder reads a line: in a terminal, a prompt_toolkit prompt (Tab completes a legal word, Ctrl-C
    clears the line, Ctrl-D leaves, a template is put on the line to edit in place); from a pipe, plain input()."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return lambda prefill: input(_(PROMPT))
    # No completion menu drawn below the line, so no cursor-position requests (terminals that do not answer
    # them, pexpect's among them, would get a warning and a wait): as the replay stepper does.
    os.environ.setdefault("PROMPT_TOOLKIT_NO_CPR", "1")
    from prompt_toolkit import PromptSession
    from prompt_toolkit.document import Document
    from prompt_toolkit.filters import Condition
    from prompt_toolkit.key_binding import KeyBindings

    keys = KeyBindings()

    @keys.add("c-c")
    def clear(event: KeyPressEvent) -> None:
        event.current_buffer.reset()

    def jump() -> int | None:
        document = session.default_buffer.document
        typed = document.text_before_cursor.split()[:-1]
        return filled_slot(document.text, document.cursor_position, legal_words(current(), typed))

    @keys.add("tab", filter=Condition(lambda: jump() is not None))
    def next_blank(event: KeyPressEvent) -> None:
        event.current_buffer.cursor_position = jump() or 0  # never None: the filter asked first

    session: PromptSession[str] = PromptSession(key_bindings=keys, completer=completer(current),
                                                complete_while_typing=False, reserve_space_for_menu=0)

    def ask(prefill: str) -> str:
        # prompt_toolkit writes the prompt once the terminal is in raw mode: a key sent on seeing it (Ctrl-C,
        # Ctrl-D) reaches the recorder, not the terminal's line discipline
        return session.prompt(_(PROMPT), default=Document(prefill, first_blank(prefill)))

    return ask


def said_forms(word: str) -> list[str]:
    """How the reader may type a legal word in their language, where that is one word (Tab completes words):
    `bear.sheriff` -> "Ours.Commissaire", `raven` -> "Corbeau" (a society's first word), none in English."""
    if tongue() is ENGLISH:
        return []
    if "." in word:
        left, _dot, right = word.partition(".")
        forms = [term(left), term(right)]
        return [".".join(forms)] if all(" " not in f for f in forms) and forms != [left, right] else []
    if word not in KIND_OF:
        return []
    said = term(word)
    if " " in said:
        return [said.split()[0]] if KIND_OF[word] == "society" else []
    return [said] if said != word else []


def fold(text: str) -> str:
    """For matching what is typed: no case, no accents."""
    import unicodedata

    plain = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in plain if not unicodedata.combining(c))
