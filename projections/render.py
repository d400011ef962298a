"""Writing a picture: DOT source as it is, or rendered by Graphviz's programs to SVG, PNG or PDF.

DOT needs nothing installed. The other formats run Graphviz (`dot` for the timeline, `neato` for the map)
through the `graphviz` package; when the program is missing the user is told in one line how to get it.
"""

import html
import re
import shutil
import sys
from pathlib import Path

from whispers.ledger.core.errors import WhispersError
from whispers.ledger.core.words import N_, _, say
from whispers.ledger.io.safefile import save

FORMATS: dict[str, str | None] = {".dot": None, ".gv": None, ".svg": "svg", ".png": "png", ".pdf": "pdf"}
"""Output suffix -> Graphviz output format (None: the DOT source itself)."""

MISSING = N_("Graphviz's dot program is not installed: apt-get install graphviz (or brew install graphviz), "
             "or write .dot")


class PictureError(WhispersError):
    """A picture that cannot be made: an unknown output format, a round not in the record, a failed write."""


class GraphvizMissing(PictureError):
    """Graphviz's programs are not on PATH."""

    def __init__(self) -> None:
        super().__init__(_(MISSING))


# What XML 1.0 cannot hold (C0 controls but tab and line ends, lone surrogates, U+FFFE/U+FFFF): Graphviz's
# HTML-like labels are read as XML and refuse the whole picture for one such character.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


SHOWN = 3000
"""The most characters of one text a picture shows (then "…"; the record keeps it all). Graphviz 2.43 refuses
a run of more than 16384 characters in a string or label, and escaping can make text five times longer."""


def _shown(text: str) -> str:
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def escape(text: str) -> str:
    """Text for a Graphviz HTML-like label: `&`, `<` and `>` as entities, a character XML cannot hold as
    U+FFFD. No text can close the label or add markup to it."""
    # "]" too: Graphviz 2.43 refuses a text that starts with it right after a tag (<B>]</B>)
    return html.escape(_NOT_XML.sub("\ufffd", _shown(text)), quote=False).replace("]", "&#93;")


def plain(text: str) -> str:
    """Text for a quoted DOT attribute (a tooltip, a plain label, a comment): the graphviz package quotes it
    and escapes its quotes; here every backslash is doubled (a final one would escape the closing quote, and
    Graphviz reads \\N, \\G, \\l... as its own), a line end becomes \\n, and `<...>` stays text, never an
    HTML-like label. No text can end the string or the statement it is in."""
    import graphviz

    text = _NOT_XML.sub("\ufffd", _shown(text)).replace("\\", "\\\\")
    return graphviz.nohtml(text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n"))


def output_format(path: Path | str) -> str | None:
    """The Graphviz format for an output path (None for DOT); PictureError for a suffix we cannot write."""
    if str(path) == "-":
        return None
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise PictureError(say("{file}: write a file ending in .dot, .svg, .png or .pdf (not {suffix})", file=str(path),
                               suffix=repr(suffix) if suffix else _("no suffix")))
    return FORMATS[suffix]


def check(path: Path | str, engine: str) -> None:
    """Refuse early, before any work, what `write` would refuse: a bad suffix, or a missing program."""
    if output_format(path) is not None and shutil.which(engine) is None:
        raise GraphvizMissing()


def write(source: str, path: Path | str, engine: str = "dot") -> None:
    """Write `source` to `path` as its suffix says; "-" writes the DOT source to standard output.

    The file appears whole or not at all, never through a planted link (ledger.safefile)."""
    fmt = output_format(path)
    data = source.encode("utf-8") if fmt is None else render(source, fmt, engine)
    if str(path) == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    save(path, data, error=PictureError)


def render(source: str, fmt: str, engine: str = "dot") -> bytes:
    """The picture Graphviz's `engine` makes of `source` in format `fmt` (svg, png, pdf)."""
    import subprocess

    import graphviz

    if shutil.which(engine) is None:
        raise GraphvizMissing()
    try:
        return graphviz.pipe(engine, fmt, source.encode("utf-8"), quiet=True)
    except graphviz.ExecutableNotFound:
        raise GraphvizMissing() from None
    except subprocess.CalledProcessError as exc:
        stderr = exc.stderr.decode("utf-8", "replace") if isinstance(exc.stderr, bytes) else str(exc.stderr or "")
        first = next((line.strip() for line in stderr.splitlines() if line.strip()), f"exit status {exc.returncode}")
        raise PictureError(say("Graphviz's {program} could not draw it: {message}", program=engine, message=first)
                           ) from None
