"""Reaching the database: its URL, the engine and its pool (`StoreConfig`),
and the store's errors (docs/storage.md)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    IntegrityError,
    NoSuchModuleError,
)
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from .tunable import tunable


class StoreError(Exception):
    """A database that cannot be used: a bad URL, a missing driver, a schema
    from a newer program (one line for the operator)."""


class VersionTaken(IntegrityError):
    """An event's version is stored already (another writer, or this one's
    commit whose answer was lost)."""


class StoreFailed(Exception):
    """A write that did not reach the database (a full disk, a database
    that stopped, a lost connection): nothing of it is stored, and the same
    write may be tried again later (the tables retry with a backoff)."""


@dataclass(frozen=True)
class StoreConfig:
    """Connection pool settings (docs/storage.md). The writer holds one
    connection while it commits, reads take others."""

    # `skat serve` sets the pool by --db-pool-size, --db-max-overflow, --db-pool-timeout
    pool_size: int = tunable(5, "Database connections kept open.", low=1)
    # more, opened under load and closed after
    max_overflow: int = tunable(10, "More connections opened under load.", low=0)
    pool_timeout: float = tunable(  # seconds to wait for a free connection
        30.0, "Seconds to wait for a free database connection.", low=0.1
    )
    connect_timeout: float = 10.0  # seconds to reach a PostgreSQL server
    # PostgreSQL, per session: this process's statements and transactions
    # never hold rows for long. A worker frozen (SIGSTOP, a hung VM) in the
    # middle of a transaction keeps its lease rows locked until the server
    # ends that session: `idle_in_transaction_timeout` does (0: never).
    statement_timeout: float = 30.0
    idle_in_transaction_timeout: float = 5.0
    claim_lock_timeout: float = 0.5  # a claim waits this long for a locked lease row
    # SQLite only: the event log's commits sync the disk at checkpoints
    # (normal, the default: a killed server loses nothing, a power cut the
    # last moves) or every time (full: an accepted action survives a power
    # cut; server/sqlitewriter.py, docs/storage.md)
    sqlite_sync: Literal["full", "normal"] = tunable(
        "normal",
        "SQLite: sync the disk at checkpoints only (normal: a killed server loses nothing, "
        "a power cut may lose the last moves), or at every commit (full: more CPU).",
    )


def normalize_url(url: str) -> URL:
    """The URL with an async driver: ``sqlite://`` and ``postgresql://`` get
    the ones this package uses (aiosqlite, asyncpg)."""
    try:
        u = make_url(url)
    except ArgumentError:
        raise StoreError(f"not a database URL: {url!r}") from None
    if u.drivername in ("sqlite", "sqlite+pysqlite"):
        u = u.set(drivername="sqlite+aiosqlite")
    elif u.drivername in ("postgres", "postgresql", "postgresql+psycopg2"):
        u = u.set(drivername="postgresql+asyncpg")
    return u


def shown_url(url: str | URL) -> str:
    """For logs and messages: the password hidden."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "(not a URL)"


def make_engine(url: URL, config: StoreConfig) -> AsyncEngine:
    kwargs: dict[str, Any] = {}
    memory = url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:")
    if not memory:  # an in-memory SQLite database is one connection
        kwargs.update(
            pool_size=config.pool_size,
            max_overflow=config.max_overflow,
            pool_timeout=config.pool_timeout,
        )
    if url.get_backend_name() == "postgresql":
        settings = {
            "statement_timeout": ms(config.statement_timeout),
            "idle_in_transaction_session_timeout": ms(config.idle_in_transaction_timeout),
        }
        kwargs["connect_args"] = {"timeout": config.connect_timeout, "server_settings": settings}
        kwargs["pool_recycle"] = 3600  # firewalls drop connections idle for long
    try:
        return create_async_engine(url, **kwargs)
    except ModuleNotFoundError as exc:
        extra = " (pip install 'skat[postgres]')" if exc.name == "asyncpg" else ""
        raise StoreError(
            f"the database {shown_url(url)} needs the Python package {exc.name}{extra}"
        ) from None
    except (NoSuchModuleError, ArgumentError) as exc:
        raise StoreError(f"cannot use the database {shown_url(url)}: {exc}") from None


def ms(seconds: float) -> str:
    return str(max(0, round(seconds * 1000)))


#: PostgreSQL's error code of a lock wait past ``lock_timeout``.
LOCK_NOT_AVAILABLE = "55P03"


def lock_timed_out(exc: DBAPIError) -> bool:
    return getattr(exc.orig, "sqlstate", None) == LOCK_NOT_AVAILABLE


#: Seconds a lease lasts unless renewed (the owner renews it every quarter).
LEASE_TTL = 5.0


class NotOwner(Exception):
    """An append for a table whose lease this process does not hold."""

    def __init__(self, table_ids: Sequence[str]) -> None:
        super().__init__(f"not the owner of {', '.join(sorted(table_ids))}")
        self.table_ids = tuple(table_ids)


def address_key(address: str) -> str:
    """What the store keeps of a client address for the creation limit: a
    hash (no plain addresses in the database; it is not a secret)."""
    return hashlib.sha256(f"skat-creations:{address}".encode()).hexdigest()[:32]


def default_db_url(data_dir: str | Path) -> str:
    path = Path(data_dir).expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{path / 'skat.db'}"
