"""Seating a tournament round at tables of 3 and 4 (docs/tournament.md, "Pairing a round").

Pure: no file, no store, no clock. The same entrants, history, points and seed give the same tables, so a
director can re-run a round and get what was announced.

1. Table sizes: as many tables of 4 as the field allows, the rest of 3 (5 entrants, or fewer than 3, cannot
   be seated: 2-player tables and byes are not offered).
2. Order: round 1 in a seeded random order; later rounds by tournament points so far (Swiss), level entrants
   in a seeded random order.
3. Tables: the arrangement with the fewest repeat meetings (pairs at one table who already sat together),
   then the least Swiss spread (the sum over tables of most minus fewest points at it). A branch-and-bound
   search over every arrangement finds it, starting from the Swiss slices; if the search outgrows its node
   budget (large fields), the best arrangement found so far is improved by swaps between tables, each swap
   lowering repeats or, at equal repeats, the spread, and the plan says it is not proven best.
4. Societies: per table, the assignment with the fewest earlier plays of the same society by the same
   entrant; first seat: the entrant who has played first least; both with seeded ties.
"""

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations
from typing import TYPE_CHECKING

from whispers.ledger.core.digests import sha256
from whispers.ledger.core.errors import WhispersError
from whispers.ledger.core.names import MAX_PLAYERS, MIN_PLAYERS, SOCIETIES
from whispers.ledger.core.plain import Data

if TYPE_CHECKING:
    from whispers.projections.standings import StandingsData
from whispers.projections.standings import Tournament

NODE_BUDGET = 200_000
"""Search nodes before the exact search gives way to swaps: ample for 12 entrants (15,400 arrangements at
most), a fraction of a second or two in pure Python."""


class PairingError(WhispersError):
    """A round that cannot be seated."""


@dataclass(frozen=True)
class Seat:
    entrant: str
    society: str


@dataclass(frozen=True)
class Table:
    game: str
    seats: tuple[Seat, ...]
    """In seat order, the first player first."""

    @property
    def first(self) -> str:
        return self.seats[0].society

    @property
    def entrants(self) -> tuple[str, ...]:
        return tuple(s.entrant for s in self.seats)


@dataclass(frozen=True)
class Plan:
    round: int
    tables: tuple[Table, ...]
    repeats: list[tuple[str, str]]
    """The pairs at one table this round who already met."""
    exact: bool
    """True when the search saw every arrangement: no other has fewer repeats (or, as few, less spread)."""


@dataclass
class History:
    """What the rounds before this one leave behind."""

    meetings: Counter[frozenset[str]] = field(default_factory=Counter)
    societies: dict[str, Counter[str]] = field(default_factory=dict)
    firsts: Counter[str] = field(default_factory=Counter)

    def add_game(self, seats: Mapping[str, str], first: str | None = None) -> None:
        """One game: society -> entrant at it, and the society that played first when known."""
        people = list(seats.values())
        for a, b in combinations(people, 2):
            if a != b:
                self.meetings[frozenset((a, b))] += 1
        for society, entrant in seats.items():
            self.societies.setdefault(entrant, Counter())[society] += 1
        if first is not None and first in seats:
            self.firsts[seats[first]] += 1


def table_sizes(count: int) -> list[int]:
    """Tables of 4 and 3 (the game's largest and the next) seating `count` entrants, as many of 4 as possible."""
    full, short = MAX_PLAYERS, MAX_PLAYERS - 1
    shorts = -count % full
    if count < short or count < short * shorts:
        raise PairingError(
            f"{count} entrant{'s' if count != 1 else ''} cannot be seated at tables of {short} and {full} "
            f"({MIN_PLAYERS}-player tables and byes are not offered): add or remove an entrant in the file's entrants")
    return [full] * ((count - short * shorts) // full) + [short] * shorts


def seed_for(*parts: object) -> int:
    """A seed from the tournament's own words (its name, entrants and the round), stable across runs."""
    text = "\n".join(str(p) for p in parts)
    return int.from_bytes(sha256(text.encode("utf-8")).digest()[:8], "big")


def repeat_count(groups: Iterable[Iterable[str]], meetings: Mapping[frozenset[str], int]) -> int:
    """Pairs seated together in `groups` who already met."""
    return sum(1 for group in groups for a, b in combinations(list(group), 2) if meetings.get(frozenset((a, b))))


def spread(groups: Iterable[Iterable[str]], points: Mapping[str, float]) -> float:
    """The Swiss spread: over the tables, most points minus fewest."""
    total = 0.0
    for group in groups:
        values = [points.get(e, 0.0) for e in group]
        total += max(values) - min(values)
    return total


def _arrange(order: Sequence[str], sizes: Sequence[int], meetings: Mapping[frozenset[str], int],
             points: Mapping[str, float], budget: int) -> tuple[list[list[str]], bool]:
    """Groups with the fewest repeats, then least spread: exact unless the budget runs out."""
    n = len(order)
    met = [[bool(meetings.get(frozenset((a, b)))) for b in order] for a in order]
    pts = [points.get(e, 0.0) for e in order]
    best: list[tuple[int, ...]] | None = None  # the groups of the best arrangement found so far, by index
    best_cost = (float("inf"), float("inf"))  # its (repeats, spread)
    nodes = 0

    class OutOfBudget(Exception):
        pass

    def search(remaining: list[int], sizes_left: Counter[int], chosen: list[tuple[int, ...]],
               repeats: int, spread_so_far: float) -> None:
        nonlocal nodes, best, best_cost
        if not remaining:
            best, best_cost = list(chosen), (repeats, spread_so_far)
            return
        head, rest = remaining[0], remaining[1:]
        for size in sorted(sizes_left, reverse=True):
            if not sizes_left[size]:
                continue
            for mates in combinations(rest, size - 1):
                nodes += 1
                if nodes > budget:
                    raise OutOfBudget
                group = (head, *mates)
                cost = (repeats + sum(met[a][b] for a, b in combinations(group, 2)),
                        spread_so_far + max(pts[i] for i in group) - min(pts[i] for i in group))
                if cost >= best_cost:
                    continue
                sizes_left[size] -= 1
                chosen.append(group)
                search([i for i in rest if i not in mates], sizes_left, chosen, *cost)
                chosen.pop()
                sizes_left[size] += 1

    exact = True
    try:
        search(list(range(n)), Counter(sizes), [], 0, 0.0)
    except OutOfBudget:
        exact = False
    if best is None:  # not even one arrangement within the budget: the Swiss slices
        start, best = 0, []
        for size in sizes:
            best.append(tuple(range(start, start + size)))
            start += size
    tables = [[order[i] for i in group] for group in best]
    if not exact:
        tables = _improve(tables, meetings, points)
    return tables, exact


def _improve(tables: list[list[str]], meetings: Mapping[frozenset[str], int],
             points: Mapping[str, float]) -> list[list[str]]:
    """Swaps of two entrants between tables while one lowers (repeats, spread); never raises repeats."""

    def cost(group: list[str]) -> tuple[int, float]:
        return repeat_count([group], meetings), spread([group], points)

    improved = True
    while improved:
        improved = False
        for a, b in combinations(range(len(tables)), 2):
            for i in range(len(tables[a])):
                for j in range(len(tables[b])):
                    before = [sum(x) for x in zip(cost(tables[a]), cost(tables[b]), strict=True)]
                    tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
                    after = [sum(x) for x in zip(cost(tables[a]), cost(tables[b]), strict=True)]
                    if after < before:
                        improved = True
                    else:
                        tables[a][i], tables[b][j] = tables[b][j], tables[a][i]
    return tables


def _seat(group: Sequence[str], history: History, rng: random.Random) -> tuple[Seat, ...]:
    """Societies each entrant has played least, the first seat to whoever has been first least."""
    people = list(group)
    rng.shuffle(people)
    options = list(permutations(SOCIETIES, len(people)))
    rng.shuffle(options)

    def played(option: Iterable[str]) -> tuple[int, int]:
        counts = [history.societies.get(e, Counter())[s] for e, s in zip(people, option, strict=True)]
        return sum(counts), max(counts)

    societies = dict(zip(people, min(options, key=played), strict=True))
    first = min(people, key=lambda e: history.firsts[e])  # shuffled above: ties fall at random
    rest = [e for e in people if e != first]
    return tuple(Seat(e, societies[e]) for e in [first, *rest])


def pair_round(round_no: int, entrants: Sequence[str], history: History, points: Mapping[str, float],
               seed: int, budget: int = NODE_BUDGET) -> Plan:
    """The tables of round `round_no` (docs/tournament.md, "Pairing a round")."""
    sizes = table_sizes(len(entrants))
    rng = random.Random(seed)
    order = list(entrants)
    rng.shuffle(order)
    if round_no > 1:
        order.sort(key=lambda e: -points.get(e, 0.0))  # stable: level entrants keep the seeded order
    groups, exact = _arrange(order, sizes, history.meetings, points, budget)
    rank = {e: i for i, e in enumerate(order)}
    groups.sort(key=lambda g: min(rank[e] for e in g))
    tables = tuple(Table(f"r{round_no}-t{k}", _seat(g, history, rng)) for k, g in enumerate(groups, start=1))
    repeats = sorted(tuple(sorted((a, b))) for g in groups for a, b in combinations(g, 2)
                     if history.meetings.get(frozenset((a, b))))
    return Plan(round_no, tables, [(a, b) for a, b in repeats], exact)


def check_round(tournament: Tournament, round_no: int) -> None:
    """Refuse a round that cannot be paired from this file."""
    if round_no < 1:
        raise PairingError("--round counts from 1")
    if not tournament.entrants:
        raise PairingError(f"{tournament.name}: no entrants: list them as entrants = [\"Ana\", \"Bo\", ...]")
    later = sorted({r for r in tournament.rounds.values() if r > round_no})
    if later:
        raise PairingError(f"round {later[0]} is already in the file: rounds are paired in order")


def games_before(tournament: Tournament, round_no: int) -> list[str]:
    """The games before round `round_no`: those of an earlier round, and those with no round (played before
    pairing was used)."""
    return [g for g in tournament.games if tournament.rounds.get(g, 0) < round_no]


def history_before(tournament: Tournament, round_no: int) -> History:
    """The meetings, societies and first seats of the games before round `round_no`."""
    history = History()
    for game in games_before(tournament, round_no):
        history.add_game(tournament.seats[game], tournament.firsts.get(game))
    return history


def points_by_entrant(standings: "StandingsData") -> dict[str, float]:
    """Tournament points per entrant from `standings_data`, summed over its rulesets."""
    totals: dict[str, float] = {}
    for rows in standings["rulesets"].values():
        for row in rows:
            totals[row["entrant"]] = totals.get(row["entrant"], 0.0) + row["points"]
    return totals


def plan_data(plan: Plan, tournament: str) -> Data:
    """The plan for --json, with each table's number and `whispers new` line."""
    return {"round": plan.round, "exact": plan.exact, "repeats": [list(p) for p in plan.repeats],
            "tables": [{"game": t.game, "table": table_number(t), "first": t.first,
                        "seats": [{"entrant": s.entrant, "society": s.society} for s in t.seats],
                        "command": new_command(t, tournament, plan.round)} for t in plan.tables]}


def table_number(table: Table) -> int:
    """The table's number in its round, from its game's name (`r2-t3` is table 3)."""
    number = table_of(table.game)
    assert number is not None, table.game  # pair_round names every table's game so
    return number


def table_of(game: str) -> int | None:
    """The table's number in a paired game's name (`r2-t3`: 3), else None."""
    number = game.rsplit("-t", 1)[-1] if "-t" in game else ""
    return int(number) if number.isdecimal() and number.isascii() else None


def table_facts(table: Table, tournament: str, round_no: int) -> Data:
    """The table facts (ledger/core/meta.py) a paired game is started with: who sits at each society, the event (the
    tournament's name), its round and its table."""
    return {"seats": {seat.society: seat.entrant for seat in table.seats}, "event": tournament,
            "round": str(round_no), "table": str(table_number(table))}


def new_command(table: Table, tournament: str, round_no: int) -> str:
    """The `whispers new` line that starts this table's game (societies in seat order) with its table facts,
    each name quoted for a POSIX shell (a name is the entrant's words, never the shell's)."""
    from shlex import quote

    seats = " ".join(f"--seat {quote(f'{seat.society}={seat.entrant}')}" for seat in table.seats)
    return (f"whispers new {table.game} --players {','.join(s.society for s in table.seats)} "
            f"--first {table.first} {seats} --event {quote(tournament)} --round {round_no} "
            f"--table {table_number(table)}")


def with_round(text: str, plan: Plan, force: bool = False) -> str:
    """The tournament file's text with this round's games added, its comments and layout kept (tomlkit).

    A round already in the file is refused unless `force`, which replaces that round's games.
    """
    import tomlkit

    document = tomlkit.parse(text)
    games = document.get("game")
    if games is not None and not isinstance(games, tomlkit.items.AoT):
        if games:
            raise PairingError("the file lists its games as game = [...]: write them as [[game]] tables")
        del document["game"]
        games = None
    if games is None:
        games = tomlkit.aot()
        document.add(tomlkit.nl())
        document.add("game", games)
    mine = [i for i, g in enumerate(games) if g.get("round") == plan.round]
    if mine and not force:
        raise PairingError(f"round {plan.round} is already in the file ({len(mine)} games): "
                           "--force replaces it")
    for i in reversed(mine):
        del games[i]
    taken = {g.get("name") for g in games}
    clash = next((t.game for t in plan.tables if t.game in taken), None)
    if clash:
        raise PairingError(f"the file already has a game named {clash} outside round {plan.round}")
    for t in plan.tables:
        game = tomlkit.table()
        game.add("name", t.game)
        game.add("round", plan.round)
        game.add("first", t.first)
        seats = tomlkit.inline_table()
        seats.update({s.society: s.entrant for s in t.seats})
        game.add("seats", seats)
        games.append(game)
    return tomlkit.dumps(document)
