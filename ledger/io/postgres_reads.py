"""The reads of a PostgreSQL store's layout (ledger/io/postgres_layout.py), each over a cursor (rows as tuples) in a
read transaction and the store's schema (a name checked by the store's URL parser).

Both the eventsourcing recorder (ledger/io/postgres_recorder.py, on its pool's connections) and the store (ledger/
store_postgres.py, on a connection of its own until it writes) read through these, so a command that only reads games
imports neither eventsourcing's application nor its PostgreSQL recorder and pool. An append that cannot be read
raises Malformed, which each caller turns into its own kind of damage.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Final
from uuid import UUID

if TYPE_CHECKING:
    from psycopg import Cursor
    from psycopg.rows import TupleRow

from whispers.ledger.io.postgres_layout import COLUMNS, HEAD, LOG, ROW_EVENTS, STREAMS, TOPICS, first, unpack

WINDOW: Final = 1000
"""Positions read a statement when the log is read in order (`in_order`)."""

Event = tuple[int, UUID, int, str, bytes]
"""(position, stream, version, topic, state): the stream as the rows give it, a UUID or its number."""


class Malformed(ValueError):
    """An append whose events cannot be read, or that names a topic the store does not hold: damage."""


@contextmanager
def _malformed(position: int) -> Iterator[None]:
    try:
        yield
    except (ValueError, KeyError) as e:
        raise Malformed(f"the append at position {position} is malformed: {e}") from None


def _named(schema: str) -> str:
    """The log's rows with their streams' UUIDs."""
    return (f"SELECT a.position, s.stream, a.version, a.count, a.events FROM {schema}.{LOG} AS a "
            f"JOIN {schema}.{STREAMS} AS s ON s.id = a.stream")


def of_stream(schema: str) -> str:
    """A stream's rows, the stream given by its UUID (its number in place of it in the rows)."""
    return f"SELECT {COLUMNS} FROM {schema}.{LOG} WHERE stream = (SELECT id FROM {schema}.{STREAMS} WHERE stream = %s)"


def names(cursor: Cursor[TupleRow], schema: str) -> dict[int, str]:
    """The topics by number, read again for every read, in its transaction (a few rows): a store replaced or
    restored under a running server numbers its topics in its own order."""
    cursor.execute(f"SELECT id, topic FROM {schema}.{TOPICS}", prepare=True)
    return dict(cursor.fetchall())


def events(rows: Sequence[tuple[int, UUID, int, int, bytes]], topics: dict[int, str]) -> list[Event]:
    """Each event of the rows (position, stream, version, count, events)."""
    found: list[Event] = []
    for position, stream, version, count, packed in rows:
        with _malformed(position):
            numbers, states = unpack(packed, count)
            found.extend((position + i, stream, version + i, topics[number], state)
                         for i, (number, state) in enumerate(zip(numbers, states, strict=True)))
    return found


def head(cursor: Cursor[TupleRow], schema: str) -> int:
    """The log's last position (0 for an empty store)."""
    cursor.execute(f"SELECT position FROM {schema}.{HEAD}")
    row = cursor.fetchone()
    return 0 if row is None else int(row[0])


def rows(cursor: Cursor[TupleRow], schema: str, originator: UUID, version: int | None = None, since: int | None = None
         ) -> list[tuple[int, str, bytes]]:
    """(version, topic, state) of a stream's events up to `version`, in order; with `since`, only the first event
    and those from `since` on (its first append, then the appends from the one holding `since`)."""
    statement = of_stream(schema)
    params: list[object] = [originator]
    if version is not None:
        statement += " AND version <= %s"
        params.append(version)
    if since is not None:
        statement = (of_stream(schema) + " AND version = 1 UNION ALL " + statement
                     + " AND version + count > %s AND version > 1")
        params = [originator, *params, since]
    cursor.execute(statement + " ORDER BY version", params, prepare=True)
    appends = cursor.fetchall()
    topics = names(cursor, schema)
    found: list[tuple[int, str, bytes]] = []
    for position, _, low, count, packed in appends:
        # only the events wanted made tuples: the first, and those from `since` to `version` (a snapshot's tail can
        # lie at the end of a game imported whole, one append of hundreds of events)
        start = 0 if since is None else max(0, since - low)
        stop = count if version is None else min(count, version - low + 1)
        with _malformed(position):
            numbers, states = unpack(packed, count)
            if low == 1 and start > 0:
                found.append((1, topics[numbers[0]], states[0]))
            found.extend((low + i, topics[numbers[i]], states[i]) for i in range(start, stop))
    return found


def last(cursor: Cursor[TupleRow], schema: str, originator: UUID) -> tuple[int, bytes] | None:
    """A stream's last event (version, state), or None if the store holds none of it."""
    cursor.execute(of_stream(schema) + " ORDER BY version DESC LIMIT 1", [originator], prepare=True)
    row = cursor.fetchone()
    if row is None:
        return None
    position, _, version, count, packed = row
    with _malformed(position):
        _, states = unpack(packed, count)
        return version + count - 1, states[-1]


def many_rows(cursor: Cursor[TupleRow], schema: str, originators: list[UUID]
              ) -> dict[UUID, tuple[list[int], list[str], list[bytes]]]:
    """The events of many streams in one statement, each stream's versions, topics and states in order (each
    append's lists extended, not an object made per event: a cold catalog reads every event of the store)."""
    cursor.execute(_named(schema) + " WHERE s.stream = ANY(%s) ORDER BY a.stream, a.version", [originators])
    appends = cursor.fetchall()
    topics = names(cursor, schema)
    found: dict[UUID, tuple[list[int], list[str], list[bytes]]] = {}
    for position, stream, version, count, packed in appends:
        versions, named, states = found.setdefault(stream, ([], [], []))
        with _malformed(position):
            numbers, stored = unpack(packed, count)
            named.extend([topics[number] for number in numbers])
        versions.extend(range(version, version + count))
        states.extend(stored)
    return found


def changed_streams(cursor: Cursor[TupleRow], schema: str, after: int, kinds: Sequence[str]
                    ) -> list[tuple[UUID, int, int | None, str | None, bytes | None]]:
    """The streams of the given kinds (the topic of their first events) with events after position `after`, in the
    order of their first such event: (stream, its last position, then its first event's position, topic and state,
    or None when the store holds no first event for it)."""
    cursor.execute(f"SELECT id FROM {schema}.{TOPICS} WHERE topic = ANY(%s)", [list(kinds)])
    numbers = [number for (number,) in cursor.fetchall()]
    cursor.execute(
        f"SELECT s.stream, changed.last, created.position, created.events FROM (SELECT stream, "
        f"min(position) AS first, max(position + count - 1) AS last FROM {schema}.{LOG} "
        # the appends after `after`, and the one that holds it (within ROW_EVENTS before it: the BRIN index finds
        # them by a range)
        f"WHERE position > %s AND position + count - 1 > %s GROUP BY stream) AS changed "
        f"JOIN {schema}.{STREAMS} AS s ON s.id = changed.stream AND s.topic = ANY(%s) "
        f"LEFT JOIN {schema}.{LOG} AS created ON created.stream = changed.stream AND created.version = 1 "
        f"ORDER BY changed.first", [after - ROW_EVENTS, after, numbers])
    changed = cursor.fetchall()
    topics = names(cursor, schema)
    found: list[tuple[UUID, int, int | None, str | None, bytes | None]] = []
    for stream, position, created, packed in changed:
        if created is None:
            found.append((stream, position, None, None, None))
            continue
        with _malformed(created):
            number, state = first(packed)
            found.append((stream, position, created, topics[number], state))
    return found


def in_order(cursor: Cursor[TupleRow], schema: str, low: int, limit: int, stop: int | None = None,
             topics: Sequence[str] = ()) -> list[Event]:
    """At most `limit` events of the log from position `low` on (to `stop`, of the given topics), in order: WINDOW
    positions a statement, each from the append that holds its first (a range the BRIN index finds)."""
    end = head(cursor, schema)
    end = end if stop is None else min(stop, end)
    named = names(cursor, schema)
    found: list[Event] = []
    window = low
    while len(found) < limit and window <= end:
        cursor.execute(_named(schema) + " WHERE a.position > %s AND a.position < %s ORDER BY a.position",
                       [window - ROW_EVENTS, window + WINDOW], prepare=True)
        found.extend(event for event in events(cursor.fetchall(), named)
                     if max(low, window) <= event[0] <= end and event[0] < window + WINDOW
                     and (not topics or event[3] in topics))
        window += WINDOW
    return found[:limit]
