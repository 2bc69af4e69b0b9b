"""Card play by rule, from a view alone: `heuristic`'s card choice, which
`search` and the world sampler use as the other seats' likely play
(issue 4, issue 25). A `CardPlay` is made for one decision: it reads the
tricks for voids and points, then `choose` picks a card for the declarer, a
defender, Null or Ramsch.
"""

from __future__ import annotations

from ..engine import (
    GameType,
    View,
)
from ..engine.cards import ALL_CARDS, POINTS
from ..engine.game import EFFECTIVE, SUIT_OF, TRICK_KEY, TRUMP, TRUMPS

#: _NOT_BELOW[g][card]: the cards whose strength is at least ``card``'s when
#: ``card``'s effective suit is led (itself included), for `is_master`.
_NOT_BELOW: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(
            1 << o
            for o in range(32)
            if keys[EFFECTIVE[g][card]][o] >= keys[EFFECTIVE[g][card]][card]
        )
        for card in range(32)
    )
    for g, keys in enumerate(TRICK_KEY)
)

#: (game, led suit, key) -> the cards whose strength in a trick of that led
#: suit is above ``key``, for `_unbeatable` (filled as asked: a few hundred).
_ABOVE: dict[tuple[int, int, int], int] = {}


def _above(g: int, led: int, key: int) -> int:
    got = _ABOVE.get((g, led, key))
    if got is None:
        keys = TRICK_KEY[g][led]
        got = _ABOVE[(g, led, key)] = sum(1 << c for c in range(32) if keys[c] > key)
    return got


SMEAR_KEEPS_MASTERS = True
DEFENCE_LEADS = True  # defenders keep aces the declarer would ruff, lead into the partner's void


class CardPlay:
    """Card choice for one decision, from the view alone."""

    def __init__(self, view: View) -> None:
        self.view = view
        c = view.contract
        assert c is not None
        self.g = c.game
        self.hand = view.hand.mask
        assert view.position is not None
        self.me: int = view.position
        pos_of = {s: p for p, s in enumerate(view.seats)}
        self.declarer = pos_of.get(view.declarer_seat, -1) if view.declarer_seat is not None else -1
        played = 0
        self.voids: dict[int, set[int]] = {0: set(), 1: set(), 2: set()}
        self.party_points = [0, 0, 0]
        eff = EFFECTIVE[self.g]
        for t in view.tricks:
            led = eff[t.cards[0]]
            for i, card in enumerate(t.cards):
                played |= 1 << card
                if eff[card] != led:
                    self.voids[(t.leader + i) % 3].add(led)
            self.party_points[t.winner] += sum(POINTS[x] for x in t.cards)
        self.trick = [(pos_of[s], int(card)) for s, card in view.trick]
        for _, x in self.trick:
            played |= 1 << x
        if self.trick:
            led = eff[self.trick[0][1]]
            for p, x in self.trick[1:]:
                if eff[x] != led:
                    self.voids[p].add(led)
        self.played = played
        known = view.skat.mask if view.skat is not None else 0
        self.outside = ALL_CARDS & ~played & ~self.hand & ~known  # with others (or skat)
        if view.open_cards is not None and self.declarer >= 0 and self.me != self.declarer:
            self.declarer_cards = view.open_cards.mask
        else:
            self.declarer_cards = -1

    def holding(self, hand: int, skat: int, open_cards: int) -> CardPlay:
        """The same decision for the same seat with another ``hand`` (and the
        skat it knows, the declarer's open cards; -1 for none): the public part
        read once serves every world of the play inference. Only the fields
        made from the hidden cards are set again; ``view`` stays the first
        one's (its hand is not read after ``__init__``)."""
        other = object.__new__(CardPlay)
        other.__dict__.update(self.__dict__)
        other.hand = hand
        known = skat if skat >= 0 else 0
        other.outside = ALL_CARDS & ~self.played & ~hand & ~known
        if open_cards >= 0 and self.declarer >= 0 and self.me != self.declarer:
            other.declarer_cards = open_cards
        else:
            other.declarer_cards = -1
        return other

    # helpers
    def key(self, led_suit: int, card: int) -> int:
        return TRICK_KEY[self.g][led_suit][card]

    def current_winner(self) -> tuple[int, int]:
        """(position, card) winning the current trick so far."""
        led = EFFECTIVE[self.g][self.trick[0][1]]
        best = max(self.trick, key=lambda pc: self.key(led, pc[1]))
        return best

    def is_master(self, card: int) -> bool:
        """No card outside beats it when led."""
        return not self.outside & _NOT_BELOW[self.g][card]

    def partner_of(self, p: int) -> bool:
        return self.declarer >= 0 and p != self.declarer and self.me != self.declarer

    def choose(self, cards: list[int]) -> int:
        if len(cards) == 1:
            return cards[0]
        if self.g == GameType.NULL:
            return self._null(cards)
        if self.g == GameType.RAMSCH:
            return self._ramsch(cards)
        if self.me == self.declarer:
            return self._declarer(cards)
        return self._defender(cards)

    # -- suit and Grand, declarer
    def _declarer(self, cards: list[int]) -> int:
        eff = EFFECTIVE[self.g]
        if not self.trick:
            trumps = [c for c in cards if eff[c] == TRUMP]
            outside_trumps = self.outside & TRUMPS[self.g]
            if trumps and outside_trumps:
                masters = [c for c in trumps if self.is_master(c)]
                if masters:
                    return max(masters, key=lambda c: self.key(TRUMP, c))
                return min(trumps, key=lambda c: (POINTS[c], self.key(TRUMP, c)))
            side_masters = [c for c in cards if eff[c] != TRUMP and self.is_master(c)]
            if side_masters:
                return max(side_masters, key=lambda c: POINTS[c])
            return self._lowest(cards, prefer_short=True)
        return self._follow(cards, wants_trick_from=lambda p: p != self.me)

    # -- suit and Grand, defender
    def _defender(self, cards: list[int]) -> int:
        eff = EFFECTIVE[self.g]
        if not self.trick:
            side = [c for c in cards if eff[c] != TRUMP]
            decl_voids = self.voids[self.declarer] if self.declarer >= 0 else set()
            # the declarer ruffs a suit he is void in while trumps are out
            can_ruff = bool(self.outside & TRUMPS[self.g]) and TRUMP not in decl_voids
            ruffed = decl_voids if can_ruff and DEFENCE_LEADS else set()
            aces = [
                c for c in side if self.is_master(c) and POINTS[c] >= 10 and eff[c] not in ruffed
            ]
            if aces:
                return max(aces, key=lambda c: POINTS[c])
            if side:
                # lead a suit the declarer still holds, best one the partner can ruff
                playable = [c for c in side if eff[c] not in decl_voids] or side
                if DEFENCE_LEADS:
                    mate = 3 - self.me - self.declarer if self.declarer >= 0 else -1
                    mate_voids = self.voids.get(mate, set())
                    if TRUMP not in mate_voids:
                        ruffs = [c for c in playable if eff[c] in mate_voids]
                        if ruffs:
                            return self._lowest(ruffs, prefer_short=False)
                return self._lowest(playable, prefer_short=False)
            return min(cards, key=lambda c: self.key(TRUMP, c))
        return self._follow(cards, wants_trick_from=lambda p: p == self.declarer)

    def _follow(self, cards: list[int], wants_trick_from: object) -> int:
        """Follow or discard: win cheaply when an opponent leads the trick,
        feed points (schmieren) when the partner wins it safely."""
        opponent = wants_trick_from  # callable: is position p an opponent?
        assert callable(opponent)
        led = EFFECTIVE[self.g][self.trick[0][1]]
        win_pos, win_card = self.current_winner()
        win_key = self.key(led, win_card)
        last = len(self.trick) == 2
        trick_points = sum(POINTS[c] for _, c in self.trick)
        winners = [c for c in cards if self.key(led, c) > win_key]
        if not opponent(win_pos):
            # partner (or nobody hostile) leads the trick
            next_pos = (self.me + 1) % 3
            safe = last or not opponent(next_pos) or self._unbeatable(led, win_key, next_pos)
            if safe:
                return max(cards, key=lambda c: (self._smear_value(c), -self.key(led, c)))
            return self._lowest(cards, prefer_short=True)
        if winners:
            if last:
                if trick_points > 0 or len(cards) <= 4:
                    return min(winners, key=lambda c: (self.key(led, c), -POINTS[c]))
            else:
                masters = [
                    c for c in winners if self._unbeatable(led, self.key(led, c), (self.me + 1) % 3)
                ]
                if masters:
                    return min(masters, key=lambda c: (self.key(led, c), -POINTS[c]))
                if trick_points >= 10 and EFFECTIVE[self.g][winners[0]] == TRUMP:
                    return min(winners, key=lambda c: self.key(led, c))
        return self._lowest(cards, prefer_short=True)

    def _smear_value(self, c: int) -> float:
        """How gladly to give ``c`` to a trick the partner wins (schmieren):
        its points, but not a trump ace, and a side master that will take a
        trick of its own later only when tricks run out."""
        if EFFECTIVE[self.g][c] == TRUMP:
            return POINTS[c] if POINTS[c] < 11 else -1
        if (
            SMEAR_KEEPS_MASTERS
            and POINTS[c] >= 10
            and len(self.view.tricks) < 8
            and self.is_master(c)
        ):
            return POINTS[c] - 9.5
        return POINTS[c]

    def _unbeatable(self, led: int, key: int, pos: int) -> bool:
        """Can position ``pos`` (still to play) not beat ``key``, as far as we know?"""
        if pos == self.declarer and self.declarer_cards >= 0:
            pool = self.declarer_cards
        else:
            pool = self.outside
        if led in self.voids[pos]:
            if TRUMP in self.voids[pos] or led == TRUMP:
                return True
            return not pool & TRUMPS[self.g] & _above(self.g, led, key)
        return not pool & _above(self.g, led, key)

    def _lowest(self, cards: list[int], prefer_short: bool) -> int:
        eff = EFFECTIVE[self.g]
        suits = SUIT_OF[self.g]
        keys = TRICK_KEY[self.g]
        hand = self.hand

        def cost(c: int) -> tuple[int, int, int]:
            e = eff[c]
            length = (hand & suits[e]).bit_count()  # the hand's cards of c's suit
            return (
                POINTS[c] + (15 if e == TRUMP else 0),
                length if prefer_short else -length,
                keys[e][c],
            )

        return min(cards, key=cost)

    # -- Null
    def _null(self, cards: list[int]) -> int:
        led_key = None
        if self.trick:
            led = EFFECTIVE[self.g][self.trick[0][1]]
            _, wc = self.current_winner()
            led_key = (led, self.key(led, wc))
        if self.me == self.declarer:
            if led_key is None:
                return min(cards, key=lambda c: self.key(c >> 3, c))
            led, k = led_key
            under = [c for c in cards if EFFECTIVE[self.g][c] == led and self.key(led, c) < k]
            if under:
                return max(under, key=lambda c: self.key(led, c))
            if all(EFFECTIVE[self.g][c] != led for c in cards):  # void: shed the most dangerous
                return max(cards, key=lambda c: self.key(c >> 3, c))
            return max(cards, key=lambda c: self.key(led, c))
        # defender: make the declarer take a trick
        if led_key is None:
            return min(cards, key=lambda c: self.key(c >> 3, c))
        led, k = led_key
        win_pos, _ = self.current_winner()
        if win_pos == self.declarer:
            under = [c for c in cards if EFFECTIVE[self.g][c] != led or self.key(led, c) < k]
            if under:
                return max(under, key=lambda c: self.key(c >> 3, c))
        return min(cards, key=lambda c: self.key(c >> 3, c))

    # -- Ramsch: take few points and no last trick
    def _ramsch(self, cards: list[int]) -> int:
        eff = EFFECTIVE[self.g]
        if not self.trick:
            return min(cards, key=lambda c: (self.key(eff[c], c), POINTS[c]))
        led = eff[self.trick[0][1]]
        _, wc = self.current_winner()
        k = self.key(led, wc)
        under = [c for c in cards if self.key(led, c) < k]
        if under:  # someone else takes it: shed points
            return max(under, key=lambda c: (POINTS[c], self.key(eff[c], c)))
        return min(cards, key=lambda c: (POINTS[c], self.key(led, c)))
