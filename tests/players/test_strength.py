"""`strength`'s bidding limits: the quick forms (the Null games only where
they could raise the limit) give the limit the whole list of `plans` gives."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from skat.players.strength import (
    _NULL_RANK,
    BID_EV,
    BID_EV_HAND,
    _null_ranks,
    _null_suit,
    _top_null_card,
    bid_limit,
    expected_score,
    null_risk,
    plans,
    top_value,
)

tens = st.lists(st.integers(0, 31), min_size=10, max_size=10, unique=True).map(
    lambda cards: sum(1 << c for c in cards)
)


def _limit_by_plans(hand: int, forehand: bool, aggression: float) -> int:
    best = 0
    for p in plans(hand, True, forehand):
        floor = BID_EV_HAND if p.hand else BID_EV
        if expected_score(min(1.0, p.win + aggression), p.value) > floor:
            best = max(best, p.value)
    return best


def _null_safe_hands() -> list[int]:
    """Hands of low cards, where the Null games decide the limit."""
    rng = random.Random(5)
    low = [c for c in range(32) if c & 7 >= 5 or (c & 7 == 4 and c // 8 in (2, 3))]
    return [sum(1 << c for c in rng.sample(low, 10)) for _ in range(200)]


@settings(max_examples=400, deadline=None)
@given(hand=tens, forehand=st.booleans(), aggression=st.sampled_from([0.0, 0.1, -0.1]))
def test_the_bidding_limit_is_the_best_worthwhile_plan(
    hand: int, forehand: bool, aggression: float
) -> None:
    assert bid_limit(hand, forehand, aggression) == _limit_by_plans(hand, forehand, aggression)


@settings(max_examples=400, deadline=None)
@given(hand=tens)
def test_the_top_value_is_the_highest_plan(hand: int) -> None:
    assert top_value(hand) == max((p.value for p in plans(hand, True)), default=0)


def test_low_hands_bid_their_null_games() -> None:
    """Where no trump game is worth a bid, the Null games set the limit
    (a Null Ouvert Hand is 59, a Null Hand 35): the shortcut keeps them."""
    hands = _null_safe_hands()
    limits = [bid_limit(h, fh) for h in hands for fh in (False, True)]
    assert limits == [_limit_by_plans(h, fh, 0.0) for h in hands for fh in (False, True)]
    assert {23, 35, 46, 59} <= set(limits) | {top_value(h) for h in hands}
    assert [top_value(h) for h in hands] == [
        max((p.value for p in plans(h, True)), default=0) for h in hands
    ]


def _strong_hands(count: int) -> list[int]:
    """Hands with two to four jacks and a long suit, where a Hand game with
    Schneider may set the limit (and a weaker game is skipped for it)."""
    rng = random.Random(11)
    out = []
    for _ in range(count):
        jacks = rng.sample([4, 12, 20, 28], rng.randint(2, 4))
        suit = rng.randrange(4)
        long = rng.sample(
            [8 * suit + r for r in range(8) if r != 4], rng.randint(3, min(7, 10 - len(jacks)))
        )
        rest = [c for c in range(32) if c not in jacks and c not in long]
        cards = jacks + long + rng.sample(rest, 10 - len(jacks) - len(long))
        out.append(sum(1 << c for c in cards))
    return out


def test_the_quick_limit_skips_no_game_that_sets_it() -> None:
    """`bid_limit` leaves out the games that cannot beat the limit found so
    far: on random and on strong hands (jacks, a long suit: the Hand and
    Schneider levels decide) it is the limit of the whole list of plans."""
    rng = random.Random(3)
    hands = [sum(1 << c for c in rng.sample(range(32), 10)) for _ in range(3000)]
    hands += _strong_hands(3000)
    for i, h in enumerate(hands):
        fh = i % 2 == 0
        assert bid_limit(h, fh) == _limit_by_plans(h, fh, 0.0), hex(h)


def test_the_null_tables_agree_with_the_suits_read_one_by_one() -> None:
    """`null_risk` and the Null shedding read per-suit tables: the same as
    reading each suit's ranks (`_null_suit`, `_null_ranks`) card by card."""
    rng = random.Random(4)
    for _ in range(3000):
        hand = sum(1 << c for c in rng.sample(range(32), rng.randint(1, 12)))
        assert null_risk(hand) == sum(
            1 for suit in range(4) if _null_suit(_null_ranks(hand, suit))[0]
        )
        for suit in range(4):
            bits = hand >> (8 * suit) & 0xFF
            if bits:
                top = max((i for i in range(8) if bits >> i & 1), key=lambda i: _NULL_RANK[i])
                assert _top_null_card(hand, suit) == top + 8 * suit
