"""Every code the server refuses with, in one place (like the engine's
`Reason`): the websocket edge, the tables and the HTTP routes use these, and
`docs/protocol.md` lists them. Engine rejections keep their R10 codes."""

from __future__ import annotations

from enum import StrEnum

from .messages import Error


class ErrorCode(StrEnum):
    """Server refusal codes (the wire's ``error.code``)."""

    # the websocket edge
    BAD_MESSAGE = "BAD_MESSAGE"  # not a message of the protocol (or a binary frame)
    TOO_LARGE = "TOO_LARGE"  # a message or request body over the size limit
    RATE_LIMITED = "RATE_LIMITED"  # faster than the connection's allowance
    HELLO_FIRST = "HELLO_FIRST"  # anything before `hello`
    NO_TABLE = "NO_TABLE"  # no table with that id
    BAD_TOKEN = "BAD_TOKEN"  # a seat token the table does not know (the client watches)
    SERVER_ERROR = "SERVER_ERROR"  # a bug; the table keeps running
    BUSY = "BUSY"  # the server has as much of this work waiting as it takes: retry later
    STORE_FAILED = "STORE_FAILED"  # the change could not be stored: nothing happened, try again
    TABLE_BROKEN = "TABLE_BROKEN"  # a stored table that cannot be loaded (skipped, logged)
    TOO_SLOW = "TOO_SLOW"  # close reason: the client did not read its messages (close 4408)
    SEAT_LOST = "SEAT_LOST"  # a notice: this connection's seat went to someone else; it watches
    TABLE_MOVED = "TABLE_MOVED"  # another server process serves this table: reconnect (close 4503)
    OLD_CLIENT = "OLD_CLIENT"  # a `hello` without the protocol this server speaks (close 4426)
    # the table
    BAD_NAME = "BAD_NAME"
    TABLE_CLOSED = "TABLE_CLOSED"  # finished or expired
    TABLE_FULL = "TABLE_FULL"
    SEAT_TAKEN = "SEAT_TAKEN"
    ALREADY_SEATED = "ALREADY_SEATED"
    NOT_SEATED = "NOT_SEATED"
    NOT_CREATOR = "NOT_CREATOR"
    ALREADY_STARTED = "ALREADY_STARTED"
    NOT_STARTED = "NOT_STARTED"
    LIST_OVER = "LIST_OVER"
    STALE_VERSION = "STALE_VERSION"  # the game moved on since the version the client saw
    WRONG_PHASE = "WRONG_PHASE"  # e.g. `next` while the deal is still being played
    HINT_OFF = "HINT_OFF"  # a hint asked at a table without hints
    NO_DECISION = "NO_DECISION"  # a hint asked when the seat has nothing to decide
    # HTTP only
    BAD_OPTIONS = "BAD_OPTIONS"
    NOT_OFFERED = "NOT_OFFERED"  # a computer player no table may be made with (a lab player)
    TOO_MANY_TABLES = "TOO_MANY_TABLES"  # the creation limits (per address, open in total)
    BAD_REQUEST = "BAD_REQUEST"
    NO_FILE = "NO_FILE"
    NO_DEAL = "NO_DEAL"
    BAD_RECORD = "BAD_RECORD"  # an uploaded file that is no game record the board can read
    # tournaments (HTTP)
    NO_TOURNAMENT = "NO_TOURNAMENT"
    NOT_ORGANISER = "NOT_ORGANISER"  # the organiser's link is needed (or its token is wrong)
    ENTRY_CLOSED = "ENTRY_CLOSED"  # a series has begun: only the organiser adds people now
    TOURNAMENT_FULL = "TOURNAMENT_FULL"
    TOURNAMENT_OVER = "TOURNAMENT_OVER"  # every series is drawn, or the tournament expired
    SERIES_IN_PLAY = "SERIES_IN_PLAY"  # the next series is drawn once every table has finished
    NO_ENTRANTS = "NO_ENTRANTS"  # too few people for whole tables (without computer fill)
    TOO_MANY_TOURNAMENTS = "TOO_MANY_TOURNAMENTS"
    NO_ENTRANT = "NO_ENTRANT"  # a withdrawal names nobody entered (or a wrong token)
    TOO_MANY_ENTRIES = "TOO_MANY_ENTRIES"  # entries from one address (or too fast)
    TOURNAMENT_BROKEN = "TOURNAMENT_BROKEN"  # a stored tournament that cannot be read (logged)
    # profiles (HTTP)
    BAD_KEY = "BAD_KEY"  # a profile key that is none (its form is wrong)
    NO_PROFILE = "NO_PROFILE"  # no profile has this key (or id; or it is private), or deleted
    TOO_MANY_PROFILES = "TOO_MANY_PROFILES"  # profiles created from one address per hour


class CommandError(ValueError):
    """A command the table refuses: ``code`` and a message for the client.

    ``code`` is an `ErrorCode` or, for an engine rejection, its R10 reason
    code (a string)."""

    def __init__(self, code: ErrorCode | str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = str(code)
        self.message = message

    def to_message(self) -> Error:
        return Error(code=self.code, message=self.message)


__all__ = ["CommandError", "ErrorCode"]
