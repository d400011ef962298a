"""Reading a game: status (where it stands, who must act), log (notation), score, and the list of games."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypedDict

import msgspec

from whispers.application.stores import opened
from whispers.ledger.core.meta import Meta, MetaJson
from whispers.ledger.core.plain import Data
from whispers.ledger.core.words import say

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

    from whispers.ledger.core import events as ev
    from whispers.ledger.core.decrees import Catalogue
    from whispers.ledger.core.legal import Option
    from whispers.ledger.core.notes import NoteEntry
    from whispers.ledger.core.pins import Pin, PinJson
    from whispers.ledger.core.state import GameState
    from whispers.ledger.io.game import Game
    from whispers.ledger.io.store import Store
    from whispers.projections.catalog import Listed
    from whispers.projections.visibility import OptionView, StateView


def option_json(option: Option) -> OptionView:
    """A legal move and its parameter domains, as data."""
    return {"verb": option.verb, "society": option.society,
            "choices": {k: list(v) if isinstance(v, tuple) else v for k, v in option.choices.items()}}


def card_choices(view: StateView, deck: str) -> list[str]:
    """The cards of `deck` a move may name now (a draw naming the cards drawn), for every face: the deck's numbers
    in this game (`GameState.card_numbers`: its card sheet's, in the card sets it plays, else 1 to 8), less the
    cards the view shows in a hand or beside the board. Read from the viewer's own view (`status(...).view`), so
    the choices tell a seat nothing it could not see."""
    seen = {card for hand in view["hands"].values() for card in hand.get("known", ())}
    seen |= {lying["card"] for lying in view.get("beside", ())}
    return [f"{deck}:{n}" for n in view["card_numbers"].get(deck, ()) if f"{deck}:{n}" not in seen]


def notes_of(store: Store, game: str) -> tuple[list[NoteEntry], tuple[str, ...]]:
    """The game's well-formed notes, and a warning for each malformed one an older whispers stored (skipped)."""
    from whispers.ledger.io.game import read_notes

    found, skipped = read_notes(store, game)
    return found, tuple(skipped)


class Status(msgspec.Struct, frozen=True):
    """The state as a viewer knew it, with the legal moves open to that viewer (all of them for the record)."""

    game: str
    viewer: str | None
    view: StateView  # projections.visibility.state_view, with next.moves and on_board
    options: tuple[Option, ...]
    scores: dict[str, int | None]  # if the game ended now, as far as the viewer can compute (None: it cannot)

    def to_json(self) -> StateView:
        return self.view


def _shipped_decrees() -> Catalogue:
    """The decree catalogue, read when a status lists a card play (ledger.prompt.Decrees)."""
    from whispers.ledger.io.decree_files import shipped_catalogue

    return shipped_catalogue()


def pin_labels(state: GameState) -> tuple[str, str]:
    """(ruleset, board) of a game as listings show them: the id alone only when it is the shipped content."""
    from whispers.ledger.io.shipped import labels

    return labels(state)


def status_of(state: GameState, viewer: str | None = None) -> Status:
    from whispers.ledger.core.prompt import prompt
    from whispers.projections.visibility import known_scores, knows, state_view

    data = state_view(state, viewer)
    options = tuple(o for o in prompt(state, _shipped_decrees).options if knows(viewer, o.society))
    data["next"]["moves"] = [option_json(o) for o in options]
    data["on_board"] = {e: state.on_board(e) for e in state.board.empires}
    return Status(state.name, viewer, data, options, known_scores(state, viewer))


def status(store: Store | str | None, game: str, viewer: str | None = None, at: int | None = None) -> Status:
    from whispers.ledger.io.game import head, load

    with opened(store) as s:
        # at its head, from its snapshot (ledger/io/snapshots.py): the state counts the moves as they stand, so the
        # last one's label needs no history read (ledger/core/numbering.py)
        state = head(s, game).state if at is None else load(s, game, at).state
    found = status_of(state, viewer)
    found.view["last_move"] = f"m{state.move_number} {state.move_place}" if state.move_number else None
    return found


class Happened(msgspec.Struct, frozen=True):
    """The game's last move (or take-back) and what it did, as a viewer may know it: what every link's page shows
    after a move (issue 32)."""

    version: int  # the event number of the move (or take-back)
    label: str | None  # its label (`m25 R2 deploy 3`); None for a take-back, which has none
    said: tuple[str, ...]

    def to_json(self) -> Data:
        return {"version": self.version, "label": self.label, "said": list(self.said)}


def happened_in(events: tuple[ev.Event, ...] | list[ev.Event], viewer: str | None = None) -> Happened | None:
    """The last move of `events` (or take-back) and the engine's events after it, said as `recording.happenings`
    says them, as `viewer` may know them; None before any move."""
    from whispers.application.recording import happenings
    from whispers.ledger.core import events as ev
    from whispers.projections.labels import labels

    last = next((i for i in range(len(events) - 1, -1, -1)
                 if events[i].MOVE or isinstance(events[i], ev.MoveTakenBack)), None)
    if last is None:
        return None
    label = labels(events).get(last + 1)
    return Happened(last + 1, None if label is None else str(label),
                    happenings(events[last:], events[:last], viewer))


def happened(store: Store | str | None, game: str, viewer: str | None = None, at: int | None = None
             ) -> Happened | None:
    """`happened_in` the game's record (its first `at` events: the version a page shows)."""
    with opened(store) as s:
        events = s.events(game, at)
    return happened_in(events, viewer)


class Log(msgspec.Struct, frozen=True):
    game: str
    lines: tuple[str, ...]
    warnings: tuple[str, ...] = ()

    def to_json(self) -> Data:
        return {"game": self.game, "lines": list(self.lines)}


def log(store: Store | str | None, game: str, viewer: str | None = None, comments: bool = True) -> Log:
    """The game in notation, as `viewer` could see it (`whispers import` reads the record's own back)."""
    from whispers.ledger.core.notes import current
    from whispers.ledger.io.game import load
    from whispers.projections.log import format_record
    from whispers.projections.visibility import check_viewer

    with opened(store) as s:
        record = load(s, game)
        notes, warnings = notes_of(s, game)
    check_viewer(game, record.state.players, viewer)
    notes = current(notes)  # as they read now: edits applied, withdrawn ones left out
    return Log(game, tuple(format_record(record.events, comments=comments, viewer=viewer, notes=notes)), warnings)


class Score(msgspec.Struct, frozen=True):
    game: str
    pins: tuple[Pin, Pin]  # ruleset, board
    final: bool  # False: a provisional score of a game still going
    scored: ev.GameScored
    empires: tuple[str, ...]
    concealed_bonus: bool

    @property
    def played_under(self) -> str:
        from whispers.ledger.core.pins import played_under

        return played_under(*self.pins)

    def to_json(self) -> Data:
        ruleset_pin, board_pin = self.pins
        scored = self.scored
        return {"game": self.game, "ruleset": ruleset_pin.label, "board": board_pin.label,
                "pins": {"ruleset": ruleset_pin.to_json(), "board": board_pin.to_json()}, "final": self.final,
                "scores": {s: v["total"] for s, v in scored.scores.items()},
                "winner": scored.winner, "tied": list(scored.tied), "ranking": list(scored.ranking),
                "breakdown": scored.scores, "trail": list(scored.trail)}


def scores_of(record: Game) -> tuple[ev.GameScored, bool]:
    """The final scoring event, or a provisional one for a game still going (when every token is known)."""
    from whispers.ledger.core.errors import RuleError
    from whispers.projections.replay import final_scoring

    scored = final_scoring(record.events)
    if scored is not None:
        return scored, True
    loyalty = record.state.loyalty
    if unrecorded := next((p for p in record.state.players if loyalty.get(p) is None), None):
        raise RuleError(say("{game} is not over and {society} has recorded no loyalty set yet: no provisional score",
                            game=record.name, society=unrecorded), "EN Final Scoring")
    if sealed := next((p for p in record.state.players if loyalty[p].tokens is None), None):
        raise RuleError(say("{game} is not over and {society}'s loyalty set is sealed: no provisional score",
                            game=record.name, society=sealed), "EN Final Scoring")
    from whispers.ledger.core.scoring import score as final_score

    return final_score(record.state), False


def score(store: Store | str | None, game: str) -> Score:
    """Scores with the full breakdown and the tie-break trail; provisional while the game goes on."""
    from whispers.ledger.io.game import load
    from whispers.ledger.io.shipped import state_pins

    with opened(store) as s:
        record = load(s, game)
    scored, final = scores_of(record)
    state = record.state
    return Score(game, state_pins(state), final, scored, tuple(state.board.empires),
                 bool(state.ruleset.concealed_bonus))


class PinsJson(TypedDict):
    ruleset: PinJson
    board: PinJson


class ForkJson(TypedDict):
    game: str
    at: int


class GameRowJson(TypedDict):
    """A game's row in `games` (`GameRow.to_json`): its JSON form, and what the listing keeps of each game."""

    game: str
    ruleset: str
    board: str
    played_under: str
    pins: PinsJson
    players: list[str]
    round: int
    phase: str
    over: bool
    winner: str | None
    events: int
    fork_of: ForkJson | None
    date: str | None
    names: dict[str, str]
    meta: MetaJson
    written: str | None


class GameRow(msgspec.Struct, frozen=True):
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
    meta: Meta = msgspec.field(default_factory=Meta)  # who, when, where (ledger/core/meta.py)
    written: str | None = None  # when its last event was stored (UTC, ISO 8601 to the microsecond)

    @property
    def played_under(self) -> str:
        from whispers.ledger.core.pins import played_under

        return played_under(self.ruleset, self.board)

    def to_json(self) -> GameRowJson:
        return {"game": self.game, "ruleset": self.ruleset.label, "board": self.board.label,
                "played_under": self.played_under,
                "pins": {"ruleset": self.ruleset.to_json(), "board": self.board.to_json()},
                "players": list(self.players), "round": self.round, "phase": self.phase, "over": self.over,
                "winner": self.winner, "events": self.events,
                "fork_of": None if self.fork_of is None else {"game": self.fork_of[0], "at": self.fork_of[1]},
                "date": self.meta.recorded, "names": dict(self.meta.seats), "meta": self.meta.to_json(),
                "written": self.written}

    @classmethod
    def of_json(cls, data: GameRowJson) -> GameRow:
        """The row whose JSON form is `data` (`to_json` of it gives `data` again)."""
        from whispers.ledger.io.shipped import pin

        pins, fork, meta = data["pins"], data["fork_of"], data["meta"]
        return cls(data["game"], pin("ruleset", pins["ruleset"]["id"], pins["ruleset"]["hash"]),
                   pin("board", pins["board"]["id"], pins["board"]["hash"]), tuple(data["players"]), data["round"],
                   data["phase"], data["over"], data["winner"], data["events"],
                   None if fork is None else (fork["game"], fork["at"]),
                   Meta(dict(meta["seats"]), meta["title"], meta["place"], meta["event"], meta["round"], meta["table"],
                        tuple(meta["tags"]), meta["archived"], meta["recorded"]), data["written"])


class Games(msgspec.Struct, frozen=True):
    listed: tuple[GameRowJson, ...]
    """Each game's row in its JSON form (`GameRow.to_json`): a listing of 10,000 games is made, filtered and
    printed without a GameRow per game. Shared, not copied: read them, do not change them."""
    more: bool = False
    """Games the filter keeps were left out by the limit (older ones)."""

    @property
    def rows(self) -> tuple[GameRow, ...]:
        return tuple(GameRow.of_json(row) for row in self.listed)

    def to_json(self) -> list[GameRowJson]:
        return list(self.listed)


class GameFilter(msgspec.Struct, frozen=True):
    """Which games `games` lists, and in what order. Text matches ignore case; `since` is a date (YYYY-MM-DD)
    compared with when the game's table facts were recorded (a game with none recorded has no date)."""

    player: str | None = None
    event: str | None = None
    since: str | None = None
    ruleset: str | None = None
    state: str | None = None  # "playing" or "over"
    sort: str = "store"  # "store", "date", "name", "event"
    archived: bool = False  # list archived games too

    def keeps(self, row: GameRowJson) -> bool:
        """Whether the row (a GameRow's JSON form) is listed."""
        meta = row["meta"]
        return ((self.archived or not meta["archived"])
                and (self.player is None
                     or self.player.casefold() in {n.casefold() for n in meta["seats"].values()})
                and (self.event is None or (meta["event"] or "").casefold() == self.event.casefold())
                and (self.since is None or (meta["recorded"] is not None and meta["recorded"][:10] >= self.since))
                and (self.ruleset is None or row["ruleset"] == self.ruleset)
                and (self.state is None or row["over"] == (self.state == "over")))


SORTS: dict[str, Callable[[GameRowJson], SupportsRichComparison] | None] = {  # keys of a row's JSON form
    "store": None,
    "date": lambda row: (row["date"] is None, row["date"] or ""),
    "name": lambda row: row["game"],
    "event": lambda row: (row["meta"]["event"] is None, (row["meta"]["event"] or "").casefold(),
                          row["meta"]["round"] or ""),
}
STATES = ("playing", "over")


def select(rows: Iterable[GameRowJson], which: GameFilter) -> tuple[GameRowJson, ...]:
    """The rows (JSON forms of GameRow) `which` keeps, in its order."""
    from whispers.ledger.core.errors import StoreError
    from whispers.ledger.core.words import say

    if which.sort not in SORTS:
        raise StoreError(say("unknown sort {text}: sort by {sorts}", text=repr(which.sort), sorts=", ".join(SORTS)))
    if which.state is not None and which.state not in STATES:
        raise StoreError(say("unknown state {text}: the states are {states}", text=repr(which.state),
                             states=", ".join(STATES)))
    if which.since is not None:
        from datetime import date

        try:
            date.fromisoformat(which.since)
        except ValueError:
            raise StoreError(say("--since {text} is not a date: YYYY-MM-DD", text=repr(which.since))) from None
    kept = [row for row in rows if which.keeps(row)]
    key = SORTS[which.sort]
    return tuple(kept if key is None else sorted(kept, key=key))


def listing_row(name: str, listed: Listed, pinned: dict[tuple[str, ...], Pinned]) -> GameRowJson:
    """A game's row in its JSON form (as GameRow.to_json writes it) from its fields in the catalog's listing;
    `pinned` keeps the pins' labels and JSON made once for each pair of pins in the listing."""
    pins = listed["pins"]
    key = (*pins["ruleset"], *pins["board"])
    made = pinned.get(key)
    if made is None:
        from whispers.ledger.core.pins import played_under
        from whispers.ledger.io.shipped import pin

        ruleset, board = pin("ruleset", *pins["ruleset"]), pin("board", *pins["board"])
        made = pinned[key] = (ruleset.label, board.label, played_under(ruleset, board),
                              {"ruleset": ruleset.to_json(), "board": board.to_json()})
    fork, meta = listed["fork_of"], listed["meta"]  # meta as Meta.to_json wrote it
    return {"game": name, "ruleset": made[0], "board": made[1], "played_under": made[2], "pins": made[3],
            "players": listed["players"], "round": listed["round"], "phase": listed["phase"],
            "over": listed["ended"], "winner": listed["won_by"], "events": listed["events"],
            "fork_of": None if fork is None else {"game": str(fork[0]), "at": int(fork[1])},
            "date": meta["recorded"], "names": meta["seats"], "meta": meta, "written": listed["written"]}


Pinned = tuple[str, str, str, PinsJson]
"""A pair of pins' labels (ruleset, board, played under) and JSON, made once per listing (`listing_row`)."""

LATEST = 50
"""Games `games` lists unless told otherwise: the latest created (a club's store holds 10,000)."""


def games(store: Store | str | None, which: GameFilter | None = None, limit: int | None = None) -> Games:
    """The games in the store, with ruleset, players, where each stands, who won and what it was forked from,
    and who, when and where (archived ones only when `which` says so): read from the catalog of summaries kept
    in the store, which first reads what the store gained since. With `limit`, the `limit` latest created of
    the games `which` keeps (then in its order); with no filter but the archived one, only the latest rows are
    read, by the catalog's index of creation."""
    from whispers.application.collector import uncollected
    from whispers.projections.catalog import Catalog

    which = which or GameFilter()
    if limit is not None and limit < 1:
        from whispers.ledger.core.errors import StoreError

        raise StoreError(say("--limit {text}: list at least one game", text=repr(limit)))
    in_store_order = msgspec.structs.replace(which, sort="store")
    with opened(store) as s:
        catalog = Catalog(s)
        catalog.refresh()  # may fold every game (a catalog of another layout): the collector stays on for that
        with uncollected():
            pinned: dict[tuple[str, ...], Pinned] = {}
            if limit is None or in_store_order != GameFilter(archived=which.archived):
                kept = select([listing_row(name, d, pinned) for name, d in catalog.listing().items()], in_store_order)
            else:  # the latest rows only; more of them while archived ones leave fewer than the limit kept
                window, size = limit + 1, catalog.size()
                while True:
                    read = catalog.listing(last=window)
                    kept = select([listing_row(name, d, pinned) for name, d in read.items()], in_store_order)
                    if len(kept) > limit or window >= size:
                        break
                    window *= 4
            shown = kept if limit is None else kept[-limit:]
            return Games(select(shown, GameFilter(sort=which.sort, archived=True)), len(shown) < len(kept))
