"""Rejections with the reason codes of SKAT-RULES.md R10.

Every rejection is an `IllegalActionError` (a `ValueError`) carrying ``code``
(a `Reason`), and where known the ``seat`` and ``action`` that were refused.
There is one subclass per reason code, so callers may catch exactly what they
expect::

    IllegalActionError            (ValueError)
    ├── ListOverError             LIST_OVER
    ├── DealOverError             DEAL_OVER
    ├── NotAPlayerError           NOT_A_PLAYER
    ├── WrongPhaseError           WRONG_PHASE
    ├── ...                       one per code below
    └── InvalidCardError          INVALID_CARD (also raised by card parsing)

A rejected action never changes the state it was applied to.
"""

from __future__ import annotations

from enum import Enum
from typing import Any


class Reason(str, Enum):
    """R10 reason codes, in the precedence order of R10 where it applies."""

    LIST_OVER = "LIST_OVER"
    DEAL_OVER = "DEAL_OVER"
    NOT_A_PLAYER = "NOT_A_PLAYER"
    WRONG_PHASE = "WRONG_PHASE"
    RE_DECISION_PENDING = "RE_DECISION_PENDING"
    ALREADY_PASSED = "ALREADY_PASSED"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    LISTENER_CANNOT_BID = "LISTENER_CANNOT_BID"
    #: Product addition (docs/rules-decisions.md): the bidder answered "hold".
    BIDDER_CANNOT_HOLD = "BIDDER_CANNOT_HOLD"
    BID_NOT_IN_LIST = "BID_NOT_IN_LIST"
    BID_NOT_HIGHER = "BID_NOT_HIGHER"
    VORHAND_TAKES_AT_18 = "VORHAND_TAKES_AT_18"
    SKAT_ALREADY_TAKEN = "SKAT_ALREADY_TAKEN"
    PICKUP_REQUIRED = "PICKUP_REQUIRED"
    ALREADY_DISCARDED = "ALREADY_DISCARDED"
    DISCARD_INVALID = "DISCARD_INVALID"
    HAND_AFTER_PICKUP = "HAND_AFTER_PICKUP"
    DISCARD_REQUIRED = "DISCARD_REQUIRED"
    NOT_APPLICABLE_TO_NULL = "NOT_APPLICABLE_TO_NULL"
    ANNOUNCEMENT_REQUIRES_HAND = "ANNOUNCEMENT_REQUIRES_HAND"
    OUVERT_REQUIRES_HAND = "OUVERT_REQUIRES_HAND"
    NULL_VALUE_BELOW_BID = "NULL_VALUE_BELOW_BID"
    UNREACHABLE_ANNOUNCEMENT = "UNREACHABLE_ANNOUNCEMENT"
    INVALID_CARD = "INVALID_CARD"
    CARD_NOT_IN_HAND = "CARD_NOT_IN_HAND"
    MUST_FOLLOW_SUIT = "MUST_FOLLOW_SUIT"
    KONTRA_NOT_ALLOWED = "KONTRA_NOT_ALLOWED"
    RE_NOT_ALLOWED = "RE_NOT_ALLOWED"
    #: Product addition: an action text or record entry that cannot be parsed.
    MALFORMED_ACTION = "MALFORMED_ACTION"

    def __str__(self) -> str:
        return self.value


class IllegalActionError(ValueError):
    """An action the rules do not allow; ``code`` says why (R10)."""

    code: Reason = Reason.WRONG_PHASE

    def __init__(self, message: str, *, seat: int | None = None, action: Any = None) -> None:
        super().__init__(f"{self.code.value}: {message}")
        self.message = message
        self.seat = seat
        self.action = action


class ListOverError(IllegalActionError):
    """R10 ``LIST_OVER``."""

    code = Reason.LIST_OVER


class DealOverError(IllegalActionError):
    """R10 ``DEAL_OVER``."""

    code = Reason.DEAL_OVER


class NotAPlayerError(IllegalActionError):
    """R10 ``NOT_A_PLAYER``."""

    code = Reason.NOT_A_PLAYER


class WrongPhaseError(IllegalActionError):
    """R10 ``WRONG_PHASE``."""

    code = Reason.WRONG_PHASE


class ReDecisionPendingError(IllegalActionError):
    """R10 ``RE_DECISION_PENDING``."""

    code = Reason.RE_DECISION_PENDING


class AlreadyPassedError(IllegalActionError):
    """R10 ``ALREADY_PASSED``."""

    code = Reason.ALREADY_PASSED


class NotYourTurnError(IllegalActionError):
    """R10 ``NOT_YOUR_TURN``."""

    code = Reason.NOT_YOUR_TURN


class ListenerCannotBidError(IllegalActionError):
    """R10 ``LISTENER_CANNOT_BID``."""

    code = Reason.LISTENER_CANNOT_BID


class BidderCannotHoldError(IllegalActionError):
    """R10 ``BIDDER_CANNOT_HOLD``."""

    code = Reason.BIDDER_CANNOT_HOLD


class BidNotInListError(IllegalActionError):
    """R10 ``BID_NOT_IN_LIST``."""

    code = Reason.BID_NOT_IN_LIST


class BidNotHigherError(IllegalActionError):
    """R10 ``BID_NOT_HIGHER``."""

    code = Reason.BID_NOT_HIGHER


class VorhandTakesAt18Error(IllegalActionError):
    """R10 ``VORHAND_TAKES_AT_18``."""

    code = Reason.VORHAND_TAKES_AT_18


class SkatAlreadyTakenError(IllegalActionError):
    """R10 ``SKAT_ALREADY_TAKEN``."""

    code = Reason.SKAT_ALREADY_TAKEN


class PickupRequiredError(IllegalActionError):
    """R10 ``PICKUP_REQUIRED``."""

    code = Reason.PICKUP_REQUIRED


class AlreadyDiscardedError(IllegalActionError):
    """R10 ``ALREADY_DISCARDED``."""

    code = Reason.ALREADY_DISCARDED


class DiscardInvalidError(IllegalActionError):
    """R10 ``DISCARD_INVALID``."""

    code = Reason.DISCARD_INVALID


class HandAfterPickupError(IllegalActionError):
    """R10 ``HAND_AFTER_PICKUP``."""

    code = Reason.HAND_AFTER_PICKUP


class DiscardRequiredError(IllegalActionError):
    """R10 ``DISCARD_REQUIRED``."""

    code = Reason.DISCARD_REQUIRED


class NotApplicableToNullError(IllegalActionError):
    """R10 ``NOT_APPLICABLE_TO_NULL``."""

    code = Reason.NOT_APPLICABLE_TO_NULL


class OuvertRequiresHandError(IllegalActionError):
    """R10 ``OUVERT_REQUIRES_HAND``."""

    code = Reason.OUVERT_REQUIRES_HAND


class NullValueBelowBidError(IllegalActionError):
    """R10 ``NULL_VALUE_BELOW_BID``."""

    code = Reason.NULL_VALUE_BELOW_BID


class InvalidCardError(IllegalActionError):
    """R10 ``INVALID_CARD``."""

    code = Reason.INVALID_CARD


class CardNotInHandError(IllegalActionError):
    """R10 ``CARD_NOT_IN_HAND``."""

    code = Reason.CARD_NOT_IN_HAND


class MustFollowSuitError(IllegalActionError):
    """R10 ``MUST_FOLLOW_SUIT``."""

    code = Reason.MUST_FOLLOW_SUIT


class KontraNotAllowedError(IllegalActionError):
    """R10 ``KONTRA_NOT_ALLOWED``."""

    code = Reason.KONTRA_NOT_ALLOWED


class ReNotAllowedError(IllegalActionError):
    """R10 ``RE_NOT_ALLOWED``."""

    code = Reason.RE_NOT_ALLOWED


class MalformedActionError(IllegalActionError):
    """R10 ``MALFORMED_ACTION``."""

    code = Reason.MALFORMED_ACTION


class AnnouncementRequiresHandError(IllegalActionError):
    """R10 ``ANNOUNCEMENT_REQUIRES_HAND``."""

    code = Reason.ANNOUNCEMENT_REQUIRES_HAND


class UnreachableAnnouncementError(IllegalActionError):
    """R10 ``UNREACHABLE_ANNOUNCEMENT``."""

    code = Reason.UNREACHABLE_ANNOUNCEMENT


_CLASSES: dict[Reason, type[IllegalActionError]] = {
    cls.code: cls for cls in IllegalActionError.__subclasses__()
}


def error_class(reason: Reason) -> type[IllegalActionError]:
    """The exception class for a reason code."""
    return _CLASSES[reason]


def reject(
    reason: Reason, message: str, *, seat: int | None = None, action: Any = None
) -> IllegalActionError:
    """Build (not raise) the typed error for ``reason``."""
    return _CLASSES[reason](message, seat=seat, action=action)
