"""From the auction to the first card (R3): the skat picked up or not, the
discard, the announcement (a Ramsch starts in ramsch.py).

The steps of `Deal` (deal.py), one function each over the deal's state;
only `Deal` and its sibling step modules call them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import Action, Announce, Discard, Pickup
from .cards import Card
from .errors import Reason, reject
from .game import NULL_VALUES, Contract, GameType
from .state import Phase
from .tables import GAME_ORDER as _GAME_ORDER
from .values import reachable_max

if TYPE_CHECKING:
    from .dealstate import DealState

_NULL = GameType.NULL
_RAMSCH = GameType.RAMSCH

# Enum members as module globals: on Python 3.11 `Phase.PLAY` is a lookup
# through the enum's metaclass, about ten times a global's cost (hot paths).
_DECLARE = Phase.DECLARE
_DISCARD = Phase.DISCARD
_KONTRA = Phase.KONTRA
_PLAY = Phase.PLAY
_SKAT = Phase.SKAT


def declaration(deal: DealState, p: int, action: Action) -> None:
    cls = action.__class__
    if cls not in (Pickup, Discard, Announce):
        raise deal._wrong_phase(p, action)
    if p != deal._declarer:  # the declarer's turn in these phases (`DealState._current`)
        deal._turn(p, action)
    seat = deal._seats[p]
    ph = deal._phase
    if cls is Pickup:
        if ph is not _SKAT:
            raise reject(Reason.SKAT_ALREADY_TAKEN, "the skat is taken", seat=seat, action=action)
        deal._hands[p] |= deal._skat
        deal._skat = 0  # the two cards are in his hand now (R3.1)
        deal._picked_up = True
        deal._phase = _DISCARD
    elif cls is Discard:
        if ph is _SKAT:
            raise reject(Reason.PICKUP_REQUIRED, "pick up the skat first", seat=seat, action=action)
        if ph is _DECLARE:
            raise reject(Reason.ALREADY_DISCARDED, "you have discarded", seat=seat, action=action)
        cards: tuple[Card, ...] = action.cards  # type: ignore[attr-defined]
        mask = two_of_twelve(deal, p, action, "discard")
        deal._hands[p] &= ~mask
        deal._skat = mask
        deal._discard = tuple(cards)
        deal._phase = _DECLARE
        if deal._contract is not None:  # announced before the discard (ISS)
            begin_game(deal, deal._contract)
    else:
        contract = check_announce(deal, action.contract, p)  # type: ignore[attr-defined]
        deal._contract = contract
        if ph is not _DISCARD:
            begin_game(deal, contract)


def two_of_twelve(deal: DealState, p: int, action: Action, verb: str) -> int:
    """The mask of a `Discard`'s two cards, checked to be two different
    cards of ``p``'s hand (R3.2; the Schieberamsch push too)."""
    cards: tuple[Card, ...] = action.cards  # type: ignore[attr-defined]
    mask = 0
    for c in cards:
        mask |= 1 << c
    if len(cards) != 2 or mask.bit_count() != 2 or mask & ~deal._hands[p]:
        raise reject(
            Reason.DISCARD_INVALID,
            f"{verb} exactly two different cards of your twelve",
            seat=deal._seats[p],
            action=action,
        )
    return mask


def begin_game(deal: DealState, contract: Contract) -> None:
    start_play(deal, int(contract.game))
    if deal.rules.kontra and deal.rules.kontra_window == "first_lead":
        deal._phase = _KONTRA
        deal._asked = 0


def check_announce(deal: DealState, c: Contract, p: int) -> Contract:
    seat = deal._seats[p]
    ph = deal._phase
    if c.game == _RAMSCH:
        raise reject(Reason.MALFORMED_ACTION, "Ramsch cannot be announced", seat=seat)
    if ph is _SKAT:
        c = c.normalised()
        if not c.hand:
            raise reject(Reason.PICKUP_REQUIRED, "pick up the skat or play Hand", seat=seat)
    else:
        if c.hand:
            raise reject(Reason.HAND_AFTER_PICKUP, "no Hand game after pickup", seat=seat)
        if ph is _DISCARD:
            if not deal.rules.announce_before_discard:
                raise reject(Reason.DISCARD_REQUIRED, "discard two cards first", seat=seat)
            if deal._contract is not None:
                raise reject(
                    Reason.WRONG_PHASE, "the game is announced: discard two cards", seat=seat
                )
    is_null = c.game == _NULL
    if is_null and (c.schneider or c.schwarz):
        raise reject(Reason.NOT_APPLICABLE_TO_NULL, "Null has no Schneider or Schwarz", seat=seat)
    if ph is not _SKAT:
        if c.schneider or c.schwarz:
            raise reject(
                Reason.ANNOUNCEMENT_REQUIRES_HAND,
                "Schneider and Schwarz can be announced only in Hand games",
                seat=seat,
            )
        if c.ouvert and not is_null:
            raise reject(Reason.OUVERT_REQUIRES_HAND, "suit and Grand Ouvert need Hand", seat=seat)
    if is_null:
        v = NULL_VALUES[c.hand, c.ouvert]
        if v < deal._value:
            raise reject(
                Reason.NULL_VALUE_BELOW_BID,
                f"{c.describe()} ({v}) is below the bid {deal._value}",
                seat=seat,
            )
    elif deal.rules.enforce_reachable_announcement and ph is not _SKAT:
        cards12 = deal._dealt[p] | deal._dealt[3]
        if reachable_max(c.game, cards12, deal.rules) < deal._value and any_reachable(
            deal, cards12
        ):
            raise reject(
                Reason.UNREACHABLE_ANNOUNCEMENT,
                f"{c.describe()} cannot reach the bid {deal._value}",
                seat=seat,
            )
    return c


def any_reachable(deal: DealState, cards12: int) -> bool:
    if max(NULL_VALUES[False, False], NULL_VALUES[False, True]) >= deal._value:
        return True
    return any(reachable_max(g, cards12, deal.rules) >= deal._value for g in _GAME_ORDER)


def start_play(deal: DealState, game: int) -> None:
    deal._g = game
    deal._phase = _PLAY
    deal._leader = deal._to_play = 0
