#!/usr/bin/env python3
"""How well a reading of the auction finds the true hands (issue 53, point
4): after real auctions among one kind of bidder, the weight the reading
gives the true hidden hands against the mean weight of uniform worlds of
the same knowledge, as a log ratio (0: the auction read as nothing; the
higher, the more of the truth the worlds carry).

    nice .venv/bin/python -m bench.strength.bid_inference --deals 120 \\
        --bidders xskat,heuristic,search,club

Readings: ``rule`` (`heuristic`'s own bidding rule with the soft factors
`BID_MISS`, `PASS_MISS`: `search`'s default), ``model`` (the mixture of
the rule and the learned bid model: ``search@bid_model=True``), and
``model-only`` (the bid model without the rule's share). Each auction is
read by a defender after it ends, before the skat is taken.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Callable, Sequence

from bench.strength.train_bidmodel import auction
from skat.engine import Phase
from skat.players.arena import make_decks
from skat.players.bidmodel import default, load
from skat.players.worlds import BID_MISS, PASS_MISS, Knowledge, Sampler, World, likelihood

Reading = Callable[[Knowledge, World], float]


def readings(model_file: str | None) -> dict[str, Reading]:
    model = load(model_file) if model_file else default()
    return {
        "rule": lambda k, w: likelihood(k, w, BID_MISS, PASS_MISS, exact=True),
        "model": lambda k, w: likelihood(k, w, exact=True, bid_model=model),
        "model-only": lambda k, w: likelihood(k, w, exact=True, bid_model=model, bid_rule=0.0),
    }


def log_ratios(
    bidder: str, deals: int, seed: int, worlds: int, read: dict[str, Reading]
) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {name: [] for name in read}
    for number, deck in enumerate(make_decks(deals, seed), 1):
        deal = auction(deck, (number - 1) % 3, [bidder] * 3, seed * 100_003 + number)
        if deal.declarer is None:
            continue
        fresh = deal.fresh()
        while fresh.phase is Phase.BIDDING:  # the auction only
            seat, action = deal.history[len(fresh.history)]
            fresh.apply(action, seat)
        me = next(p for p in range(3) if p != fresh.declarer)
        know = Knowledge.from_view(fresh.view(fresh.seat_of(me)))
        hands = [fresh.hand(fresh.seat_of(p)).mask for p in range(3)]
        truth = World((hands[0], hands[1], hands[2]), fresh.skat.mask)
        rng = random.Random(f"{seed}/{number}")
        sampler = Sampler(know)
        uniform = [sampler.sample(rng) for _ in range(worlds)]
        for name, f in read.items():
            mean = statistics.fmean(f(know, w) for w in uniform)
            out[name].append(math.log(f(know, truth) / mean))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--bidders", default="xskat,heuristic,search,club")
    parser.add_argument("--model", help="a bid model file (default: the shipped one)")
    args = parser.parse_args(argv)
    read = readings(args.model)
    for bidder in args.bidders.split(","):
        got = log_ratios(bidder, args.deals, args.seed, args.worlds, read)
        cells = []
        for name, xs in got.items():
            half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
            cells.append(f"{name} {statistics.fmean(xs):+.3f} ± {half:.3f}")
        first = next(iter(got.values()))
        print(f"{bidder}: {len(first)} auctions  " + "  ".join(cells), flush=True)


if __name__ == "__main__":
    main()
