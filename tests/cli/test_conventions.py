"""What every command of the command line shares (issue 51): `python -m
skat` runs it, every option has help text, and one exit-status convention:
0 done, 1 a failed check, 2 a usage error or input that cannot be read,
each failure in one line on stderr."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import skat
from skat.cli import main
from tests.helpers.paths import ROOT


def _commands(
    command: click.Command = main,
    path: tuple[str, ...] = ("skat",),
    parent: click.Context | None = None,
) -> Iterator[tuple[tuple[str, ...], click.Command, click.Context]]:
    """Every command and group of the tree, with the context it runs in."""
    ctx = click.Context(command, info_name=path[-1], parent=parent, **command.context_settings)
    yield path, command, ctx
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            yield from _commands(sub, (*path, name), ctx)


def _leaves() -> list[tuple[str, ...]]:
    return [path[1:] for path, c, _ in _commands() if not isinstance(c, click.Group)]


def test_python_dash_m_skat_is_the_skat_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "skat", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"skat, version {skat.__version__}"


def test_every_option_of_every_command_has_help_text() -> None:
    missing = []
    options = 0
    for path, command, ctx in _commands():
        assert command.help or command.short_help, f"{' '.join(path)} has no help"
        for p in command.get_params(ctx):
            if isinstance(p, click.Option):
                options += 1
                if not (p.help or "").strip():
                    missing.append(f"{' '.join(path)} {p.opts[0]}")
    assert options > 100  # the walk reached the whole tree (serve's options included)
    assert missing == []


@pytest.mark.parametrize("argv", _leaves(), ids=" ".join)
def test_a_usage_error_is_one_line_and_exit_2(argv: tuple[str, ...]) -> None:
    result = CliRunner().invoke(main, [*argv, "--no-such-option"])
    assert result.exit_code == 2, result.output
    [line] = result.stderr.splitlines()
    assert line.startswith(f"skat {' '.join(argv)}: No such option")  # click's words
    assert "--no-such-option" in line
    assert line.endswith(f"(see skat {' '.join(argv)} -h)")


@pytest.mark.parametrize(
    "argv",
    [["replay"], ["replay", "--summary"], ["analyse"], ["verify"], ["sheet"], ["export-iss"]],
    ids=" ".join,
)
def test_a_file_that_cannot_be_read_is_exit_2(argv: list[str], tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    result = CliRunner().invoke(main, [*argv, str(missing)])
    assert result.exit_code == 2, result.output
    assert result.stderr == f"skat {argv[0]}: cannot read {missing}: No such file or directory\n"


@pytest.fixture(scope="module")
def tampered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A list record of one deal whose first card play is another card:
    it reads, but it does not check."""
    folder = tmp_path_factory.mktemp("lists")
    good = folder / "good.json"
    result = CliRunner().invoke(main, ["random-list", str(good), "--deals", "1", "--rng", "3"])
    assert result.exit_code == 0, result.output
    assert CliRunner().invoke(main, ["verify", str(good)]).exit_code == 0
    record = json.loads(good.read_text())
    record["commitment"] = "0" * 64  # the seed no longer matches
    bad = folder / "bad.json"
    bad.write_text(json.dumps(record))
    return bad


def test_a_failed_check_is_exit_1(tampered: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["verify", str(tampered)])
    assert result.exit_code == 1
    assert "FAILED" in result.stdout
    broken = tmp_path / "broken.json"
    broken.write_text('{"not": "a game record"}\n')
    result = CliRunner().invoke(main, ["replay", str(broken)])
    assert result.exit_code == 1
    assert "error" in json.loads(result.stdout)


def test_an_unreadable_file_among_readable_ones_is_still_exit_2(tmp_path: Path) -> None:
    """The readable files are replayed and shown; the status says one was not read."""
    broken = tmp_path / "broken.json"
    broken.write_text('{"not": "a game record"}\n')
    result = CliRunner().invoke(main, ["replay", str(broken), str(tmp_path / "missing.json")])
    assert result.exit_code == 2
    assert len(result.stdout.splitlines()) == 1
