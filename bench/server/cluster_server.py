"""The server side of `bench/server/load.py --workers N`: a real cluster (nginx in
front of N `skat serve` workers on PostgreSQL or one SQLite file), started
by `skat.server.cluster` exactly as `skat cluster` starts it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from skat.server.cluster import Cluster
from skat.server.services import Postgres


def _cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def _children(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == parent:
                found.append(int(entry.name))
    return found


class ClusterServer:
    """The interface of load.py's `Server`, for a cluster."""

    def __init__(self, folder: Path, workers: int, store: str, worker_args: list[str]) -> None:
        self.pg: Postgres | None = None
        if store == "postgres":
            self.pg = Postgres()  # durable settings, as in production
            self.pg.start()
            self.pg.create_database("load")
            url = self.pg.url("load")
        else:
            url = f"sqlite+aiosqlite:///{folder / 'load.db'}"
        self.cluster = Cluster(folder / "cluster", workers=workers, db_url=url,
                               worker_args=worker_args)  # fmt: skip
        self.cluster.start()
        self.port = self.cluster.port

    @property
    def http(self) -> str:
        return self.cluster.address

    def create_table(self, **extra: Any) -> dict[str, Any]:
        from bench.server.load import create_table  # the generator's own request

        out: dict[str, Any] = create_table(self.http, **extra)
        return out

    def worker_cpu_seconds(self) -> float:
        return sum(_cpu(w.pid) for w in self.cluster.members if w.pid is not None)

    def support_cpu_seconds(self) -> float:
        """nginx and PostgreSQL (the postmaster and its backends)."""
        pids: list[int] = []
        if self.cluster.nginx is not None and self.cluster.nginx.process is not None:
            master = self.cluster.nginx.process.pid
            pids += [master, *_children(master)]
        if self.pg is not None:
            pidfile = self.pg.data / "postmaster.pid"
            if pidfile.exists():
                master = int(pidfile.read_text().split()[0])
                pids += [master, *_children(master)]
        return sum(_cpu(p) for p in pids)

    def cpu_seconds(self) -> float:
        """Everything on the server side: workers, nginx, PostgreSQL (its
        backends come and go with the pools; a backend that exited takes its
        time with it, so this is a lower bound)."""
        return self.worker_cpu_seconds() + self.support_cpu_seconds()

    def stop(self) -> None:
        self.cluster.stop()
        if self.pg is not None:
            self.pg.stop()
