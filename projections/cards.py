"""Seat cards to print (`whispers share --cards`): per game, its table's card, one card per seat and the spectators'
card, each labelled (event, round, table, society, the player's name) with its link's QR code and the link printed
below it. A4 portrait, one game a page: six cards of 105 x 99 mm in two columns and three rows, dashed cut lines
between them; large type; every word in the reader's language.

As PDF, drawn with matplotlib's PDF backend: already a dependency (the charts), it writes vector text and lines,
embeds the fonts it uses (DejaVu Sans: Latin, Greek and Cyrillic names print as typed) and nothing else to
install. As HTML, one page of inline SVG (segno's) with print CSS (A4, the same grid), for a browser's Print.
Names are the players' words: never mathtext (matplotlib), never markup (HTML).
"""

from __future__ import annotations

import html
import io
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from whispers.ledger.core.words import _, say, term

FORMATS = ("pdf", "html")
A4 = (8.27, 11.69)  # inches, portrait
COLUMNS, ROWS = 2, 3


@dataclass(frozen=True)
class Card:
    kind: str
    """"table", "seat" or "spectator"."""
    game: str
    url: str
    event: str | None = None
    round: int | None = None
    table: int | None = None
    society: str | None = None
    person: str | None = None
    first: bool = False
    """The seat that plays first."""


def heading(card: Card) -> str:
    """The card's top line: event · round · table (what a card of another table would differ by)."""
    parts = [card.event or card.game]
    if card.round is not None:
        parts.append(say("round {text}", text=card.round))
    if card.table is not None:
        parts.append(say("table {text}", text=card.table))
    return " · ".join(parts)


def title(card: Card) -> str:
    if card.kind == "seat":
        return term(card.society or "")
    return _("the table") if card.kind == "table" else _("spectators")


def subtitle(card: Card) -> str:
    if card.kind == "seat":
        return " ".join(part for part in (card.person, _("(first)") if card.first else "") if part)
    if card.kind == "table":
        return _("records the moves: keep it at the table")
    return _("public: what any spectator sees")


def pages(cards: Sequence[Card]) -> list[list[Card]]:
    """One page per game (its cards, six at most: a table, four seats, the spectators)."""
    by_game: dict[str, list[Card]] = {}
    for card in cards:
        by_game.setdefault(card.game, []).append(card)
    return [found[start:start + COLUMNS * ROWS] for found in by_game.values()
            for start in range(0, len(found), COLUMNS * ROWS)]


def _plain(text: str) -> str:
    """Text matplotlib draws as written: a "$" would open its mathtext."""
    return text.replace("$", r"\$")


def draw_pdf(cards: Sequence[Card]) -> bytes:
    import segno
    from matplotlib.backends.backend_pdf import PdfPages
    from matplotlib.figure import Figure

    out = io.BytesIO()
    with PdfPages(out, metadata={"Creator": "whispers", "Producer": None, "CreationDate": None}) as pdf:
        for page in pages(cards):
            fig = Figure(figsize=A4)
            for x in (0.5,):  # the cut lines, edge to edge
                fig.add_artist(_line(fig, [x, x], [0, 1]))
            for y in (1 / 3, 2 / 3):
                fig.add_artist(_line(fig, [0, 1], [y, y]))
            for index, card in enumerate(page):
                column, row = index % COLUMNS, index // COLUMNS
                left, bottom = column / COLUMNS, 1 - (row + 1) / ROWS
                width, height = 1 / COLUMNS, 1 / ROWS
                centre = left + width / 2
                fig.text(centre, bottom + height * 0.93, _plain(heading(card)), ha="center", va="top", fontsize=11,
                         color="#424242")
                fig.text(centre, bottom + height * 0.83, _plain(title(card)), ha="center", va="top",
                         fontsize=_fitting(title(card), 24, 19), weight="bold")
                fig.text(centre, bottom + height * 0.70, _plain(subtitle(card)), ha="center", va="top",
                         fontsize=_fitting(subtitle(card), 20, 24) if card.kind == "seat" else 11)
                matrix = [list(row) for row in segno.make(card.url, error="m").matrix_iter(scale=1, border=2)]
                side = height * 0.44  # in figure height; the axes square on the page
                ax = fig.add_axes((centre - side * A4[1] / A4[0] / 2, bottom + height * 0.16, side * A4[1] / A4[0],
                                   side))
                ax.imshow(matrix, cmap="gray_r", interpolation="nearest", vmin=0, vmax=1)
                ax.set_axis_off()
                for number, line in enumerate(textwrap.wrap(card.url, 52, break_on_hyphens=False)):
                    fig.text(centre, bottom + height * (0.11 - number * 0.045), _plain(line), ha="center", va="top",
                             fontsize=8, family="monospace")
            pdf.savefig(fig)
    return out.getvalue()


def _fitting(text: str, size: float, fits: int) -> float:
    """A type size at which `text` fits a card's width: `size` for up to `fits` characters, smaller for more."""
    return max(7.0, min(size, size * fits / max(len(text), 1)))


def _line(fig, xs: list[float], ys: list[float]):
    from matplotlib.lines import Line2D

    return Line2D(xs, ys, transform=fig.transFigure, linestyle=(0, (4, 4)), linewidth=0.6, color="#9e9e9e")


def draw_html(cards: Sequence[Card], language: str) -> bytes:
    import segno

    sheets = []
    for page in pages(cards):
        cells = []
        for card in page:
            qr = segno.make(card.url, error="m").svg_inline(scale=5, border=2, omitsize=True)
            cells.append(
                f'<section class="card {card.kind}"><p class="head">{html.escape(heading(card))}</p>'
                f'<h2>{html.escape(title(card))}</h2><p class="who">{html.escape(subtitle(card))}</p>'
                f'<div class="qr">{qr}</div><p class="url">{html.escape(card.url)}</p></section>')
        sheets.append('<div class="sheet">' + "".join(cells) + "</div>")
    style = """
@page { size: A4 portrait; margin: 0; }
* { box-sizing: border-box; }
body { margin: 0; font-family: "DejaVu Sans", system-ui, sans-serif; color: #111; }
.sheet { width: 210mm; height: 297mm; display: grid; grid-template-columns: 105mm 105mm;
  grid-template-rows: 99mm 99mm 99mm; page-break-after: always; break-after: page; }
.card { border: 0.3mm dashed #9e9e9e; padding: 5mm 4mm 3mm; text-align: center; overflow: hidden;
  display: flex; flex-direction: column; align-items: center; }
.head { margin: 0; font-size: 11pt; color: #424242; }
h2 { margin: 2mm 0 0; font-size: 24pt; }
.who { margin: 1mm 0 0; font-size: 20pt; min-height: 8mm; overflow-wrap: anywhere; }
.table .who, .spectator .who { font-size: 11pt; }
.qr { flex: 1; display: flex; align-items: center; justify-content: center; min-height: 0; }
.qr svg { width: 44mm; height: 44mm; }
.url { margin: 0; font: 8pt "DejaVu Sans Mono", monospace; overflow-wrap: anywhere; }
"""
    page_title = html.escape(_("seat cards"))
    return (f'<!DOCTYPE html>\n<html lang="{html.escape(language)}"><head><meta charset="utf-8">'
            f"<title>{page_title}</title><style>{style}</style></head><body>{''.join(sheets)}</body></html>\n"
            ).encode()
