"""The game state: an immutable value folded from the events, and the questions the rules ask of it.

Mappings in a state are never mutated once built; `evolve` builds new ones. Board and ruleset are the
ones pinned by the game's first event.
"""

from collections.abc import Iterable, Mapping
from typing import NamedTuple, Optional

import msgspec

from whispers.ledger.core.board import Board
from whispers.ledger.core.events import Attacked
from whispers.ledger.core.kept import Kept
from whispers.ledger.core.names import AGENTS_PER_SOCIETY, CARDS_PER_DECK, MIN_PLAYERS, OFFICES, SLOTS
from whispers.ledger.core.plain import SheetData
from whispers.ledger.core.ruleset import Ruleset

Position = tuple[str, str]
"""A council position: (empire, office)."""

SUPPLY_DUE = len(OFFICES)
"""`GameState.office_index` once every office has acted: the council is done, the supply check is due."""
TURN_DONE = SUPPLY_DUE + 1
"""`GameState.office_index` once the supply check is recorded: the empire's turn is over."""


def position_name(position: Position) -> str:
    return f"{position[0]}.{position[1]}"


class Loyalty(msgspec.Struct, frozen=True):
    """One society's loyalty tokens. `tokens` is None while a sealed set is unrevealed; `revealed` holds
    the slots turned face up by swaps (public), with the empire now in each."""

    tokens: Mapping[str, str] | None
    revealed: Mapping[str, str]
    swaps: int = 0
    swapped: tuple[tuple[str, str], ...] = ()
    """The pairs of slots swapped, in order (to tell the set as it was placed at setup)."""
    commitment: str | None = None
    """A set sealed by its player (LoyaltyCommitted): the salted hash its reveal must match (ledger/core/sealing.py)."""

    def at_setup(self, tokens: Mapping[str, str]) -> dict[str, str]:
        """`tokens` (this set now) with its swaps undone: the set as it was placed at setup."""
        placed = dict(tokens)
        for a, b in reversed(self.swapped):
            placed[a], placed[b] = placed[b], placed[a]
        return placed

    @property
    def concealed(self) -> int:
        return len(SLOTS) - len(self.revealed)


class Hand(msgspec.Struct, frozen=True):
    """A hand: how many cards of each empire (public) and which cards, where the record knows them."""

    counts: Mapping[str, int]
    known: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return sum(self.counts.values())

    def unknown(self, empire: str) -> int:
        return self.counts.get(empire, 0) - sum(1 for card in self.known if card_empire(card) == empire)

    def without(self, cards: Iterable[str]) -> "Hand":
        """This hand once the cards leave it (played, paid or discarded): each counts one card of its empire down,
        and a card the record knows is known no more."""
        counts = dict(self.counts)
        known = list(self.known)
        for card in cards:
            counts[card_empire(card)] -= 1
            if card in known:
                known.remove(card)
        return Hand({e: n for e, n in counts.items() if n}, tuple(known))


class Deck(msgspec.Struct, frozen=True):
    draw: int
    discard: int = 0


REACHES: tuple[str, ...] = ("land", "sea", "any")
"""How far an attack reaches, nearest first: a land border (EN 310), the coasts of one sea, anywhere."""


class Route(msgspec.Struct, frozen=True):
    """How the cards played with the attack to come bind it (ledger.decree_effects): from `source` and at `target`
    where named, and how far it reaches: across a land border (EN 310), along the coasts of one sea, or anywhere;
    `empty`: the target must hold no banner. `open = False` when two cards bind it to different regions."""

    source: str | None = None
    target: str | None = None
    reach: str = "land"
    empty: bool = False
    open: bool = True


class Pending(msgspec.Struct, frozen=True):
    """An order owed out of sequence: after a swap-agent order, or a card lending another position."""

    society: str
    positions: tuple[Position, ...]
    ends_council: bool
    resume: int | None = None
    """Where the sequence resumes once the order is given (Midnight Oil after an order); None: one step on."""
    order: str | None = None
    """The one order owed (Midnight Oil: "the current order is carried out once more"); None: any of the position's."""


class GameState(msgspec.Struct, frozen=True, weakref=True):
    """A game as it stands after some events: built by `evolve` from the record, never changed once built.

    A msgspec Struct, not a dataclass: its class is made in C (a frozen dataclass of these fields compiled its
    methods at every command's start, 3 ms), and it copies in one call (`copy_state`). Weak references: the
    snapshots' record of states read without their earlier ones (ledger/io/snapshots.py)."""

    name: str
    board: Board
    ruleset: Ruleset
    players: tuple[str, ...]
    first: str
    round: int = 1
    phase: str = "setup"
    step: int = 0
    """Progress in a turn-ordered phase: retrievals, placements or swap turns taken so far."""
    loyalty: Mapping[str, Loyalty] = msgspec.field(default_factory=dict)
    council: Mapping[Position, str] = msgspec.field(default_factory=dict)
    field_agents: frozenset[tuple[str, str]] = frozenset()
    """(society, region) pairs."""
    banners: Mapping[str, tuple[str, int]] = msgspec.field(default_factory=dict)
    """region -> (empire, count); a region with no banners is absent."""
    reserve: Mapping[str, int] = msgspec.field(default_factory=dict)
    hands: Mapping[str, Hand] = msgspec.field(default_factory=dict)
    decks: Mapping[str, Deck] = msgspec.field(default_factory=dict)
    empire_index: int = 0
    office_index: int = 0
    """The active office's index in OFFICES; then SUPPLY_DUE, then TURN_DONE."""
    pending: Pending | None = None
    last_actor: str | None = None
    """Who took the last order, for the card window "immediately after" (and type-I decrees when drawn)."""
    last_was_draw: bool = False
    drawn: tuple[str, tuple[str, ...], int] = ("", (), 0)
    """The last draw: (its empire, the cards the record names, how many were drawn), for an instant decree
    "played ... as it is drawn" (REV 296): it must be one of them."""
    lasting: tuple[str, ...] = ()
    """Decree effects lasting to the end of the turn (Bountiful Harvest: REV 353, 355), read as the year or as the
    empire's turn (the ruleset's `lasting`, digest §8 item 37; a play recorded before that knob: the year)."""
    beside: tuple[tuple[str, str, str], ...] = ()
    """(card, effect, "year" or "turn"): a decree put "next to the board for the duration of the turn" (REV 353,
    355: Trade, Hoard), in no hand and no deck until then, so no reshuffle draws it back."""
    oil: bool = False
    """Midnight Oil was played during the order to come: it is carried out once more (REV 401)."""
    last_order: tuple[str, str, str, bool, bool] | None = None
    """The last order given: (empire, office, order, it ended the council, it was a Midnight Oil repeat)."""
    attack_cards: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    """Decree effects played with the attack to come, with their parameters and what their plays decided: the next
    attack order carries them (issue 11)."""
    attack_route: Route | None = None
    """How those cards bind the attack to come (its source, target and reach), read by the legal moves."""
    doubled: tuple[str, ...] = ()
    """The icons counted twice for an action while an effect lasts (REV 353), read by the legal moves."""
    last_attack: Attacked | None = None
    """The attack just resolved, while the card window after it is open (an official `after` play of an attack card
    changes it, EN 380); None once another order is given or a card is played after it."""
    counter_clockwise: bool = False
    """Succession Crisis (REV 419): the rest of this council runs counter-clockwise."""
    supply_owed: tuple[str, ...] = ()
    """The empires whose supply checks Hoard suspended: a check is made for them before the next round (REV 355)."""
    card_sets: tuple[str, ...] = ("base", "dark-alliances")
    """The card sets the game named at its start (GameStarted.card_sets)."""
    cards: SheetData | None = None
    """The card sheet the game pinned, as its first event embeds it (ledger.decrees.CardSheet.to_data); None: none."""
    scored: bool = False
    finalised: str | None = None
    """Who sealed the finished game (GameFinalized), until it is reopened; None while it is open."""
    version: int = 0
    """How many events of the record are folded in (take-backs included)."""
    moves: tuple[int, ...] = ()
    """(event index, 1-based, at which the last move still standing began,) for a take-back; empty before
    the first move. The moves before it are in `prior`'s own `moves`."""
    prior: Optional["GameState"] = None
    """The state before the last move still standing."""
    move_number: int = 0
    """How many moves stand (a take-back returns to the count before it): the last one's `mN` label."""
    move_place: str | None = None
    """Where the last move standing was played (ledger/core/numbering.py): `2.bear.marshal`, `R2 deploy 3`."""
    placed: Mapping[str, int] = msgspec.field(default_factory=dict)
    """This round's counts of moves by verb and by place, for the next move's place (ledger/core/numbering.py)."""

    # --- the map ---------------------------------------------------------------------------------

    def controller(self, region: str) -> str:
        """EN "Empire Control": the empire with banners there, else the region's home empire."""
        held = self.banners.get(region)
        return held[0] if held else self.board.regions[region].home

    def banners_in(self, region: str) -> int:
        held = self.banners.get(region)
        return held[1] if held else 0

    def controlled(self, empire: str) -> tuple[str, ...]:
        return control(self.board, self.banners).regions.get(empire, ())

    def cities(self, empire: str) -> int:
        return sum(self.board.regions[r].cities for r in self.controlled(empire))

    def icons(self, empire: str, icon: str) -> int:
        """How many regions the empire controls bear `icon` (`farm` or `fort`)."""
        held = control(self.board, self.banners)
        return {"farm": held.farms, "fort": held.forts}[icon].get(empire, 0)

    def on_board(self, empire: str) -> int:
        return sum(n for e, n in self.banners.values() if e == empire)

    def supply_limit(self, region: str) -> int:
        return self.ruleset.farm_limit if self.board.regions[region].farm else self.ruleset.supply_limit

    # --- agents ----------------------------------------------------------------------------------

    def agents_out(self, society: str) -> tuple[str, ...]:
        """Where the society's agents are: council positions first, then regions."""
        council = [position_name(p) for p, s in self.council.items() if s == society]
        return (*council, *self.field_regions(society))

    def field_regions(self, society: str) -> tuple[str, ...]:
        """The regions where the society has a field agent (EN "Advanced Rules")."""
        return tuple(r for s, r in sorted(self.field_agents) if s == society)

    def agents_in_hand(self, society: str) -> int:
        return AGENTS_PER_SOCIETY - len(self.agents_out(society))

    def office_controller(self, empire: str, office_index: int) -> str | None:
        """EN "Empire Turns Phase": the agent on the position, else the next agent towards the chancellor."""
        for index in range(office_index, len(OFFICES)):
            society = self.council.get((empire, OFFICES[index]))
            if society is not None:
                return society
        return None

    def active_agent(self, empire: str, office_index: int) -> Position | None:
        for index in range(office_index, len(OFFICES)):
            if (empire, OFFICES[index]) in self.council:
                return (empire, OFFICES[index])
        return None

    def card_numbers(self, empire: str) -> tuple[int, ...]:
        """The numbers of `empire`'s cards in this game: those of its card sheet in the sets the game plays, or 1 to
        8 without a sheet (EN 103-104; how many Dark alliances cards a deck holds only a sheet says)."""
        return deck_numbers(self.cards, self.card_sets, empire)

    def excess_cards(self, society: str) -> int:
        """How many cards the society must discard at cleanup (EN "5-Card Limit": the ruleset's hand limit)."""
        return max(0, self.hands[society].size - self.ruleset.hand_limit)

    # --- turn ------------------------------------------------------------------------------------

    @property
    def empire(self) -> str:
        return self.board.empires[self.empire_index]

    @property
    def office(self) -> str | None:
        return OFFICES[self.office_index] if self.office_index < len(OFFICES) else None

    def seat_order(self) -> tuple[str, ...]:
        """Players clockwise from the first player."""
        start = self.players.index(self.first)
        return self.players[start:] + self.players[:start]

    def per_round(self) -> int:
        return self.ruleset.per_round_two_players if len(self.players) == MIN_PLAYERS else self.ruleset.per_round

    @property
    def over(self) -> bool:
        return self.phase == "over"


class Control(NamedTuple):
    """Who holds what on one map (EN "Empire Control"), by empire: its regions in the board's order, their cities,
    its banners on the board, and how many of its regions bear a farm, a fort."""

    regions: dict[str, tuple[str, ...]]
    cities: dict[str, int]
    banners: dict[str, int]
    farms: dict[str, int]
    forts: dict[str, int]


CONTROL_KEPT = 16
_CONTROL: Kept[Mapping[str, tuple[str, int]], tuple[Board, Control]] = Kept(CONTROL_KEPT)
"""The control of the last few maps, by their banners mapping (a state's is never changed once built): the rules ask
`controlled` more than anything else, of a handful of maps at a time (a move's candidates in a playout)."""


def control(board: Board, banners: Mapping[str, tuple[str, int]]) -> Control:
    """Each empire's controlled regions, their cities and its banners on the board, on this map: kept for the last
    few maps, and a new map's derived from the last one kept when they differ in a few regions (a move changes a
    handful), else counted over the whole board (`counted_control`)."""
    kept = _CONTROL.get(banners)
    if kept is not None and kept[0] is board:
        return kept[1]
    found = None
    last = _CONTROL.last()
    if last is not None and last[1][0] is board:
        found = _derived(board, last[0], last[1][1], banners)
    if found is None:
        found = counted_control(board, banners)
    _CONTROL.keep(banners, (board, found))
    return found


DERIVED_MOST = 4
"""A map differing from the last one kept in more regions than this is counted afresh."""


def _derived(board: Board, old: Mapping[str, tuple[str, int]], held: Control, banners: Mapping[str, tuple[str, int]]
             ) -> Control | None:
    """The control of `banners` from `held`, that of the map `old`, changed where the two maps differ; None when
    they differ in more than DERIVED_MOST regions."""
    changed = {region for region, _ in old.items() ^ banners.items()}
    if len(changed) > DERIVED_MOST:
        return None
    on_board = dict(held.banners)
    moved = []
    for name in changed:
        home = board.regions[name].home
        before, now = old.get(name), banners.get(name)
        if before:
            on_board[before[0]] -= before[1]
        if now:
            on_board[now[0]] += now[1]
        was, holder = before[0] if before else home, now[0] if now else home
        if was != holder:
            moved.append((name, was, holder))
    if not moved:
        return Control(held.regions, held.cities, on_board, held.farms, held.forts)
    regions = dict(held.regions)
    cities, farms, forts = dict(held.cities), dict(held.farms), dict(held.forts)
    for name, was, holder in moved:
        region = board.regions[name]
        cities[was] -= region.cities
        cities[holder] += region.cities
        farms[was] -= region.farm
        farms[holder] += region.farm
        forts[was] -= region.fort
        forts[holder] += region.fort
        lost = tuple(r for r in regions[was] if r != name)
        if lost:
            regions[was] = lost
        else:
            del regions[was]
        regions[holder] = tuple(sorted((*regions.get(holder, ()), name), key=board.region_order.__getitem__))
    return Control(regions, cities, on_board, farms, forts)


def counted_control(board: Board, banners: Mapping[str, tuple[str, int]]) -> Control:
    """`control` counted over the whole board."""
    regions: dict[str, list[str]] = {empire: [] for empire in board.empires}
    cities = dict.fromkeys(board.empires, 0)
    on_board = dict.fromkeys(board.empires, 0)
    farms = dict.fromkeys(board.empires, 0)
    forts = dict.fromkeys(board.empires, 0)
    for name, region in board.regions.items():
        held = banners.get(name)
        if held:
            empire = held[0]
            on_board[empire] += held[1]
        else:
            empire = region.home
        regions[empire].append(name)
        cities[empire] += region.cities
        farms[empire] += region.farm
        forts[empire] += region.fort
    return Control({empire: tuple(names) for empire, names in regions.items() if names}, cities, on_board, farms,
                   forts)


def deck_numbers(cards: SheetData | None, card_sets: Iterable[str], empire: str) -> tuple[int, ...]:
    """The card numbers of `empire`'s deck: a card sheet's (its embedded data) in `card_sets`, or 1 to 8."""
    if cards is None:
        return tuple(range(1, CARDS_PER_DECK + 1))
    sets = set(card_sets)
    deck = cards["decks"].get(empire) or {}
    return tuple(sorted(int(n) for n, card in deck.items() if card.get("set", "base") in sets))


def card_empire(card: str) -> str:
    """`bear:3` -> `bear`; a bare empire stands for a card the record does not name."""
    return card.split(":", 1)[0]


def replace(state: GameState, **changes: object) -> GameState:
    """The state with `changes` (`dataclasses.replace` for the game state)."""
    return msgspec.structs.replace(state, **changes)


def copy_state(state: GameState) -> GameState:
    """A shallow copy of the state, for the fold to change in place before anyone else sees it (ledger/core/evolve.py,
    with `msgspec.structs.force_setattr`)."""
    return state.__copy__()  # type: ignore[attr-defined,no-any-return]  # msgspec's Struct has it; its stub does not
