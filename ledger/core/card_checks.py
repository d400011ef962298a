"""What a card play is checked against that the game itself holds: the card sets it named at its start, the card
sheet it pinned (ledger.decrees.check_play: the card carries the effect, the payment matches its cost), and, for an
instant decree, the cards its society has just drawn (REV 296). Each check either refuses the play (DecreeError),
passes, or says what it could not check, for `verify` to list."""

from __future__ import annotations

from whispers.ledger.core.decrees import CardSheet, Catalogue, PlayCheck, check_play, family
from whispers.ledger.core.errors import DecreeError
from whispers.ledger.core.pins import content_hash
from whispers.ledger.core.plain import NO_CARD
from whispers.ledger.core.state import GameState, card_empire
from whispers.ledger.core.words import _, n_, say, term

INSTANT = ("I", "when-drawn")
"""The timings of a decree played at once when drawn (REV 296; the official column of the same cards)."""

_SHEETS: dict[tuple[str, str], CardSheet] = {}
"""Card sheets built from a game's embedded data, by (sheet hash, catalogue hash): a game's plays share one."""


def game_sheet(state: GameState, catalogue: Catalogue) -> CardSheet | None:
    """The card sheet the game pinned at its start, or None. DecreeError if the record's sheet is not valid."""
    if state.cards is None:
        return None
    key = (content_hash(state.cards), catalogue.content_hash)
    if key not in _SHEETS:
        _SHEETS[key] = CardSheet.from_data(state.cards, catalogue, f"the card sheet of {state.name}")
    return _SHEETS[key]


def check_card(state: GameState, effect: str, card: str, pay: tuple[str, ...], catalogue: Catalogue) -> PlayCheck:
    """The catalogue's and the sheet's checks of a play (EN 382, REV 298, REV 315), in the game's card sets."""
    return check_play(catalogue, effect, card, pay, game_sheet(state, catalogue), state.card_sets)


def check_ability(state: GameState, card: str, ability: int, pay: tuple[str, ...], catalogue: Catalogue
                  ) -> PlayCheck:
    """A play that names the card's ability by its number (`ability=2`, as before issue 11) and no effect: with a card
    sheet, the card has that ability, and the payment matches its cost (EN 382). Without a sheet, or for a card the
    record does not name, nothing more is known than before."""
    sheet = game_sheet(state, catalogue)
    if sheet is None or ":" not in card:
        return PlayCheck()
    printed = sheet.card(card)
    if not 1 <= ability <= len(printed.effects):
        raise DecreeError(n_("card {card} has {n} ability, not an ability {ability} (card sheet {sheet})",
                             "card {card} has {n} abilities, not an ability {ability} (card sheet {sheet})",
                             len(printed.effects), card=card, ability=ability, sheet=sheet.id))
    return check_play(catalogue, printed.effects[ability - 1].effect, card, pay, sheet, state.card_sets)


def owed_instants(state: GameState) -> tuple[str, ...]:
    """The cards the society that has just drawn must play at once, before any other move: those of the draw that the
    game's card sheet puts in the Dark alliances set (type I, "resolved immediately", REV 290) and that are still in
    its hand. Known only when the game pinned a sheet and the record names the cards drawn; otherwise none."""
    society = state.last_actor
    if state.cards is None or not state.last_was_draw or society is None or "dark-alliances" not in state.card_sets:
        return ()
    decks = state.cards["decks"]
    hand = state.hands[society].known
    return tuple(card for card in dict.fromkeys(state.drawn[1])
                 if card in hand and (decks.get(card_empire(card)) or {}).get(card.partition(":")[2], NO_CARD)["set"]
                 == "dark-alliances")


def check_drawn(state: GameState, society: str, effect: str, card: str, catalogue: Catalogue) -> PlayCheck:
    """An instant decree played at once must be one of the cards `society` has just drawn (REV 296: "played ... as it
    is drawn"; REV 290-300). Its deck is always known (a draw takes the drawing council's cards); which card it is,
    only when the record names the cards drawn: otherwise the result says what was not checked. Called once the
    timing holds (the society drew last)."""
    decree = catalogue.get(effect)
    if decree.timing(family(state.ruleset)) not in INSTANT:
        return PlayCheck()
    empire, named, count = state.drawn
    deck = card_empire(card)
    if deck != empire:
        raise DecreeError(say("{effect} is played as it is drawn, and {society} has just drawn {empire} cards, not "
                              "{deck} (REV 296)", effect=effect, society=society, empire=empire, deck=deck))
    if card in named:
        return PlayCheck()
    if len(named) >= count:
        drawn = ", ".join(named)
        if ":" in card:
            raise DecreeError(say("{card} is not one of the cards {society} has just drawn ({drawn}): {effect} is "
                                  "played as it is drawn (REV 296)", card=card, society=society, drawn=drawn,
                                  effect=effect))
        raise DecreeError(say("{society} has just drawn {drawn}: name the one played ({effect} is played as it is "
                              "drawn, REV 296)", society=society, drawn=drawn, effect=effect))
    return PlayCheck(unchecked=(_("{effect}: the record does not name every card {society} drew, so whether {card} "
                                  "was one of them could not be checked (REV 296)").format(
        effect=effect, society=term(society), card=card),))
