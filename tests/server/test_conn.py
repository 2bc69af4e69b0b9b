"""One connection's outbound queue (server/conn.py): messages go out in
the order the table made them; a send that completes at once needs no task
(a task per message was a tenth of the server's CPU per move), one that
waits (a client whose socket buffer is full) holds the rest back in order;
and between bursts an idle connection holds no writer task (at 3,000
tables its waiting coroutine and future were among what the collector
scanned again and again, docs/lab/benchmarks-history.md)."""

from __future__ import annotations

import asyncio

from skat.server.config import ServerConfig
from skat.server.conn import CLOSE_TOO_SLOW, Conn


def test_messages_go_out_in_order_and_an_idle_connection_holds_no_writer() -> None:
    sent: list[str] = []

    async def send(text: str) -> None:
        await asyncio.sleep(0)  # a real socket write may yield
        sent.append(text)

    async def main() -> None:
        conn = Conn(send, ServerConfig())
        for i in range(5):
            conn.push_text(f"a{i}")
        assert conn._writer is not None  # one writer for the burst
        for _ in range(50):
            await asyncio.sleep(0)
        assert sent == [f"a{i}" for i in range(5)]
        assert conn._writer is None  # nothing to send: no task waits
        conn.push_text("b")  # the next event starts a writer again
        conn.push_text("c")
        for _ in range(20):
            await asyncio.sleep(0)
        assert sent[5:] == ["b", "c"] and conn._writer is None
        conn.stop()
        conn.push_text("after the end")
        await asyncio.sleep(0)
        assert sent[-1] == "c" and conn._writer is None

    asyncio.run(main())


def test_a_socket_that_fails_closes_the_connection_and_sends_nothing_more() -> None:
    sent: list[str] = []

    async def send(text: str) -> None:
        if text == "bad":
            raise ConnectionResetError
        sent.append(text)

    async def main() -> None:
        conn = Conn(send, ServerConfig())
        conn.push_text("ok")
        conn.push_text("bad")
        conn.push_text("lost")
        for _ in range(20):
            await asyncio.sleep(0)
        assert conn.closed and sent == ["ok"]
        conn.push_text("later")
        for _ in range(5):
            await asyncio.sleep(0)
        assert sent == ["ok"]

    asyncio.run(main())


def test_a_send_that_completes_at_once_goes_out_before_push_returns() -> None:
    sent: list[str] = []

    async def send(text: str) -> None:  # a socket with room: no wait
        sent.append(text)

    async def main() -> None:
        conn = Conn(send, ServerConfig())
        for i in range(3):
            conn.push_text(f"m{i}")
            assert sent == [f"m{j}" for j in range(i + 1)]  # out already, in order
            assert conn._writer is None and conn._watch is None  # no task, no timer

    asyncio.run(main())


def test_a_send_that_waits_holds_the_rest_back_in_order_and_can_be_stopped() -> None:
    sent: list[str] = []
    room = asyncio.Event()  # the client's socket buffer: full until set
    cancelled: list[str] = []

    async def send(text: str) -> None:
        try:
            await room.wait()
        except asyncio.CancelledError:
            cancelled.append(text)
            raise
        sent.append(text)

    async def main() -> None:
        conn = Conn(send, ServerConfig())
        conn.push_text("a")
        conn.push_text("b")
        conn.push_text("c")
        for _ in range(5):
            await asyncio.sleep(0)
        assert sent == [] and conn._writer is not None and not conn.closed  # all wait
        assert conn._watch is not None  # the send in flight is timed
        room.set()
        for _ in range(10):
            await asyncio.sleep(0)
        assert sent == ["a", "b", "c"] and conn._writer is None
        room.clear()
        conn.push_text("d")  # waits again; then the connection ends
        for _ in range(3):
            await asyncio.sleep(0)
        writer = conn._writer
        assert writer is not None
        conn.stop()
        for _ in range(3):
            await asyncio.sleep(0)
        assert writer.cancelled() and cancelled == ["d"] and sent == ["a", "b", "c"]

    asyncio.run(main())


def test_a_client_that_never_reads_is_dropped_after_the_send_timeout() -> None:
    closed: list[int] = []

    async def send(text: str) -> None:
        await asyncio.Event().wait()  # the socket never drains

    async def close(code: int, why: str) -> None:
        closed.append(code)

    async def main() -> None:
        conn = Conn(send, ServerConfig(send_timeout=0.05), close=close)
        conn.push_text("a")
        conn.push_text("b")
        await asyncio.sleep(0.2)
        assert conn.dropped and conn.closed and closed == [CLOSE_TOO_SLOW]

    asyncio.run(main())
