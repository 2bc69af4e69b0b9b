"""The auction of one deal (R2): bids, holds and passes, and its end.

The steps of `Deal` (deal.py), one function each over the deal's state;
only `Deal` and its sibling step modules call them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import ramsch, settle
from .actions import Action, Bid, Hold, Pass
from .errors import Reason, reject
from .state import Phase
from .values import BID_SET

if TYPE_CHECKING:
    from .dealstate import DealState

# Enum members as module globals: on Python 3.11 `Phase.PLAY` is a lookup
# through the enum's metaclass, about ten times a global's cost (hot paths).
_SKAT = Phase.SKAT


def call(deal: DealState, p: int, action: Action) -> None:
    seat = deal._seats[p]
    cls = action.__class__
    if cls not in (Bid, Hold, Pass):
        raise deal._wrong_phase(p, action)
    if deal._passed >> p & 1:
        raise reject(Reason.ALREADY_PASSED, "you have passed", seat=seat, action=action)
    if p != deal._to_act:  # whose turn it is in the auction (`DealState._current`)
        deal._turn(p, action)
    if cls is Bid:
        value: int = action.value  # type: ignore[attr-defined]
        if deal._stage != 3 and p == deal._listener:
            raise reject(
                Reason.LISTENER_CANNOT_BID,
                "the listener holds or passes",
                seat=seat,
                action=action,
            )
        if value not in BID_SET:
            raise reject(
                Reason.BID_NOT_IN_LIST, f"{value} is no game value", seat=seat, action=action
            )
        if value <= deal._value:
            raise reject(
                Reason.BID_NOT_HIGHER,
                f"the bid must exceed {deal._value}",
                seat=seat,
                action=action,
            )
        if deal._stage == 3:
            if value != 18:
                raise reject(
                    Reason.VORHAND_TAKES_AT_18,
                    "forehand may only take the game at 18",
                    seat=seat,
                    action=action,
                )
            deal._value = 18
            deal._named |= 1
            end_auction(deal, 0)
            return
        deal._value = value
        deal._named |= 1 << p
        deal._to_act = deal._listener
    elif cls is Hold:
        if deal._stage == 3 or p != deal._listener:
            raise reject(
                Reason.BIDDER_CANNOT_HOLD, "the bidder bids or passes", seat=seat, action=action
            )
        deal._named |= 1 << p
        deal._to_act = deal._bidder
    else:
        deal._passed |= 1 << p
        if deal._stage == 1:
            survivor = deal._listener if p == deal._bidder else deal._bidder
            deal._stage, deal._bidder, deal._listener = 2, 2, survivor
            deal._to_act = 2
        elif deal._stage == 2:
            survivor = deal._listener if p == deal._bidder else deal._bidder
            if deal._value:
                end_auction(deal, survivor)
            else:  # nobody named a number: forehand may take the game at 18 (R2.4)
                deal._stage, deal._bidder = 3, 0  # forehand bids, to nobody
                deal._to_act = 0
        else:
            end_auction(deal, -1)


def end_auction(deal: DealState, declarer: int) -> None:
    if declarer >= 0:
        deal._declarer = declarer
        deal._phase = _SKAT
    elif deal.rules.all_pass == "ramsch":
        ramsch.start(deal)
    else:
        settle.finish_passed(deal)
