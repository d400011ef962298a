"""Charts drawn with matplotlib: a game's series over its moves, and win rates across games.

matplotlib is imported here only, and this module only when a chart is asked for (application/charts.py).
The figure is drawn without pyplot (no global state, no display) and returned as the file's bytes.
"""

from __future__ import annotations

import io
from typing import Any

Series = Any
"""application.charts.Series (the layers keep projections from importing the application's types)."""
WinRates = Any
"""application.charts.WinRates."""

TITLES = {
    "score": "score if the game ended now",
    "cities": "cities per empire",
    "banners": "banners",
}


def draw(data: Series | WinRates, fmt: str) -> bytes:
    """The chart as SVG or PNG bytes (no date in the file: the same data gives the same picture)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(10, 5.5), dpi=110, layout="constrained")
    if not hasattr(data, "lines"):
        _win_rates(figure, data)  # type: ignore[arg-type]
    elif data.kind == "banners":  # type: ignore[union-attr]
        # ten lines on one axis are a tangle: the board above, the reserves below, one colour per empire
        figure.set_size_inches(10, 7.5)
        top, bottom = figure.subplots(2, 1, sharex=True)
        on_board = [n for n in data.lines if n.endswith("on the board")]  # type: ignore[union-attr]
        _series(top, data, on_board, "banners on the board", legend=[n.split(" ")[0] for n in on_board])
        _series(bottom, data, [n for n in data.lines if n.endswith("in reserve")],  # type: ignore[union-attr]
                "banners in reserve")
        figure.suptitle(f"{data.game} · banners")  # type: ignore[union-attr]
    else:
        _series(figure.add_subplot(), data, list(data.lines),  # type: ignore[union-attr]
                f"{data.game} · {TITLES[data.kind]}")  # type: ignore[union-attr]
    out = io.BytesIO()
    metadata = {"Date": None} if fmt == "svg" else {"Software": None}
    figure.savefig(out, format=fmt, metadata=metadata)
    return out.getvalue()


def _series(ax: Any, data: Series, names: list[str], title: str, legend: list[str] | None = None) -> None:
    from matplotlib.ticker import MaxNLocator

    for index, name in enumerate(names):
        values = [float("nan") if v is None else v for v in data.lines[name]]
        ax.plot(data.moves, values, label=legend[index] if legend else name, color=data.colours[name],
                linewidth=1.8, drawstyle="steps-post")
        known = [(x, v) for x, v in zip(data.moves, data.lines[name], strict=True) if v is not None]
        if known:  # the last value known, as a dot and its figure (a set sealed until the reveal has only it)
            x, v = known[-1]
            ax.plot([x], [v], marker="o", markersize=4, color=data.colours[name])
            ax.annotate(str(v), (x, v), xytext=(4, 0), textcoords="offset points", fontsize=8, va="center",
                        color=data.colours[name])
    for round_, move in data.rounds:
        ax.axvline(move, color="#bdbdbd", linewidth=0.8, zorder=0)
        ax.annotate(f"round {round_}", (move, 1), xycoords=("data", "axes fraction"), xytext=(3, -12),
                    textcoords="offset points", fontsize=8, color="#616161")
    who = "" if data.viewer is None else f" (as {data.viewer} knew it)"
    ax.set_title(title + who)
    ax.set_xlabel("move")
    ax.set_ylabel({"score": "points", "cities": "cities", "banners": "banners"}[data.kind])
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(axis="y", color="#eeeeee")
    ax.margins(x=0.035)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=9, frameon=False)
    hidden = [name for name in names if all(v is None for v in data.lines[name])]
    if data.kind == "score":
        note = "a score shows once the viewer can compute it: loyalty recorded, a sealed set from the reveal"
        if hidden:
            note += " · not computable for this viewer: " + ", ".join(hidden)
        ax.annotate(note, (0, -0.14), xycoords="axes fraction", fontsize=8, color="#616161")


def _win_rates(fig: Any, data: WinRates) -> None:
    left, right = fig.subplots(1, 2)
    societies = list(data.by_society)
    bars = left.bar(societies, [data.by_society[s] * 100 for s in societies],
                    color=[data.colours[s] for s in societies])
    left.bar_label(bars, labels=[f"{data.by_society[s]:.0%}" for s in societies], padding=2)
    left.set_title("win rate by society")
    seats = list(data.by_seat)
    bars = right.bar([str(seat) for seat in seats], [data.by_seat[seat] * 100 for seat in seats], color="#5f6b73")
    right.bar_label(bars, labels=[f"{data.by_seat[seat]:.0%}" for seat in seats], padding=2)
    right.set_title("win rate by seat (1 = first player)")
    for ax in (left, right):
        ax.set_ylabel("% of finished games won")
        ax.set_ylim(0, 100)
        ax.grid(axis="y", color="#eeeeee")
        ax.set_axisbelow(True)
    from whispers.ledger.words import plural

    fig.suptitle(f"win rates over {plural(data.finished, 'finished game')} ({data.games} in the store; "
                 "a shared win counts for none)")
