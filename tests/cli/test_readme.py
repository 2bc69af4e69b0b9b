"""The README's session works when pasted (ARCHITECTURE.md practice 15)."""

from __future__ import annotations

import doctest
import re
import shlex
import subprocess
import sys

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
def test_readme_console_session(cmd: str, expected: str) -> None:
    if "../shared" in cmd and not ISS_FILE.exists():
        pytest.skip("../shared is not present")
    argv = shlex.split(cmd)
    assert argv[0] == ".venv/bin/skat"
    # Run the CLI of the interpreter running the tests, from the repository root.
    proc = subprocess.run(
        [sys.executable, "-m", "skat.cli", *argv[1:]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.stdout.strip() == expected.strip(), proc.stderr


def test_readme_names_the_two_commands() -> None:
    text = README.read_text()
    assert "scripts/serve" in text and "scripts/test" in text
