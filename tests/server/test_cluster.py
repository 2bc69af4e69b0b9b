"""Several server processes behind a real nginx, one owner per table
(docs/deploy.md).

The cluster is the product's own (`skat.server.cluster`, as `skat cluster`
starts it): a real PostgreSQL started by the test as an unprivileged user,
two real `skat serve` workers and Debian's nginx in front. Skipped with a
message where nginx or PostgreSQL is not installed, but never in CI (`CI`
set): there a missing package fails.

- a whole list played through the proxy;
- the owner of a table SIGKILLed in the middle of a deal: the other worker
  takes the table over from the event log, the players reconnect to their
  seats through the proxy and finish; every acknowledged action is in the
  log exactly once, the log is gapless; the killed worker comes back and
  nothing splits (the table moves back, still one owner);
- two workers racing for one table: only one accepts moves, and a worker
  whose lease was taken cannot store a move;
- the browser client reconnecting by itself through the proxy after its
  worker died (Playwright, Debian's Chromium).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.asyncio.client import unix_connect
from websockets.exceptions import ConnectionClosed

from skat.series.record import verify_list
from skat.server.cluster import Cluster, Worker, nginx_binary, unix_request
from skat.server.store import NotOwner, Store, StoredTable
from tests.helpers.cluster import (
    need,
    post,
    postgres_services,
    seated,
    table_owner,
    table_with_people,
    two_workers,
)
from tests.helpers.processes import Human

pytestmark = pytest.mark.cluster

FAILOVER_TIMEOUT = 30.0  # seconds for the players to be back at their seats


@pytest.fixture
def cluster(tmp_path: Path, db_url: str) -> Iterator[Cluster]:
    with two_workers(tmp_path / "cluster", db_url) as c:
        yield c


# ------------------------------------------------------------------ helpers
def _post_unix(
    w: Worker, path: str, body: dict[str, Any], headers: dict[str, str] | None = None
) -> tuple[Any, str]:
    """A POST straight to a worker's socket (bypassing the proxy); an error
    status raises `urllib.error.HTTPError`, as `post` does."""
    import io
    import urllib.error

    status, got, data = unix_request(
        w.socket,
        "POST",
        path,
        json.dumps(body).encode(),
        {"content-type": "application/json", **(headers or {})},
    )
    if status >= 400:
        raise urllib.error.HTTPError(path, status, "refused", None, io.BytesIO(data))  # type: ignore[arg-type]
    return json.loads(data), got["x-skat-worker"]


def _get(base: str, path: str) -> tuple[Any, str]:
    with urllib.request.urlopen(f"{base}{path}", timeout=5) as r:
        return json.load(r), r.headers["X-Skat-Worker"]


async def _events(db_url: str, table_id: str) -> list[tuple[int, str, dict[str, Any]]]:
    store = Store(db_url, worker="test")
    try:
        return [(e.version, e.kind, e.payload) for e in await store.events(table_id)]
    finally:
        await store.close()


async def _play_through(url: str, h: Human, deadline: float) -> int:
    """Play to the end of the list, reconnecting whenever the connection
    drops (a worker died or handed the table over); returns the reconnects."""
    reconnects = 0
    while True:
        result = await h.play(None, asyncio.Event())
        if result == "over":
            return reconnects
        assert result == "closed", result
        reconnects += 1
        await seated(url, h, deadline)


def _check_log(
    events: list[tuple[int, str, dict[str, Any]]], acked: dict[str, list[tuple[int, int, str]]]
) -> None:
    versions = [v for v, _, _ in events]
    assert versions == list(range(1, len(versions) + 1)), "the event log has a gap"
    by_version = {v: (k, p) for v, k, p in events}
    acts = [(v, p["seat"], p["action"]) for v, k, p in events if k == "act"]
    assert len({(v) for v, _, _ in acts}) == len(acts)
    for name, seen in acked.items():
        assert len({v for v, _, _ in seen}) == len(seen), f"{name} saw a version twice"
        for version, seat, action in seen:
            kind, payload = by_version[version]
            assert kind == "act" and payload["seat"] == seat, (name, version, payload)
            if action != "discard":  # another player's discard is hidden
                assert payload["action"] == action, (name, version, payload, action)


# -------------------------------------------------------------------- tests
def test_a_list_is_played_through_the_proxy(cluster: Cluster) -> None:
    base, ws_base = cluster.address, cluster.address.replace("http", "ws")

    async def scenario() -> None:
        table_id, humans = await table_with_people(base, ws_base, seed=3)
        url = f"{ws_base}/ws/{table_id}"
        deadline = time.monotonic() + 60
        try:
            reconnects = await asyncio.gather(*(_play_through(url, h, deadline) for h in humans))
        finally:
            for h in humans:
                await h.close()
        assert reconnects == [0, 0], "nothing died, yet a connection dropped"
        owner = await table_owner(cluster.db_url or "", table_id)
        # every request for the table reached its owner
        info, served_by = _get(base, f"/api/tables/{table_id}")
        assert served_by == owner
        assert info["list_over"] is True
        record, _ = _get(base, f"/api/tables/{table_id}/list.json")
        assert verify_list(record) == []
        events = await _events(cluster.db_url or "", table_id)
        _check_log(events, {h.name: h.acked for h in humans})
        assert info["version"] == events[-1][0]

    asyncio.run(asyncio.wait_for(scenario(), 90))


def test_a_killed_worker_s_tables_go_on_elsewhere_and_come_back(cluster: Cluster) -> None:
    base, ws_base = cluster.address, cluster.address.replace("http", "ws")
    db = cluster.db_url or ""

    async def scenario() -> dict[str, float]:
        table_id, humans = await table_with_people(base, ws_base, seed=7)
        url = f"{ws_base}/ws/{table_id}"
        try:
            # play into the middle of deal 2
            fired = asyncio.Event()

            def mid_deal_2(h: Human) -> bool:
                v = h.view
                return (
                    h.deal == 2 and v is not None and v["phase"] == "play" and len(v["tricks"]) >= 3
                )

            plays = [asyncio.create_task(h.play(mid_deal_2, fired)) for h in humans]
            await asyncio.wait_for(fired.wait(), 40)
            owner = await table_owner(db, table_id)
            assert owner in ("w1", "w2")
            victim = cluster.worker(owner)
            killed_at = time.monotonic()
            victim.kill()
            assert await asyncio.gather(*plays) == ["closed", "closed"]
            acked_before = {h.name: list(h.acked) for h in humans}
            last = {h.name: h.last_version for h in humans}

            deadline = time.monotonic() + FAILOVER_TIMEOUT
            await asyncio.gather(*(seated(url, h, deadline) for h in humans))
            back_after = time.monotonic() - killed_at
            survivor = "w2" if owner == "w1" else "w1"
            assert await table_owner(db, table_id) == survivor
            for h in humans:
                assert h.welcomes[-1]["version"] >= last[h.name], "the table went back in time"

            # the killed worker comes back while the list goes on: nginx sends
            # the table's players to it again, the survivor hands the table
            # over; one owner at every moment, nothing lost
            victim.start()
            victim.wait_ready()
            deadline = time.monotonic() + 60
            await asyncio.gather(*(_play_through(url, h, deadline) for h in humans))
            events = await _events(db, table_id)
            _check_log(events, acked_before)
            _check_log(events, {h.name: h.acked for h in humans})
            record, _ = _get(base, f"/api/tables/{table_id}/list.json")
            assert verify_list(record) == []
            assert len(record["deals"]) == 3
            # the log's act events are exactly the record's actions
            logged: list[list[Any]] = [[]]
            for _, kind, payload in events:
                if kind == "next":
                    logged.append([])
                elif kind == "act":
                    logged[-1].append([payload["seat"], payload["action"]])
            assert logged == [d["actions"] for d in record["deals"]]
            return {"failover_s": back_after}
        finally:
            for h in humans:
                with contextlib.suppress(Exception):
                    await h.close()

    figures = asyncio.run(asyncio.wait_for(scenario(), 150))
    print(f"failover: players back at their seats {figures['failover_s']:.1f} s after SIGKILL")


def test_two_workers_racing_for_one_table_only_one_accepts_moves(
    cluster: Cluster,
) -> None:
    base = cluster.address
    w1, w2 = cluster.members

    async def hello(w: Worker, table_id: str) -> str:
        # straight to the worker's socket, bypassing the proxy
        ws = await unix_connect(str(w.socket), f"ws://localhost/ws/{table_id}", open_timeout=5)
        try:
            with contextlib.suppress(ConnectionClosed):  # a refusing worker closes at once
                await ws.send(json.dumps({"type": "hello", "protocol": 2}))
            m = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if m["type"] == "welcome":
                # (the loser asked for the table: the winner may hand it over
                # right after this seat, and then says TABLE_MOVED itself)
                await ws.send(json.dumps({"type": "sit", "name": f"Racer {w.name}"}))
                while m["type"] != "seated":
                    m = json.loads(await asyncio.wait_for(ws.recv(), 5))
                    assert m["type"] != "error" or m["code"] == "TABLE_MOVED", m
                    if m["type"] == "error":
                        return "accepted, then handed over"
                return "accepted"
            assert m == {"type": "error", "code": "TABLE_MOVED", "message": m["message"]}
            with contextlib.suppress(ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 5)
            assert ws.close_code == 4503
            return "moved"
        finally:
            with contextlib.suppress(ConnectionClosed):
                await ws.close()

    async def scenario() -> None:
        for _ in range(5):
            table, _ = post(base, "/api/tables", {"players": 3})
            # both workers at once, bypassing the proxy
            results = await asyncio.gather(hello(w1, table["id"]), hello(w2, table["id"]))
            assert "moved" in results and results.count("moved") == 1, results
            winner = w1 if results[0] != "moved" else w2
            events = await _events(cluster.db_url or "", table["id"])
            # only the winner's seat can be in the log (once); the loser stored nothing
            assert [k for _, k, _ in events] in (["sit"], []), events
            names = [p["name"] for _, k, p in events if k == "sit"]
            assert names in ([f"Racer {winner.name}"], []), names
            assert await table_owner(cluster.db_url or "", table["id"]) in ("w1", "w2")

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_a_worker_whose_lease_was_taken_cannot_store_a_move(db_url: str) -> None:
    _lease_taken(db_url)


def test_on_sqlite_too_a_worker_whose_lease_was_taken_cannot_store_a_move(
    tmp_path: Path,
) -> None:
    _lease_taken(f"sqlite+aiosqlite:///{tmp_path / 'skat.db'}")  # (the driver's own path)


def _lease_taken(db_url: str) -> None:
    async def scenario() -> None:
        a = Store(db_url, worker="a", lease_ttl=0.3)
        b = Store(db_url, worker="b", lease_ttl=30)
        await a.open()
        await b.open()
        try:
            now = time.time()
            await a.create_table(StoredTable("t1", now, now, "open", {}, "00", "00", "00"))
            # a race for a free table: exactly one wins, every time
            for i in range(10):
                tid = f"r{i}"
                await a.create_table(StoredTable(tid, now, now, "open", {}, "00", "00", "00"))
                won = await asyncio.gather(a.claim(tid), b.claim(tid))
                assert sorted(won) == [False, True], won
            assert await a.claim("t1")
            await a.append("t1", 1, "chat", {"n": 1})
            with pytest.raises(NotOwner):  # b does not own it
                await b.append("t1", 2, "chat", {"n": 2})
            assert not await b.claim("t1")  # a's lease still runs
            await asyncio.sleep(0.5)  # a stalls past its lease ...
            assert await b.claim("t1")  # ... and b takes the table over
            with pytest.raises(NotOwner):  # a's late write is refused, not stored
                await a.append("t1", 2, "chat", {"n": "late"})
            await b.append("t1", 2, "chat", {"n": 2})
            owned, _ = await a.renew()
            assert "t1" not in owned  # a learns it lost the table
            events = await b.events("t1")
            assert [(e.version, e.payload["n"]) for e in events] == [(1, 1), (2, 2)]
        finally:
            await a.close()
            await b.close()

    asyncio.run(asyncio.wait_for(scenario(), 60))


def test_creating_a_table_works_on_any_worker(cluster: Cluster) -> None:
    for w in cluster.members:
        table, served_by = _post_unix(w, "/api/tables", {"players": 3})
        assert served_by == w.name
        info, _ = _get(cluster.address, f"/api/tables/{table['id']}")  # through the proxy
        assert info["table"]["status"] == "open"


def test_skat_cluster_prints_its_workers_and_stops_everything_on_sigterm(
    tmp_path: Path,
) -> None:
    need("nginx", nginx_binary() is not None)
    postgres_services()
    import signal
    import subprocess
    import sys

    from skat.server.cluster import free_port

    port = free_port()
    folder = Path("/tmp") / f"skat-cluster-test-{tmp_path.name}"  # PostgreSQL's user reaches it
    proc = subprocess.Popen(
        [sys.executable, "-m", "skat.cli", "cluster", "--workers", "2", "--port", str(port),
         "--folder", str(folder)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 60
        while len([x for x in lines if "worker w" in x]) < 2 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            assert line, f"skat cluster ended: {lines}"
            lines.append(line)
        assert f"open http://127.0.0.1:{port}/" in lines[0], lines
        pids = [int(x.split("pid ")[1].split(",")[0]) for x in lines if "worker w" in x]
        for pid in pids:
            os.kill(pid, 0)  # alive
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
            assert json.load(r)["ok"] is True
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
        for pid in pids:
            with pytest.raises(ProcessLookupError):
                os.kill(pid, 0)
        with pytest.raises(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


def test_the_tables_per_address_limit_holds_across_workers(tmp_path: Path, db_url: str) -> None:
    need("nginx", nginx_binary() is not None)
    import urllib.error

    with Cluster(
        tmp_path / "cluster", workers=2, db_url=db_url,
        worker_args=("--tables-per-address", "3", "--log-level", "warning"),
    ) as c:  # fmt: skip
        w1, w2 = c.members
        client = {"X-Forwarded-For": "192.0.2.7"}  # one client, as the proxy names it
        for _ in range(2):
            _post_unix(w1, "/api/tables", {}, client)
        _post_unix(w2, "/api/tables", {}, client)
        for w in (w1, w2):  # the fourth, on either worker: refused
            with pytest.raises(urllib.error.HTTPError) as refused:
                _post_unix(w, "/api/tables", {}, client)
            assert refused.value.code == 429
            assert json.load(refused.value)["error"]["code"] == "TOO_MANY_TABLES"


def test_a_worker_stopped_on_purpose_gives_its_tables_up_at_once(
    tmp_path: Path, db_url: str
) -> None:
    """SIGTERM (a planned restart): the worker releases its leases, so the
    others take its tables long before a (here 60 s) lease would run out."""
    need("nginx", nginx_binary() is not None)
    worker_args = ("--lease-ttl", "60", "--bot-delay", "0", "--log-level", "warning")
    with Cluster(tmp_path / "cluster", workers=2, db_url=db_url, worker_args=worker_args) as c:
        base, ws_base = c.address, c.address.replace("http", "ws")

        async def scenario() -> float:
            table_id, humans = await table_with_people(base, ws_base, seed=5)
            owner = await table_owner(db_url, table_id)
            assert owner is not None
            stopped_at = time.monotonic()
            c.worker(owner).stop()
            url = f"{ws_base}/ws/{table_id}"
            for h in humans:
                await h.close()
            await asyncio.gather(*(seated(url, h, time.monotonic() + 20) for h in humans))
            back = time.monotonic() - stopped_at
            assert await table_owner(db_url, table_id) not in (None, owner)
            for h in humans:
                await h.close()
            return back

        back = asyncio.run(asyncio.wait_for(scenario(), 60))
        assert back < 20  # the lease (60 s) did not have to run out


def test_a_resting_tournament_table_stays_resting_when_its_worker_is_killed(
    tmp_path: Path, db_url: str
) -> None:
    """Issue 49, item 1, and issue 54, finding 3: a tournament made, entered
    and drawn through nginx; Anna never comes, so her table rests after the
    grace (a stored `rest` event, not a computer playing her list). The
    worker that runs it is SIGKILLed: the other worker adopts the table and
    it stays resting, nothing played, until Anna comes with her own link."""
    with two_workers(tmp_path / "cluster", db_url, ("--grace", "1")) as cluster:
        base = cluster.address
        made, _ = post(base, "/api/tournaments", {"name": "Cluster cup", "rounds": 1})
        tid = made["id"]
        entered, _ = post(base, f"/api/tournaments/{tid}/entrants", {"name": "Anna"})
        drawn, _ = post(base, f"/api/tournaments/{tid}/series", {"organiser": made["organiser"]})
        assert drawn == {"series": 1}

        def view(w: Worker) -> Any:
            status, _, data = unix_request(w.socket, "GET", f"/api/tournaments/{tid}", b"", {})
            assert status == 200, data
            return json.loads(data)

        deadline = time.monotonic() + 60
        while not (row := view(cluster.members[0])["series"][0]["tables"][0]).get("resting"):
            assert time.monotonic() < deadline, row
            time.sleep(0.2)
        table_id = row["id"]
        anna = [s["name"] for s in row["seats"]].index("Anna")
        rested = asyncio.run(_events(cluster.db_url or "", table_id))
        assert [k for _, k, _ in rested].count("rest") == 1
        assert not [p for _, k, p in rested if k == "act" and p["seat"] == anna]
        owner = asyncio.run(table_owner(cluster.db_url or "", table_id))
        (killed,) = [w for w in cluster.members if w.name == owner]
        (other,) = [w for w in cluster.members if w.name != owner]
        assert killed.pid is not None
        os.kill(killed.pid, signal.SIGKILL)
        deadline = time.monotonic() + 90
        while asyncio.run(table_owner(cluster.db_url or "", table_id)) != other.name:
            assert time.monotonic() < deadline, "the other worker never adopted the table"
            time.sleep(0.5)
        time.sleep(2.5)  # more than twice the grace: a woken table would have moved
        assert asyncio.run(_events(cluster.db_url or "", table_id)) == rested
        (row,) = view(other)["series"][0]["tables"]
        assert row["resting"] is True and row["status"] == "playing"
        info, _ = _get(base, f"/api/tables/{table_id}")
        assert info["table"]["resting"] is True

        async def anna_comes() -> dict[str, Any]:
            url = base.replace("http", "ws") + f"/ws/{table_id}"
            end = time.monotonic() + 30
            while True:  # a worker that does not serve the table sends her on
                with contextlib.suppress(ConnectionClosed, TimeoutError, OSError):
                    async with ws_connect(url, open_timeout=5) as ws:
                        await ws.send(
                            json.dumps({"type": "hello", "protocol": 2, "token": entered["token"]})
                        )
                        while True:
                            m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                            if m["type"] == "state":
                                return dict(m)
                assert time.monotonic() < end, "Anna never got her seat back"
                await asyncio.sleep(0.5)

        back = asyncio.run(anna_comes())
        assert back["table"]["resting"] is False and back["you"] == anna
        kinds = [k for _, k, _ in asyncio.run(_events(cluster.db_url or "", table_id))]
        assert kinds[len(rested)] == "wake"


#: More websockets than nginx's old 4,096 connections a process allowed in
#: all (two processes here, two connections a proxied websocket).
MANY_SOCKETS = 4_400


def test_the_proxy_carries_thousands_of_websockets_at_once(tmp_path: Path, db_url: str) -> None:
    """A club night's viewers through one proxy: 4,400 websockets to one
    table at once are all welcomed, and a person can still sit down and
    play beside them. Before, nginx's processes took 4,096 connections
    each, and a cluster seated no more than about 4,000 websockets (the
    load benchmark could not seat 1,500 tables of three)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < MANY_SOCKETS + 1024:
        pytest.skip(f"only {hard} open files allowed")
    # the workers and nginx inherit the limit: raised before they start
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, MANY_SOCKETS + 1024), hard))
    from websockets.asyncio.client import ClientConnection, connect

    async def scenario(base: str, ws_base: str) -> None:
        table, _ = post(base, "/api/tables", {"rounds": 1, "players": 3})
        url = f"{ws_base}/ws/{table['id']}"
        gate = asyncio.Semaphore(200)
        opened: list[ClientConnection] = []
        failed: list[str] = []

        async def viewer() -> None:
            async with gate:
                try:
                    ws = await connect(url, open_timeout=30)
                    opened.append(ws)
                    await ws.send(json.dumps({"type": "hello", "protocol": 2}))
                    while (m := json.loads(await asyncio.wait_for(ws.recv(), 30)))["type"] not in (
                        "welcome",
                        "error",
                    ):
                        pass
                    if m["type"] != "welcome":
                        failed.append(m.get("code", "?"))
                except Exception as e:
                    failed.append(type(e).__name__)

        try:
            await asyncio.gather(*(viewer() for _ in range(MANY_SOCKETS)))
            assert not failed, f"{len(failed)} not welcomed, e.g. {failed[:3]}"
            # beside them a person still sits down and is told the table's state
            h = Human("Anna", random.Random(5))
            await seated(url, h, time.monotonic() + 20)
            await h.sit()
            await h.close()
        finally:
            await asyncio.gather(*(ws.close() for ws in opened), return_exceptions=True)

    try:
        # every viewer here comes from one address (a club's come from many):
        # its limit of new connections lifted, the proxy's capacity measured
        lifted = ("--connect-burst", str(MANY_SOCKETS * 2))
        with two_workers(tmp_path / "cluster", db_url, lifted) as cluster:
            asyncio.run(scenario(cluster.address, cluster.address.replace("http", "ws")))
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
