"""Keep the message catalogues in step with the code: `python tools/catalogues.py` extracts every message id
(Babel's extractors over the Python sources and the web templates: `_`, `N_`, `say`, `n_`, `ngettext`; the glossary's
terms, one context per kind; the nouns `plural` counts; the notation's keys; the decree effects' names, keyed by the
shipped catalogue's English name) and updates each language's .po, keeping what is
translated. `--check` lists what a language lacks and exits 1 (tests/test_languages.py asks the same). The
build compiles the .po files (setup.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("ledger", "projections", "application", "cli", "web")
KEYWORDS = {"_": None, "N_": None, "say": (1,), "n_": (1, 2), "ngettext": (1, 2)}
LOCALES = ROOT / "projections" / "locales"


def template() -> Catalog:
    """Every message the code asks for, as a catalogue with no translations."""
    sys.path.insert(0, str(ROOT))
    from whispers.ledger.core.words import COUNTED, ENGLISH_TERMS, KEYS, METAVARS, TERMS
    from whispers.ledger.io.decree_files import shipped_catalogue

    catalog = Catalog(domain="whispers", project="whispers")
    for folder in SOURCES:
        for filename, lineno, message, comments, context in extract_from_dir(
                ROOT / folder, method_map=[("**.py", "python"), ("**/templates/**.html", "jinja2.ext:babel_extract")],
                options_map={"**/templates/**.html": {"extensions": "jinja2.ext.i18n"}}, keywords=KEYWORDS,
                comment_tags=("NOTE",)):
            catalog.add(message, locations=[(f"{folder}/{filename}", lineno)], auto_comments=comments,
                        context=context)
    for kind, words in TERMS.items():
        for word in words:
            catalog.add(word, context=kind, auto_comments=[ENGLISH_TERMS.get((kind, word), word)])
    for key in KEYS:
        catalog.add(key, context="key", auto_comments=["a notation key (`pay=`) or word (`sealed`)"])
    for word in METAVARS:
        catalog.add(word, context="metavar", auto_comments=["a placeholder of a move's line, in capitals"])
    for decree in shipped_catalogue().decrees.values():  # keyed by the English name: the rulebooks' EN and REV
        catalog.add(decree.name, context="effect", auto_comments=[f"the decree effect {decree.id}"],
                    locations=[("fixtures/decrees.toml", 0)])
    for noun, plural in COUNTED.items():
        catalog.add((f"{{n}} {noun}", f"{{n}} {plural}"), locations=[("ledger/core/words.py", 0)])
    add_help(catalog)
    return catalog


def add_help(catalog: Catalog) -> None:
    """The commands' help as `whispers --help` says it (cli/spoken.py, Spoken): each command's help paragraph by
    paragraph, its options' help and its metavars' words (context "metavar"), read from the commands themselves
    (their docstrings are no call an extractor sees)."""
    import click

    from whispers.cli.main import whispers
    from whispers.cli.spoken import METAVAR, paragraphs

    def source(command: click.Command) -> tuple[str, int]:
        module = (command.callback.__module__ if command.callback else "whispers.cli.main").split(".")
        return "/".join(module[1:]) + ".py", 0

    def walk(command: click.Command, ctx: click.Context) -> None:
        where = [source(command)]
        for text in paragraphs(command.help or ""):
            catalog.add(text, locations=where)
        if command.short_help:
            catalog.add(" ".join(command.short_help.split()), locations=where)
        usage = list(command.collect_usage_pieces(ctx))
        for param in command.get_params(ctx):
            if getattr(param, "help", None):
                catalog.add(" ".join(param.help.split()), locations=where)
            record = None if isinstance(param, click.Argument) else param.get_help_record(ctx)
            usage.append(record[0] if record else "")
        for word in sorted({word for piece in usage for word in METAVAR.findall(piece)}):
            catalog.add(word, context="metavar", auto_comments=["a metavar: a word in capitals, in --help"])
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                if sub is not None:
                    walk(sub, click.Context(sub, parent=ctx, info_name=name, **sub.context_settings))

    # the context as click makes it (its settings: -h beside --help), since a command keeps the help option it
    # first made
    walk(whispers, click.Context(whispers, info_name="whispers", **whispers.context_settings))


def path(code: str) -> Path:
    return LOCALES / code / "LC_MESSAGES" / "whispers.po"


def read(code: str) -> Catalog:
    with path(code).open("rb") as source:
        return read_po(source, locale=code, domain="whispers")


def missing(code: str, wanted: Catalog | None = None) -> list[str]:
    """The message ids of the code that `code`'s catalogue does not translate (or marks fuzzy)."""
    wanted = wanted or template()
    have = read(code) if path(code).exists() else Catalog(locale=code)
    lacking = []
    for message in wanted:
        if not message.id:
            continue
        found = have.get(message.id, context=message.context)
        strings = found.string if found is not None else None
        filled = strings and (all(strings) if isinstance(strings, tuple) else bool(strings))
        if not filled or found.fuzzy:
            lacking.append(f"{message.context + ': ' if message.context else ''}{message.id}")
    return lacking


def update(code: str) -> None:
    """`code`'s .po holds every current id; kept translations stay, ids the code no longer asks for go."""
    wanted = template()
    have = read(code) if path(code).exists() else Catalog(locale=code)
    out = Catalog(locale=code, domain="whispers", project="whispers", fuzzy=False)
    if path(code).exists():
        # The catalogue's own headers, its Plural-Forms above all: that is the translators' rule its plurals are
        # written in, where a newer Babel's locale data may count more forms (French 2.19: a third, for millions).
        out.mime_headers = have.mime_headers
    for message in wanted:
        if not message.id:
            continue
        found = have.get(message.id, context=message.context)
        string = found.string if found is not None else ("", "") if message.pluralizable else ""
        if code == "en" and not (all(string) if isinstance(string, tuple) else string):
            english = dict((message.auto_comments and [("t", message.auto_comments[0])]) or [])
            string = message.id if message.pluralizable else english.get("t", message.id)
        out.add(message.id, string, locations=message.locations, auto_comments=message.auto_comments,
                context=message.context)
    path(code).parent.mkdir(parents=True, exist_ok=True)
    with path(code).open("wb") as target:
        write_po(target, out, width=120, sort_output=False)


def main(argv: list[str]) -> int:
    from whispers.ledger.core.words import LANGUAGES

    if argv[1:] == ["--check"]:
        wanted = template()
        bad = {code: missing(code, wanted) for code in LANGUAGES}
        for code, lacking in bad.items():
            for item in lacking:
                print(f"{code}: {item}")
        return 1 if any(bad.values()) else 0
    for code in LANGUAGES:
        update(code)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
