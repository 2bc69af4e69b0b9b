"""Worlds: the hidden cards of a deal dealt out consistently with one seat's view.

A *world* places every card the seat cannot see (SKAT-RULES.md R3.7) in the
other hands and the skat, so that the solver can play it with all cards open.
Only the `View` is read, never the deal:

- the seat's own hand, the cards played (R4), the skat when the seat knows it
  (the declarer after pickup, R3.1/R3.2) and the declarer's open cards
  (Ouvert, R3.4) are fixed;
- a seat that did not follow suit (R4.2) holds no card of that effective
  suit, trumps included (the voids);
- every other seat holds exactly as many cards as its hand size shows, and
  the skat two (unless the seat knows it).

`Sampler.sample` draws worlds **exactly uniformly** among all deals that fit
these hard facts (counting the completions per group of cards that share
the same possible holders, then choosing a split with probability
proportional to its count), deterministically for a given `random.Random`.
`Sampler.weighted` then weights them by what the other seats did
(`Inference`): the auction and the game chosen (`likelihood`), with the
same hand evaluation, or the very bidding rule, that `heuristic` uses; in
card play the cards they chose to play (`play_fit`: would `heuristic` have
played that card with this world's hand?) and, optionally, the declarer's
discard (`discard_fit`). It resamples in proportion to the weight
(importance resampling, duplicates merged into a count).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from math import comb
from typing import Any

from ..engine import BID_VALUES, CardSet, GameType, Phase, Trick, View
from ..engine.cards import ALL_CARDS, JACKS, mask_indices, mask_points
from ..engine.game import EFFECTIVE, SUIT_OF, TRUMPS
from .bidmodel import BidModel
from .cardplay import CardPlay
from .seatmodel import Moment, SeatModel
from .solver import Position
from .strength import best_discard, null_risk, top_value
from .strength import bid_limit as heuristic_limit


@dataclass(frozen=True, slots=True)
class World:
    """Current hands by position (0 forehand, 1 middlehand, 2 rearhand) and the skat."""

    hands: tuple[int, int, int]
    skat: int


@dataclass
class Knowledge:
    """What one seat knows of a deal, by position (see the module docstring)."""

    me: int
    game: GameType | None
    declarer: int  # position, -1 before the auction ends
    known: list[int]  # cards known to be in each position's hand now
    sizes: list[int]  # hand size of each position now
    skat: int | None  # the skat when this seat knows it
    skat_in_hand: bool  # the declarer holds twelve cards (discard phase)
    played_by: list[int]  # cards each position has played
    voids: list[int]  # cards each position cannot hold (shown voids)
    unknown: int  # the cards to place
    named: list[int] = field(default_factory=lambda: [0, 0, 0])  # highest value bid or held
    passed_at: list[int] = field(default_factory=lambda: [-1, -1, -1])  # auction value at pass
    hand_game: bool = False  # the declarer did not pick up the skat
    # every card played so far, in order: (position, card, completed tricks
    # before it, the (seat, card) pairs of its trick before it)
    plays: list[tuple[int, int, int, tuple[tuple[int, int], ...]]] = field(default_factory=list)
    view: View | None = None  # the view read (the public part is reused by the play inference)
    # `heuristic`'s card at a play given the hidden cards it depends on (per decision)
    _choices: dict[tuple[int, int, int, int], int] = field(default_factory=dict)
    # `heuristic`'s card play at each play, its public part read once (per decision)
    _readings: dict[int, CardPlay] = field(default_factory=dict)
    # the seat model's score of a card at a play given its suit's cards (per decision)
    _model_scores: dict[tuple[int, int, int, int], float] = field(default_factory=dict)

    @classmethod
    def from_view(cls, view: View) -> Knowledge:
        me = view.position
        if me is None:
            raise ValueError("a seat outside the deal has no worlds")
        pos_of = {s: p for p, s in enumerate(view.seats)}
        declarer = -1 if view.declarer_seat is None else pos_of[view.declarer_seat]
        contract = view.contract
        game = contract.game if contract is not None else None
        sizes = [view.hand_sizes[s] for s in view.seats]
        known = [0, 0, 0]
        known[me] = view.hand.mask
        if view.open_cards is not None and declarer >= 0:
            known[declarer] |= view.open_cards.mask
        played_by = [0, 0, 0]
        voids = [0, 0, 0]
        played = 0
        eff = EFFECTIVE[game] if game is not None else None
        suit_of = SUIT_OF[game] if game is not None else None
        for t in view.tricks:
            _note(t.leader, [int(c) for c in t.cards], played_by, voids, eff, suit_of)
        if view.trick:
            leader = pos_of[view.trick[0][0]]
            _note(leader, [int(c) for _, c in view.trick], played_by, voids, eff, suit_of)
        for m in played_by:
            played |= m
        skat_in_hand = view.phase is Phase.DISCARD and me == declarer
        skat: int | None = None
        if view.skat is not None and me == declarer and not skat_in_hand:
            skat = view.skat.mask  # put away (before the discard it is in the hand)
        hand_game = False
        if contract is not None and contract.hand:
            hand_game = True
        seen = played | known[0] | known[1] | known[2] | (skat or 0)
        unknown = ALL_CARDS & ~seen
        k = cls(
            me=me,
            game=game,
            declarer=declarer,
            known=known,
            sizes=sizes,
            skat=skat,
            skat_in_hand=skat_in_hand,
            played_by=played_by,
            voids=voids,
            unknown=unknown,
            hand_game=hand_game,
            view=view,
        )
        k._read_auction(view, pos_of)
        for n, t in enumerate(view.tricks):
            before: tuple[tuple[int, int], ...] = ()
            for i, c in enumerate(t.cards):
                p = (t.leader + i) % 3
                k.plays.append((p, int(c), n, before))
                before = (*before, (view.seats[p], int(c)))
        before = ()
        for s, c in view.trick:
            k.plays.append((pos_of[s], int(c), len(view.tricks), before))
            before = (*before, (s, int(c)))
        return k

    def _read_auction(self, view: View, pos_of: dict[int, int]) -> None:
        value = 0
        for seat, text in view.history:
            p = pos_of.get(seat)
            if p is None:
                continue
            word, _, rest = text.partition(" ")
            if word == "bid" and rest.isdigit():
                value = int(rest)
                self.named[p] = max(self.named[p], value)
            elif word == "hold":
                self.named[p] = max(self.named[p], value)
            elif word == "pass" and self.passed_at[p] < 0:
                self.passed_at[p] = value
            elif word not in ("bid", "hold", "pass"):
                break  # the auction is over

    @property
    def shown_by_others(self) -> int:
        """The highest value another seat bid or held in the auction."""
        return max((v for p, v in enumerate(self.named) if p != self.me), default=0)

    @property
    def skat_need(self) -> int:
        """Unknown cards that lie in the skat."""
        return 0 if self.skat is not None or self.skat_in_hand else 2

    def needs(self) -> list[int]:
        """Unknown cards each other position holds (index = position; own = 0)."""
        out = [0, 0, 0]
        for p in range(3):
            if p != self.me:
                out[p] = self.sizes[p] - self.known[p].bit_count()
        return out


def _note(
    leader: int,
    cards: list[int],
    played_by: list[int],
    voids: list[int],
    eff: tuple[int, ...] | None,
    suit_of: tuple[int, ...] | None,
) -> None:
    for i, c in enumerate(cards):
        p = (leader + i) % 3
        played_by[p] |= 1 << c
        if eff is not None and suit_of is not None and i > 0:
            led = eff[cards[0]]
            if eff[c] != led:
                voids[p] |= suit_of[led]  # R4.2: did not follow, so holds none of it


class Sampler:
    """Exactly uniform worlds for a `Knowledge` (see the module docstring)."""

    def __init__(self, know: Knowledge) -> None:
        self.know = know
        self.holders: list[int] = [p for p in range(3) if p != know.me]  # positions; -1 = skat
        needs = know.needs()
        self.need: list[int] = [needs[p] for p in self.holders]
        if know.skat_need:
            self.holders.append(-1)
            self.need.append(know.skat_need)
        if sum(self.need) != know.unknown.bit_count():
            raise ValueError("the view's hand sizes do not add up")
        groups: dict[int, list[int]] = {}
        for c in range(32):
            if not know.unknown >> c & 1:
                continue
            pattern = 0
            for i, h in enumerate(self.holders):
                if h < 0 or not know.voids[h] >> c & 1:
                    pattern |= 1 << i
            groups.setdefault(pattern, []).append(c)
        self.groups = sorted(groups.items())
        # per (group, cards still needed): the splits of the group that leave
        # a completion, each with its number of worlds, and their sum
        self._options: dict[
            tuple[int, tuple[int, ...]], tuple[list[tuple[int, tuple[int, ...]]], int]
        ] = {}
        if self.ways(0, tuple(self.need)) == 0:
            raise ValueError("no deal fits the view")

    def _splits(self, pattern: int, n: int, rem: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Ways to split ``n`` cards among the allowed holders within ``rem``."""
        allowed = [i for i in range(len(rem)) if pattern >> i & 1]
        out: list[tuple[int, ...]] = []

        def rec(j: int, left: int, acc: list[int]) -> None:
            if j == len(allowed) - 1:
                i = allowed[j]
                if left <= rem[i]:
                    acc[i] = left
                    out.append(tuple(acc))
                    acc[i] = 0
                return
            i = allowed[j]
            for k in range(min(left, rem[i]) + 1):
                acc[i] = k
                rec(j + 1, left - k, acc)
            acc[i] = 0

        if allowed:
            rec(0, n, [0] * len(rem))
        return out

    def ways(self, g: int, rem: tuple[int, ...]) -> int:
        """Number of completions from group ``g`` on with ``rem`` cards still needed."""
        if g == len(self.groups):
            return 1 if not any(rem) else 0
        return self._splits_of(g, rem)[1]

    def _splits_of(
        self, g: int, rem: tuple[int, ...]
    ) -> tuple[list[tuple[int, tuple[int, ...]]], int]:
        """The splits of group ``g`` that leave a completion, each with its
        number of worlds, and their sum (kept: `ways` and every sample ask again)."""
        key = (g, rem)
        got = self._options.get(key)
        if got is None:
            pattern, cards = self.groups[g]
            options: list[tuple[int, tuple[int, ...]]] = []
            for split in self._splits(pattern, len(cards), rem):
                rest = tuple(r - k for r, k in zip(rem, split, strict=True))
                w = self.ways(g + 1, rest)
                if w:
                    options.append((_multinomial(len(cards), split) * w, split))
            got = self._options[key] = (options, sum(w for w, _ in options))
        return got

    def sample(self, rng: random.Random) -> World:
        """One world, uniformly among those consistent with the view."""
        know = self.know
        rem = tuple(self.need)
        got = [0] * len(self.holders)
        for g, (_, cards) in enumerate(self.groups):
            options, total = self._splits_of(g, rem)
            pick = rng.randrange(total)
            chosen = options[-1][1]
            for w, option in options:
                if pick < w:
                    chosen = option
                    break
                pick -= w
            split = chosen
            order = cards[:]
            rng.shuffle(order)
            at = 0
            for i, k in enumerate(split):
                for c in order[at : at + k]:
                    got[i] |= 1 << c
                at += k
            rem = tuple(r - k for r, k in zip(rem, split, strict=True))
        hands = list(know.known)
        skat = know.skat or 0
        for i, h in enumerate(self.holders):
            if h < 0:
                skat |= got[i]
            else:
                hands[h] |= got[i]
        return World((hands[0], hands[1], hands[2]), skat)

    def weighted(
        self,
        rng: random.Random,
        count: int,
        candidates: int | None = None,
        inference: Inference | None = None,
    ) -> list[tuple[World, int]]:
        """``count`` worlds drawn in proportion to their `likelihood` (and, when
        ``inference`` says so, to their `play_fit`), as (world, multiplicity)
        pairs in the order first drawn."""
        inf = inference or Inference()
        n = candidates if candidates is not None else 3 * count
        pool = [self.sample(rng) for _ in range(max(n, count))]
        # late in a deal most of the pool are repeats (at three cards a hand,
        # 60% of it): each world is judged once
        bids = inf.bid_model
        of = {
            x: likelihood(
                self.know,
                x,
                inf.bid_miss,
                inf.pass_miss,
                inf.exact,
                bids,
                inf.bid_uniform,
                inf.bid_rule,
            )
            for x in pool
        }
        if inf.play_model is not None and self.know.plays:
            model, uniform = inf.play_model, inf.model_uniform
            of = {x: w * model_fit(self.know, x, model, uniform) for x, w in of.items()}
        elif inf.play_miss is not None and self.know.plays:
            miss = inf.play_miss
            of = {x: w * play_fit(self.know, x, miss) for x, w in of.items()}
        if inf.discard_miss is not None and _reads_discard(self.know):
            # only worlds that still matter are checked (the rule costs 1-2 ms a world)
            floor = DISCARD_RELEVANT * max(of.values())
            dm = inf.discard_miss
            of = {x: w * discard_fit(self.know, x, dm) if w >= floor else w for x, w in of.items()}
        weights = [of[x] for x in pool]
        total = sum(weights)
        out: dict[World, int] = {}
        for _ in range(count):
            x = rng.random() * total
            chosen = pool[-1]
            for w, world in zip(weights, pool, strict=True):
                x -= w
                if x <= 0:
                    chosen = world
                    break
            out[chosen] = out.get(chosen, 0) + 1
        return list(out.items())


def _multinomial(n: int, split: tuple[int, ...]) -> int:
    out = 1
    for k in split:
        out *= comb(n, k)
        n -= k
    return out


# ------------------------------------------------------------------ inference
#: How much less likely a hand is when it contradicts what its seat did
#: (soft, since other players bid differently from `heuristic`).
BID_MISS = 0.2
PASS_MISS = 0.3
#: With the bid model (`likelihood`): the share of a seat's weight whatever
#: its cards, and the share of bidders who bid by the rule. Chosen on the
#: auctions of XSkat's, `heuristic`'s and `search`'s bidders: the true hands'
#: weight against uniform worlds' (docs/lab/strength-log.md).
BID_UNIFORM = 0.05
BID_RULE = 0.3


@dataclass(frozen=True)
class Inference:
    """How strongly `Sampler.weighted` believes what the other seats did:
    the factor for a hand that bid (held) more than `heuristic` would, for
    one that passed where it would have bid, and for every card played that
    `heuristic`'s card play would not have chosen (None: the cards played
    are not read, as in ``search-v1``)."""

    bid_miss: float = BID_MISS
    pass_miss: float = PASS_MISS
    play_miss: float | None = None
    exact: bool = False  # bid limits by `heuristic`'s own bidding rule (see `likelihood`)
    discard_miss: float | None = None  # a declarer's skat that `heuristic` would not put away
    # the cards played read by the learned seat model instead (`model_fit`),
    # with this share of uniform play mixed in
    play_model: SeatModel | None = None
    model_uniform: float = 0.2
    # the auction read by a mixture of the rule and the learned bid model
    # instead (`likelihood`)
    bid_model: BidModel | None = None
    bid_uniform: float = BID_UNIFORM
    bid_rule: float = BID_RULE


def bid_limit(hand10: int) -> int:
    """The highest value `heuristic` would bid with these ten cards (its own rule)."""
    return top_value(hand10)


def _next_bid(value: int) -> int:
    for b in BID_VALUES:
        if b > value:
            return b
    return 10_000


#: The bidding limit of ten cards by (cards, rule: 0 `bid_limit`, 1
#: `heuristic`'s own, 2 its own in forehand): pure functions, shared by all players.
_LIMITS: dict[tuple[int, int], int] = {}


def likelihood(
    know: Knowledge,
    world: World,
    bid_miss: float = BID_MISS,
    pass_miss: float = PASS_MISS,
    exact: bool = False,
    bid_model: BidModel | None = None,
    bid_uniform: float = BID_UNIFORM,
    bid_rule: float = BID_RULE,
) -> float:
    """How well the hidden hands of ``world`` fit the auction and the game chosen.

    A seat that bid or held a value X is likely to hold a hand whose bidding
    limit is at least X; one that passed at value V one whose limit is below
    the next value. The declarer's chosen game should have trumps (suit),
    jacks (Grand) or a Null-safe hand. The hand evaluated is the seat's ten
    dealt cards: its current hand plus what it played (for a declarer who
    picked up, his final ten cards instead). The limit is the value of the
    best game `heuristic` sees in the hand, or with ``exact`` its own bidding
    rule (`heuristic.bid_limit`: only games whose expectation beats passing,
    the forehand's Grand bonus). The limits are kept (`_LIMITS`), and each
    seat's factors (`_FACTORS`): the same ten cards come back in world after
    world of a deal.

    With ``bid_model`` (`bidmodel`, issue 53, point 4) a seat's bids and pass
    weigh the world as a mixture of bidders instead of by the rule's
    factors: ``bid_rule`` where the cards fit the rule, the rest by the
    model's chance of what the seat did with those ten cards, and
    ``bid_uniform`` whatever the cards."""
    how = (bid_miss, pass_miss, exact, bid_model, bid_uniform, bid_rule)
    kept = _FACTORS.get(how)
    if kept is None:
        if len(_FACTORS) > 8:
            _FACTORS.clear()
        kept = _FACTORS[how] = {}
    w = 1.0
    for p in range(3):
        if p == know.me:
            continue
        ten = world.hands[p] | know.played_by[p]
        if ten.bit_count() != 10:
            continue
        declarer = p == know.declarer
        game = int(know.game) if declarer and know.game is not None else -1
        key = (ten, p, know.named[p], know.passed_at[p], declarer, game)
        got = kept.get(key)
        if got is None:
            if len(kept) > 50_000:  # some forty deals' hidden hands (a deal's are what repeat)
                kept.clear()
            got = kept[key] = _seat_factor(
                know, p, ten, bid_miss, pass_miss, exact, bid_model, bid_uniform, bid_rule
            )
        w *= got[0]
        if got[1] is not None:
            w *= got[1]  # (two products, as the factors were always taken)
    return w


#: `_seat_factor` by everything it reads: per setting of `likelihood`, by the
#: ten cards, the position, what it bid and where it passed, and the game
#: if it declared (plain numbers: the garbage collector does not walk the
#: keys). A pure function, so the same hidden hand in another world or
#: another decision of the deal is not judged again.
_FACTORS: dict[tuple[Any, ...], dict[tuple[int, ...], tuple[float, float | None]]] = {}


def _limit_of(p: int, ten: int, exact: bool) -> int:
    """`heuristic`'s bidding limit of ``ten`` in position ``p`` (its own rule with
    ``exact``, else `bid_limit`), kept in `_LIMITS`."""
    kind = (2 if p == 0 else 1) if exact else 0
    got = _LIMITS.get((ten, kind))
    if got is None:
        if len(_LIMITS) > 200_000:
            _LIMITS.clear()
        got = heuristic_limit(ten, p == 0) if exact else bid_limit(ten)
        _LIMITS[(ten, kind)] = got
    return got


def _seat_factor(
    know: Knowledge,
    p: int,
    ten: int,
    bid_miss: float,
    pass_miss: float,
    exact: bool,
    bid_model: BidModel | None,
    bid_uniform: float,
    bid_rule: float,
) -> tuple[float, float | None]:
    """`likelihood`'s factors of position ``p`` dealt ``ten``: what it did in
    the auction and, for the declarer, the game he chose (None for another
    seat). It reads of ``know`` only ``p``'s bids and pass, the declarer and
    the game (`likelihood`'s cache key)."""
    limit: int | None = None
    factor = 1.0  # the rule's
    fits = True  # the seat did what the rule says of these cards
    if know.named[p]:
        limit = _limit_of(p, ten, exact)
        if limit < know.named[p]:
            factor *= bid_miss
            fits = False
    if know.passed_at[p] >= 0 and p != know.declarer:
        if limit is None:
            limit = _limit_of(p, ten, exact)
        if limit >= _next_bid(know.passed_at[p]):
            factor *= pass_miss
            fits = False
    if bid_model is not None:
        # a mixture of bidders: ``bid_rule`` of them bid by the rule, the
        # rest by the model, beside ``bid_uniform`` of the weight
        # whatever the cards (in place of the rule's factors)
        passed = know.passed_at[p] if p != know.declarer else -1
        if exact and limit is None:
            limit = _limit_of(p, ten, exact)  # the model's first feature, kept per ten cards
        chance = bid_model.chance(ten, p, know.named[p], passed, limit if exact else None)
        by_rule = bid_rule if fits else 0.0
        factor = bid_uniform + by_rule + (1 - bid_uniform - bid_rule) * chance
    if p == know.declarer and know.game is not None:
        return factor, _game_fit(know.game, ten)
    return factor, None


def _game_fit(game: GameType, ten: int) -> float:
    if game.is_suit:
        n = (ten & TRUMPS[game]).bit_count()
        return 1.0 if n >= 5 else 0.5 if n == 4 else 0.15
    if game == GameType.GRAND:
        return 1.0 if (ten & JACKS).bit_count() >= 2 else 0.3
    if game == GameType.NULL:
        return 1.0 if null_risk(ten) <= 1 else 0.3
    return 1.0


#: Below this weight a world is as good as ruled out (its other cards are not checked).
PLAY_FLOOR = 1e-4


def seat_view(
    view: View,
    p: int,
    hand: int,
    skat: int,
    open_cards: int,
    trick: tuple[tuple[int, Any], ...],
    tricks: tuple[Trick, ...],
) -> View:
    """What position ``p`` of ``view``'s deal sees with ``hand`` (its skat
    and the declarer's open cards as masks, -1 where it sees none) at
    ``trick`` after ``tricks``: the public part is ``view``'s. For asking
    `heuristic`'s card play what that seat would play in a world."""
    return replace(
        view,
        seat=view.seats[p],
        position=p,
        hand=CardSet(hand),
        skat=None if skat < 0 else CardSet(skat),
        open_cards=None if open_cards < 0 else CardSet(open_cards),
        trick=trick,
        tricks=tricks,
        legal_actions=(),
    )


def _choices_made(
    know: Knowledge, world: World
) -> Iterator[tuple[int, int, int, int, tuple[tuple[int, int], ...], list[int], int]]:
    """The cards the other seats played where they had a choice, the last
    first, in ``world``: (its index in ``know.plays``, the position, the
    card, the tricks completed before it, the (seat, card) pairs of its
    trick before it, every position's hand just before it, its legal cards
    as a mask). A caller may stop at any card."""
    assert know.game is not None
    suit_of = SUIT_OF[know.game]
    eff = EFFECTIVE[know.game]
    hands = list(world.hands)
    for i in range(len(know.plays) - 1, -1, -1):
        p, card, n, before = know.plays[i]
        hands[p] |= 1 << card  # the hand before this card
        if p == know.me:
            continue
        legal = hands[p]
        if before:
            follow = legal & suit_of[eff[before[0][1]]]
            if follow:
                legal = follow
        if legal & (legal - 1):  # a choice
            yield i, p, card, n, before, hands, legal


def play_fit(know: Knowledge, world: World, miss: float) -> float:
    """How well the cards the other seats played fit ``world``: a factor of
    ``miss`` for every card that `heuristic`'s card play, given that seat's
    hand in this world and what it saw at the time, would not have chosen
    (only where it had a choice). Soft, like the auction's factors: other
    players play differently from `heuristic`, but a club player leads his
    ace, smears on his partner's trick and keeps his trumps for a reason,
    and that says where the cards are."""
    view = know.view
    c = view.contract if view is not None else None
    if view is None or c is None or know.game is None:
        return 1.0
    d = know.declarer
    w = 1.0
    choices = know._choices
    readings = know._readings
    for i, p, card, n, before, hands, legal in _choices_made(know, world):
        hand = hands[p]
        skat = world.skat if p == d and not know.hand_game else -1
        open_cards = hands[d] if c.ouvert and p != d and d >= 0 else -1
        key = (i, hand, skat, open_cards)
        choice = choices.get(key)
        if choice is None:
            reading = readings.get(i)
            if reading is None:
                seen = seat_view(view, p, hand, skat, open_cards, before, view.tricks[:n])
                reading = readings[i] = CardPlay(seen)
            else:
                reading = reading.holding(hand, skat, open_cards)
            choice = reading.choose(mask_indices(legal))
            choices[key] = choice
        if choice != card:
            w *= miss
            if w < PLAY_FLOOR:
                break  # as good as ruled out: the rest cannot matter
    return w


def model_fit(know: Knowledge, world: World, model: SeatModel, uniform: float) -> float:
    """How well the cards the other seats played fit ``world`` by the learned
    seat model (`seatmodel`; issue 53, point 4): per card played from a
    choice, its chance with that seat's hand in this world, ``uniform`` of
    it uniform play (no model knows a stranger), as a share of the likeliest
    card's there. The worlds' weights multiply it; `play_fit` is the rule
    it replaces."""
    view = know.view
    if view is None or view.contract is None or know.game is None:
        return 1.0
    d = know.declarer
    pos_of = {s: p for p, s in enumerate(view.seats)}
    gone = [0]
    for t in view.tricks:
        gone.append(gone[-1] | sum(1 << int(c) for c in t.cards))
    suits = SUIT_OF[know.game]
    eff = EFFECTIVE[know.game]
    # a card's score depends on the public moment and its own suit's cards
    # only (`seatmodel.features`): cached by them, shared by the worlds
    scores = know._model_scores
    w = 1.0
    for i, p, card, n, before, hands, legal in _choices_made(know, world):
        hand = hands[p]
        skat = world.skat if p == d and not know.hand_game else 0
        got: dict[int, float] = {}
        m: Moment | None = None
        for c in mask_indices(legal):
            suit = suits[eff[c]]
            key = (i, c, hand & suit, skat & suit)
            v = scores.get(key)
            if v is None:
                if m is None:
                    trick = tuple((pos_of[s], x) for s, x in before)
                    m = Moment(know.game, p, d, hand, trick, gone[n] | skat, n)
                v = scores[key] = model.score(m, c)
            got[c] = v
        top = max(got.values())
        exps = {c: math.exp(v - top) for c, v in got.items()}
        total = sum(exps.values())
        share = uniform / len(exps)
        f = (share + (1 - uniform) * exps[card] / total) / (share + (1 - uniform) / total)
        w *= f
        if w < PLAY_FLOOR:
            break  # as good as ruled out: the rest cannot matter
    return w


#: Worlds weighted below this share of the best one are not checked for the discard.
DISCARD_RELEVANT = 0.02
#: `heuristic`'s discard per (twelve cards, bid): a pure function, shared by all players.
_DISCARDS: dict[tuple[int, int], int] = {}


def _reads_discard(know: Knowledge) -> bool:
    """A defender in play against a declarer who picked up the skat."""
    d = know.declarer
    return (
        d >= 0
        and d != know.me
        and not know.hand_game
        and know.skat_need == 2
        and know.view is not None
        and know.view.phase is Phase.PLAY
    )


def discard_fit(know: Knowledge, world: World, miss: float) -> float:
    """``miss`` when the declarer's skat in ``world`` is not what `heuristic`
    would put away from his twelve cards of that world at this bid
    (`heuristic.best_discard`), else 1: a club player keeps his trumps and
    aces and puts away bare tens and the cards of a short suit."""
    view = know.view
    assert view is not None
    d = know.declarer
    cards12 = world.hands[d] | know.played_by[d] | world.skat
    key = (cards12, view.bid)
    got = _DISCARDS.get(key)
    if got is None:
        if len(_DISCARDS) > 100_000:
            _DISCARDS.clear()
        got = _DISCARDS[key] = best_discard(cards12, view.bid)
    return 1.0 if got == world.skat else miss


def solver_positions(view: View, declarer: int, worlds: Sequence[World]) -> list[Position]:
    """The open-card positions of ``worlds`` at ``view``'s moment of the
    card play: the trick in progress and its leader, what the declarer
    (position ``declarer``) has won so far, the skat counted for him in suit
    and Grand games."""
    c = view.contract
    assert c is not None
    pos_of = {s: p for p, s in enumerate(view.seats)}
    if view.trick:
        leader = pos_of[view.trick[0][0]]
    elif view.tricks:
        leader = view.tricks[-1].winner
    else:
        leader = 0
    trick = tuple(int(card) for _, card in view.trick)
    won = [t for t in view.tricks if t.winner == declarer]
    points = sum(t.points for t in won)
    lost = len(view.tricks) - len(won)
    null = c.game == GameType.NULL
    return [
        Position(
            c.game,
            w.hands,
            declarer,
            leader,
            trick,
            points if null else points + mask_points(w.skat),
            len(won),
            lost,
        )
        for w in worlds
    ]
