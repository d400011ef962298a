"""The `log`: a record as notation lines, as the record has it or as one viewer saw it.

Each line is one the notation reads back to the same move (ledger/core/notation.py writes single events); what
the viewer may not see is left out by the visibility policy (loyalty tokens, names of cards drawn).
"""

from collections.abc import Iterable, Iterator

from msgspec.structs import replace

from whispers.ledger.core import events as ev
from whispers.ledger.core.meta import tag_lines
from whispers.ledger.core.names import SLOTS
from whispers.ledger.core.notation import format_header
from whispers.ledger.core.notes import NoteEntry, shown_by
from whispers.ledger.core.text import one_line
from whispers.ledger.core.words import _, say
from whispers.projections.labels import labels as move_labels
from whispers.projections.visibility import AnyViewer, final_reveal, move_line


def format_record(events: Iterable[ev.Event], comments: bool = True, viewer: AnyViewer = None,
                  notes: Iterable[NoteEntry] = ()) -> Iterator[str]:
    """A record as notation lines (`_record_lines`), each of them one line whatever text the record or its
    notes hold (a note, an author, an id from an older store): a line break in a comment would start a line
    that `whispers import` reads as a move."""
    for line in _record_lines(events, comments, viewer, notes):
        yield one_line(line)


def _record_lines(events: Iterable[ev.Event], comments: bool = True, viewer: AnyViewer = None,
                  notes: Iterable[NoteEntry] = ()) -> Iterator[str]:
    """A record as notation lines: the `game` line, then one line per move, with the engine's own
    events as `#` comments when `comments` is set. With a `viewer`, what it may not know is left out
    (another society's loyalty tokens, names of cards others drew; a spectator: every society's).

    The record is folded as it is written, so an order owed out of sequence (after a swap-agent order
    or a card lending a position) is written with its `at=` and reads back to the same move."""
    from whispers.ledger.core.evolve import evolve
    from whispers.ledger.core.legal import window_waits
    from whispers.ledger.core.pins import KIND_WORDS, short
    from whispers.ledger.core.words import describe
    from whispers.ledger.io.shipped import cards_pin, started_pins

    events = list(events)
    labels = move_labels(events) if comments else {}
    last_move = max((i for i, e in enumerate(events, start=1) if e.MOVE), default=0)
    by_event: dict[int, list[NoteEntry]] = {}
    for note in notes:
        by_event.setdefault(note["at"], []).append(note)
    state = None
    for version, event in enumerate(events, start=1):
        if isinstance(event, ev.GameStarted):
            refs = {}
            for pin in (*started_pins(event), *filter(None, [cards_pin(event)])):
                kind = _(KIND_WORDS[pin.kind])
                if pin.status == "custom":
                    yield "# " + say("{kind} {label} is not shipped: whispers import looks for {file} beside this "
                                     "file", kind=kind, label=pin.label, file=f"{pin.id}.toml")
                elif pin.status == "modified":
                    # Not the bare id: an import would read that as the shipped one and replay other rules.
                    refs[pin.kind] = f"{pin.id}-modified-{short(pin.hash)}"
                    yield "# " + say("{kind} {label}: MODIFIED, not the shipped {name} ({hash}); whispers import "
                                     "looks for {file} beside this file and needs --allow-modified", kind=kind,
                                     label=pin.label, name=pin.id, hash=pin.hash, file=f"{refs[pin.kind]}.toml")
            yield format_header(event, refs.get("ruleset"), refs.get("board"), refs.get("cards"))
        else:
            borrowed = state is not None and state.pending is not None
            if isinstance(event, ev.MoveTakenBack) and event.reopen is None and state is not None and state.over:
                event = replace(event, reopen=True)  # a version 1 take-back that reopened the game, said as today
            if state is not None and not event.MOVE and version > last_move and (holder := window_waits(state)):
                # a record made before the engine waited for a card after an empire's last order closed that moment
                # on its own; with no move after it, today's engine needs it said
                yield f"{holder} no-card"
            line = move_line(event, viewer, borrowed)
            if isinstance(event, ev.GameDescribed):
                yield from tag_lines(event.changes, event.time)  # table facts, public: PGN-style tag lines
            elif line is not None:
                if (label := labels.get(version)) is not None:
                    yield f"# {label}"  # the move's label (docs/notation.md), a comment import skips
                yield line
            elif comments:
                yield f"#   {describe(event)}"
        for note in by_event.get(version, []):
            who = shown_by(note)
            by = say("note on event {at} ({author})", at=version, author=who) if who else say(
                "note on event {at}", at=version)
            yield f"# {by}: {note['text']}"
        state = evolve(state, event)
        if isinstance(event, ev.GameScored) and viewer is not None:
            # what the whole table saw face up at the end, though this viewer's log hid it before
            for society, tokens in final_reveal(viewer, state).items():
                revealed = say("final reveal: {society}", society=society)
                yield f"#   {revealed} " + " ".join(f"{slot}={tokens[slot]}" for slot in SLOTS)


