#!/usr/bin/env python3
"""An earlier version of our players, measured from its commit (issue 50,
point 2: baselines are taken from a git revision, not kept as copies).

    .venv/bin/python -m bench.strength.baseline 5e0ccb4 -- \\
        bench.strength.search_arena search heuristic --deals 100 --seed 1 --out old.jsonl
    .venv/bin/python -m bench.strength.search_arena search heuristic --deals 100 --seed 1 \\
        --out new.jsonl
    .venv/bin/python -m bench.strength.arena_plays --paired old.jsonl new.jsonl

The commit is checked out once into a cache folder (``git worktree add
--detach``; ``$SKAT_BASELINES`` or ``~/.cache/skat/baselines/<commit>``),
its compiled solver built in place, and the module after ``--`` runs there:
that commit's own bench script with that commit's own package, in a process
of its own. An arena's deals and players' random streams depend on the seed
only, so the same seed gives the same deals in both trees, and the two runs
pair deal by deal. Paths given to the script are taken from this folder.
``--here`` runs this tree's script with the commit's package instead (for a
script the commit does not have, such as ``bench.xskat.arena``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import sysconfig
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def cache() -> Path:
    base = os.environ.get("SKAT_BASELINES")
    if base:
        return Path(base)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "skat" / "baselines"


def commit_of(rev: str) -> str:
    """The full commit of ``rev``; `ValueError` with git's reason if there is none."""
    got = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    if got.returncode != 0:
        raise ValueError(f"no commit {rev!r} in {ROOT}")
    return got.stdout.strip()


def prepare(rev: str) -> Path:
    """A worktree of ``rev`` with its compiled solver built (reused when there)."""
    commit = commit_of(rev)
    tree = cache() / commit
    if not (tree / ".skat-ready").exists():
        tree.parent.mkdir(parents=True, exist_ok=True)
        if tree.exists():  # a half-made one: made again
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)])
        subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], check=True)
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), commit],
            check=True,
        )
        build_solver(tree)
        (tree / ".skat-ready").write_text(commit + "\n")
    return tree


def build_solver(tree: Path) -> bool:
    """The compiled solver of ``tree`` built in place with the system's C
    compiler, as setup.py builds it (without setuptools: an older tree's
    pyproject may not suit the setuptools at hand). False where it cannot
    be built: the pure-Python solver then gives the same answers, tens of
    times slower."""
    solver = tree / "src" / "skat" / "players" / "solver"
    source = solver / "_csolver.c"
    if not source.exists():
        return False
    target = solver / ("_csolver" + str(sysconfig.get_config_var("EXT_SUFFIX")))
    include = sysconfig.get_paths()["include"]
    cc = os.environ.get("CC", "cc")
    cmd = [
        cc,
        "-O3",
        "-std=c99",
        "-shared",
        "-fPIC",
        f"-I{include}",
        str(source),
        "-o",
        str(target),
    ]
    return subprocess.run(cmd, capture_output=True).returncode == 0


def run(rev: str, module: str, args: Sequence[str], *, here: bool = False) -> int:
    """Run ``python -m module args`` with the package of ``rev`` (and its
    bench scripts unless ``here``); returns the exit status."""
    tree = prepare(rev)
    env = dict(os.environ)
    paths = [str(tree / "src")] + ([str(ROOT)] if here else [str(tree)])
    env["PYTHONPATH"] = os.pathsep.join([*paths, env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    # paths in the arguments stay this folder's: absolute before the move
    fixed = [str(Path(a).resolve()) if os.sep in a and Path(a).parent.exists() else a for a in args]
    # `python -m` looks in its working folder first: the tree whose bench runs
    cwd = ROOT if here else tree
    return subprocess.run([sys.executable, "-m", module, *fixed], cwd=cwd, env=env).returncode


def main(argv: Sequence[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    at = argv.index("--") if "--" in argv else len(argv)
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        usage="python -m bench.strength.baseline REV [--here] -- MODULE ARGS...",
    )
    parser.add_argument("rev", help="a commit, tag or branch of this repository")
    parser.add_argument("--here", action="store_true", help="this tree's script, REV's package")
    opts = parser.parse_args(argv[:at])
    rest = argv[at + 1 :]
    if not rest:
        parser.error("give the module to run after --")
    try:
        code = run(opts.rev, rest[0], rest[1:], here=opts.here)
    except ValueError as exc:
        raise SystemExit(str(exc)) from None
    raise SystemExit(code)


if __name__ == "__main__":
    main()
