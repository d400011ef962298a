"""The `whispers` entry point. Subcommands are imported only when invoked, so start-up stays fast."""

import importlib
import inspect
import os
import re
import sys

import click

from whispers.ledger.errors import WhispersError

LANGUAGES = ("en", "fr", "it", "es")
"""ledger.words.LANGUAGES, written out so that `whispers --help` imports no more of whispers (tests check both)."""


def N_(text: str) -> str:
    """Marks a text for the catalogues (tools/catalogues.py) without translating it: it is said at format time."""
    return text


CLICK_WORDS = (
    # click's own words in the help and the usage errors. click writes them with the standard library's global
    # gettext (its issue 2706: no per-application catalogue), which reads the process's locale and .mo files from
    # disk; whispers chooses its language per run (--lang), so it says these itself, at format time, in the
    # classes below, and they are listed here for the catalogues.
    N_("Usage:"), N_("Options"), N_("Commands"), N_("Positional arguments"), N_("Show this message and exit."),
    N_("Show the version and exit."), N_("default: {default}"), N_("required"), N_("env var: {var}"),
    N_("Aborted!"), N_("or:"),
)

# command name -> ("module:attribute", short help). A module is imported only when its command runs or
# asks for its own --help; `whispers --help` lists these short helps without importing anything.
COMMANDS: dict[str, tuple[str, str]] = {
    "new": ("whispers.cli.recording:new", N_("Start a new game.")),
    "move": ("whispers.cli.recording:move", N_("Record one move, written as a notation line.")),
    "record": ("whispers.cli.recording:record", N_("The guided recorder: asks for each move, offers the legal ones.")),
    "status": ("whispers.cli.reading:status", N_("Where a game stands: who must act and what is legal.")),
    "log": ("whispers.cli.reading:log", N_("A game in notation.")),
    "score": ("whispers.cli.reading:score", N_("Scores with the full breakdown and the tie-break trail.")),
    "games": ("whispers.cli.reading:games", N_("The games in the store.")),
    "meta": ("whispers.cli.table:meta", N_("Change who played a game, where, and for what event.")),
    "archive": ("whispers.cli.table:archive", N_("Hide a game from listings without erasing it.")),
    "rename": ("whispers.cli.table:rename", N_("Give a game a display title.")),
    "import": ("whispers.cli.files:import_game",
               N_("Import games from notation or record files, or a folder of them.")),
    "export": ("whispers.cli.files:export", N_("Export a game as a portable record file.")),
    "replay": ("whispers.cli.review:replay",
               N_("A game at any event, as the record has it or as one society knew it.")),
    "stats": ("whispers.cli.review:stats", N_("Statistics of a game, or across every game in the store.")),
    "fork": ("whispers.cli.review:fork_game", N_("A \"what if\": a new game from another's first N events.")),
    "diff": ("whispers.cli.review:diff", N_("Where two games part, and how their scores differ.")),
    "variation": ("whispers.cli.review:variation",
                  N_("Variations kept inside a game: list, replay one, or keep a fork as one (--keep).")),
    "annotate": ("whispers.cli.review:annotate_game", N_("A note on one event of a game.")),
    "edit-note": ("whispers.cli.review:edit_note", N_("Edit a note (its history keeps what it said).")),
    "withdraw-note": ("whispers.cli.review:withdraw_note", N_("Withdraw a note (its history keeps it).")),
    "notes": ("whispers.cli.review:notes", N_("The notes on a game (--history: every edit; --as: as a society saw).")),
    "finalize": ("whispers.cli.recording:finalize", N_("The director's seal on a finished game.")),
    "reopen": ("whispers.cli.recording:reopen", N_("Lift the director's seal on a finalised game, for a reason.")),
    "verify": ("whispers.cli.files:verify",
               N_("Check a game or record file: hash chain and every move re-adjudicated.")),
    "timeline": ("whispers.cli.pictures:timeline", N_("The council-order timeline as a Graphviz picture.")),
    "map": ("whispers.cli.pictures:board_map", N_("The board at any event as a Graphviz picture.")),
    "chart": ("whispers.cli.charts:chart", N_("A chart of a game (score, cities, banners) or win rates across games.")),
    "standings": ("whispers.cli.tournament:standings", N_("Standings over a list of games.")),
    "tournament": ("whispers.cli.tournament:tournament",
                   N_("Standings of a tournament file (entrants, games, points); `pair` seats a round.")),
    "board": ("whispers.cli.board:board", N_("Check or show a board file.")),
    "decrees": ("whispers.cli.decrees:decrees",
                N_("Every card effect the rulebooks name: type, decks, parameters, source.")),
    "cards": ("whispers.cli.decrees:cards", N_("Check a card sheet: which card carries which effects, at what cost.")),
    "share": ("whispers.cli.web:share", N_("Links for a game's table, each seat and spectators (whispers serve).")),
    "serve": ("whispers.cli.web:serve", N_("Serve the games to browsers: table, seats, replay, director.")),
    "demo": ("whispers.cli.demo:demo", N_("Record a bundled game move by move, then show the board and scores.")),
}


class Refused(click.ClickException):
    """A refused request: one line on stderr, exit status 2, and nothing written."""

    exit_code = 2

    def format_message(self) -> str:
        return self.message

    line: str | None = None
    """The whole line as shown, "Error: ..." in the reader's language: said while the command's language holds."""

    def show(self, file=None) -> None:  # type: ignore[override]
        click.echo(self.line or f"Error: {self.format_message()}", file=file, err=file is None)


# --- the help and click's words in the reader's language ------------------------------------------------------
# The language is chosen in LazyGroup.main, before click parses anything (an eager --help prints while parsing).
# English needs no catalogue: while ledger.words is not even imported, what is said is the text itself, so
# `whispers --help` in English imports nothing more than before.


def _words():  # -> the module whispers.ledger.words, or None while nothing asked for another language
    return sys.modules.get("whispers.ledger.words")


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
        text = said(" ".join(self.short_help.split())) if self.short_help else said_help(self.help).split("\n\n")[0]
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


def _locale_is_english(asked: str | None, environ=os.environ) -> bool:
    """True when the language is English for sure (projections.language.choose would say "en"): then nothing
    is imported to learn it. Anything else asks choose itself."""
    named = asked or environ.get("WHISPERS_LANG")
    if not named:
        named = next((environ[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(name)), "en")
        return re.split(r"[_.@-]", named.strip().lower(), maxsplit=1)[0] not in LANGUAGES[1:]
    return named.strip().lower() == "en"


def _speak(args: list[str]):  # -> a contextvars.Token, or None for English
    asked = _asked(args)
    if _locale_is_english(asked):
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
    from whispers.ledger.words import n_, say

    def suggestion(possibilities: list[str] | None) -> str:
        if not possibilities:
            return ""
        names = ", ".join(repr(name) for name in sorted(possibilities))
        return " " + n_("Did you mean {names}?", "Did you mean one of {names}?", len(possibilities), names=names)

    def hint(param_hint) -> str:
        if param_hint is None and exc.param is not None:
            param_hint = exc.param.get_error_hint(exc.ctx)
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
    from whispers.ledger.words import say

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


class LazyGroup(SpokenGroup):
    """click's documented lazy-loading pattern: list names eagerly, import commands on demand."""

    def __init__(self, *args, lazy: dict[str, tuple[str, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy])

    def main(self, args=None, *rest, standalone_mode: bool = True, **kwargs):  # type: ignore[override]
        """As click's own, in the reader's language (chosen before click parses: an eager --help prints while it
        parses), and a usage error is one line too (click prints usage, a hint and the error)."""
        token = _speak(list(sys.argv[1:] if args is None else args))
        try:
            return self._main(args, *rest, standalone_mode=standalone_mode, **kwargs)
        finally:
            if token is not None:
                from whispers.projections.language import stop

                stop(token)

    def _main(self, *args, standalone_mode: bool = True, **kwargs):
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            result = super().main(*args, standalone_mode=False, **kwargs)
        except click.UsageError as exc:
            no_args_is_help = getattr(click.exceptions, "NoArgsIsHelpError", None)  # click 8.2: the help, as an error
            if no_args_is_help is not None and isinstance(exc, no_args_is_help):
                exc.show()
                sys.exit(exc.exit_code)
            message = usage_error(exc)
            if english():
                click.echo(f"Error: {message}", err=True)
            else:
                from whispers.ledger.words import say

                click.echo(say("Error: {message}", message=message), err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo(said("Aborted!"), err=True)
            sys.exit(1)
        sys.exit(result if isinstance(result, int) else 0)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except WhispersError as exc:
            # one line, whatever text a user or a file put into the message; a rule cited in the reader's edition
            from whispers.ledger.words import refusal, say

            refused = Refused(" ".join(refusal(exc).split()))
            refused.line = say("Error: {message}", message=refused.message)
            raise refused from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, said(self.lazy[name][1])) for name in sorted(self.lazy)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:
            module_name, attr = self.lazy[cmd_name][0].split(":")
            return getattr(importlib.import_module(module_name), attr)
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="whispers")
@click.option("--lang", type=click.Choice(LANGUAGES), metavar="|".join(LANGUAGES),
              help="The language of what whispers writes (default: WHISPERS_LANG, else the locale, else en). "
                   "Notation and record files stay in canonical ids.")
def whispers(lang: str | None) -> None:
    """Record, replay and adjudicate games of A War of Whispers."""
    from whispers.projections.language import choose

    choose(lang)  # LazyGroup.main speaks it already; a WHISPERS_LANG whispers lacks is refused here


def main() -> None:
    """Console-script entry point."""
    whispers(prog_name="whispers")
