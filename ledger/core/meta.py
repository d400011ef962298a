"""Who, when, where: a game's table facts (players' names per seat, place, event, round, table, tags, a display
title, archived), kept as `GameDescribed` events of their own and never part of the game state.

Each `GameDescribed` holds only what it changes: a value sets a field, None clears it; `seats` changes only the
seats it names. Free text here is data and never a move: every value is one printable line (validated when it
is recorded and when a record is read back), and the log writes it as a PGN-style tag line, `[Event "Winter
Cup"]`, its value a JSON string, that `tag_line` reads back.
"""

import json
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Literal, TypedDict, cast

import msgspec

from whispers.ledger.core.errors import NotationError
from whispers.ledger.core.names import SOCIETIES
from whispers.ledger.core.text import is_utf8
from whispers.ledger.core.words import _, say

if TYPE_CHECKING:
    from whispers.ledger.core.events import Event, TableChanges
    from whispers.ledger.core.plain import Data

MAX_TEXT = 120
TextField = Literal["title", "place", "event", "round", "table"]
TEXT_FIELDS: tuple[TextField, ...] = ("title", "place", "event", "round", "table")
"""The one-line fields; `round` and `table` are text too ("3", "B", "semi-final")."""
KEYS = (*TEXT_FIELDS, "seats", "tags", "archived")

# PGN-style tag names, and the field each stands for
_TAGS = {"Title": "title", "Site": "place", "Event": "event", "Round": "round", "Table": "table",
         "Tags": "tags", "Archived": "archived", "Recorded": "time"}
_TAGS.update({society.capitalize(): society for society in SOCIETIES})
_TAG_OF = {v: k for k, v in _TAGS.items()}
_TAG_LINE = re.compile(r'\[([A-Z][a-z]+) ("(?:[^"\\]|\\.)*")\]')


class MetaJson(TypedDict):
    """`Meta.to_json`: who, when, where, as a listing row and the JSON carry it."""

    seats: dict[str, str]
    title: str | None
    place: str | None
    event: str | None
    round: str | None
    table: str | None
    tags: list[str]
    archived: bool
    recorded: str | None


class Meta(msgspec.Struct, frozen=True):
    """The table facts of a game, as its `GameDescribed` events leave them."""

    seats: dict[str, str] = msgspec.field(default_factory=dict)
    title: str | None = None
    place: str | None = None
    event: str | None = None
    round: str | None = None
    table: str | None = None
    tags: tuple[str, ...] = ()
    archived: bool = False
    recorded: str | None = None
    """When the first description was recorded (UTC, ISO 8601), by the clock of the machine that recorded it."""

    def to_json(self) -> MetaJson:
        return {"seats": dict(self.seats), "title": self.title, "place": self.place, "event": self.event,
                "round": self.round, "table": self.table, "tags": list(self.tags), "archived": self.archived,
                "recorded": self.recorded}


def text_problem(value: object, what: str) -> str | None:
    """Why `value` cannot be a metadata text (None if it can): one printable line of at most MAX_TEXT."""
    if not isinstance(value, str):
        return say("{text} is not text", text=what)
    if not value.strip():
        return say("{text} is empty", text=what)
    if not is_utf8(value) or not value.isprintable():
        return say("{text} holds a line break or a control character", text=what)
    if len(value) > MAX_TEXT:
        return say("{text} is {n} characters long: at most {limit}", text=what, n=len(value), limit=MAX_TEXT)
    if value != value.strip():
        return say("{text} starts or ends with a space", text=what)
    return None


def problem(changes: object, players: Iterable[str] | None = None) -> str | None:
    """Why `changes` is not a well-formed description (None if it is); `players` limits the seats."""
    if not isinstance(changes, Mapping) or not changes:
        return _("a description changes nothing")
    for key, value in changes.items():
        if key not in KEYS:
            return say("unknown field {text}: the fields are {fields}", text=repr(key), fields=", ".join(KEYS))
        if key in TEXT_FIELDS:
            if value is not None and (wrong := text_problem(value, key)):
                return wrong
        elif key == "archived":
            if not isinstance(value, bool):
                return _("archived is yes or no")
        elif key == "tags":
            if not isinstance(value, list | tuple):
                return _("tags is not a list")
            for tag in value:
                if (wrong := text_problem(tag, _("a tag"))) or (wrong := _("a tag holds a comma") if "," in tag
                                                                else None):
                    return wrong
        elif key == "seats":
            if not isinstance(value, Mapping) or not value:
                return _("seats names no seat")
            for seat, name in value.items():
                allowed = SOCIETIES if players is None else tuple(players)
                if seat not in allowed:
                    return say("seat {text} is not one of this game's societies ({societies})", text=repr(seat),
                              societies=", ".join(allowed))
                if name is not None and (wrong := text_problem(name, say("the name at {society}", society=seat))):
                    return wrong
    return None


def time_problem(time: object) -> str | None:
    if time is None:
        return None
    if not isinstance(time, str) or not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?",
                                                    time):
        return say("the time {text} is not an ISO 8601 date and time", text=repr(time))
    return None


def apply(meta: Meta, changes: "TableChanges", time: str | None) -> Meta:
    """`meta` after one description."""
    seats = dict(meta.seats)
    for seat, name in changes.get("seats", {}).items():
        if name is None:
            seats.pop(seat, None)
        else:
            seats[seat] = name
    return Meta(seats=seats, title=changes.get("title", meta.title), place=changes.get("place", meta.place),
                event=changes.get("event", meta.event), round=changes.get("round", meta.round),
                table=changes.get("table", meta.table), tags=tuple(changes.get("tags", meta.tags)),
                archived=changes.get("archived", meta.archived),
                recorded=time if meta.recorded is None else meta.recorded)


def tag_lines(changes: "TableChanges", time: str | None) -> list[str]:
    """A description as PGN-style tag lines: each value a JSON string on one line (values hold no line break)."""
    pairs: list[tuple[str, object]] = []
    for key, value in changes.items():
        if key == "seats":
            pairs += [(seat, "" if name is None else name) for seat, name in changes["seats"].items()]
        elif key == "tags":
            pairs.append((key, ",".join(changes["tags"])))
        elif key == "archived":
            pairs.append((key, "yes" if value else "no"))
        else:
            pairs.append((key, "" if value is None else value))
    if time is not None:
        pairs.append(("time", time))
    return [f"[{_TAG_OF[key]} {json.dumps(value, ensure_ascii=False)}]" for key, value in pairs]


class TagLine(msgspec.Struct, frozen=True):
    """One tag line read back: the field it sets (a society for a seat, "time" for when it was recorded)."""

    key: str
    value: str


def is_tag_line(line: str) -> bool:
    return line.lstrip().startswith("[")


def tag_line(line: str) -> TagLine:
    """A `[Tag "value"]` line read back; NotationError if it is not exactly one well-formed tag."""
    match = _TAG_LINE.fullmatch(line.strip())
    if match is None:
        raise NotationError(_("a tag line is [Name \"value\"], the value in double quotes"))
    name, quoted = match.groups()
    if name not in _TAGS:
        raise NotationError(say("unknown tag [{text}]: the tags are {tags}", text=name, tags=", ".join(_TAGS)))
    try:
        value = json.loads(quoted)
    except ValueError:
        raise NotationError(say("the value of [{text}] is not a quoted string", text=name)) from None
    if not isinstance(value, str):
        raise NotationError(say("the value of [{text}] is not a quoted string", text=name))
    return TagLine(_TAGS[name], value)


def from_tags(tags: Iterable[TagLine]) -> tuple["TableChanges", str | None]:
    """The changes and the time a run of tag lines says; NotationError if they do not make one description."""
    changes: Data = {}
    seats: dict[str, str | None] = {}  # the changes' "seats", where the first seat's tag puts it
    time = None
    for tag in tags:
        if tag.key == "time":
            time = tag.value
        elif tag.key in SOCIETIES:
            changes.setdefault("seats", seats)
            seats[tag.key] = tag.value or None
        elif tag.key == "tags":
            changes["tags"] = [t for t in tag.value.split(",") if t] if tag.value else []
        elif tag.key == "archived":
            if tag.value not in ("yes", "no"):
                raise NotationError(_("[Archived] is \"yes\" or \"no\""))
            changes["archived"] = tag.value == "yes"
        else:
            changes[tag.key] = tag.value or None
    if (wrong := problem(changes)) or (wrong := time_problem(time)):
        raise NotationError(say("the tag lines do not make a description: {message}", message=wrong))
    return cast("TableChanges", changes), time  # checked just above


def of_events(events: Iterable["Event"]) -> Meta:
    """The table facts a record's `GameDescribed` events leave."""
    from whispers.ledger.core.events import GameDescribed

    meta = Meta()
    if isinstance(events, list | tuple) and GameDescribed not in map(type, events):  # most records, at C speed
        return meta
    for event in events:
        if isinstance(event, GameDescribed):
            meta = apply(meta, event.changes, event.time)
    return meta
