"""The profiles' rows (issue 48, point 3; docs/storage.md, version 7): a
profile found by the hash of its key, the tables and tournaments it is
linked to, what it keeps of a finished list, and its deletion (every row
of it in one transaction). The `Store` holds these as it holds the
listings; `profiles.py` decides what they mean."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table, delete, func, select, update

from .schema import profile_lists_t, profile_tournaments_t, profiles_t
from .storebase import StoreBase


@dataclass(frozen=True)
class StoredProfile:
    id: str
    created_at: float
    name: str | None
    public: bool


@dataclass(frozen=True)
class ProfileList:
    """A table a profile sat at: the seat, when, and what is kept of it."""

    table_id: str
    seat: int
    at: float
    figures: dict[str, Any] | None
    review: dict[str, Any] | None


def _json(text: Any) -> dict[str, Any] | None:
    """A kept figure's JSON; None for none (or for a row that cannot be read:
    it is worked out again)."""
    if not isinstance(text, str):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _profile(row: Any) -> StoredProfile:
    return StoredProfile(row.id, float(row.created_at), row.name, bool(row.public))


class ProfileRows(StoreBase):
    """The `Store`'s profiles."""

    async def create_profile(self, profile_id: str, key_hash: str, address: str | None) -> None:
        async with self._begin() as conn:
            await conn.execute(
                profiles_t.insert().values(
                    id=profile_id,
                    key_hash=key_hash,
                    created_at=time.time(),
                    name=None,
                    public=0,
                    address=address,
                )
            )

    async def profiles_from(self, address: str, since: float) -> int:
        """Profiles created from ``address`` (`address_key`) since ``since``."""
        async with self.engine.connect() as conn:
            n = await conn.scalar(
                select(func.count())
                .select_from(profiles_t)
                .where(profiles_t.c.address == address, profiles_t.c.created_at >= since)
            )
        return int(n or 0)

    async def profile_of_key(self, key_hash: str) -> StoredProfile | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(select(profiles_t).where(profiles_t.c.key_hash == key_hash))
            ).first()
        return None if row is None else _profile(row)

    async def profile(self, profile_id: str) -> StoredProfile | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(select(profiles_t).where(profiles_t.c.id == profile_id))
            ).first()
        return None if row is None else _profile(row)

    async def _link(
        self,
        key_hash: str,
        linked: Table,
        where: dict[str, str],
        values: dict[str, Any],
        name: str | None = None,
    ) -> bool:
        """In one transaction: the profile whose key hashes to ``key_hash``
        gets the row ``where`` + ``values`` of ``linked`` (in place of one
        with the same ``where``) and, given, the ``name`` it plays under;
        False: no profile has that key."""
        async with self._begin() as conn:
            pid = await conn.scalar(
                select(profiles_t.c.id).where(profiles_t.c.key_hash == key_hash)
            )
            if pid is None:
                return False
            same = [linked.c[k] == v for k, v in where.items()]
            await conn.execute(delete(linked).where(linked.c.profile_id == pid, *same))
            await conn.execute(linked.insert().values(profile_id=pid, **where, **values))
            if name is not None:
                await conn.execute(
                    update(profiles_t).where(profiles_t.c.id == pid).values(name=name)
                )
        return True

    async def link_list(self, key_hash: str, table_id: str, seat: int, name: str) -> bool:
        """Link the profile whose key hashes to ``key_hash`` to ``seat`` of
        ``table_id`` (a person sat down with it); False: no such profile."""
        values = {"seat": seat, "at": time.time()}
        return await self._link(key_hash, profile_lists_t, {"table_id": table_id}, values, name)

    async def carry_links(self, old_table: str, new_table: str) -> None:
        """The profiles at ``old_table`` sit at the same seats of ``new_table``
        ("again": the same people play another list)."""
        async with self._begin() as conn:
            rows = (
                await conn.execute(
                    select(profile_lists_t.c.profile_id, profile_lists_t.c.seat).where(
                        profile_lists_t.c.table_id == old_table
                    )
                )
            ).all()
            now = time.time()
            for pid, seat in rows:
                await conn.execute(
                    profile_lists_t.insert().values(
                        profile_id=pid, table_id=new_table, seat=seat, at=now
                    )
                )

    async def add_list(self, profile_id: str, table_id: str, seat: int, at: float) -> None:
        """Link a profile to a seat it holds already by other means (a
        tournament's table, drawn for the name it entered with), unless it is."""
        async with self._begin() as conn:
            found = await conn.scalar(
                select(func.count())
                .select_from(profile_lists_t)
                .where(
                    profile_lists_t.c.profile_id == profile_id,
                    profile_lists_t.c.table_id == table_id,
                )
            )
            if not found:
                await conn.execute(
                    profile_lists_t.insert().values(
                        profile_id=profile_id, table_id=table_id, seat=seat, at=at
                    )
                )

    async def link_tournament(self, key_hash: str, tournament_id: str, name: str) -> bool:
        """Link the profile to a tournament it entered under ``name``."""
        where = {"tournament_id": tournament_id}
        values = {"name": name, "at": time.time()}
        return await self._link(key_hash, profile_tournaments_t, where, values)

    async def profile_lists(self, profile_id: str) -> list[ProfileList]:
        """The profile's lists, oldest first."""
        query = (
            select(profile_lists_t)
            .where(profile_lists_t.c.profile_id == profile_id)
            .order_by(profile_lists_t.c.at, profile_lists_t.c.table_id)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            ProfileList(r.table_id, int(r.seat), float(r.at), _json(r.figures), _json(r.review))
            for r in rows
        ]

    async def profile_tournaments(self, profile_id: str) -> list[tuple[str, str, float]]:
        """The profile's tournaments as (id, name entered with, when), oldest first."""
        query = (
            select(profile_tournaments_t)
            .where(profile_tournaments_t.c.profile_id == profile_id)
            .order_by(profile_tournaments_t.c.at)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [(r.tournament_id, r.name, float(r.at)) for r in rows]

    async def keep_list(
        self,
        profile_id: str,
        table_id: str,
        figures: dict[str, Any] | None = None,
        review: dict[str, Any] | None = None,
    ) -> None:
        """Keep what the profile shows of a finished list (its figures) or
        of its review, so that neither is worked out again."""
        values = {}
        if figures is not None:
            values["figures"] = json.dumps(figures)
        if review is not None:
            values["review"] = json.dumps(review)
        if not values:
            return
        async with self._begin() as conn:
            await conn.execute(
                update(profile_lists_t)
                .where(
                    profile_lists_t.c.profile_id == profile_id,
                    profile_lists_t.c.table_id == table_id,
                )
                .values(**values)
            )

    async def set_public(self, profile_id: str, public: bool) -> None:
        async with self._begin() as conn:
            await conn.execute(
                update(profiles_t).where(profiles_t.c.id == profile_id).values(public=int(public))
            )

    async def delete_profile(self, profile_id: str) -> None:
        """Every row of the profile, in one transaction."""
        async with self._begin() as conn:
            await conn.execute(
                delete(profile_lists_t).where(profile_lists_t.c.profile_id == profile_id)
            )
            await conn.execute(
                delete(profile_tournaments_t).where(
                    profile_tournaments_t.c.profile_id == profile_id
                )
            )
            await conn.execute(delete(profiles_t).where(profiles_t.c.id == profile_id))


__all__ = ["ProfileList", "ProfileRows", "StoredProfile"]
