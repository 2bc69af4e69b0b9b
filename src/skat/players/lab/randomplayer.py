"""``random``: uniformly random legal actions, with a bidding bar so that
games are real games (issue 4)."""

from __future__ import annotations

import random

from ...engine import Action, Bid, Hold, Pass, Phase, View
from ..base import BasePlayer
from ..registry import register_lab
from ..strength import best_suit, plain_value, trump_count


class RandomPlayer(BasePlayer):
    """Chooses uniformly among the legal actions, except in the auction: it
    passes unless its best suit has five trumps or more, and then goes up to
    the plain value of that suit game (no Hand, no Schneider)."""

    name = "random"

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if view.phase is Phase.BIDDING:
            return self._bid(view, legal)
        return legal[self.rng.randrange(len(legal))]

    def _bid(self, view: View, legal: tuple[Action, ...]) -> Action:
        hand = view.hand.mask
        game = best_suit(hand)
        if trump_count(hand, game) < 5:
            return Pass()
        limit = plain_value(hand, game)
        for action in legal:
            if isinstance(action, Hold):
                return action if view.bid <= limit else Pass()
            if isinstance(action, Bid):  # legal bids ascend: take the lowest
                return action if action.value <= limit else Pass()
        return Pass()


@register_lab("random", summary="a random legal action")
def _make(rng: random.Random) -> RandomPlayer:
    return RandomPlayer(rng)
