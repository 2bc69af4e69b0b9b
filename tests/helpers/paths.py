"""Where things are: the repository, ../shared beside it, the golden files."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
ISS_FILE = SHARED / "data" / "iss" / "iss-games.sgf"
GOLDEN_DIR = ROOT / "tests" / "golden"
