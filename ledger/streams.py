"""What names a game's streams in a store, fixed forever: the ids of its streams and the topics of their events.

Changing any of these orphans every stored game (the topics are written into every stored event).
"""

from typing import Any, Final
from uuid import UUID, uuid5

Fact = dict[str, Any]

APPLICATION: Final = "whispers"
"""The event store's application name: on PostgreSQL its tables are whispers_events and so on."""

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


def game_id(name: str) -> UUID:
    return uuid5(NAMESPACE, name)


def notes_id(game: str) -> UUID:
    return uuid5(NAMESPACE, f"notes:{game}")


def content_id(digest: str) -> UUID:
    """The stream of one board, ruleset or card sheet, stored once by its content hash and referenced by each
    game that plays with it."""
    return uuid5(NAMESPACE, f"content:{digest}")
