"""The worked examples of SKAT-RULES.md as table-driven tests.

* R7.7 EX-01 .. EX-26 (game value, overbidding, list entries),
* R9.6 EX-K1 .. EX-K5 (Kontra, Re and Bock factors),
* R9.1 EX-R1 .. EX-R7 (Ramsch entries),
* R8.6 worked list checked against the R8.3 tournament formula.

Each example row is copied from the rules document; the 12-card mask of the
declarer (10 dealt cards + the skat as dealt, R5.2) is built to hold exactly the
jacks the example names, padded with cards that cannot extend a matador run.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from skat.engine import (
    Announce,
    Bid,
    Card,
    Contract,
    Deal,
    GameType,
    IllegalActionError,
    Pass,
    Reason,
)
from skat.engine.cards import to_mask
from skat.engine.game import BASE_VALUE
from skat.engine.ramsch import entries as ramsch_entries
from skat.engine.values import (
    Valuation,
    matadors,
    seeger_fabian_others,
    value_game,
)

C, S, H, D = GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS
G, N = GameType.GRAND, GameType.NULL

_JACK_NAMES = ("CJ", "SJ", "HJ", "DJ")


def twelve_cards(game: GameType, hand_jacks: str = "", skat_jacks: str = "") -> int:
    """The declarer's 12 cards (R5.2): the named jacks in the ten dealt cards and
    in the skat, padded with non-jack cards outside the trump suit, so that the
    matadors depend on the jacks alone."""
    jacks = [Card[name] for name in (hand_jacks + " " + skat_jacks).split()]
    assert all(j.name in _JACK_NAMES for j in jacks)
    trump_suit = int(game) if game.is_suit else -1
    filler = [c for c in Card if c.name not in _JACK_NAMES and c.suit != trump_suit]
    cards = jacks + filler[: 12 - len(jacks)]
    assert len(set(cards)) == 12
    return to_mask(cards)


@dataclass(frozen=True)
class Example:
    """One row of R7.7 / R9.6."""

    contract: Contract
    jacks: str  # jacks among the 10 dealt cards
    skat_jacks: str  # jacks in the skat as dealt
    matadors: int  # signed: +n "with n", -n "without n", 0 for Null
    bid: int
    points: int  # declarer's card points incl. skat
    tricks: int  # declarer's tricks
    multiplier: int  # R5.4 multiplier of the game value (before R7); 0 for Null
    value: int  # R6.5 value written into R8 (charged amount when overbid)
    won: bool
    overbid: bool
    plain: int
    sf: int  # Seeger-Fabian entry of the declarer
    others: int  # what each other player gets under Seeger-Fabian
    tricks_played: int = 10
    players: int = 3
    kontra_factor: int = 1  # R9.6: 1, 2 (Kontra) or 4 (Kontra and Re)
    bock_factor: int = 1  # R9.6: 1 or 2 (Bock deal)


def pickup(game: GameType) -> Contract:
    return Contract(game)


def hand(game: GameType, *, schneider: bool = False, schwarz: bool = False) -> Contract:
    return Contract(game, hand=True, schneider=schneider, schwarz=schwarz)


def ouvert_hand(game: GameType) -> Contract:
    return Contract(game, hand=True, ouvert=True)


E = Example
# R7.7 worked examples (3 players unless stated; factor 1).
R7_7_EXAMPLES = [
    # EX-01: CJ SJ, no HJ -> with 2; Clubs (pickup), bid 36, 78/7: (2+1) x 12 = 36, won.
    pytest.param(
        E(pickup(C), "CJ SJ", "", 2, 36, 78, 7, 3, 36, True, False, 36, 86, 0), id="EX-01"
    ),
    # EX-02: no CJ SJ HJ, has DJ -> without 3; Spades, bid 44, 93/8: (3+1+1) x 11 = 55.
    pytest.param(E(pickup(S), "DJ", "", -3, 44, 93, 8, 5, 55, True, False, 55, 105, 0), id="EX-02"),
    # EX-03: CJ SJ -> with 2; Grand, bid 48, 120/10: (2+1+1+1) x 24 = 120, won Schwarz.
    pytest.param(
        E(pickup(G), "CJ SJ", "", 2, 48, 120, 10, 5, 120, True, False, 120, 170, 0), id="EX-03"
    ),
    # EX-04: CJ, no SJ -> with 1; Hearts, bid 20, 59/4: 20, lost.
    pytest.param(
        E(pickup(H), "CJ", "", 1, 20, 59, 4, 2, 20, False, False, -40, -90, 40), id="EX-04"
    ),
    # EX-05: no CJ, has SJ -> without 1; Diamonds, bid 18, 60/5: 18, lost (60:60).
    pytest.param(
        E(pickup(D), "SJ", "", -1, 18, 60, 5, 2, 18, False, False, -36, -86, 40), id="EX-05"
    ),
    # EX-06: CJ -> with 1; Grand, bid 48, 27/2: (1+1+1) x 24 = 72, lost, declarer Schneider.
    pytest.param(
        E(pickup(G), "CJ", "", 1, 48, 27, 2, 3, 72, False, False, -144, -194, 40), id="EX-06"
    ),
    # EX-07: CJ SJ -> with 2; Hearts, bid 30, 14/0 (skat only): (2+1+1+1) x 10 = 50, Schwarz.
    pytest.param(
        E(pickup(H), "CJ SJ", "", 2, 30, 14, 0, 5, 50, False, False, -100, -150, 40), id="EX-07"
    ),
    # EX-08a: planned "without 2" (has HJ), skat brings CJ -> with 1; Hearts, bid 30, 75/6:
    # 20 < 30 -> overbid, charged 10 x ceil(30/10) = 30 (R7.2).
    pytest.param(
        E(pickup(H), "HJ", "CJ", 1, 30, 75, 6, 2, 30, False, True, -60, -110, 40), id="EX-08a"
    ),
    # EX-08b: as EX-08a, 91/8: (1+1+1) x 10 = 30 >= 30, rescued by Schneider (R7.3).
    pytest.param(
        E(pickup(H), "HJ", "CJ", 1, 30, 91, 8, 3, 30, True, False, 30, 80, 0), id="EX-08b"
    ),
    # EX-09a: same cards, Clubs: with 1, bid 30, 70/6: 24 < 30 -> charged 12 x 3 = 36.
    pytest.param(
        E(pickup(C), "HJ", "CJ", 1, 30, 70, 6, 2, 36, False, True, -72, -122, 40), id="EX-09a"
    ),
    # EX-09b: as EX-09a, 95/8: (1+1+1) x 12 = 36 >= 30, won.
    pytest.param(
        E(pickup(C), "HJ", "CJ", 1, 30, 95, 8, 3, 36, True, False, 36, 86, 0), id="EX-09b"
    ),
    # EX-10: planned "without 3" (has DJ); skat brings CJ -> with 1; Hearts, bid 40, 25/2:
    # (1+1+1) x 10 = 30 < 40 -> overbid, charged 40 (declarer also Schneider).
    pytest.param(
        E(pickup(H), "DJ", "CJ", 1, 40, 25, 2, 3, 40, False, True, -80, -130, 40), id="EX-10"
    ),
    # EX-11a: 10 cards without 3 (has DJ); skat holds SJ -> without 1; Spades Hand, bid 55,
    # 95/9: (1+1+1+1) x 11 = 44 < 55 -> overbid, charged 55.
    pytest.param(
        E(hand(S), "DJ", "SJ", -1, 55, 95, 9, 4, 55, False, True, -110, -160, 40), id="EX-11a"
    ),
    # EX-11b: as EX-11a, 120/10: (1+1+1+1+1) x 11 = 55 >= 55, rescued by Schwarz.
    pytest.param(
        E(hand(S), "DJ", "SJ", -1, 55, 120, 10, 5, 55, True, False, 55, 105, 0), id="EX-11b"
    ),
    # EX-12: 10 cards CJ SJ, skat holds HJ, DJ with a defender -> with 3; Clubs Hand, bid 48,
    # 70/6: (3+1+1) x 12 = 60, won.
    pytest.param(
        E(hand(C), "CJ SJ", "HJ", 3, 48, 70, 6, 5, 60, True, False, 60, 110, 0), id="EX-12"
    ),
    # EX-13: with 2; Grand Hand Schneider announced, bid 72, 84/7: (2+1+1+1+1) x 24 = 144, lost.
    pytest.param(
        E(hand(G, schneider=True), "CJ SJ", "", 2, 72, 84, 7, 6, 144, False, False, -288, -338, 40),
        id="EX-13",
    ),
    # EX-14: with 1; Clubs Hand Schneider announced, bid 24, 28/2:
    # (1+1+1+1+1) x 12 = 60 (Schneider once only), lost.
    pytest.param(
        E(hand(C, schneider=True), "CJ", "", 1, 24, 28, 2, 5, 60, False, False, -120, -170, 40),
        id="EX-14",
    ),
    # EX-15a: 10 cards without 2 (has HJ); skat holds CJ -> with 1; Spades Hand Schneider
    # announced, bid 66, 80/6: 5 x 11 = 55 < 66 -> overbid, charged 66.
    pytest.param(
        E(hand(S, schneider=True), "HJ", "CJ", 1, 66, 80, 6, 5, 66, False, True, -132, -182, 40),
        id="EX-15a",
    ),
    # EX-15b: as EX-15a, 120/10: (5 + Schwarz 1) x 11 = 66 >= 66, won.
    pytest.param(
        E(hand(S, schneider=True), "HJ", "CJ", 1, 66, 120, 10, 6, 66, True, False, 66, 116, 0),
        id="EX-15b",
    ),
    # EX-16: with 2; Hearts Hand Schneider announced, bid 40, 120/10:
    # (2+1+1+1+1+Schwarz 1) x 10 = 70, won.
    pytest.param(
        E(hand(H, schneider=True), "CJ SJ", "", 2, 40, 120, 10, 7, 70, True, False, 70, 120, 0),
        id="EX-16",
    ),
    # EX-17: with 3; Grand Hand Schwarz announced, bid 60; defenders win trick 4 -> the deal
    # ends (R6.6): declarer has 3 tricks after 4 played. (3+1+1+1+1+1+1) x 24 = 216, lost.
    pytest.param(
        E(
            hand(G, schwarz=True),
            "CJ SJ HJ",
            "",
            3,
            60,
            45,
            3,
            9,
            216,
            False,
            False,
            -432,
            -482,
            40,
            tricks_played=4,
        ),
        id="EX-17",
    ),
    # EX-18: four jacks -> with 4; Grand Ouvert (Hand), bid 264, 120/10: (4+7) x 24 = 264.
    pytest.param(
        E(ouvert_hand(G), "CJ SJ HJ DJ", "", 4, 264, 120, 10, 11, 264, True, False, 264, 314, 0),
        id="EX-18",
    ),
    # EX-19: with 2; Clubs Ouvert (Hand), bid 108, 100/8: (2+7) x 12 = 108, lost (a trick
    # lost; the deal ends when the defenders win their first trick, R6.6).
    pytest.param(
        E(
            ouvert_hand(C),
            "CJ SJ",
            "",
            2,
            108,
            100,
            8,
            9,
            108,
            False,
            False,
            -216,
            -266,
            40,
            tricks_played=9,
        ),
        id="EX-19",
    ),
    # EX-20: four jacks -> with 4; Grand Hand, bid 24, 120/10: (4+1+1+1+1) x 24 = 192.
    pytest.param(
        E(hand(G), "CJ SJ HJ DJ", "", 4, 24, 120, 10, 8, 192, True, False, 192, 242, 0),
        id="EX-20",
    ),
    # EX-21a: with 1; Grand (pickup), bid 59, 75/6: 48 < 59 -> overbid, charged 24 x 3 = 72.
    pytest.param(
        E(pickup(G), "CJ", "", 1, 59, 75, 6, 2, 72, False, True, -144, -194, 40), id="EX-21a"
    ),
    # EX-21b: as EX-21a, 95/8: (1+1+1) x 24 = 72 >= 59, won.
    pytest.param(E(pickup(G), "CJ", "", 1, 59, 95, 8, 3, 72, True, False, 72, 122, 0), id="EX-21b"),
    # EX-22: Null (pickup), bid 23, 0 tricks: 23, won.
    pytest.param(E(Contract(N), "", "", 0, 23, 20, 0, 0, 23, True, False, 23, 73, 0), id="EX-22"),
    # EX-23: Null Ouvert (pickup), bid 46, 0 tricks: 46, won.
    pytest.param(
        E(Contract(N, ouvert=True), "", "", 0, 46, 0, 0, 0, 46, True, False, 46, 96, 0),
        id="EX-23",
    ),
    # EX-24: Null Ouvert Hand, bid 59; declarer wins trick 9 -> the deal ends (R6.6): 59, lost.
    pytest.param(
        E(
            Contract(N, hand=True, ouvert=True),
            "",
            "",
            0,
            59,
            10,
            1,
            0,
            59,
            False,
            False,
            -118,
            -168,
            40,
            tricks_played=9,
        ),
        id="EX-24",
    ),
    # EX-25 (Null Hand at bid 36 is rejected) is tested through a real Deal below.
    # EX-26: with 1; Hearts (pickup), 4-player table, bid 20, 59/4: 20, lost; +30 to each of
    # the other three players (both defenders and the dealer, R8.2).
    pytest.param(
        E(pickup(H), "CJ", "", 1, 20, 59, 4, 2, 20, False, False, -40, -90, 30, players=4),
        id="EX-26",
    ),
]

# R9.6 Kontra/Re/Bock examples: factor = kontra_factor x bock_factor.
R9_6_EXAMPLES = [
    # EX-K1: Spades with 1 (pickup), bid 22, 64 pts, Kontra: 22 -> +44, SF +94 / 0.
    pytest.param(
        E(pickup(S), "CJ", "", 1, 22, 64, 6, 2, 22, True, False, 44, 94, 0, kontra_factor=2),
        id="EX-K1",
    ),
    # EX-K2: as EX-K1 with Kontra and Re: +88, SF +138 / 0.
    pytest.param(
        E(pickup(S), "CJ", "", 1, 22, 64, 6, 2, 22, True, False, 88, 138, 0, kontra_factor=4),
        id="EX-K2",
    ),
    # EX-K3: Diamonds with 1 (pickup), bid 20, 85 pts, Kontra: 18 < 20 -> overbid, charged 27:
    # -108, SF -158 / +40.
    pytest.param(
        E(pickup(D), "CJ", "", 1, 20, 85, 7, 2, 27, False, True, -108, -158, 40, kontra_factor=2),
        id="EX-K3",
    ),
    # EX-K4: Hearts with 1 (pickup), bid 20, 50 pts, Kontra, Bock deal: -160, SF -210 / +40.
    pytest.param(
        E(
            pickup(H),
            "CJ",
            "",
            1,
            20,
            50,
            4,
            2,
            20,
            False,
            False,
            -160,
            -210,
            40,
            kontra_factor=2,
            bock_factor=2,
        ),
        id="EX-K4",
    ),
    # EX-K5: Clubs with 1 (pickup), bid 24, 70 pts, Kontra, Bock deal: +96, SF +146 / 0.
    pytest.param(
        E(
            pickup(C),
            "CJ",
            "",
            1,
            24,
            70,
            6,
            2,
            24,
            True,
            False,
            96,
            146,
            0,
            kontra_factor=2,
            bock_factor=2,
        ),
        id="EX-K5",
    ),
]


def settle(ex: Example) -> Valuation:
    cards12 = twelve_cards(ex.contract.game, ex.jacks, ex.skat_jacks)
    return value_game(
        ex.contract,
        ex.bid,
        ex.points,
        ex.tricks,
        cards12,
        tricks_played=ex.tricks_played,
        outcome="played",
    )


def check_example(ex: Example) -> None:
    v = settle(ex)
    factor = ex.kontra_factor * ex.bock_factor  # R9.6
    assert v.matadors == ex.matadors, v.explanation
    assert v.multiplier == ex.multiplier, v.explanation
    if ex.contract.game != N:
        # R5.4: the game value before R7 is base x multiplier.
        cards12 = twelve_cards(ex.contract.game, ex.jacks, ex.skat_jacks)
        assert matadors(ex.contract.game, cards12) == ex.matadors  # R5.2
        game_value = BASE_VALUE[ex.contract.game] * ex.multiplier
        assert (game_value < ex.bid) == ex.overbid
    assert v.value == ex.value, v.explanation
    assert v.won is ex.won, v.explanation
    assert v.overbid is ex.overbid, v.explanation
    assert v.plain_entry(factor) == ex.plain
    assert v.seeger_fabian_entry(factor) == ex.sf
    assert seeger_fabian_others(v.won, ex.players) == ex.others
    # R12: the charged value is at least the bid; for suit/Grand a multiple of the base.
    assert v.value >= ex.bid
    if ex.contract.game != N:
        assert v.value % BASE_VALUE[ex.contract.game] == 0


@pytest.mark.parametrize("ex", R7_7_EXAMPLES)
def test_r7_7_worked_example(ex: Example) -> None:
    """R7.7 (with R5, R6, R7, R8.1, R8.2): value, result and list entries."""
    check_example(ex)


@pytest.mark.parametrize("ex", R9_6_EXAMPLES)
def test_r9_6_kontra_re_bock_example(ex: Example) -> None:
    """R9.6: Kontra/Re/Bock multiply the game value only; never the 50/40/30 (R8.2)."""
    check_example(ex)


def test_r9_6_factors_do_not_change_overbidding() -> None:
    """R7.5: overbidding is decided on the plain game value; factors only multiply."""
    (ex,) = R9_6_EXAMPLES[2].values  # EX-K3
    assert isinstance(ex, Example)
    plain = settle(Example(**{**ex.__dict__, "kontra_factor": 1}))
    assert plain.overbid and not plain.won
    assert plain.plain_entry(1) == -54
    assert plain.plain_entry(2) == -108
    assert plain.plain_entry(4) == -216


def test_ex_25_null_hand_below_bid_rejected_by_real_deal() -> None:
    """R7.7 EX-25 and R3.5: after a bid of 36, Null Hand (35) is rejected with
    NULL_VALUE_BELOW_BID; the deal is unchanged and the declarer must choose again."""
    deal = Deal(list(range(32)))
    deal.apply(Bid(36), seat=1)  # Mittelhand
    deal.apply(Pass(), seat=0)  # Vorhand
    deal.apply(Pass(), seat=2)  # Hinterhand
    assert deal.declarer == 1
    assert deal.bid == 36
    before = (deal.history, deal.phase, deal.legal_actions(), [deal.hand(s) for s in range(3)])
    with pytest.raises(IllegalActionError) as info:
        deal.apply(Announce(Contract(N, hand=True)), seat=1)
    assert info.value.code == Reason.NULL_VALUE_BELOW_BID
    after = (deal.history, deal.phase, deal.legal_actions(), [deal.hand(s) for s in range(3)])
    assert after == before
    assert deal.contract is None
    # Null Hand is not offered among the legal actions either; Null Ouvert Hand (59) is.
    offered = {a.contract for a in deal.legal_actions() if isinstance(a, Announce)}
    assert Contract(N, hand=True) not in offered
    assert Contract(N, hand=True, ouvert=True) in offered
    # A Hand suit game is still accepted (R3.5).
    deal.apply(Announce(Contract(C, hand=True)), seat=1)
    assert deal.contract == Contract(C, hand=True)


# R9.1 Ramsch table: card points A / B / C, tricks A / B / C, Bock factor, entries.
RAMSCH_EXAMPLES = [
    pytest.param([61, 41, 18], [5, 3, 2], 1, [-61, 0, 0], id="EX-R1"),
    pytest.param([50, 50, 20], [4, 4, 2], 1, [-50, -50, 0], id="EX-R2"),
    # C took no trick (Jungfrau) -> the loss is doubled.
    pytest.param([72, 48, 0], [6, 4, 0], 1, [-144, 0, 0], id="EX-R3"),
    # A took all ten tricks (Durchmarsch) -> +120, nobody loses.
    pytest.param([120, 0, 0], [10, 0, 0], 1, [120, 0, 0], id="EX-R4"),
    # Three-way tie at 40: all three lose 40 [PB].
    pytest.param([40, 40, 40], [4, 3, 3], 1, [-40, -40, -40], id="EX-R5"),
    pytest.param([60, 60, 0], [5, 5, 0], 1, [-120, -120, 0], id="EX-R6"),
    # EX-R1 in a Bock deal: entries doubled (R9.4 [Decision]).
    pytest.param([61, 41, 18], [5, 3, 2], 2, [-122, 0, 0], id="EX-R7"),
]


@pytest.mark.parametrize(("points", "tricks", "factor", "entries"), RAMSCH_EXAMPLES)
def test_r9_1_ramsch_example(
    points: list[int], tricks: list[int], factor: int, entries: list[int]
) -> None:
    """R9.1: most card points lose, ties all lose, Jungfrau doubles, Durchmarsch +120;
    R9.4/R9.6: Bock doubles Ramsch entries; no 50/40/30."""
    assert sum(points) == 120
    assert sum(tricks) == 10
    assert ramsch_entries(points, tricks, factor) == entries


def test_r8_6_worked_list() -> None:
    """R8.6 worked list (A, B, C = seats 0, 1, 2) and the R8.3 equivalence."""
    players = 3
    seats = range(players)

    def game_row(declarer: int, v: Valuation) -> tuple[list[int], list[int]]:
        plain = [0] * players
        plain[declarer] = v.plain_entry(1)
        sf = [seeger_fabian_others(v.won, players)] * players
        sf[declarer] = v.seeger_fabian_entry(1)
        return plain, sf

    # Deal 1: A wins Clubs, value 36 (the EX-01 game).
    v1 = value_game(Contract(C), 36, 78, 7, twelve_cards(C, "CJ SJ"))
    # Deal 2: B loses Hearts, value 20 (the EX-04 game).
    v2 = value_game(Contract(H), 20, 59, 4, twelve_cards(H, "CJ"))
    # Deal 3: all pass, thrown in (R2.6, R8.5): a real deal.
    thrown = Deal(list(range(32)))
    for seat in (1, 2, 0):
        thrown.apply(Pass(), seat=seat)
    assert thrown.result is not None and thrown.result.kind == "passed"
    # Deal 4: C wins Grand, value 72 (the EX-21b game).
    v4 = value_game(Contract(G), 59, 95, 8, twelve_cards(G, "CJ"))
    assert (v1.value, v1.won, v2.value, v2.won, v4.value, v4.won) == (36, True, 20, False, 72, True)

    rows = [
        game_row(0, v1),
        game_row(1, v2),
        (list(thrown.result.plain), list(thrown.result.seeger_fabian)),
        game_row(2, v4),
    ]
    expected_rows = [
        ([36, 0, 0], [86, 0, 0]),
        ([0, -40, 0], [40, -90, 40]),
        ([0, 0, 0], [0, 0, 0]),
        ([0, 0, 72], [0, 0, 122]),
    ]
    assert rows == expected_rows

    plain_total = [sum(r[0][s] for r in rows) for s in seats]
    sf_total = [sum(r[1][s] for r in rows) for s in seats]
    assert plain_total == [36, -40, 72]
    assert sf_total == [126, -90, 162]

    # R8.3: total = game_points + (won - lost) x 50 + lost_by_others x 40.
    games = [(0, True), (1, False), (2, True)]  # (declarer, won); the thrown-in deal counts not
    for s in seats:
        won = sum(1 for d, w in games if d == s and w)
        lost = sum(1 for d, w in games if d == s and not w)
        lost_by_others = sum(1 for d, w in games if d != s and not w)
        assert sf_total[s] == plain_total[s] + (won - lost) * 50 + lost_by_others * 40
    # Ranking C, A, B.
    assert sorted(seats, key=lambda s: -sf_total[s]) == [2, 0, 1]
