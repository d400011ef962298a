"""Primitive board changes, as card plays and rulings record them, and the checks they must pass."""

from collections.abc import Iterable

from msgspec.structs import replace

from whispers.ledger.core import events as ev
from whispers.ledger.core.errors import RuleError
from whispers.ledger.core.names import OFFICES
from whispers.ledger.core.state import GameState, Position
from whispers.ledger.core.words import _, plural, say, term
from whispers.ledger.core.words import position as position_words


def require(condition: bool, message: str, rule: str) -> None:
    if not condition:
        raise RuleError(message, rule)


def where(state: GameState, where: str) -> tuple[Position | None, str | None]:
    """Parse an agent's place: (council position, None) or (None, region)."""
    if "." in where:
        empire, office = where.split(".", 1)
        if empire not in state.board.empires:
            raise RuleError(say("unknown empire {text}", text=repr(empire)), "EN Setup: The Five Empires")
        if office not in OFFICES:
            raise RuleError(say("unknown office {text}: the offices are {offices}", text=repr(office),
                                offices=", ".join(OFFICES)), "EN Deploy Agents Phase")
        return (empire, office), None
    if where not in state.board.regions:
        raise RuleError(say("unknown region {text} on board {board}", text=repr(where), board=repr(state.board.id)),
                        "EN The Map")
    return None, where


def apply_agent_moves(state: GameState, moves: Iterable[tuple[str, str]], rule: str) -> dict[Position, str]:
    council = dict(state.council)
    for source, target in moves:
        src, _region = where(state, source)
        dst, _region = where(state, target)
        require(src is not None and dst is not None, _("agent= moves a council agent: EMPIRE.OFFICE:EMPIRE.OFFICE"),
                rule)
        assert src is not None and dst is not None
        require(src in council, say("there is no agent on {position}", position=position_words(source)), rule)
        require(dst not in council,
                say("{position} is taken by {society}", position=position_words(target), society=council.get(dst)),
                rule)
        council[dst] = council.pop(src)
    return council


def swap_agent_council(
    state: GameState, position: Position, target: str, society: str, displaced: str | None
) -> dict[Position, str]:
    """The council once the agent acting for `position` (the one on it, or the next towards the chancellor) has
    swapped places with `displaced` on the `target` office of the same empire, or moved there when it was open
    (EN "Swap Agent Action")."""
    empire, office = position
    agent = state.active_agent(empire, OFFICES.index(office))
    assert agent is not None
    council = dict(state.council)
    council[(empire, target)] = society
    if displaced is not None:
        council[agent] = displaced
    else:
        del council[agent]
    return council


def resolve_effects(state: GameState, effects: ev.Effects, rule: str) -> ev.Effects:
    """Fill in the empire of `kill=REGION:N` and `move=FROM:TO:N`: the one whose banners are there."""

    def holder(region: str) -> str:
        _known_region(state, region, rule)
        held = state.banners.get(region)
        require(held is not None, say("{region} holds no banners", region=region), rule)
        assert held is not None
        return held[0]

    kill = tuple((r, e or holder(r), n) for r, e, n in effects.kill)
    move = tuple((a, b, e or holder(a), n) for a, b, e, n in effects.move)
    return replace(effects, kill=kill, move=move)


def check_effects(state: GameState, effects: ev.Effects, rule: str) -> None:
    """Effects must be possible and leave a board the rules allow: no region holding two empires' banners."""
    banners, _reserve = apply_banner_effects(state, effects, rule)
    apply_agent_moves(state, effects.agent, rule)
    for region, armies in banners.items():
        held = sorted(e for e, n in armies.items() if n)
        if len(held) > 1:
            empires = say("{items} and {last}", items=", ".join(term(e) for e in held[:-1]), last=term(held[-1]))
            raise RuleError(say("{region} would hold banners of {empires}: record the combat's losses too "
                                "(kill=REGION:N)", region=region, empires=empires), "EN Combat")


def apply_banner_effects(
    state: GameState, effects: ev.Effects, rule: str
) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    banners = {r: {e: n} for r, (e, n) in state.banners.items()}
    reserve = dict(state.reserve)
    for empire, region, n in effects.add:
        require(empire in state.board.empires, say("unknown empire {text}", text=repr(empire)), rule)
        _known_region(state, region, rule)
        require(n >= 1, _("banners added must be at least 1"), rule)
        require(reserve[empire] >= n, say("{empire}'s reserve holds only {banners}", empire=empire,
                                          banners=plural(reserve[empire], "banner")), "EN Components")
        reserve[empire] -= n
        _put(banners, region, empire, n)
    for region, empire, n in effects.kill:
        _known_region(state, region, rule)
        _take(banners, region, empire, n, "kill", rule)
        reserve[empire] += n
    for source, target, empire, n in effects.move:
        for region in (source, target):
            _known_region(state, region, rule)
        _take(banners, source, empire, n, "move", rule)
        _put(banners, target, empire, n)
    return banners, reserve


def _known_region(state: GameState, region: str, rule: str) -> None:
    require(region in state.board.regions, say("unknown region {name}", name=repr(region)), rule)


def _put(banners: dict[str, dict[str, int]], region: str, empire: str, n: int) -> None:
    army = banners.setdefault(region, {})
    army[empire] = army.get(empire, 0) + n


def _take(banners: dict[str, dict[str, int]], region: str, empire: str, n: int, verb: str, rule: str) -> None:
    army = banners.get(region, {})
    require(
        n >= 1 and army.get(empire, 0) >= n,
        say("{region} holds {banners}, cannot kill {n}", region=region, banners=plural(army.get(empire, 0),
                                                                                  f"{empire} banner"), n=n)
        if verb == "kill" else say("{region} holds {banners}, cannot move {n}", region=region,
                                   banners=plural(army.get(empire, 0), f"{empire} banner"), n=n),
        rule,
    )
    army[empire] -= n
