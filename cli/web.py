"""`whispers share` (capability links for one game) and `whispers serve` (the web face, under uvicorn)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from whispers.application import sharing
from whispers.application.analysis_jobs import WEB_ROLLOUTS
from whispers.cli.common import emit_json, store_option
from whispers.cli.spoken import Spoken
from whispers.ledger.core.errors import WhispersError
from whispers.ledger.core.words import _, say


@click.command(cls=Spoken)
@click.argument("game", metavar="GAME|TOURNAMENT")
@click.option("--base", default="http://127.0.0.1:8000", show_default=True, metavar="URL",
              help="Where `whispers serve` is reached from the players' phones.")
@click.option("--revoke", is_flag=True, help="Replace the game's links: the old ones stop working.")
@click.option("--round", "round_no", type=click.IntRange(min=1), metavar="R",
              help="Share every game of round R of the tournament file TOURNAMENT (docs/tournament.md).")
@click.option("--cards", metavar="FILE",
              help="Write the links as cards to print, FILE.pdf or FILE.html: A4, per game its table's card, one "
                   "per seat (with the player's name) and the spectators', each with its QR code and link.")
@click.option("--qr", "qr_dir", metavar="DIR", help="Also write each link as an SVG QR code in DIR.")
@click.option("--json", "as_json", is_flag=True, help="Print {\"table\": URL, \"seats\": {...}, \"spectator\": URL}.")
@store_option
def share(game: str, base: str, revoke: bool, round_no: int | None, cards: str | None, qr_dir: str | None,
          as_json: bool, store_url: str | None) -> None:
    """Links for GAME: the table (records moves), one per society (its own view), one for spectators.

    Only hashes of the tokens are stored: the links are shown once. --revoke makes new ones. With --round R,
    TOURNAMENT is a tournament file and every game of its round R is shared (each must be in the store, and
    none shared yet unless --revoke). --cards writes the links as seat cards to print and cut.
    """
    if not base.startswith(("http://", "https://")):
        raise click.UsageError(_("--base: an http:// or https:// URL"))
    from whispers.application import cards as seat_cards

    if cards is not None:
        seat_cards.check_output(cards)  # before any link is made: links are shown once
    if round_no is not None:
        shared = seat_cards.share_round(store_url, Path(game), round_no, base, revoke)
        made, laid_out = list(shared.links), shared.cards
    else:
        made = [sharing.share(store_url, game, base, revoke)]
        laid_out = seat_cards.game_cards(store_url, made[0]) if cards is not None else ()
    written = [path for links in made for path in (sharing.write_qr(links, qr_dir) if qr_dir else [])]
    if cards is not None:
        from whispers.ledger.core.words import tongue

        seat_cards.write_cards(laid_out, cards, tongue().code)
    if as_json:
        found = [{k: v for k, v in links.to_json().items() if k != "game"} for links in made]
        emit_json(found[0] if round_no is None else {links.game: one for links, one in zip(made, found, strict=True)})
        return
    for links in made:
        urls = links.to_json()
        prefix = f"{links.game}: " if round_no is not None else ""
        click.echo(prefix + say("table (records moves): {url}", url=urls["table"]))
        for society, url in urls["seats"].items():
            click.echo(prefix + say("{society} seat: {url}", society=society, url=url))
        click.echo(prefix + say("spectators: {url}", url=urls["spectator"]))
    for path in written:
        click.echo(say("QR code written: {file}", file=str(path)))
    if cards is not None:
        click.echo(say("seat cards written: {file}", file=cards))


@click.command(cls=Spoken)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Server processes (uvicorn workers) sharing the port; use a PostgreSQL store for more than one.")
@click.option("--tournament", "tournament_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              metavar="FILE", help="A tournament file (docs/tournament.md): the director's pages show its standings, "
                                   "and a public board (its link printed at start) its tables and standings.")
@click.option("--analysts", default=1, show_default=True, type=click.IntRange(0, 64),
              help="Processes (per worker) that run the analyses the replay pages ask for, one game each at a time; "
                   "0: the pages offer none.")
@click.option("--analysis-rollouts", default=WEB_ROLLOUTS, show_default=True, type=click.IntRange(1, 100_000),
              help="Playouts a move of an analysis asked for on a page (as many as whispers analyse plays by "
                   "default: the figures are shared).")
@store_option
def serve(host: str, port: int, workers: int, tournament_file: Path | None, analysts: int, analysis_rollouts: int,
          store_url: str | None) -> None:
    """Serve the store's games to browsers: the links from `whispers share`, and the director's pages.

    The director's token is $WHISPERS_DIRECTOR_TOKEN, or a new one printed at start. Several processes (--workers,
    or several `serve` over one store) stay consistent: a move decided against an old game is refused (409), and
    live updates follow the store itself, so each viewer hears of every move whichever process recorded it."""
    import uvicorn

    given = os.environ.get("WHISPERS_DIRECTOR_TOKEN")
    if given and len(given) < sharing.DIRECTOR_TOKEN_SHORTEST:
        raise WhispersError(say("WHISPERS_DIRECTOR_TOKEN: at least {n} characters (unset, serve makes one)",
                                n=sharing.DIRECTOR_TOKEN_SHORTEST))
    token = given or sharing.new_director_token()
    # The web face sits beside this one (neither imports the other): uvicorn builds it from its factory, which
    # reads the store and the director's token from the environment, as a second worker process would.
    os.environ["WHISPERS_DIRECTOR_TOKEN"] = token
    os.environ["WHISPERS_ANALYSTS"] = str(analysts)
    os.environ["WHISPERS_ANALYSIS_ROLLOUTS"] = str(analysis_rollouts)
    if store_url:
        os.environ["WHISPERS_STORE"] = store_url
    if tournament_file is not None:
        from whispers.application.tournament import tournament

        tournament(store_url, tournament_file)  # a malformed file is refused now, in one line, not on the page
        os.environ["WHISPERS_TOURNAMENT"] = str(tournament_file.resolve())
    if given:  # a secret the operator chose is never written to a terminal or a log
        click.echo(say("director: {url}", url=f"http://{host}:{port}/director/$WHISPERS_DIRECTOR_TOKEN/"), err=True)
    else:
        click.echo(say("director: {url}", url=f"http://{host}:{port}/director/{token}/"), err=True)
    if tournament_file is not None:  # public, read-only: for the hall's projector and phones
        from whispers.application.board import board_token

        click.echo(say("public board: {url}", url=f"http://{host}:{port}/hall/{board_token(token)}/"), err=True)
    uvicorn.run("whispers.web.app:from_environment", factory=True, host=host, port=port, workers=workers,
                log_level="warning", timeout_graceful_shutdown=3)
