#!/usr/bin/env python3
"""CPU time of the parts of one accepted action, in process (no sockets, no
scheduling between processes, so less noisy than bench/server/action_cpu.py):

* the store: `Store.append` of one event at a time (a transaction each, as at
  a quiet server) and of three at a time (one transaction for three rows,
  as the group commit does when appends wait behind a commit);
* the table and the projection: plan, check and apply each action of whole
  deals, and build and encode the messages of four viewers (three seats and a
  spectator) for every event, as `TableActor._commit` does (in a tree with
  issue 52's changes, each viewer's changes since the view it was sent, and
  after a move the views made from the views before it).

    .venv/bin/python -m bench.server.action_parts
    .venv/bin/python -m bench.server.action_parts --src ../old/src   # another checkout
    .venv/bin/python -m bench.server.action_parts --cold 16   # caches emptied between actions

CPU time of this process (`time.process_time`, all threads); the best of
``--repeat`` rounds is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def store_parts(rows: int) -> tuple[float, float]:
    from skat.server.store import Store, StoredTable

    async def go() -> tuple[float, float]:
        with tempfile.TemporaryDirectory() as tmp:
            store = Store(f"sqlite+aiosqlite:///{Path(tmp) / 's.db'}")
            await store.open()
            now = time.time()
            for name in ("t", "t0", "t1", "t2"):  # a table's events need its lease
                table = StoredTable(name, now, now, "waiting", {}, "00", "00", "h")
                await store.create_table(table, own=True)
            await store.append("t", 0, "act", {"seat": 0, "action": "bid 18"})
            t = time.process_time()
            for v in range(1, rows + 1):
                await store.append("t", v, "act", {"seat": 0, "action": "bid 18"})
            one = (time.process_time() - t) / rows
            t = time.process_time()
            for v in range(rows + 1, 2 * rows + 1, 3):
                row = {"seat": 0, "action": "pass"}
                await asyncio.gather(*(store.append(f"t{k}", v, "act", row) for k in range(3)))
            three = (time.process_time() - t) / rows
            await store.close()
            return one, three

    return asyncio.run(go())


def _policy(view: Any, rng: random.Random) -> str:
    from skat.engine import Phase

    texts = [str(a) for a in view.legal_actions]
    if view.phase is Phase.BIDDING:
        if view.bid == 0 and "bid 18" in texts:
            return "bid 18"
        return "hold" if "hold" in texts else "pass"
    if view.phase is Phase.DECLARE:
        plain = [a for a in texts if "null" not in a and len(a.split()) == 2]
        if plain:
            return rng.choice(plain)
    return rng.choice(texts)


def table_parts(deals: int, cold: int = 0) -> tuple[float, float, int]:
    """(plan + check + apply, messages + encoding) per accepted action;
    ``cold``: MB of memory written (and a little other Python run) between
    two actions, outside the timing, so that each action finds the caches as
    a server whose moves come milliseconds apart finds them (other tables,
    other processes)."""
    junk = bytearray(cold << 20)
    from skat.engine import parse_action
    from skat.series import ListOptions
    from skat.server import events as ev
    from skat.server import projection
    from skat.server import protocol as p
    from skat.server.table import Settings, TableState

    # a tree before issue 50 takes a move's text (``--src``), later ones the
    # Action parsed at the edge: parsed here, inside the measured part
    typed = "text" not in inspect.signature(TableState.plan_act).parameters

    shared_kind = getattr(projection, "Shared", None)  # older checkouts have none
    # issue 52's changes: each viewer's view as last sent, as the actor keeps it
    changes = "base" in inspect.signature(projection.event_message).parameters
    # and the views after a move made from those before it, where a tree has it
    prior = shared_kind is not None and "prior" in inspect.signature(shared_kind).parameters
    bases: dict[int | None, Any] = {}
    rng = random.Random(1)
    st = TableState(
        id="T",
        options=ListOptions(players=3, deals=deals),
        settings=Settings(),
        seed=bytes(range(32)),
        creator_hash="c",
    )
    for i, name in enumerate(("Anna", "Bert", "Cora")):
        for e in st.plan_sit(name, i, f"hash{i}"):
            st.apply(e)
    table = project = 0.0
    acts = 0
    viewers: list[int | None] = [0, 1, 2, None]
    assert st.series is not None
    while not st.series.is_over():
        deal = st.series.deal
        if deal.is_terminal():
            for e in st.plan_next():
                st.apply(e)
            if changes:  # the new deal's state, as every viewer is sent it
                fresh = projection.Shared()
                bases = {v: fresh.view_out(st.series, v) for v in viewers}
            continue
        seat = deal.current_seat
        assert seat is not None
        action = _policy(deal.view(seat), rng)
        if junk:  # other work between two moves: memory written, other Python run
            junk[::64] = bytes([acts & 255]) * (len(junk) // 64)
            _ = {str(i): i for i in range(20_000)}
        t0 = time.process_time()
        move: Any = parse_action(action) if typed else action
        events = st.plan_act(seat, move, st.version)
        st.check_all(events)
        for e in events:
            st.check(e)
            ev.to_row(e)
            st.apply(e)
            t1 = time.process_time()
            if shared_kind is None:
                extra = []
            elif prior and isinstance(e, ev.Act):
                extra = [shared_kind(dict(bases))]
            else:
                extra = [shared_kind()]
            for v in viewers:
                more = [*extra, bases.get(v)] if changes else extra
                p.encode(projection.event_message(st, st.version, e, v, set(), {0, 1, 2}, *more))
                if changes:
                    bases[v] = extra[0].view_out(st.series, v)
            t2 = time.process_time()
            table += t1 - t0
            project += t2 - t1
            t0 = time.process_time()
        acts += 1
    return table / acts, project / acts, acts


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", help="import skat from this source tree")
    parser.add_argument("--rows", type=int, default=600)
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--cold", type=int, default=0, metavar="MB",
        help="MB written between two actions (caches emptied, as at a quiet server)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.src:
        sys.path.insert(0, str(Path(args.src).resolve()))
    import skat

    print(f"skat from {Path(skat.__file__).parent}")
    one = three = table = project = float("inf")
    acts = 0
    for _ in range(args.repeat):
        a, b = store_parts(args.rows)
        c, d, acts = table_parts(args.deals, args.cold)
        one, three, table, project = min(one, a), min(three, b), min(table, c), min(project, d)
    us = 1e6
    print(
        f"store: {one * us:.0f} us per event appended alone, {three * us:.0f} us per event "
        f"three to a transaction; table: {table * us:.0f} us per action (plan, check, apply); "
        f"messages to 4 viewers: {project * us:.0f} us per action ({acts} actions)"
    )


if __name__ == "__main__":
    main()
