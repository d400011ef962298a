"""The one visibility policy: what a viewer may see of a state, an event and a move, at any version.

A security property (tests/test_views.py attacks it). Every face and format asks here: state and event views,
the log, the replay and its stepper, the notes, the timeline, and the web pages to come.

Three kinds of viewer:
- the record (`RECORD`) sees everything the record holds; a sealed set is unknown even to it;
- a society sees its own loyalty tokens and hand, and every public fact;
- a spectator (`SPECTATOR`) sees public facts only.

Public facts: the board, reserves, the council, hand sizes and the decks cards were drawn from, cards played
and discarded, tokens revealed by a swap, and at the end (the reveal and after) every token, since the final
scoring turns them all face up (EN "Final Scoring"). Private: a society's recorded loyalty tokens, the names
of the cards it drew or holds, and the moves open to it. A set sealed at its own seat (`LoyaltyCommitted`) is
public as its commitment, a salted hash that tells nothing of the set (ledger/core/sealing.py): no viewer, the
record included, holds its tokens before the reveal.

A digest of data is that data's shadow: whoever sees the rest of the record can try each loyalty set or card name
against it. A fork's marker (`GameForked`) carries the chain hash of its parent's first events, hidden facts
included, so its `head` is private to the record: every society and the spectator see the marker without it.
(docs/architecture.md "Digests" lists every digest a view carries, who sees it and why that is safe.)
"""

from collections.abc import Sequence
from typing import Literal, NotRequired, TypedDict

import msgspec

from whispers.ledger.core import events as ev
from whispers.ledger.core.errors import WhispersError
from whispers.ledger.core.state import GameState, position_name
from whispers.ledger.core.words import describe
from whispers.ledger.io.shipped import labels


class OptionView(TypedDict):
    """A legal move and its parameters' domains, as data (application.reading.option_json)."""

    verb: str
    society: str
    choices: dict[str, object]


class NextView(TypedDict):
    societies: list[str]
    note: str
    moves: NotRequired[list[OptionView]]  # added by application.reading.status_of


class RegionView(TypedDict):
    controller: str
    banners: int


class DeckView(TypedDict):
    draw: int
    discard: int


class BesideView(TypedDict):
    card: str
    effect: str
    until: str


class HandView(TypedDict):
    size: int
    by_empire: dict[str, int]
    known: NotRequired[list[str]]  # only to a viewer who knows that hand


class LoyaltyView(TypedDict):
    tokens: dict[str, str] | None  # None: sealed, or not shown to this viewer
    revealed: dict[str, str]
    sealed: bool
    committed: bool
    swaps: int
    swapped: list[list[str]]
    concealed: int


class StateView(TypedDict):
    """The state as one viewer knew it (`state_view`): what every face and page reads, and its JSON form."""

    game: str
    ruleset: str
    board: str
    version: int
    viewer: str | None
    round: int
    phase: str
    empire: str | None
    office: str | None
    first: str
    players: list[str]
    over: bool
    next: NextView
    regions: dict[str, RegionView]
    reserve: dict[str, int]
    cities: dict[str, int]
    decks: dict[str, DeckView]
    card_numbers: dict[str, list[int]]
    beside: list[BesideView]
    council: dict[str, str]
    field_agents: list[list[str]]
    hands: dict[str, HandView]
    loyalty: dict[str, LoyaltyView | None]
    on_board: NotRequired[dict[str, int]]  # added by application.reading.status_of
    last_move: NotRequired[str | None]  # added by application.reading.status


SPECTATOR_NAME = "spectator"
"""How a spectator is named where a society's name may stand (`--as spectator`, the JSON's "viewer")."""


class Viewer(msgspec.Struct, frozen=True):
    kind: Literal["record", "society", "spectator"]
    society: str | None = None

    @property
    def name(self) -> str | None:
        """The viewer as views name it: None for the record, the society, or "spectator"."""
        return {"record": None, "spectator": SPECTATOR_NAME}.get(self.kind, self.society)

    @property
    def sees_all(self) -> bool:
        return self.kind == "record"


RECORD = Viewer("record")
SPECTATOR = Viewer("spectator")

AnyViewer = Viewer | str | None
"""A viewer, or its name: None for the record, "spectator", or a society's name."""


def viewer_of(who: AnyViewer) -> Viewer:
    if isinstance(who, Viewer):
        return who
    if who is None:
        return RECORD
    if who == SPECTATOR_NAME:
        return SPECTATOR
    return Viewer("society", who)


class NotPlaying(WhispersError):
    """A view asked for as a society that is not at the table."""


def check_viewer(game: str, players: Sequence[str], who: AnyViewer) -> None:
    """Every view as a society (each face, each command) refuses one not playing, in these words."""
    viewer = viewer_of(who)
    if viewer.kind == "society" and viewer.society not in players:
        raise NotPlaying(f"{viewer.society} is not playing in {game} ({', '.join(players)} are)")


# --- the policy ---------------------------------------------------------------------------------------------


def knows(who: AnyViewer, society: str | None) -> bool:
    """May the viewer know what is private to `society` (its tokens, its cards' names, the moves open to it)?"""
    viewer = viewer_of(who)
    return viewer.sees_all or (viewer.kind == "society" and viewer.society == society)


def can_see(who: AnyViewer, event: ev.Event) -> bool:
    """May the viewer see the whole of `event`, its private part included?"""
    return event.private is None or knows(who, getattr(event, "society", None))


def tokens_shown(who: AnyViewer, state: GameState, society: str) -> bool:
    """May the viewer see `society`'s recorded loyalty tokens in `state` (not only the revealed ones)?"""
    return knows(who, society) or state.phase in ("reveal", "over")


def final_reveal(who: AnyViewer, state: GameState) -> dict[str, dict[str, str]]:
    """The loyalty tokens the final scoring turned face up for the whole table (EN "Final Scoring") that the
    viewer had not known before it: every other society's recorded set, once the game is over ({} before)."""
    if not state.over:
        return {}
    return {s: dict(held.tokens) for s in state.players
            if (held := state.loyalty.get(s)) is not None and held.tokens is not None and not knows(who, s)
            and tokens_shown(who, state, s)}


# --- what each viewer sees ----------------------------------------------------------------------------------


def event_view(event: ev.Event, who: AnyViewer = None) -> dict[str, object]:
    """An event as the viewer saw it: a private part it may not see is None, and `hidden` names it."""
    fact = event.to_fact()
    if not can_see(who, event):
        assert event.private is not None
        fact[event.private] = None
        fact["hidden"] = event.private
    return fact


def move_line(event: ev.Event, who: AnyViewer = None, borrowed: bool = False) -> str | None:
    """The notation line of a move as the viewer saw it (None for the engine's own events)."""
    from whispers.ledger.core.notation import format_event  # the notation's parser is not for `status` to load

    return format_event(event, borrowed=borrowed, hide_private=not can_see(who, event))


def moves_seen(events: Sequence[ev.Event], who: AnyViewer = None, after: int = 0) -> list[tuple[int, str]]:
    """The moves of a line of play (a game, a fork, a variation) after its first `after` events, each with its event
    number and its notation line as the viewer saw it (an order taken out of sequence says so, as in the log)."""
    from whispers.ledger.core.evolve import evolve

    found: list[tuple[int, str]] = []
    state: GameState | None = None
    for number, event in enumerate(events, start=1):
        borrowed = state is not None and state.pending is not None
        if number > after and (line := move_line(event, who, borrowed)) is not None:
            found.append((number, line))
        state = evolve(state, event)
    return found


def event_words(event: ev.Event, who: AnyViewer = None) -> str:
    """An event in words as the viewer saw it: its notation line, or `· what the engine did`."""
    return move_line(event, who) or f"· {describe(event)}"


def state_view(state: GameState, who: AnyViewer = None) -> StateView:
    """The state as the viewer knew it (everything the record holds for the record)."""
    from whispers.ledger.core.prompt import prompt

    viewer = viewer_of(who)
    check_viewer(state.name, state.players, viewer)
    p = prompt(state)
    loyalty: dict[str, LoyaltyView | None] = {}
    for s in state.players:
        held = state.loyalty.get(s)
        if held is None:
            loyalty[s] = None
            continue
        shown = tokens_shown(viewer, state, s)
        loyalty[s] = {
            "tokens": dict(held.tokens) if shown and held.tokens is not None else None,
            "revealed": dict(held.revealed),
            "sealed": held.tokens is None,
            "committed": held.commitment is not None,  # sealed at its own seat: only a hash is recorded
            "swaps": held.swaps,
            "swapped": [list(pair) for pair in held.swapped],  # the slots of each swap, public as its line is
            "concealed": held.concealed,
        }
    hands: dict[str, HandView] = {}
    for s in state.players:
        hand = state.hands[s]
        hands[s] = {"size": hand.size, "by_empire": dict(hand.counts)}
        if knows(viewer, s):
            hands[s]["known"] = list(hand.known)
    ruleset_label, board_label = labels(state)
    return {
        "game": state.name, "ruleset": ruleset_label, "board": board_label, "version": state.version,
        "viewer": viewer.name, "round": p.round, "phase": p.phase, "empire": p.empire, "office": p.office,
        "first": state.first, "players": list(state.players), "over": state.over,
        "next": {"societies": list(p.actors), "note": p.note},
        "regions": {
            r: {"controller": state.controller(r), "banners": state.banners_in(r)} for r in state.board.regions
        },
        "reserve": dict(state.reserve),
        "cities": {e: state.cities(e) for e in state.board.empires},
        "decks": {e: {"draw": d.draw, "discard": d.discard} for e, d in state.decks.items()},
        # each deck's card numbers in this game: its card sheet's in the sets it plays, else 1 to 8 (public)
        "card_numbers": {e: list(state.card_numbers(e)) for e in state.board.empires},
        # decrees played "next to the board for the duration of the turn" (REV 353, 355): public, in no deck
        "beside": [{"card": card, "effect": effect, "until": until} for card, effect, until in state.beside],
        "council": {position_name(pos): s for pos, s in state.council.items()},
        "field_agents": sorted([s, r] for s, r in state.field_agents),
        "hands": hands,
        "loyalty": loyalty,
    }



def known_scores(state: GameState, who: AnyViewer = None) -> dict[str, int | None]:
    """Each society's score if the game ended now, as far as the viewer can compute it: a society's score
    needs its loyalty tokens, so the viewer gets its own, and the others' only where their tokens are shown
    to it (the record: every recorded set; everyone: all of them from the reveal on). None: not computable
    (a sealed set, tokens not yet recorded, or tokens the viewer may not see)."""
    from whispers.ledger.core.scoring import society_score

    found: dict[str, int | None] = {}
    for society in state.players:
        held = state.loyalty.get(society)
        shown = held is not None and held.tokens is not None and tokens_shown(who, state, society)
        found[society] = society_score(state, society)["total"] if shown else None
    return found
