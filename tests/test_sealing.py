"""A loyalty set sealed at its own seat: only a commitment (a salted hash) is recorded until the reveal, which
must match it; nobody else can read or change it (issue 13; ledger/core/sealing.py)."""

import random

import pytest

from whispers.application import files, recording, seats
from whispers.ledger.core import commands as c
from whispers.ledger.core import events as ev
from whispers.ledger.core.errors import RuleError
from whispers.ledger.core.notation import format_event, parse_line
from whispers.ledger.core.randomgame import random_command
from whispers.ledger.core.sealing import RULE, commitment, good_salt, group, read_code
from whispers.ledger.io.store import open_store
from whispers.ledger.io.verify import VerifyError
from whispers.projections.visibility import SPECTATOR_NAME, state_view

PLACED = {"devout": "bear", "dutiful": "eagle", "affiliated": "lion", "unallied": "horse", "opposed": "elephant"}
SALT = "0f" * 16


def test_the_commitment_is_sha256_of_one_line_the_page_computes_too() -> None:
    """The same text and hash the seat's script computes (web/static/sha256.js is checked in test_web_pages)."""
    sealed = commitment(PLACED, SALT)
    assert sealed.startswith("sha256:") and len(sealed) == 7 + 64
    assert commitment(PLACED, SALT.replace("0", "1")) != sealed
    assert commitment({**PLACED, "devout": "eagle", "dutiful": "bear"}, SALT) != sealed


def sealed_game():
    store = open_store("memory:")
    recording.new(store, "g", ["raven", "spider", "rat"])
    seats.seal(store, "g", "raven", commitment(PLACED, SALT))
    return store


def play_to_the_reveal(store, seed: int) -> None:
    """Random legal moves (the engine's own prompt) until raven's reveal is due; raven passes its swaps, or swaps
    naming the empires its sealed set really holds there (the table sees them turned face up)."""
    from whispers.ledger.io.game import load

    rng = random.Random(seed)
    now = dict(PLACED)
    while True:
        state = load(store, "g").state
        if state.over or (state.phase == "reveal" and state.loyalty["raven"].tokens is None):
            return
        command = random_command(state, rng, cards=False)
        if isinstance(command, c.Reveal) and command.society == "raven":  # offered past a closing card window
            return
        if isinstance(command, c.SwapLoyalty) and command.society == "raven":
            a, b = command.slots
            command = c.SwapLoyalty("raven", (a, b), {a: now[b], b: now[a]})
            now[a], now[b] = now[b], now[a]
        recording.record_move(store, "g", command)


@pytest.mark.parametrize("seed", range(3))
def test_a_sealed_set_is_revealed_from_its_seat_and_verify_checks_the_match(seed: int) -> None:
    """EN "Final Scoring": "Reveal all loyalty tokens and score them"; whispers: a set sealed at its seat is
    revealed with its salt and must match its commitment."""
    store = sealed_game()
    play_to_the_reveal(store, seed)
    from whispers.ledger.io.game import load

    state = load(store, "g").state
    assert state.loyalty["raven"].tokens is None and state.loyalty["raven"].commitment is not None
    for viewer in (None, "spider", SPECTATOR_NAME):  # the record itself holds no tokens of raven's
        assert state_view(state, viewer)["loyalty"]["raven"]["tokens"] is None
    with pytest.raises(RuleError):
        seats.reveal(store, "g", "raven", {**PLACED, "devout": "eagle", "dutiful": "bear"}, SALT)
    with pytest.raises(RuleError) as wrong:  # the right tokens, another salt
        seats.reveal(store, "g", "raven", PLACED, "1f" * 16)
    assert wrong.value.rule == RULE
    now = dict(PLACED)
    for a, b in state.loyalty["raven"].swapped:
        now[a], now[b] = now[b], now[a]
    typed = "raven reveal " + " ".join(f"{k}={v}" for k, v in now.items())
    with pytest.raises(RuleError) as saltless:  # the table typing the reveal without the salt
        recording.record_line(store, "g", typed)
    assert "salt" in saltless.value.reason and saltless.value.rule == RULE
    if seed % 2:  # the player reads the salt out (it was shown once to be written down) and the table types it
        recording.record_line(store, "g", f"{typed} salt={SALT}")
    else:
        done = seats.reveal(store, "g", "raven", PLACED, SALT)
        assert f"salt={SALT}" in done.move
    state = load(store, "g").state
    held = state.loyalty["raven"]
    assert held.at_setup(held.tokens) == PLACED
    assert files.verify(store, "g").events == state.version


def test_nobody_else_changes_a_sealed_set() -> None:
    """whispers: the scorekeeper cannot record a set over it, nor take it back to record another."""
    store = sealed_game()
    with pytest.raises(RuleError, match="recorded already"):
        recording.record_line(store, "g", "raven loyalty " + " ".join(f"{k}={v}" for k, v in PLACED.items()))
    with pytest.raises(RuleError) as undo:
        recording.record_line(store, "g", 'undo "let me fix it"')
    assert undo.value.rule == RULE
    with pytest.raises(RuleError):
        seats.seal(store, "g", "spider", "sha256:" + "z" * 64)  # malformed
    with pytest.raises(RuleError):
        seats.seal(store, "g", "raven", commitment(PLACED, SALT))  # a second set


def test_the_commitment_round_trips_through_the_notation() -> None:
    sealed = ev.LoyaltyCommitted("raven", commitment(PLACED, SALT))
    line = format_event(sealed)
    assert line == f"raven loyalty sealed {sealed.commitment}"
    assert parse_line(line) == c.RecordLoyalty("raven", None, sealed.commitment)
    revealed = ev.LoyaltyRevealed("raven", PLACED, SALT)
    assert parse_line(format_event(revealed)) == c.Reveal("raven", PLACED, SALT)
    old = ev.from_fact({"type": "LoyaltyRevealed", "society": "raven", "tokens": PLACED})  # version 1
    assert old == ev.LoyaltyRevealed("raven", PLACED, None)


def test_verify_refuses_a_reveal_forged_into_the_store() -> None:
    """A record whose reveal does not match its commitment (written past the rules) fails `verify`."""
    store = sealed_game()
    play_to_the_reveal(store, 0)
    facts = store.facts("g")
    forged = {**PLACED, "devout": "eagle", "dutiful": "bear"}
    from whispers.ledger.io.game import load

    held = load(store, "g").state.loyalty["raven"]
    now = dict(forged)
    for a, b in held.swapped:
        now[a], now[b] = now[b], now[a]
    bad = open_store("memory:")
    bad.create("g", [*facts, ev.LoyaltyRevealed("raven", now, SALT).to_fact()])
    with pytest.raises(VerifyError):
        files.verify(bad, "g")



CODE = "7KQ2M9XD0AB1CEFGHJ4N5P6RST"  # 26 characters of Crockford's base32, as the seat's page makes them


def test_the_code_to_write_down_is_26_base32_characters_read_back_in_any_case_and_with_confusables() -> None:
    """whispers (issue 32): the code is short and easy to read aloud at no less strength (130 bits, >= 128): 26
    base32 characters in groups of four; the reveal reads it in lower case, in groups, with O for 0 and I or L
    for 1, and records it in the one spelling that was hashed."""
    assert good_salt(CODE) and group(CODE) == "7KQ2-M9XD-0AB1-CEFG-HJ4N-5P6R-ST"
    for weak in (CODE[:25], SALT[:31], CODE + "Z", CODE.lower(), "U" + CODE[1:]):  # short, long, unread, no U
        assert not good_salt(weak)
    typed = group(CODE).lower().replace("0", "o").replace("1", "l").replace("-", " ", 2)
    assert typed != CODE and read_code(typed) == CODE
    assert read_code(SALT.upper()) == SALT and read_code("7KQ2-M9XD") == "7KQ2-M9XD"  # too short: refused as typed
    store = open_store("memory:")
    recording.new(store, "g", ["raven", "spider", "rat"])
    seats.seal(store, "g", "raven", commitment(PLACED, CODE))
    play_to_the_reveal(store, 1)
    from whispers.ledger.io.game import load

    with pytest.raises(RuleError) as short:
        seats.reveal(store, "g", "raven", PLACED, CODE[:-1])
    assert "26 characters" in short.value.reason
    done = seats.reveal(store, "g", "raven", PLACED, typed)
    assert f"salt={CODE}" in done.move and load(store, "g").state.loyalty["raven"].tokens is not None
    assert files.verify(store, "g").events == load(store, "g").state.version


def test_an_older_hexadecimal_code_is_still_read_at_the_reveal() -> None:
    """Records sealed before the base32 code hold a hexadecimal salt: it is still accepted, in either case."""
    store = sealed_game()  # sealed with SALT, 32 hexadecimal digits
    play_to_the_reveal(store, 2)
    done = seats.reveal(store, "g", "raven", PLACED, SALT.upper())
    assert f"salt={SALT}" in done.move
    assert files.verify(store, "g").events > 0
