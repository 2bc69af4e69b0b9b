"""How long a tournament's draw takes (issue 27's goal: under 10 ms for any
number of entrants from 2 to 200).

    .venv/bin/python -m bench.speed.draw --runs 20
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from skat.series.shuffle import new_seed
from skat.series.tournament import draw, fill_to_tables


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20, help="draws per number of entrants")
    args = ap.parse_args(argv)
    seed = new_seed()
    worst: list[tuple[float, int]] = []
    for n in range(2, 201):
        names = [f"P{i}" for i in range(n + fill_to_tables(n))]
        times = []
        for k in range(1, args.runs + 1):
            t0 = time.perf_counter()
            draw(seed, k, names)
            times.append((time.perf_counter() - t0) * 1000)
        worst.append((statistics.median(times), n))
    top = max(worst)
    print(f"median per number of entrants: largest {top[0]:.3f} ms (at {top[1]} entrants)")
    print(f"at 200 entrants: {dict((n, m) for m, n in worst)[200]:.3f} ms")


if __name__ == "__main__":
    main()
