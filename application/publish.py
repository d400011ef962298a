"""`whispers publish`: a folder of static pages that needs no server and no internet (open its index.html from the
disk or any static host): a tournament's standings and rounds, or a list of games, and for each finished game its
replay as the record shows a finished game (← → to step, each event in words with its notes, the council grid and
the scores after it, the board and the council-order timeline of its round, the score chart).

A game not over is never published (its record holds secrets until the final reveal): named on the command line it
refuses the whole publish before anything is written; in a tournament it is listed as not published yet."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from whispers.application.stores import opened
from whispers.ledger.errors import StoreError, WhispersError
from whispers.ledger.words import N_, _, say, term

if TYPE_CHECKING:
    from whispers.ledger.store import Store

ASSETS = Path(__file__).resolve().parent / "archive"
"""The archive's own script and style, copied into every archive (no internet: nothing is fetched)."""


@dataclass(frozen=True, slots=True)
class Published:
    folder: str
    games: tuple[str, ...]
    skipped: tuple[str, ...]  # a tournament's games not over (or not started): not published

    def to_json(self) -> dict[str, Any]:
        return {"folder": self.folder, "index": str(Path(self.folder) / "index.html"), "games": list(self.games),
                "not_published": list(self.skipped)}


def publish(store: Store | str | None, folder: Path, tournament: Path | None = None,
            games: tuple[str, ...] = ()) -> Published:
    """Writes the archive into `folder` (made if missing). WhispersError, before anything is written, for a named
    game that is not in the store or not over, or a folder that holds other files than an archive's."""
    from whispers.application.tournament import read_text
    from whispers.application.tournament import tournament as standings_of
    from whispers.projections.catalog import Catalog
    from whispers.projections.standings import load_tournament

    spec = load_tournament(read_text(tournament), str(tournament)) if tournament is not None else None
    names = list(spec.games) if spec is not None else list(dict.fromkeys(games))
    if not names:
        raise WhispersError(_("publish what? give --tournament FILE or the names of games"))
    with opened(store) as s:
        catalog = Catalog(s)
        catalog.refresh()
        listed = catalog.listing(games=names)
        over = {name: name in listed and listed[name]["ended"] for name in names}
        if spec is None:
            for name in names:
                if not over[name]:
                    raise WhispersError(say("{game} is not a finished game: only a finished game is published (its "
                                            "record holds secrets until the final reveal)", game=name))
        shown = [name for name in names if over[name]]
        standing = standings_of(s, tournament).to_json() if tournament is not None else None
        pages = {name: _game_page(s, name) for name in shown}
    _check_folder(folder)
    (folder / "games").mkdir(parents=True, exist_ok=True)
    for name, (page, pictures) in pages.items():
        for file, data in pictures.items():
            _write(folder / "games" / file, data)
        _write(folder / "games" / f"{name}.html", page.encode())
    for asset in ("archive.css", "archive.js"):
        _write(folder / asset, (ASSETS / asset).read_bytes())
    title = spec.name if spec is not None else _("games")
    _write(folder / "index.html", _index(title, spec, standing, shown).encode())
    return Published(str(folder), tuple(shown), tuple(n for n in names if n not in shown))


MARK = ".whispers-archive"
"""A file in the folder saying it is an archive: publishing again over it replaces its pages, and never writes
into a folder holding anything else."""


def _check_folder(folder: Path) -> None:
    if folder.exists() and (not folder.is_dir() or (any(folder.iterdir()) and not (folder / MARK).exists())):
        raise WhispersError(say("{file} holds other files: publish into an empty or new folder, or one an earlier "
                                "publish wrote", file=str(folder)))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / MARK).write_text("whispers publish\n", encoding="utf-8")


def _write(path: Path, data: bytes) -> None:
    from whispers.ledger.safefile import write_file

    try:
        write_file(str(path), data)
    except OSError as exc:
        raise StoreError(say("cannot write {file}: {reason}", file=str(path),
                             reason=exc.strerror or str(exc))) from None


def _script_json(data: Any) -> str:
    """JSON inside a <script type="application/json">: no "<" in it can close the element."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _game_page(store: Store, game: str) -> tuple[str, dict[str, bytes]]:
    """A finished game's replay page and its pictures (file name -> bytes): the board and the timeline at the end
    of each round, the score chart."""
    from whispers.application.charts import series
    from whispers.application.review import replay
    from whispers.application.svg import board_svg, timeline_svg
    from whispers.projections.charts import draw
    from whispers.projections.render import PictureError
    from whispers.projections.visibility import event_words

    replayed = replay(store, game)
    steps, ends = [], {}
    for version in range(1, len(replayed) + 1):
        frame = replayed.frame(version)
        view = frame.view
        ends[view["round"]] = version
        steps.append({"n": version, "label": frame.label, "words": event_words(frame.event, None),
                      "round": view["round"], "phase": term(view["phase"], "phase"),
                      "council": {position: term(society) for position, society in view["council"].items()},
                      "scores": {term(s): v for s, v in frame.scores.items()},
                      "notes": [note.get("text", "") for note in frame.notes]})
    pictures: dict[str, bytes] = {}
    missing = ""
    for round_no, version in ends.items():
        try:
            pictures[f"{game}-board-r{round_no}.svg"] = board_svg(store, game, version)
            pictures[f"{game}-timeline-r{round_no}.svg"] = timeline_svg(store, game, None, version, round_no)
        except PictureError as exc:  # no Graphviz: the archive says so where the pictures would be
            missing = str(exc)
    pictures[f"{game}-score.svg"] = draw(series(store, game, "score"), "svg")
    data = {"game": game, "steps": steps, "rounds": sorted(ends), "missing": missing,
            "words": {"board": _("the board at the end of round {round}"),
                      "timeline": _("the council-order timeline of round {round}"), "event": _("event {n} of {total}"),
                      "scores": _("score if the game ended now"), "council": _("council"), "notes": _("notes")}}
    title = html.escape(game)
    back, chart = html.escape(_("index")), html.escape(_("score if the game ended now"))
    page = f"""<!doctype html>
<html lang="{html.escape(_tongue())}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title} · whispers</title>
<link rel="stylesheet" href="../archive.css"><script src="../archive.js" defer></script></head>
<body><main id="replay"><p><a href="../index.html">← {back}</a></p><h1>{title}</h1>
<p class="stepper"><button id="back" type="button">←</button> <button id="next" type="button">→</button>
<span id="where"></span></p>
<p id="label" class="label"></p><p id="words" class="words"></p><ul id="notes" class="notes"></ul>
<div class="split"><section><h2 id="council-title"></h2><table id="council"></table>
<h2 id="scores-title"></h2><table id="scores"></table></section>
<section><p id="missing" class="hint"></p><figure><img id="board" alt=""><figcaption id="board-caption"></figcaption>
</figure><figure><img id="timeline" alt=""><figcaption id="timeline-caption"></figcaption></figure></section></div>
<h2>{chart}</h2><img class="chart" src="{html.escape(game)}-score.svg" alt="">
</main><script type="application/json" id="data">{_script_json(data)}</script></body></html>
"""
    return page, pictures


def _tongue() -> str:
    from whispers.ledger.words import tongue

    return tongue().code


def _index(title: str, spec: Any, standing: dict[str, Any] | None, shown: list[str]) -> str:
    """The archive's front page: the standings and the rounds (a tournament), or the games."""
    esc = html.escape
    body = [f"<h1>{esc(title)}</h1>"]
    if standing is not None:
        heading = esc(_("standings"))
        body.append(f"<h2>{heading}</h2>")
        columns = "".join(f"<th>{esc(_(word))}</th>" for word in (N_("entrant"), N_("points"), N_("wins"),
                                                                  N_("score"), N_("finalised")))
        for ruleset, rows in standing["rulesets"].items():
            body.append(f"<h3>{esc(ruleset)}</h3><table><thead><tr><th>#</th>{columns}</tr></thead><tbody>")
            for row in rows:
                body.append(f"<tr><td>{esc(row['place'])}</td><th>{esc(row['entrant'])}</th>"
                            f"<td>{row['points']:g}</td><td>{row['wins']}</td><td>{row['score']}</td>"
                            f"<td>{row['finalised']}/{len(row['games'])}</td></tr>")
            body.append("</tbody></table>")
        rounds: dict[Any, list[str]] = {}
        for game in spec.games:
            rounds.setdefault(spec.rounds.get(game), []).append(game)
        for round_no, games in rounds.items():
            heading = say("round {text}", text=round_no) if round_no is not None else _("games")
            body.append(f"<h2>{esc(heading)}</h2><ul class='games'>")
            not_over = esc(_("not over: not published"))
            for game in games:
                seats = ", ".join(f"{term(s)}: {p}" for s, p in spec.seats.get(game, {}).items())
                link = (f"<a href='games/{esc(game)}.html'>{esc(game)}</a>" if game in shown
                        else f"{esc(game)} ({not_over})")
                body.append(f"<li>{link} <span class='seats'>{esc(seats)}</span></li>")
            body.append("</ul>")
    else:
        body.append("<ul class='games'>" + "".join(f"<li><a href='games/{esc(g)}.html'>{esc(g)}</a></li>"
                                                   for g in shown) + "</ul>")
    return (f"<!doctype html>\n<html lang=\"{esc(_tongue())}\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{esc(title)} · whispers"
            f"</title><link rel=\"stylesheet\" href=\"archive.css\"></head><body><main>{''.join(body)}</main></body>"
            "</html>\n")
