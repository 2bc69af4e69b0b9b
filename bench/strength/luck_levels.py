#!/usr/bin/env python3
"""Luck against play over the levels (`skat.players.luck`; issue 48's goal:
"over 1,000 arena deals, the luck part explains most of the variance of raw
results and the play part ranks the levels correctly").

    nice .venv/bin/python -m bench.strength.luck_levels --deals 1000 --jobs 2 --out luck.json

(``--out`` keeps the rows: a later run with more deals or other levels
plays only what the file lacks.)

Each level (``novice`` = beginner, ``club`` = casual, ``search`` = strong)
plays the same arena deals in the same seat (deal n: seat n mod 3) beside
two `heuristic` players (`review_levels.played`). Per level: how much of the
variance of the seat's Seeger-Fabian entries the cards' promise explains
(1 - var(play) / var(made), and the squared correlation of promise and
result; also for the promise of the ten cards dealt alone), and the mean
play part with its 95% interval. Then the levels paired deal by deal: the
deals are the same, so the difference of the play parts is the levels'
difference without the cards' luck.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import statistics
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bench.strength.review_levels import LEVELS, played

Row = tuple[float, float, int]  # dealt, promised, made


def luck_one(args: tuple[str, int, int]) -> Row:
    """Deal ``number`` of ``seed`` played with ``level``: the seat's luck."""
    from skat.players.luck import promise

    level, number, seed = args
    deal, seat = played(level, number, seed)
    got = promise(deal, seat, number)
    return got.dealt, got.promised, got.made


def explained(promise: Sequence[float], made: Sequence[int]) -> tuple[float, float]:
    """The share of the variance of ``made`` that ``promise`` takes away
    (1 - var(made - promise) / var(made)), and their squared correlation."""
    var = statistics.pvariance(made)
    if not var:
        return 0.0, 0.0
    rest = statistics.pvariance([m - p for p, m in zip(promise, made, strict=True)])
    if statistics.pvariance(promise) == 0:
        return 1 - rest / var, 0.0
    return 1 - rest / var, statistics.correlation(promise, made) ** 2


def mean_ci(xs: Sequence[float]) -> str:
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return f"{mean:+.2f} ({mean - half:+.2f} .. {mean + half:+.2f})"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument(
        "--out", help="keep each level's rows in this JSON file, and reuse those it has"
    )
    args = parser.parse_args(argv)
    levels = args.levels.split(",")
    kept: dict[str, list[Row]] = {}
    if args.out and Path(args.out).exists():
        kept = {k: [tuple(r) for r in v] for k, v in json.loads(Path(args.out).read_text()).items()}
    rows: dict[str, list[Row]] = {}
    for level in levels:
        rows[level] = list(kept.get(level, []))[: args.deals]
        work = [(level, n, args.seed) for n in range(len(rows[level]) + 1, args.deals + 1)]
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                rows[level] += pool.map(luck_one, work, chunksize=4)
        else:
            rows[level] += [luck_one(w) for w in work]
        if args.out:
            kept[level] = rows[level]
            Path(args.out).write_text(json.dumps(kept))
        dealt, promised, made = (list(x) for x in zip(*rows[level], strict=True))
        share, r2 = explained(promised, made)
        share_dealt, r2_dealt = explained(dealt, made)
        play = [m - p for p, m in zip(promised, made, strict=True)]
        print(
            f"{level}: {args.deals} deals  made {statistics.fmean(made):+.2f} a deal  "
            f"the promise explains {100 * share:.0f}% of the variance (r² {r2:.2f}; "
            f"the ten dealt alone {100 * share_dealt:.0f}%, r² {r2_dealt:.2f})  "
            f"play {mean_ci(play)}",
            flush=True,
        )
    for a, b in itertools.pairwise(levels):
        n = min(len(rows[a]), len(rows[b]))
        diff = [
            (mb - pb) - (ma - pa)
            for (_, pa, ma), (_, pb, mb) in zip(rows[a][:n], rows[b][:n], strict=True)
        ]
        print(f"{b} - {a}, play, paired by deal: {mean_ci(diff)}", flush=True)


if __name__ == "__main__":
    main()
