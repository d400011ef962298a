"""Every word a player reads in their language (issue 32, item 7): each face (the CLI's status, stats, a move's
preview and its refusals; the table page, its pickers and a move's preview; each seat's page) rendered under fr, it
and es shows no internal id (`recruit_per_fort`, `kill-all`) and no English verb, order or notation key; and a line
in the reader's words (what those faces show) reads back to the notation, so `whispers --lang fr move` records
exactly what the English line records."""

from __future__ import annotations

import functools
import html
import random
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from starlette.testclient import TestClient
from support import DEPLOYED

from whispers.application import moves, recording, sharing
from whispers.cli.main import whispers
from whispers.ledger.core import rules
from whispers.ledger.core.names import ORDERS
from whispers.ledger.core.notation import format_event
from whispers.ledger.core.randomgame import play, random_command
from whispers.ledger.io.board_files import load_board
from whispers.ledger.io.decree_files import shipped_catalogue
from whispers.ledger.io.game import load
from whispers.ledger.io.ruleset_files import load_ruleset
from whispers.ledger.io.store import open_store
from whispers.projections import language
from whispers.web.app import create_app

LANGUAGES = ("fr", "it", "es")
ENGLISH = {"loyalty", "retrieve", "deploy", "recruit", "draw", "attack", "swap-agent", "play", "discard", "no-card",
           "swap-loyalty", "pass", "reveal", "sealed", "Recruit", "Draw", "Attack", "Swap", "order", "effect", "pay",
           "ability", "add", "kill", "move", "act", "salt", "at", "to", "from", "REGION", "FROM", "TO", "CARD",
           "SLOT", "bear", "eagle", "elephant", "lion", "horse", "raven", "spider", "serpent", "sheriff", "steward",
           "marshal", "chancellor", "devout", "dutiful", "affiliated", "unallied", "opposed"}
"""English words of the game a French, Italian or Spanish player must not meet: the notation's verbs and keys, the
orders', and the glossary's ids. (`Lion`, `Rat` and `Serpent` are French words too; the lower-case id is not.)"""
IDS = re.compile(r"\b(?:recruit|draw)_\w+|\bswap_agent\b|\b(?:" + "|".join(
    re.escape(e) for e in sorted(shipped_catalogue().decrees, key=len, reverse=True) if "-" in e) + r")\b")
"""Internal ids: the orders' (`recruit_per_fort`) and the decree effects' of more than one word (`kill-all`; a
one-word id, `armada`, is an English word above, where it is one)."""


def unspoken(text: str) -> list[str]:
    """The internal ids and English words of `text` (a region's name, `talon-pass`, is a proper noun: a word is
    judged whole, hyphens and all, and so is each part of a card, a key=value or a label: `bear:7`, `pay=`)."""
    found = [m[0] for m in IDS.finditer(text)]
    for word in re.findall(r"[\w\-=:.,]+", text):
        if any(part in ENGLISH for part in re.split(r"[=:.,]", word)):  # `bear:7`, `pay=`, `1.bear.marshal` too
            found.append(word)
    return found


class Shown(HTMLParser):
    """What a page shows a person: its text, and the titles, labels, placeholders and sentences its script shows
    (data-say-*), never a script, a style or a value sent to the server."""

    def __init__(self) -> None:
        super().__init__()
        self.out: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.hidden += 1
        for key, value in attrs:
            if value and (key in ("title", "aria-label", "placeholder", "alt") or key.startswith("data-say")):
                self.out.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.out.append(data)


def shown(page: str) -> str:
    parser = Shown()
    parser.feed(page)
    return "\n".join(parser.out)


def cli(store: Path, *args: str) -> Result:
    return CliRunner().invoke(whispers, [*args, "--store", str(store)], prog_name="whispers", env={"COLUMNS": "200"})


def next_line(store: Path, game: str, rng: random.Random) -> str | None:
    """A legal move of `game` now, as the notation writes it (a card play with an effect the engine adjudicates
    now and then)."""
    with open_store(str(store)) as s:
        state = load(s, game).state
    if state.over:
        return None
    command = random_command(state, rng, named=True, catalogue=shipped_catalogue())
    events = rules.decide(state, command, shipped_catalogue())
    return format_event(events[0], borrowed=True)


@dataclass(frozen=True)
class Games:
    store: Path
    waiting: dict[str, list[str]]
    """Each game's move to come, as the notation writes it."""
    links: dict[str, sharing.Links]


def offers_effects(store: Path, game: str) -> bool:
    """Whether a society may play a card for a decree effect now (the pickers then offer the effects)."""
    from whispers.application.reading import status

    return any(o.verb == "play" and o.choices.get("effects") for o in status(str(store), game).options)


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Games:
    """Three games played at random, cards and decree effects included: two stopped where a card may be played for
    an effect (official, 3 players; revised, 4), one played to its end; each with the move to come."""
    store = tmp_path_factory.mktemp("words") / "s.sqlite"
    waiting: dict[str, list[str]] = {}
    for name, players, ruleset, seed, least in (("o", "raven,spider,rat", "official", 3, 12),
                                                ("r", "raven,spider,rat,serpent", "revised", 5, 30),
                                                ("end", "raven,spider,rat", "official", 7, 10_000)):
        assert cli(store, "new", name, "--players", players, "--ruleset", ruleset).exit_code == 0
        rng = random.Random(seed)
        played = 0
        while (line := next_line(store, name, rng)) is not None:
            if played >= least and offers_effects(store, name):
                break
            assert cli(store, "move", name, *line.split()).exit_code == 0, line
            played += 1
        waiting[name] = [line] if line else []
    assert [name for name, lines in waiting.items() if lines] == ["o", "r"]
    with open_store(str(store)) as s:
        links = {name: sharing.share(s, name) for name in waiting}
    return Games(store, waiting, links)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_cli_says_no_internal_id_and_no_english_word(games: Games, code: str) -> None:
    """status, stats, a move's preview (its line read in the reader's words, as shown) and the refusals of moves
    written in those words: all in the language of the player, the ids the notation's alone."""
    store, waiting = games.store, games.waiting
    said: list[str] = []
    for game, lines in waiting.items():
        for command in ("status", "stats"):
            result = cli(store, "--lang", code, command, game)
            assert result.exit_code == 0, result.output
            said.append(result.stdout)
        token = language.speak(code)
        try:
            words = [moves.said_line(line) for line in lines]
        finally:
            language.stop(token)
        for line, typed in zip(lines, words, strict=True):
            result = cli(store, "--lang", code, "move", game, "--preview", typed)
            assert result.exit_code == 0, (line, typed, result.output)
            said.append(result.stdout)
    token = language.speak(code)
    try:
        refusals = [moves.said_line(line) for line in (
            "raven play horse:7 effect=recruit", "raven play bear:1 effect=kill-all pay=lion:2",
            "raven recruit order=recruit_per_fort frost-gate=9", "raven draw order=draw_per_2_farms",
            "spider swap-agent marshal", "raven loyalty sealed",
            "raven play bear:2 effect=kill-all add=bear:frost-gate:1",
            "raven play lion:2 effect=armada from=frost-gate", "raven no-card now")]
    finally:
        language.stop(token)
    for game in waiting:
        for typed in refusals:
            result = cli(store, "--lang", code, "move", game, "--preview", typed)
            assert result.exit_code == 2 and result.stdout == "", (typed, result.output)
            said.append(result.stderr)
    assert not unspoken("\n".join(said)), (unspoken("\n".join(said)), "\n".join(said))


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_table_and_seat_pages_say_no_internal_id_and_no_english_word(games: Games, code: str) -> None:
    """The table page (its buttons, pickers, the effects a card may play, their parameters, a typed move's
    preview) and each seat's page, in the page's language."""
    with open_store(str(games.store)) as s:
        client = TestClient(create_app(s, "d" * 32, None))
        pages: list[str] = []
        for game, lines in games.waiting.items():
            links = games.links[game]
            for token in (links.table, *links.seats.values()):
                answer = client.get(f"/g/{game}/{token}/?lang={code}")
                assert answer.status_code == 200
                pages.append(shown(answer.text))
            version = load(s, game).version
            for line in lines:
                answer = client.post(f"/g/{game}/{links.table}/preview?lang={code}",
                                     json={"line": line, "version": version},
                                     headers={"Authorization": f"Bearer {links.table}"})
                assert answer.status_code == 200, answer.text
                body = answer.json()
                pages += [*body["said"], body["next"] or ""]
    text = "\n".join(pages)
    assert "effet" in text or "effetto" in text or "efecto" in text  # a card's effects were offered
    assert not unspoken(text), (unspoken(text), text)


def test_the_pages_offer_the_effects_by_name_in_the_readers_words(games: Games) -> None:
    """A card's effects are offered by the names the catalogues give them (fixtures/decrees.toml's English name,
    FR 458 "Dispersion", FR 462 "Renforts"), the option's value the notation's id."""
    with open_store(str(games.store)) as s:
        client = TestClient(create_app(s, "d" * 32, None))
        page = "".join(client.get(f"/g/{game}/{links.table}/?lang=fr").text for game, links in games.links.items())
    offered = {e: html.unescape(said) for e, said in re.findall(r'<option value="([a-z0-9-]+)">([^<]+)</option>', page)}
    effects = {e: d for e, d in offered.items() if e in shipped_catalogue().decrees}
    assert effects and all(said != e for e, said in effects.items())
    token = language.speak("fr")
    try:
        assert {e: language.load("fr").effect(e) for e in effects} == effects
    finally:
        language.stop(token)


@functools.cache
def lines_of_random_games() -> frozenset[str]:
    """Every line, own and borrowed, of eight random games (played once for the module)."""
    found: set[str] = set()
    for seed in range(4):
        for ruleset, players in (("official", ("raven", "spider", "rat")),
                                 ("revised", ("raven", "spider", "rat", "serpent"))):
            for _command, events, _state in play(players, load_ruleset(ruleset), load_board("standin"), seed,
                                                 named=True, undo_rate=0.03, catalogue=shipped_catalogue()):
                found.update(line for e in events for b in (False, True) if (line := format_event(e, borrowed=b)))
    return frozenset(found)


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_line_in_the_readers_words_reads_back_to_the_notation(code: str) -> None:
    """application/moves.py: said_line and canonical_line are inverse, for every move of random games (cards,
    decree effects, borrowed orders, take-backs): the one translation every face shows and reads."""
    lines = lines_of_random_games()
    assert any(" effect=" in line for line in lines) and any(" order=" in line for line in lines)
    token = language.speak(code)
    try:
        wrong = {line: moves.said_line(line) for line in lines
                 if moves.canonical_line(moves.said_line(line)) != line}
        said = [moves.said_line(line) for line in lines]
    finally:
        language.stop(token)
    assert not wrong, list(wrong.items())[:5]
    assert not [line for line in said if IDS.search(line)], [line for line in said if IDS.search(line)][:5]
    assert not any(order in line for line in said for order in ORDERS if "_" in order)


def test_english_lines_name_orders_by_their_words_and_read_back() -> None:
    """English is the notation, but an order is said by its words there too (EN Add Banner Actions, 290: "Recruit 1
    per Farm"), never by its id; every line of random games reads back to itself, a quoted reason untouched."""
    lines = [*lines_of_random_games(), 'raven undo "Recruit 1 per farm, not 2"']
    said = {line: moves.said_line(line) for line in lines}
    assert {line: s for line, s in said.items() if moves.canonical_line(s) != line} == {}
    assert not any(order in s for s in said.values() for order in ORDERS if "_" in order)
    assert said['raven undo "Recruit 1 per farm, not 2"'] == 'raven undo "Recruit 1 per farm, not 2"'


FRENCH = (
    ("raven recruit frost-gate=1 ice-hall=1", "Corbeau Blanc Recruter 1 par Ferme frost-gate=1 ice-hall=1"),
    ("rat draw", "Culte du Rat Piocher"),
    ("rat play bear effect=disperse region=red-cliffs to=frost-gate:1",
     "Culte du Rat Jouer Ours effet=«Dispersion» région=red-cliffs vers=frost-gate:1"),
    ("spider attack wolfmere saltmarsh 1", "Araignée Attaquer wolfmere saltmarsh 1"),
)
"""A council order by its name (FR Recruter, 290: "Recruter 1 par Ferme"), a draw, a card played for an effect by its
name (FR 458 "Dispersion") with its parameters' French keys, and an attack (FR Attaquer, 302)."""


def test_a_line_in_french_records_the_same_event_as_its_english_line(tmp_path: Path) -> None:
    """`whispers --lang fr move` reads the words the recorder reads (the society, the verb, an order by its name,
    a key, a card, an effect by its name): the record is the one the English lines make, event for event."""
    english, french = tmp_path / "en.sqlite", tmp_path / "fr.sqlite"
    opening = tmp_path / "g.txt"
    opening.write_text(DEPLOYED, encoding="utf-8")
    for store in (english, french):
        assert cli(store, "import", str(opening), "--game", "g").exit_code == 0
    for line, said in FRENCH:
        assert cli(english, "move", "g", *line.split()).exit_code == 0
        result = cli(french, "--lang", "fr", "move", "g", said)
        assert result.exit_code == 0, result.output
    with open_store(str(english)) as e, open_store(str(french)) as f:
        assert [format_event(x) for x in load(e, "g").events] == [format_event(x) for x in load(f, "g").events]
        assert recording.recap(recording.open_game(f, "g"))[-1][1] == "spider attack wolfmere saltmarsh 1"
