"""A game's card sets and card sheet (issue 11): named and pinned at its start, travelling with its record, and
what a play is checked against with them: the card's effects and cost, the card set, and an instant decree's card
against the cards just drawn. Also each timing window on its legal and illegal side not covered in
tests/test_decree_plays.py."""

from pathlib import Path
from typing import Any

import pytest
from support import apply, assert_refused, hands, one, position, unmatched_instant_decree_facts
from test_rules import office_state

from whispers.ledger.core import events as ev
from whispers.ledger.core.errors import DecreeError, RuleError
from whispers.ledger.core.notation import parse_line
from whispers.ledger.io.decree_files import load_sheet
from whispers.ledger.io.game import replay_lines
from whispers.ledger.io.verify import verify
from whispers.projections.log import format_record

STEWARD_ONLY = {"elephant.steward": "raven", "lion.sheriff": "serpent"}
EXAMPLE = load_sheet("example").to_data()


def _drew(drawn: str = "elephant:5", held: tuple[str, ...] = (), ruleset: str = "revised", **changes: Any):
    """Raven has just drawn with the Elephant Steward's draw order (one card, named as `drawn`)."""
    state = hands(office_state("elephant", "steward", dict(STEWARD_ONLY), ruleset=ruleset), raven=list(held))
    after, _ = apply(position(state, **changes), f"raven draw {drawn}".strip())
    return after


# --- with a card sheet ---------------------------------------------------------------------------------------


def test_with_a_sheet_the_card_must_carry_the_effect_EN_382() -> None:
    """With a card sheet pinned, the played card must carry the effect named (the sheet is the printed card)."""
    state = hands(office_state("lion", "sheriff"), raven=["lion:1", "lion:2", "lion:5"])
    sheet = position(state, cards=EXAMPLE)
    assert_refused(sheet, "raven play lion:2 effect=midnight-oil", "lion:2 does not carry midnight-oil")
    _, events = apply(sheet, "raven play lion:5 effect=midnight-oil")
    assert one(events, ev.CardPlayed).effect == "midnight-oil"
    # the same play without a sheet is taken on trust: no card of the Lion deck is told apart
    apply(state, "raven play lion:2 effect=midnight-oil")


def test_with_a_sheet_the_payment_matches_the_cost_the_played_card_counting_and_treasure_wild_EN_382_REV_315() -> None:
    """EN 382: "The first ability on each card can be played without discarding additional cards ... The card you
    are playing counts as a "discard" for this payment." REV 315: Treasure "can be discarded to pay for any one
    symbol of another card's cost". The example sheet's lion:8 second effect, Midnight oil, costs Lion + Elephant:
    lion:8 itself and one Elephant card (or a Treasure)."""
    held = ["lion:8", "elephant:1", "elephant:2", "horse:7", "bear:1"]
    state = position(hands(office_state("lion", "sheriff"), raven=held), cards=EXAMPLE)
    assert_refused(state, "raven play lion:8 effect=midnight-oil", "the payment is 1 more card, for elephant")
    assert_refused(state, "raven play lion:8 effect=midnight-oil pay=bear:1", "bear:1 pays nothing")
    assert_refused(state, "raven play lion:8 effect=midnight-oil pay=elephant:1,elephant:2", "pays nothing")
    assert_refused(state, "raven play lion:8 effect=midnight-oil pay=elephant:1,horse:7", "1 Treasure card too many")
    after, events = apply(state, "raven play lion:8 effect=midnight-oil pay=elephant:1")
    assert one(events, ev.CardPlayed).pay == ("elephant:1",)
    assert sorted(after.hands["raven"].known) == ["bear:1", "elephant:2", "horse:7"]
    after, _ = apply(state, "raven play lion:8 effect=midnight-oil pay=horse:7")  # Treasure pays the Elephant
    assert after.hands["raven"].size == 3


def test_with_a_sheet_an_unnamed_card_cannot_have_its_cost_checked_and_verify_says_so() -> None:
    """A play of a card the record does not name (`lion`) is accepted, and what could not be checked is said."""
    from whispers.ledger.core.card_checks import check_card
    from whispers.ledger.io.decree_files import shipped_catalogue

    state = position(hands(office_state("lion", "sheriff"), raven=["lion"]), cards=EXAMPLE)
    apply(state, "raven play lion effect=midnight-oil")
    notes = check_card(state, "midnight-oil", "lion", (), shipped_catalogue()).unchecked
    assert notes == ("midnight-oil: the record does not say which lion card was played, so its cost could not "
                     "be checked",)


def test_with_a_sheet_the_cards_are_the_sheets_in_the_sets_the_game_plays_EN_103() -> None:
    """EN 103-104: 8 cards per empire; the Dark alliances cards follow them (numbered from 9 on a sheet). With a
    sheet, a card is one of the sheet's in the game's card sets, and each deck holds as many as the sheet says."""
    from whispers.ledger.core.evolve import evolve
    from whispers.ledger.core.notation import Header
    from whispers.ledger.io.game import setup

    started = setup("g", Header("revised", "standin", ("raven", "rat"), None, "example", ("dark-alliances",)))
    state = evolve(None, started)
    assert state.decks["elephant"].draw == 12 and state.decks["bear"].draw == 10 and state.decks["lion"].draw == 9
    base = evolve(None, setup("g", Header("revised", "standin", ("raven", "rat"), None, "example")))
    assert base.decks["elephant"].draw == 8
    drew = _drew(drawn="elephant:9", held=("elephant:2",), cards=EXAMPLE)
    after, _ = apply(drew, "raven play elephant:9 effect=hoard pay=elephant:2")  # hoard is elephant:9's second
    assert after.lasting == ("hoard",)
    assert_refused(drew, "raven play elephant:9 effect=hoard", "the payment is 1 more card, for elephant")
    refused = hands(office_state("elephant", "steward", dict(STEWARD_ONLY), ruleset="revised"), raven=[])
    assert_refused(position(refused, cards=EXAMPLE, card_sets=("base",)), "raven draw elephant:9",
                   "not on this game's card sheet, in the card sets it plays (base)")


# --- card sets -----------------------------------------------------------------------------------------------


def test_dark_alliances_decrees_are_refused_unless_the_game_names_that_set_REV_290() -> None:
    """REV 290: the (I) decrees come with the expansion's Dark alliances cards; a game without that set refuses them
    (digest §8 item 38), and still plays the base set's."""
    base = _drew(card_sets=("base",))
    # without the set no instant can have been drawn, so nothing may follow the executed draw (REV 300)
    assert_refused(base, "raven play elephant:5 effect=hoard", "may not play a card now")
    steward = position(hands(office_state("elephant", "steward", ruleset="revised"), raven=["elephant:5"]),
                       card_sets=("base",))
    assert_refused(steward, "raven play elephant:5 effect=hoard", "dark-alliances decree, and this game plays without")
    both = _drew(card_sets=("base", "dark-alliances"))
    after, _ = apply(both, "raven play elephant:5 effect=hoard")
    assert after.lasting == ("hoard",)
    lion = position(hands(office_state("lion", "sheriff", ruleset="revised"), raven=["lion:2"]), card_sets=("base",))
    apply(lion, "raven play lion:2 effect=midnight-oil")


def test_a_game_line_names_its_card_sets_and_sheet_and_a_game_started_before_them_upcasts() -> None:
    """The game line says `cards=SHEET card-set=dark-alliances`; a GameStarted of version 2 (before either existed)
    reads as no sheet and both card sets, since the engine then allowed every effect: its plays still verify."""
    header = parse_line("game ruleset=revised players=raven,rat,spider cards=example card-set=dark-alliances")
    assert (header.cards, header.card_sets) == ("example", ("dark-alliances",))
    assert parse_line("game players=raven,rat cards=a cards=b").cards == "a"  # the first value counts
    game = replay_lines("g", ["game ruleset=revised players=raven,rat,spider"])
    started = game.events[0]
    assert started.card_sets == ("base",) and started.cards is None
    fact = started.to_fact()
    assert fact["class_version"] == 3
    old = {k: v for k, v in fact.items() if k not in ("card_sets", "cards", "cards_hash")} | {"class_version": 2}
    upcast = ev.from_fact(old)
    assert upcast.card_sets == ("base", "dark-alliances") and upcast.cards is None and upcast.cards_hash is None


def test_an_unknown_card_set_or_sheet_is_refused_at_the_start() -> None:
    with pytest.raises(RuleError, match="unknown card set 'dark'"):
        replay_lines("g", ["game players=raven,rat card-set=dark"])
    with pytest.raises(DecreeError, match="no shipped card sheet of that id"):
        replay_lines("g", ["game players=raven,rat cards=our-club"])


# --- the sheet travels with the game -------------------------------------------------------------------------


def _example_text() -> str:
    from importlib import resources

    return (resources.files("whispers.fixtures") / "cards" / "example.toml").read_text()


def _game_with_a_custom_sheet(folder: Path) -> list[str]:
    """A club's own sheet, our-club.toml in `folder` (the example's cards under an id of its own)."""
    text = _example_text().replace('id = "example"', 'id = "our-club"').replace("example = true\n", "")
    (folder / "our-club.toml").write_text(text)
    return ["game ruleset=revised players=raven,spider,rat first=raven cards=our-club card-set=dark-alliances"]


def test_a_custom_sheet_is_embedded_in_the_record_verified_and_written_in_the_log(tmp_path) -> None:
    """The sheet travels with the game like the board: the record embeds it, so verify needs no file, and the log's
    game line names it (`cards=our-club`), with a comment that import looks for our-club.toml beside the log."""
    from whispers.ledger.io import recordfile

    game = replay_lines("g", _game_with_a_custom_sheet(tmp_path), beside=tmp_path)
    started = game.events[0]
    assert started.cards is not None and started.cards["id"] == "our-club"
    facts = [e.to_fact() for e in game.events]
    data = recordfile.dumps("g", facts)
    _header, read, _notes = recordfile.loads(data, "g.whispers")
    verified = verify(read, "g.whispers")
    assert verified.cards is not None and verified.cards.status == "custom"
    assert verified.state.cards == started.cards
    log = list(format_record(game.events, comments=False))
    assert any("cards custom:our-club" in line and "our-club.toml beside" in line for line in log)
    assert any(line.startswith("game ") and "cards=our-club card-set=dark-alliances" in line for line in log)
    again = replay_lines("g", [line for line in log if not line.startswith("#")], beside=tmp_path)
    assert [e.to_fact() for e in again.events] == facts
    # a sheet that is not valid does not stand in a record
    broken = [{**facts[0], "cards": {**facts[0]["cards"], "decks": {}}}, *facts[1:]]
    with pytest.raises(Exception, match="does not stand"):
        verify(broken, "g")


def test_a_shipped_sheet_claimed_with_other_content_is_refused_without_allow_modified(tmp_path) -> None:
    """A sheet that says it is the shipped example with other content is refused, as a board or ruleset is."""
    sheet = tmp_path / "example.toml"
    original = _example_text()
    sheet.write_text(original.replace("{ effect = \"extra-attack\", cost = { bear = 1, elephant = 2 } }",
                                      "{ effect = \"extra-attack\", cost = { bear = 2 } }"))
    assert sheet.read_text() != original
    with pytest.raises(DecreeError, match="is not the shipped example"):
        replay_lines("g", [f"game players=raven,rat cards={sheet}"])
    game = replay_lines("g", [f"game players=raven,rat cards={sheet}"], allow_modified=True)
    assert game.events[0].cards["decks"]["bear"]["1"]["effects"][1]["cost"] == {"bear": 2}


# --- an instant decree is one of the cards just drawn --------------------------------------------------------


def test_an_instant_decree_is_one_of_the_cards_just_drawn_REV_296() -> None:
    """REV 296: "(I) effects must be played immediately as the decree is drawn by the player who drew it." The card
    played is one of those the draw named; the draw's deck is always known."""
    drew = _drew(drawn="elephant:5", held=("elephant:6",))
    assert_refused(drew, "raven play elephant:6 effect=hoard", "elephant:6 is not one of the cards raven has just "
                   "drawn (elephant:5)")
    after, _ = apply(drew, "raven play elephant:5 effect=hoard")
    assert after.lasting == ("hoard",)
    unnamed_held = _drew(drawn="elephant:5", held=("elephant",))
    assert_refused(unnamed_held, "raven play elephant effect=hoard", "raven has just drawn elephant:5: name the one")
    horse = _drew(drawn="elephant:5", held=("horse:4",))
    assert_refused(horse, "raven play horse:4 effect=nomadic-life", "has just drawn elephant cards, not horse")


def test_a_dark_alliances_card_just_drawn_is_played_before_any_other_move_REV_290() -> None:
    """REV 290: "Dark alliances decrees are instant effects that must be resolved immediately (I)." With a card
    sheet (which says the card is of that set) and a draw that names it, the drawer owes its play: every other move
    is refused, the prompt offers only that play, and once it is played the game goes on. A base card drawn owes
    nothing, and without a sheet nothing is known to be owed."""
    from whispers.ledger.core.prompt import prompt

    drew = _drew(drawn="elephant:9", held=("elephant:2",), cards=EXAMPLE)
    assert drew.card_sets == ("base", "dark-alliances")
    assert_refused(drew, "serpent attack golden-reach saltmarsh 1", "raven has just drawn elephant:9, a Dark "
                   "alliances decree: it is played at once, before any other move (REV 290)")
    assert_refused(drew, "raven play elephant:2 effect=recruit", "it is played at once")
    asked = prompt(drew)
    assert [(o.verb, o.society) for o in asked.options] == [("play", "raven")]
    assert "elephant:9" in asked.note
    after, _ = apply(drew, "raven play elephant:9 effect=trade")
    assert after.lasting == ("trade",) and "played at once" not in prompt(after).note
    base = _drew(drawn="elephant:5", held=("elephant:2",), cards=EXAMPLE)
    assert "played at once" not in prompt(base).note
    no_sheet = _drew(drawn="elephant:5", held=("elephant:2",))  # no sheet: which set a card is of is unknown
    assert no_sheet.card_sets == ("base", "dark-alliances") and "played at once" not in prompt(no_sheet).note


def test_an_instant_decree_after_a_draw_the_record_does_not_name_is_accepted_and_verify_says_so_REV_296() -> None:
    """When the draw names no card, whether the card played is one of them cannot be told: verify says so."""
    from whispers.ledger.core.card_checks import check_drawn
    from whispers.ledger.io.decree_files import shipped_catalogue

    drew = _drew(drawn="", held=("elephant:6",))
    assert drew.drawn == ("elephant", (), 1)
    apply(drew, "raven play elephant:6 effect=hoard")
    notes = check_drawn(drew, "raven", "hoard", "elephant:6", shipped_catalogue()).unchecked
    assert notes == ("hoard: the record does not name every card raven drew, so whether elephant:6 was one of them "
                     "could not be checked (REV 296)",)


def test_verify_lists_an_instant_decree_it_could_not_match_to_the_draw() -> None:
    verified = verify(unmatched_instant_decree_facts(), "sc")
    assert any("no card sheet" in note for note in verified.unchecked)
    assert any("does not name every card raven drew" in note for note in verified.unchecked)


# --- timing windows: the sides tests/test_decree_plays.py does not cover -------------------------------------


def test_official_before_only_effects_are_not_played_after_the_action_EN_380_EN_434() -> None:
    """EN 380 (before, during, or immediately after); EN 434: Use position is played before the action it
    replaces, so not once the action is taken."""
    council = {"lion.sheriff": "raven", "lion.steward": "spider", "horse.sheriff": "serpent",
               "bear.sheriff": "raven"}
    state = hands(office_state("lion", "sheriff", council), raven=["lion:1", "lion:2"])
    _, events = apply(state, "raven play lion:1 effect=use-position position=bear.sheriff")
    assert one(events, ev.CardPlayed).act == "bear.sheriff"
    after, _ = apply(state, "raven recruit goldcrown=3")
    assert_refused(after, "raven play lion:2 effect=use-position position=bear.sheriff", "played before an action")


def test_official_when_drawn_effects_are_played_by_the_one_who_just_drew_EN_380() -> None:
    """The official column of the instant decrees is `when-drawn`: by the society that has just drawn, not by one
    whose order is to come."""
    state = hands(office_state("elephant", "steward", dict(STEWARD_ONLY)), raven=["elephant:6"])
    assert_refused(state, "raven play elephant:6 effect=hoard", "at once when drawn", "EN")
    drew = _drew(drawn="elephant:5", held=(), ruleset="official")
    after, _ = apply(drew, "raven play elephant:5 effect=trade")
    assert after.lasting == ("trade",)


def test_revised_decrees_are_the_acting_or_drawing_societys_own_REV_292_296() -> None:
    """REV 292-294: G and M by the player whose agent's order is to come; REV 296: an (I) decree by the player who
    drew it. Another society at the table plays neither."""
    drew = hands(_drew(drawn="elephant:5"), spider=["elephant:6"])
    assert_refused(drew, "spider play elephant:6 effect=hoard", "may not play a card now")
    state = hands(office_state("lion", "sheriff", {"lion.sheriff": "raven", "horse.sheriff": "serpent"},
                               ruleset="revised"), serpent=["lion:2"])
    assert_refused(state, "serpent play lion:2 effect=midnight-oil", "may not play a card now")


# --- the command line ----------------------------------------------------------------------------------------


def test_new_with_cards_and_a_card_set_and_verify_saying_what_it_pins(tmp_path: Path) -> None:
    """`whispers new ... --cards SHEET --card-set dark-alliances`; a bad sheet or set is one line, exit 2, and no
    game; `verify` names the sheet (or says there is none) and the card sets."""
    from test_cli import invoke, ok, refused

    store = f"sqlite:///{tmp_path / 'w.db'}"
    out = ok(invoke(store, "new", "g", "--players", "raven,rat", "--ruleset", "revised", "--cards", "example",
                    "--card-set", "dark-alliances"))
    assert "the base and dark-alliances sets; card sheet example (a MADE-UP example" in out
    refused(invoke(store, "new", "h", "--players", "raven,rat", "--cards", "nope"), "no shipped card sheet")
    refused(invoke(store, "new", "h", "--players", "raven,rat", "--card-set", "dark"), "unknown card set 'dark'")
    assert "h" not in ok(invoke(store, "games")).split()
    verified = ok(invoke(store, "verify", "g"))
    assert "cards: example — the shipped example" in verified and "card sets: base, dark-alliances" in verified
    ok(invoke(store, "new", "plain", "--players", "raven,rat"))
    assert "cards: no card sheet pinned" in ok(invoke(store, "verify", "plain"))
    assert "cards=example card-set=dark-alliances" in ok(invoke(store, "log", "g"))


def test_two_games_set_up_with_other_cards_are_told_apart() -> None:
    """A compare of two records says when their card sets or card sheets differ (they are not forks of one game)."""
    from whispers.projections.forks import setup_differences

    a = replay_lines("a", ["game ruleset=revised players=raven,rat"]).events[0]
    b = replay_lines("b", ["game ruleset=revised players=raven,rat cards=example card-set=dark-alliances"]).events[0]
    found = setup_differences(a, b, "a", "b")
    assert found["card_sets"] == {"a": ["base"], "b": ["base", "dark-alliances"]}
    assert found["cards"] == {"a": None, "b": "example"}
    assert setup_differences(b, b, "b", "c") == {}


def test_the_prompt_offers_each_card_the_effects_it_may_play_now_REV_296() -> None:
    """The prompt's play option names, per card in the hand, the effects it may play now: its deck's, or with a
    sheet the card's own; an instant decree only on the card just drawn (REV 296); only the game's card sets."""
    from whispers.ledger.core.prompt import prompt
    from whispers.ledger.io.decree_files import shipped_catalogue

    def cards(state) -> dict[str, tuple[str, ...]]:
        play = next(o for o in prompt(state, shipped_catalogue).options if o.verb == "play" and o.society == "raven")
        return play.choices["cards"]

    drew = _drew(drawn="elephant:5", held=("elephant:6",))
    offered = cards(drew)
    assert "hoard" in offered["elephant:5"] and "hoard" not in offered["elephant:6"]
    base = _drew(drawn="elephant:5", card_sets=("base",))  # no instant drawn: no play follows the draw (REV 300)
    assert not any(o.verb == "play" for o in prompt(base, shipped_catalogue).options)
    sheet = _drew(drawn="elephant:9", held=("elephant:5",), cards=EXAMPLE)
    assert set(cards(sheet)["elephant:9"]) == {"trade", "hoard"}  # the example prints trade and hoard on it
    lion = position(hands(office_state("lion", "sheriff"), raven=["lion:5", "lion:2"]), cards=EXAMPLE)
    assert "midnight-oil" in cards(lion)["lion:5"] and "midnight-oil" not in cards(lion)["lion:2"]


def test_with_a_sheet_a_play_by_ability_number_is_checked_against_that_ability_EN_382() -> None:
    """A play that names the ability by number (`ability=2`, the notation before issue 11) and no effect: with a
    sheet, the card has that ability and the payment matches its cost (EN 382). The example's lion:8 ability 2 is
    Midnight oil, costing lion:8 and one Elephant card."""
    state = position(hands(office_state("lion", "sheriff"), raven=["lion:8", "elephant:1"]), cards=EXAMPLE)
    assert_refused(state, "raven play lion:8 ability=2", "the payment is 1 more card, for elephant")
    assert_refused(state, "raven play lion:8 ability=3", "lion:8 has 2 abilities, not an ability 3")
    after, _ = apply(state, "raven play lion:8 ability=2 pay=elephant:1")
    assert after.hands["raven"].size == 0
    treasure = position(hands(office_state("lion", "sheriff"), raven=["lion:7"]), cards=EXAMPLE)
    assert_refused(treasure, "raven play lion:7 ability=1", "never played")
    apply(position(treasure, cards=None), "raven play lion:7 ability=1")  # without a sheet, as before


@pytest.mark.parametrize("ability", [0, -1, -3, 3])
def test_a_card_sheet_s_card_has_no_ability_0_nor_one_past_its_last_EN_382(ability: int) -> None:
    """The sheet's own check, apart from the engine's general one: ability 0 is no ability (Python's [-1] would
    play the second), paid exactly as the second costs so that only the number can refuse it."""
    from whispers.ledger.core.card_checks import check_ability
    from whispers.ledger.io.decree_files import shipped_catalogue

    state = position(hands(office_state("lion", "sheriff"), raven=["lion:8", "elephant:1"]), cards=EXAMPLE)
    with pytest.raises(DecreeError, match=f"lion:8 has 2 abilities, not an ability {ability} "):
        check_ability(state, "lion:8", ability, ("elephant:1",), shipped_catalogue())
    treasure = position(hands(office_state("lion", "sheriff"), raven=["lion:7"]), cards=EXAMPLE)
    with pytest.raises(DecreeError, match="lion:7 has 1 ability, not an ability 2 "):
        check_ability(treasure, "lion:7", 2, (), shipped_catalogue())


@pytest.mark.parametrize("ability", [0, -3, 3])
def test_without_a_card_sheet_a_play_by_ability_names_ability_1_or_2_EN_382(ability: int) -> None:
    """Issue 31: `raven play lion:8 ability=0` and `ability=-3` were recorded without a sheet."""
    state = position(hands(office_state("lion", "sheriff"), raven=["lion:8", "elephant:1"]), cards=None)
    assert_refused(state, f"raven play lion:8 ability={ability}", f"ability={ability} names none")
    for fine in (1, 2):
        apply(state, f"raven play lion:8 ability={fine}")


# --- what the faces offer (issue 33) ---------------------------------------------------------------------------


def test_the_card_choices_come_from_the_games_decks_less_the_cards_seen_in_a_hand_EN_103() -> None:
    """The cards a draw may name, for every face (application.reading.card_choices): the deck's cards in this game
    (EN 103-104: 8 a deck; a card sheet adds the Dark alliances set's 9-12 when the game plays it), less those the
    viewer sees in a hand. Read from the viewer's view: a seat's choices do not change with another seat's secret
    cards (the record's do)."""
    from whispers.application.reading import card_choices, status_of

    state = hands(office_state("elephant", "steward", dict(STEWARD_ONLY), ruleset="revised"),
                  raven=["elephant:3", "lion:1"])
    record = status_of(state).view
    assert card_choices(record, "elephant") == [f"elephant:{n}" for n in (1, 2, 4, 5, 6, 7, 8)]
    sheet = status_of(position(state, cards=EXAMPLE)).view
    assert card_choices(sheet, "elephant") == [f"elephant:{n}" for n in (1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12)]
    base = status_of(position(state, cards=EXAMPLE, card_sets=("base",))).view
    assert card_choices(base, "elephant")[-1] == "elephant:8"
    other = hands(state, raven=["elephant:4", "lion:1"])
    assert card_choices(status_of(other).view, "elephant") != card_choices(record, "elephant")
    assert card_choices(status_of(other, "serpent").view, "elephant") == card_choices(status_of(state, "serpent").view,
                                                                                        "elephant")
    assert card_choices(status_of(state, "raven").view, "elephant") == card_choices(record, "elephant")


def test_the_recorder_completes_a_draw_with_the_cards_the_game_may_draw_EN_103() -> None:
    """The guided recorder (the whole record) completes `raven draw` with the same choices: the sheet's 1-12 of the
    Elephant deck in a game playing both sets, less the card the record knows raven holds."""
    from types import SimpleNamespace

    from whispers.application.recording import next_move
    from whispers.cli.recorder import legal_words

    state = hands(office_state("elephant", "steward", dict(STEWARD_ONLY), ruleset="revised"), raven=["elephant:3"])
    words = legal_words(next_move(SimpleNamespace(state=position(state, cards=EXAMPLE))), ["raven", "draw"])
    assert {w for w in words if w.startswith("elephant:")} == {f"elephant:{n}" for n in range(1, 13) if n != 3}
