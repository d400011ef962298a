"""Seat cards: a round's games (or one game) shared, and their links laid out as cards to print
(projections/cards.py). The links are shown once (the store keeps their hashes): the cards are where they land."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from whispers.application.sharing import Links, share
from whispers.application.stores import opened
from whispers.ledger.core.errors import WhispersError
from whispers.ledger.core.plain import Data
from whispers.ledger.core.words import say

if TYPE_CHECKING:
    from whispers.ledger.io.store import Store
    from whispers.projections.cards import Card


@dataclass(frozen=True, slots=True)
class Shared:
    """The links made, one set per game, and the cards that show them."""

    links: tuple[Links, ...]
    cards: tuple[Card, ...]

    def to_json(self) -> Data:
        return {"games": {links.game: {k: v for k, v in links.to_json().items() if k != "game"}
                          for links in self.links}}


class _Facts(TypedDict):
    """What every card of a game is labelled with (projections.cards.Card)."""

    event: str | None
    round: int | None
    table: int | None


def _game_cards(links: Links, seats: dict[str, str], first: str | None, event: str | None, round_no: int | None,
                table: int | None) -> list[Card]:
    from whispers.projections.cards import Card

    urls = links.to_json()
    facts: _Facts = {"event": event, "round": round_no, "table": table}
    return [Card("table", links.game, urls["table"], **facts),
            *(Card("seat", links.game, url, **facts, society=society, person=seats.get(society),
                   first=society == first) for society, url in urls["seats"].items()),
            Card("spectator", links.game, urls["spectator"], **facts)]


def share_round(store: Store | str | None, file: Path, round_no: int, base: str, revoke: bool = False) -> Shared:
    """Links for every game of round `round_no` of the tournament file, each seat's card naming who sits there
    (the file's seats). Every game must be in the store (started by `pair --start` or `new`) and, unless `revoke`,
    not shared yet: both are checked for all the round's games before any link is made."""
    from whispers.application.sharing import is_shared
    from whispers.application.tournament import read_text
    from whispers.projections.pairing import table_of
    from whispers.projections.standings import load_tournament

    spec = load_tournament(read_text(file), str(file))
    games = [g for g in spec.games if spec.rounds.get(g) == round_no]
    if not games:
        raise WhispersError(say("{file} has no round {round}: pair it first (whispers tournament pair)",
                                file=str(file), round=round_no))
    with opened(store) as s:
        for game in games:
            if not s.exists(game):
                raise WhispersError(say("{game} is not in the store yet: start the round first (whispers tournament "
                                        "pair --start, or whispers new)", game=game))
            if not revoke and is_shared(s, game):
                raise WhispersError(say("{game} is shared already: whispers share {game} --revoke makes new links "
                                        "(the old ones stop working; only hashes are kept, so they cannot be shown "
                                        "again)", game=game))
        made = [share(s, game, base, revoke) for game in games]
    cards = []
    for links in made:
        cards += _game_cards(links, spec.seats[links.game], spec.firsts.get(links.game), spec.name, round_no,
                             table_of(links.game))
    return Shared(tuple(made), tuple(cards))



def game_cards(store: Store | str | None, links: Links) -> tuple[Card, ...]:
    """The cards of one game just shared, labelled with its table facts (seats' names, event, round, table)."""
    from whispers.application.recording import open_game
    from whispers.ledger.core.meta import of_events

    game = open_game(store, links.game)
    meta = of_events(game.events)
    number = {key: int(value) if value is not None and value.isdecimal() and value.isascii() else None
              for key, value in (("round", meta.round), ("table", meta.table))}
    return tuple(_game_cards(links, dict(meta.seats), game.state.first, meta.event, number["round"],
                             number["table"]))


def check_output(output: str) -> str:
    """The cards' format from the file's name (pdf or html); WhispersError for another, or a folder that is not
    there: checked before links are made, as they are shown once."""
    from whispers.projections.cards import FORMATS

    suffix = output.rsplit(".", 1)[-1].lower() if "." in output else ""
    if suffix not in FORMATS:
        raise WhispersError(say("seat cards are written as .pdf or .html, not {file}", file=repr(output)))
    if not Path(output).resolve().parent.is_dir():
        raise WhispersError(say("no such directory: {file}", file=str(Path(output).resolve().parent)))
    return suffix


def write_cards(cards: tuple[Card, ...], output: str, language: str) -> str:
    """The cards written to `output` (.pdf or .html), whole or not at all; StoreError if it cannot be written."""
    from whispers.ledger.io.safefile import save
    from whispers.projections.cards import draw_html, draw_pdf

    data = draw_pdf(cards) if check_output(output) == "pdf" else draw_html(cards, language)
    save(output, data)
    return output
