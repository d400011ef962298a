"""The closed vocabularies of the game: societies, offices, loyalty slots and council orders."""

from typing import Final

SOCIETIES: Final = ("raven", "spider", "rat", "serpent")
"""The four secret societies, in the order the rulebooks introduce them (seating is chosen per game)."""

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = len(SOCIETIES)
"""EN "Overview": 2 to 4 players, one society each."""

OFFICES: Final = ("sheriff", "steward", "marshal", "chancellor")
"""Council positions in the order they act (EN "Empire Turns Phase")."""

SLOTS: Final = ("devout", "dutiful", "affiliated", "unallied", "opposed")
MULTIPLIER: Final = {"devout": 4, "dutiful": 3, "affiliated": 2, "unallied": 0, "opposed": -1}
"""Loyalty slots and their multipliers (EN "Loyalty Tokens and Scoring")."""

RECRUIT_ORDERS: Final = ("recruit_2", "recruit_per_farm", "recruit_per_fort", "recruit_2_per_fort")
DRAW_ORDERS: Final = ("draw_1", "draw_per_2_farms", "draw_per_3_farms", "draw_per_2_forts", "draw_per_3_forts")
ORDERS: Final = (*RECRUIT_ORDERS, *DRAW_ORDERS, "attack", "swap_agent")
"""The order vocabulary printed on the council icons (DESIGN.md)."""
MOVE_VERBS: Final = ("loyalty", "retrieve", "deploy", "recruit", "draw", "attack", "swap-agent", "play", "discard",
                     "no-card", "swap-loyalty", "pass", "reveal", "undo", "ruling", "check", "finalize", "reopen")
"""The notation's verbs (ledger/core/notation.py): each has a word per language (the glossary's kind "verb")."""

ROUNDS: Final = 4
"""EN "Mark the Turn": the game ends after the fourth round."""
AGENTS_PER_SOCIETY: Final = 9
BANNERS_PER_EMPIRE: Final = 20
CARDS_PER_DECK: Final = 8
ABILITIES_PER_CARD: Final = 2
"""A card's abilities, numbered 1 and 2 in printed order: the first costs the card alone, the second more (EN 382,
"the first ability on each card can be played without discarding additional cards"); Treasure has one."""
