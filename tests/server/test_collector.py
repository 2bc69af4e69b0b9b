"""`skat serve`'s own schedule for Python's cyclic garbage collector
(server/collector.py): young collections by the clock, survivors frozen,
everything scanned only when Python's memory grew or after the longest
wait. What a person notices is the event loop's pauses; what an operator
notices is memory, so the tests follow cycles until they are freed."""

from __future__ import annotations

import asyncio
import gc
import sys
import time
import urllib.request
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from skat.server.collector import Collector
from tests.helpers.processes import Server, free_port
from tests.helpers.stores import db_for


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def _cycle() -> tuple[_Node, weakref.ref[_Node]]:
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return a, weakref.ref(a)


@pytest.fixture(autouse=True)
def _python_schedule_after() -> Iterator[None]:
    yield
    gc.unfreeze()
    gc.enable()
    gc.collect()


def test_young_collections_run_by_the_clock_and_free_new_cycles() -> None:
    heard: list[tuple[int, float]] = []

    async def main() -> tuple[bool, bool, bool]:
        c = Collector(lambda g, s: heard.append((g, s)), young_every=0.01)
        c.start()
        off = not gc.isenabled()  # Python's own schedule is off while it runs
        a, ref = _cycle()
        del a  # a cycle of new objects: the next young collection frees it
        for _ in range(100):
            await asyncio.sleep(0.01)
            if ref() is None and c.collections[0] >= 3:
                break
        c.stop()
        return off, ref() is None, gc.isenabled()

    off, freed, back_on = asyncio.run(main())
    assert off and freed and back_on
    assert heard and {g for g, _ in heard} == {0}
    assert all(s >= 0 for _, s in heard)


def test_a_cycle_that_outlived_a_young_collection_waits_for_the_full_one() -> None:
    c = Collector(
        young_every=3600,
        check_every=10,
        growth=0.25,
        full_min=100,
        full_max=1000,
        clock=lambda: 0.0,
    )

    async def main() -> None:
        c.start()
        a, ref = _cycle()
        c.step(0.0)  # young: `a` is referenced, survives, and is frozen
        assert gc.get_freeze_count() > 0
        del a  # now garbage, but frozen: young collections do not see it
        now = 0.0
        for _ in range(5):
            now += 1
            c.step(now)
        assert ref() is not None and c.collections[2] == 0
        c.step(2000.0)  # past full_max: everything is scanned
        assert ref() is None and c.collections[2] == 1
        c.stop()

    # step() is told the time; start() needs a running loop
    asyncio.run(main())


def test_a_full_collection_comes_with_growth_but_not_before_the_least_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The looks at growth never use `gc.get_freeze_count`: it walks every
    frozen object, and at 3,000 tables each look stopped the event loop for
    0.3 s every 30 s and made the people's p99 (docs/lab/benchmarks-history.md,
    round seven)."""

    def walks(*_: object) -> int:
        raise AssertionError("gc.get_freeze_count walks every frozen object")

    monkeypatch.setattr(gc, "get_freeze_count", walks)

    async def main() -> None:
        c = Collector(
            young_every=3600,
            check_every=10,
            growth=0.25,
            full_min=100,
            full_max=10**6,
            clock=lambda: 0.0,
        )
        c.start()
        base = c.blocks_after_full
        kept = [[i] for i in range(max(1000, base))]  # survivors: memory grows
        c.step(0.0)
        assert sys.getallocatedblocks() > base * 1.25
        c.step(50.0)  # grown, but the last full collection was 50 s ago
        assert c.collections[2] == 0
        c.step(150.0)
        assert c.collections[2] == 1
        assert c.blocks_after_full >= len(kept)  # the new base: what is live now
        c.step(300.0)  # no growth since: young collections only
        assert c.collections[2] == 1 and c.collections[0] >= 3
        c.stop()

    asyncio.run(main())


def _young_collections(port: int) -> float:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        text = r.read().decode()
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == "skat_collector_seconds_count" and s.labels.get("generation") == "0":
                return float(s.value)
    raise AssertionError("no skat_collector_seconds_count{generation=0}")


def test_skat_serve_runs_the_schedule_and_shows_its_pauses(tmp_path: Path) -> None:
    mport = free_port()
    srv = Server(
        free_port(),
        db_for(tmp_path),
        tmp_path / "server.log",
        extra=["--metrics", f"127.0.0.1:{mport}"],
    )
    srv.start()
    try:
        first = _young_collections(mport)
        deadline = time.monotonic() + 20
        while _young_collections(mport) < first + 5:  # 20 a second when idle
            assert time.monotonic() < deadline, "no young collections by the server's clock"
            time.sleep(0.1)
    finally:
        srv.kill()
