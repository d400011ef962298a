"""Small helpers for the rules tests: new games, moves by notation, and positions built directly.

`decide` is pure, so a test may build any position it needs with `position` / `at_office` (plain
`msgspec.structs.replace` on a `GameState`) instead of playing a long sequence of moves to reach it.
"""

import copy
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

import msgspec
import pytest

from whispers.ledger.core import commands as c
from whispers.ledger.core import events as ev
from whispers.ledger.core import rules
from whispers.ledger.core.board import Board
from whispers.ledger.core.errors import RuleError
from whispers.ledger.core.names import BANNERS_PER_EMPIRE, OFFICES, SLOTS
from whispers.ledger.core.notation import parse_line
from whispers.ledger.core.ruleset import Ruleset
from whispers.ledger.core.state import GameState, Hand, Loyalty, Position
from whispers.ledger.io.board_files import load_board
from whispers.ledger.io.decree_files import shipped_catalogue
from whispers.ledger.io.ruleset_files import load_ruleset

PLAYERS: tuple[str, ...] = ("raven", "spider", "rat", "serpent")
EMPIRES: tuple[str, ...] = ("bear", "eagle", "elephant", "lion", "horse")
SOURCES: tuple[str, ...] = ("EN", "FR", "IT", "ES", "REV", "whispers")
"""What a RuleError's `.rule` starts with: the rulebook (or whispers' own rule) it cites."""


@cache
def board_of(ref: str = "standin") -> Board:
    return load_board(ref)


@cache
def ruleset_of(ref: str = "official") -> Ruleset:
    return load_ruleset(ref)


def new_state(
    players: Iterable[str] = PLAYERS, ruleset: str = "official", first: str | None = None, name: str = "test"
) -> GameState:
    """A new game on the stand-in board, right after its GameStarted event (setup phase)."""
    started = rules.start(name, tuple(players), first, ruleset_of(ruleset), board_of("standin"))
    return rules.evolve(None, started)


def command(move: str | c.Command) -> c.Command:
    if isinstance(move, c.Command):
        return move
    parsed = parse_line(move)
    assert isinstance(parsed, c.Command), f"{move!r} is not a move"
    return parsed


def apply(state: GameState, move: str | c.Command) -> tuple[GameState, list[ev.Event]]:
    """Decide one move (a notation line or a command) and fold its events into the state."""
    events = rules.decide(state, command(move), shipped_catalogue())
    for event in events:
        state = rules.evolve(state, event)
    return state, events


def play(state: GameState, *moves: str | c.Command) -> tuple[GameState, list[ev.Event]]:
    """Several moves in a row; the events of all of them."""
    produced: list[ev.Event] = []
    for move in moves:
        state, events = apply(state, move)
        produced.extend(events)
    return state, produced


def tokens_for(index: int) -> dict[str, str]:
    """A loyalty set whose devout empire differs from index to index (rotations of the empire order)."""
    rotated = EMPIRES[index % 5 :] + EMPIRES[: index % 5]
    return dict(zip(SLOTS, rotated, strict=True))


def loyalty_line(society: str, tokens: Mapping[str, str]) -> str:
    return f"{society} loyalty " + " ".join(f"{slot}={tokens[slot]}" for slot in SLOTS)


def setup_done(state: GameState, sealed: Iterable[str] = ()) -> GameState:
    """Record every player's loyalty (distinct devout empires; `sealed` societies seal theirs): round 1 deploy."""
    sealed = set(sealed)
    for index, society in enumerate(state.players):
        line = f"{society} loyalty sealed" if society in sealed else loyalty_line(society, tokens_for(index))
        state, _ = apply(state, line)
    assert state.phase == "deploy" and state.round == 1
    return state


def position(state: GameState, **changes: Any) -> GameState:
    return msgspec.structs.replace(state, **changes)


def pos(where: str | Position) -> Position:
    if isinstance(where, str):
        empire, office = where.split(".")
        return (empire, office)
    return where


def with_banners(state: GameState, banners: Mapping[str, tuple[str, int]], replace_all: bool = False) -> GameState:
    """Set banners (region -> (empire, n); n = 0 empties it) and recompute every reserve: 20 − on board."""
    placed = {} if replace_all else dict(state.banners)
    for region, (empire, n) in banners.items():
        assert region in state.board.regions, region
        if n:
            placed[region] = (empire, n)
        else:
            placed.pop(region, None)
    reserve = {
        empire: BANNERS_PER_EMPIRE - sum(n for e, n in placed.values() if e == empire) for empire in state.board.empires
    }
    assert all(n >= 0 for n in reserve.values()), reserve
    return position(state, banners=placed, reserve=reserve)


def at_office(
    state: GameState,
    empire: str,
    office: str | int,
    council: Mapping[str | Position, str] | None = None,
    banners: Mapping[str, tuple[str, int]] | None = None,
    replace_banners: bool = False,
    **changes: Any,
) -> GameState:
    """An empire-phase position: `empire`'s `office` is active, with this council (`{"bear.sheriff": "raven"}`)
    and these banners (merged into the current ones unless `replace_banners`); reserves recomputed."""
    index = office if isinstance(office, int) else OFFICES.index(office)
    state = position(
        state,
        phase="empire",
        empire_index=state.board.empires.index(empire),
        office_index=index,
        pending=None,
        last_actor=None,
        last_was_draw=False,
    )
    if council is not None:
        state = position(state, council={pos(k): v for k, v in council.items()})
    state = with_banners(state, banners or {}, replace_all=replace_banners)
    return position(state, **changes) if changes else state


def hands(state: GameState, **held: Iterable[str]) -> GameState:
    """Give societies hands of named cards (`raven=["bear:1", "lion:2"]`); decks lose those cards."""
    new_hands = dict(state.hands)
    decks = dict(state.decks)
    for society, cards in held.items():
        cards = tuple(cards)
        counts: dict[str, int] = {}
        for card in cards:
            empire = card.split(":")[0]
            counts[empire] = counts.get(empire, 0) + 1
            decks[empire] = msgspec.structs.replace(decks[empire], draw=decks[empire].draw - 1)
        new_hands[society] = Hand(counts, tuple(card for card in cards if ":" in card))
    return position(state, hands=new_hands, decks=decks)


def final(
    state: GameState,
    loyalty: Mapping[str, Mapping[str, str] | Loyalty],
    banners: Mapping[str, tuple[str, int]] | None = None,
    field_agents: Iterable[tuple[str, str]] = (),
) -> GameState:
    """A game-end position to score: loyalty per society (a token dict, or a Loyalty with revealed/swaps)."""
    values = {s: lo if isinstance(lo, Loyalty) else Loyalty(dict(lo), {}) for s, lo in loyalty.items()}
    state = with_banners(state, banners or {})
    return position(state, loyalty=values, field_agents=frozenset(field_agents), round=4, phase="round_end")


def snapshot(state: GameState) -> dict[str, Any]:
    """A deep copy of everything in a state that a careless decide could mutate."""
    return {
        name: copy.deepcopy(getattr(state, name))
        for name in state.__struct_fields__
        if name not in ("board", "ruleset", "prior")
    }


def assert_refused(state: GameState, move: str | c.Command, contains: str = "", rule: str | None = None) -> RuleError:
    """decide refuses the move with a RuleError whose message holds `contains` and whose `.rule` cites a rulebook
    section (starting with `rule` when given); the state is left exactly as it was."""
    before = snapshot(state)
    prior = state.prior
    with pytest.raises(RuleError) as caught:
        rules.decide(state, command(move), shipped_catalogue())
    error = caught.value
    assert contains.lower() in str(error).lower(), f"{contains!r} not in {str(error)!r}"
    assert error.rule and error.rule.startswith(SOURCES), f"rule {error.rule!r} cites no section"
    if rule is not None:
        assert error.rule.startswith(rule), f"rule {error.rule!r} is not {rule!r}"
    assert snapshot(state) == before, "decide changed the state it refused a move on"
    assert state.prior is prior
    return error


def of_type(events: Iterable[ev.Event], kind: type[ev.Event]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def one(events: Iterable[ev.Event], kind: type[ev.Event]) -> Any:
    found = of_type(events, kind)
    assert len(found) == 1, f"expected one {kind.__name__}, got {found}"
    return found[0]


def unmatched_instant_decree_facts() -> list[dict[str, Any]]:
    """The bundled revised 3-player game with Dark alliances, cut where raven draws without the record naming the
    cards, then plays Succession Crisis from horse "as it is drawn" (REV 296): with no card sheet and no named
    draw, `verify` can check neither the card's cost nor that it was drawn."""
    from importlib import resources

    from whispers.ledger.io.game import replay_lines

    text = (resources.files("whispers.fixtures") / "games" / "revised-3p.txt").read_text()
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("game "))
    lines[header] += " card-set=dark-alliances"
    cut = lines.index("raven draw horse:8")
    lines[cut] = "raven draw"
    game = replay_lines("sc", [*lines[: cut + 1], "raven play horse effect=succession-crisis"])
    return [e.to_fact() for e in game.events]


DEPLOYED = """\
game ruleset=official board=standin players=raven,rat,spider,serpent first=raven
raven loyalty devout=bear dutiful=eagle affiliated=lion unallied=horse opposed=elephant
rat loyalty devout=lion dutiful=horse affiliated=bear unallied=elephant opposed=eagle
spider loyalty sealed
serpent loyalty devout=eagle dutiful=bear affiliated=horse unallied=lion opposed=elephant
raven deploy bear.sheriff
rat deploy bear.steward
spider deploy lion.sheriff
serpent deploy eagle.sheriff
raven deploy horse.sheriff
rat deploy elephant.sheriff
spider deploy bear.marshal
serpent deploy lion.steward
"""
"""A 4-player official game on the stand-in board, round 1 set up and every agent deployed: the empire turns
phase waits on raven at the bear sheriff (the opening the CLI, recorder, preview and amendment tests build on)."""
