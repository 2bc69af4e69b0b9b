"""One actor per table: every change goes through its queue (ARCHITECTURE.md).

Commands from humans, computer players, timers and the server itself are
handled one at a time: the table validates (the engine decides legality),
the store appends the events **before** anything is published, then every
connection receives its own projection. Computer players think off the
event loop in a thread pool, with a time budget per move.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from ..engine import Action, parse_action
from ..players import Player, make_player
from .protocol import encode, view_json
from .store import Store
from .table import CommandError, TableState

log = logging.getLogger("skat.server")
HISTORY = 256  # events kept for resending to a client that reconnects


@dataclass
class ServerConfig:
    """Tunables; tests set the delays to 0."""

    bot_delay: float = 0.8  # seconds before a computer player's move is shown
    next_delay: float = 6.0  # seconds between a settled deal and the next one
    grace: float = 30.0  # seconds a disconnected human keeps the turn
    bot_budget: float = 2.0  # seconds a computer player may think
    idle_timeout: float = 6 * 3600.0  # an idle unfinished table expires
    rate: float = 10.0  # messages per second per connection (sustained)
    burst: float = 30.0
    allowed_origins: tuple[str, ...] | None = None  # None: same host only


class Conn:
    """A websocket connection as the actor sees it."""

    def __init__(self, send: Callable[[str], Awaitable[None]], config: ServerConfig) -> None:
        self._send = send
        self.seat: int | None = None
        self.token: str | None = None
        self.muted: set[int] = set()
        self.closed = False
        self._allowance = config.burst
        self._rate = config.rate
        self._burst = config.burst
        self._last = time.monotonic()

    def allow(self) -> bool:
        """Token bucket: False when the client sends faster than allowed."""
        now = time.monotonic()
        self._allowance = min(self._burst, self._allowance + (now - self._last) * self._rate)
        self._last = now
        if self._allowance < 1:
            return False
        self._allowance -= 1
        return True

    async def send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        try:
            await self._send(encode(message))
        except Exception:  # the socket went away; the endpoint cleans up
            self.closed = True


@dataclass
class Command:
    kind: str  # sit act next fill start leave reclaim chat react timeout bot_act hello expire
    conn: Conn | None = None
    data: dict[str, Any] = field(default_factory=dict)
    version: int | None = None
    done: asyncio.Future[None] | None = None


class TableActor:
    def __init__(
        self, state: TableState, store: Store, pool: Executor, config: ServerConfig
    ) -> None:
        self.state = state
        self.store = store
        self.pool = pool
        self.config = config
        self.queue: asyncio.Queue[Command] = asyncio.Queue()
        self.conns: set[Conn] = set()
        self.history: deque[tuple[int, str, dict[str, Any]]] = deque(maxlen=HISTORY)
        self.gone_since: dict[int, float] = {}
        self.last_event = time.time()
        self._task: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._bots: dict[int, Player] = {}
        self.on_again: Callable[[TableState], Awaitable[str]] | None = None

    # ---------------------------------------------------------------- life
    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"table-{self.state.id}")
            self._schedule()

    async def stop(self) -> None:
        for t in (self._timer, self._task):
            if t is not None:
                t.cancel()
        for t in (self._timer, self._task):
            if t is not None:
                try:
                    await t
                except (asyncio.CancelledError, Exception):
                    pass
        self._task = self._timer = None

    async def submit(self, cmd: Command) -> None:
        """Queue a command and wait until it has been handled."""
        cmd.done = asyncio.get_running_loop().create_future()
        await self.queue.put(cmd)
        await cmd.done

    def connected_seats(self) -> set[int]:
        return {c.seat for c in self.conns if c.seat is not None and not c.closed}

    # ---------------------------------------------------------------- loop
    async def _run(self) -> None:
        while True:
            cmd = await self.queue.get()
            try:
                await self._handle(cmd)
            except CommandError as exc:
                if cmd.conn is not None:
                    await cmd.conn.send({"type": "error", "code": exc.code, "message": exc.message})
            except Exception:  # a bug must not kill the table
                log.exception("table %s: command %s failed", self.state.id, cmd.kind)
                if cmd.conn is not None:
                    await cmd.conn.send(
                        {"type": "error", "code": "SERVER_ERROR", "message": "internal error"}
                    )
            finally:
                if cmd.done is not None and not cmd.done.done():
                    cmd.done.set_result(None)

    async def _handle(self, cmd: Command) -> None:
        st = self.state
        conn = cmd.conn
        k = cmd.kind
        d = cmd.data
        if k == "hello":
            await self._hello(cmd)
            return
        if k == "disconnect":
            self._schedule()
            return
        if k in ("sit", "act", "next", "leave", "reclaim", "again") and st.status == "expired":
            raise CommandError("TABLE_CLOSED", "this table has expired")
        events: list[tuple[str, dict[str, Any]]]
        if k == "sit":
            assert conn is not None
            if conn.seat is not None:
                raise CommandError("ALREADY_SEATED", "you have a seat at this table")
            events = st.plan_sit(d["name"], d.get("seat"), d["token_hash"])
        elif k == "fill" or k == "start":
            if not st.is_creator(d["creator"]):
                raise CommandError("NOT_CREATOR", "only the table's creator can do that")
            events = st.plan_fill() if k == "fill" else st.plan_start()
        elif k == "act":
            seat = self._seat(conn)
            events = st.plan_act(seat, d["action"], cmd.version)
        elif k == "bot_act":
            if cmd.version != st.version:
                return  # the table moved on while the computer player thought
            seat = d["seat"]
            events = st.plan_act(seat, d["action"], None, auto=st.seats[seat].bot is None)
        elif k == "timeout":
            seat = d["seat"]
            if cmd.version != st.version or st.to_move() != seat or st.seats[seat].auto:
                return
            events = [("auto", {"seat": seat, "on": True})]
        elif k == "next":
            if conn is not None:
                self._seat(conn)
            elif not st.deal_over():
                return
            events = st.plan_next()
        elif k == "leave":
            seat = self._seat(conn)
            events = st.plan_leave(seat, d.get("keep_bot", True))
            assert conn is not None
            conn.seat = None
        elif k == "reclaim":
            seat = self._seat(conn)
            if not st.seats[seat].auto:
                return
            events = [("auto", {"seat": seat, "on": False})]
        elif k == "chat":
            events = st.plan_chat(conn.seat if conn else None, d["text"])
        elif k == "react":
            events = st.plan_react(conn.seat if conn else None, d["emoji"])
        elif k == "again":
            self._seat(conn)
            if st.status != "finished":
                raise CommandError("WRONG_PHASE", "the list is not over")
            if st.next_table is None:
                assert self.on_again is not None
                new_id = await self.on_again(st)
                events = [("again", {"table": new_id})]
            else:
                events = []
        elif k == "expire":
            if st.status in ("finished", "expired"):
                return
            events = [("expire", {})]
        else:
            raise CommandError("BAD_MESSAGE", f"unknown command {k}")
        for kind, payload in events:
            await self._commit(kind, payload)
        if k == "sit" and conn is not None:
            conn.seat = events[0][1]["seat"]
            await conn.send(
                {"type": "seated", "seat": conn.seat, "token": d["token"], "version": st.version}
            )
            await conn.send(st.snapshot(conn.seat, self.connected_seats(), conn.muted))
        self._schedule()

    def _seat(self, conn: Conn | None) -> int:
        if conn is None or conn.seat is None:
            raise CommandError("NOT_SEATED", "take a seat first")
        return conn.seat

    async def _commit(self, kind: str, payload: dict[str, Any]) -> None:
        """Persist, apply, publish: in this order."""
        st = self.state
        before = st.status
        await self.store.append(st.id, st.version + 1, kind, payload)
        st.apply(kind, payload)
        self.last_event = time.time()
        if st.status != before:
            await self.store.set_status(st.id, st.status)
        self.history.append((st.version, kind, payload))
        await self._publish(kind, payload)

    async def _publish(self, kind: str, payload: dict[str, Any]) -> None:
        st = self.state
        seats = self.connected_seats()
        sheet_changed = kind in ("start", "next") or (
            kind == "act" and st.series is not None and st.series.deal.is_terminal()
        )
        for conn in list(self.conns):
            await conn.send(
                self._event_message(conn, st.version, kind, payload, seats, full=sheet_changed)
            )

    def _event_message(
        self,
        conn: Conn,
        version: int,
        kind: str,
        payload: dict[str, Any],
        seats: set[int],
        full: bool,
    ) -> dict[str, Any]:
        st = self.state
        event = st.public_event(kind, payload, conn.seat)
        if kind == "chat" and payload.get("seat") in conn.muted:
            event = {"kind": "chat", "muted": True, "seat": payload.get("seat")}
        msg: dict[str, Any] = {"type": "event", "version": version, "event": event}
        if full:
            msg["state"] = st.snapshot(conn.seat, seats, conn.muted)
        elif st.series is not None:
            deal = st.series.deal
            msg["view"] = view_json(deal.view(conn.seat))
            msg["seats"] = (
                st.snapshot(conn.seat, seats)["seats"]
                if kind in ("sit", "bot", "leave", "auto")
                else None
            )
        return msg

    async def _hello(self, cmd: Command) -> None:
        st = self.state
        conn = cmd.conn
        assert conn is not None
        token = cmd.data.get("token")
        seat = st.seat_of_token(token) if token else None
        if token and seat is None:
            await conn.send(
                {"type": "error", "code": "BAD_TOKEN", "message": "unknown seat token; watching"}
            )
        conn.seat = seat
        conn.token = token if seat is not None else None
        self.conns.add(conn)
        if seat is not None:
            self.gone_since.pop(seat, None)
        await conn.send({"type": "welcome", "table": st.id, "seat": seat, "version": st.version})
        last = cmd.data.get("last_version")
        oldest = self.history[0][0] if self.history else st.version + 1
        if isinstance(last, int) and 0 <= last <= st.version and last + 1 >= oldest:
            for version, kind, payload in self.history:
                if version > last:
                    event = st.public_event(kind, payload, seat)
                    await conn.send(
                        {"type": "event", "version": version, "event": event, "replayed": True}
                    )
        await conn.send(st.snapshot(seat, self.connected_seats(), conn.muted))
        if seat is not None and st.seats[seat].auto:
            await self._commit("auto", {"seat": seat, "on": False})  # the human is back
        self._schedule()

    async def disconnect(self, conn: Conn) -> None:
        conn.closed = True
        self.conns.discard(conn)
        if conn.seat is not None and conn.seat not in self.connected_seats():
            self.gone_since[conn.seat] = time.monotonic()
            await self.queue.put(Command("disconnect"))

    # ----------------------------------------------------- bots and timers
    def _schedule(self) -> None:
        if self._timer is not None and not self._timer.done():
            self._timer.cancel()
        self._timer = None
        st = self.state
        if st.status != "playing" or st.series is None:
            return
        if st.deal_over():
            self._timer = asyncio.create_task(self._later(self.config.next_delay, Command("next")))
            return
        seat = st.to_move()
        if seat is None:
            return
        s = st.seats[seat]
        if s.bot is not None or s.auto:
            self._timer = asyncio.create_task(self._bot_move(seat, st.version))
            return
        delays = []
        if st.settings.timer:
            delays.append(float(st.settings.timer))
        if seat not in self.connected_seats():
            since = self.gone_since.setdefault(seat, time.monotonic())
            delays.append(max(0.0, self.config.grace - (time.monotonic() - since)))
        if delays:
            cmd = Command("timeout", data={"seat": seat}, version=st.version)
            self._timer = asyncio.create_task(self._later(min(delays), cmd))

    async def _later(self, delay: float, cmd: Command) -> None:
        await asyncio.sleep(delay)
        cmd.version = self.state.version if cmd.version is None else cmd.version
        await self.queue.put(cmd)

    def _bot(self, seat: int) -> Player:
        name = self.state.seats[seat].bot or self.state.settings.bot
        player = self._bots.get(seat)
        if player is None or player.name != name:
            player = make_player(name, random.Random())
            self._bots[seat] = player
        return player

    async def _bot_move(self, seat: int, version: int) -> None:
        st = self.state
        assert st.series is not None
        view = st.series.deal.view(seat)
        player = self._bot(seat)
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            action: Action = await asyncio.wait_for(
                loop.run_in_executor(self.pool, player.choose, view), self.config.bot_budget
            )
        except (TimeoutError, Exception):
            log.warning(
                "table %s: computer player in seat %s failed; first legal action", st.id, seat
            )
            action = view.legal_actions[0]
        rest = self.config.bot_delay - (loop.time() - started)
        if rest > 0:
            await asyncio.sleep(rest)
        await self.queue.put(
            Command("bot_act", data={"seat": seat, "action": str(action)}, version=version)
        )


def rebuild(state: TableState, events: list[Any]) -> None:
    """Apply stored events to a fresh state (recovery)."""
    for e in events:
        if e.version != state.version + 1:
            raise RuntimeError(f"table {state.id}: event {e.version} after {state.version}")
        state.apply(e.kind, e.payload)


__all__ = ["Command", "Conn", "ServerConfig", "TableActor", "parse_action", "rebuild"]
