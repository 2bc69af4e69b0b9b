"""The cluster's pieces shared by its tests: skipping (or, in CI, failing)
where nginx or PostgreSQL is missing, requests through the proxy, a
table's owner in the store, and people seated through the proxy. The
PostgreSQL fixtures (`pg_server`, `db_url`) are in tests/server/conftest.py."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from skat.server.cluster import Cluster, nginx_binary
from skat.server.store import Store
from tests.helpers.processes import Human

LEASE_TTL = 2.0  # seconds; the workers' lease time in these tests
#: the workers of `two_workers`: short leases, computer players without delay
WORKER_ARGS = (
    "--lease-ttl", str(LEASE_TTL), "--bot-delay", "0", "--next-delay", "0",
    "--next-delay-people", "0", "--solo-next", "countdown", "--grace", "30",
    "--log-level", "warning",
)  # fmt: skip


@contextlib.contextmanager
def two_workers(root: Path, db_url: str, extra: tuple[str, ...] = ()) -> Iterator[Cluster]:
    """Two `skat serve` workers behind nginx on ``db_url`` (``extra``: more
    options of theirs), stopped at the end (a worker a test stopped with
    SIGSTOP is resumed first: a stopped process does not hear SIGTERM)."""
    need("nginx", nginx_binary() is not None)
    c = Cluster(root, workers=2, db_url=db_url, worker_args=(*WORKER_ARGS, *extra))
    c.start()
    try:
        yield c
    finally:
        for w in c.members:
            if w.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(w.pid, signal.SIGCONT)
        c.stop()


def need(what: str, present: bool) -> None:
    if present:
        return
    if os.environ.get("CI"):
        pytest.fail(f"{what} is not installed; CI must install it (.ci/run)")
    pytest.skip(f"{what} is not installed (Debian package); the cluster tests need it")


def postgres_services() -> Any:
    from skat.server import services

    need("PostgreSQL", services.postgres_available())
    return services


def post(base: str, path: str, body: dict[str, Any]) -> tuple[Any, str]:
    req = urllib.request.Request(
        f"{base}{path}",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=5) as r:
        return json.load(r), r.headers["X-Skat-Worker"]


async def table_owner(db_url: str, table_id: str) -> str | None:
    store = Store(db_url, worker="test")
    try:
        owner = (await store.owners()).get(table_id)
    finally:
        await store.close()
    return None if owner is None else owner[0]


async def seated(url: str, h: Human, deadline: float) -> None:
    """Connect ``h`` through the proxy until a worker welcomes it at its seat
    (a worker that does not own the table says TABLE_MOVED and closes)."""
    while True:
        assert time.monotonic() < deadline, f"{h.name} is not back: {h.errors[-3:]}"
        try:
            await h.connect(url, last_version=h.last_version)
            assert h.ws is not None
            while True:
                m = json.loads(await asyncio.wait_for(h.ws.recv(), 5))
                h._note(m)
                if m["type"] == "welcome":
                    if h.token is not None:
                        assert m["seat"] == h.seat, "the seat was not recognised"
                    return
                if m["type"] == "error" and m["code"] == "TABLE_MOVED":
                    break
        except (OSError, ConnectionClosed, TimeoutError):
            pass
        except InvalidStatus as e:
            # the proxy's 502 while it gives up the silent worker: the page
            # reconnects after it as after any failed connection
            if e.response.status_code < 500:
                raise
        with contextlib.suppress(Exception):
            await h.close()
        await asyncio.sleep(0.2)


async def table_with_people(base: str, ws_base: str, seed: int) -> tuple[str, list[Human]]:
    table, _ = post(base, "/api/tables", {"rounds": 1, "players": 3})
    url = f"{ws_base}/ws/{table['id']}"
    humans = [Human("Anna", random.Random(seed)), Human("Bert", random.Random(seed + 1))]
    deadline = time.monotonic() + 20
    for h in humans:
        await seated(url, h, deadline)
        await h.sit()
    assert humans[0].ws is not None
    await humans[0].ws.send(json.dumps({"type": "fill", "creator": table["creator"]}))
    return table["id"], humans
