"""The `whispers` entry point. Subcommands are imported only when invoked, so start-up stays fast."""

import importlib
import sys

import click

from whispers.ledger.errors import WhispersError

LANGUAGES = ("en", "fr", "it", "es")
"""ledger.words.LANGUAGES, written out so that `whispers --help` imports no more of whispers (tests check both)."""

# command name -> ("module:attribute", short help). A module is imported only when its command runs or
# asks for its own --help; `whispers --help` lists these short helps without importing anything.
COMMANDS: dict[str, tuple[str, str]] = {
    "new": ("whispers.cli.recording:new", "Start a new game."),
    "move": ("whispers.cli.recording:move", "Record one move, written as a notation line."),
    "record": ("whispers.cli.recording:record", "The guided recorder: asks for each move, offers the legal ones."),
    "status": ("whispers.cli.reading:status", "Where a game stands: who must act and what is legal."),
    "log": ("whispers.cli.reading:log", "A game in notation."),
    "score": ("whispers.cli.reading:score", "Scores with the full breakdown and the tie-break trail."),
    "games": ("whispers.cli.reading:games", "The games in the store."),
    "meta": ("whispers.cli.table:meta", "Change who played a game, where, and for what event."),
    "archive": ("whispers.cli.table:archive", "Hide a game from listings without erasing it."),
    "rename": ("whispers.cli.table:rename", "Give a game a display title."),
    "import": ("whispers.cli.files:import_game", "Import games from notation or record files, or a folder of them."),
    "export": ("whispers.cli.files:export", "Export a game as a portable record file."),
    "replay": ("whispers.cli.review:replay", "A game at any event, as the record has it or as one society knew it."),
    "stats": ("whispers.cli.review:stats", "Statistics of a game, or across every game in the store."),
    "fork": ("whispers.cli.review:fork_game", "A \"what if\": a new game from another's first N events."),
    "diff": ("whispers.cli.review:diff", "Where two games part, and how their scores differ."),
    "variation": ("whispers.cli.review:variation",
                  "Variations kept inside a game: list, replay one, or keep a fork as one (--keep)."),
    "annotate": ("whispers.cli.review:annotate_game", "A note on one event of a game."),
    "edit-note": ("whispers.cli.review:edit_note", "Edit a note (its history keeps what it said)."),
    "withdraw-note": ("whispers.cli.review:withdraw_note", "Withdraw a note (its history keeps it)."),
    "notes": ("whispers.cli.review:notes", "The notes on a game (--history: every edit; --as: as a society saw)."),
    "finalize": ("whispers.cli.recording:finalize", "The director's seal on a finished game."),
    "reopen": ("whispers.cli.recording:reopen", "Lift the director's seal on a finalised game, for a reason."),
    "verify": ("whispers.cli.files:verify", "Check a game or record file: hash chain and every move re-adjudicated."),
    "timeline": ("whispers.cli.pictures:timeline", "The council-order timeline as a Graphviz picture."),
    "map": ("whispers.cli.pictures:board_map", "The board at any event as a Graphviz picture."),
    "chart": ("whispers.cli.charts:chart", "A chart of a game (score, cities, banners) or win rates across games."),
    "standings": ("whispers.cli.tournament:standings", "Standings over a list of games."),
    "tournament": ("whispers.cli.tournament:tournament",
                   "Standings of a tournament file (entrants, games, points); `pair` seats a round."),
    "board": ("whispers.cli.board:board", "Check or show a board file."),
    "decrees": ("whispers.cli.decrees:decrees",
                "Every card effect the rulebooks name: type, decks, parameters, source."),
    "cards": ("whispers.cli.decrees:cards", "Check a card sheet: which card carries which effects, at what cost."),
    "share": ("whispers.cli.web:share", "Links for a game's table, each seat and spectators (whispers serve)."),
    "serve": ("whispers.cli.web:serve", "Serve the games to browsers: table, seats, replay, director."),
    "demo": ("whispers.cli.demo:demo", "Record a bundled game move by move, then show the board and scores."),
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


class LazyGroup(click.Group):
    """click's documented lazy-loading pattern: list names eagerly, import commands on demand."""

    def __init__(self, *args, lazy: dict[str, tuple[str, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy])

    def main(self, *args, standalone_mode: bool = True, **kwargs):  # type: ignore[override]
        """As click's own, but a usage error is one line too (click prints usage, a hint and the error)."""
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            result = super().main(*args, standalone_mode=False, **kwargs)
        except click.UsageError as exc:
            click.echo(f"Error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
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
        rows = [(name, self.lazy[name][1]) for name in sorted(self.lazy)]
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
    from whispers.projections.language import choose, speak, stop

    token = speak(choose(lang))
    click.get_current_context().call_on_close(lambda: stop(token))


def main() -> None:
    """Console-script entry point."""
    whispers(prog_name="whispers")
