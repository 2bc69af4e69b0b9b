#!/usr/bin/env python3
"""CPU time of one computer player's decisions per deal, by phase.

    .venv/bin/python -m bench.strength.decision_cpu --deals 30 [--player search] [--src TREE]

The player sits in each seat in turn beside two `heuristic` players on
random deals (the same deals for the same ``--seed``); printed per phase
(bidding, skat, discard, declare, play): the CPU seconds it spends per deal,
its decisions per deal, their mean, median and 95th percentile. ``--src`` imports skat from another
source tree, to compare two versions on the same deals (issue 30: what a
`strong` table costs).
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--player", default="search", help="a player, or a variant such as search@worlds=10"
    )
    parser.add_argument("--src", help="import skat from this source tree")
    args = parser.parse_args(argv)
    if args.src:
        sys.path.insert(0, str(Path(args.src).resolve()))
    from bench.strength.compat import make_player
    from skat.engine import Deal

    from .arena_plays import variant

    variant(args.player)

    rng = random.Random(args.seed)
    seconds: dict[str, float] = collections.defaultdict(float)
    count: collections.Counter[str] = collections.Counter()
    each: dict[str, list[float]] = collections.defaultdict(list)
    for i in range(args.deals):
        deck = list(range(32))
        rng.shuffle(deck)
        deal = Deal(deck)
        mine = i % 3
        players = [
            make_player(args.player if s == mine else "heuristic", random.Random(rng.random()))
            for s in range(3)
        ]
        while not deal.is_terminal():
            seat = deal.current_seat
            assert seat is not None
            view = deal.view(seat)
            t0 = time.process_time()
            action = players[seat].choose(view)
            if seat == mine:
                spent = time.process_time() - t0
                seconds[view.phase.value] += spent
                count[view.phase.value] += 1
                each[view.phase.value].append(spent)
            deal.apply(action, seat)
    print(f"{args.player}: CPU seconds per deal by phase ({args.deals} deals, seed {args.seed})")
    for phase, s in seconds.items():
        times = sorted(each[phase])
        p50 = 1000 * times[len(times) // 2]
        p95 = 1000 * times[min(len(times) - 1, int(0.95 * len(times)))]
        print(
            f"  {phase}: {s / args.deals:.3f} s ({count[phase] / args.deals:.1f} decisions, "
            f"mean {1000 * s / count[phase]:.0f} ms, p50 {p50:.1f} ms, p95 {p95:.0f} ms)"
        )
    print(f"  all: {sum(seconds.values()) / args.deals:.3f} s")


if __name__ == "__main__":
    main()
