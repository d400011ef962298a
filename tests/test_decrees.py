"""The decree catalogue, card sheets and the payment rule (issue 11, data half; rules digest §6).

The catalogue must name every card effect the rulebooks name: the tests read the rulebooks' own card sections
(REV 308-427, EN 424-436) and the digest's tables (§6.3, §6.4) and find each entry in it, with its deck, its
type and a source citing the line.
"""

import ast
import copy
import json
import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from whispers.cli.main import whispers
from whispers.ledger.core import decrees as decrees_module
from whispers.ledger.core.decree_effects import EFFECTS, listing
from whispers.ledger.core.decrees import (
    CardSheet,
    Catalogue,
    check_play,
    family,
    sheet_problems,
)
from whispers.ledger.core.errors import DecreeError
from whispers.ledger.core.pins import content_hash
from whispers.ledger.io.decree_files import check_sheet, load_sheet, shipped_catalogue
from whispers.ledger.io.ruleset_files import load_ruleset
from whispers.ledger.io.shipped import pin

SHARED = Path(__file__).resolve().parents[2] / "shared"  # the team's shared folder, beside the clone (as in CI)
SEEDS = SHARED / "seeds"
DIGEST = SHARED / "rules-digest.md"
FIXTURES = resources.files("whispers.fixtures")
CATALOGUE_TEXT = FIXTURES.joinpath("decrees.toml").read_text(encoding="utf-8")
SHEET_TEXT = FIXTURES.joinpath("cards", "example.toml").read_text(encoding="utf-8")
EMPIRES = {"Bear": "bear", "Eagle": "eagle", "Elephant": "elephant", "Lion": "lion", "Horse": "horse"}

needs_rulebooks = pytest.mark.skipif(not SEEDS.is_dir() or not DIGEST.is_file(),
                                     reason="the rulebooks are not on this machine")


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return shipped_catalogue()


def cites(decree_source: tuple[str, ...], tag: str, line: int) -> bool:
    """Whether a source list cites `tag` at `line`, alone or inside a range."""
    for ref in decree_source:
        match = re.fullmatch(r"(\w+) (\d+)(?:-(\d+))?", ref)
        assert match, ref
        first, last = int(match[2]), int(match[3] or match[2])
        if match[1] == tag and first <= line <= last:
            return True
    return False


# ----------------------------------------------------------------------------------------------- catalogue


def test_catalogue_ids_are_kebab_case_and_each_table_appears_once(catalogue: Catalogue) -> None:
    headers = re.findall(r"^\[effects\.([^\]]+)\]", CATALOGUE_TEXT, flags=re.M)
    assert len(headers) == len(set(headers)) == len(catalogue.decrees)
    for ident in catalogue.decrees:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", ident), ident
    # the ids the issue names in the user's words
    for ident in ("succession-crisis", "hoard", "trade", "midnight-oil", "move-agent", "use-position",
                  "extra-attack", "kill-all", "empty-region-attack", "reinforce", "subjugate", "armada",
                  "disperse", "populate"):
        assert ident in catalogue


@needs_rulebooks
def test_every_decree_of_the_revised_rules_is_catalogued_with_deck_type_and_line() -> None:
    """REV 308-427: each "(G)", "(M)", "(I)" or "Treasure" entry under an empire heading is in the catalogue, in
    that empire's deck, with that type, citing that line."""
    catalogue = shipped_catalogue()
    lines = next(SEEDS.glob("002_*.txt")).read_text(encoding="utf-8").splitlines()
    empire = None
    seen = 0
    for number, line in enumerate(lines[307:427], start=308):
        heading = re.fullmatch(r"(\w+) Empire", line.strip())
        if heading:
            empire = EMPIRES[heading[1]]
            continue
        entry = re.match(r"\((G|M|I)\)|Treasure:", line)
        if not entry:
            continue
        seen += 1
        kind = entry[1] or "never"
        found = [d for d in catalogue.decrees.values() if cites(d.source, "REV", number)]
        assert len(found) == 1, f"REV {number} ({line[:50]}): cited by {[d.id for d in found]}"
        decree = found[0]
        assert empire in decree.decks, f"REV {number}: {decree.id} not in the {empire} deck"
        assert decree.revised == kind, f"REV {number}: {decree.id} is {decree.revised}, the line says {kind}"
    assert seen == 50  # every entry of REV's five lists: 11 Bear, 3 Eagle, 18 Elephant, 9 Lion, 9 Horse


@needs_rulebooks
def test_every_official_card_clarification_is_catalogued() -> None:
    """EN 424-436 "Card Clarifications" and FR 454-466 "Précisions sur les cartes": six entries each."""
    catalogue = shipped_catalogue()
    for tag, glob, first, last in (("EN", "004_*.txt", 425, 436), ("FR", "000_*.txt", 455, 466)):
        lines = next(SEEDS.glob(glob)).read_text(encoding="utf-8").splitlines()
        entries = [n for n in range(first, last + 1) if lines[n - 1].strip()]
        assert len(entries) == 6
        for number in entries:
            found = [d.id for d in catalogue.decrees.values() if cites(d.source, tag, number)]
            assert len(found) == 1, f"{tag} {number}: cited by {found}"


# The digest's names (§6.3 O1-O6 and §6.4 rows) -> catalogue ids, by hand: a row added to the digest fails the
# test below until it is mapped here and catalogued.
DIGEST_NAMES: dict[str, str] = {
    "After your attack, make another attack with the surviving banners": "extra-attack",
    "After your attack, kill all banners involved": "kill-all",
    "Treasure": "treasure",
    "Warring clans – bad blood": "bad-blood",
    "Warring clans – Savaged": "savaged",
    "The Trials – Absolve": "absolve",
    "The Trials – Exile": "exile",
    "Recruit": "recruit",
    "Mercenaries": "mercenaries",
    "Subjugate": "subjugate",
    "Disperse": "disperse",
    "Move the active agent to any empty council position and act there at once": "move-agent",
    "Your attack may target any empty region": "empty-region-attack",
    "Bountiful Harvest – Trade": "trade",
    "Bountiful Harvest – Hoard": "hoard",
    "Assassination plot – Avert": "avert",
    "Assassination plot – Enact": "enact",
    "Armada": "armada",
    "Populate": "populate",
    "Alchemist's fire (listed twice)": "alchemists-fire",
    "Add 1 banner to your attack": "add-1-to-attack",
    "Add 3 banners to your attack": "add-3-to-attack",
    "Stampede": "stampede",
    "Peace through strength – Purge": "purge",
    "Peace through strength – Permit": "permit",
    "Uprising": "uprising",
    "Reinforce": "reinforce",
    "Instead of the active position's action, use a position action held by another of your agents": "use-position",
    "Add 3 friendly banners to any one city": "add-3-to-city",
    "Plague – Control": "plague-control",
    "Plague – Let it Spread": "let-it-spread",
    "Midnight oil": "midnight-oil",
    "Move one army of the active empire to any region it controls": "move-army",
    "Rearrange any empire's banners within its own controlled regions": "rearrange",
    "Nomadic Life": "nomadic-life",
    "Succession Crisis": "succession-crisis",
}
OFFICIAL_CLARIFICATIONS = {"O1": ("kill-all", 426), "O2": ("disperse", 428), "O3": ("move-agent", 430),
                           "O4": ("reinforce", 432), "O5": ("use-position", 434), "O6": ("move-army", 436)}


@needs_rulebooks
def test_every_effect_in_the_digest_tables_is_catalogued() -> None:
    """Digest §6.4: each row (empire, type, effect) is a catalogued decree of that deck and type; §6.3: O1-O6
    are catalogued citing their EN line."""
    catalogue = shipped_catalogue()
    text = DIGEST.read_text(encoding="utf-8")
    section = text[text.index("### 6.4"):text.index("## 7.")]
    empire = None
    rows = 0
    for line in section.splitlines():
        heading = re.fullmatch(r"\*\*(\w+)\*\*", line.strip())
        if heading:
            empire = EMPIRES[heading[1]]
            continue
        row = re.match(r"\| (G|M|I|n/a) \| ([^|]+) \|", line)
        if not row:
            continue
        rows += 1
        name = row[2].strip()
        assert name in DIGEST_NAMES, f"digest §6.4 {empire}: {name!r} is not mapped to a catalogue id"
        decree = catalogue.get(DIGEST_NAMES[name])
        assert empire in decree.decks, f"{decree.id} not in the {empire} deck"
        assert decree.revised == {"n/a": "never"}.get(row[1], row[1]), decree.id
    assert rows == 49  # REV's 50 entries, Alchemist's fire written once "(listed twice)"
    official = text[text.index("### 6.3"):text.index("### 6.4")]
    assert re.findall(r"^\| (O\d) \|", official, flags=re.M) == list(OFFICIAL_CLARIFICATIONS)
    for ident, line in OFFICIAL_CLARIFICATIONS.values():
        assert cites(catalogue.get(ident).source, "EN", line), ident


def test_dark_alliances_decrees_are_exactly_the_instant_ones(catalogue: Catalogue) -> None:
    """REV 290: "Dark alliances decrees are instant effects"; digest §8 item 38: a card-set switch."""
    dark = {d.id for d in catalogue.in_sets(["dark-alliances"])}
    assert dark == {d.id for d in catalogue.decrees.values() if d.revised == "I"}
    assert {"trade", "hoard", "succession-crisis", "nomadic-life"} <= dark
    assert not dark & {d.id for d in catalogue.in_sets(["base"])}


def test_self_explanatory_effects_are_recorded_not_adjudicated(catalogue: Catalogue) -> None:
    """REV calls Uprising, Stampede, Let it Spread... "Self-explanatory" and gives no mechanics."""
    for ident in ("uprising", "stampede", "let-it-spread", "savaged", "permit", "recruit", "enact"):
        decree = catalogue.get(ident)
        assert decree.mechanics == "recorded" and "elf-explanatory" in decree.effect, ident
    for ident in ("reinforce", "move-agent", "use-position", "hoard", "trade", "succession-crisis", "kill-all"):
        assert catalogue.get(ident).adjudicated


def test_timing_family_follows_the_rulesets_play_after_order_knob(catalogue: Catalogue) -> None:
    """EN 380 lets a card be played immediately after an action; REV 300 never: the revised G/M/I column."""
    assert family(load_ruleset("official")) == "official"
    assert family(load_ruleset("advanced")) == "official"
    assert family(load_ruleset("revised")) == "revised"
    assert catalogue.get("move-agent").timing_words("official") == "before an action of a position you control"
    assert catalogue.get("reinforce").timing_words("official") == "during an attack of a position you control"
    assert catalogue.get("hoard").timing_words("revised") == "I (at once, when drawn)"


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda d: d["effects"].__setitem__("Bad_Id", d["effects"]["kill-all"]), "effect Bad_Id: the id must be kebab"),
        (lambda d: d["effects"]["kill-all"].__setitem__("decks", ["wolf"]), "a deck must be one of"),
        (lambda d: d["effects"]["kill-all"]["type"].__setitem__("official", "after|before"), "type.official must be"),
        (lambda d: d["effects"]["hoard"].__setitem__("card_set", "base"), "only they, are type I"),
        (lambda d: d["effects"]["kill-all"].__setitem__("source", ["page 12"]), "source 'page 12' must be"),
        (lambda d: d["effects"]["kill-all"].__setitem__("mechanics", "maybe"), "mechanics must be one of"),
        (lambda d: d["effects"]["reinforce"]["parameters"][0].__setitem__("kind", "banner"), "kind must be one of"),
        (lambda d: d["effects"]["kill-all"].__setitem__("colour", "red"), "unknown key 'colour'"),
        (lambda d: d["effects"]["treasure"].__setitem__("playable", True), "playable = false"),
    ],
)
def test_a_broken_catalogue_is_refused_naming_the_first_problem(change: Any, problem: str) -> None:
    data = tomllib.loads(CATALOGUE_TEXT)
    change(data)
    with pytest.raises(DecreeError) as caught:
        Catalogue.from_data(data, "bad.toml")
    message = str(caught.value)
    assert problem in message and message.startswith("bad.toml: ") and "\n" not in message


def test_the_pure_model_imports_no_file_loading() -> None:
    """DESIGN "Layout": the pure core imports no I/O; the loaders are the adapter ledger/io/decree_files.py."""
    tree = ast.parse(Path(decrees_module.__file__).read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not imported & {"tomllib", "importlib", "importlib.resources", "pathlib", "os", "io"}
    assert "whispers.ledger.io.decree_files" not in imported


# ------------------------------------------------------------------------------------------------- pinning


def test_catalogue_is_pinned_by_content_not_layout(catalogue: Catalogue) -> None:
    data = tomllib.loads(CATALOGUE_TEXT)
    reordered = {"effects": dict(reversed(list(data["effects"].items()))), **{k: v for k, v in data.items()
                                                                            if k != "effects"}}
    again = Catalogue.from_data(reordered)
    assert again.content_hash == catalogue.content_hash == content_hash(catalogue.to_data())
    assert pin("decrees", catalogue.id, catalogue.content_hash).status == "shipped"
    data["effects"]["midnight-oil"]["type"]["revised"] = "G"
    changed = Catalogue.from_data(data)
    assert changed.content_hash != catalogue.content_hash
    assert pin("decrees", changed.id, changed.content_hash).status == "modified"


def test_card_sheet_is_pinned_by_content() -> None:
    sheet = load_sheet("example")
    assert pin("cards", "example", sheet.content_hash).status == "shipped"
    data = tomllib.loads(SHEET_TEXT)
    data["decks"]["bear"]["1"]["effects"][1]["cost"] = {"bear": 1, "eagle": 1}
    other = CardSheet.from_data(data, shipped_catalogue())
    assert other.content_hash != sheet.content_hash
    assert pin("cards", "example", other.content_hash).status == "modified"


# ----------------------------------------------------------------------------------------------- card sheets


def sheet_data() -> dict[str, Any]:
    return copy.deepcopy(tomllib.loads(SHEET_TEXT))


def test_the_example_sheet_is_valid_and_labelled_made_up() -> None:
    sheet, problems = check_sheet("example")
    assert problems == [] and sheet is not None
    assert sheet.example and "MADE-UP" in SHEET_TEXT
    assert all(len(sheet.cards[deck]) >= 8 for deck in ("bear", "eagle", "elephant", "lion", "horse"))


MISTAKES = [
    ("unknown effect id", lambda d: d["decks"]["bear"]["1"]["effects"][0].__setitem__("effect", "fireball"),
     "card bear:1: unknown effect 'fireball'"),
    ("effect on a deck the catalogue does not list for it",
     lambda d: d["decks"]["eagle"]["1"]["effects"][1].__setitem__("effect", "kill-all"),
     "card eagle:1: kill-all is not in the eagle deck"),
    ("a base card missing", lambda d: d["decks"]["lion"].pop("8"), "deck lion: base cards must be numbered 1 to 8"),
    ("a ninth base card", lambda d: d["decks"]["lion"].__setitem__("9", d["decks"]["lion"]["1"]),
     "numbered beyond 8: 9"),
    ("a fractional cost", lambda d: d["decks"]["bear"]["2"]["effects"][1]["cost"].__setitem__("lion", 1.5),
     "cost lion = 1.5 must be a whole number"),
    ("a zero cost", lambda d: d["decks"]["bear"]["2"]["effects"][1]["cost"].__setitem__("lion", 0),
     "cost lion = 0 must be a whole number"),
    ("a cost in an unknown symbol", lambda d: d["decks"]["bear"]["2"]["effects"][1]["cost"].__setitem__("wolf", 1),
     "cost names 'wolf'"),
    ("a cost without the card's own symbol",
     lambda d: d["decks"]["bear"]["2"]["effects"][1].__setitem__("cost", {"lion": 2}),
     "must include a bear symbol"),
    ("a first effect costing more than the card",
     lambda d: d["decks"]["bear"]["2"]["effects"][0].__setitem__("cost", {"bear": 1, "lion": 1}),
     "the first effect costs the card alone"),
    ("a missing cost", lambda d: d["decks"]["bear"]["2"]["effects"][1].pop("cost"), "subjugate: missing cost"),
    ("Treasure with another effect",
     lambda d: d["decks"]["bear"]["7"]["effects"].append({"effect": "recruit", "cost": {"bear": 1}}),
     "a Treasure card carries nothing else"),
    ("three effects on a card",
     lambda d: d["decks"]["bear"]["2"]["effects"].append({"effect": "recruit", "cost": {"bear": 1}}),
     "one or two effects"),
    ("a dark-alliances effect on a base card",
     lambda d: d["decks"]["horse"]["1"]["effects"][1].__setitem__("effect", "nomadic-life"),
     "nomadic-life is a dark-alliances effect, on a base card"),
    ("a dark-alliances card among the base numbers",
     lambda d: d["decks"]["horse"]["1"].__setitem__("set", "dark-alliances"),
     "dark-alliances cards are numbered after the base cards"),
    ("an unknown deck", lambda d: d["decks"].__setitem__("wolf", {}), "deck wolf: unknown deck"),
    ("a missing deck", lambda d: d["decks"].pop("eagle"), "deck eagle: missing"),
    ("a card number that is not a number", lambda d: d["decks"]["bear"].__setitem__("one", {}),
     "card number 'one' must be a whole number"),
    ("an unknown key", lambda d: d["decks"]["bear"]["3"].__setitem__("colour", "blue"), "unknown key 'colour'"),
]


@pytest.mark.parametrize(("change", "problem"), [(c, p) for _, c, p in MISTAKES], ids=[m[0] for m in MISTAKES])
def test_sheet_check_names_each_kind_of_mistake(change: Any, problem: str) -> None:
    data = sheet_data()
    change(data)
    problems = sheet_problems(data, shipped_catalogue(), "mine.toml")
    assert any(problem in line for line in problems), problems
    assert all(line.startswith("mine.toml: ") and "\n" not in line for line in problems)
    with pytest.raises(DecreeError):
        CardSheet.from_data(data, shipped_catalogue(), "mine.toml")


def test_cards_check_cli_prints_every_problem_one_a_line_and_exits_2(tmp_path: Path) -> None:
    text = SHEET_TEXT.replace('{ effect = "kill-all", cost = { bear = 1 } }',
                              '{ effect = "fireball", cost = { bear = 1 } }', 1)
    text = text.replace("[decks.lion.8]", "[decks.lion.08]", 1)
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(whispers, ["cards", "check", str(path)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) >= 3 and all(line.startswith(f"{path}: ") for line in lines)
    assert any("unknown effect 'fireball'" in line for line in lines)
    assert any("card number '08'" in line for line in lines)
    assert "Traceback" not in result.output


def test_cards_check_cli_refuses_unreadable_files_on_one_line(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text("id = [", encoding="utf-8")
    for target in (str(tmp_path / "bad.toml"), str(tmp_path / "none.toml"), "nosuchsheet"):
        result = CliRunner().invoke(whispers, ["cards", "check", target])
        assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output


def test_cards_check_cli_summarises_a_good_sheet() -> None:
    result = CliRunner().invoke(whispers, ["cards", "check", "example"])
    assert result.exit_code == 0, result.output
    assert "valid card sheet 'example' (49 cards: 40 base, 9 dark-alliances" in result.output
    assert "made-up example" in result.output


# ------------------------------------------------------------------------------------------------- listing


def test_decrees_json_lists_every_effect_in_a_stable_shape(catalogue: Catalogue) -> None:
    result = CliRunner().invoke(whispers, ["decrees", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data == listing(catalogue)
    assert data["catalogue"] == {"id": "rulebooks", "name": catalogue.name, "content_hash": catalogue.content_hash}
    assert [e["id"] for e in data["effects"]] == list(catalogue.decrees)
    keys = {"id", "name", "decks", "card_set", "type", "on", "mechanics", "effect", "parameters", "source", "notes",
            "playable", "sea", "engine"}
    for effect in data["effects"]:
        assert set(effect) == keys
        # the engine adjudicates only effects whose mechanics the rulebooks give
        assert effect["engine"] == "recorded" or effect["mechanics"] == "adjudicated"
        assert set(effect["type"]) == {"official", "revised"}
        assert all({"name", "kind"} <= set(p) for p in effect["parameters"])


def test_decrees_for_a_ruleset_says_when_each_effect_is_played() -> None:
    result = CliRunner().invoke(whispers, ["decrees", "--ruleset", "revised", "--json"])
    data = json.loads(result.output)
    timing = {e["id"]: e["timing"] for e in data["effects"]}
    assert timing["midnight-oil"] == {"family": "revised", "type": "M", "words": "M (during the order)"}
    assert data["ruleset"] == "revised"
    table = CliRunner().invoke(whispers, ["decrees", "--ruleset", "official"])
    assert table.exit_code == 0 and "succession-crisis" in table.output and "when drawn" in table.output
    bad = CliRunner().invoke(whispers, ["decrees", "--ruleset", "nosuch"])
    assert bad.exit_code == 2 and len(bad.output.strip().splitlines()) == 1


# ------------------------------------------------------------------------------------------------- payment


@pytest.fixture(scope="module")
def sheet() -> CardSheet:
    return load_sheet("example")


def test_the_first_effect_costs_the_card_alone(sheet: CardSheet, catalogue: Catalogue) -> None:
    """EN 382: "the first ability on each card can be played without discarding additional cards"."""
    assert check_play(catalogue, "kill-all", "bear:1", [], sheet).unchecked == ()
    with pytest.raises(DecreeError, match="1 Treasure card too many"):
        check_play(catalogue, "kill-all", "bear:1", ["eagle:5"], sheet)


def test_the_played_card_counts_toward_the_cost(sheet: CardSheet, catalogue: Catalogue) -> None:
    """EN 386: an ability costing Bear + Lion on a Bear card: that card and one Lion card, two in all."""
    assert sheet.card("bear:2").offers("subjugate").cost == {"bear": 1, "lion": 1}  # type: ignore[union-attr]
    assert check_play(catalogue, "subjugate", "bear:2", ["lion:1"], sheet).unchecked == ()
    with pytest.raises(DecreeError, match="1 more card, for lion"):
        check_play(catalogue, "subjugate", "bear:2", [], sheet)
    with pytest.raises(DecreeError, match="horse:1 pays nothing"):
        check_play(catalogue, "subjugate", "bear:2", ["horse:1"], sheet)
    with pytest.raises(DecreeError, match="named twice"):
        check_play(catalogue, "subjugate", "bear:2", ["bear:2"], sheet)


def test_treasure_is_wild(sheet: CardSheet, catalogue: Catalogue) -> None:
    """REV 315: "a wild decree to discard to pay the cost for an effect of another card"."""
    assert check_play(catalogue, "subjugate", "bear:2", ["eagle:5"], sheet).unchecked == ()
    with pytest.raises(DecreeError, match="never played"):
        check_play(catalogue, "treasure", "bear:7", [], sheet)


def test_a_card_must_carry_the_effect_played(sheet: CardSheet, catalogue: Catalogue) -> None:
    with pytest.raises(DecreeError, match="does not carry disperse"):
        check_play(catalogue, "disperse", "bear:1", [], sheet)
    with pytest.raises(DecreeError, match="on no eagle card"):
        check_play(catalogue, "kill-all", "eagle:1", [], sheet)


def test_without_a_sheet_the_cost_is_reported_unchecked(catalogue: Catalogue) -> None:
    result = check_play(catalogue, "reinforce", "lion:3", ["horse:1"])
    assert len(result.unchecked) == 1 and "no card sheet" in result.unchecked[0]
    with pytest.raises(DecreeError, match="on no bear card"):
        check_play(catalogue, "reinforce", "bear:3", [])


def test_dark_alliances_decrees_need_their_card_set(catalogue: Catalogue) -> None:
    """Digest §8 item 38: off unless the expansion's cards are in use."""
    with pytest.raises(DecreeError, match="dark-alliances decree"):
        check_play(catalogue, "hoard", "elephant:9", [], card_sets=["base"])
    assert check_play(catalogue, "hoard", "elephant:9", [], card_sets=["base", "dark-alliances"]).unchecked


def test_the_docs_list_every_effect_as_adjudicated_or_recorded_and_each_reading(catalogue: Catalogue) -> None:
    """docs/decrees.md: which effects are adjudicated and which recorded, and the readings of digest §8 30-37."""
    docs = (Path(__file__).parent.parent / "docs" / "decrees.md").read_text(encoding="utf-8")
    adjudicated = docs[docs.index("### Mechanics in the rulebooks"):docs.index("### No mechanics in the rulebooks")]
    recorded = docs[docs.index("### No mechanics in the rulebooks"):docs.index("## Readings")]
    engine = docs[docs.index("## Every effect"):docs.index("### Mechanics in the rulebooks")]
    for decree in catalogue.decrees.values():
        row = f"| `{decree.id}` "
        here, there = (adjudicated, recorded) if decree.adjudicated else (recorded, adjudicated)
        assert row in here and row not in there, decree.id
        # the engine's own list: what it adjudicates now, and nothing else
        assert (row in engine) == (decree.id in EFFECTS), decree.id
    for item in range(30, 38):
        assert f"- **{item}." in docs
