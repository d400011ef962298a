"""`--json` output (cli.common.json_text) is what json.dumps(indent=2, default=list) writes, byte for byte: issue 12
made it faster for `games --json` over 10,000 games, not different."""

import enum
import json

from hypothesis import given
from hypothesis import strategies as st

from whispers.cli.common import emit_json, json_text


class Colour(enum.IntEnum):
    RED = 1


class Word(enum.StrEnum):
    RAVEN = "raven"


SCALARS = (st.none() | st.booleans() | st.integers() | st.floats() | st.text()
           | st.sampled_from([Colour.RED, Word.RAVEN, "é\u2028\x00\"\\", -0.0, 10**30]))
KEYS = st.text() | st.integers() | st.booleans() | st.none() | st.floats() | st.sampled_from([Word.RAVEN, Colour.RED])
VALUES = st.recursive(SCALARS, lambda inner: (st.lists(inner, max_size=4) | st.tuples(inner, inner)
                                              | st.dictionaries(st.text(max_size=3), inner, max_size=4)
                                              | st.dictionaries(KEYS, inner, max_size=3)
                                              | st.frozensets(st.integers(), max_size=3)), max_leaves=25)


@given(VALUES)
def test_json_text_is_json_dumps_indented(value) -> None:
    assert json_text(value) == json.dumps(value, indent=2, default=list)


def test_json_text_of_a_listing_row() -> None:
    row = {"game": "g1", "players": ["raven", "rat"], "pins": {"ruleset": {"id": "official", "shipped_hash": None}},
           "fork_of": None, "over": True, "events": 214, "meta": {"seats": {}, "tags": [], "title": "Ünïcode ✓"}}
    assert json_text([row, row]) == json.dumps([row, row], indent=2, default=list)


def test_emit_json_writes_a_long_list_in_parts_as_one_text(capsys) -> None:
    for n in (0, 1, 255, 256, 257, 600):
        data = [{"game": f"g{i}", "players": ["raven"] * (i % 3), "meta": {"tags": [], "title": None}}
                for i in range(n)]
        emit_json(data)
        assert capsys.readouterr().out == json.dumps(data, indent=2, default=list) + "\n"
    emit_json({"a": [1, 2]})
    assert capsys.readouterr().out == json.dumps({"a": [1, 2]}, indent=2) + "\n"
