"""The commands a table's actor handles one at a time (issue 29, point 3:
out of actor.py): a client's message, a computer player's move, the
timers, the next deal, expiry, presence, and the rest of a batch the store
refused."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import Action
from . import events as ev
from . import protocol as p
from .conn import Conn


@dataclass
class Inbound:
    """A parsed client message from a connection."""

    conn: Conn
    msg: p.ClientMessage


@dataclass
class BotMove:
    """A computer player's move, thought out at ``game_version``; ``offturn``:
    said off its turn (Kontra, R9.3)."""

    seat: int
    action: Action  # parsed where the computer player answered (bots.py)
    game_version: int
    offturn: bool = False
    # an answer to a claim or a concession (players/claims.py): it stays
    # true while this deal lasts, so it is not dropped when the game moves on
    answer_to_deal: int | None = None


@dataclass
class TimeUp:
    """The turn timer or the disconnect grace of ``seat`` ran out."""

    seat: int
    game_version: int


@dataclass
class DealDue:
    """Time to deal the next deal after the one settled at ``game_version``."""

    game_version: int


@dataclass
class Expire:
    """The table is idle too long (``only_resting``: a tournament's next
    draw closes it, unless one of its people came back meanwhile)."""

    only_resting: bool = False


@dataclass
class Disconnected:
    """A person's last connection to their seat went away."""

    seat: int


@dataclass
class Rest:
    """The disconnect grace has passed without a person of the table at it
    (issue 26; issue 49, item 1): it rests."""


@dataclass
class Back:
    """A person is connected to their seat again: nobody plays for them."""

    seat: int


@dataclass
class Remaining:
    """The rest of a batch whose first events were stored before the store
    refused (a seat taken and the list's start): stored when the table is
    still at ``version``."""

    events: list[ev.TableEvent]
    version: int


Command = Inbound | BotMove | TimeUp | DealDue | Expire | Disconnected | Rest | Back | Remaining


__all__ = [
    "Back",
    "BotMove",
    "Command",
    "DealDue",
    "Disconnected",
    "Expire",
    "Inbound",
    "Remaining",
    "TimeUp",
]
