"""The Starlette app: explicit routes, a lifespan that opens the store and
restores every unfinished table, and the websocket edge that parses client
messages once and hands them to the table's actor."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..players.levels import DEFAULT_LEVEL, LEVELS, player_for
from ..series import ListOptions
from . import projection
from . import protocol as p
from .actor import Conn, Inbound, ServerConfig
from .errors import CommandError, ErrorCode
from .registry import Tables
from .store import Store
from .table import TIMERS, Settings

log = logging.getLogger("skat.server")
MAX_BODY = 4096
WEB = Path(__file__).resolve().parent.parent / "web"


def _json_error(code: ErrorCode | str, message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": {"code": str(code), "message": message}}, status_code=status)


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
            return _json_error(ErrorCode.TOO_LARGE, "request too large", 413)
        try:
            data = json.loads(body or b"{}")
            if not isinstance(data, dict):
                raise ValueError("a JSON object is expected")
            rounds = data.pop("rounds", None)
            level = data.pop("level", None)
            bot = data.pop("bot", None)
            timer = data.pop("timer", 0)
            hint = data.pop("hint", False)
            if level is not None and bot is not None:
                raise ValueError("give either a level or a computer player, not both")
            choice = level if level is not None else bot if bot is not None else DEFAULT_LEVEL
            if not isinstance(choice, str) or (level is not None and level not in LEVELS):
                raise ValueError(f"level must be one of {', '.join(LEVELS)}")
            bot = player_for(choice)
            if timer not in TIMERS or isinstance(timer, bool):
                raise ValueError(f"timer must be one of {TIMERS}")
            if not isinstance(hint, bool):
                raise ValueError("hint must be true or false")
            players = data.get("players", 3)
            if rounds is not None:
                if not isinstance(rounds, int) or not 1 <= rounds <= 12:
                    raise ValueError("rounds must be 1..12")
                data["deals"] = rounds * players
            options = ListOptions.from_dict(data)
        except (ValueError, TypeError) as exc:
            return _json_error(ErrorCode.BAD_OPTIONS, str(exc))
        table_id, creator = await tables.create(options, Settings(bot=bot, timer=timer, hint=hint))
        return JSONResponse(
            {"id": table_id, "url": f"/t/{table_id}", "ws": f"/ws/{table_id}", "creator": creator},
            status_code=201,
        )

    async def table_info(request: Request) -> Response:
        state = await tables.state(request.path_params["table_id"])
        if state is None:
            return _json_error(ErrorCode.NO_TABLE, "no such table", 404)
        actor = tables.actors.get(state.id)
        connected = actor.connected_seats() if actor else set()
        return JSONResponse(projection.snapshot(state, None, connected))

    async def download(request: Request) -> Response:
        state = await tables.state(request.path_params["table_id"])
        if state is None:
            return _json_error(ErrorCode.NO_TABLE, "no such table", 404)
        if state.series is None:
            return _json_error(ErrorCode.NOT_STARTED, "the list has not started", 409)
        stored = await store.table(state.id)
        day = time.strftime("%Y-%m-%d", time.gmtime(stored.created_at if stored else time.time()))
        stem = f"skat-{state.id}-{day}"  # every table's files get their own names

        def attachment(ext: str) -> dict[str, str]:
            return {"content-disposition": f'attachment; filename="{stem}.{ext}"'}

        match request.path_params["kind"]:
            case "list.json":
                return JSONResponse(projection.list_download(state), headers=attachment("json"))
            case "sheet.csv":
                from ..sheetview import sheet_csv

                return PlainTextResponse(
                    sheet_csv(state.series), media_type="text/csv", headers=attachment("csv")
                )
            case "games.iss":
                text, why = projection.iss_download(state)
                if why is not None:  # a message, never an empty file
                    return _json_error(ErrorCode.NO_FILE, f"no ISS records: {why}", 409)
                return PlainTextResponse(text, headers=attachment("iss"))
        return _json_error(ErrorCode.NO_FILE, "no such download", 404)

    async def analysis(request: Request) -> Response:
        """The open-card analysis of a settled deal ("could I have won?")."""
        state = await tables.state(request.path_params["table_id"])
        if state is None:
            return _json_error(ErrorCode.NO_TABLE, "no such table", 404)
        number = request.path_params["number"]
        series = state.series
        if series is None or not 1 <= number <= series.number:
            return _json_error(ErrorCode.NO_DEAL, "no such deal", 404)
        if not series.deals[number - 1].is_terminal():
            # every card is public only once the deal is over (R3.7)
            return _json_error(ErrorCode.WRONG_PHASE, "the deal is not over", 409)
        return JSONResponse(await tables.analysis(state, number))

    async def table_page(request: Request) -> Response:
        return await index(request)

    async def value_api(request: Request) -> Response:
        """The game-value reckoner of the calculator page (same as ``skat value``)."""
        from ..engine.reckoner import ReckonerError, reckon, reckon_ramsch

        body = await request.body()
        if len(body) > MAX_BODY:
            return _json_error(ErrorCode.TOO_LARGE, "request too large", 413)
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
            return _json_error(ErrorCode.BAD_REQUEST, str(exc))
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
                p.encode(CommandError(ErrorCode.NO_TABLE, "no such table").to_message())
            )
            await ws.close(code=4404)
            return
        conn = Conn(ws.send_text, config)
        greeted = False

        def refuse(code: ErrorCode, message: str) -> Any:
            return conn.send(CommandError(code, message).to_message())

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
                        await refuse(ErrorCode.BAD_MESSAGE, "text frames only")
                        continue
                if not conn.allow():
                    await refuse(ErrorCode.RATE_LIMITED, "slow down")
                    continue
                try:
                    msg = p.decode(raw)
                except p.ProtocolError as exc:
                    await conn.send({"type": "error", "code": exc.code, "message": exc.message})
                    continue
                if isinstance(msg, p.Ping):
                    await conn.send({"type": "pong"})  # answered here, never queued
                    continue
                if isinstance(msg, p.Hello):
                    if greeted:
                        await refuse(ErrorCode.BAD_MESSAGE, "hello once")
                        continue
                    greeted = True
                elif not greeted:
                    await refuse(ErrorCode.HELLO_FIRST, "send hello first")
                    continue
                await actor.submit(Inbound(conn, msg))
        except WebSocketDisconnect:
            pass
        finally:
            if greeted:
                await actor.disconnect(conn)

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
        Route("/api/tables/{table_id}/deals/{number:int}/analysis", analysis),
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
