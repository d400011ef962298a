"""Notes on a game's events: what a well-formed note is, checked on the way into the store and on the way out.

The notes stream holds three kinds of entry, each appended, none ever rewritten (history is kept):
- a note: {"at": event number, "text", "author" (or None), "tag" (one of TAGS, or None), "time" (ISO 8601)},
  and, from this version, maybe "glyph" (one of GLYPHS, PGN's move assessments);
- an edit: {"edits": note number, "text", "author", "tag", "glyph", "time"}: the note's text, tag and glyph
  from then on (author: who edited it);
- a withdrawal: {"withdraws": note number, "author", "time"}: the note is no longer shown, except in its history;
- a variation: {"variation": its name, "at": event number, "lines": notation lines, "author", "time"}: moves
  that could have followed the game's first `at` events (PGN's and SGF's variations), kept inside the game and
  decided by the rules again whenever they are replayed (ledger/io/game.py play_variation).
A note's number is its 1-based place among the stream's well-formed entries. Any entry may carry "unchained":
True when it came from a record file whose notes no hash chain covered (see recordfile).
Notes are free text: they are only ever shown, never read back as a move.
"""

from collections.abc import Sequence
from datetime import datetime
from typing import Final, TypedDict, cast

from whispers.ledger.core.text import has_line_break, is_utf8
from whispers.ledger.core.words import _, say


class NoteEntry(TypedDict, total=False):
    """An entry of the notes stream, of any of its kinds (above), as `problem` found it well formed; and a note as
    `current` and `history` show it, with its `number` (and `edited`, `kind`, `note`)."""

    at: int
    text: str
    author: str | None
    tag: str | None
    glyph: str | None
    time: str
    unchained: bool
    edits: int
    withdraws: int
    variation: str
    lines: list[str]
    number: int
    edited: str
    kind: str
    note: int


TAGS: Final = ("blunder", "good", "question", "ruling", "dispute")
"""`dispute`: a seat disputes a swap of its sealed set the table recorded (application/seats.py)."""
TEXT_LIMIT: Final = 4000
AUTHOR_LIMIT: Final = 64
GLYPHS: Final = ("!!", "!", "!?", "?!", "?", "??")
"""PGN's move assessments (NAG 1-6): brilliant, good, interesting, dubious, mistake, blunder."""
KEYS: Final = frozenset({"at", "text", "author", "tag", "time"})
OPTIONAL_KEYS: Final = frozenset({"unchained", "glyph"})
EDIT_KEYS: Final = frozenset({"edits", "text", "author", "tag", "glyph", "time"})
WITHDRAW_KEYS: Final = frozenset({"withdraws", "author", "time"})
VARIATION_KEYS: Final = frozenset({"variation", "at", "lines", "author", "time"})
VARIATION_LINES: Final = 5000
LINE_LIMIT: Final = 4096  # notation.MAX_LINE


def kind(entry: NoteEntry) -> str:
    """"edit", "withdrawal" or "note": what an entry of the notes stream is."""
    if "variation" in entry:
        return "variation"
    return "edit" if "edits" in entry else "withdrawal" if "withdraws" in entry else "note"


def problem(value: object, events: int, earlier: Sequence[NoteEntry] = ()) -> str | None:
    """What is wrong with `value` (any entry of the stream) on a game of `events` events, after the well-formed
    entries `earlier`, in a few words; None if it is well formed."""
    if not isinstance(value, dict):
        return _("it is not a note")
    note = cast("NoteEntry", value)  # its keys and values are checked below
    if set(value) == {"unreadable"}:  # what Store.notes gives for a stored note it cannot decode
        return str(value["unreadable"])[:100]
    what = kind(note)
    keys = {"note": KEYS, "edit": EDIT_KEYS, "withdrawal": WITHDRAW_KEYS, "variation": VARIATION_KEYS}[what]
    if missing := keys - set(note):
        return say("it has no {text}", text=repr(sorted(missing)[0]))
    if extra := set(note) - keys - OPTIONAL_KEYS:
        return say("it has an unknown field {text}", text=sorted(map(repr, extra))[0][:40])
    if what == "variation" and (wrong := _variation_problem(note, earlier)):
        return wrong
    if what in ("note", "variation"):
        at = note["at"]
        if type(at) is not int or not 1 <= at <= events:
            return say("its event number is not one of 1 to {n}", n=events)
    else:
        target = note["edits" if what == "edit" else "withdraws"]
        if type(target) is not int or not 1 <= target <= len(earlier) or kind(earlier[target - 1]) != "note":
            return _("it names no note before it")
        if any(kind(e) == "withdrawal" and e["withdraws"] == target for e in earlier):
            return say("note {n} was withdrawn already", n=target)
    text, author, tag, time = (note.get(k) for k in ("text", "author", "tag", "time"))
    if what in ("note", "edit") and (not isinstance(text, str) or not text.strip() or len(text) > TEXT_LIMIT
                                 or not is_utf8(text)):
        return say("its text is not UTF-8 text of 1 to {limit} characters", limit=TEXT_LIMIT)
    if note.get("glyph") is not None and note["glyph"] not in GLYPHS:
        return say("its glyph is not one of {glyphs}", glyphs=" ".join(GLYPHS))
    if author is not None and not (isinstance(author, str) and author.strip() and len(author) <= AUTHOR_LIMIT
                                   and not has_line_break(author) and is_utf8(author)):
        return say("its author is not a name of one line of UTF-8 text, at most {limit} characters", limit=AUTHOR_LIMIT)
    if tag is not None and tag not in TAGS:
        return say("its tag is not one of {tags}", tags=", ".join(TAGS))
    if not isinstance(time, str) or len(time) > 40 or not _is_time(time):
        return _("its time is not an ISO 8601 time")
    if note.get("unchained", True) is not True:
        return _("its 'unchained' mark is not true")
    return None


def _variation_problem(entry: NoteEntry, earlier: Sequence[NoteEntry]) -> str | None:
    name, lines = entry["variation"], entry["lines"]
    if not (isinstance(name, str) and name.strip() and len(name) <= AUTHOR_LIMIT and not has_line_break(name)
            and is_utf8(name)):
        return say("its name is not one line of 1 to {limit} characters", limit=AUTHOR_LIMIT)
    if any(kind(e) == "variation" and e["variation"] == name for e in earlier):
        return say("a variation named {text} is kept already", text=repr(name[:40]))
    if not (isinstance(lines, list) and 1 <= len(lines) <= VARIATION_LINES and all(
            isinstance(line, str) and line.strip() and len(line) <= LINE_LIMIT and not has_line_break(line)
            and is_utf8(line) for line in lines)):
        return say("its moves are not 1 to {limit} lines of notation", limit=VARIATION_LINES)
    return None


def _is_time(text: str) -> bool:
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return False
    return True


def shown_by(note: NoteEntry) -> str:
    """The glyph, tag, author and any edited or unchained mark of a note, as words to show beside it ('' when
    none)."""
    marks = [note.get("glyph"), note.get("tag"), note.get("author"), "edited" if note.get("edited") else None,
             "unchained" if note.get("unchained") else None]
    return ", ".join(x for x in marks if x)


def current(entries: Sequence[NoteEntry]) -> list[NoteEntry]:
    """The notes as they read now: each note with its edits applied and its `number`, withdrawn ones left out.
    An edited note keeps its first author and time and gains "edited" (the time of its last edit)."""
    notes: dict[int, NoteEntry] = {}
    for number, entry in enumerate(entries, start=1):
        match kind(entry):
            case "note":
                notes[number] = {"number": number, **entry, "glyph": entry.get("glyph")}
            case "edit":
                notes[entry["edits"]].update({"text": entry["text"], "tag": entry["tag"], "glyph": entry["glyph"],
                                              "edited": entry["time"]})
            case "withdrawal":
                del notes[entry["withdraws"]]
            case "variation":
                pass  # not a note: ledger/io/game.py variations
    return list(notes.values())


def history(entries: Sequence[NoteEntry]) -> list[NoteEntry]:
    """Every entry of the stream in order, each with its `number`, its `kind` and the note it is about (`note`)."""
    return [{"number": number, "kind": kind(entry), "note": entry.get("edits", entry.get("withdraws", number)),
             **entry} for number, entry in enumerate(entries, start=1)]
