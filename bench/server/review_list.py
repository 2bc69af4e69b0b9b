#!/usr/bin/env python3
"""How long the review of a whole list takes at the real server, and what
it costs the people at other tables (issue 48's goal, docs/benchmarks.md).

    .venv/bin/python -m bench.server.review_list --deals 36 --human-tables 1

A `skat serve` (bench/server/load.py's `Server`: a subprocess, a temporary
SQLite file, ``--bot-delay 0``) with one table of ``--deals`` deals: a
person (a websocket client playing ordinary games, load.py's `choose`)
and two ``--bot`` computer players, played to its end. Then
``--human-tables`` tables of three people (load.py's clients at
``--pace``) start, and the person asks for the list's review (``POST
/api/tables/ID/review`` with the seat token) again as soon as an answer
says ``complete`` false, until it is complete. Printed: the time from the
last deal to the complete review, the deals and decisions reviewed, the
server's CPU meanwhile (its processes', the review's, included), and the
people's latency during it (from ``act`` until each of the three
receives the event: p50, p99, max) against the
same tables' latency before the review (``--quiet`` seconds), with the
load average at the start and the end (the machine may be shared).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from bench.server.cluster_attack import post
from bench.server.flood import CpuMeter
from bench.server.load import Client, Server, Stats, Table, choose, pct
from skat.server.messages import ViewKeeper


async def play_list(server: Server, deals: int, bot: str) -> tuple[str, str]:
    """A person's list against two computers, to its end: (table, token)."""
    made = post(server.http, "/api/tables", {"players": 3, "deals": deals, "bot": bot}, 120)
    tid, creator = str(made["id"]), str(made["creator"])
    rng = random.Random(1)
    token = ""
    async with connect(f"ws://127.0.0.1:{server.port}/ws/{tid}", max_size=2**22) as ws:
        await ws.send('{"type":"hello","protocol":2}')
        await ws.send(json.dumps({"type": "sit", "name": "Anna"}))
        acted = -1
        last: dict[str, Any] | None = None
        keeper = ViewKeeper()
        while True:
            m = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if m["type"] == "error" and last is not None:  # RATE_LIMITED: once more
                await asyncio.sleep(1.0)
                m, acted = last, -1
            if m["type"] == "seated":
                token = m["token"]
                await ws.send(json.dumps({"type": "fill", "creator": creator}))
            state = m.get("state") if m["type"] == "event" else m if m["type"] == "state" else None
            if state is not None and state.get("list_over"):
                return tid, token
            keeper.note(m)
            view = keeper.view if m["type"] in ("event", "state") else None
            if view is None:
                continue
            last = m
            if view["phase"] == "done" and m["version"] != acted:
                acted = m["version"]
                await asyncio.sleep(0.11)  # the connection's allowance: 10 messages a second
                await ws.send('{"type":"next"}')
            elif view["turn"] == 0 and view["legal"] and m["version"] != acted:
                acted = m["version"]
                action = choose(view, rng)
                await asyncio.sleep(0.11)
                await ws.send(json.dumps({"type": "act", "action": action, "version": acted}))


def latency(stats: Stats, t0: float, t1: float) -> str:
    xs = [lat for at, lat in stats.samples if t0 <= at < t1]
    if not xs:
        return "no samples"
    return (
        f"{len(xs)} events: p50 {1000 * pct(xs, 0.5):.1f} ms, p99 {1000 * pct(xs, 0.99):.1f} ms,"
        f" max {1000 * max(xs):.1f} ms"
    )


async def run(args: argparse.Namespace, server: Server) -> dict[str, Any]:
    started = time.monotonic()
    tid, token = await play_list(server, args.deals, args.bot)
    played = time.monotonic() - started
    stats = Stats()
    tables = []
    gate = asyncio.Semaphore(8)
    clients: list[Client] = []
    for _ in range(args.human_tables):
        made = server.create_table()
        table = Table(str(made["id"]))
        tables.append(table)
        url = f"ws://127.0.0.1:{server.port}/ws/{table.id}"
        clients += [Client(table, url, f"p{i}", args.pace, stats, True) for i in range(3)]
    await asyncio.gather(*(c.open(gate) for c in clients))
    tasks = [asyncio.create_task(c.run()) for c in clients]
    quiet0 = time.perf_counter()
    await asyncio.sleep(args.quiet)
    quiet1 = time.perf_counter()
    load0 = os.getloadavg()
    meter = CpuMeter(server.proc.pid)  # the server and its processes (the review's)
    cpu0 = meter.seconds()
    t0 = time.perf_counter()
    asks = 0
    loop = asyncio.get_running_loop()
    while True:
        asks += 1
        got = await loop.run_in_executor(
            None, post, server.http, f"/api/tables/{tid}/review", {"token": token}, 120
        )
        if got["complete"]:
            break
    t1 = time.perf_counter()
    cpu = meter.seconds() - cpu0
    load1 = os.getloadavg()
    for t in tasks:
        t.cancel()
    out = {
        "deals": got["settled"],
        "decisions": got["decisions"],
        "seconds": round(t1 - t0, 1),
        "asks": asks,
        "server_cpu": round(cpu, 1),
        "list_played_seconds": round(played, 1),
        "promised": got["promised"],
        "made": got["made"],
        "play": got["play"],
        "verdicts": got["verdicts"],
    }
    print(
        f"review of a {got['settled']}-deal list: {out['seconds']} s ({asks} asks),"
        f" {got['decisions']} decisions, server CPU {cpu:.1f} s"
        f" ({1000 * cpu / max(1, got['decisions']):.0f} ms a decision)"
    )
    print(
        f"the list: promised {got['promised']:+.0f}, made {got['made']:+d}, play {got['play']:+.0f}"
    )
    print(f"people beside it, before: {latency(stats, quiet0, quiet1)}")
    print(f"people beside it, during: {latency(stats, t0, t1)}")
    print(f"load average: {load0[0]:.2f} at the start, {load1[0]:.2f} at the end")
    print(json.dumps(out))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=36)
    parser.add_argument("--bot", default="heuristic", help="the two computer players")
    parser.add_argument("--human-tables", type=int, default=1)
    parser.add_argument("--pace", type=float, default=0.3, help="seconds a person thinks")
    parser.add_argument("--quiet", type=float, default=10.0, help="seconds measured before")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp), next_delay=0.0)
        try:
            asyncio.run(run(args, server))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
