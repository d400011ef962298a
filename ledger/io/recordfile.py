"""The portable record file: msgpack, a header (format version, ruleset, board hash) and a hash chain.

Each event's link is sha256(previous link + the event's msgpack bytes); the header repeats the count and
the last link, so a truncated, reordered or edited file is refused with the first bad event named. The
chain makes tampering evident, not impossible: whoever can rewrite the file can rewrite the chain, so
publish the head hash (`whispers verify` prints it) beside the file where that matters. The head is a digest of
every event, hidden facts included: it goes only where the record goes (docs/architecture.md "Digests").

Notes are chained the same way, apart from the events (a note is commentary, not a move): the header's
`notes_head` is the last link over the notes, in order, and `notes` their count. A file written before notes
were chained has no `notes_head`: its events import as always, and its notes import marked "unchained", so
that nobody takes them for part of the checked record.

The header also says who, when and where (`table`: the players' names per seat, place, event, round, table,
tags, title, and when the first of these was recorded), as the record's `GameDescribed` events leave them, so that
a reader of the header alone learns it. The events stay the record of it: on reading, a `table` that differs from
what the events say is refused as altered. A file written before the header carried it has no `table`, and reads
as always (its events still carry the facts, if any).
"""

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, NotRequired, TypedDict, cast

import msgpack

from whispers.ledger.core.digests import sha256
from whispers.ledger.core.errors import RecordFileError
from whispers.ledger.core.plain import Data
from whispers.ledger.core.streams import Fact
from whispers.ledger.core.words import say

if TYPE_CHECKING:
    from whispers.ledger.core.events import TableChanges
    from whispers.ledger.core.meta import MetaJson
    from whispers.ledger.core.notes import NoteEntry
    from whispers.ledger.core.pins import Pin

FORMAT = "whispers-record"
VERSION = 1
GENESIS = "0" * 64


class Header(TypedDict):
    """A record file's header as `loads` gives it: the keys it requires, of the types it checks, and the others as
    the file holds them (each compared with what the record says, when there)."""

    game: str
    ruleset: str
    board: str
    board_hash: str
    events: int
    head: str
    ruleset_hash: NotRequired[object]
    notes: NotRequired[object]
    notes_head: NotRequired[object]
    table: NotRequired[object]


def link(previous: str, fact: Mapping[str, object]) -> str:
    return sha256(bytes.fromhex(previous) + msgpack.packb(fact, use_bin_type=True)).hexdigest()


def chain(facts: Sequence[Mapping[str, object]]) -> list[str]:
    links, previous = [], GENESIS
    for number, fact in enumerate(facts, start=1):
        try:
            previous = link(previous, fact)
        except OverflowError:  # a store written before content files' numbers were bounded (ledger/io/input_files.py)
            raise RecordFileError(say("event {number} holds a number past 64 bits, which no record file can hold",
                                      number=number)) from None
        links.append(previous)
    return links


def notes_head(notes: Sequence[Mapping[str, object]]) -> str:
    """The last link of the chain over a game's notes (GENESIS when it has none)."""
    return chain(notes)[-1] if notes else GENESIS


def dumps(name: str, facts: list[Fact], notes: Sequence[Mapping[str, object]] | None = None) -> bytes:
    if not facts or facts[0].get("type") != "GameStarted":
        raise RecordFileError(say("a record starts with its GameStarted event"))
    links = chain(facts)
    first = facts[0]
    try:
        ruleset, board = _pins(first)
        board_hash = first["board_hash"]
    except (KeyError, TypeError, ValueError, AttributeError):  # a damaged first fact: no ruleset or board to pin
        raise RecordFileError(say("a record starts with its GameStarted event")) from None
    header = {
        "game": name, "ruleset": ruleset.label, "board": board.label, "ruleset_hash": ruleset.hash,
        "board_hash": board_hash, "events": len(facts), "head": links[-1],
        "notes": len(notes or []), "notes_head": notes_head(notes or []), "table": table_facts(facts),
    }
    body = {"format": FORMAT, "version": VERSION, "header": header,
            "events": [[fact, h] for fact, h in zip(facts, links, strict=True)], "notes": notes or []}
    return msgpack.packb(body, use_bin_type=True)


def table_facts(facts: list[Fact]) -> "MetaJson | None":
    """Who, when, where as the `GameDescribed` facts leave them (ledger/core/meta.py's `Meta.to_json()`); None when one
    of them is malformed (the record is then refused by verify, which names the event)."""
    from whispers.ledger.core.meta import Meta, apply, problem, time_problem

    found = Meta()
    for fact in facts:
        if fact.get("type") == "GameDescribed":
            changes, time = fact.get("changes"), fact.get("time")
            if problem(changes) or time_problem(time):
                return None
            # both checked just above
            found = apply(found, cast("TableChanges", changes), cast("str | None", time))
    return found.to_json()


def _pins(first: Fact) -> tuple["Pin", "Pin"]:
    """(ruleset, board) of a GameStarted fact, shipped/modified/custom, for the header's labels; KeyError or TypeError
    for a fact that does not embed them."""
    from whispers.ledger.core.pins import content_hash
    from whispers.ledger.io.shipped import pin

    ruleset, board = first["ruleset"], first["board"]
    if not isinstance(ruleset, dict) or not isinstance(board, dict):
        raise TypeError("a GameStarted fact embeds its ruleset and board as tables")
    return (pin("ruleset", ruleset["id"], content_hash(ruleset)), pin("board", board["id"], content_hash(board)))


def _ruleset_hash(first: Fact) -> str | None:
    """The content hash of the ruleset a GameStarted fact embeds (None if it embeds none)."""
    from whispers.ledger.core.pins import content_hash

    ruleset = first.get("ruleset")
    return content_hash(ruleset) if isinstance(ruleset, dict) else None


def looks_like_record(data: bytes) -> bool:
    """A msgpack map at the start (fixmap or map16/map32), which no notation text begins with."""
    return bool(data) and (0x80 <= data[0] <= 0x8F or data[0] in (0xDE, 0xDF))


def loads(data: bytes, source: str) -> tuple[Header, list[Data], list["NoteEntry"]]:
    """(header, facts, notes) from a record file; RecordFileError names what is wrong and where."""
    try:
        body = msgpack.unpackb(data, raw=False, strict_map_key=True)
    except (msgpack.ExtraData, msgpack.FormatError, msgpack.StackError, ValueError, TypeError) as exc:
        where = _bad_part(data)
        if isinstance(exc, UnicodeDecodeError):
            raise RecordFileError(say("{file}: {part} is corrupt: it holds bytes that are not UTF-8 text (a flipped "
                                      "byte?)", file=source, part=where or say("the file"))) from None
        truncated = "Unpack failed" in str(exc) or isinstance(exc, ValueError)
        kind = say("truncated") if truncated else say("malformed")
        at = say(" at {part}", part=where) if where else ""
        raise RecordFileError(say("{file}: not a whispers record file ({kind}{at}: {message})", file=source, kind=kind,
                                  at=at, message=str(exc).replace("\n", " "))) from None
    if not isinstance(body, dict) or body.get("format") != FORMAT:
        raise RecordFileError(say("{file}: not a whispers record file", file=source))
    if body.get("version") != VERSION:
        raise RecordFileError(say("{file}: record format version {text}; this whispers reads {version}", file=source,
                                  text=repr(body.get("version")), version=VERSION))
    header, entries = body.get("header"), body.get("events")
    if not isinstance(header, dict) or not isinstance(entries, list):
        raise RecordFileError(say("{file}: the record has no header or no events", file=source))
    for key, expected in (("game", str), ("ruleset", str), ("board", str), ("board_hash", str), ("events", int),
                          ("head", str)):
        if not isinstance(header.get(key), expected):
            raise RecordFileError(say("{file}: the header's {text} is missing or malformed", file=source,
                                      text=repr(key)))
    if header.get("events") != len(entries):
        raise RecordFileError(say("{file}: truncated record: the header lists {listed} events, the file holds {held}",
                                  file=source, listed=header.get("events"), held=len(entries)))
    facts, previous = [], GENESIS
    for index, entry in enumerate(entries, start=1):
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], dict)):
            raise RecordFileError(say("{file}: event {n} is malformed", file=source, n=index))
        fact, claimed = entry
        previous = link(previous, fact)
        if claimed != previous:
            raise RecordFileError(say("{file}: hash chain broken at event {n} ({text}): the record was altered",
                                      file=source, n=index, text=repr(fact.get("type", "?"))))
        facts.append(fact)
    if header.get("head") != previous:
        raise RecordFileError(say("{file}: the header's head hash does not match the events: the record was altered",
                                  file=source))
    if facts and (facts[0].get("type") != "GameStarted" or facts[0].get("board_hash") != header.get("board_hash")
                  or ("ruleset_hash" in header and _ruleset_hash(facts[0]) != header["ruleset_hash"])):
        raise RecordFileError(say("{file}: the header does not match the game's first event", file=source))
    if "table" in header and (said := table_facts(facts)) is not None and header["table"] != said:
        raise RecordFileError(say("{file}: the header's table facts (players, place, event...) do not match the "
                                  "record's events: the header was altered", file=source))
    return cast(Header, header), facts, _notes(body, header, len(facts), source)  # its keys checked above


def _bad_part(data: bytes) -> str | None:
    """Where a file that msgpack cannot read goes wrong ("event 12", "note 3"), read one entry at a time."""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=True, max_buffer_size=len(data) + 1)
    unpacker.feed(data)
    try:
        for _ in range(unpacker.read_map_header()):
            key = unpacker.unpack()
            if key not in ("events", "notes"):
                unpacker.skip()
                continue
            for number in range(1, unpacker.read_array_header() + 1):
                try:
                    unpacker.unpack()
                except (ValueError, msgpack.OutOfData, msgpack.FormatError, msgpack.StackError):
                    return say("event {n}", n=number) if key == "events" else say("note {n}", n=number)
    except (ValueError, msgpack.OutOfData, msgpack.FormatError, msgpack.StackError, TypeError):
        return None
    return None


def _notes(body: Data, header: Mapping[str, object], events: int, source: str) -> list["NoteEntry"]:
    from whispers.ledger.core.notes import problem

    notes = body.get("notes") or []
    if not isinstance(notes, list):
        raise RecordFileError(say("{file}: malformed notes", file=source))
    for number, note in enumerate(notes, start=1):
        if (wrong := problem(note, events, notes[:number - 1])) is not None:
            raise RecordFileError(say("{file}: note {n} is malformed: {message}", file=source, n=number, message=wrong))
    if "notes_head" not in header:
        return [{**note, "unchained": True} for note in notes]
    if header.get("notes") != len(notes) or header.get("notes_head") != notes_head(notes):
        raise RecordFileError(say("{file}: the header's notes hash does not match the notes: the notes were altered",
                                  file=source))
    return notes
