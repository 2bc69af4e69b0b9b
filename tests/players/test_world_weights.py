"""The world sampler's weights are the same whatever it kept from earlier
worlds and decisions: the auction's factor of a hidden hand, kept per ten
cards and what its seat did (`worlds._FACTORS`), equals the factor worked
out afresh, to the last bit, on worlds of many auctions and on variants of
one knowledge (other bids, passes, declarer, game) that share its hands."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

from bench.strength.train_bidmodel import auction

from skat.engine import GameType, Phase
from skat.players.arena import make_decks
from skat.players.bidmodel import BidModel, default
from skat.players.strength import bid_limit as heuristic_limit
from skat.players.worlds import (
    Knowledge,
    Sampler,
    World,
    _game_fit,
    _next_bid,
    bid_limit,
    likelihood,
)


def _fresh(
    know: Knowledge,
    world: World,
    bid_miss: float,
    pass_miss: float,
    exact: bool,
    bid_model: BidModel | None,
    bid_uniform: float,
    bid_rule: float,
) -> float:
    """`likelihood` as it read every hand before anything was kept."""
    w = 1.0
    for p in range(3):
        if p == know.me:
            continue
        ten = world.hands[p] | know.played_by[p]
        if ten.bit_count() != 10:
            continue
        limit = heuristic_limit(ten, p == 0) if exact else bid_limit(ten)
        factor = 1.0
        fits = True
        if know.named[p] and limit < know.named[p]:
            factor *= bid_miss
            fits = False
        if know.passed_at[p] >= 0 and p != know.declarer:
            if limit >= _next_bid(know.passed_at[p]):
                factor *= pass_miss
                fits = False
        if bid_model is not None:
            passed = know.passed_at[p] if p != know.declarer else -1
            chance = bid_model.chance(ten, p, know.named[p], passed, limit if exact else None)
            factor = bid_uniform + (bid_rule if fits else 0.0)
            factor += (1 - bid_uniform - bid_rule) * chance
        w *= factor
        if p == know.declarer and know.game is not None:
            w *= _game_fit(know.game, ten)
    return w


def _knowledges() -> list[Knowledge]:
    """A defender's knowledge after auctions among `heuristic` and XSkat's
    bidders, each with variants: other values bid and passed at, another
    declarer and game, both others alike but for their positions (the same
    hidden hands, other factors)."""
    out: list[Knowledge] = []
    for number, deck in enumerate(make_decks(16, 5), 1):
        names = ["xskat"] * 3 if number % 2 else ["heuristic"] * 3
        deal = auction(deck, (number - 1) % 3, names, number)
        if deal.phase is Phase.BIDDING or deal.declarer is None:
            continue
        me = next(p for p in range(3) if p != deal.declarer)
        know = Knowledge.from_view(deal.view(deal.seat_of(me)))
        out.append(know)
        others = [p for p in range(3) if p != me]
        out.append(replace(know, named=[v + 3 if v else 18 for v in know.named]))
        out.append(replace(know, passed_at=[v if v < 0 else v + 2 for v in know.passed_at]))
        out.append(replace(know, declarer=others[0] if know.declarer != others[0] else others[1]))
        out.append(replace(know, game=GameType.GRAND))
        out.append(replace(know, game=GameType.NULL))
        # both others alike but for their positions
        out.append(replace(know, declarer=me, named=[20, 20, 20], passed_at=[20, 20, 20]))
    return out


def test_the_kept_factors_are_the_fresh_ones() -> None:
    model = default()
    knowledges = _knowledges()
    assert len(knowledges) >= 30
    rng = random.Random(8)
    settings = [
        (0.2, 0.3, True, model, 0.05, 0.3),
        (0.2, 0.3, False, model, 0.1, 0.2),
        (0.2, 0.3, True, None, 0.05, 0.3),
        (0.2, 0.3, False, None, 0.05, 0.3),
        (0.5, 0.3, False, None, 0.05, 0.3),
        (0.5, 0.1, False, None, 0.05, 0.3),
        (0.2, 0.3, True, model, 0.05, 0.2),
        (0.2, 0.3, True, model, 0.1, 0.2),
    ]
    worlds: list[World] = []
    for k in knowledges[::7]:
        a, b = (p for p in range(3) if p != k.me)
        for _ in range(6):
            x = Sampler(k).sample(rng)
            hands = list(x.hands)
            hands[a], hands[b] = hands[b], hands[a]  # the same ten cards in another position
            worlds += [x, World((hands[0], hands[1], hands[2]), x.skat)]
    checked = 0
    # a knowledge and its variants weigh the same worlds (the same hidden
    # hands: the factors kept for one must not serve another)
    for (know, world), args in itertools.product(
        ((k, w) for i, k in enumerate(knowledges) for w in worlds[i // 7 * 12 : i // 7 * 12 + 12]),
        settings,
    ):
        assert likelihood(know, world, *args) == _fresh(know, world, *args)
        checked += 1
    assert checked >= 1000
