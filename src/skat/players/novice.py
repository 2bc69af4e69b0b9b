"""``novice``: the beginner level, a weak but plausible player (issue 25, point 5).

It bids and declares what its hand supports, as `heuristic` judges it, and
then plays like someone who has learned the rules but not yet the game:

- it bids by `heuristic`'s count but miscounts a little (its limit is off by
  up to one step either way), and never plays Hand, Schneider, Schwarz or
  Ouvert: it picks up the skat and announces the plain game;
- it puts away its two lowest cards instead of building a void or keeping
  a ten safe (now and then it does it right);
- it never says Kontra or Re;
- in the card play more than half of its cards (`MISTAKES`) follow a
  beginner's habit instead of judgement: leading a ten before its ace is
  gone or cashing a side ace at once (into a void and a trump) while keeping
  its trumps, throwing points on a trick the other side wins, keeping them
  back from one its own side wins; the rest are `heuristic`'s cards.

Against `heuristic` it loses about 24 Seeger-Fabian points per game
(docs/benchmarks.md); `random`, the beginner before it, lost 84.

Its choices come from its seeded ``rng``, so an arena run replays exactly.
"""

from __future__ import annotations

import random

from ..engine import Action, Announce, Contract, Discard, GameType, Phase, Play, View
from ..engine.actions import NoRe, Pickup, Re
from ..engine.cards import JACKS, POINTS, mask_cards
from ..engine.game import EFFECTIVE, TRICK_KEY, TRUMPS
from .heuristic import HeuristicPlayer
from .registry import register
from .strength import bid_limit

#: Share of cards played by a beginner's habit rather than `heuristic`'s judgement.
MISTAKES = 0.6
#: Share of discards made by judgement (the rest: the two lowest cards).
GOOD_DISCARDS = 0.3
#: The ladder of bids (R2.2) up to 60: a miscount moves the limit one step.
_STEPS = (18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60)


class NovicePlayer(HeuristicPlayer):
    """A beginner; see the module docstring."""

    name = "novice"

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self._miscount = self.rng.getrandbits(32)  # salts the miscount of each hand

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        ph = view.phase
        if ph is Phase.SKAT:
            # a beginner always picks up (Hand games come later)
            pick = next((a for a in legal if isinstance(a, Pickup)), None)
            if pick is not None:
                return pick
        if ph is Phase.DISCARD:
            return self._novice_discard(view, legal)
        if ph is Phase.DECLARE:
            return self._plain(super().choose(view), legal)
        if any(isinstance(a, Re | NoRe) for a in legal):
            return next(a for a in legal if isinstance(a, NoRe))
        plays = [a for a in legal if isinstance(a, Play)]
        if ph is Phase.PLAY and plays and len(plays) > 1 and self.rng.random() < MISTAKES:
            return self._mistake(view, plays)
        return super().choose(view)

    def _wants_kontra(self, view: View) -> bool:
        return False  # a beginner says no Kontra, on its turn or off it

    # -- auction: heuristic's count, miscounted by a step
    def _limit(self, view: View) -> int:
        limit = bid_limit(view.hand.mask, view.position == 0, self.aggression)
        if limit < 18:
            return limit
        # the miscount is the same for the whole auction (one per hand)
        shift = random.Random(view.hand.mask ^ self._miscount).choice((-1, 0, 1, 2))
        below = [s for s in _STEPS if s <= limit]
        at = len(below) - 1 if below else 0
        return _STEPS[max(0, min(len(_STEPS) - 1, at + shift))]

    # -- the declaration: plain games only
    def _plain(self, chosen: Action, legal: tuple[Action, ...]) -> Action:
        if not isinstance(chosen, Announce):
            return chosen
        c = chosen.contract
        if not (c.schneider or c.schwarz or c.ouvert):
            return chosen
        plain = Contract(c.game, hand=c.hand)
        for a in legal:
            if isinstance(a, Announce) and a.contract == plain:
                return a
        for a in legal:  # the plain game of any kind it may announce
            if isinstance(a, Announce) and not (
                a.contract.schneider or a.contract.schwarz or a.contract.ouvert
            ):
                return a
        return chosen

    def _novice_discard(self, view: View, legal: tuple[Action, ...]) -> Action:
        if self.rng.random() < GOOD_DISCARDS:
            return super().choose(view)
        # the two side cards that look least worth keeping: fewest points,
        # lowest rank (it would not put away a jack)
        cards = [int(c) for c in mask_cards(view.hand.mask & ~JACKS)]
        if len(cards) < 2:
            return super().choose(view)
        lowest = sorted(cards, key=lambda c: (POINTS[c], -(c % 8)))[:2]
        want = (1 << lowest[0]) | (1 << lowest[1])
        for a in legal:
            if isinstance(a, Discard) and (1 << a.cards[0]) | (1 << a.cards[1]) == want:
                return a
        return super().choose(view)

    # -- card play: a beginner's habits
    def _mistake(self, view: View, plays: list[Play]) -> Action:
        c = view.contract
        game = c.game if c is not None else GameType.GRAND
        trumps = TRUMPS[game]
        eff = EFFECTIVE[game]
        cards = [int(a.card) for a in plays]
        by_card = {int(a.card): a for a in plays}
        if not view.trick:
            side = [x for x in cards if not trumps >> x & 1]
            if side:
                # a ten led before its ace is gone, or an ace cashed at once
                # (into a void and a trump), trumps kept for later
                tens = [x for x in side if POINTS[x] == 10]
                return by_card[self.rng.choice(tens or side)]
            return by_card[self.rng.choice(cards)]
        # who wins the trick so far, and is that my own side?
        led = eff[int(view.trick[0][1])]
        keys = TRICK_KEY[game][led]
        seat, _ = max(view.trick, key=lambda sc: keys[int(sc[1])])
        declarer = view.declarer_seat
        mine = seat == view.seat or (
            declarer is not None and view.seat != declarer and seat != declarer
        )
        if mine:  # my side wins it: keep the points (no smearing)
            return by_card[min(cards, key=lambda x: (POINTS[x], -(x % 8)))]
        # the other side wins it: throw points on it all the same
        return by_card[max(cards, key=lambda x: (POINTS[x], -(x % 8)))]


@register("novice", public=True, summary="the beginner level: plausible bids, beginner's habits")
def _make(rng: random.Random) -> NovicePlayer:
    return NovicePlayer(rng)


__all__ = ["MISTAKES", "NovicePlayer"]
