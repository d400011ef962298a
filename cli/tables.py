"""A state view (projections.visibility.state_view) as rich tables a person reads: the council, the board by
empire, hands, loyalties and the scores if the game ended now. Given the view before, the cells that changed
are highlighted (the replay stepper).

Only what the view holds is shown: the view is already cut to what its viewer may know.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from whispers.application.moves import said_value
from whispers.ledger.core.names import OFFICES, SLOTS
from whispers.ledger.core.words import _, effect_word, n_, plural, say, term, terms, tongue

if TYPE_CHECKING:
    from whispers.application.review import AcrossRead
    from whispers.projections.people import PersonFigures
    from whispers.projections.stats import AttackStat, GameStats
    from whispers.projections.visibility import StateView

CHANGED = "bold black on yellow"
"""How a cell that changed since the step before is drawn."""

Rows = list[list[str]]


def council_rows(view: StateView) -> Rows:
    return [[term(empire), *(term(view["council"].get(f"{empire}.{office}", "·")) for office in OFFICES)]
            for empire in view["cities"]]


def board_rows(view: StateView) -> Rows:
    rows = []
    for empire, cities in view["cities"].items():
        held = [(r, v["banners"]) for r, v in view["regions"].items() if v["controller"] == empire and v["banners"]]
        rows.append([term(empire), str(cities), str(sum(n for _r, n in held)), str(view["reserve"][empire]),
                     ", ".join(f"{r}×{n}" for r, n in held) or "—"])
    return rows


def hand_rows(view: StateView) -> Rows:
    rows = []
    for society, hand in view["hands"].items():
        by_empire = " ".join(f"{term(e)}×{n}" for e, n in hand["by_empire"].items() if n) or "—"
        known = " ".join(map(said_value, hand["known"])) if "known" in hand else _("(hidden)")  # `Ours:7`
        rows.append([term(society), str(hand["size"]), by_empire, known or "—"])
    return rows


def loyalty_rows(view: StateView) -> Rows:
    rows = []
    for society, loyalty in view["loyalty"].items():
        if loyalty is None:
            rows.append([term(society), *(_("not recorded") if i == 0 else "" for i, _s in enumerate(SLOTS))])
            continue
        known = loyalty["tokens"] or loyalty["revealed"]
        cells = [term(known[slot]) if slot in known else "?" for slot in SLOTS]
        if loyalty["sealed"] and not loyalty["revealed"]:
            cells = [_("sealed"), *([""] * (len(SLOTS) - 1))]
        rows.append([term(society), *cells])
    return rows


def score_rows(view: StateView, scores: Mapping[str, int | None]) -> Rows:
    """Each society's points, beside the tie-breaks the table can count: its tokens still concealed, its swaps."""
    rows = []
    for society, total in scores.items():
        loyalty = view["loyalty"].get(society)
        counts = ["", ""] if loyalty is None else [str(loyalty["concealed"]), str(loyalty["swaps"])]
        rows.append([term(society), "?" if total is None else str(total), *counts])
    return rows


def field_rows(view: StateView) -> Rows:
    return [[term(society), region] for society, region in view["field_agents"]]


class _WrappingTable(Table):
    """A table whose cells wrap between words before any word is cut, when its words fit the width at all.

    rich narrows the widest columns first, then every column evenly, and cuts what no longer fits: at 80
    columns a region's or an empire's name came out as `jade-terra…` while the society column beside it kept
    room to spare. Here each column is capped at its longest word plus a share of the room left, shared by
    how much its cells would grow, so rich never has to narrow them itself."""

    def _widths(self) -> list[tuple[int, int]]:
        """Per column, (its longest word, its longest line), header included: what rich measures a Text by."""
        widths = []
        for column in self.columns:
            texts = [str(column.header), *(str(cell) for cell in column.cells)]
            widths.append((max((cell_len(word) for text in texts for word in text.split()), default=0),
                           max((cell_len(line) for text in texts for line in text.splitlines()), default=0)))
        return widths

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        _top, right, _bottom, left = self.padding
        room = options.max_width - (len(self.columns) - 1) * (1 + left + right)  # no edge, no edge padding
        widths = self._widths()
        lows, highs = [low for low, _h in widths], [high for _l, high in widths]
        for column in self.columns:
            column.max_width = None  # as built: a table drawn again at another width is fitted to that one
        if sum(lows) <= room < sum(highs):
            spare, wants = room - sum(lows), [high - low for low, high in widths]
            shares = [spare * want // sum(wants) for want in wants]
            for index in sorted(range(len(wants)), key=lambda i: wants[i] - shares[i], reverse=True):
                if sum(shares) == spare:
                    break
                shares[index] += wants[index] > shares[index]
            for column, low, share in zip(self.columns, lows, shares, strict=True):
                column.max_width = low + share
        yield from super().__rich_console__(console, options)


def _table(title: str, headers: list[str], rows: Rows, before: Rows | None,
           right: tuple[int, ...] = ()) -> Table:
    table = _WrappingTable(title=title, title_justify="left", title_style="bold", show_edge=False, pad_edge=False,
                           min_width=len(title))
    for index, header in enumerate(headers):
        table.add_column(header, justify="right" if index in right else "left")
    old = {row[0]: row for row in before} if before is not None else None
    for row in rows:
        previous = old.get(row[0]) if old is not None else None
        cells = []
        for index, cell in enumerate(row):
            changed = old is not None and (previous is None or index >= len(previous) or previous[index] != cell)
            cells.append(Text(cell, style=CHANGED if changed else ""))
        table.add_row(*cells)
    return table


def _pair(rows_of: Callable[[StateView], Rows], view: StateView,
          before: StateView | None) -> tuple[Rows, Rows | None]:
    return rows_of(view), None if before is None else rows_of(before)


def council_table(view: StateView, before: StateView | None = None) -> Table:
    return _table(_("Council"), [_("empire"), *(term(o, "office") for o in OFFICES)],
                  *_pair(council_rows, view, before))


def board_table(view: StateView, before: StateView | None = None) -> Table:
    return _table(_("Board"), [_("empire"), _("cities"), _("banners"), _("reserve"), _("regions held (×banners)")],
                  *_pair(board_rows, view, before), right=(1, 2, 3))


def hand_table(view: StateView, before: StateView | None = None, society: str | None = None
               ) -> Table:
    """Every society's hand, or with `society` that one's alone (the recorder's `hand SOCIETY`)."""
    def rows_of(of: StateView) -> Rows:
        return [row for row in hand_rows(of) if society is None or row[0] == term(society)]

    title = _("Hands") if society is None else say("Hand of {society}", society=term(society))
    return _table(title, [_("society"), _("cards"), _("by empire"), _("names")], *_pair(rows_of, view, before),
                  right=(1,))


def view_tables(view: StateView, scores: Mapping[str, int | None],
                before: StateView | None = None,
                scores_before: Mapping[str, int | None] | None = None) -> RenderableType:
    """The tables of one view; with `before` (the view a step earlier), what changed is highlighted."""
    parts: list[RenderableType] = [council_table(view, before), board_table(view, before)]
    if view["field_agents"] or (before is not None and before["field_agents"]):
        parts.append(_table(_("Agents in the field"), [_("society"), _("region")], *_pair(field_rows, view, before)))
    parts.append(hand_table(view, before))
    viewer = view.get("viewer")
    title = _("Loyalty") + ("" if viewer is None else " " + say("(as {society} knows it; ? = concealed)",
                                                                 society=viewer))
    # The tie-break counts sit with the scores, not here: five empires' names in four languages fill 80 columns.
    parts.append(_table(title, [_("society"), *(term(s, "slot") for s in SLOTS)], *_pair(loyalty_rows, view, before)))
    unknown = sum(1 for v in scores.values() if v is None)
    note = (None if not unknown else
            say("?: {scores} not computable here (a sealed set, or tokens this viewer may not see)",
                scores=plural(unknown, "score")))
    parts.append(_table(_("Score if the game ended now"), [_("society"), _("points"), _("concealed"), _("swaps")],
                        score_rows(view, scores),
                        None if before is None or scores_before is None else score_rows(before, scores_before),
                        right=(1, 2, 3)))
    if note:
        parts.append(Text(note, style="dim"))
    return Group(*(item for part in parts for item in (part, Text("") if isinstance(part, Table) else None)
                   if item is not None))


def changed_lines(view: StateView, scores: Mapping[str, int | None], before: StateView,
                  scores_before: Mapping[str, int | None]) -> list[str]:
    """What changed from `before` to `view`, one line per changed row of the board, hands, field agents, loyalty
    and score tables (`view_tables`' rows, the table's name in front): the replay stepper's compact step."""
    found: list[str] = []
    for title, now, then in (
        (_("Board"), board_rows(view), board_rows(before)),
        (_("Agents in the field"), field_rows(view), field_rows(before)),
        (_("Hands"), hand_rows(view), hand_rows(before)),
        (_("Loyalty"), loyalty_rows(view), loyalty_rows(before)),
        (_("Score if the game ended now"), score_rows(view, scores), score_rows(before, scores_before)),
    ):
        old = {row[0]: row for row in then}
        found += [f"{title}: " + " · ".join(row) for row in now if old.get(row[0]) != row]
        gone = {row[0] for row in then} - {row[0] for row in now}
        found += [f"{title}: {key} —" for key in sorted(gone)]
    return found


# --- statistics ---------------------------------------------------------------------------------------------


def figure(value: object) -> str:
    """A number for people, as the reader's language writes it: whole numbers as they are, others to one decimal
    (never 0.6666666666666666)."""
    if value is None:
        return "—"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return tongue().number(value)
    return str(value)


def percent(rate: float) -> str:
    return say("{percent}%", percent=tongue().number(round(rate * 100)))


def _plain(title: str, headers: list[str], rows: Sequence[Sequence[object]], right_from: int = 1) -> Table:
    return _table(title, headers, [[str(c) for c in row] for row in rows], None,
                  right=tuple(range(right_from, len(headers))))


def game_stats_tables(data: GameStats) -> RenderableType:
    """`stats GAME` for people: the score, cities by round, banners, orders, cards, attacks."""
    players = data["players"]
    parts: list[RenderableType] = []
    where = _("over") if data["over"] else say("round {round}", round=data["round"]) + " · " + term(data["phase"],
                                                                                                        "phase")
    parts.append(Text(f"{data['game']} · {data['ruleset']} · {terms(players)} · {where}", style="bold"))
    score = data["score"]
    if score is not None:
        empires = list(next(iter(score["scores"].values()))["empires"])
        rows = [[term(s), *(figure(score["scores"][s]["empires"][e]["points"]) for e in empires),
                 figure(score["scores"][s]["concealed_points"]), figure(score["scores"][s]["total"])]
                for s in sorted(players, key=lambda p: -score["scores"][p]["total"])]
        parts.append(_plain(_("Final score (points per empire)"),
                            [_("society"), *(term(e) for e in empires), _("concealed"), _("total")], rows))
        winner = (term(score["winner"]) if score["winner"]
                  else say("none (tie: {societies})", societies=terms(score["tied"])))
        parts.append(Text(say("winner: {society}", society=winner)))
    if data["cities_after_each_round"]:
        empires = list(data["cities_after_each_round"][0]["cities"])
        rows = [[say("after round {round}", round=r["round"]), *(figure(r["cities"][e]) for e in empires)]
                for r in data["cities_after_each_round"]]
        parts.append(_plain(_("Cities per empire"), ["", *(term(e) for e in empires)], rows))
    parts.append(_plain(_("Banners now"), [_("empire"), _("on the board"), _("in reserve")],
                        [[term(e), b["on_board"], b["reserve"]] for e, b in data["banners"].items()]))
    orders = sorted({o for s in players for o in data["orders"][s]})
    if orders:
        parts.append(_plain(_("Orders given"), [_("order"), *(term(s) for s in players)],
                            [[term(o, "order"),
                              *(data["orders"][s].get(o, 0) for s in players)] for o in orders]))
    parts.append(_plain(_("Cards and loyalty swaps"),
                        [_("society"), _("drawn"), _("played"), _("discarded"), _("in hand"), _("swaps")],
                        [[term(s), *(data["cards"][s][k] for k in ("drawn", "played", "discarded", "in_hand")),
                          data["loyalty_swaps"][s]] for s in players]))
    if data["attacks"]:
        # The two empires share a cell, as the two sides' banners do, and from and to share one that wraps at its
        # arrow (a region taken says so there): ten columns of names were cut at 80 columns.
        rows = [[figure(a["round"]), term(a["society"]),
                 say("{attacking} v {defending}", attacking=term(a["empire"]),
                     defending=term(a["defender"]) if a["defender"] else "—"),
                 _route(a),
                 say("{attacking} v {defending}", attacking=figure(a["banners"]), defending=figure(a["defending"])),
                 f"{figure(a['attacker_losses'])}-{figure(a['defender_losses'])}", figure(a["fort_kill"] or "")]
                for a in data["attacks"]]
        parts.append(_table(_("Attacks"), [_("R"), _("society"), _("empires"), _("from → to"), _("banners"),
                                           _("lost"), _("fort")],
                            rows, None, right=(0, 4, 5, 6)))
        parts.append(Text(_("R: round; empires and banners: attacking v defending; lost: attacker's - defender's; "
                            "fort: banners the fort killed"), style="dim"))
    if data["fort_kills"]:
        parts.append(Text(say("Fort kills: {kills}", kills=", ".join(
            f"{r} {figure(n)}" for r, n in data["fort_kills"].items()))))
    if data["supply_losses"]:
        losses = data["supply_losses"].items()
        parts.append(Text(say("Supply losses: {losses}", losses="; ".join(
            f"{term(e)}: " + ", ".join(f"{r} {figure(n)}" for r, n in regions.items()) for e, regions in losses))))
    return Group(*(item for part in parts for item in (part, Text(""))))


def _route(attack: AttackStat) -> str:
    """`from → to`, then in brackets whether the region was taken and the cards that made or changed the combat
    (their effects as the reader reads them: `Armada`, `Renforts`)."""
    said = [_("taken")] if attack["taken"] else []
    said += [effect_word(e) for e in ([attack["by_card"]] if attack["by_card"] else attack["cards"])]
    route = f"{attack['source']} → {attack['target']}"
    return route if not said else route + " (" + ", ".join(said) + ")"


def across_tables(data: AcrossRead) -> RenderableType:
    """`stats --all` for people: win rates by society and by seat, mean scores, points per slot, cities."""
    parts: list[RenderableType] = []
    counted = say("{games} ({finished}, {in_progress})", games=plural(data["games"], "game"),
                  finished=n_("{count} finished", "{count} finished", data["finished"], count=figure(data["finished"])),
                  in_progress=n_("{count} in progress", "{count} in progress", data["in_progress"],
                                 count=figure(data["in_progress"])))
    ruleset = say("ruleset: {ruleset}", ruleset=data["ruleset"]) if data["ruleset"] else _("ruleset: all")
    parts.append(Text(f"{counted} · {ruleset}", style="bold"))
    societies = list(data["win_rate"])
    if societies:
        parts.append(_plain(_("By society"), [_("society"), _("win rate"), _("mean score")],
                            [[term(s), percent(data["win_rate"][s]), figure(data["mean_score"][s])]
                             for s in societies]))
        parts.append(_plain(_("By seat (1 = first player)"), [_("seat"), _("win rate")],
                            [[seat, percent(rate)] for seat, rate in data["win_rate_by_seat"].items()]))
        parts.append(_plain(_("Mean points per loyalty slot"), [_("slot"), _("points")],
                            [[term(slot, "slot"), figure(data["mean_points_per_slot"][slot])]
                             for slot in SLOTS if slot in data["mean_points_per_slot"]]))
        parts.append(_plain(_("Mean final cities"), [_("empire"), _("cities")],
                            [[term(e), figure(n)] for e, n in data["mean_final_cities"].items()]))
    else:
        parts.append(Text(_("No finished game yet: no win rates.")))
    if data["most_contested"]:
        parts.append(_plain(_("Most contested regions"), [_("region"), _("attacks")],
                            [[region, figure(n)] for region, n in data["most_contested"]]))
    if "read" in data:
        parts.append(Text(say("(read {games}, {events} into the catalog this time)",
                              games=plural(data["read"]["games"], "game"),
                              events=plural(data["read"]["events"], "event")), style="dim"))
    return Group(*(item for part in parts for item in (part, Text(""))))


def people_tables(data: Mapping[str, PersonFigures]) -> RenderableType:
    """`stats --all --by player`: each person's finished games, wins and mean score, then by society and by seat."""
    if not data:
        return Text(_("No finished game with a name recorded at a seat (whispers meta GAME --seat SOCIETY=NAME)."))
    parts: list[RenderableType] = [
        _plain(_("Players (finished games)"), [_("player"), _("games"), _("wins"), _("win rate"), _("mean score")],
               [[p, figure(f["games"]), figure(f["wins"]), percent(f["win_rate"]), figure(f["mean_score"])]
                for p, f in data.items()]),
        _plain(_("By society"), [_("player"), _("society"), _("games"), _("wins"), _("mean score")],
               [[p, term(s), figure(n["games"]), figure(n["wins"]), figure(n["mean_score"])]
                for p, f in data.items() for s, n in f["by_society"].items()], right_from=2),
        _plain(_("By seat (1 = first player)"), [_("player"), _("seat"), _("games"), _("wins"), _("mean score")],
               [[p, seat, figure(n["games"]), figure(n["wins"]), figure(n["mean_score"])]
                for p, f in data.items() for seat, n in f["by_seat"].items()], right_from=2),
    ]
    return Group(*(item for part in parts for item in (part, Text(""))))
