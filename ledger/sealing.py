"""A loyalty set sealed by its own player: the record keeps only a commitment until the final reveal.

The player places the five tokens and, on their own device, picks a random salt and computes
`commitment(tokens, salt)`; only that hash is recorded (`LoyaltyCommitted`). Nobody who reads the record, the
scorekeeper and the director included, can tell the set from it (the salt makes the 120 possible sets
impossible to try one by one), and nobody can change it: the reveal must give tokens and salt that hash to the
same commitment, checked when it is recorded and again by `verify`. The salt stays with the player (their
browser keeps it and shows it once to be written down) until the reveal, which records it.

The hash is SHA-256 over one line of text, so the page's script computes the same (web/static/sha256.js).
"""

import re
from collections.abc import Mapping
from typing import Final

from whispers.ledger.digests import sha256
from whispers.ledger.names import SLOTS

SCHEME: Final = "whispers-loyalty-1"
"""Names the text hashed below; a different layout would get a new name (a commitment says which it used)."""
PREFIX: Final = "sha256:"
SALT: Final = re.compile(r"[0-9a-f]{32,128}")
"""At least 128 random bits, as lower-case hexadecimal."""
COMMITMENT: Final = re.compile(PREFIX + r"[0-9a-f]{64}")
RULE: Final = "whispers: a sealed set's reveal must match its commitment"


def committed_text(tokens: Mapping[str, str], salt: str) -> str:
    """The one line hashed: the scheme, the salt, and the tokens in slot order (as placed at setup)."""
    return f"{SCHEME}|{salt}|" + ";".join(f"{slot}={tokens[slot]}" for slot in SLOTS)


def commitment(tokens: Mapping[str, str], salt: str) -> str:
    return PREFIX + sha256(committed_text(tokens, salt).encode("utf-8")).hexdigest()


def well_formed(value: str) -> bool:
    return COMMITMENT.fullmatch(value) is not None


def good_salt(value: str) -> bool:
    return SALT.fullmatch(value) is not None
