"""The bundled recorded games in fixtures/games/: each replays, ends scored, holds the moves it was written to
show, and survives a round trip through the notation writer."""

from pathlib import Path
from typing import TypeVar

import pytest

from whispers.ledger.core import events as ev
from whispers.ledger.core.names import OFFICES
from whispers.ledger.core.words import trail_step
from whispers.ledger.io.game import Game, replay_lines
from whispers.projections.log import format_record

GAMES_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "games"
FILES = ("official-4p.txt", "official-2p.txt", "revised-3p.txt", "revised-3p-decrees.txt")
ORDERS = (ev.BannersRecruited, ev.CardsDrawn, ev.Attacked)
E = TypeVar("E", bound=ev.Event)


def lines_of(filename: str) -> list[str]:
    return (GAMES_DIR / filename).read_text(encoding="utf-8").splitlines()


def replay(filename: str) -> Game:
    return replay_lines(filename.removesuffix(".txt"), lines_of(filename))


def of_type(game: Game, kind: type[E]) -> list[E]:
    return [e for e in game.events if isinstance(e, kind)]


def next_event(game: Game, after: ev.Event, kind: type | tuple[type, ...] = ORDERS) -> ev.Event:
    """The first event of `kind` after `after` in the record."""
    start = game.events.index(after) + 1
    return next(e for e in game.events[start:] if isinstance(e, kind))


def scored(game: Game) -> ev.GameScored:
    last = game.events[-1]
    assert isinstance(last, ev.GameScored)
    return last


# --- every bundled game -------------------------------------------------------------------------------


def test_the_bundled_games_are_there() -> None:
    assert set(FILES) <= {p.name for p in GAMES_DIR.glob("*.txt")}


@pytest.mark.parametrize("filename", FILES)
def test_a_bundled_game_opens_with_a_comment_block_then_the_game_line(filename: str) -> None:
    lines = lines_of(filename)
    assert lines[0].startswith("# A War of Whispers")
    game_line = next(i for i, line in enumerate(lines) if line.startswith("game "))
    header = lines[:game_line]
    assert all(line.startswith("#") or not line.strip() for line in header)
    text = "\n".join(header)
    for part in ("Players:", "Ruleset:", "Summary:"):
        assert part in text
    # comments explain the play as it goes, not only in the header
    body = lines[len(header) :]
    assert sum(1 for line in body if line.startswith("#")) >= 40


@pytest.mark.parametrize("filename", FILES)
def test_a_bundled_game_replays_to_the_end_and_is_scored(filename: str) -> None:
    game = replay(filename)
    assert game.state.phase == "over" and game.state.over and game.state.scored
    assert game.state.round == 4
    result = scored(game)
    assert set(result.scores) == set(game.state.players)
    assert result.winner is not None or len(result.tied) >= 2
    if result.winner is not None:
        assert result.ranking[0] == result.winner and result.trail[-1] == {"step": "winner", "society": result.winner}
    # every loyalty is known at the end, sealed sets included
    assert all(loyalty.tokens is not None for loyalty in game.state.loyalty.values())


@pytest.mark.parametrize("filename", FILES)
def test_a_bundled_game_written_back_as_notation_replays_to_the_same_state(filename: str) -> None:
    game = replay(filename)
    written = list(format_record(game.events))
    again = replay_lines(game.name, written)
    assert again.state == game.state
    assert again.events == game.events
    # the engine's own events are comments when written: only moves are lines of notation
    moves = [line for line in written if line and not line.startswith("#")]
    assert len(moves) == 1 + sum(1 for e in game.events if e.MOVE or isinstance(e, ev.MoveTakenBack))


# --- official, four players -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def four() -> Game:
    return replay("official-4p.txt")


def test_four_players_official_with_a_sealed_loyalty_revealed_at_the_end(four: Game) -> None:
    assert four.state.players == ("raven", "spider", "rat", "serpent")
    assert four.state.ruleset.id == "official"
    recorded = {e.society: e.tokens for e in of_type(four, ev.LoyaltyRecorded)}
    assert set(recorded) == set(four.state.players)
    assert recorded["rat"] is None
    assert all(tokens is not None for society, tokens in recorded.items() if society != "rat")
    (revealed,) = of_type(four, ev.LoyaltyRevealed)
    assert revealed.society == "rat"
    assert four.events[-2] is revealed  # the reveal is the last move, and the engine scores at once


def test_four_players_swap_loyalty_and_draw_named_and_unnamed_cards(four: Game) -> None:
    swaps = of_type(four, ev.LoyaltySwapped)
    assert [s.society for s in swaps] == ["serpent"]
    assert swaps[0].slots == ("dutiful", "opposed")
    draws = [d for d in of_type(four, ev.CardsDrawn) if d.drawn]
    assert any(d.cards for d in draws), "some draws name their cards"
    assert any(not d.cards for d in draws), "some draws do not"
    named = {card for d in draws if d.society == "rat" for card in d.cards}
    assert {"lion:2", "lion:3", "lion:7", "eagle:4"} <= named


def test_four_players_play_cards_with_explicit_effects(four: Game) -> None:
    plays = of_type(four, ev.CardPlayed)
    assert len(plays) >= 2
    assert all(p.effects for p in plays)
    paid = [p for p in plays if p.pay]
    assert paid and paid[0].card == "lion:3" and paid[0].pay == ("eagle:4",) and paid[0].ability == 2
    assert paid[0].effects.add == (("horse", "ochre-plains", 3),)
    assert any(p.effects.move for p in plays)


def test_four_players_attack_and_conquer(four: Game) -> None:
    attacks = of_type(four, ev.Attacked)
    conquests = [a for a in attacks if a.held_by != a.empire and a.controller == a.empire]
    assert len(conquests) >= 5
    assert any(a.target == "amber-steppe" and a.empire == "bear" for a in conquests)


def test_four_players_swap_agent_on_a_chancellor_then_the_order_at_the_new_office(four: Game) -> None:
    swaps = of_type(four, ev.AgentSwapped)
    assert swaps
    for swap in swaps:
        assert swap.office == "chancellor"
        assert swap.options == (swap.target,)  # official: the target position's order
        order = next_event(four, swap)
        assert four.events[four.events.index(swap) + 1] is order
        assert (order.society, order.empire, order.office) == (swap.society, swap.empire, swap.target)
    displaced = [s for s in swaps if s.displaced is not None]
    assert displaced and displaced[0].displaced == "rat"


def test_four_players_discard_down_to_five_at_cleanup(four: Game) -> None:
    (discard,) = of_type(four, ev.CardsDiscarded)
    assert discard.society == "rat" and discard.cards == ("lion:2",)


def test_four_players_final_scores(four: Game) -> None:
    result = scored(four)
    assert {s: v["total"] for s, v in result.scores.items()} == {"raven": 49, "spider": 39, "rat": 51, "serpent": 44}
    assert result.winner == "rat"
    assert result.scores["serpent"]["swaps"] == 1


# --- official, two players ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def two() -> Game:
    return replay("official-2p.txt")


def test_two_players_place_three_agents_a_round(two: Game) -> None:
    assert two.state.players == ("spider", "serpent") and two.state.ruleset.id == "official"
    rounds: dict[tuple[int, str], int] = {}
    current = 0
    for event in two.events:
        if isinstance(event, ev.PhaseStarted):
            current = event.round
        if isinstance(event, ev.AgentDeployed):
            rounds[(current, event.society)] = rounds.get((current, event.society), 0) + 1
    assert rounds == {(r, s): 3 for r in range(1, 5) for s in two.state.players}
    assert all(len(two.state.agents_out(s)) == 9 for s in two.state.players)


def test_two_players_play_the_whole_game(two: Game) -> None:
    assert len(of_type(two, ev.Attacked)) >= 20
    assert len(of_type(two, ev.CardPlayed)) >= 2
    assert [s.society for s in of_type(two, ev.LoyaltySwapped)] == ["spider"]
    result = scored(two)
    assert {s: v["total"] for s, v in result.scores.items()} == {"spider": 58, "serpent": 57}
    assert result.winner == "spider"


# --- revised, three players, played for its decrees (issue 11) ----------------------------------------------


@pytest.fixture(scope="module")
def decrees() -> Game:
    return replay("revised-3p-decrees.txt")


def test_the_decree_game_plays_each_adjudicated_effect_it_was_written_for(decrees: Game) -> None:
    """Issue 11: the bundled revised game plays at least Succession Crisis, Hoard, Move Agent, Midnight Oil and an
    attack modified by a card, each named and adjudicated by the engine (no board change typed)."""
    played = {e.effect: e for e in of_type(decrees, ev.CardPlayed)}
    assert {"succession-crisis", "hoard", "move-agent", "midnight-oil", "add-3-to-attack", "reinforce",
            "use-position", "disperse"} <= set(played)
    assert of_type(decrees, ev.SupplySuspended) and of_type(decrees, ev.DeferredSupplyChecked)
    carried = [e for e in of_type(decrees, ev.Attacked) if e.cards]
    assert {tuple(e.cards) for e in carried} == {("reinforce",), ("add-3-to-attack",)}
    boosted = next(e for e in carried if e.cards == ("add-3-to-attack",))
    assert boosted.added == 3 and boosted.army == boosted.banners + 3 == 5 and boosted.controller == "elephant"
    reinforced = next(e for e in carried if e.cards == ("reinforce",))
    assert reinforced.reinforced == (("high-eyrie", 1),) and reinforced.army == 2
    # Midnight Oil: the Horse Marshal's recruit is carried out once more, out of sequence
    oil = played["midnight-oil"]
    first = next_event(decrees, oil)
    again = next_event(decrees, first)
    assert (first.empire, first.office) == (again.empire, again.office) == ("horse", "marshal")
    # Succession Crisis: the Horse Sheriff acts again after the Steward that drew it
    crisis = played["succession-crisis"]
    assert crisis.outcome == {"next": "sheriff"}
    following = next_event(decrees, crisis)
    assert (following.empire, following.office) == ("horse", "sheriff")


# --- revised, three players -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def three() -> Game:
    return replay("revised-3p.txt")


def test_three_players_revised_with_field_agents(three: Game) -> None:
    assert len(three.state.players) == 3 and three.state.ruleset.id == "revised"
    field = [d for d in of_type(three, ev.AgentDeployed) if "." not in d.where]
    assert {(d.society, d.where) for d in field} == {
        ("spider", "monsoon-delta"),
        ("rat", "goldcrown"),
        ("raven", "ice-hall"),
    }
    assert three.state.field_agents == {(d.society, d.where) for d in field}
    counted = {s: sum(e["field_agents"] for e in v["empires"].values()) for s, v in scored(three).scores.items()}
    assert counted == {"raven": 1, "spider": 1, "rat": 1}


def test_three_players_play_cards_before_orders(three: Game) -> None:
    plays = of_type(three, ev.CardPlayed)
    assert len(plays) >= 3 and all(p.effects for p in plays)
    for play in plays:  # revised: a decree is played before the player's own order, never after one
        assert next_event(three, play).society == play.society


def test_three_players_take_back_a_mistaken_move(three: Game) -> None:
    (undo,) = of_type(three, ev.MoveTakenBack)
    at = three.events.index(undo)
    mistaken, corrected = three.events[undo.move - 1], three.events[at + 1]
    assert three.events[at - 1] is mistaken  # taken back right after it was entered
    assert isinstance(mistaken, ev.BannersRecruited) and isinstance(corrected, ev.BannersRecruited)
    assert (mistaken.society, mistaken.empire, mistaken.office) == (
        corrected.society,
        corrected.empire,
        corrected.office,
    )
    assert mistaken.placed != corrected.placed
    assert undo.reason.startswith("recorder slip")


def test_three_players_a_table_count_and_a_ruling(three: Game) -> None:
    checks = of_type(three, ev.TableChecked)
    assert len(checks) == 2
    assert checks[0].mismatches == {"monsoon-delta": (1, 0)}
    assert checks[1].mismatches == {}
    (ruling,) = of_type(three, ev.RulingApplied)
    assert ruling.reason.startswith("TD: ")
    assert ruling.effects.kill == (("monsoon-delta", "elephant", 1),)
    assert three.events.index(checks[0]) < three.events.index(ruling) < three.events.index(checks[1])


def test_three_players_a_failed_attack_into_a_fort(three: Game) -> None:
    # an attack that would win in open country (more attackers than defenders) but loses to the fort
    failed = [
        a
        for a in of_type(three, ev.Attacked)
        if a.fort_kill == 1 and a.banners > a.defending >= 2 and a.controller == a.held_by
    ]
    assert failed
    first = failed[0]
    assert (first.empire, first.target, first.banners, first.defending) == ("eagle", "hollow-pines", 3, 2)
    assert first.held_by == first.controller == "bear"
    assert first.attacker_losses == first.banners  # the fort killed one, the other two traded off


def test_three_players_swap_agent_with_another_agent_then_the_council_ends(three: Game) -> None:
    (swap,) = of_type(three, ev.AgentSwapped)
    assert swap.office == "chancellor" and swap.displaced is not None and swap.displaced != swap.society
    order = three.events[three.events.index(swap) + 1]
    assert isinstance(order, ORDERS)
    assert order.society == swap.society and order.office in swap.options
    # the council is over after that order: the supply check comes next, no other office of that empire acts
    after = three.events[three.events.index(order) + 1]
    assert isinstance(after, ev.SupplyChecked) and after.empire == swap.empire
    assert OFFICES.index(order.office) < OFFICES.index(swap.office) == len(OFFICES) - 1


def test_three_players_end_in_a_recorded_tie(three: Game) -> None:
    result = scored(three)
    assert {s: v["total"] for s, v in result.scores.items()} == {"raven": 60, "spider": 60, "rat": 46}
    assert result.winner is None and result.tied == ("raven", "spider")
    assert trail_step(result.trail[-1]) == "still tied after every tie-break: no winner"
    assert all(v["concealed"] == 5 and v["concealed_points"] == 5 for v in result.scores.values())


@pytest.mark.parametrize("filename", FILES)
def test_each_file_is_the_game_its_name_says(filename: str) -> None:
    game = replay(filename)
    ruleset, players = filename.removesuffix(".txt").split("-")[:2]
    assert game.state.ruleset.id == ruleset
    assert len(game.state.players) == int(players.removesuffix("p"))
