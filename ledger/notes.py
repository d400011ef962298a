"""Notes on a game's events: what a well-formed note is, checked on the way into the store and on the way out.

A note is {"at": event number, "text", "author" (or None), "tag" (one of TAGS, or None), "time" (ISO 8601)},
plus "unchained": True when it came from a record file whose notes no hash chain covered (see recordfile).
Notes are free text: they are only ever shown, never read back as a move.
"""

from datetime import datetime
from typing import Any, Final

from whispers.ledger.text import has_line_break, is_utf8

TAGS: Final = ("blunder", "good", "question", "ruling")
TEXT_LIMIT: Final = 4000
AUTHOR_LIMIT: Final = 64
KEYS: Final = frozenset({"at", "text", "author", "tag", "time"})
OPTIONAL_KEYS: Final = frozenset({"unchained"})


def problem(note: Any, events: int) -> str | None:
    """What is wrong with `note` on a game of `events` events, in a few words; None if it is well formed."""
    if not isinstance(note, dict):
        return "it is not a note"
    if set(note) == {"unreadable"}:  # what Store.notes gives for a stored note it cannot decode
        return str(note["unreadable"])[:100]
    if missing := KEYS - set(note):
        return f"it has no {sorted(missing)[0]!r}"
    if extra := set(note) - KEYS - OPTIONAL_KEYS:
        return f"it has an unknown field {sorted(map(repr, extra))[0][:40]}"
    at, text, author, tag, time = (note[k] for k in ("at", "text", "author", "tag", "time"))
    if type(at) is not int or not 1 <= at <= events:
        return f"its event number is not one of 1 to {events}"
    if not isinstance(text, str) or not text.strip() or len(text) > TEXT_LIMIT or not is_utf8(text):
        return f"its text is not UTF-8 text of 1 to {TEXT_LIMIT} characters"
    if author is not None and not (isinstance(author, str) and author.strip() and len(author) <= AUTHOR_LIMIT
                                   and not has_line_break(author) and is_utf8(author)):
        return f"its author is not a name of one line of UTF-8 text, at most {AUTHOR_LIMIT} characters"
    if tag is not None and tag not in TAGS:
        return f"its tag is not one of {', '.join(TAGS)}"
    if not isinstance(time, str) or len(time) > 40 or not _is_time(time):
        return "its time is not an ISO 8601 time"
    if note.get("unchained", True) is not True:
        return "its 'unchained' mark is not true"
    return None


def _is_time(text: str) -> bool:
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


def shown_by(note: dict[str, Any]) -> str:
    """The tag, author and any unchained mark of a note, as words to show beside it ('' when none)."""
    marks = [note.get("tag"), note.get("author"), "unchained" if note.get("unchained") else None]
    return ", ".join(x for x in marks if x)
