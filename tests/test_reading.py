"""The reading commands and their refusals (issue 9): results read from the events still standing, one check and
one wording for a viewer who is not playing and for an event that does not exist, diffs of unrelated games,
conflicting output flags, and counts that agree with their nouns."""

import re
from pathlib import Path

from ledger.words import plural

ROOT = Path(__file__).resolve().parent.parent


# --- counts and their nouns ------------------------------------------------------------------------------------


def test_a_count_agrees_with_its_noun() -> None:
    assert plural(1, "bear banner") == "1 bear banner"
    assert plural(2, "bear banner") == "2 bear banners"
    assert plural(0, "card") == "0 cards"
    assert plural(1, "city") == "1 city"
    assert plural(3, "city") == "3 cities"
    assert plural(2, "day") == "2 days"
    assert plural(2, "ox", "oxen") == "2 oxen"


def test_no_message_hedges_a_plural_with_parentheses() -> None:
    """"1 card(s)" reads badly: every count in a message goes through ledger.words.plural."""
    hedged = [f"{path.relative_to(ROOT)}:{number}"
              for folder in ("ledger", "projections", "cli") for path in sorted((ROOT / folder).rglob("*.py"))
              for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
              if re.search(r"[a-z]\(s\)[ ,;)]", line)]
    assert hedged == []
