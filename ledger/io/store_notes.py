"""A game's notes: a stream beside its record (a NotesRecord, ledger/io/records.py), written and read apart from its
facts, so a note never moves a game on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from whispers.ledger.core.errors import GameMovedOn
from whispers.ledger.core.streams import NOTES_CREATED, Fact, notes_id
from whispers.ledger.core.words import say
from whispers.ledger.io.store_backend import Backend, records

if TYPE_CHECKING:
    from uuid import UUID

    from eventsourcing.domain import DomainEventProtocol, MutableOrImmutableAggregate


def add_note(backend: Backend, name: str, note: Fact) -> int:
    """`Store.add_note` of a checked name and note."""
    NotesRecord = records().NotesRecord
    from eventsourcing.persistence import RecordConflictError

    with backend.translated():
        backend.version(name)  # the game must exist
        last = backend.events.recorder.select_events(notes_id(name), desc=True, limit=1)
        if last:
            version = last[0].originator_version
            saved: DomainEventProtocol[UUID] | MutableOrImmutableAggregate[UUID] = NotesRecord.Noted(
                originator_id=notes_id(name), originator_version=version + 1,
                timestamp=NotesRecord.Noted.create_timestamp(), note=note)
        else:
            version = 1  # the Created event comes first
            record = NotesRecord(game=name)
            record.note(note)
            saved = record
        try:
            backend.events.save(saved)
        except RecordConflictError:
            raise GameMovedOn(say("another note was added at the same moment: run the command again")) from None
    return version


def notes(backend: Backend, name: str) -> list[Fact]:
    """`Store.notes` of a checked name."""
    with backend.translated():
        backend.version(name)
        stored = backend.rows(notes_id(name), None)
    if not stored:  # most games: read without the event store library
        return []
    from eventsourcing.persistence import StoredEvent

    records()  # its stored notes are decoded as eventsourcing domain events (upcast as their class says)
    with backend.translated():
        mapper = backend.events.mapper
    found: list[Fact] = []
    for version, topic, state in stored:
        if topic == NOTES_CREATED:
            continue
        try:
            item = StoredEvent(originator_id=notes_id(name), originator_version=version, topic=topic, state=state)
            found.append(mapper.to_domain_event(item).note)  # type: ignore[attr-defined]
        except Exception:  # whatever a stored byte makes the decoder raise
            found.append({"unreadable": "its stored bytes cannot be decoded"})
    return found
