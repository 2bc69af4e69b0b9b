"""The engine's fixed tables of actions (issue 29, point 3: out of deal.py):
every announcement by bid, one shared `Discard` per pair of cards, the
auction's calls, and the plays of any set of cards in four lookups (the hot
path of `Deal.legal_actions`). Built once at import; never changed."""

from __future__ import annotations

from .actions import HOLD, NO_RE, PASS, PICKUP, PLAYS, RE, Announce, Bid, Discard, Play
from .cards import CARDS
from .game import NULL_VALUES, Contract, GameType
from .values import BID_VALUES

_NULL = GameType.NULL

GAME_ORDER = (
    GameType.DIAMONDS,
    GameType.HEARTS,
    GameType.SPADES,
    GameType.CLUBS,
    GameType.GRAND,
)


def _contracts(hand: bool) -> tuple[Announce, ...]:
    out: list[Announce] = []
    for g in GAME_ORDER:
        if hand:
            out += [
                Announce(Contract(g, True)),
                Announce(Contract(g, True, True)),
                Announce(Contract(g, True, True, True)),
                Announce(Contract(g, True, True, True, True)),
            ]
        else:
            out.append(Announce(Contract(g)))
    out.append(Announce(Contract(_NULL, hand)))
    out.append(Announce(Contract(_NULL, hand, ouvert=True)))
    return tuple(out)


HAND_ANNOUNCES = _contracts(True)
PICKUP_ANNOUNCES = _contracts(False)


def _by_bid(announces: tuple[Announce, ...]) -> dict[int, tuple[Announce, ...]]:
    """The announcements open at each bid: only a Null may fall below it (R3.5)."""
    return {
        v: tuple(
            a
            for a in announces
            if a.contract.game != GameType.NULL
            or NULL_VALUES[a.contract.hand, a.contract.ouvert] >= v
        )
        for v in BID_VALUES
    }


HAND_BY_BID = _by_bid(HAND_ANNOUNCES)
PICKUP_BY_BID = _by_bid(PICKUP_ANNOUNCES)
#: One shared `Discard` per pair of cards (lower card first).
DISCARDS: tuple[tuple[Discard | None, ...], ...] = tuple(
    tuple(Discard((CARDS[a], CARDS[b])) if a < b else None for b in range(32)) for a in range(32)
)
BIDS = {v: Bid(v) for v in BID_VALUES}
BIDS_ABOVE = {v: tuple(BIDS[b] for b in BID_VALUES if b > v) for v in (0, *BID_VALUES)}
BIDDER_ACTIONS = {v: (PASS, *BIDS_ABOVE[v]) for v in (0, *BID_VALUES)}
LISTENER_ACTIONS = (PASS, HOLD)
FOREHAND_18 = (PASS, BIDS[18])
RE_ACTIONS = (NO_RE, RE)
PUSH_ACTIONS = (PICKUP, PASS)  # take the skat up, or push it on unseen
# Play actions for every 8-bit slice of a mask: legal plays are four lookups.
BYTE_PLAYS = tuple(
    tuple(PLAYS[8 * k + i] for i in range(8) if b >> i & 1) for k in range(4) for b in range(256)
)


def plays_of(mask: int) -> tuple[Play, ...]:
    b = BYTE_PLAYS
    return (
        b[mask & 255]
        + b[256 + (mask >> 8 & 255)]
        + b[512 + (mask >> 16 & 255)]
        + b[768 + (mask >> 24 & 255)]
    )


__all__ = [
    "BIDDER_ACTIONS",
    "BIDS",
    "BIDS_ABOVE",
    "BYTE_PLAYS",
    "DISCARDS",
    "FOREHAND_18",
    "GAME_ORDER",
    "HAND_ANNOUNCES",
    "HAND_BY_BID",
    "LISTENER_ACTIONS",
    "PICKUP_ANNOUNCES",
    "PICKUP_BY_BID",
    "PUSH_ACTIONS",
    "RE_ACTIONS",
    "plays_of",
]
