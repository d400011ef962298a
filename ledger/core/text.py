"""Free text (notes, reasons, authors) written into line-based output: never more than the one line it is given.

`str.splitlines` - what `whispers import` reads a notation file with - ends a line at more characters than
"\\n": \\r, \\v, \\f, \\x1c-\\x1e, \\x85, U+2028 and U+2029 too. Text holding any of them must be escaped before it
is written on a line, or refused where it becomes part of a move.
"""

from typing import Final

LINE_BREAKS: Final = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
"""Every character that `str.splitlines` ends a line at (tests/test_fuzz.py checks this against Python)."""

_ESCAPES: Final = {ord(c): c.encode("unicode_escape").decode("ascii") for c in LINE_BREAKS}
"""Each line break -> its escape, for str.translate (a regular expression of these characters cost every command 3
million instructions to compile: a class holding characters beyond Latin-1 is compiled as a 64 KB bitmap)."""


def has_line_break(text: str) -> bool:
    return any(c in text for c in LINE_BREAKS)


def one_line(text: str) -> str:
    """`text` with each line break written as its escape (\\n, \\u2028...), so it stays on one line."""
    return text.translate(_ESCAPES)


WHOLE_DIGITS: Final = 9
"""The most digits a whole number typed into a move or a card reference may have (no count in the game comes near)."""


def is_whole(text: str) -> bool:
    """`text` is a whole number as a move or a card sheet writes one: ASCII digits only, at most WHOLE_DIGITS of them.
    `str.isdigit()` alone is true of '²', '①' and '٣', which `int()` refuses or reads as another digit, and `int()` of
    thousands of digits raises: either would be a traceback, not a refusal."""
    return 0 < len(text) <= WHOLE_DIGITS and text.isascii() and text.isdigit()


def is_utf8(text: str) -> bool:
    """False for text holding a lone surrogate (what Python makes of an argument that is not UTF-8): it cannot
    be stored, written or hashed."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


JOINERS: Final = frozenset("\u200c\u200d")
"""ZERO WIDTH NON-JOINER and ZERO WIDTH JOINER, the two format characters text keeps: they reorder nothing and
hide no text, they only say whether two neighbouring characters join, which Persian and the Indic scripts spell
with and every emoji ZWJ sequence (a family, a profession, a flag) is made of."""

_FORMAT_RANGES: Final = (
    (0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C), (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891),
    (0x08E2, 0x08E2), (0x180E, 0x180E), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x2064), (0x2066, 0x206F),
    (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x13438),
    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F))
"""Unicode's format characters (category Cf, Unicode 14, Python 3.11's: tests/test_controls.py compares)."""

FORMATS: Final = frozenset(chr(c) for low, high in _FORMAT_RANGES for c in range(low, high + 1)) - JOINERS
"""The format characters that reorder or hide text, refused as control characters are: the bidirectional
overrides, embeddings and isolates (U+202A-U+202E, U+2066-U+2069) and marks (U+200E, U+200F, U+061C), which show
a text in another order than it is stored in (a note reading "fine" that is "enif" underneath, a name that puts the
rest of a line backwards); the zero-width space, word joiner and invisible operators (U+200B, U+2060-U+2064),
U+FEFF and the soft hyphen, which make two texts that look alike differ (a spoofed author, a name a search never
finds); the tag characters (U+E0001, U+E0020-U+E007F), which carry a whole hidden ASCII text - at the cost of the
three subdivision flags (England, Scotland, Wales) emoji spell with them; and the rest of the category
(interlinear annotations, Arabic and Egyptian format marks, shorthand and musical format controls), which no
note, name or reason needs. JOINERS stay."""

CONTROLS: Final = (frozenset(chr(c) for c in (*range(0x20), 0x7F, *range(0x80, 0xA0))) - {"\t", "\n"}) | FORMATS
"""The control characters a terminal acts on (ESC opens its escape sequences, which recolour, move the cursor or
make a hyperlink; BEL rings; CR writes over the line), tab and line feed aside, and the format characters that
reorder or hide text (FORMATS). No text of a record or of a file whispers reads may hold one: it would reach every
terminal and page that shows the text."""

_SHOWN: Final = {ord(c): c.encode("unicode_escape").decode("ascii") for c in CONTROLS | set(LINE_BREAKS)}


def control_in(value: object) -> str | None:
    """The first control character (CONTROLS) in the strings of `value`, dict keys included, however nested."""
    if isinstance(value, str):
        return None if value.isprintable() else next((c for c in value if c in CONTROLS), None)
    if isinstance(value, dict):
        return next((c for item in value.items() for part in item if (c := control_in(part)) is not None), None)
    if isinstance(value, list | tuple):
        return next((c for part in value if (c := control_in(part)) is not None), None)
    return None


def file_control_problem(data: object, source: str) -> str | None:
    """Why the data read from file `source` cannot be used (None if it can): a control character in its text."""
    from whispers.ledger.core.words import say

    char = control_in(data)
    return None if char is None else say("{file}: holds the control character {char}, which no text may",
                                         file=source, char=repr(char))


def shown(text: str) -> str:
    """`text` for a terminal: each control character and line break written as its escape (\\x1b, \\n)."""
    return text if text.isprintable() else text.translate(_SHOWN)
