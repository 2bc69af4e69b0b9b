"""The beginner level (issue 25, point 5): a weak but plausible player.

It bids what its hand supports, declares plain games only, never says
Kontra, completes lists under every option set, and loses to the casual
level by a beginner's margin, not by a random player's.
"""

from __future__ import annotations

import random

import pytest

from skat.engine import Announce, Deal, Kontra, Re, Rules
from skat.players import make_player, play_deal
from skat.players.arena import make_decks, run_arena
from skat.players.levels import LEVELS
from skat.players.novice import NovicePlayer


def test_the_beginner_level_is_the_novice() -> None:
    assert LEVELS["beginner"] == "novice"
    assert isinstance(make_player("novice"), NovicePlayer)


def test_a_novice_declares_plain_games_and_never_says_kontra() -> None:
    decks = make_decks(150, seed=5)
    declared = 0
    said: list[object] = []
    for n, deck in enumerate(decks):
        deal = Deal(deck, dealer=n % 3, rules=Rules(kontra=True))
        players = [make_player("novice", random.Random(n * 3 + s)) for s in range(3)]
        said.clear()
        play_deal(deal, players, on_action=lambda _d, _s, a: said.append(a))
        for a in said:
            assert not isinstance(a, Kontra | Re)
            if isinstance(a, Announce):
                declared += 1
                c = a.contract
                assert not (c.hand or c.schneider or c.schwarz or c.ouvert), c
    assert declared >= 100, "it plays games, it does not pass everything"


@pytest.mark.arena
def test_a_novice_loses_to_the_casual_level_by_a_beginners_margin() -> None:
    # issue 25's goal: beginner against casual between -60 and -20 a game,
    # thrown-in deals at most 10% (seed 1 read -39.5, 3.6%)
    # two processes: the suite's slow kinds run in one, the other core is free
    report = run_arena(LEVELS["beginner"], LEVELS["casual"], deals=150, seed=1, jobs=2).summary()
    assert -60 < report["a_minus_b_per_game"] < -20, report
    assert report["thrown_in_rate"] <= 0.10


@pytest.mark.arena
@pytest.mark.parametrize("seed", [2])
def test_a_novice_loses_to_heuristic_and_is_far_from_random(seed: int) -> None:
    report = run_arena("novice", "heuristic", deals=150, seed=seed).summary()
    assert -60 < report["a_minus_b_per_game"] < -10, report
    assert report["thrown_in_rate"] <= 0.10
    # far from the random player it replaces
    assert (
        report["a_minus_b_per_game"] > run_arena("random", "heuristic", deals=150, seed=seed).mean
    )
