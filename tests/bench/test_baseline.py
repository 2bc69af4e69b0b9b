"""Baselines from a git revision (issue 50, point 2): an earlier version of
our players runs from a worktree of its commit, and decides as it did."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from bench.strength import baseline

ROOT = Path(__file__).resolve().parents[2]


def test_an_unknown_revision_is_one_clear_line() -> None:
    got = subprocess.run(
        [sys.executable, "-m", "bench.strength.baseline", "no-such-rev", "--", "bench.x"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert got.returncode != 0
    assert got.stderr.strip() == f"no commit 'no-such-rev' in {ROOT}"


@pytest.mark.slow
def test_a_commit_plays_from_its_own_worktree_as_this_tree_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worktree of HEAD, with its solver compiled there, gives the same
    decisions as this tree on the same deals (the decision digest), and is
    made once and reused."""
    monkeypatch.setenv("SKAT_BASELINES", str(tmp_path))
    tree = baseline.prepare("HEAD")
    assert (tree / "src" / "skat").is_dir() and tree.parent == tmp_path
    assert list((tree / "src" / "skat" / "players" / "solver").glob("_csolver*.so"))
    args = ["bench.strength.decision_digest", "--deals", "2", "--player", "heuristic"]
    here = subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=True
    )
    there = subprocess.run(
        [sys.executable, "-m", "bench.strength.baseline", "HEAD", "--", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "SKAT_BASELINES": str(tmp_path)},
        check=True,
    )
    assert here.stdout.split()[-1] == there.stdout.split()[-1]  # the digest
    assert baseline.prepare("HEAD") == tree  # reused, not made again
    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)])
