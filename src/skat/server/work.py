"""Expensive work, bounded and fair (issue 28, findings 2, 5 and 6).

Two kinds of work cost the server whole CPU seconds: the open-card analysis
of a settled deal (asked for over HTTP by anyone who may see the finished
deal) and the decisions of searching computer players and hints (in worker
processes). Neither may reach another table's moves:

- `AnalysisPool`: analyses in one thread of their own at a lower priority;
  identical requests in flight are merged; past a bound of distinct requests
  waiting, `Busy` (HTTP 503 with ``Retry-After``).
- `Offload`: a process of its own for an analysis in pure Python, called
  from a pool's thread (the review of a person's decisions: the server has
  a second `AnalysisPool` for them, so that a review never waits in front
  of an open-card analysis, with the same bounds and fairness).
- `SearchPool`: at most ``workers`` searches at once. Waiting decisions are
  taken table by table in turn, so that one table's many requests wait
  behind each other and not in front of everyone's; each search is given
  what is left of its own budget, shared out when more decisions wait than
  there are processes (a shallower search, never a silent fallback); quick
  decisions (a bid, Hand or pickup, the announcement: a millisecond) go
  ahead of the searches, so that none waits behind a burst of discards; a pool
  whose process died (the OOM killer) is replaced, logged once, and the
  decision is tried again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import multiprocessing
import os
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Hashable
from concurrent.futures import BrokenExecutor, Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("skat.server")

#: Niceness of analysis threads and search processes: the event loop (the
#: tables' moves) gets the CPU whenever it needs it.
NICENESS = 10


def lower_priority() -> None:
    """A pool thread's or process's start: below the server's priority. On
    Linux a thread has a priority of its own (its native id is a task id)."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICENESS)


def search_worker_start() -> None:
    """A search process's start: below the server's priority, and gone soon
    after the server is (a server killed by SIGKILL or the OOM killer cannot
    stop its workers, which would otherwise sit idle for ever)."""
    lower_priority()
    # the server that started this process, whose id the process was given:
    # getppid() here would be the init process's already when the server
    # was killed while this process was still starting (importing)
    spawner = multiprocessing.parent_process()
    parent = spawner.pid if spawner is not None and spawner.pid is not None else os.getppid()

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:  # re-parented: the server is gone
                os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class Busy(Exception):
    """The work cannot be taken now; ``retry_after`` seconds is a fair wait."""

    def __init__(self, retry_after: float, message: str) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Late(Exception):
    """A decision did not get a search process before its time ran out."""


# ----------------------------------------------------------------- analyses
@dataclass(eq=False)
class _Analysis:
    key: Hashable
    owner: Hashable
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any] = field(repr=False)


class AnalysisPool:
    """Analyses in ``threads`` low-priority threads; at most ``waiting``
    distinct ones queued behind them, identical ones merged, shared fairly
    between requesters (issue 54, finding 13): the queued ones run by
    requester in turn (one requester's many wait behind each other, not in
    front of everyone's), and when the bound is reached, a requester with
    fewer in flight than another takes the place of that one's newest
    queued analysis (which is answered `Busy`): ten addresses that keep
    the pool full cannot keep a bystander out."""

    def __init__(self, threads: int = 1, waiting: int = 8, per_owner: int = 2) -> None:
        self.threads = threads
        self.limit = threads + waiting
        self.per_owner = per_owner  # distinct analyses one requester may have started
        self._owners: dict[Hashable, Hashable] = {}  # key in flight -> who started it
        self._pool = ThreadPoolExecutor(
            max_workers=threads, thread_name_prefix="analysis", initializer=lower_priority
        )
        self._inflight: dict[Hashable, asyncio.Future[Any]] = {}
        self._queues: OrderedDict[Hashable, deque[_Analysis]] = OrderedDict()  # by requester
        self._running = 0
        self._served: dict[Hashable, int] = {}  # requester -> when it was last served
        self._asked: dict[Hashable, int] = {}  # requester -> distinct analyses asked
        self._turn = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self._seconds = 1.0  # a running mean of one analysis's time, for Retry-After
        self.merged = 0
        self.refused = 0
        self.made = 0  # calls run in the pool

    def retry_after(self) -> int:
        queued = len(self._inflight) / self.threads
        return max(1, min(60, math.ceil(queued * self._seconds)))

    def _busy(self) -> Busy:
        self.refused += 1
        return Busy(self.retry_after(), "many analyses are being made; try again shortly")

    def _in_flight_of(self, owner: Hashable) -> int:
        return sum(1 for o in self._owners.values() if o == owner)

    def _make_room(self, owner: Hashable) -> bool:
        """The bound is reached: the newest queued analysis of the requester
        with the most in flight gives way to ``owner``'s, if that one has
        more in flight than ``owner`` (its waiters hear `Busy`)."""
        mine = self._in_flight_of(owner)
        queued = [o for o, q in self._queues.items() if q]
        if not queued:
            return False
        # of those with the most in flight, the one served most recently,
        # then the one that asked most: a bystander is not the one that gives
        # way to a flood's next request (the queues of requesters that keep
        # the pool full come and go, so the queues' order picked the
        # bystander's, which stays: refused nearly every time)
        most = max(
            queued,
            key=lambda o: (self._in_flight_of(o), self._served.get(o, -1), self._asked.get(o, 0)),
        )
        if self._in_flight_of(most) <= mine:
            return False
        job = self._queues[most].pop()
        if not self._queues[most]:
            del self._queues[most]
        self._inflight.pop(job.key, None)
        self._owners.pop(job.key, None)
        if not job.future.done():
            job.future.set_exception(self._busy())
        return True

    async def run(
        self, key: Hashable, fn: Callable[..., Any], *args: Any, owner: Hashable | None = None
    ) -> Any:
        """``fn(*args)`` in the pool, or the same call's answer in flight.
        ``owner`` (a client address): who asks; one owner may have started
        at most ``per_owner`` of those in flight, so that a stranger cannot
        hold the whole bound."""
        future = self._inflight.get(key)
        if future is not None:
            self.merged += 1
        else:
            who: Hashable = ("anyone", key) if owner is None else owner
            self._asked[who] = self._asked.get(who, 0) + 1
            while len(self._asked) > 4096:  # the fewest are forgotten
                del self._asked[min(self._asked, key=self._asked.__getitem__)]
            if owner is not None and self._in_flight_of(who) >= self.per_owner:
                raise self._busy()
            if len(self._inflight) >= self.limit and (owner is None or not self._make_room(who)):
                raise self._busy()
            future = asyncio.get_running_loop().create_future()
            self._inflight[key] = future
            self._owners[key] = who
            self._queues.setdefault(who, deque()).append(_Analysis(key, who, fn, args, future))
            self.made += 1
            self._dispatch()
        # a caller that goes away does not cancel what others wait for
        return await asyncio.shield(future)

    def _dispatch(self) -> None:
        """Start queued analyses while a thread is free: requesters in turn."""
        while self._running < self.threads and self._queues:
            # the requester served longest ago goes first (one never served
            # first of all): round robin by requester
            owner = min(self._queues, key=lambda o: self._served.get(o, -1))
            queue = self._queues[owner]
            job = queue.popleft()
            if not queue:
                del self._queues[owner]
            self._turn += 1
            self._served[owner] = self._turn
            while len(self._served) > 4096:  # the longest ago are forgotten
                del self._served[min(self._served, key=self._served.__getitem__)]
            self._running += 1
            task = asyncio.ensure_future(self._timed(job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _timed(self, job: _Analysis) -> None:
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        try:
            result = await loop.run_in_executor(self._pool, job.fn, *job.args)
        except Exception as exc:
            if not job.future.done():
                job.future.set_exception(exc)
        else:
            if not job.future.done():
                job.future.set_result(result)
        finally:
            self._seconds = 0.8 * self._seconds + 0.2 * (time.monotonic() - started)
            if self._inflight.get(job.key) is job.future:
                del self._inflight[job.key]
                self._owners.pop(job.key, None)
            self._running -= 1
            if not job.future.done():  # cancelled: the pool is closing
                job.future.set_exception(Busy(1, "the server is stopping"))
            self._dispatch()

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for queue in self._queues.values():
            for job in queue:
                if not job.future.done():
                    job.future.set_exception(Busy(1, "the server is stopping"))
        self._queues.clear()
        self._pool.shutdown(wait=False, cancel_futures=True)


class Offload:
    """One process of its own for an analysis in pure Python (issue 48: the
    review), called from an `AnalysisPool` thread: that thread hands the
    call over and waits without holding the GIL, so the event loop never
    waits behind the work (a low-priority thread that holds the GIL while
    the machine is busy would stall it). The pool's queue, bounds and
    fairness still decide what runs; the process is made on first use by
    ``make`` (at low priority) and replaced, logged, when it died."""

    def __init__(self, make: Callable[[], Executor]) -> None:
        self._make = make
        self._executor: Executor | None = None
        self._lock = threading.Lock()
        self._closed = False
        self.restarts = 0

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        for attempt in range(2):
            with self._lock:
                if self._closed:
                    raise Busy(1, "the server is stopping")
                if self._executor is None:
                    self._executor = self._make()
                executor = self._executor
            try:
                return executor.submit(fn, *args).result()
            except BrokenExecutor:
                with self._lock:
                    if self._executor is executor:
                        self._executor = None
                        self.restarts += 1
                        log.error("an analysis process died; it is replaced")
                with contextlib.suppress(Exception):
                    stop_processes(executor, wait=0.0)
                if attempt:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def close(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
            self._closed = True
        if executor is not None:
            stop_processes(executor)


# ------------------------------------------------------------------ searches
@dataclass(eq=False)
class _Job:
    key: Hashable  # whose turn in the round: a table
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    deadline: float  # loop time by which the answer is due
    future: asyncio.Future[Any] = field(repr=False)
    quick: bool = False  # a decision of a millisecond: ahead of the searches
    limit: bool = False  # fn takes the time left to the deadline after its share
    floor: float | None = None  # the least share worth running (None: the pool's)


class SearchPool:
    """Searches in ``workers`` processes made by ``make``, shared fairly.

    ``run(key, fn, budget, *args)`` calls ``fn(*args, inner)`` in a worker
    process, ``inner`` being the seconds the search may think: what is left
    of ``budget`` when a process is free (a margin for the trip kept), cut to
    a fair share when more decisions wait than there are processes, never
    below ``floor``. A decision whose time runs out before it gets a process
    raises `Late`. ``quick=True`` marks a decision that costs a millisecond
    (a bid): those go first, table by table, and do not count in the
    others' shares. With ``limit=True`` ``fn`` is given too, after
    ``inner``, the seconds it may not pass (what is left of ``budget``, the
    trip kept): a search cut to a short share may finish its first world.
    ``floor`` sets the least share for one job (a proof that is worth
    nothing unfinished: a claim's answer)."""

    MARGIN = 0.75  # of what is left: the rest is the trip there and back
    QUICK = 0.25  # seconds at most for a quick decision (a bid takes a millisecond)

    def __init__(self, workers: int, make: Callable[[], Executor], floor: float = 0.03) -> None:
        self.workers = max(1, workers)
        self.floor = floor
        self._make = make
        self._executor: Executor | None = None
        self._running = 0
        self._queues: OrderedDict[Hashable, deque[_Job]] = OrderedDict()
        self._quick: OrderedDict[Hashable, deque[_Job]] = OrderedDict()  # quick=True
        self._served: dict[Hashable, int] = {}  # key -> when it was last given a process
        self._busy: Counter[Hashable] = Counter()  # key -> its searches running
        self._turn = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self.restarts = 0
        self.late = 0
        self.done = 0

    def waiting(self) -> int:
        return sum(len(q) for q in self._queues.values()) + self._waiting_quick()

    def _waiting_quick(self) -> int:
        return sum(len(q) for q in self._quick.values())

    async def run(
        self,
        key: Hashable,
        fn: Callable[..., Any],
        budget: float,
        *args: Any,
        quick: bool = False,
        limit: bool = False,
        floor: float | None = None,
    ) -> Any:
        loop = asyncio.get_running_loop()
        job = _Job(key, fn, args, loop.time() + budget, loop.create_future(), quick, limit, floor)
        (self._quick if quick else self._queues).setdefault(key, deque()).append(job)
        self._dispatch()
        return await job.future

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self._running < self.workers and (self._quick or self._queues):
            # the quick ones first; among them, and among the searches, the
            # table served longest ago goes first (one never served, or with
            # nothing running, first of all): round robin by table
            queues = self._quick or self._queues
            key = min(queues, key=lambda k: self._served.get(k, -1))
            queue = queues[key]
            job = queue.popleft()
            if not queue:
                del queues[key]
                if not self._busy.get(key) and key not in self._queues and key not in self._quick:
                    self._served.pop(key, None)  # set again below if it runs
            if job.future.done():  # its caller gave up meanwhile
                continue
            left = (job.deadline - loop.time()) * self.MARGIN
            floor = self._floor(job)
            if left < floor:
                self.late += 1
                job.future.set_exception(Late("no search process was free in time"))
                continue
            # the searches share the processes; a quick decision hardly takes
            # any (and is held to that, should it search after all)
            if job.quick:
                inner = max(floor, min(left, self.QUICK))
            else:
                demand = self._running + 1 + self.waiting() - self._waiting_quick()
                inner = max(floor, left * min(1.0, self.workers / demand))
            self._running += 1
            self._turn += 1
            self._served[key] = self._turn
            self._busy[key] += 1
            task = asyncio.create_task(self._run(job, inner))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _floor(self, job: _Job) -> float:
        return self.floor if job.floor is None else job.floor

    def _current(self) -> Executor:
        if self._executor is None:
            self._executor = self._make()
        return self._executor

    def _replace(self, broken: Executor) -> None:
        """A worker process died: every call in it fails at once; the first
        to see it makes a new pool, the others use that one."""
        if self._executor is not broken:
            return
        self._executor = None
        self.restarts += 1
        log.error("a search process died; its pool is replaced (%d since start)", self.restarts)
        with contextlib.suppress(Exception):
            stop_processes(broken, wait=0.0)

    async def _run(self, job: _Job, inner: float) -> None:
        loop = asyncio.get_running_loop()
        try:
            for attempt in range(2):
                executor = self._current()
                hard = max(inner, (job.deadline - loop.time()) * self.MARGIN)
                args = (*job.args, inner, hard) if job.limit else (*job.args, inner)
                try:  # a broken pool refuses at once
                    result = await asyncio.wrap_future(executor.submit(job.fn, *args))
                except BrokenExecutor:
                    self._replace(executor)
                    left = (job.deadline - loop.time()) * self.MARGIN
                    if attempt or left < self._floor(job):
                        raise
                    inner = min(inner, left)
                    continue
                self.done += 1
                if not job.future.done():
                    job.future.set_result(result)
                return
        except Exception as exc:
            if not job.future.done():
                job.future.set_exception(exc)
        finally:
            if not job.future.done():  # cancelled: the pool is closing
                job.future.set_exception(Late("the search pool is closed"))
            self._running -= 1
            self._busy[job.key] -= 1
            if not self._busy[job.key]:
                del self._busy[job.key]
                if job.key not in self._queues and job.key not in self._quick:  # forgotten
                    self._served.pop(job.key, None)
            self._dispatch()

    def close(self) -> None:
        """Stop: the search in progress is abandoned and the processes end
        with the server (an idle worker left to itself can outlive it)."""
        for task in self._tasks:
            task.cancel()
        for queue in (*self._queues.values(), *self._quick.values()):
            for job in queue:  # nobody will run these: their callers hear so
                if not job.future.done():
                    job.future.set_exception(Late("the search pool is closed"))
        self._queues.clear()
        self._quick.clear()
        if self._executor is not None:
            stop_processes(self._executor)
            self._executor = None


def stop_processes(executor: Executor, wait: float = 2.0) -> None:
    """Shut an executor down without waiting for its work; for a process
    pool, each worker still alive after ``wait`` seconds is terminated."""
    processes = list(getattr(executor, "_processes", None) or {})
    procs = [executor._processes[k] for k in processes]  # type: ignore[attr-defined]
    executor.shutdown(wait=False, cancel_futures=True)
    end = time.monotonic() + wait
    for proc in procs:
        if wait > 0:
            proc.join(max(0.0, end - time.monotonic()))
        if proc.is_alive():
            proc.terminate()  # reaped by multiprocessing later; nothing blocks here
            if wait > 0:
                proc.join(1.0)


__all__ = [
    "AnalysisPool",
    "Busy",
    "Late",
    "Offload",
    "SearchPool",
    "lower_priority",
    "search_worker_start",
    "stop_processes",
]
