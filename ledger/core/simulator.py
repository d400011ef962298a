"""A fast simulator of the game without cards, for the analysis's playouts (issue 34), proven equal to the engine.

The rules engine (`rules.decided`, `evolve`, `flow`, `prompt`) builds an immutable `GameState` and a record of events
for every move: about 400 Python calls a move. A playout needs neither the record nor the immutability, so this
module plays the same game on a mutable, compact state: small integers for regions (the board's order), empires (the
turn order), societies (the seating) and council positions (`empire * 4 + office`), and lists and dicts indexed by
them. It is a second implementation of the rules it covers, so it is tested against the engine move for move
(tests/test_simulator.py): at every position inside its domain of random games of each ruleset, the same legal moves
(`options` is `rules.prompt(state, noted=False).options` without the card plays), the same random move for the same
generator (`random_move` draws as `randomgame.random_command(state, rng, cards=False)` does), and the same state
after it (`to_state`); and playouts with and without it give the same outcomes.

Its domain (`Simulator.load` gives None outside it), a position the engine waits at:
- past the setup (in the deploy, retrieve, empire turns, cleanup, swap or final reveal phase), every society's
  tokens recorded, or sealed without a commitment (a committed set's reveal needs the salt only its seat keeps; a
  sealed set is revealed at random, as the random games reveal it, and a playout samples every set first anyway,
  projections/analysis.py);
- with no card effect lasting or pending: nothing beside the board or lasting (REV 353, 355), no supply check
  suspended, no attack card played with the attack to come, no Midnight Oil or Succession Crisis, no order owed out
  of sequence but one of a position just acquired (an agent swap's, or a card's `act=`), no Dark alliances decree
  owed (REV 290); the game not finalised.
Within it the societies play no cards (rollout.py), so it stays within it: the card window after an empire's last
order (EN "Playing Cards") is offered as the engine offers it, with its `no-card` and the moves past it. Cards are
still drawn (unnamed, as a playout's draws are) and discarded at cleanup, so hands and decks are counted.

Moves are plain tuples, equal exactly when the commands they stand for are (the greedy policy compares them):
(verb, society, ...) with the verbs of the prompt's options; `to_command` gives the engine's command.
"""

import random
from typing import Any

import msgspec

from whispers.ledger.core import commands as c
from whispers.ledger.core import events as ev
from whispers.ledger.core.card_checks import owed_instants
from whispers.ledger.core.errors import RuleError
from whispers.ledger.core.legal import Option, draw_numbers, instant_may_be_drawn, recruit_numbers
from whispers.ledger.core.names import (
    AGENTS_PER_SOCIETY,
    DRAW_ORDERS,
    MIN_PLAYERS,
    MULTIPLIER,
    OFFICES,
    RECRUIT_ORDERS,
    ROUNDS,
    SLOTS,
)
from whispers.ledger.core.state import SUPPLY_DUE, TURN_DONE, Deck, GameState, Hand, Loyalty, Pending, card_empire

Move = tuple[Any, ...]
"""A move: (verb, society index, its parameters), as `to_command` reads it."""
Offer = tuple[Any, ...]
"""A legal kind of move with its domains, as `option` reads it."""

BANNER_WEIGHT = 0.1
"""The greedy playout policy's worth of one banner of an empire to a society, per point of its token's multiplier (a
city is worth 1): `rollout.value` and `Simulator.value` compute with it (rollout.py imports this module, so the
number lives here)."""

WAITING = ("retrieve", "deploy", "empire", "cleanup", "swap", "reveal")
"""The phases a position of the domain is in."""
_OFFICES = len(OFFICES)
RECRUIT, DRAW, ATTACK, SWAP = range(4)
def _order_spec(order: str) -> tuple[int, int, str | None]:
    """(kind, number, icon) of an order: its kind, and its numbers as `legal.recruit_numbers` and `legal.draw_numbers`
    read them from its name."""
    if order in RECRUIT_ORDERS:
        return RECRUIT, *recruit_numbers(order)
    if order in DRAW_ORDERS:
        return DRAW, *draw_numbers(order)
    if order == "attack":
        return ATTACK, 0, None
    return SWAP, 0, None


class Table:
    """What a game's board, ruleset and seating fix, by index: shared by every simulator of that game."""

    def __init__(self, state: GameState) -> None:
        board, rs = state.board, state.ruleset
        self.board, self.ruleset, self.players = board, rs, state.players
        self.empires = board.empires
        self.empire_at = {e: i for i, e in enumerate(self.empires)}
        self.regions = tuple(board.regions)
        self.region_at = board.region_order
        regions = [board.regions[r] for r in self.regions]
        self.home = [self.empire_at[r.home] for r in regions]
        self.cities = [r.cities for r in regions]
        self.farm = [int(r.farm) for r in regions]
        self.fort = [int(r.fort) for r in regions]
        self.adjacent = [tuple(self.region_at[a] for a in r.adjacent) for r in regions]
        self.limit = [rs.farm_limit if r.farm else rs.supply_limit for r in regions]
        self.by_name = sorted(range(len(regions)), key=self.regions.__getitem__)
        """Regions by name: `GameState.field_regions` lists a society's in that order."""
        self.name_rank = [0] * len(regions)
        for rank, r in enumerate(self.by_name):
            self.name_rank[r] = rank
        self.positions = tuple(f"{e}.{o}" for e in self.empires for o in OFFICES)
        self.orders = [tuple((order, *_order_spec(order)) for order in board.orders(e, o))
                       for e in self.empires for o in OFFICES]
        self.spec = {order: _order_spec(order) for orders in self.orders for order, *_ in orders}
        self.players_at = {s: i for i, s in enumerate(state.players)}
        self.n = len(state.players)
        self.per_round = rs.per_round_two_players if self.n == MIN_PLAYERS else rs.per_round
        self.round_end = rs.round_end


_TABLES: dict[tuple[int, int, tuple[str, ...]], Table] = {}


def _table(state: GameState) -> Table:
    key = (id(state.board), id(state.ruleset), state.players)
    table = _TABLES.get(key)
    if table is None or table.board is not state.board or table.ruleset is not state.ruleset:
        if len(_TABLES) >= 16:
            _TABLES.clear()
        table = _TABLES[key] = Table(state)
    return table


class Simulator:
    """A position of the domain (module docstring), changed in place by `apply`; `copy` for a look-ahead."""

    __slots__ = ("_closed", "_offers", "_unsettled", "banners", "cities", "concealed", "control", "council", "decks",
                 "drawn", "drawn_instant", "empire_index", "ended", "farms", "field", "first", "forts", "hands", "held",
                 "last_actor", "last_attack", "last_order", "last_was_draw", "loyalty", "multiplier", "office_index",
                 "on_board", "origin", "over_limit", "pending", "phase", "regions_of", "reserve", "round", "size",
                 "step", "t")

    t: Table
    origin: GameState
    round: int
    phase: str
    step: int
    first: int
    banners: dict[int, tuple[int, int]]
    """region -> (empire, count), in the order of GameState.banners (the attacks are listed in it)."""
    control: list[int]
    cities: list[int]
    held: list[int]
    """How many regions each empire controls."""
    regions_of: list[tuple[int, ...] | None]
    """Which (`_controlled`), once asked, until one changes hands."""
    farms: list[int]
    forts: list[int]
    on_board: list[int]
    over_limit: int
    """How many regions hold more banners than their limit (a supply check removes the excess)."""
    reserve: list[int]
    council: dict[int, int]
    """position -> society, in the order of GameState.council (retrievals are offered in it)."""
    field: list[tuple[int, ...]]
    """Each society's field agents' regions, by name (as GameState.field_regions lists them)."""
    hands: list[Hand]
    size: list[int]
    decks: list[Deck]
    loyalty: list[Loyalty]
    multiplier: list[tuple[int, ...] | None]
    """Each empire's multiplier by the society's tokens; None while they are sealed."""
    concealed: list[int]
    empire_index: int
    office_index: int
    pending: tuple[int, tuple[int, ...], bool] | None
    last_actor: int | None
    last_was_draw: bool
    drawn: tuple[str, tuple[str, ...], int]
    drawn_instant: bool
    """`legal.instant_may_be_drawn` of the last draw."""
    last_order: tuple[str, str, str, bool, bool] | None
    last_attack: ev.Attacked | tuple[Any, ...] | None
    """GameState.last_attack: the loaded one, or the fields of the simulator's own (built by `to_state`)."""
    ended: bool
    _closed: "Simulator | None"
    _offers: list[Offer] | None
    """`offered`, once known, until the next move."""
    _unsettled: bool
    """A look-ahead's move played without what follows it (`weigh`)."""

    # --- loading and converting back ------------------------------------------------------------------

    @classmethod
    def load(cls, state: GameState) -> "Simulator | None":
        """The simulator at `state`, or None when `state` is outside its domain (module docstring)."""
        if (state.phase not in WAITING or state.lasting or state.beside or state.attack_cards or state.doubled
                or state.oil or state.counter_clockwise or state.supply_owed or state.finalised is not None
                or state.attack_route is not None):
            return None
        pending = state.pending
        if pending is not None and (pending.resume is not None or pending.order is not None):
            return None
        if len(state.loyalty) != len(state.players) or any(lo.commitment is not None and lo.tokens is None
                                                            for lo in state.loyalty.values()):
            return None
        if owed_instants(state):
            return None
        t = _table(state)
        sim = cls.__new__(cls)
        sim.t, sim.origin, sim.ended, sim._closed, sim._offers, sim._unsettled = t, state, False, None, None, False
        sim.round, sim.phase, sim.step = state.round, state.phase, state.step
        sim.first = t.players_at[state.first]
        E = len(t.empires)
        sim.banners = {t.region_at[r]: (t.empire_at[e], n) for r, (e, n) in state.banners.items()}
        sim.control = list(t.home)
        for r, (e, _n) in sim.banners.items():
            sim.control[r] = e
        sim.cities, sim.held, sim.farms, sim.forts, sim.on_board = [0] * E, [0] * E, [0] * E, [0] * E, [0] * E
        for r, holder in enumerate(sim.control):
            sim.cities[holder] += t.cities[r]
            sim.held[holder] += 1
            sim.farms[holder] += t.farm[r]
            sim.forts[holder] += t.fort[r]
        for holder, n in sim.banners.values():
            sim.on_board[holder] += n
        sim.over_limit = sum(1 for r, (_e, n) in sim.banners.items() if n > t.limit[r])
        sim.regions_of = [None] * E
        sim.reserve = [state.reserve[e] for e in t.empires]
        sim.council = {t.empire_at[e] * _OFFICES + OFFICES.index(o): t.players_at[s]
                       for (e, o), s in state.council.items()}
        fields: list[list[int]] = [[] for _ in t.players]
        for agent, region in state.field_agents:
            fields[t.players_at[agent]].append(t.region_at[region])
        sim.field = [tuple(sorted(f, key=t.name_rank.__getitem__)) for f in fields]
        sim.hands = [state.hands[s] for s in t.players]
        sim.size = [h.size for h in sim.hands]
        sim.decks = [state.decks[e] for e in t.empires]
        sim.loyalty = [state.loyalty[s] for s in t.players]
        sim.multiplier = [_multipliers(t, lo) for lo in sim.loyalty]
        sim.concealed = [lo.concealed for lo in sim.loyalty]
        sim.empire_index, sim.office_index = state.empire_index, state.office_index
        sim.pending = None if pending is None else (
            t.players_at[pending.society],
            tuple(t.empire_at[e] * _OFFICES + OFFICES.index(o) for e, o in pending.positions), pending.ends_council)
        sim.last_actor = None if state.last_actor is None else t.players_at[state.last_actor]
        sim.last_was_draw, sim.drawn = state.last_was_draw, state.drawn
        sim.drawn_instant = instant_may_be_drawn(state)
        sim.last_order, sim.last_attack = state.last_order, state.last_attack
        return sim

    def copy(self) -> "Simulator":
        new = Simulator.__new__(Simulator)
        new.t, new.origin, new.ended, new._closed, new._offers = self.t, self.origin, self.ended, None, self._offers
        new._unsettled = self._unsettled
        new.round, new.phase, new.step, new.first = self.round, self.phase, self.step, self.first
        new.banners, new.control, new.cities = self.banners.copy(), self.control[:], self.cities[:]
        new.held, new.farms, new.forts, new.on_board = self.held[:], self.farms[:], self.forts[:], self.on_board[:]
        new.regions_of, new.over_limit = self.regions_of[:], self.over_limit
        new.reserve, new.council, new.field = self.reserve[:], self.council.copy(), self.field[:]
        # Shared, copied on write: the moves that change them (_draw, _discard, _swap_loyalty, _reveal) are few.
        new.hands, new.size, new.decks = self.hands, self.size, self.decks
        new.loyalty, new.multiplier, new.concealed = self.loyalty, self.multiplier, self.concealed
        new.empire_index, new.office_index, new.pending = self.empire_index, self.office_index, self.pending
        new.last_actor, new.last_was_draw, new.drawn = self.last_actor, self.last_was_draw, self.drawn
        new.drawn_instant, new.last_order, new.last_attack = self.drawn_instant, self.last_order, self.last_attack
        return new

    def to_state(self) -> GameState:
        """The position as the engine's state: every field the rules read is the engine's own at this position; the
        record's bookkeeping (`version`, `moves`, `prior`, `move_number`, `move_place`, `placed`) is the loaded
        state's. Once the game has ended, the state the final scoring leaves (`phase` over, `scored`)."""
        t, origin = self.t, self.origin
        players, empires, regions = t.players, t.empires, t.regions
        position = _position_pair
        pending = None
        if self.pending is not None:
            society, positions, ends = self.pending
            pending = Pending(players[society], tuple(position(t, p) for p in positions), ends)
        attack = self.last_attack
        if isinstance(attack, tuple):
            attack = ev.Attacked(*attack)
        by_society, by_empire = t.players_at, t.empire_at
        return msgspec.structs.replace(
            origin,
            round=self.round,
            phase="over" if self.ended else self.phase,
            step=self.step,
            first=players[self.first],
            loyalty={s: self.loyalty[by_society[s]] for s in origin.loyalty},
            council={position(t, p): players[s] for p, s in self.council.items()},
            field_agents=frozenset((players[s], regions[r]) for s, field in enumerate(self.field) for r in field),
            banners={regions[r]: (empires[e], n) for r, (e, n) in self.banners.items()},
            reserve={e: self.reserve[by_empire[e]] for e in origin.reserve},
            hands={s: self.hands[by_society[s]] for s in origin.hands},
            decks={e: self.decks[by_empire[e]] for e in origin.decks},
            empire_index=self.empire_index,
            office_index=self.office_index,
            pending=pending,
            last_actor=None if self.last_actor is None else players[self.last_actor],
            last_was_draw=self.last_was_draw,
            drawn=self.drawn,
            last_order=self.last_order,
            last_attack=attack,
            scored=self.ended,
        )

    # --- what the rules read ------------------------------------------------------------------------------

    def _turn(self) -> int:
        """legal.turn_society: the seat `step` places clockwise from the first player."""
        return (self.first + self.step) % self.t.n

    def _controller(self, empire: int, office: int) -> int | None:
        """GameState.office_controller: the agent on the position, else the next towards the chancellor."""
        council = self.council
        base = empire * _OFFICES
        for p in range(base + office, base + _OFFICES):
            society = council.get(p)
            if society is not None:
                return society
        return None

    def _active(self, empire: int, office: int) -> int | None:
        """GameState.active_agent: the position of that agent."""
        council = self.council
        base = empire * _OFFICES
        for p in range(base + office, base + _OFFICES):
            if p in council:
                return p
        return None

    def _agents_out(self, society: int) -> int:
        return [*self.council.values()].count(society) + len(self.field[society])

    def _deploy_targets(self, society: int) -> list[int]:
        """legal.deploy_targets: positions by their index, regions as -1 - their index."""
        if self._agents_out(society) >= AGENTS_PER_SOCIETY:
            return []
        council = self.council
        t = self.t
        where = [p for p in range(len(t.positions)) if p not in council]
        own = self.field[society]
        if t.ruleset.field_agents and len(own) < t.ruleset.max_field_agents:
            where += [-1 - r for r in range(len(t.regions)) if r not in own]
        return where

    def _controlled(self, empire: int) -> tuple[int, ...]:
        """GameState.controlled: the regions the empire controls, in the board's order (kept until one changes)."""
        found = self.regions_of[empire]
        if found is None:
            control = self.control
            found = self.regions_of[empire] = tuple([r for r, holder in enumerate(control) if holder == empire])
        return found

    def _count(self, empire: int, each: int, icon: str | None) -> int:
        if icon is None:
            return each
        return each * (self.farms[empire] if icon == "farm" else self.forts[empire])

    def _drawn(self, empire: int, per: int, icon: str | None) -> tuple[int, int, int]:
        """legal.draw_count: (cards the order gives, cards drawn, discards reshuffled in first)."""
        counted = per if icon is None else (self.farms[empire] if icon == "farm" else self.forts[empire]) // per
        deck = self.decks[empire]
        reshuffled = deck.discard if deck.draw < counted and self.t.ruleset.reshuffle_when_empty else 0
        return counted, min(counted, deck.draw + reshuffled), reshuffled

    def _attacks(self, empire: int) -> list[tuple[int, int, int]]:
        """legal.attacks without cards: from each region holding the empire's banners that may leave (in the banners'
        order), into each adjacent region another empire controls."""
        home, control, adjacent = self.t.home, self.control, self.t.adjacent
        return [(r, target, movable) for r, (e, n) in self.banners.items() if e == empire
                and (movable := n if home[r] == empire else n - 1) >= 1
                for target in adjacent[r] if control[target] != empire]

    def _swap_targets(self, p: int) -> tuple[int, ...]:
        """legal.swap_targets: the offices the acting agent may swap to."""
        empire, office = divmod(p, _OFFICES)
        agent = self._active(empire, office)
        others = [o for o in range(_OFFICES) if agent is None or o != agent % _OFFICES]
        if self.t.ruleset.swap_agent_target == "occupied":
            base = empire * _OFFICES
            others = [o for o in others if base + o in self.council]
        return tuple(others)

    def _positions(self) -> tuple[int, ...]:
        return self.pending[1] if self.pending is not None else (
            self.empire_index * _OFFICES + self.office_index,)

    def _holder(self) -> int | None:
        """legal.window_waits: the society waited for after an empire's last order, while it may play a card."""
        if self.phase != "empire" or self.office_index != SUPPLY_DUE or self.pending is not None:
            return None
        last = self.last_actor
        if last is None:
            return None
        rs = self.t.ruleset
        if not (rs.play_after_order or (rs.instant_when_drawn and self.last_was_draw and self.drawn_instant)):
            return None
        return last if self.size[last] > 0 else None

    # --- the legal moves ----------------------------------------------------------------------------

    def offered(self) -> list[Offer]:
        """The kinds of legal move now, with their domains, in the prompt's order (card plays left out)."""
        found = self._offers
        if found is None:
            found = self._offers = self._offered()
        return found

    def _offered(self) -> list[Offer]:
        phase = self.phase
        if phase == "empire":
            holder = self._holder()
            if holder is not None:
                closed = self._closed
                if closed is None:
                    closed = self._closed = self.copy()
                    closed._advance(close=True)
                return [("no-card", holder), *([] if closed.ended else closed.offered())]
            actor = self._owed()
            return [] if actor is None else self._order_options(actor)
        if phase == "deploy":
            society = self._turn()
            return [("deploy", society, self._deploy_targets(society))]
        if phase == "retrieve":
            society = self._turn()
            where = [p for p, s in self.council.items() if s == society]
            where.extend(-1 - r for r in self.field[society])
            return [("retrieve", society, where)]
        if phase == "cleanup":
            limit = self.t.ruleset.hand_limit
            n = self.t.n
            return [("discard", s, self.size[s] - limit) for s in ((self.first + i) % n for i in range(n))
                    if self.size[s] > limit]
        if phase == "swap":
            society = self._turn()
            revealed = self.loyalty[society].revealed
            return [("swap-loyalty", society, tuple(slot for slot in SLOTS if slot not in revealed)),
                    ("pass", society)]
        if phase == "reveal":
            return [("reveal", s) for s, loyalty in enumerate(self.loyalty) if loyalty.tokens is None]
        return []

    def actors(self) -> tuple[int, ...]:
        """`rules.prompt(state).actors`: the societies the moves offered wait for, in order; in the card window after an
        empire's last order, those of the moves past it, or the window's holder where the game ends with it."""
        offered = self.offered()
        if self._holder() is not None and len(offered) > 1:
            offered = offered[1:]
        return tuple(dict.fromkeys(offer[1] for offer in offered))

    def _owed(self) -> int | None:
        """The society the order is owed to: the one a swap left owed one, else the office's controller."""
        return self.pending[0] if self.pending is not None else self._controller(self.empire_index, self.office_index)

    def _order_options(self, society: int) -> list[Offer]:
        """legal.order_options of `society`, the one the order is owed to."""
        pending = self.pending
        found: list[Offer] = []
        orders = self.t.orders
        for p in self._positions():
            empire = p // _OFFICES
            for order, kind, each, icon in orders[p]:
                # Each order is offered unless legal.order_refusal refuses it (EN "Council Positions").
                if kind == RECRUIT:
                    reserve, count = self.reserve[empire], self._count(empire, each, icon)
                    if reserve > 0 and (self.held[empire] > 0 or count == 0):
                        found.append(("recruit", society, p, order, min(count, reserve), self._controlled(empire)))
                elif kind == DRAW:
                    found.append(("draw", society, p, order, self._drawn(empire, each, icon)[1]))
                elif kind == ATTACK:
                    attacks = self._attacks(empire)
                    if attacks:
                        found.append(("attack", society, p, attacks))
                elif pending is None and self._active(empire, p % _OFFICES) is not None:
                    targets = self._swap_targets(p)
                    if targets:
                        found.append(("swap-agent", society, p, targets))
        return found

    def options(self) -> tuple[Option, ...]:
        """`offered` as the prompt's options (for the tests)."""
        return tuple(self.option(offer) for offer in self.offered())

    def option(self, offer: Offer) -> Option:
        t = self.t
        verb, society = offer[0], offer[1]
        name = t.players[society]
        if verb in ("retrieve", "deploy"):
            return Option(verb, name, {"where": tuple(self._where(code) for code in offer[2])})
        if verb == "recruit":
            return Option(verb, name, {"at": t.positions[offer[2]], "order": offer[3], "amount": offer[4],
                                       "regions": tuple(t.regions[r] for r in offer[5])})
        if verb == "draw":
            return Option(verb, name, {"at": t.positions[offer[2]], "order": offer[3], "count": offer[4]})
        if verb == "attack":
            return Option(verb, name, {"at": t.positions[offer[2]], "attacks": tuple(
                (t.regions[a], t.regions[b], n) for a, b, n in offer[3])})
        if verb == "swap-agent":
            return Option(verb, name, {"at": t.positions[offer[2]], "targets": tuple(OFFICES[o] for o in offer[3])})
        if verb == "discard":
            return Option(verb, name, {"count": offer[2], "hand": dict(self.hands[society].counts)})
        if verb == "swap-loyalty":
            return Option(verb, name, {"slots": offer[2]})
        if verb == "reveal":
            return Option(verb, name, {"slots": SLOTS, "empires": t.empires})
        return Option(verb, name, {})

    def _where(self, code: int) -> str:
        """An agent's place: a council position (its index) or a region (-1 - its index)."""
        return self.t.positions[code] if code >= 0 else self.t.regions[-1 - code]

    def random_move(self, rng: random.Random, offered: list[Offer] | None = None) -> Move:
        """A legal move at random, drawn from `rng` exactly as `randomgame.random_command(state, rng, cards=False)`
        draws it, so that one generator picks the same move from both. `seq[below(len(seq))]` is `rng.choice(seq)`
        and `1 + below(n)` is `rng.randint(1, n)`, as random.py draws them, a call less each (the test compares the
        generators' states after both)."""
        below = rng._randbelow  # type: ignore[attr-defined]  # random.Random's own, which typeshed does not list
        if offered is None:
            offered = self.offered()
        if not offered:  # rng.choice's refusal (`below(0)` would never return)
            raise IndexError("no legal move to choose from")
        offer = offered[below(len(offered))]
        verb, society = offer[0], offer[1]
        if verb == "recruit":
            placed: dict[int, int] = {}
            regions = offer[5]
            n = len(regions)
            for _ in range(offer[4]):
                region = regions[below(n)]
                placed[region] = placed.get(region, 0) + 1
            return ("recruit", society, placed, offer[3], offer[2])
        if verb == "attack":
            attacks = offer[3]
            source, target, most = attacks[below(len(attacks))]
            return ("attack", society, source, target, 1 + below(most), offer[2])
        if verb == "draw":
            return ("draw", society, offer[3], offer[2])
        if verb in ("deploy", "retrieve"):
            where = offer[2]
            return (verb, society, where[below(len(where))])
        if verb == "swap-agent":
            return ("swap-agent", society, rng.choice(offer[3]))
        if verb == "discard":
            hand = self.hands[society]
            pool = [*hand.known, *(e for e in hand.counts for _ in range(hand.unknown(e)))]
            return ("discard", society, tuple(rng.sample(pool, offer[2])))
        if verb == "swap-loyalty":
            if rng.random() < 0.5:
                return ("pass", society)
            a, b = rng.sample(list(offer[2]), 2)
            revealed = None
            loyalty = self.loyalty[society]
            if loyalty.tokens is None:
                shown = set(loyalty.revealed.values())
                x, y = rng.sample([e for e in self.t.empires if e not in shown], 2)
                revealed = {a: x, b: y}
            return ("swap-loyalty", society, a, b, revealed)
        if verb == "reveal":
            return ("reveal", society, self._random_tokens(society, rng))
        return (verb, society)

    def _random_tokens(self, society: int, rng: random.Random) -> dict[str, str]:
        """A sealed set revealed at random, as `randomgame.random_command` reveals it: what swaps revealed stays, and
        under the revised rules its devout empire (as placed at setup) is tried again until it is no other set's
        (REV "Setup")."""
        empires = self.t.empires
        loyalty = self.loyalty[society]
        rest = [e for e in empires if e not in loyalty.revealed.values()]
        rng.shuffle(rest)
        tokens = {slot: loyalty.revealed.get(slot) or rest.pop() for slot in SLOTS}
        if self.t.ruleset.distinct_devout:
            taken = {lo.at_setup(lo.tokens)["devout"] for lo in self.loyalty if lo.tokens}
            for _ in range(50):
                if loyalty.at_setup(tokens)["devout"] not in taken:
                    break
                free = [e for e in empires if e not in loyalty.revealed.values()]
                rng.shuffle(free)
                tokens = {slot: loyalty.revealed.get(slot) or free.pop() for slot in SLOTS}
        return tokens

    def to_command(self, move: Move) -> c.Command:
        """The engine's command for `move`."""
        t = self.t
        verb, society = move[0], t.players[move[1]]
        if verb == "retrieve":
            return c.Retrieve(society, self._where(move[2]))
        if verb == "deploy":
            return c.Deploy(society, self._where(move[2]))
        if verb == "recruit":
            return c.Recruit(society, {t.regions[r]: n for r, n in move[2].items()}, order=move[3],
                             at=t.positions[move[4]])
        if verb == "draw":
            return c.Draw(society, (), order=move[2], at=t.positions[move[3]])
        if verb == "attack":
            return c.Attack(society, t.regions[move[2]], t.regions[move[3]], move[4], at=t.positions[move[5]])
        if verb == "swap-agent":
            return c.SwapAgent(society, OFFICES[move[2]])
        if verb == "discard":
            return c.Discard(society, move[2])
        if verb == "swap-loyalty":
            return c.SwapLoyalty(society, (move[2], move[3]), move[4])
        if verb == "reveal":
            return c.Reveal(society, move[2])
        if verb == "pass":
            return c.Pass(society)
        return c.NoCard(society)

    def move(self, command: c.Command) -> Move:
        """The move `command` stands for (`to_command`'s inverse), for the tests to follow a game of the engine's."""
        t = self.t
        society = t.players_at[command.society]  # type: ignore[attr-defined]  # a no-card game's commands have one

        def where(name: str) -> int:
            return t.positions.index(name) if "." in name else -1 - t.region_at[name]

        match command:
            case c.Retrieve(_, place):
                return ("retrieve", society, where(place))
            case c.Deploy(_, place):
                return ("deploy", society, where(place))
            case c.Recruit(_, placed, order, at):
                return ("recruit", society, {t.region_at[r]: n for r, n in placed.items()}, order,
                        t.positions.index(at or ""))
            case c.Draw(_, _cards, order, at):
                return ("draw", society, order, t.positions.index(at or ""))
            case c.Attack(_, source, target, banners, at):
                return ("attack", society, t.region_at[source], t.region_at[target], banners,
                        t.positions.index(at or ""))
            case c.SwapAgent(_, office):
                return ("swap-agent", society, OFFICES.index(office))
            case c.Discard(_, cards):
                return ("discard", society, tuple(cards))
            case c.SwapLoyalty(_, (a, b), revealed):
                return ("swap-loyalty", society, a, b, revealed)
            case c.Reveal(_, tokens, None):
                return ("reveal", society, dict(tokens))
            case c.Pass():
                return ("pass", society)
            case c.NoCard():
                return ("no-card", society)
        raise ValueError(f"no move of the simulator for {command}")

    # --- playing a move -------------------------------------------------------------------------------

    def weigh(self, move: Move, society: int) -> tuple[float, "Simulator | None"]:
        """The greedy policy's look-ahead: `value` for `society` once `move` is played, and a copy with it played, to
        be `settled` before anything else is asked of it (None where the value is read without playing it).

        What the engine records on its own after the move (`_advance`) is left to `settled` when it cannot change
        the value: of what `value` reads, it changes only banners, in supply checks, and a supply check removes none
        while no region holds more than its limit. With none over it, the value of a quiet move (`quiet_move`), a
        recruit or an attack that puts none over is read from the counts the move changes (`_attack` places them):
        a quiet move changes none, a recruit adds its banners to its empire's on the board (its regions are that
        empire's already), an attack takes its losses from both empires' banners and may pass its target's cities
        to another empire (the source stays its empire's: a banner stays, or it is its home)."""
        if not self.over_limit:
            verb = move[0]
            if quiet_move(move):
                return self.value(society), None
            limit = self.t.limit
            if verb == "recruit":
                placed, banners = move[2], self.banners
                if all((banners[r][1] if r in banners else 0) + n <= limit[r] for r, n in placed.items()):
                    on_board = self.on_board[:]
                    on_board[move[4] // _OFFICES] += sum(placed.values())
                    return self._value(society, self.cities, on_board, self.control), None
            elif verb == "attack":
                _verb, _society, _source, target, banners, p = move
                empire = p // _OFFICES
                held_by = self.control[target]
                _defending, _fort_kill, lost, losses, controller = self._battle(empire, target, banners)
                if banners - lost <= limit[target]:
                    on_board, cities, control = self.on_board[:], self.cities, self.control
                    on_board[empire] -= lost
                    if losses:
                        on_board[held_by] -= losses  # an occupied target's banners are its controller's
                    if controller != held_by:
                        cities, control = cities[:], control[:]
                        cities[held_by] -= self.t.cities[target]
                        cities[controller] += self.t.cities[target]
                        control[target] = controller
                    return self._value(society, cities, on_board, control), None
        new = self.copy()
        new._play(move)
        if new.over_limit:
            new._advance()
        else:
            new._unsettled = True
        return new.value(society), new

    def settled(self) -> "Simulator":
        """This look-ahead (`weigh`) with what the engine records on its own after its move played."""
        if self._unsettled:
            self._unsettled = False
            self._advance()
        return self

    def apply(self, move: Move) -> None:
        """Play `move` (one of `offered`'s) and what the engine records on its own after it, until someone must act
        or the game has ended."""
        self._play(move)
        self._advance()

    def _play(self, move: Move) -> None:
        """`apply` but for what the engine records on its own after the move (`_advance`)."""
        self._closed = self._offers = None
        verb, society = move[0], move[1]
        if self.phase == "empire" and self.office_index == SUPPLY_DUE:
            if verb == "no-card":  # AfterOrderPassed: the window closes
                self.last_actor, self.last_was_draw = None, False
                return
            self._advance(close=True)  # any other move closes the window first (rules._close_window)
        if verb == "attack":
            self._attack(society, move[2], move[3], move[4], move[5])
        elif verb == "recruit":
            p = move[4]
            empire = p // _OFFICES
            amount = 0
            for region, n in move[2].items():
                self._place(region, empire, n)
                amount += n
            self.reserve[empire] -= amount
            self._after_order(society, False, (self.t.empires[empire], OFFICES[p % _OFFICES], move[3]))
        elif verb == "draw":
            self._draw(society, move[2], move[3])
        elif verb == "deploy":
            where = move[2]
            if where >= 0:
                self.council[where] = society
            else:
                self.field[society] = tuple(sorted((*self.field[society], -1 - where),
                                                   key=self.t.name_rank.__getitem__))
            self.step += 1
        elif verb == "retrieve":
            where = move[2]
            if where >= 0:
                del self.council[where]
            else:
                self.field[society] = tuple(r for r in self.field[society] if r != -1 - where)
            self.step += 1
        elif verb == "swap-agent":
            self._swap_agent(society, move[2])
        elif verb == "discard":
            self._discard(society, move[2])
        elif verb == "swap-loyalty":
            self._swap_loyalty(society, move[2], move[3], move[4])
        elif verb == "reveal":
            self._reveal(society, move[2])
        elif verb == "pass":
            self.step += 1
        else:
            raise AssertionError(f"no move {verb} here")

    def _place(self, region: int, empire: int, delta: int) -> None:
        """evolve._place: `delta` banners of `empire` in `region`, which then holds that empire's banners or none (its
        home empire controls it), with the control counts kept."""
        banners = self.banners
        current = banners.get(region)
        before = current[1] if current else 0
        count = before + delta
        limit = self.t.limit[region]
        self.over_limit += (count > limit) - (before > limit)
        if current:
            self.on_board[current[0]] -= current[1]
        if count:
            banners[region] = (empire, count)
            self.on_board[empire] += count
            holder = empire
        else:
            banners.pop(region, None)
            holder = self.t.home[region]
        was = self.control[region]
        if was != holder:
            t = self.t
            self.control[region] = holder
            self.regions_of[was] = self.regions_of[holder] = None
            self.cities[was] -= t.cities[region]
            self.cities[holder] += t.cities[region]
            self.held[was] -= 1
            self.held[holder] += 1
            self.farms[was] -= t.farm[region]
            self.farms[holder] += t.farm[region]
            self.forts[was] -= t.fort[region]
            self.forts[holder] += t.fort[region]

    def _after_order(self, actor: int, draw: bool, given: tuple[str, str, str] | None) -> None:
        """evolve._after_order: past the active office, or past the council (REV swap)."""
        pending = self.pending
        ends = pending is not None and pending[2]
        if given is not None:
            self.last_order = (*given, ends, False)
        self.office_index = SUPPLY_DUE if ends else self.office_index + 1
        self.pending = None
        self.last_actor, self.last_was_draw, self.last_attack = actor, draw, None

    def _attack(self, society: int, source: int, target: int, banners: int, p: int) -> None:
        """EN "Attack Action" (rules._decide_attack with no card, evolve._a_attacked): a fort kills one entering
        banner, then attackers and defenders kill one another 1:1."""
        t = self.t
        empire = p // _OFFICES
        held_by = self.control[target]
        occupied = self.banners.get(target)
        defending, fort_kill, attacker_losses, losses, controller = self._battle(empire, target, banners)
        self._place(source, empire, -banners)
        self.reserve[empire] += attacker_losses
        if occupied is not None:
            defender = occupied[0]
            self.reserve[defender] += losses
            self._place(target, defender, -losses)
        if banners - attacker_losses:
            self._place(target, empire, banners - attacker_losses)
        office = OFFICES[p % _OFFICES]
        self._after_order(society, False, (t.empires[empire], office, "attack"))
        self.last_attack = (t.players[society], t.empires[empire], office, "attack", t.regions[source],
                            t.regions[target], banners, t.empires[held_by], defending, fort_kill, attacker_losses,
                            losses, t.empires[controller])

    def _battle(self, empire: int, target: int, banners: int) -> tuple[int, int, int, int, int]:
        """An attack's outcome (defending banners, fort kill, attacker's losses, defender's losses, the target's
        controller after it), as `_attack` places it."""
        t = self.t
        occupied = self.banners.get(target)
        defending = occupied[1] if occupied else 0
        fort_kill = t.fort[target]
        attacking = banners - fort_kill
        losses = min(attacking, defending)
        survivors, holders = attacking - losses, defending - losses
        if survivors > 0:
            controller = empire
        elif occupied is not None and holders > 0:
            controller = occupied[0]
        else:
            controller = t.home[target]
        return defending, fort_kill, fort_kill + losses, losses, controller

    def _draw(self, society: int, order: str, p: int) -> None:
        """EN "Draw Empire Card Actions", the cards unnamed (evolve._a_drawn)."""
        t = self.t
        empire = p // _OFFICES
        _kind, per, icon = t.spec[order]
        _counted, drawn, reshuffled = self._drawn(empire, per, icon)
        name = t.empires[empire]
        self.hands, self.size, self.decks = self.hands[:], self.size[:], self.decks[:]
        if drawn:
            hand = self.hands[society]
            counts = dict(hand.counts)
            counts[name] = counts.get(name, 0) + drawn
            self.hands[society] = Hand(counts, hand.known)
            self.size[society] += drawn
        deck = self.decks[empire]
        if drawn or reshuffled:
            self.decks[empire] = Deck(deck.draw + reshuffled - drawn, deck.discard - reshuffled)
        self.drawn = (name, (), drawn)
        self.drawn_instant = drawn > 0 and "dark-alliances" in self.origin.card_sets
        self._after_order(society, True, (name, OFFICES[p % _OFFICES], order))

    def _swap_agent(self, society: int, target: int) -> None:
        """EN "Swap Agent Action"; REV "Council orders: Chancellor" (rules._decide_swap_agent, evolve._a_swapped)."""
        rs = self.t.ruleset
        empire = self.empire_index
        base = empire * _OFFICES
        council = self.council
        agent = self._active(empire, self.office_index)
        assert agent is not None
        before = [self._controller(empire, i) for i in range(_OFFICES)] if rs.swap_agent_then != "target" else []
        displaced = council.get(base + target)
        council[base + target] = society
        if displaced is not None:
            council[agent] = displaced
        else:
            del council[agent]
        if rs.swap_agent_then == "target":
            options: tuple[int, ...] = (target,)
        else:
            options = tuple(o for o in range(_OFFICES) if o == target or (
                self._controller(empire, o) == society and before[o] != society))
        self.pending = (society, tuple(base + o for o in options), rs.swap_agent_ends_council)
        self.last_actor, self.last_was_draw, self.last_attack = society, False, None

    def _discard(self, society: int, cards: tuple[str, ...]) -> None:
        """EN "Cleanup Phase" (evolve._spent)."""
        t = self.t
        to_deck = t.ruleset.spent == "deck"
        self.hands, self.size, self.decks = self.hands[:], self.size[:], self.decks[:]
        for card in cards:
            empire = t.empire_at[card_empire(card)]
            deck = self.decks[empire]
            self.decks[empire] = Deck(deck.draw + 1, deck.discard) if to_deck else Deck(deck.draw, deck.discard + 1)
        self.hands[society] = self.hands[society].without(cards)
        self.size[society] -= len(cards)

    def _swap_loyalty(self, society: int, a: str, b: str, revealed: dict[str, str] | None) -> None:
        """EN "Swap Phase": two concealed tokens swap places, both revealed (evolve._a_loyalty_swapped); a sealed
        set's tokens stay sealed, the two revealed as `revealed` says."""
        loyalty = self.loyalty[society]
        tokens = loyalty.tokens
        if tokens is not None:
            given = {a: tokens[b], b: tokens[a]}
            tokens = {**tokens, **given}
        else:
            assert revealed is not None
            given = revealed
        new = msgspec.structs.replace(loyalty, tokens=tokens, revealed={**loyalty.revealed, **given},
                                      swaps=loyalty.swaps + 1, swapped=(*loyalty.swapped, (a, b)))
        self.loyalty, self.multiplier, self.concealed = self.loyalty[:], self.multiplier[:], self.concealed[:]
        self.loyalty[society] = new
        self.multiplier[society] = _multipliers(self.t, new)
        self.concealed[society] = new.concealed
        self.step += 1

    def _reveal(self, society: int, tokens: dict[str, str]) -> None:
        """EN "Final Scoring": a sealed set revealed (evolve._a_revealed); under the revised rules refused, as
        rules._check_distinct_devout refuses it, when its devout empire as placed at setup is another set's (REV
        "Setup")."""
        loyalty = self.loyalty[society]
        if self.t.ruleset.distinct_devout:
            mine = loyalty.at_setup(tokens)["devout"]
            for other, held in enumerate(self.loyalty):
                if other != society and held.tokens is not None and held.at_setup(held.tokens)["devout"] == mine:
                    raise RuleError(f"{self.t.players[other]} is devout to {mine} already", "REV Setup")
        new = msgspec.structs.replace(loyalty, tokens=dict(tokens))
        self.loyalty, self.multiplier = self.loyalty[:], self.multiplier[:]
        self.loyalty[society] = new
        self.multiplier[society] = _multipliers(self.t, new)

    # --- what the engine records on its own (ledger/core/flow.py) ----------------------------------------

    def _advance(self, close: bool = False) -> None:
        """flow.advanced: the engine's own moves until a society must act or the game has ended; the moves offered
        then, where it finds them to ask whether anyone may act, are kept for `offered`."""
        self._offers = None
        t = self.t
        n = t.n
        while True:
            phase = self.phase
            if phase == "empire":
                office = self.office_index
                if office < SUPPLY_DUE:
                    pending = self.pending
                    actor = self._owed()
                    if actor is None:  # OfficeSkipped: uncontrolled
                        self.office_index = office + 1
                        continue
                    offers = self._order_options(actor)
                    if not offers:  # OfficeSkipped: no legal order
                        if pending is not None:
                            last = self.last_actor
                            self._after_order(pending[0], False, None)
                            self.last_actor = last
                        else:
                            self.office_index = office + 1
                        continue
                    self._offers = offers
                    return
                if office == SUPPLY_DUE:
                    if not close and self._holder() is not None:
                        return
                    self._supply()
                    continue
                if self.empire_index + 1 < len(t.empires):  # EmpireTurnStarted
                    self.empire_index += 1
                    self.office_index, self.pending, self.last_order = 0, None, None
                    continue
                self.phase, self.step = "round_end", 0  # RoundEnded
                self.last_actor, self.last_was_draw, self.pending = None, False, None
                continue
            if phase == "retrieve":
                if self.step >= n:
                    if t.ruleset.retrieve == "round_start":
                        self._phase_started(self.round, "deploy")
                    else:
                        self._step_after(t.round_end.index("retrieve"))
                    continue
                society = self._turn()
                if not self._agents_out(society):
                    self.step += 1
                    continue
                return
            if phase == "deploy":
                if self.step >= n * t.per_round:
                    self._phase_started(self.round, "empire")
                    continue
                society = self._turn()
                targets = self._deploy_targets(society)
                if not targets:
                    self.step += 1
                    continue
                self._offers = [("deploy", society, targets)]
                return
            if phase == "round_end" or phase in t.round_end:
                if phase == "cleanup" and any(size > t.ruleset.hand_limit for size in self.size):
                    return
                if phase == "swap" and self.step < n:
                    if self.concealed[self._turn()] < 2:  # Skipped: too few concealed
                        self.step += 1
                        continue
                    return
                if phase == "round_end" and self.round == ROUNDS:  # EN "Mark the Turn": the game ends
                    if all(loyalty.tokens is not None for loyalty in self.loyalty):
                        self.ended = True
                        return
                    self._phase_started(self.round, "reveal")  # sealed sets are revealed for the final scoring
                    continue
                self._step_after(-1 if phase == "round_end" else t.round_end.index(phase))
                continue
            if phase == "reveal":
                if all(loyalty.tokens is not None for loyalty in self.loyalty):
                    self.ended = True
                return
            raise AssertionError(f"the simulator has no phase {phase}")

    def _supply(self) -> None:
        """EN "Checking Supply" (flow.supply_check, evolve._a_supply)."""
        limit = self.t.limit
        everywhere = self.t.ruleset.supply_scope != "active"
        empire = self.empire_index
        losses = [(r, e, n - limit[r]) for r, (e, n) in self.banners.items()
                  if (everywhere or e == empire) and n > limit[r]] if self.over_limit else []
        for region, holder, n in losses:
            self._place(region, holder, -n)
            self.reserve[holder] += n
        self.office_index, self.last_actor, self.last_was_draw = TURN_DONE, None, False

    def _phase_started(self, round_: int, phase: str) -> None:
        """evolve._a_phase."""
        empire = phase == "empire"
        self.round, self.phase, self.step = round_, phase, 0
        self.last_actor, self.last_was_draw, self.pending = None, False, None
        self.empire_index, self.office_index = (-1, TURN_DONE) if empire else (0, 0)

    def _step_after(self, index: int) -> None:
        """flow._step_after: the next round-end step, the first-player marker passing, or the next round."""
        steps = self.t.round_end
        if index + 1 < len(steps):
            step = steps[index + 1]
            if step == "mark":  # FirstPlayerPassed
                self.first = (self.first + 1) % self.t.n
                self.phase, self.step = "mark", 0
                return
            self._phase_started(self.round, step)
            return
        self._phase_started(self.round + 1, "retrieve" if self.t.ruleset.retrieve == "round_start" else "deploy")

    # --- the greedy policy's value ------------------------------------------------------------------------

    def value(self, society: int) -> float:
        """rollout.value, computed with the same operations in the same order (ties between moves decide)."""
        return self._value(society, self.cities, self.on_board, self.control)

    def _value(self, society: int, cities: list[int], on_board: list[int], control: list[int]) -> float:
        """`value` with these counts and control."""
        multipliers = self.multiplier[society]
        if multipliers is None:
            return 0.0
        field = self.field[society]
        if field:
            cities = cities[:]
            for region in field:
                cities[control[region]] += 1
        total = float(self.concealed[society] * self.t.ruleset.concealed_bonus)
        for multiplier, held, banners in zip(multipliers, cities, on_board, strict=True):
            total += multiplier * (held + BANNER_WEIGHT * banners)
        return total


def quiet_move(move: Move) -> bool:
    """Whether a move leaves the board, the field agents and the mover's own tokens as they are by itself (what
    `value` reads): drawing cards, swapping an agent within a council, a council deploy or retrieval, passing,
    no-card, a discard (rollout.quiet, of the engine's commands)."""
    verb = move[0]
    if verb == "deploy" or verb == "retrieve":
        return bool(move[2] >= 0)  # a council position (a region is -1 - its index)
    return verb in _QUIET


_QUIET = frozenset(("draw", "swap-agent", "pass", "no-card", "discard"))


def _multipliers(t: Table, loyalty: Loyalty) -> tuple[int, ...] | None:
    tokens = loyalty.tokens
    if tokens is None:
        return None
    slot_of = {empire: slot for slot, empire in tokens.items()}
    return tuple(MULTIPLIER[slot_of[e]] for e in t.empires)


def _position_pair(t: Table, p: int) -> tuple[str, str]:
    return t.empires[p // _OFFICES], OFFICES[p % _OFFICES]
