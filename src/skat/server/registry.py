"""The live tables: actors created or restored on demand, another list for
the same people, the sweep that expires idle tables."""

from __future__ import annotations

import asyncio
import multiprocessing
import secrets
import time
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from ..players.analysis import analyse_deal
from ..series import ListOptions, commitment, new_seed
from . import events as ev
from .actor import HISTORY, Expire, ServerConfig, TableActor
from .store import Store, StoredTable
from .table import Settings, TableState
from .tokens import hash_token

ANALYSES_KEPT = 512  # settled deals' analyses kept in memory


class Tables:
    """The live actors, created or restored on demand."""

    def __init__(self, store: Store, config: ServerConfig) -> None:
        self.store = store
        self.config = config
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bots")
        # searching computer players think in processes of their own, so that
        # the server keeps serving while they do (processes start on first use)
        self.workers = ProcessPoolExecutor(
            max_workers=config.search_workers, mp_context=multiprocessing.get_context("spawn")
        )
        self.actors: dict[str, TableActor] = {}
        self._analyses: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self._lock = asyncio.Lock()

    async def create(self, options: ListOptions, settings: Settings) -> tuple[str, str]:
        """A new open table; returns its id and the creator's secret."""
        table_id = secrets.token_urlsafe(9)
        creator = secrets.token_urlsafe(24)
        seed = new_seed()
        config = {"options": options.to_dict(), "settings": settings.to_dict()}
        now = time.time()
        await self.store.create_table(
            StoredTable(
                table_id,
                now,
                now,
                "open",
                config,
                seed.hex(),
                commitment(seed),
                hash_token(creator),
            )
        )
        return table_id, creator

    async def load(self, table_id: str) -> TableState | None:
        """A table's state rebuilt from the store (also for finished tables)."""
        t = await self.store.table(table_id)
        if t is None:
            return None
        return TableState.from_stored(t, await self.store.events(table_id))

    async def state(self, table_id: str) -> TableState | None:
        """The live state if the table is loaded, else rebuilt from the store."""
        actor = self.actors.get(table_id)
        return actor.state if actor is not None else await self.load(table_id)

    async def actor(self, table_id: str) -> TableActor | None:
        async with self._lock:
            actor = self.actors.get(table_id)
            if actor is not None:
                return actor
            t = await self.store.table(table_id)
            if t is None:
                return None
            events = await self.store.events(table_id)
            state = TableState.from_stored(t)
            # recent events, so that clients reconnecting after a restart get
            # what they missed (the moves' texts come from the engine's views)
            recent = []
            for event in state.replay(events):
                if state.version > len(events) - HISTORY:
                    recent.append((state.version, event, state.act_ref(event)))
            actor = self._start(state)
            actor.history.extend(recent)
            return actor

    def _start(self, state: TableState) -> TableActor:
        actor = TableActor(state, self.store, self.pool, self.config, self.workers)
        actor.on_again = self.again
        self.actors[state.id] = actor
        actor.start()
        return actor

    async def restore(self) -> int:
        """Start an actor for every unfinished table (after a restart)."""
        stored = await self.store.tables(("open", "playing"))
        for t in stored:
            await self.actor(t.id)
        return len(stored)

    async def again(self, old: TableState) -> str:
        """A new list with the same people: same options, seats and tokens,
        planned and applied like every other event."""
        table_id, _ = await self.create(old.options, old.settings)
        t = await self.store.table(table_id)
        assert t is not None
        state = TableState.from_stored(t)
        for event in state.plan_again(old):
            kind, payload = ev.to_row(event)
            await self.store.append(table_id, state.version + 1, kind, payload)
            state.apply(event)
        await self.store.set_status(table_id, state.status)
        async with self._lock:
            self._start(state)
        return table_id

    async def analysis(self, state: TableState, number: int) -> dict[str, Any]:
        """The open-card analysis of settled deal ``number`` (cached: a deal
        never changes once settled). The solver releases the GIL, so a
        thread keeps the server serving while it runs."""
        key = (state.id, number)
        cached = self._analyses.get(key)
        if cached is None:
            assert state.series is not None
            deal = state.series.deals[number - 1]
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(
                self.pool, analyse_deal, deal, f"{state.id}-{number}"
            )
            cached = self._analyses[key] = result.to_dict()
            while len(self._analyses) > ANALYSES_KEPT:
                self._analyses.popitem(last=False)
        return cached

    async def sweep(self) -> None:
        """Expire idle unfinished tables; drop finished ones from memory."""
        now = time.time()
        for table_id, actor in list(self.actors.items()):
            idle = now - actor.last_event
            if actor.state.status in ("open", "playing") and idle > self.config.idle_timeout:
                await actor.submit(Expire())
            if actor.state.status in ("finished", "expired") and not actor.conns and idle > 60:
                await actor.stop()
                self.actors.pop(table_id, None)

    async def close(self) -> None:
        for actor in self.actors.values():
            await actor.stop()
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.workers.shutdown(wait=False, cancel_futures=True)


__all__ = ["Tables"]
