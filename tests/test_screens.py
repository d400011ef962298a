"""What people see (issue 16): status and replay as tables, the stepper's arrows and highlights, stats for
people, and charts. The figures in each table are checked against the JSON or a fold of the events, and no
viewer ever sees a hidden token or card name."""

import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pexpect
import pytest
from click.testing import CliRunner

from whispers.application.charts import series
from whispers.cli.main import whispers
from whispers.ledger.core import events as ev
from whispers.ledger.core import randomgame
from whispers.ledger.core.names import OFFICES, SLOTS, SOCIETIES
from whispers.ledger.core.scoring import score
from whispers.ledger.io.board_files import load_board
from whispers.ledger.io.ruleset_files import load_ruleset
from whispers.ledger.io.store import open_store
from whispers.projections.labels import labels
from whispers.projections.replay import Replay, final_scoring

BOARD = load_board("standin")
PLAYERS = ("raven", "rat", "spider")


def play(seed: int, ruleset: str = "official", named: bool = True) -> list[ev.Event]:
    events: list[ev.Event] = []
    for _, produced, _ in randomgame.play(PLAYERS, load_ruleset(ruleset), BOARD, seed, name="g", named=named):
        events.extend(produced)
    return events


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[ev.Event]]:
    path = tmp_path_factory.mktemp("screens") / "screens.sqlite"
    events = play(11)
    with open_store(str(path)) as store:
        store.create("g", [e.to_fact() for e in events])
        for seed in (12, 13):
            other = play(seed)
            facts = [e.to_fact() for e in other]
            facts[0]["name"] = f"g{seed}"
            store.create(f"g{seed}", facts)
    return path, events


def cli(path: Path, *args: str) -> str:
    result = CliRunner().invoke(whispers, list(args), env={"WHISPERS_STORE": str(path), "COLUMNS": "240",
                                                            "XDG_CACHE_HOME": str(path.parent / "cache")})
    assert result.exit_code == 0, (result.output, result.exception)
    return result.stdout


def table(text: str, title: str) -> dict[str, list[str]]:
    """The rows of the table titled `title` in rich's output: first cell -> the cells."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith(title))
    rows: dict[str, list[str]] = {}
    for line in lines[start + 3:]:
        if "│" not in line:
            break
        cells = [cell.strip() for cell in line.split("│")]
        rows[cells[0]] = cells[1:]
    return rows


def middle_versions(events: list[ev.Event]) -> list[int]:
    n = len(events)
    return [n // 5, n // 3, n // 2, 2 * n // 3, n]


# --- status and replay: the tables hold the JSON's figures ----------------------------------------------------


@pytest.mark.parametrize("command", ["status", "replay"])
def test_the_tables_hold_the_figures_of_the_json(game, command: str) -> None:
    path, events = game
    for version in middle_versions(events):
        data = json.loads(cli(path, command, "g", "--json", "--at", str(version)))
        text = cli(path, command, "g", "--at", str(version))
        council = table(text, "Council")
        for empire in data["cities"]:
            assert council[empire] == [data["council"].get(f"{empire}.{o}", "·") for o in OFFICES]
        board = table(text, "Board")
        for empire, cities in data["cities"].items():
            on_board = sum(r["banners"] for r in data["regions"].values() if r["controller"] == empire)
            assert board[empire][:3] == [str(cities), str(on_board), str(data["reserve"][empire])]
        hands = table(text, "Hands")
        assert {s: int(row[0]) for s, row in hands.items()} == {s: h["size"] for s, h in data["hands"].items()}
        loyalty = table(text, "Loyalty")
        for society, held in data["loyalty"].items():
            if held and held["tokens"]:
                assert loyalty[society][:5] == [held["tokens"][slot] for slot in SLOTS]


def test_the_score_if_it_ended_now_is_the_scoring_of_the_fold(game) -> None:
    """EN "Final Scoring": each society's points from its tokens, the cities and its field agents — the table
    shows them after any event where every token is known to the record; at the end, the final scores."""
    path, events = game
    rep = Replay(tuple(events))
    for version in middle_versions(events):
        state = rep.at(version)
        if any(state.loyalty.get(p) is None or state.loyalty[p].tokens is None for p in state.players):
            continue
        expected = {s: v["total"] for s, v in score(state).scores.items()}
        shown = table(cli(path, "status", "g", "--at", str(version)), "Score if the game ended now")
        assert {s: int(row[0]) for s, row in shown.items()} == expected
    final = json.loads(cli(path, "score", "g", "--json"))["scores"]
    shown = table(cli(path, "status", "g"), "Score if the game ended now")
    assert {s: int(row[0]) for s, row in shown.items()} == final


def test_a_viewer_computes_only_its_own_score_before_the_reveal(game) -> None:
    path, events = game
    rep = Replay(tuple(events))
    version = next(v for v in range(1, len(events) + 1)
                   if rep.at(v).phase == "empire" and all(rep.at(v).loyalty[p].tokens for p in PLAYERS))
    text = cli(path, "status", "g", "--at", str(version), "--as", "rat")
    scores = table(text, "Score if the game ended now")
    assert scores["raven"][0] == "?" and scores["spider"][0] == "?" and scores["rat"][0].lstrip("-").isdigit()
    spectator = table(cli(path, "status", "g", "--at", str(version), "--as", "spectator"), "Score if the game")
    assert all(row[0] == "?" for row in spectator.values())
    # how many tokens lie face down, and how many swaps were made, everyone at the table sees: the tie-breaks
    assert all(row[1:] == scores[society][1:] and row[1:] == ["5", "0"] for society, row in spectator.items())
    loyalty = table(text, "Loyalty")
    assert all(cell == "?" for society in ("raven", "spider") for cell in loyalty[society][:5])


def test_no_viewer_sees_a_hidden_token_or_card_name_in_the_tables(game) -> None:
    path, events = game
    drawn = {(e.society, card) for e in events if isinstance(e, ev.CardsDrawn) and e.cards for card in e.cards}
    played = {e.card for e in events if isinstance(e, ev.CardPlayed)}
    rep = Replay(tuple(events))
    for version in middle_versions(events)[:-1]:
        state = rep.at(version)
        for viewer in ("spectator", *PLAYERS):
            for command in ("status", "replay"):
                text = cli(path, command, "g", "--at", str(version), "--as", viewer)
                secret = {card for society, card in drawn if society != viewer} - played
                for card in secret:
                    assert not re.search(rf"(?<![\w:]){re.escape(card)}(?![\w:])", text), (command, viewer, card)
                if state.phase in ("reveal", "over"):
                    continue
                loyalty = table(text, "Loyalty")
                for society in PLAYERS:
                    held = state.loyalty.get(society)
                    if society == viewer or held is None or held.tokens is None:
                        continue
                    hidden = [slot for slot in SLOTS if slot not in held.revealed]
                    cells = dict(zip(SLOTS, loyalty[society][:5], strict=True))
                    assert all(cells[slot] == "?" for slot in hidden), (command, viewer, society, cells)


# --- the stepper ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def wide(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding `w`: four societies at the end, every token face up, two dozen attacks."""
    path = tmp_path_factory.mktemp("wide") / "wide.sqlite"
    events: list[ev.Event] = []
    for _, produced, _ in randomgame.play(SOCIETIES, load_ruleset("official"), BOARD, 7, name="w"):
        events.extend(produced)
    with open_store(str(path)) as store:
        store.create("w", [e.to_fact() for e in events])
    return path


@pytest.mark.skipif(shutil.which("whispers") is None and not Path(sys.executable).with_name("whispers").exists(),
                    reason="the console script is not installed")
@pytest.mark.parametrize("lang", ["en", "fr", "it", "es"])
@pytest.mark.parametrize("command", ["status", "stats"])
def test_a_game_s_tables_fit_an_80_column_terminal_in_every_language_without_cutting_a_word(
        wide: Path, lang: str, command: str) -> None:
    """The game of `wide`: the widest tables status and stats draw. rich cuts a word it cannot fit with "…";
    nothing may be cut at the width of a terminal as it opens."""
    path = wide
    result = CliRunner().invoke(whispers, ["--lang", lang, command, "w"],
                                env={"WHISPERS_STORE": str(path), "COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "…" not in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= 80


def test_the_stepper_steps_with_the_arrow_keys_and_highlights_the_change(game) -> None:
    path, events = game
    deploy = next(v for v, e in enumerate(events, start=1) if isinstance(e, ev.AgentDeployed))
    exe = shutil.which("whispers") or str(Path(sys.executable).with_name("whispers"))
    child = pexpect.spawn(exe, ["replay", "g", "--step", "--at", str(deploy - 1)], encoding="utf-8", timeout=15,
                          dimensions=(60, 200), env={**os.environ, "WHISPERS_STORE": str(path),
                                                     "TERM": "xterm-256color"})
    child.expect(f"event {deploy - 1}/")
    child.expect_exact("step> ")
    child.send("\x1b[C")  # →
    child.expect(f"event {deploy}/{len(events)} · m\\d+ R1 deploy \\d+: ")  # the move label (projections/labels.py)
    # the office the agent took is highlighted in the council grid
    placed = events[deploy - 1]
    child.expect(re.escape(placed.where.split(".")[0]) + r" +│.*\x1b\[[0-9;]*43m" + re.escape(placed.society))
    child.expect_exact("step> ")
    child.send("\x1b[D")  # ←
    child.expect(f"event {deploy - 1}/")
    child.expect_exact("step> ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


# --- stats for people -----------------------------------------------------------------------------------------


def test_stats_are_tables_with_figures_rounded_for_people(game) -> None:
    path, _events = game
    text = cli(path, "stats", "--all")
    data = json.loads(cli(path, "stats", "--all", "--json"))
    assert "None" not in text and not re.search(r"\d\.\d{2,}", text)
    assert "ruleset: all" in text
    rates = table(text, "By society")
    assert {s: row[0] for s, row in rates.items()} == {s: f"{r * 100:.0f}%" for s, r in data["win_rate"].items()}
    game_text = cli(path, "stats", "g")
    one = json.loads(cli(path, "stats", "g", "--json"))
    assert len(game_text.splitlines()) < 150 and "cities_after_each_round" not in game_text
    banners = table(game_text, "Banners now")
    assert {e: [int(x) for x in row] for e, row in banners.items()} == {
        e: [b["on_board"], b["reserve"]] for e, b in one["banners"].items()}
    final = table(game_text, "Final score")
    assert {s: int(row[-1]) for s, row in final.items()} == {s: v["total"] for s, v in one["score"]["scores"].items()}


# --- charts ----------------------------------------------------------------------------------------------------


def test_the_chart_series_are_a_fold_of_the_events(game) -> None:
    path, events = game
    rep = Replay(tuple(events))
    cities = series(str(path), "g", "cities")
    assert cities.moves[0] == 0 and list(cities.moves) == sorted(set(cities.moves))
    for i, version in enumerate(cities.versions):
        assert {e: cities.lines[e][i] for e in BOARD.empires} == {e: rep.at(version).cities(e) for e in BOARD.empires}
    banners = series(str(path), "g", "banners")
    for i, version in enumerate(banners.versions):
        for e in BOARD.empires:
            assert banners.lines[f"{e} on the board"][i] + banners.lines[f"{e} in reserve"][i] == 20
            assert banners.lines[f"{e} in reserve"][i] == rep.at(version).reserve[e]
    scores = series(str(path), "g", "score")
    scored = final_scoring(events)
    assert scored is not None
    assert {s: values[-1] for s, values in scores.lines.items()} == {s: v["total"] for s, v in scored.scores.items()}
    # a point after every move: as many as the moves in the record, plus the game as set up
    assert len(scores.moves) == scores.moves[-1] + 1


def test_a_viewer_s_score_chart_holds_only_what_it_could_compute(game) -> None:
    path, events = game
    rep = Replay(tuple(events))
    mine = series(str(path), "g", "score", "rat")
    for i, version in enumerate(mine.versions):
        if rep.at(version).phase not in ("reveal", "over"):
            assert mine.lines["raven"][i] is None and mine.lines["spider"][i] is None
    spectator = series(str(path), "g", "score", "spectator")
    for i, version in enumerate(spectator.versions):
        if rep.at(version).phase not in ("reveal", "over"):
            assert all(values[i] is None for values in spectator.lines.values())


def test_chart_files_are_valid_svg_and_png(game, tmp_path: Path) -> None:
    path, events = game
    for kind in ("score", "cities", "banners"):
        svg = tmp_path / f"{kind}.svg"
        cli(path, "chart", "g", kind, "-o", str(svg))
        root = ET.parse(svg).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
    png = tmp_path / "score.png"
    cli(path, "chart", "g", "score", "-o", str(png), "--as", "spectator")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    drawn = set()
    for e in events:
        if isinstance(e, ev.CardsDrawn) and e.cards:
            drawn.update(e.cards)
    spectator_svg = tmp_path / "spectator.svg"
    cli(path, "chart", "g", "score", "-o", str(spectator_svg), "--as", "spectator")
    text = spectator_svg.read_text(encoding="utf-8")
    assert not any(f">{card}<" in text for card in drawn)
    every = tmp_path / "all.png"
    cli(path, "chart", "--all", "-o", str(every))
    assert every.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("args", [["chart", "g", "score", "-o", "x.pdf"], ["chart", "g", "-o", "x.svg"],
                                  ["chart", "nope", "score", "-o", "x.svg"],
                                  ["chart", "--all", "g", "-o", "x.svg"]])
def test_a_bad_chart_is_one_line_exit_2_and_no_file(game, tmp_path: Path, args: list[str]) -> None:
    path, _ = game
    result = CliRunner().invoke(whispers, [a.replace("x.", str(tmp_path / "x.")) for a in args],
                                env={"WHISPERS_STORE": str(path)})
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1, result.output
    assert not list(tmp_path.iterdir())


def test_only_the_chart_command_imports_matplotlib(game) -> None:
    path, _ = game
    code = ("import sys; from click.testing import CliRunner; from whispers.cli.main import whispers; "
            f"CliRunner().invoke(whispers, ['status', 'g'], env={{'WHISPERS_STORE': {str(path)!r}}}); "
            "CliRunner().invoke(whispers, ['stats', 'g']); print('matplotlib' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# --- the map ----------------------------------------------------------------------------------------------------


def test_the_map_shows_the_council_the_last_move_the_phase_and_the_scores(game) -> None:
    path, events = game
    rep = Replay(tuple(events))
    attack = next(v for v, e in enumerate(events, start=1) if isinstance(e, ev.Attacked))
    move = events[attack - 1]
    source = cli(path, "map", "g", "--at", str(attack), "-o", "-")
    state = rep.at(attack)
    label = labels(events)[attack]  # the move's label a person can say (projections/labels.py)
    assert label.place.startswith(f"{state.round}.{move.empire}.{move.office}")
    assert f"g · {label}: " in source
    assert "after event" not in source
    assert f"{move.society} attack {move.source} {move.target} {move.banners}" in source
    arrow = re.search(rf"{re.escape(move.source)}\s*--\s*{re.escape(move.target)}\s*\[[^\]]*dir=forward", source)
    assert arrow, "the attack is an arrow"
    council = re.search(r"council.*?</TABLE>>", source, re.S)
    assert council is not None
    grid = {}
    for row in re.findall(r"<TR>(.*?)</TR>", council.group(0)):
        cells = [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<TD[^>]*>(.*?)</TD>", row)]
        if len(cells) == 1 + len(OFFICES) and cells[0] in BOARD.empires:
            grid[cells[0]] = cells[1:]
    assert grid == {e: [state.council.get((e, o), "·") for o in OFFICES] for e in BOARD.empires}
    assert f"round {state.round}" in council.group(0) and "score if it ended now" in council.group(0)
    scores = dict(re.findall(r"<B>(\w+)</B></FONT> (\?|-?\d+)", council.group(0)))
    if all(state.loyalty[p].tokens for p in PLAYERS):
        assert scores == {s: str(v["total"]) for s, v in score(state).scores.items()}
    spectator = cli(path, "map", "g", "--at", str(attack), "-o", "-", "--as", "spectator")
    hidden = dict(re.findall(r"<B>(\w+)</B></FONT> (\?|-?\d+)", spectator))
    assert all(hidden[s] == "?" for s in PLAYERS)
