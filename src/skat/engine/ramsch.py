"""Ramsch in one place (SKAT-RULES.md R9.1; issue 29, point 2): how a Ramsch
deal is settled, with Jungfrau and Durchmarsch worked out here and only
here. The deal (`deal.py`) plays Ramsch as a game of its own kind (only the
jacks are trumps, no declarer) and calls `settle` after the tenth trick;
the result carries the `RamschOutcome`, which the reckoner, the server's
projection, the terminal and the page only read.

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
from dataclasses import dataclass
from typing import Any

DURCHMARSCH = 120  # R9.1: a player who takes every trick wins this


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


@dataclass(frozen=True, slots=True)
class RamschOutcome:
    """A settled Ramsch deal, per player in the order given (a deal gives
    positions: forehand, middlehand, rearhand)."""

    points: tuple[int, ...]  # card points, the skat counted for the last trick's winner
    tricks: tuple[int, ...]
    factor: int  # Bock (R9.4)
    entries: tuple[int, ...]
    pushes: int = 0  # Schieberamsch: the skat pushed on unseen, each time doubling

    @property
    def durchmarsch(self) -> int | None:
        """The player who took all ten tricks, if one did."""
        return next((i for i, t in enumerate(self.tricks) if t == 10), None)

    @property
    def losers(self) -> tuple[int, ...]:
        """The players with the most card points (none after a Durchmarsch)."""
        return tuple(i for i, e in enumerate(self.entries) if e < 0)

    @property
    def jungfrau(self) -> tuple[int, ...]:
        """The players who took no trick and so doubled the loss (none
        after a Durchmarsch, where the others took no trick either)."""
        if self.durchmarsch is not None:
            return ()
        return tuple(i for i, t in enumerate(self.tricks) if t == 0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "points": list(self.points),
            "tricks": list(self.tricks),
            "factor": self.factor,
            "entries": list(self.entries),
            "pushes": self.pushes,
            "losers": list(self.losers),
            "jungfrau": list(self.jungfrau),
            "durchmarsch": self.durchmarsch,
        }


def outcome(
    points: Sequence[int], tricks: Sequence[int], factor: int = 1, pushes: int = 0
) -> RamschOutcome:
    """The outcome of card ``points`` (the skat counted) and ``tricks``; each
    of ``pushes`` doubles the entries (Schieberamsch)."""
    e = entries(points, tricks, factor * 2**pushes)
    return RamschOutcome(tuple(points), tuple(tricks), factor, tuple(e), pushes)


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


__all__ = ["DURCHMARSCH", "RamschOutcome", "entries", "outcome", "settle"]
