"""The game's words in English, French, Italian and Spanish (issue 14): the catalogues, the choice of language,
the rulebooks' glossary (rules-digest §1) in what `status`, `score`, `log`, a refusal and a timeline print, and
the user's words read back to the notation's canonical ids."""

import functools
import importlib.util
import json
import re
import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from click.testing import CliRunner, Result

from whispers.cli.main import whispers
from whispers.ledger.core.words import LANGUAGES, TERMS, say, term
from whispers.projections import language

REPO = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("catalogues", REPO / "tools" / "catalogues.py")
assert spec is not None and spec.loader is not None
catalogues = importlib.util.module_from_spec(spec)
spec.loader.exec_module(catalogues)

GLOSSARY = {
    # rules-digest §1: the words each edition prints (ES leaves the Pale Raven in English: docs/languages.md)
    "fr": {"bear": "Ours", "eagle": "Aigle", "sheriff": "Commissaire", "steward": "Intendant", "devout": "Dévoué",
           "dutiful": "Serviable", "unallied": "Neutre", "raven": "Corbeau Blanc", "rat": "Culte du Rat"},
    "it": {"bear": "Orso", "eagle": "Aquila", "sheriff": "Sceriffo", "steward": "Amministratore", "devout": "Devoto",
           "dutiful": "Fedele", "unallied": "Non alleato", "raven": "Corvo Pallido", "rat": "Culto del Ratto"},
    "es": {"bear": "Oso", "eagle": "Águila", "sheriff": "Alguacil", "steward": "Mayordomo", "devout": "Devoto",
           "dutiful": "Cumplido", "unallied": "No aliado", "raven": "Cuervo Pálido", "rat": "Culto de la Rata"},
}
OTHERS = ("fr", "it", "es")


def run(store: Path, *args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(whispers, [*args, "--store", str(store)], input=stdin, prog_name="whispers",
                              env={"COLUMNS": "200"})


def ok(result: Result) -> str:
    assert result.exit_code == 0, f"exit {result.exit_code}\n{result.stdout}\n{result.stderr}"
    return result.stdout


# --- the catalogues ---------------------------------------------------------------------------------------


@functools.cache
def _wanted() -> Catalog:
    """Every message id the code uses (tools/catalogues.py reads the sources once for the module)."""
    return catalogues.template()


def test_every_message_id_the_code_uses_has_a_translation_in_every_language() -> None:
    wanted = _wanted()
    assert len(wanted) > 150
    for code in LANGUAGES:
        assert catalogues.missing(code, wanted) == [], code


def test_a_missing_translation_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: a catalogue with one message left blank is named for it."""
    copy = tmp_path / "fr" / "LC_MESSAGES" / "whispers.po"
    copy.parent.mkdir(parents=True)
    text = catalogues.path("fr").read_text(encoding="utf-8")
    copy.write_text(text.replace('msgstr "Ours"', 'msgstr ""', 1), encoding="utf-8")
    monkeypatch.setattr(catalogues, "LOCALES", tmp_path)
    assert catalogues.missing("fr", _wanted()) == ["empire: bear"]


def test_every_translation_keeps_its_placeholders() -> None:
    fields = re.compile(r"\{(\w*)\}")
    for code in LANGUAGES:
        for message in catalogues.read(code):
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for string in strings:
                assert set(fields.findall(string)) == set(fields.findall(ids[-1])), (code, message.id, string)


def test_every_term_of_the_glossary_has_a_word_in_every_language() -> None:
    for code in OTHERS:
        tongue = language.load(code)
        for kind, ids in TERMS.items():
            for word in ids:
                said = tongue.pgettext(kind, word)
                assert said and (said != word or word in ("lion", "rat", "serpent")), (code, kind, word)


@pytest.mark.parametrize("code", OTHERS)
def test_the_glossary_is_the_rulebooks(code: str) -> None:
    """rules-digest §1.1-1.4: empires, offices, loyalty slots and societies as each edition prints them."""
    token = language.speak(code)
    try:
        for word, said in GLOSSARY[code].items():
            assert term(word) == said
    finally:
        language.stop(token)


def test_a_compiled_catalogue_is_read_and_a_stale_one_is_not(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A .mo older than its .po (a catalogue edited since the build) is not read: the .po is compiled in memory."""
    import os

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    folder = tmp_path / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    po = folder / "whispers.po"
    shutil.copy(catalogues.path("fr"), po)
    with po.open("rb") as source:
        catalog = read_po(source, locale="fr")
    catalog.get("bear", context="empire").string = "OURS-COMPILED"
    with (folder / "whispers.mo").open("wb") as target:
        write_mo(target, catalog)
    monkeypatch.setattr(language, "LOCALES", tmp_path)
    assert language._translations("fr").pgettext("empire", "bear") == "OURS-COMPILED"
    os.utime(folder / "whispers.mo", (1, 1))
    assert language._translations("fr").pgettext("empire", "bear") == "Ours"


# --- which language ---------------------------------------------------------------------------------------


def test_the_language_is_asked_else_whispers_lang_else_the_locale_else_english() -> None:
    assert language.choose("it", {"WHISPERS_LANG": "fr", "LANG": "es_ES.UTF-8"}) == "it"
    assert language.choose(None, {"WHISPERS_LANG": "fr", "LANG": "es_ES.UTF-8"}) == "fr"
    assert language.choose(None, {"LANG": "es_ES.UTF-8"}) == "es"
    assert language.choose(None, {"LC_MESSAGES": "it_IT.UTF-8", "LANG": "es_ES.UTF-8"}) == "it"
    assert language.choose(None, {"LC_ALL": "fr_CA", "LC_MESSAGES": "it_IT", "LANG": "es_ES"}) == "fr"
    assert language.choose(None, {"LANG": "de_DE.UTF-8"}) == "en"
    assert language.choose(None, {"LANG": "C.UTF-8"}) == "en"
    assert language.choose(None, {}) == "en"
    with pytest.raises(language.UnknownLanguage, match="WHISPERS_LANG 'de'"):
        language.choose(None, {"WHISPERS_LANG": "de"})


def test_a_browser_gets_its_best_language() -> None:
    assert language.from_header("de-DE, fr;q=0.8, it;q=0.9") == "it"
    assert language.from_header("fr-CH, fr;q=0.9, en;q=0.8") == "fr"
    assert language.from_header("de, ja") == "en"
    assert language.from_header("es;q=0, fr;q=0.1") == "fr"
    assert language.from_header(None) == "en"


def test_the_cli_offers_every_language() -> None:
    from whispers.cli import main

    assert main.LANGUAGES == LANGUAGES


def test_an_unknown_lang_is_refused_in_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(whispers, ["--lang", "de", "games", "--store", str(tmp_path / "s.sqlite")])
    assert result.exit_code == 2 and "de" in result.stderr


def test_numbers_and_plurals_follow_the_language() -> None:
    from whispers.ledger.core.words import n_, plural, tongue

    token = language.speak("fr")
    try:
        assert plural(0, "city") == "0 ville"  # French counts zero in the singular
        assert plural(2, "city") == "2 villes"
        assert n_("{n} card", "{n} cards", 1) == "1 carte"
        assert tongue().number(12345) == "12\u202f345"
        assert language.format_date("2026-11-22", "fr") == "22 nov. 2026"
    finally:
        language.stop(token)
    token = language.speak("en")
    try:
        assert plural(0, "city") == "0 cities"
    finally:
        language.stop(token)


# --- what the commands print ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("languages") / "demo.sqlite"
    ok(CliRunner().invoke(whispers, ["--lang", "fr", "demo", "--store", str(store)]))
    return store


DEMO_WORDS = {
    "fr": ("coups enregistrés", "Conseils Impériaux", "Commissaire", "Ours", "Corbeau Blanc", "Dévoué",
           "scores finaux", "Culte du Rat gagne", "Essayez ensuite"),
    "it": ("mosse registrate", "Consigli dell'impero", "Sceriffo", "Orso", "Corvo Pallido", "Devoto",
           "punteggi finali", "Culto del Ratto vince", "Prova poi"),
    "es": ("jugadas registradas", "Consejos imperiales", "Alguacil", "Oso", "Cuervo Pálido", "Devoto",
           "puntuaciones finales", "Culto de la Rata gana", "Prueba después"),
}


@pytest.mark.parametrize("code", OTHERS)
def test_the_demo_plays_in_the_language(tmp_path: Path, code: str) -> None:
    out = ok(CliRunner().invoke(whispers, ["--lang", code, "demo", "--store", str(tmp_path / "d.sqlite")],
                                env={"COLUMNS": "200"}))
    for words in DEMO_WORDS[code]:
        assert words in out, words
    assert "Try next" not in out and "sheriff" not in out and "Council" not in out


def test_the_games_listing_speaks_the_language(demo_store: Path) -> None:
    out = ok(run(demo_store, "--lang", "fr", "games"))
    assert "Corbeau Blanc,Araignée Ancillaire,Culte du Rat,Serpent Éternel" in out
    assert "terminée, vainqueur Culte du Rat" in out


@pytest.mark.parametrize("code", OTHERS)
def test_status_score_and_log_speak_the_glossary(demo_store: Path, code: str) -> None:
    words = GLOSSARY[code]
    status = ok(run(demo_store, "--lang", code, "status", "demo"))
    for word in ("bear", "eagle", "sheriff", "steward", "devout", "dutiful", "unallied", "raven", "rat"):
        assert words[word] in status, (code, word)
    score = ok(run(demo_store, "--lang", code, "score", "demo"))
    for word in ("bear", "eagle", "raven", "rat"):
        assert words[word] in score, (code, word)
    log = ok(run(demo_store, "--lang", code, "log", "demo")).splitlines()
    comments = "\n".join(line for line in log if line.startswith("#   "))
    assert words["bear"] in comments and {"fr": "manche", "it": "turno", "es": "ronda"}[code] in comments
    moves = [line for line in log if not line.startswith("#")]
    english = [line for line in ok(run(demo_store, "log", "demo")).splitlines() if not line.startswith("#")]
    assert moves == english  # the notation stays in canonical ids


@pytest.mark.parametrize(("code", "cited"), [("fr", "(FR Attaquer, 302)"), ("it", "(IT Azione d'attacco, 284)"),
                                             ("es", "(ES Acción de ataque, 187)"), ("en", "(EN Attack Action)")])
def test_a_refusal_cites_the_readers_edition(tmp_path: Path, code: str, cited: str) -> None:
    """EN "Attack Action" / FR "Attaquer" (302) / IT "Azione d'attacco" (284) / ES "Acción de ataque" (187): an
    attack must target a region another empire controls."""
    store = tmp_path / "s.sqlite"
    ok(run(store, "new", "g", "--players", "raven,rat", "--first", "raven"))
    for line in ("raven loyalty sealed", "rat loyalty sealed", "raven deploy bear.sheriff", "rat deploy eagle.sheriff",
                 "raven deploy lion.sheriff", "rat deploy horse.sheriff", "raven deploy elephant.sheriff",
                 "rat deploy bear.steward"):
        ok(run(store, "move", "g", *line.split()))
    before = ok(run(store, "log", "g"))
    result = run(store, "--lang", code, "move", "g", "raven", "attack", "pinewatch", "wolfmere", "1")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip().endswith(cited) and len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith({"fr": "Erreur : ", "it": "Errore: ", "es": "Error: ", "en": "Error: "}[code])
    if code != "en":
        assert GLOSSARY[code]["bear"] in result.stderr
    assert ok(run(store, "log", "g")) == before


TIMELINE_WORDS = {
    # the legend (Societies, each one's loyalty as slot and empire, the empires in turn order), a supply check
    # and its losses, an attack (the order's name as glossary §1.7 gives it) and its losses, the round's end
    # and the final scores
    "fr": ("Sociétés secrètes", "Dévoué Ours · Serviable Aigle", "Empires, dans l'ordre du tour :",
           "flèche pleine : le conseiller suivant", "vérification du ravitaillement", "aucune perte", "Attaquer ",
           "contre", "pertes ", "premier joueur → ", "ont gardé leur loyauté : ", "scores finaux",
           "vainqueur : Culte du Rat"),
    "it": ("Società segrete", "Devoto Orso · Fedele Aquila", "Imperi, nell'ordine di turno:",
           "freccia piena: la posizione successiva", "controllo delle scorte", "nessuna perdita",
           "Azione d'attacco ", "contro", "perdite ", "primo giocatore → ", "hanno tenuto la loro fedeltà: ",
           "punteggi finali", "vincitore: Culto del Ratto"),
    "es": ("Sociedades secretas", "Devoto Oso · Cumplido Águila", "Imperios, en orden de turno:",
           "flecha continua: el cargo siguiente", "control de suministro", "sin pérdidas", "Acción de ataque ",
           "contra", "pérdidas ", "primer jugador → ", "mantuvieron su lealtad: ", "puntuaciones finales",
           "ganador: Culto de la Rata"),
}
TIMELINE_ENGLISH = ("Societies", "devout bear", "Empires, in turn order", "solid arrow", "supply check", "no losses",
                    "attack ", " v ", "losses ", "first player", "kept their loyalty", "final scores", "winner: ")


def test_the_timeline_s_english_words_are_the_ones_the_others_replace(demo_store: Path) -> None:
    """The English words the next test looks for the absence of are there in English: its test could fail."""
    dot = ok(run(demo_store, "timeline", "demo", "-o", "-"))
    for words in TIMELINE_ENGLISH:
        assert words in dot, words


@pytest.mark.parametrize("code", OTHERS)
def test_the_timeline_speaks_the_glossary(demo_store: Path, code: str) -> None:
    dot = ok(run(demo_store, "--lang", code, "timeline", "demo", "-o", "-"))
    for word in ("bear", "sheriff", "raven"):
        assert GLOSSARY[code][word] in dot, (code, word)
    for words in TIMELINE_WORDS[code]:
        assert words in dot, (code, words)
    for words in TIMELINE_ENGLISH:
        assert words not in dot, (code, words)
    said = ok(run(demo_store, "--lang", code, "timeline", "demo", "--round", "2", "-o",
                  str(demo_store.parent / f"timeline-{code}.dot")))
    assert said.startswith("demo") and "timeline written" not in said
    assert {"fr": "chronologie écrite dans", "it": "cronologia scritta in", "es": "cronología escrita en"}[code] in said


MAP_WORDS = {
    # where the game stands (the phase as the glossary names it), a region's city, farm and fort, the title
    "fr": ("manche 1 · Phase des Empires · tour de l'empire Lion", "1 ville", "Ferme", "Tour", "événement 40 après",
           "unités", "conseil"),
    "it": ("turno 1 · Fase dei Turni dell'Impero · turno dell'impero Leone", "1 città", "Fattoria", "Forte",
           "evento 40 dopo", "stendardi", "consiglio"),
    "es": ("ronda 1 · Fase de Turnos del Imperio · turno del imperio León", "1 ciudad", "Granja", "Fuerte",
           "evento 40 tras", "estandartes", "consejo"),
}
MAP_ENGLISH = ("round 1", "empire turns", "1 city", "farm", "fort", "event 40 after", "lion's turn")


@pytest.mark.parametrize("code", ["en", *OTHERS])
def test_the_map_speaks_the_glossary(demo_store: Path, code: str) -> None:
    dot = ok(run(demo_store, "--lang", code, "map", "demo", "--at", "40", "-o", "-"))
    if code == "en":  # the English words the other languages replace are there: the test below could fail
        for words in MAP_ENGLISH:
            assert words in dot, words
        return
    for word in ("bear", "sheriff", "raven"):
        assert GLOSSARY[code][word] in dot, (code, word)
    for words in MAP_WORDS[code]:
        assert words in dot, (code, words)
    for words in MAP_ENGLISH:
        assert words not in dot, (code, words)


CHART_WORDS = {
    "fr": ("demo · score si la partie finissait maintenant (tel que Culte du Rat le savait)", "coup", "manche 1",
           "Corbeau Blanc"),
    "it": ("demo · punteggio se la partita finisse ora (come lo sapeva Culto del Ratto)", "mossa", "turno 1",
           "Corvo Pallido"),
    "es": ("demo · puntuación si la partida terminara ahora (tal como lo sabía Culto de la Rata)", "jugada",
           "ronda 1", "Cuervo Pálido"),
}


@pytest.mark.parametrize("code", OTHERS)
def test_the_charts_speak_the_glossary(demo_store: Path, code: str) -> None:
    """A chart's words (matplotlib draws them as shapes in the file, so they are read from the figure): the title,
    the axes, the rounds and the legend in the reader's words; the series' keys stay canonical."""
    from matplotlib.text import Text

    from whispers.application.charts import series, win_rates
    from whispers.projections.charts import figure

    def texts(data: object) -> str:
        drawn = figure(data)
        drawn.draw_without_rendering()  # the ticks' labels too
        return "\n".join(t.get_text() for t in drawn.findobj(Text))

    token = language.speak(code)
    try:
        score = series(str(demo_store), "demo", "score", "rat")
        said = texts(score)
        banners = texts(series(str(demo_store), "demo", "banners"))
        rates = texts(win_rates(str(demo_store)))
    finally:
        language.stop(token)
    assert "raven" in score.lines and "rat" in score.lines
    for words in CHART_WORDS[code]:
        assert words in said, (code, words)
    assert f"{GLOSSARY[code]['bear']} " in banners and GLOSSARY[code]["rat"] in rates.replace("\n", " ")
    english = ("move", "round 1", "raven", "score if the game ended now", "as rat knew it", "on the board",
               "in reserve", "win rate", "finished game")
    for words in english:
        assert words not in said + banners + rates, (code, words)


# --- the user's words -------------------------------------------------------------------------------------

OPENING_EN = """\
raven loyalty devout=bear dutiful=eagle affiliated=lion unallied=horse opposed=elephant
rat loyalty sealed
raven deploy bear.sheriff
rat deploy eagle.sheriff
raven deploy lion.chancellor
rat deploy horse.steward
raven deploy elephant.marshal
rat deploy bear.steward
"""
OPENING_FR = """\
Corbeau Loyauté Dévoué=Ours serviable=AIGLE Affilié=Lion Neutre=cheval Opposé=Éléphant
Culte du Rat loyalty sealed
Corbeau Blanc Déployer Ours.Commissaire
Rat deploy Aigle Commissaire
déployer Lion Chancelier
deploy cheval.intendant
DÉPLOYER Éléphant Maréchal
deploy Ours Intendant
"""
"""The French opening as a table types it: the verbs as the French rulebook prints them (Déployer, Loyauté) or
the notation's, societies and positions in French words, any case."""


def entered(lines: str) -> str:
    """Lines for the guided recorder from a pipe: each is previewed, then an empty line (Enter) records it."""
    return "".join(f"{line}\n\n" for line in lines.splitlines())


def test_the_user_s_words_are_read_back_to_canonical_ids() -> None:
    assert language.canonical("Corbeau Blanc deploy Ours.Commissaire", "fr") == "raven deploy bear.sheriff"
    assert language.canonical("Araignée deploy ours commissaire", "fr") == "spider deploy bear.sheriff"
    assert language.canonical("Serpiente Infinita swap-loyalty Devoto Cumplido", "es") == \
        "serpent swap-loyalty devout dutiful"
    assert language.canonical("Corvo loyalty Non alleato=Orso", "it") == "raven loyalty unallied=bear"
    assert language.canonical("raven attack red-cliffs windmoor 2", "fr") == "raven attack red-cliffs windmoor 2"
    assert language.canonical('undo "le Corbeau a mal compté les Ours"', "fr") == \
        'undo "le Corbeau a mal compté les Ours"'
    assert language.canonical('ruling "Ours" Corbeau', "fr") == 'ruling "Ours" raven'
    # a reason as `log` writes it, in single quotes, is data too; an apostrophe inside a word quotes nothing
    assert language.canonical("undo 'Ours mal compté'", "fr") == "undo 'Ours mal compté'"
    assert language.canonical('undo "il a dit \\"Ours\\"" Corbeau', "fr") == 'undo "il a dit \\"Ours\\"" raven'
    assert language.canonical("Araignée Changer d'emplacement marshal", "fr") == "spider swap-agent marshal"
    assert language.canonical("Araignée Récupérer Ours Commissaire", "fr") == "spider retrieve bear.sheriff"


def test_tab_offers_the_readers_words() -> None:
    from whispers.cli.recorder import said_forms

    token = language.speak("fr")
    try:
        assert said_forms("bear.sheriff") == ["Ours.Commissaire"]
        assert said_forms("raven") == ["Corbeau"]
        assert said_forms("red-cliffs") == []
    finally:
        language.stop(token)
    assert said_forms("bear.sheriff") == []


def test_a_game_recorded_in_french_equals_the_same_game_recorded_in_english(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    for name in ("en-game", "fr-game"):
        ok(run(store, "new", name, "--players", "raven,rat", "--first", "raven"))
    ok(run(store, "record", "en-game", stdin=entered(OPENING_EN) + "q\n"))
    said = ok(run(store, "--lang", "fr", "record", "fr-game", stdin=entered(OPENING_FR) + "q\n"))
    assert "= Corbeau Blanc Déployer Ours Commissaire" in said and "Refusé" not in said
    english = ok(run(store, "log", "en-game")).splitlines()[1:]
    french = ok(run(store, "log", "fr-game")).splitlines()[1:]
    assert len(english) > 10 and french == english


# --- the web pages ----------------------------------------------------------------------------------------


def table_served():  # -> (Store, sharing.Links, TestClient)
    """A new 2-society game g1 in a memory store, shared, and a client of the web app serving it."""
    from starlette.testclient import TestClient

    from whispers.application import recording, sharing
    from whispers.ledger.io.store import open_store
    from whispers.web.app import create_app

    store = open_store("memory:")
    recording.new(store, "g1", ["raven", "spider"])
    return store, sharing.share(store, "g1"), TestClient(create_app(store, "d" * 32))


def test_a_page_follows_the_browser_unless_the_link_says_otherwise() -> None:
    _store, links, client = table_served()
    page = f"/g/g1/{links.table}/"
    french = client.get(page, headers={"Accept-Language": "fr-CH, fr;q=0.9, en;q=0.8"}).text
    assert '<html lang="fr">' in french and "Corbeau Blanc" in french and "Sociétés secrètes" in french
    italian = client.get(page + "?lang=it", headers={"Accept-Language": "fr"}).text
    assert '<html lang="it">' in italian and "Corvo Pallido" in italian
    english = client.get(page).text
    assert '<html lang="en">' in english and "raven" in english and "Corbeau" not in english

    # the table types its own words; the record holds the canonical line, and the answer echoes it
    bearer = {"Authorization": f"Bearer {links.table}", "Accept-Language": "fr"}
    said = client.post(page + "moves", headers=bearer,
                       json={"line": "Corbeau loyalty Dévoué=Aigle Serviable=Cheval Affilié=Ours Neutre=Éléphant "
                                     "Opposé=Lion"})
    assert said.status_code == 201, said.text
    assert said.json()["line"] == ("raven loyalty devout=eagle dutiful=horse affiliated=bear unallied=elephant "
                                   "opposed=lion")
    refused = client.post(page + "moves", headers=bearer, json={"line": "Araignée deploy Ours Commissaire"})
    assert refused.status_code == 422
    assert refused.json()["cited"] == "FR Comment jouer, 221" and refused.json()["rule"] == "EN Gameplay Overview"
    assert "Mise en place" in refused.json()["error"]


def test_no_message_is_looked_up_inside_an_f_string() -> None:
    """Babel's extractor cannot see a message inside an f-string's braces (`f"{say('...')}"`), so such a message
    would never reach the catalogues (and the test above could not miss it): every one is written outside."""
    # inside braces, or with a single-quoted literal (the code quotes with ", so ' is an f-string's inner quote)
    inside = re.compile(r"""\{\s*(?:say|_|n_)\(\s*['"]|(?<![\w.])(?:say|_|n_)\(\s*'""")
    found = [f"{path.relative_to(REPO)}:{number}" for folder in catalogues.SOURCES
             for path in sorted((REPO / folder).rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if inside.search(line)]
    assert found == []


def test_a_game_named_like_a_term_keeps_its_name() -> None:
    token = language.speak("fr")
    try:
        assert say("{game}: stopped.", game="bear") == "bear : arrêté."
        assert say("{society} wins", society="bear") == "Ours gagne"
    finally:
        language.stop(token)


def test_the_director_s_pages_and_the_pickers_speak_the_language() -> None:
    """The director's hall (FR), a loyalty picker (FR: the slots as FR's loyalty track prints them, `Dévoué`,
    `Serviable`), verify (ES) and the standings (IT) in the reader's words; the option values, the links' game
    ids and the chain head stay the notation's."""
    from starlette.testclient import TestClient

    from whispers.application import recording, sharing
    from whispers.application.files import verify
    from whispers.ledger.io.store import open_store
    from whispers.web.app import create_app

    store = open_store("memory:")
    recording.new(store, "g1", ["raven", "spider"])
    links = sharing.share(store, "g1")
    director = "d" * 32
    client = TestClient(create_app(store, director))
    hall = client.get(f"/director/{director}/?lang=fr").text
    assert "Toutes les parties" in hall and "1 partie" in hall and "Mise en place" in hall and "Corbeau Blanc" in hall
    assert f'href="/director/{director}/verify/g1?lang=fr">vérifier</a>' in hall and "All games" not in hall

    table = client.get(f"/g/g1/{links.table}/?lang=fr").text
    assert "<span>Dévoué</span>" in table and "<span>Serviable</span>" in table
    assert '<option value="bear">Ours</option>' in table and "Modifier en notation" in table
    assert 'data-fmt="devout={}"' in table and "Edit as notation" not in table

    checked = client.get(f"/director/{director}/verify/g1", headers={"Accept-Language": "es"}).text
    assert "g1: verificada" in checked and "cabeza de la cadena" in checked and verify(store, "g1").head in checked
    assert "chain head" not in checked

    seat = client.get(f"/g/g1/{links.seats['raven']}/", headers={"Accept-Language": "fr"}).text
    assert "Sceller ma loyauté" in seat and 'data-say-sealed="Scellé. Notez ceci' in seat
    assert "<span>Dévoué</span>" in seat and '<option value="eagle">Aigle</option>' in seat

    replay = client.get(f"/g/g1/{links.table}/replay?at=1&lang=es").text
    assert "Añadir nota" in replay and 'data-say-forked="Bifurcación creada: {}:"' in replay
    assert 'data-say-open="abrirla"' in replay and "Add note" not in replay
    assert "replay?at=1&amp;lang=es" in replay and "volver a la partida" in replay and "Preparación" in replay

    english = client.get(f"/director/{director}/").text
    assert "All games" in english and "1 game" in english and '<option' not in english


def test_the_pages_landmarks_seat_code_and_refusals_speak_the_language() -> None:
    """What a screen reader says of each part of a page (its aria-label), the words the seat's script shows with the
    code it keeps (the glossary's, handed over in data-terms), the replay's first event, the page not found and
    an empty line's refusal, in the reader's words; English stays English."""
    _store, links, client = table_served()

    table = client.get(f"/g/g1/{links.table}/?lang=fr").text
    assert 'aria-label="enregistrer un coup"' in table and 'aria-label="conseil"' in table
    assert 'aria-label="images"' in table and "loyauté :" in table
    assert 'aria-label="record a move"' not in table and 'aria-label="pictures"' not in table

    seat = client.get(f"/g/g1/{links.seats['raven']}/", headers={"Accept-Language": "es"}).text
    assert 'aria-label="mi lealtad"' in seat and 'data-say-code="código"' in seat
    terms = re.search(r"data-terms='([^']*)'", seat)
    assert terms is not None
    words = json.loads(terms.group(1))
    assert words["devout"] == "Devoto" and words["dutiful"] == "Cumplido" and words["bear"] == "Oso"

    replay = client.get(f"/g/g1/{links.table}/replay?at=1&lang=it").text
    assert 'aria-label="questo evento"' in replay and 'aria-label="mosse"' in replay
    assert "g1 preparata: Corvo Pallido, Ragno Supplicante; primo giocatore Corvo Pallido" in replay
    assert "GameStarted" not in replay

    assert "Introuvable" in client.get("/g/g1/nope/?lang=fr").text
    assert client.get("/nowhere", headers={"Accept-Language": "it"}).text.count("Non trovato") == 2
    empty = client.post(f"/g/g1/{links.table}/moves", json={"line": "  "},
                        headers={"Authorization": f"Bearer {links.table}", "Accept-Language": "fr"})
    assert empty.status_code == 422 and empty.json()["error"] == "une ligne vide : rien à enregistrer"
    stale = client.post(f"/g/g1/{links.table}/moves", json={"line": "raven loyalty sealed", "version": 0},
                        headers={"Authorization": f"Bearer {links.table}", "Accept-Language": "es"})
    assert stale.status_code == 409 and stale.json()["error"].startswith("la partida ha avanzado: está en el evento")
    note = client.post(f"/g/g1/{links.table}/notes", json={"at": 1, "text": " "},
                       headers={"Authorization": f"Bearer {links.table}", "Accept-Language": "it"})
    assert note.json()["error"] == "una nota ha bisogno di un testo"
    for _ in range(2):  # a table link's fork is named g1.w: the second is refused in one neutral sentence
        taken = client.post(f"/g/g1/{links.table}/forks", json={"name": "w", "at": 1},
                            headers={"Authorization": f"Bearer {links.table}", "Accept-Language": "fr"})
    assert taken.status_code == 422 and taken.json()["error"].startswith("aucune variante nommée 'w' : un nom")
    badly = client.post(f"/g/g1/{links.table}/forks", json={"name": "-x", "at": 1},
                        headers={"Authorization": f"Bearer {links.table}", "Accept-Language": "es"})
    assert badly.json()["error"].startswith("ninguna bifurcación llamada '-x': un nombre")

    english = client.get(f"/g/g1/{links.table}/replay?at=1").text
    assert 'aria-label="this event"' in english and "g1 set up: raven, spider; first player raven" in english
    assert "Not found" in client.get("/g/g1/nope/").text


@pytest.mark.skipif(not shutil.which("dot"), reason="Graphviz is not installed")
def test_the_pages_pictures_keep_the_page_s_language() -> None:
    """The timeline and the board a page shows (SVG, drawn per request) speak the page's language."""
    _store, links, client = table_served()
    timeline = client.get(f"/g/g1/{links.table}/timeline.svg?lang=fr").text
    assert "Sociétés secrètes" in timeline and "loyauté pas encore enregistrée" in timeline
    assert "Societies" not in timeline and "not yet recorded" not in timeline
    board = client.get(f"/g/g1/{links.table}/board.svg", headers={"Accept-Language": "es"}).text
    assert "Granja" in board and "ronda 1 · Preparación" in board and "tras el evento 1" in board
    assert "farm" not in board and "after event" not in board


def test_verify_decrees_and_cards_check_speak_the_language(demo_store: Path) -> None:
    """`verify` (ES), `decrees` (IT: the decks as the glossary's empires, the rulebook references unchanged) and
    `cards check` (FR) in the reader's words; the chain head and the effects' ids stay the record's."""
    english = ok(run(demo_store, "verify", "demo"))
    head = english.split("chain head ")[1].split()[0]
    spanish = ok(run(demo_store, "--lang", "es", "verify", "demo"))
    assert f"cabeza de la cadena {head}" in spanish and "eventos verificados" in spanish and "terminada" in spanish
    assert "chain head" not in spanish and "every move" not in spanish

    italian = ok(CliRunner().invoke(whispers, ["--lang", "it", "decrees"], env={"COLUMNS": "200"}))
    assert "effetto" in italian and "meccanica" in italian and "fonte" in italian
    assert "extra-attack" in italian and "REV 310-311" in italian and "Orso" in italian
    assert "mechanics" not in italian

    french = ok(CliRunner().invoke(whispers, ["--lang", "fr", "cards", "check", "example"]))
    assert "fiche de cartes 'example' valide" in french and "5 pioches" in french and "sha256:" in french


def test_the_standings_speak_the_language(demo_store: Path) -> None:
    """`standings` in French: its headings, the societies as the glossary names them, the games' names as they are."""
    out = ok(CliRunner().invoke(whispers, ["--lang", "fr", "standings", "--games", "demo", "--store", str(demo_store)],
                                env={"COLUMNS": "160"}))
    assert "classement · règles official" in out and "victoires" in out and "Culte du Rat" in out
    assert "demo: 1*" in out and "Terminées, pas encore scellées par le directeur" in out and "wins" not in out


def test_a_card_effect_refusal_speaks_the_language() -> None:
    """EN 428, REV 331 (disperse: the whole army scatters into adjacent regions its empire controls): the refusal
    in Italian and Spanish (and a card id no deck has, in French), the empire as the glossary names it, the
    effect's id and regions as they are, the rule the same as in English."""
    from support import assert_refused
    from test_decree_effects import _marshal

    state = _marshal()
    for code, line, words in (
            ("it", "raven play bear:1 effect=disperse region=khans-rest to=amber-steppe:1",
             "disperse: tutta l'armata di 2 stendardi si disperde: to= ne piazza 1"),
            ("es", "raven play bear:1 effect=disperse region=khans-rest to=ochre-plains:2",
             "disperse: ochre-plains no es una región adyacente a khans-rest que controle Caballo"),
            ("fr", "raven play bear:99 effect=disperse region=khans-rest",
             "carte 'bear:99' : les cartes d'un empire sont numérotées de 1 à")):
        english = assert_refused(state, line)
        token = language.speak(code)
        try:
            error = assert_refused(state, line, words)
        finally:
            language.stop(token)
        assert error.rule == english.rule and "disperse: the whole" not in str(error)


def test_new_s_card_line_speaks_the_language(tmp_path: Path) -> None:
    out = ok(run(tmp_path / "s.sqlite", "--lang", "it", "new", "g1", "--players", "raven,spider"))
    assert "Carte: il set base; nessuna scheda delle carte" in out and "Cards:" not in out


def test_board_check_speaks_the_language() -> None:
    """`board check` in Spanish: the counts as Spanish counts them, the empires as the glossary names them, the
    board's id and hash as they are."""
    out = ok(CliRunner().invoke(whispers, ["--lang", "es", "board", "check", "standin"]))
    assert "tablero 'standin' válido (31 regiones, 5 imperios" in out and "sha256:" in out
    assert "    Oso " in out and "granjas" in out and "fuertes" in out and "per empire" not in out


def test_a_dark_alliances_card_owed_is_refused_and_prompted_in_the_readers_words() -> None:
    """REV 290 (instants resolved at once): the refusal of any other move and the prompt's note, in French, name
    the society in the glossary's words; the card stays as the notation writes it."""
    from support import assert_refused
    from test_decree_cards import EXAMPLE, _drew

    from whispers.ledger.core.prompt import prompt

    drew = _drew(drawn="elephant:9", held=("elephant:2",), cards=EXAMPLE)
    token = language.speak("fr")
    try:
        assert_refused(drew, "raven play elephant:2 effect=recruit", f"{term('raven')} vient de piocher elephant:9")
        assert prompt(drew).note.startswith(f"{term('raven')} vient de piocher elephant:9")
    finally:
        language.stop(token)


# --- stats --all, the attacks table, the stepper, board show, the pins and verify's notes (issue 14) ---------


def test_the_attacks_table_speaks_the_language(demo_store: Path) -> None:
    """`stats GAME`'s attacks table in French: its headings and key, the societies and empires as the glossary
    names them, the regions as the board has them; --json keeps its keys and ids."""
    out = ok(run(demo_store, "--lang", "fr", "stats", "demo"))
    attacks = out[out.index("Attaques"):]
    for words in ("empires", "de → vers", "pertes", "(prise)", "Corbeau Blanc", "Ours", "Éléphant", "jade-terraces",
                  " c. ", "M : manche ; empires et unités : attaquants c. défenseurs",
                  "Éliminations par les Tours : jade-terraces"):
        assert words in attacks, words
    for english in ("Attacks", "defender", "taken", "Fort kills", "raven", "attacking v defending"):
        assert english not in out, english
    data = json.loads(ok(run(demo_store, "--lang", "fr", "stats", "demo", "--json")))
    assert {"society", "empire", "defender", "taken"} <= set(data["attacks"][0])
    assert data["attacks"][0]["society"] in TERMS["society"]


def test_stats_across_games_speak_the_language(demo_store: Path) -> None:
    """`stats --all` in Italian (the slots and societies as the glossary names them, 18,8 written as Italian
    writes it) and in French (100 %); its JSON keeps the keys and ids scripts read."""
    italian = ok(run(demo_store, "--lang", "it", "stats", "--all"))
    for words in ("1 partita (1 finita, 0 in corso) · regolamento: tutti", "Per società segreta",
                  "percentuale di vittorie", "punteggio medio", "Per posto (1 = primo giocatore)",
                  "Punti medi per slot fedeltà", "Fedele", "18,8", "Città finali medie", "Orso",
                  "Regioni più contese", "Culto del Ratto"):
        assert words in italian, words
    for english in ("By society", "win rate", "ruleset", "dutiful", "18.8", "Most contested", "rat "):
        assert english not in italian, english
    assert "100\u00a0%" in ok(run(demo_store, "--lang", "fr", "stats", "--all"))
    data = json.loads(ok(run(demo_store, "--lang", "fr", "stats", "--all", "--json")))
    assert "rat" in data["win_rate"] and "dutiful" in data["mean_points_per_slot"]


def test_the_replay_stepper_speaks_the_language(demo_store: Path) -> None:
    """The stepper in Spanish: its keys (the same letters), its prompt and its answers; `e Oso 2` names the empire
    in the reader's words and goes to that empire's turn."""
    out = ok(run(demo_store, "--lang", "es", "replay", "demo", "--step", stdin="e Oso 2\nj 9999\nx\nq\n"))
    assert "j N ir al evento N" in out and "q salir" in out and "paso> " in out
    after = out.split("paso> ")[1]
    assert after.startswith("\nevento ") and "turno del imperio Oso" in after.split("\n")[1]
    assert "no hay tal punto: la partida tiene los eventos 1 a" in out and "no 9999" in out
    for english in ("step>", "no such place", "jump", "event "):
        assert english not in out, english
    french = ok(run(demo_store, "--lang", "fr", "replay", "demo", "--at", "5"))
    assert french.startswith("événement 5/") and "Conseils Impériaux" in french


def test_board_show_speaks_the_language() -> None:
    """`board show` in French: headings and captions, the empires, offices and orders as the glossary names them,
    the regions' ids and names as the board file writes them; --json keeps the file's ids."""
    out = ok(CliRunner().invoke(whispers, ["--lang", "fr", "board", "show"], env={"COLUMNS": "200"}))
    for words in ("Régions", "voisines", "origine", "frontières terrestres", "Conseils Impériaux", "conseiller",
                  "Commissaire", "Recruter 1 par Ferme / Attaquer", "Ours", "frost-gate", "Frost Gate"):
        assert words in out, words
    for english in ("Regions", "neighbours", "Councils", "sheriff", "recruit_per_farm", " bear "):
        assert english not in out, english
    shown = ok(CliRunner().invoke(whispers, ["--lang", "fr", "board", "show", "--json"]))
    assert '"recruit_per_farm"' in shown and "Recruter" not in shown


def test_the_pins_speak_the_language(demo_store: Path, tmp_path: Path) -> None:
    """The pins' sentences in `verify` (Italian: the ruleset and board; French: a card sheet), in `board check`
    (Spanish: a board that claims the shipped id with other content) and in `log`'s comments (Italian), their
    ids, labels and hashes as they are."""
    italian = ok(run(demo_store, "--lang", "it", "verify", "demo"))
    assert "regolamento: official — la versione official fornita con whispers (sha256:" in italian
    assert "tabellone: standin — la versione standin fornita con whispers (sha256:" in italian
    assert "the shipped" not in italian and "ruleset:" not in italian

    store = tmp_path / "cards.sqlite"
    ok(run(store, "new", "g", "--players", "raven,rat", "--cards", "example"))
    french = ok(run(store, "--lang", "fr", "verify", "g"))
    assert "cartes : example — la version example livrée avec whispers (sha256:" in french
    assert "(une fiche d'exemple INVENTÉE" in french and "cards:" not in french

    board = (REPO / "fixtures" / "boards" / "standin.toml").read_text(encoding="utf-8")
    changed = re.sub(r"^cities = (\d+)", lambda m: f"cities = {int(m[1]) + 1}", board, count=1, flags=re.M)
    assert changed != board
    (tmp_path / "evil.toml").write_text(changed, encoding="utf-8")
    spanish = ok(CliRunner().invoke(whispers, ["--lang", "es", "board", "check", str(tmp_path / "evil.toml")]))
    assert "tablero: standin — MODIFICADO, el contenido difiere de la versión standin incluida" in spanish
    assert "se rechaza sin --allow-modified, y entonces se muestra como standin (modified " in spanish
    assert "MODIFIED" not in spanish and "refused" not in spanish

    ok(run(store, "new", "evil", "--players", "raven,rat", "--board", str(tmp_path / "evil.toml"), "--allow-modified"))
    comment = next(line for line in ok(run(store, "--lang", "it", "log", "evil")).splitlines()
                   if "standin" in line and line.startswith("#"))
    assert comment.startswith("# tabellone standin (modified ") and "MODIFICATO, non la versione standin" in comment
    assert "standin-modified-" in comment and "--allow-modified" in comment and "beside" not in comment


def test_verify_s_not_checked_notes_speak_the_language() -> None:
    """What `verify` could not check of a card play (REV 296: an instant decree not matched to the draw; no card
    sheet for the cost), in French: the society as the glossary names it, the effect and cards as recorded."""
    from support import unmatched_instant_decree_facts

    from whispers.ledger.io.verify import verify

    facts = unmatched_instant_decree_facts()
    token = language.speak("fr")
    try:
        notes = verify(facts, "sc").unchecked
    finally:
        language.stop(token)
    said = " | ".join(notes)
    assert all(note.startswith("événement ") for note in notes), said
    assert "succession-crisis : aucune fiche de cartes, donc ni les effets de la carte ni le coût de horse" in said
    assert "le relevé ne nomme pas toutes les cartes que Corbeau Blanc a piochées" in said
    assert "could not be checked" not in said and "event " not in said


def test_stats_by_player_speak_the_language_and_keep_the_people_s_names(demo_store: Path, tmp_path: Path) -> None:
    """`stats --all --by player` in Spanish: its headings and the societies in the glossary's words; a person
    named `bear` is a person, not the Bear empire."""
    store = tmp_path / "people.sqlite"
    shutil.copy(demo_store, store)
    ok(run(store, "meta", "demo", "--seat", "raven=Ana", "--seat", "rat=bear"))
    out = ok(run(store, "--lang", "es", "stats", "--all", "--by", "player"))
    for words in ("Jugadores (partidas terminadas)", "jugador", "porcentaje de victorias", "Por sociedad secreta",
                  "Cuervo Pálido", "Culto de la Rata", "Por puesto (1 = primer jugador)", "100\u00a0%"):
        assert words in out, words
    assert re.search(r"^bear\s", out, re.M) and "Oso" not in out and "Players" not in out


# --- --help and click's own words ----------------------------------------------------------------------------

HELP = {
    # the usage line's prefix, a heading, the group's metavar words, a command's short help, click's help option
    "fr": ("Usage :", "Commandes:", "COMMANDE [ARGS]...", "Commencer une nouvelle partie.",
           "Affiche ce message et quitte."),
    "it": ("Uso:", "Comandi:", "COMANDO [ARGOMENTI]...", "Iniziare una nuova partita.",
           "Mostra questo messaggio ed esce."),
    "es": ("Uso:", "Comandos:", "COMANDO [ARGUMENTOS]...", "Empezar una partida nueva.",
           "Muestra este mensaje y sale."),
}
GAME_WORD = {"fr": "PARTIE", "it": "PARTITA", "es": "PARTIDA"}


def shown(result: Result) -> str:
    """What a reader sees: French help keeps a non-breaking space before its colons (the lines are rewrapped)."""
    return (result.stdout + result.stderr).replace("\u00a0", " ")


def helped(*args: str, env: dict[str, str] | None = None) -> str:
    result = CliRunner().invoke(whispers, list(args), prog_name="whispers", env={"COLUMNS": "200", **(env or {})})
    assert result.exit_code == 0, shown(result)
    return shown(result)


@pytest.mark.parametrize("code", OTHERS)
def test_the_group_s_help_speaks_the_language(code: str) -> None:
    """`whispers --lang fr --help`: click's words ("Usage:", "Commands", the help option's), the metavars and the
    commands' short helps; the option's order does not matter (--lang after --help too)."""
    for args in (("--lang", code, "--help"), ("--help", "--lang", code), ("--lang=" + code, "-h")):
        out = helped(*args)
        for words in HELP[code]:
            assert words in out, (args, words)
        assert "Usage:" not in out and "Show this message" not in out and "Start a new game" not in out


@pytest.mark.parametrize("code", OTHERS)
def test_a_command_s_help_speaks_the_language_from_lang_or_whispers_lang(code: str) -> None:
    """`whispers --lang it status --help` and `WHISPERS_LANG=it whispers status --help` alike: the command's own
    help, its options' help and metavars, and click's "[default: ...; required]"."""
    for args, env in ((("--lang", code, "status", "--help"), None), (("status", "--help"), {"WHISPERS_LANG": code})):
        out = helped(*args, env=env)
        usage = out.splitlines()[0]
        assert usage.startswith(HELP[code][0] + " whispers status [") and usage.endswith("] " + GAME_WORD[code])
        assert HELP[code][4] in out
        assert "Where GAME stands" not in out and "Print JSON" not in out
    new = helped("--lang", code, "new", "--help")
    default, required = {"fr": ("par défaut : official", "obligatoire"),
                         "it": ("predefinito: official", "obbligatorio"),
                         "es": ("por defecto: official", "obligatorio")}[code]
    assert f"[{default}]" in new and f"[{required}]" in new and "default:" not in new


@pytest.mark.parametrize("code", OTHERS)
def test_help_uses_the_glossary_s_words(code: str) -> None:
    """The map's help names farms, forts and banners as each rulebook does (rules-digest §1.5)."""
    words = {"fr": ("Fermes", "Tours", "unités"), "it": ("Fattorie", "Forti", "stendardi"),
             "es": ("Granjas", "Fuertes", "estandartes")}[code]
    out = helped("--lang", code, "map", "--help")
    assert all(word in out for word in words), out


@pytest.mark.parametrize(("code", "unknown", "missing"), [
    ("fr", "Erreur : Option inconnue : '--bogus'.", "Erreur : Argument manquant : 'PARTIE'."),
    ("it", "Errore: Opzione sconosciuta: '--bogus'.", "Errore: Argomento mancante: 'PARTITA'."),
    ("es", "Error: Opción desconocida: '--bogus'.", "Error: Falta el argumento 'PARTIDA'."),
])
def test_a_usage_error_speaks_the_language(code: str, unknown: str, missing: str) -> None:
    """An unknown option or a missing argument: one line in the reader's language, exit status 2."""
    result = CliRunner().invoke(whispers, ["--lang", code, "status", "--bogus", "g1"])
    assert result.exit_code == 2 and shown(result).strip() == unknown
    result = CliRunner().invoke(whispers, ["status"], env={"WHISPERS_LANG": code})
    assert result.exit_code == 2 and shown(result).strip() == missing
    result = CliRunner().invoke(whispers, ["--lang", code, "games", "--sort", "nowhere"])
    assert result.exit_code == 2 and "'nowhere'" in shown(result) and "is not one of" not in shown(result)


def test_english_help_and_errors_are_click_s_own() -> None:
    """English is unchanged (and is not left over from a French run before it in the same process)."""
    helped("--lang", "fr", "--help")
    out = helped("--help")
    assert "Usage: whispers [OPTIONS] COMMAND [ARGS]..." in out and "Commands:" in out
    assert "Show this message and exit." in out and "Start a new game." in out
    status = helped("--lang", "en", "status", "--help")
    assert "Usage: whispers status [OPTIONS] GAME" in status and "Where GAME stands" in status
    result = CliRunner().invoke(whispers, ["status", "--bogus"])
    assert result.exit_code == 2 and result.stderr.strip() == "Error: No such option '--bogus'."


def test_a_usage_error_keeps_the_user_s_words_as_typed() -> None:
    """Words the user typed in excess are quoted as typed, never put in the glossary's words (bear is no Ours)."""
    result = CliRunner().invoke(whispers, ["--lang", "fr", "status", "g1", "bear"])
    assert result.exit_code == 2 and shown(result).strip() == "Erreur : Mots en trop : bear"


@pytest.mark.parametrize(("code", "usage"), [("en", "Usage: whispers board"), ("it", "Uso: whispers board")])
def test_a_group_without_its_command_shows_its_help(code: str, usage: str) -> None:
    """`whispers board` alone: the group's help (in the language), not an "Error: Usage: ..." line; exit status 2."""
    result = CliRunner().invoke(whispers, ["--lang", code, "board"])
    assert result.exit_code == 2 and shown(result).startswith(usage) and "Error" not in shown(result)


@pytest.mark.parametrize(("code", "words"), [("fr", ("écrivez un fichier", "PARTIE")),
                                             ("it", ("scrivete un file", "PARTITA")),
                                             ("es", ("escriba un archivo", "PARTIDA"))])
def test_the_pictures_refusals_speak_the_language(demo_store: Path, tmp_path: Path, code: str,
                                                  words: tuple[str, str]) -> None:
    """A picture's file refused, and a map or chart asked for without its game: one line, exit status 2, in the
    reader's words (the suffix as typed)."""
    suffix, missing = words
    for args, said in ((("map", "demo", "-o", str(tmp_path / "x.jpg")), suffix),
                       (("map", "--at", "3", "-o", str(tmp_path / "x.dot")), missing),
                       (("chart", "-o", str(tmp_path / "x.svg")), missing)):
        result = run(demo_store, "--lang", code, *args)
        assert result.exit_code == 2, result.output
        line = result.output.strip()
        assert said in line and "\n" not in line and "write a file" not in line and "give" not in line
    assert "'.jpg'" in run(demo_store, "--lang", code, "map", "demo", "-o", str(tmp_path / "x.jpg")).output


def test_the_json_api_s_own_refusals_speak_the_language() -> None:
    """A script's malformed body is refused with 400 in the words the request asks for (the JSON shape as it is)."""
    store, links, client = table_served()
    moves = f"/g/g1/{links.table}/moves"
    for code, body, said in (("fr", "{", "n'est pas du JSON"), ("es", '{"lines": 1}', 'envíe {"line": '),
                             ("it", "[]", 'inviate {"line": '), ("en", "{", "the body is not JSON")):
        headers = {"Authorization": f"Bearer {links.table}", "Accept-Language": code,
                   "Content-Type": "application/json"}
        refused = client.post(moves, content=body, headers=headers)
        assert refused.status_code == 400 and said in refused.json()["error"], refused.text
    assert store.version("g1") == 1


def test_share_speaks_the_language(demo_store: Path) -> None:
    """`share`'s links named in the reader's words (the URLs as they are), and a game shared already refused so."""
    out = ok(run(demo_store, "--lang", "it", "share", "demo"))
    assert "tavolo (registra le mosse): http://" in out and "posto di Corvo Pallido: http://" in out
    assert "spettatori: http://" in out and "seat" not in out
    again = run(demo_store, "--lang", "es", "share", "demo")
    assert again.exit_code == 2 and "ya está compartida" in again.output and "--revoke" in again.output


# --- the remaining refusals and errors (issue 14) ------------------------------------------------------------


def refused(result: Result) -> str:
    """A refusal: exit status 2, nothing on stdout, one line on stderr."""
    assert result.exit_code == 2, f"exit {result.exit_code}\n{result.stdout}\n{result.stderr}"
    assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1, result.stderr
    return result.stderr.strip()


@pytest.mark.parametrize(("code", "words", "cited"), [
    ("fr", "société secrète inconnue 'wolf' : les sociétés secrètes sont raven,",
     "(FR Plateaux individuels et jetons, 144)"),
    ("it", "società segreta sconosciuta 'wolf': le società segrete sono raven,",
     "(IT Schede e Gettoni Giocatore, 116)"),
    ("es", "sociedad secreta desconocida 'wolf': las sociedades secretas son raven,", "(ES Preparar, 25)")])
def test_a_setup_refusal_speaks_the_language(tmp_path: Path, code: str, words: str, cited: str) -> None:
    """EN "Setup: Player Boards and Tokens": the four societies. The society the user typed stays as typed, the
    ids listed are the notation's (what `--players` takes), the rule is cited in the reader's edition."""
    said = refused(run(tmp_path / "s.sqlite", "--lang", code, "new", "g", "--players", "raven,wolf"))
    assert words in said and said.endswith(cited) and "unknown society" not in said
    card_set = refused(run(tmp_path / "s.sqlite", "--lang", code, "new", "g", "--players", "raven,rat",
                           "--card-set", "intrigue"))
    assert {"fr": "jeu de cartes inconnu 'intrigue'", "it": "set di carte sconosciuto 'intrigue'",
            "es": "juego de cartas desconocido 'intrigue'"}[code] in card_set and card_set.endswith("(REV Decrees)")


@pytest.fixture
def drew(tmp_path: Path) -> Path:
    """fixtures/games/revised-3p-decrees.txt up to raven's draw of horse:7 with the Horse Steward (m12)."""
    lines = (REPO / "fixtures" / "games" / "revised-3p-decrees.txt").read_text(encoding="utf-8").splitlines()
    upto = next(i for i, line in enumerate(lines) if line.startswith("raven draw ")) + 1
    game = tmp_path / "d.txt"
    game.write_text("\n".join(lines[:upto]) + "\n", encoding="utf-8")
    store = tmp_path / "s.sqlite"
    ok(run(store, "import", str(game)))
    return store


@pytest.mark.parametrize(("code", "line", "words"), [
    ("fr", "raven play horse:7 effect=recruit",
     "Recrutement n'est sur aucune carte Cheval : les livrets de règles la mettent dans les pioches Ours et Éléphant"),
    ("it", "raven play horse:7 effect=treasure",
     "Tesoro non si gioca mai: si scarta per pagare un'altra carta (REV 315)"),
    ("es", "raven play horse:7 effect=succession-crisis pay=horse:7",
     "Cuervo Pálido no tiene ninguna carta de Caballo"),
    ("fr", "raven play horse:7 effect=frobnicate", "effet inconnu 'frobnicate' : `whispers decrees` les liste")])
def test_a_card_play_refusal_speaks_the_language(drew: Path, code: str, line: str, words: str) -> None:
    """REV 298 (a decree's decks), REV 315 (Treasure only pays), a card paid twice: the refusal of a card play in
    the reader's words, the decks and the society as the glossary names them, the effect by its name in that
    language (Recruit: "Recrutement"); the record is unchanged."""
    before = ok(run(drew, "log", "d"))
    said = refused(run(drew, "--lang", code, "move", "d", *line.split()))
    assert words in said and said.endswith("(REV Decrees)"), said
    assert ok(run(drew, "log", "d")) == before


def test_a_decree_s_timing_refusal_speaks_the_language(drew: Path) -> None:
    """EN 380 (a card is played immediately before, during or after an action of a position the player controls),
    REV 300 (G before an order, never after one): the timing refusals in French and Spanish."""
    from whispers.ledger.core.legal import decree_timing_refusal
    from whispers.ledger.io.game import load
    from whispers.ledger.io.store import open_store

    with open_store(str(drew)) as store:
        state = load(store, "d").state
    assert decree_timing_refusal(state, "spider", "G") is not None
    for code, timing, words in (
            ("fr", "G", "un décret G se joue avant un ordre d'un conseiller que le joueur contrôle"),
            ("fr", "before|after", "cet effet se joue à ces moments d'une action d'un conseiller que le joueur "
                                   "contrôle : avant, après (EN 380)"),
            ("es", "I", "un decreto instantáneo se juega en cuanto se roba"),
            ("es", "never", "esta carta nunca se juega: se descarta para pagar otra (REV 315)")):
        token = language.speak(code)
        try:
            assert words in (decree_timing_refusal(state, "spider", timing) or ""), (code, timing)
        finally:
            language.stop(token)


def test_a_take_back_and_a_ruling_are_refused_in_the_language(drew: Path) -> None:
    """whispers' own rules (a take-back's and a ruling's reason), a no-card nobody waits for and an adjudicated
    decree typed with its consequences (REV 290-300): refused in the reader's words, whispers' own references left
    as whispers writes them."""
    said = refused(run(drew, "--lang", "it", "move", "d", "ruling", "add=bear:frost-gate:1"))
    assert said.startswith("Errore: ruling vuole prima il motivo, tra virgolette: ruling ")
    long = "x" * 501
    said = refused(run(drew, "--lang", "fr", "move", "d", "undo", long))
    assert "une annulation : la raison dépasse 500 caractères (whispers: history is never erased)" in said
    said = refused(run(drew, "--lang", "fr", "move", "d", "spider", "no-card"))
    assert said == ("Erreur : Aucune carte clôt le moment qui suit le dernier ordre d'un empire, et ce n'est pas "
                    "Araignée Ancillaire qu'on attend "
                    "(REV Decrees)")
    said = refused(run(drew, "--lang", "it", "move", "d", "raven", "play", "horse:7", "effect=succession-crisis",
                       "act=bear.sheriff"))
    assert "Crisi di successione è arbitrato dal motore: le sue conseguenze non si scrivono" in said
    said = refused(run(drew, "--lang", "es", "move", "d", "undo", "reopen", "bear"))
    assert said == ('Error: la partida no ha terminado: no hay nada que reabrir; deshaz una jugada con undo "REASON" '
                    "(whispers: a finished game is reopened only on purpose)")


def test_a_store_error_speaks_the_language(tmp_path: Path) -> None:
    """An unknown game, a file that is no store, a folder that does not exist: one line in the reader's words, the
    game's name and the store's path as they are."""
    store = tmp_path / "s.sqlite"
    ok(run(store, "new", "g", "--players", "raven,rat"))
    said = refused(run(store, "--lang", "fr", "status", "bear"))
    assert said == f"Erreur : aucune partie nommée 'bear' dans {store}"  # a game named like a term keeps its name
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database, not at all" * 10)
    said = refused(run(junk, "--lang", "it", "games"))
    assert said == f"Errore: non è un archivio whispers (non è un database SQLite): {junk}"
    said = refused(run(tmp_path / "nowhere" / "s.sqlite", "--lang", "es", "games"))
    assert said == f"Error: no existe la carpeta: {tmp_path / 'nowhere'}"
    said = refused(run(store, "--lang", "fr", "replay", "g", "--at", "9"))
    assert "la partie g n'a que l'événement 1 : il n'y a pas d'événement 9" in said


def test_a_malformed_record_file_and_notation_line_speak_the_language(tmp_path: Path) -> None:
    """A record file whose hash chain is broken, and a notation file with an unknown verb: refused in one line in
    the reader's words, naming the file and the line; nothing is imported."""
    store = tmp_path / "s.sqlite"
    ok(run(store, "new", "g", "--players", "raven,rat"))
    ok(run(store, "move", "g", "raven", "loyalty", "sealed"))
    exported = tmp_path / "g.whispers"
    ok(run(store, "export", "g", "-o", str(exported)))
    data = exported.read_bytes()
    exported.write_bytes(data.replace(b"raven", b"ravem", 1))
    said = refused(run(tmp_path / "other.sqlite", "--lang", "fr", "import", str(exported)))
    assert said.startswith(f"Erreur : {exported} : ") and "l'enregistrement a été modifié" in said, said
    notation = tmp_path / "bad.txt"
    notation.write_text("game players=raven,rat\nraven frobnicate bear.sheriff\n", encoding="utf-8")
    said = refused(run(tmp_path / "other.sqlite", "--lang", "it", "import", str(notation)))
    assert "riga 2: verbo sconosciuto 'frobnicate': i verbi sono loyalty, deploy" in said, said
    for game in ("g", "bad"):  # neither file imported a game
        assert refused(run(tmp_path / "other.sqlite", "status", game)).startswith(f"Error: no game named '{game}'")
    said = refused(run(store, "--lang", "es", "move", "g", "raven", "attack", "a", "b", "x"))
    assert said == "Error: el número de estandartes atacantes debe ser un número entero, no 'x'"


def test_a_ruling_s_board_changes_are_refused_in_the_language(drew: Path) -> None:
    """A ruling's add=, kill= and agent= checked as a card's are (EN "Components": the reserve; whispers' own rule
    for the rest): refused in the reader's words, each empire's banners counted in its language, the region's id
    as the board writes it."""
    said = refused(run(drew, "--lang", "fr", "move", "d", "ruling", "TD: test", "add=bear:frost-gate:99"))
    assert said == "Erreur : la réserve de Ours ne contient que 11 unités (FR Matériel, 104)"
    said = refused(run(drew, "--lang", "it", "move", "d", "ruling", "TD", "kill=frost-gate:bear:99"))
    assert said.startswith("Errore: frost-gate ha 2 stendardi Orso, non se ne possono eliminare 99 (whispers: ")
    said = refused(run(drew, "--lang", "es", "move", "d", "ruling", "TD", "agent=bear.marshal:bear.chancellor"))
    assert said.startswith("Error: no hay ningún agente en Oso Mariscal (whispers: ")


def test_an_imported_file_s_refusal_names_its_line_in_the_language(tmp_path: Path) -> None:
    """A notation file whose tag line comes first, and one whose move the rules refuse (EN "Gameplay Overview"): the
    line named in the reader's words, the rule cited in the reader's edition."""
    tagged = tmp_path / "tagged.txt"
    tagged.write_text('[Event "Club night"]\ngame players=raven,rat\n', encoding="utf-8")
    said = refused(run(tmp_path / "s.sqlite", "--lang", "fr", "import", str(tagged)))
    assert said == "Erreur : ligne 1 : une ligne d'étiquette vient avant la ligne game"
    early = tmp_path / "early.txt"
    early.write_text("game players=raven,rat first=raven\nraven deploy bear.sheriff\n", encoding="utf-8")
    said = refused(run(tmp_path / "s.sqlite", "--lang", "it", "import", str(early)))
    assert said.startswith("Errore: riga 2: ") and said.endswith("(IT Panoramica del gioco, 188)"), said


def test_a_malformed_board_file_is_refused_in_the_language(tmp_path: Path) -> None:
    """A board file whose council names an order no rulebook has: `board check` and `new` refuse it in one line
    in the reader's words, the file's ids and the orders' ids as the file and the notation write them."""
    board = tmp_path / "mini.toml"
    board.write_text('id = "mini"\nname = "Mini"\nempires = ["bear"]\n[council.bear]\nsheriff = ["recruit"]\n'
                     'steward = ["attack"]\nmarshal = ["attack"]\nchancellor = ["swap_agent"]\n'
                     '[regions.a]\nname = "A"\nhome = "bear"\n', encoding="utf-8")
    said = refused(CliRunner().invoke(whispers, ["--lang", "es", "board", "check", str(board)]))
    assert said.startswith(f"Error: {board}: consejo bear: sheriff: orden desconocida 'recruit' (órdenes: recruit_2,")
    said = refused(run(tmp_path / "s.sqlite", "--lang", "fr", "new", "g", "--players", "raven,rat",
                       "--board", str(board)))
    assert f"{board} : conseil bear : sheriff : ordre inconnu 'recruit' (ordres : recruit_2," in said


def test_a_card_sheet_s_problems_are_listed_in_the_language(tmp_path: Path) -> None:
    """EN 382 (the first ability costs the card alone), EN 103-104 (eight cards per deck): `cards check` lists a
    card sheet's problems in Italian, the card refs, keys and effect ids as the file writes them."""
    sheet = tmp_path / "sheet.toml"
    sheet.write_text('id = "mini"\nname = "Mini"\n[decks.bear.1]\n'
                     'effects = [{ effect = "recruit", cost = { bear = 2 } }]\n', encoding="utf-8")
    result = CliRunner().invoke(whispers, ["--lang", "it", "cards", "check", str(sheet)])
    assert result.exit_code == 2
    lines = (result.stdout + result.stderr).strip().splitlines()
    assert f"{sheet}: carta bear:1: recruit: il primo effetto costa solo la carta (bear = 1)" in lines[0]
    assert any("mazzo eagle: mancante: una scheda trascrive tutti e cinque i mazzi" in line for line in lines)
    assert not any("missing" in line or "must" in line for line in lines)


def test_a_table_fact_or_note_refused_speaks_the_language(tmp_path: Path) -> None:
    """`meta` and `annotate` refuse a seat no society of the game holds, a place with a space at its end and a note
    with no text, in the reader's words; the seat and the text as the user typed them."""
    store = tmp_path / "s.sqlite"
    ok(run(store, "new", "g", "--players", "raven,rat"))
    said = refused(run(store, "--lang", "fr", "meta", "g", "--seat", "spider=Ana"))
    assert said == "Erreur : la place 'spider' n'est pas l'une des sociétés secrètes de cette partie (raven, rat)"
    said = refused(run(store, "--lang", "it", "meta", "g", "--place", " Club"))
    assert said == "Errore: place comincia o finisce con uno spazio"
    said = refused(run(store, "--lang", "es", "annotate", "g", "1", "   "))
    assert said == "Error: una nota necesita un texto"


# --- the CLI's remaining sentences (files, games, finalize/reopen, fork, notes, diff, meta, pairing) ----------


def _copy(demo_store: Path, tmp_path: Path) -> Path:
    """The demo store to change (the module's stays as the other tests read it)."""
    store = tmp_path / "copy.sqlite"
    shutil.copy(demo_store, store)
    return store


def test_import_and_export_replies_speak_the_language(demo_store: Path, tmp_path: Path) -> None:
    """export's reply, import's reply and its table facts, a batch's count and its refusals in the reader's words;
    the file names, the game's name and the table facts as typed stay as they are; exit codes unchanged."""
    record = tmp_path / "files" / "a.whispers"
    record.parent.mkdir()
    out = ok(run(demo_store, "--lang", "fr", "export", "demo", "-o", str(record)))
    assert "événements écrits dans " + str(record) in out and "tête des notes" in out and "written to" not in out
    store = tmp_path / "other.sqlite"
    out = ok(run(store, "--lang", "it", "import", str(record), "--game", "mia"))
    assert out.startswith("mia: importati ") and "eventi (official, Corvo Pallido, " in out and "imported" not in out
    (record.parent / "bad.txt").write_text("game official nowhere\nraven fly\n", encoding="utf-8")
    batch = run(tmp_path / "third.sqlite", "--lang", "es", "import", str(record.parent))
    assert batch.exit_code == 2
    assert "1 partida importada, 1 archivo rechazado." in batch.stdout and "imported" not in batch.stdout
    assert f"rechazado {record.parent / 'bad.txt'}: " in batch.stderr and "refused" not in batch.stderr
    again = run(tmp_path / "third.sqlite", "--lang", "fr", "import", str(record), "--game", "g", str(record))
    assert again.exit_code == 2 and "--game nomme une seule partie" in again.output


def test_games_and_table_facts_speak_the_language(demo_store: Path, tmp_path: Path) -> None:
    assert ok(run(tmp_path / "empty.sqlite", "--lang", "it", "games")).startswith("Ancora nessuna partita")
    assert ok(run(demo_store, "--lang", "es", "games", "--player", "Nobody")) == "Ninguna partida coincide.\n"
    store = _copy(demo_store, tmp_path)
    out = ok(run(store, "--lang", "fr", "meta", "demo", "--seat", "raven=Ana", "--place", "Club Sud", "--table", "3"))
    assert out == "demo: Corbeau Blanc Ana; lieu Club Sud; table 3\n"
    listed = ok(run(store, "--lang", "es", "games"))
    assert "mesa 3 en Club Sud" in listed and " at " not in listed
    bad = run(store, "--lang", "es", "meta", "demo", "--seat", "raven")
    assert bad.exit_code == 2 and "escriba SOCIETY=NAME, por ejemplo --seat raven=Ana" in bad.output
    nothing = run(store, "--lang", "it", "meta", "demo")
    assert nothing.exit_code == 2 and "niente da cambiare" in nothing.output


def test_finalize_and_reopen_speak_the_language(demo_store: Path, tmp_path: Path) -> None:
    store = _copy(demo_store, tmp_path)
    sealed = ok(run(store, "--lang", "es", "finalize", "demo", "--by", "Ana", "--reason", "bear"))
    assert sealed.startswith("demo: sellada por Ana (bear). Para cambiarla: whispers reopen demo") and "finalised" \
        not in sealed
    reopened = ok(run(store, "--lang", "fr", "reopen", "demo", "--by", "Ana", "--reason", "erreur"))
    assert reopened == "demo : rouverte par Ana (erreur) ; elle compte comme non scellée jusqu'à un nouveau sceau.\n"


def test_fork_notes_and_diff_speak_the_language(demo_store: Path, tmp_path: Path) -> None:
    store = _copy(demo_store, tmp_path)
    forked = ok(run(store, "--lang", "fr", "fork", "demo", "branche", "--at", "10"))
    assert forked.startswith("branche : dérivée de demo à l'événement 10. Ensuite : ") and "forked" not in forked
    noted = ok(run(store, "--lang", "it", "annotate", "demo", "5", "una nota"))
    assert noted == "demo: nota sull'evento 5 salvata (1 nota in tutto).\n"
    assert "nota 1 sobre el evento 5 (" in ok(run(store, "--lang", "es", "notes", "demo"))
    assert ok(run(store, "--lang", "fr", "notes", "branche")).startswith("branche : aucune note pour l'instant.")
    diff = ok(run(store, "--lang", "es", "diff", "demo", "branche"))
    assert "demo y branche comparten 10 eventos y se separan en el evento 11:" in diff
    assert "branche: no terminada" in diff and "share" not in diff and "not over" not in diff
    both = run(store, "--lang", "it", "stats", "demo", "--all")
    assert both.exit_code == 2 and "--all copre già demo" in both.output
    formats = run(store, "--lang", "fr", "stats", "demo", "--json", "--csv")
    assert formats.exit_code == 2 and "deux formats de sortie" in formats.output


def test_the_guided_recorder_s_own_answers_speak_the_language(tmp_path: Path) -> None:
    store = tmp_path / "g.sqlite"
    ok(run(store, "new", "g", "--players", "raven,rat,spider,serpent"))
    out = ok(run(store, "--lang", "fr", "record", "g", stdin="99\nhand\nboard x\nq\n"))
    assert "Refusé : aucun choix numéroté 99" in out
    assert "hand prend une société secrète de cette partie : Corbeau Blanc, Culte du Rat" in out
    assert "board ne prend rien après lui" in out and "Refused" not in out and "takes" not in out
    assert "coup> " in out and "move> " not in out


def test_pairing_speaks_the_language(demo_store: Path, tmp_path: Path) -> None:
    """A round paired in the reader's words: the grid's headings, the societies, who meets again (the entrants'
    names as typed)."""
    cup = tmp_path / "cup.toml"
    cup.write_text('name = "Cup"\nentrants = ["Ana", "Bo", "Cy", "Dee"]\n\n[[game]]\nname = "demo"\nround = 1\n'
                   'first = "rat"\nseats = { rat = "Ana", raven = "Bo", serpent = "Cy", spider = "Dee" }\n',
                   encoding="utf-8")
    out = ok(CliRunner().invoke(whispers, ["--lang", "it", "tournament", "pair", str(cup), "--round", "2"],
                                env={"COLUMNS": "200", "WHISPERS_STORE": str(demo_store)}))
    assert "Cup · turno 2" in out and "partecipante" in out and "(primo)" in out
    assert "Si incontrano di nuovo: " in out and "Meeting" not in out and "(first)" not in out
    french = ok(CliRunner().invoke(whispers, ["--lang", "fr", "tournament", "pair", str(cup), "--round", "2",
                                              "--force"], env={"COLUMNS": "200", "WHISPERS_STORE": str(demo_store)}))
    assert "Cup · ronde 2" in french and "Se retrouvent : " in french and "Culte du Rat" in french


def test_the_use_cases_refusals_speak_the_language(demo_store: Path, tmp_path: Path) -> None:
    """The refusals the use cases hand the CLI (a listing's filter, a batch's line, a variation, a round not
    ready to pair) in the reader's words, still one line and exit status 2; the user's words quoted as typed."""
    since = run(demo_store, "--lang", "fr", "games", "--since", "hier")
    assert since.exit_code == 2 and "--since 'hier' n'est pas une date : AAAA-MM-JJ" in since.output
    none = run(demo_store, "--lang", "es", "variation", "demo", "bear")
    assert none.exit_code == 2 and "demo no conserva ninguna variante llamada 'bear'" in none.output
    store = tmp_path / "b.sqlite"
    ok(run(store, "new", "g", "--players", "raven,rat,spider,serpent"))
    batch = run(store, "--lang", "it", "move", "g", "-", stdin="raven loyalty sealed\ngame players=raven,rat\n")
    assert batch.exit_code == 2 and "riga 2: una riga game inizia una partita" in batch.output
    assert "line 2" not in batch.output
    cup = tmp_path / "cup.toml"
    cup.write_text('name = "Cup"\nentrants = ["Ana", "Bo", "Cy", "Dee"]\n\n[[game]]\nname = "later"\nround = 1\n'
                   'first = "rat"\nseats = { rat = "Ana", raven = "Bo", serpent = "Cy", spider = "Dee" }\n',
                   encoding="utf-8")
    early = CliRunner().invoke(whispers, ["--lang", "fr", "tournament", "pair", str(cup), "--round", "2"],
                               env={"WHISPERS_STORE": str(demo_store)})
    assert early.exit_code == 2 and "later n'est pas encore dans le stock : appariez la ronde 2" in early.output


def test_diff_of_games_set_up_differently_speaks_the_language(tmp_path: Path) -> None:
    store = tmp_path / "d.sqlite"
    ok(run(store, "new", "a", "--players", "raven,rat,spider,serpent"))
    ok(run(store, "new", "b", "--players", "rat,raven,spider", "--first", "spider"))
    out = ok(run(store, "--lang", "fr", "diff", "a", "b"))
    assert ("a et b sont des parties différentes, mises en place autrement : joueurs Corbeau Blanc,Culte du Rat,"
            "Araignée Ancillaire,Serpent Éternel / Culte du Rat,Corbeau Blanc,Araignée Ancillaire; premier joueur "
            "Corbeau Blanc / Araignée Ancillaire") in out
    assert "a : pas terminée" in out and "players" not in out and "set up" not in out


def test_the_recorder_s_hints_name_the_slots_in_the_reader_s_words(demo_store: Path, tmp_path: Path) -> None:
    store = _copy(demo_store, tmp_path)
    ok(run(store, "fork", "demo", "swap", "--at", "50"))
    out = ok(run(store, "--lang", "es", "record", "swap", stdin="q\n"))
    # the verbs as the Spanish rulebook prints them (intercambiar, pasar), the slots too: no notation id
    assert "Araña Suplicante Intercambiar …  (dos de: Devoto, Cumplido, Afiliado, No aliado, Opuesto)" in out
    assert "Araña Suplicante Pasar" in out and "swap-loyalty" not in out.split("jugadas:")[1]
    assert "las últimas 5 jugadas:" in out and "two of" not in out and "the last" not in out


def test_a_count_takes_the_languages_own_plural_rule_even_where_its_forms_read_as_englishs() -> None:
    """French counts 0 and 1 in the singular ("0 note", "1 terminée"): its forms of "{n} note" are the English
    ones, and the English rule ("0 notes") was applied to them."""
    from whispers.ledger.core.words import plural, use

    token = use(language.load("fr"))
    try:
        assert [plural(n, "note") for n in (0, 1, 2)] == ["0 note", "1 note", "2 notes"]
    finally:
        from whispers.ledger.core.words import reset

        reset(token)
    assert [plural(n, "note") for n in (0, 1, 2)] == ["0 notes", "1 note", "2 notes"]


def test_french_says_a_finalised_game_is_sealed_by_the_director_not_arrested() -> None:
    """Issue 32: FR read "arrêtées par le directeur" (stopped, arrested) for the director's seal; the French
    catalogue says "scellée" wherever the seal is meant, as `finalize` itself does."""
    token = language.speak("fr")
    try:
        from whispers.ledger.core.words import _

        assert _("finalised by the director:") == "scellées par le directeur :"
        assert term("finalize", "verb") == "Sceller"
    finally:
        language.stop(token)
