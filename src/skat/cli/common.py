"""What several commands share: the failures of `skat value` (`fail`,
`one_number`), reading a list record for `sheet`, `verify` and `export-iss`
(`read_list`), and the options and output of the commands that play a whole
list (`_LIST_OPTIONS`, `list_command`, `list_options`, `write_list`)."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import click

from ..engine.records import RecordError


class _Failed(Exception):
    pass


def fail(reason: str, message: str) -> NoReturn:
    click.echo(f"skat value: {reason}: {message}", err=True)
    sys.exit(2)


def one_number(text: str, code: str, option: str) -> int:
    try:
        return int(text)
    except ValueError:
        fail(code, f"{option} is one whole number for this game, not {text!r}")


def read_list(path: str, command: str) -> dict[str, Any]:
    from ..series.record import load_list

    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        return load_list(text)
    except OSError as exc:
        click.echo(f"skat {command}: cannot read {path}: {exc.strerror}", err=True)
    except RecordError as exc:
        click.echo(f"skat {command}: {exc.code}: {exc.message}", err=True)
    sys.exit(2)


def list_options(players: str, deals: int | None, options_json: str) -> Any:
    from ..series import ListOptions

    extra = json.loads(options_json)
    if not isinstance(extra, dict):
        raise ValueError("--options must be a JSON object")
    return ListOptions.from_dict(
        {**extra, "players": int(players), "deals": deals or extra.get("deals")}
    )


def write_list(out: str, series: Any, command: str) -> None:
    from ..series.record import list_record

    text = json.dumps(list_record(series, id=command), indent=1)
    if out == "-":
        click.echo(text)
        return
    with open(out, "w", encoding="utf-8") as fh:
        fh.write(text)
    click.echo(f"wrote {out}: {len(series.rows)} deals, commitment {series.commitment[:16]}...")


_LIST_OPTIONS = [
    click.argument("out", type=click.Path(dir_okay=False, allow_dash=True)),
    click.option(
        "--players",
        type=click.Choice(["3", "4"]),
        default="3",
        show_default=True,
        help="Players at the table (four: the dealer sits out each deal).",
    ),
    click.option("--deals", type=int, help="Deals in the list (default 12 rounds)."),
    click.option("--seed", "seed_hex", help="64 hex digits; default a fresh secret seed."),
    click.option("--rng", "rng_seed", type=int, default=0, help="Seed of the players' RNGs."),
    click.option(
        "--options",
        "options_json",
        default="{}",
        help="List options as JSON, e.g. '{\"bock\": true}'.",
    ),
]


def list_command(f: Any) -> Any:
    for deco in reversed(_LIST_OPTIONS):
        f = deco(f)
    return f
