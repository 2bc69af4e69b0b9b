"""The wire protocol (docs/protocol.md): typed client messages parsed once at
the edge, and the JSON the server sends.

Client messages are msgspec structs tagged by ``type``; anything else is
refused with an error reply before it reaches a table. A move's text is
parsed here into the engine's `Action`, once: the queue, the table and the
computer seats carry the typed value, and only the stored event and what
goes out are text again.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from ..engine import Action, IllegalActionError, parse_action
from ..engine.actions import Claim, Concede, Refuse
from ..engine.errors import MalformedActionError
from .errors import ErrorCode

_WORDS = (Claim, Concede, Refuse)

MAX_MESSAGE_BYTES = 4096
#: The protocol a client must name in its `hello` (docs/protocol.md, "Versions
#: of the protocol"): 2 sends a move's changes (the delta form of `event`);
#: a client without it (or older) is refused with `OLD_CLIENT`.
PROTOCOL = 2
MAX_NAME = 24
MAX_CHAT = 200
REACTIONS = ("👍", "👏", "😄", "😮", "😢", "🤔")


class Hello(msgspec.Struct, tag="hello", forbid_unknown_fields=True, gc=False):
    token: str | None = None
    last_version: int | None = None
    protocol: int | None = None  # `PROTOCOL`; None: a client from before it (refused)


#: A profile's key as the browser keeps it (server/profiles.py: 32 URL-safe characters).
ProfileKey = Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{32}$")]


class Sit(msgspec.Struct, tag="sit", forbid_unknown_fields=True, gc=False):
    name: str
    seat: int | None = None
    #: the key of the sitter's profile (issue 48): the seat is linked to the
    #: profile in the profiles' rows; the table keeps nothing of it
    profile: ProfileKey | None = None


class Act(msgspec.Struct, tag="act", forbid_unknown_fields=True, gc=False):
    action: Action  # the text on the wire, parsed by `decode`
    version: int


class Next(msgspec.Struct, tag="next", forbid_unknown_fields=True, gc=False):
    pass


class Fill(msgspec.Struct, tag="fill", forbid_unknown_fields=True, gc=False):
    creator: str


class Start(msgspec.Struct, tag="start", forbid_unknown_fields=True, gc=False):
    creator: str


class Leave(msgspec.Struct, tag="leave", forbid_unknown_fields=True, gc=False):
    keep_bot: bool = True


class Reclaim(msgspec.Struct, tag="reclaim", forbid_unknown_fields=True, gc=False):
    pass


class Chat(msgspec.Struct, tag="chat", forbid_unknown_fields=True, gc=False):
    text: str


class React(msgspec.Struct, tag="react", forbid_unknown_fields=True, gc=False):
    emoji: str


class Mute(msgspec.Struct, tag="mute", forbid_unknown_fields=True, gc=False):
    seat: int
    on: bool = True


class Again(msgspec.Struct, tag="again", forbid_unknown_fields=True, gc=False):
    pass


class Ping(msgspec.Struct, tag="ping", forbid_unknown_fields=True, gc=False):
    pass


class Hint(msgspec.Struct, tag="hint", forbid_unknown_fields=True, gc=False):
    """Ask the strong computer player what it would do (tables with hints on)."""


class Resync(msgspec.Struct, tag="resync", forbid_unknown_fields=True, gc=False):
    """Send me the whole `state` again: a change came that does not follow
    the version I hold (a message was lost), so I cannot apply it."""


ClientMessage = (
    Hello
    | Sit
    | Act
    | Next
    | Fill
    | Start
    | Leave
    | Reclaim
    | Chat
    | React
    | Mute
    | Again
    | Ping
    | Hint
    | Resync
)


class ProtocolError(ValueError):
    def __init__(self, code: ErrorCode | str, message: str, move: bool = False) -> None:
        super().__init__(message)
        self.code = str(code)
        self.message = message
        self.move = move  # an `act` whose action is not one: a refused move


class _BadAction(Exception):
    """Not a ValueError: msgspec passes it through instead of folding the
    engine's reason (MALFORMED_ACTION, INVALID_CARD) into a BAD_MESSAGE."""

    def __init__(self, error: IllegalActionError) -> None:
        self.error = error


def _typed(kind: type, value: Any) -> Any:
    """msgspec's hook for a field type it does not know: `Action`, from its text."""
    if kind is not Action:
        raise NotImplementedError(kind)
    if not isinstance(value, str):
        raise TypeError(f"Expected `str`, got `{type(value).__name__}`")
    try:
        action = parse_action(value)
    except IllegalActionError as exc:
        raise _BadAction(exc) from None
    # the wire takes an action as written (docs/protocol.md): a lower-case
    # verb, no spaces around it; the word-only moves (`claim schneider`,
    # `concede`, `refuse`, ...) exactly so (issue 54, finding 5)
    verb = value.split(" ", 1)[0]
    if (
        value != value.strip()
        or verb != verb.lower()
        or (isinstance(action, _WORDS) and value != str(action))
    ):
        raise _BadAction(
            MalformedActionError(
                f"write the action as {str(action)!r}: lower case, single spaces, none around"
            )
        )
    return action


_decoder = msgspec.json.Decoder(ClientMessage, dec_hook=_typed)
_encoder = msgspec.json.Encoder()


def decode(raw: str | bytes) -> ClientMessage:
    """Parse one client message, a move's action included; raises
    `ProtocolError` (TOO_LARGE, BAD_MESSAGE, or the engine's reason for an
    action that is not one: MALFORMED_ACTION, INVALID_CARD)."""
    data = raw.encode() if isinstance(raw, str) else raw
    if len(data) > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            ErrorCode.TOO_LARGE, f"messages are limited to {MAX_MESSAGE_BYTES} bytes"
        )
    try:
        return _decoder.decode(data)
    except msgspec.DecodeError as exc:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, str(exc)[:200]) from None
    except _BadAction as bad:  # the engine's reason, as the table gave it before
        raise ProtocolError(bad.error.code.value, bad.error.message, move=True) from None


def encode(obj: Any) -> str:
    """One outgoing message (`messages.ServerMessage`) as its JSON text."""
    return _encoder.encode(obj).decode()


def encode_bytes(obj: Any) -> bytes:
    return _encoder.encode(obj)
