"""The learned model of the other seats' bidding (issue 53, point 4): what a
seat did in the auction read as one chance (R3: bid, hold, pass), its
training reproducible from a seed, the shipped file reading hands as a Skat
player would, and the auction's inference weighing the true hands above
uniform ones.
"""

from __future__ import annotations

import math
import random

from bench.strength.train_bidmodel import auction, examples_of, train

from skat.engine import Card, Deal, Phase
from skat.players.arena import make_decks
from skat.players.bidmodel import FEATURES, LADDER, BidModel, default, observation, step
from skat.players.worlds import Knowledge, Sampler, World, likelihood


def _mask(*cards: str) -> int:
    return sum(1 << int(Card.parse(c)) for c in cards)


#: Four jacks and six clubs: a Grand or Clubs far above 48 (R5.2: with 4,
#: Clubs game 5 times 12 = 60, Grand 5 times 24 = 120).
STRONG = _mask("CJ", "SJ", "HJ", "DJ", "CA", "CT", "CK", "CQ", "C9", "C8")
#: Nines, queens and kings spread over the suits: no jack, no ace, no ten,
#: no suit game and no safe Null to bid on. (Sevens and eights would be a
#: Null hand: 23, R5.3.)
WEAK = _mask("C9", "CQ", "CK", "S9", "SQ", "H9", "HQ", "HK", "D9", "DQ")


def test_what_a_seat_did_is_read_as_one_range_of_limits() -> None:
    """A seat that bid 18 and passed at 18 went to 18 and not to 20; one
    that passed at once (nothing bid) not to 18; the auction's winner has
    no upper end; past the ladder only the lower end counts."""
    assert observation(18, 18) == (step(18), step(20))
    assert observation(0, 0) == (-1, step(18))
    assert observation(0, 18) == (-1, step(20))
    assert observation(20, -1) == (step(20), -1)
    assert observation(96, 96) == (len(LADDER) - 1, -1)
    assert step(19) == step(20) and step(500) == len(LADDER) - 1


def test_the_shipped_model_reads_hands_as_a_skat_player_would() -> None:
    """Four jacks and six clubs go to 48 and beyond and are unlikely to pass
    at once; a hand of nines, queens and kings passes at once and rarely
    reaches 18, in any position; the chances of a range add up to the chance of its lower end."""
    m = default()
    assert list(m.data["features"]) == list(FEATURES)
    for position in range(3):
        assert m.at_least(STRONG, position, 48) > 0.7
        assert m.chance(STRONG, position, 0, 0) < 0.05
        assert m.at_least(WEAK, position, 18) < 0.2
        assert m.chance(WEAK, position, 0, 0) > 0.8
    # 18 and no further, 20 and no further, ... up to the winner: the whole
    # chance of going to 18 at least
    parts = [m.chance(STRONG, 1, v, v) for v in LADDER[:-1]]
    parts.append(m.chance(STRONG, 1, LADDER[-1], -1))
    assert math.isclose(sum(parts), m.at_least(STRONG, 1, 18), rel_tol=1e-9)
    assert all(p >= 0 for p in parts)


def test_training_is_reproducible_and_reads_the_hands() -> None:
    """A tiny training twice from one seed gives the same weights, and the
    hands tell more than the thresholds alone on the held-out auctions."""
    a = train(250, 5, 1, ["heuristic", "xskat"], 400)
    b = train(250, 5, 1, ["heuristic", "xskat"], 400)
    assert a["w"] == b["w"] and a["t"] == b["t"]
    assert a["t"] == sorted(a["t"])  # rising thresholds
    assert a["report"]["held_loglik"] > a["report"]["held_unread"]
    BidModel(a)  # the file it writes loads


def test_examples_are_the_seats_of_an_auction() -> None:
    """Each seat of a held auction is one example: its ten dealt cards'
    features and what it did, read as `Knowledge` reads it."""
    deck = make_decks(1, 7)[0]
    deal = auction(deck, 0, ["heuristic"] * 3, 7)
    assert deal.phase is not Phase.BIDDING
    ex = examples_of(deal)
    assert len(ex) == 3
    know = Knowledge.from_view(deal.view(deal.seat_of(0)))
    for position, (features, lo, hi) in enumerate(ex):
        assert len(features) == len(FEATURES)
        assert (lo, hi) == observation(know.named[position], know.passed_at[position])


def _truth(deal: Deal) -> World:
    hands = [deal.hand(deal.seat_of(p)).mask for p in range(3)]
    return World((hands[0], hands[1], hands[2]), deal.skat.mask)


def test_the_auction_read_by_the_model_weighs_the_true_hands_above_uniform_ones() -> None:
    """After auctions among `heuristic` and XSkat's bidders, the true hands
    get more weight from the mixture of the rule and the bid model than
    uniform worlds of the same knowledge do, on average over many auctions."""
    model = default()

    def weight(know: Knowledge, world: World) -> float:
        # as `search@bid_model=True` reads an auction: the rule is `heuristic`'s own
        return likelihood(know, world, exact=True, bid_model=model)

    truth_logs: list[float] = []
    uniform_logs: list[float] = []
    decks = make_decks(40, 9)
    for number, deck in enumerate(decks, 1):
        names = ["xskat"] * 3 if number % 2 else ["heuristic"] * 3
        deal = auction(deck, (number - 1) % 3, names, number)
        if deal.phase is Phase.BIDDING or deal.declarer is None:
            continue
        fresh = deal.fresh()
        while fresh.phase is Phase.BIDDING:  # replay the auction only
            seat, action = deal.history[len(fresh.history)]
            fresh.apply(action, seat)
        me = next(p for p in range(3) if p != fresh.declarer)
        know = Knowledge.from_view(fresh.view(fresh.seat_of(me)))
        truth_logs.append(math.log(weight(know, _truth(fresh))))
        rng = random.Random(number)
        sampler = Sampler(know)
        for _ in range(20):
            world = sampler.sample(rng)
            uniform_logs.append(math.log(weight(know, world)))
    assert len(truth_logs) >= 25
    truth = sum(truth_logs) / len(truth_logs)
    uniform = sum(uniform_logs) / len(uniform_logs)
    assert truth > uniform + 0.3, (truth, uniform)
