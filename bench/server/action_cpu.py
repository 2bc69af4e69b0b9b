#!/usr/bin/env python3
"""The server's CPU time per accepted action (the figure that decides how
many tables a core holds).

    .venv/bin/python -m bench.server.action_cpu --tables 100 --pace 1 --seconds 20 --runs 3
    .venv/bin/python -m bench.server.action_cpu --compare ../old/src  # alternate with another
    .venv/bin/python -m bench.server.action_cpu --runs 1 --profile prof.txt  # py-spy stacks

Each run starts a real `skat serve` (uvicorn, a fresh SQLite file), and in
this process three seated websocket clients per table plus one spectator on
every ``--spectated``-th table (no computer players). A seated client whose
turn it is waits ``--pace`` seconds (± 50 %) and sends a legal action. Over
the measured window the server process's own CPU time (user + system of all
its threads, from /proc/PID/stat) is divided by the actions it accepted
(``act`` rows stored in that window, read from the SQLite file afterwards).
That CPU includes everything the server does for those actions: websocket
frames in and out, validation, the store, every viewer's message, and the
few other events of a deal (``next``, one per deal). The generator's own CPU
and event-loop lag are printed separately, with the load average.

``--compare SRC`` runs the server from another source tree (``SRC`` is put
first on its PYTHONPATH: e.g. the ``src`` folder of a `git worktree` of an
older commit) alternately with this one, so both see the same machine;
``SRC`` may list several folders (``a:b``), ``--src`` names this one's.

Not a test: the figures depend on the machine (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shlex
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.server.load import (
    Client,
    Stats,
    Table,
    lag_monitor,
    pct,
    raise_nofile,
)
from bench.server.load import Server as LoadServer

CREATE_PARALLEL = 8
CONNECT_PARALLEL = 50


class Server(LoadServer):
    """`skat serve` on a fresh SQLite file, from ``src`` when given."""

    def __init__(
        self, folder: Path, src: str | None, next_delay: float, flags: Sequence[str] = ()
    ) -> None:
        env = dict(os.environ)
        if src is not None:
            paths = [str(Path(x).resolve()) for x in src.split(os.pathsep)]
            env["PYTHONPATH"] = os.pathsep.join([*paths, *filter(None, [env.get("PYTHONPATH")])])
        super().__init__(folder, next_delay, db="cpu.db", env=env, flags=flags)

    def main_thread_seconds(self) -> float:
        """CPU time of the server's main thread alone (the event loop); the
        rest is SQLite's thread (aiosqlite) and the thread pools."""
        fields = (
            Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/stat")
            .read_text()
            .rsplit(")", 1)[1]
            .split()
        )
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def system_seconds(self) -> float:
        """The kernel's share of the server's CPU time (system time, all
        threads): the socket calls, loopback delivery to the clients included."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[12]) / os.sysconf("SC_CLK_TCK")

    def stored(self, t0: float, t1: float) -> dict[str, int]:
        """Events stored between two wall-clock times, by kind."""
        with contextlib.closing(sqlite3.connect(self.db)) as db:
            rows = db.execute(
                "SELECT kind, count(*) FROM skat_events WHERE at >= ? AND at < ? GROUP BY kind",
                (t0, t1),
            ).fetchall()
        return {str(k): int(n) for k, n in rows}


@dataclass
class Run:
    label: str
    seconds: float
    acts: int
    events: int
    server_cpu: float  # seconds
    loop_cpu: float  # seconds, of the main thread (the event loop)
    sys_cpu: float  # seconds, the kernel's part of server_cpu
    gen_cpu: float  # seconds
    gen_lag_p99: float
    p50: float
    p99: float
    load: float  # 1-minute load average at the end

    @property
    def ms_per_act(self) -> float:
        return 1000 * self.server_cpu / self.acts if self.acts else float("nan")

    def line(self) -> str:
        return (
            f"{self.label}: {self.ms_per_act:.3f} ms server CPU per accepted action "
            f"({self.acts} acts, {self.events} events in {self.seconds:.1f} s, "
            f"{self.acts / self.seconds:.0f} acts/s, server {self.server_cpu / self.seconds:.0%} "
            f"of a core, event loop thread {self.loop_cpu / self.server_cpu:.0%} of that, "
            f"kernel {self.sys_cpu / self.server_cpu:.0%}); "
            f"generator {self.gen_cpu / self.seconds:.0%} of a core, "
            f"lag p99 {self.gen_lag_p99 * 1000:.1f} ms; latency p50 {self.p50 * 1000:.1f} ms, "
            f"p99 {self.p99 * 1000:.1f} ms; load average {self.load:.2f}"
        )


async def drive(server: Server, args: argparse.Namespace, label: str) -> Run:
    loop = asyncio.get_running_loop()
    stats = Stats()
    monitor = asyncio.create_task(lag_monitor(stats))
    tables: list[Table] = []
    while len(tables) < args.tables:
        batch = min(CREATE_PARALLEL, args.tables - len(tables))
        made = await asyncio.gather(
            *(loop.run_in_executor(None, server.create_table) for _ in range(batch))
        )
        tables += [Table(str(m["id"])) for m in made]
    clients: list[Client] = []
    for i, table in enumerate(tables):
        url = f"ws://127.0.0.1:{server.port}/ws/{table.id}"
        watched = args.spectated > 0 and i % args.spectated == 0
        table.viewers = 4 if watched else 3
        for seat in range(3):
            clients.append(Client(table, url, f"p{seat}", args.pace, stats, False))
        if watched:
            clients.append(Client(table, url, "watcher", args.pace, stats, False, sit=False))
    gate = asyncio.Semaphore(CONNECT_PARALLEL)
    await asyncio.gather(*(c.open(gate) for c in clients))
    tasks = [asyncio.create_task(c.run()) for c in clients]
    deadline = time.monotonic() + 120
    while any(t.seated < 3 for t in tables) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    if any(t.seated < 3 for t in tables):
        print(f"[{label}: not every table seated in time; the window holds sits]", flush=True)
    await asyncio.sleep(args.warmup)
    profiler = None
    if args.profile:
        profiler = subprocess.Popen(
            [
                args.py_spy, "record", "--pid", str(server.proc.pid), "--format", "raw",
                "--rate", "250", "--duration", str(int(args.seconds)), *args.py_spy_args,
                "--output", args.profile,
            ],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
    main0, cpu0, sys0 = server.main_thread_seconds(), server.cpu_seconds(), server.system_seconds()
    gen0, w0, t0 = time.process_time(), time.time(), time.perf_counter()
    await asyncio.sleep(args.seconds)
    main1, cpu1, sys1 = server.main_thread_seconds(), server.cpu_seconds(), server.system_seconds()
    gen1, w1, t1 = time.process_time(), time.time(), time.perf_counter()
    await asyncio.sleep(1.0)  # acts sent at the end arrive
    for c in clients:
        c.stopped = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    monitor.cancel()
    for _ in range(5):  # sends still in flight (a cancelled one may have started another)
        rest = asyncio.all_tasks() - {asyncio.current_task()}
        if not rest:
            break
        for task in rest:
            task.cancel()
        await asyncio.gather(*rest, return_exceptions=True)
    if profiler is not None:
        profiler.wait(timeout=60)
    stored = server.stored(w0, w1)
    others = {k: n for k, n in stored.items() if k != "act"}
    if others:
        print(f"[{label}: other events stored in the window: {others}]", flush=True)
    lat = [x for at, x in stats.samples if t0 <= at < t1]
    lag = [x for at, x in stats.lag if t0 <= at < t1]
    if stats.errors:
        print(f"[{label}: errors from the server: {dict(stats.errors)}]", flush=True)
        print(server.log.read_text()[-3000:], flush=True)
    return Run(
        label,
        t1 - t0,
        stored.get("act", 0),
        sum(stored.values()),
        cpu1 - cpu0,
        main1 - main0,
        sys1 - sys0,
        gen1 - gen0,
        pct(lag, 0.99),
        pct(lat, 0.5),
        pct(lat, 0.99),
        os.getloadavg()[0],
    )


def one_run(
    args: argparse.Namespace, src: str | None, label: str, flags: Sequence[str] = ()
) -> Run:
    with tempfile.TemporaryDirectory(prefix="skat-cpu-") as tmp:
        server = Server(Path(tmp), src, args.next_delay, flags)
        try:
            return asyncio.run(drive(server, args, label))
        finally:
            server.stop()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--pace", type=float, default=1.0, help="mean seconds per action")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds per run")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--runs", type=int, default=3, help="runs (per version with --compare)")
    parser.add_argument(
        "--spectated", type=int, default=2, help="one spectator on every n-th table (0: none)"
    )
    parser.add_argument("--next-delay", type=float, default=1.0)
    parser.add_argument("--src", help="run this source tree's server (default: the installed one)")
    parser.add_argument("--compare", metavar="SRC", help="another source tree to alternate with")
    parser.add_argument("--flags", default="", help="more options of this version's skat serve")
    parser.add_argument(
        "--compare-flags",
        metavar="FLAGS",
        help="more options of the compared version's skat serve; without --compare, "
        "the same tree with these options is the compared version",
    )
    parser.add_argument("--profile", metavar="FILE", help="py-spy collapsed stacks of one run")
    parser.add_argument("--py-spy", default=str(Path(sys.executable).parent / "py-spy"))
    parser.add_argument(
        "--py-spy-args", nargs="*", default=["--gil"], help="(default --gil: CPU of Python code)"
    )
    args = parser.parse_args(argv)
    raise_nofile(4 * args.tables + 1024)
    flags = shlex.split(args.flags)
    label = (args.src or "this") + (f" {args.flags}" if args.flags else "")
    versions: list[tuple[str, str | None, list[str]]] = [(label, args.src, flags)]
    if args.compare or args.compare_flags is not None:
        other = shlex.split(args.compare_flags or "")
        src = args.compare or args.src
        where = args.compare or "this"
        versions.append((f"compare ({where} {args.compare_flags or ''})".strip(), src, other))
    runs: dict[str, list[Run]] = {label: [] for label, _, _ in versions}
    for i in range(args.runs):
        for label, src, extra in versions if i % 2 == 0 else versions[::-1]:
            run = one_run(args, src, label, extra)
            runs[label].append(run)
            print(run.line(), flush=True)
    for label, rs in runs.items():
        ms = [r.ms_per_act for r in rs]
        print(
            f"{label}: median {statistics.median(ms):.3f} ms per accepted action "
            f"over {len(rs)} runs ({', '.join(f'{x:.3f}' for x in ms)}); "
            f"median acts/s {statistics.median(r.acts / r.seconds for r in rs):.0f}, "
            f"p99 {statistics.median(r.p99 for r in rs) * 1000:.1f} ms",
            flush=True,
        )


if __name__ == "__main__":
    main()
