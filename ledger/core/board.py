"""Boards as data: an immutable board model, validated from plain data (the format is in docs/boards.md).
Reading board files is ledger.board_files's."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from functools import cached_property
from types import MappingProxyType
from typing import NoReturn, TypedDict

import msgspec
from msgspec.structs import force_setattr

from whispers.ledger.core import names
from whispers.ledger.core.errors import BoardError
from whispers.ledger.core.plain import Data
from whispers.ledger.core.words import N_, _, say, value_kind

ID_PATTERN: re.Pattern[str] = re.compile(r"[a-z0-9][a-z0-9-]*")
"""What a board, empire or region id looks like: lower-case letters, digits and hyphens, not starting with a hyphen."""

BOARD_KEYS: tuple[str, ...] = ("id", "name", "note", "empires", "council", "regions", "seas")
REQUIRED_BOARD_KEYS: tuple[str, ...] = ("id", "name", "empires", "council", "regions")
REGION_KEYS: tuple[str, ...] = ("name", "home", "cities", "farm", "fort", "banners", "adjacent", "pos")
REQUIRED_REGION_KEYS: tuple[str, ...] = ("name", "home")
SEA_KEYS: tuple[str, ...] = ("name", "coasts", "pos")
REQUIRED_SEA_KEYS: tuple[str, ...] = ("name", "coasts")

class Region(msgspec.Struct, frozen=True):
    """One region of the map. `home` is the empire whose colour it bears; `adjacent` lists land borders only."""

    id: str
    name: str
    home: str
    cities: int = 0
    farm: bool = False
    fort: bool = False
    banners: int = 0
    """Starting banners of the home empire."""
    adjacent: tuple[str, ...] = ()
    pos: tuple[float, float] | None = None
    """Where to draw the region (x east, y north); not used by the rules."""

    def __post_init__(self) -> None:
        force_setattr(self, "adjacent", tuple(self.adjacent))
        if self.pos is not None:
            x, y = self.pos
            force_setattr(self, "pos", (float(x), float(y)))


class Sea(msgspec.Struct, frozen=True):
    """A sea or ocean of the map and the regions on its shores. Never a border: "You cannot attack across oceans
    or seas" (EN 310; FR 328, IT 286, ES 189, REV 120). No order reads a sea, only a card a card sheet says crosses
    it (ledger.legal.route_allows); a board keeps them also so that a transcription can be compared with the
    printed map, and so that the map draws them."""

    id: str
    name: str
    coasts: tuple[str, ...]
    """The regions it touches, in the order the file lists them."""
    pos: tuple[float, float] | None = None
    """Where to draw its name (x east, y north); not used by the rules."""

    def __post_init__(self) -> None:
        force_setattr(self, "coasts", tuple(self.coasts))
        if self.pos is not None:
            x, y = self.pos
            force_setattr(self, "pos", (float(x), float(y)))


class Board(msgspec.Struct, frozen=True, dict=True):
    """A whole board: empire turn order, councils and regions. Build one with `from_data` (or
    ledger.board_files.load_board), which validate; the constructor only freezes what it is given.

    Board, Region and Sea are msgspec Structs (made in C: as dataclasses they compiled their methods at every
    command's start); a __dict__ for the cached content hash."""

    id: str
    name: str
    note: str
    empires: tuple[str, ...]
    """Empire turn order."""
    council: Mapping[str, Mapping[str, tuple[str, ...]]]
    """empire -> office -> the orders that office offers, in printed order (A, B)."""
    regions: Mapping[str, Region]
    """region id -> region, in file order."""
    seas: Mapping[str, Sea] = msgspec.field(default_factory=dict)
    """sea id -> sea, in file order (none: the board file gives no seas)."""

    def __post_init__(self) -> None:
        force_setattr(self, "empires", tuple(self.empires))
        frozen_council = {
            empire: MappingProxyType({office: tuple(orders) for office, orders in offices.items()})
            for empire, offices in self.council.items()
        }
        force_setattr(self, "council", MappingProxyType(frozen_council))
        force_setattr(self, "regions", MappingProxyType(dict(self.regions)))
        force_setattr(self, "seas", MappingProxyType(dict(self.seas)))

    # The mappings are not hashable; equal boards always share id and empire order, so this agrees with ==.
    def __hash__(self) -> int:
        return hash((self.id, self.empires))

    def orders(self, empire: str, office: str) -> tuple[str, ...]:
        """The orders `office` offers in `empire`'s council. KeyError for an unknown empire or office."""
        return self.council[empire][office]

    def home_regions(self, empire: str) -> tuple[str, ...]:
        """Ids of the regions bearing `empire`'s colour, in file order. KeyError for an unknown empire."""
        if empire not in self.empires:
            raise KeyError(empire)
        return tuple(rid for rid, region in self.regions.items() if region.home == empire)

    def adjacent(self, a: str, b: str) -> bool:
        """Whether regions `a` and `b` share a land border. KeyError for an unknown region."""
        if b not in self.regions:
            raise KeyError(b)
        return b in self.regions[a].adjacent

    @cached_property
    def region_order(self) -> Mapping[str, int]:
        """Each region's place in file order (the order the rules list regions in)."""
        return MappingProxyType({rid: i for i, rid in enumerate(self.regions)})

    def borders(self) -> tuple[tuple[str, str], ...]:
        """Every land border once, as (a, b) with a before b in file order."""
        order = self.region_order
        return tuple(
            (rid, other)
            for rid, region in self.regions.items()
            for other in region.adjacent
            if order[rid] < order[other]
        )

    def to_data(self) -> Data:
        """The board as plain data, in the shape of its TOML file, with every default written out, but for `seas`:
        written only when the board has a sea, so a board from before seas were data keeps its content hash (the
        pin of every game recorded on it)."""
        data: Data = {
            "id": self.id,
            "name": self.name,
            "note": self.note,
            "empires": list(self.empires),
            "council": {
                empire: {office: list(orders) for office, orders in offices.items()}
                for empire, offices in self.council.items()
            },
            "regions": {rid: _region_data(region) for rid, region in self.regions.items()},
        }
        if self.seas:
            data["seas"] = {sid: _sea_data(sea) for sid, sea in self.seas.items()}
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, object], source: str = "<data>") -> Board:
        """Validate `data` (the shape of a board file) and build the board. BoardError names the first problem,
        prefixed with `source`."""
        return _Validator(source).board(data)

    @cached_property
    def content_hash(self) -> str:
        """What a game pins its board by: "sha256:" and the hex digest of the canonical JSON of `to_data()`
        (ledger.pins.content_hash). Comments, layout and the order of tables and keys in the file do not
        change it."""
        from whispers.ledger.core.pins import content_hash

        return content_hash(self.to_data())


def _region_data(region: Region) -> Data:
    data: Data = {
        "name": region.name,
        "home": region.home,
        "cities": region.cities,
        "farm": region.farm,
        "fort": region.fort,
        "banners": region.banners,
        "adjacent": list(region.adjacent),
    }
    if region.pos is not None:
        data["pos"] = list(region.pos)
    return data


def _sea_data(sea: Sea) -> Data:
    data: Data = {"name": sea.name, "coasts": list(sea.coasts)}
    if sea.pos is not None:
        data["pos"] = list(sea.pos)
    return data


def _listing(items: tuple[str, ...] | list[str]) -> str:
    return ", ".join(items)


class _Validator:
    """Checks board data in a fixed order and stops at the first problem."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str | None, what: str) -> NoReturn:
        prefix = self.source if where is None else say("{file}: {message}", file=self.source, message=where)
        raise BoardError(say("{file}: {message}", file=prefix, message=what))

    def keys(
        self, where: str | None, table: Mapping[str, object], allowed: tuple[str, ...], required: tuple[str, ...]
    ) -> None:
        for key in table:
            if key not in allowed:
                self.fail(where, say("unknown key {text} (allowed: {allowed})", text=repr(key),
                                     allowed=_listing(allowed)))
        for key in required:
            if key not in table:
                self.fail(where, say("missing key {text}", text=repr(key)))

    def text(self, where: str | None, key: str, value: object) -> str:
        if not isinstance(value, str):
            self.fail(where, say("{text} must be a string, not {kind}", text=key, kind=value_kind(value)))
        if not value.strip():
            self.fail(where, say("{text} must not be empty", text=key))
        return value

    def ident(self, where: str | None, what: str, value: object) -> str:
        if not isinstance(value, str):
            self.fail(where, say("{text} must be a string, not {kind}", text=_(what), kind=value_kind(value)))
        if not ID_PATTERN.fullmatch(value):
            self.fail(where, say("{text} {value} must match {pattern} (lower-case letters, digits, hyphens)",
                                 text=_(what), value=repr(value), pattern=ID_PATTERN.pattern))
        return value

    def count(self, where: str, key: str, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(where, say("{text} must be an integer, not {kind}", text=key, kind=value_kind(value)))
        if value < 0:
            self.fail(where, say("{text} must not be negative (got {value})", text=key, value=value))
        return value

    def flag(self, where: str, key: str, value: object) -> bool:
        if not isinstance(value, bool):
            self.fail(where, say("{text} must be true or false, not {kind}", text=key, kind=value_kind(value)))
        return value

    def table(self, where: str | None, key: str | None, value: object) -> Mapping[str, object]:
        if not isinstance(value, Mapping):
            self.fail(where, say("must be a table, not {kind}", kind=value_kind(value)) if key is None
                      else say("{text} must be a table, not {kind}", text=key, kind=value_kind(value)))
        return value

    def array(self, where: str | None, key: str, value: object) -> list[object] | tuple[object, ...]:
        if not isinstance(value, list | tuple):
            self.fail(where, say("{text} must be an array, not {kind}", text=key, kind=value_kind(value)))
        return value

    def board(self, data: object) -> Board:
        if not isinstance(data, Mapping):
            self.fail(None, say("a board must be a table, not {kind}", kind=value_kind(data)))
        self.keys(None, data, BOARD_KEYS, REQUIRED_BOARD_KEYS)
        board_id = self.ident(None, "id", data["id"])
        name = self.text(None, "name", data["name"])
        note = data.get("note", "")
        if not isinstance(note, str):
            self.fail(None, say("{text} must be a string, not {kind}", text="note", kind=value_kind(note)))
        empires = self.empires(data["empires"])
        council = self.council(data["council"], empires)
        regions = self.regions(data["regions"], empires)
        self.symmetry(regions)
        self.homes(regions, empires)
        seas = self.seas(data.get("seas", {}), regions)
        return Board(id=board_id, name=name, note=note, empires=empires, council=council, regions=regions,
                     seas=seas)

    def empires(self, value: object) -> tuple[str, ...]:
        items = self.array(None, "empires", value)
        if not items:
            self.fail(None, _("empires must list at least one empire"))
        seen: list[str] = []
        for item in items:
            empire = self.ident("empires", N_("empire id"), item)
            if empire in seen:
                self.fail("empires", say("{text} is listed twice", text=repr(empire)))
            seen.append(empire)
        return tuple(seen)

    def council(self, value: object, empires: tuple[str, ...]) -> dict[str, dict[str, tuple[str, ...]]]:
        tables = self.table(None, "council", value)
        council: dict[str, dict[str, tuple[str, ...]]] = {}
        for empire, offices in tables.items():
            where = say("council {text}", text=empire)
            if empire not in empires:
                self.fail(where, say("unknown empire (empires: {empires})", empires=_listing(empires)))
            offices = self.table(where, None, offices)
            for office in offices:
                if office not in names.OFFICES:
                    self.fail(where, say("unknown office {text} (offices: {offices})", text=repr(office),
                                          offices=_listing(names.OFFICES)))
            council[empire] = {}
            for office in names.OFFICES:
                if office not in offices:
                    self.fail(where, say("missing office {text}", text=repr(office)))
                council[empire][office] = self.office(where, office, offices[office])
        for empire in empires:
            if empire not in council:
                self.fail(say("council {text}", text=empire),
                          say("missing: every empire needs a [council.{text}] table", text=empire))
        # Councils in empire turn order, whatever order the file gives them in.
        return {empire: council[empire] for empire in empires}

    def office(self, where: str, office: str, value: object) -> tuple[str, ...]:
        items = self.array(where, office, value)
        if not items:
            self.fail(where, say("{text} has no orders", text=office))
        orders: list[str] = []
        for item in items:
            if not isinstance(item, str):
                self.fail(where, say("{text}: an order must be a string, not {kind}", text=office,
                                     kind=value_kind(item)))
            if item not in names.ORDERS:
                self.fail(where, say("{text}: unknown order {value} (orders: {orders})", text=office, value=repr(item),
                                      orders=_listing(names.ORDERS)))
            if item in orders:
                self.fail(where, say("{text} lists {value} twice", text=office, value=repr(item)))
            orders.append(item)
        return tuple(orders)

    def regions(self, value: object, empires: tuple[str, ...]) -> dict[str, Region]:
        tables = self.table(None, "regions", value)
        if not tables:
            self.fail(None, _("regions must hold at least one region"))
        # Ids first: a badly written id would otherwise surface as some other region's "unknown neighbour".
        for rid in tables:
            if not isinstance(rid, str) or not ID_PATTERN.fullmatch(rid):
                self.fail(say("region {text}", text=repr(rid)),
                          say("id must match {pattern} (lower-case letters, digits, hyphens)",
                              pattern=ID_PATTERN.pattern))
        regions: dict[str, Region] = {}
        for rid, fields in tables.items():
            regions[rid] = self.region(rid, fields, empires, tables)
        return regions

    def region(self, rid: str, value: object, empires: tuple[str, ...], all_ids: Mapping[str, object]) -> Region:
        where = say("region {text}", text=rid)
        fields = self.table(where, None, value)
        self.keys(where, fields, REGION_KEYS, REQUIRED_REGION_KEYS)
        name = self.text(where, "name", fields["name"])
        home = fields["home"]
        if not isinstance(home, str):
            self.fail(where, say("{text} must be a string, not {kind}", text="home", kind=value_kind(home)))
        if home not in empires:
            self.fail(where, say("home {text} is not an empire (empires: {empires})", text=repr(home),
                                 empires=_listing(empires)))
        cities = self.count(where, "cities", fields.get("cities", 0))
        farm = self.flag(where, "farm", fields.get("farm", False))
        fort = self.flag(where, "fort", fields.get("fort", False))
        banners = self.count(where, "banners", fields.get("banners", 0))
        adjacent = self.neighbours(where, rid, fields.get("adjacent", []), all_ids)
        pos = self.pos(where, fields["pos"]) if "pos" in fields else None
        return Region(
            id=rid,
            name=name,
            home=home,
            cities=cities,
            farm=farm,
            fort=fort,
            banners=banners,
            adjacent=adjacent,
            pos=pos,
        )

    def neighbours(self, where: str, rid: str, value: object, all_ids: Mapping[str, object]) -> tuple[str, ...]:
        items = self.array(where, "adjacent", value)
        seen: list[str] = []
        for item in items:
            if not isinstance(item, str):
                self.fail(where, say("adjacent: a neighbour must be a region id string, not {kind}",
                                     kind=value_kind(item)))
            if item == rid:
                self.fail(where, _("lists itself as adjacent"))
            if item in seen:
                self.fail(where, say("lists {text} as adjacent twice", text=repr(item)))
            if item not in all_ids:
                self.fail(where, say("unknown neighbour {text} (no region of that id)", text=repr(item)))
            seen.append(item)
        return tuple(seen)

    def pos(self, where: str, value: object) -> tuple[float, float]:
        numbers: list[float] = []
        if isinstance(value, list | tuple) and len(value) == 2:
            for v in value:
                if isinstance(v, int | float) and not isinstance(v, bool):
                    try:
                        number = float(v)
                    except OverflowError:
                        break
                    if math.isfinite(number):
                        numbers.append(number)
        if len(numbers) != 2:
            self.fail(where, say("pos must be two finite numbers [x, y], got {text}", text=repr(value)))
        return (numbers[0], numbers[1])

    def seas(self, value: object, regions: Mapping[str, Region]) -> dict[str, Sea]:
        tables = self.table(None, "seas", value)
        seas: dict[str, Sea] = {}
        for sid, fields in tables.items():
            where = say("sea {text}", text=sid)
            if not isinstance(sid, str) or not ID_PATTERN.fullmatch(sid):
                self.fail(say("sea {text}", text=repr(sid)),
                          say("id must match {pattern} (lower-case letters, digits, hyphens)",
                              pattern=ID_PATTERN.pattern))
            if sid in regions:
                self.fail(where, _("has the id of a region: give the sea an id of its own"))
            fields = self.table(where, None, fields)
            self.keys(where, fields, SEA_KEYS, REQUIRED_SEA_KEYS)
            name = self.text(where, "name", fields["name"])
            items = self.array(where, "coasts", fields["coasts"])
            if not items:
                self.fail(where, _("coasts must list at least one region (the regions on its shores)"))
            coasts: list[str] = []
            for item in items:
                if not isinstance(item, str):
                    self.fail(where, say("coasts: a coast must be a region id string, not {kind}",
                                         kind=value_kind(item)))
                if item in coasts:
                    self.fail(where, say("lists {text} in coasts twice", text=repr(item)))
                if item not in regions:
                    self.fail(where, say("unknown coast {text} (no region of that id)", text=repr(item)))
                coasts.append(item)
            pos = self.pos(where, fields["pos"]) if "pos" in fields else None
            seas[sid] = Sea(sid, name, tuple(coasts), pos)
        return seas

    def symmetry(self, regions: dict[str, Region]) -> None:
        for rid, region in regions.items():
            for other in region.adjacent:
                if rid not in regions[other].adjacent:
                    self.fail(say("region {text}", text=rid),
                              say("lists {text} as adjacent but {text} does not list {value} (borders go both ways)",
                                  text=repr(other), value=repr(rid)))

    def homes(self, regions: dict[str, Region], empires: tuple[str, ...]) -> None:
        for empire in empires:
            home = [region for region in regions.values() if region.home == empire]
            if not home:
                self.fail(say("empire {text}", text=empire), _("has no home region"))
            banners = sum(region.banners for region in home)
            if banners > names.BANNERS_PER_EMPIRE:
                self.fail(say("empire {text}", text=empire),
                          say("starting banners total {n}, more than the {limit} an empire has", n=banners,
                              limit=names.BANNERS_PER_EMPIRE))


class EmpireCensus(TypedDict):
    regions: int
    cities: int
    farms: int
    forts: int
    banners: int


class SeaCensus(TypedDict):
    name: str
    coasts: list[str]


class Census(TypedDict):
    """`census`: what `board check` and `board show` print."""

    empires: dict[str, EmpireCensus]
    unreached: list[str]
    unreached_seas: dict[str, list[str]]
    land_masses: int
    seas: dict[str, SeaCensus]


def census(board: Board) -> Census:
    """What a person compares with the printed board: per empire the home regions, cities, farms, forts and
    starting banners; the seas and the regions on each; the regions no land border reaches (and the seas each is
    on: none, and it is a border forgotten or a region cut off); how many land masses the borders make."""
    empires: dict[str, EmpireCensus] = {}
    for empire in board.empires:
        home = [board.regions[rid] for rid in board.home_regions(empire)]
        empires[empire] = {"regions": len(home), "cities": sum(r.cities for r in home),
                           "farms": sum(r.farm for r in home), "forts": sum(r.fort for r in home),
                           "banners": sum(r.banners for r in home)}
    unreached = [rid for rid, region in board.regions.items() if not region.adjacent]
    masses, seen = 0, set()
    for rid in board.regions:
        if rid in seen:
            continue
        masses += 1
        todo = [rid]
        while todo:
            here = todo.pop()
            if here not in seen:
                seen.add(here)
                todo.extend(board.regions[here].adjacent)
    seas: dict[str, SeaCensus] = {sid: {"name": sea.name, "coasts": list(sea.coasts)}
                                  for sid, sea in board.seas.items()}
    shores = {rid: [sid for sid, sea in board.seas.items() if rid in sea.coasts] for rid in unreached}
    return {"empires": empires, "unreached": unreached, "unreached_seas": shores, "land_masses": masses,
            "seas": seas}
