"""Numbers a face reads from text it was given (a query string, a header, a typed choice): ASCII digits only.

`str.isdigit()` is true of '²', '①' and '٣', which `int()` refuses or reads as another digit; and `int()` of a long
enough run of digits raises. Every face reads such a number through `whole`, which takes only 0-9, within bounds.
"""

from __future__ import annotations

import re
from typing import Final

LARGEST: Final = 999_999_999
"""The largest number a face reads from text: above every event count, round, page or version a store holds."""

_DIGITS: Final = re.compile(r"[0-9]{1,9}")


def whole(text: str | None, largest: int = LARGEST) -> int | None:
    """The number `text` writes in ASCII digits, from 0 to `largest`; None for anything else: no text, a sign,
    a space, a superscript or circled digit, another script's digits, more than nine digits."""
    if text is None or not _DIGITS.fullmatch(text):
        return None
    number = int(text)
    return number if number <= largest else None
