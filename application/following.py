"""Following games as they change (the web's live updates) and labelling a replay's moves for a list."""

from __future__ import annotations

from typing import TYPE_CHECKING

from whispers.application.stores import opened

if TYPE_CHECKING:
    from whispers.application.review import Replayed
    from whispers.ledger.store import Store


def position(store: Store | str | None) -> int:
    """Where the store's notification log ends now: follow from here."""
    with opened(store) as s:
        return s.head()


def changed_since(store: Store | str | None, game: str, after: int) -> tuple[int, int | None]:
    """(the log's position read up to, the game's version if it changed after `after`, else None). The log is
    the store's, so a move recorded by another process (another server, the CLI) is seen too."""
    with opened(store) as s:
        read, names = s.changes(after)
        return read, (s.version(game) if game in names else None)


def move_labels(replayed: Replayed) -> list[tuple[int, str]]:
    """Each event of a replay in words, as its viewer saw it."""
    from whispers.projections.visibility import event_words

    return [(v, event_words(replayed.replay.event(v), replayed.viewer)) for v in range(1, len(replayed) + 1)]
