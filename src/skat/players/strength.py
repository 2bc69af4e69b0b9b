"""Hand evaluation by rule: the strength counts that `heuristic`, `search`
and the world sampler share (issue 4, issue 25).

A hand's strength for a suit game or Grand is a tricks-worth count (jacks and
trumps by rank and length, side aces and tens, voids, losers); a logistic
curve per stage turns it into a win chance (the curves were measured by
playing `heuristic` against itself, docs/players.md). Null is judged by how
many suits can be forced to take a trick. `plans` lists the games of ten
cards before the skat, `counted_games` those of the ten kept after the
discard, `bid_limit` and `best_discard` are `heuristic`'s decisions. The
learned evaluator (`skat.players.handeval`) answers the same questions from
played games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..engine import (
    Contract,
    GameType,
)
from ..engine.cards import JACKS, POINTS, SUIT_MASKS, mask_cards
from ..engine.game import BASE_VALUE, NULL_VALUES, TRUMPS
from ..engine.values import matadors

SUITS = (GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS)
_ACES = sum(1 << (8 * s) for s in range(4))
_TENS = sum(1 << (8 * s + 1) for s in range(4))
_JACK_WEIGHT = {4: 2.5, 12: 2.2, 20: 1.9, 28: 1.6}  # CJ SJ HJ DJ (kept for callers)
SUIT_JACKS = ((4, 2.0), (12, 1.8), (20, 1.6), (28, 1.45))  # jacks as trumps of a suit game
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
SKAT_POINTS_PER_UNIT = 15.0  # card points in the discarded skat worth one strength unit
BID_EV = 0.0  # expected score a pickup game must beat for a bid (passing and defending)
BID_EV_HAND = 30.0  # ... a Hand game


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
    for c, w in SUIT_JACKS:
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


def _opens_safely(ranks: int) -> bool:
    """Whether forehand may lead this suit's seven at trick 1 of a Null and
    stay safe: the seven is held, the others must follow above it (at most
    five held, so the skat cannot hide the rest), and the cards left can
    still always duck (the j-th lowest of the whole holding, from 0, ranks at
    most 2j - 1 once the seven is gone)."""
    if not ranks & 1 or ranks.bit_count() > 5:
        return False
    j = 0
    for r in range(8):
        if ranks >> r & 1:
            if j and r > 2 * j - 1:
                return False
            j += 1
    return True


def cold_null(hand: int, forehand: bool) -> bool:
    """Whether ten cards win a Null even played open (R3.6: Null Ouvert, the
    hand shown before the first card) against any distribution and any
    defence: every suit can always duck (`_null_suit`: each card has at
    most as many cards still out below it as cards of ours below it, and a
    duck keeps that so), and forehand, who leads the first trick (R4.2), has
    a seven to lead that leaves its suit so (`_opens_safely`). Never on
    lead again, the declarer only follows or throws off a suit's top card."""
    suits = [_null_ranks(hand, u) for u in range(4)]
    if any(_null_suit(r)[0] for r in suits):
        return False
    return not forehand or any(_opens_safely(r) for r in suits)


def _suit_danger(ranks: int) -> float:
    k, excess = _null_suit(ranks)
    if not k:
        return 0.0
    return min(1.0, NULL_EXCESS * excess * (1 + excess) / 2 + NULL_EXTRA * (k - 1))


def _top_null_card(hand: int, suit: int) -> int:
    """The highest card of ``suit`` in Null order (the first to shed)."""
    bits = hand >> (8 * suit) & 0xFF
    return _TOP_NULL[bits] + 8 * suit


#: The rank index of the highest card in Null order of each suit byte (-1 for none).
_TOP_NULL: tuple[int, ...] = tuple(
    max((idx for idx in range(8) if bits >> idx & 1), key=lambda i: _NULL_RANK[i], default=-1)
    for bits in range(256)
)


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
    global _NULL_TABLE
    if not _NULL_TABLE:
        _NULL_TABLE = _null_table()
    t = _NULL_TABLE
    return (
        (t[hand & 0xFF][0] > 0)
        + (t[hand >> 8 & 0xFF][0] > 0)
        + (t[hand >> 16 & 0xFF][0] > 0)
        + (t[hand >> 24 & 0xFF][0] > 0)
    )


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
    """Seeger-Fabian expectation of declaring (R8.2, three players): +50 and
    the value when won, -50 and twice the value when lost, and the 40 each
    defender then gains weighs against us too."""
    return win * (value + 50) - (1.0 - win) * (2 * value + 90)


def _schneider_chance(strength: float, curve: tuple[float, float]) -> float:
    return win_chance(strength, (curve[0] + 4.5, curve[1]))


def plans(hand: int, with_hand_option: bool, forehand: bool = False) -> list[Plan]:
    """Games for a ten-card hand before the skat, each with its value and win chance.

    Pickup games count on the average gain of the skat; a Hand game adds a
    level but no skat. The value counts Schneider when it is likely."""
    return _trump_plans(hand, with_hand_option, forehand) + _null_plans(
        hand, with_hand_option, forehand
    )


def _trump_plans(hand: int, with_hand_option: bool, forehand: bool) -> list[Plan]:
    """The suit and Grand games of `plans`."""
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
    return out


def _null_plans(hand: int, with_hand_option: bool, forehand: bool, above: int = -1) -> list[Plan]:
    """The Null games of `plans`; with ``above``, only those worth more than
    that (a bidding limit already there does not need the others, and their
    danger after shedding is the dearest part of `plans`)."""
    out: list[Plan] = []
    remove, danger = null_profile(hand)
    if danger <= 1.5:
        # a pickup Null sheds two cards; the skat may bring its own danger
        if NULL_VALUES[False, False] > above:
            pdanger = null_danger_after_shedding(hand, 2) + 0.12
            out.append(Plan(GameType.NULL, 8.0, NULL_VALUES[False, False], win=null_win(pdanger)))
        if (
            NULL_VALUES[False, True] > above
            and remove <= 1
            and null_danger_after_shedding(hand, 1) == 0
        ):
            out.append(Plan(GameType.NULL, 8.0, NULL_VALUES[False, True], win=0.8, ouvert=True))
    if with_hand_option and danger <= 0.5:
        if NULL_VALUES[True, False] > above:
            out.append(
                Plan(GameType.NULL, 8.0, NULL_VALUES[True, False], hand=True, win=null_win(danger))
            )
        if NULL_VALUES[True, True] > above and danger == 0 and _ouvert_ok(hand, forehand):
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


def top_value(hand: int) -> int:
    """The value of the highest game of ``plans(hand, True)``, whatever its chance."""
    best = max((p.value for p in _trump_plans(hand, True, False)), default=0)
    return max((p.value for p in _null_plans(hand, True, False, best)), default=best)


def bid_limit(hand: int, forehand: bool = False, aggression: float = 0.0) -> int:
    """The highest bid the hand is worth: the value of the best game whose
    expected score beats passing.

    The games of `plans` without making them (the world sampler asks this of
    every hidden hand it weighs): a game whose values cannot pass the limit
    found so far is not evaluated, nor its worth; the floats are the same
    operations as in `_trump_plans` and `_null_plans`, so the limit is the
    one the whole list gives (tests/players/test_strength.py)."""
    best = 0
    for g in _TRUMP_GAMES:
        grand = g == GameType.GRAND
        if grand:
            if (hand & JACKS).bit_count() < 2:
                continue
        elif (hand & TRUMPS[g]).bit_count() < 4:
            continue
        mult = abs(matadors(g, hand)) + 1
        base = BASE_VALUE[g]
        if (mult + 2) * base <= best:
            continue  # not even its Hand game with Schneider counted beats the limit
        st = suit_strength(hand, g) + (FOREHAND_GRAND if grand and forehand else 0.0)
        curve = PICKUP_GRAND if grand else PICKUP_SUIT
        value = (mult + (1 if _schneider_chance(st, curve) > 0.6 else 0)) * base
        if (
            value > best
            and expected_score(min(1.0, win_chance(st, curve) + aggression), value) > BID_EV
        ):
            best = value
        curve = HAND_GRAND if grand else HAND_SUIT
        value = (mult + 1 + (1 if _schneider_chance(st, curve) > 0.6 else 0)) * base
        if value > best and (
            expected_score(min(1.0, win_chance(st, curve) + aggression), value) > BID_EV_HAND
        ):
            best = value
    # the Null games only where they could raise the limit (the same limit)
    for p in _null_plans(hand, True, forehand, best):
        if p.value > best:
            floor = BID_EV_HAND if p.hand else BID_EV
            if expected_score(min(1.0, p.win + aggression), p.value) > floor:
                best = p.value
    return best


_TRUMP_GAMES = (*SUITS, GameType.GRAND)


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


def game_score(plan: Plan, bid: int) -> float:
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
                (game_score(p, bid) for p, _ in counted_games(hand12 & ~mask, hand12, pts)),
                default=-1e9,
            )
            score += pts / 100  # ties: save points
            if score > best:
                best, out = score, mask
    return out


# ------------------------------------------------------------------ small counts


def trump_count(hand: int, game: GameType) -> int:
    return (hand & TRUMPS[game]).bit_count()


def best_suit(hand: int) -> GameType:
    """The suit with the most trumps (jacks + suit cards), ties to the higher card points."""
    return max(SUITS, key=lambda g: (trump_count(hand, g), g == GameType.CLUBS, -int(g)))


def plain_value(hand: int, game: GameType) -> int:
    """(matadors + 1) x base for this hand alone: the value a bidder can count on
    (R5), treating the unseen skat as holding no trump."""
    return (abs(matadors(game, hand)) + 1) * BASE_VALUE[game]


def jack_count(hand: int) -> int:
    return (hand & JACKS).bit_count()


def suit_length(hand: int, suit: int) -> int:
    return (hand & SUIT_MASKS[suit] & ~JACKS).bit_count()
