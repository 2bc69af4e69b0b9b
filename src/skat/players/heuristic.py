"""``heuristic``: a rule-based player for every decision (issue 4).

It reads only its `View`: its hand, the public auction, the tricks, the skat
once it has picked it up, open Ouvert cards. Everything else it infers from
what was played (voids, trumps and points gone). Stateless between calls, so
a seat can change hands (a reload, a server restart) without harm. Its counts
are in `skat.players.strength`, its card play in `skat.players.cardplay`.
"""

from __future__ import annotations

import random

from ..engine import (
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
from ..engine.cards import JACKS, POINTS, mask_cards
from ..engine.game import BASE_VALUE, TRUMPS
from .base import BasePlayer
from .cardplay import CardPlay
from .registry import register
from .strength import (
    COUNTED_GRAND,
    COUNTED_SUIT,
    SUIT_JACKS,
    SUITS,
    best_discard,
    bid_limit,
    counted_games,
    expected_score,
    game_score,
    null_profile,
    plans,
    suit_strength,
    win_chance,
)

KONTRA_SUIT = 7.2  # defence strength at which a defender says Kontra against a suit game
KONTRA_GRAND = 6.4  # ... against Grand
HAND_MARGIN = 5.0  # how much more a Hand game must promise than the best pickup game
RE_SURE = 0.97  # win chance at which the declarer answers Kontra with Re


class HeuristicPlayer(BasePlayer):
    """A club-strength rule-based player; see the module docstring."""

    name = "heuristic"

    def __init__(self, rng: random.Random | None = None, aggression: float = 0.0) -> None:
        super().__init__(rng)
        self.aggression = aggression

    def choose(self, view: View) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        ph = view.phase
        if ph is Phase.BIDDING:
            return self._bid(view, legal)
        if ph is Phase.SKAT:
            return self._skat(view, legal)
        if ph is Phase.DISCARD:
            return self._discard(view, legal)
        if ph is Phase.DECLARE:
            return self._declare(view, legal)
        if ph is Phase.PUSH:
            return self._push(view, legal)
        if any(isinstance(a, (Re, NoRe)) for a in legal):
            return self._re(view, legal)
        if any(isinstance(a, (Kontra, NoKontra)) for a in legal):
            k = self._kontra(view, legal)
            if k is not None:
                return k
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return legal[0]
        card = CardPlay(view).choose([a.card for a in plays])
        return next(a for a in plays if a.card == card)

    def offturn(self, view: View) -> Action | None:
        """Kontra off one's turn (R9.3), by the same judgement as on it."""
        if any(isinstance(a, Kontra) for a in view.legal_actions) and self._wants_kontra(view):
            return next(a for a in view.legal_actions if isinstance(a, Kontra))
        return None

    # -- Schieberamsch (engine/ramsch.py)
    def _push(self, view: View, legal: tuple[Action, ...]) -> Action:
        """A hand that can hardly take a trick pushes the skat on unseen (and
        doubles the deal for the others); any other takes it up and pushes on
        the two cards most likely to take points: aces and tens first,
        from the shortest suits."""
        hand = view.hand.mask
        pushes = [a for a in legal if isinstance(a, Discard)]
        if not pushes:
            danger = 0.0
            for c in mask_cards(hand):
                danger += 3.0 if 1 << c & JACKS else {11: 2.0, 10: 1.5, 4: 0.5}.get(POINTS[c], 0.0)
            want = Pass() if danger <= 1.0 else Pickup()
            return next((a for a in legal if a == want), legal[0])

        def risk(card: int) -> float:
            suit_len = (hand >> (8 * (card // 8)) & 255).bit_count()
            return POINTS[card] * 2 + (card % 8) * 0.1 - suit_len * 0.5

        return max(pushes, key=lambda a: risk(a.cards[0]) + risk(a.cards[1]))

    # -- auction
    def _limit(self, view: View) -> int:
        return bid_limit(view.hand.mask, view.position == 0, self.aggression)

    def _bid(self, view: View, legal: tuple[Action, ...]) -> Action:
        limit = self._limit(view)
        for a in legal:
            if isinstance(a, Hold):
                return a if view.bid <= limit else Pass()
            if isinstance(a, Bid):
                return a if a.value <= limit else Pass()
        return Pass()

    # -- declaration
    def _skat(self, view: View, legal: tuple[Action, ...]) -> Action:
        hand = view.hand.mask
        forehand = view.position == 0
        options = [p for p in plans(hand, True, forehand) if p.value >= view.bid]
        best_pick = max(
            (expected_score(p.win, p.value) for p in options if not p.hand), default=-1e9
        )
        hands = [p for p in options if p.hand]
        if hands:
            h = max(hands, key=lambda p: expected_score(p.win, p.value))
            if expected_score(h.win, h.value) > best_pick + HAND_MARGIN:
                target = Contract(h.game, hand=True, ouvert=h.ouvert).normalised()
                for a in legal:
                    if isinstance(a, Announce) and a.contract == target:
                        return a
        return next(a for a in legal if isinstance(a, Pickup))

    def _discard(self, view: View, legal: tuple[Action, ...]) -> Action:
        mask = best_discard(view.hand.mask, view.bid)
        for a in legal:
            assert isinstance(a, Discard)
            if (1 << a.cards[0]) | (1 << a.cards[1]) == mask:
                return a
        return legal[0]

    def _declare(self, view: View, legal: tuple[Action, ...]) -> Action:
        hand = view.hand.mask
        skat = view.skat.mask if view.skat is not None else 0
        cards12 = hand | skat
        pts = sum(POINTS[c] for c in mask_cards(skat))
        games = counted_games(hand, cards12, pts)
        allowed = {a.contract: a for a in legal if isinstance(a, Announce)}
        ranked = sorted(games, key=lambda pc: game_score(pc[0], view.bid), reverse=True)
        for _, contract in ranked:
            if contract in allowed:
                return allowed[contract]
        # nothing reachable by our count: the suit with the most trumps
        for a in legal:
            if isinstance(a, Announce) and a.contract.game.is_suit:
                g = a.contract.game
                if (hand & TRUMPS[g]).bit_count() == max(
                    (hand & TRUMPS[x]).bit_count() for x in SUITS
                ):
                    return a
        return legal[0]

    # -- Kontra / Re
    def _wants_kontra(self, view: View) -> bool:
        c = view.contract
        if c is None or c.game == GameType.NULL or c.game == GameType.RAMSCH:
            return False
        hand = view.hand.mask
        g = c.game
        trumps = hand & TRUMPS[g]
        d = 0.0
        for cj, w in SUIT_JACKS:
            if trumps >> cj & 1:
                d += w * 0.8
        nt = trumps.bit_count()
        d += 0.6 * (nt - (trumps & JACKS).bit_count())
        if nt >= 3:
            d += 0.6 * (nt - 2)
        for u in range(4):
            if g.is_suit and u == int(g):
                continue
            side = hand >> (8 * u) & 0xEF
            if side & 1:
                d += 1.2
                if side & 2:
                    d += 0.8
            elif side & 2 and side.bit_count() >= 2:
                d += 0.4
        if c.hand:
            d -= 1.0
        # a high bid for this game says the declarer counted many matadors
        levels = view.bid / BASE_VALUE[g]
        if levels > 2.5:
            d -= 0.4 * (levels - 2.5)
        return d >= (KONTRA_GRAND if g == GameType.GRAND else KONTRA_SUIT)

    def _kontra(self, view: View, legal: tuple[Action, ...]) -> Action | None:
        strong = self._wants_kontra(view)
        for a in legal:
            if strong and isinstance(a, Kontra):
                return a
            if not strong and isinstance(a, NoKontra):
                return a
        return None  # Kontra is optional during play: go on with a card

    def _re(self, view: View, legal: tuple[Action, ...]) -> Action:
        c = view.contract
        hand = view.hand.mask
        sure = False
        if c is not None:
            if c.game == GameType.NULL:
                sure = null_profile(hand)[1] == 0
            elif c.game != GameType.RAMSCH:
                curve = COUNTED_GRAND if c.game == GameType.GRAND else COUNTED_SUIT
                sure = win_chance(suit_strength(hand, c.game), curve) > RE_SURE
        want = Re if sure else NoRe
        return next(a for a in legal if isinstance(a, want))


@register(
    "heuristic",
    public=True,
    summary="rule-based, milliseconds a decision: the previous casual level",
)
def _make(rng: random.Random) -> HeuristicPlayer:
    return HeuristicPlayer(rng)
