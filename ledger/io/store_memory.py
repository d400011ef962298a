"""A store in the process's memory (`memory:`): the event store library's in-memory store, read the library's
own way (ledger/io/store_backend.py), and its read models in an SQLite database of its own for as long as it is open."""

from __future__ import annotations

from typing import TYPE_CHECKING

from whispers.ledger.io.store_backend import Backend, PlainSQLite

if TYPE_CHECKING:
    import sqlite3


class MemoryBackend(Backend):
    def __init__(self) -> None:
        super().__init__("memory:", {"PERSISTENCE_MODULE": "eventsourcing.popo"})
        self._db: sqlite3.Connection | None = None
        with self.translated():
            self.open_event_store()

    def read_model_datastore(self) -> PlainSQLite:
        if self._db is None:
            import sqlite3

            # a server answers from more than one thread over one open store (the eventsourcing in-memory store
            # beside it is not bound to a thread either)
            self._db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        return PlainSQLite(self._db)

    def close(self) -> None:
        super().close()
        if self._db is not None:
            self._db.close()
            self._db = None
