"""How many random games and property examples a test runs: a quick size by default (`bash .ci/run` stays within a
few minutes of CPU), the long one with `pytest --slow` or WHISPERS_SLOW=1 (the nightly run). Only the number of
cases changes: every assertion runs at both sizes."""

import os


def slow() -> bool:
    return os.environ.get("WHISPERS_SLOW") == "1"


def sized(quick: int, long: int) -> int:
    """`quick` in the default run, `long` in the slow one."""
    return long if slow() else quick
