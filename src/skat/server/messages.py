"""What the server sends: every outgoing message as a typed msgspec struct
(docs/protocol.md), the counterpart of the client messages in `protocol`.

A message is built once as one of these structs and encoded once by
`protocol.encode` (one text for every viewer who sees the same). Each
top-level message carries its ``type``; a field that is `UNSET` is left out
of the JSON (a snapshot before the first deal has no ``deal``), a field that
is None is sent as ``null``. The projection (`projection.py`) decides what
each viewer may see; these types only say the shape.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

Cards = tuple[str, ...]


class _Part(msgspec.Struct, frozen=True, gc=False):
    """A part of a message (no ``type`` of its own). Shared parts (a trick, a
    contract, the result) are reused by many messages and never changed.

    Not tracked by Python's cyclic collector (``gc=False``, as `_Message`): a
    message refers to values and other parts, never back, so it cannot be in
    a cycle. A table holds each viewer's last view until its next event
    (seconds), and 3,000 tables' worth of such parts kept the collector's
    young generation at 100,000 objects and more, every one scanned in every
    young collection (docs/lab/benchmarks-history.md, tables in one process).
    For the same reason the view's lists are tuples, most of them the
    engine's own: a tuple of plain values drops out of the collector's
    sight at its first collection, a list never does."""


# --------------------------------------------------------------- the deal's view
class ContractOut(_Part, frozen=True):
    game: str
    hand: bool
    schneider: bool
    schwarz: bool
    ouvert: bool
    words: list[str]  # the name as keys, for front ends to word
    text: str


class TrickOut(_Part, frozen=True):
    leader: int  # table seats
    cards: Cards
    winner: int
    points: int
    by: tuple[int, ...]  # the table seat that played each card, in play order


class RamschOut(_Part, frozen=True):
    """A Ramsch deal per table seat (R9.1), as `engine/ramsch.py` settled it."""

    seats: list[int]  # by position
    points: list[int]
    tricks: list[int]
    jungfrau: list[int]
    durchmarsch: int | None
    pushes: int  # Schieberamsch: pushed on unseen, each doubling


class ResultOut(_Part, frozen=True):
    kind: str
    declarer: int | None
    bid: int
    game: str | None
    won: bool | None  # None: no declared game (Ramsch, thrown in)
    value: int
    matadors: int
    declarer_points: int
    declarer_tricks: int
    schneider: bool
    schwarz: bool
    overbid: bool
    explanation: str | None
    parts: list[tuple[str, int]] | None
    levels: int
    multiplier: int
    contract: ContractOut | None  # a declared game
    ended: str
    kontra: bool
    re: bool
    factor: int
    bock_factor: int
    plain: list[int]
    seeger_fabian: list[int]
    others_bonus: int  # R8.2, for the words
    ramsch_points: list[int] | None
    ramsch: RamschOut | None


class ViewOut(_Part, frozen=True):
    """A seat's view of the deal: exactly what the engine's `View` holds."""

    seat: int | None
    position: int | None
    dealer: int
    phase: str
    turn: int | None
    seats: tuple[int, ...]
    hand: Cards | None
    hand_sizes: tuple[int, ...]
    skat: Cards | None
    bid: int
    bidder: int | None
    listener: int | None
    declarer: int | None
    contract: ContractOut | None
    open_cards: Cards | None
    trick: tuple[tuple[int, str], ...]
    tricks: tuple[TrickOut, ...]
    kontra: bool
    re: bool
    legal: tuple[str, ...]
    offers: tuple[str, ...]  # concede / claim, beside the game moves
    history: tuple[tuple[int, str], ...]
    result: ResultOut | None
    dealt: tuple[Cards | None, ...] | None


# ------------------------------------------------------------------ the table
class SeatOut(_Part, frozen=True):
    name: str | None
    bot: str | None
    level: str | None
    auto: bool
    human: bool
    connected: bool
    pending: str | None  # the name that takes over at the next deal


class TableOut(_Part, frozen=True):
    id: str
    status: str
    options: dict[str, Any]  # the list's options (series/spec.py), stored form
    settings: dict[str, Any]  # the table's settings (server/offer.py), with "level"
    commitment: str
    seed: str | None  # once the list is over
    next_table: str | None
    resting: bool  # no person has been here for a while: nothing is played


class DealOut(_Part, frozen=True):
    number: int
    of: int
    dealer: int
    bock_factor: int
    ramsch_round: bool
    pending_bock: list[str]  # why Bock rounds are still owed (R8.6)
    auto_moves: list[int]
    waiting_for: list[int]  # after the deal: who still reads the result
    next_in: float | None  # after the deal: seconds until the next one (the countdown)


class SheetResultOut(_Part, frozen=True):
    """What a sheet row's result needs beyond the row (reopened from the
    sheet): the value's reckoning, the factor, Schneider and Schwarz as
    made, and a Ramsch deal's points per seat."""

    number: int
    parts: list[tuple[str, int]] | None  # as `ResultOut.parts`
    factor: int
    schneider: bool
    schwarz: bool
    ramsch: RamschOut | None


class SheetOut(_Part, frozen=True):
    rows: list[dict[str, Any]]  # the series' rows (series/series.py, the stored form)
    totals: list[dict[str, Any]]
    auto_moves: dict[str, list[int]]
    others_bonus: int  # R8.2: each other player's part of a lost game
    # deal number -> the names by seat from that deal on (`TableState.names_from`)
    names_from: dict[str, list[str]]
    results: list[SheetResultOut]  # one per row, in the rows' order


class PastDealOut(_Part, frozen=True):
    """An earlier deal of the list as the table's log tells it: public once
    the deal is over (R3.7), the same for every viewer."""

    number: int
    declarer: int | None
    contract: ContractOut | None
    ramsch_round: bool
    history: list[tuple[int, str]]
    tricks: list[TrickOut]
    result: ResultOut


# --------------------------------------------------------------------- events
class _EventOut(_Part, frozen=True, tag_field="kind"):
    """One table event as a viewer may learn it (never a token hash or a hidden card)."""


class SitOut(_EventOut, tag="sit", frozen=True):
    seat: int
    name: str


class BotOut(_EventOut, tag="bot", frozen=True):
    seat: int
    bot: str


class TakeoverOut(_EventOut, tag="takeover", frozen=True):
    seat: int
    name: str


class LeaveOut(_EventOut, tag="leave", frozen=True):
    seat: int
    keep_bot: bool


class AutoOut(_EventOut, tag="auto", frozen=True):
    seat: int
    on: bool


class ActOut(_EventOut, tag="act", frozen=True):
    seat: int
    action: str  # the engine's public text for this viewer (a hidden discard: "discard")
    auto: bool


class ChatOut(_EventOut, tag="chat", frozen=True):
    """A chat line; from a seat this viewer muted only ``muted`` and the seat.
    In a snapshot's chat history each line carries its ``version`` too."""

    seat: int | None
    version: int | UnsetType = UNSET
    name: str | UnsetType | None = UNSET
    text: str | UnsetType = UNSET
    muted: bool | UnsetType = UNSET


class ReactOut(_EventOut, tag="react", frozen=True):
    seat: int | None
    emoji: str
    version: int | UnsetType = UNSET  # in a snapshot's chat history


class AgainOut(_EventOut, tag="again", frozen=True):
    table: str


class StartOut(_EventOut, tag="start", frozen=True):
    pass


class NextOut(_EventOut, tag="next", frozen=True):
    pass


class ReadyOut(_EventOut, tag="ready", frozen=True):
    seat: int


class ExpireOut(_EventOut, tag="expire", frozen=True):
    pass


class RestOut(_EventOut, tag="rest", frozen=True):
    """The table rests (a `state` with ``table.resting`` true comes with it)."""


class WakeOut(_EventOut, tag="wake", frozen=True):
    """A person is back: the table goes on."""


EventOut = (
    SitOut
    | BotOut
    | TakeoverOut
    | LeaveOut
    | AutoOut
    | ActOut
    | ChatOut
    | ReactOut
    | AgainOut
    | StartOut
    | NextOut
    | ReadyOut
    | ExpireOut
    | RestOut
    | WakeOut
)


# ------------------------------------------------------------ top-level messages
class _Message(msgspec.Struct, frozen=True, tag_field="type", gc=False):
    pass


class State(_Message, tag="state", frozen=True):
    """The whole table as one viewer may see it."""

    version: int
    table: TableOut
    you: int | None
    seats: list[SeatOut]
    chat: list[ChatOut | ReactOut]  # with their versions
    deal: DealOut | UnsetType = UNSET  # these four once a list has started
    view: ViewOut | UnsetType = UNSET
    sheet: SheetOut | UnsetType = UNSET
    list_over: bool | UnsetType = UNSET
    # on connecting: the deals before this one, for the log (`projection.past_json`)
    past: list[PastDealOut] | UnsetType = UNSET


class Event(_Message, tag="event", frozen=True):
    """One event just applied, with what changed: the whole ``state`` when the
    sheet or the deal changed; else, to a connection that holds this
    viewer's view of the version before, only the view's ``changes`` (the
    keys whose value changed, with their new values) and what was
    ``added`` to its growing lists (`GROWING`), ``seats`` when a seat
    changed; to one that does not (it has just changed seats), the whole new
    ``view`` (and ``seats``, null when no seat changed). A replayed event
    carries only itself."""

    version: int
    event: EventOut
    replayed: bool | UnsetType = UNSET
    state: State | UnsetType = UNSET
    view: ViewOut | UnsetType = UNSET
    changes: dict[str, Any] | UnsetType = UNSET
    added: dict[str, tuple[Any, ...]] | UnsetType = UNSET
    seats: list[SeatOut] | UnsetType | None = UNSET


#: The lists of a view that only grow during a deal: a change of one sends
#: its new items (`Event.added`), appended to what the client holds.
GROWING = ("tricks", "history")


class ViewKeeper:
    """A client's side of the event messages (docs/protocol.md, "Changes"),
    for the Python clients (tests, benches): the view it holds and its
    version (and the last whole `state`, as it came). `note` takes every message
    received as decoded JSON and answers False when a change does not follow
    the version held (a message was lost): the client then asks for the
    whole state again (`resync`) and ignores changes until it comes."""

    def __init__(self) -> None:
        self.version: int | None = None
        self.view: dict[str, Any] | None = None
        self.state: dict[str, Any] | None = None
        self.waiting = False  # a resync asked for: changes wait for the state

    def note(self, msg: dict[str, Any]) -> bool:
        what = msg.get("type")
        if what == "state":
            self._whole(msg)
            return True
        if what == "pong":  # a change lost while the table is quiet shows here
            sent = msg.get("version")
            if sent is None or self.waiting or self.version is None or sent <= self.version:
                return True
            self.waiting = True
            return False
        if what != "event" or msg.get("replayed"):
            return True
        version = msg["version"]
        if "state" in msg:
            self._whole(msg["state"])
        elif "view" in msg:
            self.view, self.version = msg["view"], version
        elif self.waiting or (self.version is not None and version <= self.version):
            return True  # the state asked for holds it, or it came before
        elif self.version is None or version != self.version + 1:
            self.waiting = True
            return False
        else:
            self.version = version
            changes, added = msg.get("changes"), msg.get("added")
            if self.view is not None and (changes or added):
                view = {**self.view, **(changes or {})}
                for key, items in (added or {}).items():
                    view[key] = [*view[key], *items]
                self.view = view
        return True

    def _whole(self, state: dict[str, Any]) -> None:
        self.state, self.view = state, state.get("view")
        self.version = state["version"]
        self.waiting = False


class Welcome(_Message, tag="welcome", frozen=True):
    table: str
    seat: int | None
    version: int
    pending: int | None  # the seat this device takes over at the next deal


class Seated(_Message, tag="seated", frozen=True):
    seat: int
    token: str  # the seat's secret, shown to this device once
    version: int
    from_next_deal: bool


class Presence(_Message, tag="presence", frozen=True):
    version: int
    seats: list[SeatOut]


class Notice(_Message, tag="notice", frozen=True):
    code: str
    seat: int
    message: str


class Hint(_Message, tag="hint", frozen=True):
    action: str
    fallback: bool  # the strong player had no time: a quick player's move
    version: int


class Pong(_Message, tag="pong", frozen=True):
    #: the version of the last view or change this connection was sent (null:
    #: none yet): a client that holds less lost one, and asks again (`resync`)
    version: int | None = None


class Error(_Message, tag="error", frozen=True):
    code: str  # an ErrorCode, or an engine rejection's R10 reason code
    message: str


ServerMessage = State | Event | Welcome | Seated | Presence | Notice | Hint | Pong | Error

__all__ = [
    "GROWING",
    "UNSET",
    "ActOut",
    "AgainOut",
    "AutoOut",
    "BotOut",
    "ChatOut",
    "ContractOut",
    "DealOut",
    "Error",
    "Event",
    "EventOut",
    "ExpireOut",
    "Hint",
    "LeaveOut",
    "NextOut",
    "Notice",
    "PastDealOut",
    "Pong",
    "Presence",
    "RamschOut",
    "ReactOut",
    "ReadyOut",
    "RestOut",
    "ResultOut",
    "Seated",
    "ServerMessage",
    "SheetOut",
    "SheetResultOut",
    "SitOut",
    "StartOut",
    "State",
    "TableOut",
    "TakeoverOut",
    "TrickOut",
    "UnsetType",
    "ViewKeeper",
    "ViewOut",
    "WakeOut",
    "Welcome",
]
