"""The table's stored events, one typed struct per kind.

A table is its event log (`store.py`): every change of a table is one of
these, appended before anything is published and applied by
`TableState.apply`, live and after a restart alike. On the store's rows an
event is ``(kind, payload)``, the struct's tag and its other fields as JSON,
so logs written before these types existed replay unchanged.

Game events (`Started`, `Acted`, `NextDeal`, `Expired`) move the table's
game clock; seat changes, chat and reactions do not (a chat never makes a
move stale, re-arms a timer or restarts a thinking computer player).
"""

from __future__ import annotations

from typing import Any

import msgspec


class _Event(msgspec.Struct, tag_field="kind", frozen=True, kw_only=True):
    pass


class Sit(_Event, tag="sit", frozen=True):
    """A person took ``seat``; only the hash of the seat token is kept."""

    seat: int
    name: str
    token_hash: str


class Bot(_Event, tag="bot", frozen=True):
    """A computer player of kind ``bot`` took ``seat``."""

    seat: int
    bot: str


class Takeover(_Event, tag="takeover", frozen=True):
    """A person takes ``seat`` from its computer player at the next deal (the
    list has started); until then the seat stays the computer's and the
    person watches. Only the hash of the seat token is kept."""

    seat: int
    name: str
    token_hash: str


class Leave(_Event, tag="leave", frozen=True):
    """The person in ``seat`` left; a computer player keeps the seat if ``keep_bot``."""

    seat: int
    keep_bot: bool


class Auto(_Event, tag="auto", frozen=True):
    """A computer player acts for the absent or slow person in ``seat`` (or stops)."""

    seat: int
    on: bool


class Start(_Event, tag="start", frozen=True):
    """The list starts with the first deal."""


class Act(_Event, tag="act", frozen=True):
    """``seat`` made the move ``action`` (canonical text); ``auto``: a computer did it for them."""

    seat: int
    action: str
    auto: bool = False


class Next(_Event, tag="next", frozen=True):
    """The next deal of the list is dealt."""


class Ready(_Event, tag="ready", frozen=True):
    """The person at ``seat`` has read the result and wants the next deal
    (it comes once every seated person is ready, or when the wait is over)."""

    seat: int


class Chat(_Event, tag="chat", frozen=True):
    """A chat line (``seat`` None: a spectator); ``text`` as typed, cleaned, not escaped."""

    seat: int | None
    name: str | None
    text: str


class React(_Event, tag="react", frozen=True):
    seat: int | None
    emoji: str


class Again(_Event, tag="again", frozen=True):
    """The same people play another list at ``table``."""

    table: str


class Expire(_Event, tag="expire", frozen=True):
    """The table expired (idle too long)."""


class Rest(_Event, tag="rest", frozen=True):
    """No person of the table has been connected for the disconnect grace:
    the table rests (nothing is played) until one of them is back (issue 49,
    item 1). Stored, so that a restarted server or another worker of a
    cluster keeps it resting."""


class Wake(_Event, tag="wake", frozen=True):
    """A person of the resting table is back with their seat token: it goes on."""


TableEvent = (
    Sit
    | Bot
    | Takeover
    | Leave
    | Auto
    | Start
    | Act
    | Next
    | Ready
    | Chat
    | React
    | Again
    | Expire
    | Rest
    | Wake
)
GAME_EVENTS = (Start, Act, Next, Expire)
SEAT_EVENTS = (Sit, Bot, Takeover, Leave, Auto)


def to_row(event: TableEvent) -> tuple[str, dict[str, Any]]:
    """The store's ``(kind, payload)`` of an event."""
    data: dict[str, Any] = msgspec.to_builtins(event)
    return data.pop("kind"), data


def from_row(kind: str, payload: dict[str, Any]) -> TableEvent:
    """The event of a stored row; raises `ValueError` for an unknown or malformed row."""
    try:
        event: TableEvent = msgspec.convert({**payload, "kind": kind}, TableEvent)
    except msgspec.ValidationError as exc:
        raise ValueError(f"bad stored event {kind!r}: {exc}") from None
    return event


__all__ = [
    "GAME_EVENTS",
    "SEAT_EVENTS",
    "Act",
    "Again",
    "Auto",
    "Bot",
    "Chat",
    "Expire",
    "Leave",
    "Next",
    "React",
    "Ready",
    "Rest",
    "Sit",
    "Start",
    "TableEvent",
    "Takeover",
    "Wake",
    "from_row",
    "to_row",
]
