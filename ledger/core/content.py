"""The content hash that pins a board, a ruleset, a decree catalogue or a card sheet (ledger.pins), on its own so
that the events (which hash an old record's ruleset as they read it) need nothing else of the pins."""

import json
from collections.abc import Mapping

from whispers.ledger.core.digests import sha256


def content_hash(data: Mapping[str, object]) -> str:
    """"sha256:" and the hex digest of the canonical JSON of `data` (sorted keys, no spaces): how a board and a
    ruleset are pinned. Comments, layout and the order of tables and keys in a file do not change it."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return "sha256:" + str(sha256(canonical.encode("utf-8")).hexdigest())
