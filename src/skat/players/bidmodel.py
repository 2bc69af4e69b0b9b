"""A learned model of the other seats' bidding (issue 53, point 4): how
likely ten cards in a position are to have bid or held what a seat bid or
held, and passed where it passed.

`worlds.likelihood` reads the auction by `heuristic`'s own bidding rule, with
soft factors for a hand that bid more or passed earlier than that rule
would (`BID_MISS`, `PASS_MISS`). Other players bid otherwise (XSkat bids
its suit games on fewer trumps, our evaluator-led levels lower their bids
for what the others bid). This model gives the chance of what a seat did in
the auction, learned from the auctions of a population of players
(`bench/strength/train_bidmodel.py`, which writes ``data/bidmodel.json``):

- the seat's bidding limit is read as an ordered choice over the bidding
  values: the chance that ten cards in a position go to at least value
  ``v`` is ``sigmoid(z - t[v])``, with ``z`` a weighted sum of the hand's
  `features` and ``t`` rising thresholds, one a value;
- a seat that bid or held ``named`` and passed at ``passed_at`` (the value
  on the table when it passed) did what the chance of a limit from
  ``named`` to below the next value says (`BidModel.chance`); the winner of
  the auction has no upper end.

Pure Python; a handful of multiplications a hand, cached per ten cards.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from ..engine import BID_VALUES, GameType
from ..engine.cards import JACKS, Card, mask_points
from ..engine.game import TRUMPS
from .strength import bid_limit, null_risk

#: The values with a threshold of their own; a higher value uses the last.
LADDER: tuple[int, ...] = tuple(v for v in BID_VALUES if v <= 72)

#: The hand's features, in the order of the model's weights.
FEATURES: tuple[str, ...] = (
    "limit",  # `heuristic`'s own bidding limit of the ten (`strength.bid_limit`), at most 72, / 24
    "no_limit",  # that rule passes
    "jacks",  # jacks held, / 4
    "club_jack",  # the jack of clubs (with or without matadors)
    "matadors",  # matadors with or without, / 4
    "trumps",  # jacks and the longest suit: the trumps of the best suit game, / 11
    "long_suit",  # the longest suit without jacks, / 7
    "aces",  # / 4
    "tens",  # / 4
    "points",  # card points in the ten, / 120
    "null_safe",  # no suit that can be forced in Null (`strength.null_risk`)
    "null_risk",  # suits that can be forced, / 4
    "forehand",
    "middlehand",
)

_SUITS = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS)
#: The jacks from the highest, for the matadors.
_JACK_BITS = tuple(int(Card.parse(x)) for x in ("CJ", "SJ", "HJ", "DJ"))
_ACES = sum(1 << int(Card.parse(s + "A")) for s in "CSHD")
_TENS = sum(1 << int(Card.parse(s + "T")) for s in "CSHD")


def features(ten: int, position: int, limit: int | None = None) -> list[float]:
    """The features of ten cards held in ``position`` (0 forehand, 1
    middlehand, 2 rearhand); ``limit``: their `strength.bid_limit` in that
    position when the caller has it."""
    if limit is None:
        limit = bid_limit(ten, position == 0)
    jacks = (ten & JACKS).bit_count()
    held = [bool(ten >> b & 1) for b in _JACK_BITS]
    run = 1
    while run < 4 and held[run] == held[0]:
        run += 1
    plain = max(((ten & TRUMPS[g]) & ~JACKS).bit_count() for g in _SUITS)
    risk = null_risk(ten)
    return [
        min(limit, 72) / 24,
        float(limit == 0),
        jacks / 4,
        float(held[0]),
        run / 4,
        (jacks + plain) / 11,
        plain / 7,
        (ten & _ACES).bit_count() / 4,
        (ten & _TENS).bit_count() / 4,
        mask_points(ten) / 120,
        float(risk == 0),
        risk / 4,
        float(position == 0),
        float(position == 1),
    ]


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def step(value: int) -> int:
    """The threshold index of a bidding value: the first ladder value at
    or above it (the last for anything higher)."""
    for i, v in enumerate(LADDER):
        if v >= value:
            return i
    return len(LADDER) - 1


def next_bid(value: int) -> int | None:
    """The bidding value after ``value`` (None past the last)."""
    for b in BID_VALUES:
        if b > value:
            return b
    return None


def observation(named: int, passed_at: int) -> tuple[int, int]:
    """What a seat did as threshold indices (low, high; -1 for none): it went
    to at least ``named`` (none: nothing bid or held) and not to the value
    after ``passed_at`` (none: it did not pass). Where both fall on one
    threshold (past the ladder's end) only the low end counts. The trainer
    and `BidModel.chance` read an auction through this one function."""
    lo = step(named) if named > 0 else -1
    top = next_bid(passed_at) if passed_at >= 0 else None
    hi = step(top) if top is not None else -1
    if hi <= lo:
        hi = -1
    return lo, hi


class BidModel:
    """The ordered choice: ``w`` (one weight a feature) and ``t`` (one
    threshold a `LADDER` value, rising)."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        if list(data["features"]) != list(FEATURES) or list(data["ladder"]) != list(LADDER):
            raise ValueError("the model's features or ladder are not this code's")
        self.w: list[float] = [float(x) for x in data["w"]]
        self.t: list[float] = [float(x) for x in data["t"]]
        if len(self.w) != len(FEATURES) or len(self.t) != len(LADDER):
            raise ValueError("the model's weights do not fit its features and ladder")
        self.data = data
        self._z: dict[tuple[int, int], float] = {}

    def z(self, ten: int, position: int, limit: int | None = None) -> float:
        key = (ten, position)
        got = self._z.get(key)
        if got is None:
            if len(self._z) > 200_000:
                self._z.clear()
            row = features(ten, position, limit)
            got = sum(w * x for w, x in zip(self.w, row, strict=True))
            self._z[key] = got
        return got

    def at_least(self, ten: int, position: int, value: int) -> float:
        """The chance that these cards go to at least ``value``."""
        if value <= 0:
            return 1.0
        return _sigmoid(self.z(ten, position) - self.t[step(value)])

    def chance(
        self, ten: int, position: int, named: int, passed_at: int, limit: int | None = None
    ) -> float:
        """The chance of what a seat did: bid or held ``named`` (0: nothing)
        and passed at ``passed_at`` (-1: did not pass); `observation`
        (``limit`` as in `features`)."""
        lo, hi = observation(named, passed_at)
        z = self.z(ten, position, limit)
        up = 1.0 if lo < 0 else _sigmoid(z - self.t[lo])
        down = 0.0 if hi < 0 else _sigmoid(z - self.t[hi])
        return max(0.0, up - down)


@cache
def default() -> BidModel:
    """The shipped model (``data/bidmodel.json``)."""
    text = resources.files("skat.players").joinpath("data/bidmodel.json").read_text()
    return BidModel(json.loads(text))


def load(path: str) -> BidModel:
    with open(path) as f:
        return BidModel(json.load(f))


__all__ = [
    "FEATURES",
    "LADDER",
    "BidModel",
    "default",
    "features",
    "load",
    "next_bid",
    "observation",
    "step",
]
