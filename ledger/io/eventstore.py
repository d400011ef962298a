"""The eventsourcing application behind a Store (ledger/io/store.py), imported the first time a store needs it: to
write, or to read what only the library reads (the log's notifications, a side stream's aggregate). A command that
reads an SQLite store's games directly never imports eventsourcing (issue 12: import only what a command needs)."""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import InfrastructureFactory, Transcoder
from eventsourcing.utils import Environment, EnvType

from whispers.ledger.core.streams import APPLICATION
from whispers.ledger.io.transcoder import MsgpackTranscoder

Transcoder.register(MsgpackTranscoder)


class EventStore(Application[UUID]):
    """The application whose aggregates are a store's streams. Its name is `streams.APPLICATION`."""

    name = APPLICATION

    def __init__(self, env: EnvType | None = None, bind: Callable[[object], None] | None = None) -> None:
        self._bind = bind
        super().__init__(env=env)

    def construct_factory(self, env: Environment) -> InfrastructureFactory:
        factory = super().construct_factory(env)
        if self._bind is not None:
            self._bind(factory.datastore)  # type: ignore[attr-defined]
        return factory

    def construct_env(self, name: str, env: EnvType | None = None) -> Environment:
        # Only the settings open_store chose: a stray PERSISTENCE_MODULE, CIPHER_KEY, WHISPERS_SQLITE_DBNAME...
        # in the user's environment must not redirect the store or change how it is encoded.
        return Environment(name, dict(env or {}))

    def construct_transcoder(self) -> Transcoder:
        return MsgpackTranscoder()  # type: ignore[return-value]  # registered as a Transcoder above
