"""Reading a game: `status`, `log`, `score` and `games`."""

from typing import Any

import click

from cli.common import emit_json, open_store, option_json, option_text, store_option, where_now
from ledger import events as ev
from ledger import rules
from ledger.errors import RuleError
from ledger.game import Game, load
from ledger.names import SLOTS, SOCIETIES
from ledger.notation import format_record
from ledger.state import GameState

as_option = click.option("--as", "society", type=click.Choice(SOCIETIES), metavar="SOCIETY",
                         help="Show only what this society could know.")


def status_data(state: GameState, society: str | None = None) -> dict[str, Any]:
    p = rules.prompt(state)
    loyalty = {}
    for s in state.players:
        lo = state.loyalty.get(s)
        if lo is None:
            loyalty[s] = None
            continue
        known = lo.tokens if (society in (None, s)) else None
        loyalty[s] = {"tokens": dict(known) if known else None, "revealed": dict(lo.revealed),
                      "sealed": lo.tokens is None, "swaps": lo.swaps}
    hands = {}
    for s in state.players:
        hand = state.hands[s]
        entry: dict[str, Any] = {"size": hand.size, "by_empire": dict(hand.counts)}
        if society in (None, s):
            entry["known"] = list(hand.known)
        hands[s] = entry
    return {
        "game": state.name, "ruleset": state.ruleset.id, "board": state.board.id,
        "round": p.round, "phase": p.phase, "empire": p.empire, "office": p.office,
        "first": state.first, "players": list(state.players), "over": state.over,
        "next": {"societies": list(p.actors), "note": p.note,
                 "moves": [option_json(o) for o in p.options if society in (None, o.society)]},
        "regions": {r: {"controller": state.controller(r), "banners": state.banners_in(r)}
                    for r in state.board.regions},
        "reserve": dict(state.reserve),
        "on_board": {e: state.on_board(e) for e in state.board.empires},
        "cities": {e: state.cities(e) for e in state.board.empires},
        "hands": hands,
        "council": {f"{e}.{o}": s for (e, o), s in state.council.items()},
        "field_agents": sorted([s, r] for s, r in state.field_agents),
        "loyalty": loyalty,
        "version": state.version,
    }


@click.command()
@click.argument("game")
@as_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@click.option("--at", "version", type=int, metavar="N", help="As the game stood after event N.")
@store_option
def status(game: str, society: str | None, as_json: bool, version: int | None, store_url: str | None) -> None:
    """Where GAME stands: round, phase, who must act and the legal moves, the board, reserves, hands."""
    with open_store(store_url) as store:
        state = load(store, game, version).state
    data = status_data(state, society)
    if as_json:
        emit_json(data)
        return
    p = rules.prompt(state)
    click.echo(where_now(state, p) + f" · first player {state.first}")
    click.echo(f"Next: {p.note}")
    for option in p.options:
        if society in (None, option.society):
            click.echo(f"  {option_text(option)}")
    click.echo("Empires:  " + "   ".join(
        f"{e} {data['cities'][e]} cities, {data['on_board'][e]} on board/{data['reserve'][e]} reserve"
        for e in state.board.empires))
    held = [f"{r} {e}×{n}" for r, (e, n) in state.banners.items()]
    click.echo("Banners:  " + ", ".join(held))
    council = ", ".join(f"{k} {v}" for k, v in sorted(data["council"].items()))
    click.echo(f"Council:  {council or 'empty'}")
    if state.field_agents:
        click.echo("Field:    " + ", ".join(f"{s}@{r}" for s, r in sorted(state.field_agents)))
    click.echo("Hands:    " + ", ".join(f"{s} {h['size']}" for s, h in data["hands"].items()))
    if society:
        lo = data["loyalty"][society]
        if lo and lo["tokens"]:
            click.echo("Loyalty:  " + " ".join(f"{slot}={lo['tokens'][slot]}" for slot in SLOTS))


@click.command()
@click.argument("game")
@as_option
@click.option("--comments/--no-comments", default=True, help="Show the engine's own events as # comments.")
@store_option
def log(game: str, society: str | None, comments: bool, store_url: str | None) -> None:
    """GAME in notation, one move per line: `whispers import` reads it back.

    With --as, the log hides what that society could not see: other societies' loyalty tokens and the
    names of cards others drew.
    """
    with open_store(store_url) as store:
        record = load(store, game)
    for line in format_record(record.events, comments=comments, viewer=society):
        click.echo(line)


def scores_of(record: Game) -> tuple[ev.GameScored, bool]:
    """The final scoring event, or a provisional one for a game still going (when every token is known)."""
    for event in reversed(record.events):
        if isinstance(event, ev.GameScored):
            return event, True
    if any(record.state.loyalty.get(p) is None or record.state.loyalty[p].tokens is None
           for p in record.state.players):
        raise RuleError(f"{record.name} is not over and a loyalty set is sealed: no provisional score",
                        "EN Final Scoring")
    return rules.score(record.state), False


@click.command()
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@store_option
def score(game: str, as_json: bool, store_url: str | None) -> None:
    """Scores of GAME with the full breakdown and the tie-break trail (provisional while it goes on)."""
    with open_store(store_url) as store:
        record = load(store, game)
    scored, final = scores_of(record)
    if as_json:
        emit_json({"game": game, "final": final, "scores": {s: v["total"] for s, v in scored.scores.items()},
                   "winner": scored.winner, "tied": list(scored.tied), "ranking": list(scored.ranking),
                   "breakdown": scored.scores, "trail": list(scored.trail)})
        return
    from rich.console import Console
    from rich.table import Table

    state = record.state
    table = Table(title=f"{game} · {'final' if final else 'provisional'} scores ({state.ruleset.id})")
    table.add_column("society")
    for empire in state.board.empires:
        table.add_column(empire, justify="right")
    table.add_column("concealed", justify="right")
    table.add_column("total", justify="right", style="bold")
    for society in scored.ranking:
        entry = scored.scores[society]
        cells = []
        for empire in state.board.empires:
            e = entry["empires"][empire]
            agents = f"+{e['field_agents']}a" if e["field_agents"] else ""
            cells.append(f"{e['slot'][:3]} {e['multiplier']}×{e['cities']}{agents}={e['points']}")
        table.add_row(society, *cells, str(entry["concealed_points"]), str(entry["total"]))
    console = Console()
    console.print(table)
    for step in scored.trail:
        console.print(f"  {step}")


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@store_option
def games(as_json: bool, store_url: str | None) -> None:
    """The games in the store, with ruleset, players, where each stands and who won."""
    rows = []
    with open_store(store_url) as store:
        for name in store.names():
            record = load(store, name)
            state = record.state
            winner = None
            if state.over:
                winner = next(e for e in reversed(record.events) if isinstance(e, ev.GameScored)).winner
            rows.append({"game": name, "ruleset": state.ruleset.id, "players": list(state.players),
                         "round": state.round, "phase": state.phase, "over": state.over, "winner": winner,
                         "events": record.version})
    if as_json:
        emit_json(rows)
        return
    if not rows:
        click.echo("No games yet. Try: whispers demo")
    for row in rows:
        where = (f"over, winner {row['winner'] or 'none (tie)'}" if row["over"]
                 else f"round {row['round']} {row['phase']}")
        click.echo(f"{row['game']:<24} {row['ruleset']:<9} {','.join(row['players']):<28} {where}")
