"""The chances chart as the replay page draws it (issue 34): the geometry of an SVG in the page, not a picture.

Each society's chance after every move is a line, with a band of one standard error each side; each move is a
column of the plot that links to that move on the replay page (a point on the chart opens its move), titled with
its label and the chances there; the turning points are circled, and the move the page shows is marked. Only
numbers and the labels come out of here: the template writes them, escaped (web/templates/chances.html).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 480.0, 220.0
LEFT, RIGHT, TOP, BOTTOM = 52.0, 10.0, 10.0, 24.0
GRID = (0.0, 0.25, 0.5, 0.75, 1.0)


@dataclass(frozen=True, slots=True)
class Line:
    society: str
    colour: str
    points: str  # "x,y x,y ..." of the polyline
    band: str  # the polygon one standard error each side


@dataclass(frozen=True, slots=True)
class Column:
    version: int  # the event the move's position is after: the replay step it opens
    x: float
    width: float
    title: str  # the move's label and the chances there
    here: bool  # the move the page shows


@dataclass(frozen=True, slots=True)
class Plot:
    width: float
    height: float
    left: float
    top: float
    inner_width: float
    inner_height: float
    lines: tuple[Line, ...]
    columns: tuple[Column, ...]
    turning: tuple[tuple[float, float, str], ...]  # (x, y, colour) of a turning point's circle
    grid: tuple[tuple[float, str], ...]  # (y, "50%")
    ticks: tuple[tuple[float, str], ...]  # (x, "m40") along the bottom
    here_x: float | None


def plot(moves: Sequence[int], versions: Sequence[int], labels: Sequence[str],
         chances: Mapping[str, Sequence[tuple[float, float | None]]], colours: Mapping[str, str],
         turning: Mapping[int, str], at: int, names: Mapping[str, str]) -> Plot:
    """The plot of one analysis: `chances[society][i]` (chance, standard error) after move `moves[i]`, which is
    after event `versions[i]` and labelled `labels[i]`; `turning` the versions of the turning points and the
    society whose chance moved most there; `at` the event the page shows; `names` the societies in the reader's
    words."""
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    count = len(moves)
    span = max(1, count - 1)

    def x(i: int) -> float:
        return round(LEFT + inner_w * (i / span if count > 1 else 0.5), 2)

    def y(chance: float) -> float:
        return round(TOP + inner_h * (1 - min(1.0, max(0.0, chance))), 2)

    lines = []
    for society, values in chances.items():
        points = " ".join(f"{x(i)},{y(c)}" for i, (c, _se) in enumerate(values))
        upper = [f"{x(i)},{y(c + (se or 0))}" for i, (c, se) in enumerate(values)]
        lower = [f"{x(i)},{y(c - (se or 0))}" for i, (c, se) in enumerate(values)]
        lines.append(Line(society, colours[society], points, " ".join(upper + lower[::-1])))
    step = inner_w / span if count > 1 else inner_w
    here_index = max((i for i, v in enumerate(versions) if v <= at), default=None)
    columns = []
    for i, version in enumerate(versions):
        said = ", ".join(f"{names[s]} {round(values[i][0] * 100)}%" for s, values in chances.items())
        left = max(LEFT, x(i) - step / 2) if count > 1 else LEFT
        right = min(LEFT + inner_w, x(i) + step / 2) if count > 1 else LEFT + inner_w
        columns.append(Column(version, round(left, 2), round(right - left, 2), f"{labels[i]}: {said}",
                              i == here_index))
    circles = []
    for i, version in enumerate(versions):
        turned = turning.get(version)
        if turned is not None and turned in chances:
            circles.append((x(i), y(chances[turned][i][0]), colours[turned]))
    ticks = []
    if count:
        every = max(1, round(count / 6))
        ticks = [(x(i), f"m{moves[i]}") for i in range(0, count, every)]
    grid = tuple((y(g), f"{round(g * 100)}%") for g in GRID)
    return Plot(WIDTH, HEIGHT, LEFT, TOP, inner_w, inner_h, tuple(lines), tuple(columns), tuple(circles), grid,
                tuple(ticks), None if here_index is None else x(here_index))
