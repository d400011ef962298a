"""Per-player views as a security property: tested as an attacker would, over random games.

For every society and every version of each game, the view and the event shown at that version are
serialised, then searched for anything the society could not know: another society's unrevealed loyalty
token, or the name of a card in another society's hand. The random games name the cards they draw, so there
are card names to leak. A second, differential check changes another society's secrets (the names of the
cards it drew or holds, its recorded loyalty tokens) and requires the viewer's view and events to stay
exactly the same. Both checks are shown to catch a views.py that leaks.
"""

import dataclasses
import json
from collections.abc import Callable
from typing import Any

import pytest

from whispers.ledger import events as ev
from whispers.ledger import randomgame
from whispers.ledger.board_files import load_board
from whispers.ledger.names import CARDS_PER_DECK, SLOTS, SOCIETIES
from whispers.ledger.ruleset_files import load_ruleset
from whispers.ledger.state import GameState, Hand, Loyalty
from whispers.projections import views
from whispers.projections.replay import Replay
from whispers.projections.views import secrets_hidden_from

BOARD = load_board("standin")
RULESETS = [load_ruleset(r) for r in ("official", "advanced", "revised")]
GAMES = 200


def leaves(node: Any, path: tuple = ()) -> list[tuple[tuple, Any, Any]]:
    """Every (path, key, value) in a JSON-like tree."""
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, dict | list):
                found += leaves(value, (*path, key))
            else:
                found.append((path, key, value))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += leaves(value, (*path, index))
            if not isinstance(value, dict | list):
                found.append((path, index, value))
    return found


def assert_no_leak(view: dict[str, Any], state: GameState, viewer: str) -> None:
    hidden_tokens, hidden_cards = secrets_hidden_from(state, viewer)
    text = json.dumps(view)
    for card in hidden_cards:
        assert f'"{card}"' not in text, f"{viewer} sees {card} in another hand"
    for path, key, value in leaves(view):
        if key in SLOTS and value in BOARD.empires and state.phase not in ("reveal", "over"):
            # a slot -> empire pair may only be the viewer's own, or a token its owner revealed
            if path[:2] == ("loyalty", viewer):
                continue
            if path[:1] == ("event",) and (view["event"].get("society") == viewer or "hidden" not in view["event"]):
                continue  # the viewer's own event, or a public one (a swap's reveal, the final reveal)
            if len(path) == 3 and path[0] == "loyalty" and path[2] == "revealed":
                owner = path[1]
                assert state.loyalty[owner].revealed.get(key) == value
                continue
            assert (path[1] if len(path) > 1 else None, key, value) not in hidden_tokens
            raise AssertionError(f"{viewer} sees a loyalty token at {path}: {key}={value}")
    for other, slot, empire in hidden_tokens:
        shown = view["loyalty"][other]
        assert shown["tokens"] is None, f"{viewer} sees {other}'s tokens"
        assert shown["revealed"].get(slot) != empire


def random_record(seed: int) -> tuple[tuple[str, ...], Replay]:
    """A random game whose draws name their cards."""
    players = SOCIETIES[: 2 + seed % 3]
    events = []
    for _, produced, _ in randomgame.play(players, RULESETS[seed % 3], BOARD, seed=seed, undo_rate=0.02, named=True):
        events.extend(produced)
    return players, Replay(tuple(events))


def search_for_leaks(players: tuple[str, ...], replay: Replay) -> None:
    for version in range(1, len(replay) + 1):
        state = replay.at(version)
        for viewer in players:
            view = views.state_view(state, viewer)
            view["event"] = views.event_view(replay.event(version), viewer)
            assert_no_leak(view, state, viewer)


@pytest.mark.parametrize("chunk", range(4))
def test_no_view_leaks_a_secret(chunk: int) -> None:
    """200 random games; for each society and each version, the view and the event shown there."""
    per_chunk = GAMES // 4
    drawn = 0
    for seed in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        players, replay = random_record(seed)
        drawn += sum(len(e.cards) for e in replay.events if isinstance(e, ev.CardsDrawn))
        search_for_leaks(players, replay)
    assert drawn > 0, "the games named no card: the search would have nothing to find"


def other_cards(card: str) -> str:
    """Another card of the same deck: what a different draw would have shown."""
    empire, _, number = card.partition(":")
    return f"{empire}:{int(number) % CARDS_PER_DECK + 1}" if number else card


def with_other_secrets(event: ev.Event) -> ev.Event:
    """The same event had its society's secret been different: other card names, another loyalty set."""
    if isinstance(event, ev.CardsDrawn):
        return dataclasses.replace(event, cards=tuple(other_cards(card) for card in event.cards))
    if isinstance(event, ev.LoyaltyRecorded):
        tokens = event.tokens or dict(zip(SLOTS, BOARD.empires, strict=True))
        return dataclasses.replace(event, tokens={slot: tokens[SLOTS[(i + 1) % 5]] for i, slot in enumerate(SLOTS)})
    raise AssertionError(f"{type(event).__name__} has a private part the test does not know how to change")


def with_secrets_changed(state: GameState, owner: str) -> GameState:
    """The same position had `owner`'s secrets been different: other names for the cards it holds, and (before
    the final reveal) two of its concealed tokens the other way round."""
    hand = state.hands[owner]
    hands = {**state.hands, owner: Hand(hand.counts, tuple(other_cards(card) for card in hand.known))}
    loyalty = dict(state.loyalty)
    held = loyalty.get(owner)
    concealed = [slot for slot in SLOTS if held is not None and slot not in held.revealed]
    if held is not None and held.tokens is not None and len(concealed) >= 2 and state.phase not in ("reveal", "over"):
        a, b = concealed[:2]
        loyalty[owner] = Loyalty({**held.tokens, a: held.tokens[b], b: held.tokens[a]}, held.revealed, held.swaps,
                                 held.swapped)
    return dataclasses.replace(state, hands=hands, loyalty=loyalty)


def compare_with_other_secrets(players: tuple[str, ...], replay: Replay) -> int:
    """Every viewer's view and event at every version, against the same with another society's secrets changed;
    how many comparisons had a secret to change."""
    changed = 0
    for version in range(1, len(replay) + 1):
        state, event = replay.at(version), replay.event(version)
        for viewer in players:
            seen_state = views.state_view(state, viewer)
            seen_event = views.event_view(event, viewer)
            if event.private is not None and getattr(event, "society", None) != viewer:
                other = with_other_secrets(event)
                if other != event:  # (a draw of no card has no name to change)
                    assert views.event_view(other, viewer) == seen_event, f"{viewer} tells {event} apart"
                    changed += 1
            for owner in players:
                if owner == viewer:
                    continue
                other_state = with_secrets_changed(state, owner)
                if other_state.hands == state.hands and other_state.loyalty == state.loyalty:
                    continue
                assert views.state_view(other_state, viewer) == seen_state, f"{viewer} sees {owner}'s secrets"
                changed += 1
    return changed


@pytest.mark.parametrize("chunk", range(2))
def test_another_societys_secrets_never_change_what_a_viewer_sees(chunk: int) -> None:
    """Differential: 40 random games; at every version, changing another society's drawn card names, held card
    names or recorded loyalty leaves each viewer's view and event identical."""
    changed = 0
    for seed in range(chunk * 20, chunk * 20 + 20):
        changed += compare_with_other_secrets(*random_record(seed))
    assert changed > 0


def _hides_only_loyalty(event: ev.Event, society: str | None = None) -> dict[str, Any]:
    """A views.py mutant: the private part is hidden for loyalty records only (drawn cards show their names)."""
    fact = event.to_fact()
    if isinstance(event, ev.LoyaltyRecorded) and society is not None and event.society != society:
        fact["tokens"], fact["hidden"] = None, "tokens"
    return fact


def _shows_every_hand(state: GameState, society: str | None = None) -> dict[str, Any]:
    """A views.py mutant: every hand's card names are shown to every viewer."""
    view = ORIGINAL_STATE_VIEW(state, society)
    for other, hand in view["hands"].items():
        hand["known"] = list(state.hands[other].known)
    return view


ORIGINAL_STATE_VIEW = views.state_view


@pytest.mark.parametrize(("name", "mutant"), [("event_view", _hides_only_loyalty), ("state_view", _shows_every_hand)])
@pytest.mark.parametrize("check", [search_for_leaks, compare_with_other_secrets], ids=["search", "differential"])
def test_the_leak_checks_catch_a_views_module_that_leaks_card_names(
    monkeypatch: pytest.MonkeyPatch, name: str, mutant: Callable[..., dict[str, Any]], check: Callable[..., Any]
) -> None:
    """Mutation: with either leak put into views.py, both checks above fail on the first random game that draws."""
    monkeypatch.setattr(views, name, mutant)
    players, replay = random_record(1)
    assert any(e.cards for e in replay.events if isinstance(e, ev.CardsDrawn))
    with pytest.raises(AssertionError):
        check(players, replay)


def test_the_attack_would_catch_a_leak() -> None:
    """The check above is not vacuous: the all-seeing view of a mid-game state fails it."""
    events = []
    for _, produced, _ in randomgame.play(SOCIETIES, RULESETS[0], BOARD, seed=5):
        events.extend(produced)
    replay = Replay(tuple(events))
    state = next(s for s in replay.states if secrets_hidden_from(s, "raven")[0])
    with pytest.raises(AssertionError):
        assert_no_leak(views.state_view(state, None), state, "raven")


def test_a_sealed_set_is_unknown_even_to_the_record() -> None:
    events = []
    seed = next(s for s in range(100) if _has_sealed(s))
    for _, produced, _ in randomgame.play(SOCIETIES, RULESETS[0], BOARD, seed=seed):
        events.extend(produced)
    replay = Replay(tuple(events))
    mid = replay.at(len(replay) // 2)
    sealed = [s for s in SOCIETIES if mid.loyalty[s].tokens is None]
    assert sealed
    for society in sealed:
        assert views.state_view(mid, None)["loyalty"][society]["tokens"] is None
        assert views.state_view(mid, society)["loyalty"][society]["tokens"] is None


def _has_sealed(seed: int) -> bool:
    for _, _, state in randomgame.play(SOCIETIES, RULESETS[0], BOARD, seed=seed):
        if state.phase != "setup":
            return any(lo.tokens is None for lo in state.loyalty.values())
    return False
