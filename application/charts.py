"""Charts: a game's course as series (score if it ended now, cities, banners) and win rates across games.

The series are data (to_json()); drawing them is projections/charts.py, which imports matplotlib, and only
when a chart is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from whispers.application.stores import opened
from whispers.ledger.core.errors import WhispersError
from whispers.ledger.core.plain import Data
from whispers.ledger.core.words import _, say

if TYPE_CHECKING:
    from whispers.application.ratings import RatingHistory
    from whispers.ledger.io.store import Store

KINDS: tuple[str, ...] = ("score", "cities", "banners", "chances")
FORMATS = ("svg", "png")


@dataclass(frozen=True, slots=True)
class Series:
    """One value per line after every move of a game: x is the move number (moves counted from 1; 0 is the
    game as set up, before the first move), None where a value is not known to the viewer."""

    game: str
    kind: str
    viewer: str | None
    moves: tuple[int, ...]
    versions: tuple[int, ...]  # the event each point is after
    rounds: tuple[tuple[int, int], ...]  # (round, the move number it starts at)
    lines: dict[str, tuple[int | None, ...]]
    colours: dict[str, str]

    def to_json(self) -> Data:
        return {"game": self.game, "kind": self.kind, "viewer": self.viewer, "moves": list(self.moves),
                "versions": list(self.versions), "rounds": [list(r) for r in self.rounds],
                "lines": {name: list(values) for name, values in self.lines.items()}}


class WinRatesJson(TypedDict):
    games: int
    finished: int
    win_rate: dict[str, float]
    win_rate_by_seat: dict[str, float]


@dataclass(frozen=True, slots=True)
class WinRates:
    """Win rates by society and by seat across the finished games in the store (a shared win is no win)."""

    games: int
    finished: int
    by_society: dict[str, float]
    by_seat: dict[int, float]
    colours: dict[str, str]

    def to_json(self) -> WinRatesJson:
        return {"games": self.games, "finished": self.finished, "win_rate": self.by_society,
                "win_rate_by_seat": {str(k): v for k, v in self.by_seat.items()}}


@dataclass(frozen=True, slots=True)
class Chances:
    """Each society's chance of winning after every move, as the stored analysis has it (application/analysis.py)
    for one viewer, with each chance's standard error, the turning points and the notes' glyphs."""

    game: str
    viewer: str | None
    policy: str
    rollouts: int
    moves: tuple[int, ...]
    versions: tuple[int, ...]  # the event each point is after
    lines: dict[str, tuple[float, ...]]
    errors: dict[str, tuple[float, ...]]
    turning: tuple[tuple[int, str, str], ...]  # (move, its label, the society whose chance moved most)
    glyphs: tuple[tuple[int, str], ...]  # (move, a note's glyph: !!, ?, ...)
    colours: dict[str, str]
    kind: str = "chances"

    def to_json(self) -> Data:
        return {"game": self.game, "kind": self.kind, "viewer": self.viewer, "policy": self.policy,
                "rollouts": self.rollouts, "moves": list(self.moves),
                "lines": {s: list(v) for s, v in self.lines.items()},
                "errors": {s: list(v) for s, v in self.errors.items()},
                "turning_points": [list(t) for t in self.turning], "glyphs": [list(g) for g in self.glyphs]}


@dataclass(frozen=True, slots=True)
class Charted:
    output: str
    data: Series | WinRates | RatingHistory | Chances

    def to_json(self) -> Data:
        return {"output": self.output, **self.data.to_json()}


def series(store: Store | str | None, game: str, kind: str, viewer: str | None = None) -> Series:
    """The series of `kind` over GAME's moves, as `viewer` could know them (the scores: only those it could
    compute, see projections.visibility.known_scores)."""
    from whispers.ledger.core.notation import format_event
    from whispers.ledger.io.game import load
    from whispers.projections.colours import empire_colour, society_colour
    from whispers.projections.replay import Replay, standing
    from whispers.projections.visibility import check_viewer, known_scores

    with opened(store) as s:
        record = load(s, game)
    check_viewer(game, record.state.players, viewer)
    kept = [event for _, event in standing(record.events)]
    rep = Replay(tuple(kept))
    moves: list[int] = []
    versions: list[int] = []
    rounds: list[tuple[int, int]] = []
    points: list[dict[str, int | None]] = []
    count = 0
    for version in range(1, len(rep) + 1):
        count += format_event(rep.event(version)) is not None
        # a point after every move, once the engine's own events that follow it are folded in: where the next
        # event is a move, or the record ends (0: the game as set up, before the first move)
        if version < len(rep) and format_event(rep.event(version + 1)) is None:
            continue
        if moves and moves[-1] == count:
            continue
        state = rep.at(version)
        if not rounds or state.round != rounds[-1][0]:
            rounds.append((state.round, count))
        moves.append(count)
        versions.append(version)
        if kind == "score":
            points.append(known_scores(state, viewer))
        elif kind == "cities":
            points.append({e: state.cities(e) for e in state.board.empires})
        else:
            points.append({**{f"{e} on the board": state.on_board(e) for e in state.board.empires},
                           **{f"{e} in reserve": state.reserve[e] for e in state.board.empires}})
    names = list(points[0]) if points else []
    lines = {name: tuple(p[name] for p in points) for name in names}
    if kind == "score":
        colours = {name: society_colour(name).strong for name in names}
    else:
        colours = {name: empire_colour(name.split(" ")[0]).strong for name in names}
    return Series(game, kind, viewer, tuple(moves), tuple(versions), tuple(rounds), lines, colours)


def chances(store: Store | str | None, game: str, viewer: str | None = None) -> Chances:
    """The chances the store holds for GAME as `viewer` knew it (`whispers analyse` plays them: a chart never does)."""
    from whispers.application.analysis import stored
    from whispers.application.reading import notes_of
    from whispers.ledger.core.notes import current
    from whispers.projections.colours import society_colour

    with opened(store) as s:
        found = stored(s, game, viewer)
        notes, _warnings = notes_of(s, game)
    if found is None or not found.points:
        as_whom = "" if viewer is None else " --as " + viewer
        raise ChartError(say("no analysis of {game} is stored for this viewer: run whispers analyse {game}{as_whom} "
                             "first", game=game, as_whom=as_whom))
    points = found.points
    societies = found.societies
    glyphs = []
    for note in current(notes):
        if note.get("glyph"):
            after = next((p.move for p in points if p.version >= note["at"]), None)
            if after is not None:
                glyphs.append((after, str(note["glyph"])))
    return Chances(game, viewer, found.policy, found.rollouts, tuple(p.move for p in points),
                   tuple(p.version for p in points),
                   {s: tuple(p.chances[s][0] for p in points) for s in societies},
                   {s: tuple(p.chances[s][1] or 0.0 for p in points) for s in societies},
                   tuple((t.move, t.label or f"m{t.move}", t.society) for t in found.turning), tuple(glyphs),
                   {s: society_colour(s).strong for s in societies})


def chances_svg(store: Store | str | None, game: str, viewer: str | None = None) -> bytes:
    """The chances chart as SVG, from what the store holds (the web's replay page): ChartError when none is."""
    from whispers.projections.charts import draw

    return draw(chances(store, game, viewer), "svg")


def win_rates(store: Store | str | None) -> WinRates:
    from whispers.application.review import stats_across
    from whispers.projections.colours import society_colour

    data = stats_across(store).to_json()
    return WinRates(data["games"], data["finished"], dict(data["win_rate"]),
                    {int(k): v for k, v in data["win_rate_by_seat"].items()},
                    {s: society_colour(s).strong for s in data["win_rate"]})


def chart(store: Store | str | None, game: str | None, kind: str | None, output: str,
          viewer: str | None = None, person: str | None = None) -> Charted:
    """Draw `kind` for GAME (or the win rates across games when `game` is None, or `person`'s rating history
    when given) into `output` (.svg or .png), written whole or not at all."""
    from whispers.ledger.io.safefile import save

    suffix = output.rsplit(".", 1)[-1].lower() if "." in output else ""
    if suffix not in FORMATS:
        raise ChartError(say("a chart is written as .svg or .png, not {file}", file=repr(output)))
    data: Series | WinRates | RatingHistory | Chances
    if person is not None:
        from whispers.application.ratings import history

        data = history(store, person)
    elif game is None:
        data = win_rates(store)
        if not data.finished:
            raise ChartError(_("no finished game in the store: no win rates to chart"))
    else:
        if kind not in KINDS:
            raise ChartError(say("unknown chart {text}: the charts are {kinds}", text=repr(kind),
                                 kinds=", ".join(KINDS)))
        data = chances(store, game, viewer) if kind == "chances" else series(store, game, kind, viewer)
    from whispers.projections.charts import draw

    picture = draw(data, suffix)
    save(output, picture)
    return Charted(output, data)


class ChartError(WhispersError):
    """A chart asked for that cannot be drawn: an unknown kind or file type, or no data."""
