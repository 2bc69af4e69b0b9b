#!/usr/bin/env python3
"""Open-card solver speed: the compiled core against the pure-Python one, same positions.

    .venv/bin/python -m bench.speed.solver --positions 200 --python-positions 6 [--cpu]

Positions: random deals bid, picked up, discarded and announced by the
`heuristic` player (so the discard and the contract are real ones), suit and
Grand games only, taken before trick 1; and ``--null-positions`` Null hands
(see `null_positions`) for ``null_wins``. For each position and core it times
``reaches(pos, 61)`` and ``best_points(pos)`` from an empty transposition
table (each measurement starts with ``clear()``). The pure-Python core runs on
the first ``--python-positions`` of the same positions. Prints medians, p95 and
the ratios python / c.

``--against REV`` compares two builds of the compiled core instead: REV's
``_csolver.c`` and this tree's, both compiled here the same way
(`bench.strength.baseline.build_solver`) and loaded side by side, each
question asked of both in turn (the order alternating) on the same
positions; it prints times, node counts and MTD(f) passes for each build
(nodes and passes do not depend on the machine's load).
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import random
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

from skat.engine import Deal, GameType, Phase
from skat.players import make_player
from skat.players.solver import Position
from skat.players.solver import python as pysolver
from skat.players.solver.api import Api, make_api
from skat.players.solver.position import card_orders


def positions(n: int, seed: int) -> list[Position]:
    """``n`` positions before trick 1 of suit and Grand games chosen by `heuristic`."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < n:
        deck = list(range(32))
        rng.shuffle(deck)
        deal = Deal(deck)
        players = [make_player("heuristic", random.Random(rng.random())) for _ in range(3)]
        while not deal.is_terminal() and deal.phase is not Phase.PLAY:
            seat = deal.current_seat
            assert seat is not None
            deal.apply(players[seat].choose(deal.view(seat)), seat)
        c = deal.contract
        if deal.phase is Phase.PLAY and c is not None and c.game not in (GameType.NULL,):
            out.append(Position.from_deal(deal))
    return out


def null_positions(n: int, seed: int) -> list[Position]:
    """``n`` Null positions before trick 1 with Null-shaped declarer hands.

    The declarer (forehand) gets the ten lowest of 16 random cards (Null
    order), so that a fair share of the hands can win and must be proved.
    """
    rng = random.Random(seed)
    null_rank = (0, 4, 1, 2, 3, 5, 6, 7)  # A T K Q J 9 8 7 -> Null strength index, A highest
    out = []
    for _ in range(n):
        cards = list(range(32))
        rng.shuffle(cards)
        pool = sorted(cards[:16], key=lambda c: -null_rank[c & 7])
        rest = pool[10:] + cards[16:]
        hands = (sum(1 << c for c in pool[:10]), sum(1 << c for c in rest[:10]))
        out.append(Position(GameType.NULL, (*hands, sum(1 << c for c in rest[10:20])), 0, 0))
    return out


def _time(fn: Callable[[], object], clear: Callable[[], None]) -> float:
    clear()
    t = CLOCK()
    fn()
    return CLOCK() - t


#: Wall clock by default; ``--cpu`` takes the thread's CPU time, which other
#: processes on a shared machine disturb far less.
CLOCK: Callable[[], float] = time.perf_counter


def measure(api: Api, clear: Callable[[], None], pos: list[Position]) -> dict[str, list[float]]:
    reach = [_time(lambda p=p: api.reaches(p, 61), clear) for p in pos]  # type: ignore[misc]
    exact = [_time(lambda p=p: api.best_points(p), clear) for p in pos]  # type: ignore[misc]
    return {"reaches(61)": reach, "best_points": exact}


def build_core(rev: str | None, folder: Path) -> ModuleType:
    """The compiled core of commit ``rev`` (None: this tree's source), built
    in ``folder`` and loaded as a module of its own, initialised."""
    from bench.strength.baseline import ROOT, build_solver

    path = "src/skat/players/solver/_csolver.c"
    if rev is None:
        source = (ROOT / path).read_text()
    else:
        got = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{rev}:{path}"], capture_output=True, text=True
        )
        if got.returncode != 0:
            raise SystemExit(f"no {path} at {rev!r}: {got.stderr.strip()}")
        source = got.stdout
    target = folder / path
    target.parent.mkdir(parents=True)
    target.write_text(source)
    if not build_solver(folder):
        raise SystemExit(f"the compiled core of {rev or 'this tree'} does not build")
    so = next(target.parent.glob("_csolver*.so"))
    name = "skat.players.solver._csolver"
    loader = importlib.machinery.ExtensionFileLoader(name, str(so))
    spec = importlib.util.spec_from_file_location(name, so, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    module.init(card_orders())
    return module


def compare(rev: str, pos: list[Position], nulls: list[Position]) -> None:
    """REV's compiled core against this tree's, question by question."""
    with tempfile.TemporaryDirectory() as tmp:
        builds = {
            rev: build_core(rev, Path(tmp) / "old"),
            "this tree": build_core(None, Path(tmp) / "new"),
        }
    apis = {k: make_api(m.test, m.exact) for k, m in builds.items()}
    questions: dict[str, Callable[[Api, Position], object]] = {
        "reaches(61)": lambda api, p: api.reaches(p, 61),
        "best_points": lambda api, p: api.best_points(p),
        "null_wins": lambda api, p: api.null_wins(p),
    }
    for q, ask in questions.items():
        todo = nulls if q == "null_wins" else pos
        if not todo:
            continue
        times: dict[str, list[float]] = {k: [] for k in builds}
        nodes: dict[str, list[int]] = {k: [] for k in builds}
        passes: dict[str, list[int]] = {k: [] for k in builds}
        answers: dict[str, list[object]] = {k: [] for k in builds}
        for i, p in enumerate(todo):
            order = list(builds) if i % 2 == 0 else list(builds)[::-1]
            for k in order:
                core, api = builds[k], apis[k]
                core.clear()
                t = CLOCK()
                answers[k].append(ask(api, p))
                times[k].append(CLOCK() - t)
                stats = core.stats()
                nodes[k].append(stats["nodes"])
                passes[k].append(stats["passes"])
        same = (
            "the same answers"
            if len({repr(a) for a in answers.values()}) == 1
            else "ANSWERS DIFFER"
        )
        print(f"{q} on {len(todo)} positions, {same}:")
        for k in builds:
            xs = times[k]
            print(
                f"  {k:12} median {statistics.median(xs) * 1e3:8.2f} ms"
                f"  p95 {p95(xs) * 1e3:8.2f} ms"
                f"  total {sum(xs):7.2f} s  nodes {sum(nodes[k]) / 1e6:8.2f} M"
                f" (median {statistics.median(nodes[k]) / 1e3:.1f} k)"
                f"  passes {sum(passes[k])} (median {statistics.median(passes[k]):g})",
                flush=True,
            )


def p95(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(0.95 * len(s)))]


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--python-positions", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--null-positions", type=int, default=200)
    ap.add_argument("--cpu", action="store_true", help="measure thread CPU time, not wall time")
    ap.add_argument(
        "--against", metavar="REV", help="compare the compiled core of commit REV with this tree's"
    )
    args = ap.parse_args(argv)
    if args.cpu:
        global CLOCK
        CLOCK = time.thread_time
    pos = positions(args.positions, args.seed)
    if args.against:
        compare(args.against, pos, null_positions(args.null_positions, args.seed))
        return
    from skat.players.solver import _csolver

    _csolver.init(card_orders())
    c_api = make_api(_csolver.test, _csolver.exact)
    py_api = make_api(pysolver.test, pysolver.exact)
    c = measure(c_api, _csolver.clear, pos)
    games = {g: sum(1 for p in pos if p.game == g) for g in GameType}
    print(f"{len(pos)} positions ({', '.join(f'{g}: {n}' for g, n in games.items() if n)})")
    for q, xs in c.items():
        print(
            f"C      {q:12} median {statistics.median(xs) * 1e3:8.2f} ms"
            f"  p95 {p95(xs) * 1e3:8.2f} ms  max {max(xs) * 1e3:8.2f} ms",
            flush=True,
        )
    nulls = null_positions(args.null_positions, args.seed)
    if nulls:
        ys = [_time(lambda p=p: c_api.null_wins(p), _csolver.clear) for p in nulls]  # type: ignore[misc]
        wins = sum(c_api.null_wins(p) for p in nulls)
        print(
            f"C      null_wins    median {statistics.median(ys) * 1e3:8.2f} ms"
            f"  p95 {p95(ys) * 1e3:8.2f} ms  max {max(ys) * 1e3:8.2f} ms"
            f"  ({len(nulls)} Null hands, {wins} won)",
            flush=True,
        )
    k = args.python_positions
    py = measure(py_api, pysolver.clear, pos[:k]) if k else {}
    for q, ys in py.items():
        same = c[q][: len(ys)]
        ratio = statistics.median(ys) / statistics.median(same)
        print(
            f"python {q:12} median {statistics.median(ys) * 1e3:8.2f} ms"
            f"  max {max(ys) * 1e3:8.2f} ms"
            f"  (C on the same {len(ys)}: median {statistics.median(same) * 1e3:.2f} ms;"
            f" ratio {ratio:.0f}x)"
        )


if __name__ == "__main__":
    main()
