"""Words for counts in messages. One function, so that a later translation (gettext's ngettext) replaces it
in one place."""


def plural(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and `noun`, the noun agreeing with the number: "1 card", "2 cards", "0 bear banners".

    `noun` may carry words before the counted one ("bear banner"); `plural` gives an irregular plural whole.
    """
    if n == 1:
        return f"{n} {noun}"
    if plural is None:
        plural = f"{noun[:-1]}ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else f"{noun}s"
    return f"{n} {plural}"
