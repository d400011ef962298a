"""A store's rows, for a test that reads or damages them in the terms eventsourcing's table used.

The store keeps a stream's id and an event's topic once each and names them by number (ledger/io/sqlite_layout.py).
`rows_of` shows a test the events as one table again, `stored_events (originator_id, originator_version, topic,
state, position)` with the id in lowercase hex, and sends its updates and deletes to the rows beneath: a temporary
view with its triggers, gone with the connection, nothing written into the store's schema.
"""

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from os import PathLike
from typing import Any

from whispers.ledger.io import postgres_layout

VIEW = """
CREATE TEMP VIEW stored_events (originator_id, originator_version, topic, state, position) AS
    SELECT lower(hex(originator)), version, topic, state, position FROM whispers_log;
CREATE TEMP TRIGGER stored_events_update INSTEAD OF UPDATE ON stored_events BEGIN
    INSERT INTO whispers_topics (topic) SELECT NEW.topic
        WHERE NOT EXISTS (SELECT 1 FROM whispers_topics WHERE topic = NEW.topic);
    UPDATE whispers_events SET version = NEW.originator_version, state = NEW.state,
        topic = (SELECT id FROM whispers_topics WHERE topic = NEW.topic) WHERE position = OLD.position;
END;
CREATE TEMP TRIGGER stored_events_delete INSTEAD OF DELETE ON stored_events BEGIN
    DELETE FROM whispers_events WHERE position = OLD.position;
END;
"""


def rows_of(path: str | PathLike[str]) -> sqlite3.Connection:
    db = sqlite3.connect(path)
    db.executescript(VIEW)
    return db


@contextmanager
def pg_rows(url: str) -> Iterator[Any]:
    """A PostgreSQL store's events as eventsourcing's table showed them, one row per event: a temporary table
    `whispers_events (originator_id, originator_version, topic, state, notification_id)` on the connection given,
    written back into the store's log when the block ends (ledger/io/postgres_layout.py), each event at its
    position, cut into appends where streams, positions or versions stop following on."""
    import psycopg

    schema = url.split("schema=")[1]
    log, streams, topics = (f"{schema}.{table}" for table in (postgres_layout.LOG, postgres_layout.STREAMS,
                                                                postgres_layout.TOPICS))
    with psycopg.connect(url.split("?")[0], autocommit=True) as conn:
        conn.execute("CREATE TEMP TABLE whispers_events (originator_id uuid, originator_version bigint, topic text, "
                     "state bytea, notification_id bigint)")
        named = dict(conn.execute(f"SELECT id, topic FROM {topics}").fetchall())
        for position, stream, version, count, packed in conn.execute(
                f"SELECT a.position, s.stream, a.version, a.count, a.events FROM {log} AS a "
                f"JOIN {streams} AS s ON s.id = a.stream").fetchall():
            conn.cursor().executemany("INSERT INTO whispers_events VALUES (%s, %s, %s, %s, %s)",
                                      [(stream, version + i, named[topic], state, position + i)
                                       for i, (topic, state) in enumerate(zip(*postgres_layout.unpack(packed, count),
                                                                               strict=True))])
        yield conn
        rows = conn.execute("SELECT notification_id, originator_id, originator_version, topic, state "
                            "FROM whispers_events ORDER BY notification_id").fetchall()
        with conn.transaction():
            conn.execute(f"DELETE FROM {log}")
            conn.execute(f"DELETE FROM {streams}")
            conn.execute(f"UPDATE {schema}.{postgres_layout.HEAD} SET position = 0")
            postgres_layout.write(conn, schema, rows, {topic: number for number, topic in named.items()}, {})
