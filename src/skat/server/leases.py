"""Ownership of tables (docs/deploy.md): several server processes
("workers") may share one database; each table has at most one owner,
recorded as a lease row ``(table_id, owner, token, expires_at, wanted_by)``.
Every append checks, in its own transaction, that this process still holds
the lease of every table it writes (`Leases._check_leases`), so a worker
that lost a table (it stalled past the lease, and another took the table
over) can never store a move for it."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, or_, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from .database import NotOwner, StoreFailed, lock_timed_out, ms
from .schema import leases_t, tables_t
from .storebase import StoreBase


class Leases(StoreBase):
    """The `Store`'s leases: claim, keep, hand over and find tables."""

    async def _check_leases(self, conn: Any, table_ids: set[str], now: float) -> None:
        """Inside a writing transaction: renew this process's leases of
        ``table_ids`` or raise `NotOwner`. The UPDATE locks the lease rows
        until the commit, so a takeover waits for it and then sees the
        renewed lease (PostgreSQL); SQLite has one writer at a time anyway."""
        if self.engine.dialect.driver == "aiosqlite":
            # through the driver, like the group commit's rows (one trip to SQLite's thread)
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
