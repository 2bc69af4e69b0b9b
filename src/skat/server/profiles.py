"""Profiles: a name a person keeps without signing up (issue 48, point 3;
docs/protocol.md, Profiles).

A profile is made the first time a person plays: its key (`secrets`) goes
to that browser once, in the answer that makes it, and is stored only as
its hash; it links to a seat when the person sits down with it (the table
keeps nothing of it: neither its key nor its id is in any table message).
What the profile shows of a list comes from the table itself (its
figures, `series.figures`) and from the review of the person's decisions
(`Tables.list_review`, in the reviews' pool, never on the event loop):
both are kept in the profile's rows once the list is over, and the review
is asked for lazily, one list at a time, when the profile is read.
"""

from __future__ import annotations

import contextlib
import logging
import re
import secrets
import time
from typing import Any

from ..players.rating import skill
from ..series.figures import combined, list_figures
from .errors import ErrorCode
from .profilestore import ProfileList, StoredProfile
from .registry import TableBroken, Tables
from .store import Store, address_key
from .tokens import hash_token, new_token
from .work import Busy

log = logging.getLogger("skat.server")

#: A profile key as `tokens.new_token` makes them (32 of these characters).
KEY_RE = re.compile(r"[A-Za-z0-9_-]{32}")
#: A profile's id, as `secrets.token_urlsafe(9)` makes them.
ID_RE = re.compile(r"[A-Za-z0-9_-]{12}")
#: The most lists a profile shows (the newest); its figures count them all.
MAX_SHOWN = 200
#: What is kept of a list's review in the profile (players/review.py `summary`).
REVIEW_KEYS = ("decisions", "average_loss", "promised", "made", "play", "verdicts")


class ProfileError(Exception):
    def __init__(self, code: ErrorCode, message: str, status: int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def check_key(key: Any) -> str:
    """``key`` if it has a profile key's form; else `ProfileError` (BAD_KEY)."""
    if not isinstance(key, str) or not KEY_RE.fullmatch(key):
        raise ProfileError(
            ErrorCode.BAD_KEY,
            "a profile key is 32 letters, digits, '-' or '_' (the part of the secret link after #)",
            400,
        )
    return key


class Profiles:
    """Making, reading, publishing and deleting profiles."""

    def __init__(self, tables: Tables, store: Store, tournaments: Any) -> None:
        self.tables = tables
        self.store = store
        self.tournaments = tournaments  # tournaments.Tournaments (its view)
        self.config = tables.config

    async def create(self, address: str | None) -> tuple[str, str]:
        """A new profile: its id and its key (sent to its owner only, once).
        Raises `ProfileError` (TOO_MANY_PROFILES) past the limit per address."""
        key = None if address is None else address_key(address)
        async with self.tables.locked(f"profiles:{key}"):
            if key is not None and await self.store.profiles_from(key, time.time() - 3600) >= (
                self.config.profiles_per_address
            ):
                raise ProfileError(
                    ErrorCode.TOO_MANY_PROFILES,
                    "too many new profiles from this address in the last hour; try again later",
                    429,
                )
            profile_id = secrets.token_urlsafe(9)
            secret = new_token()
            await self.store.create_profile(profile_id, hash_token(secret), key)
        return profile_id, secret

    async def owned(self, key: Any) -> StoredProfile:
        """The profile of ``key``; `ProfileError` for a key that is none
        (BAD_KEY) or that no profile has (NO_PROFILE: deleted, or mistyped)."""
        found = await self.store.profile_of_key(hash_token(check_key(key)))
        if found is None:
            raise ProfileError(
                ErrorCode.NO_PROFILE, "no profile has this key (it was deleted, or mistyped)", 404
            )
        return found

    async def public(self, profile_id: str, owner: str | None) -> dict[str, Any]:
        """A profile its owner made public (others read no more than this:
        its lists without their tables' links, which would let a reader
        watch or sit at a table still in play); a private one is answered
        as none at all."""
        found = await self.store.profile(profile_id) if ID_RE.fullmatch(profile_id) else None
        if found is None or not found.public:
            raise ProfileError(ErrorCode.NO_PROFILE, "no such public profile", 404)
        out = await self.render(found, owner)
        out["lists"] = [
            {k: v for k, v in x.items() if k not in ("table", "url", "seat")} for x in out["lists"]
        ]
        return out

    async def link_entry(self, key: str, tournament_id: str, name: str) -> None:
        with contextlib.suppress(ProfileError):
            await self.store.link_tournament(hash_token(check_key(key)), tournament_id, name)

    # -------------------------------------------------------------- reading
    async def render(self, p: StoredProfile, owner: str | None) -> dict[str, Any]:
        """The profile as its page shows it: its lists (those of its
        tournaments too) with their results and review, its tournaments
        with their standings, and the figures over all of them."""
        tournaments = []
        linked = {x.table_id: x for x in await self.store.profile_lists(p.id)}
        for tid, name, at in await self.store.profile_tournaments(p.id):
            entry: dict[str, Any] = {"id": tid, "name": name, "at": at, "url": f"/tournament/{tid}"}
            try:
                view = await self.tournaments.view(tid)
            except Exception:  # a tournament gone or unreadable: listed as such
                entry["state"] = "gone"
                tournaments.append(entry)
                continue
            entry["title"] = view["name"]
            entry["state"] = view["state"]
            for row in view["standings"]:
                if row["name"] == name:
                    entry.update(place=row["place"], total=row["total"], of=len(view["standings"]))
            for s in view["series"]:  # its tables are the profile's lists too
                for table in s["tables"]:
                    seats = [x["name"] for x in table["seats"]]
                    if name in seats and table["id"] not in linked:
                        seat = seats.index(name)
                        await self.store.add_list(p.id, table["id"], seat, at)
                        linked[table["id"]] = ProfileList(table["id"], seat, at, None, None)
            tournaments.append(entry)
        lists = sorted(linked.values(), key=lambda x: (x.at, x.table_id))
        shown = []
        review_asked = False
        for row in lists:
            item = await self._list(p.id, row, owner, review_asked)
            review_asked = review_asked or item.get("review_state") == "reviewing"
            shown.append(item)
        figures = [x["figures"] for x in shown if x.get("figures")]
        reviews = [(x["at"], x["review"]) for x in shown if x.get("review")]
        stats = combined(figures)
        stats["review"] = {
            "lists": len(reviews),
            "decisions": sum(r["decisions"] for _, r in reviews),
            "average_loss": _mean_loss([r for _, r in reviews]),
            "trend": [
                {"at": at, "average_loss": r["average_loss"], "decisions": r["decisions"]}
                for at, r in reviews
                if r["decisions"]
            ],
        }
        # the skill figure (issue 48, point 4): Glicko-2 over the reviewed
        # lists, oldest first, from play quality and luck-adjusted results
        stats["skill"] = skill(
            [
                {**x["review"], "deals": x["figures"]["settled"]}
                for x in shown
                if x.get("review") and x.get("figures")
            ]
        )
        stats["luck"] = {
            "promised": round(sum(r["promised"] for _, r in reviews), 1),
            "made": sum(r["made"] for _, r in reviews),
            "play": round(sum(r["play"] for _, r in reviews), 1),
        }
        return {
            "id": p.id,
            "name": p.name,
            "public": p.public,
            "created_at": p.created_at,
            "lists": shown[-MAX_SHOWN:][::-1],
            "tournaments": tournaments[::-1],
            "stats": stats,
        }

    async def _list(
        self, pid: str, row: ProfileList, owner: str | None, review_asked: bool
    ) -> dict[str, Any]:
        """One list as the profile shows it; what is not kept yet is worked
        out (the figures from the table; the review asked of the reviews'
        pool for the first finished list without one, no more per read)."""
        item: dict[str, Any] = {
            "table": row.table_id,
            "url": f"/t/{row.table_id}",
            "seat": row.seat,
            "at": row.at,
            "figures": row.figures,
            "review": row.review,
        }
        state = None
        if row.figures is None or row.review is None:
            with contextlib.suppress(TableBroken):
                found = await self.tables.view(row.table_id)
                state = None if found is None else found[0]
        if state is not None and state.series is not None and row.figures is None:
            figures = list_figures(state.series, row.seat)
            item["figures"] = figures
            if state.closed():
                await self.store.keep_list(pid, row.table_id, figures=figures)
        if state is not None:
            item["status"] = state.status
        elif row.figures is not None:
            item["status"] = "finished" if row.figures["over"] else "expired"
        else:
            item["status"] = "gone"
        if row.review is not None:
            item["review_state"] = "reviewed"
        elif state is None or state.series is None or not state.closed():
            item["review_state"] = "not_reviewed"
        elif review_asked:
            item["review_state"] = "waiting"
        else:
            item["review_state"] = await self._review(pid, row, state, owner, item)
        return item

    async def _review(
        self, pid: str, row: ProfileList, state: Any, owner: str | None, item: dict[str, Any]
    ) -> str:
        """Ask for the list's review without waiting for it (it goes on in the
        reviews' pool); kept once complete."""
        try:
            got = await self.tables.list_review(state, row.seat, owner, wait=0.0)
        except Busy:
            return "waiting"
        if not got["complete"]:
            return "reviewing"
        kept = {k: got[k] for k in REVIEW_KEYS}
        await self.store.keep_list(pid, row.table_id, review=kept)
        item["review"] = kept
        return "reviewed"

    async def delete(self, key: Any) -> None:
        p = await self.owned(key)
        await self.store.delete_profile(p.id)

    async def set_public(self, key: Any, public: bool) -> StoredProfile:
        p = await self.owned(key)
        await self.store.set_public(p.id, public)
        return StoredProfile(p.id, p.created_at, p.name, public)


def _mean_loss(reviews: list[dict[str, Any]]) -> float:
    """The average loss per decision over every reviewed decision."""
    n = sum(r["decisions"] for r in reviews)
    return round(sum(r["average_loss"] * r["decisions"] for r in reviews) / n, 2) if n else 0.0


__all__ = ["KEY_RE", "ProfileError", "Profiles", "check_key"]
