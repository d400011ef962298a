"""What names a game's streams in a store, fixed forever: the ids of its streams and the topics of their events.

Changing any of these orphans every stored game (the topics are written into every stored event).
"""

from typing import Final
from uuid import UUID

from whispers.ledger.core.digests import sha1

Fact = dict[str, object]

APPLICATION: Final = "whispers"
"""The event store's application name. eventsourcing named its PostgreSQL table after it (`whispers_events`, in stores
written before ledger/io/postgres_layout.py); the layouts' own tables are named there."""

NAMESPACE: Final = UUID("5f0b1d8e-3c4a-4e7b-9a56-2d8f3e1c7b90")
"""Game ids are uuid5(NAMESPACE, name)."""

GAME: Final = "whispers:GameRecord"
GAME_CREATED: Final = "whispers:GameRecord.Created"
GAME_RECORDED: Final = "whispers:GameRecord.Recorded"
NOTES: Final = "whispers:NotesRecord"
NOTES_CREATED: Final = "whispers:NotesRecord.Created"
NOTES_NOTED: Final = "whispers:NotesRecord.Noted"
CONTENT: Final = "whispers:ContentRecord"
CONTENT_CREATED: Final = "whispers:ContentRecord.Created"
"""Explicit topics are what the stored events name, so records survive a module moving."""


def as_uuid(originator_id: UUID | str) -> UUID:
    """A stream's id as eventsourcing may pass it to a recorder: a UUID, or its text."""
    return originator_id if isinstance(originator_id, UUID) else UUID(originator_id)


def uuid5(namespace: UUID, name: str) -> UUID:
    """`uuid.uuid5`, as the standard library computes it, with ledger.digests' sha1 (uuid5 imports hashlib)."""
    return UUID(bytes=sha1(namespace.bytes + name.encode("utf-8")).digest()[:16], version=5)


def game_id(name: str) -> UUID:
    return uuid5(NAMESPACE, name)


def notes_id(game: str) -> UUID:
    return uuid5(NAMESPACE, f"notes:{game}")


def content_id(digest: str) -> UUID:
    """The stream of one board, ruleset or card sheet, stored once by its content hash and referenced by each
    game that plays with it."""
    return uuid5(NAMESPACE, f"content:{digest}")
