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

from whispers.ledger.core.digests import sha256
from whispers.ledger.core.names import SLOTS

SCHEME: Final = "whispers-loyalty-1"
"""Names the text hashed below; a different layout would get a new name (a commitment says which it used)."""
PREFIX: Final = "sha256:"
CODE: Final = re.compile(r"[0-9A-HJKMNP-TV-Z]{26}")
"""A salt as the seat's page makes it since issue 32: Crockford base32 (no I, L, O, U), 26 characters = 130 random
bits, short enough to write down and read aloud; shown in groups of four (`group`). Exactly 26, so no code is
also an older hexadecimal one (32 digits or more) and `read_code` reads each one way."""
HEX: Final = re.compile(r"[0-9a-f]{32,128}")
"""A salt as pages made it before: at least 128 random bits as lower-case hexadecimal (records sealed then)."""
CONFUSABLE: Final = str.maketrans({"O": "0", "I": "1", "L": "1"})
COMMITMENT: Final = re.compile(PREFIX + r"[0-9a-f]{64}")
RULE: Final = "whispers: a sealed set's reveal must match its commitment"


def committed_text(tokens: Mapping[str, str], salt: str) -> str:
    """The one line hashed: the scheme, the salt, and the tokens in slot order (as placed at setup)."""
    return f"{SCHEME}|{salt}|" + ";".join(f"{slot}={tokens[slot]}" for slot in SLOTS)


def commitment(tokens: Mapping[str, str], salt: str) -> str:
    return PREFIX + str(sha256(committed_text(tokens, salt).encode("utf-8")).hexdigest())


def well_formed(value: str) -> bool:
    return COMMITMENT.fullmatch(value) is not None


def good_salt(value: str) -> bool:
    """At least 128 bits either way: a base32 code (upper case) or an older hexadecimal one (lower case)."""
    return CODE.fullmatch(value) is not None or HEX.fullmatch(value) is not None


def read_code(text: str) -> str:
    """The salt a person typed or read out, in the one spelling that was hashed: groups' spaces and hyphens
    dropped; 32 or more hexadecimal digits are an older code (lower case); else base32 in upper case, with the
    letters people confuse read as Crockford says (O as 0, I and L as 1). Anything else is returned as it came,
    for `good_salt` to refuse."""
    plain = re.sub(r"[\s-]", "", text)
    if re.fullmatch(r"[0-9a-fA-F]{32,128}", plain):
        return plain.lower()
    code = plain.upper().translate(CONFUSABLE)
    return code if CODE.fullmatch(code) else text


def group(code: str) -> str:
    """A base32 code in groups of four to read aloud (`7KQ2-M9XD-…`); an older hexadecimal code as it is."""
    if CODE.fullmatch(code) is None:
        return code
    return "-".join(code[i:i + 4] for i in range(0, len(code), 4))
