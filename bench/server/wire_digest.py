#!/usr/bin/env python3
"""A digest of everything the server sends: to check that a change to the
server's hot path leaves the wire byte for byte the same (issue 30).

    .venv/bin/python -m bench.server.wire_digest --lists 150
    .venv/bin/python -m bench.server.wire_digest --lists 150 --src /tmp/old/src

Plays ``--lists`` random lists at a table of people (the same lists for the
same ``--seed``, under seven option sets: three and four players, Ramsch,
the three Kontra windows, Bock, plain scoring; seat 0 muting seat 1 in every
other list; chat between moves) and hashes every message to every viewer
(a spectator and each seat) as the protocol's encoder writes it. Two source
trees that print the same digest send the same bytes. ``--src`` imports
skat from another tree.

It also prints the bytes sent per move per viewer (every ``act`` event's
message to each viewer: median, p95, mean, largest) and per viewer and deal
(issue 52): a tree with the changes of docs/protocol.md, "Changes", sends
each viewer what changed since the view it holds (each viewer's view kept
as the server's actor keeps it), an older one the whole view.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

OPTION_SETS: tuple[dict[str, Any], ...] = (
    {"players": 3},
    {"players": 4},
    {"players": 3, "all_pass": "ramsch"},
    {"players": 3, "kontra": True},
    {"players": 3, "kontra": True, "kontra_window": "first_lead"},
    {"players": 4, "kontra": True, "kontra_window": "trick_one", "bock": True},
    {"players": 3, "scoring": "plain", "bock": True},
)


def digest(lists: int, seed: int, sizes: list[int] | None = None) -> tuple[int, str]:
    """(messages, sha256 hex) of ``lists`` random lists; ``sizes`` gets the
    bytes of every move's message to every viewer, and one entry of
    `DEALS` (deals, bytes per viewer) for the whole run."""
    h = hashlib.sha256()
    count = sum(_one_list(k, seed, h, sizes) for k in range(lists))
    return count, h.hexdigest()


#: (deals played, bytes sent to all viewers together, viewers) over a `digest` run
DEALS: list[int] = [0, 0, 0]


def _one_list(k: int, seed: int, h: Any, sizes: list[int] | None = None) -> int:
    """Play list ``k`` to its end, every message into ``h``; their number."""
    from skat.series import ListOptions
    from skat.server import events as ev
    from skat.server import projection, protocol
    from skat.server.table import Settings, TableState

    rng = random.Random(f"{seed}/{k}")
    options = OPTION_SETS[k % len(OPTION_SETS)]
    seats = list(range(options["players"]))
    st = TableState(
        id=f"T{k}",
        options=ListOptions(deals=len(seats), **options),
        settings=Settings(),
        seed=rng.randbytes(32),
        creator_hash="c",
    )
    viewers: list[int | None] = [None, *seats]
    count = 0
    # a tree before issue 50 takes a move's text (``--src``), later ones the Action
    typed = "text" not in inspect.signature(TableState.plan_act).parameters
    # a tree with issue 52's changes: each viewer's view as last sent (the actor's)
    changes = "base" in inspect.signature(projection.event_message).parameters
    bases: dict[int | None, Any] = {}

    def commit(events: list[ev.TableEvent]) -> None:
        nonlocal count
        for e in events:
            st.apply(e)
            if sizes is not None and isinstance(e, ev.Next | ev.Start):
                DEALS[0] += 1  # a deal dealt
                DEALS[2] = len(viewers)
            extra: list[Any] = []
            if changes:
                shared = projection.Shared()
                extra = [shared]
            for viewer in viewers:
                muted = {1} if viewer == 0 and k % 2 else set()
                more = [*extra, bases.get(viewer)] if changes else []
                msg = projection.event_message(st, st.version, e, viewer, muted, set(seats), *more)
                data = protocol.encode(msg)
                raw = data if isinstance(data, bytes) else data.encode()
                h.update(repr(viewer).encode())
                h.update(raw)
                count += 1
                if sizes is not None:
                    DEALS[1] += len(raw)
                    if isinstance(e, ev.Act):
                        sizes.append(len(raw))
                if changes and st.series is not None:
                    bases[viewer] = shared.view_out(st.series, viewer)

    for i in seats:
        commit(st.plan_sit(f"P{i}", i, f"hash{i}"))
    for step in range(2000):  # a list of four deals has a few hundred moves
        series = st.series
        if series is None:
            break
        if series.deal.is_terminal():
            try:
                commit(st.plan_next())
            except Exception:  # the list is over: nothing more to deal
                break
            continue
        seat = st.to_move()
        if seat is None:
            break
        moves = series.deal.legal_actions()
        if rng.random() < 0.03:
            commit(st.plan_chat(seat, f"chat {step} <&>"))
        move: Any = rng.choice(moves) if typed else str(rng.choice(moves))
        commit(st.plan_act(seat, move, st.version))
    return count


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lists", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--src", help="import skat from this source tree")
    args = parser.parse_args(argv)
    if args.src:
        sys.path.insert(0, str(Path(args.src).resolve()))
    sizes: list[int] = []
    count, hexdigest = digest(args.lists, args.seed, sizes)
    import skat

    print(f"skat from {Path(skat.__file__).parent}")
    print(f"{args.lists} lists, {count} messages, sha256 {hexdigest[:16]}")
    sizes.sort()
    n = len(sizes)
    print(
        f"bytes per move per viewer ({n} messages): median {sizes[n // 2]}, "
        f"p95 {sizes[n * 95 // 100]}, mean {sum(sizes) / n:.0f}, largest {sizes[-1]}"
    )
    deals, total, viewers = DEALS
    print(f"bytes per viewer and deal (every event): {total / deals / viewers:.0f}")


if __name__ == "__main__":
    main()
