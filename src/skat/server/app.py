"""The Starlette app: explicit routes, a lifespan that opens the store and
restores every unfinished table, and the websocket edge that parses client
messages once and hands them to the table's actor."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.responses import Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from .. import __version__
from ..players.solver import IMPLEMENTATION as SOLVER_CORE
from . import endpoints
from . import profile_endpoints as pe
from . import tournament_endpoints as te
from .config import ServerConfig
from .conn import AddressBuckets
from .metrics import Metrics
from .offer import offered
from .profiles import Profiles
from .registry import Tables
from .store import Store, StoreConfig, StoreFailed, shown_url
from .tournaments import Tournaments

log = logging.getLogger("skat.server")
WEB = Path(__file__).resolve().parent.parent / "web"
#: Sent with every HTTP answer. The no-build client loads its scripts, styles
#: and data from this origin only; `frame-ancestors 'none'`: no page may frame
#: a table (clickjacking a seated player).
SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


#: The versioned static files never change under their URL: a browser keeps
#: them a year without asking. The unversioned ones (links from elsewhere,
#: tests) are asked again each time (an ETag answers 304).
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


def static_version(folder: Path) -> str:
    """A digest of the static files' names and contents: the page loads its
    modules from ``/static/VERSION/``, so after an upgrade a browser loads
    every module anew, and never one old module beside new ones (their
    imports are relative: they stay under the page's version)."""
    digest = hashlib.sha256()
    for path in sorted(folder.iterdir()):
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


class CachedStatic(StaticFiles):
    """StaticFiles with a Cache-Control header on every file."""

    def __init__(self, *, directory: Path, cache: str) -> None:
        super().__init__(directory=directory)
        self.cache = cache

    def file_response(
        self, full_path: str | os.PathLike[str], *args: Any, **kwargs: Any
    ) -> Response:
        response = super().file_response(full_path, *args, **kwargs)
        response.headers["cache-control"] = self.cache
        return response


class SecurityHeaders:
    """ASGI middleware: `SECURITY_HEADERS` on every HTTP answer."""

    def __init__(self, app: Any, worker: str) -> None:
        self.app = app
        self.worker = worker  # named on every answer: which process served it

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for key, value in SECURITY_HEADERS.items():
                    headers.setdefault(key, value)
                headers.setdefault("X-Skat-Worker", self.worker)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(
    db_url: str, config: ServerConfig | None = None, store_config: StoreConfig | None = None
) -> Starlette:
    """The app factory (ARCHITECTURE.md practice 12)."""
    config = config or ServerConfig()
    store = Store(db_url, store_config, worker=config.worker, lease_ttl=config.lease_ttl)
    metrics = Metrics()
    store.metrics = metrics
    tables = Tables(store, config, metrics)
    metrics.watch(
        tables, store, {"version": __version__, "worker": config.worker, "solver": SOLVER_CORE}
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await store.open()
        restored = await tables.restore()
        log.info("store %s open; %d unfinished table(s) restored", shown_url(db_url), restored)
        if SOLVER_CORE == "c":
            log.info("solver core: c (compiled)")
        else:  # the strong level still plays, in its time, but searches far less
            log.warning(
                "solver core: python (pure Python, 70-200 times slower than the compiled one: "
                "the strong computer players play weaker and analyses take longer; "
                "SKAT_SOLVER=python, or no C compiler when skat was installed; README.md)"
            )

        async def sweeper() -> None:
            while True:
                await asyncio.sleep(min(60.0, config.idle_timeout / 2))
                try:
                    await tables.sweep()
                except Exception:
                    log.exception("sweep failed")

        async def keeper() -> None:  # table ownership (docs/deploy.md)
            while True:
                await asyncio.sleep(config.lease_ttl / 4)
                try:
                    await tables.keep()
                except StoreFailed:
                    pass  # logged once by the store; the next round tries again
                except Exception:
                    log.exception("lease upkeep failed")

        task = asyncio.create_task(sweeper())
        keeping = asyncio.create_task(keeper())
        try:
            yield
        finally:
            task.cancel()
            keeping.cancel()
            await tables.close()
            await store.close()

    e = endpoints
    routes: list[Any] = [
        Route("/", e.index),
        Route("/t/{table_id}", e.table_page),
        Route("/rules", e.table_page),
        Route("/rules/{page}", e.table_page),
        Route("/calculator", e.table_page),
        Route("/api/value", e.value_api, methods=["POST"]),
        Route("/api/options", e.options_api),
        Route("/api/lobby", e.lobby_api),
        Route("/healthz", e.healthz),
        Route("/manifest.webmanifest", e.page_file),
        Route("/sw.js", e.page_file),
        Route("/offline.html", e.page_file),
        Route("/api/tables", e.create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", e.table_info),
        Route("/api/tables/{table_id}/{kind}", e.download),
        Route("/api/tables/{table_id}/deals/{number:int}/analysis", e.analysis),
        Route("/api/tables/{table_id}/deals/{number:int}/board", e.board),
        Route("/api/tables/{table_id}/deals/{number:int}/review", e.review, methods=["POST"]),
        Route("/api/tables/{table_id}/review", e.list_review, methods=["POST"]),
        Route("/t/{table_id}/deals/{number:int}", e.table_page),
        Route("/t/{table_id}/review", e.table_page),
        Route("/api/board", e.file_board, methods=["POST"]),
        Route("/board", e.table_page),
        WebSocketRoute("/ws/{table_id}", e.ws_endpoint),
        Route("/tournament/{tournament_id}", e.table_page),
        Route("/api/tournaments", te.create, methods=["POST"]),
        Route("/api/tournaments/{tournament_id}", te.view),
        Route("/api/tournaments/{tournament_id}/standings.csv", te.standings_csv),
        Route("/api/tournaments/{tournament_id}/standings.json", te.standings_json),
        Route("/api/tournaments/{tournament_id}/entrants", te.enter, methods=["POST"]),
        Route("/api/tournaments/{tournament_id}/series", te.start_series, methods=["POST"]),
        Route("/api/tournaments/{tournament_id}/close", te.close_resting, methods=["POST"]),
        Route("/api/tournaments/{tournament_id}/me", te.me, methods=["POST"]),
        Route("/api/tournaments/{tournament_id}/withdraw", te.withdraw, methods=["POST"]),
        Route("/api/tournaments/{tournament_id}/entry", te.entry, methods=["POST"]),
        Route("/p", e.table_page),
        Route("/p/{profile_id}", e.table_page),
        Route("/api/profiles", pe.create, methods=["POST"]),
        Route("/api/profiles/{profile_id}", pe.public),
        Route("/api/profile", pe.mine, methods=["POST"]),
        Route("/api/profile/public", pe.publish, methods=["POST"]),
        Route("/api/profile/delete", pe.delete, methods=["POST"]),
    ]
    static = WEB / "static"
    version = static_version(static) if static.exists() else "none"
    if static.exists():  # the versioned first: "/static" would take its URLs too
        routes.append(Mount(f"/static/{version}", CachedStatic(directory=static, cache=IMMUTABLE)))
        routes.append(
            Mount("/static", CachedStatic(directory=static, cache=REVALIDATE), name="static")
        )
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(SecurityHeaders, worker=config.worker)],
    )
    # no redirect of "/path/" to "/path": Starlette would build its Location
    # from the request's Host header, anyone's to write
    app.router.redirect_slashes = False
    app.state.store = store
    app.state.config = config
    app.state.static_version = version  # the page's module URLs (endpoints.index)
    app.state.metrics = metrics  # served by `skat serve --metrics` (metrics.serve_metrics)
    app.state.tables = tables
    app.state.tournaments = Tournaments(tables, store, config)
    app.state.profiles = Profiles(tables, store, app.state.tournaments)
    app.state.options = offered(config)  # the same for every request
    app.state.lobby_memo = {}  # the lobby, asked of the store at most once a second
    # uploads to the analysis board, per client address (endpoints.file_board)
    app.state.board_rates = AddressBuckets(config.board_rate, config.board_burst)
    # new websocket connections, per client address (endpoints.ws_endpoint)
    app.state.connect_rates = AddressBuckets(config.connect_rate, config.connect_burst)
    return app
