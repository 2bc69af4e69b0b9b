"""The server's websocket protocol (server/wsprotocol.py) against the
uvicorn class it extends: the same client bytes, cut anywhere, give the
endpoint the same messages and the client the same answers (pongs, closes,
errors), and a frame it writes is the one websockets would write."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.asyncio.client import connect
from websockets.frames import Frame, Opcode

from skat.server.wsprotocol import QUEUED_BEFORE_PAUSE, SEND_TEXT, WebSocketProtocol
from tests.helpers.processes import Server, free_port
from tests.helpers.stores import db_for

MAX_SIZE = 65536
HANDSHAKE = (
    b"GET /ws/t HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
    b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    b"Sec-WebSocket-Version: 13\r\n\r\n"
)


@dataclass
class Transport:
    """What the protocol writes and asks of its socket."""

    written: bytearray = field(default_factory=bytearray)
    closed: bool = False
    paused: bool = False

    def write(self, data: bytes) -> None:
        assert not self.closed or not data, "written after close"
        self.written += data

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8000)}.get(
            name, default
        )


@dataclass
class Run:
    events: list[dict[str, Any]]
    written: bytes
    closed: bool
    scope: dict[str, Any]


async def opened(
    cls: type[WebSocketsSansIOProtocol] = WebSocketProtocol,
) -> tuple[WebSocketsSansIOProtocol, Transport, dict[str, Any], asyncio.Event]:
    """A protocol after the handshake, its app accepted and waiting (until
    the event is set): the protocol, its transport, the app's scope."""
    stop = asyncio.Event()
    scopes: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        scopes.append(scope)
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        await stop.wait()

    config = Config(
        app=app,
        ws_max_size=MAX_SIZE,
        ws_per_message_deflate=False,
        ws_ping_interval=None,
        lifespan="off",
        log_level="critical",
    )
    config.load()
    proto = cls(config, ServerState(), app_state={})
    transport = Transport()
    proto.connection_made(transport)  # type: ignore[arg-type]
    proto.data_received(HANDSHAKE)
    for _ in range(5):
        await asyncio.sleep(0)
    assert proto.handshake_complete and transport.written.startswith(b"HTTP/1.1 101")
    transport.written.clear()
    return proto, transport, scopes[0], stop


async def _feed(cls: type[WebSocketsSansIOProtocol], chunks: list[bytes]) -> Run:
    proto, transport, scope, stop = await opened(cls)
    events: list[dict[str, Any]] = []
    for chunk in chunks:
        if transport.closed:
            break
        try:
            proto.data_received(chunk)
        except Exception as exc:  # uvicorn's own, on some bad input: the loop closes the socket
            events.append({"type": "raised", "error": type(exc).__name__})
            break
        while not proto.queue.empty():
            events.append(proto.queue.get_nowait())  # type: ignore[arg-type]
    run = Run(events, bytes(transport.written), transport.closed, scope)
    stop.set()
    await asyncio.sleep(0)
    return run


def feed(cls: type[WebSocketsSansIOProtocol], chunks: list[bytes]) -> Run:
    return asyncio.run(_feed(cls, chunks))


def frame(opcode: Opcode, data: bytes, fin: bool = True, *, mask: bool = True) -> bytes:
    return Frame(opcode, data, fin).serialize(mask=mask, extensions=[])


def with_rsv1(raw: bytes) -> bytes:
    return bytes([raw[0] | 0x40]) + raw[1:]


SIZES = [125, 126, 127, 65535, 65536, 65537]  # around each header size and the limit
texts = st.text(max_size=300) | st.builds(lambda n: "x" * n, st.sampled_from(SIZES))
frames = st.one_of(
    texts.map(lambda t: frame(Opcode.TEXT, t.encode())),
    texts.map(lambda t: frame(Opcode.TEXT, t.encode())),  # the common case, twice as often
    st.binary(max_size=50).map(lambda b: frame(Opcode.BINARY, b)),
    st.tuples(texts, texts).map(
        lambda ab: (
            frame(Opcode.TEXT, ab[0].encode(), fin=False) + frame(Opcode.CONT, ab[1].encode())
        )
    ),
    st.binary(max_size=20).map(lambda b: frame(Opcode.PING, b)),
    st.binary(max_size=20).map(lambda b: frame(Opcode.PONG, b)),
    st.just(frame(Opcode.TEXT, b"\xff\xfe invalid")),  # not UTF-8: closed with 1007
    st.just(frame(Opcode.TEXT, b"unmasked", mask=False)),  # a protocol error
    st.just(with_rsv1(frame(Opcode.TEXT, b"rsv"))),  # no extension: a protocol error
    st.just(frame(Opcode.CONT, b"stray")),  # no message to continue
    st.just(frame(Opcode.CLOSE, (1000).to_bytes(2, "big") + b"bye")),
)


@st.composite
def streams(draw: st.DrawFn) -> list[bytes]:
    """Frames, cut anywhere, and often just after a frame's header or its
    mask (where websockets' parser has taken bytes and waits for more)."""
    parts = draw(st.lists(frames, max_size=12))
    data = b"".join(parts)
    starts = [sum(len(x) for x in parts[:i]) for i in range(len(parts))]
    near = sorted({s + k for s in starts for k in (1, 2, 4, 6, 8) if s + k < len(data)})
    anywhere = st.integers(0, len(data))
    cut = st.sampled_from(near) | anywhere if near else anywhere
    cuts = sorted(draw(st.lists(cut, max_size=6)))
    return [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True) if b > a]


@settings(max_examples=300, deadline=None)
@given(streams())
def test_any_client_bytes_cut_anywhere_are_read_as_uvicorn_reads_them(chunks: list[bytes]) -> None:
    ours, theirs = feed(WebSocketProtocol, chunks), feed(WebSocketsSansIOProtocol, chunks)
    # one difference, on purpose: where a read holds whole messages and then a
    # protocol error, uvicorn drops the messages with the connection; ours
    # gives them to the endpoint first (then the same disconnect)
    ends = [e for e in ours.events if e["type"] != "websocket.receive"]
    assert ends == [e for e in theirs.events if e["type"] != "websocket.receive"]
    received = [e for e in ours.events if e["type"] == "websocket.receive"]
    theirs_received = [e for e in theirs.events if e["type"] == "websocket.receive"]
    if ends:
        assert received[: len(theirs_received)] == theirs_received
    else:
        assert received == theirs_received
    assert ours.written == theirs.written  # pongs, closes with their codes
    assert ours.closed == theirs.closed


def test_an_ordinary_move_is_read_without_websockets_parser() -> None:
    """The fast path is taken: many moves in one read, one message each, and
    the socket is paused only once a few wait."""

    async def scenario() -> tuple[list[str], bool]:
        moves = [json.dumps({"type": "act", "action": f"bid {v}"}) for v in (18, 20, 22, 23, 24)]
        data = b"".join(frame(Opcode.TEXT, m.encode()) for m in moves)
        proto, transport, _, stop = await opened()
        parsed: list[bytes] = []
        proto.conn.receive_data = parsed.append  # type: ignore[method-assign,assignment]
        cut = data[: len(data) // 2 + 3]  # inside a frame: the rest is websockets' to read
        proto.data_received(cut)
        got = [proto.queue.get_nowait() for _ in range(proto.queue.qsize())]
        assert len(parsed) == 1 and cut.endswith(parsed[0])
        stop.set()
        return [str(e.get("text")) for e in got], transport.paused

    got, paused = asyncio.run(scenario())
    assert got and all(json.loads(t)["type"] == "act" for t in got)
    assert not paused


@pytest.mark.parametrize("size", [0, 5, 125, 126, 200, 5000, 65535])
def test_whole_text_frames_of_every_header_size_bypass_websockets_parser(size: int) -> None:
    async def scenario() -> tuple[list[str], list[bytes]]:
        proto, _, _, stop = await opened()
        parsed: list[bytes] = []
        proto.conn.receive_data = parsed.append  # type: ignore[method-assign,assignment]
        proto.data_received(frame(Opcode.TEXT, b"a" * size) + frame(Opcode.TEXT, "é".encode()))
        got = [proto.queue.get_nowait() for _ in range(proto.queue.qsize())]
        stop.set()
        return [str(e.get("text")) for e in got], parsed

    texts, parsed = asyncio.run(scenario())
    assert texts == ["a" * size, "é"] and parsed == []


def test_reading_pauses_once_messages_wait() -> None:
    async def scenario() -> tuple[bool, bool, bool]:
        proto, transport, _, stop = await opened()
        proto.data_received(frame(Opcode.TEXT, b"m") * (QUEUED_BEFORE_PAUSE - 1))
        before = transport.paused
        proto.data_received(frame(Opcode.TEXT, b"m"))
        paused = transport.paused
        while not proto.queue.empty():
            await proto.receive()
        stop.set()
        return before, paused, transport.paused

    before, paused, after = asyncio.run(scenario())
    assert not before and paused and not after  # resumed once the endpoint read them all


def test_a_read_cut_after_a_header_is_finished_by_websockets() -> None:
    """Reads cut just after a frame's header, or its mask, leave websockets'
    parser inside the frame with nothing buffered: what comes next is the
    rest of that frame, however much it looks like frames of its own."""
    msg = b'{"type":"ping"}'
    mask = bytes([msg[0] ^ 0x81, msg[1] ^ 0x80, 0x12, 0x34])  # its payload starts 81 80
    first = (
        bytes([0x81, 0x80 | len(msg)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(msg))
    )
    second = frame(Opcode.TEXT, b'{"type":"hello","protocol":2}')
    for cut in (2, 6):
        run = feed(WebSocketProtocol, [first[:cut], first[cut:] + second])
        assert [e.get("text") for e in run.events] == [
            msg.decode(),
            '{"type":"hello","protocol":2}',
        ]
        assert not run.closed
    # a header that promises five bytes, then two empty frames whose masks are
    # chosen (a random mask made this case random): websockets takes the first
    # frame and the second's first mask byte as mask and payload ("cdabe"),
    # and the rest as an unmasked frame: a protocol error, closed with 1002
    header = bytes([0x81, 0x85])
    empties = bytes([0x81, 0x80, 0xE0, 0xE2, 0xE2, 0xE4, 0x81, 0x80, 0xE4, 0x81, 0x00, 0x00])
    ours = feed(WebSocketProtocol, [header, empties])
    assert ours.events == feed(WebSocketsSansIOProtocol, [header, empties]).events
    assert ours.closed and ours.events[-1]["code"] == 1002


def test_reading_pauses_after_a_read_that_ends_in_a_control_frame() -> None:
    """Many messages and a ping or a pong in each read: paused after the first."""

    async def scenario(tail: bytes) -> tuple[bool, int]:
        proto, transport, _, stop = await opened()
        for _ in range(3):
            if not transport.paused:
                proto.data_received(frame(Opcode.TEXT, b"") * 100 + tail)
        stop.set()
        return transport.paused, proto.queue.qsize()

    for tail in (frame(Opcode.PING, b"p"), frame(Opcode.PONG, b"p")):
        paused, queued = asyncio.run(scenario(tail))
        assert paused and queued == 100


def test_the_fast_path_comes_back_after_websockets_read_a_frame() -> None:
    async def scenario() -> list[bytes]:
        proto, _, _, stop = await opened()
        proto.data_received(frame(Opcode.PING, b"p"))  # websockets' to read, whole
        parsed: list[bytes] = []
        proto.conn.receive_data = parsed.append  # type: ignore[method-assign,assignment]
        proto.data_received(frame(Opcode.TEXT, b"move"))
        assert proto.queue.get_nowait() == {"type": "websocket.receive", "text": "move"}
        stop.set()
        return parsed

    assert asyncio.run(scenario()) == []


def test_the_app_gets_the_synchronous_send() -> None:
    run = feed(WebSocketProtocol, [])
    assert callable(run.scope["extensions"][SEND_TEXT])
    assert "websocket.http.response" in run.scope["extensions"]  # uvicorn's own kept


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200) | st.builds(lambda n: "é" * n, st.integers(0, 70000)))
def test_a_frame_written_is_the_frame_websockets_writes(text: str) -> None:
    async def written() -> bytes:
        proto, transport, scope, stop = await opened()
        assert scope["extensions"][SEND_TEXT](text)
        await proto.send({"type": "websocket.send", "text": text})  # the ASGI send: the same
        stop.set()
        return bytes(transport.written)

    one = Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])
    assert asyncio.run(written()) == one + one


def test_nothing_is_written_after_a_close_or_on_a_full_socket() -> None:
    async def scenario() -> tuple[bool, bool, bytes]:
        proto, transport, scope, stop = await opened()
        send = scope["extensions"][SEND_TEXT]
        proto.pause_writing()  # the client's buffer is full: the caller must wait
        full = send("x")
        proto.resume_writing()
        proto.data_received(frame(Opcode.CLOSE, (1000).to_bytes(2, "big")))
        transport.written.clear()
        after_close = send("x")
        stop.set()
        return full, after_close, bytes(transport.written)

    full, after_close, written = asyncio.run(scenario())
    assert not full and not after_close and written == b""


@pytest.mark.slow
def test_a_real_server_answers_odd_frames_and_plays_on(tmp_path: Path) -> None:
    """Through `skat serve`: a move in two fragments, a ping and a binary
    frame are answered as before, a frame of invalid UTF-8 closes with 1007,
    and the next connection plays."""
    srv = Server(free_port(), db_for(tmp_path), tmp_path / "server.log")

    async def scenario(url: str) -> tuple[list[dict[str, Any]], int | None]:
        got: list[dict[str, Any]] = []
        async with connect(url, ping_interval=None, max_size=2**20) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 2}))
            got.append(json.loads(await ws.recv()))  # welcome
            got.append(json.loads(await ws.recv()))  # the table
            hello = json.dumps({"type": "ping"})
            await ws.send([hello[:5], hello[5:]])  # fragmented
            got.append(json.loads(await ws.recv()))
            pong = await ws.ping(b"p")
            await asyncio.wait_for(pong, 5)
            await ws.send(json.dumps({"type": "ping"}).encode())  # a binary frame of UTF-8
            got.append(json.loads(await ws.recv()))
            transport = ws.transport
            transport.write(frame(Opcode.TEXT, b"\xff"))
            code = None
            try:
                await asyncio.wait_for(ws.recv(), 5)
            except Exception:
                code = ws.close_code
        return got, code

    try:
        srv.start()
        t = srv.post("/api/tables", {"rounds": 1})
        got, code = asyncio.run(scenario(f"{srv.ws}/ws/{t['id']}"))
        assert [m["type"] for m in got] == ["welcome", "state", "pong", "pong"]
        assert code == 1007
        got, _ = asyncio.run(scenario(f"{srv.ws}/ws/{t['id']}"))
        assert [m["type"] for m in got[:2]] == ["welcome", "state"]
        assert srv.get("/healthz")["ok"]
    finally:
        srv.kill()


def test_random_cuts_of_a_long_session() -> None:
    """A thousand moves in reads of random sizes arrive whole and in order."""
    rng = random.Random(7)
    moves = [
        json.dumps({"type": "act", "action": "play " + "x" * rng.randrange(300)})
        for _ in range(1000)
    ]
    data = b"".join(frame(Opcode.TEXT, m.encode()) for m in moves)
    chunks, at = [], 0
    while at < len(data):
        n = rng.choice([1, 2, 7, 100, 1500, 65536])
        chunks.append(data[at : at + n])
        at += n
    run = feed(WebSocketProtocol, chunks)
    assert [e["text"] for e in run.events] == moves
    assert run.written == b"" and not run.closed
