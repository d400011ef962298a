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


def by_round(replayed: Replayed) -> tuple[list[tuple[int, list[tuple[int, str]]]], int]:
    """The replay's events in words grouped by round (0: the setup, before round 1 begins), and the round of the
    event the replay stands at: the timeline of each round, for the replay page."""
    from whispers.ledger import events as ev

    groups: dict[int, list[tuple[int, str]]] = {}
    round_ = here = 0
    for version, words in move_labels(replayed):
        event = replayed.replay.event(version)
        if isinstance(event, ev.PhaseStarted):
            round_ = event.round
        groups.setdefault(round_, []).append((version, words))
        if version == replayed.at:
            here = round_
    return list(groups.items()), here


def notes_by_event(replayed: Replayed) -> dict[int, list[str]]:
    """The text of the notes on each event (as they read now), for the move list."""
    found: dict[int, list[str]] = {}
    for note in replayed.notes:
        found.setdefault(note["at"], []).append(str(note.get("text", "")))
    return found
