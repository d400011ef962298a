"""The `whispers` entry point. Subcommands are imported only when invoked, so start-up stays fast."""

import importlib

import click

from ledger.errors import WhispersError

# command name -> "module:attribute"; a module is imported only when its command runs or asks for --help.
COMMANDS: dict[str, str] = {
    "board": "cli.board:board",
}


class Refused(click.ClickException):
    """A refused request: one line on stderr, exit status 2, and nothing written."""

    exit_code = 2

    def format_message(self) -> str:
        return self.message


class LazyGroup(click.Group):
    """click's documented lazy-loading pattern: list names eagerly, import commands on demand."""

    def __init__(self, *args, lazy: dict[str, str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy])

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except WhispersError as exc:
            raise Refused(str(exc)) from None

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy:
            module_name, attr = self.lazy[cmd_name].split(":")
            return getattr(importlib.import_module(module_name), attr)
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="whispers")
def whispers() -> None:
    """Record, replay and adjudicate games of A War of Whispers."""


def main() -> None:
    """Console-script entry point."""
    whispers(prog_name="whispers")
