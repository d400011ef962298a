"""Write the preset dictionary the store compresses each stored event's state with (ledger/io/state-dictionary-N.zdict).

A stored event's msgpack state is about 120 bytes, mostly its field names and the names of empires, societies and
regions that every game repeats; deflate alone cannot shrink so little, but deflate with a preset dictionary of
such states (RFC 1950's FDICT, zlib's `zdict`) stores it in about 22. This writes the dictionary: the
distinct states of random games (every shipped ruleset, two to four players, named draws and decree cards, some
take-backs), each with one fixed timestamp. Each kind of event gives examples in proportion to its frequency to the
power `SPREAD` (an attack, whose every state is another, still gets some), its most frequent example last, and the
most frequent kinds come last (deflate codes near matches shortest); the whole is cut to its last `SIZE` bytes.

A dictionary is part of the stored format: rows compressed with dictionary N are read with its exact bytes
forever, so this never overwrites one. A better dictionary is written as N+1 beside the others, added to
ledger/io/transcoder.py's table with its sha256, and made the one new rows use.

    .venv/bin/python tools/state_dictionary.py N
"""

from __future__ import annotations

import hashlib
import math
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZE = 16 * 1024
SPREAD = 0.3
GAMES = 36
STAMP = datetime(2026, 11, 1, tzinfo=UTC)


def states() -> dict[str, Counter[bytes]]:
    """Each kind of event's distinct states, counted."""
    sys.path.insert(0, str(ROOT))
    from whispers.ledger.core import randomgame
    from whispers.ledger.core.names import SOCIETIES
    from whispers.ledger.io.board_files import load_board
    from whispers.ledger.io.decree_files import shipped_catalogue
    from whispers.ledger.io.ruleset_files import load_ruleset
    from whispers.ledger.io.transcoder import MsgpackTranscoder

    encode = MsgpackTranscoder().encode_plain
    catalogue = shipped_catalogue()
    seen: dict[str, Counter[bytes]] = {}
    for seed in range(GAMES):
        ruleset = load_ruleset(("official", "advanced", "revised")[seed % 3])
        players = SOCIETIES[: 2 + seed % 3]
        for _, events, _ in randomgame.play(players, ruleset, load_board("standin"), 10_000 + seed, name=f"g{seed}",
                                            undo_rate=0.02 * (seed % 2), named=seed % 4 < 2,
                                            catalogue=catalogue if seed % 3 == 2 else None):
            for event in events:
                kind = type(event).__name__
                if kind != "GameStarted":  # stored once per game, its board and ruleset apart
                    seen.setdefault(kind, Counter())[encode({"timestamp": STAMP, "fact": event.to_fact()})] += 1
    return seen


def dictionary() -> bytes:
    chosen: list[bytes] = []
    kinds = states()
    for kind in sorted(kinds, key=lambda kind: (kinds[kind].total(), kind)):
        examples = sorted(kinds[kind].items(), key=lambda item: (-item[1], item[0]))
        chosen += reversed([state for state, _ in examples[: math.ceil(kinds[kind].total() ** SPREAD)]])
    return b"".join(chosen)[-SIZE:]


def main() -> int:
    if len(sys.argv) != 2 or not sys.argv[1].isdigit():
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    target = ROOT / "ledger" / "io" / f"state-dictionary-{int(sys.argv[1])}.zdict"
    if target.exists():
        print(f"{target.name} exists: a dictionary is never rewritten (rows were compressed with it)", file=sys.stderr)
        return 2
    data = dictionary()
    target.write_bytes(data)
    print(f"{target.relative_to(ROOT)}: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
