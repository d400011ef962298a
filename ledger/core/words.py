"""The words shown for the codes that events keep (skip reasons, tie-break steps, the engine's own events), and
for counts in messages, in the reader's language.

Events store codes and parameters (never sentences), so the words can be chosen when they are shown. Every
sentence here is an English message id (`_`, `n_`, `say`), looked up in the language the face chose for this
context (`use`); the catalogues are the .po files of projections/language.py, which loads them (I/O, so not
here). The game's own terms (empires, societies, offices, slots, phases, orders) are canonical ids in records
and in notation; `term` gives the rulebook's word for one (docs/languages.md has the glossary).
"""

from collections.abc import Callable, Iterable, Mapping
from contextvars import ContextVar, Token
from typing import TYPE_CHECKING

import msgspec

from whispers.ledger.core.names import MOVE_VERBS, OFFICES, ORDERS, SLOTS, SOCIETIES
from whispers.ledger.core.plain import Data

if TYPE_CHECKING:  # every command speaks, few describe events: `games` need not import them all
    from whispers.ledger.core import events as ev

LANGUAGES = ("en", "fr", "it", "es")
"""The languages of the four official rulebooks (the REV text is English)."""

EMPIRES = ("bear", "eagle", "elephant", "lion", "horse")
"""The five empires of the official game; a board names its own, and an unknown one is shown as it is."""
PHASES = ("setup", "retrieve", "deploy", "empire", "cleanup", "swap", "reveal", "over")
TERMS: dict[str, tuple[str, ...]] = {
    "society": SOCIETIES, "empire": EMPIRES, "office": OFFICES, "slot": SLOTS, "phase": PHASES, "order": ORDERS,
    "verb": MOVE_VERBS,
}
"""The glossary's kinds (a message context each) and their canonical ids: every one has a word per language."""
KIND_OF = {word: kind for kind in ("society", "empire", "office", "slot") for word in TERMS[kind]}
"""The ids `say` puts in words by itself: phases and orders share ids with verbs (deploy, attack), so they are
put in words where they are meant (`term(id, "phase")`)."""
COUNTED = {"city": "cities", "score": "scores", "card": "cards", "banner": "banners", "game": "games",
           "event": "events", "move": "moves", "agent": "agents", "note": "notes",
           "deck": "decks", "region": "regions", "empire": "empires", "farm": "farms", "fort": "forts"}
"""The nouns `plural` counts in every language (`{n} city`, `{n} cities` in the catalogues)."""
KEYS = ("order", "at", "effect", "ability", "pay", "salt", "add", "kill", "move", "agent", "act", "sealed",
        "to", "from", "n", "region", "position", "empire")
"""The notation's own words beside the glossary's (context "key"): its keys (`order=`, `pay=`), the shipped decree
catalogue's parameter names (`to=`, `from=`) and `loyalty sealed`. A line in the reader's words writes them in
that language (`payer=`), and reads them back (application/moves.py)."""
METAVARS = ("REGION", "FROM", "TO", "CARD", "SLOT", "EFFECT", "PARAM", "VALUE")
"""The placeholders of a move's line as `status` writes them (`recruit REGION=N`): in capitals, in the reader's
words (context "metavar", as `--help`'s `GAME`)."""


def _same(text: str) -> str:
    return text


def _english_n(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


ENGLISH_TERMS: dict[tuple[str, str], str] = {
    ("order", "recruit_2"): "Recruit 2", ("order", "recruit_per_farm"): "Recruit 1 per farm",
    ("order", "recruit_per_fort"): "Recruit 1 per fort", ("order", "recruit_2_per_fort"): "Recruit 2 per fort",
    ("order", "draw_1"): "Draw 1 card", ("order", "draw_per_2_farms"): "Draw 1 card per 2 farms",
    ("order", "draw_per_3_farms"): "Draw 1 card per 3 farms", ("order", "draw_per_2_forts"): "Draw 1 card per 2 forts",
    ("order", "draw_per_3_forts"): "Draw 1 card per 3 forts", ("order", "attack"): "Attack",
    ("order", "swap_agent"): "Swap agent",
}
"""Where English shows a term other than its id: the council orders as the board's icons read (EN "Empire Turns
Phase"), never an id like `recruit_per_fort`; the other terms are their ids, as English readers read them."""


def _english_p(context: str, text: str) -> str:
    return ENGLISH_TERMS.get((context, text), text)


class Tongue(msgspec.Struct, frozen=True):
    """One language's lookups. English is the message ids themselves; the others come from a catalogue."""

    code: str = "en"
    gettext: Callable[[str], str] = _same
    ngettext: Callable[[str, str, int], str] = _english_n
    pgettext: Callable[[str, str], str] = _english_p
    effect: Callable[[str], str] = _same
    """A decree effect's id to its name in this language; English shows the id, as the notation
    writes it (projections/language.py gives the others, from the catalogue's names)."""
    number: Callable[[float], str] = msgspec.field(default=lambda n: f"{n:,}" if isinstance(n, int) else f"{n:,.1f}")


ENGLISH = Tongue()
_current: ContextVar[Tongue] = ContextVar("whispers_tongue", default=ENGLISH)


def use(tongue: Tongue) -> Token[Tongue]:
    """Speak `tongue` in this context (a CLI run, one web request) until `reset(token)`."""
    return _current.set(tongue)


def reset(token: Token[Tongue]) -> None:
    _current.reset(token)


def tongue() -> Tongue:
    return _current.get()


def _(message: str) -> str:
    """`message` (an English message id) in the current language."""
    return _current.get().gettext(message)


def term(word: str, kind: str | None = None) -> str:
    """The rulebook's word for a canonical id (`bear` -> "Ours" in French); other text is left as it is."""
    kind = kind or KIND_OF.get(word)
    if kind is None or not isinstance(word, str):
        return word
    return _current.get().pgettext(kind, word)


def terms(words: Iterable[str]) -> str:
    """Canonical ids in words, joined by commas."""
    return ", ".join(term(w) for w in words)


def effect_name(name: str) -> str:
    """A decree effect's name as its catalogue holds it (English: "Reinforce") in the reader's language
    ("Renforts"); a name no catalogue translates stays as it is."""
    return _current.get().pgettext("effect", name)


def effect_word(effect_id: str) -> str:
    """A decree effect's id as the reader reads it: its name in their language, or the id in English
    (the notation's word, which `effect=` takes)."""
    return _current.get().effect(effect_id)


def key_word(key: str) -> str:
    """A notation key (`pay`, `to`: KEYS) in the reader's words; any other stays as it is."""
    return _current.get().pgettext("key", key) if key in KEYS else key


def metavar(word: str) -> str:
    """A placeholder of a line (`REGION`, METAVARS) in the reader's words, in capitals."""
    return _current.get().pgettext("metavar", word)


VERBATIM = frozenset({"game", "parent", "store", "file", "board", "ruleset", "note", "reason", "example", "text",
                      "head", "line", "then", "author", "message", "name"})
"""Fields of a message that hold a user's or a file's text (a game's name may be `bear`): never put in words."""


def _shown(params: Mapping[str, object]) -> Data:
    """The fields in words: each canonical id as its term, a field named `effect` (a decree effect's id) as the
    effect's name (effect_word); free text (VERBATIM) as it is."""
    return {k: (effect_word(v) if k == "effect" else term(v)) if isinstance(v, str) and k not in VERBATIM else v
            for k, v in params.items()}


def say(message: str, /, **params: object) -> str:
    """`message` in the current language, its {fields} filled in: a canonical id becomes its term (but not in
    a field that holds free text, `VERBATIM`)."""
    spoken = _current.get()
    if spoken is ENGLISH and not ENGLISH_TERMS:  # English shows every id as it is: no term to look up
        return message.format(**params)
    return spoken.gettext(message).format(**_shown(params))


def n_(singular: str, plural: str, n: int, /, **params: object) -> str:
    """The form of a message that agrees with `n` (a language may have more than two), {n} and fields filled."""
    shown = _shown(params)
    return _current.get().ngettext(singular, plural, n).format(n=n, **shown)


# --- rulebook references ------------------------------------------------------------------------------------

EDITIONS: dict[str, dict[str, str]] = {
    "EN Overview": {"fr": "FR Introduction, 48", "it": "IT Panoramica, 45", "es": "ES Como se Juega, 81"},
    "EN Components": {"fr": "FR Matériel, 104", "it": "IT Componenti, 76", "es": "ES Componentes, 7"},
    "EN Components: 9 agents": {"fr": "FR Matériel, 122", "it": "IT Componenti, 94", "es": "ES Componentes, 12"},
    "EN Setup: Player Boards and Tokens": {"fr": "FR Plateaux individuels et jetons, 144",
                                           "it": "IT Schede e Gettoni Giocatore, 116", "es": "ES Preparar, 25"},
    "EN Setup: The Five Empires": {"fr": "FR Les cinq empires, 148", "it": "IT I Cinque Imperi, 120",
                                   "es": "ES Los cinco imperios, 29"},
    "EN The Map": {"fr": "FR Le plateau central, 156", "it": "IT La Mappa, 128", "es": "ES El mapa, 37"},
    "EN Setup: First Player": {"fr": "FR Premier joueur, 160", "it": "IT Primo Giocatore, 132",
                               "es": "ES Primer jugador, 41"},
    "EN Setup: Loyalty": {"fr": "FR Loyauté, 164", "it": "IT Fedeltà, 136", "es": "ES Lealtad, 45"},
    "EN Loyalty Tokens and Scoring": {"fr": "FR Jetons Loyauté et décompte final, 190",
                                      "it": "IT Gettoni fedeltà e punteggio, 160",
                                      "es": "ES Fichas de lealtad y puntuación, 61"},
    "EN Gameplay Overview": {"fr": "FR Comment jouer, 221", "it": "IT Panoramica del gioco, 188",
                             "es": "ES Como se Juega, 81"},
    "EN Deploy Agents Phase": {"fr": "FR Phase des Agents, 239", "it": "IT Fase di schieramento agenti, 199",
                               "es": "ES Fase de implementación de agentes, 99"},
    "EN Deploy Agents Phase, Step 1": {"fr": "FR Phase des Agents, Étape 1, 239",
                                       "it": "IT Fase di schieramento agenti, 199",
                                       "es": "ES Fase de implementación de agentes, 99"},
    "EN Deploy Agents Phase, Step 2": {"fr": "FR Phase des Agents, Étape 2, 239",
                                       "it": "IT Fase di schieramento agenti, 199",
                                       "es": "ES Fase de implementación de agentes, 99"},
    "EN Empire Turns Phase": {"fr": "FR Phase des Empires, 253", "it": "IT Fase turni dell'impero, 209",
                              "es": "ES Empire Turns Phase, 111"},
    "EN Council Positions": {"fr": "FR Conseillers, 284", "it": "IT Posizioni del Consiglio, 243",
                             "es": "ES Cargos del Consejo, 143"},
    "EN Add Banner Actions": {"fr": "FR Recruter, 290", "it": "IT Aggiungere Azioni Standardo, 247",
                              "es": "ES Cargos del Consejo, 143"},
    "EN Attack Action": {"fr": "FR Attaquer, 302", "it": "IT Azione d'attacco, 284",
                         "es": "ES Acción de ataque, 187"},
    "EN Draw Empire Card Actions": {"fr": "FR Piocher des cartes, 306", "it": "IT Pesca la carta Azioni Impero, 261",
                                    "es": "ES Cargos del Consejo, 143"},
    "EN Swap Agent Action": {"fr": "FR Changer d'emplacement, 318", "it": "IT Azione di scambio dell'agente, 273",
                             "es": "ES Canciller, 167"},
    "EN Combat": {"fr": "FR Combat, 344", "it": "IT Combattimento, 300", "es": "ES Combate, 199"},
    "EN Swap Phase": {"fr": "FR Phase d'Intrigue, 378", "it": "IT Fase di Scambio, 320",
                      "es": "ES Fase de intercambio, 215"},
    "EN Cleanup Phase": {"fr": "FR Phase d'Entretien, 374", "it": "IT Fase di Pulizia, 326",
                         "es": "ES Fase de limpieza, 221"},
    "EN Playing Cards": {"fr": "FR Jouer des cartes, 398", "it": "IT Giocare carte, 346",
                         "es": "ES Jugando a las cartas, 237"},
    "EN Final Scoring": {"fr": "FR Décompte final, 408", "it": "IT Punteggio finale, 356",
                         "es": "ES Fin del juego, 247"},
    "EN Advanced Rules: Assigning Agents to Regions": {"fr": "FR Déployer un agent dans une région, 422",
                                                       "it": "IT Assegnare gli agenti alle regioni, 382",
                                                       "es": "ES Reglas avanzadas, 259"},
}
"""An English rulebook section as the reader's edition names it, with its line in that text (seeds/, the
digest's line numbers). A section one edition lacks, a REV one, or whispers' own stays as it is."""


def cite(rule: str) -> str:
    """The rulebook reference of `rule` in the edition of the current language, where that edition has it."""
    return EDITIONS.get(rule, {}).get(_current.get().code, rule)

def no_such_event(game: str, last: int, asked: int) -> str:
    """An event number outside a game's record (errors.NoSuchEvent), in the one wording every command uses."""
    if last == 1:
        return say("game {game} has only event 1: there is no event {asked}", game=game, asked=asked)
    return say("game {game} has events 1 to {last}: there is no event {asked}", game=game, last=last, asked=asked)


def N_(message: str) -> str:
    """Marks a message id for the catalogues where it is written, to be looked up (`_`) where it is shown."""
    return message


SKIP_REASONS = {
    "no-agent-on-board": N_("no agent on the board"),
    "no-agent-left": N_("no agent left"),
    "no-open-position": N_("no open position"),
    "too-few-concealed": N_("fewer than two concealed tokens"),
}
TIE_BREAKS = {
    "fewest_swaps": N_("fewest loyalty swaps"),
    "most_concealed": N_("most concealed loyalties"),
    "most_cards": N_("most cards in hand"),
}


def skip_reason(code: str) -> str:
    return _(SKIP_REASONS[code]) if code in SKIP_REASONS else code


def office_skip_reason(event: "ev.OfficeSkipped") -> str:
    if event.reason == "uncontrolled":
        return _("no agent controls it")
    return say("no legal order at {positions}", positions=", ".join(position(p) for p in event.positions))


def position(name: str) -> str:
    """A council position (`bear.sheriff`) in words: the empire's and the office's terms."""
    if _current.get() is ENGLISH:
        return name  # the notation's own form, which English readers have always been shown
    empire, _dot, office = name.partition(".")
    return f"{term(empire)} {term(office)}" if office else term(name)


def trail_step(step: "ev.TrailStep") -> str:
    """One step of a tie-break trail (events.GameScored) in words."""
    match step.get("step"):
        case "highest":
            return say("highest score {score}: {societies}", score=step["score"], societies=terms(step["societies"]))
        case "tie-break":
            code = step["rule"]
            rule = _(TIE_BREAKS[code]) if code in TIE_BREAKS else code
            return say("tie-break, {rule}: {societies}", rule=rule, societies=terms(step["societies"]))
        case "winner":
            return say("{society} wins", society=step["society"])
        case "still-tied":
            outcome = _("a shared win") if step["outcome"] == "shared" else _("no winner")
            return say("still tied after every tie-break: {outcome}", outcome=outcome)
    return str(step)


def describe(event: "ev.Event") -> str:
    """A few words on one of the engine's own events."""
    from whispers.ledger.core import events as ev

    match event:
        case ev.PhaseStarted(round=r, phase=p):
            return say("round {round}: {phase}", round=r, phase=term(p, "phase"))
        case ev.Skipped(society=s, phase=p, reason=why):
            return say("{society} skips {phase}: {reason}", society=s, phase=term(p, "phase"), reason=skip_reason(why))
        case ev.EmpireTurnStarted(empire=e):
            return say("{empire}'s turn", empire=e)
        case ev.OfficeSkipped(empire=e, office=o):
            return say("{empire} {office} skipped: {reason}", empire=e, office=o, reason=office_skip_reason(event))
        case ev.SupplyChecked(empire=e, losses=losses):
            lost = ", ".join(f"{r} -{n} {term(emp)}" for r, (emp, n) in losses.items())
            return say("supply check after {empire}: {lost}", empire=e, lost=lost or _("nothing lost"))
        case ev.RoundEnded(round=r):
            return say("round {round} ends", round=r)
        case ev.CardAttacked(effect=effect, empire=e, source=a, target=b, banners=n, controller=held):
            return say("{effect}: {empire} attacks {target} from {source} with {banners} (-{attacker} {empire}, "
                       "-{defender} {held_by}); {target} held by {controller}", effect=effect, empire=e, target=b,
                       source=a, banners=plural(n, "banner"), attacker=event.attacker_losses,
                       defender=event.defender_losses, held_by=event.held_by, controller=held)
        case ev.FirstPlayerPassed(first=f):
            return say("first player: {society}", society=f)
        case ev.GameDescribed(changes=changes):
            cleared = _("(cleared)")
            said = {k: ", ".join(f"{term(s)} {n or cleared}" for s, n in changes["seats"].items()) if k == "seats"
                    else ", ".join(changes["tags"]) if k == "tags" else cleared if v is None else v
                    for k, v in changes.items()}
            # the facts are the table's own words (a title, a player's name): never put in the glossary's
            return say("table facts: {text}", text="; ".join(f"{key} {value}" for key, value in said.items()))
        case ev.GameStarted(name=name, players=players, first=first):
            return say("{game} set up: {players}; first player {society}", game=name, players=terms(players),
                       society=first)
        case ev.MoveAmended(move=move, reason=reason, moves=n):
            return say("amended: the move of event {move} is corrected ({reason}); {moves} decided again", move=move,
                       reason=reason, moves=plural(n, "move"))
        case ev.GameForked(parent=parent, at=at):
            return say("forked from {parent} at event {at}", parent=parent, at=at)
        case ev.GameScored(scores=scores, winner=w, trail=trail):
            totals = ", ".join(f"{term(s)} {v['total']}" for s, v in scores.items())
            return say("final scores: {totals}; {outcome}", totals=totals,
                       outcome=trail_step(trail[-1]) if trail else term(w) if isinstance(w, str) else w)
    return type(event).__name__


def plural(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and `noun`, the noun agreeing with the number: "1 card", "2 cards", "0 bear banners".

    `noun` may carry words before the counted one ("bear banner"); `plural` gives an irregular plural whole.
    In another language, a noun its catalogue has (`n_`) takes that language's forms, however many it has.
    """
    if plural is None:
        plural = f"{noun[:-1]}ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else f"{noun}s"
    said = _current.get()
    empire, _space, counted = noun.partition(" ")
    if said is not ENGLISH and counted == "banner" and empire in EMPIRES:
        return n_("{n} {empire} banner", "{n} {empire} banners", n, empire=empire)  # "2 unités Ours"
    if said is not ENGLISH:
        # the language's own forms and rule (French "0 note": a form may read as the English one, and the rule still
        # differs); a noun its catalogue lacks comes back in English by English's rule
        return said.ngettext(f"{{n}} {noun}", f"{{n}} {plural}", n).format(n=n)
    return f"{n} {noun}" if n == 1 else f"{n} {plural}"


def value_kind(value: object) -> str:
    """A value's type in TOML's words, for messages about a board, ruleset, catalogue or card sheet file."""
    if isinstance(value, bool):
        return _("a boolean")
    if isinstance(value, int):
        return _("an integer")
    if isinstance(value, float):
        return _("a float")
    if isinstance(value, str):
        return _("a string")
    if isinstance(value, list | tuple):
        return _("an array")
    if isinstance(value, Mapping):
        return _("a table")
    return type(value).__name__


def refusal(error: Exception) -> str:
    """A refusal as the reader sees it: a rule's refusal (errors.RuleError: `reason`, `rule`) cites the rulebook
    of the reader's edition; any other error is its message."""
    reason, rule = getattr(error, "reason", None), getattr(error, "rule", None)
    if isinstance(reason, str) and isinstance(rule, str):
        return f"{reason} ({cite(rule)})"
    return str(error)
