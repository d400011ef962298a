"""Aggregates kept beside the games (a game's shared links: application/sharing.py), saved and read the event
store library's way; their classes are the caller's, found by their stored topics."""

from __future__ import annotations

from typing import TYPE_CHECKING
from uuid import UUID

from whispers.ledger.core.errors import GameMovedOn
from whispers.ledger.core.words import say
from whispers.ledger.io.store_backend import Backend

if TYPE_CHECKING:
    from eventsourcing.domain import Aggregate


def side_stream(backend: Backend, originator_id: UUID) -> Aggregate | None:
    """The aggregate of this id, or None if the store holds none."""
    from eventsourcing.application import AggregateNotFoundError

    with backend.translated():
        try:
            return backend.events.repository.get(originator_id)
        except AggregateNotFoundError:
            return None


def save_side_stream(backend: Backend, aggregate: Aggregate) -> None:
    """Saves the aggregate's new events (GameMovedOn if another writer saved one at the same version first)."""
    from eventsourcing.persistence import RecordConflictError

    with backend.translated():
        try:
            backend.events.save(aggregate)
        except RecordConflictError:
            raise GameMovedOn(say("another writer changed it at the same moment: try again")) from None
