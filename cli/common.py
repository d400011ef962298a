"""What the commands share: the store option, JSON output, warnings, and words for legal moves and views."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from whispers.ledger.words import plural

if TYPE_CHECKING:
    from whispers.ledger.legal import Option
    from whispers.ledger.prompt import Prompt
    from whispers.ledger.state import GameState


def store_option(func: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--store", "store_url", envvar="WHISPERS_STORE", metavar="URL",
        help="Event store: an SQLite path, postgresql://user@host:port/db, or memory:. "
             "Default: whispers.sqlite in the user data directory.  [env: WHISPERS_STORE]",
    )(func)


def one_format(as_json: bool, as_csv: bool) -> None:
    """--json and --csv, where a command offers both, are two answers to one question: refuse both at once."""
    if as_json and as_csv:
        raise click.UsageError("--json and --csv are two output formats: choose one")


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, sort_keys=False, default=list))


def option_text(option: Option, limit: int = 12) -> str:
    """A legal move in words, as the notation would start it."""
    ch = option.choices
    s = option.society

    def some(items: Any) -> str:
        items = list(items)
        more = f", … ({len(items)} in all)" if len(items) > limit else ""
        return ", ".join(str(i) for i in items[:limit]) + more

    match option.verb:
        case "loyalty":
            return f"{s} loyalty devout=E dutiful=E affiliated=E unallied=E opposed=E   |   {s} loyalty sealed"
        case "retrieve" | "deploy":
            return f"{s} {option.verb} {{{some(ch['where'])}}}"
        case "recruit":
            return (f"{s} recruit REGION=N …  ({ch['at']} {ch['order']}: {plural(ch['amount'], 'banner')} into "
                    f"{some(ch['regions'])})")
        case "draw":
            return f"{s} draw  ({ch['at']} {ch['order']}: {plural(ch['count'], 'card')})"
        case "attack":
            attacks = [f"{a}→{b} (≤{n})" for a, b, n in ch["attacks"]]
            return f"{s} attack FROM TO N  ({ch['at']}: {some(attacks)})"
        case "swap-agent":
            return f"{s} swap-agent {{{', '.join(ch['targets'])}}}  ({ch['at']})"
        case "play":
            return f"{s} play CARD …  (holds {', '.join(f'{e}×{n}' for e, n in ch['hand'].items())})"
        case "discard":
            held = ", ".join(f"{e}×{n}" for e, n in ch["hand"].items())
            return f"{s} discard {plural(ch['count'], 'card')}  (holds {held})"
        case "swap-loyalty":
            return f"{s} swap-loyalty SLOT SLOT  (concealed: {', '.join(ch['slots'])})"
        case "pass":
            return f"{s} pass"
        case "reveal":
            return f"{s} reveal devout=E dutiful=E affiliated=E unallied=E opposed=E"
    return f"{s} {option.verb}"


def where_now(state: GameState, p: Prompt) -> str:
    phase = {"empire": "empire turns"}.get(p.phase, p.phase)
    at = f" · {p.empire} {p.office}" if p.phase == "empire" and p.office else ""
    from whispers.ledger.shipped import labels

    return f"{state.name} · {labels(state)[0]} · round {p.round} · {phase}{at}"


def view_lines(view: dict[str, Any]) -> list[str]:
    """A state view (projections.views.state_view) as a few lines of text."""
    phase = {"empire": "empire turns"}.get(view["phase"], view["phase"])
    at = f" · {view['empire']} {view['office']}" if view["phase"] == "empire" and view["office"] else ""
    lines = [f"{view['game']} · {view['ruleset']} · round {view['round']} · {phase}{at} · first player {view['first']}"]
    lines.append(f"Next: {view['next']['note']}")
    lines.append("Empires:  " + "   ".join(
        f"{e} {plural(view['cities'][e], 'city')}, {view['reserve'][e]} in reserve" for e in view["cities"]))
    held = [f"{r} {v['controller']}×{v['banners']}" for r, v in view["regions"].items() if v["banners"]]
    lines.append("Banners:  " + ", ".join(held))
    council = ", ".join(f"{k} {v}" for k, v in sorted(view["council"].items()))
    lines.append(f"Council:  {council or 'empty'}")
    if view["field_agents"]:
        lines.append("Field:    " + ", ".join(f"{s}@{r}" for s, r in view["field_agents"]))
    lines.append("Hands:    " + ", ".join(f"{s} {h['size']}" + (f" ({' '.join(h['known'])})" if h.get("known") else "")
                                          for s, h in view["hands"].items()))
    viewer = view.get("viewer")
    shown = []
    for society, loyalty in view["loyalty"].items():
        if loyalty is None:
            continue
        if loyalty["tokens"] and society == viewer:
            lines.append("Loyalty:  " + " ".join(f"{slot}={e}" for slot, e in loyalty["tokens"].items()))
        elif loyalty["tokens"]:
            shown.append(f"{society} " + " ".join(f"{slot}={e}" for slot, e in loyalty["tokens"].items()))
        elif loyalty["revealed"]:
            shown.append(f"{society} " + " ".join(f"{slot}={e}" for slot, e in loyalty["revealed"].items())
                         + f" (+{loyalty['concealed']} concealed)")
    if shown:
        lines.append(("Revealed: " if viewer else "Loyalty:  ") + "; ".join(shown))
    return lines


def replace_file(path: Path, text: str) -> None:
    """Write `text` over `path` in one step: a new file beside it (created exclusively, so never someone
    else's), then os.replace, so a reader never sees half a file and a crash leaves the old one whole."""
    from whispers.ledger.errors import StoreError

    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    created = False
    try:
        with open(temporary, "x", encoding="utf-8", newline="") as out:
            created = True
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o7777)
        os.replace(temporary, path)
    except OSError as exc:
        if created:
            temporary.unlink(missing_ok=True)
        raise StoreError(f"cannot write {path}: {exc.strerror or exc}") from None


def warn(lines: tuple[str, ...] | list[str]) -> None:
    """Warnings a use case returned (malformed old notes it skipped...), one a line on stderr."""
    for line in lines:
        click.echo(f"warning: {line}", err=True)
