"""The `whispers` entry point. Subcommands are imported only when invoked, so start-up stays fast."""

import importlib
import sys

import click

from ledger.errors import WhispersError

# command name -> "module:attribute"; a module is imported only when its command runs or asks for --help.
COMMANDS: dict[str, str] = {
    "board": "cli.board:board",
}


class LazyGroup(click.Group):
    """click's documented lazy-loading pattern: list names eagerly, import commands on demand."""

    def __init__(self, *args, lazy: dict[str, str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy])

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
    """Run the CLI; a WhispersError becomes one line on stderr and exit status 2."""
    try:
        whispers.main(standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        exc.show()
        sys.exit(2 if exc.exit_code == 2 else exc.exit_code)
    except WhispersError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
