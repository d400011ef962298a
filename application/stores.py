"""A use case is given a store URL (None: $WHISPERS_STORE, else the default file) or a Store already open."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from whispers.ledger.store import Store


@contextmanager
def opened(store: Store | str | None) -> Iterator[Store]:
    """The store to work on: `store` itself if it is open (left open), else the one at that URL (closed after)."""
    from whispers.ledger.store import Store, open_store

    if isinstance(store, Store):
        yield store
        return
    with open_store(store) as fresh:
        yield fresh
