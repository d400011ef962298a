"""What a game was played under, known by content and not only by the id it claims.

Anyone can write a ruleset file with `id = "official"` and a hand limit of 9, or a board with `id = "standin"`
and three more cities. A game therefore pins the content hash of its ruleset and board, and everything that
names them says whether that content is the shipped one of that id (`shipped`), other content under a shipped
id (`modified`), or an id nobody ships (`custom`). This module is pure; the shipped hashes are computed from
fixtures/ by ledger.shipped, which pins a game's ruleset and board.
"""

from __future__ import annotations

from typing import Literal, TypedDict

import msgspec

from whispers.ledger.core.content import content_hash as content_hash
from whispers.ledger.core.errors import BoardError, DecreeError, RulesetError, WhispersError
from whispers.ledger.core.words import N_, _, say

Kind = Literal["ruleset", "board", "decrees", "cards"]
"""`decrees`: the decree catalogue; `cards`: a card sheet (ledger.decrees)."""
Status = Literal["shipped", "modified", "custom"]
KIND_WORDS: dict[str, str] = {"ruleset": N_("ruleset"), "board": N_("board"), "decrees": N_("decrees"),
                              "cards": N_("cards")}
"""What each kind of pinned file is called in a sentence (`Pin.sentence`), to be looked up in the reader's
language."""


def short(digest: str) -> str:
    """The first 8 hex digits of a content hash, as shown beside a modified or custom name."""
    return digest.removeprefix("sha256:")[:8]


class PinJson(TypedDict):
    id: str
    hash: str
    status: Status
    label: str
    shipped_hash: str | None


class Pin(msgspec.Struct, frozen=True):
    kind: Kind
    id: str
    hash: str
    status: Status
    shipped_hash: str | None
    """The content whispers ships under this id, if it ships one."""

    @property
    def label(self) -> str:
        """`official` for the shipped one; `official (modified 3f2a9c1e)`; `custom:myrules (3f2a9c1e)`."""
        if self.status == "shipped":
            return self.id
        if self.status == "modified":
            return f"{self.id} (modified {short(self.hash)})"
        return f"custom:{self.id} ({short(self.hash)})"

    def sentence(self) -> str:
        """One line for `verify`: what this is, plainly, with the hashes, in the reader's language (the id and
        the hashes as they are)."""
        kind = _(KIND_WORDS[self.kind])
        if self.status == "shipped":
            return say("{kind}: {name} — the shipped {name} ({hash})", kind=kind, name=self.id, hash=self.hash)
        if self.status == "modified":
            return say("{kind}: {name} — MODIFIED, content differs from the shipped {name} (this {kind} {hash}, "
                       "shipped {shipped})", kind=kind, name=self.id, hash=self.hash, shipped=self.shipped_hash)
        return say("{kind}: custom:{name} — not a shipped {kind} ({hash})", kind=kind, name=self.id, hash=self.hash)

    def to_json(self) -> PinJson:
        return {"id": self.id, "hash": self.hash, "status": self.status, "label": self.label,
                "shipped_hash": self.shipped_hash}


def classify(kind: Kind, ident: str, digest: str, shipped: str | None) -> Pin:
    """Whether `ident` with content `digest` is the shipped one (whose hash is `shipped`, None if nothing of that
    id is shipped), a modified one, or custom. What is shipped is ledger.shipped's to read."""
    if shipped is None:
        status: Status = "custom"
    else:
        status = "shipped" if shipped == digest else "modified"
    return Pin(kind, ident, digest, status, shipped)


DEFAULT_BOARD = "standin"


def played_under(ruleset: Pin, board: Pin) -> str:
    """"official", or "official on standin (modified 355fc643)": the board is named unless it is the shipped
    default one."""
    if board.status == "shipped" and board.id == DEFAULT_BOARD:
        return ruleset.label
    return f"{ruleset.label} on {board.label}"


def refuse_modified(pins: tuple[Pin, ...]) -> None:
    """Refuse a ruleset, board, catalogue or card sheet that claims a shipped id with other content."""
    errors: dict[Kind, type[WhispersError]] = {"ruleset": RulesetError, "board": BoardError, "decrees": DecreeError,
                                                "cards": DecreeError}
    for p in pins:
        if p.status == "modified":
            error = errors[p.kind]
            raise error(f"{p.kind} {p.id!r} is not the shipped {p.id} (its content differs: {short(p.hash)}, "
                        f"shipped {short(p.shipped_hash or '')}): give it an id of its own, or pass "
                        f"--allow-modified to record it as {p.label}")
