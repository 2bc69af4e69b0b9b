"""``heuristic-v1``: the first rule-based player (issue 4), frozen as it was
when issue 9 began, so that the arena can measure `heuristic` against it.
Do not improve this module; improve `heuristic`.

It reads only its `View`: its hand, the public auction, the tricks, the skat
once it has picked it up, open Ouvert cards. Everything else it infers from
what was played (voids, trumps and points gone). Stateless between calls, so
a seat can change hands (a reload, a server restart) without harm.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ...engine import (
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
from ...engine.cards import ALL_CARDS, CARDS, JACKS, POINTS, SUIT_MASKS, mask_cards
from ...engine.game import BASE_VALUE, EFFECTIVE, NULL_VALUES, TRICK_KEY, TRUMP, TRUMPS
from ...engine.values import matadors
from ..base import BasePlayer
from ..registry import register_lab
from ..strength import SUITS

_ACES = sum(1 << (8 * s) for s in range(4))
_TENS = sum(1 << (8 * s + 1) for s in range(4))
_JACK_WEIGHT = {4: 2.5, 12: 2.2, 20: 1.9, 28: 1.6}  # CJ SJ HJ DJ
_NULL_RANK = (7, 3, 2, 4, 1, 0, -1, -2)  # A K Q J T 9 8 7 -> higher is worse in Null


@dataclass(frozen=True)
class Plan:
    game: GameType
    strength: float
    value: int  # what the declarer can count on (plain value, Hand if hand)
    hand: bool = False


# ------------------------------------------------------------------ evaluation
def suit_strength(hand: int, game: GameType) -> float:
    """Rough number of tricks-worth for a suit or Grand game."""
    trumps = hand & TRUMPS[game]
    s = 0.0
    for c in mask_cards(trumps):
        s += _JACK_WEIGHT.get(c, 0.0)
        if c not in _JACK_WEIGHT:
            s += 1.2 if c & 7 in (0, 1) else 0.8
    n_trumps = trumps.bit_count()
    for suit in range(4):
        if game.is_suit and suit == int(game):
            continue
        side = hand & SUIT_MASKS[suit] & ~JACKS
        n = side.bit_count()
        if n == 0:
            s += 0.6 if n_trumps >= 4 else 0.2
            continue
        if side & _ACES:
            s += 1.3
            if side & _TENS:
                s += 1.0
        elif side & _TENS:
            s += 0.5 if n >= 2 else -0.4
        if game == GameType.GRAND and n >= 4 and side & _ACES:
            s += 0.6 * (n - 3)
    if game == GameType.GRAND:
        s -= 1.0
    return s


def null_risk(hand: int) -> int:
    """Number of suits that can be forced to win a trick in Null (0 = safe)."""
    risky = 0
    for suit in range(4):
        ranks = sorted(_NULL_RANK[c & 7] for c in mask_cards(hand & SUIT_MASKS[suit]))
        # safe if each of our k lowest cards is low enough to duck: the i-th lowest
        # card (0-based) must be at most the i-th lowest card of the whole suit
        for i, r in enumerate(ranks):
            if r > -2 + 2 * i:
                risky += 1
                break
    return risky


def plans(hand: int, with_hand_option: bool) -> list[Plan]:
    """Playable games for a ten-card hand, each with its countable value."""
    out: list[Plan] = []
    for g in (*SUITS, GameType.GRAND):
        st = suit_strength(hand, g)
        need = 7.5 if g != GameType.GRAND else 7.0
        n_trumps = (hand & TRUMPS[g]).bit_count()
        if g.is_suit and n_trumps < 5:
            continue
        if g == GameType.GRAND and (hand & JACKS).bit_count() < 2:
            continue
        if st < need:
            continue
        mult = abs(matadors(g, hand)) + 1
        out.append(Plan(g, st, mult * BASE_VALUE[g]))
        if with_hand_option and st >= need + 2.2:
            out.append(Plan(g, st - 2.2, (mult + 1) * BASE_VALUE[g], hand=True))
    risk = null_risk(hand)
    if risk == 0:
        out.append(Plan(GameType.NULL, 8.0, NULL_VALUES[True, False], hand=with_hand_option))
    if risk <= 1:
        out.append(Plan(GameType.NULL, 7.5, NULL_VALUES[False, False]))
    return out


def best_plan(hand: int, bid: int, with_hand_option: bool) -> Plan | None:
    candidates = [p for p in plans(hand, with_hand_option) if p.value >= bid]
    if not candidates:
        return None
    return max(candidates, key=lambda p: (p.strength, -p.value))


# ------------------------------------------------------------------ the player
class HeuristicV1Player(BasePlayer):
    """A club-strength rule-based player; see the module docstring."""

    name = "heuristic-v1"

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
        if any(isinstance(a, (Re, NoRe)) for a in legal):
            return self._re(view, legal)
        if any(isinstance(a, (Kontra, NoKontra)) for a in legal):
            k = self._kontra(view, legal)
            if k is not None:
                return k
        plays = [a for a in legal if isinstance(a, Play)]
        if not plays:
            return legal[0]
        card = _CardPlay(view).choose([a.card for a in plays])
        return next(a for a in plays if a.card == card)

    # -- auction
    def _limit(self, view: View) -> int:
        hand = view.hand.mask
        best = 0
        for p in plans(hand, True):
            best = max(best, p.value)
        return best

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
        pickup_plan = best_plan(hand, view.bid, False)
        hand_plan = best_plan(hand, view.bid, True)
        if pickup_plan is None and hand_plan is not None and hand_plan.hand:
            target = Contract(hand_plan.game, hand=True)
            for a in legal:
                if isinstance(a, Announce) and a.contract == target:
                    return a
        return next(a for a in legal if isinstance(a, Pickup))

    def _discard(self, view: View, legal: tuple[Action, ...]) -> Action:
        hand12 = view.hand.mask
        best: tuple[float, Action] | None = None
        games = (*SUITS, GameType.GRAND)
        for a in legal:
            assert isinstance(a, Discard)
            mask = (1 << a.cards[0]) | (1 << a.cards[1])
            rest = hand12 & ~mask
            pts = POINTS[a.cards[0]] + POINTS[a.cards[1]]
            score = max(
                suit_strength(rest, g)
                + (abs(matadors(g, hand12)) + 1) * BASE_VALUE[g] / 400
                - (2.0 if mask & TRUMPS[g] else 0.0)
                for g in games
            )
            score += pts / 12
            if null_risk(rest) == 0 and view.bid <= 23:
                score = max(score, 9.0 - pts / 30)
            if best is None or score > best[0]:
                best = (score, a)
        assert best is not None
        return best[1]

    def _declare(self, view: View, legal: tuple[Action, ...]) -> Action:
        hand = view.hand.mask
        cards12 = hand | (view.skat.mask if view.skat is not None else 0)
        scored: list[tuple[tuple[int, float], Action]] = []
        for a in legal:
            assert isinstance(a, Announce)
            c = a.contract
            if c.game == GameType.NULL:
                if c.ouvert or null_risk(hand) > 0:
                    continue
                value, strength = NULL_VALUES[False, False], 8.5
            else:
                value = (abs(matadors(c.game, cards12)) + 1) * BASE_VALUE[c.game]
                strength = suit_strength(hand, c.game)
                if c.game.is_suit and (hand & TRUMPS[c.game]).bit_count() < 4:
                    strength -= 3
            scored.append(((1 if value >= view.bid else 0, strength + value / 200), a))
        if not scored:
            return legal[0]
        return max(scored, key=lambda t: t[0])[1]

    # -- Kontra / Re
    def _kontra(self, view: View, legal: tuple[Action, ...]) -> Action | None:
        c = view.contract
        hand = view.hand.mask
        strong = False
        if c is not None and c.game != GameType.NULL:
            jacks = (hand & JACKS).bit_count()
            aces = (hand & _ACES & ~TRUMPS[c.game]).bit_count()
            strong = jacks >= 2 and aces >= 2 and view.bid <= 30
        for a in legal:
            if strong and isinstance(a, Kontra):
                return a
            if not strong and isinstance(a, NoKontra):
                return a
        return None  # Kontra is optional during play: go on with a card

    def _re(self, view: View, legal: tuple[Action, ...]) -> Action:
        c = view.contract
        hand = view.hand.mask
        strong = (
            c is not None
            and c.game != GameType.NULL
            and (hand & TRUMPS[c.game]).bit_count() >= 7
            and hand >> 4 & 1
        )
        want = Re if strong else NoRe
        return next(a for a in legal if isinstance(a, want))


# ------------------------------------------------------------------ card play
class _CardPlay:
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
        eff = EFFECTIVE[self.g][card]
        k = self.key(eff, card)
        return all(self.key(eff, o) < k for o in mask_cards(self.outside))

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
            aces = [c for c in side if self.is_master(c) and POINTS[c] >= 10]
            if aces:
                return max(aces, key=lambda c: POINTS[c])
            # lead a suit the declarer cannot ruff cheaply: prefer suits he still holds
            if side:
                decl_voids = self.voids[self.declarer] if self.declarer >= 0 else set()
                playable = [c for c in side if eff[c] not in decl_voids] or side
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
                return max(
                    cards,
                    key=lambda c: (
                        POINTS[c] if EFFECTIVE[self.g][c] != TRUMP or POINTS[c] < 11 else -1,
                        -self.key(led, c),
                    ),
                )
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

    def _unbeatable(self, led: int, key: int, pos: int) -> bool:
        """Can position ``pos`` (still to play) not beat ``key``, as far as we know?"""
        if pos == self.declarer and self.declarer_cards >= 0:
            pool = self.declarer_cards
        else:
            pool = self.outside
        eff = EFFECTIVE[self.g]
        if led in self.voids[pos]:
            if TRUMP in self.voids[pos] or led == TRUMP:
                return True
            return all(self.key(led, c) <= key for c in mask_cards(pool) if eff[c] == TRUMP)
        return all(self.key(led, c) <= key for c in mask_cards(pool))

    def _lowest(self, cards: list[int], prefer_short: bool) -> int:
        eff = EFFECTIVE[self.g]

        def cost(c: int) -> tuple[int, int, int]:
            trump = eff[c] == TRUMP
            length = sum(1 for o in mask_cards(self.hand) if eff[o] == eff[c])
            return (
                POINTS[c] + (15 if trump else 0),
                length if prefer_short else -length,
                self.key(eff[c], c),
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


@register_lab("heuristic-v1", summary="heuristic as first measured (issue 4)")
def _make(rng: random.Random) -> HeuristicV1Player:
    return HeuristicV1Player(rng)


assert CARDS
