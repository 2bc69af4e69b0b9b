"""One connection's outbound queue (server/conn.py): messages go out in
the order the table made them, and between bursts an idle connection holds
no writer task (at 3,000 tables its waiting coroutine and future were among
what the collector scanned again and again, docs/lab/benchmarks-history.md)."""

from __future__ import annotations

import asyncio

from skat.server.config import ServerConfig
from skat.server.conn import Conn


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
