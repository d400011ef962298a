"""Games in files: import (notation or a record file), export (the portable record file), and verify."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from whispers.application.reading import notes_of
from whispers.application.stores import opened
from whispers.ledger.core.errors import RecordFileError, StoreError, StoreUnavailable, WhispersError
from whispers.ledger.core.plain import Data
from whispers.ledger.core.words import _, say, term
from whispers.ledger.io.input_files import RECORD_LIMIT, read_capped

if TYPE_CHECKING:
    from whispers.ledger.core.meta import Meta
    from whispers.ledger.core.pins import Pin
    from whispers.ledger.core.state import GameState
    from whispers.ledger.io.store import Store


def _where(state: GameState) -> str:
    """Where the game stands, in the reader's words ("round 2, empire"; "manche 2, Phase des Empires")."""
    if state.over:
        return _("over")
    return say("round {round}, {phase}", round=state.round, phase=term(state.phase, "phase"))


@dataclass(frozen=True, slots=True)
class Imported:
    game: str
    events: int
    played_under: str
    players: tuple[str, ...]
    where: str  # "over", or "round 2, empire"
    unchained: int = 0  # notes from an older whispers' file that no hash covers (kept, marked)
    table: Meta | None = None  # who, when, where, as the record (a file's header and events, or tag lines) says

    def to_json(self) -> Data:
        return {"game": self.game, "events": self.events, "played_under": self.played_under,
                "players": list(self.players), "where": self.where, "unchained": self.unchained,
                "table": None if self.table is None else self.table.to_json()}


def import_file(store: Store | str | None, file: Path, name: str | None = None,
                allow_modified: bool = False) -> Imported:
    """A game in notation or a whispers record file into the store: all of it, or nothing."""
    from whispers.ledger.core.meta import of_events
    from whispers.ledger.core.pins import played_under
    from whispers.ledger.io import recordfile
    from whispers.ledger.io.game import import_lines, import_record
    from whispers.ledger.io.shipped import state_pins

    data = read_capped(file, str(file), RecordFileError, RECORD_LIMIT)
    unchained = 0
    with opened(store) as s:
        if recordfile.looks_like_record(data):
            game = import_record(s, data, str(file), name, allow_modified)
            unchained = sum(1 for note in s.notes(game.name) if note.get("unchained"))
        else:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise RecordFileError(say("{file}: neither notation (UTF-8 text) nor a record file",
                                          file=str(file))) from None
            game = import_lines(s, name or file.stem, text.splitlines(), beside=file.parent,
                                allow_modified=allow_modified)
    state = game.state
    return Imported(game.name, game.version, played_under(*state_pins(state)), tuple(state.players), _where(state),
                    unchained, of_events(game.events))


RECORD_SUFFIXES = (".whispers", ".txt")  # what a folder given to a batch import is read for


def batch_files(paths: Sequence[Path]) -> list[Path]:
    """The files a batch import reads: each path given, a folder standing for its own *.whispers and *.txt
    files (not its subfolders), in name order."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted((p for p in path.iterdir() if p.suffix in RECORD_SUFFIXES and p.is_file()),
                            key=lambda p: p.name)
        else:
            found.append(path)
    return found


@dataclass(frozen=True, slots=True)
class Refusal:
    file: str
    reason: str

    def to_json(self) -> Data:
        return {"file": self.file, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class BatchImported:
    imported: tuple[Imported, ...]
    refused: tuple[Refusal, ...]

    def to_json(self) -> Data:
        return {"imported": [i.to_json() for i in self.imported], "refused": [r.to_json() for r in self.refused]}


def import_files(store: Store | str | None, paths: Sequence[Path], name: str | None = None,
                 allow_modified: bool = False,
                 each: Callable[[Path, Imported | Refusal], None] | None = None) -> BatchImported:
    """Many games into one store, each in its own transaction: a game lands whole or not at all, and a refused
    file does not stop the others. `paths` as batch_files gives them; `name` only with a single file.
    `each` is told of every file as it is done (for a progress bar)."""
    if name is not None and len(paths) != 1:
        raise StoreError(_("--game names one game: give a single file, not several or a folder"))
    imported: list[Imported] = []
    refused: list[Refusal] = []
    with opened(store) as s:
        for path in paths:
            outcome: Imported | Refusal
            try:
                outcome = import_file(s, path, name, allow_modified)
                imported.append(outcome)
            except StoreUnavailable:
                raise  # the store, not this file: the files after it were never tried (those before are in)
            except WhispersError as exc:
                # messages about a record file often start with its path: the summary names the file once
                reason = " ".join(str(exc).removeprefix(f"{path}: ").split())
                outcome = Refusal(str(path), reason)
                refused.append(outcome)
            if each is not None:
                each(path, outcome)
    return BatchImported(tuple(imported), tuple(refused))


@dataclass(frozen=True, slots=True)
class Exported:
    game: str
    data: bytes  # the record file
    events: int
    notes: int
    head: str  # of the events' hash chain
    notes_head: str
    warnings: tuple[str, ...] = ()  # malformed notes an older whispers stored, skipped
    unchecked: tuple[str, ...] = ()  # what of the card plays could not be checked (no card sheet)

    def to_json(self) -> Data:
        return {"game": self.game, "events": self.events, "notes": self.notes, "head": self.head,
                "notes_head": self.notes_head}


def export_record(store: Store | str | None, game: str) -> Exported:
    """The game as a portable record file: msgpack, a header and a hash chain over the events and the notes."""
    from whispers.ledger.io import recordfile

    with opened(store) as s:
        facts = s.facts(game)
        found, warnings = notes_of(s, game)
    return Exported(game, recordfile.dumps(game, facts, found), len(facts), len(found),
                    recordfile.chain(facts)[-1], recordfile.notes_head(found), warnings)


def write_export(exported: Exported, output: Path, force: bool = False) -> None:
    """Write the record file to `output` in one step; an existing file is left alone unless `force`."""
    from whispers.ledger.io.safefile import save

    try:
        save(output, exported.data, overwrite=force)
    except FileExistsError:
        raise StoreError(say("{file} exists already: export --force replaces it", file=str(output))) from None


@dataclass(frozen=True, slots=True)
class Verification:
    target: str
    events: int
    head: str
    pins: tuple[Pin, Pin]
    where: str
    notes: int
    notes_head: str | None  # None: a record file from an older whispers, whose notes no hash covers
    warnings: tuple[str, ...] = ()  # malformed notes an older whispers stored, skipped
    unchecked: tuple[str, ...] = ()  # what of the card plays could not be checked (no card sheet)
    cards: Pin | None = None  # the card sheet the game pins, None when it pins none
    card_sets: tuple[str, ...] = ("base",)
    example_sheet: bool = False  # the sheet pinned is a made-up example (fixtures/cards/example.toml)

    @property
    def played_under(self) -> str:
        from whispers.ledger.core.pins import played_under

        return played_under(*self.pins)

    def to_json(self) -> Data:
        return {"target": self.target, "events": self.events, "head": self.head,
                "pins": {"ruleset": self.pins[0].to_json(), "board": self.pins[1].to_json()}, "where": self.where,
                "notes": self.notes, "notes_head": self.notes_head, "unchecked": list(self.unchecked),
                "cards": self.cards.to_json() if self.cards is not None else None, "card_sets": list(self.card_sets),
                "example_sheet": self.example_sheet}


def verify(store: Store | str | None, target: str) -> Verification:
    """A game in the store, or a record file (`target` names an existing file with a suffix): its hash chain,
    and every move re-adjudicated by the rules. VerifyError names the first bad event."""
    from whispers.ledger.io import recordfile
    from whispers.ledger.io.verify import verify as check

    path = Path(target)
    warnings: tuple[str, ...] = ()
    if path.suffix and path.is_file():
        header, facts, found = recordfile.loads(read_capped(path, target, RecordFileError, RECORD_LIMIT), target)
        chained = "notes_head" in header
    else:
        with opened(store) as s:
            facts = s.facts(target)
            found, warnings = notes_of(s, target)
        chained = True
    verified = check(facts, target)
    return Verification(target, verified.events, verified.head, verified.pins, _where(verified.state), len(found),
                        recordfile.notes_head(found) if chained else None, warnings, verified.unchecked,
                        verified.cards, verified.state.card_sets,
                        bool(verified.state.cards and verified.state.cards.get("example")))


@dataclass(frozen=True, slots=True)
class Checked:
    """One game of a whole store's verification: its chain heads, or the one line naming where it breaks."""

    game: str
    events: int
    head: str | None  # None when broken
    notes_head: str | None
    broken: str | None  # the first bad event (or the damage), in one line; None when every move agrees
    unchecked: bool = False  # card plays whose effects and cost no card sheet let verify check

    def to_json(self) -> Data:
        return {"game": self.game, "events": self.events, "head": self.head, "notes_head": self.notes_head,
                "broken": self.broken, "unchecked": self.unchecked}


@dataclass(frozen=True, slots=True)
class StoreVerification:
    games: tuple[Checked, ...]

    @property
    def broken(self) -> tuple[Checked, ...]:
        return tuple(game for game in self.games if game.broken is not None)

    def to_json(self) -> Data:
        return {"games": [game.to_json() for game in self.games], "verified": len(self.games) - len(self.broken),
                "broken": len(self.broken)}


def verify_store(store: Store | str | None, each: Callable[[Checked, int, int], None] | None = None
                 ) -> StoreVerification:
    """Every game in the store, archived ones too, in the order they were created, checked as `verify` checks one
    (its hash chain, every move re-adjudicated, its notes' chain): a tournament's whole record in one process.
    The games are named from the log itself, not the catalog (which a damaged game would stop), and a broken
    game is named with its first bad event while the others are still checked. `each(checked, done, total)` as
    each game is (10,000 take minutes). StoreError only when the store itself cannot be read."""
    from whispers.ledger.io import recordfile
    from whispers.ledger.io.verify import verify as check

    checked: list[Checked] = []
    with opened(store) as s:
        names = s.names()
        for done, name in enumerate(names, start=1):
            try:
                facts = s.facts(name)
                found, _warnings = notes_of(s, name)  # malformed notes are skipped, as `verify` skips them
                verified = check(facts, name)
                one = Checked(name, verified.events, verified.head, recordfile.notes_head(found), None,
                              bool(verified.unchecked))
            except StoreUnavailable:
                raise  # the store, lost mid-run: no verdict on this game or any after it
            except WhispersError as exc:  # this game's record: a bad event, a damaged row
                one = Checked(name, 0, None, None, str(exc))
            checked.append(one)
            if each is not None:
                each(one, done, len(names))
    return StoreVerification(tuple(checked))
