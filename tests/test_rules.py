"""One test per rule, the legal side and the illegal side.

Every refused move goes through `assert_refused`: decide raises RuleError, the message names the problem, `.rule`
cites a rulebook section, and the state is left as it was. Mid-game positions are built with the helpers of
`support` (decide is pure); where a sequence is played, it is played in notation.

Sections quoted: EN = official English rules (seeds/004), FR, ES, REV = revised competitive rules (seeds/002);
digest = /work/shared/rules-digest.md.
"""

from importlib import resources

import pytest
from support import (
    EMPIRES,
    PLAYERS,
    apply,
    assert_refused,
    at_office,
    board_of,
    command,
    final,
    hands,
    loyalty_line,
    new_state,
    of_type,
    one,
    play,
    position,
    ruleset_of,
    setup_done,
    snapshot,
    tokens_for,
)

from whispers.ledger.core import commands as c
from whispers.ledger.core import events as ev
from whispers.ledger.core import rules
from whispers.ledger.core.board import Board
from whispers.ledger.core.errors import RuleError
from whispers.ledger.core.names import OFFICES, SLOTS
from whispers.ledger.core.notation import format_event
from whispers.ledger.core.state import Deck, GameState, Hand, Loyalty
from whispers.ledger.core.words import office_skip_reason, trail_step
from whispers.ledger.io.board_files import parse_board

FULL_BEAR = {
    "frost-gate": ("bear", 3),
    "bellrock": ("bear", 3),
    "ice-hall": ("bear", 3),
    "red-cliffs": ("bear", 3),
    "pinewatch": ("bear", 3),
    "hollow-pines": ("bear", 3),
    "wolfmere": ("bear", 2),
}
"""All 20 Bear banners on the board: Bear's reserve is empty."""

FULL_LION = {
    "brass-market": ("lion", 3),
    "golden-reach": ("lion", 3),
    "goldcrown": ("lion", 3),
    "saffron-fields": ("lion", 3),
    "ochre-plains": ("lion", 3),
    "dunewatch": ("lion", 3),
    "cinder-coast": ("lion", 2),
}

NEXT = {"eagle.sheriff": "serpent"}
"""An agent in Eagle's council, so that the engine stops there once Bear's turn is over."""


def options(state: GameState, verb: str) -> list[rules.Option]:
    return [o for o in rules.prompt(state).options if o.verb == verb]


def office_state(
    empire: str,
    office: str,
    council: dict[str, str] | None = None,
    banners: dict[str, tuple[str, int]] | None = None,
    ruleset: str = "official",
    **changes: object,
) -> GameState:
    """`empire`'s `office` is active; by default raven's agent sits on it and serpent's in Eagle's council."""
    state = setup_done(new_state(ruleset=ruleset))
    stop = {"elephant.sheriff": "serpent"} if empire == "eagle" else NEXT
    council = {f"{empire}.{office}": "raven", **stop} if council is None else council
    return at_office(state, empire, office, council=council, banners=banners, **changes)


# === setup =====================================================================================================


@pytest.mark.parametrize("players", [("raven", "spider"), ("raven", "spider", "rat"), PLAYERS])
def test_two_to_four_players_may_play_EN_overview(players: tuple[str, ...]) -> None:
    """EN Components: 4 player boards; digest §2.1: 2–4 players."""
    state = new_state(players=players)
    assert state.players == players and state.phase == "setup" and state.first == players[0]


def test_one_player_is_refused_EN_overview() -> None:
    """Digest §2.1: "Players 2–4"."""
    with pytest.raises(RuleError, match="for 2 to 4 players, not 1") as caught:
        new_state(players=("raven",))
    assert caught.value.rule.startswith("EN")


def test_five_players_are_refused_EN_setup_player_boards_and_tokens() -> None:
    """EN "Player Boards and Tokens": each player takes one of the four societies, so a fifth repeats one."""
    with pytest.raises(RuleError, match="listed twice") as caught:
        new_state(players=(*PLAYERS, "raven"))
    assert caught.value.rule == "EN Setup: Player Boards and Tokens"


def test_an_unknown_society_is_refused_EN_setup_player_boards_and_tokens() -> None:
    """EN "Player Boards and Tokens": the societies are the Pale Raven, the Supplicant Spider, the Cult of the Rat
    and the Endless Serpent."""
    with pytest.raises(RuleError, match="unknown society 'crow'") as caught:
        new_state(players=("raven", "crow"))
    assert caught.value.rule.startswith("EN Setup")


def test_a_society_listed_twice_is_refused_EN_setup_player_boards_and_tokens() -> None:
    """EN "Player Boards and Tokens": "each player chooses a matching player board" — one society per player."""
    with pytest.raises(RuleError, match="listed twice"):
        new_state(players=("raven", "raven"))


def test_the_first_player_must_be_playing_EN_setup_first_player() -> None:
    """EN "First Player": "That player takes the first player marker"."""
    assert new_state(players=("raven", "spider"), first="spider").first == "spider"
    with pytest.raises(RuleError, match="first player 'rat' is not playing") as caught:
        new_state(players=("raven", "spider"), first="rat")
    assert caught.value.rule == "EN Setup: First Player"


def test_loyalty_names_five_slots_with_five_distinct_empires_EN_setup_loyalty() -> None:
    """EN "Loyalty": "Each player should shuffle their five loyalty tokens and randomly place them face-down on the
    five indicated loyalty slots"; EN Components: "20 Loyalty Tokens (5 Empires per player)"."""
    state = new_state()
    four = dict(list(tokens_for(0).items())[:4])
    assert_refused(state, c.RecordLoyalty("raven", four), "name an empire for each slot", rule="EN Setup: Loyalty")
    twice = {**tokens_for(0), "opposed": "bear"}
    assert_refused(state, c.RecordLoyalty("raven", twice), "exactly one slot")
    wolf = {**tokens_for(0), "opposed": "wolf"}
    assert_refused(state, c.RecordLoyalty("raven", wolf), "unknown empire 'wolf'")
    after, events = apply(state, loyalty_line("raven", tokens_for(0)))
    assert one(events, ev.LoyaltyRecorded).tokens == tokens_for(0)
    assert after.loyalty["raven"].tokens == tokens_for(0) and after.loyalty["raven"].concealed == 5
    assert_refused(after, loyalty_line("raven", tokens_for(1)), "raven's loyalty is recorded already")


def test_a_sealed_loyalty_set_is_recorded_without_its_tokens_EN_setup_loyalty() -> None:
    """EN "Loyalty": tokens are placed "face-down"; the record may keep them sealed until revealed."""
    after, events = apply(new_state(), "rat loyalty sealed")
    assert one(events, ev.LoyaltyRecorded).tokens is None
    assert after.loyalty["rat"].tokens is None


def test_the_game_reaches_round_1_deploy_once_every_loyalty_is_recorded_EN_deploy_agents_phase() -> None:
    """EN "Deploy Agents Phase", Step 1: "Except on the first turn ..." — round 1 starts with deployment."""
    state = new_state()
    assert_refused(state, "raven deploy bear.steward", "deploy is not a move of the setup phase")
    state, _ = play(state, *(loyalty_line(s, tokens_for(i)) for i, s in enumerate(PLAYERS[:3])))
    assert state.phase == "setup"
    state, events = apply(state, "serpent loyalty sealed")
    assert of_type(events, ev.PhaseStarted) == [ev.PhaseStarted(1, "deploy")]
    assert_refused(state, loyalty_line("raven", tokens_for(0)), "loyalty is not a move of the deploy phase")


def test_two_players_may_share_a_devout_empire_officially_EN_setup_loyalty() -> None:
    """EN "Loyalty": each player shuffles their own five tokens: nothing stops two being devout to one empire."""
    state, _ = play(new_state(), loyalty_line("raven", tokens_for(0)), loyalty_line("spider", tokens_for(0)))
    assert state.loyalty["raven"].tokens == state.loyalty["spider"].tokens


def test_revised_devout_empires_are_distinct_REV_setup() -> None:
    """REV "Setup": "Every player put the loyalty token ... that matches the one he got dealt for the seat order in
    his « devout » slot" — dealt from one set of five, so no two players share a devout empire (digest §8.41)."""
    state, _ = apply(new_state(ruleset="revised"), loyalty_line("raven", tokens_for(0)))
    same_devout = {**tokens_for(1), "devout": "bear", "opposed": "eagle"}
    error = assert_refused(state, c.RecordLoyalty("spider", same_devout), "raven is devout to bear already")
    assert error.rule == "REV Setup"
    after, _ = apply(state, loyalty_line("spider", tokens_for(1)))
    assert after.loyalty["spider"].tokens is not None


# === deployment ================================================================================================


def test_deployment_goes_clockwise_from_the_first_player_one_agent_at_a_time_EN_deploy_agents_step_2() -> None:
    """EN "Deploy Agents Phase", Step 2: "Starting with the first player, take turns placing 1 agent on any open
    council position on the board until each player has placed 2 agents.\""""
    state = setup_done(new_state(first="rat"))
    assert_refused(state, "raven deploy eagle.sheriff", "it is rat's turn, not raven's")
    seen = []
    for where in [f"{e}.{o}" for e in ("bear", "eagle") for o in OFFICES]:
        society = rules.prompt(state).actors[0]
        seen.append(society)
        state, events = apply(state, f"{society} deploy {where}")
        if len(seen) == 1:
            assert_refused(state, "rat deploy lion.sheriff", "it is serpent's turn, not rat's")
    assert seen == ["rat", "serpent", "raven", "spider"] * 2
    assert ev.PhaseStarted(1, "empire") in events
    assert all(state.agents_in_hand(s) == 7 for s in PLAYERS)


@pytest.mark.parametrize(("players", "each"), [(("raven", "spider"), 3), (("raven", "spider", "rat"), 2)])
def test_each_player_places_2_agents_3_in_a_two_player_game_EN_2_player_games(
    players: tuple[str, ...], each: int
) -> None:
    """EN "Deploy Agents Phase": "until each player has placed 2 agents. 2-Player Games: In a 2-player game, each
    player places 3 agents instead of 2.\""""
    state = setup_done(new_state(players=players))
    open_positions = [f"{e}.{o}" for e in EMPIRES for o in OFFICES]
    for turn in range(len(players) * each):
        assert state.phase == "deploy"
        state, _ = apply(state, f"{rules.prompt(state).actors[0]} deploy {open_positions[turn]}")
    assert state.phase == "empire"
    assert all(len(state.agents_out(s)) == each for s in players)


def test_agents_deploy_only_to_open_council_positions_EN_deploy_agents_step_2() -> None:
    """EN Step 2: "placing 1 agent on any open council position on the board"."""
    state, _ = apply(setup_done(new_state()), "raven deploy bear.steward")
    assert "bear.steward" not in options(state, "deploy")[0].choices["where"]
    assert_refused(state, "spider deploy bear.steward", "bear.steward is taken by raven")
    assert_refused(state, "spider deploy bear.admiral", "unknown office 'admiral'")
    assert_refused(state, "spider deploy wolf.sheriff", "unknown empire 'wolf'")


def test_no_field_agents_in_the_official_base_game_EN_advanced_rules() -> None:
    """EN "Advanced Rules: Assigning Agents to Regions" is an advanced rule: the base game deploys to councils."""
    state = setup_done(new_state())
    assert not [w for w in options(state, "deploy")[0].choices["where"] if "." not in w]
    error = assert_refused(state, "raven deploy windmoor", "have no field agents")
    assert error.rule == "EN Advanced Rules: Assigning Agents to Regions"


def test_field_agents_at_most_two_never_two_of_one_society_in_a_region_EN_advanced_rules() -> None:
    """EN "Advanced Rules": "you may choose to assign it to any region on the map, even if occupied. ... Players can
    have a maximum of two agents deployed to the map. Regions may contain more than one agent, but not from the same
    player.\""""
    state = setup_done(new_state(ruleset="advanced"))
    assert "windmoor" in options(state, "deploy")[0].choices["where"]
    state, events = apply(state, "raven deploy windmoor")  # occupied by Horse banners: allowed
    assert one(events, ev.AgentDeployed).where == "windmoor"
    state, _ = apply(state, "spider deploy windmoor")  # another society's agent there: allowed
    assert state.field_agents == {("raven", "windmoor"), ("spider", "windmoor")}
    state, _ = play(state, "rat deploy bear.sheriff", "serpent deploy bear.steward")
    assert "windmoor" not in options(state, "deploy")[0].choices["where"]
    assert_refused(state, "raven deploy windmoor", "raven has an agent in windmoor already")
    # a third field agent: build it directly (round 1 places only 2)
    third = position(state, field_agents=state.field_agents | {("raven", "saltmarsh")})
    assert not [w for w in options(third, "deploy")[0].choices["where"] if "." not in w]
    assert_refused(third, "raven deploy bellrock", "raven has 2 agents on the map already (at most 2)")


def test_a_society_has_9_agents_EN_components() -> None:
    """EN Components: "36 Agent Tokens (9 tokens per society)". With none left, a society's placement is skipped
    with the reason recorded."""
    state = setup_done(new_state(players=("raven", "spider")))
    nine = {(e, o): "raven" for e, o in [(e, o) for e in EMPIRES for o in OFFICES][:9]}
    full = position(state, council=nine)
    assert full.agents_in_hand("raven") == 0
    assert options(full, "deploy")[0].choices["where"] == ()
    assert_refused(full, "raven deploy horse.chancellor", "raven has no agent left", rule="EN Components")
    # at spider's turn, raven's next turn is skipped with the reason
    spiders_turn = position(full, step=1)
    after, events = apply(spiders_turn, "spider deploy horse.chancellor")
    assert one(events, ev.Skipped) == ev.Skipped("raven", "deploy", "no-agent-left")
    assert after.step == 3 and rules.prompt(after).actors == ("spider",)


def test_a_placement_with_no_open_position_is_skipped_EN_deploy_agents_step_2() -> None:
    """EN Step 2: agents go on "any open council position"; with all 20 taken (no field agents) a placement is
    skipped with the reason recorded (digest §2.1: 20 positions)."""
    state = setup_done(new_state(players=("raven", "spider", "rat")))
    positions = [(e, o) for e in EMPIRES for o in OFFICES]
    council = {p: ("raven", "spider", "rat")[i % 3] for i, p in enumerate(positions[:19])}
    state = position(state, council=council, step=1)  # spider's turn; horse.chancellor is the last open position
    after, events = apply(state, "spider deploy horse.chancellor")
    assert of_type(events, ev.Skipped) == [
        ev.Skipped("rat", "deploy", "no-open-position"),
        ev.Skipped("raven", "deploy", "no-open-position"),
        ev.Skipped("spider", "deploy", "no-open-position"),
        ev.Skipped("rat", "deploy", "no-open-position"),
    ]
    assert after.phase == "empire"


# === retrieval =================================================================================================


def test_there_is_no_retrieval_in_round_1_officially_EN_deploy_agents_step_1() -> None:
    """EN Step 1 (Retrieve Agents): "Except on the first turn, starting with the first player and proceeding
    clockwise, remove 1 of your agents currently on the board (if any).\""""
    state = setup_done(new_state())
    assert state.phase == "deploy" and state.round == 1
    assert_refused(state, "raven retrieve bear.steward", "retrieve is not a move of the deploy phase")


def official_round_2(council: dict[str, str], ruleset: str = "official") -> tuple[GameState, list[ev.Event]]:
    """Round 1's swap phase ends (serpent passes last): round 2 begins."""
    state = setup_done(new_state(ruleset=ruleset))
    state = position(state, phase="swap", step=3, council={tuple(k.split(".")): v for k, v in council.items()})
    assert rules.prompt(state).actors == ("serpent",)
    return apply(state, "serpent pass")


def test_retrieval_from_round_2_clockwise_mandatory_own_agents_only_EN_deploy_agents_step_1() -> None:
    """EN Step 1: "Except on the first turn, starting with the first player and proceeding clockwise, remove 1 of
    your agents currently on the board (if any)." A player with none on the board is skipped, with the reason."""
    state, events = official_round_2({"bear.steward": "raven", "bear.chancellor": "raven", "eagle.sheriff": "rat"})
    assert ev.PhaseStarted(2, "retrieve") in events
    assert rules.prompt(state).actors == ("raven",)
    assert options(state, "retrieve")[0].choices["where"] == ("bear.steward", "bear.chancellor")
    # mandatory: no deploying, no passing
    assert_refused(state, "raven deploy lion.sheriff", "deploy is not a move of the retrieve phase")
    assert_refused(state, "raven pass", "pass is not a move of the retrieve phase")
    # only its own agents, in turn
    assert_refused(state, "raven retrieve eagle.sheriff", "raven has no agent on eagle.sheriff")
    assert_refused(state, "rat retrieve eagle.sheriff", "it is raven's turn, not rat's")
    state, events = apply(state, "raven retrieve bear.chancellor")
    assert one(events, ev.AgentRetrieved) == ev.AgentRetrieved("raven", "bear.chancellor")
    assert one(events, ev.Skipped) == ev.Skipped("spider", "retrieve", "no-agent-on-board")
    assert rules.prompt(state).actors == ("rat",)
    state, events = apply(state, "rat retrieve eagle.sheriff")
    assert ev.Skipped("serpent", "retrieve", "no-agent-on-board") in events
    assert ev.PhaseStarted(2, "deploy") in events
    assert state.council == {("bear", "steward"): "raven"}
    # a retrieved agent can be redeployed this round
    assert "bear.chancellor" in options(state, "deploy")[0].choices["where"]


def test_a_field_agent_may_be_the_one_retrieved_EN_advanced_rules() -> None:
    """EN "Advanced Rules": "Agents played to a region can be retrieved at the start of the Deploy Agents phase,
    just like any other agent.\""""
    state = setup_done(new_state(ruleset="advanced"))
    state = position(state, phase="retrieve", round=2, step=0, field_agents=frozenset({("raven", "windmoor")}))
    assert options(state, "retrieve")[0].choices["where"] == ("windmoor",)
    assert_refused(state, "raven retrieve saltmarsh", "raven has no agent in saltmarsh")
    after, _ = apply(state, "raven retrieve windmoor")
    assert after.field_agents == frozenset()


def test_revised_retrieval_comes_at_the_end_of_the_year_REV_phase_3() -> None:
    """REV "Phase 3: Year end": "On the end of the year 1 to 3, Players retrieves one of their agents back to the
    shadows. Players discard decrees ... players have the option to swap two concealed loyalties ... The player to
    the left of the current first player becomes the first player.\""""
    state = office_state(
        "horse", "chancellor", {"horse.chancellor": "raven", "bear.sheriff": "spider"}, ruleset="revised"
    )
    state, events = apply(state, "raven attack windmoor red-cliffs 1")
    assert ev.RoundEnded(1) in events and ev.PhaseStarted(1, "retrieve") in events
    assert rules.prompt(state).actors == ("raven",)
    assert_refused(state, "raven pass", "pass is not a move of the retrieve phase", rule="EN")
    error = assert_refused(state, "spider retrieve bear.sheriff", "it is raven's turn, not spider's")
    assert error.rule == "REV Phase 3: Year end"
    state, _ = apply(state, "raven retrieve horse.chancellor")
    state, events = apply(state, "spider retrieve bear.sheriff")
    assert ev.Skipped("rat", "retrieve", "no-agent-on-board") in events
    assert [e.phase for e in of_type(events, ev.PhaseStarted)] == ["cleanup", "swap"]
    state, events = play(state, "raven pass", "spider pass", "rat pass", "serpent pass")
    assert ev.FirstPlayerPassed("raven", "spider") in events
    assert ev.PhaseStarted(2, "deploy") in events  # no retrieval at the start of the year
    assert state.council == {}


# === empire turns ==============================================================================================

ROUND_1 = [
    "raven deploy bear.chancellor",
    "spider deploy eagle.sheriff",
    "rat deploy lion.marshal",
    "serpent deploy horse.steward",
    "raven deploy bear.sheriff",
    "spider deploy elephant.chancellor",
    "rat deploy lion.sheriff",
    "serpent deploy horse.chancellor",
]
ORDERS_1 = [
    ("bear", "sheriff", "raven recruit frost-gate=2"),
    ("bear", "steward", "raven draw"),
    ("bear", "marshal", "raven recruit ice-hall=2"),
    ("bear", "chancellor", "raven attack red-cliffs windmoor 1"),
    ("eagle", "sheriff", "spider recruit stormcrag=2"),
    ("elephant", "sheriff", "spider recruit jade-terraces=2"),
    ("elephant", "steward", "spider draw"),
    ("elephant", "marshal", "spider recruit ivory-gate=3"),
    ("elephant", "chancellor", "spider attack jade-terraces talon-pass 3"),
    ("lion", "sheriff", "rat recruit brass-market=3"),
    ("lion", "steward", "rat draw"),
    ("lion", "marshal", "rat recruit goldcrown=2"),
    ("horse", "sheriff", "serpent recruit windmoor=2"),
    ("horse", "steward", "serpent draw"),
    ("horse", "marshal", "serpent recruit amber-steppe=2"),
    ("horse", "chancellor", "serpent attack windmoor red-cliffs 3"),
]


def test_a_whole_round_empires_in_board_order_offices_in_order_EN_empire_turns_phase() -> None:
    """EN "Empire Turns Phase": "begins with the Bear empire and proceeds clockwise around the board. ... Council
    positions act in clockwise order ... starting with the Sheriff and following the arrows up to the Chancellor."
    EN "Checking Supply": "At the end of an empire's turn" — one check recorded per empire. Then EN "Mark the Turn":
    the first player marker passes before Cleanup and Swap."""
    state, events = play(setup_done(new_state()), *ROUND_1)
    produced = list(events)
    for empire, office, line in ORDERS_1:
        prompt = rules.prompt(state)
        assert (prompt.empire, prompt.office) == (empire, office)
        assert prompt.actors == (line.split()[0],)
        state, events = apply(state, line)
        produced.extend(events)
    # serpent drew at the horse steward: it may still play a card after the round's last order (EN "Playing Cards")
    assert rules.prompt(state).options[:2] == (
        rules.Option("play", "serpent", {"hand": {"horse": 1}}), rules.Option("no-card", "serpent", {})
    )
    state, events = apply(state, "serpent no-card")
    produced.extend(events)
    assert [e.empire for e in of_type(produced, ev.EmpireTurnStarted)] == list(EMPIRES)
    assert [e.empire for e in of_type(produced, ev.SupplyChecked)] == list(EMPIRES)
    assert all(e.scope == "active" for e in of_type(produced, ev.SupplyChecked))
    skipped = [(e.empire, e.office) for e in of_type(produced, ev.OfficeSkipped)]
    assert skipped == [("eagle", "steward"), ("eagle", "marshal"), ("eagle", "chancellor"), ("lion", "chancellor")]
    tail = [e for e in produced if isinstance(e, ev.RoundEnded | ev.FirstPlayerPassed | ev.PhaseStarted)][-4:]
    assert tail == [
        ev.RoundEnded(1),
        ev.FirstPlayerPassed("raven", "spider"),
        ev.PhaseStarted(1, "cleanup"),
        ev.PhaseStarted(1, "swap"),
    ]
    assert rules.prompt(state).actors == ("spider",)


def test_an_order_out_of_turn_is_refused_naming_who_must_act_EN_empire_turns_phase() -> None:
    """EN "Empire Turns Phase": "each council position ... will take one available action determined by the player
    who controls it"."""
    state = office_state("bear", "sheriff", {"bear.sheriff": "serpent", "bear.chancellor": "raven"})
    error = assert_refused(state, "raven recruit frost-gate=2", "serpent controls the bear sheriff, not raven")
    assert error.rule == "EN Empire Turns Phase"
    assert_refused(state, "rat attack red-cliffs windmoor 1", "serpent controls the bear sheriff, not rat")
    deploy = setup_done(new_state())
    assert_refused(deploy, "raven recruit frost-gate=2", "orders are given in the empire turns phase, not the deploy")


def test_an_order_the_office_does_not_offer_is_refused_EN_council_positions() -> None:
    """EN "Council Positions": "Each council position has one or more available actions to choose from, as indicated
    on the game board." The Eagle Sheriff only adds 2 banners (digest §4.2)."""
    state = office_state("eagle", "sheriff", council={"eagle.sheriff": "raven"})
    assert_refused(state, "raven draw", "draw is not an order offered here (eagle.sheriff: Recruit 2)")
    assert_refused(state, "raven attack stormcrag hollow-pines 1", "attack is not an order offered here")
    assert_refused(state, "raven swap-agent steward", "swap-agent is not an order offered here")


# === recruit ===================================================================================================


@pytest.mark.parametrize(
    ("empire", "office", "order", "amount"),
    [
        ("eagle", "sheriff", "recruit_2", 2),
        ("bear", "sheriff", "recruit_per_farm", 2),  # Red Cliffs, Pinewatch
        ("bear", "marshal", "recruit_per_fort", 2),  # Frost Gate, Hollow Pines
        ("lion", "marshal", "recruit_2_per_fort", 2),  # Goldcrown
        ("elephant", "marshal", "recruit_per_fort", 3),  # Jade Terraces, Ivory Gate, Tusk Hollow
    ],
)
def test_each_recruit_order_EN_add_banner_actions(empire: str, office: str, order: str, amount: int) -> None:
    """EN "Add Banner Actions": "x2 Add 2 banners to any region(s) controlled by this empire." / "For each [icon]
    within all regions controlled by this empire, add 1 banner" / "... add 2 banners" (icons per digest §4.2)."""
    state = office_state(empire, office)
    (option,) = [o for o in options(state, "recruit") if o.choices["order"] == order]
    assert option.choices["amount"] == amount
    home = state.board.home_regions(empire)
    reserve = state.reserve[empire]
    after, events = apply(state, f"raven recruit order={order} {home[0]}={amount - 1} {home[1]}=1")
    recruited = one(events, ev.BannersRecruited)
    assert (recruited.order, recruited.counted, recruited.amount) == (order, amount, amount)
    assert after.banners_in(home[0]) == state.banners_in(home[0]) + amount - 1
    assert after.banners_in(home[1]) == state.banners_in(home[1]) + 1
    assert after.reserve[empire] == reserve - amount


def test_recruit_counts_icons_in_conquered_regions_not_home_regions_held_by_an_enemy_EN_add_banner_actions() -> None:
    """EN "Add Banner Actions": "For each [farm] icon within all regions controlled by this empire" — a conquered
    region counts; a home region an enemy holds does not (digest §4.1 "Icon counting")."""
    # Bear holds Amber Steppe and Hoofbeat Downs (Horse farms); Horse holds Pinewatch (a Bear farm).
    banners = {"amber-steppe": ("bear", 2), "hoofbeat-downs": ("bear", 1), "pinewatch": ("horse", 1)}
    state = office_state("bear", "sheriff", banners=banners)
    assert state.icons("bear", "farm") == 3  # Red Cliffs, Amber Steppe, Hoofbeat Downs
    (option,) = options(state, "recruit")
    assert option.choices["amount"] == 3
    assert "amber-steppe" in option.choices["regions"] and "pinewatch" not in option.choices["regions"]
    after, events = apply(state, "raven recruit amber-steppe=1 red-cliffs=2")
    assert one(events, ev.BannersRecruited).counted == 3
    assert after.banners["amber-steppe"] == ("bear", 3)


def test_recruit_places_only_in_controlled_regions_and_exactly_the_amount_EN_add_banner_actions() -> None:
    """EN "Add Banner Actions": "Add 2 banners to any region(s) controlled by this empire" — an empty home region
    counts; a home region held by an enemy, or another empire's region, does not."""
    state = office_state("eagle", "sheriff", banners={"sunspire-vale": ("eagle", 0), "high-eyrie": ("bear", 1)})
    assert_refused(state, "raven recruit hollow-pines=2", "hollow-pines is not controlled by eagle")
    assert_refused(state, "raven recruit high-eyrie=2", "high-eyrie is not controlled by eagle")
    assert_refused(state, "raven recruit stormcrag=3", "Recruit 2 adds 2 eagle banners, not 3")
    assert_refused(state, "raven recruit stormcrag=1", "Recruit 2 adds 2 eagle banners, not 1")
    assert_refused(state, "raven recruit stormcrag=2 cloudmere=0", "must be a whole number of at least 1")
    assert_refused(state, "raven recruit atlantis=2", "unknown region 'atlantis'")
    after, _ = apply(state, "raven recruit sunspire-vale=2")  # an empty home region is controlled
    assert after.banners["sunspire-vale"] == ("eagle", 2)


def test_recruit_is_partial_when_the_reserve_runs_short_EN_add_banner_actions() -> None:
    """EN "Add Banner Actions": "If there are only enough banners left in the supply to partially fulfill this
    action, you may take this action and simply place the ones that are available.\""""
    short = {**FULL_BEAR, "wolfmere": ("bear", 1)}  # 19 on the board, 1 in reserve
    state = office_state("bear", "sheriff", banners=short)
    assert state.reserve["bear"] == 1
    (option,) = options(state, "recruit")
    assert option.choices["amount"] == 1
    assert_refused(state, "raven recruit wolfmere=2", "adds 1 bear banner (the reserve has only 1), not 2")
    after, events = apply(state, "raven recruit wolfmere=1")
    recruited = one(events, ev.BannersRecruited)
    assert (recruited.counted, recruited.amount) == (2, 1)
    assert after.reserve["bear"] == 0


def test_recruit_cannot_be_chosen_with_an_empty_reserve_EN_add_banner_actions() -> None:
    """EN "Add Banner Actions": "If an empire has no more banners to place, you may not select this action.\""""
    state = office_state("bear", "sheriff", banners=FULL_BEAR)
    assert state.reserve["bear"] == 0
    assert [o.verb for o in rules.prompt(state).options if o.verb != "play"] == ["attack"]
    error = assert_refused(state, "raven recruit", "bear has no banners left in its reserve")
    assert error.rule == "EN Add Banner Actions"


def test_a_recruit_that_counts_no_icon_may_be_chosen_and_adds_nothing_digest_8_13() -> None:
    """Digest §8.13: count-based orders that come to 0 are selectable with no effect (OFFICIAL and REVISED).
    Horse holds both Bear farms: Bear's sheriff counts 0 farms."""
    state = office_state("bear", "sheriff", banners={"red-cliffs": ("horse", 1), "pinewatch": ("horse", 1)})
    (option,) = options(state, "recruit")
    assert option.choices["amount"] == 0
    assert_refused(state, "raven recruit frost-gate=1", "adds 0 bear banners, not 1")
    after, events = apply(state, "raven recruit")
    assert one(events, ev.BannersRecruited).amount == 0
    assert after.banners == state.banners


# === draw ======================================================================================================


@pytest.mark.parametrize(
    ("empire", "office", "order", "banners", "count"),
    [
        ("lion", "sheriff", "draw_1", {}, 1),
        ("bear", "steward", "draw_per_2_farms", {}, 1),  # 2 farms
        ("eagle", "steward", "draw_per_2_farms", {}, 1),  # 3 farms: rounded down
        ("lion", "steward", "draw_per_3_farms", {}, 1),  # 3 farms
        ("lion", "steward", "draw_per_3_farms", {"ochre-plains": ("horse", 1)}, 0),  # 2 farms
        ("horse", "steward", "draw_per_2_forts", {}, 1),  # 2 forts
        ("horse", "steward", "draw_per_2_forts", {"frost-gate": ("horse", 1), "hollow-pines": ("horse", 1)}, 2),
        ("elephant", "steward", "draw_per_3_forts", {"windmoor": ("elephant", 1), "saltmarsh": ("elephant", 1)}, 1),
        (
            "elephant",
            "steward",
            "draw_per_3_forts",
            {"windmoor": ("elephant", 1), "stormcrag": ("elephant", 1), "saltmarsh": ("elephant", 1)},
            2,
        ),
    ],
)
def test_each_draw_order_rounds_down_EN_draw_empire_card_actions(
    empire: str, office: str, order: str, banners: dict[str, tuple[str, int]], count: int
) -> None:
    """EN "Draw Empire Card Actions": "x1 Draw 1 card from this empire's deck" / "For every 2 [icons] within all
    regions controlled by this empire, draw 1 card" / "For every 3 ..." — rounded down (FR: by pairs and trios)."""
    state = office_state(empire, office, banners=banners)
    (option,) = [o for o in options(state, "draw") if o.choices["order"] == order]
    assert option.choices["count"] == count
    after, events = apply(state, f"raven draw order={order}")
    drawn = one(events, ev.CardsDrawn)
    assert (drawn.empire, drawn.counted, drawn.drawn) == (empire, count, count)
    assert after.hands["raven"].counts.get(empire, 0) == count
    assert after.decks[empire].draw == 8 - count


def test_a_short_deck_draws_what_is_left_digest_8_14() -> None:
    """Digest §8.14: "Draw from an empty or short deck. OFFICIAL: draw what is there." (EN "Empire Cards": 8 cards a
    deck; spent cards are shuffled back, so a deck runs short only while its cards are in hands.)"""
    banners = {"windmoor": ("horse", 1), "frost-gate": ("horse", 1), "hollow-pines": ("horse", 1)}  # 4 forts: 2
    state = office_state("horse", "steward", banners=banners, decks={e: Deck(8) for e in EMPIRES} | {"horse": Deck(1)})
    after, events = apply(state, "raven draw")
    drawn = one(events, ev.CardsDrawn)
    assert (drawn.counted, drawn.drawn) == (2, 1)
    assert after.decks["horse"].draw == 0 and after.hands["raven"].counts == {"horse": 1}
    empty = position(state, decks={**state.decks, "horse": Deck(0)})
    after, events = apply(empty, "raven draw")
    assert one(events, ev.CardsDrawn).drawn == 0


def test_revised_reshuffles_the_discard_pile_into_an_empty_deck_digest_8_14() -> None:
    """Digest §8.14 REVISED: "suggest shuffling the discard pile back in when the deck runs out" (REV "Decrees":
    spent decrees go "in a discard pile next to their respective deck")."""
    state = office_state("lion", "sheriff", ruleset="revised")
    state = position(state, decks={**state.decks, "lion": Deck(0, 3)})
    after, events = apply(state, "raven draw")
    drawn = one(events, ev.CardsDrawn)
    assert (drawn.drawn, drawn.reshuffled) == (1, 3)
    assert after.decks["lion"] == Deck(2, 0)


def test_named_cards_come_from_that_deck_and_not_from_a_hand_EN_draw_empire_card_actions() -> None:
    """EN "Draw Empire Card Actions": "draw 1 card from this empire's deck and add it to your hand" — the cards a
    record names are that deck's, and not cards another society holds."""
    state = hands(office_state("lion", "sheriff"), spider=["lion:3"])
    assert_refused(state, "raven draw bear:1", "bear:1 is not from the lion deck")
    assert_refused(state, "raven draw lion:3", "lion:3 is in a hand already")
    assert_refused(state, "raven draw lion:9", "numbered 1 to 8")
    assert_refused(state, "raven draw lion:1 lion:2", "draws 1 lion card: cannot name 2")
    after, events = apply(state, "raven draw lion:5")
    assert one(events, ev.CardsDrawn).cards == ("lion:5",)
    assert after.hands["raven"] == Hand({"lion": 1}, ("lion:5",))


# === attack ====================================================================================================


def test_an_attack_targets_a_region_another_empire_controls_EN_attack_action() -> None:
    """EN "Attack Action": "Choose a neighboring region controlled by another empire." An empty enemy home region is
    a target (FR example; digest §8.20)."""
    state = office_state("bear", "marshal", banners={"windmoor": ("horse", 0), "red-cliffs": ("bear", 2)})
    assert ("red-cliffs", "windmoor", 2) in options(state, "attack")[0].choices["attacks"]
    assert_refused(state, "raven attack red-cliffs frost-gate 1", "frost-gate is controlled by bear itself")
    after, events = apply(state, "raven attack red-cliffs windmoor 2")  # empty, with a fort: 1 dies on entry
    attacked = one(events, ev.Attacked)
    assert (attacked.defending, attacked.fort_kill, attacked.controller) == (0, 1, "bear")
    assert after.banners["windmoor"] == ("bear", 1)


def test_no_attack_across_seas_EN_attack_action() -> None:
    """EN "Attack Action": "You cannot attack across oceans or seas." On the stand-in, Wolfmere faces Saffron
    Fields across the Grey Sea: no land border."""
    state = office_state("bear", "marshal", banners={"wolfmere": ("bear", 3)})
    assert not state.board.adjacent("wolfmere", "saffron-fields")
    assert all(t != "saffron-fields" for _, t, _ in options(state, "attack")[0].choices["attacks"])
    error = assert_refused(state, "raven attack wolfmere saffron-fields 2", "does not border saffron-fields by land")
    assert error.rule == "EN Attack Action"
    assert_refused(state, "raven attack frost-gate windmoor 2", "does not border windmoor by land")


def test_the_source_holds_the_active_empires_banners_and_at_least_one_moves_EN_attack_action() -> None:
    """EN "Attack Action": "Move any number of banners from a single adjacent region controlled by the active
    empire" — at least one banner (digest §8.19)."""
    state = office_state("bear", "marshal", banners={"red-cliffs": ("bear", 0), "pinewatch": ("bear", 2)})
    assert_refused(state, "raven attack red-cliffs windmoor 1", "red-cliffs holds no bear banners")
    assert_refused(state, "raven attack amber-steppe khans-rest 1", "amber-steppe holds no bear banners")
    assert_refused(state, "raven attack pinewatch amber-steppe 0", "an attack moves at least one banner")
    assert_refused(state, "raven attack pinewatch amber-steppe 3", "pinewatch has only 2 bear banners")
    assert_refused(state, "raven attack pinewatch atlantis 1", "unknown region 'atlantis'")


def test_combat_kills_1_to_1_and_survivors_take_control_EN_combat() -> None:
    """EN "Combat": "Damage is applied to each side by killing (discarding) banners at a 1:1 ratio until one or both
    sides are depleted. If either side has any banners remaining, they have won the battle.\""""
    state = office_state("bear", "marshal", banners={"pinewatch": ("bear", 2), "amber-steppe": ("horse", 3)})
    after, events = apply(state, "raven attack pinewatch amber-steppe 2")
    attacked = one(events, ev.Attacked)
    assert (attacked.attacker_losses, attacked.defender_losses, attacked.controller) == (2, 2, "horse")
    assert after.banners["amber-steppe"] == ("horse", 1)
    won = office_state("bear", "marshal", banners={"pinewatch": ("bear", 4), "amber-steppe": ("horse", 1)})
    cities = won.cities("bear")
    after, events = apply(won, "raven attack pinewatch amber-steppe 4")
    assert one(events, ev.Attacked).controller == "bear"
    assert after.banners["amber-steppe"] == ("bear", 3)
    assert after.cities("bear") == cities + 1  # EN "Controlling Cities"


def test_a_fort_kills_one_attacking_banner_EN_combat() -> None:
    """EN "Map Symbols": "Fort: Kill 1 attacking banner when an attacking army enters this region." A lone attacker
    into an empty fort region dies and the region stays its home empire's (digest §8.17)."""
    state = office_state("bear", "marshal", banners={"windmoor": ("horse", 0)})
    after, events = apply(state, "raven attack red-cliffs windmoor 1")
    attacked = one(events, ev.Attacked)
    assert (attacked.fort_kill, attacked.attacker_losses, attacked.controller) == (1, 1, "horse")
    assert "windmoor" not in after.banners and "red-cliffs" not in after.banners


# === swap agent ================================================================================================


def test_official_swap_agent_to_an_empty_position_then_its_order_EN_swap_agent_action() -> None:
    """EN "Swap Agent Action": "Swap this agent with any other position within this council, then immediately take
    that position's action. (This does not move the turn marker. Play continues with the next space clockwise
    around the board.)" FR: "même occupé" — so an empty one too (digest §8.10–11)."""
    state = office_state("bear", "chancellor", {"bear.chancellor": "raven", "bear.marshal": "spider", **NEXT})
    (option,) = options(state, "swap-agent")
    assert option.choices["targets"] == ("sheriff", "steward", "marshal")
    assert_refused(state, "raven swap-agent chancellor", "cannot swap to the bear chancellor", rule="EN Swap Agent")
    assert_refused(state, "raven swap-agent admiral", "unknown office 'admiral'")
    after, events = apply(state, "raven swap-agent sheriff")
    swapped = one(events, ev.AgentSwapped)
    assert (swapped.target, swapped.displaced, swapped.options) == ("sheriff", None, ("sheriff",))
    assert after.council == {
        ("bear", "sheriff"): "raven",
        ("bear", "marshal"): "spider",
        ("eagle", "sheriff"): "serpent",
    }
    prompt = rules.prompt(after)
    assert prompt.actors == ("raven",) and {o.choices["at"] for o in prompt.options if o.verb != "play"} == {
        "bear.sheriff"
    }
    assert_refused(after, "spider recruit frost-gate=2", "raven owes an order at bear.sheriff, not spider")
    after, events = apply(after, "raven recruit frost-gate=2")
    assert one(events, ev.BannersRecruited).office == "sheriff"
    # play continues after the chancellor: Bear's turn ends
    assert one(events, ev.SupplyChecked).empire == "bear"
    assert one(events, ev.EmpireTurnStarted).empire == "eagle"


def test_official_swap_agent_with_an_occupied_position_trades_places_FR_changer_d_emplacement() -> None:
    """FR "Changer d'emplacement": "du même Conseil (même occupé – dans ce cas, échangez de place avec l'autre
    agent) puis résolvez l'une des actions correspondantes.\""""
    state = office_state("bear", "chancellor", {"bear.chancellor": "raven", "bear.marshal": "spider", **NEXT})
    after, events = apply(state, "raven swap-agent marshal")
    assert one(events, ev.AgentSwapped).displaced == "spider"
    assert after.council[("bear", "marshal")] == "raven" and after.council[("bear", "chancellor")] == "spider"
    after, events = apply(after, "raven attack red-cliffs windmoor 1")
    assert one(events, ev.Attacked).office == "marshal"
    assert one(events, ev.EmpireTurnStarted).empire == "eagle"  # spider's chancellor does not act again


def test_revised_swap_agent_needs_another_agent_and_acts_from_a_newly_controlled_position_REV_chancellor() -> None:
    """REV "Council orders", Chancellor, order B: "Switch your agent ... with an other political agent manipulating
    this council, then immediately execute one order from this new position. After your order is executed, the ...
    Council is over: check the supply level ... (You may execute your order from any position you just acquired
    control of).\""""
    alone = office_state("bear", "chancellor", ruleset="revised")
    assert not options(alone, "swap-agent")
    assert_refused(alone, "raven swap-agent sheriff", "there is no other agent in the bear council to swap with")
    state = office_state(
        "bear", "chancellor", {"bear.chancellor": "raven", "bear.marshal": "spider", **NEXT}, ruleset="revised"
    )
    assert options(state, "swap-agent")[0].choices["targets"] == ("marshal",)
    error = assert_refused(state, "raven swap-agent sheriff", "(it may swap to: marshal)")
    assert error.rule == "REV Council orders: Chancellor"
    after, events = apply(state, "raven swap-agent marshal")
    assert one(events, ev.AgentSwapped).options == ("sheriff", "steward", "marshal")
    assert {o.choices["at"] for o in rules.prompt(after).options if o.verb != "play"} == {
        "bear.sheriff",
        "bear.steward",
        "bear.marshal",
    }
    assert_refused(after, "raven draw order=draw_per_2_farms at=bear.chancellor", "not an order offered here")
    assert_refused(after, "raven attack red-cliffs windmoor 1", "more than one attack order is owed")
    after, events = apply(after, "raven draw at=bear.steward")
    assert one(events, ev.CardsDrawn).office == "steward"
    # the council is over: spider, now on the chancellor, gives no order; raven may play an (I) decree it drew
    # (REV "Decrees": "played immediately as the decree is drawn"), then the supply check follows
    assert not of_type(events, ev.SupplyChecked) and rules.card_window(after) == ("raven",)
    assert_refused(after, "spider no-card", "spider is not waited for (raven is)", rule="REV Decrees")
    after, events = apply(after, "raven no-card")
    assert events[0] == ev.AfterOrderPassed("raven")
    assert one(events, ev.SupplyChecked).empire == "bear"
    assert one(events, ev.EmpireTurnStarted).empire == "eagle"


def steward_swap_board() -> Board:
    """The stand-in board with swap-agent offered by the Bear Steward too (the shipped councils offer it on the
    Chancellor only, where ending the council and moving to the next office look the same)."""
    text = (resources.files("whispers.fixtures") / "boards" / "standin.toml").read_text(encoding="utf-8")
    shipped = 'steward = ["draw_per_2_farms", "recruit_2"]'
    assert text.count(shipped) == 1
    text = text.replace(shipped, 'steward = ["draw_per_2_farms", "swap_agent"]').replace(
        'id = "standin"', 'id = "standin-steward-swap"'
    )
    return parse_board(text.encode(), "a test board derived from standin.toml")


def test_revised_swap_agent_ends_the_council_from_any_office_REV_council_orders() -> None:
    """REV "Council orders": "Switch your agent ... with an other political agent manipulating this council, then
    immediately execute one order from this new position. After your order is executed, the ... Council is over:
    check the supply level". On a board whose Bear Steward offers the swap, raven (steward) swaps with spider
    (marshal) and gives the marshal's order; rat's chancellor then gives none: the supply check follows."""
    started = rules.start("test", PLAYERS, None, ruleset_of("revised"), steward_swap_board())
    state = setup_done(rules.evolve(None, started))
    council = {"bear.steward": "raven", "bear.marshal": "spider", "bear.chancellor": "rat", **NEXT}
    state = at_office(state, "bear", "steward", council=council)
    assert {o.verb for o in rules.prompt(state).options} >= {"swap-agent"}
    state, events = apply(state, "raven swap-agent marshal")
    assert one(events, ev.AgentSwapped).office == "steward"
    assert rules.prompt(state).actors == ("raven",)
    after, events = apply(state, "raven recruit order=recruit_per_fort at=bear.marshal frost-gate=1 ice-hall=1")
    assert not [e for e in events if isinstance(e, ev.OfficeSkipped) and e.office == "chancellor"]
    assert one(events, ev.SupplyChecked).empire == "bear"
    assert one(events, ev.EmpireTurnStarted).empire == "eagle"
    assert rules.prompt(after).actors == ("serpent",)
    assert_refused(after, "rat attack red-cliffs windmoor 1", "serpent controls the eagle sheriff, not rat")


def test_revised_swap_agent_offers_only_positions_just_acquired_REV_chancellor() -> None:
    """REV Chancellor order B: "(You may execute your order from any position you just acquired control of)."
    Raven sits on the Steward and the Chancellor, Spider on the Marshal. Raven swaps its chancellor agent with
    Spider's: Raven already controlled the Sheriff and Steward (through its steward agent), and they have acted;
    the only position it just acquired is the Marshal."""
    council = {"bear.steward": "raven", "bear.marshal": "spider", "bear.chancellor": "raven", **NEXT}
    state = office_state("bear", "chancellor", council, ruleset="revised")
    _, events = apply(state, "raven swap-agent marshal")
    assert one(events, ev.AgentSwapped).options == ("marshal",)


# === offices with no legal order ===============================================================================


def test_an_office_with_no_legal_order_is_skipped_with_the_reason_digest_8_8() -> None:
    """Digest §8.8 / REV FAQ addendum: "If there is no valid target, you may not choose this order. If no order is
    valid for a given council position, that position is skipped." EN "Add Banner Actions": with no banners left
    the Lion Marshal's only order (+2 per fort) cannot be chosen."""
    state = office_state("lion", "steward", {"lion.marshal": "raven", **NEXT}, banners=FULL_LION)
    assert state.reserve["lion"] == 0
    after, events = apply(state, "raven draw")
    skipped = of_type(events, ev.OfficeSkipped)
    assert [(e.office, e.controller, office_skip_reason(e)) for e in skipped if e.empire == "lion"] == [
        ("marshal", "raven", "no legal order at lion.marshal"),
        ("chancellor", None, "no agent controls it"),
    ]
    _, events = apply(after, "raven no-card")  # raven drew: it may play a card before the supply check
    assert of_type(events, ev.SupplyChecked)[0].empire == "lion"


# === cleanup ===================================================================================================


def cleanup_state(**held: list[str]) -> GameState:
    state = hands(setup_done(new_state()), **held)
    return position(state, phase="cleanup", round=1)


def test_only_hands_over_5_discard_down_to_exactly_5_EN_cleanup_phase() -> None:
    """EN "Cleanup Phase": "each player must discard any empire cards in excess of the maximum hand size of 5." EN
    "Playing Cards": "Any time a card is played or discarded, it should be shuffled back into the empire deck it
    belongs to.\""""
    state = cleanup_state(
        raven=["bear:1", "bear:2", "lion:1", "lion:2", "eagle:1", "eagle:2", "horse:1"],
        spider=["bear:3", "bear:4", "lion:3", "lion:4", "eagle:3"],
    )
    (option,) = options(state, "discard")
    assert (option.society, option.choices["count"]) == ("raven", 2)
    error = assert_refused(state, "spider discard bear:3", "spider holds 5 cards: only hands over 5 discard")
    assert error.rule == "EN Cleanup Phase"
    assert_refused(state, "raven discard bear:1 bear:2 lion:1", "raven discards down to 5: 2 cards, not 3")
    assert_refused(state, "raven discard elephant:1", "raven holds no elephant card")
    assert_refused(state, "raven discard bear:5", "raven does not hold bear:5")
    after, events = apply(state, "raven discard bear:1")
    assert after.phase == "cleanup" and after.hands["raven"].size == 6
    after, events = apply(after, "raven discard horse:1")
    assert after.hands["raven"].size == 5
    assert after.decks["bear"].draw == state.decks["bear"].draw + 1  # back into its deck
    assert ev.PhaseStarted(1, "swap") in events


def test_a_discard_outside_cleanup_is_refused_EN_cleanup_phase() -> None:
    """EN "5-Card Limit": "You may add as many cards to your hand as you like, but during the Cleanup Phase ... you
    must discard down to no more than 5.\""""
    state = hands(office_state("bear", "sheriff"), raven=["bear:1", "lion:1", "lion:2", "lion:3", "lion:4", "eagle:1"])
    assert_refused(state, "raven discard bear:1", "discard is not a move of the empire phase")


# === swap phase ================================================================================================


def swap_state(ruleset: str = "official", sealed: tuple[str, ...] = (), **changes: object) -> GameState:
    state = setup_done(new_state(ruleset=ruleset), sealed=sealed)
    return position(state, phase="swap", round=1, step=0, **changes)


def test_swap_two_unrevealed_tokens_revealing_both_EN_swap_phase() -> None:
    """EN "Swap Phase": "you each have the opportunity to swap any two of your unrevealed loyalty tokens. To swap two
    loyalty tokens, simply switch the loyalty slot in which the two loyalty tokens you chose are currently positioned
    in and flip them face up ... These are now revealed and cannot be swapped in subsequent turns.\""""
    state = swap_state()
    raven = tokens_for(0)  # devout bear ... opposed horse
    assert_refused(state, "raven swap-loyalty devout devout", "swap two different slots")
    after, events = apply(state, "raven swap-loyalty devout opposed")
    swapped = one(events, ev.LoyaltySwapped)
    assert swapped.revealed == {"devout": raven["opposed"], "opposed": raven["devout"]}
    loyalty = after.loyalty["raven"]
    assert loyalty.tokens == {**raven, "devout": raven["opposed"], "opposed": raven["devout"]}
    assert loyalty.revealed == swapped.revealed and loyalty.swaps == 1 and loyalty.concealed == 3
    # next round: the revealed tokens cannot be swapped again
    later = position(after, step=0, round=2)
    assert options(later, "swap-loyalty")[0].choices["slots"] == ("dutiful", "affiliated", "unallied")
    assert_refused(later, "raven swap-loyalty devout dutiful", "the token on devout is revealed already")
    after, _ = apply(later, "raven swap-loyalty dutiful affiliated")
    assert after.loyalty["raven"].concealed == 1


def test_swapping_is_optional_and_goes_clockwise_from_the_first_player_EN_swap_phase() -> None:
    """EN "Swap Phase": "Starting with the first player and proceeding clockwise, you each have the opportunity to
    swap\" — a player may pass."""
    state = swap_state(first="rat")
    assert rules.prompt(state).actors == ("rat",)
    assert_refused(state, "raven pass", "it is rat's turn, not raven's")
    after, events = apply(state, "rat pass")
    assert one(events, ev.SwapPassed) == ev.SwapPassed("rat")
    assert rules.prompt(after).actors == ("serpent",)
    assert after.loyalty["rat"].swaps == 0


def test_a_society_with_fewer_than_two_concealed_tokens_is_skipped_EN_swap_phase() -> None:
    """EN "Swap Phase": "swap any two of your unrevealed loyalty tokens" — with one left there is nothing to swap."""
    state = swap_state()
    revealed = {"devout": "bear", "dutiful": "eagle", "affiliated": "elephant", "unallied": "lion"}
    state = position(state, loyalty={**state.loyalty, "spider": Loyalty(tokens_for(0), revealed, 2)})
    after, events = apply(state, "raven pass")
    assert one(events, ev.Skipped) == ev.Skipped("spider", "swap", "too-few-concealed")
    assert rules.prompt(after).actors == ("rat",)


def test_a_sealed_set_names_the_revealed_empires_EN_swap_phase() -> None:
    """EN "Swap Phase": "flip them face up so the empire symbols are now visible" — for a sealed set the record
    learns them from the table."""
    state = swap_state(sealed=("raven",))
    error = assert_refused(state, "raven swap-loyalty devout opposed", "raven's loyalty is sealed: name the revealed")
    assert error.rule == "EN Swap Phase"
    error = assert_refused(state, "raven swap-loyalty devout=lion opposed=lion", "cannot both hold lion")
    assert "different empires" not in str(error)  # it names the fault (one empire twice), not its opposite
    assert_refused(state, "raven swap-loyalty devout=lion opposed=wolf", "unknown empire 'wolf'")
    after, events = apply(state, "raven swap-loyalty devout=lion opposed=bear")
    assert one(events, ev.LoyaltySwapped).revealed == {"devout": "lion", "opposed": "bear"}
    assert after.loyalty["raven"].tokens is None and after.loyalty["raven"].revealed == {
        "devout": "lion",
        "opposed": "bear",
    }
    later = position(after, step=0, round=2)
    assert_refused(later, "raven swap-loyalty dutiful=lion affiliated=eagle", "revealed on another slot already")


def test_a_recorded_sets_named_empires_must_agree_whispers() -> None:
    """A recorded set knows what a swap reveals: empires named for it must agree with the record."""
    state = swap_state()
    error = assert_refused(state, "raven swap-loyalty devout=lion opposed=eagle", "the record has devout=horse")
    assert error.rule.startswith("whispers")
    after, _ = apply(state, "raven swap-loyalty devout=horse opposed=bear")
    assert after.loyalty["raven"].revealed == {"devout": "horse", "opposed": "bear"}


# === first player marker =======================================================================================


def round_end(ruleset: str, first: str = "raven", **changes: object) -> tuple[GameState, list[ev.Event]]:
    """Horse's chancellor (raven) gives the last order of round 1."""
    state = office_state("horse", "chancellor", {"horse.chancellor": "raven"}, ruleset=ruleset, first=first, **changes)
    return apply(state, "raven attack windmoor red-cliffs 1")


def test_official_first_player_passes_clockwise_before_cleanup_and_swap_EN_mark_the_turn() -> None:
    """EN "Mark the Turn": "Place the current turn marker on the next available space on the turn tracker. The first
    player marker now passes to the next player clockwise." FR "Manche suivante": "à son voisin de gauche" — then the
    Swap phase starts with the new first player."""
    state, events = round_end("official", first="serpent")
    flow = [e for e in events if isinstance(e, ev.RoundEnded | ev.FirstPlayerPassed | ev.PhaseStarted)]
    assert flow == [
        ev.RoundEnded(1),
        ev.FirstPlayerPassed("serpent", "raven"),
        ev.PhaseStarted(1, "cleanup"),
        ev.PhaseStarted(1, "swap"),
    ]
    assert state.first == "raven" and rules.prompt(state).actors == ("raven",)


def test_revised_first_player_passes_after_the_swaps_REV_phase_3() -> None:
    """REV "Phase 3: Year end": "... players have the option to swap two concealed loyalties ... The player to the
    left of the current first player becomes the first player." (digest §8.2)"""
    state, events = round_end("revised", first="spider")
    assert not of_type(events, ev.FirstPlayerPassed)
    state, _ = apply(state, "raven retrieve horse.chancellor")
    assert state.phase == "swap" and rules.prompt(state).actors == ("spider",)
    state, events = play(state, "spider pass", "rat pass", "serpent pass", "raven pass")
    assert of_type(events, ev.FirstPlayerPassed) == [ev.FirstPlayerPassed("spider", "rat")]
    assert ev.PhaseStarted(2, "deploy") in events
    assert rules.prompt(state).actors == ("rat",)


# === end of the game ===========================================================================================


def test_the_game_ends_right_after_round_4s_empire_turns_EN_mark_the_turn() -> None:
    """EN "Mark the Turn": "If the last turn marker is placed, the game ends (without performing the Swap and Cleanup
    Phases), and you proceed to Final Scoring." Hands keep more than 5 cards for the tie-break."""
    six = ["bear:1", "bear:2", "lion:1", "lion:2", "eagle:1", "eagle:2"]
    state = hands(office_state("horse", "chancellor", {"horse.chancellor": "raven"}, round=4), spider=six)
    after, events = apply(state, "raven attack windmoor red-cliffs 1")
    assert of_type(events, ev.PhaseStarted) == [] and of_type(events, ev.FirstPlayerPassed) == []
    assert ev.RoundEnded(4) in events
    scored = one(events, ev.GameScored)
    assert scored.scores["spider"]["cards"] == 6
    assert after.phase == "over" and after.over and after.scored
    assert rules.prompt(after).actors == ()
    error = assert_refused(after, "check frost-gate=2", "the game is over")
    assert error.rule == "EN Final Scoring"


def test_sealed_sets_are_revealed_at_the_end_and_agree_with_swaps_EN_final_scoring() -> None:
    """EN "Final Scoring": "Reveal all loyalty tokens and score them." A sealed set's reveal must agree with the
    tokens its swaps revealed; a recorded set has nothing to reveal."""
    state = office_state("horse", "chancellor", {"horse.chancellor": "raven"}, round=4)
    state = position(state, loyalty={**state.loyalty, "rat": Loyalty(None, {"devout": "lion", "opposed": "bear"}, 1)})
    state, events = apply(state, "raven attack windmoor red-cliffs 1")
    assert ev.PhaseStarted(4, "reveal") in events and not of_type(events, ev.GameScored)
    assert rules.prompt(state).actors == ("rat",)
    wrong = "rat reveal devout=bear dutiful=eagle affiliated=elephant unallied=horse opposed=lion"
    assert_refused(state, wrong, "devout was revealed as lion by a swap, not bear", rule="whispers")
    assert_refused(state, loyalty_line("raven", tokens_for(1)).replace("loyalty", "reveal"), "disagrees with its")
    assert_refused(state, loyalty_line("raven", tokens_for(0)).replace("loyalty", "reveal"), "nothing to reveal")
    right = "rat reveal devout=lion dutiful=eagle affiliated=elephant unallied=horse opposed=bear"
    after, events = apply(state, right)
    assert one(events, ev.LoyaltyRevealed).tokens["devout"] == "lion"
    scored = one(events, ev.GameScored)
    assert scored.scores["rat"]["concealed"] == 3 and scored.scores["rat"]["swaps"] == 1
    assert after.over


def test_revised_final_reveal_is_not_refused_because_a_swap_moved_a_devout_token_REV_setup() -> None:
    """REV "Setup": devout empires are dealt from one set (distinct at setup); REV "Phase 3" lets a player swap any
    two concealed loyalties, including the devout one. Raven (devout Bear, dutiful Eagle) swaps devout and dutiful:
    its devout token is now Eagle. Spider, sealed, was dealt Eagle as devout at setup and never swapped: its final
    reveal is legal."""
    state = new_state(players=("raven", "spider"), ruleset="revised")
    state, _ = play(state, loyalty_line("raven", tokens_for(0)), "spider loyalty sealed")
    state = position(state, phase="swap", round=1, step=0)
    state, _ = play(state, "raven swap-loyalty devout dutiful", "spider pass")
    assert state.loyalty["raven"].tokens is not None and state.loyalty["raven"].tokens["devout"] == "eagle"
    state = position(state, phase="round_end", round=4)
    for event in rules.advance(state):
        state = rules.evolve(state, event)
    assert state.phase == "reveal"
    _, events = apply(state, "spider reveal devout=eagle dutiful=lion affiliated=bear unallied=horse opposed=elephant")
    assert of_type(events, ev.GameScored)


def test_revised_final_reveal_with_a_devout_empire_another_society_was_dealt_is_refused_REV_setup() -> None:
    """REV "Setup": "Every player put the loyalty token ... that matches the one he got dealt for the seat order in
    his « devout » slot" — dealt from one set of five, so no two societies start devout to one empire. The check
    holds when a sealed set is revealed at the end too, on the set as it was placed (its swaps undone)."""
    state = new_state(players=("raven", "spider"), ruleset="revised")
    state, _ = play(state, loyalty_line("raven", tokens_for(0)), "spider loyalty sealed")  # raven: devout bear
    at_end = position(state, phase="round_end", round=4)
    for event in rules.advance(at_end):
        at_end = rules.evolve(at_end, event)
    assert at_end.phase == "reveal"
    same = "spider reveal devout=bear dutiful=eagle affiliated=elephant unallied=horse opposed=lion"
    error = assert_refused(at_end, same, "raven is devout to bear already")
    assert error.rule == "REV Setup"
    # spider swapped devout and dutiful (now eagle and bear): it was placed devout to bear, as raven was
    swapped = position(state, phase="swap", round=1, step=0)
    swapped, _ = play(swapped, "raven pass", "spider swap-loyalty devout=eagle dutiful=bear")
    swapped = position(swapped, phase="round_end", round=4)
    for event in rules.advance(swapped):
        swapped = rules.evolve(swapped, event)
    moved = "spider reveal devout=eagle dutiful=bear affiliated=elephant unallied=horse opposed=lion"
    assert_refused(swapped, moved, "raven is devout to bear already", rule="REV Setup")
    fine = "spider reveal devout=eagle dutiful=lion affiliated=bear unallied=horse opposed=elephant"
    _, events = apply(at_end, fine)
    assert of_type(events, ev.GameScored)


# === scoring tie-breaks ========================================================================================


def tied(ruleset: str, raven: Loyalty, spider: Loyalty, raven_cards: int = 0, spider_cards: int = 0) -> ev.GameScored:
    state = new_state(players=("raven", "spider"), ruleset=ruleset)
    state = hands(
        state,
        raven=[f"bear:{i + 1}" for i in range(raven_cards)],
        spider=[f"lion:{i + 1}" for i in range(spider_cards)],
    )
    return rules.score(final(state, {"raven": raven, "spider": spider}))


SAME = tokens_for(0)


def names(line: str, label: str) -> set[str]:
    head, _, listed = line.partition(": ")
    assert head == label, line
    return set(listed.split(", "))


def test_official_ties_go_to_fewest_swaps_then_most_cards_then_shared_EN_final_scoring() -> None:
    """EN "Final Scoring": "If two players are tied for highest score then the player that swapped loyalty the least
    wins. If any players are still tied, the player with the most empire cards in hand wins." Beyond that: a shared
    victory (digest §8.40)."""
    swapped = Loyalty(SAME, {"unallied": SAME["unallied"], "opposed": SAME["opposed"]}, 1)
    scored = tied("official", Loyalty(SAME, {}), swapped, spider_cards=4)
    assert scored.scores["raven"]["total"] == scored.scores["spider"]["total"]
    assert scored.winner == "raven" and scored.tied == ()
    assert trail_step(scored.trail[1]) == "tie-break, fewest loyalty swaps: raven"
    scored = tied("official", Loyalty(SAME, {}), Loyalty(SAME, {}), raven_cards=2, spider_cards=3)
    assert scored.winner == "spider" and trail_step(scored.trail[-2]) == "tie-break, most cards in hand: spider"
    scored = tied("official", Loyalty(SAME, {}), Loyalty(SAME, {}), raven_cards=2, spider_cards=2)
    assert scored.winner is None and set(scored.tied) == {"raven", "spider"}
    assert trail_step(scored.trail[-1]) == "still tied after every tie-break: a shared win"


def test_revised_ties_go_to_most_concealed_then_most_decrees_then_no_winner_REV_scoring() -> None:
    """REV "Scoring": "In case of tie, the player with the most concealed loyalties at the end of the 4th year wins.
    If there is still a tie, the player holding the most decrees wins. If there is still a tie, there is no
    winner.\""""
    # raven: SAME, all 5 concealed: 24 + 18 + 10 + 0 - 4 + 5 = 53; spider swapped twice, 1 concealed:
    # bear 6x4 + eagle 6x3 + lion 7x2 + elephant 5x0 + horse 4x-1 + 1 = 53
    spider_tokens = {
        "devout": "bear",
        "dutiful": "eagle",
        "affiliated": "lion",
        "unallied": "elephant",
        "opposed": "horse",
    }
    spider = Loyalty(spider_tokens, {s: spider_tokens[s] for s in SLOTS[1:]}, 2)
    scored = tied("revised", Loyalty(SAME, {}), spider, spider_cards=3)
    assert scored.scores["raven"]["total"] == scored.scores["spider"]["total"] == 53
    assert scored.winner == "raven" and trail_step(scored.trail[1]) == "tie-break, most concealed loyalties: raven"
    scored = tied("revised", Loyalty(SAME, {}), Loyalty(SAME, {}), raven_cards=1, spider_cards=2)
    assert names(trail_step(scored.trail[1]), "tie-break, most concealed loyalties") == {"raven", "spider"}
    assert scored.winner == "spider" and trail_step(scored.trail[2]) == "tie-break, most cards in hand: spider"
    assert scored.ranking == ("spider", "raven")
    scored = tied("revised", Loyalty(SAME, {}), Loyalty(SAME, {}), raven_cards=2, spider_cards=2)
    assert scored.winner is None and set(scored.tied) == {"raven", "spider"}
    assert trail_step(scored.trail[-1]) == "still tied after every tie-break: no winner"


# === cards =====================================================================================================


def test_the_active_offices_controller_may_play_a_card_before_its_order_EN_playing_cards() -> None:
    """EN "Playing Cards": "You can play a card immediately before, during, or immediately after any action taken for
    a council position you control. The council position or location does not have to match the empire of the
    card(s) being played.\""""
    state = hands(office_state("bear", "sheriff"), raven=["lion:2", "eagle:1"], spider=["bear:1"])
    plays = options(state, "play")
    assert [o.society for o in plays] == ["raven"]
    error = assert_refused(state, "spider play bear:1", "spider may not play a card now")
    assert error.rule == "EN Playing Cards"
    after, events = apply(state, "raven play lion:2 ability=1 add=bear:frost-gate:2")
    played = one(events, ev.CardPlayed)
    assert played.effects.add == (("bear", "frost-gate", 2),)
    assert after.banners["frost-gate"] == ("bear", 4) and after.reserve["bear"] == state.reserve["bear"] - 2
    assert after.hands["raven"] == Hand({"eagle": 1}, ("eagle:1",))
    assert after.decks["lion"].draw == state.decks["lion"].draw + 1  # shuffled back into its deck
    assert rules.prompt(after).actors == ("raven",)  # the order is still to come


def test_no_card_play_outside_the_empire_turns_EN_playing_cards() -> None:
    """EN "Playing Cards": cards are played around "any action taken for a council position you control" — not in
    the deploy, cleanup or swap phases (digest §6.2)."""
    state = hands(setup_done(new_state()), raven=["lion:2"])
    assert_refused(state, "raven play lion:2", "raven may not play a card now")
    assert_refused(position(state, phase="swap"), "raven play lion:2", "raven may not play a card now")


def test_official_cards_may_be_played_immediately_after_an_order_EN_playing_cards() -> None:
    """EN "Playing Cards": "immediately before, during, or immediately after any action taken for a council position
    you control" — until the next order is taken."""
    council = {"bear.sheriff": "raven", "bear.steward": "spider", **NEXT}
    state = hands(office_state("bear", "sheriff", council), raven=["lion:2", "lion:3"], spider=["eagle:1"])
    after, _ = apply(state, "raven recruit frost-gate=2")
    assert {o.society for o in options(after, "play")} == {"spider", "raven"}
    after, _ = apply(after, "raven play lion:2")
    after, _ = apply(after, "spider draw")
    assert_refused(after, "raven play lion:3", "raven may not play a card now")


def test_revised_decrees_are_never_played_after_an_order_REV_decrees() -> None:
    """REV "Decrees": "Reminder: per this ruleset you may not play a decree after a council order is executed." But
    "(I) effects must be played immediately as the decree is drawn by the player who drew it.\""""
    council = {"bear.sheriff": "raven", "bear.steward": "spider", **NEXT}
    state = hands(office_state("bear", "sheriff", council, ruleset="revised"), raven=["lion:2"])
    after, _ = apply(state, "raven recruit frost-gate=2")
    error = assert_refused(after, "raven play lion:2", "raven may not play a card now")
    assert error.rule == "REV Decrees"
    # having drawn, the drawer may play at once
    council = {"bear.steward": "raven", "bear.marshal": "spider", **NEXT}
    drew = hands(office_state("bear", "steward", council, ruleset="revised"), raven=["lion:2"])
    after, _ = apply(drew, "raven draw")
    after, events = apply(after, "raven play lion:2")
    assert one(events, ev.CardPlayed).card == "lion:2"
    assert after.decks["lion"].discard == 1  # REV: a discard pile beside the deck


def test_a_card_the_hand_does_not_hold_is_refused_and_its_cost_leaves_the_hand_EN_playing_cards() -> None:
    """EN "Playing Cards": "The symbols next to the ability indicate empire cards that must be discarded to pay for
    that ability. The card you are playing counts as a "discard" for this payment." Example: a Bear card and a Lion
    card: "two cards total will leave your hand.\""""
    state = hands(office_state("bear", "sheriff"), raven=["bear:4", "lion:1", "eagle"])
    assert_refused(state, "raven play horse:1", "raven holds no horse card")
    assert_refused(state, "raven play bear:5", "raven does not hold bear:5")
    assert_refused(state, "raven play bear:4 pay=elephant:1", "raven holds no elephant card")
    assert_refused(state, "raven play bear:4 pay=bear:4", "raven holds no bear card")
    after, events = apply(state, "raven play bear:4 ability=2 pay=lion:1")
    assert one(events, ev.CardPlayed).pay == ("lion:1",)
    assert after.hands["raven"].counts == {"eagle": 1}
    assert after.decks["bear"].draw == state.decks["bear"].draw + 1
    assert after.decks["lion"].draw == state.decks["lion"].draw + 1
    # a card the record does not name: its empire is enough
    after, _ = apply(after, "raven play eagle")
    assert after.hands["raven"].size == 0


def test_card_effects_are_applied_and_may_not_leave_two_empires_in_a_region_EN_combat() -> None:
    """EN "Combat": "Combat occurs when banners from one empire move into a region controlled by another empire" —
    an effect that puts two empires' banners in one region must record the combat's losses too (digest §5.1)."""
    state = hands(office_state("bear", "sheriff"), raven=["lion:2", "horse:1", "bear:3"])
    error = assert_refused(
        state, "raven play lion:2 add=bear:windmoor:1", "windmoor would hold banners of bear and horse"
    )
    assert error.rule == "EN Combat"
    assert_refused(state, "raven play lion:2 move=red-cliffs:windmoor:1", "would hold banners of bear and horse")
    assert_refused(state, "raven play lion:2 kill=windmoor:3", "windmoor holds 2 horse banners, cannot kill 3")
    after, events = apply(state, "raven play lion:2 move=red-cliffs:windmoor:1 kill=windmoor:horse:2")
    played = one(events, ev.CardPlayed)
    assert played.effects.move == (("red-cliffs", "windmoor", "bear", 1),)
    assert after.banners["windmoor"] == ("bear", 1) and after.reserve["horse"] == state.reserve["horse"] + 2
    after, _ = apply(after, "raven play horse:1 kill=windmoor:1")  # the empire filled in from the board
    assert "windmoor" not in after.banners and after.controller("windmoor") == "horse"


@pytest.mark.parametrize(("effects", "message", "rule"), [
    (ev.Effects(add=(("wolf", "windmoor", 1),)), "unknown empire 'wolf'", "record"),
    (ev.Effects(add=(("bear", "atlantis", 1),)), "unknown region 'atlantis'", "record"),
    (ev.Effects(add=(("bear", "windmoor", 0),)), "banners added must be at least 1", "record"),
    (ev.Effects(add=(("horse", "windmoor", 10),)), "horse's reserve holds only 9 banners", "EN Components"),
    (ev.Effects(add=(("horse", "windmoor", 9), ("horse", "saltmarsh", 1))), "horse's reserve holds only 0 banners",
     "EN Components"),
    (ev.Effects(kill=(("atlantis", "horse", 1),)), "unknown region 'atlantis'", "record"),
    (ev.Effects(kill=(("windmoor", "horse", 3),)), "windmoor holds 2 horse banners, cannot kill 3", "record"),
    (ev.Effects(kill=(("windmoor", "horse", 0),)), "windmoor holds 2 horse banners, cannot kill 0", "record"),
    (ev.Effects(kill=(("windmoor", "bear", 1),)), "windmoor holds 0 bear banners, cannot kill 1", "record"),
    (ev.Effects(move=(("windmoor", "atlantis", "horse", 1),)), "unknown region 'atlantis'", "record"),
    (ev.Effects(move=(("atlantis", "windmoor", "horse", 1),)), "unknown region 'atlantis'", "record"),
    (ev.Effects(move=(("bellrock", "windmoor", "bear", 2),)), "bellrock holds 1 bear banner, cannot move 2",
     "record"),
    (ev.Effects(kill=(("windmoor", "horse", 2),), move=(("windmoor", "saltmarsh", "horse", 1),)),
     "windmoor holds 0 horse banners, cannot move 1", "record"),
])
def test_a_banner_effect_that_cannot_be_applied_is_refused_saying_why(effects: ev.Effects, message: str,
                                                                      rule: str) -> None:
    """Each check of a card's or a ruling's banner changes, failing: its message and rule (the messages are built
    only when a check fails, so a fold does not pay for them)."""
    from whispers.ledger.core.effects import apply_banner_effects

    with pytest.raises(RuleError) as refused:
        apply_banner_effects(office_state("bear", "sheriff"), effects, "record")
    assert (refused.value.reason, refused.value.rule) == (message, rule)


def test_a_card_may_give_up_the_active_order_for_another_position_the_player_controls_EN_card_clarifications() -> None:
    """EN "Card Clarifications": "This must be done before taking an action, you are exchanging one possible action
    for another. If the second position is in a different empire, take that action on behalf of the second empire.
    Play then continues clockwise from the first (abandoned) position" (the Eagle card moves the active agent to an
    empty position; the Lion card needs no move: "you must control both positions")."""
    council = {"bear.sheriff": "raven", "bear.steward": "spider", **NEXT}
    state = hands(office_state("bear", "sheriff", council), raven=["eagle:1", "lion:1"])
    assert_refused(state, "raven play lion:1 act=eagle.sheriff", "raven does not control eagle.sheriff")
    after, events = apply(state, "raven play eagle:1 agent=bear.sheriff:lion.marshal act=lion.marshal")
    played = one(events, ev.CardPlayed)
    assert (played.effects.agent, played.act) == ((("bear.sheriff", "lion.marshal"),), "lion.marshal")
    assert ("bear", "sheriff") not in after.council and after.council[("lion", "marshal")] == "raven"
    prompt = rules.prompt(after)
    assert prompt.actors == ("raven",)
    assert {o.choices["at"] for o in prompt.options if o.verb != "play"} == {"lion.marshal"}
    after, events = apply(after, "raven recruit goldcrown=2")  # Lion's +2 per fort, for Lion
    assert one(events, ev.BannersRecruited).empire == "lion"
    assert after.banners["goldcrown"] == ("lion", 4)
    # play continues after the abandoned Bear Sheriff
    prompt = rules.prompt(after)
    assert (prompt.empire, prompt.office, prompt.actors) == ("bear", "steward", ("spider",))


def test_decide_never_changes_the_state_it_decides_on() -> None:
    """rules.decide is pure: a legal move gives events and leaves the state as it was."""
    state = hands(office_state("bear", "sheriff"), raven=["lion:2"])
    for line in ("raven recruit frost-gate=2", "raven play lion:2 add=bear:ice-hall:1", "check frost-gate=7"):
        before = snapshot(state)
        assert rules.decide(state, command(line))
        assert snapshot(state) == before


# === take-back, ruling, table check ============================================================================


def test_nothing_to_take_back_at_the_start_whispers_take_back() -> None:
    """whispers: a take-back undoes a move; a new game has none."""
    error = assert_refused(new_state(), 'undo "oops"', "there is no move to take back")
    assert error.rule == "whispers: take-back"
    assert_refused(setup_done(new_state()), c.Undo("   "), "a take-back needs a reason")


def test_a_take_back_undoes_exactly_the_last_move_and_its_consequences_whispers_take_back() -> None:
    """whispers: "history is never erased" — the take-back is an event of its own, with its reason; the position is
    the one before the move, with everything the engine did on its own after it undone too."""
    state, _ = play(setup_done(new_state()), *ROUND_1[:-1])
    before = state
    state, events = apply(state, ROUND_1[-1])  # the last placement starts the empire turns
    assert state.phase == "empire" and of_type(events, ev.EmpireTurnStarted)
    version = state.version
    after, events = apply(state, 'undo "serpent meant horse.marshal"')
    assert events == [ev.MoveTakenBack("serpent meant horse.marshal", before.version + 1)]
    assert after.version == version + 1  # the record grows: nothing is erased
    assert position(after, version=before.version) == before
    assert after.phase == "deploy" and rules.prompt(after).actors == ("serpent",)
    again, _ = apply(after, "serpent deploy horse.marshal")
    assert again.council[("horse", "marshal")] == "serpent"
    # two take-backs undo two moves
    twice, _ = play(after, 'undo "and the one before"')
    assert ("lion", "sheriff") not in twice.council and rules.prompt(twice).actors == ("rat",)


def test_a_take_back_stays_in_the_record_and_replays_whispers_take_back() -> None:
    """whispers: "history is never erased" — the record keeps the move and its take-back; replaying the record
    (fold) gives the same position without re-running a rule."""
    started = rules.start("test", PLAYERS, None, ruleset_of("official"), board_of("standin"))
    record: list[ev.Event] = [started]
    state = rules.evolve(None, started)
    lines = [*(loyalty_line(s, tokens_for(i)) for i, s in enumerate(PLAYERS)), *ROUND_1]
    for line in [*lines, 'undo "wrong seat"', "serpent deploy horse.marshal"]:
        state, events = apply(state, line)
        record.extend(events)
    assert sum(isinstance(e, ev.AgentDeployed) and e.where == "horse.chancellor" for e in record) == 1
    assert sum(isinstance(e, ev.MoveTakenBack) for e in record) == 1
    assert state.version == len(record)
    assert rules.fold(record) == state
    assert state.council[("horse", "marshal")] == "serpent" and ("horse", "chancellor") not in state.council


def test_reopening_a_finished_game_takes_an_explicit_undo_reopen_whispers_take_back() -> None:
    """whispers: a scored game is reopened only on purpose. A plain take-back of its last move is refused, naming
    the form that does it; `undo reopen REASON` takes the move back (the scoring with it) and says it reopened
    the game; on a game still going there is nothing to reopen. The record reads back and re-adjudicates."""
    state = office_state("horse", "chancellor", {"horse.chancellor": "raven"}, round=4)
    before = state
    state, _ = apply(state, "raven attack windmoor red-cliffs 1")
    assert state.over
    error = assert_refused(state, 'undo "wrong region"', 'undo reopen "REASON"')
    assert error.rule == rules.REOPEN_RULE and "--reopen" in str(error)
    assert_refused(before, 'undo reopen "nothing is over"', "the game is not over", rule="whispers")
    reopened, events = apply(state, 'undo reopen "TD: the attack was from frost-gate"')
    assert events == [ev.MoveTakenBack("TD: the attack was from frost-gate", before.version + 1, True)]
    assert not reopened.over and not reopened.scored and rules.prompt(reopened).actors == ("raven",)
    assert position(reopened, version=before.version) == before
    line = format_event(events[0])
    assert line == "undo reopen 'TD: the attack was from frost-gate'"
    assert command(line or "") == c.Undo("TD: the attack was from frost-gate", reopen=True)
    assert command("undo reopen") == c.Undo("reopen")  # one word is a reason, as `log` writes a plain one


def test_a_ruling_applies_its_effects_with_a_reason_whispers_ruling() -> None:
    """whispers: an adjudicator's ruling changes the board explicitly, and says why."""
    state = office_state("bear", "sheriff")
    assert_refused(state, c.Ruling("  "), "a ruling needs a reason", rule="whispers")
    assert_refused(state, 'ruling "fix" kill=frost-gate:9', "frost-gate holds 2 bear banners, cannot kill 9")
    assert_refused(state, 'ruling "fix" add=horse:frost-gate:1', "would hold banners of bear and horse")
    after, events = apply(state, 'ruling "TD: the fort was missed" kill=windmoor:1')
    assert events == [ev.RulingApplied("TD: the fort was missed", ev.Effects(kill=(("windmoor", "horse", 1),)))]
    assert after.banners["windmoor"] == ("horse", 1) and after.reserve["horse"] == state.reserve["horse"] + 1
    assert rules.prompt(after).actors == ("raven",)  # play goes on where it was
    undone, _ = apply(after, 'undo "the ruling was wrong"')
    assert undone.banners == state.banners


def test_a_table_check_flags_a_mismatch_without_stopping_the_game_whispers_check() -> None:
    """whispers: the table's physical count is recorded; a mismatch is flagged in the event, not fatal."""
    state = office_state("bear", "sheriff")
    after, events = apply(state, "check frost-gate=3 ice-hall=2 windmoor=2")
    assert events == [ev.TableChecked({"frost-gate": 3, "ice-hall": 2, "windmoor": 2}, {"frost-gate": (2, 3)})]
    assert after.banners == state.banners and rules.prompt(after) == rules.prompt(state)
    after, events = apply(state, "check frost-gate=2")
    assert one(events, ev.TableChecked).mismatches == {}
    assert_refused(state, "check atlantis=1", "unknown region 'atlantis'")
    assert_refused(state, "check frost-gate=-1", "cannot be negative")
    assert_refused(state, c.Check({}), "name at least one region")


def test_an_unknown_society_or_one_not_playing_is_refused_EN_setup() -> None:
    """EN "Player Boards and Tokens": only the societies at the table make moves."""
    state = setup_done(new_state(players=("raven", "spider")))
    assert_refused(state, "rat deploy bear.sheriff", "rat is not playing in this game")
    assert_refused(state, c.Deploy("crow", "bear.sheriff"), "unknown society 'crow'")


def test_ruleset_fixtures_encode_the_digest_defaults() -> None:
    """Digest §8: the knobs each ruleset takes (the engine reads them; the tests above rely on them)."""
    official, revised = ruleset_of("official"), ruleset_of("revised")
    assert (official.supply_scope, revised.supply_scope) == ("active", "all")
    assert (official.swap_agent_target, revised.swap_agent_target) == ("any", "occupied")
    assert official.round_end == ("mark", "cleanup", "swap")
    assert revised.round_end == ("retrieve", "cleanup", "swap", "mark")
    assert (official.concealed_bonus, ruleset_of("advanced").concealed_bonus, revised.concealed_bonus) == (0, 1, 1)


def test_a_card_may_follow_the_empires_last_order_until_its_supply_check_EN_playing_cards() -> None:
    """EN "Playing Cards": "You can play a card immediately before, during, or immediately after any action taken for
    a council position you control." EN "Checking Supply": "At the end of an empire's turn, check supply". The
    society that took the empire's last order may still play; the supply check waits for it and counts what its
    card did. No one else may play in that moment, and once the check is made (it says no-card, or another move is
    made) the moment is gone. `no-card` says it plays no more."""
    council = {"bear.chancellor": "raven", **NEXT}
    state = hands(office_state("bear", "chancellor", council), raven=["lion:2", "lion:3"], spider=["eagle:1"])
    after, events = apply(state, "raven attack red-cliffs windmoor 1")
    assert not of_type(events, ev.SupplyChecked) and rules.card_window(after) == ("raven",)
    plays = {o.society for o in options(after, "play")}
    assert "raven" in plays and "spider" not in plays
    assert {o.society for o in options(after, "recruit")} == {"serpent"}  # the next order is offered too
    assert_refused(after, "spider play eagle:1", "spider may not play a card now", rule="EN Playing Cards")
    limit = state.supply_limit("frost-gate")
    played, events = apply(after, f"raven play lion:2 add=bear:frost-gate:{limit}")
    assert not of_type(events, ev.SupplyChecked)  # raven still holds lion:3: the moment is still open
    closed, events = apply(played, "raven no-card")
    assert events[0] == ev.AfterOrderPassed("raven")
    assert one(events, ev.SupplyChecked).losses == {"frost-gate": ("bear", 2)}  # the card's banners are checked
    assert_refused(closed, "raven play lion:3", "raven may not play a card now")
    # another society's move closes the moment too: the check is recorded before it, and raven may not play after
    moved_on, events = apply(played, "serpent recruit stormcrag=2")
    assert [type(e) for e in events[:2]] == [ev.SupplyChecked, ev.EmpireTurnStarted]
    assert isinstance(events[2], ev.BannersRecruited) and events[0] == one(
        apply(played, "raven no-card")[1], ev.SupplyChecked
    )
    assert_refused(moved_on, "raven play lion:3", "raven may not play a card now")
    undone, _ = apply(moved_on, 'undo "serpent meant another region"')  # the move only: the check stands
    assert undone.empire == "eagle" and rules.prompt(undone).actors == ("serpent",)
    assert_refused(undone, "raven play lion:3", "raven may not play a card now")
    # with an empty hand there is nothing to wait for
    _, events = apply(hands(office_state("bear", "chancellor", council)), "raven attack red-cliffs windmoor 1")
    assert one(events, ev.SupplyChecked).empire == "bear"


def test_the_game_waits_for_a_card_after_round_4s_last_order_then_ends_EN_playing_cards() -> None:
    """EN "Playing Cards" ("immediately after any action") and EN "Mark the Turn" (after round 4 "the game ends"):
    the game is not scored while the society that gave the last order may still play; its no-card ends it."""
    state = hands(office_state("horse", "chancellor", {"horse.chancellor": "raven"}, round=4), raven=["lion:2"])
    after, events = apply(state, "raven attack windmoor red-cliffs 1")
    assert not after.over and not of_type(events, ev.GameScored)
    assert rules.prompt(after).actors == ("raven",)
    assert {o.verb for o in rules.prompt(after).options} == {"play", "no-card"}
    assert_refused(after, "spider pass", "raven may still play a card or say no-card, and then the game ends")
    assert_refused(after, "spider no-card", "spider is not waited for (raven is)", rule="EN Playing Cards")
    over, events = apply(after, "raven no-card")
    assert over.over and one(events, ev.GameScored)
