"""Durable storage of tables as an append-only event log (SQLAlchemy Core,
async). SQLite is the embedded default; any SQLAlchemy async URL works
(``postgresql+asyncpg://...``) without code changes.

Every change of a table is one event row ``(table_id, version, kind,
payload)``; the primary key makes versions unique, and the actor appends
each event **before** it publishes it, so an accepted action is never lost
and never applied twice.
"""

from __future__ import annotations

import json
import time
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
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

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

    async def open(self) -> None:
        async with self.engine.begin() as conn:
            if self.url.startswith("sqlite"):
                await conn.exec_driver_sql("PRAGMA journal_mode=WAL")
            await conn.run_sync(metadata.create_all)

    async def close(self) -> None:
        await self.engine.dispose()

    async def create_table(self, t: StoredTable) -> None:
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

    async def append(
        self,
        table_id: str,
        version: int,
        kind: str,
        payload: dict[str, Any],
        status: str | None = None,
    ) -> None:
        """Append one event; fails (IntegrityError) if that version exists."""
        now = time.time()
        async with self.engine.begin() as conn:
            await conn.execute(
                events_t.insert().values(
                    table_id=table_id,
                    version=version,
                    kind=kind,
                    payload=json.dumps(payload),
                    at=now,
                )
            )
            values: dict[str, Any] = {"updated_at": now}
            if status is not None:
                values["status"] = status
            await conn.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))

    async def set_status(self, table_id: str, status: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                update(tables_t).where(tables_t.c.id == table_id).values(status=status)
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
