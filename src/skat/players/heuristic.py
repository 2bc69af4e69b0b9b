"""``heuristic``: a rule-based player for every decision (issue 4).

It reads only its `View`: its hand, the public auction, the tricks, the skat
once it has picked it up, open Ouvert cards. Everything else it infers from
what was played (voids, trumps and points gone). Stateless between calls, so
a seat can change hands (a reload, a server restart) without harm.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

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
from ..engine.cards import ALL_CARDS, CARDS, JACKS, POINTS, SUIT_MASKS, mask_cards
from ..engine.game import BASE_VALUE, EFFECTIVE, NULL_VALUES, TRICK_KEY, TRUMP, TRUMPS
from ..engine.values import matadors
from .base import BasePlayer, register
from .evaluation import SUITS

_ACES = sum(1 << (8 * s) for s in range(4))
_TENS = sum(1 << (8 * s + 1) for s in range(4))
_JACK_WEIGHT = {4: 2.5, 12: 2.2, 20: 1.9, 28: 1.6}  # CJ SJ HJ DJ (kept for callers)
_SUIT_JACKS = ((4, 2.0), (12, 1.8), (20, 1.6), (28, 1.45))  # jacks as trumps of a suit game
_GRAND_JACKS = ((4, 1.9), (12, 1.7), (20, 1.5), (28, 1.35))
_TOP2 = (1 << 4) | (1 << 12)  # CJ, SJ
#: Null rank of each rank index (A T K Q J 9 8 7 -> 7 3 6 5 4 2 1 0): higher is worse.
_NULL_RANK = (7, 3, 6, 5, 4, 2, 1, 0)

#: Strength at which a game is won about half the time, by game and kind
#: (pickup: before the skat; counted: a ten-card hand after the discard or a
#: Hand game). Measured by playing the heuristic against itself; see
#: docs/players.md.
#: (strength of an even chance, slope per strength unit) of the win-chance
#: curve, by stage and game: before the skat for a pickup game (what the skat
#: and the discard may bring is in the curve), for a Hand game, and for the ten
#: cards kept after the discard.
PICKUP_SUIT = (3.8, 0.65)
PICKUP_GRAND = (4.8, 0.7)
HAND_SUIT = (6.0, 0.45)
HAND_GRAND = (6.6, 0.6)
COUNTED_SUIT = (6.9, 0.65)
COUNTED_GRAND = (5.8, 1.2)
FOREHAND_GRAND = 0.4  # forehand leads first: worth this much in Grand
NULL_EXCESS = 0.07  # Null danger of a suit whose first unsafe card is a rank too high
NULL_EXTRA = 0.07  # ... and per further card above it
KONTRA_SUIT = 7.2  # defence strength at which a defender says Kontra against a suit game
KONTRA_GRAND = 6.4  # ... against Grand
SMEAR_KEEPS_MASTERS = True
HAND_MARGIN = 5.0  # how much more a Hand game must promise than the best pickup game
DEFENCE_LEADS = True  # defenders keep aces the declarer would ruff, lead into the partner's void
SKAT_POINTS_PER_UNIT = 15.0  # card points in the discarded skat worth one strength unit
BID_EV = 0.0  # expected score a pickup game must beat for a bid (passing and defending)
BID_EV_HAND = 30.0  # ... a Hand game
RE_SURE = 0.97  # win chance at which the declarer answers Kontra with Re


@dataclass(frozen=True)
class Plan:
    game: GameType
    strength: float
    value: int  # what the declarer can count on (plain value, Hand if hand)
    hand: bool = False
    win: float = 0.0  # estimated chance to win the game
    ouvert: bool = False


# ------------------------------------------------------------------ evaluation
def suit_strength(hand: int, game: GameType) -> float:
    """Tricks-worth of a ten-card hand for a suit or Grand game: trumps by
    rank and length (a long trump suit beats the same cards as a side suit),
    side aces and tens, voids to ruff, losers."""
    if game == GameType.GRAND:
        return grand_strength(hand)
    if not game.is_suit:
        return 0.0
    t = int(game)
    n = (hand & TRUMPS[game]).bit_count()
    s = 0.0
    for c, w in _SUIT_JACKS:
        if hand >> c & 1:
            s += w
    if not hand & _TOP2:
        s -= 0.5
    ts = hand >> (8 * t) & 0xEF
    if ts & 1:
        s += 1.35
    if ts & 2:
        s += 1.15 if ts & 1 or n >= 6 else 0.9
    s += 0.8 * (ts & 0xEC).bit_count()
    if n > 5:
        s += 0.5 * (n - 5)
    elif n < 5:
        s -= 1.0 * (5 - n)
    for u in range(4):
        if u == t:
            continue
        side = hand >> (8 * u) & 0xEF
        k = side.bit_count()
        if k == 0:
            s += 0.65 if n >= 5 else 0.3
            continue
        masters = 0
        if side & 1:
            s += 1.2
            masters = 1
            if side & 2:
                s += 1.0
                masters = 2
        elif side & 2:
            s += 0.4 if k >= 2 else -0.4
        losers = min(k, 3) - masters
        if losers > 0:
            s -= 0.15 * losers
        if k == 1 and not side & 1 and n >= 5:
            s += 0.15
    return s


def grand_strength(hand: int) -> float:
    """Tricks-worth of a ten-card hand for Grand: jacks, aces and tens, long
    suits under an ace and ten, losers."""
    s = 0.0
    for c, w in _GRAND_JACKS:
        if hand >> c & 1:
            s += w
    nj = (hand & JACKS).bit_count()
    if not hand & _TOP2:
        s -= 0.8
    for u in range(4):
        side = hand >> (8 * u) & 0xEF
        k = side.bit_count()
        if k == 0:
            s += 0.25
            continue
        masters = 0
        if side & 1:
            s += 1.3
            masters = 1
            if side & 2:
                s += 1.1
                masters = 2
                if side & 4:
                    s += 0.5
                    masters = 3
                if k > 3:
                    s += 0.7 * (k - 3)
                    masters = k
        elif side & 2:
            s += 0.5 if side & 4 else (0.2 if k >= 2 else -0.6)
        losers = k - masters
        if losers > 0:
            s -= 0.3 * min(losers, 3)
    if nj <= 1:
        s -= 1.5
    return s


def _null_suit(ranks: int) -> tuple[int, int]:
    """(cards to remove so that this suit is safe, worst excess) for one suit
    of a Null hand, ``ranks`` a bit mask by Null rank (bit 0 = seven). Safe:
    the i-th lowest card (from 0) ranks at most 2i, so it can always duck."""
    i = 0
    for r in range(8):
        if ranks >> r & 1:
            if r > 2 * i:
                return (ranks >> r).bit_count(), r - 2 * i
            i += 1
    return 0, 0


def _null_ranks(hand: int, suit: int) -> int:
    bits = hand >> (8 * suit) & 0xFF
    out = 0
    for idx in range(8):
        if bits >> idx & 1:
            out |= 1 << _NULL_RANK[idx]
    return out


def _suit_danger(ranks: int) -> float:
    k, excess = _null_suit(ranks)
    if not k:
        return 0.0
    return min(1.0, NULL_EXCESS * excess * (1 + excess) / 2 + NULL_EXTRA * (k - 1))


def _top_null_card(hand: int, suit: int) -> int:
    """The highest card of ``suit`` in Null order (the first to shed)."""
    bits = hand >> (8 * suit) & 0xFF
    return max((idx for idx in range(8) if bits >> idx & 1), key=lambda i: _NULL_RANK[i]) + 8 * suit


def _null_table() -> tuple[tuple[int, float], ...]:
    """(cards to shed, danger) of one suit, by the suit's byte of a hand."""
    out = []
    for bits in range(256):
        ranks = 0
        for idx in range(8):
            if bits >> idx & 1:
                ranks |= 1 << _NULL_RANK[idx]
        out.append((_null_suit(ranks)[0], _suit_danger(ranks)))
    return tuple(out)


_NULL_TABLE: tuple[tuple[int, float], ...] = ()


def null_profile(hand: int) -> tuple[int, float]:
    """(cards to shed to make the hand strictly Null-safe, danger): the danger
    adds per suit about the chance that the suit is caught, growing with how
    far its first unsafe card is too high (a lone eight 0.07, a lone nine 0.2,
    a lone ten 0.4, a lone king or ace all), 0 when every suit can always
    duck."""
    global _NULL_TABLE
    if not _NULL_TABLE:
        _NULL_TABLE = _null_table()
    t = _NULL_TABLE
    a, b, c, d = t[hand & 0xFF], t[hand >> 8 & 0xFF], t[hand >> 16 & 0xFF], t[hand >> 24 & 0xFF]
    return a[0] + b[0] + c[0] + d[0], a[1] + b[1] + c[1] + d[1]


def null_danger_after_shedding(hand: int, cards: int) -> float:
    """The danger left after shedding ``cards`` cards, greedily the top card of
    the most dangerous suit (what a pickup Null can discard)."""
    for _ in range(cards):
        best = None
        for suit in range(4):
            if not hand & SUIT_MASKS[suit]:
                continue
            c = _top_null_card(hand, suit)
            d = null_profile(hand & ~(1 << c))[1]
            if best is None or d < best[0]:
                best = (d, c)
        if best is None:
            break
        hand &= ~(1 << best[1])
    return null_profile(hand)[1]


def null_win(danger: float) -> float:
    return max(0.03, 0.95 - danger)


def null_risk(hand: int) -> int:
    """Number of suits that can be forced to win a trick in Null (0 = safe)."""
    return sum(1 for suit in range(4) if _null_suit(_null_ranks(hand, suit))[0])


def _ouvert_ok(hand: int, forehand: bool) -> bool:
    if null_profile(hand)[0]:
        return False
    if not forehand:
        return True
    # forehand leads first: a seven of a short suit the others must take
    return any(
        hand >> (8 * u + 7) & 1 and (hand & SUIT_MASKS[u]).bit_count() <= 4 for u in range(4)
    )


def win_chance(strength: float, curve: tuple[float, float]) -> float:
    """The chance to win from a strength, on a logistic curve (even, slope)."""
    x = curve[1] * (strength - curve[0])
    if x > 30:
        return 1.0
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def expected_score(win: float, value: int) -> float:
    """Seeger-Fabian expectation of declaring (R9.5, three players): +50 and
    the value when won, -50 and twice the value when lost, and the 40 each
    defender then gains weighs against us too."""
    return win * (value + 50) - (1.0 - win) * (2 * value + 90)


def _schneider_chance(strength: float, curve: tuple[float, float]) -> float:
    return win_chance(strength, (curve[0] + 4.5, curve[1]))


def plans(hand: int, with_hand_option: bool, forehand: bool = False) -> list[Plan]:
    """Games for a ten-card hand before the skat, each with its value and win chance.

    Pickup games count on the average gain of the skat; a Hand game adds a
    level but no skat. The value counts Schneider when it is likely."""
    out: list[Plan] = []
    for g in (*SUITS, GameType.GRAND):
        if g.is_suit and (hand & TRUMPS[g]).bit_count() < 4:
            continue
        if g == GameType.GRAND and (hand & JACKS).bit_count() < 2:
            continue
        grand = g == GameType.GRAND
        st = suit_strength(hand, g) + (FOREHAND_GRAND if grand and forehand else 0.0)
        mult = abs(matadors(g, hand)) + 1
        base = BASE_VALUE[g]
        curve = PICKUP_GRAND if grand else PICKUP_SUIT
        win = win_chance(st, curve)
        levels = mult + (1 if _schneider_chance(st, curve) > 0.6 else 0)
        out.append(Plan(g, st, levels * base, win=win))
        if with_hand_option:
            curve = HAND_GRAND if grand else HAND_SUIT
            hwin = win_chance(st, curve)
            hlevels = mult + 1 + (1 if _schneider_chance(st, curve) > 0.6 else 0)
            out.append(Plan(g, st, hlevels * base, hand=True, win=hwin))
    remove, danger = null_profile(hand)
    if danger <= 1.5:
        # a pickup Null sheds two cards; the skat may bring its own danger
        pdanger = null_danger_after_shedding(hand, 2) + 0.12
        out.append(Plan(GameType.NULL, 8.0, NULL_VALUES[False, False], win=null_win(pdanger)))
        if remove <= 1 and null_danger_after_shedding(hand, 1) == 0:
            out.append(Plan(GameType.NULL, 8.0, NULL_VALUES[False, True], win=0.8, ouvert=True))
    if with_hand_option and danger <= 0.5:
        out.append(
            Plan(GameType.NULL, 8.0, NULL_VALUES[True, False], hand=True, win=null_win(danger))
        )
        if danger == 0 and _ouvert_ok(hand, forehand):
            out.append(
                Plan(GameType.NULL, 8.0, NULL_VALUES[True, True], hand=True, win=0.88, ouvert=True)
            )
    return out


def best_plan(hand: int, bid: int, with_hand_option: bool, forehand: bool = False) -> Plan | None:
    """The plan with the best expected score among those worth at least ``bid``."""
    candidates = [p for p in plans(hand, with_hand_option, forehand) if p.value >= bid]
    if not candidates:
        return None
    return max(candidates, key=lambda p: expected_score(p.win, max(bid, p.value)))


def bid_limit(hand: int, forehand: bool = False, aggression: float = 0.0) -> int:
    """The highest bid the hand is worth: the value of the best game whose
    expected score beats passing."""
    best = 0
    for p in plans(hand, True, forehand):
        floor = BID_EV_HAND if p.hand else BID_EV
        if expected_score(min(1.0, p.win + aggression), p.value) > floor:
            best = max(best, p.value)
    return best


def counted_games(hand10: int, cards12: int, skat_points: int) -> list[tuple[Plan, Contract]]:
    """Every pickup game for the ten cards kept, valued with the twelve
    (matadors count the skat, R5.2), with its win chance."""
    out: list[tuple[Plan, Contract]] = []
    bonus = skat_points / SKAT_POINTS_PER_UNIT
    for g in (*SUITS, GameType.GRAND):
        if g.is_suit and (hand10 & TRUMPS[g]).bit_count() < 4:
            continue
        if g == GameType.GRAND and (hand10 & JACKS).bit_count() < 2:
            continue
        st = suit_strength(hand10, g) + bonus
        curve = COUNTED_GRAND if g == GameType.GRAND else COUNTED_SUIT
        value = (abs(matadors(g, cards12)) + 1) * BASE_VALUE[g]
        plan = Plan(g, st, value, win=win_chance(st, curve))
        out.append((plan, Contract(g)))
    remove, danger = null_profile(hand10)
    if danger < 0.9:
        plan = Plan(GameType.NULL, 8.0, NULL_VALUES[False, False], win=null_win(danger))
        out.append((plan, Contract(_NULL)))
        if remove == 0 and _ouvert_ok(hand10, False):
            out.append(
                (
                    Plan(GameType.NULL, 8.0, NULL_VALUES[False, True], win=0.9, ouvert=True),
                    Contract(_NULL, ouvert=True),
                )
            )
    return out


_NULL = GameType.NULL


def _game_score(plan: Plan, bid: int) -> float:
    if plan.value < bid:
        # overbid: lost at the bid's level (R5.6) unless Schneider saves it
        return expected_score(0.0, bid) - 100 + plan.win
    return expected_score(plan.win, plan.value)


def best_discard(hand12: int, bid: int) -> int:
    """The two cards `heuristic` puts away from twelve at this bid (as a
    mask): every pair scored with the best game for the ten kept, the
    points put away breaking ties; the first best pair in card order, as
    the engine lists the discards."""
    cards = mask_cards(hand12)
    best = -1e18
    out = 0
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            mask = (1 << a) | (1 << b)
            pts = POINTS[a] + POINTS[b]
            score = max(
                (_game_score(p, bid) for p, _ in counted_games(hand12 & ~mask, hand12, pts)),
                default=-1e9,
            )
            score += pts / 100  # ties: save points
            if score > best:
                best, out = score, mask
    return out


# ------------------------------------------------------------------ the player
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

    def offturn(self, view: View) -> Action | None:
        """Kontra off one's turn (R9.3), by the same judgement as on it."""
        if any(isinstance(a, Kontra) for a in view.legal_actions) and self._wants_kontra(view):
            return next(a for a in view.legal_actions if isinstance(a, Kontra))
        return None

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
        ranked = sorted(games, key=lambda pc: _game_score(pc[0], view.bid), reverse=True)
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
        for cj, w in _SUIT_JACKS:
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


@register("heuristic")
def _make(rng: random.Random) -> HeuristicPlayer:
    return HeuristicPlayer(rng)


assert CARDS
