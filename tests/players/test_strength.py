"""`strength`'s bidding limits: the quick forms (the Null games only where
they could raise the limit) give the limit the whole list of `plans` gives."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from skat.players.strength import (
    BID_EV,
    BID_EV_HAND,
    bid_limit,
    expected_score,
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
