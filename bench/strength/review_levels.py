#!/usr/bin/env python3
"""The review (`skat.players.review`) of each level's own decisions: does it
rank the levels, and is the strong player ``fine`` on its own decisions
(issue 48's goal, docs/benchmarks.md)?

    nice .venv/bin/python -m bench.strength.review_levels --deals 60 --jobs 1

Each level (``novice`` = beginner, ``club`` = casual, ``search`` = strong)
plays the arena's deals of ``--seed`` (`skat.players.arena.make_decks`) in
one seat (deal n: seat n mod 3) beside two `heuristic` players; the review
judges that seat's decisions. Per level: the share of each verdict, the
mean loss per decision with a 95% interval (clustered by deal: the
decisions of one deal are not independent) and the review's CPU per
decision. With ``--skill N`` the deals are also taken as lists of N deals
and each level gets the profile's skill figure over them (issue 48, point
4; `skat.players.rating`: Glicko-2 from the review's losses and the luck
against play), the same measure a person's profile shows.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from skat.engine import Deal

LEVELS = ("novice", "club", "search")


@dataclass
class Tally:
    """One level's reviewed decisions: per deal (loss summed, decisions)."""

    verdicts: dict[str, int] = field(default_factory=dict)
    per_deal: list[tuple[float, int]] = field(default_factory=list)
    plays: list[float] = field(default_factory=list)  # luck against play: the play part
    cpu: float = 0.0

    def merge(self, other: Tally) -> None:
        for k, v in other.verdicts.items():
            self.verdicts[k] = self.verdicts.get(k, 0) + v
        self.per_deal += other.per_deal
        self.plays += other.plays
        self.cpu += other.cpu

    @property
    def decisions(self) -> int:
        return sum(n for _, n in self.per_deal)

    def mean_loss(self) -> tuple[float, float]:
        """The mean loss per decision and its 95% half-width (a ratio
        estimate over deals)."""
        k, n = len(self.per_deal), self.decisions
        if not n:
            return 0.0, 0.0
        mean = sum(loss for loss, _ in self.per_deal) / n
        if k < 2:
            return mean, math.inf
        nbar = n / k
        var = sum((loss - mean * m) ** 2 for loss, m in self.per_deal) / (k * (k - 1) * nbar**2)
        return mean, 1.96 * math.sqrt(var)


def played(level: str, number: int, seed: int) -> tuple[Deal, int]:
    """Deal ``number`` of ``seed``'s arena decks played with ``level`` in seat
    ``number`` mod 3 beside two `heuristic` players: the deal and the seat."""
    from bench.strength.compat import make_player
    from skat.players.arena import make_decks
    from skat.players.loop import play_deal

    deck = make_decks(number, seed)[number - 1]
    seat = number % 3
    players = [
        make_player(level if s == seat else "heuristic", random.Random(f"{seed}/{number}/{s}"))
        for s in range(3)
    ]
    deal = Deal(deck, dealer=(number - 1) % 3)
    play_deal(deal, players)
    return deal, seat


def review_one(args: tuple[str, int, int, int, int | None]) -> Tally:
    """Play deal ``number`` of ``seed`` with ``level`` in one seat and review it."""
    from skat.players.luck import promise
    from skat.players.review import REVIEW_DISCARD_WORLDS, Reviewer
    from skat.players.search import SearchSettings

    level, number, seed, review_seed, worlds = args
    deal, seat = played(level, number, seed)
    start = time.process_time()
    settings = None
    if worlds is not None:
        settings = SearchSettings(worlds=worlds, discard_worlds=REVIEW_DISCARD_WORLDS)
    reviewer = Reviewer(settings, seed=review_seed)
    judged = reviewer.review(deal, seat, number)
    tally = Tally(cpu=time.process_time() - start)
    tally.plays.append(promise(deal, seat, number, reviewer.evaluator).play)
    for j in judged:
        tally.verdicts[j.verdict] = tally.verdicts.get(j.verdict, 0) + 1
    tally.per_deal.append((sum(j.loss for j in judged), len(judged)))
    return tally


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--review-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--worlds", type=int, help="the review's card worlds (default REVIEW_WORLDS)"
    )
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument(
        "--skill", type=int, default=0, help="deals a list: each level's skill figure over them"
    )
    args = parser.parse_args(argv)
    from skat.players.review import VERDICTS

    for level in args.levels.split(","):
        work = [
            (level, n, args.seed, args.review_seed, args.worlds) for n in range(1, args.deals + 1)
        ]
        tally = Tally()
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                for t in pool.map(review_one, work):
                    tally.merge(t)
        else:
            for w in work:
                tally.merge(review_one(w))
        n = tally.decisions
        shares = "  ".join(
            f"{v} {100 * tally.verdicts.get(v, 0) / max(n, 1):.1f}%" for v in VERDICTS
        )
        mean, half = tally.mean_loss()
        print(
            f"{level}: {args.deals} deals, {n} decisions  {shares}  "
            f"mean loss {mean:.2f} ± {half:.2f}  "
            f"review CPU {1000 * tally.cpu / max(n, 1):.0f} ms a decision",
            flush=True,
        )
        if args.skill:
            print(f"  skill over lists of {args.skill}: {skill_line(tally, args.skill)}")


def skill_line(tally: Tally, size: int) -> str:
    """The profile's skill figure of a level's deals taken as lists of ``size``."""
    from skat.players.rating import skill

    lists = []
    for i in range(0, len(tally.per_deal) - size + 1, size):
        part = tally.per_deal[i : i + size]
        n = sum(m for _, m in part)
        lists.append(
            {
                "average_loss": sum(loss for loss, _ in part) / n if n else 0.0,
                "decisions": n,
                "play": sum(tally.plays[i : i + size]),
                "deals": size,
            }
        )
    k = skill(lists)
    return (
        f"{k['rating']} ± {2 * k['rd']} ({k['low']} .. {k['high']}) over {k['lists']} lists,"
        f" nearest level {k['like']}"
    )


if __name__ == "__main__":
    main()
