"""Verifying a record: its hash chain, and every move re-adjudicated by the rules engine.

Replaying a record normally trusts it (facts are folded, rules are not re-run). Verification does not:
each move is turned back into the command it records, decided again from the state before it, and the
events the engine gives must equal the recorded ones, consequences included. The first event that
disagrees is named. Deciding and folding go through ledger/io/engine.py, the path recording takes
(game.play), so a record verifies exactly when recording its moves again would give it.
"""

from dataclasses import dataclass

import msgspec

from whispers.ledger.core import events as ev
from whispers.ledger.core import meta, rules
from whispers.ledger.core.board import Board
from whispers.ledger.core.card_checks import check_ability, check_card, check_drawn
from whispers.ledger.core.commands import of_event
from whispers.ledger.core.decree_effects import effect
from whispers.ledger.core.decrees import CardSheet
from whispers.ledger.core.errors import RecordFileError, VerifyError, WhispersError
from whispers.ledger.core.events import read_facts
from whispers.ledger.core.evolve import evolve
from whispers.ledger.core.notation import format_event
from whispers.ledger.core.pins import Pin
from whispers.ledger.core.ruleset import Ruleset
from whispers.ledger.core.state import GameState
from whispers.ledger.core.words import say
from whispers.ledger.io import engine
from whispers.ledger.io.decree_files import shipped_catalogue
from whispers.ledger.io.recordfile import chain
from whispers.ledger.io.shipped import cards_pin, started_pins


@dataclass(frozen=True)
class Verified:
    events: int
    head: str
    state: GameState
    pins: tuple[Pin, Pin]
    """(ruleset, board): shipped, modified or custom, by the content the record embeds."""
    unchecked: tuple[str, ...] = ()
    """What could not be checked of the card plays (no card sheet pinned: a card's effects and costs; an instant
    decree's card when the record does not name the cards drawn)."""
    cards: Pin | None = None
    """The card sheet the game pinned (shipped or custom), or None."""


def _decided_before(made: ev.Event, recorded: ev.Event) -> bool:
    """Whether `recorded` is the same play as `made`, decided before the engine recorded an outcome it records now
    (`Effect.outcome_since`: Bountiful Harvest's `until`, issue 33). Such a play stands as it was decided: events
    are facts, and replaying it applies what it says (its card discarded at once, lasting the year)."""
    if not isinstance(made, ev.CardPlayed) or not isinstance(recorded, ev.CardPlayed):
        return False
    found = effect(made.effect)
    if found is None or not found.outcome_since:
        return False
    earlier = {k: v for k, v in (made.outcome or {}).items() if k not in found.outcome_since}
    return msgspec.structs.replace(made, outcome=earlier).to_fact() == recorded.to_fact()


def verify(facts: list[dict], source: str) -> Verified:
    events = read_facts(facts, source)
    first = events[0] if events else None
    if not isinstance(first, ev.GameStarted):
        raise VerifyError(say("{game}: event 1 is not the start of a game", game=source))
    try:
        board = Board.from_data(first.board, source=f"{source} event 1")
        ruleset = Ruleset.from_data(first.ruleset, source=f"{source} event 1")
        sheet = None if first.cards is None else CardSheet.from_data(first.cards, shipped_catalogue(),
                                                                     f"{source} event 1 card sheet")
        again = rules.start(first.name, first.players, first.first, ruleset, board, first.card_sets, sheet)
    except WhispersError as exc:
        raise VerifyError(say("{game}: event 1 (GameStarted) does not stand: {message}", game=source,
                              message=str(exc))) from None
    if not isinstance(ruleset.id, str) or not ruleset.id.isprintable() or any(c.isspace() for c in ruleset.id):
        # the id is written on a log's game line: text there could start a line of its own
        raise VerifyError(say("{game}: event 1 (GameStarted): the ruleset id {text} is not one word", game=source,
                              text=repr(ruleset.id)))
    if again != first:
        raise VerifyError(say("{game}: event 1 (GameStarted) does not match its own board and ruleset (or card "
                              "sheet)", game=source))
    state = evolve(None, first)
    unchecked: list[str] = []
    index = 1
    while index < len(events):
        event = events[index]
        number = index + 1
        if isinstance(event, ev.GameDescribed):
            if (wrong := meta.problem(event.changes, first.players)) or (wrong := meta.time_problem(event.time)):
                raise VerifyError(say("{game}: event {n} (GameDescribed): {message}", game=source, n=number,
                                      message=wrong))
            produced: list[ev.Event] = [event]
        elif isinstance(event, ev.MoveAmended):
            # an amendment's marker: the take-backs before it and the moves after it are checked as any others
            produced = [event]
        elif isinstance(event, ev.GameForked):
            produced = engine.forked(state, event)
        elif event.MOVE or isinstance(event, ev.MoveTakenBack | ev.GameFinalized | ev.GameReopened):
            borrowed = state.pending is not None
            command = of_event(event, borrowed)
            if command is None:
                raise VerifyError(say("{game}: event {n} ({text}) cannot be read as a move", game=source, n=number,
                                      text=type(event).__name__))
            try:
                produced = engine.decide(state, command)
                if isinstance(event, ev.CardPlayed):
                    unchecked.extend(say("event {n}: {note}", n=number, note=note)
                                     for note in _unchecked(state, event))
            except WhispersError as exc:
                line = format_event(event, borrowed=borrowed)
                raise VerifyError(say("{game}: event {n} ({line}) is not legal: {message}", game=source, n=number,
                                      line=line, message=str(exc))) from None
        elif rules.window_waits(state):
            # the moment after an empire's last order closed without a move of its own: the next move (a record
            # is cut between moves), or a record made before the engine waited there
            produced = engine.closed(state)
        else:
            raise VerifyError(say("{game}: event {n} ({text}) was recorded where a move was due", game=source,
                                  n=number, text=type(event).__name__))
        for offset, made in enumerate(produced):
            recorded = events[index + offset] if index + offset < len(events) else None
            if recorded is None:
                break  # a record may stop after a move (an unfinished game's last consequences are its own)
            if offset and isinstance(recorded, ev.GameForked) and recorded.at == index + offset:
                # a fork cuts its parent's record after any event, a move's consequences included: the marker
                # follows, and the rules give the rest again after it
                produced = produced[:offset]
                break
            if made.to_fact() != recorded.to_fact() and _decided_before(made, recorded):
                produced[offset] = recorded  # it stands as it was decided, and the record goes on from it
            elif made.to_fact() != recorded.to_fact():
                raise VerifyError(say("{game}: event {n} ({text}) disagrees with the rules: {message}", game=source,
                                      n=number + offset, text=type(recorded).__name__,
                                      message=_difference(recorded.to_fact(), made.to_fact())))
        state = engine.fold(state, produced[: len(events) - index])
        index += len(produced)
    try:
        head = chain(facts)[-1]
    except RecordFileError as exc:  # a number past 64 bits, stored before content files' numbers were bounded
        raise VerifyError(say("{game}: {message}", game=source, message=str(exc))) from None
    return Verified(len(events), head, state, started_pins(first), tuple(unchecked), cards_pin(first))


def _unchecked(state: GameState, event: ev.CardPlayed) -> list[str]:
    """What the engine could not check of a play it accepted: without a card sheet its card and cost, and an
    instant decree's card when the record does not name the cards drawn."""
    catalogue = shipped_catalogue()
    if event.effect is None:  # a play by ability number: checked against a card sheet, when there is one
        if event.ability is None:
            return []
        return list(check_ability(state, event.card, event.ability, event.pay, catalogue).unchecked)
    notes = list(check_card(state, event.effect, event.card, event.pay, catalogue).unchecked)
    notes += check_drawn(state, event.society, event.effect, event.card, catalogue).unchecked
    return notes


def _difference(recorded: dict, ruled: dict, path: str = "") -> str:
    if not path and recorded.get("type") != ruled.get("type"):
        return say("the record has {line}, the rules give {text}", line=str(recorded.get("type")),
                   text=str(ruled.get("type")))
    for key in ruled:
        mine, theirs = recorded.get(key), ruled[key]
        if mine != theirs:
            if isinstance(mine, dict) and isinstance(theirs, dict):
                return _difference(mine, theirs, f"{path}{key}.")
            return say("{name} is {line} in the record, {text} by the rules", name=f"{path}{key}", line=_clip(mine),
                       text=_clip(theirs))
    return say("the record has fields the rules do not give")


def _clip(value: object) -> str:
    text = repr(value)
    return text if len(text) < 80 else text[:77] + "..."
