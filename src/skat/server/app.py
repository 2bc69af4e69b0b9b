"""The Starlette app: explicit routes, a lifespan that opens the store and
restores every unfinished table, and the websocket edge that parses client
messages once and hands them to the table's actor."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..engine import GameRecord
from ..engine.iss import to_iss
from ..players import player_names
from ..series import ListOptions, commitment, new_seed
from . import protocol as p
from .actor import HISTORY, Command, Conn, ServerConfig, TableActor, rebuild
from .store import Store, StoredTable
from .table import TIMERS, Settings, TableState, hash_token

log = logging.getLogger("skat.server")
MAX_BODY = 4096
WEB = Path(__file__).resolve().parent.parent / "web"


class Tables:
    """The live actors, created or restored on demand."""

    def __init__(self, store: Store, config: ServerConfig) -> None:
        self.store = store
        self.config = config
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bots")
        self.actors: dict[str, TableActor] = {}
        self._lock = asyncio.Lock()

    async def create(self, options: ListOptions, settings: Settings) -> tuple[str, str]:
        table_id = secrets.token_urlsafe(9)
        creator = secrets.token_urlsafe(24)
        seed = new_seed()
        config = {"options": options.to_dict(), "settings": settings.to_dict()}
        now = time.time()
        await self.store.create_table(
            StoredTable(
                table_id,
                now,
                now,
                "open",
                config,
                seed.hex(),
                commitment(seed),
                hash_token(creator),
            )
        )
        return table_id, creator

    def _state(self, t: StoredTable) -> TableState:
        return TableState(
            id=t.id,
            options=ListOptions.from_dict(t.config["options"]),
            settings=Settings(**t.config["settings"]),
            seed=bytes.fromhex(t.seed),
            creator_hash=t.creator_hash,
        )

    async def load(self, table_id: str) -> TableState | None:
        """A table's state rebuilt from the store (also for finished tables)."""
        loaded = await self._load(table_id)
        return None if loaded is None else loaded[0]

    async def _load(self, table_id: str) -> tuple[TableState, list[Any]] | None:
        t = await self.store.table(table_id)
        if t is None:
            return None
        state = self._state(t)
        events = await self.store.events(table_id)
        rebuild(state, events)
        return state, events

    async def actor(self, table_id: str) -> TableActor | None:
        async with self._lock:
            actor = self.actors.get(table_id)
            if actor is not None:
                return actor
            loaded = await self._load(table_id)
            if loaded is None:
                return None
            state, events = loaded
            actor = TableActor(state, self.store, self.pool, self.config)
            # recent events, so that clients reconnecting after a restart get what they missed
            actor.history.extend((e.version, e.kind, e.payload) for e in events[-HISTORY:])
            actor.on_again = self.again
            self.actors[table_id] = actor
            actor.start()
            return actor

    async def restore(self) -> int:
        """Start an actor for every unfinished table (after a restart)."""
        stored = await self.store.tables(("open", "playing"))
        for t in stored:
            await self.actor(t.id)
        return len(stored)

    async def again(self, old: TableState) -> str:
        """A new list with the same people: same options, seats and tokens."""
        table_id, _ = await self.create(old.options, old.settings)
        version = 0
        for i, s in enumerate(old.seats):
            if s.human:
                kind, payload = "sit", {"seat": i, "name": s.name, "token_hash": s.token_hash}
            else:
                kind, payload = "bot", {"seat": i, "bot": s.bot or old.settings.bot}
            version += 1
            await self.store.append(table_id, version, kind, payload)
        await self.store.append(table_id, version + 1, "start", {}, status="playing")
        await self.actor(table_id)
        return table_id

    async def sweep(self) -> None:
        """Expire idle unfinished tables; drop finished ones from memory."""
        now = time.time()
        for table_id, actor in list(self.actors.items()):
            idle = now - actor.last_event
            if actor.state.status in ("open", "playing") and idle > self.config.idle_timeout:
                await actor.submit(Command("expire"))
            if actor.state.status in ("finished", "expired") and not actor.conns and idle > 60:
                await actor.stop()
                self.actors.pop(table_id, None)

    async def close(self) -> None:
        for actor in self.actors.values():
            await actor.stop()
        self.pool.shutdown(wait=False, cancel_futures=True)


def _json_error(code: str, message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def create_app(db_url: str, config: ServerConfig | None = None) -> Starlette:
    """The app factory (ARCHITECTURE.md practice 12)."""
    config = config or ServerConfig()
    store = Store(db_url)
    tables = Tables(store, config)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await store.open()
        restored = await tables.restore()
        log.info("store %s open; %d unfinished table(s) restored", db_url, restored)

        async def sweeper() -> None:
            while True:
                await asyncio.sleep(min(60.0, config.idle_timeout / 2))
                try:
                    await tables.sweep()
                except Exception:
                    log.exception("sweep failed")

        task = asyncio.create_task(sweeper())
        app.state.tables = tables
        try:
            yield
        finally:
            task.cancel()
            await tables.close()
            await store.close()

    async def index(request: Request) -> Response:
        page = WEB / "index.html"
        if page.exists():
            return HTMLResponse(page.read_text(encoding="utf-8"))
        return HTMLResponse(
            "<!doctype html><title>skat</title><h1>skat server</h1>"
            "<p>Create a table with <code>POST /api/tables</code>; play over <code>/ws/TABLE</code>"
            " (docs/protocol.md).</p>"
        )

    async def create_table(request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_BODY:
            return _json_error("TOO_LARGE", "request too large", 413)
        try:
            data = json.loads(body or b"{}")
            if not isinstance(data, dict):
                raise ValueError("a JSON object is expected")
            rounds = data.pop("rounds", None)
            bot = data.pop("bot", "heuristic")
            timer = data.pop("timer", 0)
            if bot not in player_names():
                raise ValueError(f"unknown computer player {bot!r}")
            if timer not in TIMERS:
                raise ValueError(f"timer must be one of {TIMERS}")
            players = data.get("players", 3)
            if rounds is not None:
                if not isinstance(rounds, int) or not 1 <= rounds <= 12:
                    raise ValueError("rounds must be 1..12")
                data["deals"] = rounds * players
            options = ListOptions.from_dict(data)
        except (ValueError, TypeError) as exc:
            return _json_error("BAD_OPTIONS", str(exc))
        table_id, creator = await tables.create(options, Settings(bot=bot, timer=timer))
        return JSONResponse(
            {"id": table_id, "url": f"/t/{table_id}", "ws": f"/ws/{table_id}", "creator": creator},
            status_code=201,
        )

    async def _state(request: Request) -> TableState | None:
        table_id = request.path_params["table_id"]
        actor = tables.actors.get(table_id)
        return actor.state if actor is not None else await tables.load(table_id)

    async def table_info(request: Request) -> Response:
        state = await _state(request)
        if state is None:
            return _json_error("NO_TABLE", "no such table", 404)
        actor = tables.actors.get(state.id)
        return JSONResponse(state.snapshot(None, actor.connected_seats() if actor else set()))

    async def download(request: Request) -> Response:
        state = await _state(request)
        if state is None:
            return _json_error("NO_TABLE", "no such table", 404)
        if state.series is None:
            return _json_error("NOT_STARTED", "the list has not started", 409)
        kind = request.path_params["kind"]
        record = state.record()
        if not state.series.is_over() and not state.series.deal.is_terminal():
            # The deal in play is not published: its deck holds hidden cards (R3.7).
            record["deals"] = record["deals"][:-1]
        if kind == "list.json":
            return JSONResponse(
                record,
                headers={"content-disposition": f'attachment; filename="skat-{state.id}.json"'},
            )
        if kind == "sheet.csv":
            from ..sheetview import sheet_csv

            return PlainTextResponse(sheet_csv(state.series), media_type="text/csv")
        if kind == "games.iss":
            lines = []
            for i, deal in enumerate(state.series.deals, 1):
                if not deal.is_terminal():
                    continue
                try:
                    lines.append(to_iss(GameRecord.from_deal(deal, id=f"{state.id}-{i}")))
                except ValueError:
                    continue
            return PlainTextResponse("\n".join(lines) + ("\n" if lines else ""))
        return _json_error("NO_FILE", "no such download", 404)

    async def table_page(request: Request) -> Response:
        return await index(request)

    async def value_api(request: Request) -> Response:
        """The game-value reckoner of the calculator page (same as ``skat value``)."""
        from ..engine.reckoner import ReckonerError, reckon, reckon_ramsch

        body = await request.body()
        if len(body) > MAX_BODY:
            return _json_error("TOO_LARGE", "request too large", 413)
        try:
            data = json.loads(body or b"{}")
            if not isinstance(data, dict):
                raise ValueError("a JSON object is expected")
            allowed = {
                "game", "cards", "matadors", "hand", "schneider_announced", "schwarz_announced",
                "ouvert", "bid", "points", "tricks", "kontra", "re", "bock", "players",
            }  # fmt: skip
            unknown = set(data) - allowed
            if unknown:
                raise ValueError(f"unknown field(s): {', '.join(sorted(unknown))}")
            game = data.pop("game", None)
            if not isinstance(game, str):
                raise ValueError("game is required")
            if game == "ramsch":  # R9.1: points (and tricks) per player, in seat order
                extra = set(data) - {"points", "tricks", "bock", "players"}
                if extra:
                    raise ValueError(f"not for Ramsch: {', '.join(sorted(extra))}")
                return JSONResponse(reckon_ramsch(**data).to_dict())
            for key in (
                "hand",
                "schneider_announced",
                "schwarz_announced",
                "ouvert",
                "kontra",
                "re",
                "bock",
            ):
                if key in data and not isinstance(data[key], bool):
                    raise ValueError(f"{key} must be true or false")
            for key in ("matadors", "bid", "points", "tricks", "players"):
                if data.get(key) is not None and (
                    not isinstance(data[key], int) or isinstance(data[key], bool)
                ):
                    raise ValueError(f"{key} must be a number")
            if data.get("cards") is not None and not isinstance(data["cards"], str):
                raise ValueError("cards must be a string")
            result = reckon(game, **data)
        except ReckonerError as exc:
            return _json_error(exc.code, exc.message)
        except (ValueError, TypeError) as exc:
            return _json_error("BAD_REQUEST", str(exc))
        return JSONResponse(result.to_dict())

    async def healthz(request: Request) -> Response:
        return JSONResponse({"ok": True, "tables": len(tables.actors)})

    async def ws_endpoint(ws: WebSocket) -> None:
        origin = ws.headers.get("origin")
        if origin is not None and not _origin_ok(origin, ws.headers.get("host", ""), config):
            await ws.close(code=1008)
            return
        actor = await tables.actor(ws.path_params["table_id"])
        await ws.accept()
        if actor is None:
            await ws.send_text(
                p.encode({"type": "error", "code": "NO_TABLE", "message": "no such table"})
            )
            await ws.close(code=4404)
            return
        conn = Conn(ws.send_text, config)
        greeted = False
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                raw = frame.get("text")
                if raw is None:
                    data = frame.get("bytes") or b""
                    try:
                        raw = data.decode("utf-8")
                    except UnicodeDecodeError:
                        await conn.send(
                            {"type": "error", "code": "BAD_MESSAGE", "message": "text frames only"}
                        )
                        continue
                if not conn.allow():
                    await conn.send(
                        {"type": "error", "code": "RATE_LIMITED", "message": "slow down"}
                    )
                    continue
                try:
                    msg = p.decode(raw)
                except p.ProtocolError as exc:
                    await conn.send({"type": "error", "code": exc.code, "message": exc.message})
                    continue
                if isinstance(msg, p.Ping):
                    await conn.send({"type": "pong"})
                    continue
                if not greeted and not isinstance(msg, p.Hello):
                    await conn.send(
                        {"type": "error", "code": "HELLO_FIRST", "message": "send hello first"}
                    )
                    continue
                cmd = _command(msg, conn)
                if cmd is None:
                    continue
                if isinstance(msg, p.Hello):
                    if greeted:
                        await conn.send(
                            {"type": "error", "code": "BAD_MESSAGE", "message": "hello once"}
                        )
                        continue
                    greeted = True
                await actor.submit(cmd)
        except WebSocketDisconnect:
            pass
        finally:
            if greeted:
                await actor.disconnect(conn)

    def _command(msg: p.ClientMessage, conn: Conn) -> Command | None:
        match msg:
            case p.Hello(token=token, last_version=last):
                return Command("hello", conn, {"token": token, "last_version": last})
            case p.Sit(name=name, seat=seat):
                token = secrets.token_urlsafe(24)
                return Command(
                    "sit",
                    conn,
                    {"name": name, "seat": seat, "token": token, "token_hash": hash_token(token)},
                )
            case p.Act(action=action, version=version):
                return Command("act", conn, {"action": action}, version=version)
            case p.Next():
                return Command("next", conn)
            case p.Fill(creator=creator):
                return Command("fill", conn, {"creator": creator})
            case p.Start(creator=creator):
                return Command("start", conn, {"creator": creator})
            case p.Leave(keep_bot=keep):
                return Command("leave", conn, {"keep_bot": keep})
            case p.Reclaim():
                return Command("reclaim", conn)
            case p.Chat(text=text):
                return Command("chat", conn, {"text": text})
            case p.React(emoji=emoji):
                return Command("react", conn, {"emoji": emoji})
            case p.Mute(seat=seat, on=on):
                (conn.muted.add if on else conn.muted.discard)(seat)
                return None
            case p.Again():
                return Command("again", conn)
        return None

    routes: list[Any] = [
        Route("/", index),
        Route("/t/{table_id}", table_page),
        Route("/rules", table_page),
        Route("/rules/{page}", table_page),
        Route("/calculator", table_page),
        Route("/api/value", value_api, methods=["POST"]),
        Route("/healthz", healthz),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", table_info),
        Route("/api/tables/{table_id}/{kind}", download),
        WebSocketRoute("/ws/{table_id}", ws_endpoint),
    ]
    static = WEB / "static"
    if static.exists():
        routes.append(Mount("/static", StaticFiles(directory=static), name="static"))
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.store = store
    app.state.config = config
    return app


def _origin_ok(origin: str, host: str, config: ServerConfig) -> bool:
    if config.allowed_origins is not None:
        return origin in config.allowed_origins
    from urllib.parse import urlsplit

    return urlsplit(origin).netloc == host
