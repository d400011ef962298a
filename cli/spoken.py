"""The CLI's help and click's own words in the reader's language: the formatter, the command classes every whispers
command uses (`Spoken`, `SpokenGroup`), the choice of language before click parses (`speak_for`), and click's usage
errors said again. The language is chosen in cli/main.py's LazyGroup.main, before click parses anything (an eager
--help prints while parsing). English needs no catalogue: while ledger.words is not even imported, what is said is
the text itself, so `whispers --help` in English imports nothing more than before (tests/test_startup.py)."""

import inspect
import os
import re
import sys

import click

from whispers.ledger.core.errors import WhispersError

LANGUAGES = ("en", "fr", "it", "es")
"""ledger.words.LANGUAGES, written out so that `whispers --help` imports no more of whispers (tests check both)."""

def _words():  # -> the module whispers.ledger.core.words, or None while nothing asked for another language
    return sys.modules.get("whispers.ledger.core.words")


def english() -> bool:
    words = _words()
    return words is None or words.tongue().code == "en"


def said(text: str) -> str:
    """`text` (an English message id, its whitespace as the catalogues keep it) in the reader's language."""
    words = _words()
    return text if words is None else words._(text)


METAVAR = re.compile(r"\b[A-Z]{2,}\b")
"""A metavar's words (GAME, FILE, ID|PATH, YYYY-MM-DD): each is catalogued in the context "metavar"."""


def metavars(text: str) -> str:
    """The metavars' words in `text` in the reader's language (GAME -> PARTIE in French)."""
    words = _words()
    if words is None:
        return text
    pgettext = words.tongue().pgettext
    return METAVAR.sub(lambda found: pgettext("metavar", found[0]), text)


def _paragraphs(text: str) -> list[tuple[str, str, str]]:
    """A help text cut as the catalogues hold it: (before, message id, after) per paragraph. The id is the
    paragraph with its lines joined (click rewraps them); in a paragraph click keeps as it is (after `\\b`), the
    id is its first line (a heading such as "Verbs:") and the rest (the notation's examples) stays as it is."""
    cut = []
    for paragraph in inspect.cleandoc(text).partition("\f")[0].split("\n\n"):
        if paragraph.startswith("\b\n"):
            head, newline, body = paragraph[2:].partition("\n")
            cut.append(("\b\n", head, newline + body))
        elif paragraph.strip():
            cut.append(("", " ".join(paragraph.split()), ""))
    return cut


def paragraphs(text: str) -> list[str]:
    """A command's help as the catalogues' message ids (tools/catalogues.py)."""
    return [message for _before, message, _after in _paragraphs(text)]


def said_help(text: str) -> str:
    """A command's help in the reader's language, paragraph by paragraph."""
    return "\n\n".join(before + said(message) + after for before, message, after in _paragraphs(text))


EXTRA = re.compile(r"(?P<space>\s*)\[(?P<items>[^\[\]]*)\]")


def _said_extra(items: str) -> str:
    """click's "default: x; required" after an option's help, in the reader's language."""
    out = []
    for item in items.split("; "):
        name, colon, value = item.partition(": ")
        if colon and name == "default":
            out.append(said("default: {default}").format(default=value))
        elif colon and name == "env var":
            out.append(said("env var: {var}").format(var=value))
        else:
            out.append(said(item))  # "required"; a range stays as click writes it
    return "; ".join(out)


class SpokenFormatter(click.HelpFormatter):
    """click's help formatter, its "Usage:" and its headings ("Options", "Commands") in the reader's language."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        if prefix is None and not english():
            prefix = said("Usage:") + " "
        super().write_usage(prog, metavars(args), prefix)

    def write_heading(self, heading: str) -> None:
        super().write_heading(said(heading))


class SpokenContext(click.Context):
    formatter_class = SpokenFormatter


class Spoken(click.Command):
    """A command whose help is read in the reader's language: its own help, its options' and click's words. Every
    whispers command is one (`@click.command(cls=Spoken)`, a SpokenGroup's subcommands by default). The texts are
    the catalogues' message ids: tools/catalogues.py reads them from the commands themselves."""

    context_class = SpokenContext

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if english() or not self.help:
            return super().format_help_text(ctx, formatter)
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(said_help(self.help))
        return None

    def get_short_help_str(self, limit: int = 45) -> str:
        if english() or not (self.short_help or self.help):
            return super().get_short_help_str(limit)
        text = (said(" ".join(self.short_help.split())) if self.short_help
                else said_help(self.help or "").split("\n\n")[0])
        sentence = re.split(r"(?<=\.)\s", text, maxsplit=1)[0]
        return sentence if len(sentence) <= limit else sentence[:limit - 3].rsplit(" ", 1)[0] + "..."

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [metavars(piece) for piece in super().collect_usage_pieces(ctx)]

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if english():
            return super().format_options(ctx, formatter)
        rows = []
        for param in self.get_params(ctx):
            record = None if isinstance(param, click.Argument) else param.get_help_record(ctx)
            if record is not None:
                rows.append((metavars(record[0]), self._said_option(getattr(param, "help", None) or "", record[1])))
        if rows:
            with formatter.section("Options"):
                formatter.write_dl(rows)
        if isinstance(self, click.Group):
            self.format_commands(ctx, formatter)
        return None

    @staticmethod
    def _said_option(help_text: str, shown: str) -> str:
        """An option's help as click shows it (its help, then click's "[default: x; required]"), said."""
        rest = shown[len(help_text):] if shown.startswith(help_text) else shown
        text = said(" ".join(help_text.split())) if help_text else ""
        extra = EXTRA.fullmatch(rest)
        if extra:
            return text + extra["space"] + "[" + _said_extra(extra["items"]) + "]"
        return text + rest


class SpokenGroup(Spoken, click.Group):
    """A group of Spoken commands (its subcommands and subgroups are Spoken too)."""

    command_class = Spoken
    group_class = type


def _asked(args: list[str]) -> str | None:
    """The --lang given before the command's name, when it is one of ours (click refuses another, in the language
    of WHISPERS_LANG or the locale)."""
    for index, arg in enumerate(args):
        value = None
        if arg == "--lang":
            value = args[index + 1] if index + 1 < len(args) else None
        elif arg.startswith("--lang="):
            value = arg.partition("=")[2]
        elif arg.startswith("-"):
            continue
        else:
            return None
        return value if value in LANGUAGES else None
    return None


def locale_is_english(asked: str | None, environ=os.environ) -> bool:
    """True when the language is English for sure (projections.language.choose would say "en"): then nothing
    is imported to learn it. Anything else asks choose itself."""
    named = asked or environ.get("WHISPERS_LANG")
    if not named:
        named = next((environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(name)), "en")
        return re.split(r"[_.@-]", named.strip().lower(), maxsplit=1)[0] not in LANGUAGES[1:]
    return named.strip().lower() == "en"


def speak_for(args: list[str]):  # -> a contextvars.Token, or None for English
    asked = _asked(args)
    if locale_is_english(asked):
        return None
    from whispers.projections.language import choose, speak

    try:
        code = choose(asked)
    except WhispersError:
        return None  # a WHISPERS_LANG we lack: the group refuses it when a command runs (its callback)
    return speak(code)


def usage_error(exc: click.UsageError) -> str:
    """A usage error's message in the reader's language: click composed it in English, so it is told again from
    what the exception holds (the option, the parameter, the value's message)."""
    if english():
        return exc.format_message()
    from whispers.ledger.core.words import n_, say

    def suggestion(possibilities: list[str] | None) -> str:
        if not possibilities:
            return ""
        names = ", ".join(repr(name) for name in sorted(possibilities))
        return " " + n_("Did you mean {names}?", "Did you mean one of {names}?", len(possibilities), names=names)

    def hint(param_hint) -> str:
        param = getattr(exc, "param", None)  # a BadParameter's
        if param_hint is None and param is not None:
            param_hint = param.get_error_hint(exc.ctx)
        if param_hint is not None and not isinstance(param_hint, str):
            param_hint = " / ".join(repr(name) for name in param_hint)
        return metavars(param_hint or "")

    if isinstance(exc, click.NoSuchOption):
        return say("No such option {name}.", name=repr(exc.option_name)) + suggestion(exc.possibilities)
    no_such_command = getattr(click.exceptions, "NoSuchCommand", None)  # click 8.4
    if no_such_command is not None and isinstance(exc, no_such_command):
        return say("No such command {name}.", name=repr(exc.command_name)) + suggestion(exc.possibilities)
    if isinstance(exc, click.MissingParameter):
        kind = exc.param_type or (exc.param.param_type_name if exc.param is not None else "parameter")
        name = hint(exc.param_hint)
        if kind == "argument":
            return say("Missing argument {name}.", name=name)
        if kind == "option":
            return say("Missing option {name}.", name=name)
        return say("Missing parameter {name}.", name=name)
    if isinstance(exc, click.BadParameter):
        if exc.param_hint is None and exc.param is None:
            return say("Invalid value: {message}", message=_said_click(exc.message))
        return say("Invalid value for {name}: {message}", name=hint(exc.param_hint), message=_said_click(exc.message))
    return _said_click(exc.format_message())


def _said_click(message: str) -> str:
    """One of click's messages read back against its English and said in the reader's language (the messages of
    a bad value and of the parser; another stays as click wrote it)."""
    from whispers.ledger.core.words import say

    found = re.fullmatch(r"(?P<value>.+) is not one of (?P<choices>.+)\.", message, re.S) or \
        re.fullmatch(r"(?P<value>.+) is not (?P<choices>'[^']*')\.", message, re.S)
    if found:
        return say("{value} is not one of {choices}.", value=found["value"], choices=found["choices"])
    found = re.fullmatch(r"(?P<value>.+) is not a valid integer( range)?\.", message, re.S)
    if found:
        return say("{value} is not a whole number.", value=found["value"])
    found = re.fullmatch(r"(?P<value>.+) is not in the range (?P<range>.+)\.", message, re.S)
    if found:
        return say("{value} is not in the range {range}.", value=found["value"], range=found["range"])
    found = re.fullmatch(r"(?P<kind>File|Path|Directory) (?P<path>.+) does not exist\.", message, re.S)
    if found:
        return say("{path} does not exist.", path=found["path"])
    found = re.fullmatch(r"Option (?P<name>'[^']*') requires (an argument|(?P<n>\d+) arguments)\.", message)
    if found:
        return say("Option {name} requires a value.", name=found["name"])
    found = re.fullmatch(r"Got unexpected extra arguments? \((?P<args>.*)\)", message, re.S)
    if found:
        return say("Unexpected extra words: {text}", text=found["args"])  # the user's words, as typed
    if message == "Missing command.":
        return say("Which command? (whispers --help lists them)")
    return message
