"""Durable storage of tables as an append-only event log (SQLAlchemy Core,
async). SQLite is the embedded default; PostgreSQL (``postgresql+asyncpg://``,
the ``postgres`` extra) is tested on every run (docs/storage.md).

Every change of a table is one event row ``(table_id, version, kind,
payload)``; the primary key makes versions unique, and the actor appends
each event **before** it publishes it, so an accepted action is never lost
and never applied twice.

**Ownership** (docs/deploy.md): several server processes ("workers") may
share one database; each table has at most one owner, recorded as a lease
row ``(table_id, owner, token, expires_at, wanted_by)``. Every append checks,
in its own transaction, that this process still holds the lease of every
table it writes, so a worker that lost a table (it stalled past the lease,
and another took the table over) can never store a move for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any

from sqlalchemy import (
    delete,
    func,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.exc import (
    DBAPIError,
    IntegrityError,
    SQLAlchemyError,
)
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .database import (
    LEASE_TTL,
    NotOwner,
    StoreConfig,
    StoreError,
    StoreFailed,
    VersionTaken,
    address_key,
    default_db_url,
    lock_timed_out,
    make_engine,
    ms,
    normalize_url,
    shown_url,
)
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
    lobby_t,
    migrate,
    number_of,
    origins_t,
    table_from_row,
    tables_t,
    tournament_from_row,
    tournaments_t,
)

log = logging.getLogger("skat.server")


class Store:
    """The event store of all tables."""

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
        self._pending: asyncio.Queue[tuple[dict[str, Any], str | None, asyncio.Future[None]]] = (
            asyncio.Queue()
        )
        self._writer: asyncio.Task[None] | None = None
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
            await _insert_table(conn, t, events, now)
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

    async def created_from(self, address: str, since: float) -> int:
        """Tables created from ``address`` (`address_key`) since ``since``, by any worker."""
        async with self.engine.connect() as conn:
            n = await conn.scalar(
                select(func.count())
                .select_from(creations_t)
                .where(creations_t.c.address == address, creations_t.c.at >= since)
            )
        return int(n or 0)

    async def unfinished_from(self, address: str, statuses: tuple[str, ...]) -> tuple[int, int]:
        """Tables created from ``address`` (`address_key`) that have one of
        ``statuses``, by any worker: all of them, and those whose computer
        players search."""
        query = (
            select(func.count(), func.coalesce(func.sum(origins_t.c.strong), 0))
            .select_from(origins_t.join(tables_t, tables_t.c.id == origins_t.c.table_id))
            .where(origins_t.c.address == address, tables_t.c.status.in_(statuses))
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).one()
        return int(row[0] or 0), int(row[1] or 0)

    async def forget_creations(self, before: float, statuses: tuple[str, ...] = ()) -> None:
        """Drop the creations before ``before``, and the origins of tables
        that have none of ``statuses`` any more (finished, expired)."""
        async with self._begin() as conn:
            await conn.execute(delete(creations_t).where(creations_t.c.at < before))
            if statuses:
                # kept an hour after a table ended: "again" takes it over
                live = select(tables_t.c.id).where(
                    or_(tables_t.c.status.in_(statuses), tables_t.c.updated_at >= before)
                )
                await conn.execute(delete(origins_t).where(origins_t.c.table_id.not_in(live)))

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
        try:
            await done
        except (NotOwner, IntegrityError):  # a conflict, not a failing store
            raise
        except Exception as exc:
            self._outcome(exc)
            raise StoreFailed(f"{type(exc).__name__}: {exc}"[:300]) from exc
        self._outcome(None)

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
                            conn = conn or await self.engine.connect()
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

    async def _commit(
        self,
        conn: AsyncConnection,
        batch: list[tuple[dict[str, Any], str | None, asyncio.Future[None]]],
    ) -> None:
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

    def _turn(self) -> contextlib.AbstractAsyncContextManager[Any]:
        """Held while this process writes (SQLite only; see ``_sqlite_turn``)."""
        return self._sqlite_turn if self._sqlite_turn is not None else contextlib.nullcontext()

    def _begin(self) -> contextlib.AbstractAsyncContextManager[Any]:
        """A writing transaction of its own, in this process's turn."""
        return _in_turn(self._turn(), self.engine)

    # ------------------------------------------------------------ ownership
    def _lease_row(self, table_id: str, now: float) -> dict[str, Any]:
        return {
            "table_id": table_id,
            "owner": self.worker,
            "token": self.token,
            "expires_at": now + self.lease_ttl,
            "wanted_by": None,
        }

    def _mine(self) -> Any:
        return (leases_t.c.owner == self.worker) & (leases_t.c.token == self.token)

    async def _check_leases(self, conn: Any, table_ids: set[str], now: float) -> None:
        """Inside a writing transaction: renew this process's leases of
        ``table_ids`` or raise `NotOwner`. The UPDATE locks the lease rows
        until the commit, so a takeover waits for it and then sees the
        renewed lease (PostgreSQL); SQLite has one writer at a time anyway."""
        if self.engine.dialect.driver == "aiosqlite":
            # through the driver, like the rows (one trip to SQLite's thread)
            driver = (await conn.get_raw_connection()).driver_connection
            assert driver is not None
            marks = ", ".join("?" * len(table_ids))
            cursor = await driver.execute(
                "UPDATE skat_leases SET expires_at = ? WHERE owner = ? AND token = ? "
                f"AND table_id IN ({marks})",
                (now + self.lease_ttl, self.worker, self.token, *table_ids),
            )
            renewed = cursor.rowcount
        else:
            result = await conn.execute(
                update(leases_t)
                .where(leases_t.c.table_id.in_(table_ids), self._mine())
                .values(expires_at=now + self.lease_ttl)
            )
            renewed = result.rowcount
        if renewed != len(table_ids):
            mine = await conn.execute(
                select(leases_t.c.table_id).where(leases_t.c.table_id.in_(table_ids), self._mine())
            )
            raise NotOwner(sorted(table_ids - {r.table_id for r in mine}))

    async def claim(self, table_id: str) -> bool:
        """Take the table's lease: free, expired, or held under this
        worker's name (by this process, or by an earlier life of it that
        died). False while another worker holds it, and on PostgreSQL also
        while another transaction keeps its row locked for longer than
        ``claim_lock_timeout`` (a frozen worker's: the caller tries again
        later rather than wait with it)."""
        now = time.time()
        try:
            async with self._begin() as conn:
                await self._short_locks(conn)
                taken = await conn.execute(
                    update(leases_t)
                    .where(
                        leases_t.c.table_id == table_id,
                        or_(leases_t.c.owner == self.worker, leases_t.c.expires_at < now),
                    )
                    .values(
                        owner=self.worker,
                        token=self.token,
                        expires_at=now + self.lease_ttl,
                        wanted_by=None,
                    )
                )
                if taken.rowcount:
                    return True
            async with self._begin() as conn:
                await self._short_locks(conn)
                await conn.execute(leases_t.insert().values(self._lease_row(table_id, now)))
        except IntegrityError:  # another worker holds it
            return False
        except DBAPIError as exc:
            if not lock_timed_out(exc):
                raise
            return False
        return True

    async def _short_locks(self, conn: AsyncConnection) -> None:
        if self.engine.dialect.name == "postgresql":
            await conn.exec_driver_sql(
                f"SET LOCAL lock_timeout = {ms(self.config.claim_lock_timeout)}"
            )

    async def renew(self) -> tuple[set[str], dict[str, str]]:
        """Renew all of this process's leases; returns the tables it owns and,
        of those, the ones another worker asks for (table -> that worker).
        A real write every round: it also tells whether the store works again."""
        now = time.time()
        # rows another transaction keeps locked are skipped, not waited for
        # (PostgreSQL; SQLite has no row locks): one stuck row must not stop
        # the renewal of every other table
        mine = select(leases_t.c.table_id).where(self._mine()).with_for_update(skip_locked=True)
        try:
            async with self._begin() as conn:
                await conn.execute(
                    update(leases_t)
                    .where(leases_t.c.table_id.in_(mine.scalar_subquery()))
                    .values(expires_at=now + self.lease_ttl)
                )
                rows = (
                    await conn.execute(
                        select(leases_t.c.table_id, leases_t.c.wanted_by).where(self._mine())
                    )
                ).all()
        except Exception as exc:
            self._outcome(exc)
            raise StoreFailed(f"{type(exc).__name__}: {exc}"[:300]) from exc
        if rows:  # an UPDATE of no rows writes nothing: it proves nothing either
            self._outcome(None)
        owned = {r.table_id for r in rows}
        wanted = {r.table_id: r.wanted_by for r in rows if r.wanted_by}
        return owned, wanted

    async def release(self, table_ids: Sequence[str]) -> None:
        """Give up this process's leases of ``table_ids`` (after their actors stopped)."""
        if not table_ids:
            return
        async with self._begin() as conn:
            await conn.execute(
                delete(leases_t).where(leases_t.c.table_id.in_(table_ids), self._mine())
            )

    async def hand_over(self, table_id: str, to: str, grace: float = 2.0) -> None:
        """Give this process's lease of a table to the worker ``to`` (its
        actor here has stopped): ``to`` claims it by name at once; if it
        does not within ``grace`` seconds, any worker may adopt it."""
        async with self._begin() as conn:
            await conn.execute(
                update(leases_t)
                .where(leases_t.c.table_id == table_id, self._mine())
                .values(owner=to, token="", expires_at=time.time() + grace, wanted_by=None)
            )

    async def want(self, table_id: str) -> str | None:
        """Ask the table's owner to hand it over (the proxy sends its players
        here); returns that owner's name, or None if nobody holds it."""
        async with self._begin() as conn:
            await conn.execute(
                update(leases_t)
                .where(leases_t.c.table_id == table_id, leases_t.c.owner != self.worker)
                .values(wanted_by=self.worker)
            )
            owner = await conn.scalar(
                select(leases_t.c.owner).where(leases_t.c.table_id == table_id)
            )
        return None if owner is None else str(owner)

    async def orphans(self, statuses: tuple[str, ...], limit: int = 50) -> list[str]:
        """Unfinished tables whose owner's lease ran out (it died or hangs),
        without those whose lease row another transaction holds locked (a
        frozen worker's: claiming them would only wait)."""
        query = (
            select(leases_t.c.table_id)
            .join(tables_t, tables_t.c.id == leases_t.c.table_id)
            .where(leases_t.c.expires_at < time.time(), tables_t.c.status.in_(statuses))
            .limit(limit)
            .with_for_update(of=leases_t, skip_locked=True)
        )
        async with self.engine.begin() as conn:
            return [r.table_id for r in (await conn.execute(query)).all()]

    async def owners(self) -> dict[str, tuple[str, float]]:
        """Every lease: table -> (owner, expires_at); for tests and operators."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(leases_t))).all()
        return {r.table_id: (r.owner, r.expires_at) for r in rows}

    async def unvisited(self, before: float) -> list[str]:
        """Open tables created before ``before`` that have no event at all."""
        query = select(tables_t.c.id).where(
            tables_t.c.status == "open",
            tables_t.c.created_at < before,
            ~select(events_t.c.version).where(events_t.c.table_id == tables_t.c.id).exists(),
        )
        async with self.engine.connect() as conn:
            return [r.id for r in (await conn.execute(query)).all()]

    # ------------------------------------------------------------ the lobby
    async def list_table(self, table_id: str, summary: dict[str, Any] | None) -> None:
        """Put a public table in the lobby with what it shows (``summary``),
        or take it out (None)."""
        async with self._begin() as conn:
            await conn.execute(delete(lobby_t).where(lobby_t.c.table_id == table_id))
            if summary is not None:
                await conn.execute(
                    lobby_t.insert().values(
                        table_id=table_id, listed_at=time.time(), summary=json.dumps(summary)
                    )
                )

    async def lobby(self, limit: int, per_address: int) -> list[dict[str, Any]]:
        """The lobby, newest first: the summaries of open tables, at most
        ``per_address`` of the tables one client address created (one
        address cannot fill the lobby), at most ``limit`` in all."""
        query = (
            select(lobby_t.c.table_id, lobby_t.c.summary, origins_t.c.address)
            .join(tables_t, tables_t.c.id == lobby_t.c.table_id)
            .outerjoin(origins_t, origins_t.c.table_id == lobby_t.c.table_id)
            .where(tables_t.c.status == "open")
            .order_by(lobby_t.c.listed_at.desc())
            .limit(limit * per_address)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        out: list[dict[str, Any]] = []
        seen: dict[str | None, int] = {}
        for row in rows:
            key = row.address
            if seen.get(key, 0) >= per_address and key is not None:
                continue
            seen[key] = seen.get(key, 0) + 1
            try:
                summary = json_object(row.table_id, "its lobby summary", row.summary)
            except CorruptRow:
                continue
            out.append(summary)
            if len(out) >= limit:
                break
        return out

    # ---------------------------------------------------------- tournaments
    async def create_tournament(self, t: StoredTournament, address: str | None) -> None:
        now = time.time()
        async with self._begin() as conn:
            await conn.execute(
                tournaments_t.insert().values(
                    id=t.id,
                    created_at=t.created_at,
                    updated_at=now,
                    status=t.status,
                    config=json.dumps(t.config),
                    seed=t.seed,
                    commitment=t.commitment,
                    organiser_hash=t.organiser_hash,
                    address=address,
                    version=t.version,
                    doc=json.dumps(t.doc),
                    listed=int(bool(t.config.get("public")) and not t.doc["series"]),
                )
            )

    async def listed_tournaments(
        self, since: float, limit: int, per_address: int
    ) -> list[StoredTournament]:
        """Public tournaments open for entry made after ``since``, newest
        first, at most ``per_address`` of one client address's."""
        query = (
            select(tournaments_t)
            .where(
                tournaments_t.c.listed == 1,
                tournaments_t.c.status == "open",
                tournaments_t.c.created_at >= since,
            )
            .order_by(tournaments_t.c.created_at.desc())
            .limit(limit * per_address)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        out: list[StoredTournament] = []
        seen: dict[str | None, int] = {}
        for row in rows:
            if row.address is not None and seen.get(row.address, 0) >= per_address:
                continue
            seen[row.address] = seen.get(row.address, 0) + 1
            try:
                out.append(tournament_from_row(row))
            except CorruptRow:
                continue
            if len(out) >= limit:
                break
        return out

    async def tournament(self, tournament_id: str) -> StoredTournament | None:
        query = select(tournaments_t).where(tournaments_t.c.id == tournament_id)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else tournament_from_row(row)

    async def tournaments_from(self, address: str, since: float) -> int:
        """Tournaments created from ``address`` (`address_key`) since ``since``."""
        query = (
            select(func.count())
            .select_from(tournaments_t)
            .where(tournaments_t.c.address == address, tournaments_t.c.created_at >= since)
        )
        async with self.engine.connect() as conn:
            return int(await conn.scalar(query) or 0)

    async def update_tournament(
        self,
        t: StoredTournament,
        doc: dict[str, Any],
        status: str | None = None,
        tables: Sequence[tuple[StoredTable, Sequence[tuple[str, int, str, dict[str, Any]]]]] = (),
    ) -> bool:
        """Write ``doc`` (and ``status``) over the version ``t`` was read at,
        and in the same transaction the new ``tables`` with their first
        events (this process takes their leases): all of it, or nothing and
        False where another writer changed the tournament since."""
        now = time.time()
        async with self._begin() as conn:
            done = await conn.execute(
                update(tournaments_t)
                .where(tournaments_t.c.id == t.id, tournaments_t.c.version == t.version)
                .values(
                    version=t.version + 1,
                    doc=json.dumps(doc),
                    status=status or t.status,
                    updated_at=now,
                    listed=int(
                        bool(t.config.get("public"))
                        and not doc["series"]
                        and (status or t.status) == "open"
                    ),
                )
            )
            if done.rowcount != 1:
                return False
            for table, rows in tables:
                await conn.execute(leases_t.insert().values(self._lease_row(table.id, now)))
                await _insert_table(conn, table, rows, now)
        t.version += 1
        t.doc = doc
        if status:
            t.status = status
        return True

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

    async def events(self, table_id: str) -> list[Event]:
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(events_t)
                    .where(events_t.c.table_id == table_id)
                    .order_by(events_t.c.version)
                )
            ).all()
        return [
            Event(
                int(number_of(table_id, "a version", r.version)),
                r.kind,
                json_object(table_id, f"event {r.version}", r.payload),
                number_of(table_id, f"event {r.version}'s time", r.at),
            )
            for r in rows
        ]


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


@contextlib.asynccontextmanager
async def _in_turn(
    turn: contextlib.AbstractAsyncContextManager[Any], engine: AsyncEngine
) -> AsyncIterator[AsyncConnection]:
    async with turn, engine.begin() as conn:
        yield conn


async def _insert_table(
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
