"""A game's record in the store: its facts written (all or none, at the version expected) and read back whole,
checked for damage, decoded straight into events for the fold; the boards, rulesets and card sheets games share
stored once by content hash; and the log of which games changed. The same on every kind of store: what differs is
read through the store's `Backend` (ledger/io/store_backend.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Final
from uuid import UUID

import msgspec

from whispers.ledger.core.errors import GameExists, GameMovedOn, NoSuchEvent, StoreError
from whispers.ledger.core.events import Event, read_frozen_facts
from whispers.ledger.core.streams import CONTENT_CREATED, GAME_CREATED, GAME_RECORDED, Fact, content_id, game_id
from whispers.ledger.core.words import N_, no_such_event, say
from whispers.ledger.io.store_backend import Backend, Rows, one_line, records, state_decoder, whole_stream

if TYPE_CHECKING:
    from eventsourcing.domain import Aggregate
    from eventsourcing.persistence import Notification

_NAME: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_MOVED_ON: Final = N_("the game moved on: re-run status")
_BY_CONTENT: Final = ("ruleset", "board", "cards")
"""What a game's first fact holds that many games share (6.7 KB of a 4-player game's 60): stored once per content
hash, as a ContentRecord (ledger/io/records.py). The stored first fact holds None in their place and their hashes
under _NAMED; reading a game puts them back, so no reader sees the difference (a record file stays whole)."""
_NAMED: Final = "content"


def check_name(name: str) -> None:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise StoreError(say("invalid game name {game}: use 1 to 64 letters, digits, '_', '.' or '-', starting with a "
                             "letter or digit", game=repr(name)))


class _Read(msgspec.Struct, frozen=True):
    facts: list[Any]
    """The facts read, or (GameRecords.events) their events."""
    version: int
    last: bytes  # the last row's stored state, undecoded: its timestamp is when the game was last written


def _by_content(fact: Fact) -> tuple[Fact, dict[str, Fact]]:
    """A game's first fact as stored (its board, ruleset and card sheet named by their content hashes) and those
    data by hash, to be stored once. A fact of another shape is stored as it is."""
    if _NAMED in fact:
        raise ValueError(f"a game's first fact has no {_NAMED!r} of its own")
    if fact.get("type") != "GameStarted":
        return fact, {}
    from whispers.ledger.core.content import content_hash

    stored, named, shared = dict(fact), {}, {}
    for key in _BY_CONTENT:
        data = fact.get(key)
        if isinstance(data, dict):
            digest = content_hash(data)
            stored[key] = None
            named[key] = digest
            shared[digest] = data
    if named:
        stored[_NAMED] = named
    return stored, shared


class GameRecords:
    """The games of one store, over its backend. Names are checked, and texts refused, by the `Store` facade."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend
        self._contents: dict[str, bytes] = {}
        """The stored bytes of the boards, rulesets and card sheets read so far, by content hash (checked); each
        read decodes them again, so no caller shares another's (mutable) data."""
        self._stored_content: set[str] = set()
        """The content hashes this store is known to hold: a batch import does not ask again for every game."""

    def create(self, name: str, facts: list[Fact], notes: list[Fact] | None = None) -> int:
        """Records a new game with its first facts, and its notes if any, all in one save; returns its version."""
        check_name(name)
        if not facts:
            raise ValueError("a game starts with at least one fact")
        first, shared = _by_content(facts[0])
        ContentRecord = records().ContentRecord
        from eventsourcing.persistence import RecordConflictError

        with self._backend.translated():
            unsaved = len(shared) + 1
            while True:
                saved = self._new_game(name, first, facts[1:], notes or [], shared)
                content = sum(isinstance(aggregate, ContentRecord) for aggregate in saved)
                try:
                    self._backend.events.save(*saved)
                    break
                except RecordConflictError:
                    # Another writer may have stored some of the same boards or rulesets between our check and our
                    # save, one round each: try again while each round leaves less content to save. A conflict with
                    # none of it left to blame is the game's own name.
                    if 0 < content < unsaved:
                        unsaved = content
                        continue
                    raise GameExists(say("a game named {game} is in {store} already", game=repr(name),
                                         store=self._backend.url)) from None
        self._stored_content.update(shared)
        self._backend.notify()
        return len(facts)

    def _new_game(self, name: str, first: Fact, facts: list[Fact], notes: list[Fact], shared: dict[str, Fact]
                  ) -> list[Aggregate]:
        """The aggregates a new game is saved as, in one transaction: the content it shares that the store does
        not hold yet, its record, and its notes if any."""
        aggregates = records()
        saved: list[Aggregate] = [aggregates.ContentRecord(digest=digest, data=data) for digest, data in shared.items()
                            if not self._holds_content(digest)]
        record = aggregates.GameRecord(name=name, fact=first)
        for fact in facts:
            record.record(fact)
        saved.append(record)
        if notes:
            noted = aggregates.NotesRecord(game=name)
            for note in notes:
                noted.note(note)
            saved.append(noted)
        return saved

    def _whole(self, name: str, fact: Fact, shared: dict[str, Fact] | None = None) -> Fact:
        """A game's first fact as it was given to `create`: its shared content put back in place, each checked
        against the hash that names it. With `shared`, content already read there is used as it is (games read
        together share it) and content read is kept there."""
        named = fact.get(_NAMED)
        if not isinstance(named, dict) or fact.get("type") != "GameStarted":
            return fact
        whole = {key: value for key, value in fact.items() if key != _NAMED}
        for key, digest in named.items():
            if key not in _BY_CONTENT or whole.get(key) is not None:  # not what create() writes in a first fact
                raise self._lost_content(name, str(digest))
            if shared is None or (data := shared.get(str(digest))) is None:
                data = self._content(name, str(digest))
                if shared is not None:
                    shared[str(digest)] = data
            whole[key] = data
        return whole

    def _content(self, name: str, digest: str) -> Fact:
        decode = state_decoder().decode
        state = self._contents.get(digest)
        if state is not None:
            return decode(state)["data"]
        from whispers.ledger.core.content import content_hash

        rows = self._backend.rows(content_id(digest), 1)
        try:
            data = decode(rows[0][2]) if rows and rows[0][1] == CONTENT_CREATED else None
        except Exception:  # whatever damaged bytes make the decoder raise
            data = None
        if (not isinstance(data, dict) or data.get("digest") != digest or not isinstance(data.get("data"), dict)
                or content_hash(data["data"]) != digest):
            raise self._lost_content(name, digest)
        self._contents[digest] = rows[0][2]
        self._stored_content.add(digest)
        return data["data"]

    def _holds_content(self, digest: str) -> bool:
        if digest not in self._stored_content and self._backend.events.recorder.select_events(
                content_id(digest), limit=1):
            self._stored_content.add(digest)
        return digest in self._stored_content

    def _lost_content(self, name: str, digest: str) -> StoreError:
        return StoreError(say("game {game}: the board, ruleset or card sheet it plays with ({digest}) is missing or "
                              "altered: the store {store} is damaged", game=repr(name),
                              digest=digest if digest.isprintable() else repr(digest),  # what a damaged row holds
                              store=self._backend.url))

    def append(self, name: str, expected_version: int, facts: list[Fact]) -> int:
        """Appends facts after exactly `expected_version`, all or none; returns the new version."""
        check_name(name)
        with self._backend.translated():
            if self._backend.version(name) != expected_version:
                raise GameMovedOn(say(_MOVED_ON))
            if not facts:
                return expected_version
            # Events built directly, rather than by replaying the record to call record(): the version check
            # above and the store's uniqueness of (game, version) are all the consistency an append needs.
            originator_id = game_id(name)
            GameRecord = records().GameRecord
            from eventsourcing.persistence import RecordConflictError

            timestamp: datetime = GameRecord.Recorded.create_timestamp()
            events = [
                GameRecord.Recorded(
                    originator_id=originator_id,
                    originator_version=expected_version + i,
                    timestamp=timestamp,
                    fact=fact,
                )
                for i, fact in enumerate(facts, start=1)
            ]
            try:
                self._backend.events.save(*events)
            except RecordConflictError:
                raise GameMovedOn(say(_MOVED_ON)) from None
        self._backend.notify()
        return expected_version + len(facts)

    def facts(self, name: str, version: int | None = None) -> list[Fact]:
        """The game's first `version` facts, or all of them."""
        return self._checked(name, version, False).facts

    def events(self, name: str, version: int | None = None) -> list[Event]:
        """The game's first `version` events, or all of them, for the rules to fold: the one read of the store that
        knows what its facts mean, as it decodes their rows straight into the event types (transcoder.decode_events;
        the lenient way, ledger.events.read_frozen_facts, names a fact that is not an event)."""
        return self._checked(name, version, True).facts

    def written_events(self, name: str) -> tuple[list[Event], datetime]:
        """The game's events (as `events(name)`) and when its last one was stored, read together: what the catalog
        keeps of each game (the director's page lists it for 10,000 games without reading one)."""
        record = self._checked(name, None, True)
        return record.facts, self._written(name, record.last)

    def written_games(self, names: Sequence[str], chunk: int = 250, read_whole: frozenset[str] | None = None
                      ) -> Iterator[tuple[str, list[Event], datetime]]:
        """`written_events` of many games, in their order: read `chunk` games at a time in one transaction (on
        PostgreSQL one statement), each checked whole as `_checked` checks it. A catalog rebuilt one game at a
        time spent a third of its time opening transactions and asking each game's last version on its own. The games
        share their boards' and rulesets' data, each read once: their reader must not change it. With `read_whole`, of
        the events after each game's first only those of these types are read whole, any other as its type's
        stand-in (transcoder.decode_events)."""
        shared: dict[str, Fact] = {}
        for start in range(0, len(names), chunk):
            part = names[start:start + chunk]
            for name in part:
                check_name(name)
            keys = [game_id(name) for name in part]
            with self._backend.translated():
                found = self._backend.many_states(keys)
            for name, key in zip(part, keys, strict=True):
                states = found.get(key)
                with self._backend.translated():
                    # a game not found whole, or not at all, is read on its own: that read names the damage (or
                    # reads the game again if a writer appended while it was read)
                    record = (self._checked(name, None, True) if states is None
                              else self._decoded(name, states, True, shared, read_whole))
                yield name, record.facts, self._written(name, record.last)

    def _written(self, name: str, state: bytes) -> datetime:
        """When the stored event `state` was stored, read without its fact; a time that is not one is damage."""
        from whispers.ledger.io.transcoder import decode_timestamp

        try:
            written = decode_timestamp(state)
        except Exception:  # whatever damaged bytes make the decoder raise: said below as no time stored
            written = None
        if not isinstance(written, datetime):
            raise StoreError(say("game {game}: its last event holds no time it was stored: the store {store} is "
                                 "damaged", game=repr(name), store=self._backend.url))
        return written

    def _checked(self, name: str, version: int | None, events: bool) -> _Read:
        check_name(name)
        with self._backend.translated():
            if version is not None and version < 1:
                raise NoSuchEvent(no_such_event(name, self._backend.version(name), version))
            record = self._read(name, version, events)
            # On SQLite the last version is looked up apart (by another path through a damaged index than the
            # rows' range). On PostgreSQL the two read the same index in the same way: a second query per game
            # found nothing the first missed, and cost a cold catalog a tenth of its time; it is asked only when
            # the read fell short of the version asked for (a gap there is damage, not an event never recorded).
            short = version is not None and record.version < version
            recorded = self._backend.version(name) if self._backend.version_read_apart or short else record.version
            if record.version < min(recorded, version or recorded):
                # Short of what the store says was recorded: a writer appended since (read again), or damage.
                record = self._read(name, version, events)
                if record.version < min(recorded, version or recorded):
                    raise self._backend.damaged(name, record.version, recorded)
        if version is not None and record.version != version:
            raise NoSuchEvent(no_such_event(name, record.version, version))
        return record

    def facts_after(self, name: str, after: int, upto: int | None = None) -> list[Fact]:
        """The game's facts after its first `after`, up to its `upto`th (a follower reads only what is new)."""
        check_name(name)
        with self._backend.translated():
            stored = self._backend.events.recorder.select_events(game_id(name), gt=after, lte=upto)
            decode = state_decoder().decode
            facts: list[Fact] = []
            for expected, item in enumerate(stored, start=after + 1):
                if item.originator_version != expected:
                    raise self._backend.damaged(name, expected - 1, self._backend.version(name),
                                                item.originator_version)
                facts.append(decode(item.state)["fact"])
            if after == 0 and facts:
                facts[0] = self._whole(name, facts[0])
        return facts

    def _read(self, name: str, version: int | None, events: bool = False) -> _Read:
        """The game's facts (or `events`) read straight from its rows: each row's msgpack decoded and its fact
        taken, without building eventsourcing's domain event (a UUID, a timestamp, an object) per fact. What is kept
        is the one check a damaged store fails: the versions run 1, 2, 3... with no gap, repeat or missing start."""
        return self._parsed(name, self._backend.rows(game_id(name), version), events)

    def _parsed(self, name: str, stored: Rows, events: bool, shared: dict[str, Fact] | None = None) -> _Read:
        """`_read` of the rows (version, topic, state) read already (`shared`: as `_whole`)."""
        if not stored:
            raise self._backend.unknown(name)
        created = GAME_CREATED
        if not whole_stream([number for number, _, _ in stored], [topic for _, topic, _ in stored]):
            # found row by row here
            for expected, (number, topic, _) in enumerate(stored, start=1):
                if number != expected or (expected == 1) != (topic == created):
                    raise self._backend.damaged(name, expected - 1, self._backend.version(name), number)
        return self._decoded(name, [state for _, _, state in stored], events, shared)

    def _decoded(self, name: str, states: list[bytes], events: bool, shared: dict[str, Fact] | None = None,
                 read_whole: frozenset[str] | None = None) -> _Read:
        """`_parsed` of a game's stored states, in order from its first, once its rows are found whole (`read_whole`: as
        `written_games`)."""
        from whispers.ledger.io.transcoder import decode_events, decode_frozen

        plain = state_decoder().decode
        decode = decode_frozen if events else plain
        typed = decode_events(states[1:], read_whole) if events else None
        try:
            first = plain(states[0])["fact"]
            facts = [first, *[decode(state)["fact"] for state in states[1:]]] if typed is None else [first]
        except Exception:  # whatever a damaged row makes the decoder raise: find which row, and say so
            for expected, state in enumerate(states, start=1):
                try:
                    (decode if expected > 1 else plain)(state)["fact"]
                except Exception as e:
                    raise self._backend.unreadable(say("game {game}, event {n}: its stored bytes cannot be decoded "
                                               "({message})", game=repr(name), n=expected, message=one_line(e))) from e
            raise
        facts[0] = self._whole(name, facts[0], shared)
        if events:  # the first is read as from_fact reads it (its board and ruleset data as their files give them)
            return _Read([*read_frozen_facts(facts, name), *(typed or ())], len(states), states[-1])
        return _Read(facts, len(states), states[-1])

    def tail(self, name: str, since: int) -> tuple[Fact, bytes | None, list[Event], bytes] | None:
        """What a snapshot of the game at version `since` (ledger/io/snapshots.py) is brought up to date with: the
        game's first fact (its board and ruleset), the stored bytes of event `since` (None if there is none: the
        snapshot is not of this record), the events after it (as `events` reads them) and the stored bytes of the
        last event. None when the rows are anything but a whole tail: the caller then reads the game whole
        (`facts`), which names the damage."""
        check_name(name)
        with self._backend.translated():
            stored = self._backend.rows(game_id(name), None, since)
        if not stored or stored[0][0] != 1 or stored[0][1] != GAME_CREATED:
            return None
        at = next((state for number, _, state in stored if number == since), None)
        later = [row for row in stored if row[0] > since]
        if ([number for number, _, _ in later] != list(range(since + 1, since + 1 + len(later)))
                or any(topic == GAME_CREATED for _, topic, _ in later)):
            return None
        from whispers.ledger.io.transcoder import decode_events

        try:
            first = state_decoder().decode(stored[0][2])["fact"]
        except Exception:  # a damaged row: the whole read names it
            return None
        facts = decode_events([state for _, _, state in later])
        if facts is None:  # not events as this whispers reads them: the whole read names the first that is not one
            return None
        with self._backend.translated():
            first = self._whole(name, first)
        return first, at, facts, stored[-1][2]

    def version(self, name: str) -> int:
        """The number of facts recorded for the game."""
        check_name(name)
        with self._backend.translated():
            return self._backend.version(name)

    def exists(self, name: str) -> bool:
        check_name(name)
        with self._backend.translated():
            return self._backend.last(game_id(name)) is not None

    def names(self) -> list[str]:
        """Every game in the store, in the order they were created."""
        topics = [GAME_CREATED]
        names: list[str] = []
        records()  # the stored events are decoded as eventsourcing domain events
        with self._backend.translated():
            self._backend.check_log(whole=True)
            recorder = self._backend.events.recorder
            mapper = self._backend.events.mapper
            start: int | None = None
            while batch := recorder.select_notifications(start, 1000, topics=topics, inclusive_of_start=False):
                names.extend(mapper.to_domain_event(n).name for n in batch)  # type: ignore[attr-defined]
                start = batch[-1].id
        return names

    def changes(self, after: int = 0, limit: int = 10_000) -> tuple[int, list[str]]:
        """Games with facts stored after position `after` of the store's log: (the last position read, their
        names in order of first change). For read models that remember how far they have read."""
        changed: dict[UUID | str, None] = {}
        position = after
        with self._backend.translated():
            for notification in self._game_events(after, limit):
                changed.setdefault(notification.originator_id, None)
                position = notification.id
            names = [self._backend.name_of(game) for game in changed]
        return position, names

    def _game_events(self, after: int, limit: int) -> Iterator[Notification]:
        """The log's notifications of game events after position `after`, `limit` read at a time, once the log is
        checked whole."""
        self._backend.check_log(whole=True)
        recorder = self._backend.events.recorder
        position = after
        while batch := recorder.select_notifications(position, limit, topics=[GAME_CREATED, GAME_RECORDED],
                                                     inclusive_of_start=False):
            yield from batch
            position = batch[-1].id

    def changed_games(self, after: int = 0, limit: int = 10_000) -> tuple[int, dict[str, int | None]]:
        """Like `changes`, with each game's creation position in the log when it was created after `after`
        (else None): the order `names` lists games in, for a read model to keep."""
        with self._backend.translated():
            if after and not self._backend.holds_after(after):  # nothing new: no row read, by the index or not
                return after, {}
            # the whole table counted when the log is scanned from its start; after a position only the rows after
            # it are read (by rowid, and SQLite names a damaged page it meets there), and the index is counted once
            # per opening: counting every page again cost a listing of 10,000 games 0.13 s for rows it does not read
            self._backend.check_log(whole=not after)
            return self._backend.changed_games(after, limit)

    def appended(self, after: int = 0, limit: int = 10_000) -> tuple[int, dict[str, tuple[int, int]]]:
        """Facts stored after position `after` of the log: (the last position read, {game: (its first and last
        version among them)}), for a follower that passes on exactly what is new."""
        spans: dict[UUID | str, tuple[int, int]] = {}
        position = after
        with self._backend.translated():
            for n in self._game_events(after, limit):
                first, _ = spans.get(n.originator_id, (n.originator_version, 0))
                spans[n.originator_id] = (first, n.originator_version)
                position = n.id
            return position, {self._backend.name_of(game): span for game, span in spans.items()}

    def last_written(self, name: str) -> datetime:
        """When the game's last fact was stored (UTC, by the clock of the machine that stored it): the director's
        "last move" column. One event read, not the game."""
        check_name(name)
        with self._backend.translated():
            last = self._backend.last(game_id(name))
        if last is None:
            raise self._backend.unknown(name)
        return self._written(name, last[1])
