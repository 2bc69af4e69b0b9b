"""The ``skat`` command line: replay and check records, reckon game values, benchmark.

This module holds the group ``main`` (the ``skat`` entry point); the commands
live in one module per kind and register on ``main`` when imported below:
`records` (replay, analyse, sheet, verify, export-iss), `value`, `lists`
(random-list, selfplay, tournament simulate), `serve` (serve, cluster) and
`players` (arena, bench, play); `common` holds what they share and
`terminal` the game behind ``skat play``.
"""

from __future__ import annotations

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="skat")
def main() -> None:
    """Skat by the International Skat Order: records, values, benchmarks."""


# the commands register on `main` when their modules are imported
from . import lists, players, records, serve, value  # noqa: E402, F401

__all__ = ["main"]
