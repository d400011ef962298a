"""The application layer: one function per use case, shared by every face (the CLI and the web).

Each use case takes plain arguments (a store URL or an open Store, a game name, a viewer: a society's name,
or None for the all-seeing record) and returns a frozen dataclass whose `to_json()` is its one stable JSON
form (what `--json` prints). Nothing here parses command lines, prints, or knows click or rich.

    recording.py   new, record a move (record_move, or record_line from notation), record a batch, all or
                   nothing (record_batch),
                   the next move (next_move), reading a notation line (parse_move)
    reading.py     status, log, score, games
    review.py      replay, stats, fork, diff, annotate, notes
    files.py       import (import_file), export (export_record, write_export), verify
    tournament.py  standings, tournament standings, pairing a round (and starting its games)
    ratings.py     ratings across every finished game (openskill), seat and society effects, one person's history
    board.py       the public board for the hall; cards.py seat cards to print; publish.py the static archive
    seats.py       what a player does from its own seat: seal its loyalty (a commitment only), reveal it
    director.py    the director's screen: every game with its state and last event time, tournament standings
    sharing.py     capability links (share, access), following.py: live updates and a replay's rounds
    stores.py      opening a store from a URL (or using one already open)
    table.py       the table facts (who played, where, when), archiving and renaming, each person's record
    labels.py      move labels: what `--at` names, and each move's label
    boards.py      transcribing the printed board: the template, a board checked, counted and pinned, the empty
                   board drawn; decrees.py the decree catalogue, and a card sheet checked
    pictures.py    the timeline and the board map as DOT or rendered (svg.py: as SVG for the web pages)
    charts.py      a game's course as series, and win rates across games
    collector.py   the garbage collector paused while a large result is built

Errors are the ledger's typed errors (ledger.errors.WhispersError and its kin), raised unchanged; each face maps
them to its own form. In particular "the game moved on" (another recorder appended since this one read the
game) is always `ledger.errors.GameMovedOn`:
    CLI  -> one line on stderr, exit status 2 (the guided recorder says so and reloads the game)
    web  -> HTTP 409 Conflict
Any other WhispersError is a refusal: CLI one line and exit 2; web (web/app.py) 404 for UnknownGame (a page and the
API alike) and NoSuchEvent, 422 for a rule's refusal (RuleError, with the rule cited) and any other refusal through
the API, 400 for a malformed request or a page's refusal, 503 when the store fails.
"""
