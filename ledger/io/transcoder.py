"""Msgpack encoding of stored event state, for eventsourcing's Mapper.

Facts are plain data. Richer values (every event's timezone-aware timestamp, and any UUID or Decimal) travel as
msgpack extension types, as do ints beyond msgpack's 64 bits. Tuples come back as lists.

Each state is stored compressed (`packed`): deflate with a preset dictionary of typical states
(ledger/io/state-dictionary-N.zdict, written by tools/state_dictionary.py) takes a state of about 120 bytes to about
22. A compressed state starts with 0xC1, the one byte msgpack never uses, then its dictionary's number; a state
stored before (plain msgpack) is read as it is. States are written with the standard library's zlib (so the stored
bytes stay what they were) and read with zlib-ng's, the same deflate format: priming an inflater with the 16 KB
dictionary, once per state, is most of a cold catalog's expanding, and zlib-ng does it in three quarters of the time
(a primed inflater cannot be reused for the next state, and copying one costs twice making it).
"""

import struct
import zlib
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Final, Protocol, TypedDict, Union
from uuid import UUID

import msgpack
import msgspec
from zlib_ng import zlib_ng

from whispers.ledger.core.digests import sha256
from whispers.ledger.core.events import EVENT_TYPES, Event, from_frozen_fact, stand_in
from whispers.ledger.core.streams import Fact

EXT_UUID: Final = 1
EXT_DATETIME: Final = 2
EXT_DECIMAL: Final = 3
EXT_BIGINT: Final = 4
EXT_UTC_MICROSECONDS: Final = 5
"""Extension type codes. They are written into every stored record: never renumber them."""

COMPRESSED: Final = 0xC1
"""The first byte of a compressed state: msgpack never uses it, so no plain state starts with it."""
DICTIONARIES: Final = {1: "39c9f5208480eae53ca17d55644a36ff2a8b067aac0daeb9a64ddf05878d66e6"}
"""Each preset dictionary by number, with the sha256 of its bytes: rows compressed with one are read with exactly
those bytes, so a dictionary is never changed, only another added (tools/state_dictionary.py)."""
WRITTEN_WITH: Final = 1
"""The dictionary new rows are compressed with."""
MAX_STATE: Final = 64 * 1024 * 1024
"""The most bytes a compressed state may expand to (the largest a board and ruleset need is a few hundred KB):
damaged or hostile bytes that would expand further are refused, not expanded."""



class StoredState(TypedDict, total=False):
    """A stored event's state, decoded: its event's fields (ledger/io/records.py), each kind of event its own, beside
    eventsourcing's (`timestamp`; a first event's `originator_topic`). Bytes that are not a state decode to what
    they hold: their reader catches what reading them as one raises."""

    timestamp: datetime | None  # None as `decode_frozen` reads it
    originator_topic: str
    name: str  # a game's first event
    fact: Fact  # a game's events
    game: str  # the first event of a game's notes
    note: Fact  # a note
    digest: str  # a content's event
    data: Fact


_HEADER: Final = bytes((COMPRESSED, WRITTEN_WITH))
"""How a state compressed with the current dictionary starts."""
_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND: Final = timedelta(microseconds=1)
_INT64: Final = struct.Struct(">q")


def _default(obj: object) -> msgpack.ExtType:
    if isinstance(obj, UUID):
        return msgpack.ExtType(EXT_UUID, obj.bytes)
    if isinstance(obj, datetime):
        if obj.tzinfo is UTC:  # every event's timestamp: 10 bytes, where its ISO text took 35 (issue 12)
            return msgpack.ExtType(EXT_UTC_MICROSECONDS, _INT64.pack((obj - _EPOCH) // _MICROSECOND))
        # ISO 8601 keeps any other UTC offset (msgpack's own timestamp type would normalise it to UTC).
        return msgpack.ExtType(EXT_DATETIME, obj.isoformat().encode())
    if isinstance(obj, Decimal):
        return msgpack.ExtType(EXT_DECIMAL, str(obj).encode())
    if isinstance(obj, int):
        # msgpack calls this hook for ints outside the 64-bit range.
        return msgpack.ExtType(EXT_BIGINT, str(obj).encode())
    raise TypeError(f"cannot store a value of type {type(obj).__name__}: {obj!r}")


def _ext_hook(code: int, data: bytes) -> object:
    if code == EXT_UUID:
        return UUID(bytes=data)
    if code == EXT_UTC_MICROSECONDS:
        return _EPOCH + _INT64.unpack(data)[0] * _MICROSECOND
    if code == EXT_DATETIME:
        return datetime.fromisoformat(data.decode())
    if code == EXT_DECIMAL:
        return Decimal(data.decode())
    if code == EXT_BIGINT:
        return int(data)
    raise ValueError(f"unknown msgpack extension type {code}")


_LOADED: dict[int, bytes] = {}


def _dictionary(number: int) -> bytes:
    """Dictionary `number`'s bytes, loaded once and checked against its pinned hash."""
    if number in _LOADED:
        return _LOADED[number]
    expected = DICTIONARIES.get(number)
    if expected is None:
        raise ValueError(f"it was compressed with dictionary {number}, which this whispers does not have (a newer "
                         "whispers wrote it)")
    try:
        data = Path(__file__).with_name(f"state-dictionary-{number}.zdict").read_bytes()
    except OSError as e:
        raise ValueError(f"state-dictionary-{number}.zdict cannot be read ({e.strerror}): reinstall whispers") from None
    if sha256(data).hexdigest() != expected:
        raise ValueError(f"state-dictionary-{number}.zdict is not the file it was: reinstall whispers")
    _LOADED[number] = data
    return data


@cache
def _compressor(number: int) -> "zlib._Compress":
    """A deflate stream primed with the dictionary, copied for each state (priming costs three times a copy)."""
    return zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, zdict=_dictionary(number))


def packed(plain: bytes) -> bytes:
    """A msgpack state as stored: compressed with the current dictionary, or as it is where that is no shorter."""
    compressor = _compressor(WRITTEN_WITH).copy()
    compressed = compressor.compress(plain) + compressor.flush()
    return _HEADER + compressed if len(compressed) + 2 < len(plain) else plain


def unpacked(stored: bytes) -> bytes:
    """The msgpack state of stored bytes (`packed`'s inverse); raises ValueError on bytes that do not expand whole
    into at most MAX_STATE bytes. (Written for speed: a cold catalog expands every state of every game.)"""
    if not stored or stored[0] != COMPRESSED:
        return stored
    if len(stored) < 2:
        raise ValueError("a compressed state with no dictionary number")
    expander = zlib_ng.decompressobj(-15, zdict=_LOADED.get(stored[1]) or _dictionary(stored[1]))
    try:
        plain = expander.decompress(stored[2:], MAX_STATE)
    except zlib_ng.error as e:  # type: ignore[misc]  # its stub says an instance: it is the class
        raise ValueError(f"its compressed bytes are damaged ({e})") from None
    if expander.unconsumed_tail or not expander.eof or expander.unused_data:
        if expander.unconsumed_tail:
            raise ValueError(f"its compressed bytes expand to more than {MAX_STATE} bytes")
        raise ValueError("its compressed bytes are cut short or followed by others")
    return plain


def unpacked_all(stored: list[bytes]) -> list[bytes]:
    """`unpacked` of many states, in a loop of its own: a cold catalog expands every state of every game, and a
    call per state cost it a tenth more (0.125 s against 0.115 for 350 games' 72,000 states). A state out of the
    common way (not compressed, another dictionary, damaged) goes through `unpacked`, which says what is wrong
    with it."""
    expand, zdict, header, most = zlib_ng.decompressobj, _LOADED.get(WRITTEN_WITH), _HEADER, MAX_STATE
    plain: list[bytes] = []
    add = plain.append
    for state in stored:
        if state[:2] != header or zdict is None:  # one comparison: the byte by byte checks cost a tenth more
            add(unpacked(state))
            zdict = _LOADED.get(WRITTEN_WITH)
            continue
        expander = expand(-15, zdict=zdict)
        try:
            add(expander.decompress(state[2:], most))
        except zlib_ng.error:  # type: ignore[misc]  # its stub says an instance: it is the class
            add(unpacked(state))  # raises, naming the damage
        if not expander.eof or expander.unused_data:  # (a tail left unexpanded leaves it short of its end)
            plain[-1] = unpacked(state)
    return plain


class MsgpackTranscoder:
    """Encodes stored event state as compressed msgpack; decodes to mutable dicts and lists. eventsourcing's Mapper
    calls it (ledger/io/eventstore.py registers it as the library's Transcoder); the store's own reads call it too,
    without importing the library."""

    def encode(self, obj: object) -> bytes:
        return packed(self.encode_plain(obj))

    def encode_plain(self, obj: object) -> bytes:
        """`encode` without the compression (what a dictionary is made of)."""
        return msgpack.packb(obj, default=_default, use_bin_type=True)

    def decode(self, data: bytes) -> StoredState:
        return msgpack.unpackb(unpacked(data), ext_hook=_ext_hook, raw=False, strict_map_key=False)


def _fact_ext_hook(code: int, data: bytes) -> object:
    # A fact is plain data: the one date in a stored event is its timestamp, which a reader of facts never uses.
    # Dropped, it costs no object per event (a datetime, or msgpack's ExtType, cost a third of a game's decoding).
    return None if code in (EXT_UTC_MICROSECONDS, EXT_DATETIME) else _ext_hook(code, data)


def decode_frozen(data: bytes) -> StoredState:
    """Decodes stored event state with its lists as tuples: immutable as they come, for events built from them.
    For a reader of the event's fact alone: its timestamp comes back None."""
    return msgpack.unpackb(unpacked(data), ext_hook=_fact_ext_hook, raw=False, strict_map_key=False,
                           use_list=False)


class _Stored(msgspec.Struct, gc=False):
    """A stored event's state read for its fact alone, straight into its event type (the fact's `type` names it:
    events.Event is a tagged union). The timestamp and anything else beside the fact are skipped undecoded."""

    fact: Union[tuple(EVENT_TYPES.values())]  # type: ignore[valid-type]  # noqa: UP007


class _Version(msgspec.Struct, gc=False):
    class_version: int = 1  # the type is read by the events' pass: read here too, it cost a string per event


class _StoredVersion(msgspec.Struct, gc=False):
    fact: _Version


@cache
def _decoders() -> tuple[msgspec.msgpack.Decoder[list[_StoredVersion]], msgspec.msgpack.Decoder[list[_Stored]]]:
    """(the versions', the events' decoder), made at the first read of events and not at import: typing the events'
    union costs 0.7 ms, which a command that reads no event (or a game read from its snapshot alone) never needs."""
    return msgspec.msgpack.Decoder(list[_StoredVersion]), msgspec.msgpack.Decoder(list[_Stored])


_UNTYPED: Final = frozenset(EVENT_TYPES[name] for name in ("GameStarted", "GameScored", "GameDescribed"))
"""Events with fields of any data (a game's board and ruleset, a scoring's sheet, metadata): read as `from_fact`
reads them, their lists as tuples all the way down, not as msgspec gives data it has no type for (lists)."""


class _Stamped(msgspec.Struct, gc=False):
    timestamp: object = None


_STAMP: Final = msgspec.msgpack.Decoder(_Stamped, ext_hook=lambda code, data: _ext_hook(code, bytes(data)))


def decode_timestamp(state: bytes) -> object:
    """The timestamp of a stored event's state (None if it holds none), its fact skipped undecoded: decoded whole,
    a game's last event (its final scoring) cost 160 thousand instructions for the date beside it. Raises on bytes
    that are not a stored state (whatever their damage makes the decoder raise)."""
    return _STAMP.decode(unpacked(state)).timestamp


def decode_events(states: list[bytes], read_whole: frozenset[str] | None = None) -> list[Event] | None:
    """The events of stored states, decoded straight into the event types: the rows joined into one msgpack array
    and decoded in two passes in C (each fact's version, then the events), where decoding each into dicts and
    building each event from one cost three times as long (issue 12's lean read path). A fact of an older version
    is upcast, and one of the `_UNTYPED` read, as `from_frozen_fact` reads them. None when any row is not a
    current event as this whispers types it: the caller reads them the lenient way, which names the first one
    that is not an event at all.

    With `read_whole` (names of event types), only the events of those types are decoded so; any other is read for its
    type alone and given as its type's stand-in (`events.stand_in`), its fields skipped undecoded, unchecked: for
    a reader of every game that needs the fields of a few kinds of event (the catalog). Every state is still
    expanded whole, and a row that is not msgpack, or names no event type, still gives None."""
    try:
        plain = unpacked_all(states)
    except ValueError:
        return None
    return _typed(plain) if read_whole is None else _sparse(plain, read_whole)


def _array(plain: list[bytes]) -> bytes:
    return b"\xdd" + len(plain).to_bytes(4, "big") + b"".join(plain)  # msgpack's array 32 of the rows' states


def _typed(plain: list[bytes]) -> list[Event] | None:
    """`decode_events` of expanded states, every one of them whole."""
    if not plain:
        return []
    versions_decoder, events_decoder = _decoders()
    whole = _array(plain)
    try:
        versions = versions_decoder.decode(whole)
        events: list[Event] = [stored.fact for stored in events_decoder.decode(whole)]
    except msgspec.MsgspecError:
        return None
    for index in [index for index, (event, stored) in enumerate(zip(events, versions, strict=True))
                  if type(event) in _UNTYPED or stored.fact.class_version != event.class_version]:
        try:
            events[index] = from_frozen_fact(decode_frozen(plain[index])["fact"])
        except Exception:  # not an event after all: the lenient read says which and why
            return None
    return events


def _sparse(plain: list[bytes], read_whole: frozenset[str]) -> list[Event] | None:
    """`decode_events` of expanded states, those of the types in `read_whole` whole and every other as a stand-in: a
    cold catalog decoded 75,000 events whole for the 15% whose fields it reads (49 ms, against 32 ms so)."""
    try:
        kinds = _kinds().decode(_array(plain))
    except msgspec.MsgspecError:
        return None
    stand_ins = _stand_ins(read_whole)
    events: list[Event | None] = [stand_ins[type(kind.fact)] for kind in kinds]
    wanted = [index for index, event in enumerate(events) if event is None]
    read = _typed([plain[index] for index in wanted])
    if read is None:
        return None
    for index, event in zip(wanted, read, strict=True):
        events[index] = event
    return events  # type: ignore[return-value]  # every None was replaced


@cache
def _kind_structs() -> dict[type, type[Event]]:
    """A struct of no field per event type, tagged by its name, beside the type (made when first asked: the catalog's
    rebuild is their one reader)."""
    return {msgspec.defstruct(name, [], tag_field="type", tag=name, gc=False): cls for name, cls in EVENT_TYPES.items()}


class _StoredKind(Protocol):
    fact: msgspec.Struct  # a struct of `_kind_structs`


@cache
def _kinds() -> msgspec.msgpack.Decoder[list[_StoredKind]]:
    """A decoder of stored states for their facts' types alone."""
    stored = msgspec.defstruct("StoredKind", [("fact", Union[tuple(_kind_structs())])], gc=False)  # noqa: UP007
    return msgspec.msgpack.Decoder(list[stored])  # type: ignore[valid-type]


@cache
def _stand_ins(read_whole: frozenset[str]) -> dict[type, Event | None]:
    """For each struct of `_kind_structs`, its type's stand-in, or None for a type read whole."""
    return {kind: None if cls.__name__ in read_whole else stand_in(cls) for kind, cls in _kind_structs().items()}
