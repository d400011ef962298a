"""Tournaments: standings over a list of games, the standings of a tournament file, and pairing a round."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from whispers.application.stores import opened
from whispers.ledger.core.errors import StoreError
from whispers.ledger.core.plain import Data
from whispers.ledger.core.words import _, say

if TYPE_CHECKING:
    from whispers.ledger.core.events import Event
    from whispers.ledger.io.store import Store
    from whispers.projections.pairing import Plan
    from whispers.projections.standings import Result, StandingsData


@dataclass(frozen=True, slots=True)
class Standings:
    title: str
    data: StandingsData  # projections.standings.standings_data (+ not_started and tournament for a file)

    def to_json(self) -> StandingsData:
        return self.data


def _events(store: Store, names: list[str], waiting: set[str] | None = None) -> dict[str, list[Event] | Result]:
    """What the standings need of each game, from the catalog of summaries kept in the store (no game folded
    but those the store gained since the catalog last read it), read by name: a tournament of 100 games in a
    store of 10,000 reads its own 100 rows. A name in `waiting` that is not in the store is left out (a paired
    game not started yet); any other must be in the store."""
    from whispers.projections.catalog import Catalog
    from whispers.projections.standings import result_from_data

    catalog = Catalog(store)
    catalog.refresh()
    results = catalog.results(names)  # these games' own results, by name: never every game of the store
    found: dict[str, list[Event] | Result] = {}
    for name in names:
        if name in results:
            found[name] = result_from_data(results[name])
        elif not (waiting and name in waiting and not store.exists(name)):
            from whispers.ledger.io.game import load  # the rules' folds only for a game the catalog has not summarised

            found[name] = list(load(store, name).events)  # stored since the refresh, or not a game: load says
    return found


def read_text(file: Path) -> str:
    """A tournament file's text: at most a content file's size, UTF-8 (ledger/io/input_files.py)."""
    from whispers.ledger.io.input_files import read_capped, utf8_text
    from whispers.projections.standings import TournamentError

    return utf8_text(read_capped(file, str(file), TournamentError), str(file), TournamentError)


def standings(store: Store | str | None, names: list[str]) -> Standings:
    """Standings over the named games by ruleset, each placed by its own ruleset's tie-breaks; the entrants are
    the societies; games in progress are not counted."""
    from whispers.projections.standings import standings_data

    if not names:
        raise StoreError(_("--games lists no game"))
    with opened(store) as s:
        return Standings("standings", standings_data(_events(s, names)))


def tournament(store: Store | str | None, file: Path) -> Standings:
    """Standings of the tournament described in `file`: its games, who sat at each society, its points."""
    from whispers.projections.standings import load_tournament, standings_data

    spec = load_tournament(read_text(file), str(file))
    with opened(store) as s:
        # a paired round's games exist once their tables run `whispers new`; any other name must be there
        found = _events(s, spec.games, set(spec.rounds))
        data = standings_data(found, spec.seats, spec.points)
    data["not_started"] = [g for g in spec.games if g not in found]
    data["tournament"] = spec.name
    return Standings(spec.name, data)


@dataclass(frozen=True, slots=True)
class Paired:
    tournament: str
    file: str
    plan: Plan
    points: dict[str, float]  # each entrant's points from the rounds before
    text: str  # the tournament file with the round written into it

    def to_json(self) -> Data:
        from whispers.projections.pairing import plan_data

        return {"tournament": self.tournament, "file": self.file, **plan_data(self.plan, self.tournament)}


def pair(store: Store | str | None, file: Path, round_no: int, force: bool = False, start: bool = False) -> Paired:
    """Seat the entrants of round `round_no` at tables of 3 and 4: round 1 at random (seeded), later rounds
    Swiss by the points of the rounds before. Returns the file's new text; writing it is the caller's. With
    `start`, a table's game already in the store refuses the round (PairingError naming it): `start_round` then
    creates them all."""
    from whispers.projections.pairing import (
        PairingError,
        check_round,
        games_before,
        history_before,
        pair_round,
        points_by_entrant,
        seed_for,
        with_round,
    )
    from whispers.projections.standings import load_tournament, standings_data

    text = read_text(file)
    spec = load_tournament(text, str(file))
    check_round(spec, round_no)
    earlier = games_before(spec, round_no)
    replaced = [g for g in spec.games if spec.rounds.get(g) == round_no] if force else []
    if replaced:
        with opened(store) as s:
            started = next((g for g in replaced if s.exists(g)), None)
        if started is not None:  # its record names the seats the file gives: re-seating would mislabel its result
            raise PairingError(say("{game} of round {round} has started in the store: --force replaces only a round "
                                   "none of whose games started", game=started, round=round_no))
    points: dict[str, float] = {}
    if round_no > 1 and earlier:
        with opened(store) as s:
            missing = [g for g in earlier if not s.exists(g)]
            if missing:
                raise PairingError(say("{game} is not in the store yet: pair round {round} when the rounds before "
                                       "it are over", game=missing[0], round=round_no))
            data = standings_data(_events(s, earlier), spec.seats, spec.points)
        if data["in_progress"]:
            raise PairingError(say("{game} is still in progress: pair round {round} when the rounds before it are "
                                   "over", game=data["in_progress"][0], round=round_no))
        points = points_by_entrant(data)
    plan = pair_round(round_no, spec.entrants, history_before(spec, round_no), points,
                      seed_for(spec.name, round_no, *spec.entrants))
    if start:
        with opened(store) as s:
            there = next((t.game for t in plan.tables if s.exists(t.game)), None)
        if there is not None:
            raise PairingError(say("a game named {game} is in the store already: no game of round {round} was "
                                   "started", game=there, round=round_no))
    return Paired(spec.name, str(file), plan, points, with_round(text, plan, force))


def write_round(file: Path, paired: Paired) -> None:
    """The tournament file with the round paired, written over FILE in one step (StoreError says a failure)."""
    from whispers.ledger.io.safefile import save

    save(file, paired.text.encode("utf-8"))


def start_round(store: Store | str | None, paired: Paired, ruleset: str = "official",
                board: str = "standin") -> list[str]:
    """Creates each table's game of the paired round, one store write per game holding its start and its table
    facts (seats' names, event, round, table), so a game is there whole or not at all; returns their names. A
    game made since `pair` checked refuses (StoreError naming it) the games from it on; those before it stand."""
    from whispers.application.recording import new
    from whispers.projections.pairing import table_facts

    made = []
    with opened(store) as s:
        for table in paired.plan.tables:
            new(s, table.game, [seat.society for seat in table.seats], table.first, ruleset, board,
                table=table_facts(table, paired.tournament, paired.plan.round))
            made.append(table.game)
    return made
