"""The eventsourcing aggregates a store keeps: one stream of facts per game, one of notes per game, and one per
board, ruleset or card sheet the games play with (stored once by its content hash).

Apart from ledger/io/store.py, so that a command that only reads a game (whose rows the store decodes itself) does
not define them: eventsourcing makes each aggregate and event class a dataclass, which costs start-up time. The
store imports this module before it writes, or decodes a stored event the eventsourcing way.
"""

from __future__ import annotations

from uuid import UUID

from eventsourcing.domain import Aggregate

from whispers.ledger.core.streams import (
    CONTENT,
    CONTENT_CREATED,
    GAME,
    GAME_CREATED,
    GAME_RECORDED,
    NOTES,
    NOTES_CREATED,
    NOTES_NOTED,
    Fact,
    content_id,
    game_id,
    notes_id,
)


class GameRecord(Aggregate):
    """One game's record: its facts in the order they happened. The version is the number of facts."""

    # Explicit topics are what the stored events name, so records survive this module moving.
    TOPIC = GAME

    class Created(Aggregate.Created):
        TOPIC = GAME_CREATED
        name: str
        fact: Fact

    class Recorded(Aggregate.Event):
        TOPIC = GAME_RECORDED
        fact: Fact

        def apply(self, aggregate: GameRecord) -> None:
            aggregate.facts.append(self.fact)

    @staticmethod
    def create_id(name: str) -> UUID:
        return game_id(name)

    def __init__(self, name: str, fact: Fact) -> None:
        self.name = name
        self.facts: list[Fact] = [fact]

    def record(self, fact: Fact) -> None:
        self.trigger_event(self.Recorded, fact=fact)


class NotesRecord(Aggregate):
    """A game's annotations, in a stream of their own so that a finished record is never reopened."""

    TOPIC = NOTES

    class Created(Aggregate.Created):
        TOPIC = NOTES_CREATED
        game: str

    class Noted(Aggregate.Event):
        TOPIC = NOTES_NOTED
        note: Fact

        def apply(self, aggregate: NotesRecord) -> None:
            aggregate.notes.append(self.note)

    @staticmethod
    def create_id(game: str) -> UUID:
        return notes_id(game)

    def __init__(self, game: str) -> None:
        self.game = game
        self.notes: list[Fact] = []

    def note(self, note: Fact) -> None:
        self.trigger_event(self.Noted, note=note)


class ContentRecord(Aggregate):
    """A board, ruleset or card sheet as a game's first fact embeds it, stored once for every game that plays with
    it: the game's stored first fact names it by its content hash (ledger.content), and the store puts it back when
    it reads the game. One event, never changed: other content is another hash, another stream."""

    TOPIC = CONTENT

    class Created(Aggregate.Created):
        TOPIC = CONTENT_CREATED
        digest: str
        data: Fact

    @staticmethod
    def create_id(digest: str) -> UUID:
        return content_id(digest)

    def __init__(self, digest: str, data: Fact) -> None:
        self.digest = digest
        self.data = data
