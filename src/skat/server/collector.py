"""Python's cyclic garbage collector on a schedule of the server's own.

A collection stops the event loop while it scans. Python starts a young
collection when the objects made minus the objects freed since the last one
pass a threshold; but every tracked object's death counts, the old ones'
too. At a server's steady state each move makes the objects that its
table then holds for seconds (the new views, the next receive's coroutines
and futures, timers) and frees those of the move before, so the count
hardly moves while the young generation fills: at 3,000 tables it held
150,000-230,000 objects when a collection came, every one or two seconds,
and each took 50-300 ms (docs/lab/benchmarks-history.md, tables in one
process). The people's p99 was near a second; without any collection it
was under 50 ms.

So `skat serve` turns Python's schedule off and runs its own from the
event loop, by the clock:

- the young generation every `YOUNG_EVERY` seconds: its objects are what
  the last moment made, a few thousand, a few milliseconds;
- what survives that is frozen (`gc.freeze`): no later young collection
  scans it again, and most of it is freed within seconds anyway, by its
  reference count (a middle generation of what survived, collected every
  30 s, held 200,000 objects of the last seconds and took 0.3-0.5 s);
- everything is scanned (the connections' and tables' long-lived objects,
  over a million at 3,000 tables: about 1.5 s) only when Python's memory
  grew by `GROWTH` since the last full collection (its allocated blocks,
  looked at every `CHECK_EVERY` seconds, no sooner than `FULL_MIN` after
  it), or `FULL_MAX` after it. Cycles among objects that outlived a young
  collection (a closed connection's, a closed table's) wait until then:
  memory stays within about a quarter above what is live. (The count of
  frozen objects is no measure to look at: `gc.get_freeze_count` walks
  every one, and at 3,000 tables each look stopped the loop for 0.3 s.)

Each collection's pause is observed in ``skat_collector_seconds``.
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time
from collections.abc import Callable

#: Seconds between young collections.
YOUNG_EVERY = 0.05
#: Seconds between two looks at how much Python's memory grew.
CHECK_EVERY = 30.0
#: A full collection is due when Python's allocated blocks grew by this share ...
GROWTH = 0.25
#: ... but no sooner than this many seconds after the last one, and at the latest this many.
FULL_MIN = 300.0
FULL_MAX = 6 * 3600.0

Observe = Callable[[int, float], None]  # generation, seconds


class Collector:
    """The server process's collection schedule (`start` once its loop runs,
    `stop` when it ends). ``observe`` hears each collection's generation and
    pause."""

    def __init__(
        self,
        observe: Observe | None = None,
        *,
        young_every: float = YOUNG_EVERY,
        check_every: float = CHECK_EVERY,
        growth: float = GROWTH,
        full_min: float = FULL_MIN,
        full_max: float = FULL_MAX,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._observe = observe
        self.young_every = young_every
        self.check_every = check_every
        self.growth = growth
        self.full_min = full_min
        self.full_max = full_max
        self._clock = clock
        self._handle: asyncio.TimerHandle | None = None
        self._was_enabled = True
        self._next_check = 0.0
        self._last_full = 0.0
        self.blocks_after_full = 0  # Python's allocated blocks right after the last full one
        self.collections = [0, 0, 0]

    def start(self) -> None:
        """Python's own schedule off, this one on (in the running loop)."""
        if self._handle is not None:
            return
        self._was_enabled = gc.isenabled()
        gc.disable()
        gc.freeze()
        now = self._clock()
        self._next_check = now + self.check_every
        self._last_full = now
        self.blocks_after_full = sys.getallocatedblocks()
        self._handle = asyncio.get_running_loop().call_later(self.young_every, self._tick)

    def stop(self) -> None:
        """Back to Python's schedule (the frozen objects stay frozen)."""
        if self._handle is None:
            return
        self._handle.cancel()
        self._handle = None
        if self._was_enabled:
            gc.enable()

    def _collect(self, generation: int) -> None:
        started = time.perf_counter()
        if generation == 2:
            gc.unfreeze()  # into the oldest generation: scanned with it
        gc.collect(generation)
        gc.freeze()  # what survived is not scanned again until the next full collection
        self.collections[generation] += 1
        if self._observe is not None:
            self._observe(generation, time.perf_counter() - started)

    def _tick(self) -> None:
        self._handle = None
        try:
            self.step(self._clock())
        finally:
            self._handle = asyncio.get_running_loop().call_later(self.young_every, self._tick)

    def step(self, now: float) -> None:
        """One tick: the young generation, or everything when due."""
        if now >= self._next_check:
            self._next_check = now + self.check_every
            since = now - self._last_full
            # a walk over the allocator's pools, not over every object
            grown = sys.getallocatedblocks() > self.blocks_after_full * (1 + self.growth)
            if since >= self.full_max or (grown and since >= self.full_min):
                self._collect(2)
                self._last_full = now
                self.blocks_after_full = sys.getallocatedblocks()
                return
        self._collect(0)


__all__ = ["CHECK_EVERY", "FULL_MAX", "FULL_MIN", "GROWTH", "YOUNG_EVERY", "Collector"]
