"""`skat serve` (one server process) and `skat cluster` (several behind
nginx, with PostgreSQL). The options of the server's tunables are not
written here: `config_options` makes them from the fields of `ServerConfig`
and `StoreConfig` declared with `skat.server.tunable` (name, default, type,
range and help; the pool's named ``--db-...``), and `configs` turns their
values back into the two configs. The options that set no config field
(--host, --port, --db, --data, --uds, ...) are written out below.

Every option of both commands can come from the environment as well
(``SKAT_`` and the option's name for serve, ``SKAT_CLUSTER_`` and its name
for cluster; the command line wins): a service manager's environment file
holds the settings, and a secret such as the database URL never has to be
on a command line, where every user of the machine can read it (ps).
`settings_table` writes the table of them in docs/deploy.md."""

from __future__ import annotations

import dataclasses
import re
import sys
import typing
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import click

from . import main
from .logs import LEVELS as LOG_LEVELS
from .logs import log_config

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from ..server.config import ServerConfig
    from ..server.store import StoreConfig
    from ..server.tunable import Face

D = TypeVar("D", bound="DataclassInstance")
F = TypeVar("F", bound=Callable[..., Any])

#: The pool's options are --db-pool-size, --db-max-overflow, --db-pool-timeout.
STORE_PREFIX = "db_"
#: The environment variables of the commands' options: SKAT_PORT is serve's
#: --port, SKAT_CLUSTER_PORT cluster's.
ENV_PREFIX = {"serve": "SKAT_", "cluster": "SKAT_CLUSTER_"}


def envvar(command: str, option: str) -> str:
    """The environment variable of ``--option`` of ``command``."""
    return ENV_PREFIX[command] + option.upper().replace("-", "_")


def config_options() -> list[click.Option]:
    """serve's options of the config fields declared with `tunable`, in field order."""
    from ..server.config import ServerConfig
    from ..server.store import StoreConfig
    from ..server.tunable import face_of

    options = []
    for cls, prefix in ((ServerConfig, ""), (StoreConfig, STORE_PREFIX)):
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            face = face_of(f)
            if face is None:
                continue
            name = prefix + f.name
            flag = name.replace("_", "-")
            options.append(
                click.Option(
                    ["--" + flag],
                    type=_click_type(hints[f.name], face, name),
                    default=f.default,
                    show_default=True,
                    envvar=envvar("serve", flag),
                    show_envvar=True,
                    help=face.help,
                )
            )
    return options


def _click_type(kind: object, face: Face, name: str) -> click.ParamType[Any]:
    bounded = face.low is not None or face.high is not None
    if kind is int:
        low = None if face.low is None else int(face.low)
        high = None if face.high is None else int(face.high)
        return click.IntRange(low, high) if bounded else click.INT
    if kind is float:
        return click.FloatRange(face.low, face.high) if bounded else click.FLOAT
    if kind is str and not bounded:
        return click.STRING
    if typing.get_origin(kind) is typing.Literal and not bounded:
        return click.Choice([str(a) for a in typing.get_args(kind)])
    raise TypeError(f"{name}: no command-line option for a field of type {kind!r}")


def configs(values: Mapping[str, Any]) -> tuple[ServerConfig, StoreConfig]:
    """The server's and the store's config from the values of `config_options`
    by parameter name (``max_rounds``, ``db_pool_size``); a field not in
    ``values`` keeps its default."""
    from ..server.config import ServerConfig
    from ..server.store import StoreConfig

    return _config(ServerConfig, "", values), _config(StoreConfig, STORE_PREFIX, values)


def _config(cls: type[D], prefix: str, values: Mapping[str, Any]) -> D:
    from ..server.tunable import face_of

    given = {
        f.name: values[prefix + f.name]
        for f in dataclasses.fields(cls)
        if face_of(f) is not None and prefix + f.name in values
    }
    return cls(**given)


def settings_table() -> str:
    """The settings of serve and cluster as a Markdown table: option,
    environment variable, default and help (docs/deploy.md holds it, and a
    test compares the two)."""
    rows = [
        "| command | option | environment | default | meaning |",
        "| --- | --- | --- | --- | --- |",
    ]
    for name in ("serve", "cluster"):
        command = main.commands[name]
        # under main's context: its -h (click keeps a command's help option once made)
        parent = click.Context(main, info_name="skat", **main.context_settings)
        ctx = click.Context(command, info_name=name, parent=parent)
        for p in command.get_params(ctx):
            if not isinstance(p, click.Option) or not isinstance(p.envvar, str):
                continue  # --help
            if isinstance(p.show_default, str):
                default = p.show_default
            elif p.is_flag:
                default = "off"
            elif isinstance(p.default, str | int | float):
                default = str(p.default)
            else:
                default = ""  # none (newer click: a sentinel, not None)
            meaning = " ".join((p.help or "").split()).replace("|", "\\|")
            rows.append(
                f"| {name} | `{p.opts[0]}` | `{p.envvar}` | {default and f'`{default}`'} "
                f"| {meaning} |"
            )
    return "\n".join(rows) + "\n"


class _ServeCommand(click.Command):
    """serve, with the options of `config_options` after --data. They are
    made when serve first parses its arguments or shows its help: they need
    the server's config, and importing the server (SQLAlchemy, Starlette)
    would cost every other command half a second."""

    _generated = False

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        if not self._generated:
            at = [p.name for p in self.params].index("data_dir") + 1
            self.params[at:at] = config_options()
            self._generated = True
        return super().get_params(ctx)


# ------------------------------------------------------------------- serve
def _serve_option(*decls: str, **attrs: Any) -> Callable[[F], F]:
    """An option of serve, also read from its environment variable."""
    flag = next(d for d in decls if d.startswith("--"))[2:]
    return click.option(*decls, envvar=envvar("serve", flag), show_envvar=True, **attrs)


def _cluster_option(*decls: str, **attrs: Any) -> Callable[[F], F]:
    """An option of cluster, also read from its environment variable."""
    flag = next(d for d in decls if d.startswith("--"))[2:]
    return click.option(*decls, envvar=envvar("cluster", flag), show_envvar=True, **attrs)


@main.command("serve", cls=_ServeCommand)
@_serve_option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (0.0.0.0: every interface).",
)
@_serve_option(
    "--port",
    type=click.IntRange(1, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on.",
)
@_serve_option(
    "--db",
    "db_url",
    help="Database URL: sqlite+aiosqlite:///FILE or postgresql+asyncpg://USER@HOST/DB "
    "(default: SQLite in --data; docs/storage.md). Keep a password in the environment.",
)
@_serve_option(
    "--data",
    "data_dir",
    default="data",
    show_default=True,
    help="Folder of the default SQLite database.",
)
# here: the options of the config's tunables (config_options)
@_serve_option(
    "--uds",
    type=click.Path(dir_okay=False),
    default=None,
    help="Listen on this unix socket instead of --host/--port (behind a proxy; docs/deploy.md).",
)
@_serve_option(
    "--forwarded-allow-ips",
    default="",
    show_default="nobody",
    help="Addresses of proxies whose X-Forwarded-For names the client (comma-separated "
    "addresses or networks; '*': every peer, for --uds behind a proxy). The limits "
    "per client address use it.",
)
@_serve_option(
    "--ws-ping-interval",
    type=click.FloatRange(min=0.5),
    default=20.0,
    show_default=True,
    help="Seconds between the server's websocket ping frames (a proxy's read timeout "
    "must be longer).",
)
@_serve_option(
    "--loop",
    type=click.Choice(["auto", "asyncio", "uvloop"]),
    default="auto",
    show_default=True,
    help="The event loop: uvloop where it is installed (auto), or the standard one.",
)
@_serve_option(
    "--metrics",
    "metrics_address",
    metavar="HOST:PORT",
    default=None,
    help="Serve Prometheus metrics at http://HOST:PORT/metrics, an address of their own "
    "(default: none; docs/deploy.md).",
)
@_serve_option(
    "--log-level",
    type=click.Choice(LOG_LEVELS, case_sensitive=False),
    default="info",
    show_default=True,
    help="The least severe lines logged (the server's and uvicorn's alike).",
)
@_serve_option(
    "--log-json",
    is_flag=True,
    help="Log one JSON object a line (time, level, logger, message) instead of text.",
)
def serve_cmd(
    host: str,
    port: int,
    db_url: str | None,
    data_dir: str,
    uds: str | None,
    forwarded_allow_ips: str,
    ws_ping_interval: float,
    loop: str,
    metrics_address: str | None,
    log_level: str,
    log_json: bool,
    **tunables: Any,
) -> None:
    """Run the online server (tables by link, computer players, live sheet).

    The limits are described in docs/protocol.md (Security)."""
    import asyncio
    import logging.config

    import uvicorn

    from ..server import create_app
    from ..server.collector import Collector
    from ..server.store import StoreError, check_database, default_db_url, shown_url
    from ..server.wsprotocol import WebSocketProtocol

    try:
        url = db_url or default_db_url(data_dir)
    except OSError as exc:  # a file, a folder that cannot be made: one line
        click.echo(f"skat serve: --data {data_dir}: {exc.strerror or exc}", err=True)
        sys.exit(2)
    config, store_config = configs(tunables)
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", config.worker):
        raise click.UsageError("--worker: 1 to 64 letters, digits, '_', '.' or '-'")
    log_level = log_level.lower()
    logging.config.dictConfig(log_config(log_level, log_json))
    click.echo(f"skat: starting the server (database {shown_url(url)}) ...")
    try:  # a missing driver, a bad URL, a database out of reach: one line, no traceback
        asyncio.run(check_database(url, store_config))
        app = create_app(url, config, store_config)
    except StoreError as exc:
        click.echo(f"skat serve: {exc}", err=True)
        sys.exit(2)
    if metrics_address:
        import prometheus_client

        from ..server.metrics import serve_metrics

        # no `_created` twin of every counter and histogram: half the series
        disable_created: Callable[[], None] = prometheus_client.disable_created_metrics
        disable_created()
        try:
            _, metrics_port = serve_metrics(app.state.metrics.registry, metrics_address)
        except (OSError, ValueError) as exc:
            click.echo(f"skat serve: --metrics {metrics_address}: {exc}", err=True)
            sys.exit(2)
        metrics_host = metrics_address.rpartition(":")[0] or "127.0.0.1"
        click.echo(f"skat: metrics at http://{metrics_host}:{metrics_port}/metrics")
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    where = f"unix:{uds}" if uds else f"http://{shown}:{port}/"
    trusted = [a.strip() for a in forwarded_allow_ips.split(",") if a.strip()]

    # Python's cyclic garbage collector stops the event loop while it scans;
    # its own schedule let the young generation grow to 200,000 objects at
    # 3,000 tables and set the latency's p99: the server runs its own
    # (server/collector.py), which freezes what exists at start.
    collector = Collector(
        lambda generation, seconds: app.state.metrics.collected(generation, seconds)
    )

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets=sockets)
            if self.started:  # the page answers from now on
                collector.start()
                click.echo(f"skat: open {where} in a browser (Ctrl+C stops)")

        async def shutdown(self, sockets: Any = None) -> None:
            collector.stop()
            await super().shutdown(sockets=sockets)

    # Messages are small JSON; compressing each one per viewer costs more CPU
    # than it saves (docs/benchmarks.md, server load).
    server = Server(
        uvicorn.Config(
            app,
            host=host,
            port=port,
            uds=uds,
            log_level=log_level,
            log_config=log_config(log_level, log_json),
            ws=WebSocketProtocol,  # uvicorn's, with a table's text frames direct
            ws_max_size=65536,
            ws_per_message_deflate=False,
            ws_ping_interval=ws_ping_interval,
            loop=loop,
            # X-Forwarded-For is anyone's to write: trusted from the given
            # proxies only (uvicorn's default trusts every loopback peer)
            proxy_headers=bool(trusted),
            forwarded_allow_ips=trusted or None,
        )
    )
    server.run()


# ----------------------------------------------------------------- cluster
@main.command("cluster")
@_cluster_option(
    "--workers",
    type=click.IntRange(1, 16),
    default=2,
    show_default=True,
    help="Server processes (skat serve) behind nginx.",
)
@_cluster_option(
    "--port",
    type=click.IntRange(1, 65535),
    default=8000,
    show_default=True,
    help="nginx's port on 127.0.0.1.",
)
@_cluster_option(
    "--folder",
    type=click.Path(file_okay=False),
    default=None,
    help="Where PostgreSQL's data, nginx's files and the logs go (default: a new temporary one).",
)
@_cluster_option(
    "--db",
    "db_url",
    help="Use this database instead of starting PostgreSQL (the workers get it in "
    "their environment, never on their command line).",
)
@_cluster_option(
    "--metrics-port",
    type=click.IntRange(1, 65535),
    default=None,
    help="Worker N serves its Prometheus metrics on 127.0.0.1, this port + N - 1 (default: none).",
)
@_cluster_option(
    "--lease-ttl",
    type=click.FloatRange(min=1.0, max=600.0),
    default=5.0,
    show_default=True,
    help="Seconds before another worker takes over the tables of a dead one.",
)
def cluster_cmd(
    workers: int,
    port: int,
    folder: str | None,
    db_url: str | None,
    metrics_port: int | None,
    lease_ttl: float,
) -> None:
    """Run a site of several server processes on this machine: PostgreSQL,
    WORKERS `skat serve` processes and nginx in front (docs/deploy.md).
    Prints the address to open and each worker's process id; a worker that
    dies is restarted; Ctrl+C or SIGTERM stops everything."""
    import tempfile
    from pathlib import Path

    from ..server.cluster import Cluster, nginx_binary, run
    from ..server.services import postgres_available

    if nginx_binary() is None:
        raise click.ClickException("nginx is not installed (Debian: apt-get install nginx)")
    if db_url is None and not postgres_available():
        raise click.ClickException(
            "PostgreSQL is not installed (Debian: apt-get install postgresql), or give --db"
        )
    where = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="skat-cluster-"))
    where.mkdir(parents=True, exist_ok=True)
    where.chmod(0o755)  # PostgreSQL runs as its own user and keeps its data in here
    cluster = Cluster(
        where,
        postgres_folder=where.resolve() / "postgres",
        workers=workers,
        port=port,
        db_url=db_url,
        worker_args=("--lease-ttl", str(lease_ttl), "--log-level", "warning"),
        metrics_port=metrics_port,
    )
    try:
        run(cluster, click.echo)
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from exc
