"""Python's cyclic garbage collector paused while a large result of plain data is built or written."""

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def uncollected() -> Iterator[None]:
    """The cyclic collector paused (as it was before, after). A result that holds no cycle (plain JSON data,
    freed by reference counting) gives it nothing to find, but as it grows the collector walks it again and again,
    with every object the imports made: 0.12 s of `games` over 10,000 games. Never around work that may make
    cyclic garbage for long (folding games, a catalog rebuilt)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
