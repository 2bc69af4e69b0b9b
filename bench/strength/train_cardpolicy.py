"""Train `club`'s card policy (``data/cardpolicy.json``; issue 53, point 5)
from the card play of `search`, the strong level.

Each deal seats the teacher (``--teacher``, ``search`` without a clock, so
a seed replays exactly) in one seat drawn from the seed and a member of
``--population`` in the other two (``xskat``: XSkat's computers, built from
``../shared/xskat-4.0`` as the XSkat arena does; ``club`` plays as
``club@budget=0``). Every card the teacher played from two or more legal
cards is one example: the legal cards described by `seatmodel.features` as
the teacher saw them, the card it chose the label. The policy is the seat
model's network (`seatmodel.SeatModel`: one hidden layer of ``--hidden``
tanh units, a softmax over the legal cards), fitted by the seat model's
trainer (`train_seatmodel.fitted`: Adam, L2, the deals of every tenth
number held out; the report gives the held-out log-likelihood per card
beside uniform play's and how often the likeliest card is the teacher's).

    python -m bench.strength.train_cardpolicy --deals 400 --seed 1 --jobs 2 \\
        --population heuristic,club,xskat --out src/skat/players/data/cardpolicy.json

The same arguments give the same weights. Only the card chosen is learned,
not the values the search gave the other cards: reading them would solve
every decision twice.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence
from functools import partial
from typing import Any

from bench.strength.train_seatmodel import (
    Example,
    _player,
    examples_of,
    fitted,
    generate,
    population_parser,
    write_model,
)
from skat.engine import Card, Deal
from skat.players.arena import make_decks
from skat.players.loop import play_deal
from skat.series import ListOptions


def taught_deal(
    deck: Sequence[Card], dealer: int, teacher: str, seat: int, other: str, seed: int
) -> Deal:
    """The deal played by ``teacher`` in ``seat`` and ``other`` in the two
    other seats."""
    options = ListOptions()
    ours = _player(teacher, random.Random(seed * 7 + seat))
    if other == "xskat":
        from bench.xskat.driver import play_deal_with_xskat, xskat_seed

        play = play_deal_with_xskat(
            deck,
            dealer=dealer,
            xseed=xskat_seed(seed, dealer),
            ours=ours,
            our_seat=seat,
            rules=options.deal_rules(),
        )
        return play.deal
    deal = Deal(deck, rules=options.deal_rules(), dealer=dealer)
    players = [ours if s == seat else _player(other, random.Random(seed * 7 + s)) for s in range(3)]
    play_deal(deal, players)
    return deal


def _chunk(
    teacher: str, args: tuple[int, int, int, tuple[str, ...]]
) -> list[tuple[int, list[Example]]]:
    seed, lo, hi, population = args
    decks = make_decks(hi, seed)
    out = []
    for number in range(lo + 1, hi + 1):
        rng = random.Random(f"{seed}/{number}")
        seat = rng.randrange(3)
        other = rng.choice(population)
        deal = taught_deal(
            decks[number - 1], (number - 1) % 3, teacher, seat, other, seed * 100_003 + number
        )
        out.append((number, examples_of(deal, {seat})))
    return out


def train(
    deals: int,
    seed: int,
    jobs: int,
    population: Sequence[str],
    hidden: int,
    epochs: int,
    teacher: str = "search",
) -> dict[str, Any]:
    start = time.perf_counter()
    rows = generate(deals, seed, jobs, population, partial(_chunk, teacher))
    weights, report = fitted(rows, seed, hidden, epochs, time.perf_counter() - start)
    return {
        "command": "python -m bench.strength.train_cardpolicy " + " ".join(sys.argv[1:]),
        "teacher": teacher,
        "population": list(population),
        "report": report,
        **weights,
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = population_parser(__doc__, 400, "heuristic,club,xskat")
    ap.add_argument("--teacher", default="search")
    ap.add_argument("--hidden", type=int, default=12)
    ap.add_argument("--epochs", type=int, default=40)
    args = ap.parse_args(argv)
    population = [p for p in args.population.split(",") if p]
    if not population or args.deals < 1 or args.hidden < 1:
        ap.error("give a population, at least one deal and one hidden unit")
    data = train(
        args.deals, args.seed, args.jobs, population, args.hidden, args.epochs, args.teacher
    )
    write_model(data, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
