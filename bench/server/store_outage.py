#!/usr/bin/env python3
"""Tables through a short storage failure (issue 28, finding 1).

    .venv/bin/python -m bench.server.store_outage --src /work/wt-base --src .

For each source tree (its ``src/`` first on the server's PYTHONPATH, so an
older commit can be measured in the same run): a real `skat serve` on a
SQLite file, ``--tables`` tables of one person and two computer players
(the person plays every turn, as the tests' `Human` does, and sends a move
again when the server could not store it). Once every table has played,
the server's file-size limit is set below its database files for
``--outage`` seconds (SQLite then fails as on a full disk), then lifted.
Printed per tree: moves stored at each table in the ``--after`` seconds
after the limit is lifted, the seconds until every table had moved again,
and what `/healthz` said during the outage.

Not a test: the figures depend on the machine (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.helpers.processes import Human, Server, Watcher, play_on
from tests.helpers.stores import Db

from skat.server.services import free_port


def health(srv: Server) -> int:
    try:
        with urllib.request.urlopen(f"{srv.http}/healthz", timeout=2) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
    except OSError:
        return 0


async def measure(src: Path, tables: int, outage: float, after: float) -> dict[str, Any]:
    os.environ["PYTHONPATH"] = str(src.resolve() / "src")
    folder = Path(tempfile.mkdtemp(prefix="skat-outage-"))
    db = Db("sqlite", f"sqlite+aiosqlite:///{folder / 'skat.db'}", folder / "skat.db")
    srv = Server(free_port(), db, folder / "server.log")
    srv.extra = ["--bot-delay", "0.05"]
    srv.start()
    stop = asyncio.Event()
    watchers: list[Watcher] = []
    tasks: list[asyncio.Task[None]] = []
    hard = resource.RLIM_INFINITY
    try:
        for i in range(tables):
            t = srv.post("/api/tables", {"rounds": 12})
            url = f"{srv.ws}/ws/{t['id']}"
            w = Watcher()
            watchers.append(w)
            tasks.append(asyncio.create_task(w.run(url, None, stop)))
            person = Human(f"Anna {i}", random.Random(i))
            tasks.append(asyncio.create_task(play_on(person, url, t["creator"], stop)))
        deadline = time.monotonic() + 30
        while not all(len(w.acts) >= 8 for w in watchers) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert srv.proc is not None
        resource.prlimit(srv.proc.pid, resource.RLIMIT_FSIZE, (1024, hard))
        await asyncio.sleep(outage / 2)
        during = health(srv)
        await asyncio.sleep(outage / 2)
        at_heal = [len(w.acts) for w in watchers]
        resource.prlimit(srv.proc.pid, resource.RLIMIT_FSIZE, (hard, hard))
        healed = time.monotonic()
        resumed: float | None = None
        while time.monotonic() - healed < after:
            if resumed is None and all(
                len(w.acts) > n for w, n in zip(watchers, at_heal, strict=True)
            ):
                resumed = time.monotonic() - healed
            await asyncio.sleep(0.1)
        moves = [len(w.acts) - n for w, n in zip(watchers, at_heal, strict=True)]
        return {
            "src": str(src),
            "moves_after": moves,
            "resumed_s": None if resumed is None else round(resumed, 2),
            "healthz_during": during,
            "healthz_after": health(srv),
        }
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        srv.kill()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", type=Path, action="append", help="a source tree (repeatable)")
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--outage", type=float, default=5.0, help="seconds the disk is full")
    parser.add_argument("--after", type=float, default=60.0, help="seconds counted after")
    args = parser.parse_args(argv)
    print(f"load average at start: {Path('/proc/loadavg').read_text().split()[:3]}")
    results = []
    for src in args.src or [Path(".")]:
        r = asyncio.run(measure(src, args.tables, args.outage, args.after))
        results.append(r)
        print(
            f"{r['src']}: moves in the {args.after:.0f} s after: {r['moves_after']}; "
            f"every table moved again after {r['resumed_s']} s; "
            f"/healthz during {r['healthz_during']}, after {r['healthz_after']}",
            flush=True,
        )
    print(f"load average at end: {Path('/proc/loadavg').read_text().split()[:3]}")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
