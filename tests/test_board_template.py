"""Transcribing the printed board (issue 15): `board new` writes a template that `board check` accepts once filled
in, `board check` counts what to compare with the printed map, `map --board` draws the board alone."""

import re
from pathlib import Path

from click.testing import CliRunner

from whispers.cli.main import whispers
from whispers.ledger.board import census
from whispers.ledger.board_files import load_board, parse_board, template_text

UNCOMMENT = re.compile(r"(?m)^# (\[regions\.|name|home|cities|farm|fort|banners|adjacent|pos)")


def test_the_template_holds_the_revised_councils_and_is_accepted_once_its_regions_are_filled_in():
    text = template_text()
    standin = load_board("standin")  # "each empire's council exactly as the revised rulebook lists it"
    filled = parse_board(UNCOMMENT.sub(r"\1", text).encode(), "filled")
    assert filled.empires == standin.empires == ("bear", "eagle", "elephant", "lion", "horse")
    assert {e: dict(c) for e, c in filled.council.items()} == {e: dict(c) for e, c in standin.council.items()}
    assert [r.home for r in filled.regions.values()] == list(standin.empires)


def test_census_counts_what_the_stand_in_file_says_per_empire():
    counted = census(load_board("standin"))
    # fixtures/boards/standin.toml: "Bear: 7 regions, 6 cities, 2 farms, 2 forts, 9 starting banners."
    assert counted["empires"]["bear"] == {"regions": 7, "cities": 6, "farms": 2, "forts": 2, "banners": 9}
    assert counted["unreached"] == [] and counted["land_masses"] == 1


def test_board_new_then_check_through_the_cli(tmp_path: Path):
    runner = CliRunner()
    file = tmp_path / "printed.toml"
    assert runner.invoke(whispers, ["board", "new", str(file)]).exit_code == 0
    again = runner.invoke(whispers, ["board", "new", str(file)])
    assert again.exit_code == 2 and "already exists" in again.output
    empty = runner.invoke(whispers, ["board", "check", str(file)])
    assert empty.exit_code == 2 and "at least one region" in empty.output
    file.write_text(UNCOMMENT.sub(r"\1", file.read_text()))
    checked = runner.invoke(whispers, ["board", "check", str(file)])
    assert checked.exit_code == 0, checked.output
    assert "bear       1 region, 0 cities" in checked.output
    assert "no land border reaches: bear-1, eagle-1, elephant-1, lion-1, horse-1" in checked.output
    drawn = runner.invoke(whispers, ["map", "--board", str(file), "-o", str(tmp_path / "b.dot")])
    assert drawn.exit_code == 0, drawn.output
    dot = (tmp_path / "b.dot").read_text()
    assert "bear-1" in dot and "horse-1" in dot
    both = runner.invoke(whispers, ["map", "g", "--board", str(file), "-o", str(tmp_path / "c.dot")])
    assert both.exit_code == 2
