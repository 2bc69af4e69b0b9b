"""Shared fixtures: paths into ../shared and a few helpers."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
ISS_FILE = SHARED / "data" / "iss" / "iss-games.sgf"


@pytest.fixture
def iss_lines() -> list[str]:
    if not ISS_FILE.exists():
        pytest.skip("../shared/data/iss/iss-games.sgf is not present")
    return [line for line in ISS_FILE.read_text().splitlines() if line.startswith("(;GM[Skat]")]
