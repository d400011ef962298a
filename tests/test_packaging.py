"""The distribution claims one top-level import name, `whispers` (issue: installed names that belong to us)."""

import re
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheel_installs_only_the_whispers_package(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--verbose", "-w", str(tmp_path), str(ROOT)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    # the build warns of nothing (a data folder missing from `packages` once printed ten warning blocks per install)
    warnings = re.findall(r"\w*Warning: .*", done.stdout + done.stderr)
    assert not warnings, warnings
    (wheel,) = tmp_path.glob("whispers-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top == {"whispers"}, sorted(top)
    for data in ("whispers/fixtures/rulesets/official.toml", "whispers/fixtures/boards/standin.toml",
                 "whispers/fixtures/games/official-4p.txt", "whispers/fixtures/decrees.toml",
                 "whispers/ledger/core/rules.py", "whispers/ledger/core/decree_effects/attack.py",
                 "whispers/cli/main.py", "whispers/projections/visibility.py",
                 "whispers/web/app.py", "whispers/web/templates/game.html", "whispers/web/static/app.js",
                 "whispers/fixtures/cards/example.toml", "whispers/fixtures/shipped-hashes.json",
                 "whispers/web/static/app.css", "whispers/ledger/io/state-dictionary-1.zdict"):
        assert data in names
    # the build compiles the message catalogues (setup.py): every language's .mo is in the wheel, and reads
    import gettext
    import io

    for code in ("en", "fr", "it", "es"):
        assert f"whispers/projections/locales/{code}/LC_MESSAGES/whispers.po" in names
        assert f"whispers/projections/locales/{code}/LC_MESSAGES/whispers.mo" in names
    compiled = zipfile.ZipFile(wheel).read("whispers/projections/locales/fr/LC_MESSAGES/whispers.mo")
    assert gettext.GNUTranslations(io.BytesIO(compiled)).pgettext("office", "sheriff") == "Commissaire"
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "whispers = whispers.cli.main:main" in zipfile.ZipFile(wheel).read(entry).decode()
