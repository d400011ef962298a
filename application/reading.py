"""Reading a game: status (where it stands, who must act), log (notation), score, and the list of games."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from whispers.application.stores import opened

if TYPE_CHECKING:
    from whispers.ledger import events as ev
    from whispers.ledger.game import Game
    from whispers.ledger.legal import Option
    from whispers.ledger.pins import Pin
    from whispers.ledger.store import Store


def option_json(option: Option) -> dict[str, Any]:
    """A legal move and its parameter domains, as data."""
    return {"verb": option.verb, "society": option.society,
            "choices": {k: list(v) if isinstance(v, tuple) else v for k, v in option.choices.items()}}


def notes_of(store: Store, game: str) -> tuple[list[dict[str, Any]], tuple[str, ...]]:
    """The game's well-formed notes, and a warning for each malformed one an older whispers stored (skipped)."""
    from whispers.ledger.game import read_notes

    found, skipped = read_notes(store, game)
    return found, tuple(skipped)


@dataclass(frozen=True, slots=True)
class Status:
    """The state as a viewer knew it, with the legal moves open to that viewer (all of them for the record)."""

    game: str
    viewer: str | None
    view: dict[str, Any]  # projections.visibility.state_view, with next.moves and on_board
    options: tuple[Option, ...]
    scores: dict[str, int | None]  # if the game ended now, as far as the viewer can compute (None: it cannot)

    def to_json(self) -> dict[str, Any]:
        return self.view


def status_of(state: Any, viewer: str | None = None) -> Status:
    from whispers.ledger.prompt import prompt
    from whispers.projections.visibility import known_scores, knows, state_view

    data = state_view(state, viewer)
    from whispers.ledger.decree_files import shipped_catalogue

    options = tuple(o for o in prompt(state, shipped_catalogue()).options if knows(viewer, o.society))
    data["next"]["moves"] = [option_json(o) for o in options]
    data["on_board"] = {e: state.on_board(e) for e in state.board.empires}
    return Status(state.name, viewer, data, options, known_scores(state, viewer))


def status(store: Store | str | None, game: str, viewer: str | None = None, at: int | None = None) -> Status:
    from whispers.ledger.game import load

    with opened(store) as s:
        state = load(s, game, at).state
    return status_of(state, viewer)


@dataclass(frozen=True, slots=True)
class Log:
    game: str
    lines: tuple[str, ...]
    warnings: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "lines": list(self.lines)}


def log(store: Store | str | None, game: str, viewer: str | None = None, comments: bool = True) -> Log:
    """The game in notation, as `viewer` could see it (`whispers import` reads the record's own back)."""
    from whispers.ledger.game import load
    from whispers.ledger.notes import current
    from whispers.projections.log import format_record
    from whispers.projections.visibility import check_viewer

    with opened(store) as s:
        record = load(s, game)
        notes, warnings = notes_of(s, game)
    check_viewer(game, record.state.players, viewer)
    notes = current(notes)  # as they read now: edits applied, withdrawn ones left out
    return Log(game, tuple(format_record(record.events, comments=comments, viewer=viewer, notes=notes)), warnings)


@dataclass(frozen=True, slots=True)
class Score:
    game: str
    pins: tuple[Pin, Pin]  # ruleset, board
    final: bool  # False: a provisional score of a game still going
    scored: ev.GameScored
    empires: tuple[str, ...]
    concealed_bonus: bool

    @property
    def played_under(self) -> str:
        from whispers.ledger.pins import played_under

        return played_under(*self.pins)

    def to_json(self) -> dict[str, Any]:
        ruleset_pin, board_pin = self.pins
        scored = self.scored
        return {"game": self.game, "ruleset": ruleset_pin.label, "board": board_pin.label,
                "pins": {"ruleset": ruleset_pin.to_json(), "board": board_pin.to_json()}, "final": self.final,
                "scores": {s: v["total"] for s, v in scored.scores.items()},
                "winner": scored.winner, "tied": list(scored.tied), "ranking": list(scored.ranking),
                "breakdown": scored.scores, "trail": list(scored.trail)}


def scores_of(record: Game) -> tuple[ev.GameScored, bool]:
    """The final scoring event, or a provisional one for a game still going (when every token is known)."""
    from whispers.ledger.errors import RuleError
    from whispers.projections.replay import final_scoring

    scored = final_scoring(record.events)
    if scored is not None:
        return scored, True
    if any(record.state.loyalty.get(p) is None or record.state.loyalty[p].tokens is None
           for p in record.state.players):
        raise RuleError(f"{record.name} is not over and a loyalty set is sealed: no provisional score",
                        "EN Final Scoring")
    from whispers.ledger.scoring import score as final_score

    return final_score(record.state), False


def score(store: Store | str | None, game: str) -> Score:
    """Scores with the full breakdown and the tie-break trail; provisional while the game goes on."""
    from whispers.ledger.game import load
    from whispers.ledger.shipped import state_pins

    with opened(store) as s:
        record = load(s, game)
    scored, final = scores_of(record)
    state = record.state
    return Score(game, state_pins(state), final, scored, tuple(state.board.empires),
                 bool(state.ruleset.concealed_bonus))


@dataclass(frozen=True, slots=True)
class GameRow:
    game: str
    ruleset: Pin
    board: Pin
    players: tuple[str, ...]
    round: int
    phase: str
    over: bool
    winner: str | None
    events: int
    fork_of: tuple[str, int] | None  # (parent game, event it was forked at)

    @property
    def played_under(self) -> str:
        from whispers.ledger.pins import played_under

        return played_under(self.ruleset, self.board)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "ruleset": self.ruleset.label, "board": self.board.label,
                "played_under": self.played_under,
                "pins": {"ruleset": self.ruleset.to_json(), "board": self.board.to_json()},
                "players": list(self.players), "round": self.round, "phase": self.phase, "over": self.over,
                "winner": self.winner, "events": self.events,
                "fork_of": None if self.fork_of is None else {"game": self.fork_of[0], "at": self.fork_of[1]}}


@dataclass(frozen=True, slots=True)
class Games:
    rows: tuple[GameRow, ...]

    def to_json(self) -> list[dict[str, Any]]:
        return [row.to_json() for row in self.rows]


def games(store: Store | str | None) -> Games:
    """The games in the store, with ruleset, players, where each stands, who won and what it was forked from:
    read from the catalog of summaries kept in the store, which first reads what the store gained since."""
    from whispers.ledger.shipped import pin
    from whispers.projections.catalog import Catalog

    with opened(store) as s:
        catalog = Catalog(s)
        catalog.refresh()
        summaries = catalog.summaries()
    rows = []
    for name, d in summaries.items():
        fork = d["fork_of"]
        rows.append(GameRow(name, pin("ruleset", *d["pins"]["ruleset"]), pin("board", *d["pins"]["board"]),
                            tuple(d["players"]), d["round"], d["phase"], d["ended"], d["won_by"], d["events"],
                            None if fork is None else (fork[0], fork[1])))
    return Games(tuple(rows))
