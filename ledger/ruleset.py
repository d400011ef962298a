"""Rulesets as data: the knobs where the rulebooks differ, read by the one rules engine."""

import re
import tomllib
from dataclasses import asdict, dataclass, fields
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from whispers.ledger.errors import RulesetError

ID_PATTERN: re.Pattern[str] = re.compile(r"[a-z0-9][a-z0-9-]*")
"""A ruleset file's id, as for boards: it is written on a log's game line and shown beside every game."""

ROUND_END_STEPS = ("retrieve", "cleanup", "swap", "mark")
TIE_BREAKS = ("fewest_swaps", "most_concealed", "most_cards")


@dataclass(frozen=True, slots=True)
class Ruleset:
    id: str
    name: str
    per_round: int
    per_round_two_players: int
    field_agents: bool
    max_field_agents: int
    retrieve: Literal["round_start", "round_end"]
    swap_agent_target: Literal["any", "occupied"]
    swap_agent_then: Literal["target", "any_controlled"]
    swap_agent_ends_council: bool
    supply_scope: Literal["active", "all"]
    supply_limit: int
    farm_limit: int
    hand_limit: int
    spent: Literal["deck", "discard_pile"]
    reshuffle_when_empty: bool
    play_after_order: bool
    instant_when_drawn: bool
    round_end: tuple[str, ...]
    distinct_devout: bool
    concealed_bonus: int
    tie_breaks: tuple[str, ...]
    final_tie: Literal["shared", "none"]

    @property
    def content_hash(self) -> str:
        """What a game pins its ruleset by, hashed the same canonical way as a board (ledger.pins.content_hash)."""
        return _content_hash(self)

    def to_data(self) -> dict[str, Any]:
        data = asdict(self)
        data["round_end"] = list(self.round_end)
        data["tie_breaks"] = list(self.tie_breaks)
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any], source: str = "<data>") -> "Ruleset":
        """Build from the flat form `to_data` gives (as stored in a game's first event)."""
        names = {f.name for f in fields(cls)}
        if set(data) != names:
            missing, extra = sorted(names - set(data)), sorted(set(data) - names)
            raise RulesetError(f"{source}: ruleset keys differ (missing {missing}, unknown {extra})")
        values = dict(data)
        values["round_end"] = tuple(values["round_end"])
        values["tie_breaks"] = tuple(values["tie_breaks"])
        ruleset = cls(**values)
        ruleset._validate(source)
        return ruleset

    def _validate(self, source: str) -> None:
        choices = {
            "retrieve": ("round_start", "round_end"),
            "swap_agent_target": ("any", "occupied"),
            "swap_agent_then": ("target", "any_controlled"),
            "supply_scope": ("active", "all"),
            "spent": ("deck", "discard_pile"),
            "final_tie": ("shared", "none"),
        }
        for key, allowed in choices.items():
            if getattr(self, key) not in allowed:
                raise RulesetError(f"{source}: {key} must be one of {', '.join(allowed)}")
        for step in self.round_end:
            if step not in ROUND_END_STEPS:
                raise RulesetError(f"{source}: unknown round_end step {step!r}")
        if "mark" not in self.round_end or len(set(self.round_end)) != len(self.round_end):
            raise RulesetError(f"{source}: round_end must list 'mark' once and no step twice")
        if (self.retrieve == "round_end") != ("retrieve" in self.round_end):
            raise RulesetError(f"{source}: round_end lists 'retrieve' exactly when retrieve = 'round_end'")
        for rule in self.tie_breaks:
            if rule not in TIE_BREAKS:
                raise RulesetError(f"{source}: unknown tie-break {rule!r}")
        for key in ("per_round", "per_round_two_players", "supply_limit", "farm_limit", "hand_limit"):
            if not isinstance(getattr(self, key), int) or getattr(self, key) < 1:
                raise RulesetError(f"{source}: {key} must be a whole number of at least 1")


@cache
def _content_hash(ruleset: Ruleset) -> str:
    from whispers.ledger.pins import content_hash

    return content_hash(ruleset.to_data())


# TOML section -> (key in the file, field of Ruleset)
_LAYOUT: dict[str, dict[str, str]] = {
    "agents": {
        "per_round": "per_round",
        "per_round_two_players": "per_round_two_players",
        "field_agents": "field_agents",
        "max_field_agents": "max_field_agents",
        "retrieve": "retrieve",
    },
    "council": {
        "swap_agent_target": "swap_agent_target",
        "swap_agent_then": "swap_agent_then",
        "swap_agent_ends_council": "swap_agent_ends_council",
    },
    "supply": {"scope": "supply_scope", "limit": "supply_limit", "farm_limit": "farm_limit"},
    "cards": {
        "hand_limit": "hand_limit",
        "spent": "spent",
        "reshuffle_when_empty": "reshuffle_when_empty",
        "play_after_order": "play_after_order",
        "instant_when_drawn": "instant_when_drawn",
    },
    "round_end": {"steps": "round_end"},
    "loyalty": {"distinct_devout": "distinct_devout"},
    "scoring": {"concealed_bonus": "concealed_bonus", "tie_breaks": "tie_breaks", "final_tie": "final_tie"},
}


def parse_ruleset(text: str, source: str) -> Ruleset:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{source}: not valid TOML: {exc}") from None
    flat: dict[str, Any] = {"id": raw.pop("id", None), "name": raw.pop("name", None)}
    for section, keys in _LAYOUT.items():
        table = raw.pop(section, None)
        if not isinstance(table, dict):
            raise RulesetError(f"{source}: missing table [{section}]")
        for key, field_name in keys.items():
            if key not in table:
                raise RulesetError(f"{source}: [{section}] is missing {key}")
            flat[field_name] = table.pop(key)
        if table:
            raise RulesetError(f"{source}: [{section}] has unknown key {sorted(table)[0]!r}")
    if raw:
        raise RulesetError(f"{source}: unknown key {sorted(raw)[0]!r}")
    if not isinstance(flat["id"], str) or not isinstance(flat["name"], str):
        raise RulesetError(f"{source}: id and name must be strings")
    if not ID_PATTERN.fullmatch(flat["id"]):
        raise RulesetError(f"{source}: id {flat['id']!r} must match {ID_PATTERN.pattern} "
                           "(lower-case letters, digits, hyphens)")
    return Ruleset.from_data(flat, source)


def shipped_rulesets() -> list[str]:
    folder = resources.files("whispers.fixtures").joinpath("rulesets")
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))


def load_ruleset(ref: str) -> Ruleset:
    """A shipped ruleset by id (`official`, `advanced`, `revised`) or a path to a ruleset TOML file."""
    shipped = resources.files("whispers.fixtures").joinpath("rulesets", f"{ref}.toml")
    if shipped.is_file():
        return parse_ruleset(shipped.read_text(encoding="utf-8"), f"{ref}.toml")
    path = Path(ref)
    if path.suffix == ".toml" and path.is_file():
        return parse_ruleset(path.read_text(encoding="utf-8"), str(path))
    raise RulesetError(f"unknown ruleset {ref!r}: use one of {', '.join(shipped_rulesets())} or a .toml path")
