"""Expensive work that no stranger can pile up (issue 28, findings 2, 5, 6).

Analyses of settled deals run in a bounded pool of their own: identical
requests merge, past the bound the answer is 503 BUSY with Retry-After, and
the tables' own computer players keep moving meanwhile. Searches (strong
computer players, hints) share their processes table by table; a hint is
thought out once per seat and decision however many devices ask; a search
process that dies is replaced and the next strong decision is searched again,
not quietly `heuristic`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from skat.server.work import AnalysisPool, Busy, Late, SearchPool
from tests.helpers.server import Peer, join, new_table, pump, serve


# --------------------------------------------------------------- the pools
def _record(log: list[tuple[str, float]], name: str, inner: float) -> str:
    log.append((name, inner))
    time.sleep(0.05)
    return name


def test_searches_are_shared_table_by_table_with_a_fair_share_of_time() -> None:
    started: list[tuple[str, float]] = []

    async def main() -> list[str]:
        pool = SearchPool(1, lambda: ThreadPoolExecutor(1))
        # one table asks for ten decisions at once (thirty hint tabs, a flood
        # of strong tables), then another table asks for one
        greedy = [pool.run("A", _record, 5.0, started, f"A{i}") for i in range(10)]
        tasks = [asyncio.ensure_future(g) for g in greedy]
        await asyncio.sleep(0)
        other = asyncio.ensure_future(pool.run("B", _record, 5.0, started, "B0"))
        done = await asyncio.gather(*tasks, other)
        pool.close()
        return [str(d) for d in done]

    asyncio.run(main())
    order = [name for name, _ in started]
    assert order.index("B0") <= 1, f"the other table waits behind one decision only: {order}"
    shares = dict(started)
    # with eleven waiting for one process, each gets a share, not the whole budget
    assert shares["A1"] < 5.0 * SearchPool.MARGIN / 5
    assert all(inner >= SearchPool(1, ThreadPoolExecutor).floor for inner in shares.values())


def test_quick_decisions_go_ahead_of_a_burst_of_searches() -> None:
    """Tables that start together ask for their discards together; a bid or
    the choice of Hand (a millisecond) at another table does not wait
    behind them (it would run out of time there and fall back), and is held
    to the short time it needs."""
    started: list[tuple[str, float]] = []

    async def main() -> None:
        pool = SearchPool(1, lambda: ThreadPoolExecutor(1))
        burst = [
            asyncio.ensure_future(pool.run(f"T{i}", _record, 5.0, started, f"S{i}"))
            for i in range(8)
        ]
        await asyncio.sleep(0)
        bid = asyncio.ensure_future(pool.run("Q", _record, 5.0, started, "bid", quick=True))
        await asyncio.gather(*burst, bid)
        pool.close()

    asyncio.run(main())
    order = [name for name, _ in started]
    assert order.index("bid") == 1, f"the bid waits behind the running search only: {order}"
    shares = dict(started)
    # the searches share their time; the bid needs little, and gets little
    assert shares["bid"] == SearchPool.QUICK
    assert shares["S1"] < 5.0 * SearchPool.MARGIN / 7


def _limits(log: list[tuple[float, float]], inner: float, hard: float) -> None:
    log.append((inner, hard))
    time.sleep(0.02)


def test_a_search_cut_to_a_share_may_run_on_to_its_own_deadline() -> None:
    """Searches share the processes when many wait; each is told, besides its
    share, the time left of its own budget, where the solver stops it."""
    seen: list[tuple[float, float]] = []

    async def main() -> None:
        pool = SearchPool(1, lambda: ThreadPoolExecutor(1))
        jobs = [pool.run(f"T{i}", _limits, 4.0, seen, limit=True) for i in range(8)]
        await asyncio.gather(*jobs)
        pool.close()

    asyncio.run(main())
    assert len(seen) == 8
    for inner, hard in seen[1:5]:  # with four or more others waiting
        assert inner < 4.0 * SearchPool.MARGIN / 4 < hard <= 4.0 * SearchPool.MARGIN


def test_a_job_may_ask_for_a_larger_least_share() -> None:
    """A claim's answer is a proof, worth nothing cut short: in a crowd of
    searches it still gets its own least share, where a search gets less."""
    started: list[tuple[str, float]] = []

    async def main() -> None:
        pool = SearchPool(1, lambda: ThreadPoolExecutor(1))
        crowd = [pool.run(f"T{i}", _record, 0.5, started, f"S{i}") for i in range(40)]
        claim = pool.run("C", _record, 0.5, started, "claim", floor=0.2)
        await asyncio.gather(*crowd[:2], claim, *crowd[2:], return_exceptions=True)
        pool.close()

    asyncio.run(main())
    shares = dict(started)
    assert shares["claim"] >= 0.2
    assert shares["S2"] < 0.2


def test_a_decision_that_gets_no_process_in_time_is_late_not_stuck() -> None:
    async def main() -> None:
        pool = SearchPool(1, lambda: ThreadPoolExecutor(1))
        slow = asyncio.ensure_future(pool.run("A", time.sleep, 1.0))
        await asyncio.sleep(0)  # A has the only process
        with pytest.raises(Late):
            await pool.run("B", time.sleep, 0.2)
        await slow
        assert pool.late == 1
        pool.close()

    asyncio.run(main())


def _spawn_pool() -> Executor:
    return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))


@pytest.mark.slow
def test_a_killed_search_process_is_replaced_and_the_decision_tried_again() -> None:
    async def main() -> None:
        pool = SearchPool(1, _spawn_pool)
        assert await pool.run("A", min, 30.0, 7) == 7  # the process is up
        # killed while it thinks (the OOM killer): that decision is tried again
        thinking = asyncio.ensure_future(pool.run("A", time.sleep, 3.0))
        await asyncio.sleep(0.5)
        for child in multiprocessing.active_children():
            if child.pid is not None:
                os.kill(child.pid, signal.SIGKILL)
        await asyncio.wait_for(thinking, 60)
        assert pool.restarts == 1
        assert await pool.run("B", min, 30.0, 9) == 9  # and the next is searched as ever
        assert pool.restarts == 1
        pool.close()

    asyncio.run(main())


def test_identical_analyses_merge_and_too_many_distinct_ones_are_busy() -> None:
    gate = threading.Event()
    calls: list[int] = []

    def analyse(n: int) -> int:
        calls.append(n)
        gate.wait(10)
        return n * n

    async def main() -> None:
        pool = AnalysisPool(threads=1, waiting=2)
        same = [asyncio.ensure_future(pool.run(("t", 1), analyse, 1)) for _ in range(20)]
        others = [asyncio.ensure_future(pool.run(("t", n), analyse, n)) for n in (2, 3)]
        await asyncio.sleep(0.05)
        with pytest.raises(Busy) as busy:
            await pool.run(("t", 4), analyse, 4)
        assert busy.value.retry_after >= 1
        gate.set()
        assert await asyncio.gather(*same) == [1] * 20
        assert await asyncio.gather(*others) == [4, 9]
        assert sorted(calls) == [1, 2, 3] and pool.merged == 19 and pool.refused == 1
        assert await pool.run(("t", 4), analyse, 4) == 16  # free again
        pool.close()

    asyncio.run(main())


# ------------------------------------------------------------ at a table
def _settled_deals(client: Any) -> list[tuple[str, int]]:
    """A list of one round (three deals) played to its end by a person and
    two computer players: its deals, settled."""
    t = new_table(client, players=3)
    anna = join(client, t["id"], "Anna")
    anna.send(type="fill", creator=t["creator"])
    pump([anna], lambda: anna.list_over, timeout=60)
    return [(t["id"], n) for n in (1, 2, 3)]


@pytest.mark.slow
def test_an_analysis_flood_is_answered_busy_and_the_tables_play_on(tmp_path: Path) -> None:
    with serve(tmp_path, analysis_queue=1) as (app, client, _db):
        deals = [d for _ in range(3) for d in _settled_deals(client)]
        # a table where a person plays against casual computer players
        t = new_table(client, players=3)
        bert = join(client, t["id"], "Bert")
        bert.send(type="fill", creator=t["creator"])
        answers: list[tuple[int, str | None, str]] = []

        def ask(tid: str, n: int) -> None:
            r = client.get(f"/api/tables/{tid}/deals/{n}/analysis")
            code = r.json().get("error", {}).get("code", "") if r.status_code != 200 else ""
            answers.append((r.status_code, r.headers.get("retry-after"), code))

        threads = [threading.Thread(target=ask, args=deals[i % len(deals)]) for i in range(36)]
        for th in threads:
            th.start()
        # meanwhile Bert's table goes on: his turns come and the computers move
        before = bert.version
        pump([bert], lambda: bert.version >= before + 12, timeout=60)
        for th in threads:
            th.join(60)
        codes = sorted({a[0] for a in answers})
        assert len(answers) == 36 and codes == [200, 503], codes
        for status, retry, code in answers:
            if status == 503:
                assert code == "BUSY" and retry is not None and int(retry) >= 1
        pool = app.state.tables.analyses
        assert pool.merged > 0, "identical requests in flight are made once"
        # once the flood is over, every deal's analysis is there
        for tid, n in deals:
            assert client.get(f"/api/tables/{tid}/deals/{n}/analysis").status_code == 200


def _strong_hint_table(client: Any) -> tuple[dict[str, Any], Peer]:
    t = new_table(client, players=3, hint=True)
    anna = join(client, t["id"], "Anna")
    anna.send(type="fill", creator=t["creator"])
    pump([anna], anna.my_turn)
    return t, anna


@pytest.mark.slow
def test_thirty_devices_asking_for_one_hint_get_one_search(tmp_path: Path) -> None:
    with serve(tmp_path, hint_budget=20.0) as (app, client, _db):
        t, anna = _strong_hint_table(client)
        pool = app.state.tables.search
        devices = [Peer(client, t["id"], f"tab {i}").connect(token=anna.token) for i in range(30)]
        for d in devices:
            d.wait_for(lambda m: m["type"] == "state")
        done = pool.done
        for d in devices:
            d.send(type="hint")
        answers = [d.wait_for(lambda m: m["type"] == "hint", timeout=60) for d in devices]
        assert {a["action"] for a in answers} == {answers[0]["action"]}
        assert all(a["fallback"] is False for a in answers), "searched, not heuristic's"
        assert pool.done == done + 1, "one search for the seat's decision"
        # asked again for the same decision: the same answer, no new search
        anna.send(type="hint")
        again = anna.wait_for(lambda m: m["type"] == "hint", timeout=10)
        assert again["action"] == answers[0]["action"] and pool.done == done + 1


@pytest.mark.slow
def test_after_the_search_process_is_killed_hints_are_searched_again(tmp_path: Path) -> None:
    with serve(tmp_path, hint_budget=20.0) as (_, client, _db):
        _, anna = _strong_hint_table(client)
        anna.send(type="hint")
        first = anna.wait_for(lambda m: m["type"] == "hint", timeout=60)
        assert first["fallback"] is False
        for child in multiprocessing.active_children():
            if child.pid is not None:
                os.kill(child.pid, signal.SIGKILL)
        time.sleep(0.5)
        asked = anna.view_version
        anna.send(type="act", action=first["action"], version=asked)
        pump([anna], lambda: anna.view_version > asked and anna.my_turn())
        anna.send(type="hint")
        second = anna.wait_for(lambda m: m["type"] == "hint", timeout=60)
        assert second["fallback"] is False, "the strong player searched, it did not fall back"
        health = client.get("/healthz").json()
        assert health["ok"] is True and health["search"]["restarts"] == 1


def test_one_requester_cannot_hold_the_whole_analysis_bound() -> None:
    gate = threading.Event()

    def analyse(n: int) -> int:
        gate.wait(10)
        return n

    async def main() -> None:
        pool = AnalysisPool(threads=1, waiting=8, per_owner=2)
        mine = [asyncio.ensure_future(pool.run(("t", n), analyse, n, owner="x")) for n in (1, 2)]
        await asyncio.sleep(0.05)
        with pytest.raises(Busy):  # a third distinct one from the same address
            await pool.run(("t", 3), analyse, 3, owner="x")
        # someone else's is taken, and the stranger's own again merge
        theirs = asyncio.ensure_future(pool.run(("t", 3), analyse, 3, owner="y"))
        again = asyncio.ensure_future(pool.run(("t", 1), analyse, 1, owner="x"))
        await asyncio.sleep(0.05)
        gate.set()
        assert await asyncio.gather(*mine, theirs, again) == [1, 2, 3, 1]
        pool.close()

    asyncio.run(main())


def test_a_flood_that_keeps_asking_never_pushes_a_bystanders_analysis_out() -> None:
    """Issue 54, finding 13, as bench/server/attacks.py's `pool` attack found
    it after the first fix: nine addresses keep the bound full, and each one
    refused asks again at once; the bystander's analysis, queued among them,
    was the one pushed out (503) after a few rounds, nearly every time."""
    gate = threading.Event()

    def analyse(n: int) -> int:
        gate.wait(10)
        return n

    async def main() -> None:
        pool = AnalysisPool(threads=1, waiting=8, per_owner=2)
        asked = 0

        def ask(owner: str) -> asyncio.Future[Any]:
            nonlocal asked
            asked += 1
            return asyncio.ensure_future(pool.run(("t", asked), analyse, asked, owner=owner))

        flood = {f"a{k}": ask(f"a{k}") for k in range(9)}  # the bound: 1 running, 8 queued
        await asyncio.sleep(0.05)
        mine = ask("bystander")
        await asyncio.sleep(0.01)
        for _ in range(40):  # every refused address asks again
            for owner, f in list(flood.items()):
                if f.done() and isinstance(f.exception(), Busy):
                    flood[owner] = ask(owner)
            await asyncio.sleep(0.01)
        assert not mine.done(), mine
        gate.set()
        assert await mine == 10
        await asyncio.gather(*flood.values(), return_exceptions=True)
        pool.close()

    asyncio.run(main())


def test_closing_the_pool_ends_its_processes_even_mid_search() -> None:
    """The search processes end with the server: an idle one and one in the
    middle of a long search are both gone after `close` (before, idle
    workers could outlive the server, each holding its memory)."""

    async def main() -> None:
        pool = SearchPool(
            2, lambda: ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn"))
        )
        assert await pool.run("A", min, 30.0, 7) == 7  # the processes are up
        before = {c.pid for c in multiprocessing.active_children()}
        thinking = asyncio.ensure_future(pool.run("B", time.sleep, 30.0))
        await asyncio.sleep(0.3)
        pool.close()
        with contextlib.suppress(BaseException):
            await thinking
        end = time.monotonic() + 10
        while time.monotonic() < end and any(
            c.pid in before for c in multiprocessing.active_children()
        ):
            await asyncio.sleep(0.05)
        assert not [c.pid for c in multiprocessing.active_children() if c.pid in before]

    asyncio.run(main())


_SERVER = """
import multiprocessing, os, time
from concurrent.futures import ProcessPoolExecutor
from skat.server.work import search_worker_start

if __name__ == "__main__":
    pool = ProcessPoolExecutor(
        2, mp_context=multiprocessing.get_context("spawn"), initializer=search_worker_start
    )
    pids = {pool.submit(time.sleep, 0.2) and pool.submit(os.getpid).result() for _ in range(6)}
    print(" ".join(map(str, sorted(pids))), flush=True)
    time.sleep(120)
"""


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie nobody reaped is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_search_processes_end_when_their_server_is_killed(tmp_path: Path) -> None:
    """A server killed outright (SIGKILL, the OOM killer) cannot stop its
    search processes: they notice that it is gone and end within seconds
    instead of idling for ever (the full suite's killed servers left some)."""
    import subprocess
    import sys

    script = tmp_path / "server.py"
    script.write_text(_SERVER)
    server = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        workers = [int(p) for p in server.stdout.readline().split()]
        assert workers and all(_running(p) for p in workers)
    finally:
        server.kill()
        server.wait()
    end = time.monotonic() + 15
    while time.monotonic() < end and any(_running(p) for p in workers):
        time.sleep(0.1)
    assert not [p for p in workers if _running(p)]


_SERVER_KILLED_AT_ONCE = """
import multiprocessing, os, signal, time
from concurrent.futures import ProcessPoolExecutor
from skat.server.work import search_worker_start

if __name__ == "__main__":
    pool = ProcessPoolExecutor(
        2, mp_context=multiprocessing.get_context("spawn"), initializer=search_worker_start
    )
    for _ in range(2):  # each starts a process
        pool.submit(time.sleep, 0.1)
    print(" ".join(str(p) for p in pool._processes), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # while they are still starting
"""


def test_search_processes_end_when_their_server_is_killed_while_they_start(
    tmp_path: Path,
) -> None:
    """A server killed before its search processes are up (they import for
    a second or two): they find themselves without it when they are, and
    end (they once waited for work for ever: their parent was the init
    process already when they looked)."""
    import subprocess
    import sys

    script = tmp_path / "server.py"
    script.write_text(_SERVER_KILLED_AT_ONCE)
    server = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        workers = [int(p) for p in server.stdout.readline().split()]
    finally:
        server.wait(timeout=30)  # killed by itself
        server.stdout.close()  # (the workers hold it open)
    assert len(workers) == 2
    end = time.monotonic() + 30
    while time.monotonic() < end and any(_running(p) for p in workers):
        time.sleep(0.1)
    left = [p for p in workers if _running(p)]
    for pid in left:  # not to leave them behind when the test fails
        os.kill(pid, signal.SIGKILL)
    assert not left
