#!/usr/bin/env python3
"""How a stranger's expensive requests hurt other tables, on the real server.

    .venv/bin/python -m bench.server.flood --scenario all
    .venv/bin/python -m bench.server.flood --scenario analysis --src ../wt-base   # an older tree
    .venv/bin/python -m bench.server.flood --scenario hints strong --seconds 15

Each scenario starts its own `skat serve` (as bench/server/load.py's `Server` does:
a subprocess on 127.0.0.1, a temporary SQLite file, ``--bot-delay 0``,
``--next-delay`` as given). ``--src TREE`` puts ``TREE/src`` first on the
server's PYTHONPATH, so that the same script measures another commit (a
`git worktree`); the script prints where the server's ``skat`` comes from.

Beside every scenario's load two tables are measured, as a person sees them:

- a human table: three websocket clients at ``--pace`` (bench/server/load.py's
  clients); latency from ``act`` (version V) until each of the three
  receives the event V+1: p50/p99/max;
- a computer table: one such client and two casual computer players; the
  time of a computer move, from the client's own ``act`` (or the previous
  game event) until the computer's move arrives: median/p90/max.

The scenarios (``--scenario``, several or ``all``):

``analysis``
    computer-only tables (``--deal-tables`` lists of ``--deal-rounds``
    rounds) play to the end first; then ``--seconds`` quiet, then
    ``--seconds`` while ``--flood-clients`` HTTP clients (a separate
    process) ask for the open-card analyses of all those settled deals in
    a loop, each in its own order (the first request of a deal is
    "distinct", later ones "repeated"). Printed: answers 200, 429/503 (with
    how many carry Retry-After), other answers, errors, median latencies.
``hints``
    the computer table has hints on; ``--hint-conns`` more connections
    hold its person's seat token and ask for a hint (``{"type": "hint"}``)
    whenever it is the seat's decision, again as soon as one is answered
    (a second's pause after ``RATE_LIMITED``).
    Printed: hints answered per second, those with ``"fallback": true``
    (a field newer servers send) and their latency, unanswered asks,
    refusals by code.
``strong``
    ``--strong-tables`` tables of three strong computer players
    (``level: strong``) play beside the measured tables; the moves they
    make are counted from their events.
``kill-search``
    one strong table plays; once the server's search worker processes
    (its children that run multiprocessing's spawn) exist they are sent
    SIGKILL, and for ``--kill-seconds`` the script samples every second:
    the fallback lines in the log, the strong table's moves, the worker
    processes and ``GET /healthz``.

"Fallbacks" are the server log's ``... failed (...); heuristic instead``
lines (a computer decision that failed or ran late), counted by reason.
Each scenario prints the load average at its start and end (the machine
may be shared), the server's CPU (its worker processes included) and this
generator's event-loop lag; the last line is all results as JSON.

Not a test: the figures depend on the machine (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from bench.server.load import (
    Client,
    Load,
    Server,
    Stats,
    Table,
    create_table,
    free_port,
    lag_monitor,
    pct,
    raise_nofile,
    spawn_server,
    start_strong_tables,
)
from skat.server.messages import ViewKeeper

SCENARIOS = ("analysis", "hints", "strong", "kill-search")
FALLBACK = re.compile(r"(?:failed|fell back)(?: in \w+)? \((.*)\); heuristic instead")
GAME_EVENTS = frozenset({"act", "start", "next"})
HINT_WAIT = 2.5  # seconds an unanswered hint is waited for (the hint budget is 2 s)
MOVED_PAUSE = 0.2  # seconds before asking anew when the table moved on
RATE_PAUSE = 1.0  # seconds a hint asker waits after RATE_LIMITED
FLOOD_GRACE = 5.0  # seconds the flood's requests in flight may still finish

_decode = msgspec.json.Decoder().decode
Row = tuple[str, str]


# --------------------------------------------------------------------- helpers
def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def server_env(src: str | None) -> dict[str, str]:
    """The server's environment: ``SRC/src`` first on PYTHONPATH when given."""
    env = dict(os.environ)
    if src is not None:
        tree = Path(src).resolve()
        path = tree / "src" if (tree / "src").is_dir() else tree
        env["PYTHONPATH"] = os.pathsep.join([str(path), *filter(None, [env.get("PYTHONPATH")])])
    return env


def skat_origin(env: dict[str, str]) -> str:
    """Where a Python started like the server imports skat and its solver from."""
    code = (
        "import skat, skat.players.solver as s, skat.server.app as a; "
        "print(skat.__file__, a.__file__, s.IMPLEMENTATION)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def proc_children(pid: int) -> list[tuple[int, str]]:
    """(pid, command line) of the processes whose parent is ``pid`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid != pid:
                continue
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError, ValueError):
            continue
        found.append((int(entry.name), cmd))
    return found


def search_workers(pid: int) -> list[int]:
    """The server's worker processes (multiprocessing spawn; not its resource tracker)."""
    return sorted(p for p, cmd in proc_children(pid) if "spawn_main" in cmd)


def cpu_of(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


class CpuMeter:
    """CPU seconds of the server and its live worker processes (workers that
    die take theirs with them: the figure is a lower bound then)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.seen: dict[int, float] = {}

    def seconds(self) -> float:
        for child in search_workers(self.pid):
            self.seen[child] = cpu_of(child)
        return cpu_of(self.pid) + sum(self.seen.values())


class ServerLog:
    def __init__(self, path: Path) -> None:
        self.path = path

    def offset(self) -> int:
        try:
            return self.path.stat().st_size
        except OSError:
            return 0

    def lines(self, start: int, end: int | None = None) -> list[str]:
        with self.path.open("rb") as f:
            f.seek(start)
            data = f.read() if end is None else f.read(max(0, end - start))
        return data.decode(errors="replace").splitlines()

    def fallbacks(self, start: int, end: int | None = None) -> Counter[str]:
        """The "heuristic instead" lines after ``start``, by reason."""
        reasons: Counter[str] = Counter()
        for line in self.lines(start, end):
            m = FALLBACK.search(line)
            if m:
                reasons[m.group(1)[:90] or "(no message: a timeout)"] += 1
        return reasons


def healthz(http: str) -> str:
    try:
        with urllib.request.urlopen(f"{http}/healthz", timeout=5) as r:
            return str(r.status)
    except urllib.error.HTTPError as exc:
        return str(exc.code)
    except (OSError, ValueError) as exc:
        return type(exc).__name__


def get_json(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=10) as r:
        return dict(json.load(r))


def ms(x: float) -> str:
    return "-" if x != x else f"{x * 1000:.1f} ms"  # NaN: no sample


def median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def between(samples: list[tuple[float, float]], t0: float, t1: float) -> list[float]:
    return [x for at, x in samples if t0 <= at < t1]


LIMIT_OPTIONS = (
    "--tables-per-address",
    "--max-open-tables",
    "--open-tables-per-address",
    "--strong-tables-per-address",  # the scenarios measure the pools, not this cap
    "--connect-burst",
)


class FloodServer(Server):
    """load.py's `Server`, with only the creation limits that this tree's
    `skat serve` knows lifted (an older tree refuses newer options)."""

    def __init__(self, folder: Path, next_delay: float, env: dict[str, str]) -> None:
        base = [sys.executable, "-m", "skat.cli", "serve"]
        usage = subprocess.run([*base, "--help"], env=env, capture_output=True, text=True).stdout
        self.port = free_port()
        self.log = folder / "server.log"
        self.db = folder / "flood.db"
        cmd = [
            *base, "--host", "127.0.0.1", "--port", str(self.port),
            "--db", f"sqlite+aiosqlite:///{self.db}",
            "--bot-delay", "0", "--next-delay", str(next_delay), "--log-level", "warning",
        ]  # fmt: skip
        for option in LIMIT_OPTIONS:
            if option in usage:
                cmd += [option, "1000000"]
        self.proc = spawn_server(cmd, self.log, self.http, env)


# --------------------------------------------------------------------- tables
class Watched(Client):
    """A person at a table with two computer players: records how long each
    computer move takes, from the person's own ``act`` or the previous game
    event until the move arrives; keeps the seat token."""

    def __init__(
        self, table: Table, url: str, pace: float, moves: list[tuple[float, float]]
    ) -> None:
        super().__init__(table, url, "watcher", pace, Stats(), True)
        self.moves = moves  # (since, seconds)
        self.since: float | None = None
        self.sent_at: float | None = None
        self.token: str | None = None

    def _on(self, m: dict[str, Any]) -> None:
        now = time.perf_counter()
        t = m.get("type")
        if t == "seated":
            self.token = str(m["token"])
        elif t == "event":
            event = m.get("event") or {}
            kind = event.get("kind")
            if kind == "act" and event.get("seat") != self.seat:
                if self.since is not None:
                    self.moves.append((self.since, now - self.since))
                self.since = now
            elif kind == "act":
                self.since = self.sent_at if self.sent_at is not None else now
            elif kind in GAME_EVENTS:
                self.since = now
        super()._on(m)

    def _act(self, version: int) -> None:
        self.sent_at = time.perf_counter()
        super()._act(version)


async def start_watched(
    server: Server, pace: float, moves: list[tuple[float, float]], **options: Any
) -> tuple[Watched, asyncio.Task[None]]:
    """One person and two casual computer players (filled by the creator)."""
    loop = asyncio.get_running_loop()
    made = await loop.run_in_executor(None, lambda: server.create_table(**options))
    table = Table(str(made["id"]))
    table.viewers = 1
    client = Watched(table, f"ws://127.0.0.1:{server.port}/ws/{table.id}", pace, moves)
    await client.open(asyncio.Semaphore(1))
    task = asyncio.create_task(client.run())
    deadline = time.monotonic() + 20
    while client.token is None and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert client.ws is not None and client.token is not None, "the watcher was not seated"
    await client.ws.send(json.dumps({"type": "fill", "creator": made["creator"]}))
    return client, task


@dataclass
class StrongTables:
    """Tables of strong computer players (load.py's), their moves counted."""

    conns: list[ClientConnection]
    acts: list[list[float]] = field(default_factory=list)  # per table: arrival of each act
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    @classmethod
    async def start(cls, server: Server, n: int) -> StrongTables:
        made = cls(await start_strong_tables(server, n))
        for ws in made.conns:
            acts: list[float] = []
            made.acts.append(acts)
            made.tasks.append(asyncio.create_task(cls._count(ws, acts)))
        return made

    @staticmethod
    async def _count(ws: ClientConnection, acts: list[float]) -> None:
        with contextlib.suppress(ConnectionClosed, WebSocketException):
            async for raw in ws:
                m = _decode(raw)
                if m.get("type") == "event" and (m.get("event") or {}).get("kind") == "act":
                    acts.append(time.perf_counter())

    def moves(self, t0: float, t1: float) -> int:
        return sum(1 for table in self.acts for at in table if t0 <= at < t1)

    def gaps(self, t0: float, t1: float) -> list[float]:
        """Seconds between consecutive moves at each table (a decision's time)."""
        out = []
        for table in self.acts:
            inside = [at for at in table if t0 <= at < t1]
            out += [b - a for a, b in pairwise(inside)]
        return out

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for ws in self.conns:
            with contextlib.suppress(Exception):
                await ws.close()


class HintAsker:
    """One more connection with the person's seat token that asks for a hint
    whenever the seat has a decision, and again as soon as one is answered."""

    def __init__(self, url: str, token: str, hints: HintStats) -> None:
        self.url = url
        self.token = token
        self.hints = hints
        self.ws: ClientConnection | None = None
        self.seat: int | None = None
        self.version = -1
        self.ours = False  # the seat has a decision in the last view
        self.asked_at: float | None = None  # an ask in flight
        self.refused_at = -1  # the version a NO_DECISION refusal came for
        self.hold_until = 0.0  # after RATE_LIMITED: a second's pause
        self.active = False
        self.keeper = ViewKeeper()  # the view, each event's changes applied

    async def open(self) -> None:
        self.ws = await connect(self.url, open_timeout=30, max_size=2**20, compression="deflate")
        await self.ws.send(json.dumps({"type": "hello", "protocol": 2, "token": self.token}))

    async def run(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(ConnectionClosed, WebSocketException):
            async for raw in self.ws:
                self._on(_decode(raw))

    def _on(self, m: dict[str, Any]) -> None:
        now = time.perf_counter()
        t = m.get("type")
        if t == "welcome":
            self.seat = m.get("seat")
        elif t == "hint":
            if self.asked_at is not None:
                self.hints.answered.append((self.asked_at, now - self.asked_at))
                if m.get("fallback") is True:
                    self.hints.fallback.append((self.asked_at, now - self.asked_at))
                self.asked_at = None
        elif t == "error":
            code = str(m.get("code", "?"))
            if self.active:
                self.hints.refused[code] += 1
            if code == "NO_DECISION":
                self.refused_at = self.version
            elif code == "RATE_LIMITED":
                self.hold_until = now + RATE_PAUSE
            self.asked_at = None
        view = self.keeper.view if t in ("event", "state") and self.keeper.note(m) else None
        if view is not None:
            if self.asked_at is not None and int(m["version"]) != self.version:
                # the table moved on: that ask is never answered, and one sent
                # while the server still thinks about it is dropped: a pause
                self.hints.dropped += 1
                self.asked_at = None
                self.hold_until = now + MOVED_PAUSE
            self.version = int(m["version"])
            self.ours = view.get("turn") == self.seat and bool(view.get("legal"))
        self.ask()

    def ask(self) -> None:
        now = time.perf_counter()
        if self.asked_at is not None and now - self.asked_at > HINT_WAIT:
            self.hints.unanswered += 1  # dropped: the decision moved on meanwhile
            self.asked_at = None
        if not self.active or self.asked_at is not None or self.ws is None:
            return
        if not self.ours or self.refused_at == self.version or now < self.hold_until:
            return
        self.asked_at = now
        self.hints.asked += 1
        asyncio.get_running_loop().create_task(self._send('{"type":"hint"}'))

    async def _send(self, msg: str) -> None:
        assert self.ws is not None
        with contextlib.suppress(ConnectionClosed, WebSocketException):
            await self.ws.send(msg)

    async def tick(self) -> None:
        while True:
            await asyncio.sleep(0.25)
            self.ask()


@dataclass
class HintStats:
    asked: int = 0
    answered: list[tuple[float, float]] = field(default_factory=list)  # (asked at, seconds)
    fallback: list[tuple[float, float]] = field(default_factory=list)
    unanswered: int = 0  # no answer in HINT_WAIT
    dropped: int = 0  # no answer before the table moved on
    refused: Counter[str] = field(default_factory=Counter)


# ----------------------------------------------------------------- the flood
def flood_child(args: argparse.Namespace) -> None:
    """The analysis flood, in a process of its own: prints ``ready`` when it
    starts, then one JSON object with every request."""
    deals = [(str(t), int(n)) for t, n in json.loads(Path(args.flood_child).read_text())]
    print(json.dumps(asyncio.run(flood(args.http, deals, args.flood_clients, args.seconds))))


async def flood(
    http: str, deals: list[tuple[str, int]], clients: int, seconds: float
) -> dict[str, Any]:
    import httpx  # only the flood needs it

    asked: set[tuple[str, int]] = set()
    # (started, seconds, status (0: no answer), Retry-After, first of its deal, skipped)
    records: list[tuple[float, float, int, bool, bool, bool]] = []
    errors: Counter[str] = Counter()
    inflight = 0
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=http, limits=limits, timeout=30.0) as client:
        print("ready", flush=True)
        t0 = time.perf_counter()
        stop = t0 + seconds

        async def worker(k: int) -> None:
            nonlocal inflight
            order = deals[:]
            random.Random(k).shuffle(order)
            i = k
            while time.perf_counter() < stop:
                table, number = order[i % len(order)]
                i += 1
                first = (table, number) not in asked
                asked.add((table, number))
                s = time.perf_counter()
                inflight += 1
                try:
                    r = await client.get(f"/api/tables/{table}/deals/{number}/analysis")
                    late = time.perf_counter() - s
                    skipped = r.status_code == 200 and b'"skipped"' in r.content
                    retry = "retry-after" in r.headers
                    records.append((s - t0, late, r.status_code, retry, first, skipped))
                except httpx.HTTPError as exc:
                    errors[type(exc).__name__] += 1
                    records.append((s - t0, time.perf_counter() - s, 0, False, first, False))
                finally:
                    inflight -= 1

        tasks = [asyncio.create_task(worker(k)) for k in range(clients)]
        _, pending = await asyncio.wait(tasks, timeout=seconds + FLOOD_GRACE)
        unfinished = inflight
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "records": records,
        "errors": dict(errors),
        "unfinished": unfinished,
        "cpu": usage.ru_utime + usage.ru_stime,
    }


def flood_rows(out: dict[str, Any], seconds: float) -> tuple[list[Row], dict[str, Any]]:
    recs: list[list[Any]] = out["records"]
    ok = [r for r in recs if r[2] == 200]
    limited = [r for r in recs if r[2] in (429, 503)]
    other = Counter(str(r[2]) for r in recs if r[2] not in (0, 200, 429, 503))
    failed = [r for r in recs if r[2] == 0]
    first = [r[1] for r in ok if r[4]]
    again = [r[1] for r in ok if not r[4]]
    res: dict[str, Any] = {
        "requests": len(recs),
        "ok": len(ok),
        "ok_per_s": len(ok) / seconds,
        "ok_skipped": sum(1 for r in ok if r[5]),
        "ok_median_s": median([r[1] for r in ok]),
        "ok_p99_s": pct([r[1] for r in ok], 0.99),
        "ok_distinct": len(first),
        "ok_distinct_median_s": median(first),
        "ok_repeated_median_s": median(again),
        "limited": len(limited),
        "limited_by_status": dict(Counter(str(r[2]) for r in limited)),
        "limited_retry_after": sum(1 for r in limited if r[3]),
        "limited_median_s": median([r[1] for r in limited]),
        "other_status": dict(other),
        "errors": len(failed),
        "errors_by_kind": out["errors"],
        "errors_median_s": median([r[1] for r in failed]),
        "unfinished": out["unfinished"],
        "flood_cpu_s": out["cpu"],
    }
    rows = [
        ("flood requests", f"{len(recs)} ({len(recs) / seconds:.1f}/s), unfinished at the end "
         f"{out['unfinished']}, flood process cpu {out['cpu']:.1f} s"),
        ("  answered 200", f"{len(ok)} ({res['ok_skipped']} skipped deals), median "
         f"{ms(res['ok_median_s'])}, p99 {ms(res['ok_p99_s'])}"),
        ("  200 distinct/repeated", f"{len(first)} median {ms(res['ok_distinct_median_s'])} / "
         f"{len(again)} median {ms(res['ok_repeated_median_s'])}"),
        ("  answered 429/503", f"{len(limited)} {res['limited_by_status'] or ''}, Retry-After on "
         f"{res['limited_retry_after']}, median {ms(res['limited_median_s'])}"),
        ("  other answers", str(dict(other)) if other else "0"),
        ("  errors", f"{len(failed)} {out['errors'] or ''}, median {ms(res['errors_median_s'])}"),
    ]  # fmt: skip
    return rows, res


async def run_flood(
    http: str, deals: list[tuple[str, int]], folder: Path, clients: int, seconds: float
) -> asyncio.subprocess.Process:
    """Starts the flood process: it floods for ``seconds`` from its return."""
    path = folder / "deals.json"
    path.write_text(json.dumps(deals))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.server.flood", "--flood-child", str(path),
        "--http", http, "--flood-clients", str(clients), "--seconds", str(seconds),
        stdout=asyncio.subprocess.PIPE, cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), 30)
    if line.strip() != b"ready":
        raise SystemExit(f"the flood did not start: {line!r}")
    return proc


async def make_deals(
    server: Server, tables: int, rounds: int, timeout: float
) -> tuple[list[tuple[str, int]], float]:
    """Lists of computer players only, played to the end (or ``timeout``):
    the settled deals (table, number) and the seconds it took."""
    loop = asyncio.get_running_loop()
    started = time.perf_counter()
    made = await asyncio.gather(
        *(
            loop.run_in_executor(None, lambda: create_table(server.http, rounds=rounds))
            for _ in range(tables)
        )
    )
    conns = []
    for m in made:
        ws = await connect(f"ws://127.0.0.1:{server.port}/ws/{m['id']}", max_size=None)
        await ws.send('{"type":"hello","protocol":2}')
        await ws.send(json.dumps({"type": "fill", "creator": m["creator"]}))
        conns.append(ws)

    async def drain(ws: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed, WebSocketException):
            async for _ in ws:
                pass

    readers = [asyncio.create_task(drain(ws)) for ws in conns]
    settled: dict[str, int] = {}
    deadline = time.monotonic() + timeout
    while True:
        states = await asyncio.gather(
            *(
                loop.run_in_executor(None, get_json, f"{server.http}/api/tables/{m['id']}")
                for m in made
            )
        )
        done = 0
        for m, st in zip(made, states, strict=True):
            number = int((st.get("deal") or {}).get("number", 0))
            over = st["table"]["status"] == "finished"
            settled[m["id"]] = number if over else max(0, number - 1)
            done += over
        if done == len(made) or time.monotonic() > deadline:
            break
        await asyncio.sleep(1.0)
    for task in readers:
        task.cancel()
    for ws in conns:
        await ws.close()
    deals = [(t, n) for t, last in settled.items() for n in range(1, last + 1)]
    return deals, time.perf_counter() - started


# ---------------------------------------------------------------- measuring
class Bench:
    """One scenario's server, its measured tables and its results."""

    def __init__(self, args: argparse.Namespace, folder: Path, next_delay: float) -> None:
        self.args = args
        self.folder = folder
        self.server = FloodServer(folder, next_delay, server_env(args.src))
        self.log = ServerLog(self.server.log)
        self.cpu = CpuMeter(self.server.proc.pid)
        self.stats = Stats()  # the human table's, and the generator's lag
        self.moves: list[tuple[float, float]] = []  # computer moves at the watched table
        self.human = Load(
            self.server,
            argparse.Namespace(pace=args.pace, no_compression=False, warmup=0.0),
            self.stats,
        )
        self.tasks: list[asyncio.Task[None]] = []
        self.watched: Watched | None = None
        self.pids: set[int] = set()

    async def start_tables(self, **watched_options: Any) -> None:
        self.tasks.append(asyncio.create_task(lag_monitor(self.stats)))
        if not await self.human.grow(1, 30):
            raise SystemExit("the human table did not start")
        self.watched, task = await start_watched(
            self.server, self.args.pace, self.moves, **watched_options
        )
        self.tasks.append(task)

    async def window(
        self, label: str, seconds: float, during: Callable[[], Awaitable[None]] | None = None
    ) -> tuple[list[Row], dict[str, Any], float, float]:
        """Measures ``seconds`` (running ``during`` meanwhile); rows and figures
        of the two measured tables, and the window's start and end."""
        cpu0, log0 = self.cpu.seconds(), self.log.offset()
        t0 = time.perf_counter()
        if during is None:
            await asyncio.sleep(seconds)
        else:
            await during()
        t1 = time.perf_counter()
        cpu1, log1 = self.cpu.seconds(), self.log.offset()
        await asyncio.sleep(1.0)  # what was sent at the end of the window arrives
        lat = between(self.stats.samples, t0, t1)
        bot = between(self.moves, t0, t1)
        lag = between(self.stats.lag, t0, t1)
        falls = self.log.fallbacks(log0, log1)
        self.pids.update(search_workers(self.server.proc.pid))
        res: dict[str, Any] = {
            "seconds": t1 - t0,
            "human_p50_s": pct(lat, 0.5),
            "human_p99_s": pct(lat, 0.99),
            "human_max_s": max(lat, default=float("nan")),
            "human_samples": len(lat),
            "human_errors": dict(self.stats.errors),
            "computer_median_s": median(bot),
            "computer_p90_s": pct(bot, 0.9),
            "computer_max_s": max(bot, default=float("nan")),
            "computer_moves": len(bot),
            "fallbacks": sum(falls.values()),
            "fallback_reasons": dict(falls),
            "server_cpu": (cpu1 - cpu0) / (t1 - t0),
            "generator_lag_p99_s": pct(lag, 0.99),
        }
        self.stats.errors.clear()
        rows = [
            (f"{label}: human table", f"p50 {ms(res['human_p50_s'])}, p99 "
             f"{ms(res['human_p99_s'])}, max {ms(res['human_max_s'])} ({len(lat)} samples)"
             + (f", errors {res['human_errors']}" if res["human_errors"] else "")),
            (f"{label}: computer move", f"median {ms(res['computer_median_s'])}, p90 "
             f"{ms(res['computer_p90_s'])}, max {ms(res['computer_max_s'])} ({len(bot)} moves)"),
            (f"{label}: fallbacks", f"{res['fallbacks']}"
             + (f" {dict(falls.most_common(3))}" if falls else "")),
            (f"{label}: server cpu", f"{res['server_cpu']:.0%} of a core (workers included), "
             f"generator lag p99 {ms(res['generator_lag_p99_s'])}"),
        ]  # fmt: skip
        return rows, res, t0, t1

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.human.close()
        if self.watched is not None and self.watched.ws is not None:
            with contextlib.suppress(Exception):
                await self.watched.ws.close()

    def stop(self) -> None:
        self.pids.update(search_workers(self.server.proc.pid))
        self.server.stop()
        for pid in self.pids:  # a worker the stopped server left behind (ours)
            with contextlib.suppress(OSError):
                if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text(errors="replace"):
                    os.kill(pid, signal.SIGTERM)


async def scenario_analysis(b: Bench, args: argparse.Namespace) -> tuple[list[Row], dict[str, Any]]:
    deals, took = await make_deals(b.server, args.deal_tables, args.deal_rounds, args.deal_timeout)
    rows: list[Row] = [("settled deals", f"{len(deals)} in {took:.1f} s")]
    await b.start_tables()
    await asyncio.sleep(args.warmup)
    quiet_rows, quiet, _, _ = await b.window("quiet", args.seconds)
    proc = await run_flood(b.server.http, deals, b.folder, args.flood_clients, args.seconds)
    flood_rows_, loud, _, _ = await b.window("flood", args.seconds)  # as long as the flood
    out, _ = await proc.communicate()
    frows, fres = flood_rows(json.loads(out), args.seconds)
    rows += quiet_rows + flood_rows_ + frows
    return rows, {"deals": len(deals), "deals_seconds": took, "quiet": quiet, "flood": loud, **fres}


async def scenario_hints(b: Bench, args: argparse.Namespace) -> tuple[list[Row], dict[str, Any]]:
    await b.start_tables(hint=True)
    assert b.watched is not None and b.watched.token is not None
    hints = HintStats()
    url = f"ws://127.0.0.1:{b.server.port}/ws/{b.watched.table.id}"
    askers = [HintAsker(url, b.watched.token, hints) for _ in range(args.hint_conns)]
    await asyncio.gather(*(a.open() for a in askers))
    b.tasks += [asyncio.create_task(a.run()) for a in askers]
    b.tasks += [asyncio.create_task(a.tick()) for a in askers]
    await asyncio.sleep(args.warmup)

    async def during() -> None:
        for a in askers:
            a.active = True
            a.ask()
        await asyncio.sleep(args.seconds)
        for a in askers:
            a.active = False

    rows, res, t0, t1 = await b.window("hints", args.seconds, during)
    answered = between(hints.answered, t0, t1)
    fell = between(hints.fallback, t0, t1)
    seconds = t1 - t0
    res |= {
        "hint_conns": len(askers),
        "hints_asked": hints.asked,
        "hints_answered": len(answered),
        "hints_per_s": len(answered) / seconds,
        "hint_median_s": median(answered),
        "hint_p90_s": pct(answered, 0.9),
        "hint_max_s": max(answered, default=float("nan")),
        "hints_fallback": len(fell),
        "hint_fallback_median_s": median(fell),
        "hint_fallback_p90_s": pct(fell, 0.9),
        "hint_fallback_max_s": max(fell, default=float("nan")),
        "hints_unanswered": hints.unanswered,
        "hints_dropped": hints.dropped,
        "hints_refused": dict(hints.refused),
    }
    rows += [
        ("hints answered", f"{len(answered)} of {hints.asked} asked ({res['hints_per_s']:.1f}/s), "
         f"median {ms(res['hint_median_s'])}, p90 {ms(res['hint_p90_s'])}, max "
         f"{ms(res['hint_max_s'])}"),
        ('  "fallback": true', f"{len(fell)}, median {ms(res['hint_fallback_median_s'])}, p90 "
         f"{ms(res['hint_fallback_p90_s'])}, max {ms(res['hint_fallback_max_s'])}"),
        ("  moved on / unanswered", f"{hints.dropped} / {hints.unanswered} in "
         f"{HINT_WAIT} s; refused: {dict(hints.refused) or 0}"),
    ]  # fmt: skip
    return rows, res


async def scenario_strong(b: Bench, args: argparse.Namespace) -> tuple[list[Row], dict[str, Any]]:
    strong = await StrongTables.start(b.server, args.strong_tables)
    try:
        await b.start_tables()
        await asyncio.sleep(args.warmup)
        rows, res, t0, t1 = await b.window("strong", args.seconds)
        moves = strong.moves(t0, t1)
        gaps = strong.gaps(t0, t1)
    finally:
        await strong.close()
    seconds = t1 - t0
    searched = max(0, moves - res["fallbacks"])
    res |= {
        "strong_tables": args.strong_tables,
        "strong_moves": moves,
        "strong_moves_per_s": moves / seconds,
        "strong_searched_estimate": searched,
        "strong_gap_median_s": median(gaps),
        "strong_gap_p90_s": pct(gaps, 0.9),
        "search_workers": len(b.pids),
    }
    rows += [
        ("strong moves", f"{moves} ({moves / seconds:.1f}/s over {args.strong_tables} tables), "
         f"not fallbacks ~{searched}; time per move median {ms(res['strong_gap_median_s'])}, "
         f"p90 {ms(res['strong_gap_p90_s'])}"),
    ]  # fmt: skip
    return rows, res


async def scenario_kill(b: Bench, args: argparse.Namespace) -> tuple[list[Row], dict[str, Any]]:
    pid = b.server.proc.pid
    loop = asyncio.get_running_loop()
    strong = await StrongTables.start(b.server, 1)
    samples: list[dict[str, Any]] = []
    try:
        await b.start_tables()
        deadline = time.monotonic() + 30
        while not search_workers(pid) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        await asyncio.sleep(args.warmup)
        before_t0 = time.perf_counter() - args.warmup
        log_before = b.log.offset()
        pre_moves = strong.moves(before_t0, time.perf_counter())
        victims = search_workers(pid)
        b.pids.update(victims)
        for victim in victims:
            with contextlib.suppress(OSError):
                os.kill(victim, signal.SIGKILL)
        killed_at = time.perf_counter()
        log0 = b.log.offset()
        pre_falls = sum(b.log.fallbacks(log_before, log0).values())

        async def during() -> None:
            for second in range(1, int(args.kill_seconds) + 1):
                await asyncio.sleep(max(0.0, killed_at + second - time.perf_counter()))
                now = time.perf_counter()
                samples.append(
                    {
                        "t": second,
                        "fallbacks": sum(b.log.fallbacks(log0).values()),
                        "moves": strong.moves(killed_at, now),
                        "workers": search_workers(pid),
                        "healthz": await loop.run_in_executor(None, healthz, b.server.http),
                    }
                )

        rows, res, _, t1 = await b.window("after kill", args.kill_seconds, during)
        first_move = next((at for at in strong.acts[0] if at >= killed_at), None)
    finally:
        await strong.close()
    last5 = [s for s in samples if s["t"] > args.kill_seconds - 5]
    tail_moves = last5[-1]["moves"] - samples[-6]["moves"] if len(samples) > 5 else 0
    tail_falls = last5[-1]["fallbacks"] - samples[-6]["fallbacks"] if len(samples) > 5 else 0
    new_workers = sorted({w for s in samples for w in s["workers"]} - set(victims))
    res |= {
        "killed": victims,
        "before_moves": pre_moves,
        "before_fallbacks": pre_falls,
        "moves": strong.moves(killed_at, t1),
        "first_move_after_s": None if first_move is None else first_move - killed_at,
        "new_workers": new_workers,
        "last5_moves": tail_moves,
        "last5_fallbacks": tail_falls,
        "recovered": bool(new_workers) and tail_moves > 0 and tail_falls == 0,
        "healthz": dict(Counter(s["healthz"] for s in samples)),
        "samples": samples,
    }
    per_s = " ".join(f"{s['fallbacks']}" for s in samples)
    rows += [
        ("killed workers", f"{victims}; before: {pre_moves} strong moves, {pre_falls} "
         f"fallbacks in {args.warmup:.0f} s"),
        ("strong moves after", f"{res['moves']} in {args.kill_seconds:.0f} s, first after "
         + ("-" if first_move is None else f"{first_move - killed_at:.2f} s")),
        ("fallbacks (cumulative/s)", per_s),
        ("last 5 s", f"{tail_moves} moves, {tail_falls} fallbacks; new workers: "
         f"{new_workers or 'none'}; recovered: {res['recovered']}"),
        ("GET /healthz", str(res["healthz"])),
    ]  # fmt: skip
    return rows, res


RUNNERS: dict[
    str, Callable[[Bench, argparse.Namespace], Awaitable[tuple[list[Row], dict[str, Any]]]]
] = {
    "analysis": scenario_analysis,
    "hints": scenario_hints,
    "strong": scenario_strong,
    "kill-search": scenario_kill,
}


def print_rows(title: str, rows: list[Row]) -> None:
    width = max(len(k) for k, _ in rows)
    print(f"== {title}", flush=True)
    for k, v in rows:
        print(f"  {k:<{width}}  {v}", flush=True)


async def scenario(name: str, args: argparse.Namespace) -> dict[str, Any]:
    load0 = loadavg()
    with tempfile.TemporaryDirectory(prefix="skat-flood-") as tmp:
        next_delay = 0.0 if name == "analysis" else args.next_delay
        b = Bench(args, Path(tmp), next_delay)
        try:
            rows, res = await RUNNERS[name](b, args)
            await b.close()
        finally:
            b.stop()
        tracebacks = sum(1 for line in b.log.lines(0) if line.startswith("Traceback"))
    load1 = loadavg()
    rows = [("load average", f"{load0} -> {load1}"), *rows]
    if tracebacks:
        rows.append(("server log", f"{tracebacks} tracebacks"))
    print_rows(name, rows)
    return {"load_start": load0, "load_end": load1, "tracebacks": tracebacks, **res}


def _terminate(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt  # stop the server in the finally blocks


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--scenario", nargs="+", choices=(*SCENARIOS, "all"), default=["all"], metavar="NAME",
        help=f"one or more of {', '.join(SCENARIOS)}, or all",
    )  # fmt: skip
    parser.add_argument("--src", help="a source tree whose src/ the server runs (default: this)")
    parser.add_argument("--seconds", type=float, default=25.0, help="seconds per measured window")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--pace", type=float, default=2.0, help="a person's mean seconds per act")
    parser.add_argument("--next-delay", type=float, default=1.0, help="(analysis: always 0)")
    parser.add_argument("--deal-tables", type=int, default=5, help="analysis: computer lists")
    parser.add_argument("--deal-rounds", type=int, default=12, help="analysis: rounds per list")
    parser.add_argument("--deal-timeout", type=float, default=180.0, help="analysis: at most")
    parser.add_argument("--flood-clients", type=int, default=60, help="analysis: HTTP clients")
    parser.add_argument("--hint-conns", type=int, default=30, help="hints: connections")
    parser.add_argument("--strong-tables", type=int, default=8, help="strong: tables")
    parser.add_argument("--kill-seconds", type=float, default=20.0, help="kill-search: seconds")
    parser.add_argument("--flood-child", help=argparse.SUPPRESS)  # the flood's own process
    parser.add_argument("--http", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.flood_child:
        flood_child(args)
        return
    names = list(SCENARIOS) if "all" in args.scenario else list(dict.fromkeys(args.scenario))
    raise_nofile(4096)
    signal.signal(signal.SIGTERM, _terminate)
    print(f"[server's skat: {skat_origin(server_env(args.src))}]", flush=True)
    results: dict[str, Any] = {"src": args.src}
    try:
        for name in names:
            results[name] = asyncio.run(scenario(name, args))
    except KeyboardInterrupt:
        pass
    print(json.dumps(results, default=str))


if __name__ == "__main__":
    main()
