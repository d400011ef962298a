"""An SQLite store's rows, for a test that reads or damages them in the terms eventsourcing's table used.

The store keeps a stream's id and an event's topic once each and names them by number (ledger/sqlite_layout.py).
`rows_of` shows a test the events as one table again, `stored_events (originator_id, originator_version, topic,
state, position)` with the id in lowercase hex, and sends its updates and deletes to the rows beneath: a temporary
view with its triggers, gone with the connection, nothing written into the store's schema.
"""

import sqlite3
from os import PathLike

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
