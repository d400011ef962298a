"""Decree plays that name a catalogue effect (`play CARD effect=ID ...`): the checks of deck, payment, parameters
and timing per ruleset, and the effects the engine adjudicates (issue 11)."""

import pytest
from support import apply, assert_refused, hands, one, position, with_banners
from test_rules import office_state, options

from whispers.ledger.core import events as ev
from whispers.ledger.core import rules
from whispers.ledger.core.errors import RuleError
from whispers.ledger.core.legal import recruit_count
from whispers.ledger.core.notation import format_event, parse_line
from whispers.ledger.core.state import TURN_DONE

STEWARD_ONLY = {"elephant.steward": "raven", "lion.sheriff": "serpent"}
"""Raven holds the Elephant Steward (a draw order); serpent's agent stops the engine in Lion's council."""


def _drew(ruleset: str = "revised", drawn: str = "elephant:5", held: tuple[str, ...] = ()):
    """Raven has just drawn `drawn` with the Elephant Steward's draw order (one card)."""
    state = hands(office_state("elephant", "steward", dict(STEWARD_ONLY), ruleset=ruleset), raven=list(held))
    after, _ = apply(state, f"raven draw {drawn}")
    assert after.last_was_draw and after.last_actor == "raven"
    return after


# --- notation ------------------------------------------------------------------------------------------------


def test_a_play_names_its_effect_and_parameters_and_its_log_line_reads_back() -> None:
    """Issue 11: `SOCIETY play CARD effect=ID [PARAM=VALUE ...] [pay=CARD,...]`."""
    command = parse_line("raven play horse:4 effect=move-army from=saltmarsh to=windmoor n=2 pay=treasure:1")
    assert command.effect == "move-army"
    assert command.params == (("from", "saltmarsh"), ("to", "windmoor"), ("n", "2"))
    played = ev.CardPlayed("raven", "horse:4", None, ("horse:1",), ev.Effects(), None, "move-army",
                           {"from": "saltmarsh", "to": "windmoor", "n": "2"})
    line = format_event(played)
    assert line == "raven play horse:4 effect=move-army from=saltmarsh to=windmoor n=2 pay=horse:1"
    again = parse_line(line)
    assert (again.effect, again.params, again.pay) == ("move-army", command.params, ("horse:1",))


def test_a_parameter_without_an_effect_is_refused() -> None:
    from whispers.ledger.core.errors import NotationError

    with pytest.raises(NotationError, match="unexpected 'region=x'"):
        parse_line("raven play lion:2 region=x")


def test_a_play_stored_before_issue_11_upcasts_to_no_effect() -> None:
    """Old records (CardPlayed version 1) still load: no effect, no parameters."""
    fact = {"type": "CardPlayed", "society": "raven", "card": "lion:2", "ability": 1, "pay": [],
            "effects": {"add": [], "kill": [], "move": [], "agent": []}, "act": None}
    event = ev.from_fact(fact)
    assert event.effect is None and event.params == {}
    assert ev.from_fact(event.to_fact()) == event


# --- Hoard ---------------------------------------------------------------------------------------------------


def test_hoard_suspends_the_supply_checks_of_the_round_and_the_deferred_check_runs_before_the_next_REV_355() -> None:
    """REV 355: "(I) Bountiful Harvest - Hoard: Discard this decree only at the end of the turn; put it next to the
    board for the duration of the turn. Ignore supply checks until the end of the turn. Perform a supply check
    before the beginning of the next turn." The turn is read as the round (digest §8 item 37)."""
    state = _drew()
    state = with_banners(state, {"jade-terraces": ("elephant", 7)})  # revised limit 4: 3 over
    after, events = apply(state, "raven play elephant:5 effect=hoard")
    played = one(events, ev.CardPlayed)
    assert (played.effect, played.params) == ("hoard", {})
    suspended = one(events, ev.SupplySuspended)
    assert suspended == ev.SupplySuspended("elephant", "hoard")
    assert not any(isinstance(e, ev.SupplyChecked) for e in events)
    assert after.banners["jade-terraces"] == ("elephant", 7)
    assert after.lasting == ("hoard",) and after.supply_owed == ("elephant",)
    # the last empire's turn is over: the deferred check comes before the round ends
    end = position(after, empire_index=len(after.board.empires) - 1, office_index=TURN_DONE)
    events = rules.advance(end)
    deferred = events[0]
    assert isinstance(deferred, ev.DeferredSupplyChecked)
    assert deferred.empires == ("elephant",) and deferred.losses["jade-terraces"] == ("elephant", 3)
    assert isinstance(events[1], ev.RoundEnded)
    done = end
    for event in events:
        done = rules.evolve(done, event)
    assert done.banners["jade-terraces"] == ("elephant", 4) and done.supply_owed == () and done.lasting == ()


def test_hoard_is_refused_off_the_elephant_deck_twice_in_a_round_or_with_typed_changes_REV_355() -> None:
    """REV 355 puts Bountiful Harvest in the Elephant deck; it lasts "for the duration of the turn", so a second
    Hoard adds nothing; the engine adjudicates it, so no board change is typed."""
    state = _drew(held=("elephant:6", "lion:1"))
    assert_refused(state, "raven play lion:1 effect=hoard", "hoard is on no lion card", "REV")
    assert_refused(state, "raven play elephant:5 effect=hoard add=elephant:jade-terraces:1", "adjudicated by")
    assert_refused(state, "raven play elephant:5 effect=hoard region=jade-terraces", "hoard takes no region=")
    assert_refused(position(state, lasting=("hoard",)), "raven play elephant:5 effect=hoard", "already lasts")
    assert_refused(state, "raven play elephant:5 effect=hoard pay=elephant:5", "does not hold elephant:5")


# --- Trade ---------------------------------------------------------------------------------------------------


def test_trade_counts_every_farm_twice_for_the_rest_of_the_round_REV_353() -> None:
    """REV 353: "(I) Bountiful Harvest - Trade: ... put it next to the board for the duration of the turn. Whenever
    a farm icon is considered for an action, count relevant farms twice each.\""""
    state = _drew()
    before = recruit_count(state, "elephant", "recruit_per_farm")
    after, events = apply(state, "raven play elephant:5 effect=trade")
    assert one(events, ev.CardPlayed).effect == "trade"
    assert after.lasting == ("trade",)
    assert recruit_count(after, "elephant", "recruit_per_farm") == 2 * before == 4
    # the next Elephant Sheriff's recruit (per farm) in this round offers twice as many banners
    sheriff = position(after, empire_index=after.board.empires.index("elephant"), office_index=0,
                       council={("elephant", "sheriff"): "raven", ("lion", "sheriff"): "serpent"},
                       last_actor=None, last_was_draw=False)
    assert options(sheriff, "recruit")[0].choices["amount"] == 4
    # the round's end takes the card away
    ended = rules.evolve(after, ev.RoundEnded(after.round))
    assert ended.lasting == () and recruit_count(ended, "elephant", "recruit_per_farm") == before


# --- payment and catalogue -----------------------------------------------------------------------------------


def test_treasure_is_never_played_and_an_unknown_effect_is_refused_REV_315() -> None:
    """REV 315: "Treasure: This is a wild card that can be discarded to pay for any one symbol of another card's
    cost." It is never played for an effect of its own."""
    state = _drew()
    assert_refused(state, "raven play elephant:5 effect=treasure", "never played")
    assert_refused(state, "raven play elephant:5 effect=dragon-fire", "unknown effect")


def test_the_cards_paid_leave_the_hand_and_must_be_in_it_EN_382() -> None:
    """EN 382: "The card you are playing counts as a "discard" for this payment." Cards paid are in the hand."""
    state = _drew(held=("lion:1",))
    assert_refused(state, "raven play elephant:5 effect=trade pay=horse:2", "raven holds no horse card")
    after, events = apply(state, "raven play elephant:5 effect=trade pay=lion:1")
    assert one(events, ev.CardPlayed).pay == ("lion:1",)
    assert after.hands["raven"].size == 0


def test_a_recorded_effect_keeps_its_explicit_changes_and_its_parameters_are_checked_REV_403() -> None:
    """REV 403: Populate has no mechanics in the rulebooks, so it is recorded with its board changes explicit; a
    parameter of an effect must be of its kind (REV 393: add-3-to-city's `region` is a region of the board)."""
    state = hands(office_state("lion", "sheriff"), raven=["lion:2"])
    assert_refused(state, "raven play lion:2 effect=add-3-to-city region=atlantis", "not a region")
    after, events = apply(state, "raven play lion:2 effect=populate add=lion:goldcrown:3")
    played = one(events, ev.CardPlayed)
    assert played.effect == "populate" and played.effects.add == (("lion", "goldcrown", 3),)
    assert after.banners["goldcrown"] == ("lion", 5)


# --- timing --------------------------------------------------------------------------------------------------


def test_revised_instant_decrees_are_played_at_once_when_drawn_and_not_before_REV_296() -> None:
    """REV 296: "(I) effects must be played immediately as the decree is drawn by the player who drew it.\""""
    state = hands(office_state("elephant", "steward", dict(STEWARD_ONLY), ruleset="revised"), raven=["elephant:5"])
    assert_refused(state, "raven play elephant:5 effect=hoard", "at once when drawn", "REV")
    after, _ = apply(_drew(), "raven play elephant:5 effect=hoard")
    assert after.lasting == ("hoard",)


def test_revised_g_and_m_decrees_before_or_during_an_order_never_after_it_REV_300() -> None:
    """REV 292-294: "G: ... played before a council order", "M: ... during the active agent's council order";
    REV 300: "you may not play a decree after a council order is executed." A society that has just drawn may play
    an (I) decree, but not a G or an M one."""
    state = hands(office_state("elephant", "steward", dict(STEWARD_ONLY), ruleset="revised"), raven=["elephant:5"])
    after, _ = apply(state, "raven play elephant:5 effect=recruit add=elephant:jade-terraces:1")
    assert after.banners["jade-terraces"] == ("elephant", 3)
    drew = _drew(drawn="elephant:6", held=("elephant:5",))
    assert_refused(drew, "raven play elephant:5 effect=recruit add=elephant:jade-terraces:1", "not after an order")
    assert_refused(drew, "raven play horse:1 effect=midnight-oil", "holds no horse card")
    lion = hands(office_state("lion", "sheriff", ruleset="revised"), raven=["lion:2"])
    after, events = apply(lion, "raven play lion:2 effect=midnight-oil")
    assert one(events, ev.CardPlayed).outcome == {"repeat": "during"}


def test_official_windows_before_during_and_after_an_action_EN_380() -> None:
    """EN 380: "You can play a card immediately before, during, or immediately after any action taken for a
    council position you control." An effect whose window is `during` alone (Kill all, EN 426) is not played after
    the action; a `when-drawn` instant only by the one who has just drawn."""
    council = {"bear.sheriff": "raven", "bear.steward": "spider", "eagle.sheriff": "serpent"}
    state = hands(office_state("bear", "sheriff", council), raven=["bear:2", "bear:3", "elephant:5"])
    after, _ = apply(state, "raven recruit frost-gate=2")
    # after raven's action: recruit (before|during|after) is in its window, kill-all (during) is not
    assert_refused(after, "raven play bear:2 effect=kill-all", "played during an action", "EN")
    assert_refused(after, "raven play elephant:5 effect=hoard", "at once when drawn", "EN")
    after, events = apply(after, "raven play bear:2 effect=recruit add=bear:frost-gate:1")
    assert one(events, ev.CardPlayed).effect == "recruit"
    # before its action the active society may play a during-only effect (it goes with its order)
    before, _ = apply(state, "raven play bear:3 effect=kill-all")
    assert before.hands["raven"].size == 2


# --- Succession Crisis ---------------------------------------------------------------------------------------

HORSE_COUNCIL = {"horse.sheriff": "spider", "horse.steward": "raven", "horse.marshal": "rat",
                 "horse.chancellor": "serpent"}


def test_succession_crisis_runs_the_rest_of_the_council_counter_clockwise_REV_419() -> None:
    """REV 419: "(I) Succession Crisis: This is the only card in the game that breaks the turn order and allow the
    active council position to go counter clockwise." Read (catalogue note) as the rest of the current council:
    after the Steward that drew it, the Sheriff acts, and then the supply check; Marshal and Chancellor do not."""
    state = office_state("horse", "steward", dict(HORSE_COUNCIL), ruleset="revised",
                         banners={"windmoor": ("horse", 2)})
    state = position(state, counter_clockwise=False)
    drew, events = apply(state, "raven draw horse:7")
    after, events = apply(drew, "raven play horse:7 effect=succession-crisis")
    assert one(events, ev.CardPlayed).effect == "succession-crisis"
    assert after.counter_clockwise and after.office_index == 0
    assert options(after, "recruit")[0].society == "spider"
    after, events = apply(after, "spider recruit windmoor=" + str(options(after, "recruit")[0].choices["amount"]))
    checked = one(events, ev.SupplyChecked)
    assert checked.empire == "horse"
    assert not any(isinstance(e, ev.OfficeSkipped) and e.office in ("marshal", "chancellor") for e in events)
    # Horse is the last empire: the round ends, and the next council runs clockwise again
    assert any(isinstance(e, ev.RoundEnded) for e in events) and not after.counter_clockwise
    assert not rules.evolve(position(after, counter_clockwise=True), ev.EmpireTurnStarted("bear")).counter_clockwise


def test_succession_crisis_counts_back_from_the_office_that_drew_even_past_skipped_offices_REV_419() -> None:
    """REV 419: the sequence runs counter-clockwise from the position that drew the card. When the offices after
    it are controlled by no one, they are skipped at once after the draw; the Sheriff still acts next, not the
    drawing Steward again (`CardPlayed.outcome["next"]`)."""
    council = {"horse.sheriff": "spider", "horse.steward": "raven", "lion.sheriff": "serpent"}
    state = office_state("horse", "steward", council, ruleset="revised", banners={"windmoor": ("horse", 2)})
    drew, events = apply(state, "raven draw horse:7")
    assert [e.office for e in events if isinstance(e, ev.OfficeSkipped)] == ["marshal", "chancellor"]
    after, events = apply(drew, "raven play horse:7 effect=succession-crisis")
    assert one(events, ev.CardPlayed).outcome == {"next": "sheriff"}
    assert after.office_index == 0 and options(after, "recruit")[0].society == "spider"


@pytest.mark.parametrize("office, then", [("sheriff", "supply"), ("steward", "sheriff")])
def test_succession_crisis_drawn_through_another_empire_s_position_counts_back_from_the_active_office_REV_419(
        office: str, then: str) -> None:
    """REV 419 with REV 391: the active Lion office gives up its action to use raven's Horse Steward, whose draw
    brings Succession Crisis. The drawing position is the active Lion office, not the Horse one: from the Sheriff
    the council runs back to the supply check at once (no office comes before it, and the Chancellor never comes
    back around), from the Steward to the Sheriff."""
    council = {"lion.sheriff": "spider", "lion.steward": "rat", "lion.marshal": "serpent", "lion.chancellor": "spider",
               f"lion.{office}": "raven", "horse.steward": "raven", "horse.sheriff": "spider"}
    state = hands(office_state("lion", office, council, ruleset="revised", banners={"goldcrown": ("lion", 2)}),
                  raven=["lion:2"])
    used, _ = apply(state, "raven play lion:2 effect=use-position position=horse.steward")
    drew, _ = apply(used, "raven draw horse:7 at=horse.steward")
    assert drew.last_order is not None and drew.last_order[:2] == ("horse", "steward")
    after, events = apply(drew, "raven play horse:7 effect=succession-crisis")
    assert one(events, ev.CardPlayed).outcome == {"next": then}
    if then == "supply":
        assert one(events, ev.SupplyChecked).empire == "lion" and after.empire == "horse"
        assert not any(isinstance(e, ev.OfficeSkipped) for e in events)
    else:
        assert after.empire == "lion" and after.office == "sheriff" and after.counter_clockwise


def test_succession_crisis_is_refused_before_a_draw_and_when_the_council_already_runs_back_REV_419() -> None:
    """REV 296: an (I) decree is played as it is drawn; REV 419: it reverses the sequence - once."""
    state = hands(office_state("horse", "steward", dict(HORSE_COUNCIL), ruleset="revised"), raven=["horse:7"])
    assert_refused(state, "raven play horse:7 effect=succession-crisis", "at once when drawn")
    drew, _ = apply(office_state("horse", "steward", dict(HORSE_COUNCIL), ruleset="revised"), "raven draw horse:7")
    assert_refused(position(drew, counter_clockwise=True), "raven play horse:7 effect=succession-crisis",
                   "already runs counter-clockwise")
    assert_refused(drew, "raven play horse:7 effect=succession-crisis agent=horse.sheriff:horse.marshal",
                   "adjudicated by")


# --- Midnight Oil --------------------------------------------------------------------------------------------

BEAR_COUNCIL = {"bear.sheriff": "raven", "bear.steward": "spider", "eagle.sheriff": "serpent"}


def test_revised_midnight_oil_carries_the_order_out_once_more_REV_401() -> None:
    """REV 401: "(M) Midnight oil: The current order is carried out once more." Digest §8 item 36: the repeat is an
    effect of the card, not a second order, so it is the same order, and the sequence then moves on."""
    state = hands(office_state("bear", "sheriff", dict(BEAR_COUNCIL), ruleset="revised"), raven=["lion:2", "lion:3"])
    after, events = apply(state, "raven play lion:2 effect=midnight-oil")
    assert one(events, ev.CardPlayed).outcome == {"repeat": "during"} and after.oil
    assert_refused(after, "raven play lion:3 effect=midnight-oil", "two cannot be chained")
    after, _ = apply(after, "raven recruit frost-gate=2")
    assert after.banners["frost-gate"] == ("bear", 4) and after.office_index == 0
    # the same order is owed once more, and only it
    assert [o.choices["order"] for o in options(after, "recruit")] == ["recruit_per_farm"]
    assert options(after, "attack") == []
    assert_refused(after, "raven play lion:3 effect=midnight-oil", "cannot be chained")
    after, _ = apply(after, "raven recruit frost-gate=2")
    assert after.banners["frost-gate"] == ("bear", 6)
    assert after.office == "steward" and after.pending is None


def test_revised_midnight_oil_is_not_played_after_the_order_REV_300() -> None:
    """REV 300: "you may not play a decree after a council order is executed" - Midnight Oil is (M)."""
    state = hands(office_state("bear", "sheriff", dict(BEAR_COUNCIL), ruleset="revised"), raven=["lion:2"])
    after, _ = apply(state, "raven recruit frost-gate=2")
    assert_refused(after, "raven play lion:2 effect=midnight-oil", "may not play a card now")


def test_official_midnight_oil_after_the_order_repeats_it_and_cannot_chain_EN_380_REV_401() -> None:
    """EN 380: a card "immediately after any action taken for a council position you control"; REV 401: the order
    once more; digest §8 item 36: not chained. After the repeat the sequence resumes where it stood."""
    state = hands(office_state("bear", "sheriff", dict(BEAR_COUNCIL)), raven=["lion:2", "lion:3"])
    after, _ = apply(state, "raven recruit frost-gate=2")
    assert after.office == "steward"
    after, events = apply(after, "raven play lion:2 effect=midnight-oil")
    assert one(events, ev.CardPlayed).outcome == {"repeat": "after"}
    assert after.pending is not None and after.pending.order == "recruit_per_farm"
    assert_refused(after, "spider draw", "raven owes an order")
    after, _ = apply(after, "raven recruit frost-gate=2")
    assert after.banners["frost-gate"] == ("bear", 6)
    assert after.office == "steward" and after.pending is None
    assert_refused(after, "raven play lion:3 effect=midnight-oil", "itself a Midnight Oil repeat")


# --- a record: verify re-adjudicates, the log round-trips ------------------------------------------------------


def test_a_recorded_decree_play_verifies_says_what_it_could_not_check_and_its_log_round_trips() -> None:
    """The bundled revised game up to Raven's draw of horse:8 in year 3, then Succession Crisis played at once
    (REV 296, 419): `verify` re-adjudicates it, says the cost could not be checked without a card sheet, and the
    written log replays to the same record."""
    from importlib import resources

    from whispers.ledger.io.game import replay_lines
    from whispers.ledger.io.verify import verify
    from whispers.projections.log import format_record

    text = (resources.files("whispers.fixtures") / "games" / "revised-3p.txt").read_text()
    lines = text.splitlines()
    cut = lines.index("raven draw horse:8") + 1
    with pytest.raises(RuleError, match="dark-alliances decree, and this game plays without that card set"):
        replay_lines("sc", [*lines[:cut], "raven play horse:8 effect=succession-crisis"])
    header = next(i for i, line in enumerate(lines) if line.startswith("game "))
    lines[header] += " card-set=dark-alliances"  # the game names the expansion's set (REV 290)
    game = replay_lines("sc", [*lines[:cut], "raven play horse:8 effect=succession-crisis"])
    played = [e for e in game.events if isinstance(e, ev.CardPlayed)][-1]
    assert played.effect == "succession-crisis" and game.state.counter_clockwise
    facts = [e.to_fact() for e in game.events]
    verified = verify(facts, "sc")
    assert verified.events == len(facts)
    assert len(verified.unchecked) == 1 and "no card sheet" in verified.unchecked[0]
    log = list(format_record(game.events, comments=False))
    assert "raven play horse:8 effect=succession-crisis" in log
    again = replay_lines("sc", log)
    assert [e.to_fact() for e in again.events] == facts
    # a fact that says Succession Crisis where the rules would not allow it is caught
    index = next(i for i, f in enumerate(facts) if f["type"] == "CardPlayed" and f.get("effect"))
    bad = [*facts[:index], {**facts[index], "effect": "hoard"}, *facts[index + 1:]]
    from whispers.ledger.io.verify import VerifyError

    with pytest.raises(VerifyError):
        verify(bad, "sc")


def test_the_timeline_draws_the_leaps_of_midnight_oil_and_succession_crisis_with_their_names() -> None:
    """Issue 11: "the timeline draws each effect that leaps in time with its name"; a hoarded supply check is
    drawn as suspended."""
    from whispers.ledger.core import randomgame
    from whispers.ledger.core.names import SOCIETIES
    from whispers.ledger.io.board_files import load_board
    from whispers.ledger.io.decree_files import shipped_catalogue
    from whispers.ledger.io.ruleset_files import load_ruleset
    from whispers.projections.timeline import timeline

    wanted = {"midnight-oil", "succession-crisis", "hoard"}
    for seed in range(200):
        events = [e for _, produced, _ in randomgame.play(SOCIETIES[:3], load_ruleset("revised"), load_board("standin"),
                                                          seed, catalogue=shipped_catalogue()) for e in produced]
        plays = [e for e in events if isinstance(e, ev.CardPlayed) and e.effect in wanted]
        if not plays:
            continue
        dot = timeline(events)
        for played in plays:
            label = "suspended (hoard)" if played.effect == "hoard" else f"card {played.card}: {played.effect}"
            assert label in dot, (seed, label)
        wanted -= {p.effect for p in plays}
        if not wanted:
            break
    assert not wanted


def test_prompt_offers_the_effects_playable_now_with_their_parameter_domains_REV_296_REV_292() -> None:
    """Issue 11: `prompt` offers the playable effects with their parameter domains: an (I) decree once drawn
    (REV 296), a G decree before an order (REV 292), none of them the other way round."""
    from whispers.ledger.io.decree_files import shipped_catalogue

    catalogue = shipped_catalogue()
    before = hands(office_state("elephant", "steward", dict(STEWARD_ONLY), ruleset="revised"),
                   raven=["elephant:5", "horse:1"])
    play = next(o for o in rules.prompt(before, lambda: catalogue).options if o.verb == "play")
    effects = play.choices["effects"]
    assert "hoard" not in effects and "move-army" in effects and "recruit" in effects
    assert effects["move-army"]["engine"] == "adjudicated" and effects["recruit"]["engine"] == "recorded"
    assert "saltmarsh" in effects["move-army"]["parameters"]["from"]
    drew = _drew(held=("horse:1",))
    effects = next(o for o in rules.prompt(drew, lambda: catalogue).options if o.verb == "play").choices["effects"]
    assert {"hoard", "trade", "succession-crisis"} <= set(effects) and "move-army" not in effects
    assert effects["hoard"] == {"engine": "adjudicated", "name": "Bountiful Harvest - Hoard", "parameters": {}}
    assert "effects" not in play.choices or rules.prompt(before).options[-1].choices.keys() == {"hand"}


# --- use-position and move-agent -----------------------------------------------------------------------------


def _domain(state, society: str, effect: str, parameter: str) -> tuple[str, ...]:
    from whispers.ledger.io.decree_files import shipped_catalogue

    play = next(o for o in rules.prompt(state, shipped_catalogue).options if o.verb == "play" and
                o.society == society)
    return play.choices["effects"][effect]["parameters"][parameter]


def test_use_position_takes_another_controlled_positions_order_and_the_sequence_continues_EN_434_REV_391() -> None:
    """REV 391 (EN 434): the active position's action is given up for the action of another position the player
    controls (any council); the sequence then continues after the replaced position."""
    council = {"bear.sheriff": "raven", "bear.steward": "spider", "lion.marshal": "raven", "eagle.sheriff": "serpent"}
    state = hands(office_state("bear", "sheriff", council, ruleset="revised"), raven=["lion:2"])
    assert_refused(state, "raven play lion:2 effect=use-position position=eagle.marshal", "does not control")
    assert_refused(state, "raven play lion:2 effect=use-position position=bear.sheriff", "another position")
    assert_refused(state, "raven play lion:2 effect=use-position", "names the position")
    # the prompt offers the positions raven controls (its agent on the Lion Marshal controls the empty ones before it)
    assert _domain(state, "raven", "use-position", "position") == ("lion.sheriff", "lion.steward", "lion.marshal")
    after, events = apply(state, "raven play lion:2 effect=use-position position=lion.marshal")
    played = one(events, ev.CardPlayed)
    assert played.act == "lion.marshal" and played.params == {"position": "lion.marshal"}
    assert format_event(played) == "raven play lion:2 effect=use-position position=lion.marshal"
    assert [o.choices["at"] for o in options(after, "recruit")] == ["lion.marshal"]
    after, _ = apply(after, "raven recruit goldcrown=" + str(options(after, "recruit")[0].choices["amount"]))
    assert after.office == "steward" and after.pending is None


def test_move_agent_moves_the_active_agent_to_an_empty_position_and_acts_there_EN_430_REV_335() -> None:
    """REV 335-341 (EN 430): the active agent moves to an empty council position (any council) and its action is
    taken at once there; the sequence resumes one step after the abandoned position. Unusable onto a held one."""
    council = {"bear.sheriff": "raven", "bear.steward": "spider", "lion.marshal": "rat", "eagle.sheriff": "serpent"}
    state = hands(office_state("bear", "sheriff", council, ruleset="revised"), raven=["eagle:2"])
    assert_refused(state, "raven play eagle:2 effect=move-agent to=lion.marshal", "not empty")
    assert_refused(state, "raven play eagle:2 effect=move-agent", "names the empty position")
    offered = _domain(state, "raven", "move-agent", "to")  # the prompt offers the empty positions only
    assert "lion.sheriff" in offered and not {"lion.marshal", "bear.sheriff", "eagle.sheriff"} & set(offered)
    assert len(offered) == 5 * 4 - len(council)
    after, events = apply(state, "raven play eagle:2 effect=move-agent to=lion.sheriff")
    played = one(events, ev.CardPlayed)
    assert played.effects.agent == (("bear.sheriff", "lion.sheriff"),) and played.act == "lion.sheriff"
    assert after.council.get(("lion", "sheriff")) == "raven" and ("bear", "sheriff") not in after.council
    assert {o.choices["at"] for o in options(after, "recruit")} == {"lion.sheriff"}
    after, _ = apply(after, "raven recruit goldcrown=" + str(options(after, "recruit")[0].choices["amount"]))
    assert after.office == "steward" and after.pending is None


def test_after_a_councils_last_order_the_revised_prompt_offers_only_an_instant_just_drawn_REV_300_REV_296() -> None:
    """REV 300: "you may not play a decree after a council order is executed"; REV 296: (I) decrees "must be played
    immediately as the decree is drawn". After a council's last order the revised engine waits only when that order
    drew a card that may be an instant (the game plays the Dark alliances set and the record does not show the cards
    drawn are of another set), and its prompt says that only such a decree may be played; otherwise nothing waits."""
    from test_rules import FULL_LION, NEXT

    from whispers.ledger.io.decree_files import load_sheet

    state = office_state("lion", "steward", {"lion.steward": "raven", **NEXT}, banners=FULL_LION, ruleset="revised")
    waits, _ = apply(state, "raven draw")
    assert rules.window_waits(waits) == "raven"
    note = rules.prompt(waits).note
    assert "instant (I) decree" in note and "REV 300" in note and "may still play a card" not in note
    for without in (position(state, card_sets=("base",)),
                    position(state, cards=load_sheet("example").to_data())):
        drawn = "" if without.cards is None else " lion:1"
        after, events = apply(without, "raven draw" + drawn)
        assert rules.window_waits(after) is None and any(isinstance(e, ev.SupplyChecked) for e in events)
        assert all(o.verb not in ("play", "no-card") for o in rules.prompt(after).options)


def test_bountiful_harvest_lies_beside_the_board_until_the_end_of_the_turn_not_in_the_discard_pile_REV_353() -> None:
    """REV 353, 355: "Discard this decree only at the end of the turn; put it next to the board for the duration of
    the turn": the card is in no hand and no pile until the year ends (the ruleset's `lasting`), so a reshuffle of
    the discard pile cannot draw it back; what paid for it is spent at once."""
    state = _drew()
    before = state.decks["elephant"]
    after, events = apply(state, "raven play elephant:5 effect=trade")
    assert one(events, ev.CardPlayed).outcome == {"until": "year"}
    assert after.beside == (("elephant:5", "trade", "year"),) and after.decks["elephant"] == before
    assert "elephant:5" not in after.hands["raven"].known
    turned = rules.evolve(after, ev.EmpireTurnStarted("lion"))
    assert turned.beside == after.beside and turned.lasting == ("trade",)
    ended = rules.evolve(after, ev.RoundEnded(after.round))
    assert ended.beside == () and ended.lasting == ()
    assert ended.decks["elephant"] == type(before)(before.draw, before.discard + 1)


def test_the_ruleset_says_whether_bountiful_harvest_lasts_the_year_or_the_empires_turn_digest_8_37() -> None:
    """Digest §8 item 37: "turn" in REV 353, 355 is unclear; the shipped rulesets read the year (`lasting = "year"`),
    a club may read the empire's turn (`lasting = "turn"`): Trade and Hoard then end with the empire's turn, the
    card goes to the discard pile, and the supply check Hoard suspended is made before the next empire's turn."""
    import msgspec

    from whispers.ledger.io.ruleset_files import load_ruleset

    assert {load_ruleset(r).lasting for r in ("official", "advanced", "revised")} == {"year"}
    assert "lasting" not in load_ruleset("revised").to_data()  # the default keeps rulesets' hashes as they were
    state = _drew()
    turn = position(state, ruleset=msgspec.structs.replace(state.ruleset, lasting="turn"))
    turn = with_banners(turn, {"jade-terraces": ("elephant", 7)})
    after, events = apply(turn, "raven play elephant:5 effect=hoard")
    assert one(events, ev.CardPlayed).outcome == {"until": "turn"} and one(events, ev.SupplySuspended)
    deferred = one(events, ev.DeferredSupplyChecked)
    assert deferred.losses["jade-terraces"] == ("elephant", 3)
    kinds = [type(e) for e in events]
    assert kinds.index(ev.DeferredSupplyChecked) < kinds.index(ev.EmpireTurnStarted)
    assert after.lasting == () and after.beside == () and after.supply_owed == ()
    assert after.decks["elephant"].discard == state.decks["elephant"].discard + 1


def test_a_bountiful_harvest_play_recorded_before_the_card_lay_beside_the_board_still_verifies_REV_355() -> None:
    """Events are facts: a Hoard play recorded before issue 33 (no `until` in its outcome: the card went to the
    discard pile at once) verifies and replays as it was decided; the same play today lies beside the board."""
    from pathlib import Path

    from whispers.ledger.io.game import replay_lines
    from whispers.ledger.io.verify import verify

    text = (Path(__file__).parent.parent / "fixtures" / "games" / "revised-3p-decrees.txt").read_text(encoding="utf-8")
    facts = [e.to_fact() for e in replay_lines("g", text.splitlines()).events]
    played = next(i for i, f in enumerate(facts) if f["type"] == "CardPlayed" and f.get("effect") == "hoard")
    assert facts[played]["outcome"] == {"until": "year"}
    older = [*facts[:played], {**facts[played], "outcome": {}}, *facts[played + 1:]]
    assert verify(older, "older").events == len(facts)
    earlier = rules.fold(ev.read_facts(older[: played + 1], "older"))
    today = rules.fold(ev.read_facts(facts[: played + 1], "today"))
    assert earlier.beside == () and today.beside != ()
    assert earlier.decks["elephant"].discard == today.decks["elephant"].discard + 1
