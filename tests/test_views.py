"""The visibility policy as a security property: tested as an attacker would, over random games.

For every viewer (each society, and a spectator) and every version of each game, the view and the event
shown at that version are serialised, then searched for anything the viewer could not know: another
society's unrevealed loyalty token, or the name of a card in another society's hand (for a spectator, every
society is another). The random games name the cards they draw, so there are card names to leak. A second,
differential check changes the secrets of the societies a viewer may not know (the names of the cards they
drew or hold, their recorded loyalty tokens) and requires the viewer's view and events to stay exactly the
same; a third does it to the record itself and requires the same of every face: the state and event views,
the log and the timeline's DOT. What a viewer may not know is written here, apart from the policy it tests
(projections/visibility.py), and the checks are shown to catch a policy that leaks.
"""

import functools
import json
from collections.abc import Callable, Iterator
from typing import Any

import msgspec
import pytest
from sizes import sized

from whispers.ledger.core import events as ev
from whispers.ledger.core import randomgame
from whispers.ledger.core.names import CARDS_PER_DECK, SLOTS, SOCIETIES
from whispers.ledger.core.state import GameState, Hand, Loyalty
from whispers.ledger.io.board_files import load_board
from whispers.ledger.io.ruleset_files import load_ruleset
from whispers.projections import visibility
from whispers.projections.log import format_record
from whispers.projections.replay import Replay
from whispers.projections.timeline import timeline
from whispers.projections.visibility import SPECTATOR, AnyViewer

BOARD = load_board("standin")
RULESETS = [load_ruleset(r) for r in ("official", "advanced", "revised")]
GAMES = sized(16, 200)
DIFFERENTIAL = sized(8, 40)  # games, in two chunks
FACES = sized(1, 4)  # games per language
TIMELINE_EVERY = sized(5, 1)  # the whole game's timeline drawn at every this many versions


def leaves(node: Any, keys: frozenset[str]) -> Iterator[tuple[tuple, str, Any]]:
    """Every (path, key, value) in a JSON-like tree whose key is one of `keys`, in no set order."""
    stack: list[tuple[tuple, Any]] = [((), node)]
    while stack:
        path, node = stack.pop()
        for key, value in node.items() if isinstance(node, dict) else enumerate(node):
            if isinstance(value, dict | list):
                stack.append(((*path, key), value))
            elif key in keys:
                yield path, key, value


def viewers(players: tuple[str, ...]) -> list[AnyViewer]:
    return [*players, SPECTATOR]


def hidden_owners(players: tuple[str, ...], viewer: AnyViewer) -> tuple[str, ...]:
    """The societies whose secrets `viewer` may not know: every other one, every one for a spectator."""
    if viewer is None:
        return ()
    return tuple(p for p in players if viewer == SPECTATOR or p != viewer)


def secrets_hidden_from(state: GameState, viewer: AnyViewer) -> tuple[set[tuple[str, str, str]], set[str]]:
    """What `viewer` could not know at `state`: unrevealed (society, slot, empire) tokens of the societies it
    may not know, before the final reveal turns every token face up, and the names of the cards they hold."""
    tokens = set()
    cards = set()
    for other in hidden_owners(state.players, viewer):
        held = state.loyalty.get(other)
        if held is not None and held.tokens is not None and state.phase not in ("reveal", "over"):
            for slot in SLOTS:
                if slot not in held.revealed:
                    tokens.add((other, slot, held.tokens[slot]))
        cards.update(state.hands[other].known)
    return tokens, cards


def assert_no_leak(view: dict[str, Any], state: GameState, viewer: AnyViewer) -> None:
    hidden_tokens, hidden_cards = secrets_hidden_from(state, viewer)
    text = json.dumps(view)
    for card in hidden_cards:
        assert f'"{card}"' not in text, f"{viewer} sees {card} in another hand"
    for path, key, value in leaves(view, frozenset(SLOTS)):
        if value in BOARD.empires and state.phase not in ("reveal", "over"):
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
        for viewer in viewers(players):
            view = visibility.state_view(state, viewer)
            view["event"] = visibility.event_view(replay.event(version), viewer)
            assert_no_leak(view, state, viewer)


@pytest.mark.parametrize("chunk", range(4))
def test_no_view_leaks_a_secret(chunk: int) -> None:
    """16 random games (200 with --slow); for each society and each version, the view and the event shown there."""
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
        return msgspec.structs.replace(event, cards=tuple(other_cards(card) for card in event.cards))
    if isinstance(event, ev.LoyaltyRecorded):
        tokens = event.tokens or dict(zip(SLOTS, BOARD.empires, strict=True))
        return msgspec.structs.replace(event, tokens={slot: tokens[SLOTS[(i + 1) % 5]] for i, slot in enumerate(SLOTS)})
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
    return msgspec.structs.replace(state, hands=hands, loyalty=loyalty)


def compare_with_other_secrets(players: tuple[str, ...], replay: Replay) -> int:
    """Every viewer's view and event at every version, against the same with another society's secrets changed;
    how many comparisons had a secret to change."""
    changed = 0
    for version in range(1, len(replay) + 1):
        state, event = replay.at(version), replay.event(version)
        for viewer in viewers(players):
            owners = hidden_owners(players, viewer)
            seen_state = visibility.state_view(state, viewer)
            seen_event = visibility.event_view(event, viewer)
            if event.private is not None and getattr(event, "society", None) in owners:
                other = with_other_secrets(event)
                if other != event:  # (a draw of no card has no name to change)
                    assert visibility.event_view(other, viewer) == seen_event, f"{viewer} tells {event} apart"
                    changed += 1
            for owner in owners:
                other_state = with_secrets_changed(state, owner)
                if other_state.hands == state.hands and other_state.loyalty == state.loyalty:
                    continue
                assert visibility.state_view(other_state, viewer) == seen_state, f"{viewer} sees {owner}'s secrets"
                changed += 1
    return changed


@pytest.mark.parametrize("chunk", range(2))
def test_another_societys_secrets_never_change_what_a_viewer_sees(chunk: int) -> None:
    """Differential: 8 random games (40 with --slow); at every version, changing another society's drawn card
    names, held card names or recorded loyalty leaves each viewer's view and event identical."""
    changed = 0
    half = DIFFERENTIAL // 2
    for seed in range(chunk * half, chunk * half + half):
        changed += compare_with_other_secrets(*random_record(seed))
    assert changed > 0


def record_with_secrets_changed(events: tuple[ev.Event, ...], owners: tuple[str, ...],
                                tokens: bool = True) -> tuple[ev.Event, ...]:
    """The same record had `owners`' secrets been different: other names for every card they drew and (with
    `tokens`) their recorded loyalty sets turned round. A sealed set stays sealed: that a set was sealed is
    said at the table, and it has no token to change."""
    changed = []
    for event in events:
        if getattr(event, "society", None) in owners and (
                (isinstance(event, ev.CardsDrawn) and event.cards)
                or (tokens and isinstance(event, ev.LoyaltyRecorded) and event.tokens is not None)):
            event = with_other_secrets(event)
        changed.append(event)
    return tuple(changed)


def faces(events: tuple[ev.Event, ...], replay: Replay, version: int, viewer: AnyViewer,
          dot: bool) -> dict[str, Any]:
    """Everything `viewer` is shown of the record at `version`: state and event views, and the timeline DOT."""
    shown: dict[str, Any] = {"state": visibility.state_view(replay.at(version), viewer),
                             "event": visibility.event_view(replay.event(version), viewer)}
    if dot:
        shown["dot"] = timeline(events[:version], viewer=viewer)
    return shown


def final_reveal() -> str:
    """How the log's comment on the final reveal begins, in the language spoken now (projections/log.py)."""
    from whispers.ledger.core.words import _

    return "#   " + _("final reveal: {society}").split("{society}")[0].rstrip()


def compare_records_with_other_secrets(players: tuple[str, ...], replay: Replay, dot_every: int) -> int:
    """For every viewer, the record against the same record with the secrets of the societies that viewer may not
    know changed: the log, and at every version the state and event views (and the timeline's DOT at every
    `dot_every`-th version and the last), are identical. Returns how many secrets were changed.

    The log is a fold written line by line, so the log at version N is the first lines of the whole one: the
    whole log compared covers every version. A recorded token is secret until the final reveal turns every set
    face up: from then on the state is compared against a record with only the card names changed."""
    events, last = replay.events, len(replay)
    changed = 0
    for viewer in viewers(players):
        owners = hidden_owners(players, viewer)
        other_events = record_with_secrets_changed(events, owners)
        changed += sum(a != b for a, b in zip(events, other_events, strict=True))
        other = Replay(other_events)
        other_cards_only = Replay(record_with_secrets_changed(events, owners, tokens=False))
        log = list(format_record(events, viewer=viewer))
        reveal = final_reveal()
        secret = [line for line in log if not line.startswith(reveal)]
        assert [line for line in format_record(other_events, viewer=viewer)
                if not line.startswith(reveal)] == secret, f"the log as {viewer} tells the records apart"
        # the final reveal's lines show every set face up, as the table saw it: only the card names are secret
        assert list(format_record(other_cards_only.events, viewer=viewer)) == log
        for version in range(1, last + 1):
            dot = version == last or version % dot_every == 0
            seen = faces(events, replay, version, viewer, dot)
            public = replay.at(version).phase in ("reveal", "over")
            there = faces(other_events, other_cards_only if public else other, version, viewer, dot)
            for face in seen:
                assert there[face] == seen[face], f"{viewer} tells the records apart at event {version} ({face})"
    return changed


def test_the_record_sees_the_secrets_the_others_do_not() -> None:
    """The changed record is not the same record: the all-seeing log and views tell it apart."""
    players, replay = random_record(3)
    other_events = record_with_secrets_changed(replay.events, players)
    assert list(format_record(other_events)) != list(format_record(replay.events))
    other = Replay(other_events)
    assert any(visibility.state_view(other.at(v)) != visibility.state_view(replay.at(v))
               for v in range(1, len(replay) + 1))


@pytest.mark.parametrize("chunk", range(4))
def test_no_face_tells_apart_records_that_differ_in_secrets_a_viewer_may_not_know(chunk: int) -> None:
    """Differential, on the record: 4 random games (16 with --slow), every viewer including a spectator, every
    version; the timeline's DOT at every 20th version and the last (the next test draws it more often); each
    chunk of games in one of the four languages (the log's comments and the timeline's words are translated)."""
    from whispers.projections import language

    token = language.speak(("en", "fr", "it", "es")[chunk])
    try:
        changed = 0
        for seed in range(chunk * FACES, chunk * FACES + FACES):
            changed += compare_records_with_other_secrets(*random_record(seed), dot_every=20)
    finally:
        language.stop(token)
    assert changed > 0


def test_no_timeline_tells_apart_records_that_differ_in_secrets_a_viewer_may_not_know() -> None:
    """The same on one whole game with the timeline drawn at every fifth version and the last, for every viewer (at
    every version with --slow: a fold of every prefix, some fifteen seconds)."""
    assert compare_records_with_other_secrets(*random_record(0), dot_every=TIMELINE_EVERY) > 0


def _hides_only_loyalty(event: ev.Event, society: str | None = None) -> dict[str, Any]:
    """A policy mutant: the private part is hidden for loyalty records only (drawn cards show their names)."""
    fact = event.to_fact()
    if isinstance(event, ev.LoyaltyRecorded) and society is not None and event.society != society:
        fact["tokens"], fact["hidden"] = None, "tokens"
    return fact


def _shows_every_hand(state: GameState, society: str | None = None) -> dict[str, Any]:
    """A policy mutant: every hand's card names are shown to every viewer."""
    view = ORIGINAL_STATE_VIEW(state, society)
    for other, hand in view["hands"].items():
        hand["known"] = list(state.hands[other].known)
    return view


def _spectator_knows_all(who: AnyViewer, society: str | None) -> bool:
    """A policy mutant: a spectator may know what is private to any society."""
    viewer = visibility.viewer_of(who)
    return viewer.kind != "society" or viewer.society == society


ORIGINAL_STATE_VIEW = visibility.state_view
RECORD_CHECK = functools.partial(compare_records_with_other_secrets, dot_every=50)


@pytest.mark.parametrize(("name", "mutant"), [("event_view", _hides_only_loyalty), ("state_view", _shows_every_hand),
                                              ("knows", _spectator_knows_all)])
@pytest.mark.parametrize("check", [search_for_leaks, compare_with_other_secrets, RECORD_CHECK],
                         ids=["search", "differential", "record"])
def test_the_leak_checks_catch_a_policy_that_leaks(
    monkeypatch: pytest.MonkeyPatch, name: str, mutant: Callable[..., Any], check: Callable[..., Any]
) -> None:
    """Mutation: with any of these leaks put into the policy, each check above fails on the first random game
    that draws."""
    monkeypatch.setattr(visibility, name, mutant)
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
        assert_no_leak(visibility.state_view(state, None), state, "raven")


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
        assert visibility.state_view(mid, None)["loyalty"][society]["tokens"] is None
        assert visibility.state_view(mid, society)["loyalty"][society]["tokens"] is None


def _has_sealed(seed: int) -> bool:
    for _, _, state in randomgame.play(SOCIETIES, RULESETS[0], BOARD, seed=seed):
        if state.phase != "setup":
            return any(lo.tokens is None for lo in state.loyalty.values())
    return False
