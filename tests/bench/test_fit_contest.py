"""bench/strength/fit_contest.py: the shifts of `handeval.CONTEST` come from
a fit that finds shifts it is given, and from the values really shown."""

from __future__ import annotations

import math
import random

import pytest
from bench.strength.fit_contest import THRESHOLDS, Example, fit, shown_against

from skat.engine import Card, Deal, parse_action
from skat.engine.deal import deck_from_hands


def test_the_fit_finds_the_shifts_that_made_the_outcomes() -> None:
    rng = random.Random(3)
    truth = {24: -1.0, 36: -0.3, 48: -0.6}
    examples: list[Example] = []
    for _ in range(40_000):
        p = rng.uniform(0.5, 0.97)
        shown = rng.choice((0, 18, 24, 30, 36, 40, 48, 60))
        two = rng.random() < 0.5
        z = math.log(p / (1 - p)) + 0.8 - 0.4 * two
        z += sum(d for t, d in truth.items() if shown >= t)
        examples.append((p, shown, two, rng.random() < 1 / (1 + math.exp(-z))))
    result = fit(examples)
    assert result["examples"] == 40_000
    assert result["intercept"] == pytest.approx(0.8, abs=0.1)
    assert result["two_club"] == pytest.approx(-0.4, abs=0.1)
    for (t, v), e in zip(result["shifts"], result["errors"], strict=True):
        assert t in THRESHOLDS
        assert v == pytest.approx(truth[t], abs=max(0.12, 3 * e))


def test_the_value_shown_against_the_declarer_counts_bids_and_holds_of_the_others() -> None:
    cards = [str(c) for c in Card]
    deal = Deal(deck_from_hands([cards[:10], cards[10:20], cards[20:30]], cards[30:]))
    for seat, text in ((1, "bid 18"), (0, "hold"), (1, "bid 27"), (0, "pass")):
        deal.apply(parse_action(text), seat=seat)
    # middlehand bid 27, forehand held 18; rearhand still to speak
    assert shown_against(deal, 1) == 18
    assert shown_against(deal, 0) == 27
    assert shown_against(deal, 2) == 27
