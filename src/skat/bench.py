"""Throughput measurements used by ``skat bench`` and the scripts in ``bench/``.

Kept out of the engine because they read the clock; they use only the
engine's public API, as a library user would.
"""

from __future__ import annotations

import random
import time

from .engine import Deal, Rules


def playouts(seconds: float, seed: int, rules: Rules | None = None) -> tuple[int, int, float]:
    """Play uniformly random complete deals for ``seconds``.

    Mirrors ``shared/bench/openspiel_playouts.py``: shuffle, then choose
    uniformly among the legal actions until the deal is over.
    Returns (deals, actions, elapsed seconds).
    """
    rules = rules or Rules()
    rng = random.Random(seed)
    deals = actions = 0
    deck = list(range(32))
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        rng.shuffle(deck)
        deal = Deal(deck, rules=rules)
        while not deal.is_terminal():
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
            actions += 1
        deals += 1
    return deals, actions, time.perf_counter() - start
