"""The review of a seat's decisions from its own view (issue 48, point 1;
`skat.players.review`)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from skat.engine import (
    Announce,
    Bid,
    Contract,
    Deal,
    GameType,
    IllegalActionError,
    Pass,
    Play,
    deck_from_hands,
)
from skat.engine.cards import Card
from skat.players.arena import make_decks
from skat.players.heuristic import HeuristicPlayer
from skat.players.loop import play_deal
from skat.players.luck import promise
from skat.players.review import BOUNDS, Judged, Reviewer, deal_review, summary, verdict

# Forehand (seat 0) plays Null Hand with all eight clubs, S7 and H7. Led,
# any club takes the trick: the opponents hold no club (R4 Null: the
# declarer loses with his first trick), so leading CA loses in every layout
# of the hidden cards. S7 and H7 can take no trick (five spades or hearts
# at least sit with the opponents), and from then on the opponents lead and
# the declarer follows low or throws clubs: it wins in every layout.
NULL_HANDS = (
    "CA CK CQ CJ CT C9 C8 C7 S7 H7",
    "SA ST SK SQ SJ S9 S8 HA HT HK",
    "HQ HJ H9 H8 DA DT DK DQ DJ D9",
)
NULL_SKAT = "D8 D7"


def _null_deal(lead: str) -> Deal:
    """The Null Hand deal with forehand's first card ``lead``, then played
    out by `heuristic`."""
    deck = deck_from_hands([h.split() for h in NULL_HANDS], NULL_SKAT.split())
    deal = Deal(deck, dealer=2)
    assert deal.seat_of(0) == 0  # seat 0 is forehand
    deal.apply(Pass(), 1)  # middlehand
    deal.apply(Pass(), 2)  # rearhand
    deal.apply(Bid(18), 0)
    deal.apply(Announce(Contract(GameType.NULL, hand=True)), 0)
    deal.apply(Play(Card.parse(lead)), 0)
    _finish(deal)
    return deal


def _finish(deal: Deal, seed: int = 1) -> None:
    players = [HeuristicPlayer(random.Random(f"{seed}/{s}")) for s in range(3)]
    play_deal(deal, players)


def _first_card(judged: Sequence[Judged]) -> Judged:
    return next(j for j in judged if j.phase == "play")


def test_leading_the_club_in_null_is_a_blunder_in_every_layout() -> None:
    """R7.1 Null: the declarer who takes a trick loses. Leading CA takes
    the first trick whatever the opponents hold: a blunder costing the
    difference between Null Hand won (+35 +50) and lost (-70 -50)."""
    deal = _null_deal("CA")
    assert deal.result is not None and not deal.result.won
    first = _first_card(Reviewer().review(deal, 0))
    assert first.action == "play CA"
    assert first.best in ("play S7", "play H7")
    assert first.verdict == "blunder"
    assert first.loss == pytest.approx(85 + 120)


def test_the_safe_lead_is_fine() -> None:
    deal = _null_deal("S7")
    assert deal.result is not None and deal.result.won
    first = _first_card(Reviewer().review(deal, 0))
    assert first.action == "play S7"
    assert first.verdict == "fine" and first.loss == 0
    assert first.value == pytest.approx(85)


def _played(number: int) -> Deal:
    deck = make_decks(number, 5)[number - 1]
    deal = Deal(deck, dealer=(number - 1) % 3)
    _finish(deal, number)
    return deal


def test_one_legal_action_is_fine_with_no_loss() -> None:
    deal = _played(1)
    judged = [j for s in range(3) for j in Reviewer().review(deal, s)]
    single = [j for j in judged if j.choices == 1]
    assert single, "the last trick leaves one card to each seat"
    assert all(j.loss == 0 and j.verdict == "fine" and j.best == j.action for j in single)
    assert all(j.loss >= 0 for j in judged)


def test_a_review_replays_exactly() -> None:
    deal = _played(2)
    seat = deal.declarer_seat if deal.declarer_seat is not None else 0
    assert Reviewer().review(deal, seat) == Reviewer().review(deal, seat)


def test_verdict_bounds() -> None:
    assert verdict(0) == "fine"
    assert verdict(BOUNDS[0]) == "inaccuracy"
    assert verdict(BOUNDS[1]) == "mistake"
    assert verdict(BOUNDS[2]) == "blunder"


def test_a_deal_not_over_or_a_seat_not_at_the_table_is_refused() -> None:
    deal = Deal(make_decks(1, 5)[0])
    with pytest.raises(ValueError, match="not over"):
        Reviewer().review(deal, 0)
    with pytest.raises(ValueError, match="seat 3"):
        Reviewer().review(_played(1), 3)


def _swapped(deal: Deal, seat: int, upto: int) -> Deal | None:
    """The deal with two cards swapped between the other two hands, cards
    that no one has played nor put away in the first ``upto`` actions (so
    ``seat`` saw nothing of them), its first ``upto`` actions replayed and
    the rest played out by `heuristic`; None if no swap keeps them legal."""
    history = deal.history[:upto]
    seen = {int(a.card) for _, a in history if isinstance(a, Play)}
    seen |= {int(c) for c in deal.skat}  # the declarer's discard
    others = [p for p in range(3) if deal.seat_of(p) != seat]
    a_cards = [int(c) for c in deal.dealt_hand(others[0]) if int(c) not in seen]
    b_cards = [int(c) for c in deal.dealt_hand(others[1]) if int(c) not in seen]
    for a in a_cards:
        for b in b_cards:
            hands = [[int(c) for c in deal.dealt_hand(p)] for p in range(3)]
            hands[others[0]] = [b if c == a else c for c in hands[others[0]]]
            hands[others[1]] = [a if c == b else c for c in hands[others[1]]]
            other = Deal(
                deck_from_hands(hands, [int(c) for c in deal.dealt_skat]), dealer=deal.dealer
            )
            try:
                for who, action in history:
                    other.apply(action, who)
            except IllegalActionError:
                continue
            _finish(other, 9)
            return other
    return None


@pytest.mark.parametrize("number", [3, 4])
def test_a_review_never_reads_a_card_its_seat_could_not_see(number: int) -> None:
    """The declarer's decisions up to his second card, reviewed in the deal
    played and in one whose opponents' unseen cards were swapped between
    them: the seat saw the same, so every figure is the same (the review
    draws its worlds from the view: a hidden card read anywhere would
    change them)."""
    deal = _played(number)
    seat = deal.declarer_seat
    assert seat is not None and deal.result is not None
    plays = [i for i, (s, a) in enumerate(deal.history) if s == seat and isinstance(a, Play)]
    upto = plays[1] + 1
    other = _swapped(deal, seat, upto)
    assert other is not None
    assert [h for h in other.history[:upto]] == list(deal.history[:upto])
    assert {int(c) for c in other.dealt_hand(0)} != {int(c) for c in deal.dealt_hand(0)} or (
        {int(c) for c in other.dealt_hand(1)} != {int(c) for c in deal.dealt_hand(1)}
    )

    def mine(d: Deal) -> list[Judged]:
        return [j for j in Reviewer().review(d, seat) if j.move < upto]

    before = mine(deal)
    assert sum(j.choices > 1 for j in before) >= 3
    assert before == mine(other)


# ------------------------------------------------------------ luck and play
def test_the_blunder_costs_the_declarer_what_his_cards_promised() -> None:
    """Null Hand with the safe lead promised the declarer a win (the
    evaluator's expectation, above 0); leading CA made -120 (lost Null Hand,
    R8.2): what the play lost is the difference, and the list's summary
    names the lead as its costliest decision, at the board's first card."""
    deal = _null_deal("CA")
    got = deal_review(deal, 0)
    luck = got.luck
    assert luck.role == "declarer" and luck.made == -120
    assert luck.promised == luck.skat and luck.promised > 0
    assert luck.play == pytest.approx(-120 - luck.promised)
    total = summary(0, [got])
    assert total["made"] == -120 and total["play"] == pytest.approx(-120 - total["promised"])
    worst = total["costliest"][0]
    assert (worst["action"], worst["verdict"], worst["step"]) == ("play CA", "blunder", 1)
    assert total["verdicts"]["blunder"] >= 1


def test_a_defenders_promise_is_the_bonus_times_the_declarers_chance_to_lose() -> None:
    deal = _null_deal("S7")
    for seat in (1, 2):
        luck = promise(deal, seat)
        assert luck.role == "defender" and luck.skat is None
        assert 0 <= luck.promised <= 40 and luck.made == 0
    # the two defenders' cards promise the same: the declarer's chances
    assert promise(deal, 1).promised == promise(deal, 2).promised


def test_a_deal_thrown_in_promised_nothing_and_made_nothing() -> None:
    deal = Deal(make_decks(1, 5)[0], dealer=2)
    for seat in (1, 2, 0):
        deal.apply(Pass(), seat)
    assert deal.result is not None and deal.result.kind == "passed"
    for seat in range(3):
        luck = promise(deal, seat)
        assert (luck.role, luck.promised, luck.made, luck.play) == ("none", 0, 0, 0)
        assert luck.dealt >= 0


def test_a_cold_null_played_hand_but_not_open_is_reviewed_against_ouvert_hand() -> None:
    """Forehand's clubs, S7 and H7 win a Null even open (the S7 led first
    leaves spades safe, every other card ducks): the review shows the Null
    Hand announced (R3.3) below Null Ouvert Hand, which is worth 59 against
    35 (R5.5) and as sure; the strong player would have announced it."""
    deal = _null_deal("S7")
    assert deal.result is not None and deal.result.won
    judged = Reviewer().review(deal, 0)
    skat = next(j for j in judged if j.phase == "skat")
    assert skat.action == "announce null hand"
    assert skat.best == "announce null hand ouvert"
    assert skat.loss == pytest.approx(59 - 35)
