"""A real `skat serve` process on a free loopback port (on the test store,
tests/helpers/stores.py), websocket humans that play by themselves and
remember every acknowledged action, and the kill-and-restart scenario of
the recovery tests."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from skat.series.record import verify_list
from skat.server.messages import ViewKeeper
from tests.helpers.stores import Db

START_TIMEOUT = 20.0  # seconds for the server to answer /healthz
PLAY_TIMEOUT = 20.0  # seconds for one stretch of play
MAX_MESSAGES = 5000  # per connection


# ----------------------------------------------------------------------- server
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    port: int
    db: Db
    log: Path
    proc: subprocess.Popen[bytes] | None = None
    starts: int = 0
    extra: list[str] = field(default_factory=list)  # more `skat serve` options

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        assert self.proc is None or self.proc.poll() is not None
        self.starts += 1
        cmd = [
            sys.executable, "-m", "skat.cli", "serve",
            "--host", "127.0.0.1", "--port", str(self.port),
            "--db", self.db.url,
            "--bot-delay", "0", "--next-delay", "0", "--next-delay-people", "0",
            "--solo-next", "countdown", "--grace", "30",
            "--log-level", "warning", *self.extra,
        ]  # fmt: skip
        with self.log.open("ab") as out:
            out.write(f"--- start {self.starts}\n".encode())
            out.flush()
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited ({self.proc.returncode}):\n{self.tail()}")
            try:
                with urllib.request.urlopen(f"{self.http}/healthz", timeout=1) as r:
                    if json.load(r).get("ok"):
                        return
            except (OSError, ValueError):
                pass
            time.sleep(0.05)
        raise AssertionError(f"the server did not answer /healthz:\n{self.tail()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers, no flushing, like a crash."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(f"{self.http}{path}", timeout=5) as r:
            return json.load(r)

    def answer(self, path: str, body: Any, timeout: float = 60) -> tuple[int, Any]:
        """POST ``body`` as JSON: the status and the JSON answer, a refusal's too."""
        req = urllib.request.Request(
            f"{self.http}{path}",
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.load(r)
        except urllib.error.HTTPError as exc:
            return exc.code, json.load(exc)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        req = urllib.request.Request(
            f"{self.http}{path}",
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=5) as r:
            return json.load(r)


# ----------------------------------------------------------------------- client
def choose(view: dict[str, Any], rng: random.Random) -> str:
    """A legal action that keeps deals long: suit or grand games, all ten tricks."""
    legal: list[str] = view["legal"]
    if view["phase"] == "bidding":
        if "bid 18" in legal:
            return "bid 18"
        return "pass" if "pass" in legal else legal[0]
    if "pickup" in legal:
        return "pickup"
    if view["phase"] == "declare":
        plain = [a for a in legal if "null" not in a and len(a.split()) == 2]
        if plain:
            return rng.choice(plain)
    return rng.choice(legal)


@dataclass
class Human:
    name: str
    rng: random.Random
    seat: int | None = None
    token: str | None = None
    ws: ClientConnection | None = None
    last_version: int = 0  # the highest version seen in any message
    view: dict[str, Any] | None = None
    view_version: int = -1
    deal: int = 0  # the deal number of the last full state
    acted: int | None = None  # the version of our pending act
    acked: list[tuple[int, int, str]] = field(default_factory=list)  # (version, seat, action)
    sent: list[tuple[int, str]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    welcomes: list[dict[str, Any]] = field(default_factory=list)
    states: list[int] = field(default_factory=list)  # versions of state messages
    over: bool = False
    keeper: ViewKeeper = field(default_factory=ViewKeeper)  # the view, its changes applied

    async def connect(self, url: str, last_version: int | None = None) -> None:
        self.ws = await connect(url, open_timeout=5, max_size=2**20)
        hello: dict[str, Any] = {"type": "hello", "protocol": 2}
        if self.token is not None:
            hello["token"] = self.token
        if last_version is not None:
            hello["last_version"] = last_version
        await self.ws.send(json.dumps(hello))
        self.keeper = ViewKeeper()
        self.acted = None  # an act not acknowledged before a crash may be lost: act again

    async def sit(self, profile: str | None = None) -> None:
        """Sit down (with the key of a profile, issue 48, when given)."""
        assert self.ws is not None
        sit = {"type": "sit", "name": self.name}
        if profile is not None:
            sit["profile"] = profile
        await self.ws.send(json.dumps(sit))
        deadline = time.monotonic() + 5
        while self.token is None and time.monotonic() < deadline:
            m = json.loads(await asyncio.wait_for(self.ws.recv(), 5))
            self._note(m)
        assert self.token is not None, "no seat"

    def _note(self, m: dict[str, Any]) -> dict[str, Any] | None:
        """Book-keeping of one message; returns its state, if it has one."""
        v = m.get("version")
        if isinstance(v, int):
            self.last_version = max(self.last_version, v)
        t = m.get("type")
        if t == "seated":
            self.seat, self.token = m["seat"], m["token"]
        elif t == "welcome":
            self.welcomes.append(m)
        elif t == "error":
            self.errors.append(m)
        elif t == "event" and m["event"]["kind"] == "act":
            e = m["event"]
            self.acked.append((m["version"], e["seat"], e["action"]))
        state = m.get("state") if t == "event" else m if t == "state" else None
        if state is not None:
            self.states.append(state["version"])
            if "deal" in state:
                self.deal = state["deal"]["number"]
            if state.get("list_over"):
                self.over = True
        if not self.keeper.note(m):  # a change lost: the whole state again
            self.errors.append({"code": "LOST_CHANGE", "version": m["version"]})
        view = self.keeper.view
        if view is not None and t in ("event", "state") and not m.get("replayed"):
            self.view, self.view_version = view, m["version"]
        return state

    async def _maybe_act(self) -> None:
        view = self.view
        if self.ws is None or view is None or self.over:
            return
        if view["turn"] != self.seat or not view["legal"] or self.acted == self.view_version:
            return
        action = choose(view, self.rng)
        self.acted = self.view_version
        self.sent.append((self.view_version, action))
        await self.ws.send(
            json.dumps({"type": "act", "action": action, "version": self.view_version})
        )

    async def play(self, trigger: Callable[[Human], bool] | None, fired: asyncio.Event) -> str:
        """Play until the list is over ("over") or the connection drops ("closed")."""
        assert self.ws is not None
        deadline = time.monotonic() + PLAY_TIMEOUT
        for _ in range(MAX_MESSAGES):
            if time.monotonic() > deadline:
                return "timeout"
            try:
                raw = await asyncio.wait_for(self.ws.recv(), 0.3)
            except TimeoutError:
                with contextlib.suppress(ConnectionClosed):
                    await self._maybe_act()  # e.g. after a refused act
                continue
            except ConnectionClosed:
                return "closed"
            m = json.loads(raw)
            self._note(m)
            if m["type"] == "error":
                # RATE_LIMITED or STALE_VERSION: the act was refused; try again later
                self.acted = None
                await asyncio.sleep(0.15)
                continue
            if self.over:
                return "over"
            if trigger is not None and not fired.is_set() and trigger(self):
                fired.set()
            with contextlib.suppress(ConnectionClosed):
                await self._maybe_act()
        return "too many messages"

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


# ----------------------------------------------------------------------- checks
def _db_events(db: Db, table_id: str) -> list[tuple[int, str, dict[str, Any]]]:
    rows = db.rows(
        "SELECT version, kind, payload FROM skat_events WHERE table_id = :t ORDER BY version",
        t=table_id,
    )
    status = db.rows("SELECT status FROM skat_tables WHERE id = :t", t=table_id)
    assert status == [("finished",)]
    return [(v, k, json.loads(p)) for v, k, p in rows]


def _check(
    server: Server,
    table_id: str,
    humans: list[Human],
    acked_before: dict[str, list[tuple[int, int, str]]],
) -> None:
    events = _db_events(server.db, table_id)
    versions = [v for v, _, _ in events]
    assert versions == list(range(1, len(versions) + 1)), "event versions are not 1..N"
    for h in humans:
        assert h.over, f"{h.name} did not see the end of the list"
        assert h.last_version == versions[-1], (h.name, h.last_version, versions[-1])

    info = server.get(f"/api/tables/{table_id}")
    assert info["table"]["status"] == "finished"
    assert info["list_over"] is True
    assert info["version"] == versions[-1]

    record = server.get(f"/api/tables/{table_id}/list.json")
    assert verify_list(record) == []
    assert len(record["deals"]) == 3

    # the act events of the log, deal by deal, are exactly the record's actions
    where: dict[int, tuple[int, int]] = {}  # version -> (deal index, move index)
    logged: list[list[list[Any]]] = [[]]
    for v, kind, payload in events:
        if kind == "next":
            logged.append([])
        elif kind == "act":
            where[v] = (len(logged) - 1, len(logged[-1]))
            logged[-1].append([payload["seat"], payload["action"]])
    assert logged == [d["actions"] for d in record["deals"]]

    # every acknowledged action: in the record exactly once, at its version
    by_version = {v: (k, p) for v, k, p in events}
    assert any(acked_before.values()), "no action was acknowledged before the kill"
    for name, acked in acked_before.items():
        seen = [v for v, _, _ in acked]
        assert len(seen) == len(set(seen)), f"{name} saw a version twice: {seen}"
        for version, seat, action in acked:
            kind, payload = by_version[version]
            assert kind == "act", (name, version, kind)
            assert payload["seat"] == seat, (name, version, payload)
            if action == "discard":  # another player's discard is hidden
                assert payload["action"].startswith("discard ")
            else:
                assert payload["action"] == action, (name, version, payload, action)
            d, i = where[version]
            assert record["deals"][d]["actions"][i] == [seat, payload["action"]]
    # exactly once: the log has one row per version, and the record holds the
    # log's act events one to one (checked above), so each acknowledged action
    # occupies exactly one place in the record
    assert sum(len(d["actions"]) for d in record["deals"]) == len(where)
    # acts each human sent and saw acknowledged are its own, at the right seat
    for h in humans:
        own = [(v, a) for v, s, a in acked_before[h.name] if s == h.seat]
        assert all(by_version[v][1]["seat"] == h.seat for v, _ in own)


# --------------------------------------------------------------------- scenario
async def scenario(server: Server, trigger: Callable[[Human], bool], seed: int) -> None:
    server.start()
    table = server.post("/api/tables", {"rounds": 1, "players": 3})
    table_id, creator = table["id"], table["creator"]
    url = f"{server.ws}/ws/{table_id}"
    humans = [Human("Anna", random.Random(seed)), Human("Bert", random.Random(seed + 1))]
    try:
        for h in humans:
            await h.connect(url)
            await h.sit()
        assert {h.seat for h in humans} == {0, 1}
        assert humans[0].ws is not None
        await humans[0].ws.send(json.dumps({"type": "fill", "creator": creator}))

        fired = asyncio.Event()
        plays = [asyncio.create_task(h.play(trigger, fired)) for h in humans]
        waiter = asyncio.create_task(fired.wait())
        done, _ = await asyncio.wait(
            [waiter, *plays], timeout=PLAY_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
        )
        waiter.cancel()
        assert fired.is_set(), (
            f"the kill point was not reached: {[p.result() for p in done if p in plays]}"
        )
        server.kill()
        results = await asyncio.gather(*plays)
        assert results == ["closed", "closed"], results
        acked_before = {h.name: list(h.acked) for h in humans}
        last = {h.name: h.last_version for h in humans}
        for h in humans:
            assert h.errors == [] or all(
                e["code"] in ("RATE_LIMITED", "STALE_VERSION") for e in h.errors
            ), h.errors

        server.start()  # same port, same database
        for h in humans:
            await h.connect(url, last_version=last[h.name])
        fired2 = asyncio.Event()
        results = await asyncio.gather(*(h.play(None, fired2) for h in humans))
        assert results == ["over", "over"], (results, server.tail())
        for h in humans:
            welcome = h.welcomes[-1]
            assert welcome["seat"] == h.seat, "the token was not recognised after the restart"
            assert welcome["version"] >= last[h.name], "the table went back in time"
            assert h.states == sorted(h.states), "a state went back in time"
            bad = [e for e in h.errors if e["code"] not in ("RATE_LIMITED", "STALE_VERSION")]
            assert bad == [], bad
        _check(server, table_id, humans, acked_before)
    finally:
        for h in humans:
            with contextlib.suppress(Exception):
                await h.close()


def mid_deal_2(h: Human) -> bool:
    v = h.view
    return h.deal == 2 and v is not None and v["phase"] == "play" and len(v["tricks"]) >= 3


def bidding_deal_1(h: Human) -> bool:
    v = h.view
    return h.deal == 1 and v is not None and v["phase"] == "bidding" and len(v["history"]) >= 1


# ------------------------------------------------- watching and playing a table
class Watcher:
    """A spectator of one table: the acts it was sent, in order."""

    def __init__(self) -> None:
        self.ws: ClientConnection | None = None
        self.acts: list[tuple[int, int, str]] = []  # (version, seat, action)
        self.errors: list[dict[str, Any]] = []

    async def run(self, url: str, creator: str | None, stop: asyncio.Event) -> None:
        self.ws = await connect(url, open_timeout=5, max_size=2**20)
        await self.ws.send(json.dumps({"type": "hello", "protocol": 2}))
        if creator is not None:  # every seat a computer player's
            await self.ws.send(json.dumps({"type": "fill", "creator": creator}))
        with contextlib.suppress(ConnectionClosed):
            while not stop.is_set():
                try:
                    m = json.loads(await asyncio.wait_for(self.ws.recv(), 0.3))
                except TimeoutError:
                    continue
                if m["type"] == "event" and m["event"]["kind"] == "act":
                    e = m["event"]
                    self.acts.append((m["version"], e["seat"], e["action"]))
                elif m["type"] == "error":
                    self.errors.append(m)
        await self.ws.close()


async def play_on(h: Human, url: str, creator: str, stop: asyncio.Event) -> None:
    """A person at a table with two computer players, playing on every turn
    (an act the server could not store is sent again, as the page's player would)."""
    await h.connect(url)
    await h.sit()
    assert h.ws is not None
    await h.ws.send(json.dumps({"type": "fill", "creator": creator}))
    with contextlib.suppress(ConnectionClosed):
        while not stop.is_set():
            try:
                m = json.loads(await asyncio.wait_for(h.ws.recv(), 0.3))
            except TimeoutError:
                await h._maybe_act()
                continue
            h._note(m)
            if m["type"] == "error":
                h.acted = None
                await asyncio.sleep(0.15)
            await h._maybe_act()
    await h.close()
