"""Time-outs and leaving around the declaration (ISS-FORMAT.md 4.2, 4.4;
docs/rules-decisions.md "Ending a deal early")."""

from __future__ import annotations

import pytest

from skat.engine import (
    Abandon,
    Announce,
    Bid,
    Card,
    Contract,
    Deal,
    Discard,
    GameType,
    Pass,
    Phase,
    Reason,
    Rules,
    parse_cards,
)
from skat.engine.actions import LEAVE, PICKUP, TIMEOUT
from skat.engine.errors import IllegalActionError
from skat.engine.records import GameRecord, replay
from skat.series import ListOptions, Series

# Seat 1 (middlehand) declares at 18 with CA CT C7 S8 HA HT HK DJ D9 D8 and
# finds C8 SA (11 points) in the skat: Clubs without 3, game 4 x 12 = 48.
DECK = parse_cards(
    "CJ SJ HJ DJ CA CT CK CQ C9 C8 SA ST SK SQ S9 S8 "
    "HA HT HK HQ H9 H8 DA DT DK DQ D9 D8 C7 S7 H7 D7"
)
CLUBS = Announce(Contract(GameType.CLUBS))


def _picked_up(rules: Rules | None = None) -> Deal:
    deal = Deal(DECK, rules=rules)
    deal.apply(Bid(18), seat=1)
    deal.apply(Pass(), seat=0)
    deal.apply(Pass(), seat=2)
    deal.apply(PICKUP, seat=1)
    assert str(deal.dealt_skat) == "C8 SA"
    return deal


@pytest.mark.parametrize("ending", [TIMEOUT, LEAVE])
def test_declarer_gone_after_the_announcement_loses_the_declared_game(ending: Abandon) -> None:
    """Our own order (R3.2: discard, then announce): a declarer who times out
    or leaves before the first card loses the game he announced, valued with
    his real matadors, the discarded skat counted for him (ISS 4.2)."""
    deal = _picked_up()
    deal.apply(Discard((Card.CA, Card.CT)), seat=1)
    deal.apply(CLUBS, seat=1)
    deal.apply(ending, seat=1)
    r = deal.result
    assert r is not None and r.valuation is not None
    assert (r.kind, r.ended, r.ended_by, r.won) == ("game", ending.reason, 1, False)
    assert r.contract == Contract(GameType.CLUBS)
    assert (r.valuation.matadors, r.value, r.score) == (-3, 48, -96)
    assert (r.declarer_points, r.declarer_tricks) == (21, 0)  # CA + CT
    assert not r.valuation.schneider  # no trick was completed (ISS 4.2)
    assert r.penalties == (0, 0, 0)


def test_defender_leaving_after_the_announcement_gives_the_declarer_everything() -> None:
    deal = _picked_up()
    deal.apply(Discard((Card.CA, Card.CT)), seat=1)
    deal.apply(CLUBS, seat=1)
    deal.apply(LEAVE, seat=2)
    r = deal.result
    assert r is not None and r.valuation is not None
    assert (r.won, r.declarer_points, r.declarer_tricks) == (True, 120, 10)
    # without 3, game 4, Schneider 5, Schwarz 6 x 12
    assert (r.value, r.score, r.ended_by) == (72, 72, 2)


def test_timeout_before_any_announcement_abandons_the_deal() -> None:
    """After pickup but before the announcement no game is declared: the deal
    is abandoned with the penalty on the declarer (ISS-FORMAT.md 4.4)."""
    deal = _picked_up()
    deal.apply(TIMEOUT, seat=1)
    r = deal.result
    assert r is not None
    assert (r.kind, r.contract, r.valuation, r.declarer_seat) == ("abandoned", None, None, 1)
    assert (r.penalties, r.plain) == ((0, 1, 0), (0, 0, 0))


def test_announcing_before_the_discard_is_refused_by_default() -> None:
    deal = _picked_up()
    with pytest.raises(IllegalActionError) as err:
        deal.apply(CLUBS, seat=1)
    assert err.value.code == Reason.DISCARD_REQUIRED


ISS_ORDER = Rules(announce_before_discard=True)


@pytest.mark.parametrize("ending", [TIMEOUT, LEAVE])
def test_declared_before_the_discard_then_gone_is_a_lost_game(ending: Abandon) -> None:
    """ISS order (ISS-FORMAT.md 2.4, 4.4): the declaration counts; the game is
    lost with the real matadors (hand plus skat) and the two skat cards he
    picked up counted for the declarer."""
    deal = _picked_up(ISS_ORDER)
    deal.apply(CLUBS, seat=1)
    assert deal.phase is Phase.DISCARD
    assert all(isinstance(a, Discard) for a in deal.legal_actions())
    deal.apply(ending, seat=1)
    r = deal.result
    assert r is not None and r.valuation is not None
    assert (r.kind, r.ended, r.won, r.contract) == (
        "game",
        ending.reason,
        False,
        Contract(GameType.CLUBS),
    )
    assert (r.valuation.matadors, r.score) == (-3, -96)
    assert (r.declarer_points, r.declarer_tricks) == (11, 0)  # C8 + SA
    assert r.penalties == (0, 0, 0)
    again = replay(GameRecord.from_dict(GameRecord.from_deal(deal).to_dict()))
    assert again.result == r


def test_declared_before_the_discard_defender_timeout_wins_for_the_declarer() -> None:
    deal = _picked_up(ISS_ORDER)
    deal.apply(CLUBS, seat=1)
    deal.apply(TIMEOUT, seat=0)
    r = deal.result
    assert r is not None
    assert (r.won, r.declarer_points, r.declarer_tricks, r.score) == (True, 120, 10, 72)


def test_declared_before_the_discard_then_discarded_plays_on() -> None:
    deal = _picked_up(ISS_ORDER)
    deal.apply(CLUBS, seat=1)
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Announce(Contract(GameType.GRAND)), seat=1)
    assert err.value.code == Reason.WRONG_PHASE
    with pytest.raises(IllegalActionError) as err:
        deal.apply(Announce(Contract(GameType.GRAND, hand=True)), seat=1)
    assert err.value.code == Reason.HAND_AFTER_PICKUP
    deal.apply(Discard((Card.CA, Card.CT)), seat=1)
    assert (deal.phase, deal.contract, deal.current_seat) == (
        Phase.PLAY,
        Contract(GameType.CLUBS),
        0,
    )
    assert str(deal.skat) == "CA CT"


def test_in_a_list_a_timeout_after_the_announcement_is_a_lost_game_on_the_sheet() -> None:
    """Our list flow (dealer seat 0: middlehand is seat 2): the declarer times
    out after announcing; the sheet scores the declared game as lost. The list
    keeps R3.2, so announcing before the discard is refused there."""
    series = Series(ListOptions(deals=3), decks=[DECK] * 3, commit="x")
    assert series.deal.seat_of(1) == 2
    series.apply(Bid(18), 2)
    series.apply(Pass(), 1)
    series.apply(Pass(), 0)
    series.apply(PICKUP, 2)
    with pytest.raises(IllegalActionError) as err:
        series.apply(CLUBS, 2)
    assert err.value.code == Reason.DISCARD_REQUIRED
    series.apply(Discard((Card.CA, Card.CT)), 2)
    series.apply(CLUBS, 2)
    series.apply(TIMEOUT, 2)
    row = series.rows[-1]
    assert (row.kind, row.declarer, row.won, row.value) == ("game", 2, False, 48)
    assert row.plain == (0, 0, -96)
    assert row.seeger_fabian == (40, 40, -146)
