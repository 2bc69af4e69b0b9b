#!/usr/bin/env python3
"""Load on the online server: many tables of human clients at human pace.

    .venv/bin/python -m bench.server.load --tables 200 --seconds 30
    .venv/bin/python -m bench.server.load --ramp --tables 100 --step 100 --max-tables 1500

Starts the real server (`skat serve` in a subprocess on 127.0.0.1, a
temporary SQLite database, ``--bot-delay 0 --next-delay 1``) and, in this
process, three websocket clients per table (no computer players). When it is
a client's turn it waits ``--pace`` seconds (± 50 %) and sends a legal
action, so each table makes about one action every ``--pace`` seconds.

Latency is measured from the moment a client sends ``act`` (with version V)
until each of the table's three clients receives the event with version V+1;
every viewer gives one sample. Printed: p50/p99/max latency, acknowledged
actions per second, the CPU used by the server and by this generator, and
the generator's own event-loop lag (if that is high, the figures measure
the generator, not the server). With ``--ramp`` the number of tables grows
by ``--step`` until p99 reaches ``--target-ms`` or ``--max-tables``.
``--strong-tables N`` adds N tables of three strong computer players
(``level: strong``, searching in the server's worker processes without
pause), so that the human tables' latency is measured while they think.
``--strong-people`` makes every table one person at ``--pace`` and two
strong computer players (issue 30: how many such tables one core carries
with every decision in its budget): printed beside the person's latency,
the decisions that fell back to `heuristic` and the search processes'
counts from ``/healthz``. ``--level casual`` makes those computer players
(of both options) the casual level's instead: how many tables of a
person and two casual players a core carries. ``--workers N`` puts a
cluster of N workers behind nginx in place of the one server (on SQLite,
or on PostgreSQL with ``--store postgres``); ``--store postgres`` without
``--workers`` is one server on PostgreSQL with no proxy, the direct path
the proxy's is compared with.

Not a test: the figures depend on the machine (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from skat.server.messages import ViewKeeper

ROUNDS = 12  # a long list: tables never finish during a run
CONNECT_PARALLEL = 50
CREATE_PARALLEL = 8


# --------------------------------------------------------------------- server
def raise_nofile(want: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < want:
        target = want if hard == resource.RLIM_INFINITY else min(want, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def create_table(http: str, **extra: Any) -> dict[str, Any]:
    """A new long list (`ROUNDS`) at the server or proxy at ``http``."""
    req = urllib.request.Request(
        f"{http}/api/tables",
        data=json.dumps({"rounds": ROUNDS, "players": 3, **extra}).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return dict(json.load(r))


def server_args(args: argparse.Namespace) -> list[str]:
    """`skat serve` options of a cluster's workers (as `Server` sets them)."""
    return [
        "--bot-delay", "0", "--next-delay", str(args.next_delay), "--log-level", "warning",
        "--tables-per-address", "1000000", "--max-open-tables", "1000000",
        "--open-tables-per-address", "1000000", "--strong-tables-per-address", "1000000",
        *newer_limits(None),
    ]  # fmt: skip


#: Limits of newer trees that one generator on one address must lift too.
NEWER_LIMITS = ("--tournament-tables", "--connect-burst")


def newer_limits(env: dict[str, str] | None) -> list[str]:
    """`NEWER_LIMITS` lifted, those that the tree the server runs (``env``:
    its PYTHONPATH) knows: an older tree refuses options it lacks."""
    usage = subprocess.run(
        [sys.executable, "-m", "skat.cli", "serve", "--help"],
        env=env,
        capture_output=True,
        text=True,
    ).stdout
    return [x for option in NEWER_LIMITS if option in usage for x in (option, "1000000")]


def spawn_server(
    cmd: list[str], log: Path, http: str, env: dict[str, str] | None
) -> subprocess.Popen[bytes]:
    """Start a server process writing to ``log`` and wait (30 s at most) until
    ``/healthz`` answers ok; a server that exits or never answers ends the
    benchmark with its log's tail."""
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited:\n{log.read_text()[-2000:]}")
        with contextlib.suppress(OSError, ValueError):
            with urllib.request.urlopen(f"{http}/healthz", timeout=1) as r:
                if json.load(r).get("ok"):
                    return proc
        time.sleep(0.1)
    proc.kill()
    proc.wait()
    raise SystemExit("the server did not start")


class Server:
    """`skat serve` in a subprocess on a fresh SQLite file, or on the
    database at ``db_url`` (``env``: its environment, for example another
    source tree on PYTHONPATH)."""

    def __init__(
        self,
        folder: Path,
        next_delay: float,
        db: str = "load.db",
        env: dict[str, str] | None = None,
        flags: Sequence[str] = (),
        db_url: str | None = None,
    ) -> None:
        self.port = free_port()
        self.log = folder / "server.log"
        self.db = folder / db
        cmd = [
            sys.executable, "-m", "skat.cli", "serve",
            "--host", "127.0.0.1", "--port", str(self.port),
            "--db", db_url or f"sqlite+aiosqlite:///{self.db}",
            "--bot-delay", "0", "--next-delay", str(next_delay),
            "--log-level", "warning",
            # one generator on one address makes every table: lift the limits
            "--tables-per-address", "1000000", "--max-open-tables", "1000000",
            "--open-tables-per-address", "1000000", "--strong-tables-per-address", "1000000",
            *newer_limits(env),
            *flags,
        ]  # fmt: skip
        self.proc = spawn_server(cmd, self.log, self.http, env)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def create_table(self, **extra: Any) -> dict[str, Any]:
        return create_table(self.http, **extra)

    def fallbacks(self) -> Counter[str]:
        """Computer decisions that fell back to `heuristic` so far, by phase
        (the server logs each one: a search late or failed, or out of time
        in its first world)."""
        text = self.log.read_text(errors="replace")
        return Counter(
            m.group(1) or "?"  # a server before the phases were logged
            for m in re.finditer(
                r"(?:failed|fell back)(?: in (\w+))? \([^\n]*\); heuristic instead", text
            )
        )

    def searches(self) -> Any:
        """The search processes' counts of `/healthz` (restarts, late, waiting)."""
        with urllib.request.urlopen(f"{self.http}/healthz", timeout=5) as r:
            return json.load(r).get("search")

    def cpu_seconds(self) -> float:
        """User + system CPU time of the server process (Linux /proc)."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return float("nan")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)


# --------------------------------------------------------------------- clients
@dataclass
class Stats:
    samples: list[tuple[float, float]] = field(default_factory=list)  # (sent at, latency)
    acks: list[float] = field(default_factory=list)  # sent at, per acknowledged act
    sent: list[float] = field(default_factory=list)  # sent at, per act
    errors: Counter[str] = field(default_factory=Counter)
    lag: list[tuple[float, float]] = field(default_factory=list)  # (at, loop lag)


@dataclass
class Pending:
    sent_at: float
    seat: int
    left: int = 3  # viewers still to receive the event


class Table:
    def __init__(self, table_id: str) -> None:
        self.id = table_id
        self.pending: dict[int, Pending] = {}  # resulting version -> act in flight
        self.seated = 0
        self.viewers = 3  # connections that receive each event (spectators too)


def choose(view: dict[str, Any], rng: random.Random) -> str:
    """A legal action that keeps deals ordinary: bid 18 once, pick up, suit games."""
    legal: list[str] = view["legal"]
    if view["phase"] == "bidding":
        if "bid 18" in legal:
            return "bid 18"
        return "pass" if "pass" in legal else legal[0]
    if "pickup" in legal:
        return "pickup"
    if view["phase"] == "declare":
        plain = [a for a in legal if "null" not in a and len(a.split()) == 2]
        if plain:
            return rng.choice(plain)
    return rng.choice(legal)


_decode = msgspec.json.Decoder().decode


class Client:
    def __init__(
        self,
        table: Table,
        url: str,
        name: str,
        pace: float,
        stats: Stats,
        compression: bool,
        sit: bool = True,
    ) -> None:
        self.table = table
        self.url = url
        self.name = name
        self.pace = pace
        self.stats = stats
        self.compression = compression
        self.sit = sit  # False: a spectator, who only watches
        self.rng = random.Random()
        self.ws: ClientConnection | None = None
        self.seat: int | None = None
        self.version = -1  # of the last view
        self.planned = -1  # the version an act is planned or sent for
        self.view: dict[str, Any] | None = None
        self.keeper = ViewKeeper()  # the view, each event's changes applied
        self.welcomed = False
        # sends in flight: the loop keeps only weak references to tasks, and
        # the generator cancels what is left when it stops (``stopped``: a
        # move whose timer fires after that is not sent)
        self.sending: set[asyncio.Task[None]] = set()
        self.stopped = False

    async def open(self, gate: asyncio.Semaphore) -> None:
        async with gate:
            self.ws = await connect(
                self.url,
                open_timeout=30,
                max_size=2**20,
                compression="deflate" if self.compression else None,
            )
            await self.ws.send('{"type":"hello","protocol":2}')
            if self.sit:
                await self.ws.send(json.dumps({"type": "sit", "name": self.name}))

    async def run(self) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                self._on(_decode(raw))
        except (ConnectionClosed, WebSocketException):
            pass

    def _on(self, m: dict[str, Any]) -> None:
        now = time.perf_counter()
        t = m.get("type")
        if t == "welcome":
            self.welcomed = True
        elif t == "error" and not self.welcomed and self.ws is not None:
            # a server from before protocol 2 (``--compare`` with an older
            # tree) refuses the hello's `protocol`: greet it as it expects
            if m.get("code") == "BAD_MESSAGE" and "protocol" in str(m.get("message")):
                again = ['{"type":"hello"}']
                if self.sit:
                    again.append(json.dumps({"type": "sit", "name": self.name}))
                self._spawn(self._send_all(again))
            return
        if t == "event":
            p = self.table.pending.get(m["version"])
            if p is not None:
                self.stats.samples.append((p.sent_at, now - p.sent_at))
                if p.seat == self.seat:
                    self.stats.acks.append(p.sent_at)
                p.left -= 1
                if p.left == 0:
                    del self.table.pending[m["version"]]
        elif t == "seated":
            self.seat = m["seat"]
            self.table.seated += 1
            return
        elif t == "error":
            self.stats.errors[m.get("code", "?")] += 1
            return
        if t not in ("event", "state") or not self.keeper.note(m):
            return
        view = self.keeper.view
        if view is None:
            return
        self.view, self.version = view, m["version"]
        if self.seat is None:
            return  # a spectator never acts
        if view["turn"] == self.seat and view["legal"] and self.planned != self.version:
            self.planned = self.version
            delay = self.pace * self.rng.uniform(0.5, 1.5)
            asyncio.get_running_loop().call_later(delay, self._act, self.version)

    async def _send_all(self, texts: list[str]) -> None:
        for text in texts:
            await self._send(text)

    def _act(self, version: int) -> None:
        if self.stopped or self.version != version or self.view is None or self.ws is None:
            return  # the table moved on, or the generator stops
        action = choose(self.view, self.rng)
        self.table.pending[version + 1] = Pending(
            time.perf_counter(), self.seat or 0, self.table.viewers
        )
        self.stats.sent.append(time.perf_counter())
        msg = json.dumps({"type": "act", "action": action, "version": version})
        self._spawn(self._send(msg))

    def _spawn(self, send: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(send)
        self.sending.add(task)
        task.add_done_callback(self.sending.discard)

    async def _send(self, msg: str) -> None:
        assert self.ws is not None
        with contextlib.suppress(ConnectionClosed, WebSocketException):
            await self.ws.send(msg)


def machine_busy_seconds() -> float:
    """CPU seconds spent busy by the whole machine, all cores (Linux /proc/stat)."""
    try:
        ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


async def lag_monitor(stats: Stats, period: float = 0.05) -> None:
    """How late the generator's own event loop wakes up."""
    loop = asyncio.get_running_loop()
    while True:
        t = loop.time()
        await asyncio.sleep(period)
        stats.lag.append((time.perf_counter(), loop.time() - t - period))


# ------------------------------------------------------------------ measuring
def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


@dataclass
class Result:
    tables: int
    seconds: float
    actions_per_s: float
    sent_per_s: float
    p50: float
    p99: float
    max: float
    samples: int
    server_cpu: float
    gen_cpu: float
    gen_lag_p99: float
    other_cpu: float
    errors: dict[str, int]

    def line(self) -> str:
        return (
            f"tables: {self.tables}, actions/s: {self.actions_per_s:.1f} "
            f"(sent {self.sent_per_s:.1f}/s), "
            f"p50: {self.p50 * 1000:.1f} ms, p99: {self.p99 * 1000:.1f} ms, "
            f"max: {self.max * 1000:.1f} ms, samples: {self.samples}, "
            f"server cpu: {self.server_cpu:.0%}, generator cpu: {self.gen_cpu:.0%}, "
            f"generator lag p99: {self.gen_lag_p99 * 1000:.1f} ms, "
            f"other processes cpu: {self.other_cpu:.0%}"
            + (f", errors: {self.errors}" if self.errors else "")
        )


class Load:
    def __init__(self, server: Server, args: argparse.Namespace, stats: Stats) -> None:
        self.server = server
        self.args = args
        self.stats = stats
        self.tables: list[Table] = []
        self.clients: list[Client] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.gate = asyncio.Semaphore(CONNECT_PARALLEL)

    async def grow(self, n: int, timeout: float) -> bool:
        """Add tables until there are n, all seated and started; False if not in time."""
        loop = asyncio.get_running_loop()
        deadline = time.monotonic() + timeout
        new: list[Table] = []
        while len(self.tables) + len(new) < n and time.monotonic() < deadline:
            batch = min(CREATE_PARALLEL, n - len(self.tables) - len(new))
            created = await asyncio.gather(
                *(loop.run_in_executor(None, self.server.create_table) for _ in range(batch)),
                return_exceptions=True,
            )
            for made in created:
                if isinstance(made, dict):
                    new.append(Table(str(made["id"])))
        self.tables += new
        clients = [
            Client(
                table,
                f"ws://127.0.0.1:{self.server.port}/ws/{table.id}",
                f"p{i}",
                self.args.pace,
                self.stats,
                not self.args.no_compression,
            )
            for table in new
            for i in range(3)
        ]
        await asyncio.gather(*(c.open(self.gate) for c in clients), return_exceptions=True)
        opened = [c for c in clients if c.ws is not None]
        self.tasks += [asyncio.create_task(c.run()) for c in opened]
        self.clients += opened
        while any(t.seated < 3 for t in new) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        return len(self.tables) >= n and all(t.seated == 3 for t in new)

    async def grow_strong(self, n: int, timeout: float) -> bool:
        """Add tables of one person (a client at ``--pace``) and two strong
        computer players until there are n; False if not in time."""
        loop = asyncio.get_running_loop()
        deadline = time.monotonic() + timeout
        new: list[tuple[Table, str]] = []
        while len(self.tables) + len(new) < n and time.monotonic() < deadline:
            batch = min(CREATE_PARALLEL, n - len(self.tables) - len(new))
            created = await asyncio.gather(
                *(
                    loop.run_in_executor(
                        None, lambda: self.server.create_table(level=self.args.level)
                    )
                    for _ in range(batch)
                ),
                return_exceptions=True,
            )
            for made in created:
                if isinstance(made, dict):
                    table = Table(str(made["id"]))
                    table.viewers = 1  # the person; the computers have no connection
                    new.append((table, str(made["creator"])))
        self.tables += [t for t, _ in new]
        clients = [
            (
                Client(
                    table,
                    f"ws://127.0.0.1:{self.server.port}/ws/{table.id}",
                    "person",
                    self.args.pace,
                    self.stats,
                    not self.args.no_compression,
                ),
                creator,
            )
            for table, creator in new
        ]
        await asyncio.gather(*(c.open(self.gate) for c, _ in clients), return_exceptions=True)
        opened = [(c, creator) for c, creator in clients if c.ws is not None]
        self.tasks += [asyncio.create_task(c.run()) for c, _ in opened]
        self.clients += [c for c, _ in opened]
        while any(c.table.seated < 1 for c, _ in opened) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        for c, creator in opened:  # the two other seats: strong computer players, and go
            assert c.ws is not None
            await c.ws.send(json.dumps({"type": "fill", "creator": creator}))
        return len(self.tables) >= n and all(t.seated == 1 for t, _ in new)

    async def measure(self, seconds: float) -> Result:
        await asyncio.sleep(self.args.warmup)
        cpu0, gen0, all0 = self.server.cpu_seconds(), time.process_time(), machine_busy_seconds()
        t0 = time.perf_counter()
        await asyncio.sleep(seconds)
        t1 = time.perf_counter()
        cpu1, gen1, all1 = self.server.cpu_seconds(), time.process_time(), machine_busy_seconds()
        await asyncio.sleep(1.0)  # let acts sent at the end of the window arrive
        window = [(at, x) for at, x in self.stats.samples if t0 <= at < t1]
        lat = [x for _, x in window]
        if self.args.samples:  # each move's latency by when it was sent: where the p99 is made
            with open(self.args.samples, "a") as out:
                out.writelines(f"{at - t0:.4f}\t{x * 1000:.2f}\n" for at, x in window)
        acks = sum(1 for at in self.stats.acks if t0 <= at < t1)
        sent = sum(1 for at in self.stats.sent if t0 <= at < t1)
        lag = [x for at, x in self.stats.lag if t0 <= at < t1]
        errors = dict(self.stats.errors)
        self.stats.errors.clear()
        return Result(
            len(self.tables),
            t1 - t0,
            acks / (t1 - t0),
            sent / (t1 - t0),
            pct(lat, 0.5),
            pct(lat, 0.99),
            max(lat, default=float("nan")),
            len(lat),
            (cpu1 - cpu0) / (t1 - t0),
            (gen1 - gen0) / (t1 - t0),
            pct(lag, 0.99),
            ((all1 - all0) - (cpu1 - cpu0) - (gen1 - gen0)) / (t1 - t0),
            errors,
        )

    async def close(self) -> None:
        for c in self.clients:
            c.stopped = True
        tasks = [*self.tasks, *(t for c in self.clients for t in c.sending)]
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def start_strong_tables(
    server: Server, n: int, level: str = "strong"
) -> list[ClientConnection]:
    """Tables of three computer players of ``level``, started by their
    creator; the connections stay open (and are never read) for the run."""
    loop = asyncio.get_running_loop()
    conns = []
    for _ in range(n):
        made = await loop.run_in_executor(None, lambda: server.create_table(level=level))
        ws = await connect(f"ws://127.0.0.1:{server.port}/ws/{made['id']}", max_size=None)
        await ws.send(json.dumps({"type": "hello", "protocol": 2}))
        await ws.send(json.dumps({"type": "fill", "creator": made["creator"]}))
        conns.append(ws)
    return conns


async def drain(ws: ClientConnection) -> None:
    with contextlib.suppress(ConnectionClosed):
        async for _ in ws:
            pass


def _by_phase(counts: Counter[str]) -> str:
    """``12 (discard 9, play 3)``: a count and where it came from."""
    parts = ", ".join(f"{phase} {n}" for phase, n in counts.most_common())
    return f"{counts.total()}" + (f" ({parts})" if parts else "")


async def run(args: argparse.Namespace, server: Server) -> list[Result]:
    stats = Stats()
    monitor = asyncio.create_task(lag_monitor(stats))
    load = Load(server, args, stats)
    results: list[Result] = []
    strong = await start_strong_tables(server, args.strong_tables, args.level)
    readers = [asyncio.create_task(drain(ws)) for ws in strong]
    if strong:
        print(f"[{len(strong)} tables of {args.level} computer players started]", flush=True)
    try:
        n = args.tables
        while True:
            started = time.perf_counter()
            fallbacks0 = server.fallbacks() if args.strong_people else Counter()
            if args.strong_people:
                complete = await load.grow_strong(n, args.grow_timeout)
            else:
                complete = await load.grow(n, args.grow_timeout)
            print(
                f"[{len(load.tables)} tables, {len(load.clients)} connections ready "
                f"in {time.perf_counter() - started:.1f} s]",
                flush=True,
            )
            result = await load.measure(args.seconds)
            results.append(result)
            print(result.line(), flush=True)
            if args.strong_people:
                fell = _by_phase(server.fallbacks() - fallbacks0)
                print(
                    f"  {args.level} computer players: {fell} decisions "
                    f"fell back to heuristic (late or failed) since this step's tables were "
                    f"added; search processes: {server.searches()}",
                    flush=True,
                )
            if not complete:
                print(
                    f"[could not reach {n} tables in {args.grow_timeout:.0f} s: "
                    "the server is saturated]",
                    flush=True,
                )
                break
            if not args.ramp or result.p99 * 1000 >= args.target_ms or n >= args.max_tables:
                break
            n = min(args.max_tables, n + args.step)
    finally:
        monitor.cancel()
        for task in readers:
            task.cancel()
        for ws in strong:
            await ws.close()
        await load.close()
    return results


def _terminate(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt  # stop the server in main's finally


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50, help="tables (first step of a ramp)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds per step")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--pace", type=float, default=2.0, help="mean seconds per action")
    parser.add_argument("--ramp", action="store_true", help="grow until p99 >= --target-ms")
    parser.add_argument("--step", type=int, default=100, help="tables added per ramp step")
    parser.add_argument("--max-tables", type=int, default=2000)
    parser.add_argument("--target-ms", type=float, default=100.0)
    parser.add_argument("--next-delay", type=float, default=1.0)
    parser.add_argument(
        "--grow-timeout", type=float, default=60.0, help="seconds to create and seat new tables"
    )
    parser.add_argument(
        "--no-compression", action="store_true", help="no permessage-deflate (browsers use it)"
    )
    parser.add_argument(
        "--strong-tables", type=int, default=0, help="tables of strong computer players beside"
    )
    parser.add_argument(
        "--strong-people",
        action="store_true",
        help="each table: one person at --pace and two strong computer players (--tables of "
        "them, a ramp with --ramp)",
    )
    parser.add_argument(
        "--level",
        choices=("strong", "casual"),
        default="strong",
        help="the computer players of --strong-tables and --strong-people",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        help="a cluster of this many workers behind nginx (0: one `skat serve`, no proxy)",
    )
    parser.add_argument(
        "--store",
        choices=("sqlite", "postgres"),
        default="sqlite",
        help="the database (of the cluster, or of the one server without --workers)",
    )
    parser.add_argument(
        "--samples",
        metavar="FILE",
        help="append each measured move's send time (s into the window) and latency (ms)",
    )
    args = parser.parse_args(argv)
    most = args.max_tables if args.ramp else args.tables
    limit = raise_nofile(3 * most + 1024)  # before the server starts: it inherits the limit
    if limit < 3 * most + 256:
        print(f"warning: only {limit} open files allowed", file=sys.stderr)
    signal.signal(signal.SIGTERM, _terminate)
    # the generator's own collector pauses (scans of its samples and
    # connections took 0.2-0.4 s) would count as the server's latency: a
    # run of minutes does without it
    gc.freeze()
    gc.disable()
    with tempfile.TemporaryDirectory(prefix="skat-load-") as tmp:
        server: Any
        pg: Any = None
        if args.workers:
            from bench.server.cluster_server import ClusterServer

            server = ClusterServer(Path(tmp), args.workers, args.store, server_args(args))
            print(f"[cluster: {args.workers} worker(s) on {args.store} behind nginx]", flush=True)
        elif args.store == "postgres":
            # one `skat serve` on PostgreSQL with no proxy: the direct path
            # that the cluster's path through nginx is compared with
            from skat.server.services import Postgres

            pg = Postgres()
            pg.start()
            pg.create_database("load")
            try:
                server = Server(Path(tmp), args.next_delay, db_url=pg.url("load"))
            except BaseException:
                pg.stop()
                raise
            print("[one server on postgres, no proxy]", flush=True)
        else:
            server = Server(Path(tmp), args.next_delay)
        try:
            results = asyncio.run(run(args, server))
        except KeyboardInterrupt:
            results = []
        finally:
            server.stop()
            if pg is not None:
                pg.stop()
    if not results:
        return
    ok = [r for r in results if r.p99 * 1000 < args.target_ms]
    if args.ramp:
        best = max(ok, key=lambda r: r.tables) if ok else None
        print(
            f"ramp: largest with p99 < {args.target_ms:.0f} ms: "
            f"{best.tables if best else 'none'} tables; "
            f"peak actions/s: {max(r.actions_per_s for r in results):.1f}"
        )
    r = results[-1]
    print(
        f"tables: {r.tables}, actions/s: {r.actions_per_s:.1f}, "
        f"p50: {r.p50 * 1000:.1f} ms, p99: {r.p99 * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
