"""The public questions, asked of either core (compiled or pure Python).

A core answers two primitive questions about the future of a position, from
the trick in progress to the last trick, as a sum of per-trick scores (see
the modes in `position`): ``test(..., mode, threshold)`` is the zero-window
search "does the declarer score at least ``threshold``", and ``exact`` is the
exact card-point value (MTD(f) over zero-window searches).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ...engine import GameType
from ...engine.cards import mask_points
from .position import ALL_MODE, NULL_MODE, POINTS_MODE, Position

# test(game, h0, h1, h2, declarer, leader, trick, mode, threshold) -> bool
TestFn = Callable[[int, int, int, int, int, int, tuple[int, ...], int, int], bool]
# exact(game, h0, h1, h2, declarer, leader, trick, guess, seconds) -> future
# declarer card points (guess: where the search starts, -1 for none; never
# changes the answer), or -1 when ``seconds`` (0: no limit) ran out first
ExactFn = Callable[[int, int, int, int, int, int, tuple[int, ...], int, float], int]


class Api(NamedTuple):
    best_points: Callable[..., int]
    best_points_within: Callable[..., int | None]
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
        return pos.declarer_points + exact(*_args(pos), guess, 0.0)

    def best_points_within(pos: Position, seconds: float, near: int | None = None) -> int | None:
        """`best_points`, or None when it takes longer than ``seconds`` of wall
        clock (read every thousand nodes or so). What the stopped search
        learnt is thrown away, so later answers stay exact."""
        _not_null(pos, "best_points")
        if pos.tricks_left == 0:
            return pos.declarer_points
        if not seconds > 0:
            return None
        guess = -1 if near is None else max(0, near - pos.declarer_points)
        v = exact(*_args(pos), guess, seconds)
        return None if v < 0 else pos.declarer_points + v

    def reaches(pos: Position, points: int) -> bool:
        """Whether the declarer ends with at least ``points`` card points (61, 90, 31)."""
        _not_null(pos, "reaches")
        need = points - pos.declarer_points
        if need <= 0:
            return True
        if need > _left_points(pos):
            return False
        return test(*_args(pos), POINTS_MODE, need)

    def takes_all(pos: Position) -> bool:
        """Whether the declarer has taken and can take every trick (Schwarz)."""
        _not_null(pos, "takes_all")
        if pos.defender_tricks:
            return False
        n = pos.tricks_left
        return n == 0 or test(*_args(pos), ALL_MODE, n)

    def null_wins(pos: Position) -> bool:
        """Null: whether the declarer has avoided and can avoid every trick."""
        if pos.game != GameType.NULL:
            raise ValueError("null_wins is a question for Null games")
        if pos.declarer_tricks:
            return False
        n = pos.tricks_left
        return n == 0 or test(*_args(pos), NULL_MODE, n)

    def card_values(pos: Position) -> dict[int, int]:
        """Each legal card of `to_move` -> best_points after it (Null: 1 win, 0 loss)."""
        if pos.game == GameType.NULL:
            return {c: int(null_wins(pos.play(c))) for c in pos.legal_cards()}
        out: dict[int, int] = {}
        near: int | None = None  # each card's search starts at the last one's value
        for c in pos.legal_cards():
            near = out[c] = best_points(pos.play(c), near)
        return out

    return Api(best_points, best_points_within, reaches, takes_all, null_wins, card_values)
