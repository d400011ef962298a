"""The one build step pyproject.toml cannot declare: compile the message catalogues (.po -> .mo, with Babel) into
the package, so an installed whispers reads compiled catalogues. Everything else is in pyproject.toml.

An editable install (`pip install -e .`) maps the packages to the source folders, so there the .mo files are
written beside their .po (they are build output: .gitignore keeps them out of git). Where a .mo is missing or
older than its .po anyway, projections/language.py compiles the .po in memory.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

CATALOGUES = Path("projections", "locales")


def compile_catalogues(root: Path) -> None:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in sorted(root.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parent.parent.name, domain=po.stem)
        with po.with_suffix(".mo").open("wb") as target:
            write_mo(target, catalog, use_fuzzy=False)


class BuildWithCatalogues(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            compile_catalogues(CATALOGUES)
        else:
            compile_catalogues(Path(self.build_lib, "whispers", "projections", "locales"))


setup(cmdclass={"build_py": BuildWithCatalogues})
