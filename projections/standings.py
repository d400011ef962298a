"""Tournament standings: placings per game under each game's own tie-breaks, tournament points per placing,
and a table over the entrants.

Placing in a game: by score, then by the game's ruleset's tie-breaks in order (the order the GameScored event
already ranks by). Players still level after every tie-break share the place and split its points; under a
ruleset whose last word is "no winner", the players level at the top share first place in the same way.

Tournament points (docs/tournament.md): by default `players - place` (4 players: 3, 2, 1, 0), or a table per
number of players from the tournament file. The standings rank entrants by points, then wins (a shared first
place counts as no win), then the sum of their game scores; entrants level on all three share a place, labelled
"=2" on each of them. Each row says how many of its games the director has finalised; a row with any game not
finalised is provisional.
"""

from collections.abc import Iterable, Mapping, Sequence
from typing import NotRequired, TypedDict, cast

import msgspec

from whispers.ledger.core import events as ev
from whispers.ledger.core.errors import WhispersError


# msgspec Structs, not dataclasses: a dataclass costs a tournament's standings 0.4 ms to define and a frozen one
# microseconds to make, and there is a Placing per seat of every game
class Placing(msgspec.Struct, frozen=True):
    game: str
    ruleset: str
    entrant: str
    society: str
    place: float
    """1 for first; a shared place is the mean of the places it covers (1.5 for two sharing first)."""
    points: float
    score: int
    won: bool


class Entry(msgspec.Struct):
    entrant: str
    points: float = 0.0
    wins: int = 0
    score: int = 0
    games: list[Placing] = msgspec.field(default_factory=list)


def default_points(players: int) -> list[float]:
    return [float(players - place) for place in range(1, players + 1)]


def _tie_key(scored: ev.GameScored, society: str, rules: Iterable[str]) -> tuple:
    entry = scored.scores[society]
    keys = {"fewest_swaps": -entry["swaps"], "most_concealed": entry["concealed"], "most_cards": entry["cards"]}
    return (entry["total"], *(keys[rule] for rule in rules))


class Result(msgspec.Struct, frozen=True):
    """What the standings need of one game; the catalog keeps it in each game's summary (`result_data`)."""

    players: tuple[str, ...]
    ruleset: str
    """The ruleset's label (projections.shipped pins)."""
    tie_breaks: tuple[str, ...]
    scored: ev.GameScored | None
    """The final scoring; None while the game is in progress."""
    finalised: bool = False
    """The director's seal stands on the game (`finalised`)."""


def result_of(events: Iterable[ev.Event]) -> Result:
    # the replay (and the rules it folds by) only for a record read whole: standings read from the catalog's
    # results never import it (a tenth of `tournament FILE`'s own imports)
    from whispers.projections.replay import final_scoring, standing_events

    events = list(events)
    kept = standing_events(events)
    started = kept[0]
    assert isinstance(started, ev.GameStarted)
    return standing_result(started, final_scoring(kept), events)


def standing_result(started: ev.GameStarted, scored: ev.GameScored | None, events: Sequence[ev.Event],
                    ruleset: str | None = None) -> Result:
    """`result_of` a record, given its first event and its final scoring (`final_scoring`) already, and its
    ruleset's label if known (else hashed from the ruleset the first event embeds)."""
    from whispers.ledger.io.shipped import started_ruleset

    label = started_ruleset(started).label if ruleset is None else ruleset
    return Result(tuple(started.players), label, tuple(cast("list[str]", started.ruleset["tie_breaks"])), scored,
                  finalised(events))


class ResultData(TypedDict):
    """A game's result as the catalog keeps it (`result_data`), read back by `result_from_data`."""

    players: list[str]
    ruleset: str
    tie_breaks: list[str]
    scored: dict[str, object] | None  # the final scoring's stored fact
    finalised: NotRequired[bool]


class GamePlace(TypedDict):
    game: str
    society: str
    place: float  # a shared place is the mean of the places it covers
    points: float
    score: int
    finalised: bool


class StandingRow(TypedDict):
    """One entrant's line in the standings of one ruleset."""

    rank: int
    entrant: str
    points: float
    wins: int
    score: int
    finalised: int  # how many of its games the director has finalised
    provisional: bool
    games: list[GamePlace]
    tied: NotRequired[bool]
    place: NotRequired[str]  # "3", or "=3" when shared


class StandingsData(TypedDict):
    """`standings_data`: what `standings` and a tournament print, their JSON and the director's page."""

    in_progress: list[str]
    finalised: list[str]
    unfinalised: list[str]
    rulesets: dict[str, list[StandingRow]]
    not_started: NotRequired[list[str]]  # a tournament file's games not in the store yet
    tournament: NotRequired[str]  # a tournament file's name


def result_data(result: Result) -> ResultData:
    return {"players": list(result.players), "ruleset": result.ruleset, "tie_breaks": list(result.tie_breaks),
            "scored": None if result.scored is None else result.scored.to_fact(), "finalised": result.finalised}


def result_from_data(data: ResultData) -> Result:
    scored = None if data["scored"] is None else _scored(data["scored"])
    return Result(tuple(data["players"]), data["ruleset"], tuple(data["tie_breaks"]), scored,
                  bool(data.get("finalised", False)))


def _scored(fact: Mapping[str, object]) -> ev.GameScored:
    """The final scoring a summary keeps, as `ev.from_fact` reads it; at the current class version, built by msgspec
    in C (a tenth of from_fact's freezing in Python, value by value, of a 100-game tournament's 30,000 values), the
    lists of its trail's steps frozen as from_fact freezes them (its scores hold none: numbers and names)."""
    if fact.get("class_version") != ev.GameScored.class_version:
        older = ev.from_fact(dict(fact))
        assert isinstance(older, ev.GameScored)
        return older
    made = msgspec.convert(fact, ev.GameScored)
    trail = tuple({k: tuple(v) if isinstance(v, list) else v for k, v in step.items()} for step in made.trail)
    return msgspec.structs.replace(made, trail=trail)


def placings(game: str, events: Iterable[ev.Event] | Result, seats: Mapping[str, str] | None = None,
             points: Mapping[int, list[float]] | None = None) -> list[Placing] | None:
    """The placings of one finished game (None while it is in progress), from its events or its Result."""
    of_game = events if isinstance(events, Result) else result_of(events)
    scored = of_game.scored
    if scored is None:
        return None
    rules = of_game.tie_breaks
    table = list((points or {}).get(len(of_game.players)) or default_points(len(of_game.players)))
    keys = {society: _tie_key(scored, society, rules) for society in of_game.players}
    ranked = sorted(of_game.players, key=keys.__getitem__, reverse=True)
    result = []
    index = 0
    while index < len(ranked):
        level = [s for s in ranked[index:] if keys[s] == keys[ranked[index]]]
        places = range(index + 1, index + len(level) + 1)
        shared_points = sum(table[p - 1] for p in places) / len(level)
        for society in level:
            result.append(Placing(
                game=game, ruleset=of_game.ruleset, entrant=(seats or {}).get(society, society),
                society=society, place=sum(places) / len(level), points=shared_points,
                score=scored.scores[society]["total"], won=scored.winner == society,
            ))
        index += len(level)
    return result


def finalised(events: Iterable[ev.Event] | Result) -> bool:
    """Whether the director's seal stands on the game: its last GameFinalized is not followed by a GameReopened
    (a take-back undoes moves only, never the director's own events)."""
    if isinstance(events, Result):
        return events.finalised
    if isinstance(events, list | tuple) and ev.GameFinalized not in map(type, events):  # most records, at C speed
        return False
    seal = [e for e in events if isinstance(e, ev.GameFinalized | ev.GameReopened)]
    return bool(seal) and isinstance(seal[-1], ev.GameFinalized)


def table(all_placings: Iterable[Placing]) -> list[Entry]:
    entries: dict[str, Entry] = {}
    for placing in all_placings:
        entry = entries.setdefault(placing.entrant, Entry(placing.entrant))
        entry.points += placing.points
        entry.wins += placing.won
        entry.score += placing.score
        entry.games.append(placing)
    return sorted(entries.values(), key=lambda e: (-e.points, -e.wins, -e.score, e.entrant))


def standings_data(games: Mapping[str, list[ev.Event] | Result], seats: Mapping[str, Mapping[str, str]] | None = None,
                   points: Mapping[int, list[float]] | None = None) -> StandingsData:
    """Standings by ruleset over these games, with the games still in progress listed apart, and the finished
    games split into those the director has finalised and those not yet finalised (counted, but provisional)."""
    by_ruleset: dict[str, list[Placing]] = {}
    in_progress: list[str] = []
    sealed: list[str] = []
    unsealed: list[str] = []
    for name, events in games.items():
        placed = placings(name, events, (seats or {}).get(name), points)
        if placed is None:
            in_progress.append(name)
            continue
        (sealed if finalised(events) else unsealed).append(name)
        by_ruleset.setdefault(placed[0].ruleset, []).extend(placed)
    result: StandingsData = {"in_progress": in_progress, "finalised": sealed, "unfinalised": unsealed,
                              "rulesets": {}}
    for ruleset, placed in sorted(by_ruleset.items()):
        rows: list[StandingRow] = []
        for position, e in enumerate(table(placed), start=1):
            level = rows and _standing(rows[-1]) == (e.points, e.wins, e.score)
            final = sum(p.game in sealed for p in e.games)
            rows.append({"rank": rows[-1]["rank"] if level else position, "entrant": e.entrant, "points": e.points,
                         "wins": e.wins, "score": e.score, "finalised": final, "provisional": final < len(e.games),
                         "games": [{"game": p.game, "society": p.society, "place": p.place, "points": p.points,
                                    "score": p.score, "finalised": p.game in sealed} for p in e.games]})
        for row in rows:  # a rank two rows hold is shared: marked on each, as "=2"
            row["tied"] = sum(other["rank"] == row["rank"] for other in rows) > 1
            row["place"] = place_label(row["rank"], row["tied"])
        result["rulesets"][ruleset] = rows
    return result


def _standing(row: StandingRow) -> tuple[float, int, int]:
    """What orders the standings and decides a shared place: points, then wins, then the sum of game scores."""
    return row["points"], row["wins"], row["score"]


def place_label(rank: int, tied: bool) -> str:
    """A place as standings print it: "3", or "=3" when entrants share it (the sports tables' mark)."""
    return f"={rank}" if tied else str(rank)


class TournamentError(WhispersError):
    """A tournament file that is not valid."""


class Tournament(msgspec.Struct, frozen=True):
    name: str
    games: list[str]
    seats: dict[str, dict[str, str]]
    """Per game, society -> entrant, in seat order (clockwise) as the file lists them."""
    points: dict[int, list[float]]
    entrants: list[str] = msgspec.field(default_factory=list)
    rounds: dict[str, int] = msgspec.field(default_factory=dict)
    """The round of each game that names one (games written by `tournament pair` do)."""
    firsts: dict[str, str] = msgspec.field(default_factory=dict)
    """The society that plays first in each game that names one."""


def load_tournament(text: str, source: str) -> Tournament:
    """A tournament file (docs/tournament.md); TournamentError names the first problem."""
    from whispers.ledger.core.meta import text_problem
    from whispers.ledger.core.names import SOCIETIES
    from whispers.ledger.io.input_files import toml_text

    raw = toml_text(text, source, TournamentError)
    unknown = set(raw) - {"name", "points", "game", "entrants"}
    if unknown:
        raise TournamentError(f"{source}: unknown key {sorted(unknown)[0]!r}")
    name = raw.get("name", source)
    if "name" in raw and (why := text_problem(name, "name")):
        raise TournamentError(f"{source}: {why}")
    by_size = raw.get("points") or {}
    if not isinstance(by_size, dict):
        raise TournamentError(f"{source}: points is a table: points.N lists N numbers, one per place")
    points: dict[int, list[float]] = {}
    for size, values in by_size.items():
        if size not in {"2", "3", "4"} or not isinstance(values, list) or len(values) != int(size) or not all(
                isinstance(v, int | float) for v in values):
            raise TournamentError(f"{source}: points.{size} must list {size} numbers, one per place")
        points[int(size)] = [float(v) for v in values]
    entrants = raw.get("entrants", [])
    if not isinstance(entrants, list) or not all(isinstance(e, str) and e.strip() for e in entrants):
        raise TournamentError(f"{source}: entrants must list the entrants' names")
    for entrant in entrants:  # a person's name, shown in every face: one printable line, as a seat's name is
        if why := text_problem(entrant, f"entrant {entrant!r}"):
            raise TournamentError(f"{source}: {why}")
    if len(set(entrants)) != len(entrants):
        twice = next(e for e in entrants if entrants.count(e) > 1)
        raise TournamentError(f"{source}: entrant {twice!r} is listed twice")
    listed = raw.get("game") or []
    if not isinstance(listed, list):  # a table or a text: not a list of [[game]] tables (what each entry is told)
        raise TournamentError(f"{source}: game 1 needs a name")
    games, seats, rounds, firsts = [], {}, {}, {}
    for index, entry in enumerate(listed, start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise TournamentError(f"{source}: game {index} needs a name")
        extra = set(entry) - {"name", "seats", "round", "first"}
        if extra:
            raise TournamentError(f"{source}: game {entry['name']}: unknown key {sorted(extra)[0]!r}")
        table = entry.get("seats") or {}
        if not isinstance(table, dict) or any(s not in SOCIETIES or not isinstance(p, str) for s, p in table.items()):
            raise TournamentError(f"{source}: game {entry['name']}: seats maps societies to entrants' names")
        for person in table.values():
            if why := text_problem(person, f"game {entry['name']}: entrant {person!r}"):
                raise TournamentError(f"{source}: {why}")
        if entry["name"] in seats:
            raise TournamentError(f"{source}: game {entry['name']} is listed twice")
        if "round" in entry:
            if not isinstance(entry["round"], int) or isinstance(entry["round"], bool) or entry["round"] < 1:
                raise TournamentError(f"{source}: game {entry['name']}: round must be a whole number from 1")
            rounds[entry["name"]] = entry["round"]
        if "first" in entry:
            if entry["first"] not in table:
                raise TournamentError(f"{source}: game {entry['name']}: first must be one of its seats' societies")
            firsts[entry["name"]] = entry["first"]
        games.append(entry["name"])
        seats[entry["name"]] = dict(table)
    if not games and not entrants:
        raise TournamentError(f"{source}: no [[game]] listed")
    return Tournament(cast(str, name), games, seats, points, entrants, rounds, firsts)  # text, or checked as one
