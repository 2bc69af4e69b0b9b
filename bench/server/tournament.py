#!/usr/bin/env python3
"""A tournament at human pace (issue 27's goal): the standings' lag behind
the tables, and the latency of people's actions.

    .venv/bin/python -m bench.server.tournament --entrants 100 --seconds 120
    .venv/bin/python -m bench.server.tournament --entrants 100 --seconds 120 --cluster

Starts the real server (one `skat serve` on a temporary SQLite file, or with
``--cluster`` two workers on PostgreSQL behind nginx, as
`bench/server/load.py --workers 2 --store postgres` does) with the computer
players acting at human pace (``--bot-delay`` = ``--pace``) and a short
``--grace``, so that the seats of entrants nobody plays are taken over by
computer players at their first turn. It makes a tournament of one series
(``--rounds`` per table: no table finishes within a run), enters
``--entrants`` names and draws the series.

``--people`` of the entrants (default: one per table, spread over the
tables first) connect with their entrant token, which is their seat token,
and play like people: ``--pace`` seconds (± 50 %) before each action (a
legal one, as load.py's clients choose) and before pressing Next after a
deal. A table without a person gets a spectator connection, so that every
table's deal ends are seen. Meanwhile the generator polls
``GET /api/tournaments/ID`` every ``--poll`` seconds, as a standings screen
does (the page itself asks every 1.5 s).

Measured over ``--seconds`` after ``--warmup``:

- people's action latency: from sending ``act`` with version V until each of
  the table's people receives the event V+1 (load.py's measure);
- the standings' lag: for each deal that ends at a table (a connection
  receives the state whose sheet has the new row), the time until a polled
  view first shows that table's ``deal`` (deals finished) including it; it
  includes up to one poll period and the server's view cache (0.5 s);
- the view request's own time, the actions per second at the tables
  (computer players' too), the server's CPU (with its search processes; in
  the cluster also nginx and PostgreSQL), the generator's loop lag.

The run stops by itself (``--time-limit``); the server's warnings and
errors are printed at the end. Not a test: the figures depend on the
machine (docs/benchmarks.md).
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
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from bench.server.cluster_attack import post
from bench.server.flood import cpu_of, server_env
from bench.server.load import (
    CONNECT_PARALLEL,
    Pending,
    Stats,
    Table,
    choose,
    free_port,
    lag_monitor,
    machine_busy_seconds,
    newer_limits,
    pct,
    raise_nofile,
    spawn_server,
)
from bench.server.load import Server as LoadServer
from skat.server.messages import ViewKeeper

_decode = msgspec.json.Decoder().decode
RECONNECT_PAUSE = 0.3  # as the page after a 4503 (the table moved to another worker)
DRAIN = 3.0  # seconds after the window for late views and acknowledgements


def server_flags(args: argparse.Namespace) -> list[str]:
    """The options of `skat serve` (or of each worker) for this benchmark."""
    return [
        # computer players at human pace; an absent entrant's seat goes to one soon
        "--bot-delay", str(args.pace), "--grace", str(args.grace),
        "--next-delay", str(args.next_delay), "--next-delay-people", str(args.next_delay),
        "--max-rounds", str(max(12, args.rounds)), "--log-level", "warning",
        # one generator on one address: lift the per-address limits
        "--tables-per-address", "1000000", "--max-open-tables", "1000000",
        "--open-tables-per-address", "1000000", "--strong-tables-per-address", "1000000",
    ]  # fmt: skip


class Server(LoadServer):
    """load.py's `Server` (CPU, stop), started with this benchmark's options:
    load.py's own starts its computer players without delay."""

    def __init__(self, folder: Path, flags: list[str], env: dict[str, str]) -> None:
        self.port = free_port()
        self.log = folder / "server.log"
        self.db = folder / "tournament.db"
        cmd = [
            sys.executable, "-m", "skat.cli", "serve",
            "--host", "127.0.0.1", "--port", str(self.port),
            "--db", f"sqlite+aiosqlite:///{self.db}", *newer_limits(env), *flags,
        ]  # fmt: skip
        self.proc = spawn_server(cmd, self.log, self.http, env)


def descendants_cpu(roots: Sequence[int]) -> float:
    """CPU seconds of every live descendant of ``roots`` (the servers' search
    processes), the roots themselves not counted."""
    parent: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                parent[int(entry.name)] = int(stat[1])
    found: set[int] = set()
    todo = list(roots)
    while todo:
        pid = todo.pop()
        kids = [p for p, pp in parent.items() if pp == pid and p not in found]
        found.update(kids)
        todo += kids
    return sum(cpu_of(p) for p in found)


def log_problems(paths: Sequence[Path], most: int = 20) -> list[str]:
    """What the servers logged as warnings and errors: each distinct line with
    its count (a traceback by its last line), then the first traceback whole."""
    seen: Counter[str] = Counter()
    first: list[str] = []
    for path in paths:
        if not path.exists():
            continue
        block: list[str] | None = None  # the traceback being read
        for line in path.read_text(errors="replace").splitlines():
            if line.startswith("Traceback"):
                block = [line]
            elif block is not None:
                block.append(line)
                if line.startswith(("During handling", "The above exception")):
                    continue  # a chained exception: its own traceback follows
                if line and not line[0].isspace():  # the exception: the block ends
                    seen[f"{path.name}: {line[:200]}"] += 1
                    first = first or [f"{path.name}: {x}" for x in block]
                    block = None
            elif any(w in line for w in ("WARNING", "ERROR", "CRITICAL")):
                seen[f"{path.name}: {line[:200]}"] += 1
    out = [f"{n} x {line}" for line, n in seen.most_common(most)]
    if len(seen) > most:
        out.append(f"... {len(seen) - most} other lines")
    return out + first[:60]


# ----------------------------------------------------------------- recording
@dataclass
class Ends:
    """Deal ends seen at the tables and in the polled views (perf_counter times)."""

    known: dict[str, int] = field(default_factory=dict)  # table -> deals finished seen
    ended: dict[tuple[str, int], float] = field(default_factory=dict)  # (table, n) -> seen at
    shown: dict[tuple[str, int], float] = field(default_factory=dict)  # first view with it
    acts: dict[tuple[str, int], float] = field(default_factory=dict)  # (table, version) -> at
    views: list[tuple[float, float]] = field(default_factory=list)  # (sent at, seconds)
    view_errors: Counter[str] = field(default_factory=Counter)

    def table_saw(self, table: str, finished: int, at: float, live: bool) -> None:
        """A connection saw ``finished`` deals at ``table``; ``live``: as it
        happened (not the first state after a (re)connect, not replayed)."""
        old = self.known.get(table)
        if old is not None and live:
            for n in range(old + 1, finished + 1):
                self.ended.setdefault((table, n), at)
        self.known[table] = max(old or 0, finished)

    def view_saw(self, table: str, finished: int, at: float) -> None:
        for n in range(finished, 0, -1):
            if (table, n) in self.shown:
                break  # the earlier ones are in too
            self.shown[(table, n)] = at


class Person:
    """One connection at a table: an entrant playing by their token at human
    pace, or (no token) a spectator that only watches the deal ends."""

    def __init__(
        self,
        table: Table,
        url: str,
        token: str | None,
        pace: float,
        stats: Stats,
        ends: Ends,
        rng: random.Random,
    ) -> None:
        self.table = table
        self.url = url
        self.token = token
        self.pace = pace
        self.stats = stats
        self.ends = ends
        self.rng = rng
        self.ws: ClientConnection | None = None
        self.seat: int | None = None
        self.version = 0  # the newest seen, for `hello`'s last_version
        self.view_version = -1
        self.view: dict[str, Any] | None = None
        self.keeper = ViewKeeper()  # the view, each event's changes applied
        self.planned = -1  # the version an act is planned or sent for
        self.next_planned = -1  # the deal whose Next is planned
        self.fresh = True  # the first state after a (re)connect holds old deal ends
        self.welcomed = asyncio.Event()
        self.reconnects: list[float] = []  # when each connection ended (but the last)

    async def run(self, gate: asyncio.Semaphore, stop: asyncio.Event) -> None:
        """Connect, play, and reconnect when the connection ends (in the
        cluster a worker hands the table over with a 4503 close)."""
        first = True
        while not stop.is_set():
            try:
                if first:  # the first connections open at most so many at once
                    async with gate:
                        ws = await self._connect()
                    first = False
                else:
                    ws = await self._connect()
                async with ws:
                    self.ws, self.fresh = ws, True
                    hello: dict[str, Any] = {"type": "hello", "protocol": 2}
                    if self.version:  # back after a close: what was missed comes first
                        hello["last_version"] = self.version
                    if self.token is not None:
                        hello["token"] = self.token
                    await ws.send(json.dumps(hello))
                    async for raw in ws:
                        self._on(_decode(raw))
                why = f"closed {ws.close_code}"
            except ConnectionClosed as exc:
                why = f"closed {exc.rcvd.code if exc.rcvd else 'without a close frame'}"
            except (OSError, TimeoutError, WebSocketException) as exc:
                why = type(exc).__name__
            self.ws = None
            if stop.is_set():
                break
            self.reconnects.append(time.perf_counter())
            self.stats.errors[f"reconnect ({why})"] += 1
            await asyncio.sleep(RECONNECT_PAUSE)

    async def _connect(self) -> ClientConnection:
        return await connect(self.url, open_timeout=30, max_size=2**20, compression="deflate")

    def _on(self, m: dict[str, Any]) -> None:
        now = time.perf_counter()
        kind = m.get("type")
        if kind == "welcome":
            self.seat = m.get("seat")
            self.welcomed.set()
            return
        if kind == "error":
            self.stats.errors[m.get("code", "?")] += 1
            return
        if kind not in ("event", "state"):
            return
        replayed = bool(m.get("replayed"))
        version = m["version"]
        self.version = max(self.version, version)
        if kind == "event":
            if m["event"].get("kind") == "act" and not replayed:
                self.ends.acts.setdefault((self.table.id, version), now)
            p = self.table.pending.get(version)
            if p is not None and self.seat is not None and not replayed:
                self.stats.samples.append((p.sent_at, now - p.sent_at))
                if p.seat == self.seat:
                    self.stats.acks.append(p.sent_at)
                p.left -= 1
                if p.left <= 0:
                    del self.table.pending[version]
        state = m.get("state") if kind == "event" else m
        if state is not None and state.get("sheet") is not None:
            live = not replayed and not self.fresh
            self.ends.table_saw(self.table.id, len(state["sheet"]["rows"]), now, live)
            if not replayed:
                self.fresh = False
        if replayed or not self.keeper.note(m):
            return
        view = self.keeper.view
        if view is None:
            return
        self.view, self.view_version = view, version
        if self.seat is None or self.token is None:
            return  # a spectator never acts
        loop = asyncio.get_running_loop()
        if view["turn"] == self.seat and view["legal"] and self.planned != version:
            self.planned = version
            delay = self.pace * self.rng.uniform(0.5, 1.5)
            loop.call_later(delay, self._act, version)
        deal = (state or {}).get("deal")
        if (
            deal
            and self.seat in deal.get("waiting_for", [])
            and self.next_planned != deal["number"]
        ):
            self.next_planned = deal["number"]  # reads the result, then presses Next
            loop.call_later(self.pace * self.rng.uniform(0.5, 1.5), self._send, '{"type":"next"}')

    def _act(self, version: int) -> None:
        if self.view_version != version or self.view is None or self.ws is None:
            return  # the table moved on, or the connection is being replaced
        action = choose(self.view, self.rng)
        sent = time.perf_counter()
        self.table.pending[version + 1] = Pending(sent, self.seat or 0, self.table.viewers)
        self.stats.sent.append(sent)
        self._send(json.dumps({"type": "act", "action": action, "version": version}))

    def _send(self, text: str) -> None:
        if self.ws is not None:
            asyncio.get_running_loop().create_task(self._send_now(self.ws, text))

    @staticmethod
    async def _send_now(ws: ClientConnection, text: str) -> None:
        with contextlib.suppress(ConnectionClosed, WebSocketException):
            await ws.send(text)


def get_bytes(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as r:
        body: bytes = r.read()
    return body


async def poll_standings(
    http: str, tid: str, period: float, ends: Ends, stop: asyncio.Event
) -> None:
    """GET the tournament's view every ``period`` seconds, as a standings
    screen does; note when each table's deal count first shows."""
    loop = asyncio.get_running_loop()
    url = f"{http}/api/tournaments/{tid}"
    while not stop.is_set():
        sent = time.perf_counter()
        try:
            body = await loop.run_in_executor(None, get_bytes, url)
        except OSError as exc:  # urllib's HTTP errors too
            ends.view_errors[type(exc).__name__] += 1
            await asyncio.sleep(period)
            continue
        got = time.perf_counter()
        ends.views.append((sent, got - sent))
        for series in _decode(body)["series"]:
            for row in series["tables"]:
                ends.view_saw(row["id"], int(row.get("deal", 0)), got)
        await asyncio.sleep(max(0.0, period - (got - sent)))


# ------------------------------------------------------------------ the run
@dataclass
class Result:
    setup: str
    entrants: int
    tables: int
    people: int
    spectators: int
    seconds: float
    people_actions_per_s: float
    table_actions_per_s: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    samples: int
    deal_ends: int
    not_shown: int
    lag_p50_s: float
    lag_p99_s: float
    lag_max_s: float
    view_p50_ms: float
    view_p99_ms: float
    view_max_ms: float
    view_last_p50_ms: float  # in the window's last quarter: the view's cost grows with the lists
    views: int
    deals_per_table: float  # deals finished, on average, at the window's end
    server_cpu: float
    gen_cpu: float
    gen_lag_p99_ms: float
    other_cpu: float
    reconnects: int
    errors: dict[str, int]
    search: dict[str, Any]  # per server process: /healthz's search counters at the end

    def line(self) -> str:
        return (
            f"{self.setup}: {self.entrants} entrants at {self.tables} tables, "
            f"{self.people} people (+{self.spectators} spectators), {self.seconds:.0f} s\n"
            f"  actions/s: people {self.people_actions_per_s:.1f}, "
            f"all seats {self.table_actions_per_s:.1f}\n"
            f"  people's actions: p50 {self.p50_ms:.1f} ms, p99 {self.p99_ms:.1f} ms, "
            f"max {self.max_ms:.1f} ms ({self.samples} samples)\n"
            f"  standings lag: p50 {self.lag_p50_s:.2f} s, p99 {self.lag_p99_s:.2f} s, "
            f"max {self.lag_max_s:.2f} s ({self.deal_ends} deal ends, "
            f"{self.not_shown} not shown by the end)\n"
            f"  view request: p50 {self.view_p50_ms:.1f} ms, p99 {self.view_p99_ms:.1f} ms, "
            f"max {self.view_max_ms:.1f} ms ({self.views} polls; "
            f"p50 {self.view_last_p50_ms:.1f} ms in the last quarter, "
            f"{self.deals_per_table:.1f} deals finished per table at the end)\n"
            f"  server cpu: {self.server_cpu:.0%}, generator cpu: {self.gen_cpu:.0%}, "
            f"generator lag p99: {self.gen_lag_p99_ms:.1f} ms, "
            f"other processes cpu: {self.other_cpu:.0%}, "
            f"reconnects in the window: {self.reconnects}"
            + (f"\n  errors, reconnects (whole run): {self.errors}" if self.errors else "")
            + f"\n  search processes (/healthz): {self.search}"
        )


def say(text: str) -> None:
    print(f"[{text}]", file=sys.stderr, flush=True)


def pick_people(
    tables: list[list[tuple[str, bool]]], count: int, rng: random.Random
) -> list[set[int]]:
    """Which seats people play: one per table first, then a second, ... (in
    a random seat order per table), never a computer fill's seat."""
    orders = []
    for seats in tables:
        order = [i for i, (_, computer) in enumerate(seats) if not computer]
        rng.shuffle(order)
        orders.append(order)
    chosen: list[set[int]] = [set() for _ in tables]
    for k in range(max((len(o) for o in orders), default=0)):
        for t, order in enumerate(orders):
            if count > 0 and k < len(order):
                chosen[t].add(order[k])
                count -= 1
    return chosen


class Bench:
    def __init__(
        self,
        args: argparse.Namespace,
        http: str,
        cpu: Callable[[], float],
        health: Callable[[], dict[str, Any]],
    ) -> None:
        self.args = args
        self.http = http
        self.ws_base = http.replace("http://", "ws://", 1)
        self.cpu = cpu  # the server side's CPU seconds so far
        self.health = health  # each server process's /healthz search counters
        self.stats = Stats()
        self.ends = Ends()
        self.rng = random.Random(args.seed)
        self.stop = asyncio.Event()

    async def call(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        out: dict[str, Any] = await loop.run_in_executor(None, post, self.http, path, body)
        return out

    async def run(self) -> Result:
        args = self.args
        loop = asyncio.get_running_loop()
        monitor = asyncio.create_task(lag_monitor(self.stats))
        made = await self.call(
            "/api/tournaments", {"name": "Bench night", "series": 1, "rounds": args.rounds}
        )
        tid = made["id"]
        tokens: dict[str, str] = {}
        for i in range(args.entrants):  # one after the other: each is a compare-and-set
            entered = await self.call(  # by the organiser: no limit per address
                f"/api/tournaments/{tid}/entrants",
                {"name": f"Player {i + 1}", "organiser": made["organiser"]},
            )
            tokens[entered["name"]] = entered["token"]
        started = time.perf_counter()
        await self.call(f"/api/tournaments/{tid}/series", {"organiser": made["organiser"]})
        view = _decode(
            await loop.run_in_executor(None, get_bytes, f"{self.http}/api/tournaments/{tid}")
        )
        rows = view["series"][0]["tables"]
        seats = [[(s["name"], bool(s["computer"])) for s in row["seats"]] for row in rows]
        people = args.people if args.people is not None else len(rows)
        chosen = pick_people(seats, people, self.rng)
        say(f"tournament {tid}: {len(tokens)} entrants, {len(rows)} tables drawn")
        poller = asyncio.create_task(
            poll_standings(self.http, tid, args.poll, self.ends, self.stop)
        )
        conns: list[Person] = []
        for row, names, mine in zip(rows, seats, chosen, strict=True):
            table = Table(row["id"])
            table.viewers = len(mine)
            url = f"{self.ws_base}/ws/{row['id']}"
            for i in sorted(mine) or [-1]:  # -1: nobody plays here, a spectator watches
                token = tokens[names[i][0]] if i >= 0 else None
                rng = random.Random(self.rng.getrandbits(32))
                conns.append(Person(table, url, token, args.pace, self.stats, self.ends, rng))
        gate = asyncio.Semaphore(CONNECT_PARALLEL)
        tasks = [asyncio.create_task(c.run(gate, self.stop)) for c in conns]
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    asyncio.gather(*(c.welcomed.wait() for c in conns)), args.connect_timeout
                )
            ready = sum(c.welcomed.is_set() for c in conns)
            say(
                f"{ready} of {len(conns)} connections welcomed "
                f"{time.perf_counter() - started:.1f} s after the draw"
            )
            wrong = [c for c in conns if c.token is not None and c.seat is None]
            if wrong:
                say(f"warning: {len(wrong)} people were not seated by their token")
            await asyncio.sleep(args.warmup)
            cpu0, gen0, all0 = self.cpu(), time.process_time(), machine_busy_seconds()
            t0 = time.perf_counter()
            await asyncio.sleep(args.seconds)
            t1 = time.perf_counter()
            cpu1, gen1, all1 = self.cpu(), time.process_time(), machine_busy_seconds()
            await asyncio.sleep(DRAIN)  # views and acknowledgements of the window's end
            health = await loop.run_in_executor(None, self.health)
        finally:
            self.stop.set()
            monitor.cancel()
            for task in [*tasks, poller]:
                task.cancel()
            await asyncio.gather(monitor, poller, *tasks, return_exceptions=True)
        out = self.result(t0, t1, (cpu0, cpu1), (gen0, gen1), (all0, all1), len(rows), conns)
        out.search = health
        return out

    def result(
        self,
        t0: float,
        t1: float,
        cpu: tuple[float, float],
        gen: tuple[float, float],
        busy: tuple[float, float],
        tables: int,
        conns: list[Person],
    ) -> Result:
        span = t1 - t0
        lat = [x for at, x in self.stats.samples if t0 <= at < t1]
        acks = sum(1 for at in self.stats.acks if t0 <= at < t1)
        acts = sum(1 for at in self.ends.acts.values() if t0 <= at < t1)
        lags: list[float] = []
        missing = 0
        for key, at in self.ends.ended.items():
            if not t0 <= at < t1:
                continue
            shown = self.ends.shown.get(key)
            if shown is None:
                missing += 1
            else:
                lags.append(shown - at)
        views = [x for at, x in self.ends.views if t0 <= at < t1]
        late = [x for at, x in self.ends.views if t1 - span / 4 <= at < t1]
        finished = [n for (_, n), at in self.ends.shown.items() if at < t1]
        loop_lag = [x for at, x in self.stats.lag if t0 <= at < t1]
        errors = dict(self.stats.errors) | {
            f"view {k}": v for k, v in self.ends.view_errors.items()
        }
        server = cpu[1] - cpu[0]
        mine = gen[1] - gen[0]
        return Result(
            setup=(
                f"cluster of {self.args.workers} workers" if self.args.cluster else "one process"
            ),
            entrants=self.args.entrants,
            tables=tables,
            people=sum(1 for c in conns if c.token is not None),
            spectators=sum(1 for c in conns if c.token is None),
            seconds=span,
            people_actions_per_s=acks / span,
            table_actions_per_s=acts / span,
            p50_ms=pct(lat, 0.5) * 1000,
            p99_ms=pct(lat, 0.99) * 1000,
            max_ms=max(lat, default=float("nan")) * 1000,
            samples=len(lat),
            deal_ends=len(lags) + missing,
            not_shown=missing,
            lag_p50_s=pct(lags, 0.5),
            lag_p99_s=pct(lags, 0.99),
            lag_max_s=max(lags, default=float("nan")),
            view_p50_ms=pct(views, 0.5) * 1000,
            view_p99_ms=pct(views, 0.99) * 1000,
            view_max_ms=max(views, default=float("nan")) * 1000,
            view_last_p50_ms=pct(late, 0.5) * 1000,
            views=len(views),
            deals_per_table=len(finished) / tables if tables else 0.0,
            server_cpu=server / span,
            gen_cpu=mine / span,
            gen_lag_p99_ms=pct(loop_lag, 0.99) * 1000,
            other_cpu=((busy[1] - busy[0]) - server - mine) / span,
            reconnects=sum(t0 <= at < t1 for c in conns for at in c.reconnects),
            errors=errors,
            search={},
        )


def _terminate(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt  # stop the servers in main's finally


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=100, help="names entered (2..200)")
    parser.add_argument(
        "--people", type=int, default=None, help="entrants played by people (default: one a table)"
    )
    parser.add_argument("--pace", type=float, default=1.0, help="mean seconds per action")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    parser.add_argument("--rounds", type=int, default=12, help="rounds of the series")
    parser.add_argument("--poll", type=float, default=0.25, help="seconds between standings polls")
    parser.add_argument("--grace", type=float, default=2.0, help="the server's --grace")
    parser.add_argument(
        "--next-delay", type=float, default=3.0, help="the server's --next-delay(-people)"
    )
    parser.add_argument("--cluster", action="store_true", help="workers on PostgreSQL behind nginx")
    parser.add_argument("--workers", type=int, default=2, help="the cluster's workers")
    parser.add_argument("--src", help="a source tree whose src/ the server runs (default: this)")
    parser.add_argument("--seed", type=int, default=1, help="who plays, and their choices")
    parser.add_argument("--connect-timeout", type=float, default=60.0)
    parser.add_argument(
        "--time-limit", type=float, default=None, help="stop after this (default: the run + 180 s)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--logs", help="copy the servers' logs into this folder")
    args = parser.parse_args(argv)
    if not 2 <= args.entrants <= 200:
        parser.error("--entrants must be from 2 to 200")
    limit = args.time_limit or args.warmup + args.seconds + 180.0
    raise_nofile(4 * args.entrants + 1024)  # before the server starts: it inherits the limit
    signal.signal(signal.SIGTERM, _terminate)
    env = server_env(args.src)
    result: Result | None = None
    with tempfile.TemporaryDirectory(prefix="skat-tournament-") as tmp:
        server: Any
        logs: list[Path]
        if args.cluster:
            from bench.server.cluster_server import ClusterServer
            from skat.server.cluster import unix_request

            os.environ.update(env)  # the workers inherit it (--src)
            flags = [*server_flags(args), *newer_limits(None)]  # this tree's workers
            server = ClusterServer(Path(tmp), args.workers, "postgres", flags)
            pids = [w.pid for w in server.cluster.members if w.pid is not None]
            logs = [
                server.cluster.folder / "workers" / f"{w.name}.log" for w in server.cluster.members
            ]

            def cpu() -> float:
                return float(server.cpu_seconds()) + descendants_cpu(pids)

            def health() -> dict[str, Any]:
                out: dict[str, Any] = {}
                for w in server.cluster.members:
                    try:
                        _, _, body = unix_request(w.socket, "GET", "/healthz")
                        out[w.name] = json.loads(body).get("search")
                    except (OSError, ValueError) as exc:
                        out[w.name] = repr(exc)
                return out

            say(f"cluster: {args.workers} workers on PostgreSQL behind nginx at {server.http}")
        else:
            server = Server(Path(tmp), server_flags(args), env)
            logs = [server.log]

            def cpu() -> float:
                return float(server.cpu_seconds()) + descendants_cpu([server.proc.pid])

            def health() -> dict[str, Any]:
                try:
                    return {"main": json.loads(get_bytes(f"{server.http}/healthz")).get("search")}
                except (OSError, ValueError) as exc:  # 503 while the store fails
                    return {"main": repr(exc)}

            say(f"one process at {server.http}")
        try:
            bench = Bench(args, server.http, cpu, health)
            result = asyncio.run(asyncio.wait_for(bench.run(), limit))
        except KeyboardInterrupt:
            say("interrupted")
        except TimeoutError:
            say(f"stopped: the time limit of {limit:.0f} s")
        finally:
            server.stop()
            problems = log_problems(logs)
            if args.logs:
                Path(args.logs).mkdir(parents=True, exist_ok=True)
                for path in logs:
                    if path.exists():
                        shutil.copy(path, Path(args.logs) / path.name)
    for line in problems:
        print(f"server log: {line}", file=sys.stderr)
    if result is None:
        raise SystemExit(1)
    print(json.dumps(asdict(result)) if args.json else result.line(), flush=True)


if __name__ == "__main__":
    main()
