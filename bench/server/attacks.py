#!/usr/bin/env python3
"""Issue 54's attacks re-run on the real server, each beside its baseline.

    .venv/bin/python -m bench.server.attacks --attack all
    .venv/bin/python -m bench.server.attacks --attack upload pool --seconds 10

Each attack starts its own `skat serve` (a subprocess on 127.0.0.1, a
temporary SQLite file, the default limits; ``--bot-delay 0``, ``--solo-next
countdown``, ``--next-delay 1``: a computer reply is its thinking and
waiting only). The server tells clients apart by their address: every
client here connects from an address of its own in 127/8 (the loopback
takes any as a source), so the limits per address apply as they would to
strangers on the internet. Beside the attack play:

- ``--people-tables`` tables of three people (bench/server/load.py's
  clients at ``--pace``, each table from an address of its own): latency
  from a person's ``act`` until each of the three receives the event:
  p50/p99/max;
- ``--computer-tables`` tables of one person and two casual computer
  players (bench/server/flood.py's `Watched`): the time of a computer
  reply, from the person's ``act`` or the previous event until the
  computer's move arrives: median/max.

After ``--warmup`` a baseline of ``--seconds``, then ``--seconds`` while the
attack runs in a process of its own (``--attack-child``, so that its work
is not this generator's; at niceness ``--attacker-nice``: an attacker's CPU
is its own machine's, here it comes after the server's and the measured
clients', and its share is printed), from one address ``ATTACKER`` unless
it is an attack of many addresses. Every answer and message the attack
receives is scanned for the secrets its preparation made (seat tokens, a
creator's and an organiser's secrets, entrants' tokens). The attacks
(issue 54's findings by number):

``upload`` (1)         20 at once: POST /api/board?game=9999, 63 KiB of game
                       records each, every file distinct; a bystander's
                       board every 2 s from another address
``tournament-view`` (2) a tournament of ``--entrants`` entrants, two series
                       drawn (the first closed): 10 pages poll its view
                       every 0.5 s
``tournament-tables`` (3) tournaments of 200 entrants (strong, then
                       casual) drawn from one address (each draw timed), then
                       tables asked for
``claim`` (5)          the declarer at 3 tables sends ``claim`` every 0.25 s
``lobby`` (6)          12 addresses x 10 public tables sat at, 20 x 5 public
                       tournaments, the lobby polled: the bystander's table
                       and tournament listed?
``entries`` (7)        200 entries to a bystander's public tournament
``wake`` (8)           a resting table: its computers' seats asked for every
                       0.5 s; the game events it made meanwhile, and any
                       hand shown to the stranger
``storm`` (9)          30 loops of hello-and-close to a finished 36-deal table
``analysis-10`` (9)    10 addresses x 6 clients ask the analyses of that
                       table's 36 deals in a loop (answers cached)
``pool`` (13)          10 addresses x 2 keep the analysis pool full with
                       distinct boards; a bystander's board every 2 s

Printed per attack: the two tables' figures in the baseline and under
attack, the attack's answers by status or code and its own figures (and
whether the finding holds: ``held``), the load average before and after
(other engineers' jobs may run), the server's CPU; the last line is all
results as JSON.

Not a test: the figures depend on the machine (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from bench.server.flood import (
    CpuMeter,
    ServerLog,
    Watched,
    between,
    loadavg,
    median,
    ms,
    print_rows,
    search_workers,
)
from bench.server.load import (
    ROUNDS,
    Client,
    Stats,
    Table,
    choose,
    free_port,
    lag_monitor,
    pct,
    raise_nofile,
    spawn_server,
)
from skat.server.messages import ViewKeeper

ATTACKS = (
    "upload",
    "tournament-view",
    "tournament-tables",
    "claim",
    "lobby",
    "entries",
    "wake",
    "storm",
    "analysis-10",
    "pool",
)
ATTACKER = "127.0.66.1"
BYSTANDER = "127.0.12.1"  # a bystander's requests during an attack
PEOPLE_NET = "127.0.10"  # table i of people: 127.0.10.(i+1)
COMPUTER_NET = "127.0.11"
#: server options per attack beyond the common ones
FLAGS: dict[str, tuple[str, ...]] = {
    # tables nobody came to rest at once (issue 54, finding 3): the draw's
    # tables rest before the view is polled, as in the test of finding 2
    "tournament-view": ("--grace", "0.5"),
    "wake": ("--grace", "1"),
}
Row = tuple[str, str]


# ------------------------------------------------------------------ requests
#: In the attack's process: the secrets (seat tokens, creators' and
#: organisers' secrets) its prep made, and how often one was in an answer
#: or a message the attack received.
SECRETS: list[str] = []
SEEN: Counter[str] = Counter()


def scan(text: bytes | str) -> None:
    raw = text.encode() if isinstance(text, str) else text
    for secret in SECRETS:
        if secret.encode() in raw:
            SEEN[secret[:4] + "..."] += 1


def request(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    source: str = "127.0.0.1",
    raw: bytes | None = None,
) -> tuple[int, Any]:
    """(status, JSON answer or None) of one request from ``source``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    try:
        data = raw if raw is not None else None if body is None else json.dumps(body).encode()
        headers = {"content-type": "application/json"} if data is not None else {}
        conn.request(method, path, body=data, headers=headers)
        r = conn.getresponse()
        text = r.read()
        scan(text)
        try:
            return r.status, json.loads(text)
        except ValueError:
            return r.status, None
    finally:
        conn.close()


def ok(port: int, method: str, path: str, body: Any = None, source: str = "127.0.0.1") -> Any:
    status, data = request(port, method, path, body, source)
    if status not in (200, 201):
        raise SystemExit(f"{method} {path}: {status} {data}")
    return data


def code_of(status: int, data: Any) -> str:
    """``201``, ``429 RATE_LIMITED``: a status and its error code."""
    err = (data or {}).get("error") if isinstance(data, dict) else None
    return f"{status} {err.get('code', '')}".strip() if isinstance(err, dict) else str(status)


def ws_url(port: int, table: str) -> str:
    return f"ws://127.0.0.1:{port}/ws/{table}"


async def ws_from(url: str, source: str) -> ClientConnection:
    return await connect(url, open_timeout=30, max_size=2**22, local_addr=(source, 0))


# ------------------------------------------------------------------- records
def game_records(deals: int, seed: int = 7) -> list[dict[str, Any]]:
    """Game records of a list of heuristic players (the upload's files)."""
    from skat.players.heuristic import HeuristicPlayer
    from skat.players.loop import play_list
    from skat.series import ListOptions, Series
    from skat.series.record import list_record

    series = Series(
        ListOptions(players=3, deals=deals), seed=bytes([seed]) * 32, names=["A", "B", "C"]
    )
    play_list(series, [HeuristicPlayer() for _ in range(3)])
    return list(list_record(series, id="bench")["deals"])


def big_file(games: list[dict[str, Any]], tag: str, limit: int = 63 * 1024) -> bytes:
    """As many game records as fit in ``limit`` bytes, their ids ``tag-N``."""
    out: list[dict[str, Any]] = []
    size = 2
    for i in range(10_000):
        game = dict(games[i % len(games)], id=f"{tag}-{i}")
        size += len(json.dumps(game)) + 2
        if size > limit:
            break
        out.append(game)
    return json.dumps(out).encode()


# --------------------------------------------------------------- the server
class AttackServer:
    """`skat serve` with the default limits on a temporary SQLite file."""

    def __init__(self, folder: Path, flags: Sequence[str]) -> None:
        self.port = free_port()
        self.log = folder / "server.log"
        cmd = [
            sys.executable, "-m", "skat.cli", "serve",
            "--host", "127.0.0.1", "--port", str(self.port),
            "--db", f"sqlite+aiosqlite:///{folder / 'attacks.db'}",
            "--bot-delay", "0", "--next-delay", "1", "--next-delay-people", "1",
            "--solo-next", "countdown", "--log-level", "warning", *flags,
        ]  # fmt: skip
        self.proc = spawn_server(cmd, self.log, self.http, None)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        workers = search_workers(self.proc.pid)
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        for pid in workers:  # a search process the stopped server left behind
            with contextlib.suppress(OSError):
                if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text(errors="replace"):
                    os.kill(pid, signal.SIGTERM)


class FromClient(Client):
    """load.py's person, connecting from ``source``."""

    source = "127.0.0.1"

    async def open(self, gate: asyncio.Semaphore) -> None:
        async with gate:
            self.ws = await ws_from(self.url, self.source)
            await self.ws.send('{"type":"hello","protocol":2}')
            if self.sit:
                await self.ws.send(json.dumps({"type": "sit", "name": self.name}))


class FromWatched(Watched):
    source = "127.0.0.1"

    async def open(self, gate: asyncio.Semaphore) -> None:
        async with gate:
            self.ws = await ws_from(self.url, self.source)
            await self.ws.send('{"type":"hello","protocol":2}')
            await self.ws.send(json.dumps({"type": "sit", "name": self.name}))


class Measured:
    """The tables measured beside an attack."""

    def __init__(self, server: AttackServer, args: argparse.Namespace) -> None:
        self.server = server
        self.args = args
        self.stats = Stats()
        self.moves: list[tuple[float, float]] = []  # computer replies
        self.tasks: list[asyncio.Task[None]] = []
        self.conns: list[ClientConnection] = []
        self.cpu = CpuMeter(server.proc.pid)
        self.log = ServerLog(server.log)

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        port = self.server.port
        self.tasks.append(asyncio.create_task(lag_monitor(self.stats)))
        gate = asyncio.Semaphore(20)
        people: list[Client] = []
        for i in range(self.args.people_tables):
            source = f"{PEOPLE_NET}.{i + 1}"
            made = await loop.run_in_executor(
                None, partial(ok, port, "POST", "/api/tables", {"rounds": ROUNDS}, source)
            )
            table = Table(str(made["id"]))
            for k in range(3):
                c = FromClient(table, ws_url(port, table.id), f"p{k}", self.args.pace,
                               self.stats, False)  # fmt: skip
                c.source = source
                people.append(c)
        await asyncio.gather(*(c.open(gate) for c in people))
        self.tasks += [asyncio.create_task(c.run()) for c in people]
        for i in range(self.args.computer_tables):
            source = f"{COMPUTER_NET}.{i + 1}"
            made = await loop.run_in_executor(
                None, partial(ok, port, "POST", "/api/tables", {"rounds": ROUNDS}, source)
            )
            table = Table(str(made["id"]))
            table.viewers = 1
            w = FromWatched(table, ws_url(port, table.id), self.args.pace, self.moves)
            w.source = source
            await w.open(gate)
            self.tasks.append(asyncio.create_task(w.run()))
            deadline = time.monotonic() + 20
            while w.token is None and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert w.ws is not None and w.token is not None, "the person was not seated"
            await w.ws.send(json.dumps({"type": "fill", "creator": made["creator"]}))
            people.append(w)
        self.clients = people
        deadline = time.monotonic() + 30
        while any(c.seat is None for c in people) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)

    async def window(
        self, label: str, seconds: float, during: Awaitable[Any] | None = None
    ) -> tuple[list[Row], dict[str, Any]]:
        cpu0, log0 = self.cpu.seconds(), self.log.offset()
        t0 = time.perf_counter()
        await asyncio.sleep(seconds)
        t1 = time.perf_counter()
        cpu1, log1 = self.cpu.seconds(), self.log.offset()
        await asyncio.sleep(1.0)  # what was sent at the end arrives
        lat = between(self.stats.samples, t0, t1)
        bot = between(self.moves, t0, t1)
        lag = between(self.stats.lag, t0, t1)
        falls = self.log.fallbacks(log0, log1)
        res: dict[str, Any] = {
            "people_p50_s": pct(lat, 0.5),
            "people_p99_s": pct(lat, 0.99),
            "people_max_s": max(lat, default=float("nan")),
            "people_samples": len(lat),
            "people_errors": dict(self.stats.errors),
            "computer_p50_s": median(bot),
            "computer_max_s": max(bot, default=float("nan")),
            "computer_replies": len(bot),
            "fallbacks": sum(falls.values()),
            "server_cpu": (cpu1 - cpu0) / (t1 - t0),
            "generator_lag_p99_s": pct(lag, 0.99),
        }
        self.stats.errors.clear()
        rows = [
            (f"{label}: people", f"p50 {ms(res['people_p50_s'])}, p99 {ms(res['people_p99_s'])}, "
             f"max {ms(res['people_max_s'])} ({len(lat)} samples)"
             + (f", errors {res['people_errors']}" if res["people_errors"] else "")),
            (f"{label}: computer", f"p50 {ms(res['computer_p50_s'])}, max "
             f"{ms(res['computer_max_s'])} ({len(bot)} replies), fallbacks {res['fallbacks']}"),
            (f"{label}: server cpu", f"{res['server_cpu']:.0%}, generator lag p99 "
             f"{ms(res['generator_lag_p99_s'])}"),
        ]  # fmt: skip
        return rows, res

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for c in self.clients:
            if c.ws is not None:
                with contextlib.suppress(Exception):
                    await c.ws.close()


# -------------------------------------------------------------- preparation
def wait_for(what: str, check: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"not in {timeout:.0f} s: {what}")
        time.sleep(0.3)


def prep_tournament_view(port: int, args: argparse.Namespace) -> dict[str, Any]:
    body = {"name": "Club", "rounds": 1, "series": 2}
    t = ok(port, "POST", "/api/tournaments", body, ATTACKER)
    tid, organiser = t["id"], t["organiser"]
    secrets = [organiser]
    for i in range(args.entrants):
        entry = {"name": f"Player {i:03d}", "organiser": organiser}
        made = ok(port, "POST", f"/api/tournaments/{tid}/entrants", entry, ATTACKER)
        secrets.append(made["token"])

    def resting(number: int) -> bool:
        view = ok(port, "GET", f"/api/tournaments/{tid}", source=ATTACKER)
        return all(x.get("resting") for x in view["series"][number - 1]["tables"])

    for number in (1, 2):
        ok(port, "POST", f"/api/tournaments/{tid}/series", {"organiser": organiser}, ATTACKER)
        wait_for("every table rests", partial(resting, number), 120)
        if number == 1:
            ok(port, "POST", f"/api/tournaments/{tid}/close", {"organiser": organiser}, ATTACKER)
    view = ok(port, "GET", f"/api/tournaments/{tid}", source=ATTACKER)
    tables = sum(len(s["tables"]) for s in view["series"])
    return {"tournament": tid, "tables": tables, "secrets": secrets}


def finished_table(port: int) -> dict[str, Any]:
    """A 36-deal list of a person and two novice computer players, played to
    the end (the person acts at once: a table nobody is at would rest)."""
    source = "127.0.13.1"
    made = ok(port, "POST", "/api/tables", {"rounds": 12, "bot": "novice"}, source)

    def over() -> bool:
        return bool(ok(port, "GET", f"/api/tables/{made['id']}")["table"]["status"] == "finished")

    token: list[str] = []

    async def play() -> None:
        rng = random.Random(1)
        async with await ws_from(ws_url(port, made["id"]), source) as ws:
            await ws.send('{"type":"hello","protocol":2}')
            await ws.send(json.dumps({"type": "sit", "name": "Anna"}))
            seat = -1
            keeper = ViewKeeper()
            deadline = time.monotonic() + 400
            while time.monotonic() < deadline:
                try:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 3))
                except TimeoutError:
                    if over():
                        return
                    continue
                if m.get("type") == "seated":
                    seat = int(m["seat"])
                    token.append(m["token"])
                    await ws.send(json.dumps({"type": "fill", "creator": made["creator"]}))
                keeper.note(m)
                view = keeper.view if m.get("type") in ("event", "state") else None
                if isinstance(view, dict) and view.get("turn") == seat and view.get("legal"):
                    act = {"type": "act", "action": choose(view, rng), "version": m["version"]}
                    await ws.send(json.dumps(act))
            raise SystemExit("the 36 deals were not played in time")

    asyncio.run(play())
    wait_for("the 36 deals are played", over, 30)
    return {"table": made["id"], "deals": 36, "secrets": [made["creator"], *token]}


def prep_lobby(port: int, args: argparse.Namespace) -> dict[str, Any]:
    table = ok(port, "POST", "/api/tables", {"public": True}, BYSTANDER)
    mine = table["id"]
    body = {"name": "Ours", "public": True}
    tournament = ok(port, "POST", "/api/tournaments", body, BYSTANDER)
    secrets = [table["creator"], tournament["organiser"]]

    async def sit() -> None:
        async with await ws_from(ws_url(port, mine), BYSTANDER) as ws:
            await ws.send('{"type":"hello","protocol":2}')
            await ws.send(json.dumps({"type": "sit", "name": "Anna"}))
            while (m := json.loads(await ws.recv())).get("type") != "seated":
                pass
            secrets.append(m["token"])

    asyncio.run(sit())
    return {"table": mine, "tournament": tournament["id"], "secrets": secrets}


def prep_entries(port: int, args: argparse.Namespace) -> dict[str, Any]:
    t = ok(port, "POST", "/api/tournaments", {"name": "Open", "public": True}, BYSTANDER)
    return {"tournament": t["id"], "secrets": [t["organiser"]]}


def prep_wake(port: int, args: argparse.Namespace) -> dict[str, Any]:
    """A bystander's table of one person and two computers, left: it rests."""
    source = "127.0.12.6"
    made = ok(port, "POST", "/api/tables", {"rounds": ROUNDS}, source)

    secrets = [made["creator"]]

    async def play_and_go() -> None:
        async with await ws_from(ws_url(port, made["id"]), source) as ws:
            await ws.send('{"type":"hello","protocol":2}')
            await ws.send(json.dumps({"type": "sit", "name": "Anna"}))
            while (m := json.loads(await ws.recv())).get("type") != "seated":
                pass
            secrets.append(m["token"])
            await ws.send(json.dumps({"type": "fill", "creator": made["creator"]}))
            await asyncio.sleep(1.0)

    asyncio.run(play_and_go())

    def resting() -> bool:
        return bool(ok(port, "GET", f"/api/tables/{made['id']}")["table"].get("resting"))

    wait_for("the left table rests", resting, 60)
    return {"table": made["id"], "secrets": secrets}


PREP: dict[str, Callable[[int, argparse.Namespace], dict[str, Any]]] = {
    "tournament-view": prep_tournament_view,
    "lobby": prep_lobby,
    "entries": prep_entries,
    "wake": prep_wake,
    "storm": lambda port, args: finished_table(port),
    "analysis-10": lambda port, args: finished_table(port),
}


# ------------------------------------------------------------ the attacks
# Each runs in the attack's own process (`attack_child`) for ``seconds``
# and returns its counts; `held` says whether the finding's fix holds.
class Until:
    def __init__(self, seconds: float) -> None:
        self.end = time.monotonic() + seconds

    def __bool__(self) -> bool:
        return time.monotonic() < self.end


async def in_thread(fn: Callable[[], Any]) -> Any:
    return await asyncio.get_running_loop().run_in_executor(None, fn)


async def bystander_boards(
    port: int, until: Until, small: Callable[[str], bytes], out: dict[str, Any]
) -> None:
    """A bystander's distinct board every 2 s: its answers and latency."""
    codes: Counter[str] = Counter()
    late: list[float] = []
    n = 0
    while until:
        body = small(f"bystander-{n}")
        n += 1
        t = time.perf_counter()
        status, data = await in_thread(
            partial(request, port, "POST", "/api/board?game=1", raw=body, source=BYSTANDER)
        )
        late.append(time.perf_counter() - t)
        codes[code_of(status, data)] += 1
        await asyncio.sleep(max(0.0, 2.0 - late[-1]))
    out["bystander_boards"] = dict(codes)
    out["bystander_board_max_s"] = max(late, default=float("nan"))
    out["bystander_board_p50_s"] = median(late)


def small_file_maker() -> Callable[[str], bytes]:
    game = game_records(3)[0]
    return lambda tag: json.dumps([dict(game, id=tag)]).encode()


async def attack_upload(port: int, seconds: float, state: dict[str, Any]) -> dict[str, Any]:
    games = game_records(36)
    small = small_file_maker()
    print("ready", flush=True)
    until = Until(seconds)
    codes: Counter[str] = Counter()
    late: list[float] = []
    out: dict[str, Any] = {}

    template = big_file(games, "@@@@@@@@")  # each request's file distinct, made cheaply

    async def worker(k: int) -> None:
        i = 0
        while until:
            body = template.replace(b"@@@@@@@@", f"{k:02d}{i:06d}".encode())
            i += 1
            t = time.perf_counter()
            status, data = await in_thread(
                partial(request, port, "POST", "/api/board?game=9999", raw=body, source=ATTACKER)
            )
            late.append(time.perf_counter() - t)
            codes[code_of(status, data)] += 1

    await asyncio.gather(*(worker(k) for k in range(20)), bystander_boards(port, until, small, out))
    return {
        "requests": sum(codes.values()),
        "answers": dict(codes),
        "answer_p50_s": median(late),
        "file_kib": len(template) / 1024,
        "games_in_file": len(json.loads(template)),
        **out,
        "held": codes.get("429 RATE_LIMITED", 0) > 0 and set(out["bystander_boards"]) == {"200"},
    }


async def attack_tournament_view(
    port: int, seconds: float, state: dict[str, Any]
) -> dict[str, Any]:
    print("ready", flush=True)
    until = Until(seconds)
    codes: Counter[str] = Counter()
    late: list[float] = []
    path = f"/api/tournaments/{state['tournament']}"

    async def poller(k: int) -> None:
        await asyncio.sleep(k * 0.05)
        while until:
            t = time.perf_counter()
            status, data = await in_thread(lambda: request(port, "GET", path, source=ATTACKER))
            late.append(time.perf_counter() - t)
            codes[code_of(status, data)] += 1
            await asyncio.sleep(max(0.0, 0.5 - late[-1]))

    await asyncio.gather(*(poller(k) for k in range(10)))
    return {
        "tables": state["tables"],
        "views": dict(codes),
        "view_p50_s": median(late),
        "view_max_s": max(late, default=float("nan")),
        "held": set(codes) == {"200"} and max(late, default=9.0) < 0.5,
    }


async def attack_tournament_tables(
    port: int, seconds: float, state: dict[str, Any]
) -> dict[str, Any]:
    print("ready", flush=True)

    def run() -> dict[str, Any]:
        draws = {}
        for level in ("strong", "casual"):
            t = ok(port, "POST", "/api/tournaments",
                   {"name": level, "rounds": 1, "rules": {"level": level}}, ATTACKER)  # fmt: skip
            for i in range(200):
                entry = {"name": f"Player {i:03d}", "organiser": t["organiser"]}
                ok(port, "POST", f"/api/tournaments/{t['id']}/entrants", entry, ATTACKER)
            began = time.perf_counter()
            status, data = request(port, "POST", f"/api/tournaments/{t['id']}/series",
                                   {"organiser": t["organiser"]}, ATTACKER)  # fmt: skip
            draws[level] = code_of(status, data)
            draws[f"{level}_s"] = f"{time.perf_counter() - began:.3f}"
        tables = Counter(
            code_of(*request(port, "POST", "/api/tables", {"level": "strong"}, ATTACKER))
            for _ in range(5)
        )
        mine = code_of(*request(port, "POST", "/api/tables", {}, BYSTANDER))
        return {"draws": draws, "attacker_tables": dict(tables), "bystander_table": mine}

    t0 = time.monotonic()
    out: dict[str, Any] = await in_thread(run)
    await asyncio.sleep(max(0.0, seconds - (time.monotonic() - t0)))
    out["held"] = (
        out["draws"]["strong"] == "429 TOO_MANY_TABLES"
        and "201" not in out["attacker_tables"]
        and out["bystander_table"] == "201"
    )
    return out


async def attack_claim(port: int, seconds: float, state: dict[str, Any]) -> dict[str, Any]:
    """The attacker plays at 3 tables of its own (two computers each) and, in
    every trick play, sends ``claim`` every 0.25 s."""
    refusals: Counter[str] = Counter()
    claims: Counter[tuple[int, int]] = Counter()  # (table, deal) -> claims stored
    computer_cards = 0
    sent = 0

    async def table(k: int) -> None:
        nonlocal computer_cards, sent
        made = await in_thread(
            lambda: ok(port, "POST", "/api/tables", {"rounds": ROUNDS}, ATTACKER)
        )
        ws = await ws_from(ws_url(port, made["id"]), ATTACKER)
        await ws.send('{"type":"hello","protocol":2}')
        await ws.send(json.dumps({"type": "sit", "name": f"Mallory{k}"}))
        await ready.wait()
        view: dict[str, Any] = {}
        version = 0
        deal = 0
        seat = -1
        rng = random.Random(k)
        until = Until(seconds)
        keeper = ViewKeeper()

        async def reader() -> None:
            nonlocal view, version, deal, computer_cards, seat
            async for raw in ws:
                m = json.loads(raw)
                if m.get("type") == "seated":
                    seat = int(m["seat"])
                    await ws.send(json.dumps({"type": "fill", "creator": made["creator"]}))
                if m.get("type") == "error":
                    refusals[str(m.get("code"))] += 1
                    continue
                state_ = m.get("state") if m.get("type") == "event" else m
                if isinstance(state_, dict) and state_.get("deal"):
                    deal = int(state_["deal"].get("number", deal))
                event = m.get("event") or {}
                if event.get("kind") == "act":
                    action = str(event.get("action", ""))
                    if action.startswith("claim") and until:
                        claims[(k, deal)] += 1
                    elif event.get("seat") != seat and action.startswith("play") and until:
                        computer_cards += 1
                keeper.note(m)
                v = keeper.view if m.get("type") in ("event", "state") else None
                if isinstance(m.get("version"), int):
                    version = m["version"]
                if v:
                    view = v

        task = asyncio.create_task(reader())
        acted = -1
        with contextlib.suppress(ConnectionClosed, WebSocketException):
            while until:
                await asyncio.sleep(0.25)
                if view.get("phase") == "play" and view.get("declarer") == seat:
                    sent += 1
                    await ws.send(
                        json.dumps({"type": "act", "action": "claim", "version": version})
                    )
                legal = view.get("legal") or []
                if view.get("turn") == seat and legal and acted != version:
                    acted = version
                    action = choose(view, rng)
                    bids = [a for a in legal if a.startswith("bid ") and int(a[4:]) <= 30]
                    if "hold" in legal:
                        action = "hold"
                    elif bids:
                        action = bids[-1]  # the declarer as often as it may be
                    await ws.send(json.dumps({"type": "act", "action": action, "version": version}))
        task.cancel()
        await ws.close()

    ready = asyncio.Event()
    starters = [asyncio.create_task(table(k)) for k in range(3)]
    await asyncio.sleep(1.0)
    print("ready", flush=True)
    ready.set()
    await asyncio.gather(*starters)
    most = max(claims.values(), default=0)
    return {
        "claims_sent": sent,
        "claims_stored": sum(claims.values()),
        "most_claims_in_a_deal": most,
        "refusals": dict(refusals),
        "computer_cards_played": computer_cards,
        "held": most <= 1 and computer_cards > 0,
    }


async def attack_lobby(port: int, seconds: float, state: dict[str, Any]) -> dict[str, Any]:
    print("ready", flush=True)
    until = Until(seconds)
    made: Counter[str] = Counter()

    def make() -> list[str]:
        ids = []
        for a in range(12):
            for _ in range(10):
                status, data = request(port, "POST", "/api/tables", {"public": True},
                                       f"127.0.1.{a + 1}")  # fmt: skip
                made[f"table {code_of(status, data)}"] += 1
                if status == 201:
                    ids.append(data["id"])
        for a in range(20):
            for n in range(5):
                body = {"name": f"Flood {a}-{n}", "public": True}
                status, data = request(port, "POST", "/api/tournaments", body, f"127.0.2.{a + 1}")
                made[f"tournament {code_of(status, data)}"] += 1
        return ids

    ids = await in_thread(make)

    async def sit(n: int, table: str) -> None:
        with contextlib.suppress(OSError, ConnectionClosed, WebSocketException, TimeoutError):
            async with await ws_from(ws_url(port, table), f"127.0.4.{n % 200 + 1}") as ws:
                await ws.send('{"type":"hello","protocol":2}')
                await ws.send(json.dumps({"type": "sit", "name": "Anna"}))
                await asyncio.wait_for(ws.recv(), 5)
                await asyncio.sleep(0.2)

    for start in range(0, len(ids), 20):
        await asyncio.gather(*(sit(start + i, t) for i, t in enumerate(ids[start : start + 20])))
    polls: Counter[str] = Counter()
    while until:
        polls[
            code_of(*await in_thread(lambda: request(port, "GET", "/api/lobby", source=ATTACKER)))
        ] += 1
        await asyncio.sleep(0.1)
    await asyncio.sleep(1.1)  # past the lobby's cache
    _, lobby = await in_thread(lambda: request(port, "GET", "/api/lobby", source=BYSTANDER))
    tables = [t["id"] for t in lobby["tables"]]
    tournaments = [t["id"] for t in lobby.get("tournaments", [])]
    return {
        "made": dict(made),
        "polls": dict(polls),
        "listed_tables": len(tables),
        "listed_tournaments": len(tournaments),
        "bystander_table_listed": state["table"] in tables,
        "bystander_tournament_listed": state["tournament"] in tournaments,
        "held": state["table"] in tables and state["tournament"] in tournaments,
    }


async def attack_entries(port: int, seconds: float, state: dict[str, Any]) -> dict[str, Any]:
    print("ready", flush=True)
    path = f"/api/tournaments/{state['tournament']}/entrants"

    def run() -> dict[str, Any]:
        codes = Counter(
            code_of(*request(port, "POST", path, {"name": f"Bot {i}"}, ATTACKER))
            for i in range(200)
        )
        anna = code_of(*request(port, "POST", path, {"name": "Anna"}, BYSTANDER))
        return {"entries": dict(codes), "bystander_entry": anna}

    t0 = time.monotonic()
    out: dict[str, Any] = await in_thread(run)
    out["held"] = out["entries"].get("201", 0) <= 20 and out["bystander_entry"] == "201"
    await asyncio.sleep(max(0.0, seconds - (time.monotonic() - t0)))
    return out


async def attack_wake(port: int, seconds: float, state: dict[str, Any]) -> dict[str, Any]:
    url = ws_url(port, state["table"])
    events: Counter[str] = Counter()
    answers: Counter[str] = Counter()
    watcher = await ws_from(url, "127.0.12.7")
    await watcher.send('{"type":"hello","protocol":2}')

    async def watch() -> None:
        with contextlib.suppress(ConnectionClosed, WebSocketException):
            async for raw in watcher:
                m = json.loads(raw)
                if m.get("type") == "event":
                    events[str((m.get("event") or {}).get("kind"))] += 1

    task = asyncio.create_task(watch())
    print("ready", flush=True)
    until = Until(seconds)
    n = hands = 0
    while until:
        with contextlib.suppress(OSError, ConnectionClosed, WebSocketException, TimeoutError):
            async with await ws_from(url, ATTACKER) as ws:
                await ws.send('{"type":"hello","protocol":2}')
                await ws.send(json.dumps({"type": "sit", "name": f"Mallory{n}", "seat": 1 + n % 2}))
                end = time.monotonic() + 2
                while time.monotonic() < end:
                    raw = await asyncio.wait_for(ws.recv(), end - time.monotonic())
                    scan(raw)
                    m = json.loads(raw)
                    got = m.get("state") if m.get("type") == "event" else m
                    # a whole view, or a change of the hand: either shows it
                    view = m.get("view") or (got or {}).get("view") or m.get("changes")
                    if isinstance(view, dict) and view.get("hand"):
                        hands += 1  # a hand shown to a stranger who holds no seat yet
                    if m.get("type") in ("seated", "error"):
                        answers[m["type"] if m["type"] == "seated" else str(m.get("code"))] += 1
                        break
        n += 1
        await asyncio.sleep(0.5)
    task.cancel()
    await watcher.close()
    game = sum(events[k] for k in ("act", "start", "next", "wake"))
    _, info = request(port, "GET", f"/api/tables/{state['table']}")
    return {
        "asks": n,
        "answers": dict(answers),
        "events": dict(events),
        "game_events": game,
        "still_resting": bool(info["table"].get("resting")),
        "hands_shown": hands,
        "held": game == 0 and hands == 0,
    }


async def attack_storm(port: int, seconds: float, state: dict[str, Any]) -> dict[str, Any]:
    url = ws_url(port, state["table"])
    print("ready", flush=True)
    until = Until(seconds)
    outcome: Counter[str] = Counter()
    received = 0

    async def loop() -> None:
        nonlocal received
        while until:
            try:
                async with await ws_from(url, ATTACKER) as ws:
                    with contextlib.suppress(ConnectionClosed):
                        await ws.send('{"type":"hello","protocol":2}')
                    raw = await asyncio.wait_for(ws.recv(), 10)
                    scan(raw)
                    received += len(raw)
                    m = json.loads(raw)
                    outcome[
                        str(m.get("code")) if m.get("type") == "error" else str(m.get("type"))
                    ] += 1
            except (OSError, ConnectionClosed, WebSocketException, TimeoutError) as exc:
                outcome[type(exc).__name__] += 1

    await asyncio.gather(*(loop() for _ in range(30)))
    welcomes = outcome.get("welcome", 0) + outcome.get("state", 0)
    return {
        "outcomes": dict(outcome),
        "mbytes": received / 1e6,
        "welcomed_per_s": welcomes / seconds,
        "held": outcome.get("RATE_LIMITED", 0) > 0 and welcomes <= 60 + 5 * seconds + 30,
    }


async def attack_analysis_10(port: int, seconds: float, state: dict[str, Any]) -> dict[str, Any]:
    import httpx

    deals = list(range(1, int(state["deals"]) + 1))
    codes: Counter[str] = Counter()
    clients = [
        httpx.AsyncClient(
            base_url=f"http://127.0.0.1:{port}",
            transport=httpx.AsyncHTTPTransport(local_address=f"127.0.67.{a + 1}"),
            timeout=30.0,
        )
        for a in range(10)
    ]
    print("ready", flush=True)
    until = Until(seconds)

    async def worker(client: httpx.AsyncClient, k: int) -> None:
        order = deals[:]
        random.Random(k).shuffle(order)
        i = 0
        while until:
            n = order[i % len(order)]
            i += 1
            try:
                r = await client.get(f"/api/tables/{state['table']}/deals/{n}/analysis")
                codes[str(r.status_code)] += 1
                scan(r.content)
            except httpx.HTTPError as exc:
                codes[type(exc).__name__] += 1

    await asyncio.gather(*(worker(c, a * 6 + j) for a, c in enumerate(clients) for j in range(6)))
    for c in clients:
        await c.aclose()
    return {
        "answers": dict(codes),
        "per_s": sum(codes.values()) / seconds,
        "held": True,  # what counts here is the people's latency beside it
    }


async def attack_pool(port: int, seconds: float, state: dict[str, Any]) -> dict[str, Any]:
    small = small_file_maker()
    print("ready", flush=True)
    until = Until(seconds)
    codes: Counter[str] = Counter()
    out: dict[str, Any] = {}

    async def attacker(address: str, tag: str) -> None:
        n = 0
        while until:
            body = small(f"{tag}-{n}")  # distinct: nothing merges, nothing is cached
            n += 1
            status, data = await in_thread(
                partial(request, port, "POST", "/api/board?game=1", raw=body, source=address)
            )
            codes[code_of(status, data)] += 1
            if status == 429:
                await asyncio.sleep(0.5)

    await asyncio.gather(
        *(attacker(f"127.0.5.{a + 1}", f"{a}-{k}") for a in range(10) for k in range(2)),
        bystander_boards(port, until, small, out),
    )
    return {
        "answers": dict(codes),
        **out,
        "held": set(out["bystander_boards"]) == {"200"} and out["bystander_board_max_s"] < 5,
    }


CHILDREN: dict[str, Callable[[int, float, dict[str, Any]], Awaitable[dict[str, Any]]]] = {
    "upload": attack_upload,
    "tournament-view": attack_tournament_view,
    "tournament-tables": attack_tournament_tables,
    "claim": attack_claim,
    "lobby": attack_lobby,
    "entries": attack_entries,
    "wake": attack_wake,
    "storm": attack_storm,
    "analysis-10": attack_analysis_10,
    "pool": attack_pool,
}


def attack_child(args: argparse.Namespace) -> None:
    import concurrent.futures
    import resource

    # the attacker's own CPU would be another machine's: here it comes after
    # the server's and the measured clients' (its figures are printed)
    os.nice(args.attacker_nice)
    state = json.loads(Path(args.state).read_text())
    SECRETS.extend(state.get("secrets", []))

    async def run() -> dict[str, Any]:
        asyncio.get_running_loop().set_default_executor(
            concurrent.futures.ThreadPoolExecutor(max_workers=64)
        )
        return await CHILDREN[args.attack_child](args.port, args.seconds, state)

    out = asyncio.run(run())
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out["attacker_cpu"] = f"{(usage.ru_utime + usage.ru_stime) / args.seconds:.0%}"
    out["secrets_scanned"] = len(SECRETS)
    out["secrets_seen"] = dict(SEEN)
    if SEEN:
        out["held"] = False
    print(json.dumps(out, default=str), flush=True)


# ---------------------------------------------------------------- running
async def start_attack(
    name: str, port: int, args: argparse.Namespace, state: dict[str, Any], folder: Path
) -> asyncio.subprocess.Process:
    path = folder / "state.json"
    path.write_text(json.dumps(state))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.server.attacks", "--attack-child", name,
        "--port", str(port), "--seconds", str(args.seconds), "--state", str(path),
        "--attacker-nice", str(args.attacker_nice),
        stdout=asyncio.subprocess.PIPE, cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), 120)
    if line.strip() != b"ready":
        raise SystemExit(f"the attack {name} did not start: {line!r}")
    return proc


async def run_attack(name: str, args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    load0 = loadavg()
    server = AttackServer(folder, FLAGS.get(name, ()))
    measured = Measured(server, args)
    loop = asyncio.get_running_loop()
    try:
        t = time.perf_counter()
        prep = PREP.get(name)
        state = {} if prep is None else await loop.run_in_executor(None, prep, server.port, args)
        prepared = time.perf_counter() - t
        await measured.start()
        await asyncio.sleep(args.warmup)
        rows, base = await measured.window("baseline", args.seconds)
        proc = await start_attack(name, server.port, args, state, folder)
        attack_rows, loud = await measured.window("attack", args.seconds)
        out, _ = await asyncio.wait_for(proc.communicate(), args.seconds + 180)
        found = json.loads(out.decode().strip().splitlines()[-1])
        await measured.close()
    finally:
        server.stop()
    tracebacks = sum(1 for line in ServerLog(server.log).lines(0) if line.startswith("Traceback"))
    load1 = loadavg()
    rows = [("load average", f"{load0} -> {load1}"), ("prepared in", f"{prepared:.1f} s"),
            *rows, *attack_rows, ("the attack", json.dumps(found))]  # fmt: skip
    if tracebacks:
        rows.append(("server log", f"{tracebacks} tracebacks"))
    print_rows(name, rows)
    return {"load_start": load0, "load_end": load1, "baseline": base, "attack": loud,
            "found": found, "tracebacks": tracebacks}  # fmt: skip


def summary(results: dict[str, Any]) -> None:
    print("== summary (people p50/p99 ms, computer p50/max s: baseline -> attack)")
    for name, r in results.items():
        if not isinstance(r, dict) or "baseline" not in r:
            continue
        b, a = r["baseline"], r["attack"]
        print(
            f"  {name:<18} people {b['people_p50_s'] * 1e3:.1f}/{b['people_p99_s'] * 1e3:.1f} -> "
            f"{a['people_p50_s'] * 1e3:.1f}/{a['people_p99_s'] * 1e3:.1f}; computer "
            f"{b['computer_p50_s']:.2f}/{b['computer_max_s']:.2f} -> "
            f"{a['computer_p50_s']:.2f}/{a['computer_max_s']:.2f}; "
            f"goals {'met' if a['people_p99_s'] < 0.1 and a['computer_max_s'] < 1.5 else 'MISSED'}"
            f", held: {r['found'].get('held')}",
            flush=True,
        )


def _terminate(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--attack", nargs="+", choices=(*ATTACKS, "all"), default=["all"], metavar="NAME",
        help=f"one or more of {', '.join(ATTACKS)}, or all",
    )  # fmt: skip
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds per window")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before the baseline")
    parser.add_argument("--pace", type=float, default=2.0, help="a person's mean seconds per act")
    parser.add_argument("--people-tables", type=int, default=10, help="tables of three people")
    parser.add_argument("--computer-tables", type=int, default=3, help="a person, two computers")
    parser.add_argument("--entrants", type=int, default=160, help="tournament-view: entrants")
    parser.add_argument(
        "--attacker-nice", type=int, default=10, help="the attack process's niceness (0: none)"
    )
    parser.add_argument("--attack-child", choices=ATTACKS, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--state", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    raise_nofile(8192)
    if args.attack_child:
        attack_child(args)
        return
    names = list(ATTACKS) if "all" in args.attack else list(dict.fromkeys(args.attack))
    signal.signal(signal.SIGTERM, _terminate)
    results: dict[str, Any] = {}
    try:
        for name in names:
            with tempfile.TemporaryDirectory(prefix="skat-attack-") as tmp:
                results[name] = asyncio.run(run_attack(name, args, Path(tmp)))
    except KeyboardInterrupt:
        pass
    summary(results)
    print(json.dumps(results, default=str))


if __name__ == "__main__":
    main()
