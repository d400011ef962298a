"""Pictures: the council-order timeline and the board map as Graphviz DOT, and their rendering."""

import os
import re
import shutil
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner

from whispers.cli.main import whispers
from whispers.ledger.core import events as ev
from whispers.ledger.core import randomgame
from whispers.ledger.core.names import SOCIETIES
from whispers.ledger.core.words import office_skip_reason
from whispers.ledger.io.board_files import load_board
from whispers.ledger.io.game import Game, replay_lines
from whispers.ledger.io.ruleset_files import load_ruleset
from whispers.projections.boardmap import board_map
from whispers.projections.colours import empire_colour
from whispers.projections.log import format_record
from whispers.projections.render import PictureError, write
from whispers.projections.replay import standing
from whispers.projections.timeline import timeline

GAMES = ("official-4p.txt", "official-2p.txt", "revised-3p.txt")
HAVE_DOT = shutil.which("dot") is not None and shutil.which("neato") is not None
needs_graphviz = pytest.mark.skipif(
    not HAVE_DOT and os.environ.get("WHISPERS_REQUIRE_GRAPHVIZ") != "1", reason="Graphviz's programs are not installed"
)


def bundled(name: str) -> Game:
    text = resources.files("whispers.fixtures").joinpath("games", name).read_text(encoding="utf-8")
    return replay_lines(name.removesuffix(".txt"), text.splitlines())


def kept(game: Game) -> list[ev.Event]:
    return [e for _, e in standing(game.events)]


def count(source: str, css_class: str) -> int:
    return len(re.findall(rf'class="{css_class}[" ]', source))


@pytest.mark.parametrize("name", GAMES)
def test_a_node_per_executed_office_and_per_skipped_one(name: str) -> None:
    game = bundled(name)
    source = timeline(game.events)
    orders = [e for e in kept(game) if isinstance(e, ev.BannersRecruited | ev.CardsDrawn | ev.Attacked
                                                  | ev.AgentSwapped)]
    skipped = [e for e in kept(game) if isinstance(e, ev.OfficeSkipped)]
    assert count(source, "office executed") == len(orders)
    assert count(source, "office skipped") == len(skipped)
    for event in skipped:
        why = office_skip_reason(event)
        assert f"skipped: {why}" in source or why in source
    assert 'style="rounded,dashed,filled"' in source or not skipped  # faded


@pytest.mark.parametrize("name", GAMES)
def test_a_leap_edge_for_each_swap_agent_order(name: str) -> None:
    game = bundled(name)
    source = timeline(game.events)
    swaps = [e for e in kept(game) if isinstance(e, ev.AgentSwapped)]
    assert swaps, f"{name} has a swap-agent order"
    assert count(source, "leap leap-swap") == len(swaps)
    for edge in re.findall(r"^\s*\S+ -> \S+ \[[^\]]*leap-swap[^\]]*\]", source, re.MULTILINE):
        assert "style=dashed" in edge


def test_card_leaps_for_a_lent_position_and_a_moved_agent() -> None:
    """A card lending another position (act=) and an agent moved by a ruling are drawn as leaps too."""
    from whispers.ledger.core import commands as c
    from whispers.ledger.core import rules
    from whispers.ledger.core.names import OFFICES
    from whispers.projections.replay import Replay

    game = bundled("official-4p.txt")
    replay = Replay(game.events)
    for version in range(1, len(replay) + 1):
        state = replay.at(version)
        actor = rules.prompt(state).actors[0] if state.phase == "empire" and rules.prompt(state).actors else None
        if actor is None or state.pending is not None or not state.hands[actor].size:
            continue
        lent = [(e, o) for e in state.board.empires for i, o in enumerate(OFFICES)
                if (e, o) != (state.empire, state.office) and state.office_controller(e, i) == actor
                and "swap_agent" not in state.board.orders(e, o)]
        if lent:
            break
    else:
        pytest.fail("the bundled game never lets a society with a card lend itself another position")
    empire, office = lent[0]
    card = next(iter(state.hands[actor].counts))
    card = next((k for k in state.hands[actor].known if k.startswith(card)), card)
    played = rules.decide(state, c.PlayCard(actor, card, act=f"{empire}.{office}"))
    moved_from = next(f"{e}.{o}" for (e, o) in state.council if (e, o) != (state.empire, state.office))
    free = next(f"{e}.{o}" for e in state.board.empires for o in OFFICES if (e, o) not in state.council)
    after = state
    for event in played:
        after = rules.evolve(after, event)
    moved = ev.Effects(agent=((moved_from, free),))
    ruling = rules.decide(after, c.Ruling("TD: an agent was on the wrong seat", moved))
    source = timeline([*game.events[:version], *played, *ruling])
    assert count(source, "leap leap-card-act") == 1
    assert count(source, "leap leap-ruling-agent") == 1
    for tail, head in re.findall(r"^\s*(\S+) -> (\S+) \[[^\]]*class=\"leap ", source, re.MULTILINE):
        assert tail != head, "a leap is drawn between two offices, never as a loop on one"


def test_the_offices_line_up_in_columns() -> None:
    """Every node of one column (sheriff, steward, marshal, chancellor, supply) is as wide as the others, so
    the rows read like a table; the legend and scores sit in the heading, widening no column."""
    source = timeline(bundled("official-4p.txt").events)
    widths: dict[str, set[str]] = {}
    for office, width in re.findall(r"<B>(\w+)</B>[^\n]*? width=\"?([\d.]+)", source):
        widths.setdefault(office, set()).add(width)
    assert {"sheriff", "steward", "marshal", "chancellor"} <= set(widths)
    assert all(len(found) == 1 for found in widths.values()), widths
    assert re.search(r"^\s*legend \[", source, re.MULTILINE) is None
    assert "final scores" in source


def test_supply_losses_legend_and_first_player_are_shown() -> None:
    game = bundled("official-4p.txt")
    source = timeline(game.events)
    for society in ("raven", "spider", "rat", "serpent"):
        assert f"<B>{society}</B>" in source  # the legend
    assert "first player: raven" in source
    losses = [e for e in kept(game) if isinstance(e, ev.SupplyChecked) and e.losses]
    supply_nodes = source.count('class=supply')
    assert supply_nodes == sum(1 for e in kept(game) if isinstance(e, ev.SupplyChecked))
    for check in losses:
        for region, (_, n) in check.losses.items():
            assert f"{region} {n}" in source


def test_a_round_and_a_society_view() -> None:
    game = bundled("official-4p.txt")
    round_two = timeline(game.events, round=2)
    assert "cluster_r2" in round_two and "cluster_r1" not in round_two and "cluster_r3" not in round_two
    with pytest.raises(PictureError, match="no round 7"):
        timeline(game.events, round=7)
    drawn = [e for e in kept(game) if isinstance(e, ev.CardsDrawn) and e.cards]
    raven = timeline(game.events, viewer="raven")
    others_cards = {c for e in drawn if e.society != "raven" for c in e.cards}
    played = {e.card for e in kept(game) if isinstance(e, ev.CardPlayed)}
    for card in others_cards - played:
        assert card not in raven, f"raven's timeline names {card}, drawn by another society"
    everyone = timeline(game.events)
    assert all(card in everyone for card in others_cards)
    started = game.events[0]
    assert isinstance(started, ev.GameStarted)
    sealed_or_hidden = [s for s in started.players if s != "raven"]
    tokens = game.state.loyalty
    for society in sealed_or_hidden:
        line = " · ".join(f"{slot} {tokens[society].tokens[slot]}" for slot in tokens[society].tokens)
        assert line not in raven


def test_the_map_has_every_region_and_border_once() -> None:
    game = bundled("revised-3p.txt")
    board = load_board("standin")
    source = board_map(game.state)
    assert count(source, "region") == len(board.regions)
    borders = re.findall(r"^\s*(\S+) -- (\S+) \[class=border\]", source, re.MULTILINE)
    assert len(borders) == len(board.borders()) == len({frozenset(b) for b in borders})
    for region in board.regions:
        controller = game.state.controller(region)
        assert re.search(rf'class="region controller-{controller} home-{board.regions[region].home}"', source)
    assert empire_colour("bear").light in source
    for society, region in game.state.field_agents:
        block = source[re.search(rf'\t"?{region}"? \[', source).start():]
        assert society in block[: block.index("\n")]
    assert 'pos="' in source and "!" in source  # pinned from the board file


def test_the_map_at_an_earlier_version_differs() -> None:
    game = bundled("official-4p.txt")
    from whispers.ledger.core import rules

    early = rules.fold(game.events[:20])
    assert board_map(early) != board_map(game.state)


@needs_graphviz
@pytest.mark.parametrize("name", GAMES)
def test_every_bundled_game_renders_to_svg(name: str, tmp_path: Path) -> None:
    game = bundled(name)
    write(timeline(game.events), tmp_path / "timeline.svg", engine="dot")
    write(board_map(game.state), tmp_path / "map.svg", engine="neato")
    for picture in ("timeline.svg", "map.svg"):
        text = (tmp_path / picture).read_text(encoding="utf-8")
        assert text.lstrip().startswith("<?xml") and "<svg" in text


@needs_graphviz
@pytest.mark.parametrize("upto", [1, 2, 3])
def test_a_game_just_begun_renders_too(upto: int, tmp_path: Path) -> None:
    """The timeline and the map at the game's first events (no loyalty recorded yet, no round played): the web pages
    draw them from the first event on, and Graphviz refuses an empty HTML <FONT> (it did, at event 1)."""
    events = bundled("official-2p.txt").events[:upto]
    write(timeline(events), tmp_path / "timeline.svg", engine="dot")
    assert "<svg" in (tmp_path / "timeline.svg").read_text(encoding="utf-8")


@pytest.fixture
def stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WHISPERS_STORE", str(tmp_path / "s.sqlite"))
    notation = tmp_path / "g.txt"
    bundled = resources.files("whispers.fixtures").joinpath("games", "revised-3p.txt")
    notation.write_text(bundled.read_text(encoding="utf-8"), encoding="utf-8")
    assert CliRunner().invoke(whispers, ["import", str(notation), "--game", "g"]).exit_code == 0
    return tmp_path


def test_dot_is_always_written(stored: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(whispers, ["timeline", "g", "--round", "1", "--as", "raven", "-o", str(stored / "t.dot")])
    assert result.exit_code == 0 and (stored / "t.dot").read_text().startswith("// whispers timeline")
    result = runner.invoke(whispers, ["map", "g", "--at", "50", "-o", str(stored / "m.dot")])
    assert result.exit_code == 0 and "graph map {" in (stored / "m.dot").read_text()


@needs_graphviz
def test_the_commands_render(stored: Path) -> None:
    runner = CliRunner()
    for args in (["timeline", "g", "-o", str(stored / "t.png")], ["map", "g", "-o", str(stored / "m.pdf")]):
        result = runner.invoke(whispers, args)
        assert result.exit_code == 0, result.stderr
    assert (stored / "t.png").read_bytes().startswith(b"\x89PNG")
    assert (stored / "m.pdf").read_bytes().startswith(b"%PDF")


def test_without_graphviz_one_line_and_exit_2(stored: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(stored))  # a directory with no Graphviz in it
    runner = CliRunner()
    for args in (["timeline", "g", "-o", str(stored / "t.svg")], ["map", "g", "-o", str(stored / "m.png")]):
        result = runner.invoke(whispers, args)
        assert result.exit_code == 2
        assert result.stderr.strip().splitlines() == [
            "Error: Graphviz's dot program is not installed: apt-get install graphviz (or brew install graphviz), "
            "or write .dot"]
    assert not (stored / "t.svg").exists()


def test_bad_outputs_and_rounds_are_refused(stored: Path) -> None:
    runner = CliRunner()
    for args in (["timeline", "g", "-o", "x.jpg"], ["timeline", "g", "--round", "9", "-o", "x.dot"],
                 ["timeline", "nope", "-o", "x.dot"], ["map", "g", "--at", "99999", "-o", "x.dot"],
                 ["timeline", "g", "--as", "wolf", "-o", "x.dot"]):
        result = runner.invoke(whispers, args)
        assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1, args


@pytest.mark.parametrize("seed", range(6))
def test_random_games_draw_without_error(seed: int) -> None:
    events = []
    for _, produced, _ in randomgame.play(SOCIETIES[: 2 + seed % 3], load_ruleset(("official", "advanced",
                                          "revised")[seed % 3]), load_board("standin"), seed, undo_rate=0.03):
        events.extend(produced)
    source = timeline(events)
    swaps = sum(1 for _, e in standing(events) if isinstance(e, ev.AgentSwapped))
    assert count(source, "leap leap-swap") == swaps
    assert board_map(replay_lines("r", list(format_record(events))).state)
