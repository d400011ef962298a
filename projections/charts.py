"""Charts drawn with matplotlib: a game's series over its moves, and win rates across games.

matplotlib is imported here only, and this module only when a chart is asked for (application/charts.py).
The figure is drawn without pyplot (no global state, no display) and returned as the file's bytes.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Protocol, cast

from whispers.ledger.core.words import N_, _, n_, say, term

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.backend_bases import RendererBase
    from matplotlib.figure import Figure

    from whispers.projections.ratings import RatingPoint


# What the charts read of the application's data (the layers keep projections from importing its types)


class Series(Protocol):
    """application.charts.Series."""

    @property
    def game(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def viewer(self) -> str | None: ...
    @property
    def moves(self) -> Sequence[int]: ...
    @property
    def rounds(self) -> Sequence[tuple[int, int]]: ...
    @property
    def lines(self) -> Mapping[str, Sequence[float | None]]: ...
    @property
    def colours(self) -> Mapping[str, str]: ...


class Chances(Protocol):
    """application.charts.Chances."""

    @property
    def game(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def viewer(self) -> str | None: ...
    @property
    def policy(self) -> str: ...
    @property
    def rollouts(self) -> int: ...
    @property
    def moves(self) -> Sequence[int]: ...
    @property
    def lines(self) -> Mapping[str, Sequence[float]]: ...
    @property
    def errors(self) -> Mapping[str, Sequence[float]]: ...
    @property
    def turning(self) -> Sequence[tuple[int, str, str]]: ...
    @property
    def glyphs(self) -> Sequence[tuple[int, str]]: ...
    @property
    def colours(self) -> Mapping[str, str]: ...


class WinRates(Protocol):
    """application.charts.WinRates."""

    @property
    def games(self) -> int: ...
    @property
    def finished(self) -> int: ...
    @property
    def by_society(self) -> Mapping[str, float]: ...
    @property
    def by_seat(self) -> Mapping[int, float]: ...
    @property
    def colours(self) -> Mapping[str, str]: ...


class RatingHistory(Protocol):
    """application.ratings.RatingHistory."""

    @property
    def person(self) -> str: ...
    @property
    def points(self) -> Sequence[RatingPoint]: ...

TITLES = {
    "score": N_("score if the game ended now"),
    "cities": N_("cities per empire"),
    "banners": N_("banners"),
}
AXES = {"score": N_("points"), "cities": N_("cities"), "banners": N_("banners")}
"""The y axis's name for each kind of series."""
NOTE_WIDTH = 110
"""The characters a line of a chart's note under its plot holds: it then fits beside the legend in any language."""


def draw(data: Series | Chances | WinRates | RatingHistory, fmt: str) -> bytes:
    """The chart as SVG or PNG bytes (no date in the file: the same data gives the same picture)."""
    from matplotlib import rc_context

    out = io.BytesIO()
    metadata = {"Date": None} if fmt == "svg" else {"Software": None}
    # the SVG's ids are hashes salted at random unless a salt is given: a fixed one, so that they are the same too
    with rc_context({"svg.hashsalt": "whispers"}):
        figure(data).savefig(out, format=fmt, metadata=metadata)
    return out.getvalue()


def figure(data: Series | Chances | WinRates | RatingHistory) -> Figure:
    """The chart as a matplotlib Figure (its words in the reader's language; the file draws them as shapes)."""
    drawn = _laid_out_as_drawn()(figsize=(10, 5.5), dpi=110)
    if hasattr(data, "points"):
        _rating_history(drawn.add_subplot(), cast("RatingHistory", data))
    elif not hasattr(data, "lines"):
        _win_rates(drawn, data)
    elif (series := cast("Series", data)).kind == "chances":  # a series or chances: told by its kind
        _chances(drawn.add_subplot(), cast("Chances", data))
    elif series.kind == "banners":
        # ten lines on one axis are a tangle: the board above, the reserves below, one colour per empire
        drawn.set_size_inches(10, 7.5)
        top, bottom = drawn.subplots(2, 1, sharex=True)
        on_board = [n for n in series.lines if n.endswith("on the board")]
        _series(top, series, on_board, _("banners on the board"), legend=[term(n.split(" ")[0]) for n in on_board])
        _series(bottom, series, [n for n in series.lines if n.endswith("in reserve")],
                _("banners in reserve"))
        drawn.suptitle(say("{game} · banners", game=series.game))
    else:
        _series(drawn.add_subplot(), series, list(series.lines),
                say("{game} · {chart}", game=series.game, chart=_(TITLES[series.kind])))
    return drawn


@cache
def _laid_out_as_drawn() -> type[Figure]:
    """A Figure class laid out by matplotlib's constrained layout in each draw, as `layout="constrained"` would
    (the same picture), without a layout engine set: savefig, seeing one, draws the figure a first time with no
    output just to lay it out, then again to write the file; this lays it out in the one draw that writes it."""
    from matplotlib.figure import Figure
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    class LaidOutAsDrawn(Figure):
        def draw(self, renderer: RendererBase) -> None:
            if self.get_visible() and self.axes:
                # measured with the renderer that draws (the layout would make its own: the text measured twice)
                self._get_renderer = lambda: renderer
                try:
                    ConstrainedLayoutEngine().execute(self)
                except ValueError:  # as Figure.draw does with its engine's
                    pass
                finally:
                    del self._get_renderer
            super().draw(renderer)

    return LaidOutAsDrawn


def _series(ax: Axes, data: Series, names: list[str], title: str, legend: list[str] | None = None) -> None:
    from matplotlib.ticker import MaxNLocator

    for index, name in enumerate(names):
        values = [float("nan") if v is None else v for v in data.lines[name]]
        ax.plot(data.moves, values, label=legend[index] if legend else _line_name(name), color=data.colours[name],
                linewidth=1.8, drawstyle="steps-post")
        known = [(x, v) for x, v in zip(data.moves, data.lines[name], strict=True) if v is not None]
        if known:  # the last value known, as a dot and its figure (a set sealed until the reveal has only it)
            x, v = known[-1]
            ax.plot([x], [v], marker="o", markersize=4, color=data.colours[name])
            ax.annotate(str(v), (x, v), xytext=(4, 0), textcoords="offset points", fontsize=8, va="center",
                        color=data.colours[name])
    for round_, move in data.rounds:
        ax.axvline(move, color="#bdbdbd", linewidth=0.8, zorder=0)
        ax.annotate(say("round {round}", round=round_), (move, 1), xycoords=("data", "axes fraction"), xytext=(3, -12),
                    textcoords="offset points", fontsize=8, color="#616161")
    who = "" if data.viewer is None else " " + say("(as {viewer} knew it)", viewer=data.viewer)
    ax.set_title(title + who)
    ax.set_xlabel(_("move"))
    ax.set_ylabel(_(AXES[data.kind]))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(axis="y", color="#eeeeee")
    ax.margins(x=0.035)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=9, frameon=False)
    hidden = [name for name in names if all(v is None for v in data.lines[name])]
    if data.kind == "score":
        note = _("a score shows once the viewer can compute it: loyalty recorded, a sealed set from the reveal")
        if hidden:
            note += " · " + say("not computable for this viewer: {societies}",
                                societies=", ".join(term(name) for name in hidden))
        ax.annotate(note, (0, -0.14), xycoords="axes fraction", fontsize=8, color="#616161")


def _chances(ax: Axes, data: Chances) -> None:
    """A line per society with its band of one standard error each side, the turning points and notes' glyphs."""
    from matplotlib.ticker import PercentFormatter

    for society, values in data.lines.items():
        errors = data.errors[society]
        colour = data.colours[society]
        ax.fill_between(data.moves, [max(0.0, v - e) for v, e in zip(values, errors, strict=True)],
                        [min(1.0, v + e) for v, e in zip(values, errors, strict=True)], color=colour, alpha=0.15,
                        linewidth=0)
        ax.plot(data.moves, values, color=colour, linewidth=1.6, label=term(society))
    where = dict(zip(data.moves, range(len(data.moves)), strict=True))
    # numbered at their circles and named beside the plot: turning points a few moves apart would overlap as labels
    named = [_("turning points:")]
    for rank, (move, label, society) in enumerate(data.turning, 1):
        y = data.lines[society][where[move]]
        ax.axvline(move, color="#9e9e9e", linewidth=0.8, linestyle=":", zorder=0)
        ax.plot([move], [y], marker="o", markersize=7, markerfacecolor="none", markeredgewidth=1.5,
                color=data.colours[society])
        left = rank % 2 == 1  # odd to the left, even to the right: two turning points a move apart stay apart
        ax.annotate(str(rank), (move, y), xytext=(-5 if left else 5, 5), textcoords="offset points",
                    ha="right" if left else "left", fontsize=8, fontweight="bold", color=data.colours[society],
                    bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "edgecolor": "none", "alpha": 0.85},
                    zorder=5)
        named.append(f"{rank}  {label}")
    if data.turning:
        ax.text(1.02, 0.6, "\n".join(named), transform=ax.transAxes, fontsize=8, va="top", color="#424242")
    for move, glyph in data.glyphs:
        ax.annotate(glyph, (move, 1), xycoords=("data", "axes fraction"), xytext=(0, 2), textcoords="offset points",
                    ha="center", va="bottom", fontsize=10, fontweight="bold", color="#b71c1c")
    who = _("as the record knew it") if data.viewer is None else say("as {viewer} knew it", viewer=data.viewer)
    ax.set_title(say("{game} · chance of winning after each move ({who})", game=data.game, who=who), pad=16)
    ax.set_xlabel(_("move"))
    ax.set_ylabel(_("chance of winning"))
    ax.set_ylim(-0.02, 1.02)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.grid(axis="y", color="#eeeeee")
    ax.margins(x=0.02)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=9, frameon=False)
    said = say("{n} playouts a move, policy {policy}; bands: one standard error; circles: turning points; "
               "red, above: notes' glyphs. A policy's estimate, not perfect play.", n=data.rollouts, policy=data.policy)
    # wrapped: on one line, a language's longer words ran past the picture's right edge (French was cut)
    ax.annotate("\n".join(textwrap.wrap(said, NOTE_WIDTH)), (0, -0.14), xycoords="axes fraction", va="top",
                fontsize=8, color="#616161")


def _win_rates(fig: Figure, data: WinRates) -> None:
    left, right = fig.subplots(1, 2)
    societies = list(data.by_society)
    # a society's name in the reader's words may be long (Serpente senza Fine): on two lines, not over the next
    names = ["\n".join(textwrap.wrap(term(s), 14)) for s in societies]
    bars = left.bar(names, [data.by_society[s] * 100 for s in societies],
                    color=[data.colours[s] for s in societies])
    left.bar_label(bars, labels=[f"{data.by_society[s]:.0%}" for s in societies], padding=2)
    left.set_title(_("win rate by society"))
    seats = list(data.by_seat)
    bars = right.bar([str(seat) for seat in seats], [data.by_seat[seat] * 100 for seat in seats], color="#5f6b73")
    right.bar_label(bars, labels=[f"{data.by_seat[seat]:.0%}" for seat in seats], padding=2)
    right.set_title(_("win rate by seat (1 = first player)"))
    for ax in (left, right):
        ax.set_ylabel(_("% of finished games won"))
        ax.set_ylim(0, 110)  # room above a 100% bar for its figure, under the title
        ax.set_yticks(range(0, 101, 20))
        ax.grid(axis="y", color="#eeeeee")
        ax.set_axisbelow(True)
    fig.suptitle(say("win rates over {finished} ({games} in the store; a shared win counts for none)",
                     finished=n_("{n} finished game", "{n} finished games", data.finished), games=data.games))


def _rating_history(ax: Axes, data: RatingHistory) -> None:
    """The person's rating (mu - 3 sigma) after each rated game, with the band mu +- sigma around the estimate."""
    from matplotlib.ticker import MaxNLocator

    games = list(range(1, len(data.points) + 1))
    mu = [p["mu"] for p in data.points]
    sigma = [p["sigma"] for p in data.points]
    ax.fill_between(games, [m - s for m, s in zip(mu, sigma, strict=True)],
                    [m + s for m, s in zip(mu, sigma, strict=True)], color="#c5cae9", label=_("μ ± σ (uncertainty)"))
    ax.plot(games, mu, color="#3949ab", linewidth=1.4, marker="o", markersize=3, label=_("μ (skill estimated)"))
    ax.plot(games, [p["rating"] for p in data.points], color="#212121", linewidth=2, marker="o", markersize=4,
            label=_("rating (μ - 3σ)"))
    last = data.points[-1]
    ax.annotate(f"{last['rating']:.1f}", (games[-1], last["rating"]), xytext=(5, 0), textcoords="offset points",
                fontsize=9, va="center")
    # a person's name is their words: a "$" in it is a dollar, never the start of matplotlib's mathtext
    ax.set_title(say("{name}: rating after each game ({games})", name=data.person.replace("$", r"\$"),
                     games=n_("{n} finished game", "{n} finished games", len(games))))
    ax.set_xlabel(_("games played"))
    ax.set_ylabel(_("rating"))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(0.5, len(games) + 0.5)  # whole games on the axis, one game included
    ax.grid(axis="y", color="#eeeeee")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=9, frameon=False)


def _line_name(name: str) -> str:
    """A series' line as the legend names it: a society or an empire in the reader's words (`bear on the board`:
    the key stays the data's, canonical)."""
    for suffix, said in ((" on the board", N_("{empire} on the board")), (" in reserve", N_("{empire} in reserve"))):
        if name.endswith(suffix):
            return say(said, empire=name.removesuffix(suffix))
    return term(name)
