"""A game's state at its head, kept in the store as a snapshot so that loading it does not replay its history.

An adapter: the core's state is serialised here, never in the core. A snapshot is msgpack of plain data (never
pickle: a store is data, and a snapshot read back builds only the value types named below), as text in a read
model row of the store (`Store.snapshot`). It holds the state at one version, the chain of earlier states a
take-back returns to (`GameState.prior`) cut short after `DEPTH` of them, and the stored bytes of the event at
its version, so a snapshot of another record (a store replaced, restored, recreated) is never used. The board
and ruleset are not in it: they come from the game's first event, as the fold builds them.

A state whose earlier states were cut off (`is_cut`) cannot take a move back by itself: ledger/io/game.py then
replays the whole record, the fallback to everything here.
"""

from __future__ import annotations

from binascii import a2b_base64, b2a_base64
from collections.abc import Iterable
from weakref import WeakValueDictionary

import msgpack
import msgspec

from whispers.ledger.core import events as ev
from whispers.ledger.core.evolve import evolve
from whispers.ledger.core.plain import Data, filled
from whispers.ledger.core.state import Deck, GameState, Hand, Loyalty, Pending, Route

LAYOUT = 2
"""Raised when the encoding below changes; a snapshot of another layout is ignored (the game is replayed)."""
DEPTH = 8
"""How many earlier states a snapshot keeps: take-backs beyond them replay the record."""
EVERY = 32
"""A snapshot is written again once this many events were folded on top of the one kept."""

_FIELDS = GameState.__struct_fields__
_COLLECTIONS: dict[type, str] = {tuple: "t", list: "l", frozenset: "f"}
"""The collections a state holds, each by its tag (not their subclasses: a value of another type is refused)."""
_VALUES: dict[str, type[msgspec.Struct]] = {cls.__name__: cls for cls in (Loyalty, Hand, Deck, Pending, Route)}
_VALUE_FIELDS = {name: cls.__struct_fields__ for name, cls in _VALUES.items()}
_CUT: WeakValueDictionary[int, GameState] = WeakValueDictionary()
"""The states read back whose earlier states were cut off (by id: a state is not hashable)."""


def is_cut(state: GameState) -> bool:
    """Whether `state` came from a snapshot without its earlier states (a take-back from it needs a replay)."""
    return _CUT.get(id(state)) is state


def fold_on(state: GameState, events: Iterable[ev.Event]) -> GameState | None:
    """`state` with `events` applied, a state that lacks its earlier states marked so in turn (the fold copies
    a state, and a take-back copies the state it returns to); None if one takes a move back that `state` cannot."""
    for event in events:
        if isinstance(event, ev.MoveTakenBack):
            if is_cut(state):
                return None
            cut = state.prior is not None and is_cut(state.prior)
        else:
            cut = not event.MOVE and is_cut(state)
        state = evolve(state, event)
        if cut:
            _CUT[id(state)] = state
    return state


def encode(state: GameState, at: bytes) -> str:
    """The snapshot of `state`, the state after the stored event `at` (its bytes as stored: they hold its
    timestamp, so the event of another record at the same version is another)."""
    chain: list[dict[str, object]] = []
    current: GameState | None = state
    later: GameState | None = None
    complete = True
    while current is not None:
        if len(chain) > DEPTH:
            complete = False
            break
        # an earlier state holds only the fields in which it differs from the one after it (most are the same)
        chain.append({name: _plain(getattr(current, name)) for name in _FIELDS
                      if name != "prior" and (later is None or getattr(current, name) != getattr(later, name))})
        later = current
        if is_cut(current):
            complete = False
            break
        current = current.prior
    data = {"layout": LAYOUT, "fields": list(_FIELDS), "version": state.version, "at": at, "chain": chain,
            "complete": complete}
    return b2a_base64(msgpack.packb(data, use_bin_type=True), newline=False).decode("ascii")


def version_of(text: str) -> tuple[int, bytes, list[dict[str, object]], bool] | None:
    """(version, the stored bytes of its event, chain, whether the chain is whole) of a kept snapshot; None if it
    is of another layout or not a snapshot at all."""
    try:
        data = msgpack.unpackb(a2b_base64(text), raw=False)
        if data["layout"] != LAYOUT or tuple(data["fields"]) != _FIELDS or not isinstance(data["at"], bytes):
            return None
        return int(data["version"]), data["at"], list(data["chain"]), bool(data["complete"])
    except Exception:  # whatever a damaged or foreign row raises: not a snapshot, the game is replayed
        return None


def decode(chain: list[dict[str, object]], complete: bool, started: GameState) -> GameState | None:
    """The state a snapshot's chain holds, with the board and ruleset of `started` (the state after the game's
    first event); None if the chain is not well formed (the game is replayed)."""
    try:
        whole: list[Data] = []  # each state's fields, the earlier ones filled in from the state after them
        for values in chain:
            built = {**(whole[-1] if whole else {}), **{name: _built(value) for name, value in values.items()}}
            built.update(board=started.board, ruleset=started.ruleset)
            whole.append(built)
        prior: GameState | None = None
        states = []
        for built in reversed(whole):
            built["prior"] = prior
            if set(built) != set(_FIELDS):
                return None
            new = filled(GameState, built)
            states.append(new)
            prior = new
    except Exception:  # a malformed chain: not used
        return None
    if not states:
        return None
    if not complete:
        _CUT[id(states[0])] = states[0]
    return states[-1]


def _plain(value: object) -> object:  # any value a state holds, told apart by its exact type
    if value is None or isinstance(value, (bool, int, str)):
        return value
    kind = type(value)
    if isinstance(value, tuple | list | frozenset) and kind in _COLLECTIONS:
        return [_COLLECTIONS[kind], [_plain(v) for v in value]]
    if isinstance(value, dict):
        return ["d", [[_plain(k), _plain(v)] for k, v in value.items()]]
    if kind.__name__ in _VALUES and _VALUES[kind.__name__] is kind:
        return ["v", kind.__name__, [_plain(getattr(value, name)) for name in _VALUE_FIELDS[kind.__name__]]]
    if isinstance(value, ev.Event):
        return ["e", value.to_fact()]
    if kind.__name__ in ("Board", "Ruleset"):
        return None  # the game's own, from its first event
    raise TypeError(f"a snapshot cannot hold a {kind.__name__}")


def _built(value: object) -> object:
    if not isinstance(value, list):
        return value
    tag = value[0]
    if tag == "t":
        return tuple(_built(v) for v in value[1])
    if tag == "l":
        return [_built(v) for v in value[1]]
    if tag == "f":
        return frozenset(_built(v) for v in value[1])
    if tag == "d":
        return {_built(k): _built(v) for k, v in value[1]}
    if tag == "v":
        cls = _VALUES[value[1]]
        return cls(**dict(zip(_VALUE_FIELDS[value[1]], (_built(v) for v in value[2]), strict=True)))
    if tag == "e":
        return ev.from_fact(value[1])
    raise ValueError(f"not a snapshot value: {tag!r}")
