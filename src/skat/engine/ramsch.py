"""Ramsch in one place (SKAT-RULES.md R9.1, R9.2): how a Ramsch deal starts,
how the skat goes round in Schieberamsch, and how the deal is settled, with
Jungfrau and Durchmarsch worked out here and only here. The deal
(`deal.py`) calls `start` when all pass (or for a compulsory Ramsch),
`push` and `push_actions` while the skat goes round, and `finish` after
the tenth trick; trick play itself is the ordinary one, with only the
jacks as trumps (the game type's tables, game.py). The result carries the
`RamschOutcome` (state.py), which the reckoner, the server's projection, the terminal
and the page only read. A Ramsch house rule belongs in this module.

R9.1: the skat counts for the winner of the last trick; the player with
the most card points loses them (all players tied on the most lose them);
a player who took no trick (Jungfrau) doubles that loss; a player who took
every trick (Durchmarsch) wins 120 instead. The Bock factor (R9.4)
multiplies the entries.

Schieberamsch (``schieberamsch``; a house rule, R9.2: the ISkO has no
Ramsch), as this engine plays it: before the first card, forehand,
middlehand and rearhand in turn either take the skat up and push two cards
of their twelve on as the new skat (``pickup``, then ``discard A B``; a
jack may never be pushed), or push the skat on unseen (``pass``), which
doubles the deal's entries each time (x2, x4, x8). The skat the rearhand
leaves goes to the winner of the last trick, as in every Ramsch. Each
player sees the skat while holding twelve cards and, after pushing two
cards on, those two until the next one takes them up; nobody else does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .actions import Action, Discard, Pass, Pickup
from .cards import JACKS, mask_cards, mask_points
from .declaring import start_play, two_of_twelve
from .errors import Reason, reject
from .game import Contract, GameType
from .settle import set_result
from .state import Phase, RamschOutcome
from .tables import DISCARDS, PUSH_ACTIONS

if TYPE_CHECKING:
    from .dealstate import DealState

DURCHMARSCH = 120  # R9.1: a player who takes every trick wins this

# Enum members as module globals: on Python 3.11 `Phase.PLAY` is a lookup
# through the enum's metaclass, about ten times a global's cost (hot paths).
_RAMSCH = GameType.RAMSCH
_PLAY = Phase.PLAY
_PUSH = Phase.PUSH


def entries(points: Sequence[int], tricks: Sequence[int], factor: int = 1) -> list[int]:
    """The list entries per player (R9.1): ``points`` with the skat counted,
    ``tricks`` per player, ``factor`` the Bock factor (and the Schieberamsch
    doubling)."""
    for i, t in enumerate(tricks):
        if t == 10:
            return [DURCHMARSCH * factor if j == i else 0 for j in range(len(points))]
    top = max(points)
    jungfrau = 2 if any(t == 0 for t in tricks) else 1
    return [-top * jungfrau * factor if p == top else 0 for p in points]


def outcome(
    points: Sequence[int], tricks: Sequence[int], factor: int = 1, pushes: int = 0
) -> RamschOutcome:
    """The outcome of card ``points`` (the skat counted) and ``tricks``; each
    of ``pushes`` doubles the entries (Schieberamsch)."""
    e = entries(points, tricks, factor * 2**pushes)
    march = next((i for i, t in enumerate(tricks) if t == 10), None)
    return RamschOutcome(
        points=tuple(points),
        tricks=tuple(tricks),
        factor=factor,
        entries=tuple(e),
        pushes=pushes,
        durchmarsch=march,
        losers=tuple(i for i, x in enumerate(e) if x < 0),
        # after a Durchmarsch the others took no trick either: no Jungfrau
        jungfrau=() if march is not None else tuple(i for i, t in enumerate(tricks) if t == 0),
    )


def settle(
    trick_points: Sequence[int],
    tricks: Sequence[int],
    last_winner: int,
    skat_points: int,
    factor: int = 1,
    pushes: int = 0,
) -> RamschOutcome:
    """Settle a played Ramsch deal: the card points each player took in
    tricks, the skat's points added for the winner of the last trick (R9.1)."""
    points = list(trick_points)
    points[last_winner] += skat_points
    return outcome(points, tricks, factor, pushes)


# The deal's steps (deal.py calls them; see the module's text).


def start(deal: DealState) -> None:
    """All passed with ``all_pass="ramsch"``, or a compulsory Ramsch (R9.5):
    forehand leads, unless the skat goes round first (Schieberamsch)."""
    deal._contract = Contract(_RAMSCH)
    start_play(deal, int(_RAMSCH))
    if deal.rules.schieberamsch:
        deal._phase = _PUSH
        deal._pusher = 0


def push_actions(deal: DealState, p: int) -> tuple[Action, ...]:
    """Schieberamsch: take the skat up or push it on unseen; holding twelve,
    every pair of cards but the jacks."""
    if not deal._taken:
        return PUSH_ACTIONS
    cards = mask_cards(deal._hands[p] & ~JACKS)
    return tuple(
        DISCARDS[a][b]  # type: ignore[misc]
        for i, a in enumerate(cards)
        for b in cards[i + 1 :]
    )


def push(deal: DealState, p: int, action: Action) -> None:
    """Schieberamsch: the player to push takes the skat up and pushes two
    cards on (no jack), or pushes it on unseen (``pass``, doubling)."""
    cls = action.__class__
    if cls not in (Pickup, Pass, Discard):
        raise deal._wrong_phase(p, action)
    deal._turn(p, action)
    seat = deal._seats[p]
    if cls is Pickup:
        if deal._taken:
            raise reject(Reason.SKAT_ALREADY_TAKEN, "the skat is taken", seat=seat, action=action)
        deal._taken = deal._skat
        deal._hands[p] |= deal._skat
        deal._skat = 0
        deal._skat_known = -1
        return
    if cls is Pass:
        if deal._taken:
            raise reject(Reason.DISCARD_REQUIRED, "push two cards on", seat=seat, action=action)
        deal._pushes += 1
    else:
        if not deal._taken:
            raise reject(Reason.PICKUP_REQUIRED, "take up the skat first", seat=seat, action=action)
        mask = two_of_twelve(deal, p, action, "push")
        if mask & JACKS:
            raise reject(
                Reason.DISCARD_INVALID, "a jack may not be pushed on", seat=seat, action=action
            )
        deal._hands[p] &= ~mask
        deal._skat = mask
        deal._skat_known = p
        deal._taken = 0
    if p == 2:
        deal._pusher = -1
        deal._phase = _PLAY  # forehand leads (R4.1)
    else:
        deal._pusher = p + 1


def finish(deal: DealState, last_winner: int) -> None:
    """After the tenth trick: the skat goes to its winner (R9.1), and the
    entries go to the seats (the outcome itself is per position)."""
    out = settle(
        deal._points,
        deal._ntricks,
        last_winner,
        mask_points(deal._skat),
        deal.bock_factor,
        deal._pushes,
    )
    row = [0] * deal.players
    for pos, e in enumerate(out.entries):
        row[deal._seats[pos]] = e
    set_result(
        deal,
        kind="ramsch",
        declarer=-1,
        valuation=None,
        ended="played",
        plain=tuple(row),
        sf=tuple(row),
        ramsch_points=out.points,
        ramsch=out,
    )


__all__ = [
    "DURCHMARSCH",
    "RamschOutcome",
    "entries",
    "finish",
    "outcome",
    "push",
    "push_actions",
    "settle",
    "start",
]
