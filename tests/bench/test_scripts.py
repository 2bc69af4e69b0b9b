"""The benchmark scripts (bench/ by kind: speed, server, strength) import and
parse their options, run as ``python -m bench.KIND.NAME`` from the
repository's root with no ``sys.path`` edits (issue 29, point 7): a script
that a refactoring broke fails here, not on the day someone measures."""

from __future__ import annotations

import contextlib
import importlib
import io
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KINDS = ("speed", "server", "strength")
SCRIPTS = sorted(
    f"bench.{p.parent.name}.{p.stem}"
    for kind in KINDS
    for p in (ROOT / "bench" / kind).glob("*.py")
    if p.stem != "__init__"
)


def test_every_script_is_in_a_kind() -> None:
    loose = [p.name for p in (ROOT / "bench").glob("*.py") if p.stem != "__init__"]
    assert loose == [], f"bench/ keeps its scripts in {KINDS}: {loose}"
    assert len(SCRIPTS) >= 15


@pytest.mark.parametrize("name", SCRIPTS)
def test_script_imports_and_prints_its_help(name: str) -> None:
    module = importlib.import_module(name)
    main = getattr(module, "main", None)
    if main is None:  # a helper of the other scripts, not run by itself
        assert name == "bench.server.cluster_server"
        return
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    assert "usage:" in out.getvalue()
