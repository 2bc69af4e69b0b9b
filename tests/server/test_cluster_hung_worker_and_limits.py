"""The cluster fails over from a hung worker, and the limits on creating
tables hold (issue 28: findings 3, 4, 7 and 8).

Real components throughout: the cluster of `test_cluster` (PostgreSQL, two
`skat serve` workers, Debian's nginx), single `skat serve` processes, and
the page in Debian's Chromium (Playwright).

- a worker stopped with SIGSTOP (its socket still accepts connections): its
  players reach the other worker, and creating tables through the proxy
  goes on;
- a lease row kept locked by a transaction that never ends: new tables
  still open at once;
- no worker has a TCP port that a client could reach past the proxy;
- `X-Forwarded-For` from a peer that is not a configured proxy does not
  change whose tables are counted;
- the page notices a server that stops answering and reconnects.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pwd
import re
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from skat.server.cluster import Cluster
from tests.helpers.browser import Client, start_with_bots, wait_phase
from tests.helpers.cluster import (
    LEASE_TTL,
    seated,
    table_owner,
    table_with_people,
    two_workers,
)
from tests.helpers.processes import Human, Server, free_port
from tests.helpers.stores import db_for

pytestmark = pytest.mark.cluster

BACK_WITHIN = 10.0  # seconds for people to reach the other worker after a SIGSTOP
WELCOME_WITHIN = 10.0  # seconds for a new table's welcome


@pytest.fixture
def cluster(tmp_path: Path, db_url: str) -> Iterator[Cluster]:
    with two_workers(tmp_path / "cluster", db_url) as c:
        yield c


def _post(base: str, path: str, body: dict[str, Any], timeout: float = 5.0) -> tuple[Any, str]:
    req = urllib.request.Request(
        f"{base}{path}",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return json.load(r), r.headers["X-Skat-Worker"]


def _stopped(pid: int) -> contextlib.AbstractContextManager[None]:
    @contextlib.contextmanager
    def stopped() -> Iterator[None]:
        os.kill(pid, signal.SIGSTOP)
        try:
            yield
        finally:
            os.kill(pid, signal.SIGCONT)

    return stopped()


async def _welcome(url: str) -> float:
    """Seconds until a new connection to ``url`` is welcomed (a worker that
    does not own the table says TABLE_MOVED: try again)."""
    start = time.monotonic()
    while True:
        assert time.monotonic() - start < WELCOME_WITHIN, f"no welcome at {url}"
        async with connect(url, open_timeout=WELCOME_WITHIN) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 2}))
            m = json.loads(await asyncio.wait_for(ws.recv(), WELCOME_WITHIN))
            if m["type"] == "welcome":
                return time.monotonic() - start
            assert m.get("code") == "TABLE_MOVED", m
        await asyncio.sleep(0.2)


# ---------------------------------------------------------------- finding 3
def test_the_players_of_a_hung_worker_reach_the_other_worker(cluster: Cluster) -> None:
    """SIGSTOP of a table's worker in the middle of a deal: both people are
    welcomed at their seats by the other worker within 10 s (nginx gives up
    the silent worker's websockets and its unanswered handshakes), and new
    tables are created through the proxy meanwhile."""
    base, ws_base = cluster.address, cluster.address.replace("http", "ws")
    db = cluster.db_url or ""

    async def scenario() -> tuple[float, list[float]]:
        table_id, humans = await table_with_people(base, ws_base, seed=11)
        url = f"{ws_base}/ws/{table_id}"
        try:
            fired = asyncio.Event()

            def in_play(h: Human) -> bool:
                return h.view is not None and h.view["phase"] == "play"

            plays = [asyncio.create_task(h.play(in_play, fired)) for h in humans]
            await asyncio.wait_for(fired.wait(), 40)
            owner = await table_owner(db, table_id)
            assert owner in ("w1", "w2")
            victim = cluster.worker(owner)
            assert victim.pid is not None
            loop = asyncio.get_running_loop()

            def create() -> list[float]:
                # while the proxy has not noticed yet: some go to the hung worker first
                times = []
                for _ in range(4):
                    t0 = time.monotonic()
                    made, _ = _post(base, "/api/tables", {"players": 3}, timeout=15)
                    assert made["id"]
                    times.append(time.monotonic() - t0)
                return times

            with _stopped(victim.pid):
                stopped_at = time.monotonic()
                creating = loop.run_in_executor(None, create)
                # nothing closes these connections but the proxy's timeout
                results = await asyncio.wait_for(asyncio.gather(*plays), BACK_WITHIN + 30)
                assert results == ["closed", "closed"], results
                deadline = stopped_at + BACK_WITHIN
                await asyncio.gather(*(seated(url, h, deadline) for h in humans))
                back = time.monotonic() - stopped_at
                assert back < BACK_WITHIN
                assert await table_owner(db, table_id) not in (None, owner)
                creations = await creating
            return back, creations
        finally:
            for h in humans:
                with contextlib.suppress(Exception):
                    await h.close()

    back, creations = asyncio.run(asyncio.wait_for(scenario(), 120))
    print(
        f"SIGSTOP: both people back at the other worker after {back:.1f} s; "
        f"table creations {', '.join(f'{s:.1f}' for s in creations)} s"
    )


# ---------------------------------------------------------------- finding 4
def test_a_lease_row_locked_for_ever_does_not_stop_new_tables(cluster: Cluster) -> None:
    """A transaction that holds a table's lease row (as a worker frozen in
    the middle of a commit does) and never ends: tables created afterwards,
    at either worker, still welcome their people at once."""
    import asyncpg  # type: ignore[import-untyped]

    base, ws_base = cluster.address, cluster.address.replace("http", "ws")
    db = cluster.db_url or ""

    async def scenario() -> list[float]:
        table_id, humans = await table_with_people(base, ws_base, seed=13)
        assert await table_owner(db, table_id) in ("w1", "w2")
        conn = await asyncpg.connect(db.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            # this session is not to be ended by the server's idle timeout
            await conn.execute("SET idle_in_transaction_session_timeout = 0")
            await conn.execute("BEGIN")
            locked = await conn.fetch(
                "SELECT table_id FROM skat_leases WHERE table_id = $1 FOR UPDATE", table_id
            )
            assert len(locked) == 1
            await asyncio.sleep(3 * LEASE_TTL)  # renewals and adoptions run into the lock
            waits = []
            for _ in range(6):
                made, _ = _post(base, "/api/tables", {"players": 3})
                waits.append(await _welcome(f"{ws_base}/ws/{made['id']}"))
            await conn.execute("ROLLBACK")
            return waits
        finally:
            await conn.close()
            for h in humans:
                with contextlib.suppress(Exception):
                    await h.close()

    waits = asyncio.run(asyncio.wait_for(scenario(), 120))
    print(f"locked lease row: welcomes after {', '.join(f'{w:.2f}' for w in waits)} s")


# ---------------------------------------------------------------- finding 8
def _listening_tcp_inodes() -> set[str]:
    inodes = set()
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(name) as f:
            for line in list(f)[1:]:
                fields = line.split()
                if fields[3] == "0A":  # LISTEN
                    inodes.add(fields[9])
    return inodes


def _socket_inodes(pid: int) -> set[str]:
    found = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            m = re.fullmatch(r"socket:\[(\d+)\]", target)
            if m:
                found.add(m.group(1))
    return found


def test_no_worker_can_be_reached_past_the_proxy(cluster: Cluster) -> None:
    """The workers listen on no TCP port (unix sockets that nginx proxies
    to): a connection straight to a worker, which would claim a table the
    proxy sends elsewhere, cannot be made from the network."""
    listening = _listening_tcp_inodes()
    for w in cluster.members:
        assert w.pid is not None
        assert not _socket_inodes(w.pid) & listening, f"worker {w.name} listens on a TCP port"
    # and the site works through the proxy
    made, _ = _post(cluster.address, "/api/tables", {"players": 3})
    ws = cluster.address.replace("http", "ws")
    asyncio.run(asyncio.wait_for(_welcome(f"{ws}/ws/{made['id']}"), 30))


def _reach(path: Path, as_user: str | None) -> str:
    """Connect to the unix socket ``path`` in a child process, as another
    local user when we are root: "ok" or the error's name."""
    code = (
        "import socket, sys\n"
        "s = socket.socket(socket.AF_UNIX)\n"
        "try:\n"
        f"    s.connect({str(path)!r}); print('ok')\n"
        "except OSError as e:\n"
        "    print(type(e).__name__)\n"
    )
    user = None if as_user is None else pwd.getpwnam(as_user).pw_uid
    done = subprocess.run(
        ["/usr/bin/python3", "-c", code], capture_output=True, text=True, timeout=30, user=user
    )
    return done.stdout.strip()


def test_no_other_local_user_reaches_a_workers_socket(cluster: Cluster) -> None:
    """Issue 54, finding 12: a worker believes the X-Forwarded-For of whoever
    reaches its socket; only nginx (and the cluster's own user) may."""
    folder = cluster.members[0].socket.parent
    assert folder.stat().st_mode & 0o007 == 0, oct(folder.stat().st_mode)
    if os.geteuid() == 0:
        # another local user is refused; nginx's workers (its group) pass
        assert _reach(cluster.members[0].socket, "daemon") == "PermissionError"
    assert _reach(cluster.members[0].socket, None) == "ok"
    made, _ = _post(cluster.address, "/api/tables", {"players": 3})
    assert made["id"]


# ---------------------------------------------------------------- finding 7
def _create(srv: Server, forwarded_for: str) -> int:
    req = urllib.request.Request(
        f"{srv.http}/api/tables",
        data=b"{}",
        headers={"content-type": "application/json", "X-Forwarded-For": forwarded_for},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        assert json.load(exc)["error"]["code"] == "TOO_MANY_TABLES"
        return int(exc.code)


def test_x_forwarded_for_from_a_peer_that_is_no_proxy_is_not_believed(tmp_path: Path) -> None:
    """By default nobody is a trusted proxy: a client on the same machine
    that names a new address in every request is still one address."""
    srv = Server(free_port(), db_for(tmp_path), tmp_path / "server.log")
    srv.extra = ["--tables-per-address", "2"]
    srv.start()
    try:
        got = [_create(srv, f"198.51.100.{i}") for i in range(1, 5)]
        assert got == [201, 201, 429, 429], got
    finally:
        srv.kill()


def test_x_forwarded_for_from_a_configured_proxy_names_the_client(tmp_path: Path) -> None:
    srv = Server(free_port(), db_for(tmp_path), tmp_path / "server.log")
    srv.extra = ["--tables-per-address", "2", "--forwarded-allow-ips", "127.0.0.1"]
    srv.start()
    try:
        got = [_create(srv, a) for a in ("198.51.100.1", "198.51.100.1", "198.51.100.1")]
        assert got == [201, 201, 429], got
        assert _create(srv, "198.51.100.2") == 201  # another client behind the proxy
    finally:
        srv.kill()


# ------------------------------------------------------- the page, finding 3
@pytest.mark.browser
def test_the_page_reconnects_when_its_server_stops_answering(
    browser: object, tmp_path: Path
) -> None:
    """The page's websocket to a server that is stopped (SIGSTOP: the socket
    stays open, nothing is closed) is given up: the page pings, gets no
    answer, says it reconnects, and is back at its seat once the server
    answers again."""
    from playwright.sync_api import Browser

    assert isinstance(browser, Browser)
    srv = Server(free_port(), db_for(tmp_path), tmp_path / "server.log")
    srv.extra = ["--next-delay", "60"]
    srv.start()
    c = Client(browser, srv.http)
    try:
        start_with_bots(c, "Anna")
        wait_phase(c.page)
        hand_before = c.page.locator("#hand .card").count()
        assert srv.proc is not None
        hellos = sum('"hello"' in s for s in c.sent)
        with _stopped(srv.proc.pid):
            stopped_at = time.monotonic()
            c.page.wait_for_function(
                "() => /reconnecting/i.test(document.getElementById('status')?.textContent || '')",
                timeout=10_000,
            )
            noticed = time.monotonic() - stopped_at
            assert any('"ping"' in s for s in c.sent), "the page sent no ping"
        c.page.wait_for_function(
            "() => !/reconnecting/i.test(document.getElementById('status')?.textContent || '')",
            timeout=30_000,
        )
        c.page.wait_for_function(
            f"() => document.querySelectorAll('#hand .card').length == {hand_before}",
            timeout=10_000,
        )
        assert sum('"hello"' in s for s in c.sent) > hellos, "the page sent no new hello"
        assert '"token"' in [s for s in c.sent if '"hello"' in s][-1], "not back at its seat"
        assert not c.errors, c.errors
        print(f"page: reconnecting shown {noticed:.1f} s after SIGSTOP")
    finally:
        c.close()
        srv.kill()


def _create_level(srv: Server, level: str) -> int:
    req = urllib.request.Request(
        f"{srv.http}/api/tables",
        data=json.dumps({"level": level}).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            made = json.load(r)
    except urllib.error.HTTPError as exc:
        assert json.load(exc)["error"]["code"] == "TOO_MANY_TABLES"
        return int(exc.code)

    # a seat taken: the table stays open (for hours, before) and still counts
    async def sit() -> None:
        async with connect(f"{srv.ws}/ws/{made['id']}", open_timeout=10) as ws:
            await ws.send(json.dumps({"type": "hello", "protocol": 2}))
            await ws.send(json.dumps({"type": "sit", "name": "Anna"}))
            while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "seated":
                pass

    # in a thread: Playwright's loop may run in this one (the browser test)
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, sit()).result(30)
    return 201


def test_unfinished_tables_per_address_are_limited_however_old(tmp_path: Path) -> None:
    """An address may hold a few unfinished tables at once (and fewer with
    the strong computer players), whatever the hourly limit still allows:
    tables it took a seat at count as long as they are unfinished."""
    srv = Server(free_port(), db_for(tmp_path), tmp_path / "server.log")
    srv.extra = ["--open-tables-per-address", "4", "--strong-tables-per-address", "2"]
    srv.start()
    try:
        got = [_create_level(srv, level) for level in ("strong", "strong", "strong", "casual")]
        assert got == [201, 201, 429, 201], got  # the third strong one: refused
        got = [_create_level(srv, level) for level in ("casual", "casual", "beginner")]
        assert got == [201, 429, 429], got  # four unfinished: no more
    finally:
        srv.kill()
