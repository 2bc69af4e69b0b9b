#!/usr/bin/env python3
"""The floor under the server's CPU per accepted action: what the same
traffic costs a server that does nothing but carry it.

    .venv/bin/python -m bench.server.floor --tables 200 --pace 1 --seconds 20 --runs 3

`bench.server.action_cpu` measures `skat serve` at 200 tables: three seated
clients a table, a spectator at every second one, a move about every
``--pace`` seconds a table, each move sent to every viewer. This runs the
same traffic against a server with the same stack (uvicorn, uvloop, the
project's websocket frames of `skat.server.wsprotocol`, the same uvicorn
settings) and no table at all: a move is any text from the seat whose turn
it is, and the server answers every viewer of the table with a text of the
median event's size (``--size``, 213 B) that names the next seat. Variants:

- ``carry``: only that (frames in and out, the event loop, the kernel);
- ``store``: also the inbound text decoded (msgspec) and one row appended
  to a SQLite file in WAL mode with ``synchronous=NORMAL`` and committed,
  in the event loop, a thread checkpointing each second, as the project's
  store does (`sqlitewriter`).

The CPU is the server process's own (user + system, from /proc), divided
by the moves the generator sent in the window (every one is taken). The
difference to `action_cpu`'s figure is what the tables, the views and the
rest of `skat serve` cost; the floor itself is a bound that no table logic
written on this stack can go below.

Not a test: the figures depend on the machine (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.server.load import raise_nofile

CONNECT_PARALLEL = 50
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


# ------------------------------------------------------------------ server
@dataclass
class FloorTable:
    seats: dict[int, Callable[[str], bool]] = field(default_factory=dict)
    watchers: list[Callable[[str], bool]] = field(default_factory=list)
    turn: int = 0
    version: int = 0


class FloorApp:
    """An ASGI app: ``/t/TABLE/SEAT`` (0-2) or ``/t/TABLE/w`` (a spectator)."""

    def __init__(self, variant: str, size: int, db: str | None) -> None:
        import msgspec

        self.variant = variant
        self.size = size
        self.tables: dict[str, FloorTable] = {}
        self.decode = msgspec.json.decode
        self.db: sqlite3.Connection | None = None
        if db is not None:
            self.db = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS events (table_id TEXT, version INTEGER, "
                "kind TEXT, payload TEXT, at REAL, PRIMARY KEY (table_id, version))"
            )
            # as `sqlitewriter`: the event loop's commits never checkpoint (that
            # syncs the disk); a thread of its own does, every second
            self.db.execute("PRAGMA wal_autocheckpoint=0")
            threading.Thread(target=self.checkpoints, args=(db,), daemon=True).start()

    @staticmethod
    def checkpoints(db: str) -> None:
        conn = sqlite3.connect(db, isolation_level=None)
        while True:
            time.sleep(1.0)
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def event(self, table: FloorTable) -> str:
        head = f'{{"type":"event","version":{table.version},"turn":{table.turn},"pad":"'
        return head + "x" * max(0, self.size - len(head) - 2) + '"}'

    def move(self, table_id: str, table: FloorTable, text: str) -> None:
        if self.variant == "store":
            payload = self.decode(text)
            assert self.db is not None
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                (table_id, table.version + 1, "act", json.dumps(payload), time.time()),
            )
            self.db.execute("COMMIT")
        table.version += 1
        table.turn = (table.turn + 1) % 3
        out = self.event(table)
        for send_now in (*table.seats.values(), *table.watchers):
            send_now(out)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        from skat.server.wsprotocol import SEND_TEXT

        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["type"] != "websocket":
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"floor"})
            return
        _, _, table_id, role = scope["path"].split("/")
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        send_now: Callable[[str], bool] = scope["extensions"][SEND_TEXT]
        table = self.tables.setdefault(table_id, FloorTable())
        seat = None if role == "w" else int(role)
        if seat is None:
            table.watchers.append(send_now)
        else:
            table.seats[seat] = send_now
            if len(table.seats) == 3:
                send_now(self.event(table))  # everyone is here: the first turn
                for other in table.seats.values():
                    if other is not send_now:
                        other(self.event(table))
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                break
            if seat == table.turn and len(table.seats) == 3:
                self.move(table_id, table, message.get("text") or "")


def serve(args: argparse.Namespace) -> None:
    import uvicorn

    from skat.server.wsprotocol import WebSocketProtocol

    # the settings of `skat serve` (cli/serve.py)
    uvicorn.run(
        FloorApp(args.variant, args.size, args.db),
        host="127.0.0.1",
        port=args.port,
        log_level="warning",
        ws=WebSocketProtocol,
        ws_max_size=65536,
        ws_per_message_deflate=False,
        ws_ping_interval=20.0,
        loop="uvloop",
    )


# --------------------------------------------------------------- generator
@dataclass
class Counter:
    moves: list[float] = field(default_factory=list)  # when each was sent


async def client(
    url: str, seat: int | None, pace: float, counter: Counter, gate: asyncio.Semaphore
) -> None:
    from websockets.asyncio.client import connect

    rng = random.Random()
    async with gate:  # so many connections at once: a few at a time
        ws = await connect(url, max_size=2**20, compression=None, open_timeout=60)
    async with ws:
        async for text in ws:
            message = json.loads(text)
            if seat is not None and message["turn"] == seat:
                await asyncio.sleep(pace * rng.uniform(0.5, 1.5))
                counter.moves.append(time.perf_counter())
                version = message["version"]
                await ws.send(
                    f'{{"type":"act","version":{version},"action":{{"type":"card","card":"CJ"}}}}'
                )


def cpu_seconds(pid: int) -> tuple[float, float]:
    """The process's CPU seconds (user + system, all threads) and the system part."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick, int(fields[12]) / tick


async def drive(args: argparse.Namespace, variant: str) -> tuple[float, float, int, float]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tempfile.TemporaryDirectory(prefix="skat-floor-") as tmp:
        cmd = [sys.executable, "-m", "bench.server.floor", "serve", "--port", str(port)]
        cmd += ["--variant", variant, "--size", str(args.size)]
        if variant == "store":
            cmd += ["--db", str(Path(tmp) / "floor.db")]
        proc = subprocess.Popen(cmd)
        start = time.monotonic()
        try:
            for _ in range(200):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    await asyncio.sleep(0.05)
            counter = Counter()
            gate = asyncio.Semaphore(CONNECT_PARALLEL)
            tasks = []
            for t in range(args.tables):
                base = f"ws://127.0.0.1:{port}/t/{t}/"
                roles: list[int | None] = [0, 1, 2]
                if args.spectated > 0 and t % args.spectated == 0:
                    roles.append(None)
                for seat in roles:
                    url = base + ("w" if seat is None else str(seat))
                    tasks.append(asyncio.create_task(client(url, seat, args.pace, counter, gate)))
            while len(counter.moves) < args.tables and time.monotonic() < start + 120:
                await asyncio.sleep(0.5)  # every table has started (or two minutes)
            await asyncio.sleep(args.warmup)
            (cpu0, sys0), t0 = cpu_seconds(proc.pid), time.perf_counter()
            await asyncio.sleep(args.seconds)
            (cpu1, sys1), t1 = cpu_seconds(proc.pid), time.perf_counter()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            moves = sum(1 for at in counter.moves if t0 <= at < t1)
            return cpu1 - cpu0, sys1 - sys0, moves, t1 - t0
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command")
    srv = sub.add_parser("serve", help="the floor server itself (run by the generator)")
    srv.add_argument("--port", type=int, required=True)
    srv.add_argument("--variant", choices=["carry", "store"], default="carry")
    srv.add_argument("--size", type=int, default=213)
    srv.add_argument("--db")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--pace", type=float, default=1.0, help="mean seconds per move")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--runs", type=int, default=3, help="runs of each variant, alternated")
    parser.add_argument("--spectated", type=int, default=2, help="a spectator every n-th table")
    parser.add_argument("--size", type=int, default=213, help="bytes of each event sent")
    parser.add_argument("--variants", default="carry,store")
    args = parser.parse_args(argv)
    raise_nofile(8 * args.tables + 1000)  # the server inherits it
    if args.command == "serve":
        serve(args)
        return
    results: dict[str, list[float]] = {}
    for run in range(args.runs):
        for variant in args.variants.split(","):
            cpu, kernel, moves, seconds = asyncio.run(drive(args, variant))
            ms = 1000 * cpu / moves if moves else float("nan")
            results.setdefault(variant, []).append(ms)
            print(
                f"{variant} run {run + 1}: {ms:.3f} ms server CPU a move ({moves} moves in "
                f"{seconds:.1f} s, server {cpu / seconds:.0%} of a core, "
                f"kernel {kernel / cpu:.0%}); "
                f"load average {os.getloadavg()[0]:.2f}",
                flush=True,
            )
    for variant, values in results.items():
        print(
            f"{variant}: median {statistics.median(values):.3f} ms a move "
            f"({', '.join(f'{v:.3f}' for v in values)})"
        )


if __name__ == "__main__":
    main()
