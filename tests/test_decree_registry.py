"""The registry of adjudicated decree effects (issue 33): one object per effect, in the module of its family, the
catalogue's words for what it checks true to the registry, and no effect's id written anywhere else in the code."""

import subprocess
from pathlib import Path

import pytest

from whispers.ledger.core.decree_effects import EFFECTS, AttackCard, adjudicated, engine_mode
from whispers.ledger.io.decree_files import shipped_catalogue

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = shipped_catalogue()


def test_the_registry_holds_every_effect_the_catalogue_says_the_engine_adjudicates() -> None:
    """Catalogue `mechanics = "adjudicated"`, played (Treasure is only ever paid with, REV 315): each is one object
    in the registry, kept under its id, and `whispers decrees` says so."""
    played = {d.id for d in CATALOGUE.decrees.values() if d.adjudicated and d.playable}
    assert set(EFFECTS) == played == adjudicated()
    for effect_id, found in EFFECTS.items():
        assert found.id == effect_id and engine_mode(effect_id) == "adjudicated"
        assert type(found).__module__ == f"whispers.ledger.core.decree_effects.{found.family}", effect_id
        assert isinstance(found, AttackCard) == (found.family == "attack") == (CATALOGUE[effect_id].on == "attack")


@pytest.mark.parametrize("effect_id", sorted(EFFECTS))
def test_the_catalogue_states_the_checks_the_registry_makes(effect_id: str) -> None:
    """Each effect's checks, as its class states them, are in the catalogue's text in those words; a text that says
    "Checked:" belongs to an effect that states what it checks."""
    text = " ".join(CATALOGUE[effect_id].effect.split())
    found = EFFECTS[effect_id]
    assert found.checks, f"{effect_id} states no check"
    for check in found.checks:
        assert check in text, f"{effect_id}: the catalogue does not say {check!r}"


def test_a_lasting_effect_is_typed_instant_and_says_it_lasts_REV_353_REV_355() -> None:
    """REV 353, 355: Bountiful Harvest lies beside the board "for the duration of the turn"."""
    for found in EFFECTS.values():
        if found.lasting:
            assert CATALOGUE[found.id].revised == "I" and "Lasting" in CATALOGUE[found.id].effect


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs the git checkout")
def test_no_effect_id_is_written_outside_its_module_and_the_catalogue() -> None:
    """`git grep` for each adjudicated effect's id in the code (Python, templates, scripts) finds it only in its
    own family's module: the rules, evolve, flow, the timeline and the random game ask the registry."""
    for effect_id, found in EFFECTS.items():
        listed = subprocess.run(["git", "grep", "-l", "-w", "-e", effect_id, "--", "*.py", "*.html", "*.js",
                                 ":!tests", ":!ledger/core/decree_effects"], cwd=ROOT, capture_output=True, text=True)
        assert listed.stdout == "", f"{effect_id} is written in {listed.stdout.split()}"
        home = ROOT / "ledger" / "core" / "decree_effects" / f"{found.family}.py"
        assert f'id = "{effect_id}"' in home.read_text(encoding="utf-8")
