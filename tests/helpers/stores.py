"""The database the server tests run against: SQLite files by default,
PostgreSQL with ``SKAT_TEST_DB=postgres`` or ``pytest --store=postgres``.

PostgreSQL is one throw-away server for the whole session (`services.Postgres`,
durability off), started on first use; each test folder gets a database of
its own, copied from a template that is migrated already. `db_for` gives the
same database for the same folder, so a test that restarts its server keeps
its data. Databases a test made are dropped after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from skat.server.services import Postgres, ServiceError, postgres_available
from skat.server.store import Store

KINDS = ("sqlite", "postgres")
KIND = "sqlite"  # set by conftest.py from --store or SKAT_TEST_DB
TEMPLATE = "skat_template"

_server: Postgres | None = None
_lock = threading.Lock()
_names = itertools.count(1)
_dbs: dict[tuple[Path, str], Db] = {}


def need_postgres() -> None:
    """Skip where PostgreSQL is not installed; fail in CI, where it must be."""
    if postgres_available():
        return
    why = "PostgreSQL is not installed (no initdb/pg_ctl; Debian: apt-get install postgresql)"
    if os.environ.get("CI"):
        pytest.fail(f"{why}, and CI is set: PostgreSQL tests must run here")
    pytest.skip(why)


def postgres() -> Postgres:
    """The session's PostgreSQL server (started on first use)."""
    global _server
    need_postgres()
    with _lock:
        if _server is None:
            server = Postgres(fast=True, max_connections=200)
            try:
                server.start()
                url = server.create_database(TEMPLATE)
                _run(_migrate(url))
            except (ServiceError, OSError) as exc:
                server.stop()
                pytest.fail(f"could not start PostgreSQL: {exc}")
            _server = server
        return _server


async def _migrate(url: str) -> None:
    store = Store(url)
    await store.open()
    await store.close()


def stop() -> None:
    global _server
    if _server is not None:
        _server.stop()
        _server = None


@dataclass
class Db:
    """One test database, with direct access for checks that go around the server."""

    kind: str
    url: str
    path: Path | None = None  # the SQLite file
    name: str | None = None  # the PostgreSQL database

    def rows(self, sql: str, **params: Any) -> list[tuple[Any, ...]]:
        """Rows of ``sql`` (parameters as ``:name``)."""
        if self.path is not None:
            with contextlib.closing(sqlite3.connect(self.path)) as conn:
                return [tuple(r) for r in conn.execute(sql, params)]
        got: list[tuple[Any, ...]] = _run(self._pg([sql], params, fetch=True))
        return got

    def execute(self, *statements: str, **params: Any) -> None:
        """Run ``statements`` in one transaction."""
        if self.path is not None:
            with contextlib.closing(sqlite3.connect(self.path)) as conn:
                for sql in statements:
                    conn.execute(sql, params)
                conn.commit()
            return
        _run(self._pg(list(statements), params, fetch=False))

    def raw(self) -> bytes:
        """Everything the store holds, as bytes: the SQLite files (with the
        write-ahead log) or, on PostgreSQL, every row as text."""
        if self.path is not None:
            return b"".join(f.read_bytes() for f in self.path.parent.glob(self.path.name + "*"))
        out = []
        for table in ("skat_tables", "skat_events", "skat_leases", "skat_schema"):
            out += [repr(r) for r in self.rows(f"SELECT * FROM {table}")]
        return "\n".join(out).encode()

    async def _pg(
        self, statements: list[str], params: dict[str, Any], fetch: bool
    ) -> list[tuple[Any, ...]]:
        engine = create_async_engine(self.url, poolclass=NullPool)
        try:
            async with engine.begin() as conn:
                for sql in statements:
                    if params:
                        result = await conn.execute(text(sql), params)
                    else:  # no bind parsing: plpgsql bodies may hold colons
                        result = await conn.exec_driver_sql(sql)
                return [tuple(r) for r in result.all()] if fetch else []
        finally:
            await engine.dispose()


def _run(coro: Any) -> Any:
    """Run ``coro`` on a loop of its own (a test may be inside one already)."""
    out: list[Any] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            out.append(asyncio.run(coro))
        except BaseException as exc:
            errors.append(exc)

    t = threading.Thread(target=target)
    t.start()
    t.join()
    if errors:
        raise errors[0]
    return out[0]


def db_for(folder: Path, kind: str | None = None) -> Db:
    """The database of a test's ``folder`` (the same one on each call)."""
    kind = kind or KIND
    key = (Path(folder), kind)
    if key not in _dbs:
        if kind == "sqlite":
            path = Path(folder) / "t.db"
            _dbs[key] = Db(kind, f"sqlite+aiosqlite:///{path}", path=path)
        else:
            pg = postgres()
            name = f"t{os.getpid()}_{next(_names)}"
            _dbs[key] = Db(kind, pg.create_database(name, template=TEMPLATE), name=name)
    return _dbs[key]


def made() -> set[tuple[Path, str]]:
    return set(_dbs)


def drop_since(before: set[tuple[Path, str]]) -> None:
    """Drop the databases made after ``before`` (a test's own)."""
    for key in set(_dbs) - before:
        db = _dbs.pop(key)
        if db.name is not None and _server is not None:
            with contextlib.suppress(ServiceError):
                _server.drop_database(db.name)


class ReplayCounter:
    """Counts how often a store reads a table's whole log (`Store.events`,
    what rebuilding a table costs): wraps the store's method in place."""

    def __init__(self, store: Store) -> None:
        self.count = 0
        inner = store.events

        async def counted(table_id: str) -> Any:
            self.count += 1
            return await inner(table_id)

        store.events = counted  # type: ignore[method-assign]
