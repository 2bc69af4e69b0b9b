"""Train the model of the other seats' bidding (skat.players.bidmodel; issue
53, point 4) from the auctions of a population of players.

Each deal's auction is held by three members of ``--population`` (drawn per
deal from the seed as `train_seatmodel` draws them; ``xskat`` is XSkat's
computer in all three seats, whose whole deal is played): every seat is one
example, its ten dealt cards and position with what it did (the value it
bid or held, the value on the table when it passed; `bidmodel.observation`).
The ordered choice (`bidmodel.BidModel`: weights of the features, rising
thresholds) is fitted by Adam on the log-likelihood with L2; the deals of
every tenth number are held out, their mean log-likelihood per seat
reported beside that of the thresholds alone (what any ten cards do, the
hand unread).

    python -m bench.strength.train_bidmodel --deals 6000 --seed 1 --jobs 2 \\
        --population heuristic,club,search,xskat --out src/skat/players/data/bidmodel.json

The same arguments give the same weights.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from bench.strength.train_seatmodel import (
    _player,
    over_population,
    population_parser,
    write_model,
)
from skat.engine import Card, Deal, Phase
from skat.players.bidmodel import FEATURES, LADDER, features, observation
from skat.players.worlds import Knowledge
from skat.series import ListOptions

#: One example: the features, the low and high threshold index (-1: none).
Example = tuple[list[float], int, int]


def auction(deck: Sequence[Card], dealer: int, names: Sequence[str], seed: int) -> Deal:
    """The deal with its auction held by ``names`` (one per seat; all
    ``xskat`` or none); XSkat's deals are played to the end."""
    options = ListOptions()
    if "xskat" in names:
        from bench.xskat.driver import play_deal_with_xskat, xskat_seed

        return play_deal_with_xskat(
            deck, dealer=dealer, xseed=xskat_seed(seed, dealer), rules=options.deal_rules()
        ).deal
    deal = Deal(deck, rules=options.deal_rules(), dealer=dealer)
    rngs = [random.Random(seed * 7 + s) for s in range(3)]
    players = [_player(n, r) for n, r in zip(names, rngs, strict=True)]
    while deal.phase is Phase.BIDDING:
        seat = deal.current_seat
        assert seat is not None
        action = players[seat].choose(deal.view(seat))
        deal.apply(action, seat)
        for p in players:
            p.notify(seat, action)
    return deal


def examples_of(deal: Deal) -> list[Example]:
    """Every seat of a deal whose auction is over, as an example."""
    seat = deal.seat_of(0)
    know = Knowledge.from_view(deal.view(seat))
    out: list[Example] = []
    for position in range(3):
        ten = deal.dealt_hand(position).mask
        lo, hi = observation(know.named[position], know.passed_at[position])
        out.append((features(ten, position), lo, hi))
    return out


def generate(
    deals: int, seed: int, jobs: int, population: Sequence[str]
) -> list[tuple[int, list[Example]]]:
    return over_population(auction, examples_of, deals, seed, jobs, population)


def _sig(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = 0.5 * (1 + np.tanh(0.5 * x))
    return out


def _thresholds(t0: float, d: np.ndarray) -> np.ndarray:
    """Rising thresholds: the first, then positive steps."""
    out: np.ndarray = t0 + np.concatenate([[0.0], np.cumsum(np.exp(d))])
    return out


def _probs(
    w: np.ndarray, t: np.ndarray, x: np.ndarray, lo: np.ndarray, hi: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    z = x @ w
    up = np.where(lo >= 0, _sig(z - t[np.maximum(lo, 0)]), 1.0)
    down = np.where(hi >= 0, _sig(z - t[np.maximum(hi, 0)]), 0.0)
    return up, down, np.maximum(up - down, 1e-9)


def loglik(w: np.ndarray, t: np.ndarray, x: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> float:
    return float(np.mean(np.log(_probs(w, t, x, lo, hi)[2])))


def fit(
    x: np.ndarray, lo: np.ndarray, hi: np.ndarray, seed: int, steps: int = 3000, l2: float = 1e-4
) -> tuple[np.ndarray, np.ndarray]:
    """Adam on the mean negative log-likelihood; the weights and thresholds."""
    rng = np.random.default_rng(seed)
    k = len(LADDER)
    params: list[np.ndarray] = [
        np.asarray(rng.normal(0, 0.01, x.shape[1])),  # the features' weights
        np.zeros(1),  # the first threshold
        np.full(k - 1, np.log(0.3)),  # the logs of the steps between thresholds
    ]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    lr, b1, b2 = 0.05, 0.9, 0.999
    n = len(x)
    for it in range(1, steps + 1):
        w, t0, d = params
        t = _thresholds(float(t0[0]), d)
        up, down, p = _probs(w, t, x, lo, hi)
        gu = np.where(lo >= 0, up * (1 - up), 0.0) / p  # d log p / d(z - t_lo)
        gd = np.where(hi >= 0, down * (1 - down), 0.0) / p  # minus, for (z - t_hi)
        grad_w = -(x.T @ (gu - gd)) / n + 2 * l2 * w
        grad_t = np.zeros(k)
        np.add.at(grad_t, np.maximum(lo, 0), np.where(lo >= 0, gu, 0.0))
        np.add.at(grad_t, np.maximum(hi, 0), np.where(hi >= 0, -gd, 0.0))
        grad_t /= n  # d(-mean log p)/d t_k
        # t_k = t0 + sum_{i<k} exp(d_i): d_i moves every threshold above i
        grad_d = np.cumsum(grad_t[::-1])[::-1][1:] * np.exp(d)
        for j, g in enumerate((grad_w, np.array([grad_t.sum()]), grad_d)):
            m[j] = b1 * m[j] + (1 - b1) * g
            v[j] = b2 * v[j] + (1 - b2) * g * g
            move = lr * (m[j] / (1 - b1**it)) / (np.sqrt(v[j] / (1 - b2**it)) + 1e-8)
            params[j] = params[j] - move
    w, t0, d = params
    return w, _thresholds(float(t0[0]), d)


def pack(examples: Sequence[Example]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = np.array([e[0] for e in examples], dtype=float).reshape(-1, len(FEATURES))
    lo = np.array([e[1] for e in examples], dtype=int)
    hi = np.array([e[2] for e in examples], dtype=int)
    return x, lo, hi


def train(
    deals: int, seed: int, jobs: int, population: Sequence[str], steps: int
) -> dict[str, Any]:
    start = time.perf_counter()
    rows = generate(deals, seed, jobs, population)
    train_ex = [e for number, ex in rows if number % 10 for e in ex]
    held = [e for number, ex in rows if not number % 10 for e in ex]
    made = time.perf_counter() - start
    x, lo, hi = pack(train_ex)
    w, t = fit(x, lo, hi, seed, steps)
    report: dict[str, Any] = {
        "examples": len(train_ex),
        "held_out": len(held),
        "seconds_play": round(made, 1),
        "seconds_fit": round(time.perf_counter() - start - made, 1),
        "train_loglik": round(loglik(w, t, x, lo, hi), 4),
    }
    if held:
        hx, hlo, hhi = pack(held)
        report["held_loglik"] = round(loglik(w, t, hx, hlo, hhi), 4)
        # the thresholds alone: every hand alike
        w0, t_alone = fit(np.zeros_like(x), lo, hi, seed, steps)
        report["held_unread"] = round(loglik(w0, t_alone, np.zeros_like(hx), hlo, hhi), 4)
    return {
        "command": "python -m bench.strength.train_bidmodel " + " ".join(sys.argv[1:]),
        "population": list(population),
        "features": list(FEATURES),
        "ladder": list(LADDER),
        "report": report,
        "w": np.round(w, 6).tolist(),
        "t": np.round(t, 6).tolist(),
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = population_parser(__doc__, 2000, "heuristic,club,search,xskat")
    ap.add_argument("--steps", type=int, default=3000)
    args = ap.parse_args(argv)
    population = [p for p in args.population.split(",") if p]
    if not population or args.deals < 1 or args.steps < 1:
        ap.error("give a population, at least one deal and one step")
    data = train(args.deals, args.seed, args.jobs, population, args.steps)
    write_model(data, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
