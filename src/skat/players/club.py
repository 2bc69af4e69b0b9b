"""``club``: the casual level, a club player (issue 25, point 5).

It plays its cards by a short search (`SearchPlayer` over ``CARD_WORLDS``
worlds within ``CARD_BUDGET`` seconds, heuristic's card where the compiled
solver is missing or the time runs out), and makes every decision before
the card play by the learned hand evaluator (`skat.players.handeval`):

- bidding: it holds as long as some game of its ten cards is worth the bid
  and its expected Seeger-Fabian result is above ``BID_FLOOR``: the
  evaluator's chances of winning and of Schneider before the skat (pickup)
  or without it (Hand);
- Hand or pickup: Hand when the best Hand game promises ``HAND_MARGIN``
  more than the best pickup game;
- the discard and the game: every pair put away with every game it can
  announce at the bid, valued by the evaluator on the ten cards kept (the
  points put away count for it), the best expectation taken.

Kontra, Re and Ramsch are `heuristic`'s. The evaluator costs a few hundred
arithmetic operations a game; a card decision searches at most 15 ms, so
the registry's cost is ``light``: the server runs it in its search
processes without counting the table as a strong one (docs/benchmarks.md).
"""

from __future__ import annotations

import random

from ..engine import Action, Announce, Contract, Discard, GameType, Phase, Pickup, Play, View
from ..engine.cards import JACKS, POINTS, mask_cards
from ..engine.game import BASE_VALUE, TRUMPS
from .handeval import Chances, Evaluator, default, expected_result, game_value
from .heuristic import HeuristicPlayer
from .registry import register
from .search import SearchPlayer
from .strength import null_profile

CARD_WORLDS = 4  # worlds the card play searches (the time budget may cut them short)
CARD_BUDGET = 0.015  # seconds a card decision searches at most
BID_FLOOR = 0.0  # expected result a game must promise for a bid (passing scores 0)
HAND_MARGIN = 5.0  # how much more a Hand game must promise than picking up
GAMES = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS, GameType.GRAND)
_NULL = GameType.NULL


def considered(hand: int, game: GameType, counted: bool = False) -> bool:
    """The games the evaluator judges (it was trained on these; others are
    hopeless): a suit with four trumps, Grand with two jacks or one and
    three aces, Null without too much danger."""
    if game == _NULL:
        return null_profile(hand)[1] <= (1.5 if counted else 2.0)
    if game == GameType.GRAND:
        nj = (hand & JACKS).bit_count()
        aces = sum(hand >> (8 * u) & 1 for u in range(4))
        return nj >= 2 or (nj == 1 and aces >= 3)
    return (hand & TRUMPS[game]).bit_count() >= 4


class ClubPlayer(HeuristicPlayer):
    name = "club"

    def __init__(self, rng: random.Random | None = None, evaluator: Evaluator | None = None):
        super().__init__(rng)
        self.evaluator = evaluator or default()
        self.floor = BID_FLOOR
        self.margin = HAND_MARGIN
        # the card play: a short search over a few worlds (heuristic's card
        # when the compiled solver is missing or the time is up)
        self.cards = SearchPlayer(rng, worlds=CARD_WORLDS, time_budget=CARD_BUDGET)

    def choose(self, view: View) -> Action:
        c = view.contract
        if (
            view.phase is Phase.PLAY
            and c is not None
            and c.game != GameType.RAMSCH
            and len(view.legal_actions) > 1
            and any(isinstance(a, Play) for a in view.legal_actions)
        ):
            return self.cards.choose(view)
        return super().choose(view)

    # -- the evaluator's view of a hand
    def _options(
        self, hand: int, position: int, stage: str, bid: int = 0
    ) -> list[tuple[float, GameType, int]]:
        """(expected result at ``bid``, game, the value it may bid to) of
        every game considered, before the skat (stage ``pickup`` or
        ``hand``)."""
        out = []
        is_hand = stage == "hand"
        for game in (*GAMES, _NULL):
            if not considered(hand, game):
                continue
            ch = self.evaluator.chances(hand, game, position, stage)
            value = game_value(game, hand, hand=is_hand)
            score = expected_result(ch, game, value, bid)
            if game != _NULL and ch.schneider > 0.6:
                value += BASE_VALUE[game]  # bid on Schneider only when it is likely
            out.append((score, game, value))
        return out

    def _limit(self, view: View) -> int:
        hand = view.hand.mask
        pos = view.position or 0
        best = 0
        for stage in ("pickup", "hand"):
            for score, _game, value in self._options(hand, pos, stage):
                if score > self.floor:
                    best = max(best, value)
        return best

    def _skat(self, view: View, legal: tuple[Action, ...]) -> Action:
        hand = view.hand.mask
        pos = view.position or 0
        pick = max((s for s, _, _ in self._options(hand, pos, "pickup", view.bid)), default=-1e9)
        hands = self._options(hand, pos, "hand", view.bid)
        if hands:
            score, game, _ = max(hands, key=lambda o: o[0])
            if score > pick + self.margin:
                target = Contract(game, hand=True)
                for a in legal:
                    if isinstance(a, Announce) and a.contract == target:
                        return a
        return next(a for a in legal if isinstance(a, Pickup))

    def _counted(
        self, kept: int, cards12: int, pts: int, pos: int, bid: int, game: GameType
    ) -> float:
        ch: Chances = self.evaluator.chances(kept, game, pos, "counted", pts)
        return expected_result(ch, game, game_value(game, cards12), bid)

    def _best_put_away(self, view: View) -> tuple[float, int, GameType | None]:
        """(expectation, the two cards as a mask, the game) of the best
        discard with the best game for the ten kept."""
        cards12 = view.hand.mask
        pos = view.position or 0
        cards = mask_cards(cards12)
        best: tuple[float, int, GameType | None] = (-1e18, 0, None)
        for i, a in enumerate(cards):
            for b in cards[i + 1 :]:
                mask = (1 << a) | (1 << b)
                kept = cards12 & ~mask
                pts = POINTS[a] + POINTS[b]
                for g in (*GAMES, _NULL):
                    if not considered(kept, g, counted=True):
                        continue
                    s = self._counted(kept, cards12, pts, pos, view.bid, g) + pts / 100
                    if s > best[0]:
                        best = (s, mask, g)
        return best

    def _discard(self, view: View, legal: tuple[Action, ...]) -> Action:
        _, mask, game = self._best_put_away(view)
        if game is None:
            return super()._discard(view, legal)
        for a in legal:
            if isinstance(a, Discard) and (1 << a.cards[0]) | (1 << a.cards[1]) == mask:
                return a
        return super()._discard(view, legal)

    def _declare(self, view: View, legal: tuple[Action, ...]) -> Action:
        hand = view.hand.mask
        skat = view.skat.mask if view.skat is not None else 0
        pts = sum(POINTS[c] for c in mask_cards(skat))
        pos = view.position or 0
        allowed = {a.contract: a for a in legal if isinstance(a, Announce)}
        ranked = []
        for g in (*GAMES, _NULL):
            c = Contract(g)
            if c not in allowed or not considered(hand, g, counted=True):
                continue
            ranked.append((self._counted(hand, hand | skat, pts, pos, view.bid, g), c))
        if ranked:
            return allowed[max(ranked, key=lambda r: r[0])[1]]
        return super()._declare(view, legal)


@register(
    "club",
    cost="light",
    public=True,
    summary="the casual level: bids by the learned hand evaluator, plays by a 15 ms search",
)
def _make(rng: random.Random) -> ClubPlayer:
    return ClubPlayer(rng)
