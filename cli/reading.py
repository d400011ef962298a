"""Reading a game: `status`, `log`, `score` and `games`."""

from typing import Any

import click

from whispers.cli.common import emit_json, game_notes, open_store, option_json, option_text, store_option, view_lines
from whispers.ledger import events as ev
from whispers.ledger.errors import RuleError
from whispers.ledger.game import Game, load
from whispers.ledger.legal import prompt
from whispers.ledger.names import SOCIETIES
from whispers.ledger.pins import played_under
from whispers.ledger.shipped import state_pins
from whispers.ledger.state import GameState
from whispers.projections.views import check_viewer, state_view

as_option = click.option("--as", "society", type=click.Choice(SOCIETIES), metavar="SOCIETY",
                         help="Show only what this society could know.")


def status_data(state: GameState, society: str | None = None) -> dict[str, Any]:
    """The state as `society` knew it, with the legal moves open to it (all of them for the record)."""
    data = state_view(state, society)
    data["next"]["moves"] = [option_json(o) for o in prompt(state).options if society in (None, o.society)]
    data["on_board"] = {e: state.on_board(e) for e in state.board.empires}
    return data


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
    lines = view_lines(data)
    click.echo(lines[0])
    click.echo(lines[1])
    for option in prompt(state).options:
        if society in (None, option.society):
            click.echo(f"  {option_text(option)}")
    for line in lines[2:]:
        click.echo(line)


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
    from whispers.ledger.notation import format_record

    with open_store(store_url) as store:
        record = load(store, game)
        notes = game_notes(store, game)
    check_viewer(game, record.state.players, society)
    for line in format_record(record.events, comments=comments, viewer=society, notes=notes):
        click.echo(line)


def scores_of(record: Game) -> tuple[ev.GameScored, bool]:
    """The final scoring event, or a provisional one for a game still going (when every token is known)."""
    from whispers.projections.replay import final_scoring

    scored = final_scoring(record.events)
    if scored is not None:
        return scored, True
    if any(record.state.loyalty.get(p) is None or record.state.loyalty[p].tokens is None
           for p in record.state.players):
        raise RuleError(f"{record.name} is not over and a loyalty set is sealed: no provisional score",
                        "EN Final Scoring")
    from whispers.ledger.scoring import score as final_score

    return final_score(record.state), False


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
        ruleset_pin, board_pin = state_pins(record.state)
        emit_json({"game": game, "ruleset": ruleset_pin.label, "board": board_pin.label,
                   "pins": {"ruleset": ruleset_pin.to_json(), "board": board_pin.to_json()}, "final": final,
                   "scores": {s: v["total"] for s, v in scored.scores.items()},
                   "winner": scored.winner, "tied": list(scored.tied), "ranking": list(scored.ranking),
                   "breakdown": scored.scores, "trail": list(scored.trail)})
        return
    from rich.console import Console
    from rich.table import Table

    state = record.state
    table = Table(title=f"{game} · {'final' if final else 'provisional'} scores "
                        f"({played_under(*state_pins(state))})")
    table.add_column("empire")
    for society in scored.ranking:
        table.add_column(society, justify="right")
    for empire in state.board.empires:
        cells = []
        for society in scored.ranking:
            e = scored.scores[society]["empires"][empire]
            agents = f"+{e['field_agents']}" if e["field_agents"] else ""
            cells.append(f"{e['slot'][:3]} {e['multiplier']}×{e['cities']}{agents} = {e['points']}")
        table.add_row(empire, *cells)
    if state.ruleset.concealed_bonus:
        table.add_row("concealed", *(str(scored.scores[s]["concealed_points"]) for s in scored.ranking))
    table.add_row("total", *(f"[bold]{scored.scores[s]['total']}[/bold]" for s in scored.ranking))
    console = Console()
    console.print(table)
    from whispers.ledger.words import trail_step

    for step in scored.trail:
        console.print(f"  {trail_step(step)}")


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@store_option
def games(as_json: bool, store_url: str | None) -> None:
    """The games in the store, with ruleset, players, where each stands and who won."""
    from whispers.projections.forks import fork_of
    from whispers.projections.replay import final_scoring

    rows = []
    with open_store(store_url) as store:
        for name in store.names():
            record = load(store, name)
            state = record.state
            scored = final_scoring(record.events)
            winner = None if scored is None else scored.winner
            forked = fork_of(record.events)
            ruleset, board = state_pins(state)
            rows.append({"game": name, "ruleset": ruleset.label, "board": board.label,
                         "played_under": played_under(ruleset, board),
                         "pins": {"ruleset": ruleset.to_json(), "board": board.to_json()},
                         "players": list(state.players),
                         "round": state.round, "phase": state.phase, "over": state.over, "winner": winner,
                         "events": record.version,
                         "fork_of": None if forked is None else {"game": forked.parent, "at": forked.at}})
    if as_json:
        emit_json(rows)
        return
    if not rows:
        click.echo("No games yet. Try: whispers demo")
    children: dict[str | None, list[dict[str, Any]]] = {}
    names = {row["game"] for row in rows}
    for row in rows:
        parent = row["fork_of"]["game"] if row["fork_of"] and row["fork_of"]["game"] in names else None
        children.setdefault(parent, []).append(row)

    def show(row: dict[str, Any], depth: int) -> None:
        where = (f"over, winner {row['winner'] or 'none (tie)'}" if row["over"]
                 else f"round {row['round']} {row['phase']}")
        label = ("  " * depth + ("└ " if depth else "") + row["game"])
        fork = f"  (fork at event {row['fork_of']['at']})" if row["fork_of"] else ""
        click.echo(f"{label:<28} {row['played_under']:<9} {','.join(row['players']):<28} {where}{fork}")
        for child in children.get(row["game"], []):
            show(child, depth + 1)

    for row in children.get(None, []):
        show(row, 0)
