"""A site of several server processes on one machine: PostgreSQL, N
``skat serve`` workers and nginx in front, all on loopback (docs/deploy.md).

nginx sends every request and websocket of one table to one worker (a
consistent hash of the table id in the URL); the database decides who owns
a table (a lease per table, `store.Store.claim`), so a proxy that disagrees
with the workers for a while costs a reconnect, never a split table. The
same classes start the cluster for ``skat cluster`` and for the tests.
"""

from __future__ import annotations

import contextlib
import grp
import http.client
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

#: The table id in a table's URLs (`/t/ID`, `/ws/ID`, `/api/tables/ID...`).
TABLE_URL = r"^/(?:t|ws|api/tables)/(?<skat_table>[A-Za-z0-9_-]{1,32})"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def nginx_binary() -> str | None:
    """Debian's nginx, if installed."""
    for candidate in (shutil.which("nginx"), "/usr/sbin/nginx"):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


#: Seconds nginx waits for a worker's answer to a plain request (and to a
#: websocket's handshake) before it sends it to the next worker: a worker
#: that is stopped or hangs still has its socket accepting connections, so
#: only this timeout notices it.
HTTP_TIMEOUT = 5
#: For the open-card analysis and the reviews, which may think for a while.
ANALYSIS_TIMEOUT = 120
#: Seconds of silence from a worker after which nginx gives up a websocket
#: (and the handshake of a new one: the next worker gets it). The workers
#: send a ping frame every `WS_PING` seconds, so a live worker is never silent
#: that long; the page itself pings when it hears nothing (docs/protocol.md).
WS_TIMEOUT = 4
WS_PING = 1.5
#: Connections an nginx process may hold (a proxied websocket takes two). At
#: 4,096 a cluster seated about 4,000 websockets and no more (1,330 tables
#: of three people; docs/benchmarks.md, "Through nginx").
WORKER_CONNECTIONS = 16_384


def _open_files() -> int:
    """Files an nginx process asks for: one a connection and some, but no
    more than the hard limit nginx inherits from us (an unprivileged nginx
    cannot go beyond it, and would say so in its log at every start)."""
    import resource  # POSIX only, as nginx here

    want = WORKER_CONNECTIONS + 1024
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    return want if hard == resource.RLIM_INFINITY else min(want, hard)


#: The user nginx's worker processes run as when nginx is started as root
#: (set in its configuration: the workers' sockets are reachable by its group).
PROXY_USER = "nobody"


def proxy_group() -> int | None:
    """The group of nginx's worker processes: `PROXY_USER`'s when we are root
    (nginx's workers change to it), None otherwise (they run as we do)."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(PROXY_USER).pw_gid
    except KeyError:
        return None


def guard_sockets(folder: Path) -> None:
    """The workers' sockets folder, reachable by us and nginx only (issue 54,
    finding 12): uvicorn makes a socket mode 0666, and a worker trusts the
    X-Forwarded-For of whoever reaches its socket, so no other local user
    may (they would name a new client address in every request). As root:
    ours and nginx's group may pass through (0710); else ours only (0700)."""
    group = proxy_group()
    if group is None:
        folder.chmod(0o700)
        return
    os.chown(folder, os.geteuid(), group)
    folder.chmod(0o710)


def nginx_config(folder: Path, port: int, upstreams: Sequence[Path]) -> str:
    """nginx's configuration for workers listening on the unix sockets
    ``upstreams`` (only the proxy reaches them: no port to connect to past it).

    - ``hash ... consistent``: a table's URLs reach one worker; adding or
      losing a worker moves only that worker's share of the tables.
    - ``max_fails=1 fail_timeout=10s`` with ``proxy_next_upstream error
      timeout``: a dead or hung worker's tables go to the next worker at the
      first refused or unanswered request; it is tried again after 10 s
      (each try of a hung worker costs one request a timeout). The ``zone``
      shares that among nginx's processes.
    - ``non_idempotent``: a POST is retried at the next worker too (creating
      a table twice leaves one unvisited table, which expires; the others
      compute and store nothing).
    - websockets: HTTP/1.1 with the Upgrade headers, `WS_TIMEOUT`.
    """
    servers = "\n".join(f"        server unix:{p} max_fails=1 fail_timeout=10s;" for p in upstreams)
    tmp = folder / "tmp"
    proxy = """proxy_pass http://skat;
            proxy_http_version 1.1;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_connect_timeout 2s;
            proxy_send_timeout 10s;
            proxy_next_upstream error timeout non_idempotent;
            proxy_next_upstream_tries 3;"""
    group = proxy_group()
    user = "" if group is None else f"user {PROXY_USER} {grp.getgrgid(group).gr_name};\n"
    return f"""# made by skat.server.cluster; see docs/deploy.md
{user}worker_processes auto;
# a websocket through the proxy holds two connections (and two files) in
# one nginx process, and the accepting process is not chosen evenly: 4,096
# a process seated no more than about 4,000 websockets in all
worker_rlimit_nofile {_open_files()};
daemon off;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} warn;
events {{
    worker_connections {WORKER_CONNECTIONS};
}}
http {{
    access_log off;
    client_body_temp_path {tmp / "body"};
    proxy_temp_path {tmp / "proxy"};
    fastcgi_temp_path {tmp / "fastcgi"};
    uwsgi_temp_path {tmp / "uwsgi"};
    scgi_temp_path {tmp / "scgi"};
    client_max_body_size 64k;
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        "" "";
    }}
    # the table of the URL; other URLs (the start page, creating a table)
    # go to any worker
    map $uri $skat_key {{
        "~{TABLE_URL}" $skat_table;
        default $request_id;
    }}
    upstream skat {{
        zone skat 64k;
        hash $skat_key consistent;
{servers}
        keepalive 32;
    }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            {proxy}
            proxy_read_timeout {HTTP_TIMEOUT}s;
        }}
        location /ws/ {{
            {proxy}
            proxy_read_timeout {WS_TIMEOUT}s;
        }}
        location ~ ^/api/tables/[^/]+/(deals/[0-9]+/)?(analysis|review)$ {{
            {proxy}
            proxy_read_timeout {ANALYSIS_TIMEOUT}s;
        }}
    }}
}}
"""


@dataclass
class Nginx:
    """nginx in the foreground, configured by `nginx_config`."""

    folder: Path
    port: int
    upstreams: Sequence[Path]
    process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0) -> None:
        binary = nginx_binary()
        if binary is None:
            raise RuntimeError("nginx is not installed (Debian: apt-get install nginx)")
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.folder / "tmp"
        tmp.mkdir(exist_ok=True)
        tmp.chmod(0o777)  # nginx's own worker runs as nobody when started as root
        conf = self.folder / "nginx.conf"
        conf.write_text(nginx_config(self.folder, self.port, self.upstreams))
        self.process = subprocess.Popen(
            [binary, "-p", str(self.folder), "-c", str(conf), "-e", str(self.folder / "error.log")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                log = (self.folder / "error.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"nginx did not start: {log}")
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), 0.2),
            ):
                return
            time.sleep(0.05)
        raise RuntimeError("nginx did not listen in time")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful: ends when connections do
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


class _UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path: Path, timeout: float) -> None:
        super().__init__("localhost", timeout=timeout)
        self.path = path

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        try:
            sock.connect(str(self.path))
        except OSError:
            sock.close()
            raise
        self.sock = sock


def unix_request(
    path: Path,
    method: str,
    url: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 5.0,
) -> tuple[int, dict[str, str], bytes]:
    """A request to the server on the unix socket ``path`` (for the cluster's
    own checks and the tests): status, headers (lower case) and body."""
    conn = _UnixHTTPConnection(path, timeout)
    try:
        conn.request(method, url, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


@dataclass
class Worker:
    """One ``skat serve`` process, on the unix socket `socket` (only the
    proxy, and whoever may open files in the cluster's folder, reach it)."""

    name: str
    socket: Path
    db_url: str
    folder: Path
    extra: Sequence[str] = ()
    metrics: str | None = None  # HOST:PORT of its Prometheus metrics (None: none)
    process: subprocess.Popen[bytes] | None = None
    log: IO[bytes] | None = None

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.socket.parent.mkdir(parents=True, exist_ok=True)
        guard_sockets(self.socket.parent)  # nginx's (and ours) only
        with contextlib.suppress(FileNotFoundError):
            self.socket.unlink()  # an earlier life's (uvicorn keeps a socket file's mode)
        self.log = open(self.folder / f"{self.name}.log", "ab")  # kept open while it runs
        command = [
            sys.executable,
            "-c",
            "from skat.cli import main; main()",
            "serve",
            "--uds",
            str(self.socket),
            # only nginx reaches the socket; it sets X-Forwarded-For itself
            "--forwarded-allow-ips",
            "*",
            "--ws-ping-interval",
            str(WS_PING),
            "--worker",
            self.name,
            *(("--metrics", self.metrics) if self.metrics else ()),
            *self.extra,
        ]
        # the database URL (and its password) in the environment: a command
        # line is every local user's to read (ps); other SKAT_ settings of
        # skat serve in our environment reach the workers as well
        env = {**os.environ, "SKAT_DB": self.db_url}
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, env=env)

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"worker {self.name} exited: {self.tail()}")
            try:
                if unix_request(self.socket, "GET", "/healthz", timeout=1)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"worker {self.name} did not answer in time: {self.tail()}")

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL: what a crash or an out-of-memory kill looks like."""
        if self.alive():
            assert self.process is not None
            self.process.kill()
            self.process.wait()

    def stop(self) -> None:
        if self.alive():
            assert self.process is not None
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.log is not None:
            self.log.close()
            self.log = None

    def tail(self) -> str:
        path = self.folder / f"{self.name}.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""


@dataclass
class Cluster:
    """PostgreSQL (unless ``db_url`` names a database), the workers and nginx."""

    folder: Path
    workers: int = 2
    port: int = 0  # nginx's; 0: a free one
    db_url: str | None = None
    worker_args: Sequence[str] = ()
    # worker i (from 1) serves its metrics on 127.0.0.1:metrics_port+i-1 (None: none)
    metrics_port: int | None = None
    members: list[Worker] = field(default_factory=list)
    nginx: Nginx | None = None
    postgres: object | None = None
    postgres_folder: Path | None = None  # None: a temporary one
    postgres_fast: bool = False  # durability off (tests only)
    _sockets: Path | None = None  # the folder of the workers' sockets

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        try:
            url = self.db_url or self._start_postgres()
            # short paths: a unix socket's path has at most 107 bytes
            sockets = Path(tempfile.mkdtemp(prefix="skat-w-", dir="/tmp"))
            self._sockets = sockets
            self.members = self.make_workers(url, sockets)
            # the first worker creates or migrates the schema; then the others
            first, *others = self.members
            first.start()
            first.wait_ready()
            for w in others:
                w.start()
            for w in others:
                w.wait_ready()
            self.port = self.port or free_port()
            self.nginx = Nginx(self.folder / "nginx", self.port, [w.socket for w in self.members])
            self.nginx.start()
        except BaseException:
            self.stop()
            raise

    def make_workers(self, url: str, sockets: Path) -> list[Worker]:
        return [
            Worker(
                f"w{i + 1}",
                sockets / f"w{i + 1}.sock",
                url,
                self.folder / "workers",
                self.worker_args,
                None if self.metrics_port is None else f"127.0.0.1:{self.metrics_port + i}",
            )
            for i in range(self.workers)
        ]

    def _start_postgres(self) -> str:
        from .services import Postgres

        # in the cluster's folder if PostgreSQL's own user can reach it (it
        # stays there), else in a temporary one (removed when it stops)
        pg = Postgres(self.postgres_folder, fast=self.postgres_fast)
        self.postgres = pg
        pg.start()
        pg.create_database("skat")
        return pg.url("skat")

    def worker(self, name: str) -> Worker:
        return next(w for w in self.members if w.name == name)

    def stop(self) -> None:
        if self.nginx is not None:
            self.nginx.stop()
        for w in self.members:
            w.stop()
        if self._sockets is not None:
            shutil.rmtree(self._sockets, ignore_errors=True)
            self._sockets = None
        pg = self.postgres
        if pg is not None:
            stop: Callable[[], None] = pg.stop  # type: ignore[attr-defined]
            stop()
            self.postgres = None

    def __enter__(self) -> Cluster:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def run(cluster: Cluster, say: Callable[[str], None], respawn: bool = True) -> None:
    """Run ``cluster`` until SIGINT or SIGTERM; a worker that dies is started
    again after a second (its tables meanwhile go to the others)."""
    stopping = False

    def on_signal(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        cluster.start()
        say(f"skat cluster: open {cluster.address}/ in a browser (Ctrl+C stops)")
        for w in cluster.members:
            say(f"  worker {w.name}: pid {w.pid}, unix:{w.socket}{_metrics_of(w)}")
        say(f"  logs: {cluster.folder}")
        while not stopping:
            time.sleep(0.5)
            for w in cluster.members:
                if not w.alive() and respawn and not stopping:
                    say(f"  worker {w.name} died; its tables move to the others; restarting it")
                    w.stop()
                    time.sleep(1.0)
                    w.start()
                    say(f"  worker {w.name}: pid {w.pid}, unix:{w.socket}{_metrics_of(w)}")
    finally:
        say("skat cluster: stopping")
        cluster.stop()
        for s, handler in old.items():
            signal.signal(s, handler)


def _metrics_of(w: Worker) -> str:
    return f", metrics http://{w.metrics}/metrics" if w.metrics else ""


__all__ = [
    "Cluster",
    "Nginx",
    "Worker",
    "free_port",
    "nginx_binary",
    "nginx_config",
    "run",
    "unix_request",
]
