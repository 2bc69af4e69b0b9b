"""Fit how much a contested auction lowers the hand evaluator's chances.

The evaluator (skat.players.handeval) learned from forced games in which the
other seats passed at once. In a real auction a seat that bids or holds a
value shows strength, and that strength sits against the declarer. This
plays the arena's deals of ``club`` (bidding without the shifts: with
them it declares few contested games) against an opponent (every
arrangement), and for each game a ``club`` seat declared records the
evaluator's win chance of that game from the ten dealt cards (the stage of
the auction: ``pickup``, or ``hand`` for a Hand game), the highest value
another seat bid or held, and whether the game was won. A logistic
regression with the evaluator's own log-odds as an offset then fits one
shift per threshold of that value (each threshold reached adds its shift),
beside an intercept and a term for the arrangement with two ``club`` seats
(both absorb what is not the auction: the opponent's card play, the second
``club`` at the table). The shifts are `handeval.CONTEST`.

    .venv/bin/python -m bench.strength.fit_contest --deals 1200 --seed 22 --jobs 2

The same arguments give the same games and the same fit, up to the card
play's 15 ms clock (``club`` searches its cards within a wall-clock budget).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

from bench.strength.compat import make_player
from skat.engine import Card, Deal
from skat.players import handeval
from skat.players.arena import _rng, arrangements, make_decks
from skat.players.club import ClubPlayer
from skat.players.loop import play_deal
from skat.players.worlds import Knowledge
from skat.series import ListOptions

THRESHOLDS = (24, 36, 48)
# one example: the evaluator's win chance, the value shown by another seat,
# two club seats at the table, won
Example = tuple[float, int, bool, bool]


def shown_against(deal: Deal, declarer_seat: int) -> int:
    """The highest value a seat other than the declarer bid or held, read
    from that seat's view as the players read it (`Knowledge.shown_by_others`)."""
    return Knowledge.from_view(deal.view(declarer_seat)).shown_by_others


def examples_of_deal(args: tuple[str, list[int], int, int]) -> list[Example]:
    opponent, cards, number, seed = args
    options = ListOptions()
    n = options.players
    dealer = (options.first_dealer + number - 1) % n
    out: list[Example] = []
    for alone, who in arrangements(n):
        names = ("club", opponent) if who == 0 else (opponent, "club")
        players = [
            make_player(names[0] if s == alone else names[1], _rng(seed, number, alone, s))
            for s in range(n)
        ]
        for p in players:
            if isinstance(p, ClubPlayer):
                p.contest = ()  # the bidding the shifts correct (with them few contested games)
        deal = Deal([Card(c) for c in cards], rules=options.deal_rules(), dealer=dealer)
        r = play_deal(deal, players)
        if r.kind != "game" or r.declarer_seat is None or r.contract is None:
            continue
        player = players[r.declarer_seat]
        game = r.contract.game
        if not isinstance(player, ClubPlayer) or game not in handeval.GAMES[:-1]:
            continue  # Null's chances are not shifted
        position = next(p for p in range(n) if deal.seat_of(p) == r.declarer_seat)
        dealt = deal.dealt_hand(position).mask
        if not handeval.considered(dealt, game):
            continue
        stage = "hand" if r.contract.hand else "pickup"
        win = player.evaluator.chances(dealt, game, position, stage).win
        out.append((win, shown_against(deal, r.declarer_seat), who == 1, bool(r.won)))
    return out


def fit(examples: Sequence[Example], l2: float = 0.5) -> dict[str, Any]:
    """The shifts per threshold (and the intercept and the two-seat term),
    by Newton's method with the evaluator's log-odds as an offset; with
    their standard errors."""
    x = np.array(
        [
            [1.0, float(two)] + [float(shown >= t) for t in THRESHOLDS]
            for _, shown, two, _ in examples
        ]
    )
    y = np.array([float(won) for *_, won in examples])
    p = np.clip(np.array([w for w, *_ in examples]), 1e-6, 1 - 1e-6)
    offset = np.log(p / (1 - p))
    pen = np.full(x.shape[1], l2)
    pen[0] = 0.0
    w = np.zeros(x.shape[1])
    h = np.eye(x.shape[1])
    for _ in range(50):
        q = 1.0 / (1.0 + np.exp(-np.clip(offset + x @ w, -30, 30)))
        g = x.T @ (q - y) + pen * w
        h = (x * (q * (1 - q))[:, None]).T @ x + np.diag(pen) + 1e-9 * np.eye(x.shape[1])
        step = np.linalg.solve(h, g)
        w -= step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    se = np.sqrt(np.diag(np.linalg.inv(h)))
    return {
        "examples": len(examples),
        "intercept": float(w[0]),
        "two_club": float(w[1]),
        "shifts": [(t, float(v)) for t, v in zip(THRESHOLDS, w[2:], strict=True)],
        "errors": [float(v) for v in se[2:]],
    }


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=1200)
    ap.add_argument("--seed", type=int, default=22)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--opponent", default="heuristic")
    args = ap.parse_args(argv)
    decks = make_decks(args.deals, args.seed)
    tasks = [(args.opponent, [int(c) for c in d], k, args.seed) for k, d in enumerate(decks, 1)]
    examples: list[Example] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for part in pool.map(examples_of_deal, tasks, chunksize=4):
            examples += part
    if not examples:
        raise SystemExit("no declared game to fit")
    result = fit(examples)
    print(f"{result['examples']} declared games of club")
    print(f"intercept {result['intercept']:+.3f}, two club seats {result['two_club']:+.3f}")
    for (t, v), e in zip(result["shifts"], result["errors"], strict=True):
        print(f"shown {t} or more: {v:+.3f} (standard error {e:.3f})")
    for lo, hi in zip((0, *THRESHOLDS), (*THRESHOLDS, math.inf), strict=True):
        group = [(w, won) for w, shown, _, won in examples if lo <= shown < hi]
        if group:
            chance = sum(w for w, _ in group) / len(group)
            won = sum(x for _, x in group) / len(group)
            print(f"shown {lo}..{hi}: {len(group)} games, chance {chance:.3f}, won {won:.3f}")


if __name__ == "__main__":
    main()
