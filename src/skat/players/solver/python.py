"""The pure-Python core of the open-card solver: the same search as the C core, slower.

Alpha-beta (fail-soft) over single card plays, a transposition table at
trick starts holding lower and upper bounds of the future score, equivalent
cards merged, MTD(f) for the exact value. The compiled core
(`_csolver.c`) follows this file line for line in spirit; the test suite
checks that both give the same answers.
"""

from __future__ import annotations

import threading

from ...engine.cards import POINTS
from ...engine.game import EFFECTIVE, FOLLOW, TRICK_KEY, GameType
from .api import make_api
from .position import NULL_MODE, POINTS_MODE

__all__ = ["best_points", "card_values", "clear", "null_wins", "reaches", "takes_all"]


def _higher(g: int) -> tuple[tuple[int, ...], ...]:
    """Per card: the stronger cards of its effective suit, nearest first."""
    eff = EFFECTIVE[g]
    out = []
    for c in range(32):
        keys = TRICK_KEY[g][eff[c]]
        up = [u for u in range(32) if eff[u] == eff[c] and keys[u] > keys[c]]
        out.append(tuple(sorted(up, key=lambda u: keys[u])))
    return tuple(out)


_HIGHER = tuple(_higher(g) for g in range(int(GameType.NULL) + 1))
_NEXT = (1, 2, 0)
_TT_LIMIT = 1 << 20


class _Search:
    """One search context: a game, a declarer and a mode (the table stays valid across calls)."""

    def __init__(self, game: int, declarer: int, mode: int) -> None:
        self.game = game
        self.declarer = declarer
        self.mode = mode
        self.tt: dict[tuple[int, int, int, int], tuple[int, int]] = {}
        self.hands = [0, 0, 0]
        self.trick: list[int] = []

    def _future_max(self) -> int:
        h = self.hands
        if self.mode == POINTS_MODE:
            rest = h[0] | h[1] | h[2]
            return sum(POINTS[c] for c in range(32) if rest >> c & 1) + sum(
                POINTS[c] for c in self.trick
            )
        return ((h[0] | h[1] | h[2]).bit_count() + len(self.trick)) // 3

    def root(self, leader: int, alpha: int, beta: int) -> int:
        if self.trick:
            return self._node(leader, alpha, beta)
        return self._start(leader, alpha, beta)

    def _start(self, leader: int, alpha: int, beta: int) -> int:
        """A trick start: look up and store bounds."""
        h = self.hands
        if not (h[0] | h[1] | h[2]):
            return 0
        key = (h[0], h[1], h[2], leader)
        got = self.tt.get(key)
        if got is None:
            lo, hi = 0, self._future_max()
        else:
            lo, hi = got
        if lo >= beta:
            return lo
        if hi <= alpha or lo == hi:
            return hi
        a = max(alpha, lo)
        b = min(beta, hi)
        v = self._node(leader, a, b)
        if v <= a:
            hi = v
        elif v >= b:
            lo = v
        else:
            lo = hi = v
        if len(self.tt) >= _TT_LIMIT:
            self.tt.clear()
        self.tt[key] = (lo, hi)
        return v

    def _moves(self, p: int) -> list[int]:
        """Legal cards of ``p`` with equivalent cards merged, strongest first."""
        g = self.game
        h = self.hands
        hand = h[p]
        trick = self.trick
        if trick:
            follow = hand & FOLLOW[g][trick[0]]
            if follow:
                hand = follow
        rest = h[0] | h[1] | h[2]
        for c in trick:
            rest |= 1 << c
        by_points = self.mode == POINTS_MODE
        own = h[p]
        out = []
        for c in range(32):
            if not hand >> c & 1:
                continue
            for u in _HIGHER[g][c]:
                if rest >> u & 1:
                    if own >> u & 1 and (not by_points or POINTS[u] == POINTS[c]):
                        break  # c is equivalent to u, which is searched instead
                    out.append(c)
                    break
            else:
                out.append(c)
        if trick:
            keys = TRICK_KEY[g][EFFECTIVE[g][trick[0]]]
            out.sort(key=lambda c: -keys[c] * 16 - POINTS[c])
        else:
            tk = TRICK_KEY[g]
            eff = EFFECTIVE[g]
            out.sort(key=lambda c: -tk[eff[c]][c] * 16 - POINTS[c])
        return out

    def _node(self, leader: int, alpha: int, beta: int) -> int:
        trick = self.trick
        p = (leader + len(trick)) % 3
        h = self.hands
        maximise = p == self.declarer
        best = -1 if maximise else 1 << 10
        for c in self._moves(p):
            h[p] ^= 1 << c
            trick.append(c)
            if len(trick) == 3:
                g = self.game
                keys = TRICK_KEY[g][EFFECTIVE[g][trick[0]]]
                k0, k1, k2 = keys[trick[0]], keys[trick[1]], keys[trick[2]]
                if k0 >= k1 and k0 >= k2:
                    w = leader
                elif k1 >= k2:
                    w = _NEXT[leader]
                else:
                    w = _NEXT[_NEXT[leader]]
                if self.mode == POINTS_MODE:
                    s = POINTS[trick[0]] + POINTS[trick[1]] + POINTS[trick[2]]
                    s = s if w == self.declarer else 0
                elif self.mode == NULL_MODE:
                    s = int(w != self.declarer)
                else:
                    s = int(w == self.declarer)
                self.trick = []
                v = s + self._start(w, alpha - s, beta - s)
                self.trick = trick
            else:
                v = self._node(leader, alpha, beta)
            trick.pop()
            h[p] ^= 1 << c
            if maximise:
                if v > best:
                    best = v
                    if best > alpha:
                        alpha = best
                        if alpha >= beta:
                            break
            elif v < best:
                best = v
                if best < beta:
                    beta = best
                    if alpha >= beta:
                        break
        return best


_local = threading.local()


def _context(game: int, declarer: int, mode: int) -> _Search:
    s: _Search | None = getattr(_local, "search", None)
    if s is None or (s.game, s.declarer, s.mode) != (game, declarer, mode):
        s = _Search(game, declarer, mode)
        _local.search = s
    return s


def _setup(
    game: int, h0: int, h1: int, h2: int, declarer: int, trick: tuple[int, ...], mode: int
) -> _Search:
    s = _context(game, declarer, mode)
    s.hands = [h0, h1, h2]
    s.trick = list(trick)
    return s


def test(
    game: int,
    h0: int,
    h1: int,
    h2: int,
    declarer: int,
    leader: int,
    trick: tuple[int, ...],
    mode: int,
    threshold: int,
) -> bool:
    """Zero-window search: does the declarer's future score reach ``threshold``?"""
    s = _setup(game, h0, h1, h2, declarer, trick, mode)
    return s.root(leader, threshold - 1, threshold) >= threshold


def exact(
    game: int, h0: int, h1: int, h2: int, declarer: int, leader: int, trick: tuple[int, ...]
) -> int:
    """The declarer's future card points with perfect play (MTD(f))."""
    s = _setup(game, h0, h1, h2, declarer, trick, POINTS_MODE)
    lo, hi = 0, s._future_max()
    guess = hi // 2
    while lo < hi:
        beta = guess + 1 if guess == lo else guess
        v = s.root(leader, beta - 1, beta)
        if v < beta:
            hi = v
        else:
            lo = v
        guess = v
    return lo


def clear() -> None:
    """Forget this thread's transposition table."""
    _local.search = None


_api = make_api(test, exact)
best_points = _api.best_points
reaches = _api.reaches
takes_all = _api.takes_all
null_wins = _api.null_wins
card_values = _api.card_values
