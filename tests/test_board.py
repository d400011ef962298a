"""Boards as data: the board model, its validation, the shipped stand-in board and `whispers board`."""

import copy
import json
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from whispers.cli.main import whispers
from whispers.ledger.core import names
from whispers.ledger.core.board import Board, Region
from whispers.ledger.core.errors import BoardError
from whispers.ledger.io.board_files import load_board

STANDIN_PATH = Path(str(resources.files("whispers.fixtures") / "boards" / "standin.toml"))

# Games recorded on the stand-in pin this hash. If a change to standin.toml is deliberate, update it here too.
STANDIN_HASH = "sha256:31df2d8f6bb64a389a504019b9021fa23b15e8653bc7bb67001a7ab0a5c618b8"

# The revised rulebook's "Council orders" (rules digest §4.2), order A first.
REVISED_COUNCIL: dict[str, dict[str, tuple[str, ...]]] = {
    "bear": {
        "sheriff": ("recruit_per_farm", "attack"),
        "steward": ("draw_per_2_farms", "recruit_2"),
        "marshal": ("recruit_per_fort", "attack"),
        "chancellor": ("attack", "swap_agent"),
    },
    "eagle": {
        "sheriff": ("recruit_2",),
        "steward": ("draw_per_2_farms", "recruit_per_farm"),
        "marshal": ("recruit_per_fort", "attack"),
        "chancellor": ("attack", "swap_agent"),
    },
    "elephant": {
        "sheriff": ("recruit_per_farm",),
        "steward": ("draw_per_3_forts", "recruit_2"),
        "marshal": ("recruit_per_fort", "attack"),
        "chancellor": ("attack", "swap_agent"),
    },
    "lion": {
        "sheriff": ("recruit_per_farm", "draw_1"),
        "steward": ("draw_per_3_farms", "recruit_2"),
        "marshal": ("recruit_2_per_fort",),
        "chancellor": ("attack", "swap_agent"),
    },
    "horse": {
        "sheriff": ("recruit_per_farm",),
        "steward": ("draw_per_2_forts",),
        "marshal": ("recruit_per_fort", "attack"),
        "chancellor": ("attack", "swap_agent"),
    },
}

# The icons a counting order needs among an empire's home regions before it yields anything: (icon, how many).
NEEDS: dict[str, tuple[str, int]] = {
    "recruit_per_farm": ("farm", 1),
    "recruit_per_fort": ("fort", 1),
    "recruit_2_per_fort": ("fort", 1),
    "draw_per_2_farms": ("farm", 2),
    "draw_per_3_farms": ("farm", 3),
    "draw_per_2_forts": ("fort", 2),
    "draw_per_3_forts": ("fort", 3),
}


@pytest.fixture(scope="module")
def standin() -> Board:
    return load_board("standin")


def _reachable(board: Board, start: str, allowed: set[str]) -> set[str]:
    seen = {start}
    stack = [start]
    while stack:
        for neighbour in board.regions[stack.pop()].adjacent:
            if neighbour in allowed and neighbour not in seen:
                seen.add(neighbour)
                stack.append(neighbour)
    return seen


# --- the shipped stand-in board -------------------------------------------------------------------------------


def test_standin_loads_by_id_and_by_path(standin: Board) -> None:
    assert standin.id == "standin"
    assert load_board(str(STANDIN_PATH)) == standin


def test_standin_empires_in_turn_order(standin: Board) -> None:
    assert standin.empires == ("bear", "eagle", "elephant", "lion", "horse")


def test_standin_home_regions_per_empire(standin: Board) -> None:
    counts = {empire: len(standin.home_regions(empire)) for empire in standin.empires}
    assert all(5 <= n <= 7 for n in counts.values()), counts
    assert len(set(counts.values())) > 1, "the number of home regions should vary between empires"
    assert sum(counts.values()) == len(standin.regions)


def test_standin_council_is_the_revised_table(standin: Board) -> None:
    assert {empire: dict(offices) for empire, offices in standin.council.items()} == REVISED_COUNCIL
    assert list(standin.council) == list(standin.empires)
    for empire in standin.empires:
        assert tuple(standin.council[empire]) == names.OFFICES


def test_standin_every_counting_order_has_something_to_count(standin: Board) -> None:
    for empire in standin.empires:
        home = [standin.regions[rid] for rid in standin.home_regions(empire)]
        icons = {"farm": sum(r.farm for r in home), "fort": sum(r.fort for r in home)}
        for office in names.OFFICES:
            for order in standin.orders(empire, office):
                if order in NEEDS:
                    icon, needed = NEEDS[order]
                    assert icons[icon] >= needed, f"{empire} {office} {order}: {icons[icon]} {icon}s"


def test_standin_cities_and_banners(standin: Board) -> None:
    regions = list(standin.regions.values())
    assert 25 <= sum(r.cities for r in regions) <= 35
    assert all(0 <= r.cities <= 2 for r in regions)
    assert all(0 <= r.banners <= 3 for r in regions)
    # Starting banners never exceed the supply limit (4, or 6 with a farm).
    assert all(r.banners <= (6 if r.farm else 4) for r in regions)
    for empire in standin.empires:
        total = sum(standin.regions[rid].banners for rid in standin.home_regions(empire))
        assert 6 <= total <= 12, (empire, total)


def test_standin_adjacency_is_symmetric_and_connected(standin: Board) -> None:
    ids = set(standin.regions)
    for rid, region in standin.regions.items():
        assert region.adjacent, f"{rid} has no neighbour"
        for neighbour in region.adjacent:
            assert standin.adjacent(neighbour, rid)
    first = next(iter(standin.regions))
    assert _reachable(standin, first, ids) == ids
    for empire in standin.empires:
        home = set(standin.home_regions(empire))
        assert _reachable(standin, next(iter(home)), home) == home, f"{empire}'s home regions are not connected"


def test_standin_every_empire_borders_two_others(standin: Board) -> None:
    for empire in standin.empires:
        others = {
            standin.regions[n].home for rid in standin.home_regions(empire) for n in standin.regions[rid].adjacent
        } - {empire}
        assert len(others) >= 2, (empire, others)


def test_standin_has_an_island_and_sea_comments(standin: Board) -> None:
    # An island: no land border with another empire's region.
    islands = [r for r in standin.regions.values() if all(standin.regions[n].home == r.home for n in r.adjacent)]
    assert islands
    text = STANDIN_PATH.read_text(encoding="utf-8")
    assert "across the Grey Sea" in text or "across the water" in text


def test_standin_positions_and_note(standin: Board) -> None:
    for region in standin.regions.values():
        assert region.pos is not None
        x, y = region.pos
        assert 0 <= x <= 10 and 0 <= y <= 8, region
    assert "stand-in" in standin.note
    assert "docs/boards.md" in standin.note


def test_round_trip_and_hash(standin: Board) -> None:
    data = standin.to_data()
    assert json.loads(json.dumps(data)) == data  # plain data only
    again = Board.from_data(data)
    assert again == standin
    assert again.content_hash == standin.content_hash == STANDIN_HASH
    assert load_board("standin").content_hash == STANDIN_HASH


def test_hash_ignores_order_of_tables_but_not_content(standin: Board) -> None:
    data = standin.to_data()
    data["regions"] = dict(reversed(data["regions"].items()))
    data["council"] = dict(reversed(data["council"].items()))
    assert Board.from_data(data).content_hash == STANDIN_HASH
    data["regions"]["frost-gate"]["cities"] += 1
    assert Board.from_data(data).content_hash != STANDIN_HASH


def test_board_is_immutable(standin: Board) -> None:
    with pytest.raises(AttributeError, match="immutable"):
        standin.id = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        standin.regions["x"] = standin.regions["frost-gate"]  # type: ignore[index]
    with pytest.raises(TypeError):
        standin.council["bear"]["sheriff"] = ("attack",)  # type: ignore[index]
    assert isinstance(standin.orders("bear", "sheriff"), tuple)
    assert isinstance(standin.regions["frost-gate"].adjacent, tuple)
    assert {standin: 1}[load_board("standin")] == 1  # hashable, and equal boards hash alike


def test_queries(standin: Board) -> None:
    assert standin.orders("lion", "marshal") == ("recruit_2_per_fort",)
    assert standin.home_regions("horse")[0] == "windmoor"
    assert standin.adjacent("frost-gate", "ice-hall")
    assert not standin.adjacent("wolfmere", "cloudmere")  # across the Grey Sea
    with pytest.raises(KeyError):
        standin.orders("wolf", "sheriff")
    with pytest.raises(KeyError):
        standin.home_regions("wolf")
    with pytest.raises(KeyError):
        standin.adjacent("frost-gate", "atlantis")


def test_region_defaults() -> None:
    region = Region(id="x", name="X", home="bear", adjacent=["y"], pos=[1, 2])  # type: ignore[arg-type]
    assert (region.cities, region.farm, region.fort, region.banners) == (0, False, False, 0)
    assert region.adjacent == ("y",)
    assert region.pos == (1.0, 2.0)


# --- validation -----------------------------------------------------------------------------------------------

SOURCE = "tiny.toml"


def tiny() -> dict[str, Any]:
    """A small valid board: two empires, three regions."""
    council = {
        "sheriff": ["recruit_per_farm", "attack"],
        "steward": ["draw_1"],
        "marshal": ["recruit_per_fort", "attack"],
        "chancellor": ["attack", "swap_agent"],
    }
    return {
        "id": "tiny",
        "name": "Tiny board",
        "note": "for tests",
        "empires": ["bear", "eagle"],
        "council": {"bear": copy.deepcopy(council), "eagle": copy.deepcopy(council)},
        "regions": {
            "north": {"name": "North", "home": "bear", "cities": 1, "farm": True, "banners": 2, "adjacent": ["south"]},
            "south": {"name": "South", "home": "eagle", "fort": True, "banners": 3, "adjacent": ["north", "isle"]},
            "isle": {"name": "Isle", "home": "eagle", "adjacent": ["south"], "pos": [1, 2.5]},
        },
    }


def test_tiny_is_valid() -> None:
    board = Board.from_data(tiny(), SOURCE)
    assert board.home_regions("eagle") == ("south", "isle")
    assert board.regions["isle"].pos == (1.0, 2.5)
    assert board.note == "for tests"


def test_note_is_optional() -> None:
    data = tiny()
    del data["note"]
    assert Board.from_data(data).note == ""


def _set(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    *parents, last = path.split(".")

    def mutate(data: dict[str, Any]) -> None:
        for key in parents:
            data = data[key]
        data[last] = value

    return mutate


def _delete(path: str) -> Callable[[dict[str, Any]], None]:
    *parents, last = path.split(".")

    def mutate(data: dict[str, Any]) -> None:
        for key in parents:
            data = data[key]
        del data[last]

    return mutate


def _rename_region(old: str, new: str) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        data["regions"][new] = data["regions"].pop(old)

    return mutate


def _two_mutations(*mutations: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def mutate(data: dict[str, Any]) -> None:
        for mutation in mutations:
            mutation(data)

    return mutate


BROKEN: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    # (test id, how to break tiny(), the expected message after "tiny.toml: ")
    ("unknown top-level key", _set("colour", "red"), "unknown key 'colour'"),
    ("missing top-level key", _delete("regions"), "missing key 'regions'"),
    ("board id pattern", _set("id", "Tiny Board"), "id 'Tiny Board' must match"),
    ("board name ill-typed", _set("name", 3), "name must be a string, not an integer"),
    ("note ill-typed", _set("note", ["x"]), "note must be a string, not an array"),
    ("empires ill-typed", _set("empires", "bear"), "empires must be an array, not a string"),
    ("duplicate empire", _set("empires", ["bear", "eagle", "bear"]), "empires: 'bear' is listed twice"),
    ("empire id pattern", _set("empires", ["bear", "Eagle"]), "empires: empire id 'Eagle' must match"),
    ("council unknown empire", _set("council.lion", {}), "council lion: unknown empire"),
    ("empire with no council", _delete("council.eagle"), "council eagle: missing"),
    ("council missing office", _delete("council.bear.marshal"), "council bear: missing office 'marshal'"),
    ("council unknown office", _set("council.bear.king", ["attack"]), "council bear: unknown office 'king'"),
    ("council empty orders", _set("council.bear.steward", []), "council bear: steward has no orders"),
    (
        "council unknown order",
        _set("council.eagle.sheriff", ["recruit_3"]),
        "council eagle: sheriff: unknown order 'recruit_3'",
    ),
    (
        "council order twice",
        _set("council.bear.chancellor", ["attack", "attack"]),
        "council bear: chancellor lists 'attack' twice",
    ),
    ("council orders ill-typed", _set("council.bear.sheriff", "attack"), "council bear: sheriff must be an array"),
    ("regions empty", _set("regions", {}), "regions must hold at least one region"),
    ("region id pattern", _rename_region("isle", "Isle"), "region 'Isle': id must match"),
    ("region unknown key", _set("regions.north.colour", "blue"), "region north: unknown key 'colour'"),
    ("region missing name", _delete("regions.north.name"), "region north: missing key 'name'"),
    ("region missing home", _delete("regions.north.home"), "region north: missing key 'home'"),
    ("region name empty", _set("regions.north.name", " "), "region north: name must not be empty"),
    ("region unknown home", _set("regions.north.home", "lion"), "region north: home 'lion' is not an empire"),
    ("cities ill-typed", _set("regions.north.cities", "1"), "region north: cities must be an integer, not a string"),
    ("cities boolean", _set("regions.north.cities", True), "region north: cities must be an integer, not a boolean"),
    ("cities negative", _set("regions.north.cities", -1), "region north: cities must not be negative"),
    ("banners negative", _set("regions.south.banners", -2), "region south: banners must not be negative"),
    ("farm ill-typed", _set("regions.north.farm", 1), "region north: farm must be true or false"),
    ("fort ill-typed", _set("regions.south.fort", "yes"), "region south: fort must be true or false"),
    ("adjacent ill-typed", _set("regions.isle.adjacent", "south"), "region isle: adjacent must be an array"),
    ("self adjacency", _set("regions.north.adjacent", ["south", "north"]), "region north: lists itself as adjacent"),
    (
        "neighbour twice",
        _set("regions.north.adjacent", ["south", "south"]),
        "region north: lists 'south' as adjacent twice",
    ),
    (
        "unknown neighbour",
        _set("regions.north.adjacent", ["south", "atlantis"]),
        "region north: unknown neighbour 'atlantis'",
    ),
    (
        "asymmetric adjacency",
        _set("regions.isle.adjacent", []),
        "region south: lists 'isle' as adjacent but 'isle' does not list 'south'",
    ),
    ("pos one number", _set("regions.isle.pos", [1]), "region isle: pos must be two finite numbers"),
    ("pos not numbers", _set("regions.isle.pos", ["a", "b"]), "region isle: pos must be two finite numbers"),
    ("pos boolean", _set("regions.isle.pos", [1, True]), "region isle: pos must be two finite numbers"),
    ("pos not finite", _set("regions.isle.pos", [1, float("nan")]), "region isle: pos must be two finite numbers"),
    ("empire with no home region", _set("regions.north.home", "eagle"), "empire bear: has no home region"),
    (
        "starting banners over 20",
        _two_mutations(_set("regions.south.banners", 18), _set("regions.isle.banners", 3)),
        "empire eagle: starting banners total 21, more than the 20",
    ),
]


@pytest.mark.parametrize(("mutate", "expected"), [case[1:] for case in BROKEN], ids=[case[0] for case in BROKEN])
def test_broken_board_is_refused(mutate: Callable[[dict[str, Any]], None], expected: str) -> None:
    data = tiny()
    mutate(data)
    with pytest.raises(BoardError) as caught:
        Board.from_data(data, SOURCE)
    message = str(caught.value)
    assert message.startswith(f"{SOURCE}: {expected}"), message
    assert "\n" not in message


def test_first_problem_is_reported() -> None:
    data = tiny()
    data["regions"]["north"]["cities"] = -1
    data["regions"]["south"]["cities"] = -1
    with pytest.raises(BoardError, match=r"^tiny\.toml: region north: "):
        Board.from_data(data, SOURCE)


def test_not_a_table() -> None:
    with pytest.raises(BoardError, match=r"^<data>: a board must be a table, not an array$"):
        Board.from_data([])  # type: ignore[arg-type]


def test_toml_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('id = "x"\nname = \n', encoding="utf-8")
    with pytest.raises(BoardError) as caught:
        load_board(str(path))
    message = str(caught.value)
    assert message.startswith(f"{path}: not valid TOML: ")
    assert "line 2" in message
    assert "\n" not in message


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes('name = "Fr\u00e9jus"\n'.encode("latin-1"))
    with pytest.raises(BoardError, match="not UTF-8"):
        load_board(str(path))


def test_missing_file_and_unknown_id(tmp_path: Path) -> None:
    with pytest.raises(BoardError, match=r"nowhere\.toml: no such file$"):
        load_board(str(tmp_path / "nowhere.toml"))
    with pytest.raises(BoardError, match=r"^atlantis: no such file, and no shipped board of that id \(shipped: "):
        load_board("atlantis")


# --- the CLI --------------------------------------------------------------------------------------------------


def _write_toml(path: Path, data: dict[str, Any]) -> None:
    """A minimal TOML writer for test boards (strings, ints, bools, floats, arrays of those, nested tables)."""

    def value(v: object) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, list | tuple):
            return "[" + ", ".join(value(item) for item in v) + "]"
        return json.dumps(v)

    lines = [f"{k} = {value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    for empire, offices in data["council"].items():
        lines += [f"[council.{empire}]", *(f"{o} = {value(orders)}" for o, orders in offices.items())]
    for rid, fields in data["regions"].items():
        lines += [f"[regions.{rid}]", *(f"{k} = {value(v)}" for k, v in fields.items())]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_cli_check_shipped_board() -> None:
    result = CliRunner().invoke(whispers, ["board", "check", str(STANDIN_PATH)])
    assert result.exit_code == 0, result.output
    assert re.fullmatch(
        rf"{re.escape(str(STANDIN_PATH))}: valid board 'standin' \(31 regions, 5 empires, 28 cities, "
        rf"{re.escape(STANDIN_HASH[:19])}\)\n",
        result.stdout.splitlines(keepends=True)[0],  # then the per-empire counts (tests/test_board_template.py)
    ), result.stdout


def test_cli_check_tiny_board_written_as_toml(tmp_path: Path) -> None:
    path = tmp_path / "tiny.toml"
    _write_toml(path, tiny())
    result = CliRunner().invoke(whispers, ["board", "check", str(path)])
    assert result.exit_code == 0, result.output
    assert "valid board 'tiny' (3 regions, 2 empires, 1 city, sha256:" in result.stdout


def test_cli_check_broken_board(tmp_path: Path) -> None:
    data = tiny()
    data["regions"]["north"]["adjacent"] = ["south", "atlantis"]
    path = tmp_path / "broken.toml"
    _write_toml(path, data)
    result = CliRunner().invoke(whispers, ["board", "check", str(path)])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert f"{path}: region north: unknown neighbour 'atlantis'" in lines[0]
    assert "Traceback" not in result.output


def test_cli_check_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "missing.toml"
    result = CliRunner().invoke(whispers, ["board", "check", str(path)])
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert f"{path}: no such file" in lines[0]


def test_cli_check_bad_toml(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("id = = 1\n", encoding="utf-8")
    result = CliRunner().invoke(whispers, ["board", "check", str(path)])
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1
    assert "line 1" in result.stderr


def test_cli_show_json() -> None:
    result = CliRunner().invoke(whispers, ["board", "show", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data.pop("content_hash") == STANDIN_HASH
    assert Board.from_data(data) == load_board("standin")


def test_cli_show_tables() -> None:
    result = CliRunner().invoke(whispers, ["board", "show", "standin"])
    assert result.exit_code == 0, result.output
    for text in ("Frost Gate", "frost-gate", "ice-hall", "recruit_2_per_fort", "swap_agent", "chancellor"):
        assert text in result.stdout


@pytest.mark.parametrize("args", [["board", "--help"], ["board", "check", "--help"], ["board", "show", "--help"]])
def test_cli_help(args: list[str]) -> None:
    result = CliRunner().invoke(whispers, args)
    assert result.exit_code == 0
    assert "board" in result.stdout.lower()
