"""The CLI's tables (cli/tables.py) wrap their cells between words and never cut one that the width can hold."""

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console

from whispers.cli.tables import _table

# Characters one cell wide, as the four languages' words and the boards' ids are: rich itself cuts a word that ends
# in a two-cell character (漢) and exactly fills its column when another word follows it in the cell.
WORD = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyzéÉœ-→×0123456789"), min_size=1, max_size=14)
CELL = st.lists(WORD, min_size=0, max_size=4).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(columns=st.integers(1, 9), data=st.data(), slack=st.integers(0, 12))
def test_no_word_is_cut_when_the_longest_words_fit(columns: int, data: st.DataObject, slack: int) -> None:
    """The width drawn is the narrowest that holds every column's longest word, plus a little: where rich alone
    narrows the widest columns and cuts words."""
    headers = data.draw(st.lists(WORD, min_size=columns, max_size=columns))
    rows = data.draw(st.lists(st.lists(CELL, min_size=columns, max_size=columns), min_size=1, max_size=6))
    lows = [max(cell_len(word) for cell in [header, *(row[i] for row in rows)] for word in cell.split() or [""])
            for i, header in enumerate(headers)]
    width = max(sum(lows) + 3 * (columns - 1) + slack, 2)
    table = _table("T", headers, rows, None, right=(0,))
    out = io.StringIO()
    Console(file=out, width=width, color_system=None, emoji=False).print(table)
    lines = out.getvalue().splitlines()
    assert all(cell_len(line) <= width for line in lines)
    assert "…" not in out.getvalue()
    for word in {w for cell in [*headers, *(c for row in rows for c in row)] for w in cell.split()}:
        assert any(word in line for line in lines), word
