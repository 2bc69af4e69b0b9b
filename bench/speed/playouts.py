#!/usr/bin/env python3
"""Random-playout throughput: our engine against OpenSpiel's C++ `skat`, same run.

    .venv/bin/pip install -e ".[bench]"     # brings open-spiel
    .venv/bin/python -m bench.speed.playouts --seconds 5 --runs 5

Runs are interleaved (ours, peer, ours, peer, ...) so that machine load hits
both alike. Each side is measured by the same loop: shuffle, then choose
uniformly among the legal actions until the deal is over. The peer's loop is
``../shared/bench/openspiel_playouts.py`` itself. Prints per-run figures, the
medians and the ratio ours / peer.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from skat.bench import playouts

PEER = Path(__file__).resolve().parents[3] / "shared" / "bench" / "openspiel_playouts.py"


def _peer() -> ModuleType | None:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return None
    if not PEER.exists():
        return None
    spec = importlib.util.spec_from_file_location("openspiel_playouts", PEER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    peer = _peer()
    ours: list[float] = []
    theirs: list[float] = []
    for run in range(args.runs):
        deals, actions, elapsed = playouts(args.seconds, args.seed + run)
        ours.append(deals / elapsed)
        print(
            f"run {run + 1} skat:      {deals / elapsed:8.0f} deals/s "
            f"({actions / deals:.1f} actions/deal)"
        )
        if peer is not None:
            deals, actions, elapsed = peer.playouts(args.seconds, args.seed + run)
            theirs.append(deals / elapsed)
            print(
                f"run {run + 1} openspiel: {deals / elapsed:8.0f} deals/s "
                f"({actions / deals:.1f} actions/deal)"
            )
    print(f"median skat: {statistics.median(ours):.0f} deals/s")
    if theirs:
        print(f"median openspiel: {statistics.median(theirs):.0f} deals/s")
        print(f"ratio skat/openspiel: {statistics.median(ours) / statistics.median(theirs):.2f}")
    else:
        print("openspiel not installed: pip install -e '.[bench]' for the comparison")
    print(f"deals/s: {statistics.median(ours):.0f}")


if __name__ == "__main__":
    main()
