#!/usr/bin/env python3
"""Acknowledged moves through a cluster's failures: none lost, changed or doubled.

    .venv/bin/python -m bench.server.cluster_attack --tables 12 --settle 8

Starts a real cluster (`skat.server.cluster`: two `skat serve` workers behind
nginx on a durable PostgreSQL of its own), and ``--tables`` tables of one
person and two casual computer players, every person a client through the
proxy that plays a legal move 0.1-0.4 s after its turn comes and
reconnects (every 0.3 s, with its seat token and last version) when its
connection ends or stays silent past its ping timeout (as the page does).
Then, ``--settle`` seconds apart:

1. worker w1 is SIGKILLed (and started again ``--settle`` seconds later);
2. worker w2 is SIGSTOPped for ``--stop-seconds`` (longer than the lease),
   then continued;
3. PostgreSQL is stopped for ``--db-seconds``, then started again.

Each person records every move of theirs that the server acknowledged (the
table's event of it, with its version). At the end the store's events are
read: an acknowledged move is *lost* if its version is not stored,
*changed* if another move is stored there, and *doubled* if a card is
stored as played twice in a deal or the versions of a table have a gap.
Printed: the moves acknowledged in each phase and the three counts.

Not a test: the figures depend on the machine (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus, WebSocketException

from bench.server.load import free_port
from skat.server.cluster import Cluster
from skat.server.messages import ViewKeeper
from skat.server.services import Postgres
from skat.server.store import Store

WORKER_ARGS = (
    "--bot-delay", "0", "--next-delay", "0.5", "--solo-next", "countdown",
    "--log-level", "warning",
    # one generator address (nginx forwards 127.0.0.1) makes every table
    "--tables-per-address", "1000000", "--open-tables-per-address", "1000000",
    "--connect-burst", "1000000",
)  # fmt: skip


def post(base: str, path: str, body: dict[str, Any], timeout: float = 10) -> dict[str, Any]:
    """A JSON POST to the server at ``base``; its JSON answer."""
    req = urllib.request.Request(
        f"{base}{path}",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return dict(json.load(r))


class Person:
    """One person through the proxy: plays, reconnects, notes what was acknowledged."""

    def __init__(self, url: str, rng: random.Random) -> None:
        self.url, self.rng = url, rng
        self.token: str | None = None
        self.seat: int | None = None
        self.ws: ClientConnection | None = None
        self.version = 0
        self.acked: dict[int, str] = {}  # version -> action, as acknowledged
        self.changed_on_wire = 0  # one version acknowledged as two actions
        self.acked_at: list[float] = []
        self.reconnects = 0
        self.keeper = ViewKeeper()  # the view, each event's changes applied

    async def join(self, creator: str | None = None) -> None:
        while True:
            with contextlib.suppress(Exception):
                if self.ws is not None:
                    await self.ws.close()
            try:
                self.ws = await connect(self.url, open_timeout=5, ping_interval=1.5,
                                        ping_timeout=3, max_size=2**22)  # fmt: skip
                hello: dict[str, Any] = {
                    "type": "hello",
                    "protocol": 2,
                    "last_version": self.version,
                }
                if self.token:
                    hello["token"] = self.token
                await self.ws.send(json.dumps(hello))
                while True:
                    m = json.loads(await asyncio.wait_for(self.ws.recv(), 5))
                    self.note(m)
                    if m["type"] == "welcome":
                        break
                    if m["type"] == "error":
                        raise ConnectionError(m.get("code"))
                break
            except (OSError, ConnectionClosed, InvalidStatus, TimeoutError, ConnectionError):
                pass
            await asyncio.sleep(0.3)
        if self.token is None:
            await self.ws.send(json.dumps({"type": "sit", "name": "Anna"}))
            while self.token is None:
                m = json.loads(await self.ws.recv())
                if m["type"] == "seated":
                    self.token, self.seat = m["token"], m["seat"]
            await self.ws.send(json.dumps({"type": "fill", "creator": creator}))

    def note(self, m: dict[str, Any]) -> dict[str, Any] | None:
        """Records an acknowledgement; the view to act on, if any."""
        if isinstance(m.get("version"), int):
            self.version = max(self.version, m["version"])
        if m.get("type") == "event":
            event = m.get("event") or {}
            if event.get("kind") == "act" and event.get("seat") == self.seat:
                action = str(event.get("action"))
                before = self.acked.setdefault(int(m["version"]), action)
                if before != action:
                    self.changed_on_wire += 1
                self.acked_at.append(time.monotonic())
        if m.get("type") not in ("event", "state") or not self.keeper.note(m):
            return None
        return self.keeper.view

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            assert self.ws is not None
            try:
                m = json.loads(await asyncio.wait_for(self.ws.recv(), 0.5))
            except TimeoutError:
                continue
            except (ConnectionClosed, WebSocketException):
                self.reconnects += 1
                await self.join()
                continue
            view = self.note(m)
            if m.get("replayed"):
                continue
            if view and view.get("turn") == self.seat and view.get("legal"):
                await asyncio.sleep(self.rng.uniform(0.1, 0.4))
                action = self.rng.choice(view["legal"])
                with contextlib.suppress(ConnectionClosed, WebSocketException):
                    await self.ws.send(
                        json.dumps({"type": "act", "action": action, "version": m["version"]})
                    )


async def check(db_url: str, people: dict[str, Person]) -> dict[str, int]:
    store = Store(db_url, worker="bench")
    lost = changed = doubled = acked = 0
    try:
        for table, p in people.items():
            events = await store.events(table)
            stored = {e.version: e for e in events}
            versions = [e.version for e in events]
            if versions != list(range(versions[0], versions[0] + len(versions))):
                doubled += 1
            plays: Counter[tuple[int, str]] = Counter()  # (deal, card) -> times stored
            deal = 0
            for e in events:
                if e.kind in ("start", "next"):
                    deal += 1
                action = str(e.payload.get("action", ""))
                if e.kind == "act" and action.startswith("play "):
                    plays[(deal, action)] += 1
            doubled += sum(n - 1 for n in plays.values() if n > 1)
            for version, action in p.acked.items():
                acked += 1
                got = stored.get(version)
                if got is None:
                    lost += 1
                elif got.kind != "act" or str(got.payload.get("action")) != action:
                    changed += 1
    finally:
        await store.close()
    return {"acknowledged": acked, "lost": lost, "changed": changed, "doubled": doubled}


async def scenario(
    cluster: Cluster, pg: Postgres, url: str, args: argparse.Namespace
) -> dict[str, Any]:
    base = cluster.address
    ws_base = base.replace("http", "ws")
    people: dict[str, Person] = {}
    for i in range(args.tables):
        made = post(base, "/api/tables", {"rounds": 12, "players": 3})
        p = Person(f"{ws_base}/ws/{made['id']}", random.Random(i))
        await p.join(made["creator"])
        people[made["id"]] = p
    stop = asyncio.Event()
    tasks = [asyncio.create_task(p.play(stop)) for p in people.values()]
    marks: list[tuple[str, float]] = [("start", time.monotonic())]
    loop = asyncio.get_running_loop()
    await asyncio.sleep(args.settle)
    w1, w2 = cluster.worker("w1"), cluster.worker("w2")
    marks.append(("SIGKILL w1", time.monotonic()))
    w1.kill()
    await asyncio.sleep(args.settle)
    w1.stop()  # its log
    await loop.run_in_executor(None, w1.start)
    await loop.run_in_executor(None, w1.wait_ready)
    await asyncio.sleep(args.settle)
    marks.append(("SIGSTOP w2", time.monotonic()))
    assert w2.pid is not None
    os.kill(w2.pid, signal.SIGSTOP)
    await asyncio.sleep(args.stop_seconds)
    os.kill(w2.pid, signal.SIGCONT)
    await asyncio.sleep(args.settle)
    marks.append(("PostgreSQL stopped", time.monotonic()))
    await loop.run_in_executor(None, pg.stop)
    await asyncio.sleep(args.db_seconds)
    await loop.run_in_executor(None, pg.start)
    await asyncio.sleep(args.settle * 2)
    marks.append(("end", time.monotonic()))
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    for p in people.values():
        if p.ws is not None:
            with contextlib.suppress(Exception):
                await p.ws.close()
    await asyncio.sleep(1.0)
    found = await check(url, people)
    phases = {}
    for (name, t0), (_, t1) in pairwise(marks):
        phases[name] = sum(1 for p in people.values() for at in p.acked_at if t0 <= at < t1)
    return {
        **found,
        "changed_on_the_wire": sum(p.changed_on_wire for p in people.values()),
        "acknowledged_by_phase": phases,
        "reconnects": sum(p.reconnects for p in people.values()),
        "tables": len(people),
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--lease-ttl", type=float, default=5.0)
    parser.add_argument("--settle", type=float, default=8.0, help="seconds between failures")
    parser.add_argument("--stop-seconds", type=float, default=12.0, help="w2 SIGSTOPped")
    parser.add_argument("--db-seconds", type=float, default=6.0, help="PostgreSQL stopped")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="skat-pg-attack-", dir="/tmp"))
    pg = Postgres(folder, port=free_port())  # durable, as in production
    try:
        pg.start()
        url = pg.create_database("attack")
        with tempfile.TemporaryDirectory(prefix="skat-cluster-attack-") as tmp:
            worker_args = ("--lease-ttl", str(args.lease_ttl), *WORKER_ARGS)
            cluster = Cluster(Path(tmp), workers=2, db_url=url, worker_args=worker_args)
            cluster.start()
            try:
                out = asyncio.run(scenario(cluster, pg, url, args))
            finally:
                for w in cluster.members:
                    if w.pid is not None:
                        with contextlib.suppress(ProcessLookupError):
                            os.kill(w.pid, signal.SIGCONT)
                cluster.stop()
    finally:
        pg.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print(
        f"acknowledged moves: {out['acknowledged']} over {out['tables']} tables "
        f"(by phase: {out['acknowledged_by_phase']}); lost {out['lost']}, changed "
        f"{out['changed']}, doubled {out['doubled']}; one version acknowledged as two "
        f"moves: {out['changed_on_the_wire']}; reconnects {out['reconnects']}"
    )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
