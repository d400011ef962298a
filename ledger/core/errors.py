"""The one family of errors whispers reports to a user: each carries a message fit for one line."""


class WhispersError(Exception):
    """Anything a user did or supplied that whispers refuses. The message is one line, for a person."""


class RuleError(WhispersError):
    """A move the rules forbid. `rule` quotes the rulebook section that forbids it."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.reason = message
        self.rule = rule


class BoardError(WhispersError):
    """A board file that is not a valid board."""


class RulesetError(WhispersError):
    """A ruleset file that is not a valid ruleset."""


class NotationError(WhispersError):
    """A line of notation that does not parse."""


class StoreError(WhispersError):
    """The event store cannot do what was asked (unreachable, locked, unknown game...)."""


class StoreUnavailable(StoreError):
    """The store cannot be used now: its server unreachable or lost mid-command, no connection free, or the store
    locked by another process. It says nothing about any game in it."""


class UnknownGame(StoreError):
    """No game of that name is in the store."""


class GameExists(StoreError):
    """A game of that name is in the store already."""


class GameMovedOn(StoreError):
    """Another recorder appended to the game since this one read it."""


class NoSuchEvent(StoreError):
    """An event number outside a game's record, in the one wording every command uses (words.no_such_event: the
    words are chosen where it is raised, as this module imports nothing)."""


class TextError(WhispersError):
    """A text given to be recorded (a reason, a name, a note) that no record may keep: bad input, not the store."""


class RecordFileError(WhispersError):
    """A record file that is malformed, truncated or tampered with."""


class VerifyError(WhispersError):
    """A record that does not stand up when its moves are decided again (ledger/io/verify.py): the message names
    the first bad event."""


class DecreeError(WhispersError):
    """A decree catalogue or card sheet that is not valid, or a card play it refuses."""
