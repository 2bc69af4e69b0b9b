"""The pure-Python core of the open-card solver: the same search as the C core, slower.

Alpha-beta (fail-soft) over single card plays, a transposition table at
trick starts holding lower and upper bounds of the future score, equivalent
cards merged, MTD(f) for the exact value. The compiled core
(`_csolver.c`) follows this file line for line in spirit; the test suite
checks that both give the same answers.
"""

from __future__ import annotations

import threading
import time

from ...engine.cards import POINTS
from ...engine.game import EFFECTIVE, FOLLOW, SUIT_OF, TRICK_KEY, GameType
from .api import make_api
from .position import NULL_MODE, POINTS_MODE

__all__ = [
    "best_points",
    "card_values",
    "clear",
    "null_wins",
    "reaches",
    "takes_all",
]


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
#: Per game type and effective suit: its cards, strongest first.
_TOP = tuple(
    tuple(
        tuple(
            sorted((c for c in range(32) if EFFECTIVE[g][c] == e), key=TRICK_KEY[g][e].__getitem__)
        )[::-1]
        for e in range(5)
    )
    for g in range(int(GameType.NULL) + 1)
)
_NEXT = (1, 2, 0)


def _can_beat(g: int, hand: int, led: int, x: int) -> bool:
    """Can a player holding ``hand`` beat ``x``, winning a trick led in effective suit ``led``?"""
    keys = TRICK_KEY[g][led]
    follow = hand & SUIT_OF[g][led]
    if follow:
        return EFFECTIVE[g][x] == led and any(
            keys[u] > keys[x] for u in range(32) if follow >> u & 1
        )
    trumps = hand & SUIT_OF[g][4]
    if not trumps:
        return False
    if EFFECTIVE[g][x] == 4:
        return any(keys[u] > keys[x] for u in range(32) if trumps >> u & 1)
    return True


_TT_LIMIT = 1 << 20
_STOP_EVERY = 1024  # nodes between two readings of the clock


class _Search:
    """One search context: a game, a declarer and a mode (the table stays valid across calls)."""

    def __init__(self, game: int, declarer: int, mode: int) -> None:
        self.game = game
        self.declarer = declarer
        self.mode = mode
        self.tt: dict[tuple[int, int, int, int], tuple[int, int, int]] = {}
        self.hands = [0, 0, 0]
        self.trick: list[int] = []
        self.best_move = -1
        # a call's limits (as in the C core): a stopped search stores nothing
        self.nodes = 0
        self.deadline = 0.0
        self.max_nodes = 0
        self.stopped = False

    def _must_stop(self) -> bool:
        if self.max_nodes and self.nodes > self.max_nodes:
            self.stopped = True
        if self.deadline and self.nodes % _STOP_EVERY == 0 and time.monotonic() > self.deadline:
            self.stopped = True
        return self.stopped

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
        if not (h[0] | h[1] | h[2]) or beta <= 0:
            return 0  # (beta <= 0: reached already, as in the C core, no table)
        key = (h[0], h[1], h[2], leader)
        got = self.tt.get(key)
        if got is None:
            lo, hi, first = 0, self._future_max(), -1
        else:
            lo, hi, first = got
        if lo >= beta:
            return lo
        if hi <= alpha or lo == hi:
            return hi
        a = max(alpha, lo)
        b = min(beta, hi)
        v = self._node(leader, a, b, first)
        if self.stopped:
            return 0
        first = self.best_move
        if v <= a:
            hi = v
        elif v >= b:
            lo = v
        else:
            lo = hi = v
        if len(self.tt) >= _TT_LIMIT:
            self.tt.clear()
        self.tt[key] = (lo, hi, first)
        return v

    def _moves(self, p: int, first: int = -1) -> list[int]:
        """Legal cards of ``p`` with equivalent cards merged, in the C core's move order."""
        g = self.game
        h = self.hands
        hand = own = h[p]
        trick = self.trick
        nt = len(trick)
        eff = EFFECTIVE[g]
        if trick:
            follow = hand & FOLLOW[g][trick[0]]
            if follow:
                hand = follow
        rest = h[0] | h[1] | h[2]
        for c in trick:
            rest |= 1 << c
        mode = self.mode
        declarer = p == self.declarer
        keys = TRICK_KEY[g][eff[trick[0]]] if trick else TRICK_KEY[g][0]
        best = friend_wins = 0
        if trick:
            best, wpos = trick[0], 0
            if nt == 2 and keys[trick[1]] > keys[best]:
                best, wpos = trick[1], 1
            winner = (p + 3 - nt + wpos) % 3
            friend_wins = (winner == self.declarer) == declarer
        trumps = SUIT_OF[g][4] if g != GameType.NULL else 0
        o1, o2 = _NEXT[p], _NEXT[_NEXT[p]]
        scored: list[tuple[int, int, int]] = []
        for c in range(32):
            if not hand >> c & 1:
                continue
            above = -1  # the nearest stronger card of the suit still out
            for u in _HIGHER[g][c]:
                if rest >> u & 1:
                    above = u
                    break
            if above >= 0 and own >> above & 1:
                if mode != POINTS_MODE or POINTS[above] == POINTS[c]:
                    continue  # equivalent to ``above``, which is searched instead
            pts = POINTS[c]
            strength = TRICK_KEY[g][eff[c]][c]
            if c == first:
                sc = 1 << 20
            elif mode == NULL_MODE:
                if not trick:
                    sc = -strength
                elif keys[c] > keys[best]:
                    sc = 50 - strength if declarer else -strength
                else:
                    sc = 100 + strength
            elif not trick:
                suit = SUIT_OF[g][eff[c]]
                sure = all(
                    (q == self.declarer) == declarer or not _can_beat(g, h[q], eff[c], c)
                    for q in (o1, o2)
                )
                if declarer and suit == trumps and not (h[o1] | h[o2]) & suit:
                    sc = 40 - pts  # no trumps left to draw: sure winners at any time
                elif sure:
                    sc = 200 + pts
                elif above < 0:
                    sc = 60 + pts  # a master an opponent can trump
                elif declarer and suit == trumps:
                    sc = 100 + strength
                else:
                    sc = 50 - pts
                    if not declarer:
                        # a trick the partner surely takes: a card of the suit
                        # above all of the declarer's (who must follow, or
                        # cannot trump), or a trump while the declarer must
                        # follow; the most points first, as for sure winners
                        partner = o2 if o1 == self.declarer else o1
                        ours = h[partner] & suit
                        theirs = h[self.declarer] & suit
                        if not ours:
                            partner_takes = bool(theirs and suit != trumps and h[partner] & trumps)
                        elif theirs:
                            top = next(u for u in _TOP[g][eff[c]] if (ours | theirs) >> u & 1)
                            partner_takes = bool(ours >> top & 1)
                        else:
                            partner_takes = not h[self.declarer] & trumps
                        if partner_takes:
                            sc = 200 + pts  # as surely the side's as a sure winner
            elif nt == 1:
                third = h[o1]
                led = eff[trick[0]]
                # a card of the led suit that takes the trick over from the
                # partner, where the trick is the side's either way, is a
                # smear too; a ruff is not (it spends a trump)
                follows = eff[c] == led
                if friend_wins:
                    # the partner led: smear on his sure trick; else take it
                    # over with a card the declarer, last, cannot beat
                    beaten = _can_beat(g, third, led, best)
                    if keys[c] > keys[best] and (beaten or not follows):
                        sc = 150 + pts if beaten and not _can_beat(g, third, led, c) else 40 - pts
                    else:
                        sc = 100 - pts if beaten else 100 + pts
                elif not declarer and o1 != self.declarer:
                    # a defender after the declarer: smear when the partner
                    # can take the trick, else take it, else throw low
                    takes = keys[c] > keys[best]
                    if (not takes or follows) and _can_beat(g, third, led, best):
                        sc = 250 + pts
                    else:
                        sc = 200 + pts if keys[c] > keys[best] else 100 - pts
                elif keys[c] > keys[best]:
                    sc = 150 + pts if _can_beat(g, third, led, c) else 200 + pts
                else:
                    sc = 100 - pts
            elif friend_wins:
                # the own side's trick stays the side's: a card of the led
                # suit, higher or not, is a smear; a ruff only spends a trump
                ruffs = keys[c] > keys[best] and eff[c] != eff[trick[0]]
                sc = 40 - pts if ruffs else 100 + pts
            elif keys[c] > keys[best]:
                sc = 200 + pts
            else:
                sc = 100 - pts
            # among cards of one score: leading or taking the trick, the
            # weakest first (the higher ones may take a later trick); else,
            # and in Null, the strongest
            takes = bool(trick) and keys[c] > keys[best]
            weaker_first = mode != NULL_MODE and (not trick or takes)
            scored.append((-sc, strength if weaker_first else -strength, c))
        scored.sort()
        return [c for _, _, c in scored]

    def _node(self, leader: int, alpha: int, beta: int, first: int = -1) -> int:
        """Fail-soft alpha-beta below one card play; sets `best_move`."""
        self.nodes += 1
        if (self.deadline or self.max_nodes) and self._must_stop():
            return 0
        trick = self.trick
        p = (leader + len(trick)) % 3
        h = self.hands
        maximise = p == self.declarer
        best = -1 if maximise else 1 << 10
        moves = self._moves(p, first)
        bm = moves[0]
        for c in moves:
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
            if self.stopped:
                return 0
            if maximise:
                if v > best:
                    best, bm = v, c
                    if best > alpha:
                        alpha = best
                        if alpha >= beta:
                            break
            elif v < best:
                best, bm = v, c
                if best < beta:
                    beta = best
                    if alpha >= beta:
                        break
        self.best_move = bm
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
    s.nodes, s.stopped = 0, False
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
    seconds: float = 0.0,
    max_nodes: int = 0,
) -> bool | None:
    """Zero-window search: does the declarer's future score reach ``threshold``?
    None when ``seconds`` or ``max_nodes`` (0: none) stopped it first."""
    s = _limited(_setup(game, h0, h1, h2, declarer, trick, mode), seconds, max_nodes)
    try:
        v = s.root(leader, threshold - 1, threshold)
        return None if s.stopped else v >= threshold
    finally:
        s.deadline, s.max_nodes = 0.0, 0


def _limited(s: _Search, seconds: float, max_nodes: int) -> _Search:
    if not seconds >= 0 or max_nodes < 0:
        raise ValueError("seconds and max_nodes must not be negative")
    s.max_nodes = max_nodes
    s.deadline = time.monotonic() + min(seconds, 1e6) if seconds > 0 else 0.0
    return s


def exact(
    game: int,
    h0: int,
    h1: int,
    h2: int,
    declarer: int,
    leader: int,
    trick: tuple[int, ...],
    guess: int = -1,
    seconds: float = 0.0,
    max_nodes: int = 0,
) -> int:
    """The declarer's future card points with perfect play (MTD(f)), the
    search starting at ``guess`` when one is given (a near position's value:
    fewer passes, the same answer). ``seconds`` and ``max_nodes`` (0: none)
    stop it early; it then answers -1."""
    s = _limited(_setup(game, h0, h1, h2, declarer, trick, POINTS_MODE), seconds, max_nodes)
    try:
        return _mtdf(s, leader, guess)
    finally:
        s.deadline, s.max_nodes = 0.0, 0


def _mtdf(s: _Search, leader: int, guess: int) -> int:
    lo, hi = 0, s._future_max()
    guess = min(guess, hi) if guess >= 0 else hi // 2
    while lo < hi:
        beta = guess + 1 if guess == lo else guess
        v = s.root(leader, beta - 1, beta)
        if s.stopped:
            return -1
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
