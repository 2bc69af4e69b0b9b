"""Auctions (R2.5), announcement normalisation (R3.4) and the rejections of R10,
driven through a real `Deal`.

Seats equal positions unless stated (the default dealer is the last seat):
seat 0 = Vorhand (V), seat 1 = Mittelhand (M), seat 2 = Hinterhand (H).
Every rejection must carry its R10 reason code and leave the deal unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from skat.engine import (
    Action,
    Announce,
    Bid,
    Card,
    Contract,
    Deal,
    Discard,
    GameType,
    Hold,
    IllegalActionError,
    Kontra,
    NoRe,
    Pass,
    Phase,
    Pickup,
    Play,
    Re,
    Reason,
    Rules,
    deck_from_hands,
    parse_action,
)

C, S, H, D = GameType.CLUBS, GameType.SPADES, GameType.HEARTS, GameType.DIAMONDS
G, N = GameType.GRAND, GameType.NULL
V, M, HH = 0, 1, 2  # seats of Vorhand, Mittelhand, Hinterhand (default dealer)

#: Known hands by position (R1.5 via deck_from_hands).
HANDS = (
    "CA CT CK CQ C9 C8 C7 SA ST SK",  # Vorhand
    "CJ SJ HA HT HK HQ H9 H8 H7 SQ",  # Mittelhand
    "HJ DJ DA DT DK DQ D9 D8 D7 S9",  # Hinterhand
)
SKAT = "S8 S7"
DECK = deck_from_hands([h.split() for h in HANDS], SKAT.split())

Step = tuple[int, Action]


def run(steps: Sequence[Step], *, rules: Rules | None = None, dealer: int | None = None) -> Deal:
    deal = Deal(DECK, rules=rules, dealer=dealer)
    for seat, action in steps:
        deal.apply(action, seat=seat)
    return deal


def snapshot(deal: Deal) -> tuple[Any, ...]:
    """Everything observable that a rejected action must leave alone (R10)."""
    seats = range(deal.players)
    return (
        deal.history,
        deal.phase,
        deal.legal_actions(),
        tuple(deal.legal_actions(s) for s in seats),
        tuple(deal.hand(s) for s in seats),
        deal.current_seat,
        deal.bid,
        deal.declarer,
        deal.contract,
        deal.skat,
        deal.tricks,
        deal.current_trick,
        deal.result,
    )


# ---------------------------------------------------------------- R2.5 auctions

AUCTIONS = [
    # A1: M 18, V hold, M 20, V hold, M pass; H 22, V hold, H 23, V pass -> H declares, bid 23.
    pytest.param(
        [
            (M, Bid(18)),
            (V, Hold()),
            (M, Bid(20)),
            (V, Hold()),
            (M, Pass()),
            (HH, Bid(22)),
            (V, Hold()),
            (HH, Bid(23)),
            (V, Pass()),
        ],
        HH,
        23,
        id="A1",
    ),
    # A2: M pass; H pass; V bid 18 -> V declares, bid 18 (R2.4 Vorhand at 18).
    pytest.param([(M, Pass()), (HH, Pass()), (V, Bid(18))], V, 18, id="A2"),
    # A3: M pass; H pass; V pass -> all pass (R2.6), thrown in.
    pytest.param([(M, Pass()), (HH, Pass()), (V, Pass())], None, 0, id="A3"),
    # A4: M 18, V pass; H pass -> M declares, bid 18.
    pytest.param([(M, Bid(18)), (V, Pass()), (HH, Pass())], M, 18, id="A4"),
    # A5: M 36 (jump), V hold, M pass; H 40, V pass -> H declares, bid 40.
    pytest.param(
        [(M, Bid(36)), (V, Hold()), (M, Pass()), (HH, Bid(40)), (V, Pass())], HH, 40, id="A5"
    ),
    # A6: M pass; H 18, V hold, H pass -> V declares, bid 18.
    pytest.param([(M, Pass()), (HH, Bid(18)), (V, Hold()), (HH, Pass())], V, 18, id="A6"),
    # A7: M 18, V pass; H 20, M hold, H pass -> M declares, bid 20 (M is now the listener).
    pytest.param(
        [(M, Bid(18)), (V, Pass()), (HH, Bid(20)), (M, Hold()), (HH, Pass())], M, 20, id="A7"
    ),
]


@pytest.mark.parametrize(("steps", "declarer", "bid"), AUCTIONS)
def test_r2_5_worked_auction(steps: list[Step], declarer: int | None, bid: int) -> None:
    """R2.5 worked auctions (R2.2-R2.4, R2.6)."""
    deal = Deal(list(range(32)))
    for seat, action in steps:
        assert deal.current_seat == seat, f"{action} by seat {seat}"
        deal.apply(action, seat=seat)
    assert deal.declarer == declarer
    assert deal.bid == bid
    if declarer is None:
        # A3: R2.6 default Einpassen: thrown in, nobody scores.
        assert deal.result is not None
        assert deal.result.kind == "passed"
        assert deal.phase is Phase.DONE
        assert deal.result.plain == (0, 0, 0)
        assert deal.result.seeger_fabian == (0, 0, 0)
    else:
        # R3.1: the declarer now picks up or announces a Hand game.
        assert deal.result is None
        assert deal.phase is Phase.SKAT
        assert deal.current_seat == declarer


def test_r2_4_after_two_passes_the_view_says_forehand_bids_to_nobody() -> None:
    """R2.4 (A2): middlehand and rearhand pass without a number; forehand
    alone may take the game at 18. The view names forehand as the bidder and
    nobody as the listener (the page words its button "play at 18" from it),
    and 18 is the only number forehand may name."""
    deal = Deal(list(range(32)))
    deal.apply(Pass(), seat=M)
    deal.apply(Pass(), seat=HH)
    view = deal.view(V)
    assert (view.bidder, view.listener) == (V, None)
    assert sorted(str(a) for a in view.legal_actions) == ["bid 18", "pass"]
    for seat in (M, HH, None):  # everyone sees the same stage
        assert (deal.view(seat).bidder, deal.view(seat).listener) == (V, None)


def test_r2_5_a7_middlehand_is_listener_in_phase_two() -> None:
    """R2.2/R2.5 A7: after V passes, M survives and listens to H: M may hold or pass only."""
    deal = Deal(list(range(32)))
    deal.apply(Bid(18), seat=M)
    deal.apply(Pass(), seat=V)
    assert deal.current_seat == HH
    deal.apply(Bid(20), seat=HH)
    assert deal.current_seat == M
    assert set(deal.legal_actions()) == {Hold(), Pass()}


REJECTED_AUCTIONS = [
    # M bid(19) -> BID_NOT_IN_LIST.
    pytest.param([], M, Bid(19), Reason.BID_NOT_IN_LIST, id="M-bid-19"),
    # after V held 20, H bid(20) -> BID_NOT_HIGHER.
    pytest.param(
        [(M, Bid(18)), (V, Hold()), (M, Bid(20)), (V, Hold()), (M, Pass())],
        HH,
        Bid(20),
        Reason.BID_NOT_HIGHER,
        id="H-bid-20-after-V-held-20",
    ),
    # V bid(22) while he is the listener -> LISTENER_CANNOT_BID.
    pytest.param([(M, Bid(18))], V, Bid(22), Reason.LISTENER_CANNOT_BID, id="V-bid-22-listener"),
    # H bid(18) before M has finished phase 1 -> NOT_YOUR_TURN.
    pytest.param([], HH, Bid(18), Reason.NOT_YOUR_TURN, id="H-bid-18-in-phase-1"),
    pytest.param(
        [(M, Bid(18)), (V, Hold())], HH, Bid(20), Reason.NOT_YOUR_TURN, id="H-bid-20-in-phase-1"
    ),
]


@pytest.mark.parametrize(("steps", "seat", "action", "code"), REJECTED_AUCTIONS)
def test_r2_5_rejected_example(steps: list[Step], seat: int, action: Action, code: Reason) -> None:
    """R2.5 rejected examples (R2.1, R2.3, R10): the auction is unchanged afterwards."""
    deal = Deal(list(range(32)))
    for s, a in steps:
        deal.apply(a, seat=s)
    before = snapshot(deal)
    with pytest.raises(IllegalActionError) as info:
        deal.apply(action, seat=seat)
    assert info.value.code == code
    assert snapshot(deal) == before


# ------------------------------------------------------------ R10 rejections

# Standard positions of the deal with the known hands (M declares at 18 unless stated).
AUCTION_M18: list[Step] = [(M, Bid(18)), (V, Pass()), (HH, Pass())]
AUCTION_M36: list[Step] = [(M, Bid(36)), (V, Pass()), (HH, Pass())]
AUCTION_M48: list[Step] = [(M, Bid(48)), (V, Pass()), (HH, Pass())]
PICKED: list[Step] = [*AUCTION_M18, (M, Pickup())]
DISCARDED: list[Step] = [*PICKED, (M, Discard((Card.S8, Card.S7)))]
HEARTS_HAND: list[Step] = [*AUCTION_M18, (M, Announce(Contract(H, hand=True)))]
ALL_PASSED: list[Step] = [(M, Pass()), (HH, Pass()), (V, Pass())]
KONTRA = Rules(kontra=True)


@dataclass(frozen=True)
class Case:
    steps: list[Step]
    attempt: Callable[[Deal], object]
    code: Reason
    rules: Rules | None = None
    dealer: int | None = None


def act(seat: int, action: Action) -> Callable[[Deal], object]:
    return lambda deal: deal.apply(action, seat=seat)


def text(seat: int, action_text: str) -> Callable[[Deal], object]:
    return lambda deal: deal.apply(parse_action(action_text), seat=seat)


def case(
    name: str,
    steps: list[Step],
    attempt: Callable[[Deal], object],
    code: Reason,
    *,
    rules: Rules | None = None,
    dealer: int | None = None,
) -> Any:
    return pytest.param(Case(steps, attempt, code, rules, dealer), id=name)


R = Reason
R10_CASES = [
    # DEAL_OVER (R6, R10 precedence 1): any game action after the deal is settled.
    case("DEAL_OVER-bid", ALL_PASSED, act(M, Bid(18)), R.DEAL_OVER),
    case("DEAL_OVER-pass", ALL_PASSED, act(V, Pass()), R.DEAL_OVER),
    case("DEAL_OVER-pickup", ALL_PASSED, act(V, Pickup()), R.DEAL_OVER),
    case("DEAL_OVER-play", ALL_PASSED, act(V, Play(Card.CA)), R.DEAL_OVER),
    case(
        "DEAL_OVER-before-NOT_A_PLAYER",
        ALL_PASSED,
        act(3, Pass()),
        R.DEAL_OVER,
        rules=Rules(players=4),
        dealer=3,
    ),
    # NOT_A_PLAYER (R1.4): the dealer sitting out at four players, or an unknown seat.
    case(
        "NOT_A_PLAYER-dealer-bids",
        [],
        act(3, Bid(18)),
        R.NOT_A_PLAYER,
        rules=Rules(players=4),
        dealer=3,
    ),
    case(
        "NOT_A_PLAYER-dealer-passes",
        [],
        act(3, Pass()),
        R.NOT_A_PLAYER,
        rules=Rules(players=4),
        dealer=3,
    ),
    case(
        "NOT_A_PLAYER-before-WRONG_PHASE",
        [],
        act(3, Play(Card.CA)),
        R.NOT_A_PLAYER,
        rules=Rules(players=4),
        dealer=3,
    ),
    case("NOT_A_PLAYER-unknown-seat-3", [], act(3, Bid(18)), R.NOT_A_PLAYER),
    case("NOT_A_PLAYER-unknown-seat-negative", [], act(-1, Bid(18)), R.NOT_A_PLAYER),
    # WRONG_PHASE: playing during bidding, bidding after the auction, pickup after Hand.
    case("WRONG_PHASE-play-during-bidding", [], act(M, Play(Card.CJ)), R.WRONG_PHASE),
    case("WRONG_PHASE-pickup-during-bidding", [], act(M, Pickup()), R.WRONG_PHASE),
    case("WRONG_PHASE-bid-after-auction", AUCTION_M18, act(M, Bid(20)), R.WRONG_PHASE),
    case("WRONG_PHASE-play-before-announce", AUCTION_M18, act(V, Play(Card.CA)), R.WRONG_PHASE),
    case("WRONG_PHASE-pickup-after-hand", HEARTS_HAND, act(M, Pickup()), R.WRONG_PHASE),
    case("WRONG_PHASE-bid-during-play", HEARTS_HAND, act(V, Bid(20)), R.WRONG_PHASE),
    case(
        "WRONG_PHASE-before-ALREADY_PASSED",
        [(M, Pass())],
        act(M, Play(Card.CJ)),
        R.WRONG_PHASE,
    ),
    # ALREADY_PASSED (R2.3), before NOT_YOUR_TURN (R10 precedence 5).
    case("ALREADY_PASSED-M-bids-again", [(M, Pass())], act(M, Bid(18)), R.ALREADY_PASSED),
    case(
        "ALREADY_PASSED-V-holds-after-pass",
        [(M, Bid(18)), (V, Pass())],
        act(V, Hold()),
        R.ALREADY_PASSED,
    ),
    case(
        "ALREADY_PASSED-M-at-vorhand-18",
        [(M, Pass()), (HH, Pass())],
        act(M, Pass()),
        R.ALREADY_PASSED,
    ),
    # NOT_YOUR_TURN (R2.3, R3, R4.1).
    case("NOT_YOUR_TURN-H-bids-first", [], act(HH, Bid(18)), R.NOT_YOUR_TURN),
    case("NOT_YOUR_TURN-V-answers-before-bid", [], act(V, Hold()), R.NOT_YOUR_TURN),
    case("NOT_YOUR_TURN-M-bids-twice", [(M, Bid(18))], act(M, Bid(20)), R.NOT_YOUR_TURN),
    case("NOT_YOUR_TURN-defender-pickup", AUCTION_M18, act(V, Pickup()), R.NOT_YOUR_TURN),
    case(
        "NOT_YOUR_TURN-defender-announce",
        AUCTION_M18,
        act(HH, Announce(Contract(G, hand=True))),
        R.NOT_YOUR_TURN,
    ),
    case(
        "NOT_YOUR_TURN-defender-discard",
        PICKED,
        act(V, Discard((Card.CA, Card.CT))),
        R.NOT_YOUR_TURN,
    ),
    case("NOT_YOUR_TURN-play-out-of-turn", HEARTS_HAND, act(M, Play(Card.CJ)), R.NOT_YOUR_TURN),
    case(
        "NOT_YOUR_TURN-second-card-by-leader",
        [*HEARTS_HAND, (V, Play(Card.SA))],
        act(V, Play(Card.ST)),
        R.NOT_YOUR_TURN,
    ),
    # LISTENER_CANNOT_BID (R2.3).
    case("LISTENER_CANNOT_BID-V", [(M, Bid(18))], act(V, Bid(22)), R.LISTENER_CANNOT_BID),
    case(
        "LISTENER_CANNOT_BID-M-in-phase-2",
        [(M, Bid(18)), (V, Pass()), (HH, Bid(20))],
        act(M, Bid(22)),
        R.LISTENER_CANNOT_BID,
    ),
    # BID_NOT_IN_LIST (R2.1).
    case("BID_NOT_IN_LIST-19", [], act(M, Bid(19)), R.BID_NOT_IN_LIST),
    case("BID_NOT_IN_LIST-21", [], act(M, Bid(21)), R.BID_NOT_IN_LIST),
    case("BID_NOT_IN_LIST-25", [], act(M, Bid(25)), R.BID_NOT_IN_LIST),
    case("BID_NOT_IN_LIST-0", [], act(M, Bid(0)), R.BID_NOT_IN_LIST),
    case("BID_NOT_IN_LIST-265", [], act(M, Bid(265)), R.BID_NOT_IN_LIST),
    case(
        "BID_NOT_IN_LIST-vorhand-19",
        [(M, Pass()), (HH, Pass())],
        act(V, Bid(19)),
        R.BID_NOT_IN_LIST,
    ),
    # BID_NOT_HIGHER (R2.3): strictly greater than the current value of the whole auction.
    case(
        "BID_NOT_HIGHER-equal",
        [(M, Bid(18)), (V, Hold())],
        act(M, Bid(18)),
        R.BID_NOT_HIGHER,
    ),
    case(
        "BID_NOT_HIGHER-H-must-exceed-phase-1",
        [(M, Bid(18)), (V, Hold()), (M, Bid(20)), (V, Hold()), (M, Pass())],
        act(HH, Bid(18)),
        R.BID_NOT_HIGHER,
    ),
    # VORHAND_TAKES_AT_18 (R2.4).
    case(
        "VORHAND_TAKES_AT_18-20",
        [(M, Pass()), (HH, Pass())],
        act(V, Bid(20)),
        R.VORHAND_TAKES_AT_18,
    ),
    case(
        "VORHAND_TAKES_AT_18-36",
        [(M, Pass()), (HH, Pass())],
        act(V, Bid(36)),
        R.VORHAND_TAKES_AT_18,
    ),
    # SKAT_ALREADY_TAKEN (R3.1).
    case("SKAT_ALREADY_TAKEN-before-discard", PICKED, act(M, Pickup()), R.SKAT_ALREADY_TAKEN),
    case("SKAT_ALREADY_TAKEN-after-discard", DISCARDED, act(M, Pickup()), R.SKAT_ALREADY_TAKEN),
    # PICKUP_REQUIRED (R3.1, R3.2): discard without pickup; non-Hand announce without pickup.
    case(
        "PICKUP_REQUIRED-discard",
        AUCTION_M18,
        act(M, Discard((Card.H8, Card.H7))),
        R.PICKUP_REQUIRED,
    ),
    case(
        "PICKUP_REQUIRED-announce-suit",
        AUCTION_M18,
        act(M, Announce(Contract(C))),
        R.PICKUP_REQUIRED,
    ),
    case(
        "PICKUP_REQUIRED-announce-grand",
        AUCTION_M18,
        act(M, Announce(Contract(G))),
        R.PICKUP_REQUIRED,
    ),
    case(
        "PICKUP_REQUIRED-announce-null",
        AUCTION_M18,
        act(M, Announce(Contract(N))),
        R.PICKUP_REQUIRED,
    ),
    case(
        "PICKUP_REQUIRED-announce-null-ouvert",
        AUCTION_M18,
        act(M, Announce(Contract(N, ouvert=True))),
        R.PICKUP_REQUIRED,
    ),
    # ALREADY_DISCARDED (R3.2).
    case(
        "ALREADY_DISCARDED",
        DISCARDED,
        act(M, Discard((Card.H8, Card.H7))),
        R.ALREADY_DISCARDED,
    ),
    # DISCARD_INVALID (R3.2).
    case(
        "DISCARD_INVALID-same-card-twice",
        PICKED,
        act(M, Discard((Card.S8, Card.S8))),
        R.DISCARD_INVALID,
    ),
    case(
        "DISCARD_INVALID-card-not-in-hand",
        PICKED,
        act(M, Discard((Card.S8, Card.DA))),
        R.DISCARD_INVALID,
    ),
    case("DISCARD_INVALID-one-card", PICKED, act(M, Discard((Card.S8,))), R.DISCARD_INVALID),
    case("DISCARD_INVALID-no-card", PICKED, act(M, Discard(())), R.DISCARD_INVALID),
    case(
        "DISCARD_INVALID-three-cards",
        PICKED,
        act(M, Discard((Card.S8, Card.S7, Card.H7))),
        R.DISCARD_INVALID,
    ),
    case(
        "DISCARD_INVALID-three-cards-one-repeated",
        PICKED,
        act(M, Discard((Card.S8, Card.S7, Card.S7))),
        R.DISCARD_INVALID,
    ),
    # HAND_AFTER_PICKUP (R3.1), first among the announcement checks.
    case(
        "HAND_AFTER_PICKUP",
        DISCARDED,
        act(M, Announce(Contract(C, hand=True))),
        R.HAND_AFTER_PICKUP,
    ),
    case(
        "HAND_AFTER_PICKUP-null-hand",
        DISCARDED,
        act(M, Announce(Contract(N, hand=True))),
        R.HAND_AFTER_PICKUP,
    ),
    case(
        "HAND_AFTER_PICKUP-before-DISCARD_REQUIRED",
        PICKED,
        act(M, Announce(Contract(G, hand=True))),
        R.HAND_AFTER_PICKUP,
    ),
    # DISCARD_REQUIRED (R3.2).
    case("DISCARD_REQUIRED", PICKED, act(M, Announce(Contract(C))), R.DISCARD_REQUIRED),
    case("DISCARD_REQUIRED-null", PICKED, act(M, Announce(Contract(N))), R.DISCARD_REQUIRED),
    # NOT_APPLICABLE_TO_NULL (R3.3).
    case(
        "NOT_APPLICABLE_TO_NULL-hand-schneider",
        AUCTION_M18,
        act(M, Announce(Contract(N, hand=True, schneider=True))),
        R.NOT_APPLICABLE_TO_NULL,
    ),
    case(
        "NOT_APPLICABLE_TO_NULL-hand-schwarz",
        AUCTION_M18,
        act(M, Announce(Contract(N, hand=True, schwarz=True))),
        R.NOT_APPLICABLE_TO_NULL,
    ),
    case(
        "NOT_APPLICABLE_TO_NULL-pickup-schwarz",
        DISCARDED,
        act(M, Announce(Contract(N, schwarz=True))),
        R.NOT_APPLICABLE_TO_NULL,
    ),
    case(
        "NOT_APPLICABLE_TO_NULL-before-NULL_VALUE_BELOW_BID",
        AUCTION_M36,
        act(M, Announce(Contract(N, hand=True, schneider=True))),
        R.NOT_APPLICABLE_TO_NULL,
    ),
    # ANNOUNCEMENT_REQUIRES_HAND (R3.3).
    case(
        "ANNOUNCEMENT_REQUIRES_HAND-schneider",
        DISCARDED,
        act(M, Announce(Contract(C, schneider=True))),
        R.ANNOUNCEMENT_REQUIRES_HAND,
    ),
    case(
        "ANNOUNCEMENT_REQUIRES_HAND-schwarz",
        DISCARDED,
        act(M, Announce(Contract(G, schwarz=True))),
        R.ANNOUNCEMENT_REQUIRES_HAND,
    ),
    # OUVERT_REQUIRES_HAND (R3.3).
    case(
        "OUVERT_REQUIRES_HAND-grand",
        DISCARDED,
        act(M, Announce(Contract(G, ouvert=True))),
        R.OUVERT_REQUIRES_HAND,
    ),
    case(
        "OUVERT_REQUIRES_HAND-hearts",
        DISCARDED,
        act(M, Announce(Contract(H, ouvert=True))),
        R.OUVERT_REQUIRES_HAND,
    ),
    # NULL_VALUE_BELOW_BID (R3.5, R7.6).
    case(
        "NULL_VALUE_BELOW_BID-null-hand-35-at-36",
        AUCTION_M36,
        act(M, Announce(Contract(N, hand=True))),
        R.NULL_VALUE_BELOW_BID,
    ),
    case(
        "NULL_VALUE_BELOW_BID-null-23-at-36",
        [*AUCTION_M36, (M, Pickup()), (M, Discard((Card.S8, Card.S7)))],
        act(M, Announce(Contract(N))),
        R.NULL_VALUE_BELOW_BID,
    ),
    case(
        "NULL_VALUE_BELOW_BID-null-ouvert-46-at-48",
        [*AUCTION_M48, (M, Pickup()), (M, Discard((Card.S8, Card.S7)))],
        act(M, Announce(Contract(N, ouvert=True))),
        R.NULL_VALUE_BELOW_BID,
    ),
    # UNREACHABLE_ANNOUNCEMENT (R3.5, option): M holds CJ SJ (HJ with H): Diamonds with 2
    # reaches at most (2 + 3) x 9 = 45 < 48, while Grand could reach (2 + 3) x 24 = 120.
    case(
        "UNREACHABLE_ANNOUNCEMENT",
        [*AUCTION_M48, (M, Pickup()), (M, Discard((Card.S8, Card.S7)))],
        act(M, Announce(Contract(D))),
        R.UNREACHABLE_ANNOUNCEMENT,
        rules=Rules(enforce_reachable_announcement=True),
    ),
    # INVALID_CARD (R0.3): a malformed card id.
    case("INVALID_CARD-parse-action", HEARTS_HAND, text(V, "play XX"), R.INVALID_CARD),
    case(
        "INVALID_CARD-apply-text",
        HEARTS_HAND,
        lambda deal: deal.apply_text("play C1", seat=V),
        R.INVALID_CARD,
    ),
    # CARD_NOT_IN_HAND (R4).
    case("CARD_NOT_IN_HAND-lead", HEARTS_HAND, act(V, Play(Card.DA)), R.CARD_NOT_IN_HAND),
    case(
        "CARD_NOT_IN_HAND-skat-card",
        HEARTS_HAND,
        act(V, Play(Card.S8)),
        R.CARD_NOT_IN_HAND,
    ),
    case(
        "CARD_NOT_IN_HAND-card-already-played",
        [*HEARTS_HAND, (V, Play(Card.SA))],
        act(M, Play(Card.SA)),
        R.CARD_NOT_IN_HAND,
    ),
    # MUST_FOLLOW_SUIT (R4.3): spades led, M holds SQ.
    case(
        "MUST_FOLLOW_SUIT-plain-card",
        [*HEARTS_HAND, (V, Play(Card.SA))],
        act(M, Play(Card.HA)),
        R.MUST_FOLLOW_SUIT,
    ),
    case(
        "MUST_FOLLOW_SUIT-jack-is-trump-not-spade",
        [*HEARTS_HAND, (V, Play(Card.SA))],
        act(M, Play(Card.SJ)),
        R.MUST_FOLLOW_SUIT,
    ),
    case(
        "MUST_FOLLOW_SUIT-third-hand",
        [*HEARTS_HAND, (V, Play(Card.SA)), (M, Play(Card.SQ))],
        act(HH, Play(Card.DA)),
        R.MUST_FOLLOW_SUIT,
    ),
    # KONTRA_NOT_ALLOWED (R9.3).
    case("KONTRA_NOT_ALLOWED-option-off", HEARTS_HAND, act(V, Kontra()), R.KONTRA_NOT_ALLOWED),
    case(
        "KONTRA_NOT_ALLOWED-by-declarer",
        HEARTS_HAND,
        act(M, Kontra()),
        R.KONTRA_NOT_ALLOWED,
        rules=KONTRA,
    ),
    case(
        "KONTRA_NOT_ALLOWED-second-time",
        [*HEARTS_HAND, (V, Kontra()), (M, NoRe())],
        act(HH, Kontra()),
        R.KONTRA_NOT_ALLOWED,
        rules=KONTRA,
    ),
    case(
        "KONTRA_NOT_ALLOWED-too-late",
        [*HEARTS_HAND, (V, Play(Card.SA))],
        act(V, Kontra()),
        R.KONTRA_NOT_ALLOWED,
        rules=KONTRA,
    ),
    case(
        "KONTRA_NOT_ALLOWED-without-bid",
        HEARTS_HAND,
        act(V, Kontra()),
        R.KONTRA_NOT_ALLOWED,
        rules=Rules(kontra=True, kontra_requires_bid=True),
    ),
    # RE_NOT_ALLOWED (R9.3).
    case("RE_NOT_ALLOWED-option-off", HEARTS_HAND, act(M, Re()), R.RE_NOT_ALLOWED),
    case(
        "RE_NOT_ALLOWED-without-kontra", HEARTS_HAND, act(M, Re()), R.RE_NOT_ALLOWED, rules=KONTRA
    ),
    case(
        "RE_NOT_ALLOWED-by-defender",
        [*HEARTS_HAND, (V, Kontra())],
        act(HH, Re()),
        R.RE_NOT_ALLOWED,
        rules=KONTRA,
    ),
    case(
        "RE_NOT_ALLOWED-second-time",
        [*HEARTS_HAND, (V, Kontra()), (M, Re())],
        act(M, Re()),
        R.RE_NOT_ALLOWED,
        rules=KONTRA,
    ),
    case(
        "RE_NOT_ALLOWED-after-no-re",
        [*HEARTS_HAND, (V, Kontra()), (M, NoRe())],
        act(M, Re()),
        R.RE_NOT_ALLOWED,
        rules=KONTRA,
    ),
    # RE_DECISION_PENDING (R9.3), before NOT_YOUR_TURN (R10 precedence 4).
    case(
        "RE_DECISION_PENDING-leader",
        [*HEARTS_HAND, (V, Kontra())],
        act(V, Play(Card.SA)),
        R.RE_DECISION_PENDING,
        rules=KONTRA,
    ),
    case(
        "RE_DECISION_PENDING-before-NOT_YOUR_TURN",
        [*HEARTS_HAND, (HH, Kontra())],
        act(HH, Play(Card.DA)),
        R.RE_DECISION_PENDING,
        rules=KONTRA,
    ),
    case(
        "RE_DECISION_PENDING-mid-trick",
        [*HEARTS_HAND, (V, Play(Card.SA)), (HH, Kontra())],
        act(M, Play(Card.SQ)),
        R.RE_DECISION_PENDING,
        rules=KONTRA,
    ),
]


@pytest.mark.parametrize("c", R10_CASES)
def test_r10_rejection_leaves_deal_unchanged(c: Case) -> None:
    """R10: a rejected action raises its reason code (first in the R10 precedence
    order) and leaves the state unchanged."""
    deal = run(c.steps, rules=c.rules, dealer=c.dealer)
    before = snapshot(deal)
    with pytest.raises(IllegalActionError) as info:
        c.attempt(deal)
    assert info.value.code == c.code, str(info.value)
    assert isinstance(info.value.code, Reason)
    assert snapshot(deal) == before


def test_r10_every_single_deal_code_is_covered() -> None:
    """The table above exercises every R10 code that concerns a single deal."""
    covered = {p.values[0].code for p in R10_CASES}
    expected = set(Reason) - {R.LIST_OVER, R.BIDDER_CANNOT_HOLD, R.MALFORMED_ACTION}
    assert covered == expected


def test_snapshot_sees_accepted_actions() -> None:
    """R10 guard: an accepted action does change the snapshot, so the checks bite."""
    for steps, action, seat in [
        ([], Bid(18), M),
        (AUCTION_M18, Pickup(), M),
        (PICKED, Discard((Card.S8, Card.S7)), M),
        (HEARTS_HAND, Play(Card.SA), V),
    ]:
        deal = run(steps)
        before = snapshot(deal)
        deal.apply(action, seat=seat)
        assert snapshot(deal) != before


def test_r10_rejected_deal_continues_normally() -> None:
    """R10: after a rejection the same deal still accepts the legal continuation."""
    deal = run(PICKED)
    with pytest.raises(IllegalActionError):
        deal.apply(Discard((Card.S8, Card.S8)), seat=M)
    deal.apply(Discard((Card.S8, Card.S7)), seat=M)
    phases = [deal.phase]
    deal.apply(Announce(Contract(H)), seat=M)
    phases.append(deal.phase)
    assert phases == [Phase.DECLARE, Phase.PLAY]
    assert deal.current_seat == V  # R4.1: Vorhand leads


# ------------------------------------------------------- R3.5 accepted announcements


def test_r3_5_null_ouvert_and_suit_accepted_at_bid_36() -> None:
    """R3.5 example: bid 36 -> Null Ouvert (46) accepted after pickup."""
    deal = run([*AUCTION_M36, (M, Pickup()), (M, Discard((Card.S8, Card.S7)))])
    deal.apply(Announce(Contract(N, ouvert=True)), seat=M)
    assert deal.contract == Contract(N, ouvert=True)
    assert deal.phase is Phase.PLAY


def test_r3_5_unreachable_suit_accepted_by_default() -> None:
    """R3.5 [Decision]: without the option every permitted suit/Grand announcement is
    accepted, even one that can no longer reach the bid."""
    deal = run([*AUCTION_M48, (M, Pickup()), (M, Discard((Card.S8, Card.S7)))])
    deal.apply(Announce(Contract(D)), seat=M)
    assert deal.contract == Contract(D)


def test_r3_5_reachable_suit_accepted_with_option() -> None:
    """R3.5 option: Hearts with 2 reaches (2 + 3) x 10 = 50 >= 48 and is accepted."""
    rules = Rules(enforce_reachable_announcement=True)
    deal = run([*AUCTION_M48, (M, Pickup()), (M, Discard((Card.S8, Card.S7)))], rules=rules)
    deal.apply(Announce(Contract(H)), seat=M)
    assert deal.contract == Contract(H)


def test_r3_5_option_accepts_everything_when_nothing_reaches_the_bid() -> None:
    """R3.5 option: if no contract could reach the bid, every announcement is accepted.
    M holds CJ SJ: Grand reaches at most 5 x 24 = 120 < 180 and Null Ouvert is 46."""
    rules = Rules(enforce_reachable_announcement=True)
    steps: list[Step] = [(M, Bid(180)), (V, Pass()), (HH, Pass()), (M, Pickup())]
    deal = run([*steps, (M, Discard((Card.S8, Card.S7)))], rules=rules)
    deal.apply(Announce(Contract(D)), seat=M)
    assert deal.contract == Contract(D)


def test_r3_5_option_does_not_apply_to_hand_games() -> None:
    """R3.5 option concerns *pickup* announcements only: Diamonds Hand at 48 is accepted."""
    rules = Rules(enforce_reachable_announcement=True)
    deal = run(AUCTION_M48, rules=rules)
    deal.apply(Announce(Contract(D, hand=True)), seat=M)
    assert deal.contract == Contract(D, hand=True)


# ---------------------------------------------------------- R3.4 normalisation

NORMALISATION = [
    # Ouvert in a Hand suit game sets Schwarz and Schneider announced.
    pytest.param(
        Contract(C, hand=True, ouvert=True), Contract(C, True, True, True, True), id="clubs-ouvert"
    ),
    pytest.param(
        Contract(G, hand=True, ouvert=True), Contract(G, True, True, True, True), id="grand-ouvert"
    ),
    # Ouvert without hand before pickup is still a Hand game (implied flags may be omitted).
    pytest.param(Contract(S, ouvert=True), Contract(S, True, True, True, True), id="spades-ouvert"),
    # Schwarz announced sets Schneider announced (and Hand).
    pytest.param(
        Contract(H, hand=True, schwarz=True), Contract(H, True, True, True, False), id="schwarz"
    ),
    # A Hand announcement with schneider=True but hand=False before pickup is accepted as Hand.
    pytest.param(
        Contract(G, schneider=True), Contract(G, True, True, False, False), id="schneider-no-hand"
    ),
    pytest.param(
        Contract(D, schwarz=True), Contract(D, True, True, True, False), id="schwarz-no-hand"
    ),
]


@pytest.mark.parametrize(("requested", "normalised"), NORMALISATION)
def test_r3_4_normalisation(requested: Contract, normalised: Contract) -> None:
    """R3.4: the engine normalises implied flags; omitting one is not an error."""
    deal = run(AUCTION_M18)
    deal.apply(Announce(requested), seat=M)
    assert deal.contract == normalised
    assert deal.phase is Phase.PLAY
    assert deal.current_seat == V  # R4.1
    # R3.1: a Hand game: the skat is not picked up.
    assert len(deal.hand(M)) == 10
