"""The live tables: actors created or restored on demand, another list for
the same people, the sweep that expires idle tables, the limits on creating
tables, and finished tables kept rendered for their downloads."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import multiprocessing
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from ..engine.records import RecordError
from ..players import searches
from ..players.analysis import analyse_deal, deal_board
from ..players.review import Reviewer, deal_review, summary
from ..series import ListOptions, commitment, new_seed
from ..series.files import named_deals_in, records_in
from . import events as ev
from .actor import TableActor
from .commands import Expire
from .config import HISTORY, ServerConfig
from .errors import CommandError, ErrorCode
from .metrics import Metrics
from .store import CorruptRow, Event, Store, StoredTable, address_key
from .table import Settings, TableState
from .tokens import hash_token
from .work import AnalysisPool, Offload, SearchPool, search_worker_start

log = logging.getLogger("skat.server")
ANALYSES_KEPT = 512  # settled deals' analyses kept in memory
#: Reviews kept in memory: one seat's decisions in one deal each (a 36-deal
#: list's review of one person is 36 of them, each a few KB).
REVIEWS_KEPT = 4096
#: The status of a stored table that cannot be loaded (logged, skipped).
BROKEN = "broken"
LIVE = ("open", "playing")


_reviewer: Reviewer | None = None


def _review(deal: Any, seat: int, number: int) -> dict[str, Any]:
    """One seat's review of one settled deal (in the review process, called
    from the analysis pool): its decisions judged from its own view and its
    luck (players/review.py)."""
    global _reviewer
    if _reviewer is None:
        _reviewer = Reviewer()
    return deal_review(deal, seat, number, _reviewer).to_dict()


def _listed(number: int, rid: str | None, deal: Any, names: list[str] | None) -> dict[str, Any]:
    """One game of an uploaded file as the board's picker lists it: its
    number, id, whether it can be shown, its game's words and declarer (by
    seat, and by name where the file names the players)."""
    ok = not isinstance(deal, RecordError) and deal.is_terminal()
    contract = None if isinstance(deal, RecordError) else deal.contract
    seat = None if isinstance(deal, RecordError) else deal.declarer_seat
    return {
        "number": number,
        "id": rid,
        "ok": ok,
        "words": list(contract.words) if contract is not None else None,
        "declarer": seat,
        "declarer_name": names[seat] if names and seat is not None and seat < len(names) else None,
        "kind": deal.result.kind if ok and deal.result is not None else None,
    }


class TableBroken(Exception):
    """A stored table that cannot be rebuilt; it is marked `BROKEN`."""


class TableElsewhere(Exception):
    """Another server process holds the table's lease (docs/deploy.md)."""

    def __init__(self, table_id: str, owner: str | None) -> None:
        super().__init__(f"table {table_id} is served by {owner or 'another worker'}")
        self.owner = owner


#: The most games an uploaded file may hold for the analysis board.
MAX_FILE_GAMES = 200
#: Other workers' unfinished tables followed (`follow`): a series of a
#: tournament of 200 entrants has 67 tables.
FOLLOWED_KEPT = 256
#: Uploaded files whose reading is remembered by digest (`FileRead`).
FILES_KEPT = 1024


class BadFile(Exception):
    """An uploaded file the analysis board cannot use: the wire's code, a
    message, the HTTP status."""

    def __init__(self, code: ErrorCode, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


#: White space around a line break (JSON's white space: space, tab, CR, LF).
_LINE_BREAKS = re.compile(r"[ \t\r]*\n[ \t\r\n]*")


def file_digest(text: str) -> str:
    """An uploaded file's key, the same however it is indented: white space
    around its lines and blank lines dropped, and in JSON (not ISS records,
    whose tokens spaces separate) every space and tab outside a string. Its
    line breaks stay (they tell JSON lines apart); a file with an escaped
    quote keeps its spaces (where its strings end is not known without a
    parse). Done on the event loop: splits and joins only (about 1 ms for
    64 KiB)."""
    flat = _LINE_BREAKS.sub("\n", text.strip())
    if not flat.startswith("(;") and '\\"' not in flat:
        parts = flat.split('"')  # outside strings at the even places
        parts[::2] = [p.replace(" ", "").replace("\t", "").replace("\r", "") for p in parts[::2]]
        flat = '"'.join(parts)
    return hashlib.sha256(flat.encode()).hexdigest()


@dataclass(frozen=True)
class FileRead:
    """What reading an uploaded file found: a reason it cannot be used at
    all (``refused``: code, message, status), else its number of games and,
    once replayed, each game's id and why it has no board (None: it has)."""

    refused: tuple[ErrorCode, str, int] | None = None
    count: int = 0
    games: tuple[tuple[str | None, tuple[ErrorCode, str, int] | None], ...] | None = None
    # once replayed: each game as the board's picker lists it (`_listed`),
    # and its players' names by seat where the file has them
    listed: tuple[dict[str, Any], ...] | None = None
    names: tuple[list[str] | None, ...] | None = None

    def check(self, number: int) -> None:
        """Raise `BadFile` if game ``number`` of this file gets no board."""
        if self.refused is not None:
            raise BadFile(*self.refused)
        if not 1 <= number <= self.count:
            raise BadFile(ErrorCode.NO_DEAL, f"the file has {self.count} games", 404)
        if self.games is not None and (why := self.games[number - 1][1]) is not None:
            raise BadFile(*why)


def _games_of(record: str, item: Any) -> int:
    """How many games one record of `records_in` (its kind, its content)
    holds, without replaying it (a list record that cannot be replayed is
    one game: its error)."""
    if record == "list" and isinstance(deals := item.get("deals"), list) and deals:
        return len(deals)
    return 1


def _read_file(text: str, number: int) -> tuple[FileRead, dict[str, Any] | None]:
    """Read an uploaded file (in the analysis pool): its games counted, and
    unless game ``number`` is not among them, replayed, and that game's
    board made."""
    records = list(records_in(text, "file"))
    count = sum(_games_of(kind, item) for kind, item in records)
    if count > MAX_FILE_GAMES:
        return FileRead((ErrorCode.BAD_RECORD, f"at most {MAX_FILE_GAMES} games a file", 400)), None
    if not count:
        return FileRead((ErrorCode.BAD_RECORD, "no game in the file", 400)), None
    if not 1 <= number <= count:  # nothing to replay for that answer
        return FileRead(count=count), None
    games: list[tuple[str | None, tuple[ErrorCode, str, int] | None]] = []
    deals: list[tuple[str | None, Any]] = []
    listed: list[dict[str, Any]] = []
    names: list[list[str] | None] = []
    for kind, item in records:
        for rid, deal, who in named_deals_in(kind, item):
            n = len(games) + 1
            listed.append(_listed(n, rid, deal, who))
            names.append(who)
            if isinstance(deal, RecordError):
                why = (ErrorCode.BAD_RECORD, f"game {n} cannot be replayed: {deal}"[:300], 400)
            elif not deal.is_terminal():
                why = (ErrorCode.WRONG_PHASE, f"game {n} is not finished", 409)
            else:
                why = None
            games.append((rid, why))
            deals.append((rid, deal))
    read = FileRead(count=len(games), games=tuple(games), listed=tuple(listed), names=tuple(names))
    if not 1 <= number <= len(games) or games[number - 1][1] is not None:
        return read, None
    rid, deal = deals[number - 1]
    return read, deal_board(deal, rid)


class Tables:
    """The live actors, created or restored on demand."""

    def __init__(self, store: Store, config: ServerConfig, metrics: Metrics | None = None) -> None:
        self.store = store
        self.config = config
        self.metrics = metrics if metrics is not None else Metrics()
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bots")
        # searching computer players and hints think in processes of their own,
        # so that the server keeps serving while they do (processes start on
        # first use) at a lower priority: the event loop wins the CPU whenever
        # it needs it; shared table by table (work.py)
        self.search = SearchPool(config.search_workers, self._search_processes)
        # analyses: a thread of their own, bounded, identical requests merged
        self.analyses = AnalysisPool(config.analysis_threads, config.analysis_queue)
        # reviews of people's decisions: a pool of their own with the same
        # bounds and fairness (a review takes seconds: an open-card analysis
        # never waits behind one), run in a low-priority process of their
        # own, which the pool's thread waits for (work.Offload: a review is
        # Python, and a thread holding the GIL would stall the event loop)
        self.reviewing = AnalysisPool(1, config.analysis_queue)
        self.offload = Offload(self._review_process)
        self.actors: dict[str, TableActor] = {}
        self._analyses: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        # reviews by (table, deal, seat); a list's review walks its deals one
        # at a time, a walker per (table, seat), kept while it runs
        self._reviews: OrderedDict[tuple[str, int, int], dict[str, Any]] = OrderedDict()
        self._walkers: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._files: OrderedDict[str, FileRead] = OrderedDict()  # uploads read, by digest
        self._digests: OrderedDict[bytes, str] = OrderedDict()  # a text's own hash -> digest
        self._reading: dict[tuple[str, int], asyncio.Future[Any]] = {}  # uploads being read
        # one lock per table being started, handed over or expired: a claim
        # that waits on the database holds up that table only
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}
        # closed tables not loaded: their state and what was rendered of it
        self._closed: OrderedDict[str, tuple[TableState, dict[str, Any]]] = OrderedDict()
        # copies of tables other workers run, kept up to date by `follow`
        self._followed: OrderedDict[str, TableState] = OrderedDict()
        self._stopping: set[asyncio.Task[None]] = set()

    def locked(self, key: str) -> contextlib.AbstractAsyncContextManager[None]:
        """One at a time in this process for ``key`` (a tournament's changes)."""
        return self._locked(key)

    @contextlib.asynccontextmanager
    async def _locked(self, table_id: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(table_id, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[table_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            _, users = self._locks[table_id]
            if users == 1:
                del self._locks[table_id]
            else:
                self._locks[table_id] = (lock, users - 1)

    def _search_processes(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.config.search_workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=search_worker_start,
        )

    def _review_process(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=search_worker_start,
        )

    # ------------------------------------------------------------- creating
    def _new(self, options: ListOptions, settings: Settings) -> tuple[StoredTable, TableState, str]:
        table_id = secrets.token_urlsafe(9)
        creator = secrets.token_urlsafe(24)
        seed = new_seed()
        config = {"options": options.to_dict(), "settings": settings.to_dict()}
        now = time.time()
        stored = StoredTable(
            table_id, now, now, "open", config, seed.hex(), commitment(seed), hash_token(creator)
        )
        state = TableState(table_id, options, settings, seed, hash_token(creator))
        return stored, state, creator

    def seated(
        self, options: ListOptions, settings: Settings, seats: list[tuple[str, str | None]]
    ) -> tuple[StoredTable, TableState, list[tuple[str, int, str, dict[str, Any]]]]:
        """A new table with every seat taken and the list started, and its
        first events as rows: each seat a person's (name, hash of their
        token) or, where the hash is None, a computer player's (a
        tournament's table; `start_seated` runs it once it is stored)."""
        stored, state, _ = self._new(options, settings)
        events: list[ev.TableEvent] = [
            ev.Bot(seat=i, bot=settings.bot)
            if token_hash is None
            else ev.Sit(seat=i, name=name, token_hash=token_hash)
            for i, (name, token_hash) in enumerate(seats)
        ]
        rows: list[tuple[str, int, str, dict[str, Any]]] = []
        for event in [*events, ev.Start()]:
            state.check(event)
            rows.append((state.id, state.version + 1, *ev.to_row(event)))
            state.apply(event)
        stored.status = state.status
        return stored, state, rows

    async def start_seated(self, state: TableState) -> None:
        """Run a table `seated` made, stored with this process's lease."""
        async with self._locked(state.id):
            if state.id not in self.actors:
                self._start(state)

    async def create(
        self, options: ListOptions, settings: Settings, address: str | None = None
    ) -> tuple[str, str]:
        """A new open table; returns its id and the creator's secret. Raises
        `CommandError` (TOO_MANY_TABLES) over the limits; ``address`` is the
        client's, for the limit per address."""
        key = None if address is None else address_key(address)
        if key is None:
            return await self._create(options, settings, None)
        # one address's creations one at a time (in this process): counted
        # and stored together, so that parallel requests cannot all pass
        async with self._locked(f"address:{key}"):
            return await self._create(options, settings, key)

    async def _create(
        self, options: ListOptions, settings: Settings, key: str | None
    ) -> tuple[str, str]:
        cfg = self.config
        now = time.time()
        # counted in the database: the limit holds across all workers
        if key is not None and await self.store.created_from(key, now - 3600) >= (
            cfg.tables_per_address
        ):
            raise CommandError(
                ErrorCode.TOO_MANY_TABLES,
                f"at most {cfg.tables_per_address} new tables an hour from one address",
            )
        strong = searches(settings.bot)
        if key is not None:
            # tables stay counted while unfinished, however long that is
            # (a seat taken keeps an open table for hours)
            unfinished, searching = await self.store.unfinished_from(key, LIVE)
            if unfinished >= cfg.open_tables_per_address:
                raise CommandError(
                    ErrorCode.TOO_MANY_TABLES,
                    f"at most {cfg.open_tables_per_address} unfinished tables from one address",
                )
            if strong and searching >= cfg.strong_tables_per_address:
                raise CommandError(
                    ErrorCode.TOO_MANY_TABLES,
                    f"at most {cfg.strong_tables_per_address} unfinished tables with strong "
                    "computer players from one address",
                )
        if await self.store.count(LIVE) >= cfg.max_open_tables:
            raise CommandError(ErrorCode.TOO_MANY_TABLES, "too many open tables; try later")
        stored, _, creator = self._new(options, settings)
        await self.store.create_table(stored, address=key, strong=strong)
        return stored.id, creator

    # -------------------------------------------------------------- loading
    async def _broken(self, table_id: str, exc: BaseException) -> TableBroken:
        log.error("table %s cannot be loaded and is marked broken: %r", table_id, exc)
        try:
            await self.store.set_status(table_id, BROKEN)
        except Exception:
            log.exception("table %s: marking it broken failed", table_id)
        return TableBroken(table_id)

    async def _read(self, table_id: str) -> tuple[StoredTable, list[Event]] | None:
        """A table's row and events; raises `TableBroken` for one marked so
        or whose rows cannot be read (a store that fails raises as it does:
        that breaks no table)."""
        try:
            t = await self.store.table(table_id)
            if t is None:
                return None
            if t.status == BROKEN:
                raise TableBroken(table_id)
            return t, await self.store.events(table_id)
        except CorruptRow as exc:
            raise await self._broken(table_id, exc) from exc

    async def load(self, table_id: str) -> TableState | None:
        """A table's state rebuilt from the store (also for finished tables);
        raises `TableBroken` for one that cannot be rebuilt."""
        stored = await self._read(table_id)
        if stored is None:
            return None
        self.metrics.rebuilt.inc()
        try:  # with the rules it was made with, whatever the limits are now
            return TableState.from_stored(*stored)
        except Exception as exc:
            raise await self._broken(table_id, exc) from exc

    async def view(self, table_id: str) -> tuple[TableState, dict[str, Any]] | None:
        """The table (live, or rebuilt from the store) and a memo for what is
        rendered of it: a closed table not in play is rebuilt once and kept
        with its renderings (downloads), not replayed per request."""
        actor = self.actors.get(table_id)
        if actor is not None:
            return actor.state, {}
        cached = self._closed.get(table_id)
        if cached is not None:
            self._closed.move_to_end(table_id)
            return cached
        state = await self.load(table_id)
        if state is None:
            return None
        if not state.closed() or table_id in self.actors:
            return state, {}
        return self._remember(state)

    def _remember(self, state: TableState) -> tuple[TableState, dict[str, Any]]:
        entry: tuple[TableState, dict[str, Any]] = (state, {})
        self._closed[state.id] = entry
        while len(self._closed) > self.config.finished_cache:
            self._closed.popitem(last=False)
        return entry

    async def follow(self, table_id: str) -> TableState | None:
        """The table as it stands, for a reader that does not run it (a
        tournament's standings on another worker of a cluster): its live
        state here, a closed table as kept, else a copy rebuilt once and then
        brought up to date with only the events since (a whole replay of a
        long list per request cost a worker tens of milliseconds a table)."""
        actor = self.actors.get(table_id)
        if actor is not None:
            return actor.state
        closed = self._closed.get(table_id)
        if closed is not None:
            return closed[0]
        copy = self._followed.get(table_id)
        if copy is not None:
            try:
                for _ in copy.replay(await self.store.events_after(table_id, copy.version)):
                    pass
            except SQLAlchemyError:
                raise  # the store's trouble, not the copy's
            except Exception:  # a copy that cannot follow is rebuilt whole
                copy = None
        if copy is None:
            copy = await self.load(table_id)
            if copy is None:
                return None
        self._followed.pop(table_id, None)
        if copy.closed():
            self._remember(copy)
        else:
            self._followed[table_id] = copy
            while len(self._followed) > max(FOLLOWED_KEPT, self.config.finished_cache):
                self._followed.popitem(last=False)
        return copy

    async def state(self, table_id: str) -> TableState | None:
        """The live state if the table is loaded, else rebuilt from the store."""
        found = await self.view(table_id)
        return None if found is None else found[0]

    async def actor(self, table_id: str) -> TableActor | None:
        """The table's actor, started on demand; raises `TableBroken`."""
        actor = self.actors.get(table_id)
        if actor is not None:
            return actor
        async with self._locked(table_id):
            actor = self.actors.get(table_id)
            if actor is not None:
                return actor
            try:
                t = await self.store.table(table_id)
            except CorruptRow as exc:
                raise await self._broken(table_id, exc) from exc
            if t is None:
                return None
            if t.status == BROKEN:
                raise TableBroken(table_id)
            if not await self.store.claim(table_id):
                # the proxy sent its players here: ask the owner to hand it over
                raise TableElsewhere(table_id, await self.store.want(table_id))
            # recent events, so that clients reconnecting after a restart get
            # what they missed (the moves' texts come from the engine's views)
            recent = []
            try:  # read with the lease held: nobody else appends meanwhile
                events = await self.store.events(table_id)
                # the rules it was made with, whatever the limits are now
                state = TableState.from_stored(t)
                for event in state.replay(events):
                    if state.version > len(events) - HISTORY:
                        recent.append((state.version, event, state.act_ref(event)))
            except (SQLAlchemyError, OSError):  # the store fails: the table is not broken
                with contextlib.suppress(Exception):
                    await self.store.release([table_id])
                raise
            except Exception as exc:
                await self.store.release([table_id])
                raise await self._broken(table_id, exc) from exc
            if t.status != state.status:  # a summary a failed write left stale
                with contextlib.suppress(Exception):
                    await self.store.set_status(table_id, state.status)
            self._closed.pop(table_id, None)
            actor = self._start(state)
            actor.history.extend(recent)
            return actor

    def _start(self, state: TableState) -> TableActor:
        actor = TableActor(state, self.store, self.pool, self.config, self.search, self.metrics)
        actor.on_again = self.again
        actor.on_lost = lambda: self._forget(state.id, actor)
        self.actors[state.id] = actor
        actor.start()
        return actor

    def _stale(self, status: str, version: int, created: float, active: float) -> bool:
        """Whether an unfinished table is past its expiry (ServerConfig)."""
        now, cfg = time.time(), self.config
        if status == "open" and version == 0:
            return now - created > min(cfg.unvisited_timeout, cfg.idle_timeout)
        if status == "open":
            return now - active > min(cfg.unstarted_timeout, cfg.idle_timeout)
        return now - active > cfg.idle_timeout

    async def restore(self) -> int:
        """Start an actor for every live unfinished table (after a restart).
        Tables past their expiry are expired without being loaded; a table
        that cannot be loaded is marked broken, logged and skipped."""
        restored = 0
        live, corrupt = await self.store.activity(LIVE)
        for table_id in corrupt:
            await self._broken(table_id, CorruptRow(table_id, "its row cannot be read"))
        for a in live:
            if self._stale(a.status, a.version, a.created_at, a.active):
                await self._expire_stored(a.id, a.version)
                continue
            try:
                await self.actor(a.id)
            except (TableBroken, TableElsewhere):
                continue
            restored += 1
        return restored

    async def close_resting(self, table_id: str) -> None:
        """Expire a resting table (a tournament draws its next series), served
        here; raises `TableElsewhere` while another worker serves it (it is
        asked to hand it over, so a later try finds it here)."""
        actor = await self.actor(table_id)
        if actor is not None:
            await actor.submit(Expire(only_resting=True))

    async def _expire_stored(self, table_id: str, version: int) -> None:
        """Expire a table that is not loaded: its `Expire` event, no replay
        (only with its lease: no other worker serves it meanwhile)."""
        if not await self.store.claim(table_id):
            return
        kind, payload = ev.to_row(ev.Expire())
        try:
            await self.store.append(table_id, version + 1, kind, payload, status="expired")
        except Exception:  # someone else wrote it first: it is live after all
            log.info("table %s: not expired (it changed meanwhile)", table_id)
        await self.store.release([table_id])

    # ------------------------------------------------------------ ownership
    def _forget(self, table_id: str, actor: TableActor) -> None:
        """An actor whose lease is gone: out of the table, stopped."""
        if self.actors.get(table_id) is actor:
            del self.actors[table_id]
        task = asyncio.get_running_loop().create_task(actor.stop())
        self._stopping.add(task)
        task.add_done_callback(self._stopping.discard)

    async def keep(self) -> None:
        """One round of ownership upkeep (every quarter of the lease time):
        renew this process's leases, drop the tables it lost, hand over the
        ones another worker asks for, and adopt tables whose owner died."""
        # only actors started before the renewal began can be missing from
        # it for a reason (one started meanwhile claimed its lease after)
        before = dict(self.actors)
        owned, wanted = await self.store.renew()
        for table_id, actor in before.items():
            if table_id not in owned and self.actors.get(table_id) is actor:
                log.warning("table %s: lease lost; another worker serves it", table_id)
                actor.lose()
                self._forget(table_id, actor)
        for table_id, to in wanted.items():
            async with self._locked(table_id):
                leaving = self.actors.pop(table_id, None)
                if leaving is not None:  # stopped before its lease goes: stores nothing more
                    leaving.lost = True
                    await leaving.stop()
                    for c in list(leaving.conns):
                        c.moved(f"this table moves to the server process {to}")
                await self.store.hand_over(table_id, to)
                log.info("table %s handed over to %s", table_id, to)
        for table_id in await self.store.orphans(LIVE):
            try:
                await self.actor(table_id)
                log.info("table %s adopted (its owner's lease ran out)", table_id)
            except (TableBroken, TableElsewhere):
                continue

    # ---------------------------------------------------------------- again
    async def again(self, old: TableState) -> ev.Again:
        """A new list with the same people: same options, seats and tokens.
        The new table, its first events and ``old``'s `Again` event are
        stored in one transaction: after a crash there is either all of it
        or none, and a retry after none builds it once."""
        stored, state, _ = self._new(old.options, old.settings)
        rows: list[tuple[str, int, str, dict[str, Any]]] = []
        for event in state.plan_again(old):
            state.check(event)
            rows.append((state.id, state.version + 1, *ev.to_row(event)))
            state.apply(event)
        again = ev.Again(table=state.id)
        rows.append((old.id, old.version + 1, *ev.to_row(again)))
        stored.status = state.status
        await self.store.create_table(stored, rows, own=True, origin_of=old.id)
        try:  # the same people's profiles hold the new list too (issue 48)
            await self.store.carry_links(old.id, state.id)
        except Exception:
            log.exception("table %s: its profiles' links were not carried over", state.id)
        async with self._locked(state.id):
            self._start(state)
        return again

    async def analysis(
        self, state: TableState, number: int, owner: str | None = None
    ) -> dict[str, Any]:
        """The open-card analysis of settled deal ``number`` (cached: a deal
        never changes once settled). Made in the analysis pool (the solver
        releases the GIL, the server keeps serving); raises `work.Busy` when
        that pool has as much waiting as it takes."""
        key = (state.id, number)
        cached = self._analyses.get(key)
        if cached is None:
            assert state.series is not None
            deal = state.series.deals[number - 1]
            result = await self.analyses.run(
                key, analyse_deal, deal, f"{state.id}-{number}", owner=owner
            )
            cached = self._analyses[key] = result.to_dict()
            while len(self._analyses) > ANALYSES_KEPT:
                self._analyses.popitem(last=False)
        return cached

    async def board(
        self, state: TableState, number: int, owner: str | None = None
    ) -> dict[str, Any]:
        """The analysis board of settled deal ``number`` (players/analysis.py
        `deal_board`), made and cached like `analysis`."""
        key = (f"{state.id}/board", number)
        cached = self._analyses.get(key)
        if cached is None:
            assert state.series is not None
            deal = state.series.deals[number - 1]
            cached = await self.analyses.run(
                key, deal_board, deal, f"{state.id}-{number}", owner=owner
            )
            self._analyses[key] = cached
            while len(self._analyses) > ANALYSES_KEPT:
                self._analyses.popitem(last=False)
        return cached

    async def review(
        self, state: TableState, number: int, seat: int, owner: str | None = None
    ) -> dict[str, Any]:
        """The review of ``seat``'s decisions in settled deal ``number``,
        each judged from that seat's view (players/review.py), with the
        deal's luck against play: made in the reviews' pool (``reviewing``,
        an `AnalysisPool`: its bounds, its fairness between addresses) in a
        low-priority process, kept by deal and seat. Raises `work.Busy` as
        `analysis` does."""
        key = (state.id, number, seat)
        cached = self._reviews.get(key)
        if cached is None:
            assert state.series is not None
            deal = state.series.deals[number - 1]
            cached = await self.reviewing.run(
                key, self.offload.call, _review, deal, seat, number, owner=owner
            )
            self._reviews[key] = cached
            while len(self._reviews) > REVIEWS_KEPT:
                self._reviews.popitem(last=False)
        else:
            self._reviews.move_to_end(key)
        return cached

    async def list_review(
        self, state: TableState, seat: int, owner: str | None = None, wait: float = 10.0
    ) -> dict[str, Any]:
        """``seat``'s review over the settled deals of the list so far
        (players/review.py `summary`): each deal's luck against play, the
        totals and the costliest decisions. The deals not yet reviewed are
        reviewed one after another by a task of this table and seat (one
        review in the pool at a time, so one person's list never fills it),
        which goes on after the request: the answer comes after ``wait``
        seconds at most, with ``complete`` false while deals remain (the
        page asks again). Raises `work.Busy` when the pool refused the next
        deal and nothing more is ready."""
        series = state.series
        assert series is not None
        settled = [n for n in range(1, series.number + 1) if series.deals[n - 1].is_terminal()]
        missing = [n for n in settled if (state.id, n, seat) not in self._reviews]
        if missing:
            walker = self._walkers.get((state.id, seat))
            if walker is None:
                walker = asyncio.ensure_future(self._walk(state, seat, missing, owner))
                self._walkers[(state.id, seat)] = walker

                def done(f: asyncio.Future[Any], key: tuple[str, int] = (state.id, seat)) -> None:
                    self._walkers.pop(key, None)
                    if not f.cancelled():
                        f.exception()  # seen: a refusal is answered to whoever asks next

                walker.add_done_callback(done)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(walker), wait)
            if walker.done() and not walker.cancelled() and walker.exception() is not None:
                exc = walker.exception()
                if all((state.id, n, seat) not in self._reviews for n in missing):
                    assert exc is not None
                    raise exc
        got = [self._reviews[k] for n in settled if (k := (state.id, n, seat)) in self._reviews]
        return {
            **summary(seat, got),
            "settled": len(settled),
            "reviewed": len(got),
            "complete": len(got) == len(settled),
        }

    async def _walk(
        self, state: TableState, seat: int, numbers: list[int], owner: str | None
    ) -> None:
        for n in numbers:
            await self.review(state, n, seat, owner)

    async def file_board(self, text: str, number: int, owner: str | None = None) -> dict[str, Any]:
        """The analysis board of game ``number`` of an uploaded file (JSON
        game records, a list record or ISS records: `series.files`), with
        the file's games listed. The file is read and its games replayed in
        the analysis pool (`_read_file`: never on the event loop, within the
        pool's bound and its share per requester); what was learnt of a file
        is kept by its digest (`file_digest`), so that asking again, for a
        game it does not have or one it cannot replay, costs no replay.
        Raises `BadFile` for a file or game that cannot be read or is not
        finished, `work.Busy` as `board` does."""
        raw = hashlib.sha256(text.encode()).digest()  # the same text again: no normalising
        digest = self._digests.pop(raw, None) or file_digest(text)
        self._digests[raw] = digest
        while len(self._digests) > FILES_KEPT:
            self._digests.popitem(last=False)
        known = self._files.get(digest)
        if known is not None:
            self._files.move_to_end(digest)
            known.check(number)
        key = (f"file/{digest}", number)
        cached = self._analyses.get(key)
        if cached is None or known is None or known.games is None:
            # the same upload asked again while it is read waits for that
            # reading, which keeps what it found before it ends: no request
            # finds it neither in flight nor known
            task = self._reading.get(key)
            if task is None:
                task = asyncio.ensure_future(self._read_upload(key, digest, text, number, owner))
                self._reading[key] = task

                def done(_: asyncio.Future[Any], key: tuple[str, int] = key) -> None:
                    self._reading.pop(key, None)

                task.add_done_callback(done)
            known, cached = await asyncio.shield(task)
        assert known.games is not None and known.listed is not None
        # each game with its name and declarer for the page's picker, and
        # the chosen game's names by seat where the file has them (issue
        # 49, finding 10)
        names = known.names[number - 1] if known.names else None
        return {"games": list(known.listed), "number": number, "board": cached, "names": names}

    async def _read_upload(
        self, key: tuple[str, int], digest: str, text: str, number: int, owner: str | None
    ) -> tuple[FileRead, dict[str, Any]]:
        """`file_board`'s reading in the analysis pool, its findings kept."""
        read, board = await self.analyses.run(key, _read_file, text, number, owner=owner)
        self._files[digest] = read
        while len(self._files) > FILES_KEPT:
            self._files.popitem(last=False)
        read.check(number)
        assert board is not None and read.games is not None
        self._analyses[key] = board
        while len(self._analyses) > ANALYSES_KEPT:
            self._analyses.popitem(last=False)
        return read, board

    # ---------------------------------------------------------------- sweep
    async def sweep(self) -> None:
        """Expire idle unfinished tables; drop closed ones from memory."""
        now = time.time()
        cfg = self.config
        for table_id, actor in list(self.actors.items()):
            st = actor.state
            idle = now - actor.last_event
            if st.status == "open" and st.version == 0:  # never sat at: unless watched
                # (a public table's watchers are anyone's from the lobby: one
                # socket would keep it listed for ever, issue 54, finding 6)
                watched = bool(actor.conns) and not st.settings.public
                stale = not watched and idle > min(cfg.unvisited_timeout, cfg.idle_timeout)
            else:
                stale = self._stale(st.status, st.version, actor.last_event, actor.last_event)
            if st.status == "open" and actor.empty_since is not None:
                # seats taken and everyone gone: the table holds its creator's
                # limits (and the site's) only so long
                stale = stale or now - actor.empty_since > cfg.abandoned_timeout
            if st.status in LIVE and stale:
                await actor.submit(Expire())
            if st.closed() and not actor.conns and idle > 60:
                await actor.stop()
                self.actors.pop(table_id, None)
                await self.store.release([table_id])
                self._remember(st)  # downloads without a replay
        await self.store.forget_creations(now - 3600, LIVE)
        for table_id in await self.store.unvisited(
            now - min(cfg.unvisited_timeout, cfg.idle_timeout)
        ):
            async with self._locked(table_id):
                if table_id not in self.actors:
                    await self._expire_stored(table_id, 0)

    async def close(self) -> None:
        for actor in self.actors.values():
            await actor.stop()
        try:  # a planned stop: the other workers may take the tables at once
            await self.store.release(list(self.actors))
        except Exception:
            log.exception("releasing the leases failed (they run out by themselves)")
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.search.close()
        for walker in list(self._walkers.values()):
            walker.cancel()
        self.analyses.close()
        self.reviewing.close()
        self.offload.close()


__all__ = [
    "BROKEN",
    "FILES_KEPT",
    "MAX_FILE_GAMES",
    "BadFile",
    "FileRead",
    "TableBroken",
    "TableElsewhere",
    "Tables",
    "file_digest",
]
