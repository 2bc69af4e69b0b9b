"""Claims by the declarer, and the defenders' answers (R6.6; issue 49, item 3;
issue 54, finding 5).

R6.6: "If the game is not yet decided and every defender agrees, he has won
the announced game; a higher level (Schneider, Schwarz) counts only if he
claimed it when showing. If a defender disagrees, play continues with the
declarer's cards open and the deal is scored by its actual outcome."

The deal: forehand holds the four jacks and seven clubs with the skat's C7
(with 11, R5.2), Clubs Hand (base 12, R5.1): game 12, Hand 13, Schneider 14,
Schwarz 15 (R5.3).
"""

from __future__ import annotations

import pytest

from skat.engine import Deal, IllegalActionError, Reason, Rules, parse_action
from skat.engine.actions import CLAIM, CONCEDE, REFUSE, Claim
from skat.engine.deal import deck_from_hands
from tests.helpers.hands import FOUR_JACKS_SIX_CLUBS, WEAK, declared_hand


def _clubs_hand(rules: Rules | None = None) -> Deal:
    deal = Deal(deck_from_hands(FOUR_JACKS_SIX_CLUBS, ["C7", "D7"]), rules=rules or Rules())
    deal.apply(parse_action("pass"), seat=1)
    deal.apply(parse_action("pass"), seat=2)
    deal.apply(parse_action("bid 18"), seat=0)
    deal.apply(parse_action("announce clubs hand"), seat=0)
    return deal


def _accepted(deal: Deal, claim: Claim) -> tuple[int, bool, bool]:
    deal.apply(claim, seat=0)
    deal.apply(CONCEDE, seat=1)
    deal.apply(CONCEDE, seat=2)
    r = deal.result
    assert r is not None and r.valuation is not None and r.won
    assert r.ended == "defenders_conceded"
    return r.valuation.value, r.valuation.schneider, r.valuation.schwarz


@pytest.mark.parametrize(
    ("text", "value", "schneider", "schwarz"),
    [
        ("claim", 13 * 12, False, False),  # the announced game only
        ("claim schneider", 14 * 12, True, False),
        ("claim schwarz", 15 * 12, True, True),
    ],
)
def test_an_accepted_claim_counts_only_the_levels_claimed(
    text: str, value: int, schneider: bool, schwarz: bool
) -> None:
    """Every card would have gone to the declarer (Schneider and Schwarz in
    play), yet a plain claim counts the game alone (R6.6)."""
    claim = parse_action(text)
    assert isinstance(claim, Claim) and str(claim) == text
    assert _accepted(_clubs_hand(), claim) == (value, schneider, schwarz)


def test_the_iss_reading_counts_every_card_handed_over() -> None:
    """Imported ISS records replay the server's own way (ISS-FORMAT.md 4.2)."""
    deal = _clubs_hand(Rules(claim_levels="taken"))
    assert _accepted(deal, CLAIM) == (15 * 12, True, True)


def test_a_claim_is_made_once_a_deal() -> None:
    deal = _clubs_hand()
    assert CLAIM in deal.offers(0)
    deal.apply(CLAIM, seat=0)
    assert CLAIM not in deal.offers(0)
    for again in (CLAIM, Claim("schneider")):
        with pytest.raises(IllegalActionError) as err:
            deal.apply(again, seat=0)
        assert err.value.code is Reason.WRONG_PHASE


def test_a_refused_claim_plays_on_and_is_scored_by_the_cards() -> None:
    deal = _clubs_hand()
    deal.apply(parse_action("claim schneider"), seat=0)
    assert REFUSE in deal.offers(1) and REFUSE in deal.offers(2)
    deal.apply(CONCEDE, seat=1)  # one agrees
    deal.apply(REFUSE, seat=2)  # the other says no: play goes on
    assert not deal.is_terminal()
    assert REFUSE not in deal.offers(1) and REFUSE not in deal.offers(2)
    assert deal.view(2).open_cards is not None  # the cards stay open
    with pytest.raises(IllegalActionError):
        deal.apply(REFUSE, seat=1)  # nothing left to answer
    # a concession after the refusal is a give-up (every card to the
    # declarer), not the claim accepted
    deal.apply(CONCEDE, seat=2)
    r = deal.result
    assert r is not None and r.valuation is not None
    assert r.valuation.value == 15 * 12 and r.valuation.schwarz


#: Forehand's weak Grand Hand (tests/players/test_claims.py): the defence
#: takes tricks at once.
def test_levels_that_can_no_longer_be_made_cannot_be_claimed() -> None:
    deal = declared_hand(WEAK, ["DA", "DT"], "grand")
    for text in ("play S7", "play SK", "play SA"):  # the defence: a trick, 15
        deal.apply_text(text, deal.current_seat)
    probe = deal.clone()
    with pytest.raises(IllegalActionError):
        probe.apply(Claim("schwarz"), seat=0)
    probe.apply(Claim("schneider"), seat=0)  # 15 card points: still possible
    for text in ("play HA", "play H7", "play HK"):  # the defence: 30, still
        deal.apply_text(text, deal.current_seat)
    deal.clone().apply(Claim("schneider"), seat=0)
    for text in ("play ST", "play S8", "play SQ"):  # the defence: 43
        deal.apply_text(text, deal.current_seat)
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Claim("schneider"), seat=0)
    assert err.value.code is Reason.WRONG_PHASE
    deal.apply(CLAIM, seat=0)  # the game may still be claimed
    with pytest.raises(IllegalActionError) as null:
        declared_hand(FOUR_JACKS_SIX_CLUBS, ["C7", "D7"], "null").apply(Claim("schneider"), seat=0)
    assert null.value.code is Reason.NOT_APPLICABLE_TO_NULL


def test_claim_texts_are_exact() -> None:
    assert parse_action("claim schwarz") == Claim("schwarz")
    assert str(Claim()) == "claim" and str(REFUSE) == "refuse"
