"""The ``skat`` command line: replay and check records, reckon game values, benchmark.

This module holds the group ``main`` (the ``skat`` entry point); the commands
live in one module per kind and register on ``main`` when imported below:
`records` (replay, analyse, sheet, verify, export-iss), `value`, `lists`
(random-list, selfplay, tournament simulate), `serve` (serve, cluster) and
`players` (arena, bench, play); `common` holds what they share and
`terminal` the game behind ``skat play``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click


class _Skat(click.Group):
    """The ``skat`` group. Exit status, for every command: 0 done, 1 a
    check failed (a record that does not replay, a list that does not
    verify) or the work could not be done, 2 a usage error or input that
    cannot be read. A usage error is one line on stderr, with the command
    and where its help is, not click's usage block."""

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            done = super().main(args, prog_name, complete_var, False, **extra)
        except click.UsageError as exc:
            where = exc.ctx.command_path if exc.ctx is not None else "skat"
            message = " ".join(exc.format_message().split())
            click.echo(f"{where}: {message} (see {where} -h)", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(done if isinstance(done, int) else 0)


@click.group(name="skat", cls=_Skat, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="skat")
def main() -> None:
    """Skat by the International Skat Order: records, values, benchmarks.

    Exit status: 0 done, 1 a check failed, 2 a usage error or unreadable input.
    """


# the commands register on `main` when their modules are imported
from . import lists, players, records, serve, value  # noqa: E402, F401

__all__ = ["main"]
