"""What was worked out for the last few values asked, by their identity: the pure core's caches of what it derives
from values never changed once built (a state, a map), each asked of a handful of them at a time."""

from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Kept(Generic[K, V]):
    """Up to `most` (key, value) pairs, the oldest dropped first. A key is found by its identity, and one kept here
    cannot be freed (its id taken by another object) while it is."""

    __slots__ = ("_by_id", "_most")

    def __init__(self, most: int) -> None:
        self._most = most
        self._by_id: dict[int, tuple[K, V]] = {}

    def get(self, key: K) -> V | None:
        kept = self._by_id.get(id(key))  # read once: another thread may keep its own meanwhile
        return kept[1] if kept is not None and kept[0] is key else None

    def keep(self, key: K, value: V) -> V:
        by_id = self._by_id
        if len(by_id) >= self._most:
            by_id.pop(next(iter(by_id)), None)
        by_id[id(key)] = (key, value)
        return value

    def last(self) -> tuple[K, V] | None:
        """The pair kept last."""
        return next(reversed(self._by_id.values()), None)
