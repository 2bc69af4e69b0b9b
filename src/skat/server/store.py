"""Durable storage of tables as an append-only event log (SQLAlchemy Core,
async). SQLite is the embedded default; PostgreSQL (``postgresql+asyncpg://``,
the ``postgres`` extra) is tested on every run (docs/storage.md).

Every change of a table is one event row ``(table_id, version, kind,
payload)``; the primary key makes versions unique, and the actor appends
each event **before** it publishes it, so an accepted action is never lost
and never applied twice.

`Store` is this event log (here) with the leases of leases.py (which
worker owns a table; every append checks them) and the creations, lobby
and tournaments of listings.py, on the base of storebase.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import sqlite3
import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, literal, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection

from .database import (
    LEASE_TTL,
    NotOwner,
    StoreConfig,
    StoreError,
    StoreFailed,
    VersionTaken,
    address_key,
    default_db_url,
    shown_url,
)
from .leases import Leases
from .listings import Listings
from .metrics import Metrics
from .profilestore import ProfileRows
from .schema import (
    MIGRATION_LOCK,
    Activity,
    CorruptRow,
    Event,
    StoredTable,
    StoredTournament,
    creations_t,
    events_t,
    json_object,
    leases_t,
    migrate,
    number_of,
    origins_t,
    table_from_row,
    tables_t,
)
from .schema import (
    metadata as schema_metadata,
)
from .sqlitewriter import SqliteWriter
from .storebase import insert_table


class Store(Leases, Listings, ProfileRows):
    """The event store of all tables."""

    def __init__(
        self,
        url: str,
        config: StoreConfig | None = None,
        worker: str = "main",
        lease_ttl: float = LEASE_TTL,
    ) -> None:
        super().__init__(url, config, worker, lease_ttl)
        self._pending: asyncio.Queue[tuple[dict[str, Any], str | None, asyncio.Future[None]]] = (
            asyncio.Queue()
        )
        self._writer: asyncio.Task[None] | None = None
        # appends the event loop commits itself at its next turn (`_flush`)
        self._gathered: list[tuple[dict[str, Any], str | None, asyncio.Future[None]]] = []
        self.metrics: Metrics | None = None  # the app's (create_app); None: not counted
        # SQLite in a file: the group commit's own connection and thread
        db = self.engine.url.database
        self._raw: SqliteWriter | None = None
        if self.engine.dialect.name == "sqlite" and db not in (None, "", ":memory:"):
            insert = _insert_sql(("table_id", "version", "kind", "payload", "at"))
            self._raw = SqliteWriter(str(db), insert, self.config.sqlite_sync)

    async def open(self) -> int:
        """Create or migrate the schema (one transaction, one process at a
        time: several workers may start at once); the version found."""
        sqlite = self.engine.dialect.name == "sqlite"
        if sqlite:
            async with self.engine.connect() as conn:
                await conn.exec_driver_sql("PRAGMA journal_mode=WAL")
        async with self.engine.connect() as conn:
            await _lock_schema(conn, sqlite)
            found = await conn.run_sync(migrate)
            await conn.commit()
        return found

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer
        if self._raw is not None:
            self._raw.stop()
            await asyncio.to_thread(self._raw.close)
        await self.engine.dispose()

    async def create_table(
        self,
        t: StoredTable,
        events: Sequence[tuple[str, int, str, dict[str, Any]]] = (),
        own: bool = False,
        address: str | None = None,
        strong: bool = False,
        origin_of: str | None = None,
    ) -> None:
        """Store a new table and, in the same transaction, ``events`` as
        ``(table_id, version, kind, payload)`` rows (its own first events and
        another table's, as for "again"): all of it or nothing. ``own``: this
        process takes the new table's lease in that transaction; the other
        tables written to must be this process's (else `NotOwner`).
        ``address``: the creating client's (`address_key`), counted by
        `created_from`; ``origin_of``: a table whose origin the new one takes
        over (the next list of the same people counts where the first did)."""
        now = time.time()
        async with self._begin() as conn:
            if address is not None:
                await conn.execute(creations_t.insert().values(address=address, at=now))
            if own:
                await conn.execute(leases_t.insert().values(self._lease_row(t.id, now)))
            others = {table_id for table_id, *_ in events} - {t.id}
            if others:
                await self._check_leases(conn, others, now)
            await insert_table(conn, t, events, now)
            if address is not None:
                await conn.execute(
                    origins_t.insert().values(table_id=t.id, address=address, strong=int(strong))
                )
            elif origin_of is not None:
                await conn.execute(
                    origins_t.insert().from_select(
                        ["table_id", "address", "strong"],
                        select(literal(t.id), origins_t.c.address, origins_t.c.strong).where(
                            origins_t.c.table_id == origin_of
                        ),
                    )
                )

    async def count(self, statuses: tuple[str, ...]) -> int:
        async with self.engine.connect() as conn:
            n = await conn.scalar(
                select(func.count()).select_from(tables_t).where(tables_t.c.status.in_(statuses))
            )
        return int(n or 0)

    async def activity(self, statuses: tuple[str, ...]) -> tuple[list[Activity], list[str]]:
        """Tables with one of ``statuses``, each with its last version and its
        last activity; and the ids of those whose rows cannot be read."""
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
        found, corrupt = [], []
        for r in rows:
            try:
                created = number_of(r.id, "created_at", r.created_at)
                at = created if r.at is None else number_of(r.id, "an event's time", r.at)
                version = int(number_of(r.id, "a version", r.version or 0))
            except CorruptRow:
                corrupt.append(r.id)
                continue
            found.append(Activity(r.id, r.status, created, version, at))
        return found, corrupt

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
        On a SQLite file without a disk sync per commit (``--db-sqlite-sync
        normal``) the event loop commits what was appended in one of its
        turns itself, at its next turn (`_flush`), and the writer task
        takes only what that cannot write. Either way the call returns
        once the row is committed.
        """
        row = {
            "table_id": table_id,
            "version": version,
            "kind": kind,
            "payload": json.dumps(payload),
            "at": time.time(),
        }
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        started = time.monotonic()
        if self._raw is not None and self._raw.inline:
            if not self._gathered:
                loop.call_soon(self._flush)
            self._gathered.append((row, status, done))
        else:
            self._queue([(row, status, done)])
        try:
            await done
        except (NotOwner, IntegrityError):  # a conflict, not a failing store
            raise
        except Exception as exc:
            self._outcome(exc)
            if self.metrics is not None:
                self.metrics.store_write_failures.inc()
            raise StoreFailed(f"{type(exc).__name__}: {exc}"[:300]) from exc
        self._outcome(None)
        if self.metrics is not None:
            self.metrics.store_write_seconds.observe(time.monotonic() - started)

    def _queue(self, items: list[tuple[dict[str, Any], str | None, asyncio.Future[None]]]) -> None:
        """Hand appends to the writer task (started if it is not running)."""
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_loop(), name="store-writer")
        for item in items:
            self._pending.put_nowait(item)

    def _flush(self) -> None:
        """Commit the appends gathered since the last turn of the event loop
        in one transaction, here, without waiting (`SqliteWriter.write_now`:
        a commit without a disk sync costs less than handing it to the
        writer's thread and back). When this process writes already (its
        turn is taken), SQLite's lock is taken or anything fails, the writer
        task takes the batch: it waits for the lock, and tells a bad row
        from the others."""
        batch, self._gathered = self._gathered, []
        raw = self._raw
        assert raw is not None
        written = False
        if not (self._sqlite_turn is not None and self._sqlite_turn.locked()):
            try:
                written = raw.write_now(
                    [row for row, _, _ in batch],
                    [(status, row["at"], row["table_id"]) for row, status, _ in batch if status],
                    (time.time() + self.lease_ttl, self.worker, self.token),
                )
            except Exception:  # nothing written: the writer task finds out what it was
                written = False
        if not written:
            self._queue(batch)
            return
        for _, _, done in batch:
            if not done.done():
                done.set_result(None)

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
                    conn = conn or await self._writer_connection()
                    async with self._turn():
                        await self._commit(conn, batch)
                    results: list[BaseException | None] = [None] * len(batch)
                except Exception:
                    await _discard(conn)
                    conn = None
                    # One bad row (a duplicate version) must not fail the others.
                    results = []
                    for item in batch:
                        try:
                            conn = conn or await self._writer_connection()
                            async with self._turn():
                                await self._commit(conn, [item])
                            results.append(None)
                        except Exception as exc:
                            await _discard(conn)
                            conn = None
                            orig = exc.orig if isinstance(exc, IntegrityError) else exc
                            if isinstance(exc, sqlite3.IntegrityError | IntegrityError) and (
                                "unique" in str(orig).lower()
                            ):
                                # the version exists (the raw driver's error too):
                                # a conflict the caller handles, not a failing store
                                exc = VersionTaken("INSERT INTO skat_events", None, orig or exc)
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

    async def _writer_connection(self) -> AsyncConnection | None:
        """The group commit's SQLAlchemy connection (none with `SqliteWriter`)."""
        return None if self._raw is not None else await self.engine.connect()

    async def _commit(
        self,
        conn: AsyncConnection | None,
        batch: list[tuple[dict[str, Any], str | None, asyncio.Future[None]]],
    ) -> None:
        if self._raw is not None:
            now = time.time()
            await self._raw.write(
                [row for row, _, _ in batch],
                [(status, row["at"], row["table_id"]) for row, status, _ in batch if status],
                (now + self.lease_ttl, self.worker, self.token),
            )
            return
        assert conn is not None
        async with conn.begin():
            await self._check_leases(conn, {row["table_id"] for row, _, _ in batch}, time.time())
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
        async with self._begin() as conn:
            await conn.execute(
                update(tables_t)
                .where(tables_t.c.id == table_id)
                .values(status=status, updated_at=time.time())
            )

    async def table(self, table_id: str) -> StoredTable | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(tables_t).where(tables_t.c.id == table_id))).first()
        return None if row is None else table_from_row(row)

    async def tables(self, statuses: tuple[str, ...]) -> list[StoredTable]:
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(select(tables_t).where(tables_t.c.status.in_(statuses)))
            ).all()
        return [table_from_row(r) for r in rows]

    async def deal_starts(self, table_id: str) -> list[float]:
        """When each deal of a table's list was dealt (the list's start, then
        every "next"), without reading the rest of its log."""
        query = (
            select(events_t.c.at)
            .where(events_t.c.table_id == table_id, events_t.c.kind.in_(("start", "next")))
            .order_by(events_t.c.version)
        )
        async with self.engine.connect() as conn:
            return [float(at) for (at,) in (await conn.execute(query)).all()]

    async def events_after(self, table_id: str, version: int) -> list[Event]:
        """A table's events after ``version`` (a reader bringing its copy up to date)."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(events_t)
                    .where(events_t.c.table_id == table_id, events_t.c.version > version)
                    .order_by(events_t.c.version)
                )
            ).all()
        return [_event(table_id, r) for r in rows]

    async def events(self, table_id: str) -> list[Event]:
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(events_t)
                    .where(events_t.c.table_id == table_id)
                    .order_by(events_t.c.version)
                )
            ).all()
        return [_event(table_id, r) for r in rows]


async def _lock_schema(conn: AsyncConnection, sqlite: bool) -> None:
    """Begin the migration transaction holding the lock other workers wait on."""
    if sqlite:
        # The sqlite3 module opens transactions only before DML: BEGIN
        # IMMEDIATE takes the write lock now, so the DDL is in it too.
        await conn.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        # a migration may take long (and others wait for it): no statement_timeout
        await conn.exec_driver_sql("SET LOCAL statement_timeout = 0")
        await conn.execute(select(func.pg_advisory_xact_lock(MIGRATION_LOCK)))


async def check_database(url: str, config: StoreConfig | None = None) -> None:
    """Open (and migrate) the database once, turning what can go wrong into
    a `StoreError` of one line: for ``skat serve`` before it starts."""
    store = Store(url, config)
    try:
        await store.open()
        # every table there and readable (one dropped by hand, garbage over
        # its first pages): refused here in one line, not in the start-up
        async with store.engine.connect() as conn:
            for table in schema_metadata.sorted_tables:
                await conn.execute(select(literal(1)).select_from(table).limit(1))
    except StoreError:
        raise
    except (OSError, SQLAlchemyError) as exc:
        lines = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        reason = lines[0].strip("'\"") if lines else repr(exc)
        raise StoreError(f"cannot open the database {shown_url(url)}: {reason}") from None
    finally:
        await store.engine.dispose()


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


def _event(table_id: str, r: Any) -> Event:
    """One stored event row; raises `CorruptRow` for one that cannot be read."""
    return Event(
        int(number_of(table_id, "a version", r.version)),
        r.kind,
        json_object(table_id, f"event {r.version}", r.payload),
        number_of(table_id, f"event {r.version}'s time", r.at),
    )


# the names other modules import from here since before the split
__all__ = [
    "LEASE_TTL",
    "CorruptRow",
    "Event",
    "NotOwner",
    "Store",
    "StoreConfig",
    "StoreError",
    "StoreFailed",
    "StoredTable",
    "StoredTournament",
    "VersionTaken",
    "address_key",
    "check_database",
    "default_db_url",
    "shown_url",
]
