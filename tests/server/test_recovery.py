"""Crash recovery of the online server with a real process.

`skat serve` runs as a subprocess on a free loopback port with a temporary
database of the test store (tests/helpers/stores.py: SQLite or PostgreSQL). Two
humans (websocket clients) and one computer player play a one-round list;
the server is killed with SIGKILL in the middle of a deal and restarted on
the same database; the humans reconnect with their seat tokens and their
last seen versions and finish the list. Then the event log
must be gapless, the list record must verify, and every action a client had
seen acknowledged before the kill must be in the record exactly once.
The server process, the humans and the scenario are in
tests/helpers/processes.py (the PostgreSQL tests play it too).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.processes import Server, bidding_deal_1, free_port, mid_deal_2, scenario
from tests.helpers.stores import db_for

pytestmark = pytest.mark.slow


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(free_port(), db_for(tmp_path), tmp_path / "server.log")
    try:
        yield srv
    finally:
        if srv.proc is not None and srv.proc.poll() is None:
            srv.proc.kill()
            srv.proc.wait(timeout=10)


def test_kill_in_the_middle_of_deal_2(server: Server) -> None:
    asyncio.run(asyncio.wait_for(scenario(server, mid_deal_2, seed=7), 50))


def test_kill_during_bidding_of_deal_1(server: Server) -> None:
    asyncio.run(asyncio.wait_for(scenario(server, bidding_deal_1, seed=11), 50))
