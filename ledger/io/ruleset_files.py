"""The adapter that reads rulesets from TOML (shipped in fixtures/rulesets/ or given by path) and hands their data
to the pure model in ledger.ruleset."""

from pathlib import Path

from whispers.fixtures import FOLDER
from whispers.ledger.core.errors import RulesetError
from whispers.ledger.core.plain import Data
from whispers.ledger.core.ruleset import ID_PATTERN, Ruleset
from whispers.ledger.core.words import say
from whispers.ledger.io.input_files import toml_bytes, toml_file, toml_text

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
        "lasting": "lasting",
    },
    "round_end": {"steps": "round_end"},
    "loyalty": {"distinct_devout": "distinct_devout"},
    "scoring": {"concealed_bonus": "concealed_bonus", "tie_breaks": "tie_breaks", "final_tie": "final_tie"},
}


_OPTIONAL = frozenset({"lasting"})
"""Keys a ruleset file may leave out, for their default (ledger.ruleset): files written before the knob still load."""


def parse_ruleset(text: str, source: str) -> Ruleset:
    """The ruleset a file's text gives (UTF-8 TOML, checked by ledger/io/input_files.py)."""
    return ruleset_of(toml_text(text, source, RulesetError), source)


def ruleset_of(raw: Data, source: str) -> Ruleset:
    flat: Data = {"id": raw.pop("id", None), "name": raw.pop("name", None)}
    for section, keys in _LAYOUT.items():
        table = raw.pop(section, None)
        if not isinstance(table, dict):
            raise RulesetError(say("{file}: missing table [{text}]", file=source, text=section))
        for key, field_name in keys.items():
            if key in _OPTIONAL and key not in table:
                continue
            if key not in table:
                raise RulesetError(say("{file}: [{text}] is missing {key}", file=source, text=section, key=key))
            flat[field_name] = table.pop(key)
        if table:
            raise RulesetError(say("{file}: [{text}] has unknown key {key}", file=source, text=section,
                                    key=repr(sorted(table)[0])))
    if raw:
        raise RulesetError(say("{file}: unknown key {key}", file=source, key=repr(sorted(raw)[0])))
    if not isinstance(flat["id"], str) or not isinstance(flat["name"], str):
        raise RulesetError(say("{file}: id and name must be strings", file=source))
    if not ID_PATTERN.fullmatch(flat["id"]):
        raise RulesetError(say("{file}: id {text} must match {pattern} (lower-case letters, digits, hyphens)",
                               file=source, text=repr(flat["id"]), pattern=ID_PATTERN.pattern))
    return Ruleset.from_data(flat, source)


def shipped_rulesets() -> list[str]:
    folder = FOLDER.joinpath("rulesets")
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))


def load_ruleset(ref: str) -> Ruleset:
    """A shipped ruleset by id (`official`, `advanced`, `revised`) or a path to a ruleset TOML file."""
    shipped = FOLDER.joinpath("rulesets", f"{ref}.toml")
    if shipped.is_file():
        return ruleset_of(toml_bytes(shipped.read_bytes(), f"{ref}.toml", RulesetError), f"{ref}.toml")
    path = Path(ref)
    if path.suffix == ".toml" and path.is_file():
        return ruleset_of(toml_file(path, str(path), RulesetError), str(path))
    raise RulesetError(say("unknown ruleset {ruleset}: use one of {known} or a .toml path", ruleset=repr(ref),
                           known=", ".join(shipped_rulesets())))
