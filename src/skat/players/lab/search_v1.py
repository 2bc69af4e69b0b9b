"""``search-v1``: the first ``search`` player, frozen as it was when the work on
its strength against the improved `heuristic` began, so that the arena can
measure `search` against it (as `heuristic-v1` does for `heuristic`). Do not
improve this module; improve `search`.

The first `search`: a Perfect Information Monte Carlo player (issue 9, point 2).

For every decision it deals the cards it cannot see into *worlds* that fit
its `View` (`worlds.Sampler`: played cards, voids, its own hand and skat,
Ouvert cards, weighted by what the auction and the game choice say), asks
the exact open-card solver (`skat.players.solver`) about each world, and
chooses the action with the best expected Seeger-Fabian result (R8.2).

Card play
    For each world and each legal card the solver's zero-window questions
    give the outcome class after that card: does the declarer reach 61
    (or 90 / every trick when announced), then, for the cards still in the
    running, Schneider (90, or out of it at 31) and Schwarz. Each class is
    valued by the engine's own `value_game`: the declarer's entry with the
    50 points, the defenders' 40 (30 at four players) when he loses. The
    declarer maximises his expected entry; the defenders, as a team,
    maximise their bonus minus the declarer's entry. Ties go to
    `heuristic`'s card among the tied ones. Null: `null_wins`.
Kontra and Re
    From the declarer's win probability over the worlds at that moment.
Bidding, Hand or pickup, the discard and the game
    Simulated with the solver over sampled skats and opponents' hands: for
    each plausible game (suits with four trumps or more, Grand, Null and
    Null Ouvert, each as pickup with a quick per-game discard and as Hand,
    Hand with Schneider announced) the fraction of worlds in which the
    declarer reaches 61 and 90 points plus ``margin`` (-8: the open-card
    defence is stronger than a real one, so the solve is pessimistic for
    the declarer; see docs/players.md for the calibration). The bid goes
    up while the expected entry beats what passing is worth. After the
    pickup, every plausible game with its best few discards (of the 66) is
    solved in new worlds of the opponents' hands.

Determinism and time: with ``time_budget=None`` (the registry default,
which the arena and the tests use) the player solves a fixed number of
worlds (``worlds`` for card play, ``bid_worlds`` for the auction and the
declaration, fewer in the first tricks), so a seed replays exactly. With a
``time_budget`` in seconds (the server's choice) it stops adding worlds
when the time is up: anytime, but no longer reproducible. Whatever fails
(no solver, no world, no time) falls back to `heuristic`'s choice, never
to the first legal action. Ramsch (no declarer; the solver knows no Ramsch)
is played by `heuristic`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from ...engine import (
    BID_VALUES,
    Action,
    Announce,
    Bid,
    Contract,
    Discard,
    GameType,
    Hold,
    Kontra,
    NoKontra,
    NoRe,
    Pass,
    Phase,
    Pickup,
    Play,
    Re,
    View,
)
from ...engine.cards import JACKS, POINTS, SUIT_MASKS, mask_cards, mask_points
from ...engine.game import NULL_VALUES, TRUMPS
from ...engine.values import seeger_fabian_others, value_game
from ..base import BasePlayer
from ..cardplay import CardPlay
from ..heuristic import HeuristicPlayer
from ..registry import register_lab
from ..strength import null_risk
from ..worlds import Knowledge, Sampler, World

_SUITS = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS)
_ACES = sum(1 << (8 * s) for s in range(4))
_NULL_RANK = (7, 3, 2, 4, 1, 0, -1, -2)  # A K Q J T 9 8 7: higher is more dangerous in Null

#: Representative (card points, tricks) of each outcome class of a suit or Grand game.
_LOST_SCHNEIDER = (25, 2)
_LOST = (45, 4)
_WON = (75, 6)
_SCHNEIDER = (95, 8)
_SCHWARZ = (120, 10)
#: Plain Null is not played open: the defenders do not see the declarer's
#: cards, so of the Nulls the open-card solve loses this share is counted won.
NULL_HIDDEN = 0.3
#: Worlds after which a game that has won none of them is given up.
PROBE = 3
#: Candidate discards per game (by the quick score) solved after the pickup.
DISCARDS = 3
#: After PROBE worlds of the discard, a second game goes on only this close to the best.
DISCARD_SPREAD = 25.0
#: A Hand game is solved only when the same game after a pickup wins this share.
HAND_TRY = 0.6
#: Kontra when the declarer wins at most this share of the worlds; Re when at least.
KONTRA_P = 0.35
RE_P = 0.8


def _solver() -> ModuleType | None:
    try:
        from .. import solver
    except ImportError:  # pragma: no cover - the solver ships with the package
        return None
    return solver


class _OutOfTime(Exception):
    pass


@dataclass
class _Clock:
    deadline: float | None

    def check(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _OutOfTime

    @property
    def over(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline


@dataclass(frozen=True)
class _Option:
    """A game the declarer might play, as it would be announced."""

    contract: Contract
    pickup: bool


class SearchPlayerV1(BasePlayer):
    """The first PIMC player; see the module docstring."""

    name = "search-v1"

    def __init__(
        self,
        rng: random.Random | None = None,
        *,
        worlds: int = 20,
        bid_worlds: int = 8,
        time_budget: float | None = None,
        strict: bool = False,
        margin: int = -8,
        pass_value: float = 8.0,
    ) -> None:
        """``worlds``/``bid_worlds``: worlds per card-play and per auction or
        declaration decision (the most, with a ``time_budget``); ``strict``
        lets errors out instead of falling back (for tests); ``margin``: card
        points added to 61 and 90 in the open-card games solved before play
        (negative: those solves are pessimistic); ``pass_value``: what
        passing is worth (a defender's share)."""
        super().__init__(rng)
        self.worlds = worlds
        self.bid_worlds = bid_worlds
        self.time_budget = time_budget
        self.strict = strict
        self.margin = margin
        self.pass_value = pass_value
        self.fallback = HeuristicPlayer(random.Random(self.rng.getrandbits(64)))
        self._bidding: dict[tuple[int, int], dict[_Option, list[tuple[bool, bool, int]]]] = {}
        self._plan: dict[tuple[int, int], Contract] = {}
        self.fallbacks = 0  # decisions left to `heuristic` because of a failure or the clock

    # ----------------------------------------------------------------- entry
    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if view.contract is not None and view.contract.game == GameType.RAMSCH:
            return self.fallback.choose(view)  # the solver has no Ramsch
        clock = _Clock(None if self.time_budget is None else time.perf_counter() + self.time_budget)
        action: Action | None
        try:
            action = self._choose(view, clock)
        except _OutOfTime:
            action = None
        except Exception:
            if self.strict:
                raise
            action = None
        if action is None or action not in legal:
            self.fallbacks += 1
            return self.fallback.choose(view)
        return action

    def _choose(self, view: View, clock: _Clock) -> Action | None:
        solver = _solver()
        if solver is None:
            return None
        ph = view.phase
        legal = view.legal_actions
        know = Knowledge.from_view(view)
        if ph is Phase.BIDDING:
            return self._bid(view, know, solver, clock)
        if ph is Phase.SKAT:
            return self._skat(view, know, solver, clock)
        if ph is Phase.DISCARD:
            return self._discard(view, know, solver, clock)
        if ph is Phase.DECLARE:
            return self._declare(view, know, solver, clock)
        if any(isinstance(a, (Re, NoRe)) for a in legal):
            p = self._win_probability(view, know, solver, clock)
            re_choice: type[Action] = Re if p >= RE_P else NoRe
            return next(a for a in legal if isinstance(a, re_choice))
        if ph is Phase.KONTRA:
            p = self._win_probability(view, know, solver, clock)
            kontra_choice: type[Action] = Kontra if p <= KONTRA_P else NoKontra
            return next((a for a in legal if isinstance(a, kontra_choice)), None)
        return self._play(view, know, solver, clock)

    # ------------------------------------------------------------- card play
    def _count(self, view: View) -> int:
        """Worlds for a card decision: fewer while the solves are long."""
        left = len(view.hand)
        if left >= 9:
            return max(4, self.worlds // 2)
        if left >= 7:
            return max(6, (3 * self.worlds) // 4)
        return self.worlds

    def _positions(
        self, view: View, know: Knowledge, worlds: Sequence[tuple[World, int]], solver: ModuleType
    ) -> list[tuple[Any, World, int]]:
        c = view.contract
        assert c is not None
        game = c.game
        d = know.declarer
        pos_of = {s: p for p, s in enumerate(view.seats)}
        if view.trick:
            leader = pos_of[view.trick[0][0]]
        elif view.tricks:
            leader = view.tricks[-1].winner
        else:
            leader = 0
        trick = tuple(int(card) for _, card in view.trick)
        won = [t for t in view.tricks if t.winner == d]
        points = sum(t.points for t in won)
        out = []
        for world, mult in worlds:
            pts = points if game == GameType.NULL else points + mask_points(world.skat)
            pos = solver.Position(
                game,
                world.hands,
                d,
                leader,
                trick,
                pts,
                len(won),
                len(view.tricks) - len(won),
            )
            out.append((pos, world, mult))
        return out

    def _play(
        self, view: View, know: Knowledge, solver: ModuleType, clock: _Clock
    ) -> Action | None:
        legal = view.legal_actions
        plays = [a for a in legal if isinstance(a, Play)]
        kontra = next((a for a in legal if isinstance(a, Kontra)), None)
        if not plays:
            return None
        c = view.contract
        assert c is not None
        if len(plays) == 1 and kontra is None:
            return plays[0]
        cards = [int(a.card) for a in plays]
        worlds = Sampler(know).weighted(self.rng, self._count(view))
        evaluator = _Evaluator(view, know, solver, c)
        me_declarer = know.me == know.declarer
        util = evaluator.utility(me_declarer)
        # pass 1: the deciding threshold for every card in every world
        done: list[tuple[int, int, dict[int, tuple[bool, Any]]]] = []  # (mult, cards12, per card)
        for pos, world, mult in self._positions(view, know, worlds, solver):
            if done and clock.over:
                break
            per: dict[int, tuple[bool, Any]] = {}
            for card in cards:
                after = pos.play(card)
                per[card] = (evaluator.primary(after), after)
            done.append((mult, evaluator.cards12(world), per))
        if not done:
            return None
        total = sum(m for m, _, _ in done)
        wins = {card: sum(m for m, _, per in done if per[card][0]) for card in cards}
        if kontra is not None and not me_declarer:
            if min(wins.values()) / total <= KONTRA_P:
                return kontra
        if len(plays) == 1:
            return plays[0]
        if me_declarer:
            best = max(wins.values())
            running = [card for card in cards if wins[card] >= best - 1]
        else:
            best = min(wins.values())
            running = [card for card in cards if wins[card] <= best + 1]
        # pass 2: Schneider and Schwarz for the cards still in the running,
        # world by world (a world not refined in time keeps its coarse class)
        scores = dict.fromkeys(running, 0.0)
        refine = len(running) > 1
        for mult, cards12, per in done:
            if refine and clock.over:
                refine = False
            for card in running:
                ok, after = per[card]
                out = evaluator.outcome(ok, after) if refine else evaluator.coarse(ok)
                scores[card] += mult * util(out, cards12)
        top = max(scores.values())
        tied = [card for card in running if scores[card] >= top - 1e-9]
        choice = tied[0] if len(tied) == 1 else CardPlay(view).choose(tied)
        return next(a for a in plays if a.card == choice)

    def _win_probability(
        self, view: View, know: Knowledge, solver: ModuleType, clock: _Clock
    ) -> float:
        c = view.contract
        assert c is not None
        worlds = Sampler(know).weighted(self.rng, self._count(view))
        evaluator = _Evaluator(view, know, solver, c)
        won = total = 0
        for pos, _, mult in self._positions(view, know, worlds, solver):
            if total and clock.over:
                break
            won += mult * evaluator.primary(pos)
            total += mult
        if not total:
            raise _OutOfTime
        return won / total

    # ---------------------------------------------------------------- auction
    def _options(self, hand: int, pickup_only: bool) -> list[_Option]:
        """Plausible games for a hand (ten cards before pickup, twelve after)."""
        out: list[_Option] = []
        counts = sorted(((hand & TRUMPS[g]).bit_count(), -int(g), g) for g in _SUITS)
        suits = [g for n, _, g in counts[-2:] if n >= 4]
        games: list[GameType] = list(suits)
        jacks = (hand & JACKS).bit_count()
        aces = (hand & _ACES).bit_count()
        if jacks >= 2 or (jacks == 1 and aces >= 3):
            games.append(GameType.GRAND)
        for g in games:
            out.append(_Option(Contract(g), True))
            if not pickup_only:
                out.append(_Option(Contract(g, hand=True), False))
                out.append(_Option(Contract(g, hand=True, schneider=True), False))
        if null_risk(_best_null_ten(hand)) <= 2:
            out.append(_Option(Contract(GameType.NULL), True))
            out.append(_Option(Contract(GameType.NULL, ouvert=True), True))
            if not pickup_only:
                out.append(_Option(Contract(GameType.NULL, hand=True), False))
                out.append(_Option(Contract(GameType.NULL, hand=True, ouvert=True), False))
        return out

    def _simulate(
        self, view: View, know: Knowledge, solver: ModuleType, clock: _Clock
    ) -> dict[_Option, list[tuple[bool, bool, int]]]:
        """Per option, per world: (won, Schneider, the declarer's twelve dealt cards)."""
        hand = view.hand.mask
        me = know.me
        got = self._bidding.get((hand, me))
        if got is not None:
            return got
        options = self._options(hand, pickup_only=False)
        results: dict[_Option, list[tuple[bool, bool, int]]] = {o: [] for o in options}
        if not options:
            self._bidding[(hand, me)] = results
            return results
        worlds = Sampler(know).weighted(self.rng, self.bid_worlds)
        # pickup games first; a Hand game is worth solving only where the
        # same game after a pickup already wins most worlds
        keys = sorted({(o.contract.game, o.pickup) for o in options}, key=lambda k: not k[1])
        solved: dict[tuple[GameType, bool], list[tuple[bool, bool, int]]] = {}
        for g, pickup in keys:
            if not pickup:
                base = solved.get((g, True), [])
                if not base or sum(r[0] for r in base) < HAND_TRY * len(base):
                    continue
            rows: list[tuple[bool, bool, int]] = []
            for i, (world, mult) in enumerate(worlds):
                if rows and clock.over:
                    break
                if i == PROBE and not any(r[0] for r in rows):
                    break  # lost in every world so far: not worth the rest
                skat = world.skat
                cards12 = hand | skat
                if pickup:
                    discard = quick_discard(cards12, g)
                    mine, pts = cards12 & ~discard, mask_points(discard)
                else:
                    mine, pts = hand, mask_points(skat)
                hands = list(world.hands)
                hands[me] = mine
                res = self._solve_start(solver, g, hands, me, pts)
                rows += [(*res, cards12)] * mult
            solved[(g, pickup)] = rows
        for o in options:
            results[o] = solved.get((o.contract.game, o.pickup), [])
        self._bidding[(hand, me)] = results
        return results

    def _solve_start(
        self, solver: ModuleType, game: GameType, hands: list[int], declarer: int, points: int
    ) -> tuple[bool, bool]:
        """(wins, Schneider) of a game from its first card, all cards open."""
        if game == GameType.NULL:
            pos = solver.Position(game, (hands[0], hands[1], hands[2]), declarer, 0)
            return bool(solver.null_wins(pos)), False
        pos = solver.Position(game, (hands[0], hands[1], hands[2]), declarer, 0, (), points)
        if not solver.reaches(pos, 61 + self.margin):
            return False, False
        return True, bool(solver.reaches(pos, 90 + self.margin))

    def _expected(self, option: _Option, bid: int, rows: list[tuple[bool, bool, int]]) -> float:
        """The declarer's expected Seeger-Fabian entry for ``option`` at ``bid``."""
        if not rows:
            return -1000.0
        c = option.contract
        s = 0.0
        for won, schneider, cards12 in rows:
            if c.game == GameType.NULL:
                win = value_game(c, bid, 0, 0, cards12).seeger_fabian_entry()
                if won:
                    s += win
                    continue
                loss = value_game(c, bid, 0, 1, cards12).seeger_fabian_entry()
                hidden = 0.0 if c.ouvert else NULL_HIDDEN
                s += hidden * win + (1 - hidden) * loss
                continue
            if c.schneider:
                points, tricks = _SCHNEIDER if schneider else _LOST
            else:
                points, tricks = _SCHNEIDER if schneider else _WON if won else _LOST
            s += value_game(c, bid, points, tricks, cards12).seeger_fabian_entry()
        return s / len(rows)

    def _limit(self, view: View, know: Knowledge, solver: ModuleType, clock: _Clock) -> int:
        results = self._simulate(view, know, solver, clock)
        best = 0
        for option, rows in results.items():
            for b in BID_VALUES:
                if self._expected(option, b, rows) >= self.pass_value:
                    best = max(best, b)
                else:
                    break
        return best

    def _bid(self, view: View, know: Knowledge, solver: ModuleType, clock: _Clock) -> Action:
        limit = self._limit(view, know, solver, clock)
        for a in view.legal_actions:
            if isinstance(a, Hold):
                return a if view.bid <= limit else Pass()
            if isinstance(a, Bid):
                return a if a.value <= limit else Pass()
        return Pass()

    def _skat(
        self, view: View, know: Knowledge, solver: ModuleType, clock: _Clock
    ) -> Action | None:
        results = self._simulate(view, know, solver, clock)
        legal = view.legal_actions
        best_pickup = max(
            (self._expected(o, view.bid, r) for o, r in results.items() if o.pickup),
            default=-1000.0,
        )
        best_hand: tuple[float, Action] | None = None
        for o, rows in results.items():
            if o.pickup:
                continue
            a = Announce(o.contract.normalised())
            if a not in legal:
                continue
            e = self._expected(o, view.bid, rows)
            if best_hand is None or e > best_hand[0]:
                best_hand = (e, a)
        if best_hand is not None and best_hand[0] > max(best_pickup, 0.0):
            return best_hand[1]
        return next(a for a in legal if isinstance(a, Pickup))

    def _discard(
        self, view: View, know: Knowledge, solver: ModuleType, clock: _Clock
    ) -> Action | None:
        """The game and its discard, chosen together: every plausible game with
        its best few discards by the quick score, solved in worlds of the
        opponents' hands; after the first few worlds only the best
        candidates go on (successive halving)."""
        hand12 = view.hand.mask
        legal = view.legal_actions
        options = [
            o
            for o in self._options(hand12, pickup_only=True)
            if o.contract.game != GameType.NULL or NULL_VALUES[False, o.contract.ouvert] >= view.bid
        ]
        if not options:
            return None
        candidates: list[tuple[_Option, int]] = []
        for o in options:
            g = o.contract.game
            if g == GameType.NULL and o.contract.ouvert and len(options) > 1:
                if any(x.contract == Contract(GameType.NULL) for x in options):
                    continue  # solved together with plain Null
            for discard in best_discards(hand12, g, DISCARDS):
                candidates.append((o, discard))
        worlds = Sampler(know).weighted(self.rng, self.bid_worlds)
        me = know.me
        rows: dict[tuple[_Option, int], list[tuple[bool, bool, int]]] = {k: [] for k in candidates}

        def variants(o: _Option) -> list[_Option]:
            if o.contract.game == GameType.NULL:
                return [
                    _Option(Contract(GameType.NULL, ouvert=ouvert), True)
                    for ouvert in (False, True)
                    if NULL_VALUES[False, ouvert] >= view.bid
                ]
            return [o]

        def score(k: tuple[_Option, int]) -> tuple[float, Contract]:
            o, discard = k
            best_v = max(variants(o), key=lambda v: self._expected(v, view.bid, rows[k]))
            e = self._expected(best_v, view.bid, rows[k]) + mask_points(discard) / 100
            return e, best_v.contract

        # first the best quick discard of each game; after PROBE worlds the
        # two best games go on with all their candidate discards
        solved_n = dict.fromkeys(candidates, 0)

        def advance(k: tuple[_Option, int], upto: int) -> None:
            o, discard = k
            hands_mine = hand12 & ~discard
            for world, mult in worlds[solved_n[k] : upto]:
                hands = list(world.hands)
                hands[me] = hands_mine
                res = self._solve_start(solver, o.contract.game, hands, me, mask_points(discard))
                rows[k] += [(*res, hand12)] * mult
            solved_n[k] = max(solved_n[k], upto)

        firsts = {o: best_discards(hand12, o.contract.game, 1)[0] for o, _ in candidates}
        alive = [k for k in candidates if k[1] == firsts[k[0]]]
        done = 0
        for i in range(len(worlds)):
            if done and clock.over:
                break
            if i == PROBE:
                alive.sort(key=lambda k: -score(k)[0])
                top = score(alive[0])[0]
                games = {k[0] for k in alive[:2] if score(k)[0] >= top - DISCARD_SPREAD}
                alive = [k for k in candidates if k[0] in games]
            for k in alive:
                advance(k, i + 1)
            done = i + 1
        if not done:
            return None
        ranked = max(alive, key=lambda k: score(k)[0])
        contract = score(ranked)[1]
        discard = ranked[1]
        self._plan[(hand12 & ~discard, discard)] = contract
        cards = tuple(mask_cards(discard))
        return next((a for a in legal if isinstance(a, Discard) and a.cards == cards), None)

    def _declare(
        self, view: View, know: Knowledge, solver: ModuleType, clock: _Clock
    ) -> Action | None:
        legal = view.legal_actions
        hand = view.hand.mask
        skat = view.skat.mask if view.skat is not None else 0
        contract = self._plan.get((hand, skat))
        if contract is None:
            contract = self._replan(view, know, solver, clock, hand, skat)
        if contract is None:
            return None
        a = Announce(contract)
        if a in legal:
            return a
        return None

    def _replan(
        self,
        view: View,
        know: Knowledge,
        solver: ModuleType,
        clock: _Clock,
        hand: int,
        skat: int,
    ) -> Contract | None:
        options = [
            o
            for o in self._options(hand | skat, pickup_only=True)
            if Announce(o.contract) in view.legal_actions
        ]
        if not options:
            return None
        worlds = Sampler(know).weighted(self.rng, self.bid_worlds)
        rows: dict[_Option, list[tuple[bool, bool, int]]] = {o: [] for o in options}
        me = know.me
        for world, mult in worlds:
            if rows[options[0]] and clock.over:
                break
            cache: dict[GameType, tuple[bool, bool]] = {}
            for o in options:
                g = o.contract.game
                if g not in cache:
                    hands = list(world.hands)
                    hands[me] = hand
                    cache[g] = self._solve_start(solver, g, hands, me, mask_points(skat))
                for _ in range(mult):
                    rows[o].append((*cache[g], hand | skat))
        best = max(options, key=lambda o: self._expected(o, view.bid, rows[o]))
        return best.contract


class _Evaluator:
    """Outcome classes and utilities of one card decision."""

    def __init__(self, view: View, know: Knowledge, solver: ModuleType, contract: Contract) -> None:
        self.view = view
        self.know = know
        self.solver = solver
        self.contract = contract
        self.game = contract.game
        self.factor = 4 if view.re else 2 if view.kontra else 1
        d = know.declarer
        self.declarer_played = know.played_by[d]

    def cards12(self, world: World) -> int:
        """The declarer's ten dealt cards and the skat in this world (for matadors)."""
        d = self.know.declarer
        return world.hands[d] | self.declarer_played | world.skat

    def coarse(self, won: bool) -> tuple[int, int]:
        """The class of a position known only to be won or lost."""
        if self.game == GameType.NULL:
            return (0, 0) if won else (0, 1)
        if self.contract.schwarz:
            return _SCHWARZ if won else _LOST
        if self.contract.schneider:
            return _SCHNEIDER if won else _LOST
        return _WON if won else _LOST

    def primary(self, pos: Any) -> bool:
        """Does the declarer make his contract from this position (all cards open)?"""
        s = self.solver
        c = self.contract
        if self.game == GameType.NULL:
            return bool(s.null_wins(pos))
        if c.schwarz:
            return bool(s.takes_all(pos))
        return bool(s.reaches(pos, 90 if c.schneider else 61))

    def outcome(self, won: bool, pos: Any) -> tuple[int, int]:
        """Representative (declarer points, tricks) of the class of this position."""
        s = self.solver
        c = self.contract
        if self.game == GameType.NULL:
            return (0, 0) if won else (0, 1)
        if c.schwarz:
            return _SCHWARZ if won else _LOST
        if won:
            if not c.schneider and not s.reaches(pos, 90):
                return _WON
            if pos.defender_tricks == 0 and s.takes_all(pos):
                return _SCHWARZ
            return _SCHNEIDER
        if c.schneider:
            return _LOST if s.reaches(pos, 31) else _LOST_SCHNEIDER
        return _LOST if s.reaches(pos, 31) else _LOST_SCHNEIDER

    def utility(self, declarer: bool) -> Callable[[tuple[int, int], int], float]:
        c = self.contract
        bid = self.view.bid
        players = self.view.players
        factor = self.factor

        def u(outcome: tuple[int, int], cards12: int) -> float:
            points, tricks = outcome
            v = value_game(c, bid, points, tricks, cards12)
            entry = v.seeger_fabian_entry(factor)
            if declarer:
                return float(entry)
            return float(seeger_fabian_others(v.won, players) - entry)

        return u


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
    """The best two-card discard by the quick score (for simulated pickups)."""
    return best_discards(hand12, game, 1)[0]


def _best_null_ten(hand: int) -> int:
    if hand.bit_count() <= 10:
        return hand
    return hand & ~quick_discard(hand, GameType.NULL)


@register_lab(
    "search-v1", cost="search", summary="search as first measured (issue 9), no time budget"
)
def _make(rng: random.Random) -> SearchPlayerV1:
    return SearchPlayerV1(rng)
