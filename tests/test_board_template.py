"""Transcribing the printed board (issue 15): `board new` writes a template that `board check` accepts once filled
in, `board check` counts what to compare with the printed map, `map --board` draws the board alone."""

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from whispers.cli.main import whispers
from whispers.ledger.core.board import census
from whispers.ledger.io.board_files import load_board, parse_board, template_text

UNCOMMENT = re.compile(r"(?m)^# (\[seas\.|name|coasts|pos)")


def test_the_template_holds_the_revised_councils_and_is_accepted_once_its_regions_are_filled_in():
    text = template_text()
    standin = load_board("standin")  # "each empire's council exactly as the revised rulebook lists it"
    filled = parse_board(UNCOMMENT.sub(r"\1", text).encode(), "filled")
    assert filled.empires == standin.empires == ("bear", "eagle", "elephant", "lion", "horse")
    assert {e: dict(c) for e, c in filled.council.items()} == {e: dict(c) for e, c in standin.council.items()}
    assert [r.home for r in filled.regions.values()] == list(standin.empires)
    assert [(sea.id, sea.coasts) for sea in filled.seas.values()] == [("sea-1", ("bear-1", "eagle-1"))]


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
    as_written = runner.invoke(whispers, ["board", "check", str(file)])  # valid from the start (the README's order)
    assert as_written.exit_code == 0 and "valid board 'printed' (5 regions, 5 empires, 0 cities" in as_written.output
    file.write_text(UNCOMMENT.sub(r"\1", file.read_text()))
    checked = runner.invoke(whispers, ["board", "check", str(file)])
    assert checked.exit_code == 0, checked.output
    assert "bear       1 region, 0 cities" in checked.output
    assert "sea-1          Sea 1: bear-1, eagle-1" in checked.output
    assert ("no land border reaches: bear-1 (on sea-1), eagle-1 (on sea-1), elephant-1 (on no sea either), "
            "lion-1 (on no sea either), horse-1 (on no sea either)") in checked.output
    drawn = runner.invoke(whispers, ["map", "--board", str(file), "-o", str(tmp_path / "b.dot")])
    assert drawn.exit_code == 0, drawn.output
    dot = (tmp_path / "b.dot").read_text()
    assert "bear-1" in dot and "horse-1" in dot
    both = runner.invoke(whispers, ["map", "g", "--board", str(file), "-o", str(tmp_path / "c.dot")])
    assert both.exit_code == 2


SEAS = """
[seas.grey-sea]
name = "Grey Sea"
coasts = ["wolfmere", "cloudmere", "amberfield", "ivory-gate", "brass-market", "saffron-fields", "saltmarsh"]

[seas.pearl-shallows]
name = "Pearl Shallows"
coasts = ["pearl-atoll", "tusk-hollow"]
pos = [9.0, 0.5]
"""


def _standin_with_seas(tmp_path: Path, seas: str = SEAS) -> Path:
    text = load_text("standin").replace('id = "standin"', 'id = "with-seas"')
    file = tmp_path / "with-seas.toml"
    file.write_text(text + seas)
    return file


def load_text(board_id: str) -> str:
    from importlib import resources

    return (resources.files("whispers.fixtures") / "boards" / f"{board_id}.toml").read_text()


def test_seas_are_data_the_rules_never_read_and_a_board_without_them_keeps_its_hash(tmp_path: Path):
    """EN 310: "You cannot attack across oceans or seas" (FR 328, IT 286, ES 189, REV 120 "You may not cross the
    sea"): a sea is never a border. A board without seas hashes as before seas were data, so the games recorded
    on it keep their pin."""
    standin = load_board("standin")
    assert "seas" not in standin.to_data() and standin.seas == {}
    assert standin.content_hash == "sha256:31df2d8f6bb64a389a504019b9021fa23b15e8653bc7bb67001a7ab0a5c618b8"
    seas = load_board(str(_standin_with_seas(tmp_path)))
    assert seas.seas["grey-sea"].coasts[:2] == ("wolfmere", "cloudmere") and seas.seas["pearl-shallows"].pos == (9, 0.5)
    assert {e: dict(c) for e, c in seas.council.items()} == {e: dict(c) for e, c in standin.council.items()}
    assert seas.regions == standin.regions  # the same land borders: a shore is no border
    assert not seas.adjacent("wolfmere", "cloudmere")
    assert seas.content_hash != standin.content_hash  # seas are part of what a game pins
    again = type(seas).from_data(seas.to_data())  # as a game's first event embeds it
    assert again == seas and again.content_hash == seas.content_hash


@pytest.mark.parametrize("seas, says", [
    ('[seas.grey-sea]\nname = "Grey Sea"\ncoasts = ["atlantis"]', "sea grey-sea: unknown coast 'atlantis'"),
    ('[seas.grey-sea]\nname = "Grey Sea"\ncoasts = ["wolfmere", "wolfmere"]', "lists 'wolfmere' in coasts twice"),
    ('[seas.grey-sea]\nname = "Grey Sea"\ncoasts = []', "coasts must list at least one region"),
    ('[seas.grey-sea]\ncoasts = ["wolfmere"]', "sea grey-sea: missing key 'name'"),
    ('[seas.grey-sea]\nname = "Grey Sea"', "sea grey-sea: missing key 'coasts'"),
    ('[seas.grey-sea]\nname = "G"\ncoasts = ["wolfmere"]\ndepth = 3', "sea grey-sea: unknown key 'depth'"),
    ('[seas.grey-sea]\nname = "G"\ncoasts = ["wolfmere"]\npos = [1]', "sea grey-sea: pos must be two"),
    ('[seas.wolfmere]\nname = "G"\ncoasts = ["cloudmere"]', "sea wolfmere: has the id of a region"),
    ('[seas."Grey Sea"]\nname = "G"\ncoasts = ["cloudmere"]', "sea 'Grey Sea': id must match"),
    ('seas = ["wolfmere"]', "seas must be a table, not an array"),
])
def test_a_bad_sea_is_refused_in_one_line_naming_it(tmp_path: Path, seas: str, says: str):
    file = _standin_with_seas(tmp_path, "\n" + seas + "\n") if not seas.startswith("seas =") else None
    if file is None:  # a top-level key must come before the first table
        file = tmp_path / "top.toml"
        file.write_text(load_text("standin").replace('id = "standin"', f'id = "top"\n{seas}'))
    result = CliRunner().invoke(whispers, ["board", "check", str(file)])
    assert result.exit_code == 2 and says in result.output and len(result.output.strip().splitlines()) == 1, \
        result.output


def test_board_check_lists_the_seas_and_map_board_draws_them_apart_from_the_borders(tmp_path: Path):
    file = _standin_with_seas(tmp_path)
    runner = CliRunner()
    checked = runner.invoke(whispers, ["board", "check", str(file)])
    assert checked.exit_code == 0, checked.output
    assert "grey-sea       Grey Sea: wolfmere, cloudmere, amberfield" in checked.output
    assert "pearl-shallows Pearl Shallows: pearl-atoll, tusk-hollow" in checked.output
    assert "no land border reaches" not in checked.output
    standin = runner.invoke(whispers, ["board", "check", "standin"])
    assert "seas: none in this file" in standin.output
    assert runner.invoke(whispers, ["map", "--board", str(file), "-o", str(tmp_path / "b.dot")]).exit_code == 0
    dot = (tmp_path / "b.dot").read_text()
    shores = re.findall(r'(?m)^\s*"sea_([a-z-]+)" -- "?([a-z-]+)"? \[class="sea-shore"', dot)
    assert sorted(shores) == sorted([("grey-sea", r) for r in ("wolfmere", "cloudmere", "amberfield", "ivory-gate",
                                                                "brass-market", "saffron-fields", "saltmarsh")]
                                    + [("pearl-shallows", "pearl-atoll"), ("pearl-shallows", "tusk-hollow")])
    borders = re.findall(r'class=border', dot)
    assert len(borders) == len(load_board("standin").borders())  # no sea drawn as a border
    assert 'pos="14.40,0.80!"' in dot  # Pearl Shallows where the file puts it ([9.0, 0.5] at 1.6 inches a unit)
    shown = runner.invoke(whispers, ["board", "show", str(file)])
    assert "Seas" in shown.output and "Pearl Shallows" in shown.output


def test_a_game_on_a_board_with_seas_records_exports_and_verifies(tmp_path: Path):
    file = _standin_with_seas(tmp_path)
    runner = CliRunner()
    store = ["--store", f"sqlite:///{tmp_path}/s.db"]
    made = runner.invoke(whispers, ["new", "g", "--players", "raven,rat", "--board", str(file), *store])
    assert made.exit_code == 0, made.output
    exported = runner.invoke(whispers, ["export", "g", "-o", str(tmp_path / "g.whispers"), *store])
    assert exported.exit_code == 0, exported.output
    verified = runner.invoke(whispers, ["verify", str(tmp_path / "g.whispers"), *store])
    assert verified.exit_code == 0 and "custom:with-seas" in verified.output, verified.output
    assert runner.invoke(whispers, ["map", "g", "-o", str(tmp_path / "g.dot"), *store]).exit_code == 0
    assert "sea_grey-sea" in (tmp_path / "g.dot").read_text()
