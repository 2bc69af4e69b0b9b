#!/usr/bin/env python3
"""Where the server's CPU goes: py-spy's collapsed stacks summed by area.

    .venv/bin/python -m bench.server.action_cpu --runs 1 --profile prof.txt
    .venv/bin/python -m bench.server.profile_areas prof.txt [--top 25] [--acts N]

Each sample counts once, for the innermost frame that names an area (so the
engine's views built by the projection count as the engine, the JSON of a
stored row as the store); inside the engine, for the function it was
entered by (`Deal.view`, `sorted_cards`, or the rest: legal actions,
apply, clone). Idle samples (the event loop waiting in
``select``/``epoll``) are left out; the shares are of the busy samples.
Also printed: the functions with most samples inclusive of their callees.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from collections.abc import Sequence

# (area, pattern on "function (file:line)"), innermost match wins
AREAS: list[tuple[str, str]] = [
    ("logging", r"\(logging/"),
    ("store: SQLAlchemy", r"\(sqlalchemy/"),
    ("store: aiosqlite/sqlite3", r"\(aiosqlite/|\(sqlite3/"),
    ("store: skat store.py", r"\(skat/server/store\.py"),
    ("engine: views", r"view \(skat/engine/deal\.py|\(skat/engine/views\.py"),
    ("projection: cards in display order", r"^sorted_cards \(skat/engine/game\.py"),
    ("engine: legal actions / apply / clone", r"\(skat/engine/"),
    ("series", r"\(skat/series/"),
    ("json encode (msgspec)", r"^encode \(skat/server/protocol\.py"),
    ("projection (view -> dict)", r"\(skat/server/projection\.py"),
    ("table state (plan/check/apply)", r"\(skat/server/table\.py|\(skat/server/events\.py"),
    ("actor (queue, commit, conns)", r"\(skat/server/actor\.py"),
    ("websocket receive/decode", r"\(skat/server/app\.py|\(skat/server/protocol\.py"),
    ("websocket frames (websockets)", r"\(websockets/"),
    # our frames in and out, with the socket's write (a C call: its own samples)
    ("websocket frames and socket writes (wsprotocol)", r"\(skat/server/wsprotocol\.py"),
    ("uvicorn / starlette", r"\(uvicorn/|\(starlette/"),
    ("asyncio", r"\(asyncio/|\(selectors\.py"),
]
IDLE = re.compile(r"select \(selectors\.py|_run_once .*:\d+\)$|^epoll|\(threading\.py.*wait")


def area(frames: list[str]) -> str:
    for i in range(len(frames) - 1, -1, -1):
        if "(skat/engine/" in frames[i]:
            # the engine counts by its entry point: whoever called into it
            while i > 0 and "(skat/engine/" in frames[i - 1]:
                i -= 1
        for name, pattern in AREAS:
            if re.search(pattern, frames[i]):
                return name
    return "other"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--acts", type=int, help="accepted actions profiled: time per action too")
    parser.add_argument("--rate", type=float, default=250.0, help="py-spy's samples per second")
    args = parser.parse_args(argv)
    areas: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    busy = idle = 0
    with open(args.file) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not stack:
                continue
            n = int(count)
            frames = stack.split(";")
            if IDLE.search(frames[-1]):
                idle += n
                continue
            busy += n
            areas[area(frames)] += n
            for frame in set(frames):
                inclusive[re.sub(r":\d+\)$", ")", frame)] += n
    print(f"busy samples: {busy} (idle left out: {idle})")
    per = 1e6 / args.rate / args.acts if args.acts else 0.0  # us per action of one sample
    for name, n in areas.most_common():
        print(f"{n / busy:6.1%}  {f'{n * per:5.0f} us  ' if per else ''}{name}")
    if per:
        print(f"        {busy * per:5.0f} us per action in all")
    print("\ninclusive:")
    for name, n in inclusive.most_common(args.top):
        print(f"{n / busy:6.1%}  {name}")


if __name__ == "__main__":
    main()
