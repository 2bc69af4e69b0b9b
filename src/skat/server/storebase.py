"""What every part of the `Store` writes with: the engine, this process's
turn at writing and its name on lease rows, and the health of writes. The
parts (the event log in store.py, ownership in leases.py, creations, lobby
and tournaments in listings.py) each depend on this base only."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .database import LEASE_TTL, StoreConfig, make_engine, normalize_url
from .schema import StoredTable, events_t, leases_t, tables_t

log = logging.getLogger("skat.server")


class StoreBase:
    """The engine and what the store's writers share."""

    def __init__(
        self,
        url: str,
        config: StoreConfig | None = None,
        worker: str = "main",
        lease_ttl: float = LEASE_TTL,
    ) -> None:
        self.url = url
        self.worker = worker  # stable name, unique in a deployment
        self.token = secrets.token_hex(8)  # this process's incarnation
        self.lease_ttl = lease_ttl
        self.config = config or StoreConfig()
        self.engine: AsyncEngine = make_engine(normalize_url(url), self.config)
        # SQLite has one writer at a time: this process's writes (the group
        # commit, the lease upkeep, claims) take turns here rather than meet
        # in SQLite's busy handler, which sleeps up to 100 ms between tries
        self._sqlite_turn = asyncio.Lock() if self.engine.dialect.name == "sqlite" else None
        #: since when (monotonic) writes fail; None while they succeed (/healthz)
        self.failing_since: float | None = None

    def _outcome(self, exc: BaseException | None) -> None:
        """Note how a write went: the first failure after a success starts
        the failing period (logged once), the next success ends it."""
        if exc is None:
            if self.failing_since is not None:
                took = time.monotonic() - self.failing_since
                log.warning("store: writes succeed again (after %.1f s)", took)
                self.failing_since = None
        elif self.failing_since is None:
            self.failing_since = time.monotonic()
            log.error("store: a write failed (%s); tables retry until it works", exc)

    def _turn(self) -> contextlib.AbstractAsyncContextManager[Any]:
        """Held while this process writes (SQLite only; see ``_sqlite_turn``)."""
        return self._sqlite_turn if self._sqlite_turn is not None else contextlib.nullcontext()

    def _begin(self) -> contextlib.AbstractAsyncContextManager[Any]:
        """A writing transaction of its own, in this process's turn."""
        return _in_turn(self._turn(), self.engine)

    def _lease_row(self, table_id: str, now: float) -> dict[str, Any]:
        """A lease of ``table_id`` held by this process from ``now``."""
        return {
            "table_id": table_id,
            "owner": self.worker,
            "token": self.token,
            "expires_at": now + self.lease_ttl,
            "wanted_by": None,
        }

    def _mine(self) -> Any:
        """The lease rows this process holds (a WHERE clause)."""
        return (leases_t.c.owner == self.worker) & (leases_t.c.token == self.token)


@contextlib.asynccontextmanager
async def _in_turn(
    turn: contextlib.AbstractAsyncContextManager[Any], engine: AsyncEngine
) -> AsyncIterator[AsyncConnection]:
    async with turn, engine.begin() as conn:
        yield conn


async def insert_table(
    conn: AsyncConnection,
    t: StoredTable,
    rows: Sequence[tuple[str, int, str, dict[str, Any]]],
    now: float,
) -> None:
    """A table's row and event rows ``(table_id, version, kind, payload)``."""
    await conn.execute(
        tables_t.insert().values(
            id=t.id,
            created_at=t.created_at,
            updated_at=t.updated_at,
            status=t.status,
            config=json.dumps(t.config),
            seed=t.seed,
            commitment=t.commitment,
            creator_hash=t.creator_hash,
        )
    )
    if rows:
        await conn.execute(
            events_t.insert(),
            [
                {
                    "table_id": table_id,
                    "version": version,
                    "kind": kind,
                    "payload": json.dumps(payload),
                    "at": now,
                }
                for table_id, version, kind, payload in rows
            ],
        )
