"""The catalog: a summary of every game in a store, kept in the store's own database by a tracked projection.

It is eventsourcing's projection with a tracking record, by polling (SQLite has no subscriptions): at the start
of a command that reads it, `refresh` reads what the store's log gained since the position tracked, folds the
games that changed, and writes their summaries with the new position in ONE transaction of the store's
database (Store.save_tracked), so the two can never disagree. Because the summaries live in the store (a
table in the SQLite file or the PostgreSQL schema), every process reading a tournament's store shares them,
and a store replaced or restored brings its own. A store written before summaries were kept there (whispers
up to 43585f5 and after) simply has no tracking record: its first refresh creates the tables and catches up.

Each summary holds what `games`, `stats --all` and the standings need of one game, so none of them folds every
game. To show more of a game in a listing (its metadata, say), add the field in `game_summary` and raise
LAYOUT: a catalog of another layout is rebuilt rather than trusted.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import UTC
from typing import TYPE_CHECKING, NotRequired, TypedDict, cast

import msgspec

from whispers.ledger.core.meta import MetaJson
from whispers.ledger.core.plain import Data

if TYPE_CHECKING:  # the folds a summary needs are imported when a game is summarised: a listing with nothing new
    from whispers.ledger.core import events as ev  # to read needs none of them
    from whispers.ledger.io.store import Store
    from whispers.projections.standings import ResultData
    from whispers.projections.stats import Summary

    class GameSummary(Summary):
        """A game's summary as the catalog keeps it (`game_summary`, and when it was written)."""

        game: str
        pins: dict[str, list[str]]  # "ruleset" and "board": [id, hash]
        round: int
        phase: str
        ended: bool
        won_by: str | None
        events: int
        fork_of: list[str | int] | None  # [parent, at]
        result: ResultData
        meta: MetaJson
        written: NotRequired[str]

PROJECTION = "catalog"
"""The read model's name in the store's tracking table."""
LISTING = "listing"
"""The read model of the listing's fields alone (`LISTED`), kept beside the catalog by the same tracking record:
`games` over 10,000 games read 3 KB of JSON a game for the 0.4 KB it shows."""
LISTED = ("game", "pins", "players", "round", "phase", "ended", "won_by", "events", "fork_of", "meta", "written")


class Listed(TypedDict):
    """A game's listing fields (`LISTED` of its summary), as `Catalog.listing` reads them back from JSON."""

    game: str
    pins: dict[str, list[str]]  # "ruleset" and "board": [id, hash]
    players: list[str]
    round: int
    phase: str
    ended: bool
    won_by: str | None
    events: int
    fork_of: list[str | int] | None  # [parent, at]
    meta: MetaJson
    written: str


FIGURES = "figures"
"""The read model of what `stats --all` reads of each summary (`FIGURED`, projections.stats.standing_summary's
fields), kept beside the catalog like the listing: the whole summary, two thirds of it the standings' result, cost
`stats --all` over 10,000 games 0.75 s of JSON."""
FIGURED = ("ruleset", "players", "seats", "over", "contested", "winner", "tied", "scores", "slot_points", "cities")

READ_WHOLE = frozenset({"GameStarted", "PhaseStarted", "Attacked", "GameScored", "MoveTakenBack", "GameForked",
                        "GameDescribed"})
"""The events whose fields `game_summary` reads (the round and phase, the take-backs, the figures, the fork, the
table facts); of every other it reads the type alone, so a cold rebuild reads them as stand-ins
(Store.written_games): a summary that reads more of an event names its type here. tests/test_catalog_summary.py
compares the summaries so read with those of the games read whole."""

LAYOUT = 8
"""What a summary holds (3: the listing's fields beside the figures' ones; 6: the listing kept apart too; 7: and the
figures; 8: when the game was last written, which the director's page lists). Raised when game_summary changes, so
summaries written by another whispers are rebuilt rather than trusted."""


class _Result(msgspec.Struct):
    """A summary as `Catalog.results` reads it: its result, the other fields skipped."""

    result: Data


class Refreshed(msgspec.Struct, frozen=True):  # not a dataclass: 0.4 ms to define, at every command that lists
    games: int
    """How many games this refresh read from the store."""
    events: int
    position: int


def game_summary(name: str, events: Sequence[ev.Event]) -> GameSummary:
    """One game's summary: the figures across games (projections.stats.summary) and its line in `games`.

    Read in as few passes as it can, as a cold rebuild reads every game of a store: the round and phase are read
    from the events that change them (evolve.progress) rather than by folding every state, and the events still
    standing and the final scoring are found once for the figures and the result."""
    from whispers.ledger.core import events as ev
    from whispers.ledger.core.evolve import pinned, progress
    from whispers.ledger.core.meta import of_events
    from whispers.ledger.io.shipped import built_pins
    from whispers.projections.forks import fork_of
    from whispers.projections.replay import final_scoring, standing_events
    from whispers.projections.standings import result_data, standing_result
    from whispers.projections.stats import standing_summary

    first = events[0]
    assert isinstance(first, ev.GameStarted)
    board_built, ruleset_built = pinned(first)
    ruleset, board = built_pins(ruleset_built, board_built)
    round_, phase = progress(events)
    kept = standing_events(events)
    scored = final_scoring(kept)
    forked = fork_of(events)
    return {
        **standing_summary(kept, scored, ruleset.label),
        "game": name,
        "pins": {"ruleset": [ruleset.id, ruleset.hash], "board": [board.id, board.hash]},
        "round": round_, "phase": phase, "ended": phase == "over",  # as GameState.over
        "won_by": None if scored is None else scored.winner, "events": len(events),
        "fork_of": None if forked is None else [forked.parent, forked.at],
        "result": result_data(standing_result(first, scored, events, ruleset.label)),
        "meta": of_events(events).to_json(),
    }


class Catalog:
    def __init__(self, store: Store) -> None:
        self.store = store

    def position(self) -> int:
        return self.store.tracked(PROJECTION)[0]

    def refresh(self, progress: Callable[[int, int], None] | None = None) -> Refreshed:
        """Read what the store has gained since the last refresh; `progress(done, total)` as games are read."""
        from msgspec.json import encode

        start, layout, fingerprint = self.store.tracked(PROJECTION)
        fresh = layout != LAYOUT or (start > 0 and self.store.fingerprint(start) != fingerprint)
        if fresh:  # another layout, or not this store's log as it was: start again
            start = 0
        position, changed = self.store.changed_games(start)
        if position == start and not fresh:
            return Refreshed(0, 0, start)
        rows, listed, figured, events = [], [], [], 0
        games = self.store.written_games(list(changed), read_whole=READ_WHOLE)
        for done, (name, read, written) in enumerate(games, start=1):
            created = changed[name]
            events += len(read)
            # when it was stored is the store's, not the record's: kept beside the summary the record gives, in UTC
            # to the microsecond (one width: the text sorts as the times do)
            when = written.astimezone(UTC).isoformat(timespec="microseconds")
            summary = {**game_summary(name, read), "written": when}
            # msgspec writes JSON in C: json.dumps of three views of every game cost a cold rebuild a tenth of its time
            rows.append((name, created, encode(summary).decode()))
            listed.append((name, created, encode({key: summary[key] for key in LISTED}).decode()))
            figured.append((name, created, encode({key: summary[key] for key in FIGURED if key in summary}).decode()))
            if progress:
                progress(done, len(changed))
        self.store.save_tracked(PROJECTION, LAYOUT, None if fresh else start, position, rows,
                                {LISTING: listed, FIGURES: figured})
        return Refreshed(len(changed), events, position)

    def summaries(self, games: Sequence[str] | None = None) -> dict[str, GameSummary]:
        """Every game's summary, or the named `games`' only (read by name: the standings of a tournament in a store
        of 10,000 games read its own), in the order the games were created; a name with no summary is left out."""
        return {game: json.loads(data) for game, data in self.store.read_model(PROJECTION, games)}

    def results(self, games: Sequence[str]) -> dict[str, ResultData]:
        """The named `games`' results (`result` of each summary, projections.standings.result_data) alone, read by
        name in the order the games were created; a name with no summary is left out. msgspec decodes the result
        and skips the summary's other fields without building them (`summaries` decoded them all: a third of the
        JSON a tournament's standings read)."""
        decode = msgspec.json.Decoder(_Result).decode
        return {game: cast("ResultData", decode(data).result)
                for game, data in self.store.read_model(PROJECTION, games)}

    def listing(self, last: int | None = None, games: Sequence[str] | None = None,
                skip: int = 0) -> dict[str, Listed]:
        """Every game's listing fields (`LISTED` of its summary), or the `last` created games' only (before the
        `skip` latest), or the named `games`' (read by name), in the order the games were created."""
        return cast("dict[str, Listed]", self._rows(LISTING, last, games, skip))  # as game_summary wrote them

    def size(self) -> int:
        """How many games the catalog holds."""
        return self.store.read_model_size(LISTING)

    def figures(self) -> dict[str, Summary]:
        """Every game's fields for the figures across games (`FIGURED` of its summary), in the order the games were
        created."""
        return cast("dict[str, Summary]", self._rows(FIGURES))

    def _rows(self, model: str, last: int | None = None, games: Sequence[str] | None = None,
              skip: int = 0) -> dict[str, Data]:
        rows = self.store.read_model(model, games, last, skip)
        # the rows read as one JSON array: 10,000 calls of json.loads cost a third more than one (and strict: a
        # row that is not one JSON value cannot shift the others onto the wrong games)
        read = json.loads("[" + ",".join([data for _, data in rows]) + "]")
        return dict(zip([game for game, _ in rows], read, strict=True))

    def close(self) -> None:
        """Nothing of its own to close: the catalog lives in the store."""
