"""The deal's state types (issue 29, point 3: out of deal.py, so that
`views.py` needs no import of the deal): its `Phase`, a finished `Trick`
and the settlement `DealResult` (with a Ramsch's `RamschOutcome`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple

from .cards import Card
from .game import Contract
from .values import Valuation


class Phase(str, Enum):
    """Phases of a deal (ARCHITECTURE.md practice 4)."""

    BIDDING = "bidding"
    SKAT = "skat"  # the declarer picks up or announces a Hand game
    DISCARD = "discard"
    DECLARE = "declare"
    PUSH = "push"  # Schieberamsch: the skat goes round before a Ramsch (ramsch.py)
    KONTRA = "kontra"  # only with kontra_window = first_lead
    PLAY = "play"
    DONE = "done"

    def __str__(self) -> str:
        return self.value


#: The phases in which only the declarer acts (after the auction, before the play).
DECLARER_PHASES = (Phase.SKAT, Phase.DISCARD, Phase.DECLARE)


class Trick(NamedTuple):
    """A completed trick: who led, the three cards in play order, who won."""

    leader: int  # position
    cards: tuple[Card, Card, Card]
    winner: int  # position

    @property
    def points(self) -> int:
        return sum(c.points for c in self.cards)

    @property
    def players(self) -> tuple[int, int, int]:
        """The position that played each card, in play order (R4.1: the
        leader, then clockwise)."""
        return (self.leader, (self.leader + 1) % 3, (self.leader + 2) % 3)


@dataclass(frozen=True, slots=True)
class RamschOutcome:
    """A settled Ramsch deal (R9.1), per player in the order given (a deal
    gives positions: forehand, middlehand, rearhand). ramsch.py works every
    field out (`ramsch.outcome`); the front ends only read them."""

    points: tuple[int, ...]  # card points, the skat counted for the last trick's winner
    tricks: tuple[int, ...]
    factor: int  # Bock (R9.4)
    entries: tuple[int, ...]
    pushes: int  # Schieberamsch: the skat pushed on unseen, each time doubling
    durchmarsch: int | None  # the player who took all ten tricks, if one did
    losers: tuple[int, ...]  # the most card points (none after a Durchmarsch)
    jungfrau: tuple[int, ...]  # took no trick and so doubled the loss

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


class DealResult(NamedTuple):
    """How a deal ended and what it writes on the list (R6-R9).

    ``kind`` is ``game`` (a declared game), ``passed`` (thrown in), ``ramsch``
    or ``abandoned`` (a seat timed out or left before a game was announced;
    an announcement before the discard, ``Rules.announce_before_discard``,
    counts as announced).
    Entries are per table seat; ``plain`` and ``seeger_fabian`` include the
    Kontra/Re factor and the Bock factor (R9.6). The declarer is given both
    ways: ``declarer_seat`` (table seat, the index into the entries) and
    ``declarer_position``; the field ``declarer`` is the position, kept as an
    alias of ``declarer_position``.
    """

    kind: str
    players: int
    dealer: int
    declarer: int | None  # position; alias of declarer_position
    declarer_seat: int | None
    bid: int
    contract: Contract | None
    valuation: Valuation | None
    declarer_points: int
    declarer_tricks: int
    ended: str  # played, early, declarer_conceded, defenders_conceded, timeout, leave
    kontra: bool
    re: bool
    bock_factor: int
    plain: tuple[int, ...]
    seeger_fabian: tuple[int, ...]
    ramsch_points: tuple[int, ...] | None = None  # per position
    ramsch: RamschOutcome | None = None  # per position: Jungfrau, Durchmarsch (ramsch.py)
    penalties: tuple[int, ...] = ()  # per seat, 1 = penalised (abandoned deals)
    ended_by: int | None = None  # seat that conceded last, timed out or left

    @property
    def declarer_position(self) -> int | None:
        """Declarer's position (0 forehand, 1 middlehand, 2 rearhand)."""
        return self.declarer

    @property
    def won(self) -> bool | None:
        return None if self.valuation is None else self.valuation.won

    @property
    def value(self) -> int:
        return 0 if self.valuation is None else self.valuation.value

    @property
    def factor(self) -> int:
        return (4 if self.re else 2 if self.kontra else 1) * self.bock_factor

    @property
    def score(self) -> int:
        """The declarer's plain-list entry (0 without a declared game)."""
        if self.declarer_seat is None or self.kind != "game":
            return 0
        return self.plain[self.declarer_seat]


__all__ = ["DealResult", "Phase", "Trick"]
