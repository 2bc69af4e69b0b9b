"""Durable storage of tables as an append-only event log (SQLAlchemy Core,
async). SQLite is the embedded default; any SQLAlchemy async URL works
(``postgresql+asyncpg://...``) without code changes.

Every change of a table is one event row ``(table_id, version, kind,
payload)``; the primary key makes versions unique, and the actor appends
each event **before** it publishes it, so an accepted action is never lost
and never applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    func,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

metadata = MetaData()

tables_t = Table(
    "skat_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("status", String(16), nullable=False),  # open, playing, finished, expired
    Column("config", Text, nullable=False),  # options and settings (JSON)
    Column("seed", String(64), nullable=False),  # secret until the list is over
    Column("commitment", String(64), nullable=False),
    Column("creator_hash", String(64), nullable=False),
)

events_t = Table(
    "skat_events",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("payload", Text, nullable=False),
    Column("at", Float, nullable=False),
)


def default_db_url(data_dir: str | Path) -> str:
    path = Path(data_dir).expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{path / 'skat.db'}"


@dataclass
class StoredTable:
    id: str
    created_at: float
    updated_at: float
    status: str
    config: dict[str, Any]
    seed: str
    commitment: str
    creator_hash: str


@dataclass
class Event:
    version: int
    kind: str
    payload: dict[str, Any]
    at: float


class Store:
    """The event store of all tables."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: AsyncEngine = create_async_engine(url)
        self._pending: asyncio.Queue[tuple[dict[str, Any], str | None, asyncio.Future[None]]] = (
            asyncio.Queue()
        )
        self._writer: asyncio.Task[None] | None = None

    async def open(self) -> None:
        async with self.engine.begin() as conn:
            if self.url.startswith("sqlite"):
                await conn.exec_driver_sql("PRAGMA journal_mode=WAL")
            await conn.run_sync(metadata.create_all)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer
        await self.engine.dispose()

    async def create_table(
        self, t: StoredTable, events: Sequence[tuple[str, int, str, dict[str, Any]]] = ()
    ) -> None:
        """Store a new table and, in the same transaction, ``events`` as
        ``(table_id, version, kind, payload)`` rows (its own first events and
        another table's, as for "again"): all of it or nothing."""
        now = time.time()
        async with self.engine.begin() as conn:
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
            if events:
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
                        for table_id, version, kind, payload in events
                    ],
                )

    async def count(self, statuses: tuple[str, ...]) -> int:
        async with self.engine.connect() as conn:
            n = await conn.scalar(
                select(func.count()).select_from(tables_t).where(tables_t.c.status.in_(statuses))
            )
        return int(n or 0)

    async def activity(self, statuses: tuple[str, ...]) -> list[tuple[StoredTable, int, float]]:
        """Tables with one of ``statuses``, each with its last version (0: no
        event yet) and the time of its last event that is not chat or a
        reaction (its creation if none)."""
        ids = select(tables_t.c.id).where(tables_t.c.status.in_(statuses))
        last = (
            select(events_t.c.table_id, func.max(events_t.c.version).label("version"))
            .where(events_t.c.table_id.in_(ids))
            .group_by(events_t.c.table_id)
            .subquery()
        )
        active = (
            select(events_t.c.table_id, func.max(events_t.c.at).label("at"))
            .where(events_t.c.table_id.in_(ids), events_t.c.kind.not_in(("chat", "react")))
            .group_by(events_t.c.table_id)
            .subquery()
        )
        query = (
            select(tables_t, last.c.version, active.c.at)
            .outerjoin(last, last.c.table_id == tables_t.c.id)
            .outerjoin(active, active.c.table_id == tables_t.c.id)
            .where(tables_t.c.status.in_(statuses))
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [(_table(r), r.version or 0, r.at or r.created_at) for r in rows]

    async def append(
        self,
        table_id: str,
        version: int,
        kind: str,
        payload: dict[str, Any],
        status: str | None = None,
    ) -> None:
        """Append one event and wait until it is committed; fails
        (IntegrityError) if that version exists.

        Appends from all tables go through one writer task that commits
        whatever is waiting in one transaction (group commit): one disk
        sync for many events, and no writers fighting over SQLite's lock.
        """
        row = {
            "table_id": table_id,
            "version": version,
            "kind": kind,
            "payload": json.dumps(payload),
            "at": time.time(),
        }
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_loop(), name="store-writer")
        await self._pending.put((row, status, done))
        await done

    async def _write_loop(self) -> None:
        # One connection held across batches: checking one out of the pool
        # and resetting it on return cost more CPU than the insert itself
        # (docs/benchmarks.md, CPU per action). A batch that fails drops it,
        # so a broken connection is replaced by the next batch.
        conn: AsyncConnection | None = None
        try:
            while True:
                batch = [await self._pending.get()]
                while not self._pending.empty() and len(batch) < 500:
                    batch.append(self._pending.get_nowait())
                try:
                    conn = conn or await self.engine.connect()
                    await self._commit(conn, batch)
                    results: list[BaseException | None] = [None] * len(batch)
                except Exception:
                    await _discard(conn)
                    conn = None
                    # One bad row (a duplicate version) must not fail the others.
                    results = []
                    for item in batch:
                        try:
                            conn = conn or await self.engine.connect()
                            await self._commit(conn, [item])
                            results.append(None)
                        except Exception as exc:
                            await _discard(conn)
                            conn = None
                            results.append(exc)
                for (_, _, done), error in zip(batch, results, strict=True):
                    if done.done():
                        continue
                    if error is None:
                        done.set_result(None)
                    else:
                        done.set_exception(error)
        finally:
            await _discard(conn)

    async def _commit(
        self,
        conn: AsyncConnection,
        batch: list[tuple[dict[str, Any], str | None, asyncio.Future[None]]],
    ) -> None:
        async with conn.begin():
            rows = [row for row, _, _ in batch]
            if self.engine.dialect.driver == "aiosqlite":
                # The rows through the driver, inside the same transaction:
                # one trip to SQLite's thread instead of SQLAlchemy's three
                # (cursor, execute, close), half the CPU of a small batch.
                driver = (await conn.get_raw_connection()).driver_connection
                assert driver is not None
                await driver.executemany(_insert_sql(tuple(rows[0])), rows)
            else:
                # a single row as a plain execute: executemany's machinery costs more
                await conn.execute(events_t.insert(), rows[0] if len(rows) == 1 else rows)
            for row, status, _ in batch:
                if status is not None:
                    await conn.execute(
                        update(tables_t)
                        .where(tables_t.c.id == row["table_id"])
                        .values(status=status, updated_at=row["at"])
                    )

    async def unvisited(self, before: float) -> list[str]:
        """Open tables created before ``before`` that have no event at all."""
        query = select(tables_t.c.id).where(
            tables_t.c.status == "open",
            tables_t.c.created_at < before,
            ~select(events_t.c.version).where(events_t.c.table_id == tables_t.c.id).exists(),
        )
        async with self.engine.connect() as conn:
            return [r.id for r in (await conn.execute(query)).all()]

    async def set_status(self, table_id: str, status: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id)
                .values(status=status, updated_at=time.time())
            )

    async def table(self, table_id: str) -> StoredTable | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tables_t).where(tables_t.c.id == table_id))).first()
        return None if row is None else _table(row)

    async def tables(self, statuses: tuple[str, ...]) -> list[StoredTable]:
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(select(tables_t).where(tables_t.c.status.in_(statuses)))
            ).all()
        return [_table(r) for r in rows]

    async def events(self, table_id: str) -> list[Event]:
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(events_t)
                    .where(events_t.c.table_id == table_id)
                    .order_by(events_t.c.version)
                )
            ).all()
        return [Event(r.version, r.kind, json.loads(r.payload), r.at) for r in rows]


@functools.lru_cache(maxsize=8)
def _insert_sql(keys: tuple[str, ...]) -> str:
    """The driver's INSERT of event rows with these keys (named parameters,
    SQLite's style)."""
    names = [events_t.c[k].name for k in keys]  # KeyError for a column that does not exist
    return (
        f"INSERT INTO {events_t.name} ({', '.join(names)}) "
        f"VALUES ({', '.join(':' + n for n in names)})"
    )


async def _discard(conn: AsyncConnection | None) -> None:
    """Close a connection, whatever state it is in (None: nothing to close)."""
    if conn is not None:
        with contextlib.suppress(Exception):
            await conn.close()


def _table(row: Any) -> StoredTable:
    return StoredTable(
        id=row.id,
        created_at=row.created_at,
        updated_at=row.updated_at,
        status=row.status,
        config=json.loads(row.config),
        seed=row.seed,
        commitment=row.commitment,
        creator_hash=row.creator_hash,
    )
