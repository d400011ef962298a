"""Every worked example of the rulebooks, as a test on the stand-in board.

Each test quotes the rulebook and section it checks (EN = official English rules, FR, ES, REV = the revised
competitive rules); /work/shared/rules-digest.md gathers them (§3 C1–C4, §5 K1–K5, §5.7, §7.4 S1–S4).

The stand-in board has 28 cities. The scoring examples S2 and S4 have fewer cities in play in all, and every
region is always controlled by some empire, so those two run on the stand-in's map with its city counts
rewritten (`with_cities`): same regions, borders and banners, only the number of cities per region differs.
"""

from typing import Any

from support import (
    apply,
    assert_refused,
    at_office,
    new_state,
    of_type,
    one,
    play,
    position,
    setup_done,
    with_banners,
)

from whispers.ledger.core import events as ev
from whispers.ledger.core import rules
from whispers.ledger.core.board import Board
from whispers.ledger.core.names import OFFICES
from whispers.ledger.core.state import GameState, Loyalty
from whispers.ledger.core.words import office_skip_reason

RAVEN_S2 = {"devout": "lion", "dutiful": "elephant", "affiliated": "bear", "unallied": "eagle", "opposed": "horse"}
EAGLE = {"eagle.sheriff": "spider"}
"""An agent in the next council, so that the engine stops there after Bear's turn."""
SPIDER = {"devout": "eagle", "dutiful": "lion", "affiliated": "elephant", "unallied": "horse", "opposed": "bear"}


def with_cities(state: GameState, cities: dict[str, int]) -> GameState:
    """The stand-in map with these city counts (every other region has none)."""
    data = state.board.to_data()
    for rid, region in data["regions"].items():
        region["cities"] = cities.get(rid, 0)
    return position(state, board=Board.from_data(data, source="stand-in with the example's cities"))


def scoring_position(
    ruleset: str,
    loyalty: dict[str, Loyalty],
    banners: dict[str, tuple[str, int]] | None = None,
    field_agents: frozenset[tuple[str, str]] = frozenset(),
    players: tuple[str, ...] = ("raven", "spider"),
) -> GameState:
    state = new_state(players=players, ruleset=ruleset)
    state = with_banners(state, banners or {})
    return position(state, loyalty=loyalty, field_agents=field_agents, round=4, phase="round_end")


def breakdown(scored: ev.GameScored, society: str, empire: str) -> dict[str, Any]:
    return scored.scores[society]["empires"][empire]


# --- S1–S4: scoring ---------------------------------------------------------------------------------------


def test_S1_elephant_on_dutiful_with_3_cities_scores_9_EN_loyalty_tokens_and_scoring() -> None:
    """EN "Loyalty Tokens and Scoring": "If your Elephant loyalty token is placed on the Dutiful loyalty slot and
    the Elephant empire ends the game with 3 cities, you will earn 9 points at the end of the game (3 cities x 3
    loyalty = 9 points)." (FR, IT, ES the same; IT names the slot "Devoto" but multiplies by 3: digest §8.43.)

    Elephant's home regions hold 5 cities on the stand-in; Lion has taken Monsoon Delta (2 cities), leaving 3."""
    state = scoring_position(
        "official",
        {"raven": Loyalty(RAVEN_S2, {}), "spider": Loyalty(SPIDER, {})},
        banners={"monsoon-delta": ("lion", 2)},
    )
    assert state.cities("elephant") == 3
    scored = rules.score(state)
    assert breakdown(scored, "raven", "elephant") == {
        "slot": "dutiful",
        "multiplier": 3,
        "cities": 3,
        "field_agents": 0,
        "points": 9,
    }


def s2_state(ruleset: str = "official") -> GameState:
    # Lion 2 (Brass Market), Elephant 3 (Monsoon Delta 2, Jade Terraces 1), Bear 1 (Windmoor, a conquered Horse
    # region), Eagle 4 (High Eyrie 2, Stormcrag 1, Cloudmere 1), Horse 2 (Amber Steppe 1, Khan's Rest 1).
    cities = {
        "brass-market": 2,
        "monsoon-delta": 2,
        "jade-terraces": 1,
        "windmoor": 1,
        "high-eyrie": 2,
        "stormcrag": 1,
        "cloudmere": 1,
        "amber-steppe": 1,
        "khans-rest": 1,
    }
    state = scoring_position(
        ruleset,
        {"raven": Loyalty(RAVEN_S2, {}), "spider": Loyalty(SPIDER, {})},
        banners={"windmoor": ("bear", 2)},
    )
    return with_cities(state, cities)


def test_S2_the_17_point_example_EN_loyalty_tokens_and_scoring() -> None:
    """EN "Loyalty Tokens and Scoring": "Lion: 4 loyalty x 2 cities = 8 points / Elephant: 3 loyalty x 3 cities = 9
    points / Bear: 2 loyalty x 1 cities = 2 points / Eagle: 0 loyalty x 4 cities = 0 points / Horse: -1 loyalty x 2
    cities = -2 points / Your total score would be 17 (8 + 9 + 2 + 0 - 2)." (digest §7.4 S2)"""
    state = s2_state()
    assert {e: state.cities(e) for e in state.board.empires} == {
        "lion": 2,
        "elephant": 3,
        "bear": 1,
        "eagle": 4,
        "horse": 2,
    }
    scored = rules.score(state)
    expected = {
        "lion": ("devout", 4, 2, 8),
        "elephant": ("dutiful", 3, 3, 9),
        "bear": ("affiliated", 2, 1, 2),
        "eagle": ("unallied", 0, 4, 0),
        "horse": ("opposed", -1, 2, -2),
    }
    for empire, (slot, multiplier, cities, points) in expected.items():
        assert breakdown(scored, "raven", empire) == {
            "slot": slot,
            "multiplier": multiplier,
            "cities": cities,
            "field_agents": 0,
            "points": points,
        }
    raven = scored.scores["raven"]
    assert raven["total"] == 17
    assert raven["concealed"] == 5 and raven["concealed_points"] == 0  # no concealed bonus in the official game


def test_S2_with_the_FR_advanced_bonus_and_no_swaps_scores_22_FR_regles_avancees() -> None:
    """FR "Règles avancées: Décompte": "Chaque joueur reçoit un point supplémentaire par jeton Loyauté non dévoilé."
    The 17-point example with all five tokens still concealed: 17 + 5 = 22 (digest §7.4 S2, derived)."""
    scored = rules.score(s2_state("advanced"))
    raven = scored.scores["raven"]
    assert raven["concealed"] == 5 and raven["concealed_points"] == 5
    assert raven["total"] == 22


def test_S3_a_field_agent_in_a_bear_held_brown_region_is_worth_4_to_a_bear_devout_EN_advanced_rules() -> None:
    """EN "Advanced Rules: Assigning Agents to Regions": "if the Bear empire controls this region at game's end and
    The Pale Raven has a Devout loyalty to the Bear empire, then The Pale Raven player will score 4 points for this
    agent." The agent counts as a city for its owner only (digest §7.4 S3)."""
    raven = {"devout": "bear", "dutiful": "eagle", "affiliated": "elephant", "unallied": "lion", "opposed": "horse"}
    spider = {"devout": "bear", "dutiful": "lion", "affiliated": "elephant", "unallied": "horse", "opposed": "eagle"}
    loyalty = {"raven": Loyalty(raven, {}), "spider": Loyalty(spider, {})}
    # Windmoor is brown (a Horse home region); Bear holds it.
    banners = {"windmoor": ("bear", 1)}
    without = rules.score(scoring_position("advanced", loyalty, banners))
    agent = frozenset({("raven", "windmoor")})
    state = scoring_position("advanced", loyalty, banners, field_agents=agent)
    assert state.board.regions["windmoor"].home == "horse" and state.controller("windmoor") == "bear"
    scored = rules.score(state)
    bear = breakdown(scored, "raven", "bear")
    assert bear["field_agents"] == 1
    assert bear["points"] == 4 * (state.cities("bear") + 1)
    assert scored.scores["raven"]["total"] - without.scores["raven"]["total"] == 4
    # the agent is a city for its owner only
    assert breakdown(scored, "spider", "bear") == breakdown(without, "spider", "bear")
    assert breakdown(scored, "spider", "bear")["field_agents"] == 0


def test_S4_the_revised_19_point_example_scores_11_REV_scoring_example() -> None:
    """REV "Scoring Example": Jeremy (Pale Raven) holds "Devout(x4): Bear, Dutiful(x3): Egale, Affiliated (x2):
    Elephant, Unallied(x0): Lion, Opposed(x-1): Horse", "switched alliances only once, he still has 3 concealed
    loyalties and therefore earns 3 points"; Bear 2 cities, Eagle annihilated (0), Elephant 1 city plus Jeremy's
    field agent in an Elephant-controlled region ("His opponents only score for 1 city"), Lion 3, Horse 4.

    The document prints "Jeremy's Final score is 3 + 8 + 0 + 4 + 0 - 4 = 19 pts." Its own terms add up to 11, not
    19 (19 comes out only with the Horse term as +4): the rules give 11 (digest §7.4 S4, §8.42)."""
    jeremy = {"devout": "bear", "dutiful": "eagle", "affiliated": "elephant", "unallied": "lion", "opposed": "horse"}
    swapped_once = Loyalty(jeremy, {"unallied": "lion", "opposed": "horse"}, swaps=1)
    opponent = Loyalty(SPIDER, {})
    cities = {
        "ice-hall": 2,  # Bear 2
        "monsoon-delta": 1,  # Elephant 1
        "goldcrown": 2,  # Lion 3
        "brass-market": 1,
        "amber-steppe": 1,  # Horse 4
        "hoofbeat-downs": 1,
        "khans-rest": 1,
        "saltmarsh": 1,
    }
    state = scoring_position(
        "revised",
        {"raven": swapped_once, "spider": opponent},
        field_agents=frozenset({("raven", "jade-terraces")}),
    )
    state = with_cities(state, cities)
    assert state.controller("jade-terraces") == "elephant"
    assert {e: state.cities(e) for e in state.board.empires} == {
        "bear": 2,
        "eagle": 0,
        "elephant": 1,
        "lion": 3,
        "horse": 4,
    }
    scored = rules.score(state)
    raven = scored.scores["raven"]
    assert raven["concealed"] == 3 and raven["concealed_points"] == 3
    assert {e: v["points"] for e, v in raven["empires"].items()} == {
        "bear": 8,
        "eagle": 0,
        "elephant": 4,
        "lion": 0,
        "horse": -4,
    }
    assert raven["empires"]["elephant"]["field_agents"] == 1
    assert raven["total"] == 11  # not the 19 the document prints
    # "His opponents only score for 1 city": affiliated to Elephant, no field agent
    assert scored.scores["spider"]["empires"]["elephant"] == {
        "slot": "affiliated",
        "multiplier": 2,
        "cities": 1,
        "field_agents": 0,
        "points": 2,
    }


# --- K1–K4: combat and region control ----------------------------------------------------------------------


def attack_state(empire: str, office: str, banners: dict[str, tuple[str, int]], ruleset: str = "official") -> GameState:
    state = setup_done(new_state(ruleset=ruleset))
    return at_office(state, empire, office, council={f"{empire}.{office}": "raven"}, banners=banners)


def test_K1_horse_3_attacks_bear_2_and_wins_with_1_survivor_EN_combat() -> None:
    """EN "Combat": "Damage is applied to each side by killing (discarding) banners at a 1:1 ratio until one or both
    sides are depleted." Example: "Horse attacks with 3 banners, and Bear defends with 2 banners. Horse wins the
    battle, and all banners killed are returned to the supply." (digest §7.5 K1; the 1 survivor is derived)"""
    state = attack_state("horse", "marshal", {"amber-steppe": ("horse", 3), "pinewatch": ("bear", 2)})
    assert not state.board.regions["pinewatch"].fort
    reserves = dict(state.reserve)
    after, events = apply(state, "raven attack amber-steppe pinewatch 3")
    attacked = one(events, ev.Attacked)
    assert (attacked.defending, attacked.fort_kill, attacked.attacker_losses, attacked.defender_losses) == (2, 0, 2, 2)
    assert attacked.held_by == "bear" and attacked.controller == "horse"
    assert after.banners["pinewatch"] == ("horse", 1)
    assert after.controller("pinewatch") == "horse"
    assert "amber-steppe" not in after.banners  # a home region may be emptied
    assert after.reserve["horse"] == reserves["horse"] + 2
    assert after.reserve["bear"] == reserves["bear"] + 2


def test_K2_bear_3_attacks_horse_2_with_a_fort_all_die_and_horse_keeps_its_home_EN_combat() -> None:
    """EN "Combat": "Bear attacks with 3 banners, and Horse defends with 2 banners and a fort. The fort destroys one
    of the attacking banners, leaving 2 attacking banners against 2 defending banners. All banners are killed and
    returned to the supply. The Horse empire retains control of the contested region as it is one of its home
    regions." (digest §7.5 K2, §5.5)"""
    state = attack_state("bear", "marshal", {"red-cliffs": ("bear", 3), "windmoor": ("horse", 2)})
    assert state.board.regions["windmoor"].fort and state.board.regions["windmoor"].home == "horse"
    reserves = dict(state.reserve)
    after, events = apply(state, "raven attack red-cliffs windmoor 3")
    attacked = one(events, ev.Attacked)
    assert (attacked.fort_kill, attacked.attacker_losses, attacked.defender_losses) == (1, 3, 2)
    assert attacked.controller == "horse"
    assert "windmoor" not in after.banners
    assert after.controller("windmoor") == "horse"
    assert after.reserve["bear"] == reserves["bear"] + 3
    assert after.reserve["horse"] == reserves["horse"] + 2


def test_K3_an_empty_brown_region_is_controlled_by_horse_EN_empire_control() -> None:
    """EN "Empire Control": "Brown regions are the home regions of the Horse empire. Because of this, a brown region
    with no banners present is controlled by the Horse empire." (digest §7.5 K3)"""
    state = with_banners(new_state(), {"windmoor": ("horse", 0)})
    assert state.board.regions["windmoor"].home == "horse" and state.banners_in("windmoor") == 0
    assert state.controller("windmoor") == "horse"
    assert "windmoor" in state.controlled("horse")


def test_K4_a_brown_region_with_a_blue_banner_is_controlled_by_bear_EN_empire_control() -> None:
    """EN "Empire Control": "However, a brown region containing a blue banner would be controlled by the Bear
    empire." (digest §7.5 K4)"""
    state = with_banners(new_state(), {"windmoor": ("bear", 1)})
    assert state.controller("windmoor") == "bear"
    assert "windmoor" in state.controlled("bear") and "windmoor" not in state.controlled("horse")


def test_a_conquered_source_must_keep_a_banner_EN_attack_action() -> None:
    """EN "Attack Action": "If any banners are being moved from a conquered region ... you must leave at least 1
    banner behind. You can never completely abandon a conquered region." Example: "The Bear army making the attack
    must leave a banner behind to maintain control of the Horse home region.\""""
    state = attack_state("bear", "marshal", {"windmoor": ("bear", 3), "hoofbeat-downs": ("horse", 1)})
    (attack,) = [o for o in rules.prompt(state).options if o.verb == "attack"]
    attacks = attack.choices["attacks"]
    assert ("windmoor", "hoofbeat-downs", 2) in attacks  # at most 2 of the 3 may leave
    assert_refused(state, "raven attack windmoor hoofbeat-downs 3", "never completely abandon a conquered region")
    after, _ = apply(state, "raven attack windmoor hoofbeat-downs 2")
    assert after.banners["windmoor"] == ("bear", 1)
    assert after.controller("windmoor") == "bear"
    assert after.banners["hoofbeat-downs"] == ("bear", 1)


def test_an_attack_cannot_move_into_a_region_the_empire_controls_EN_attack_action() -> None:
    """EN "Attack Action": "You cannot use the Attack action to simply shift banners among an empire's controlled
    regions, it must be used to attack an enemy-controlled region." Example: "The Horse army cannot use an Attack
    action to move into another region it controls." — its own home region, or one it has conquered."""
    state = attack_state("horse", "marshal", {"amber-steppe": ("horse", 3), "pinewatch": ("horse", 1)})
    assert_refused(state, "raven attack amber-steppe windmoor 1", "controlled by horse itself")
    assert_refused(state, "raven attack amber-steppe pinewatch 1", "controlled by horse itself")


def test_a_home_region_emptied_by_combat_returns_to_its_home_empire_EN_home_region() -> None:
    """EN "Common Terms": "Home region: A region on the map that, when empty of banners, is controlled by its
    like-colored home empire." Horse holds Red Cliffs (a Bear home region) with 2; Bear retakes it with 2: both
    sides are wiped out and the emptied region is Bear's again (digest §5.4)."""
    state = attack_state("bear", "marshal", {"frost-gate": ("bear", 2), "red-cliffs": ("horse", 2)})
    assert state.controller("red-cliffs") == "horse"
    after, events = apply(state, "raven attack frost-gate red-cliffs 2")
    attacked = one(events, ev.Attacked)
    assert (attacked.attacker_losses, attacked.defender_losses, attacked.controller) == (2, 2, "bear")
    assert "red-cliffs" not in after.banners and after.controller("red-cliffs") == "bear"


def test_both_sides_wiped_out_in_a_third_empires_home_region_go_to_that_empire_digest_8_24() -> None:
    """Digest §8.24 (derived from EN "Empire Control"): both sides wiped out in a region that is not the defender's
    home: control goes to the region's home empire. Bear holds Khan's Rest (Horse's) with 2; Lion attacks from
    Ochre Plains with 2: nobody survives and Khan's Rest is Horse's again."""
    state = attack_state("lion", "chancellor", {"khans-rest": ("bear", 2), "ochre-plains": ("lion", 2)})
    after, events = apply(state, "raven attack ochre-plains khans-rest 2")
    attacked = one(events, ev.Attacked)
    assert attacked.held_by == "bear" and attacked.controller == "horse"
    assert (attacked.attacker_losses, attacked.defender_losses) == (2, 2)
    assert "khans-rest" not in after.banners
    assert after.controller("khans-rest") == "horse"


# --- C1–C4: council control --------------------------------------------------------------------------------


def empire_phase(
    ruleset: str, council: dict[str, str], banners: dict[str, tuple[str, int]] | None = None
) -> tuple[GameState, list[ev.Event]]:
    """The empire turns phase just started with this council (Bear's turn is the first)."""
    state = setup_done(new_state(ruleset=ruleset))
    state = at_office(state, "bear", 0, council=council, banners=banners)
    state = position(state, empire_index=-1, office_index=5)  # as PhaseStarted(empire) leaves it
    events = rules.advance(state)
    for event in events:
        state = rules.evolve(state, event)
    return state, events


def controllers(state: GameState, empire: str = "bear") -> list[str | None]:
    return [state.office_controller(empire, i) for i in range(len(OFFICES))]


def test_C1_serpent_on_sheriff_raven_on_chancellor_EN_empire_turns_phase() -> None:
    """EN "Empire Turns Phase": "The Pale Raven has placed an agent in the Chancellor position of this council, and
    The Endless Serpent has placed an agent on the Sheriff position. On the empire's turn, The Endless Serpent will
    first get to take an action for the Sheriff position that it controls. Since both Steward and Marshal are empty
    and The Pale Raven controls the next agent to the right (Chancellor), The Pale Raven controls all three
    positions." (FR, IT the same; digest §3 C1)"""
    state, events = empire_phase("official", {"bear.sheriff": "serpent", "bear.chancellor": "raven", **EAGLE})
    assert controllers(state) == ["serpent", "raven", "raven", "raven"]
    assert one(events, ev.EmpireTurnStarted).empire == "bear"
    moves = [
        "serpent recruit frost-gate=2",
        "raven draw",
        "raven recruit ice-hall=2",
        "raven attack red-cliffs windmoor 1",
    ]
    acted = []
    for move in moves:
        prompt = rules.prompt(state)
        acted.append((prompt.office, prompt.actors))
        if prompt.office == "steward":
            assert_refused(state, "serpent draw", "raven controls the bear steward, not serpent")
        state, events = apply(state, move)
    assert acted == [
        ("sheriff", ("serpent",)),
        ("steward", ("raven",)),
        ("marshal", ("raven",)),
        ("chancellor", ("raven",)),
    ]
    assert not [e for e in events if isinstance(e, ev.OfficeSkipped) and e.empire == "bear"]
    _, events = apply(state, "raven no-card")  # raven drew: it may play a card after its last order, or not
    assert one(events, ev.SupplyChecked).empire == "bear"


def test_C2_serpent_on_sheriff_raven_on_marshal_leaves_the_chancellor_uncontrolled_ES_empire_turns() -> None:
    """ES "II. Empire Turns Phase": "El Pale Raven ha colocado a un agente en la posición de Marshall ... y la
    Serpiente Infinita ... en la posición de Sheriff. ... The Endless Serpent primero tomará una acción para el
    Sheriff, The Pale Raven luego tomará una acción para el Steward y luego para el Marshall. Como nadie controla al
    Canciller, no tomará ninguna medida." (digest §3 C2)"""
    state, _ = empire_phase("official", {"bear.sheriff": "serpent", "bear.marshal": "raven", **EAGLE})
    assert controllers(state) == ["serpent", "raven", "raven", None]
    assert rules.prompt(state).actors == ("serpent",)
    state, _ = play(state, "serpent recruit frost-gate=2", "raven draw")
    assert rules.prompt(state).actors == ("raven",) and state.office == "marshal"
    state, events = apply(state, "raven recruit ice-hall=2")
    skipped = one(events, ev.OfficeSkipped)
    assert (skipped.empire, skipped.office, skipped.controller) == ("bear", "chancellor", None)
    assert office_skip_reason(skipped) == "no agent controls it"
    _, events = apply(state, "raven no-card")  # the marshal's order was bear's last: raven, holding a card, may play
    assert one(events, ev.SupplyChecked).empire == "bear"
    assert one(events, ev.EmpireTurnStarted).empire == "eagle"


def test_C3_only_raven_on_the_bear_marshal_controls_sheriff_to_marshal_REV_phase_2() -> None:
    """REV "Phase 2: Council Holdings": "Jeremy is the only player who has deployed a political agent to manipulate
    the Bear Empire, and made him hold the rôle of Marshall. ... Jeremy cannot manipulate the Bear empire's
    Chancellor to give an order because he is to the right of his agent (the chancellor is higher in hierarchy.)"
    (digest §3 C3)"""
    state, _ = empire_phase("revised", {"bear.marshal": "raven", **EAGLE})
    assert controllers(state) == ["raven", "raven", "raven", None]
    acted = []
    for move in ("raven recruit frost-gate=2", "raven draw", "raven recruit ice-hall=2"):
        acted.append(rules.prompt(state).actors)
        state, events = apply(state, move)
    assert acted == [("raven",)] * 3
    skipped = one(events, ev.OfficeSkipped)
    assert (skipped.office, skipped.controller) == ("chancellor", None)
    assert office_skip_reason(skipped) == "no agent controls it"
    supply = one(events, ev.SupplyChecked)
    assert (supply.empire, supply.scope) == ("bear", "all")


def test_C4_a_council_without_agents_is_skipped_REV_phase_2() -> None:
    """REV "Phase 2: Council Holdings": "(If an empire has not been infiltrated by any player, they do nothing and
    their council is skipped)." Every office is skipped with its reason recorded; the supply check still runs at
    the end of that empire's turn (digest §3 C4, §8.23)."""
    state, events = empire_phase("revised", {"eagle.sheriff": "raven"})
    assert controllers(state, "bear") == [None] * 4
    bear_skips = [e for e in events if isinstance(e, ev.OfficeSkipped) and e.empire == "bear"]
    assert [(e.office, e.controller, office_skip_reason(e)) for e in bear_skips] == [
        (office, None, "no agent controls it") for office in OFFICES
    ]
    assert [e.empire for e in of_type(events, ev.SupplyChecked)] == ["bear"]
    assert state.empire == "eagle" and rules.prompt(state).actors == ("raven",)


# --- K5: supply ---------------------------------------------------------------------------------------------


def test_K5_six_horse_banners_without_a_farm_drop_to_4_at_the_end_of_horses_turn_EN_checking_supply() -> None:
    """EN "Checking Supply": "At the end of an empire's turn, a region may only contain 4 banners. If there are more
    than 4 banners, return excess banners to the supply." Example: "Two Horse empire banners must be removed from the
    region on the left at the end of the Horse empire's turn." (digest §5.7)"""
    state = setup_done(new_state())
    state = at_office(state, "horse", "sheriff", council={"horse.sheriff": "raven"}, banners={"windmoor": ("horse", 4)})
    assert not state.board.regions["windmoor"].farm
    # Horse's only order here is its sheriff's: +1 per farm (Amber Steppe, Hoofbeat Downs) = 2, into Windmoor: 6
    state, events = apply(state, "raven recruit windmoor=2")
    assert one(events, ev.BannersRecruited).amount == 2
    supply = one([e for e in events if getattr(e, "empire", None) == "horse"], ev.SupplyChecked)
    assert supply.losses == {"windmoor": ("horse", 2)}
    assert state.banners["windmoor"] == ("horse", 4)
    assert state.reserve["horse"] == 20 - state.on_board("horse")


def test_K5_six_bear_banners_on_a_farm_stay_at_the_end_of_bears_turn_EN_checking_supply() -> None:
    """EN "Checking Supply": "If a region contains a farm, it has a higher limit of 6 banners." Example: "The region
    on the right contains a farm, so the six Bear empire banners were permitted to remain in the region at the end
    of the Bear empire's turn." (digest §5.7)"""
    state = setup_done(new_state())
    state = at_office(
        state, "bear", "marshal", council={"bear.marshal": "raven", **EAGLE}, banners={"pinewatch": ("bear", 4)}
    )
    assert state.board.regions["pinewatch"].farm
    state, events = apply(state, "raven recruit pinewatch=2")  # +1 per fort: Frost Gate, Hollow Pines
    supply = one(events, ev.SupplyChecked)
    assert supply.empire == "bear" and supply.losses == {}
    assert state.banners["pinewatch"] == ("bear", 6)


def test_supply_checks_only_the_active_empire_officially_FR_verifier_le_ravitaillement() -> None:
    """FR "Vérifier le ravitaillement": "vérifiez qu'aucune armée de cet empire ne dépasse 4 unités par région" —
    only the active empire's armies (digest §8.22). Horse's 6 in Windmoor survive the end of Bear's turn."""
    state = setup_done(new_state())
    state = at_office(
        state, "bear", "marshal", council={"bear.marshal": "raven", **EAGLE}, banners={"windmoor": ("horse", 6)}
    )
    state, events = apply(state, "raven recruit frost-gate=2")
    supply = one(events, ev.SupplyChecked)
    assert (supply.empire, supply.scope) == ("bear", "active")
    assert supply.losses == {}
    assert state.banners["windmoor"] == ("horse", 6)


def test_supply_checks_every_empire_after_every_council_in_the_revised_rules_REV_phase_2() -> None:
    """REV "Phase 2: Council Holdings": "The Bear Empire Council ends and the supply level of troops of every soldier
    of every empire on the field is checked. Any soldiers in excess of 4 on a non-farm region die immediately."
    Horse's 6 in Windmoor are cut to 4 at the end of Bear's turn (digest §8.22)."""
    state = setup_done(new_state(ruleset="revised"))
    state = at_office(
        state, "bear", "marshal", council={"bear.marshal": "raven", **EAGLE}, banners={"windmoor": ("horse", 6)}
    )
    state, events = apply(state, "raven recruit ice-hall=2")
    supply = one(events, ev.SupplyChecked)
    assert (supply.empire, supply.scope) == ("bear", "all")
    assert supply.losses == {"windmoor": ("horse", 2)}
    assert state.banners["windmoor"] == ("horse", 4)
