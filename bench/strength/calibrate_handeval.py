"""The hand evaluator's chances against games played out (issue 53, point 2).

The shipped evaluator (`skat.players.handeval`) learned from open-card
solves read through curves. Here its chances meet games played: on random
deals every plausible game of each position's ten cards is forced as in
`bench.strength.train_handeval` (declarer at 18, Hand, or after picking up
and putting away what `train_handeval.discard_for` chooses, or with
``--discard evaluator`` what the levels' evaluator puts away for that
game), then played
out, the declarer's cards by ``--declarer`` (the casual level's card search
without its clock by default) and each defender drawn per game from
``--defenders`` (a population; XSkat cannot be seated in a forced game).

It prints, per kind and stage, the games, the mean predicted chance, the
share won and the Brier score, with a reliability table by predicted
chance; and fits a recalibration per kind, stage and target (win,
Schneider): ``logit(p') = a * logit(p) + b`` (two numbers each, L2-free
logistic regression on the played labels). ``--out`` writes them as JSON;
``--into FILE`` writes a copy of the shipped evaluator's file with them as
its ``calibration`` (read by `handeval.Evaluator`), to be measured in the
arena before it ships.

    .venv/bin/python -m bench.strength.calibrate_handeval --deals 600 --seed 101 --jobs 2 \\
        --out cal.json --into /tmp/handeval-cal.json

The same arguments give the same figures (the deals, the players' seeds and
the draw of defenders come from the seed).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from importlib import resources
from itertools import pairwise
from pathlib import Path

import numpy as np

from bench.strength.arena_plays import variant
from bench.strength.compat import make_player
from bench.strength.train_handeval import DEALER, discard_for, fit, force, forced_choices
from skat.engine import Card, Deal, GameType
from skat.engine.cards import mask_cards
from skat.players.handeval import Evaluator, default, kind_of, put_aways

#: (kind, stage, predicted win, predicted Schneider, won, won with Schneider)
Row = tuple[str, str, float, float, int, int]
BINS = (0.0, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.01)


def _rng(*parts: object) -> random.Random:
    h = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return random.Random(int.from_bytes(h[:8], "big"))


def play_out(deal: Deal, players: Sequence[object]) -> tuple[int, int]:
    """(won, won with Schneider) of the forced game played to its end."""
    while not deal.is_terminal():
        seat = deal.current_seat
        assert seat is not None
        deal.apply(players[seat].choose(deal.view(seat)), seat)  # type: ignore[attr-defined]
    result = deal.result
    assert result is not None
    won = int(bool(result.won))
    null = deal.contract is not None and deal.contract.game == GameType.NULL
    return won, int(won and not null and result.declarer_points >= 90)


def evaluator_discard(
    evaluator: Evaluator, position: int
) -> Callable[[int, GameType], tuple[int, int]]:
    """The two cards the levels' evaluator puts away for a given game (as
    `club` does, `handeval.put_aways`; `train_handeval.discard_for` where
    the evaluator considers the game with none of the pairs)."""

    def discard(cards12: int, game: GameType) -> tuple[int, int]:
        ranked = put_aways(evaluator, cards12, position, 18, games=(game,))
        if not ranked:
            return discard_for(cards12, game)
        a, b = mask_cards(ranked[0][1])
        return a, b

    return discard


def rows_of_deal(
    seed: int,
    number: int,
    declarer: str,
    defenders: Sequence[str],
    evaluator: Evaluator,
    own_discard: bool = False,
) -> list[Row]:
    rng = _rng("calibrate", seed, number)
    deck = list(Card)
    rng.shuffle(deck)
    dealer = DEALER
    out: list[Row] = []
    for position, dealt, game in forced_choices(deck):
        kind = kind_of(game)
        for hand in (True, False):
            how = evaluator_discard(evaluator, position) if own_discard else discard_for
            deal, points = force(deck, dealer, position, game, hand, how)
            seat = deal.seat_of(position)
            kept = deal.hand(seat).mask  # the ten cards kept, before the first card
            r = _rng("players", seed, number, position, int(game), hand)
            players = [
                make_player(
                    declarer if s == seat else defenders[r.randrange(len(defenders))],
                    random.Random(r.random()),
                )
                for s in range(3)
            ]
            won, schneider = play_out(deal, players)
            if hand:
                seen = [("hand", evaluator.chances(dealt, game, position, "hand"))]
            else:
                seen = [
                    ("pickup", evaluator.chances(dealt, game, position, "pickup")),
                    ("counted", evaluator.chances(kept, game, position, "counted", points)),
                ]
            for stage, c in seen:
                out.append((kind, stage, c.win, c.schneider, won, schneider))
    return out


def _chunk(args: tuple[int, int, int, str, tuple[str, ...], bool]) -> list[Row]:
    seed, lo, hi, declarer, defenders, own_discard = args
    for name in (declarer, *defenders):
        variant(name)
    evaluator = default()
    out: list[Row] = []
    for n in range(lo, hi):
        out += rows_of_deal(seed, n, declarer, defenders, evaluator, own_discard)
    return out


def generate(
    deals: int,
    seed: int,
    jobs: int,
    declarer: str,
    defenders: Sequence[str],
    own_discard: bool = False,
) -> list[Row]:
    step = 10
    chunks = [
        (seed, lo, min(deals, lo + step), declarer, tuple(defenders), own_discard)
        for lo in range(0, deals, step)
    ]
    if jobs <= 1:
        return [r for c in chunks for r in _chunk(c)]
    with ProcessPoolExecutor(jobs) as pool:
        return [r for part in pool.map(_chunk, chunks) for r in part]


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def recalibration(pred: Sequence[float], won: Sequence[int]) -> tuple[float, float]:
    """(a, b) of ``logit(p') = a * logit(p) + b`` fitted to the outcomes."""
    x = np.array([[_logit(p)] for p in pred], dtype=float)
    w = fit(x, np.array(won, dtype=float), l2=0.0)
    return round(float(w[1]), 4), round(float(w[0]), 4)


def report(rows: Sequence[Row]) -> dict[str, object]:
    by: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for r in rows:
        by[r[0], r[1]].append(r)
    classes: dict[str, object] = {}
    calibration: dict[str, dict[str, dict[str, list[float]]]] = {}
    for (kind, stage), of in sorted(by.items()):
        pred = [r[2] for r in of]
        won = [r[4] for r in of]
        brier = sum((p - w) ** 2 for p, w in zip(pred, won, strict=True)) / len(of)
        bins = []
        for lo, hi in pairwise(BINS):
            cell = [r for r in of if lo <= r[2] < hi]
            if cell:
                bins.append(
                    {
                        "bin": f"{lo:.2f}-{min(hi, 1):.2f}",
                        "n": len(cell),
                        "predicted": round(sum(r[2] for r in cell) / len(cell), 3),
                        "won": round(sum(r[4] for r in cell) / len(cell), 3),
                    }
                )
        entry: dict[str, object] = {
            "n": len(of),
            "predicted": round(sum(pred) / len(of), 3),
            "won": round(sum(won) / len(of), 3),
            "brier": round(brier, 4),
            "bins": bins,
        }
        targets = {"win": recalibration(pred, won)} if len(of) >= 30 else {}
        if kind != "null" and len(of) >= 30:
            targets["schneider"] = recalibration([r[3] for r in of], [r[5] for r in of])
            entry["schneider"] = {
                "predicted": round(sum(r[3] for r in of) / len(of), 3),
                "won": round(sum(r[5] for r in of) / len(of), 3),
            }
        if targets:
            calibration.setdefault(kind, {})[stage] = {k: list(v) for k, v in targets.items()}
        classes[f"{kind} {stage}"] = entry
    return {"classes": classes, "calibration": calibration}


def print_report(data: dict[str, object]) -> None:
    classes = data["classes"]
    assert isinstance(classes, dict)
    print("| class | games | predicted | won | Brier | Schneider predicted / won |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, e in classes.items():
        s = e.get("schneider")
        sch = f"{s['predicted']:.3f} / {s['won']:.3f}" if s else "-"
        row = [name, e["n"], f"{e['predicted']:.3f}", f"{e['won']:.3f}", f"{e['brier']:.4f}", sch]
        print("| " + " | ".join(map(str, row)) + " |")
    print()
    for name, e in classes.items():
        cells = ", ".join(
            f"{b['bin']}: {b['predicted']:.2f}->{b['won']:.2f} ({b['n']})" for b in e["bins"]
        )
        print(f"{name}: {cells}")
    print()
    print("recalibration logit(p') = a logit(p) + b:", json.dumps(data["calibration"]))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=600)
    ap.add_argument("--seed", type=int, default=101)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--declarer", default="club@budget=0")
    ap.add_argument("--defenders", default="heuristic,club@budget=0")
    ap.add_argument(
        "--discard",
        choices=("heuristic", "evaluator"),
        default="heuristic",
        help="who puts away the two cards of a forced pickup: train_handeval's count"
        " (heuristic) or the levels' evaluator for the forced game",
    )
    ap.add_argument("--out", help="the report and the recalibration as JSON")
    ap.add_argument("--into", help="a copy of the shipped evaluator with the recalibration")
    args = ap.parse_args(argv)
    if args.deals < 1 or args.jobs < 1:
        ap.error("--deals and --jobs are at least 1")
    defenders = [d for d in args.defenders.split(",") if d]
    start = time.perf_counter()
    own = args.discard == "evaluator"
    rows = generate(args.deals, args.seed, args.jobs, args.declarer, defenders, own)
    command = (
        f"python -m bench.strength.calibrate_handeval --deals {args.deals} --seed {args.seed}"
        f" --declarer {args.declarer} --defenders {','.join(defenders)} --discard {args.discard}"
    )
    data: dict[str, object] = {"command": command, **report(rows)}
    print_report(data)
    if args.out:
        Path(args.out).write_text(json.dumps(data, indent=1) + "\n")
    if args.into:
        text = resources.files("skat.players").joinpath("data/handeval.json").read_text()
        shipped = json.loads(text)
        shipped["calibration"] = data["calibration"]
        shipped["calibration_command"] = command
        Path(args.into).write_text(json.dumps(shipped, indent=1, sort_keys=True) + "\n")
    seconds = time.perf_counter() - start
    print(f"{len(rows)} forced games' stages in {seconds:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
