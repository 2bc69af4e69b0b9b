"""The README's session works when pasted (ARCHITECTURE.md practice 15), in a
fresh clone on its own: no command reads ../shared (the ISS records it
replays are a copy in tests/cli/data, of ../shared/data/iss/iss-games.sgf)."""

from __future__ import annotations

import doctest
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import ISS_FILE, ROOT

README = ROOT / "README.md"


def _console_blocks() -> list[tuple[str, str]]:
    """(command, expected output) pairs from ```console blocks."""
    pairs: list[tuple[str, str]] = []
    for block in re.findall(r"```console\n(.*?)```", README.read_text(), re.S):
        cmd: str | None = None
        out: list[str] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                if cmd is not None:
                    pairs.append((cmd, "\n".join(out)))
                cmd, out = line[2:], []
            else:
                out.append(line)
        if cmd is not None:
            pairs.append((cmd, "\n".join(out)))
    return pairs


def test_readme_python_session() -> None:
    failures, tried = doctest.testfile(
        str(README), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert tried > 5
    assert failures == 0


@pytest.mark.parametrize(("cmd", "expected"), _console_blocks())
def test_readme_console_session(cmd: str, expected: str, tmp_path: Path) -> None:
    """Each command in a folder that holds only the files the command names
    (at their places in the clone), with nothing beside it."""
    argv = shlex.split(cmd)
    assert argv[0] == ".venv/bin/skat"
    clone = tmp_path / "clone"
    clone.mkdir()
    for arg in argv[1:]:
        assert not arg.startswith("../") and "/../" not in arg, f"{cmd} reads outside the clone"
        if not arg.startswith("-") and (ROOT / arg).is_file():
            (clone / arg).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / arg, clone / arg)
    # the CLI of the interpreter running the tests, as `python -m skat`
    proc = subprocess.run(
        [sys.executable, "-m", "skat", *argv[1:]],
        cwd=clone,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.stdout.strip() == expected.strip(), proc.stderr


def test_the_iss_records_of_the_readme_are_the_shared_ones() -> None:
    copy = ROOT / "tests" / "cli" / "data" / "iss-games.sgf"
    assert "tests/cli/data/iss-games.sgf" in README.read_text()
    if not ISS_FILE.exists():
        pytest.skip("../shared is not present: nothing to compare the copy with")
    assert copy.read_bytes() == ISS_FILE.read_bytes()


def test_readme_names_the_two_commands() -> None:
    text = README.read_text()
    assert "scripts/serve" in text and "scripts/test" in text
