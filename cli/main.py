"""The `whispers` entry point. Subcommands are imported only when invoked, so start-up stays fast."""

import importlib
import sys

import click

from whispers.cli.spoken import LANGUAGES, SpokenGroup, english, locale_is_english, said, speak_for, usage_error
from whispers.ledger.core.errors import WhispersError


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
    "games": ("whispers.cli.listing:games", N_("The games in the store.")),
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
    "rebuild": ("whispers.cli.files:rebuild",
                N_("Make every read model (the catalog, snapshots) again from the events, whatever damage it held.")),
    "timeline": ("whispers.cli.pictures:timeline", N_("The council-order timeline as a Graphviz picture.")),
    "map": ("whispers.cli.pictures:board_map", N_("The board at any event as a Graphviz picture.")),
    "analyse": ("whispers.cli.analysis:analyse",
                N_("Each society's chance of winning after every move, from playouts; the turning points.")),
    "chart": ("whispers.cli.charts:chart", N_("A chart of a game (score, cities, banners) or win rates across games.")),
    "standings": ("whispers.cli.tournament:standings", N_("Standings over a list of games.")),
    "ratings": ("whispers.cli.ratings:ratings",
                N_("Each person's rating across every finished game (Plackett-Luce), and seat and society effects.")),
    "tournament": ("whispers.cli.tournament:tournament",
                   N_("Standings of a tournament file (entrants, games, points); `pair` seats a round.")),
    "publish": ("whispers.cli.publish:publish",
                N_("Write a folder of static pages: standings, rounds and replays to open from the disk.")),
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

    def show(self, file=None) -> None:
        click.echo(self.line or f"Error: {self.format_message()}", file=file, err=file is None)


class LazyGroup(SpokenGroup):
    """click's documented lazy-loading pattern: list names eagerly, import commands on demand."""

    def __init__(self, *args, lazy: dict[str, tuple[str, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy])

    def main(self, args=None, *rest, standalone_mode: bool = True, **kwargs):
        """As click's own, in the reader's language (chosen before click parses: an eager --help prints while it
        parses), and a usage error is one line too (click prints usage, a hint and the error)."""
        token = speak_for(list(sys.argv[1:] if args is None else args))
        try:
            return self._main(args, *rest, standalone_mode=standalone_mode, **kwargs)
        finally:
            if token is not None:
                from whispers.projections.language import stop

                stop(token)

    def _main(self, *args, standalone_mode: bool = True, **kwargs):
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[call-overload]
        try:
            result = super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[call-overload]
        except click.UsageError as exc:
            no_args_is_help = getattr(click.exceptions, "NoArgsIsHelpError", None)  # click 8.2: the help, as an error
            if no_args_is_help is not None and isinstance(exc, no_args_is_help):
                exc.show()
                sys.exit(exc.exit_code)
            message = usage_error(exc)
            if english():
                click.echo(f"Error: {message}", err=True)
            else:
                from whispers.ledger.core.words import say

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
            from whispers.ledger.core.text import shown
            from whispers.ledger.core.words import refusal, say

            refused = Refused(shown(" ".join(refusal(exc).split())))  # a file's bytes quoted in it: escaped
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
    if locale_is_english(lang):
        return  # English for sure: nothing to refuse, and the catalogues are not read
    from whispers.projections.language import choose

    choose(lang)  # LazyGroup.main speaks it already; a WHISPERS_LANG whispers lacks is refused here


def main() -> None:
    """Console-script entry point."""
    whispers(prog_name="whispers")
