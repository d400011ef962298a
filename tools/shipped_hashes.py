"""Write fixtures/shipped-hashes.json: each shipped ruleset's and board's content hash beside the sha256 of its
file's bytes, the shortcut ledger/io/shipped.py takes while a file still has those bytes (else it parses the file).
`--check` exits 1 when the file is not what this would write (tests/test_pins.py asks the same).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def known() -> str:
    sys.path.insert(0, str(ROOT))
    from whispers.ledger.io.board_files import shipped_boards
    from whispers.ledger.io.ruleset_files import shipped_rulesets
    from whispers.ledger.io.shipped import file_digest, parsed_hash

    entries = {}
    for kind, folder, idents in (("board", "boards", shipped_boards()), ("ruleset", "rulesets", shipped_rulesets())):
        for ident in idents:
            data = (ROOT / "fixtures" / folder / f"{ident}.toml").read_bytes()
            entries[f"{kind}/{ident}"] = [file_digest(data), parsed_hash(kind, ident)]
    return json.dumps(entries, indent=2, sort_keys=True) + "\n"


def main() -> int:
    target = ROOT / "fixtures" / "shipped-hashes.json"
    text = known()
    if "--check" in sys.argv[1:]:
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            print(f"{target} is stale: run python tools/shipped_hashes.py", file=sys.stderr)
            return 1
        return 0
    target.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
