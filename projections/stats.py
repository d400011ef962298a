"""Statistics folded from the events still standing: one game in detail, and a summary per game for the
figures across many games."""

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import NotRequired, TypedDict

from whispers.ledger.core import events as ev
from whispers.ledger.core.errors import RulesetError
from whispers.ledger.core.evolve import evolve
from whispers.ledger.core.state import GameState
from whispers.ledger.io.ruleset_files import shipped_rulesets
from whispers.ledger.io.shipped import labels, started_ruleset
from whispers.projections.replay import final_scoring, standing, standing_events


class CitiesAfterTurn(TypedDict):
    round: int
    after: str  # the empire whose turn ended
    cities: dict[str, int]


class CitiesAfterRound(TypedDict):
    round: int
    cities: dict[str, int]
    on_board: dict[str, int]
    reserve: dict[str, int]


class AttackStat(TypedDict):
    round: int
    society: str
    empire: str
    source: str
    target: str
    banners: int
    defender: str | None
    defending: int
    fort_kill: int
    attacker_losses: int
    defender_losses: int
    taken: bool
    by_card: str | None
    cards: list[str]


class BannersStat(TypedDict):
    on_board: int
    reserve: int


class CardsStat(TypedDict):
    drawn: int
    played: int
    discarded: int
    in_hand: int


class ScoreStat(TypedDict):
    scores: dict[str, ev.SocietyScore]
    winner: str | None
    tied: list[str]
    trail: list[ev.TrailStep]


class GameStats(TypedDict):
    """One game's figures (`game_stats`): what `stats GAME` prints and its JSON."""

    game: str
    ruleset: str
    players: list[str]
    over: bool
    round: int
    phase: str
    cities_after_each_empire_turn: list[CitiesAfterTurn]
    cities_after_each_round: list[CitiesAfterRound]
    banners: dict[str, BannersStat]
    attacks: list[AttackStat]
    fort_kills: dict[str, int]
    supply_losses: dict[str, dict[str, int]]
    orders: dict[str, dict[str, int]]
    offices: dict[str, dict[str, int]]
    cards: dict[str, CardsStat]
    loyalty_swaps: dict[str, int]
    score: ScoreStat | None


class Summary(TypedDict):
    """What the figures across games need of one game (`standing_summary`), kept per game by the catalog."""

    ruleset: str
    players: list[str]
    seats: dict[str, int]  # society -> its seat, 1 for the first player
    over: bool
    contested: dict[str, int]
    # a finished game's
    winner: NotRequired[str | None]
    tied: NotRequired[list[str]]
    scores: NotRequired[dict[str, int]]
    slot_points: NotRequired[dict[str, dict[str, int]]]
    cities: NotRequired[dict[str, int]]


class Across(TypedDict):
    """Figures across finished games (`across`): what `stats --all` prints and its JSON."""

    ruleset: str | None
    games: int
    finished: int
    in_progress: int
    win_rate: dict[str, float]
    win_rate_by_seat: dict[int, float]
    mean_score: dict[str, float]
    mean_points_per_slot: dict[str, float]
    mean_final_cities: dict[str, float]
    most_contested: list[list[str | int]]  # [region, attacks], the ten most attacked


class UnknownRuleset(RulesetError):
    """Figures asked for under a ruleset no game has and none ships."""


def game_stats(events: Sequence[ev.Event]) -> GameStats:
    """One game's figures: cities over time, banners, attacks, forts, supply, offices, cards, swaps, score."""
    state: GameState | None = None
    cities_by_turn: list[CitiesAfterTurn] = []
    cities_by_round: list[CitiesAfterRound] = []
    attacks: list[AttackStat] = []
    fort_kills: Counter[str] = Counter()
    supply: dict[str, Counter[str]] = defaultdict(Counter)
    orders: dict[str, Counter[str]] = defaultdict(Counter)
    offices: dict[str, Counter[str]] = defaultdict(Counter)
    drawn: Counter[str] = Counter()
    played: Counter[str] = Counter()
    discarded: Counter[str] = Counter()
    swaps: Counter[str] = Counter()
    scored: ev.GameScored | None = None
    for _, event in standing(events):
        state = evolve(state, event)
        match event:
            case ev.SupplyChecked(empire=empire, losses=losses):
                for region, (owner, lost) in losses.items():
                    supply[owner][region] += lost
                cities_by_turn.append({"round": state.round, "after": empire,
                                       "cities": {e: state.cities(e) for e in state.board.empires}})
            case ev.RoundEnded(round=round_):
                cities_by_round.append({"round": round_, "cities": {e: state.cities(e) for e in state.board.empires},
                                        "on_board": {e: state.on_board(e) for e in state.board.empires},
                                        "reserve": dict(state.reserve)})
            case ev.Attacked() | ev.CardAttacked():
                # the army that fought (banners moved, and those the attack's cards added), as the timeline counts
                # it; the Bear's extra attack is a combat of its own, though no order
                attacks.append({
                    "round": state.round, "society": event.society, "empire": event.empire, "source": event.source,
                    "target": event.target,
                    "banners": event.banners if isinstance(event, ev.CardAttacked) else event.army,
                    "defender": event.held_by, "defending": event.defending, "fort_kill": event.fort_kill,
                    "attacker_losses": event.attacker_losses, "defender_losses": event.defender_losses,
                    "taken": event.controller == event.empire,
                    "by_card": event.effect if isinstance(event, ev.CardAttacked) else None,
                    "cards": [] if isinstance(event, ev.CardAttacked) else list(event.cards),
                })
                if event.fort_kill:
                    fort_kills[event.target] += event.fort_kill
                if not isinstance(event, ev.CardAttacked):
                    orders[event.society]["attack"] += 1
                    offices[event.society][f"{event.empire}.{event.office}"] += 1
            case ev.BannersRecruited() | ev.CardsDrawn():
                orders[event.society][event.order] += 1
                offices[event.society][f"{event.empire}.{event.office}"] += 1
                if isinstance(event, ev.CardsDrawn):
                    drawn[event.society] += event.drawn
            case ev.AgentSwapped():
                orders[event.society]["swap_agent"] += 1
                offices[event.society][f"{event.empire}.{event.office}"] += 1
            case ev.CardPlayed(society=society, pay=pay):
                played[society] += 1
                discarded[society] += len(pay)
            case ev.CardsDiscarded(society=society, cards=cards):
                discarded[society] += len(cards)
            case ev.LoyaltySwapped(society=society):
                swaps[society] += 1
            case ev.GameScored():
                scored = event
    assert state is not None, "a record has at least its first event"
    return {
        "game": state.name, "ruleset": labels(state)[0], "players": list(state.players), "over": state.over,
        "round": state.round, "phase": state.phase,
        "cities_after_each_empire_turn": cities_by_turn,
        "cities_after_each_round": cities_by_round,
        "banners": {e: {"on_board": state.on_board(e), "reserve": state.reserve[e]} for e in state.board.empires},
        "attacks": attacks,
        "fort_kills": dict(fort_kills),
        "supply_losses": {e: dict(regions) for e, regions in supply.items()},
        "orders": {s: dict(orders[s]) for s in state.players},
        "offices": {s: dict(offices[s]) for s in state.players},
        "cards": {s: {"drawn": drawn[s], "played": played[s], "discarded": discarded[s],
                      "in_hand": state.hands[s].size} for s in state.players},
        "loyalty_swaps": {s: swaps[s] for s in state.players},
        "score": None if scored is None else {"scores": scored.scores, "winner": scored.winner,
                                               "tied": list(scored.tied), "trail": list(scored.trail)},
    }


def summary(events: Sequence[ev.Event]) -> Summary:
    """What the figures across games need of one game (kept per game by the catalog)."""
    kept = standing_events(events)
    return standing_summary(kept, final_scoring(kept))


def standing_summary(kept: Sequence[ev.Event], scored: ev.GameScored | None, ruleset: str | None = None
                     ) -> Summary:
    """`summary` of the events still standing (`standing`) and their final scoring (`final_scoring`), for a reader
    that has them already (the catalog), and the ruleset's label if known (else hashed from the first event)."""
    first = kept[0]
    assert isinstance(first, ev.GameStarted)
    start = first.players.index(first.first)
    seats = {s: (i - start) % len(first.players) + 1 for i, s in enumerate(first.players)}
    contested = Counter([e.target for e in kept if type(e) is ev.Attacked])
    label = started_ruleset(first).label if ruleset is None else ruleset
    result: Summary = {"ruleset": label, "players": list(first.players), "seats": seats,
                              "over": scored is not None, "contested": dict(contested)}
    if scored is not None:
        result.update({
            "winner": scored.winner, "tied": list(scored.tied),
            "scores": {s: v["total"] for s, v in scored.scores.items()},
            "slot_points": {s: {e["slot"]: e["points"] for e in v["empires"].values()}
                            for s, v in scored.scores.items()},
            "cities": {empire: data["cities"] for empire, data in next(iter(scored.scores.values()))["empires"]
                       .items()},
        })
    return result


def across(summaries: Iterable[Summary], ruleset: str | None = None) -> Across:
    """Figures across finished games: win rates per society and per seat, mean scores, mean points per loyalty
    slot, mean final cities per empire, the most contested regions. A shared win counts as a win for none.

    UnknownRuleset for a `ruleset` neither shipped nor used by any of the games: its zeros would be no answer."""
    summaries = list(summaries)
    if ruleset is not None:
        known = {*shipped_rulesets(), *(s["ruleset"] for s in summaries)}
        if ruleset not in known:
            raise UnknownRuleset(f"unknown ruleset {ruleset!r}: the rulesets are {', '.join(sorted(known))}")
    games = [s for s in summaries if ruleset is None or s["ruleset"] == ruleset]
    finished = [s for s in games if s["over"]]
    played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    seat_played: Counter[int] = Counter()
    seat_wins: Counter[int] = Counter()
    score_sum: Counter[str] = Counter()
    slot_sum: Counter[str] = Counter()
    slot_count: Counter[str] = Counter()
    city_sum: Counter[str] = Counter()
    contested: Counter[str] = Counter()
    for game in games:
        contested.update(game["contested"])
    for game in finished:
        for society, seat in game["seats"].items():
            played[society] += 1
            seat_played[seat] += 1
            score_sum[society] += game["scores"][society]
            for slot, points in game["slot_points"][society].items():
                slot_sum[slot] += points
                slot_count[slot] += 1
        if game["winner"]:
            wins[game["winner"]] += 1
            seat_wins[game["seats"][game["winner"]]] += 1
        city_sum.update(game["cities"])
    n = len(finished)
    return {
        "ruleset": ruleset, "games": len(games), "finished": n, "in_progress": len(games) - n,
        "win_rate": {s: wins[s] / played[s] for s in sorted(played)},
        "win_rate_by_seat": {seat: seat_wins[seat] / seat_played[seat] for seat in sorted(seat_played)},
        "mean_score": {s: score_sum[s] / played[s] for s in sorted(played)},
        "mean_points_per_slot": {slot: slot_sum[slot] / slot_count[slot] for slot in slot_count},
        "mean_final_cities": {e: city_sum[e] / n for e in city_sum} if n else {},
        "most_contested": [[region, count] for region, count in contested.most_common(10)],
    }
