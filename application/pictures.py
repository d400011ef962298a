"""Pictures: the council-order timeline and the board map, written as DOT or rendered by Graphviz."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from whispers.application.stores import opened
from whispers.ledger.core.plain import Data

if TYPE_CHECKING:
    from whispers.ledger.io.store import Store


@dataclass(frozen=True, slots=True)
class Drawn:
    game: str
    version: int  # the picture shows the game after this event
    output: str  # a file, or "-" for DOT on standard output

    def to_json(self) -> Data:
        return {"game": self.game, "version": self.version, "output": self.output}


def timeline(store: Store | str | None, game: str, output: str, round_: int | None = None,
             viewer: str | None = None) -> Drawn:
    """The council orders as executed, round by round (only round `round_`), as `viewer` could see them."""
    from whispers.ledger.io.game import load
    from whispers.projections.render import check, write
    from whispers.projections.timeline import timeline as draw

    check(output, "dot")
    with opened(store) as s:
        record = load(s, game)
    write(draw(record.events, round_, viewer), output, engine="dot")
    return Drawn(game, record.version, output)


def board_map(store: Store | str | None, game: str, output: str, at: int | None = None,
              viewer: str | None = None) -> Drawn:
    """The board after event `at` (default: the end) as a graph laid out from the board file's positions, with
    the council beside it, the last move (an arrow for an attack), where the game stands and the scores if it
    ended then, as far as `viewer` can compute them; the title names the move."""
    from whispers.ledger.core.prompt import prompt
    from whispers.ledger.core.words import _, say, term
    from whispers.ledger.io.game import load
    from whispers.projections.boardmap import board_map as draw
    from whispers.projections.labels import label_at
    from whispers.projections.render import check, write
    from whispers.projections.visibility import check_viewer, event_words, known_scores

    check(output, "neato")
    with opened(store) as s:
        record = load(s, game, at)
    state = record.state
    check_viewer(game, state.players, viewer)
    event = record.events[-1]
    p = prompt(state)
    where = _("empire turns") if p.phase == "empire" else term(p.phase, "phase")
    if p.phase == "empire" and p.empire:
        where += " · " + say("{empire}'s turn", empire=p.empire)
    phase = say("round {round} · {phase}", round=p.round, phase=where)
    words = _("set up") if state.version == 1 else event_words(event, viewer).removeprefix("· ")
    title = say("{game} · {event}: {words}", game=game, event=label_at(record.events, state.version), words=words)
    write(draw(state, title, event, known_scores(state, viewer), phase), output, engine="neato")
    return Drawn(game, state.version, output)
