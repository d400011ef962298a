"""Publishing: a folder of static pages anyone can open with no server and no internet (`whispers publish`).

The pages are the web face's templates (web/templates) rendered to files, with its stylesheet; a game's replay is
one page holding every step, rendered as the web replay renders one, shown one at a time by a small script
(web/static/archive.js: no fetch, which a page opened from file:// may not do, and no inline script). A finished
game is published as the record shows it; a game not over, only as its spectators see it (the visibility
policy's spectator), like its spectator link. Names from the record (games, seats, notes) are text: escaped by
the templates, never a path (each game's folder is named by `folder_of`).

The folder is built beside DIR, then moved into place (one rename for a new DIR; for an empty DIR or an archive
published there before, its few entries swapped): a failure while building leaves DIR as it was.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from whispers.application.stores import opened
from whispers.ledger.core.errors import StoreError, WhispersError
from whispers.ledger.core.plain import Data
from whispers.ledger.core.words import _, say

if TYPE_CHECKING:
    from jinja2 import Environment

    from whispers.application.analysis import Analysis
    from whispers.application.reading import GameRowJson
    from whispers.ledger.io.store import Store
    from whispers.projections.standings import StandingsData

WEB = Path(__file__).resolve().parent.parent / "web"
"""The web face's templates and static files, read as files (the application layer imports no face)."""
STATIC = ("app.css", "archive.css", "archive.js", "icon.svg")
MANIFEST = "whispers-archive.json"
"""Written in every archive: what it holds, and the mark that lets --force replace a folder published before."""
CHARTS = ("score", "cities", "banners")


class PublishError(WhispersError):
    """An archive that cannot be written: a folder in the way, no game to publish."""


@dataclass(frozen=True, slots=True)
class PublishedGame:
    game: str
    page: str  # relative to the archive: games/<folder>/index.html
    viewer: str | None  # None: the record (the game is over); "spectator" otherwise
    events: int

    def to_json(self) -> Data:
        return {"game": self.game, "page": self.page, "viewer": self.viewer, "events": self.events}


@dataclass(frozen=True, slots=True)
class Published:
    folder: str
    games: tuple[PublishedGame, ...]
    tournament: str | None = None
    warnings: tuple[str, ...] = field(default_factory=tuple)
    not_published: tuple[str, ...] = ()  # a tournament's games not in the store yet (not started)

    @property
    def index(self) -> str:
        return str(Path(self.folder) / "index.html")

    def to_json(self) -> Data:
        return {"folder": self.folder, "index": self.index, "tournament": self.tournament,
                "games": [g.to_json() for g in self.games], "not_published": list(self.not_published),
                "warnings": list(self.warnings)}


def folder_of(game: str) -> str:
    """A game's folder in the archive, from its name but never the name itself: lower-case letters, digits and
    '-' only (no dot, no separator, no name a system reserves), and a digest of the name after it, so that
    names differing in case or punctuation never share a folder."""
    from whispers.ledger.core.digests import sha256

    safe = re.sub(r"[^a-z0-9]+", "-", game.lower()).strip("-")[:40] or "game"
    return f"{safe}-{sha256(game.encode('utf-8', 'surrogatepass')).hexdigest()[:10]}"


def publish(store: Store | str | None, folder: Path | str, games: list[str] | None = None,
            tournament_file: Path | None = None, force: bool = False) -> Published:
    """Write the archive of `games` (or of the tournament in `tournament_file`: its standings, its rounds and
    each of its games in the store) into `folder`, which must not exist, be empty, or (with `force`) be an
    archive published before."""
    from whispers.ledger.core.words import tongue

    try:  # "." or "sub/.." by its own name, to be built beside it
        target = Path(os.path.abspath(folder))
    except OSError as exc:  # the working folder itself is gone
        raise StoreError(say("cannot write {file}: {reason}", file=str(folder),
                             reason=exc.strerror or str(exc))) from None
    _check_target(target, force)
    with opened(store) as s:
        standing: StandingsData | None = None
        rounds: dict[str, int] = {}
        seats: dict[str, dict[str, str]] = {}
        if tournament_file is not None:
            from whispers.application.tournament import read_text, tournament
            from whispers.projections.standings import load_tournament

            standing = tournament(s, tournament_file).to_json()
            spec = load_tournament(read_text(tournament_file), str(tournament_file))
            rounds, seats = dict(spec.rounds), spec.seats
            names = [g for g in spec.games if s.exists(g)]
        else:
            names = list(dict.fromkeys(games or []))
            if not names:
                raise PublishError(_("name the games to publish, or --tournament FILE"))
            from whispers.ledger.io.store import check_name

            for name in names:
                check_name(name)
                if not s.exists(name):
                    from whispers.ledger.core.errors import UnknownGame

                    raise UnknownGame(say("no game named {game} in {store}", game=repr(name), store=s.url))
        # who sat where: as the tournament file says (its standings count them so), else the game's table facts
        rows: dict[str, GameRowJson] = {name: {**row, "names": {**row["names"], **seats.get(name, {})}}
                for name, row in _rows(s, names).items()}
        env = _environment()
        building = _fresh_beside(target)
        try:
            warnings: list[str] = []
            published = [_publish_game(s, env, building, name, rows[name], warnings) for name in names]
            _copy_static(building)
            lang = tongue().code
            listed: list[dict[str, object]] = [{**rows[g.game], "page": g.page, "viewer": g.viewer} for g in published]
            # a paired game not started yet is listed in its round, with its seats, and no page
            listed += [{"game": g, "page": None, "players": list(seats.get(g, {})), "names": seats.get(g, {})}
                       for g in (standing.get("not_started", []) if standing else [])]
            by_round: dict[int, list[dict[str, object]]] = {}
            for row in listed:
                by_round.setdefault(rounds.get(str(row["game"])) or 0, []).append(row)
            page = env.get_template("published-index.html").render(
                lang=lang, static="static/", t=standing, by_round=sorted(by_round.items()),
                pages={g.game: g.page for g in published},
                title=standing["tournament"] if standing else _("Games"))
            _write(building / "index.html", page)
            manifest = {"format": 1, "tournament": standing["tournament"] if standing else None,
                        "games": [g.to_json() for g in published]}
            _write(building / MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1) + "\n")
            _move_into_place(building, target)
        except BaseException:
            shutil.rmtree(building, ignore_errors=True)  # ours alone: made fresh by _fresh_beside
            raise
    return Published(str(folder), tuple(published), standing["tournament"] if standing else None,
                     tuple(dict.fromkeys(warnings)), tuple(standing.get("not_started", []) if standing else []))


def _rows(store: Store, names: list[str]) -> dict[str, GameRowJson]:
    """Each game's row as `whispers games` lists it (players, seats' names, where it stands, who won)."""
    from whispers.application.reading import GameFilter, games

    listed = {row["game"]: row for row in games(store, GameFilter(archived=True)).to_json()}
    for name in names:
        if name not in listed:  # in the store but not in its catalog: named, never a traceback
            from whispers.ledger.core.errors import UnknownGame

            raise UnknownGame(say("no game named {game} in {store}", game=repr(name), store=store.url))
    return {name: listed[name] for name in names}


def _check_target(target: Path, force: bool) -> None:
    if not os.path.lexists(target):
        return
    if target.is_symlink() or not target.is_dir():
        raise PublishError(say("{file} is there and is not a folder: publish into a new folder",
                               file=str(target)))
    if not any(target.iterdir()):
        return
    if not force:
        raise PublishError(say("{file} is not empty: publish into a new folder, or --force to replace an archive "
                               "published there before", file=str(target)))
    if not (target / MANIFEST).is_file():
        raise PublishError(say("{file} is not empty and holds no archive whispers published: --force replaces only "
                               "an archive, never other files", file=str(target)))


def _fresh_beside(target: Path) -> Path:
    parent = target.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        building = parent / f".{target.name}.{secrets.token_hex(6)}.part"
        building.mkdir()
    except OSError as exc:
        raise StoreError(say("cannot write {file}: {reason}", file=str(target),
                             reason=exc.strerror or str(exc))) from None
    return building


def _move_into_place(building: Path, target: Path) -> None:
    """The built folder becomes `target`: in one rename when nothing is there; else (an empty folder, an archive
    published before) `target` itself stays (a server or a shell may be in it) and its few entries are swapped,
    the old ones moved aside first, then removed."""
    if not os.path.lexists(target):
        building.rename(target)
        return
    old = target.parent / f".{target.name}.{secrets.token_hex(6)}.old"
    old.mkdir()
    moved: list[Path] = []
    try:
        for entry in list(target.iterdir()):
            entry.rename(old / entry.name)
            moved.append(entry)
        for entry in list(building.iterdir()):
            entry.rename(target / entry.name)
    except OSError:
        for entry in list(target.iterdir()):  # what arrived goes back to be removed; what left comes back
            entry.rename(building / entry.name)
        for entry in moved:
            (old / entry.name).rename(entry)
        old.rmdir()
        raise
    building.rmdir()
    shutil.rmtree(old, ignore_errors=True)


def _write(path: Path, text: str | bytes) -> None:
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)


def _copy_static(building: Path) -> None:
    (building / "static").mkdir()
    for name in STATIC:
        shutil.copyfile(WEB / "static" / name, building / "static" / name)


def _environment() -> Environment:
    """The web face's templates, with the filters and globals the shared ones use (web/app.py sets the same)."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    from whispers.application.moves import said_label, said_line
    from whispers.ledger.core.names import OFFICES, SLOTS
    from whispers.ledger.core.words import effect_name, key_word, n_, position, term

    env = Environment(loader=FileSystemLoader(WEB / "templates"), autoescape=select_autoescape(["html"]),
                      extensions=["jinja2.ext.i18n"])
    env.install_gettext_callables(gettext=_, ngettext=lambda s, p, n: n_(s, p, n), newstyle=True)  # type: ignore[attr-defined]
    env.filters["term"] = term
    env.filters["position"] = position
    env.filters.update(said=said_line, label=said_label, effect=effect_name, key=key_word)
    env.globals.update(offices=OFFICES, slots=SLOTS, published=True)
    return env


def _publish_game(store: Store, env: Environment, building: Path, name: str, row: GameRowJson,
                  warnings: list[str]) -> PublishedGame:
    """One game's folder: its replay page, the board as each round began and at the end, each round's timeline,
    and its charts, all as `viewer` may see them."""
    from whispers.application import following, review
    from whispers.ledger.core import events as ev
    from whispers.ledger.core.words import tongue
    from whispers.projections.visibility import SPECTATOR_NAME

    viewer = None if row["over"] else SPECTATOR_NAME
    replayed = review.replay(store, name, None, viewer)
    total = len(replayed)
    frames = [replayed.frame(v) for v in range(1, total + 1)]
    rounds, _here = following.by_round(replayed)
    folder = folder_of(name)
    out = building / "games" / folder
    out.mkdir(parents=True)
    # the board is drawn as each round begins and at the end (Graphviz lays out each one: one per event would
    # take a quarter of a second each); the round's timeline, once per round
    began = [1] + [v for v in range(2, total + 1) if isinstance(replayed.replay.event(v), ev.PhaseStarted)
                   and replayed.replay.at(v).round != replayed.replay.at(v - 1).round]
    boards = sorted({*began, total})
    round_of = {v: r for r, items in rounds for v, _words in items}
    pictures = _pictures(store, name, viewer, out, boards, sorted({r for r, _items in rounds if r}), warnings)
    charts = _charts(store, name, viewer, out, warnings)
    chances, chances_drawn = _chances(store, name, viewer, out, warnings)
    steps = []
    for frame in frames:
        board = max((b for b in boards if b <= frame.version), default=None)
        r = round_of.get(frame.version, 0)
        steps.append({"f": frame.to_json(), "s": frame.view, "scores": frame.scores, "at": frame.version,
                      "round": r, "board": board if board in pictures["boards"] else None,
                      "timeline": r if r in pictures["timelines"] else None})
    page = env.get_template("published-game.html").render(
        lang=tongue().code, static="../../static/", game=name, row=row, viewer=viewer, total=total, steps=steps,
        rounds=rounds, moves_by_version=dict(following.move_labels(replayed)),
        noted=following.notes_by_event(replayed), charts=charts, final=frames[-1], chances=chances,
        chances_drawn=chances_drawn)
    _write(out / "index.html", page)
    return PublishedGame(name, f"games/{folder}/index.html", viewer, total)


def _pictures(store: Store, name: str, viewer: str | None, out: Path, boards: list[int], rounds: list[int],
              warnings: list[str]) -> dict[str, set[int]]:
    from whispers.application import svg
    from whispers.projections.render import GraphvizMissing

    made: dict[str, set[int]] = {"boards": set(), "timelines": set()}
    try:
        for v in boards:
            _write(out / f"board-{v}.svg", svg.board_svg(store, name, v))
            made["boards"].add(v)
        for r in rounds:
            _write(out / f"timeline-{r}.svg", svg.timeline_svg(store, name, viewer, None, r))
            made["timelines"].add(r)
    except GraphvizMissing as exc:
        warnings.append(say("published without the board and timeline pictures: {reason}", reason=str(exc)))
    return made


def _charts(store: Store, name: str, viewer: str | None, out: Path, warnings: list[str]) -> list[str]:
    from whispers.application.charts import series

    try:
        from whispers.projections.charts import draw
    except ImportError:
        warnings.append(_("published without charts: matplotlib is not installed"))
        return []
    made = []
    for kind in CHARTS:
        data = series(store, name, kind, viewer)
        if not any(value is not None for line in data.lines.values() for value in line):
            continue  # nothing this viewer may know (the scores before the reveal, to a spectator): no empty chart
        _write(out / f"chart-{kind}.svg", draw(data, "svg"))
        made.append(kind)
    return made


def _chances(store: Store, name: str, viewer: str | None, out: Path,
             warnings: list[str]) -> tuple[Analysis | None, bool]:
    """The analysis the store holds for the game as `viewer` (the one it is published as) knew it (None: none is),
    and whether its chart was drawn beside the page. Read, never played: publishing runs no playout (`whispers
    analyse` does), so a game published as its spectators see it shows a spectator's analysis or none."""
    from whispers.application.analysis import stored

    found = stored(store, name, viewer)
    if found is None or not found.points:
        return None, False
    try:
        from whispers.application.charts import chances_svg

        _write(out / "chances.svg", chances_svg(store, name, viewer))
    except ImportError:
        warnings.append(_("published without charts: matplotlib is not installed"))
        return found, False
    return found, True
