"""The strong player's contract: the bid, Hand or pickup, the discard and the
game (docs/players.md).

The bid and the choice of Hand or pickup are the learned hand evaluator's,
as ``club`` makes them (`handeval.bid_limit` with the value the other seats
showed, `handeval.hand_game`). After the pickup the discard and the game are
chosen together by solves: every plausible game with its best few discards
by a quick score, in worlds of the opponents' hands, each world valued by
the declarer's open-card points turned into a real win chance
(``win_curve``; Grand is won where it reaches 61 plus ``margin``), with the
evaluator's chances of the ten cards kept counting as ``prior_worlds`` more
worlds; after ``PROBE`` worlds only the two best games go on. A candidate
that can no longer come out best (nor go on after the probe) whatever its
solves still to come say is not solved further (`DiscardSolves.beaten`,
`DiscardSolves.out_of_probe`): the choice is the one solving every
candidate in every world makes, with fewer solves (issue 52, point 2).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from types import ModuleType

from ...engine import (
    Action,
    Announce,
    Bid,
    Contract,
    Discard,
    GameType,
    Hold,
    Pass,
    Pickup,
    Rules,
    View,
)
from ...engine.cards import JACKS, POINTS, SUIT_MASKS, mask_cards, mask_points
from ...engine.game import NULL_VALUES, TRUMPS
from ..handeval import FORTY, HAND_MARGIN, Chances, Evaluator, bid_limit, hand_game
from ..solver.api import Stopped
from ..strength import null_risk
from ..worlds import Inference, Knowledge, Sampler
from .decision import Decision, OutOfTime
from .entries import entry, prior_entry
from .settings import DISCARD_SPREAD, DISCARDS, PROBE, Curve, SearchSettings

_SUITS = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS)
_ACES = sum(1 << (8 * s) for s in range(4))
_NULL_RANK = (7, 3, 2, 4, 1, 0, -1, -2)  # A K Q J T 9 8 7: higher is more dangerous in Null

#: A solved world's (win chance, Schneider chance).
Outcome = tuple[float, float]
#: Per solved world: (win chance, Schneider chance, the declarer's twelve cards).
Row = tuple[float, float, int]
#: Bounds closer than this are not trusted to order two candidates (float sums).
_SURE = 1e-6


def bid(view: View, know: Knowledge, evaluator: Evaluator, settings: SearchSettings) -> Action:
    """Bid or hold while the evaluator's best game is worth the bid."""
    shown = know.shown_by_others if settings.contest else 0
    limit = bid_limit(
        evaluator,
        view.hand.mask,
        know.me,
        settings.bid_floor,
        shown,
        settings.contest,
        view.rules,
        FORTY if settings.forty is None else settings.forty,
    )
    for a in view.legal_actions:
        if isinstance(a, Hold):
            return a if view.bid <= limit else Pass()
        if isinstance(a, Bid):
            return a if a.value <= limit else Pass()
    return Pass()


def hand_or_pickup(
    view: View, know: Knowledge, evaluator: Evaluator, settings: SearchSettings
) -> Action:
    """A Hand game where the evaluator's best beats picking up by ``HAND_MARGIN``."""
    legal = view.legal_actions
    forty = FORTY if settings.forty is None else settings.forty
    game = hand_game(evaluator, view.hand.mask, know.me, view.bid, HAND_MARGIN, view.rules, forty)
    if game is not None and Announce(game) in legal:
        return Announce(game)
    return next(a for a in legal if isinstance(a, Pickup))


def options(hand: int) -> list[Contract]:
    """Plausible games after a pickup (twelve cards, or ten with the skat known)."""
    counts = sorted(((hand & TRUMPS[g]).bit_count(), -int(g), g) for g in _SUITS)
    games: list[GameType] = [g for n, _, g in counts[-2:] if n >= 4]
    jacks = (hand & JACKS).bit_count()
    aces = (hand & _ACES).bit_count()
    if jacks >= 2 or (jacks == 1 and aces >= 3):
        games.append(GameType.GRAND)
    out = [Contract(g) for g in games]
    if null_risk(_best_null_ten(hand)) <= 2:
        out += [Contract(GameType.NULL), Contract(GameType.NULL, ouvert=True)]
    return out


def _curve(s: SearchSettings, game: GameType) -> Curve:
    """The win chance by the open-card points (Grand: 1 or 0 at 61 plus ``margin``)."""
    return ((61 + s.margin, 1.0), (0, 0.0)) if game == GameType.GRAND else s.win_curve


def start_outcomes(s: SearchSettings, game: GameType) -> list[Outcome]:
    """Every (win chance, Schneider chance) `solve_start` can give for ``game``."""
    if game == GameType.NULL:
        return [(1.0, 0.0), (0.0, 0.0)]
    out: list[Outcome] = []
    for i, (threshold, chance) in enumerate(_curve(s, game)):
        out += [(chance, 0.0), (chance, 1.0)] if i == 0 else [(chance, 0.0)]
        if threshold <= 0:
            return out
    return [*out, (0.0, 0.0)]


def start_steps(
    solver: ModuleType,
    s: SearchSettings,
    game: GameType,
    hands: Sequence[int],
    declarer: int,
    points: int,
) -> Iterator[list[Outcome]]:
    """`solve_start` one solver question at a time: after each, the outcomes
    (of `start_outcomes`) still possible; the last step leaves one."""
    if game == GameType.NULL:
        pos = solver.Position(game, (hands[0], hands[1], hands[2]), declarer, 0)
        yield [(float(bool(solver.null_wins(pos))), 0.0)]
        return
    pos = solver.Position(game, (hands[0], hands[1], hands[2]), declarer, 0, (), points)
    curve = _curve(s, game)
    left = start_outcomes(s, game)
    for i, (threshold, chance) in enumerate(curve):
        if threshold <= 0 or solver.reaches(pos, threshold):
            if i:
                yield [(chance, 0.0)]
                return
            yield [(chance, 0.0), (chance, 1.0)]
            yield [(chance, float(bool(solver.reaches(pos, 90 + s.schneider_margin))))]
            return
        left = left[2:] if i == 0 else left[1:]  # this tier is out
        yield left
    yield [(0.0, 0.0)]


def solve_start(
    solver: ModuleType,
    s: SearchSettings,
    game: GameType,
    hands: Sequence[int],
    declarer: int,
    points: int,
) -> Outcome:
    """(win chance, Schneider chance) of a game from its first card, all
    cards open: the win chance by ``win_curve`` for a suit game, for Grand
    1 or 0 at 61 plus ``margin``; Schneider where the curve's top tier (or
    the cut) is reached and the solve reaches 90 plus ``schneider_margin``."""
    *_, last = start_steps(solver, s, game, hands, declarer, points)
    (out,) = last
    return out


def expected(
    c: Contract,
    bid: int,
    rows: Sequence[Row],
    prior: Chances | None,
    prior_worlds: float,
    rules: Rules | None = None,
    forty: float = 0.0,
) -> float:
    """The declarer's expected Seeger-Fabian entry for ``c`` at ``bid``;
    ``prior`` counts as ``prior_worlds`` more worlds; ``forty`` as in
    `entries`."""
    if not rows or (c.game == GameType.NULL and NULL_VALUES[c.hand, c.ouvert] < bid):
        # a Null below the bid is no valid announcement (R3.5)
        return -1000.0
    s = 0.0
    n = float(len(rows))
    if prior is not None and prior_worlds > 0:
        # the prior's entries, averaged over the worlds' twelve cards (the
        # matadors depend on the skat)
        priors = sum(prior_entry(c, bid, prior, cards12, rules, forty) for *_, cards12 in rows)
        s += prior_worlds * priors / n
        n += prior_worlds
    for won, schneider, cards12 in rows:
        s += entry(c, bid, won, schneider, cards12, rules, forty)
    return s / n


def discard_games(view: View, hand12: int) -> list[Contract]:
    """The games the discard is chosen for: `options` of the twelve cards,
    a Null only where its value reaches the bid."""
    return [
        c
        for c in options(hand12)
        if c.game != GameType.NULL or NULL_VALUES[False, c.ouvert] >= view.bid
    ]


def discard_candidates(games: Sequence[Contract], hand12: int) -> list[tuple[Contract, int]]:
    """Every game with its best few discards by the quick score (Null Ouvert
    is solved together with plain Null)."""
    out: list[tuple[Contract, int]] = []
    for c in games:
        if c.game == GameType.NULL and c.ouvert and len(games) > 1:
            if Contract(GameType.NULL) in games:
                continue
        for mask in best_discards(hand12, c.game, DISCARDS):
            out.append((c, mask))
    return out


class DiscardSolves:
    """(game, discard) candidates solved in the same worlds of the
    opponents' hands: the player's discard and game, and the review's
    values of them (`skat.players.review`), come from here."""

    def __init__(
        self,
        d: Decision,
        evaluator: Evaluator,
        inference: Inference,
        candidates: Sequence[tuple[Contract, int]],
        hand12: int,
    ) -> None:
        self.d = d
        self.evaluator = evaluator
        self.hand12 = hand12
        self.worlds = Sampler(d.know).weighted(
            d.rng, d.settings.discard_worlds, inference=inference
        )
        self.rows: dict[tuple[Contract, int], list[Row]] = {k: [] for k in candidates}
        self.solved_n = dict.fromkeys(candidates, 0)
        self._priors: dict[tuple[tuple[Contract, int], Contract], Chances] = {}
        self._entries: dict[tuple[Contract, Outcome], float] = {}

    def variants(self, c: Contract) -> list[Contract]:
        """The announcements one solve of ``c`` stands for (plain and Ouvert Null)."""
        if c.game == GameType.NULL:
            return [
                Contract(GameType.NULL, ouvert=ouvert)
                for ouvert in (False, True)
                if NULL_VALUES[False, ouvert] >= self.d.view.bid
            ]
        return [c]

    def expected(self, k: tuple[Contract, int], v: Contract) -> float:
        """The declarer's expected entry of announcing ``v`` with candidate
        ``k``'s discard, over the worlds solved so far and the prior."""
        s = self.d.settings
        bid, rules = self.d.view.bid, self.d.view.rules
        return expected(
            v, bid, self.rows[k], self._prior(k, v), s.prior_worlds, rules, s.forty or 0.0
        )

    def _prior(self, k: tuple[Contract, int], v: Contract) -> Chances:
        got = self._priors.get((k, v))
        if got is None:
            kept, pts = self.hand12 & ~k[1], mask_points(k[1])
            got = self.evaluator.chances(kept, v.game, self.d.know.me, "counted", pts)
            self._priors[k, v] = got
        return got

    def value(self, k: tuple[Contract, int]) -> tuple[float, Contract]:
        """The best announcement of candidate ``k`` and its expected entry."""
        best_v = max(self.variants(k[0]), key=lambda v: self.expected(k, v))
        return self.expected(k, best_v), best_v

    def score(self, k: tuple[Contract, int]) -> tuple[float, Contract]:
        """`value` with the points put away as the tie-break."""
        v, best_v = self.value(k)
        return v + mask_points(k[1]) / 100, best_v

    def prior_score(self, k: tuple[Contract, int]) -> tuple[float, Contract]:
        """`score` by the evaluator's prior alone, before any world is solved."""
        view, forty = self.d.view, self.d.settings.forty or 0.0

        def value(v: Contract) -> float:
            return prior_entry(v, view.bid, self._prior(k, v), self.hand12, view.rules, forty)

        best_v = max(self.variants(k[0]), key=value)
        return value(best_v) + mask_points(k[1]) / 100, best_v

    def _entry(self, v: Contract, outcome: Outcome) -> float:
        got = self._entries.get((v, outcome))
        if got is None:
            s, view = self.d.settings, self.d.view
            got = entry(v, view.bid, *outcome, self.hand12, view.rules, s.forty or 0.0)
            self._entries[v, outcome] = got
        return got

    def bound(
        self,
        k: tuple[Contract, int],
        high: bool,
        now: Sequence[Outcome] | None = None,
        upto: int | None = None,
    ) -> float:
        """The greatest (``high``) or least `score` ``k`` can have once
        solved in the worlds up to ``upto`` (None: all): each world not
        solved yet at its best (or worst) outcome, the world being solved at
        the best (worst) of ``now``, the outcomes still possible there."""
        s, view = self.d.settings, self.d.view
        pick = max if high else min
        start = self.solved_n[k]
        out = -math.inf
        for v in self.variants(k[0]):
            if v.game == GameType.NULL and NULL_VALUES[v.hand, v.ouvert] < view.bid:
                total = -1000.0
            else:
                every = pick(self._entry(v, o) for o in start_outcomes(s, v.game))
                total = sum(self._entry(v, (won, sch)) for won, sch, _ in self.rows[k])
                n = float(len(self.rows[k]))
                for j, (_, mult) in enumerate(self.worlds[start:upto]):
                    if j == 0 and now is not None:
                        total += mult * pick(self._entry(v, o) for o in now)
                    else:
                        total += mult * every
                    n += mult
                if s.prior_worlds > 0:
                    pe = prior_entry(
                        v, view.bid, self._prior(k, v), self.hand12, view.rules, s.forty or 0.0
                    )
                    total += s.prior_worlds * pe
                    n += s.prior_worlds
                total /= n
            out = max(out, total)
        return out + mask_points(k[1]) / 100

    def beaten(
        self,
        k: tuple[Contract, int],
        rivals: Sequence[tuple[Contract, int]],
        now: Sequence[Outcome] | None = None,
    ) -> bool:
        """Whether ``k`` cannot score best among ``rivals`` once every world
        is solved, whatever the solves still to come say (`bound`): then it
        is not chosen, and need not be solved further."""
        best = self.bound(k, True, now) + _SURE
        return any(r != k and self.bound(r, False) > best for r in rivals)

    def out_of_probe(
        self,
        k: tuple[Contract, int],
        firsts: Sequence[tuple[Contract, int]],
        now: Sequence[Outcome] | None = None,
    ) -> bool:
        """Whether ``k`` (the first discard of its game) cannot go on after
        the probe, whatever its solves in the first PROBE worlds say: two
        others are sure to score above it there, or one by more than
        DISCARD_SPREAD. Then it is neither the leader nor kept."""
        best = self.bound(k, True, now, PROBE) + _SURE
        lows = [self.bound(r, False, None, PROBE) for r in firsts if r != k]
        above = sum(low > best for low in lows)
        return above >= 2 or any(low - DISCARD_SPREAD > best for low in lows)

    def keep(self, k: tuple[Contract, int], n: int) -> None:
        """Forget candidate ``k``'s solves beyond the first ``n`` worlds."""
        del self.rows[k][sum(m for _, m in self.worlds[:n]) :]
        self.solved_n[k] = min(self.solved_n[k], n)

    def advance(
        self,
        k: tuple[Contract, int],
        upto: int,
        timed: bool,
        out: Callable[[Sequence[Outcome] | None], bool] | None = None,
    ) -> bool:
        """Solve candidate ``k`` in the worlds up to ``upto``. With ``out``,
        stop as soon as it says ``k`` is out (asked before every solver
        question with the outcomes still possible in the world being
        solved, `beaten`, `out_of_probe`) and answer False."""
        d = self.d
        c, mask = k
        me = d.know.me
        for world, mult in self.worlds[self.solved_n[k] : upto]:
            if out is not None and out(None):
                return False
            if timed and d.clock.over:
                raise OutOfTime
            hands = list(world.hands)
            hands[me] = self.hand12 & ~mask
            for now in start_steps(d.solver, d.settings, c.game, hands, me, mask_points(mask)):
                if len(now) > 1 and out is not None and out(now):
                    return False
            ((won, sch),) = now
            self.rows[k] += [(won, sch, self.hand12)] * mult
            self.solved_n[k] += 1
        self.solved_n[k] = max(self.solved_n[k], upto)
        return True


def discard(
    d: Decision, evaluator: Evaluator, inference: Inference
) -> tuple[Discard, Contract] | None:
    """The discard and the game to announce with it, chosen together: every
    plausible game with its best few discards by the quick score, solved in
    worlds of the opponents' hands; after the first few worlds only the best
    candidates go on (successive halving). Then the best of them is solved in
    every world first, and the others world by world, each dropped as soon
    as it can no longer come out best (`DiscardSolves.beaten`): the choice is
    the one solving them all in every world makes. Out of time before one
    world is solved, the evaluator's prior chooses among the candidates."""
    view, clock = d.view, d.clock
    hand12 = view.hand.mask
    games = discard_games(view, hand12)
    if not games:
        return None
    candidates = discard_candidates(games, hand12)
    table = DiscardSolves(d, evaluator, inference, candidates, hand12)
    score = table.score
    worlds = len(table.worlds)
    # first the best quick discard of each game; after PROBE worlds the
    # two best games go on with all their candidate discards
    firsts = {
        c: best_discards(hand12, c.game, 1)[0] for c in dict.fromkeys(c for c, _ in candidates)
    }
    probe = [k for k in candidates if k[1] == firsts[k[0]]]
    alive = list(probe)
    done = 0
    try:
        for i in range(min(PROBE, worlds)):
            if done and clock.over:
                raise OutOfTime
            for k in list(alive):
                # one that cannot go on after the probe (or, with no more
                # worlds than it, cannot come out best) is dropped
                out: Callable[[Sequence[Outcome] | None], bool] = (
                    partial(table.out_of_probe, k, probe)
                    if worlds > PROBE
                    else partial(table.beaten, k, probe)
                )
                if not table.advance(k, i + 1, done > 0, out):
                    alive.remove(k)
            done = i + 1
        if worlds > PROBE:
            clock.check()
            ranked = sorted(alive, key=lambda k: -score(k)[0])
            top = score(ranked[0])[0]
            going = {k[0] for k in ranked[:2] if score(k)[0] >= top - DISCARD_SPREAD}
            table.advance(ranked[0], worlds, True)  # the leader, in every world
            rest = [k for k in candidates if k[0] in going]
            for i in range(PROBE, worlds):
                clock.check()
                for k in list(rest):
                    if not table.advance(k, i + 1, True, partial(table.beaten, k, rest)):
                        rest.remove(k)
                done = i + 1
                alive = list(rest)
    except (OutOfTime, Stopped):
        # the time is up: every candidate is compared on the same `done`
        # worlds (the solves of the world in progress, and the leader's
        # ahead, are dropped; out within the probe's world, its cut is undone)
        for k in alive:
            table.keep(k, done)
    if not done:
        # not one world solved in the time (many tables started together and
        # share the search processes): the evaluator's prior alone chooses,
        # among the same candidates, rather than `heuristic`
        score = table.prior_score
        alive = candidates
    chosen = max(alive, key=lambda k: score(k)[0])
    cards = tuple(mask_cards(chosen[1]))
    for a in view.legal_actions:
        if isinstance(a, Discard) and a.cards == cards:
            return a, score(chosen)[1]
    return None


def declare(d: Decision, inference: Inference) -> Contract | None:
    """The game for a hand whose discard was not planned here (it fell back
    to `heuristic`): each plausible game solved in worlds of the opponents'
    hands, the best expected entry announced."""
    view, know = d.view, d.know
    hand = view.hand.mask
    skat = view.skat.mask if view.skat is not None else 0
    games = [c for c in options(hand | skat) if Announce(c) in view.legal_actions]
    if not games:
        return None
    worlds = Sampler(know).weighted(d.rng, d.settings.discard_worlds, inference=inference)
    rows: dict[Contract, list[Row]] = {c: [] for c in games}
    me = know.me
    for world, mult in worlds:
        if rows[games[0]] and d.clock.over:
            break
        cache: dict[GameType, tuple[float, float]] = {}
        for c in games:
            if c.game not in cache:
                hands = list(world.hands)
                hands[me] = hand
                cache[c.game] = solve_start(
                    d.solver, d.settings, c.game, hands, me, mask_points(skat)
                )
            rows[c] += [(*cache[c.game], hand | skat)] * mult
    forty = d.settings.forty or 0.0
    return max(games, key=lambda c: expected(c, view.bid, rows[c], None, 0.0, view.rules, forty))


# ------------------------------------------------------------------ discards
def _keep_value(hand: int, card: int, game: GameType) -> float:
    """How much a side card is worth keeping (an ace, a ten guarded by its ace)."""
    rank = card & 7
    suit_cards = hand & SUIT_MASKS[card >> 3] & ~TRUMPS[game]
    if rank == 0:
        return 14.0
    if rank == 1:
        return 9.0 if suit_cards & 1 << (card & ~7) else 0.0
    if rank == 2 and suit_cards.bit_count() >= 3:
        return 2.0
    return 0.0


def _discard_score(hand12: int, discard: int, game: GameType) -> float:
    trumps = TRUMPS[game]
    if game == GameType.NULL:
        rest = hand12 & ~discard
        danger = sum(_NULL_RANK[c & 7] for c in mask_cards(discard))
        return -10.0 * null_risk(rest) + danger
    score = float(mask_points(discard))
    for c in mask_cards(discard):
        if trumps >> c & 1:
            score -= 25.0 + POINTS[c]
        else:
            score -= _keep_value(hand12, c, game)
    rest = hand12 & ~discard
    for s in range(4):
        side = SUIT_MASKS[s] & ~trumps
        if hand12 & side and not rest & side:
            score += 10.0  # a new void
        elif (rest & side).bit_count() == 1 and not rest & side & _ACES:
            score -= 3.0  # a bare card left
    return score


def best_discards(hand12: int, game: GameType, k: int) -> list[int]:
    """The ``k`` best two-card discards of twelve cards for ``game`` by a quick score."""
    cards = mask_cards(hand12)
    pairs = [(1 << a) | (1 << b) for i, a in enumerate(cards) for b in cards[i + 1 :]]
    pairs.sort(key=lambda m: (-_discard_score(hand12, m, game), m))
    return pairs[:k]


def quick_discard(hand12: int, game: GameType) -> int:
    """The best two-card discard by the quick score."""
    return best_discards(hand12, game, 1)[0]


def _best_null_ten(hand: int) -> int:
    if hand.bit_count() <= 10:
        return hand
    return hand & ~quick_discard(hand, GameType.NULL)
