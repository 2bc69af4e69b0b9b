"""The HTTP and websocket endpoints (issue 29, point 3: out of `create_app`'s
closure). Each finds what it needs on ``request.app.state``: the tables,
the store, the config and the options served, set by `app.create_app`."""

from __future__ import annotations

import contextlib
import json
import logging
import math
import time
from pathlib import Path
from typing import Any

import msgspec
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..players.solver import IMPLEMENTATION as SOLVER_CORE
from . import messages as m
from . import projection
from . import protocol as p
from .commands import Inbound
from .config import ServerConfig
from .conn import CLOSE_MOVED, CLOSE_OLD_CLIENT, CLOSE_RATE_LIMITED, Conn, address_of
from .errors import CommandError, ErrorCode
from .offer import NotOffered, table_options
from .registry import BadFile, TableBroken, TableElsewhere, Tables
from .store import Store
from .table import TableState
from .work import Busy
from .wsprotocol import SEND_TEXT

log = logging.getLogger("skat.server")
WEB = Path(__file__).resolve().parent.parent / "web"


class TooLarge(Exception):
    """A request body over the limit."""


async def read_body(request: Request, limit: int) -> bytes:
    """The body, refused (`TooLarge`) by its Content-Length or, while it
    streams, as soon as it passes ``limit`` bytes: never read whole first."""
    length = request.headers.get("content-length")
    if length is not None and (not (length.isascii() and length.isdigit()) or int(length) > limit):
        raise TooLarge
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise TooLarge
        chunks.append(chunk)
    return b"".join(chunks)


def json_error(code: ErrorCode | str, message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": {"code": str(code), "message": message}}, status_code=status)


def _tables(r: Request | WebSocket) -> Tables:
    tables: Tables = r.app.state.tables
    return tables


def _store(r: Request | WebSocket) -> Store:
    store: Store = r.app.state.store
    return store


def _config(r: Request | WebSocket) -> ServerConfig:
    config: ServerConfig = r.app.state.config
    return config


async def index(request: Request) -> Response:
    page = WEB / "index.html"
    if page.exists():
        # its scripts and styles under this version's URLs (app.static_version);
        # the page itself is asked for again each time, so an upgrade shows at once
        version = request.app.state.static_version
        text = page.read_text(encoding="utf-8").replace('"/static/', f'"/static/{version}/')
        return HTMLResponse(text, headers={"cache-control": "no-cache"})
    return HTMLResponse(
        "<!doctype html><title>skat</title><h1>skat server</h1>"
        "<p>Create a table with <code>POST /api/tables</code>; play over <code>/ws/TABLE</code>"
        " (docs/protocol.md).</p>"
    )


#: The installable page's files at the site's root (issue 49, item 7): the
#: web manifest, the service worker (whose scope is the folder it is served
#: from, so it must be "/") and the page it shows offline, read from
#: src/skat/web; a browser asks for each again every time (no-cache).
PAGE_FILES = {
    "manifest.webmanifest": "application/manifest+json",
    "sw.js": "text/javascript; charset=utf-8",
    "offline.html": "text/html; charset=utf-8",
}


async def page_file(request: Request) -> Response:
    name = request.url.path.lstrip("/")
    path = WEB / name
    if name not in PAGE_FILES or not path.exists():
        return PlainTextResponse("not found", status_code=404)
    return Response(
        path.read_bytes(), media_type=PAGE_FILES[name], headers={"cache-control": "no-cache"}
    )


async def body_of(request: Request) -> bytes | Response:
    config = _config(request)
    try:
        return await read_body(request, config.max_body)
    except TooLarge:
        return json_error(
            ErrorCode.TOO_LARGE, f"request bodies are limited to {config.max_body} bytes", 413
        )
    except ClientDisconnect:
        client = request.client.host if request.client else "?"
        log.info("%s %s from %s: aborted", request.method, request.url.path, client)
        return Response(status_code=400)


async def create_table(request: Request) -> Response:
    tables = _tables(request)
    config = _config(request)
    body = await body_of(request)
    if isinstance(body, Response):
        return body
    try:
        options, settings = table_options(json.loads(body or b"{}"), config)
    except NotOffered as exc:
        return json_error(ErrorCode.NOT_OFFERED, str(exc)[:300])
    except (ValueError, TypeError, RecursionError) as exc:
        return json_error(ErrorCode.BAD_OPTIONS, str(exc)[:300])
    address = client_address(request)
    try:
        table_id, creator = await tables.create(options, settings, address)
    except CommandError as exc:
        return json_error(exc.code, exc.message, 429)
    return JSONResponse(
        {"id": table_id, "url": f"/t/{table_id}", "ws": f"/ws/{table_id}", "creator": creator},
        status_code=201,
    )


async def found(request: Request) -> tuple[TableState, dict[str, Any]] | Response:
    tables = _tables(request)
    try:
        found = await tables.view(request.path_params["table_id"])
    except TableBroken:
        return json_error(ErrorCode.TABLE_BROKEN, "this table's record cannot be loaded", 503)
    if found is None:
        return json_error(ErrorCode.NO_TABLE, "no such table", 404)
    return found


async def table_info(request: Request) -> Response:
    tables = _tables(request)
    got = await found(request)
    if isinstance(got, Response):
        return got
    state, memo = got
    actor = tables.actors.get(state.id)
    if actor is not None:
        return _json(projection.snapshot(state, None, actor.connected_seats()))
    if "info" not in memo:
        memo["info"] = p.encode_bytes(projection.snapshot(state, None, set()))
    return Response(memo["info"], media_type="application/json")


def _json(message: m.ServerMessage) -> Response:
    """A message as the body of an HTTP answer (the same JSON as on the socket)."""
    return Response(p.encode_bytes(message), media_type="application/json")


async def download(request: Request) -> Response:
    store = _store(request)
    got = await found(request)
    if isinstance(got, Response):
        return got
    state, memo = got
    series = state.series
    if series is None:
        return json_error(ErrorCode.NOT_STARTED, "the list has not started", 409)
    kind = request.path_params["kind"]
    if kind not in ("list.json", "sheet.csv", "games.iss"):
        return json_error(ErrorCode.NO_FILE, "no such download", 404)
    if "stem" not in memo:
        stored = await store.table(state.id)
        made = stored.created_at if stored else time.time()
        memo["stem"] = f"skat-{state.id}-{time.strftime('%Y-%m-%d', time.gmtime(made))}"
    stem = memo["stem"]  # every table's files get their own names

    def attachment(ext: str) -> dict[str, str]:
        return {"content-disposition": f'attachment; filename="{stem}.{ext}"'}

    if kind not in memo:  # a closed table renders each download once
        from ..sheetview import sheet_csv

        match kind:
            case "list.json":
                memo[kind] = json.dumps(projection.list_download(state))
            case "sheet.csv":
                memo[kind] = sheet_csv(series, state.names_from(), state.auto_moves)
            case _:
                # each deal's ISS date (DT) is when its first stored event was
                # written: the list's start, then every "next"
                dealt_at = await store.deal_starts(state.id)
                memo[kind] = projection.iss_download(state, dealt_at)
    match kind:
        case "list.json":
            return Response(memo[kind], media_type="application/json", headers=attachment("json"))
        case "sheet.csv":
            return PlainTextResponse(memo[kind], media_type="text/csv", headers=attachment("csv"))
        case _:
            text, why = memo[kind]
            if why is not None:  # a message, never an empty file
                return json_error(ErrorCode.NO_FILE, f"no ISS records: {why}", 409)
            return PlainTextResponse(text, headers=attachment("iss"))


async def analysis(request: Request) -> Response:
    """The open-card analysis of a settled deal ("could I have won?")."""
    return await _settled_deal(request, board=False)


async def board(request: Request) -> Response:
    """The analysis board of a settled deal: card by card, all hands open."""
    return await _settled_deal(request, board=True)


async def _settled_deal(request: Request, board: bool) -> Response:
    tables = _tables(request)
    got = await found(request)
    if isinstance(got, Response):
        return got
    state = got[0]
    number = request.path_params["number"]
    series = state.series
    if series is None or not 1 <= number <= series.number:
        return json_error(ErrorCode.NO_DEAL, "no such deal", 404)
    if not series.deals[number - 1].is_terminal():
        # every card is public only once the deal is over (R3.7)
        return json_error(ErrorCode.WRONG_PHASE, "the deal is not over", 409)
    try:
        address = client_address(request)
        made = tables.board if board else tables.analysis
        return JSONResponse(await made(state, number, address))
    except Busy as exc:
        busy = json_error(ErrorCode.BUSY, str(exc), 503)
        busy.headers["Retry-After"] = str(math.ceil(exc.retry_after))
        return busy


async def object_body(
    request: Request, fields: dict[str, type], usage: str
) -> dict[str, Any] | Response:
    """The body as a JSON object of exactly ``fields``, each of its type;
    else the refusal (400 BAD_REQUEST saying ``usage``, or `body_of`'s)."""
    body = await body_of(request)
    if isinstance(body, Response):
        return body
    try:
        data = json.loads(body or b"{}")
    except (ValueError, RecursionError):
        data = None
    if (
        not isinstance(data, dict)
        or set(data) != set(fields)
        or any(not isinstance(data[k], kind) for k, kind in fields.items())
    ):
        return json_error(ErrorCode.BAD_REQUEST, usage)
    return data


async def _seat_of(request: Request) -> tuple[TableState, int] | Response:
    """A review's table and its reader's seat: the body is ``{"token"}``,
    the seat token of the person whose decisions are reviewed (a review is
    its seat's own: judged from that seat's view)."""
    data = await object_body(request, {"token": str}, 'the body must be {"token": SEAT_TOKEN}')
    if isinstance(data, Response):
        return data
    token: str = data["token"]
    got = await found(request)
    if isinstance(got, Response):
        return got
    state = got[0]
    if state.series is None:
        return json_error(ErrorCode.NOT_STARTED, "the list has not started", 409)
    seat = state.seat_of_token(token[:200])
    if seat is None:
        return json_error(
            ErrorCode.BAD_TOKEN, "a review is for the person at the seat: send its seat token", 403
        )
    return state, seat


def _busy(exc: Busy) -> Response:
    busy = json_error(ErrorCode.BUSY, str(exc), 503)
    busy.headers["Retry-After"] = str(math.ceil(exc.retry_after))
    return busy


async def review(request: Request) -> Response:
    """The review of the reader's decisions in a settled deal, each judged
    from the reader's own seat (no hindsight), with the deal's luck."""
    got = await _seat_of(request)
    if isinstance(got, Response):
        return got
    state, seat = got
    number = request.path_params["number"]
    series = state.series
    assert series is not None
    if not 1 <= number <= series.number:
        return json_error(ErrorCode.NO_DEAL, "no such deal", 404)
    if not series.deals[number - 1].is_terminal():
        return json_error(ErrorCode.WRONG_PHASE, "the deal is not over", 409)
    try:
        answer = await _tables(request).review(state, number, seat, client_address(request))
    except Busy as exc:
        return _busy(exc)
    return JSONResponse(answer, headers={"cache-control": "no-store"})


async def list_review(request: Request) -> Response:
    """The reader's review over the list's settled deals: luck against
    play, deal by deal and in total, and the costliest decisions."""
    got = await _seat_of(request)
    if isinstance(got, Response):
        return got
    state, seat = got
    wait = _config(request).review_wait
    try:
        answer = await _tables(request).list_review(state, seat, client_address(request), wait)
    except Busy as exc:
        return _busy(exc)
    return JSONResponse(answer, headers={"cache-control": "no-store"})


#: The largest file the analysis board takes (a list record of 48 deals is
#: about 45 KB; the cluster's nginx takes 64 KiB bodies).
MAX_BOARD_FILE = 64 * 1024


def client_address(request: Request | WebSocket) -> str | None:
    """The address the per-address limits count (`conn.address_of`)."""
    return address_of(request.client.host if request.client else None)


async def file_board(request: Request) -> Response:
    """The analysis board of a game in an uploaded file (docs/protocol.md):
    the body is the file's text, ``?game=N`` picks its game (1 by default).
    One client address uploads at most ``board_burst`` files at once and
    ``board_rate`` a second after that (refused before the body is read)."""
    address = client_address(request)
    if not request.app.state.board_rates.allow(address):
        limited = json_error(ErrorCode.RATE_LIMITED, "too many uploads; try again shortly", 429)
        limited.headers["Retry-After"] = str(math.ceil(1 / _config(request).board_rate))
        return limited
    try:
        text = (await read_body(request, MAX_BOARD_FILE)).decode("utf-8")
    except TooLarge:
        return json_error(
            ErrorCode.TOO_LARGE, f"files are limited to {MAX_BOARD_FILE // 1024} KiB", 413
        )
    except UnicodeDecodeError:
        return json_error(ErrorCode.BAD_RECORD, "the file is not UTF-8 text")
    except ClientDisconnect:
        return Response(status_code=400)
    raw = request.query_params.get("game", "1")
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 4:  # not "²": isdigit, no int
        return json_error(ErrorCode.NO_DEAL, "game must be a number from 1", 404)
    try:
        return JSONResponse(await _tables(request).file_board(text, int(raw), address))
    except BadFile as exc:
        return json_error(exc.code, exc.message[:300], exc.status)
    except Busy as exc:
        busy = json_error(ErrorCode.BUSY, str(exc), 503)
        busy.headers["Retry-After"] = str(math.ceil(exc.retry_after))
        return busy


async def table_page(request: Request) -> Response:
    return await index(request)


async def options_api(request: Request) -> Response:
    """The table options and their words (`offer.offered`): the page's form."""
    return JSONResponse(request.app.state.options, headers={"cache-control": "max-age=300"})


#: The lobby's length, and how many of its tables one client address may show.
LOBBY_SIZE = 50
LOBBY_PER_ADDRESS = 2


async def lobby_api(request: Request) -> Response:
    """The public tables waiting for people, newest first (docs/protocol.md)."""
    memo = request.app.state.lobby_memo  # one query a second per process, however many ask
    now = time.monotonic()
    if memo.get("at", -1e9) < now - _config(request).lobby_cache:
        memo["body"] = {
            "tables": await _store(request).lobby(LOBBY_SIZE, LOBBY_PER_ADDRESS),
            "tournaments": await request.app.state.tournaments.lobby(LOBBY_SIZE, LOBBY_PER_ADDRESS),
        }
        memo["at"] = now
    return JSONResponse(memo["body"], headers={"cache-control": "no-store"})


class ValueRequest(msgspec.Struct, forbid_unknown_fields=True):
    """The body of ``POST /api/value`` (docs/protocol.md): a game as ``skat
    value`` takes it; ``table`` values it under that table's rules (its house
    rules that change a value, `Rules.max_matadors`), as its sheet will."""

    game: str
    cards: str | None = None
    matadors: int | None = None
    hand: bool = False
    schneider_announced: bool = False
    schwarz_announced: bool = False
    ouvert: bool = False
    bid: int = 18
    points: int | list[int] | None = None  # Ramsch: each player's, in seat order
    tricks: int | list[int] | None = None
    kontra: bool = False
    re: bool = False
    bock: bool = False
    players: int = 3
    table: str | None = None


#: A Ramsch takes only these (R9.1): points (and tricks) per player, in seat order.
_RAMSCH_FIELDS = ("points", "tricks", "bock", "players")


async def value_api(request: Request) -> Response:
    """The game-value reckoner of the calculator page and of a table's
    preview (same as ``skat value``)."""
    from ..engine.reckoner import ReckonerError, reckon, reckon_ramsch

    body = await body_of(request)
    if isinstance(body, Response):
        return body
    try:
        req = msgspec.json.decode(body or b"{}", type=ValueRequest)
        rules = None
        if req.table is not None:
            try:
                got = await _tables(request).view(req.table[:64])
            except TableBroken:
                broken = "this table's record cannot be loaded"
                return json_error(ErrorCode.TABLE_BROKEN, broken, 503)
            if got is None:
                return json_error(ErrorCode.NO_TABLE, "no such table", 404)
            rules = got[0].options.deal_rules()
        if req.game == "ramsch":
            given = {f for f in msgspec.structs.asdict(req) if f not in ("game", "table")}
            default = ValueRequest("ramsch")
            extra = sorted(
                f for f in given - set(_RAMSCH_FIELDS) if getattr(req, f) != getattr(default, f)
            )
            if extra:
                raise ValueError(f"not for Ramsch: {', '.join(extra)}")
            if not isinstance(req.points, list) or not isinstance(req.tricks, list | None):
                raise ValueError("Ramsch: points (and tricks) per player, as lists")
            ramsch = reckon_ramsch(req.points, req.tricks, bock=req.bock, players=req.players)
            return JSONResponse(ramsch.to_dict())
        if isinstance(req.points, list) or isinstance(req.tricks, list):
            raise ValueError("points and tricks are numbers (lists only for Ramsch)")
        result = reckon(
            req.game,
            cards=req.cards,
            matadors=req.matadors,
            hand=req.hand,
            schneider_announced=req.schneider_announced,
            schwarz_announced=req.schwarz_announced,
            ouvert=req.ouvert,
            bid=req.bid,
            points=req.points,
            tricks=req.tricks,
            kontra=req.kontra,
            re=req.re,
            bock=req.bock,
            players=req.players,
            rules=rules,
        )
    except ReckonerError as exc:
        return json_error(exc.code, exc.message)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        return json_error(ErrorCode.BAD_REQUEST, str(exc)[:300])
    except (ValueError, TypeError, RecursionError) as exc:
        return json_error(ErrorCode.BAD_REQUEST, str(exc)[:300])
    return JSONResponse(result.to_dict())


async def healthz(request: Request) -> Response:
    tables = _tables(request)
    store = _store(request)
    config = _config(request)
    body: dict[str, Any] = {
        "ok": True,
        "worker": config.worker,
        "tables": len(tables.actors),
        "solver": SOLVER_CORE,  # "c", or "python": the slow core (README.md)
    }
    # a search process that died was replaced: still ok, but worth a look
    search = tables.search
    body["search"] = {
        "restarts": search.restarts,
        "late": search.late,
        "waiting": search.waiting(),
    }
    failing = store.failing_since
    if failing is not None:  # the tables wait and retry; a proxy or monitor should know
        body["ok"] = False
        body["store"] = {"failing_for": round(time.monotonic() - failing, 1)}
        return JSONResponse(body, status_code=503)
    return JSONResponse(body)


async def ws_endpoint(ws: WebSocket) -> None:
    tables = _tables(ws)
    config = _config(ws)
    origin = ws.headers.get("origin")
    if origin is not None and not _origin_ok(origin, ws.headers.get("host", ""), config):
        # refused before the handshake: the client sees an HTTP 403
        await ws.close(code=1008)
        return
    if not ws.app.state.connect_rates.allow(client_address(ws)):
        # a storm of hellos (each answered with the table's whole state):
        # told why, before the table is even looked up
        await ws.accept()
        limited = CommandError(
            ErrorCode.RATE_LIMITED, "too many new connections from this address; try again"
        )
        await ws.send_text(p.encode(limited.to_message()))
        await ws.close(code=CLOSE_RATE_LIMITED)
        return
    try:
        actor = await tables.actor(ws.path_params["table_id"])
    except TableBroken:
        await ws.accept()
        error = CommandError(ErrorCode.TABLE_BROKEN, "this table's record cannot be loaded")
        await ws.send_text(p.encode(error.to_message()))
        await ws.close(code=1011)
        return
    except TableElsewhere as exc:  # the client retries; the proxy or a handover settles it
        await ws.accept()
        error = CommandError(ErrorCode.TABLE_MOVED, f"{exc}; reconnect")
        await ws.send_text(p.encode(error.to_message()))
        await ws.close(code=CLOSE_MOVED)
        return
    await ws.accept()
    if actor is None:
        await ws.send_text(p.encode(CommandError(ErrorCode.NO_TABLE, "no such table").to_message()))
        await ws.close(code=4404)
        return
    conn = Conn(
        ws.send_text,
        config,
        close=lambda code, why: ws.close(code, why),
        send_now=(ws.scope.get("extensions") or {}).get(SEND_TEXT),
    )
    greeted = False

    def refuse(code: ErrorCode, message: str) -> Any:
        return conn.send(CommandError(code, message).to_message())

    try:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            if conn.closed:  # dropped: it does not read; what it sends is ignored
                continue
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
            at = time.monotonic()
            try:
                msg = p.decode(raw)
            except p.ProtocolError as exc:
                if exc.move:  # an action that is none: a person's move, refused (as actor._run)
                    actor.metrics.move("person", False)
                    actor.metrics.act_seconds.observe(time.monotonic() - at)
                await conn.send(m.Error(code=exc.code, message=exc.message))
                continue
            if isinstance(msg, p.Ping):
                await conn.send(m.Pong(version=conn.view_at))  # answered here, never queued
                continue
            if isinstance(msg, p.Hello):
                if greeted:
                    await refuse(ErrorCode.BAD_MESSAGE, "hello once")
                    continue
                if msg.protocol != p.PROTOCOL:  # told why; the table never sees it
                    await _refuse_protocol(ws, conn, msg.protocol)
                    return
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


async def _refuse_protocol(ws: WebSocket, conn: Conn, protocol: int | None) -> None:
    """A `hello` without this server's protocol (docs/protocol.md, "Versions
    of the protocol"): an `OLD_CLIENT` error that says what to do, then close
    4426. The client is not seated, the table not touched."""
    if protocol is None or protocol < p.PROTOCOL:
        why = (
            f"this client is older than the server (protocol {protocol or 1}, the server "
            f"speaks {p.PROTOCOL}): reload the page, or update the client"
        )
    else:
        why = (
            f"this client is newer than the server (protocol {protocol}, the server "
            f"speaks {p.PROTOCOL}): reload the page later, or use an older client"
        )
    conn.stop()
    with contextlib.suppress(Exception):
        await ws.send_text(p.encode(CommandError(ErrorCode.OLD_CLIENT, why).to_message()))
        await ws.close(code=CLOSE_OLD_CLIENT, reason=ErrorCode.OLD_CLIENT.value)


def _origin_ok(origin: str, host: str, config: ServerConfig) -> bool:
    if config.allowed_origins is not None:
        return origin in config.allowed_origins
    from urllib.parse import urlsplit

    return urlsplit(origin).netloc == host
