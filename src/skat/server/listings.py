"""Who created what, and what is listed: the creation limits per client
address (`skat_creations`, `skat_origins`), the lobby (`skat_lobby`) and the
tournaments (`skat_tournaments`). A table's creation and origin rows are
written in its own transaction (`Store.create_table`)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, func, or_, select, update

from .schema import (
    CorruptRow,
    StoredTable,
    StoredTournament,
    creations_t,
    json_object,
    leases_t,
    lobby_t,
    origins_t,
    tables_t,
    tournament_from_row,
    tournaments_t,
)
from .storebase import StoreBase, insert_table


class Listings(StoreBase):
    """The `Store`'s creation limits, lobby and tournaments."""

    # ------------------------------------------------------- creation limits
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
        # each address's tables numbered newest first, in the query: the
        # limit per address holds before the newest are cut to ``limit``
        # (else a few addresses' many tables push everyone else's out)
        ranked = (
            select(
                lobby_t.c.table_id,
                lobby_t.c.summary,
                lobby_t.c.listed_at,
                func.row_number()
                .over(
                    partition_by=func.coalesce(origins_t.c.address, lobby_t.c.table_id),
                    order_by=lobby_t.c.listed_at.desc(),
                )
                .label("nth"),
            )
            .join(tables_t, tables_t.c.id == lobby_t.c.table_id)
            .outerjoin(origins_t, origins_t.c.table_id == lobby_t.c.table_id)
            .where(tables_t.c.status == "open")
            .subquery()
        )
        query = (
            select(ranked.c.table_id, ranked.c.summary)
            .where(ranked.c.nth <= per_address)
            .order_by(ranked.c.listed_at.desc())
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        out: list[dict[str, Any]] = []
        for row in rows:
            try:
                out.append(json_object(row.table_id, "its lobby summary", row.summary))
            except CorruptRow:
                continue
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
        ranked = (  # the limit per address in the query, as the tables' lobby
            select(
                tournaments_t,
                func.row_number()
                .over(
                    partition_by=func.coalesce(tournaments_t.c.address, tournaments_t.c.id),
                    order_by=tournaments_t.c.created_at.desc(),
                )
                .label("nth"),
            )
            .where(
                tournaments_t.c.listed == 1,
                tournaments_t.c.status == "open",
                tournaments_t.c.created_at >= since,
            )
            .subquery()
        )
        query = (
            select(ranked)
            .where(ranked.c.nth <= per_address)
            .order_by(ranked.c.created_at.desc())
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        out: list[StoredTournament] = []
        for row in rows:
            try:
                out.append(tournament_from_row(row))
            except CorruptRow:
                continue
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
        address: str | None = None,
        strong: bool = False,
    ) -> bool:
        """Write ``doc`` (and ``status``) over the version ``t`` was read at,
        and in the same transaction the new ``tables`` with their first
        events (this process takes their leases), counted as ``address``'s
        (`address_key`: `unfinished_from` counts them; ``strong``: their
        computer players search): all of it, or nothing and False where
        another writer changed the tournament since."""
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
                        and not doc.get("entry_closed")
                        and (status or t.status) == "open"
                    ),
                )
            )
            if done.rowcount != 1:
                return False
            for table, rows in tables:
                await conn.execute(leases_t.insert().values(self._lease_row(table.id, now)))
                await insert_table(conn, table, rows, now)
                if address is not None:
                    await conn.execute(
                        origins_t.insert().values(
                            table_id=table.id, address=address, strong=int(strong)
                        )
                    )
        t.version += 1
        t.doc = doc
        if status:
            t.status = status
        return True
