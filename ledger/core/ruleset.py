"""Rulesets as data: the knobs where the rulebooks differ, read by the one rules engine. Reading ruleset files is
ledger.ruleset_files's."""

import re
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Literal, cast

import msgspec

from whispers.ledger.core.errors import RulesetError
from whispers.ledger.core.plain import Data, filled
from whispers.ledger.core.words import say

ID_PATTERN: re.Pattern[str] = re.compile(r"[a-z0-9][a-z0-9-]*")
"""A ruleset file's id, as for boards: it is written on a log's game line and shown beside every game."""

ROUND_END_STEPS = ("retrieve", "cleanup", "swap", "mark")
TIE_BREAKS = ("fewest_swaps", "most_concealed", "most_cards")
LASTING_DEFAULT: Literal["year", "turn"] = "year"
"""`lasting` when a ruleset does not name it. A ruleset's flat form (and so its content hash) leaves the default
out, so rulesets and records written before the knob keep their hashes."""


class Ruleset(msgspec.Struct, frozen=True):
    """The knobs of one ruleset, as its file gives them (ledger.ruleset_files) and a game's first event embeds them."""

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
    lasting: Literal["year", "turn"] = LASTING_DEFAULT
    """How long Bountiful Harvest (Trade, Hoard) lasts and lies beside the board: "until the end of the turn" (REV
    353, 355), read as the year (round) or as the empire's turn (digest §8 item 37)."""

    @property
    def content_hash(self) -> str:
        """What a game pins its ruleset by, hashed the same canonical way as a board (ledger.pins.content_hash)."""
        return _content_hash(self)

    def to_data(self) -> Data:
        data = msgspec.structs.asdict(self)
        data["round_end"] = list(self.round_end)
        data["tie_breaks"] = list(self.tie_breaks)
        if self.lasting == LASTING_DEFAULT:
            del data["lasting"]
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, object], source: str = "<data>") -> "Ruleset":
        """Build from the flat form `to_data` gives (as stored in a game's first event)."""
        names = set(cls.__struct_fields__)
        if set(data) | {"lasting"} != names:
            missing, extra = sorted(names - set(data)), sorted(set(data) - names)
            raise RulesetError(say("{file}: ruleset keys differ (missing {missing}, unknown {extra})", file=source,
                                    missing=str(missing), extra=str(extra)))
        values = dict(data)  # each value as the data gives it: `_validate` checks the ruleset made of them
        values["round_end"] = tuple(cast("Iterable[object]", values["round_end"]))
        values["tie_breaks"] = tuple(cast("Iterable[object]", values["tie_breaks"]))
        ruleset = filled(cls, values)
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
            "lasting": ("year", "turn"),
        }
        for key, allowed in choices.items():
            if getattr(self, key) not in allowed:
                raise RulesetError(say("{file}: {text} must be one of {allowed}", file=source, text=key,
                                       allowed=", ".join(allowed)))
        for step in self.round_end:
            if step not in ROUND_END_STEPS:
                raise RulesetError(say("{file}: unknown round_end step {text}", file=source, text=repr(step)))
        if "mark" not in self.round_end or len(set(self.round_end)) != len(self.round_end):
            raise RulesetError(say("{file}: round_end must list 'mark' once and no step twice", file=source))
        if (self.retrieve == "round_end") != ("retrieve" in self.round_end):
            raise RulesetError(say("{file}: round_end lists 'retrieve' exactly when retrieve = 'round_end'",
                                   file=source))
        for rule in self.tie_breaks:
            if rule not in TIE_BREAKS:
                raise RulesetError(say("{file}: unknown tie-break {text}", file=source, text=repr(rule)))
        for key in ("per_round", "per_round_two_players", "supply_limit", "farm_limit", "hand_limit"):
            if not isinstance(getattr(self, key), int) or getattr(self, key) < 1:
                raise RulesetError(say("{file}: {text} must be a whole number of at least 1", file=source, text=key))


@cache
def _content_hash(ruleset: Ruleset) -> str:
    from whispers.ledger.core.pins import content_hash

    return content_hash(ruleset.to_data())
