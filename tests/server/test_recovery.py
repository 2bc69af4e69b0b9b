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
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.processes import (
    Server,
    Watcher,
    bidding_deal_1,
    free_port,
    mid_deal_2,
    scenario,
)
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


@pytest.mark.parametrize("sync", ["normal", "full"])
def test_a_kill_loses_no_move_of_tables_stored_together(server: Server, sync: str) -> None:
    """Eight tables of computer players at full speed: their moves reach
    the store in the same turns of the event loop and are committed
    together, several tables' in one transaction (under ``normal`` by the
    event loop itself, under ``full`` by the group commit's thread;
    server/sqlitewriter.py). SIGKILL in the middle of it: every move a
    spectator was shown is in the database, at its version, and the
    restarted server goes on from there."""
    if server.db.path is None and sync == "full":
        pytest.skip("a SQLite setting: PostgreSQL runs it once")
    asyncio.run(asyncio.wait_for(_many_tables_killed(server, sync), 60))


async def _many_tables_killed(server: Server, sync: str) -> None:
    server.extra = ["--db-sqlite-sync", sync]
    server.start()
    stop = asyncio.Event()
    watchers: list[tuple[str, Watcher]] = []
    tasks: list[asyncio.Task[None]] = []
    try:
        for _ in range(8):
            t = server.post("/api/tables", {"rounds": 12})
            w = Watcher()
            watchers.append((t["id"], w))
            url = f"{server.ws}/ws/{t['id']}"
            tasks.append(asyncio.create_task(w.run(url, t["creator"], stop)))
        deadline = time.monotonic() + 30
        while not all(len(w.acts) >= 30 for _, w in watchers):
            assert time.monotonic() < deadline, f"the tables did not play\n{server.tail()}"
            await asyncio.sleep(0.02)
        server.kill()  # the tables still play: moves are being stored right now
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)

    shown = 0
    for table_id, w in watchers:
        assert w.errors == [], w.errors
        rows = server.db.rows(
            "SELECT version, kind, payload FROM skat_events WHERE table_id = :t ORDER BY version",
            t=table_id,
        )
        versions = [v for v, _, _ in rows]
        assert versions == list(range(1, len(versions) + 1)), "event versions are not 1..N"
        stored = {v: json.loads(p) for v, k, p in rows if k == "act"}
        for version, seat, action in w.acts:
            assert version in stored, f"table {table_id}: move {version} shown, not stored"
            assert stored[version]["seat"] == seat
            if action != "discard":  # a spectator sees a discard hidden
                assert stored[version]["action"] == action
        shown += len(w.acts)
    assert shown >= 8 * 30

    server.start()  # the same database: every table at least where it was shown
    for table_id, w in watchers:
        info = server.get(f"/api/tables/{table_id}")
        assert info["version"] >= max(v for v, _, _ in w.acts)
