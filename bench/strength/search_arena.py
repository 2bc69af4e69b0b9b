"""Arena of two players deal by deal, saving every deal's outcome as it ends.

``skat arena`` reports only at the end; a slow player (``search``) on a busy
machine is better measured in pieces that survive an interruption. Deal
``k`` uses exactly the deck and the player RNGs that ``skat arena A B
--seed S`` gives deal ``k``, so the figures are the arena's.

    .venv/bin/python -m bench.strength.search_arena search heuristic --deals 100 --jobs 2 \\
        --out runs.jsonl
    .venv/bin/python -m bench.strength.search_arena search heuristic --report runs.jsonl

A name ``search@key=value,...`` is a `SearchPlayer` variant, as in
``arena_plays.py``.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict
from pathlib import Path

from bench.strength.arena_plays import variant
from skat.players.arena import Side, make_decks, play_duplicate, side_stats
from skat.series import ListOptions


def _one(args: tuple[str, str, list[int], int, int]) -> dict[str, object]:
    from skat.engine import Card

    a, b, deck, number, seed = args
    variant(a)
    variant(b)
    out = play_duplicate(a, b, [Card(c) for c in deck], number, seed, ListOptions())
    return {"number": number, "diff": out.diff, "sides": [asdict(s) for s in out.sides]}


def report(a: str, b: str, path: Path) -> dict[str, object]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    diffs = [r["diff"] for r in rows]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
    sa, sb = Side(a), Side(b)
    for r in rows:
        sa.merge(Side(**r["sides"][0]))
        sb.merge(Side(**r["sides"][1]))
    return {
        "a": a,
        "b": b,
        "deals": len(diffs),
        "a_minus_b_per_game": round(mean, 2),
        "ci95": [round(mean - half, 2), round(mean + half, 2)],
        "a_stats": side_stats(sa),
        "b_stats": side_stats(sb),
    }


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument(
        "--out", type=Path, help="records, resumed if present (default: named by A, B and seed)"
    )
    ap.add_argument("--report", type=Path)
    args = ap.parse_args(argv)
    if args.report:
        print(json.dumps(report(args.a, args.b, args.report), indent=1))
        return
    out: Path = args.out or Path(
        re.sub(r"[^\w.=@,-]", "_", f"arena-{args.a}-{args.b}-{args.seed}.jsonl")
    )
    args.out = out
    done = set()
    if out.exists():
        rows = [json.loads(x) for x in out.read_text().splitlines() if x.strip()]
        for r in rows:  # a file of another match is never resumed into this one
            names = [side["name"] for side in r["sides"]]
            if names != [args.a, args.b]:
                raise SystemExit(f"{out} holds {names[0]} against {names[1]}: give another --out")
        done = {r["number"] for r in rows}
    decks = make_decks(args.deals, args.seed)
    tasks = [
        (args.a, args.b, [int(c) for c in deck], k, args.seed)
        for k, deck in enumerate(decks, start=1)
        if k not in done
    ]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool, args.out.open("a") as fh:
        for fut in as_completed([pool.submit(_one, t) for t in tasks]):
            fh.write(json.dumps(fut.result()) + "\n")
            fh.flush()
    print(json.dumps(report(args.a, args.b, args.out), indent=1))


if __name__ == "__main__":
    main()
