"""The public questions, asked of either core (compiled or pure Python).

A core answers two primitive questions about the future of a position, from
the trick in progress to the last trick, as a sum of per-trick scores (see
the modes in `position`): ``test(..., mode, threshold)`` is the zero-window
search "does the declarer score at least ``threshold``", and ``exact`` is the
exact card-point value (MTD(f) over zero-window searches).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import NamedTuple

from ...engine import GameType
from ...engine.cards import mask_points
from .position import ALL_MODE, NULL_MODE, POINTS_MODE, Position

# test(game, h0, h1, h2, declarer, leader, trick, mode, threshold, seconds)
# -> bool, or None when ``seconds`` (0: no limit) ran out first
TestFn = Callable[[int, int, int, int, int, int, tuple[int, ...], int, int, float], bool | None]
# exact(game, h0, h1, h2, declarer, leader, trick, guess, seconds) -> future
# declarer card points (guess: where the search starts, -1 for none; never
# changes the answer), or -1 when ``seconds`` ran out first
ExactFn = Callable[[int, int, int, int, int, int, tuple[int, ...], int, float], int]


class Stopped(Exception):
    """A question was not answered within the time `limit` gave."""


_local = threading.local()


@contextmanager
def limit(seconds: float | None) -> Iterator[None]:
    """Within it, every question this thread asks either core must be answered
    within ``seconds`` from now (None: no limit); one that is not raises
    `Stopped`. A search reads the clock every 1,024 nodes or so, and what a
    stopped search learnt is not kept, so every later answer stays exact."""
    before = getattr(_local, "deadline", None)
    _local.deadline = None if seconds is None else time.monotonic() + seconds
    try:
        yield
    finally:
        _local.deadline = before


def _seconds_left() -> float:
    """The time a question may take (0.0: no limit); `Stopped` if none is left."""
    deadline: float | None = getattr(_local, "deadline", None)
    if deadline is None:
        return 0.0
    left = deadline - time.monotonic()
    if left <= 0:
        raise Stopped
    return left


class Api(NamedTuple):
    best_points: Callable[..., int]
    reaches: Callable[[Position, int], bool]
    takes_all: Callable[[Position], bool]
    null_wins: Callable[[Position], bool]
    card_values: Callable[[Position], dict[int, int]]


def _left_points(pos: Position) -> int:
    h0, h1, h2 = pos.hands
    return mask_points(h0 | h1 | h2) + sum(mask_points(1 << c) for c in pos.trick)


def make_api(test: TestFn, exact: ExactFn) -> Api:
    """The five public functions on top of a core's ``test`` and ``exact``."""

    def _args(pos: Position) -> tuple[int, int, int, int, int, int, tuple[int, ...]]:
        h0, h1, h2 = pos.hands
        return (int(pos.game), h0, h1, h2, pos.declarer, pos.leader, pos.trick)

    def _not_null(pos: Position, what: str) -> None:
        if pos.game == GameType.NULL:
            raise ValueError(f"{what} is a question for suit and Grand games, not Null")

    def best_points(pos: Position, near: int | None = None) -> int:
        """The declarer's final card points (skat included) with perfect play
        from here. ``near``: the value of a similar position (the same world
        after another card), where the search starts; the answer is the same."""
        _not_null(pos, "best_points")
        if pos.tricks_left == 0:
            return pos.declarer_points
        guess = -1 if near is None else max(0, near - pos.declarer_points)
        v = exact(*_args(pos), guess, _seconds_left())
        if v < 0:
            raise Stopped
        return pos.declarer_points + v

    def _test(pos: Position, mode: int, threshold: int) -> bool:
        got = test(*_args(pos), mode, threshold, _seconds_left())
        if got is None:
            raise Stopped
        return got

    def reaches(pos: Position, points: int) -> bool:
        """Whether the declarer ends with at least ``points`` card points (61, 90, 31)."""
        _not_null(pos, "reaches")
        need = points - pos.declarer_points
        if need <= 0:
            return True
        if need > _left_points(pos):
            return False
        return _test(pos, POINTS_MODE, need)

    def takes_all(pos: Position) -> bool:
        """Whether the declarer has taken and can take every trick (Schwarz)."""
        _not_null(pos, "takes_all")
        if pos.defender_tricks:
            return False
        n = pos.tricks_left
        return n == 0 or _test(pos, ALL_MODE, n)

    def null_wins(pos: Position) -> bool:
        """Null: whether the declarer has avoided and can avoid every trick."""
        if pos.game != GameType.NULL:
            raise ValueError("null_wins is a question for Null games")
        if pos.declarer_tricks:
            return False
        n = pos.tricks_left
        return n == 0 or _test(pos, NULL_MODE, n)

    def card_values(pos: Position) -> dict[int, int]:
        """Each legal card of `to_move` -> best_points after it (Null: 1 win, 0 loss)."""
        if pos.game == GameType.NULL:
            return {c: int(null_wins(pos.play(c))) for c in pos.legal_cards()}
        out: dict[int, int] = {}
        near: int | None = None  # each card's search starts at the last one's value
        for c in pos.legal_cards():
            near = out[c] = best_points(pos.play(c), near)
        return out

    return Api(best_points, reaches, takes_all, null_wins, card_values)
