"""The guided recorder completes a card play in a real terminal (issue 11): the cards in the hand, the effects
that card may play now (`effect=`), and each parameter's values from its domain, all from the application
layer's prompt (ledger.prompt), not re-derived by the CLI."""

from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_recorder_tty import PROMPT, TIMEOUT, WHISPERS, environment, logged_moves

from whispers.cli.main import whispers
from whispers.cli.recorder import legal_words, play_words

pexpect = pytest.importorskip("pexpect")

CUT = 200
"""The bundled revised game up to the horse sheriff's order in year 3: raven holds lion:8 and controls the horse
sheriff (its order to come), the lion sheriff and the bear chancellor."""


def _lines() -> list[str]:
    text = (resources.files("whispers.fixtures") / "games" / "revised-3p.txt").read_text()
    lines = text.splitlines()[:CUT]
    header = next(i for i, line in enumerate(lines) if line.startswith("game "))
    lines[header] += " card-set=dark-alliances"
    return lines


@pytest.fixture
def store(tmp_path: Path) -> Path:
    path = tmp_path / "whispers.sqlite"
    notation = tmp_path / "tty.txt"
    notation.write_text("\n".join(_lines()) + "\n", encoding="utf-8")
    result = CliRunner().invoke(whispers, ["import", str(notation), "--store", str(path)])  # the recorder is the
    assert result.exit_code == 0, result.output  # process under test, not the import
    return path


def test_the_prompt_gives_the_play_its_cards_effects_and_parameter_domains(store: Path) -> None:
    """play_words reads the prompt's choices: lion:8 plays the Lion deck's effects playable now (REV 292-294: G and
    M, raven's order being to come); use-position's `position` offers the other positions raven controls."""
    from whispers.application import recording

    p = recording.next_move(recording.open_game(str(store), "tty"))
    play = next(o for o in p.options if o.verb == "play")
    assert play_words(play.choices, []) == ["lion:8"]
    effects = play_words(play.choices, ["lion:8"])
    assert "effect=use-position" in effects and "effect=midnight-oil" in effects
    assert not any(e in effects for e in ("effect=hoard", "effect=plague-control", "effect=move-agent"))
    words = play_words(play.choices, ["lion:8", "effect=use-position"])
    # the other positions raven controls (EN 434, REV 391), and no pay= word: raven holds no other card
    assert "position=lion.sheriff" in words and "position=bear.chancellor" in words
    assert "position=eagle.sheriff" not in words and len(words) == 7
    assert play_words(play.choices, ["lion:8", "effect=use-position", "position=lion.sheriff"]) == []
    assert "lion:8" in legal_words(p, ["raven", "play"])


def test_tab_completes_a_card_play_word_by_word(store: Path) -> None:
    child = pexpect.spawn(WHISPERS, ["record", "tty"], env=environment(store), encoding="utf-8", timeout=TIMEOUT,
                          dimensions=(50, 250))
    try:
        child.expect_exact(PROMPT)
        child.send("raven play li\t")
        child.expect_exact("on:8")
        child.send("effect=use\t")
        child.expect_exact("-position")
        child.send("position=lion.sh\t")
        child.expect_exact("eriff")
        child.sendline("")
        child.expect_exact("Preview")  # shown first (issue 32): one more Enter on the line put back records it
        child.expect_exact(PROMPT)
        child.sendline("")
        child.expect_exact("Recorded:")
        child.expect_exact("raven play lion:8 effect=use-position position=lion.sheriff")
        child.expect_exact(PROMPT)
        child.sendeof()
        child.expect(pexpect.EOF)
    finally:
        if child.isalive():
            child.close(force=True)
    assert logged_moves(store)[-1] == "raven play lion:8 effect=use-position position=lion.sheriff"
