"""Random legal games with card plays, each verified from its record (issue 33): N games per ruleset, the engine's own
legal-move function choosing every move (ledger.randomgame, with the decree catalogue: now and then a play of an
effect the engine adjudicates), each record then re-adjudicated move by move by `verify`. Prints, per ruleset, the
games played and verified, the card plays and the effects played, and the CPU time.

    python benchmarks/random_decrees.py [--games 1000] [--ruleset official --ruleset revised ...]

tests/test_property.py runs a few of the same games per ruleset (`test_random_games_with_card_plays_verify`)."""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from whispers.ledger.core import events as ev
from whispers.ledger.core import randomgame
from whispers.ledger.core.names import SOCIETIES
from whispers.ledger.io.board_files import load_board
from whispers.ledger.io.decree_files import shipped_catalogue
from whispers.ledger.io.ruleset_files import load_ruleset
from whispers.ledger.io.verify import verify


def verified_game(ruleset_id: str, seed: int) -> Counter[str]:
    """Play game `seed` under the ruleset, verify its record, and count the effects its card plays named."""
    players = SOCIETIES[: 2 + seed % 3]
    facts = []
    for _command, produced, _state in randomgame.play(players, load_ruleset(ruleset_id), load_board("standin"), seed,
                                                      name=f"g{seed}", named=seed % 2 == 0,
                                                      catalogue=shipped_catalogue()):
        facts += [event.to_fact() for event in produced]
    checked = verify(facts, f"{ruleset_id} game {seed}")
    assert checked.events == len(facts), (ruleset_id, seed)
    return Counter(e["effect"] or "(primitive)" for e in facts if e["type"] == ev.CardPlayed.__name__)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--ruleset", action="append", default=None)
    args = parser.parse_args()
    for ruleset_id in args.ruleset or ["official", "advanced", "revised"]:
        start = time.process_time()
        plays: Counter[str] = Counter()
        for seed in range(args.games):
            plays += verified_game(ruleset_id, seed)
        cpu = time.process_time() - start
        effects = sorted(e for e in plays if e != "(primitive)")
        print(f"{ruleset_id}: {args.games} games played and verified, {sum(plays.values())} card plays "
              f"({len(effects)} adjudicated effects: {', '.join(effects)}), {cpu:.1f} s CPU")


if __name__ == "__main__":
    main()
