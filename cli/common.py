"""What the commands share: the store option, JSON output, warnings, and words for legal moves and views."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import click
import msgspec

from whispers.ledger.core.words import ENGLISH, _, plural, position, say, term, tongue

if TYPE_CHECKING:
    from whispers.ledger.core.prompt import Prompt
    from whispers.ledger.core.state import GameState
    from whispers.projections.visibility import StateView


Decorated = TypeVar("Decorated", bound=Callable[..., object])
"""A click command's function, as a decorator gives it back."""


def store_option(func: Decorated) -> Decorated:
    return click.option(
        "--store", "store_url", envvar="WHISPERS_STORE", metavar="URL",
        help="Event store: an SQLite path, postgresql://user@host:port/db, or memory:. "
             "Default: whispers.sqlite in the user data directory.  [env: WHISPERS_STORE]",
    )(func)


def one_format(as_json: bool, as_csv: bool) -> None:
    """--json and --csv, where a command offers both, are two answers to one question: refuse both at once."""
    if as_json and as_csv:
        raise click.UsageError(_("--json and --csv are two output formats: choose one"))


def emit_json(data: object) -> None:
    if type(data) is not list or not data:
        click.echo(json_text(data))
        return
    # a long list written a few hundred items at a time, not as one string: 10,000 games are 12 MB of JSON, and
    # its memory (written once more as bytes) was a third of games --json's page faults
    click.echo("[", nl=False)
    for start in range(0, len(data), 256):
        items = json_text(data[start:start + 256])[1:-2]  # the items of "[\n  ...\n]", at their indent in the whole
        click.echo(items if start == 0 else "," + items, nl=False)
    click.echo("\n]")


def json_text(value: object) -> str:
    """`json.dumps(value, indent=2, default=list)`, byte for byte, in a twentieth of the time: the standard library
    writes indented JSON in pure Python, a generator per value, and `games --json` writes 10,000 games. Its C
    encoder writes the compact text (every value, key and escape as json.dumps writes them), and msgspec's C
    formatter indents it without touching a token. NaN and infinities, which JSON has not, stop the formatter:
    json.dumps writes those as it always did."""
    compact = json.dumps(value, separators=(",", ":"), default=list)
    try:
        return msgspec.json.format(compact, indent=2)
    except msgspec.DecodeError:
        return json.dumps(value, indent=2, default=list)


def phase_words(phase: str, empire: str | None, office: str | None) -> str:
    """The phase, and the position acting in an empire's turn, in words."""
    at = f" · {term(empire)} {term(office)}" if phase == "empire" and office and empire else ""
    said = "empire turns" if phase == "empire" and tongue() is ENGLISH else term(phase, "phase")
    return f"{said}{at}"


def where_now(state: GameState, p: Prompt) -> str:
    from whispers.application.reading import pin_labels

    said_round = say("round {round}", round=p.round)
    return f"{state.name} · {pin_labels(state)[0]} · {said_round} · " + phase_words(p.phase, p.empire, p.office)


def _tokens(tokens: dict[str, str]) -> str:
    return " ".join(f"{term(slot, 'slot')}={term(e)}" for slot, e in tokens.items())


def view_lines(view: StateView) -> list[str]:
    """A state view (projections.visibility.state_view) as a few lines of text."""
    said_round = say("round {round}", round=view["round"])
    first = say("first player {society}", society=view["first"])
    lines = [f"{view['game']} · {view['ruleset']} · {said_round} · "
             f"{phase_words(view['phase'], view['empire'], view['office'])} · {first}"]
    lines.append(say("Next: {note}", note=view["next"]["note"]))
    lines.append(_("Empires:") + "  " + "   ".join(
        say("{empire} {cities}, {reserve} in reserve", empire=e, cities=plural(view["cities"][e], "city"),
            reserve=view["reserve"][e]) for e in view["cities"]))
    held = [f"{r} {term(v['controller'])}×{v['banners']}" for r, v in view["regions"].items() if v["banners"]]
    lines.append(_("Banners:") + "  " + ", ".join(held))
    council = ", ".join(f"{position(k)} {term(v)}" for k, v in sorted(view["council"].items()))
    lines.append(_("Council:") + "  " + (council or _("empty")))
    if view["field_agents"]:
        lines.append(_("Field:") + "    " + ", ".join(f"{term(s)}@{r}" for s, r in view["field_agents"]))
    lines.append(_("Hands:") + "    " + ", ".join(
        f"{term(s)} {h['size']}" + (f" ({' '.join(h['known'])})" if h.get("known") else "")
        for s, h in view["hands"].items()))
    viewer = view.get("viewer")
    shown = []
    for society, loyalty in view["loyalty"].items():
        if loyalty is None:
            continue
        if loyalty["tokens"] and society == viewer:
            lines.append(_("Loyalty:") + "  " + _tokens(loyalty["tokens"]))
        elif loyalty["tokens"]:
            shown.append(f"{term(society)} " + _tokens(loyalty["tokens"]))
        elif loyalty["revealed"]:
            shown.append(f"{term(society)} " + _tokens(loyalty["revealed"])
                         + " " + say("(+{n} concealed)", n=loyalty["concealed"]))
    if shown:
        lines.append((_("Revealed:") + " " if viewer else _("Loyalty:") + "  ") + "; ".join(shown))
    return lines


def warn(lines: tuple[str, ...] | list[str]) -> None:
    """Warnings a use case returned (malformed old notes it skipped...), one a line on stderr."""
    for line in lines:
        click.echo(say("warning: {text}", text=line), err=True)
