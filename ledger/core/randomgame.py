"""Random legal games, driven only by the engine's own `prompt`: for property tests, benchmarks and demos.

Each command is built from the domains `prompt` offers, so a game this plays is legal by the engine's own
account; the property tests then check it against invariants the engine does not compute itself.
"""

import random
from collections.abc import Iterator

from whispers.ledger.core import commands as c
from whispers.ledger.core import events as ev
from whispers.ledger.core import rules
from whispers.ledger.core.board import Board
from whispers.ledger.core.decree_effects import EFFECTS, AttackCard
from whispers.ledger.core.decrees import Catalogue
from whispers.ledger.core.errors import RuleError
from whispers.ledger.core.legal import Choices
from whispers.ledger.core.names import SLOTS
from whispers.ledger.core.ruleset import Ruleset
from whispers.ledger.core.state import GameState, card_empire


def random_tokens(rng: random.Random, board: Board) -> dict[str, str]:
    return dict(zip(SLOTS, rng.sample(board.empires, len(SLOTS)), strict=True))


def random_command(state: GameState, rng: random.Random, cards: bool = True, named: bool = False,
                   catalogue: Catalogue | None = None, offered: tuple[rules.Option, ...] | None = None) -> c.Command:
    """A legal command for the current state, chosen at random among the prompt's options. With `named`, a draw
    names the cards it draws (as a drawer's own record does), so that views have card names to keep secret.
    `offered`: the prompt's options for this state, when the caller has them already."""
    offered = rules.prompt(state, noted=False).options if offered is None else offered
    options = [o for o in offered if cards or o.verb != "play"]
    plays = [o for o in options if o.verb == "play"]
    # play a card now and then, but never let card play starve the game of orders
    if plays and rng.random() < 0.1:
        option = rng.choice(plays)
        decree = _decree_play(state, option, rng, catalogue) if catalogue is not None else None
        return decree or _play(state, option, rng)
    option = rng.choice([o for o in options if o.verb != "play"])
    society, choices = option.society, option.choices
    match option.verb:
        case "loyalty":
            if state.ruleset.distinct_devout:
                taken = {lo.tokens["devout"] for lo in state.loyalty.values() if lo.tokens}
                tokens = random_tokens(rng, state.board)
                while tokens["devout"] in taken:
                    tokens = random_tokens(rng, state.board)
                return c.RecordLoyalty(society, tokens)
            return c.RecordLoyalty(society, None if rng.random() < 0.2 else random_tokens(rng, state.board))
        case "retrieve":
            return c.Retrieve(society, rng.choice(choices["where"]))
        case "deploy":
            return c.Deploy(society, rng.choice(choices["where"]))
        case "recruit":
            placed: dict[str, int] = {}
            for _ in range(choices["amount"]):
                region = rng.choice(choices["regions"])
                placed[region] = placed.get(region, 0) + 1
            return c.Recruit(society, placed, order=choices["order"], at=choices["at"])
        case "draw":
            drawn: tuple[str, ...] = ()
            if named:
                empire = choices["at"].split(".")[0]
                held = {card for hand in state.hands.values() for card in hand.known}
                held |= {card for card, _effect, _until in state.beside}
                free = [f"{empire}:{n}" for n in state.card_numbers(empire) if f"{empire}:{n}" not in held]
                drawn = tuple(rng.sample(free, min(choices["count"], len(free))))
            return c.Draw(society, drawn, order=choices["order"], at=choices["at"])
        case "attack":
            if state.attack_cards:  # the cards played with it narrow what is legal
                legal = _card_attack(state, society, choices, rng, catalogue)
                if legal is not None:
                    return legal
            source, target, most = rng.choice(choices["attacks"])
            return c.Attack(society, source, target, rng.randint(1, most), at=choices["at"])
        case "swap-agent":
            return c.SwapAgent(society, rng.choice(choices["targets"]))
        case "discard":
            hand = state.hands[society]
            # each card once: a known card by its name, an unknown one by its empire
            pool = [*hand.known, *(e for e in hand.counts for _ in range(hand.unknown(e)))]
            return c.Discard(society, tuple(rng.sample(pool, choices["count"])))
        case "swap-loyalty":
            if rng.random() < 0.5:
                return c.Pass(society)
            a, b = rng.sample(list(choices["slots"]), 2)
            revealed = None
            if state.loyalty[society].tokens is None:
                shown = set(state.loyalty[society].revealed.values())
                unseen = [e for e in state.board.empires if e not in shown]
                x, y = rng.sample(unseen, 2)
                revealed = {a: x, b: y}
            return c.SwapLoyalty(society, (a, b), revealed)
        case "pass":
            return c.Pass(society)
        case "no-card":
            return c.NoCard(society)
        case "reveal":
            loyalty = state.loyalty[society]
            rest = [e for e in state.board.empires if e not in loyalty.revealed.values()]
            rng.shuffle(rest)
            tokens = {slot: loyalty.revealed.get(slot) or rest.pop() for slot in SLOTS}
            if state.ruleset.distinct_devout:
                # REV "Setup": the devout empires as placed at setup (before any swap) are distinct
                taken = {lo.at_setup(lo.tokens)["devout"] for lo in state.loyalty.values() if lo.tokens}
                for _ in range(50):
                    if loyalty.at_setup(tokens)["devout"] not in taken:
                        break
                    free = [e for e in state.board.empires if e not in loyalty.revealed.values()]
                    rng.shuffle(free)
                    tokens = {slot: loyalty.revealed.get(slot) or free.pop() for slot in SLOTS}
            return c.Reveal(society, tokens)
    raise AssertionError(f"no command for {option.verb}")


def _name(known: tuple[str, ...], empire: str) -> str:
    """A card of this empire as the record can name it: a known id when all of them are known."""
    return next((k for k in known if card_empire(k) == empire), empire)


def _play(state: GameState, option: rules.Option, rng: random.Random) -> c.Command:
    """A card play with a small, legal primitive effect (a recruit-like add) and no extra cost."""
    hand = state.hands[option.society]
    empire = rng.choice([e for e, n in hand.counts.items() for _ in range(n)])
    card = empire
    if hand.unknown(empire) == 0:
        card = _name(hand.known, empire)
    target_empire = state.empire
    effects = ev.Effects()
    regions = state.controlled(target_empire)
    if regions and state.reserve[target_empire] > 0:
        effects = ev.Effects(add=((target_empire, rng.choice(regions), 1),))
    return c.PlayCard(option.society, card, ability=1, effects=effects)


def _decree_play(state: GameState, option: rules.Option, rng: random.Random,
                 catalogue: Catalogue) -> c.Command | None:
    """A play of one of the effects the engine adjudicates, with a card of a deck that carries it, when the rules
    allow one now (half the time; the catalogue's timing decides which are playable)."""
    if rng.random() < 0.5:
        return None
    hand = state.hands[option.society]
    playable = []
    for effect, adjudicated in sorted(EFFECTS.items()):
        for deck in catalogue[effect].decks:
            if hand.counts.get(deck, 0) == 0:
                continue
            card = deck if hand.unknown(deck) > 0 else _name(hand.known, deck)
            for params in adjudicated.random_params(state, option.society, rng):
                command = c.PlayCard(option.society, card, effect=effect, params=params)
                try:
                    events = rules.decide(state, command, catalogue)
                except RuleError:
                    continue
                after = any(isinstance(e, ev.CardPlayed) and (e.outcome or {}).get("after") for e in events)
                if isinstance(adjudicated, AttackCard) and not after and not _attack_follows(
                        state, events, option.society, rng, catalogue):
                    continue
                playable.append(command)
    if not playable:
        return None
    # each effect as likely as another, however many parameter sets it has
    effect = rng.choice(sorted({p.effect for p in playable if p.effect}))
    return rng.choice([p for p in playable if p.effect == effect])


def _attack_follows(state: GameState, events: list[ev.Event], society: str, rng: random.Random,
                    catalogue: Catalogue) -> bool:
    """Whether, once this attack card is played, an attack the cards allow is still open."""
    for event in events:
        state = rules.evolve(state, event)
    option = next((o for o in rules.prompt(state, noted=False).options if o.verb == "attack"), None)
    return option is not None and _card_attack(state, society, option.choices, rng, catalogue) is not None


def _card_attack(state: GameState, society: str, choices: Choices, rng: random.Random,
                 catalogue: Catalogue | None) -> c.Attack | None:
    """A legal attack among those offered, once attack cards are played: tried in random order."""
    candidates = [(s, t, n) for s, t, most in choices["attacks"] for n in range(1, most + 1)]
    rng.shuffle(candidates)
    for source, target, n in candidates:
        command = c.Attack(society, source, target, n, at=choices["at"])
        try:
            rules.decide(state, command, catalogue)
        except RuleError:
            continue
        return command
    return None


def play(players: tuple[str, ...], ruleset: Ruleset, board: Board, seed: int, name: str = "random",
         cards: bool = True, undo_rate: float = 0.0, named: bool = False,
         catalogue: Catalogue | None = None) -> Iterator[tuple[c.Command | None, list[ev.Event], GameState]]:
    """Play a whole random game, yielding (command, its events, the state after) for each move (`named`: draws
    name their cards; with `catalogue`, card plays are now and then plays of the effects the engine adjudicates)."""
    rng = random.Random(seed)
    first_event = rules.start(name, players, rng.choice(players), ruleset, board)
    state = rules.evolve(None, first_event)
    yield None, [first_event], state
    while not state.over:
        if undo_rate and state.moves and rng.random() < undo_rate:
            command: c.Command = c.Undo("random take-back")
        else:
            command = random_command(state, rng, cards, named, catalogue)
        produced = rules.decide(state, command, catalogue)
        for event in produced:
            state = rules.evolve(state, event)
        yield command, produced, state
