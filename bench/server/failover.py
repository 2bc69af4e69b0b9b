#!/usr/bin/env python3
"""Failover time of a cluster: how long after a worker is SIGKILLed its
tables' players are back at their seats and their moves are accepted.

    .venv/bin/python -m bench.server.failover --tables 20 --lease-ttl 5

Starts a real cluster (`skat.server.cluster`: PostgreSQL, two workers,
nginx), opens ``--tables`` tables each with one human client (through the
proxy) and two computer players, lets every table play a few moves, then
SIGKILLs worker w1. Every client of a table w1 owned reconnects through the
proxy (every 0.3 s, as the page does after a 4503 close) until a worker
welcomes it at its seat and accepts its next move. Printed per run: the
tables moved, and the median and maximum of (first accepted move after the
kill - kill time). Not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from bench.server.cluster_attack import Person, post
from skat.server.cluster import Cluster
from skat.server.services import Postgres
from skat.server.store import Store


async def scenario(cluster: Cluster, db_url: str, tables: int, settle: float) -> list[float]:
    base = cluster.address
    ws_base = base.replace("http", "ws")
    players: dict[str, Person] = {}
    for i in range(tables):
        made = post(base, "/api/tables", {"rounds": 12, "players": 3})
        p = Person(f"{ws_base}/ws/{made['id']}", random.Random(i))
        await p.join(made["creator"])
        players[made["id"]] = p
    stop = asyncio.Event()
    tasks = [asyncio.create_task(p.play(stop)) for p in players.values()]
    await asyncio.sleep(settle)
    store = Store(db_url, worker="bench")
    owners = {t: o for t, (o, _) in (await store.owners()).items() if t in players}
    victim = cluster.worker("w1")
    moved = [t for t, o in owners.items() if o == "w1"]
    killed_at = time.monotonic()
    victim.kill()
    deadline = killed_at + 120
    times: dict[str, float] = {}
    while len(times) < len(moved) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
        for t in moved:
            after = [a for a in players[t].acked_at if a > killed_at]
            if t not in times and after:
                times[t] = after[0] - killed_at
    stop.set()
    for task in tasks:
        task.cancel()
    await store.close()
    if len(times) < len(moved):
        print(f"warning: {len(moved) - len(times)} tables did not come back", file=sys.stderr)
    return sorted(times.values())


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--lease-ttl", type=float, default=5.0)
    parser.add_argument("--settle", type=float, default=5.0, help="seconds of play before")
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args(argv)
    for run in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="skat-failover-") as tmp, Postgres() as pg:
            pg.create_database("failover")
            url = pg.url("failover")
            worker_args = ["--lease-ttl", str(args.lease_ttl), "--bot-delay", "0",
                           "--next-delay", "0.5", "--log-level", "warning"]  # fmt: skip
            with Cluster(Path(tmp), workers=2, db_url=url, worker_args=worker_args) as cluster:
                times = asyncio.run(scenario(cluster, url, args.tables, args.settle))
        if times:
            print(
                f"run {run + 1}: lease {args.lease_ttl:g} s, {len(times)} tables moved; "
                f"first accepted move after the kill: median {statistics.median(times):.2f} s, "
                f"max {max(times):.2f} s"
            )


if __name__ == "__main__":
    main()
