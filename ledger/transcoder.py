"""Msgpack encoding of stored event state, for eventsourcing's Mapper.

Facts are plain data. Richer values (every event's timezone-aware timestamp, and any UUID or Decimal) travel as
msgpack extension types, as do ints beyond msgpack's 64 bits. Tuples come back as lists.
"""

import struct
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any, Final, Union
from uuid import UUID

import msgpack
import msgspec
from eventsourcing.persistence import Transcoder

from whispers.ledger.events import EVENT_TYPES, Event, from_frozen_fact

EXT_UUID: Final = 1
EXT_DATETIME: Final = 2
EXT_DECIMAL: Final = 3
EXT_BIGINT: Final = 4
EXT_UTC_MICROSECONDS: Final = 5
"""Extension type codes. They are written into every stored record: never renumber them."""

_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND: Final = timedelta(microseconds=1)
_INT64: Final = struct.Struct(">q")


def _default(obj: Any) -> msgpack.ExtType:
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


def _ext_hook(code: int, data: bytes) -> Any:
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


class MsgpackTranscoder(Transcoder):
    """Encodes stored event state as msgpack; decodes to mutable dicts and lists."""

    def encode(self, obj: Any) -> bytes:
        return msgpack.packb(obj, default=_default, use_bin_type=True)

    def decode(self, data: bytes) -> Any:
        return msgpack.unpackb(data, ext_hook=_ext_hook, raw=False, strict_map_key=False)


def _fact_ext_hook(code: int, data: bytes) -> Any:
    # A fact is plain data: the one date in a stored event is its timestamp, which a reader of facts never uses.
    # Dropped, it costs no object per event (a datetime, or msgpack's ExtType, cost a third of a game's decoding).
    return None if code in (EXT_UTC_MICROSECONDS, EXT_DATETIME) else _ext_hook(code, data)


def decode_frozen(data: bytes) -> Any:
    """Decodes stored event state with its lists as tuples: immutable as they come, for events built from them.
    For a reader of the event's fact alone: its timestamp comes back None."""
    return msgpack.unpackb(data, ext_hook=_fact_ext_hook, raw=False, strict_map_key=False, use_list=False)


class _Stored(msgspec.Struct, gc=False):
    """A stored event's state read for its fact alone, straight into its event type (the fact's `type` names it:
    events.Event is a tagged union). The timestamp and anything else beside the fact are skipped undecoded."""

    fact: Union[tuple(EVENT_TYPES.values())]  # type: ignore[valid-type]  # noqa: UP007


class _Version(msgspec.Struct, gc=False):
    class_version: int = 1  # the type is read by the events' pass: read here too, it cost a string per event


class _StoredVersion(msgspec.Struct, gc=False):
    fact: _Version


_EVENTS: Final = msgspec.msgpack.Decoder(list[_Stored])
_VERSIONS: Final = msgspec.msgpack.Decoder(list[_StoredVersion])
_UNTYPED: Final = frozenset(EVENT_TYPES[name] for name in ("GameStarted", "GameScored", "GameDescribed"))
"""Events with fields of any data (a game's board and ruleset, a scoring's sheet, metadata): read as `from_fact`
reads them, their lists as tuples all the way down, not as msgspec gives data it has no type for (lists)."""


class _Stamped(msgspec.Struct, gc=False):
    timestamp: Any = None


_STAMP: Final = msgspec.msgpack.Decoder(_Stamped, ext_hook=lambda code, data: _ext_hook(code, bytes(data)))


def decode_timestamp(state: bytes) -> Any:
    """The timestamp of a stored event's state (None if it holds none), its fact skipped undecoded: decoded whole,
    a game's last event (its final scoring) cost 160 thousand instructions for the date beside it. Raises on bytes
    that are not a stored state (whatever their damage makes the decoder raise)."""
    return _STAMP.decode(state).timestamp


def decode_events(states: list[bytes]) -> list[Event] | None:
    """The events of stored states, decoded straight into the event types: the rows joined into one msgpack array
    and decoded in two passes in C (each fact's version, then the events), where decoding each into dicts and
    building each event from one cost three times as long (issue 12's lean read path). A fact of an older version
    is upcast, and one of the `_UNTYPED` read, as `from_frozen_fact` reads them. None when any row is not a
    current event as this whispers types it: the caller reads them the lenient way, which names the first one
    that is not an event at all."""
    whole = b"\xdd" + len(states).to_bytes(4, "big") + b"".join(states)  # msgpack's array 32 of the rows as stored
    try:
        versions = _VERSIONS.decode(whole)
        events: list[Event] = [stored.fact for stored in _EVENTS.decode(whole)]
    except msgspec.MsgspecError:
        return None
    for index in [index for index, (event, stored) in enumerate(zip(events, versions, strict=True))
                  if type(event) in _UNTYPED or stored.fact.class_version != event.class_version]:
        try:
            events[index] = from_frozen_fact(decode_frozen(states[index])["fact"])
        except Exception:  # not an event after all: the lenient read says which and why
            return None
    return events
