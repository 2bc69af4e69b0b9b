"""uvicorn's websocket protocol with a table's frames read and written
directly (issue 52, point 3).

A move costs the server one text frame in and one text frame out to every
viewer. uvicorn's own protocol (`websockets-sansio`) runs each through
websockets' generator parser or frame builder, Starlette's send chain and a
pause and resume of the socket's reading: about a tenth of the server's CPU
per move (docs/lab/benchmarks-history.md, "Round five"). This subclass
handles the common case itself and leaves everything else to the class it
extends, byte for byte:

- **in**: whole, unfragmented, masked text frames, when websockets' parser
  stands between two frames (waiting for a frame's first byte, nothing
  buffered, no fragmented message open).
  The first byte of anything else (a ping, a close, a fragment, a binary or
  oversized or invalid frame, a frame cut by the read) goes to websockets
  with the rest of the read, so every error is answered as before;
- **out**: a text message while the connection is open and the socket takes
  writes (``send`` and the synchronous ``skat.send_text`` extension of the
  websocket's ASGI scope, which `Conn` uses without a coroutine); anything
  else (a close, bytes, a full socket buffer, a closing connection) goes
  through the class it extends;
- the socket's reading is paused once a few messages wait for the
  endpoint, not after every message (each pause and resume is a system
  call; the endpoint reads at once), after whichever path read them: a
  client can make the server hold a few messages and one read, as before.

Per-message compression is never negotiated (`skat serve` turns it off):
with an extension in use, every frame takes the class's own path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request
from websockets.protocol import State
from websockets.streams import StreamReader

try:  # websockets' C helper, as its own parser uses it
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - websockets built without it
    from websockets.utils import apply_mask

#: The ASGI scope extension that `Conn` uses to write a text frame at once:
#: ``send(text) -> bool`` (False: not written, use the ASGI send instead).
SEND_TEXT = "skat.send_text"

#: Messages that may wait for the endpoint before the socket's reading is
#: paused (uvicorn pauses after each).
QUEUED_BEFORE_PAUSE = 4

_TEXT_FIN = 0x81  # FIN, no RSV bits, opcode 1 (text)

#: Where websockets' parser waits when it stands between two frames (its
#: `parse` generator inside `StreamReader.at_eof`); None, should a later
#: websockets not have it: then every frame takes the class's own path.
_BETWEEN_FRAMES = getattr(getattr(StreamReader, "at_eof", None), "__code__", None)


def _between_frames(parser: Any) -> bool:
    """Whether websockets' parser waits for the first byte of a frame: an
    empty buffer is not enough, since it may hold a frame's header already
    and wait for its payload (a read cut after the header)."""
    inner = parser
    while (deeper := getattr(inner, "gi_yieldfrom", None)) is not None:
        inner = deeper
    return _BETWEEN_FRAMES is not None and getattr(inner, "gi_code", None) is _BETWEEN_FRAMES


def text_frame_header(length: int) -> bytes:
    """The header of an unmasked, final text frame of ``length`` bytes
    (RFC 6455, 5.2: a server's frames are not masked)."""
    if length < 126:
        return bytes((_TEXT_FIN, length))
    if length < 65536:
        return bytes((_TEXT_FIN, 126)) + length.to_bytes(2, "big")
    return bytes((_TEXT_FIN, 127)) + length.to_bytes(8, "big")


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """`WebSocketsSansIOProtocol` with the fast paths above."""

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if self.handshake_initiated and not self.close_sent:  # the app's task runs later
            extensions: dict[str, Any] = dict(self.scope.get("extensions") or {})
            extensions[SEND_TEXT] = self.send_text_now
            self.scope["extensions"] = extensions

    # ------------------------------------------------------------------ out
    def _open(self) -> bool:
        conn = self.conn
        return (
            self.handshake_complete
            and self.initial_response is None
            and not self.close_sent
            and not self.disconnected
            and conn.state is State.OPEN
            and not conn.expect_continuation_frame
            and not conn.extensions
        )

    def send_text_now(self, text: str) -> bool:
        """Write a text frame now; False when it cannot be written without
        waiting or outside the open state (the caller uses ``send``)."""
        if not self.writable.is_set() or not self._open():
            return False
        data = text.encode()
        self.transport.write(text_frame_header(len(data)) + data)
        return True

    async def send(self, message: ASGISendEvent) -> None:
        if message["type"] == "websocket.send" and message.get("bytes") is None:
            text = message.get("text")
            if text is not None and self.send_text_now(text):
                return
        await super().send(message)

    # ------------------------------------------------------------------- in
    def data_received(self, data: bytes) -> None:
        self._read(data)
        # after either path: a read that ends in a control frame (a ping, a
        # pong) gives the class's own path no message to pause for
        if (
            not self.read_paused
            and self.queue.qsize() >= QUEUED_BEFORE_PAUSE
            and not self.transport.is_closing()
        ):
            self.read_paused = True
            self.transport.pause_reading()

    def _read(self, data: bytes) -> None:
        conn = self.conn
        if (
            not self._open()
            or conn.current_size is not None
            or conn.reader.buffer
            or conn.parser_exc is not None
            or not _between_frames(conn.parser)
        ):
            super().data_received(data)
            return
        limit = conn.max_message_size
        at, end = 0, len(data)
        put: Callable[[Any], None] = self.queue.put_nowait
        while at < end:
            if end - at < 6 or data[at] != _TEXT_FIN:
                break
            second = data[at + 1]
            if not second & 0x80:  # unmasked: websockets answers the protocol error
                break
            length, start = second & 0x7F, at + 2
            if length == 126:
                length, start = int.from_bytes(data[start : start + 2], "big"), start + 2
            elif length == 127:
                break
            if (limit is not None and length > limit) or start + 4 + length > end:
                break
            payload = apply_mask(data[start + 4 : start + 4 + length], data[start : start + 4])
            try:
                text = payload.decode()
            except UnicodeDecodeError:  # websockets and uvicorn close with 1007
                break
            put({"type": "websocket.receive", "text": text})
            at = start + 4 + length
        if at < end:
            super().data_received(data[at:] if at else data)
