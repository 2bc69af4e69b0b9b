"""Throw-away PostgreSQL servers for tests and the local cluster
(``scripts/cluster``): Debian's binaries, a private data folder, loopback
only, trust authentication, run as an unprivileged user.

Only the standard library and the PostgreSQL programs (``initdb``,
``pg_ctl``, ``psql``); the database URLs are for the store's asyncpg driver.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType

SUPERUSER = "skat"  # the database superuser initdb creates (trust: no password)
_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


class ServiceError(Exception):
    """A service that could not be set up or started (with its log's tail)."""


def postgres_bindir() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: ``pg_config --bindir``, else
    the newest ``/usr/lib/postgresql/*/bin`` (Debian keeps them off PATH)."""
    found: list[Path] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, timeout=10, check=True
            )
            found.append(Path(out.stdout.strip()))
    found += [
        Path(p)
        for p in sorted(
            glob.glob("/usr/lib/postgresql/*/bin"),
            key=lambda p: [int(x) if x.isdigit() else 0 for x in Path(p).parent.name.split(".")],
            reverse=True,
        )
    ]
    for d in found:
        if all((d / tool).is_file() for tool in ("initdb", "pg_ctl", "postgres", "psql")):
            return d
    return None


def postgres_available() -> bool:
    """Whether the PostgreSQL server programs are installed here."""
    return postgres_bindir() is not None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _unprivileged_user() -> str:
    """Whom the server runs as when we are root: Debian's ``postgres``, else ``nobody``."""
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise ServiceError("running as root and there is no unprivileged user to run PostgreSQL")


class Postgres:
    """One PostgreSQL server: ``initdb`` into ``folder`` (a fresh temporary
    one if not given, removed by `stop`), started with ``pg_ctl`` on
    127.0.0.1 (a free port unless given), its socket in that folder.

    ``fast`` turns durability off (``fsync``, ``synchronous_commit``,
    ``full_page_writes``): for tests only, a crash of the machine loses data.
    Use as a context manager, or call `start` and `stop`.
    """

    def __init__(
        self,
        folder: str | Path | None = None,
        port: int | None = None,
        *,
        fast: bool = False,
        max_connections: int = 100,
    ) -> None:
        bindir = postgres_bindir()
        if bindir is None:
            raise ServiceError(
                "PostgreSQL is not installed (no initdb/pg_ctl; Debian: apt-get install postgresql)"
            )
        self.bindir = bindir
        self._own_folder = folder is None
        # /tmp rather than a private folder of root's: the server's user must reach it
        self.folder = Path(folder or tempfile.mkdtemp(prefix="skat-pg-", dir="/tmp")).resolve()
        self.data = self.folder / "data"
        self.log = self.folder / "postgres.log"
        self._fixed_port = port
        self.port = port or 0
        self.fast = fast
        self.max_connections = max_connections
        self.user = _unprivileged_user() if os.geteuid() == 0 else None
        self.running = False

    # ------------------------------------------------------------- running
    def _as_user(self, cmd: list[str]) -> list[str]:
        if self.user is None:
            return cmd
        if shutil.which("runuser"):
            return ["runuser", "-u", self.user, "--", *cmd]
        if shutil.which("setpriv"):
            ids = [f"--reuid={self.user}", f"--regid={self.user}", "--init-groups"]
            return ["setpriv", *ids, *cmd]
        raise ServiceError("running as root and neither runuser nor setpriv is installed")

    def _run(self, cmd: list[str], what: str, timeout: float = 60.0) -> str:
        try:
            out = subprocess.run(
                cmd, capture_output=True, text=True, timeout=timeout, cwd=self.folder
            )
        except (OSError, subprocess.SubprocessError) as exc:
            raise ServiceError(f"PostgreSQL: {what} failed: {exc}") from None
        if out.returncode != 0:
            detail = (out.stderr or out.stdout).strip()
            raise ServiceError(f"PostgreSQL: {what} failed ({out.returncode}): {detail}")
        return out.stdout

    def _initdb(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.user is not None:
            shutil.chown(self.folder, self.user, self.user)
            probe = subprocess.run(self._as_user(["test", "-w", str(self.folder)]), check=False)
            if probe.returncode != 0:
                raise ServiceError(
                    f"PostgreSQL: user {self.user} cannot write {self.folder} "
                    "(a folder above it is private); use one under /tmp"
                )
        cmd = [
            str(self.bindir / "initdb"),
            "-D", str(self.data),
            "-U", SUPERUSER,
            "-E", "UTF8",
            "--locale=C",
            "--auth=trust",
        ]  # fmt: skip
        if self.fast:
            cmd.append("--no-sync")
        self._run(self._as_user(cmd), "initdb", timeout=120)
        # trust, and only over the socket in our folder and the loopback address
        (self.data / "pg_hba.conf").write_text(
            "local all all trust\nhost all all 127.0.0.1/32 trust\n", encoding="utf-8"
        )

    def start(self) -> Postgres:
        if self.running:
            return self
        if not (self.data / "PG_VERSION").exists():
            self._initdb()
        settings = {
            "listen_addresses": "127.0.0.1",
            "unix_socket_directories": str(self.folder),
            "max_connections": str(self.max_connections),
            # a client frozen inside a transaction (a stopped worker) holds
            # its row locks only this long; the store sets it per session too
            "idle_in_transaction_session_timeout": "5s",
        }
        if self.fast:
            settings |= {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
        options = " ".join(f"-c {k}={v}" for k, v in settings.items())
        tries = 1 if self._fixed_port else 3  # a free port may be taken before we bind it
        for attempt in range(tries):
            self.port = self._fixed_port or free_port()
            cmd = [
                str(self.bindir / "pg_ctl"),
                "-D", str(self.data),
                "-l", str(self.log),
                "-o", f"-p {self.port} {options}",
                "-w", "-t", "60",
                "start",
            ]  # fmt: skip
            try:
                self._run(self._as_user(cmd), "start", timeout=90)
                break
            except ServiceError as exc:
                if attempt == tries - 1:
                    raise ServiceError(f"{exc}\n{self.log_tail()}") from None
        self.running = True
        return self

    def log_tail(self, chars: int = 2000) -> str:
        try:
            return self.log.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def stop(self) -> None:
        """Stop the server (fast shutdown); remove the folder if it was ours."""
        if self.running:
            cmd = [str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop"]
            with contextlib.suppress(ServiceError):
                self._run(self._as_user(cmd), "stop", timeout=60)
            self.running = False
        if self._own_folder:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Postgres:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # ----------------------------------------------------------- databases
    def psql(self, sql: str, database: str = "postgres") -> str:
        """Run SQL as the superuser (over the loopback address); its output."""
        cmd = [
            str(self.bindir / "psql"),
            "-X", "-q", "-A", "-t",
            "-v", "ON_ERROR_STOP=1",
            "-h", "127.0.0.1",
            "-p", str(self.port),
            "-U", SUPERUSER,
            "-d", database,
            "-c", sql,
        ]  # fmt: skip
        return self._run(cmd, "psql")

    def create_database(self, name: str, template: str | None = None) -> str:
        """A new empty database (a copy of ``template`` if given); its URL."""
        for n in (name, template):
            if n is not None and not _NAME.fullmatch(n):
                raise ValueError(f"database names here are [a-z_][a-z0-9_]*: {n!r}")
        # FILE_COPY: copying a small template is faster than WAL-logging it
        sql = f'CREATE DATABASE "{name}"'
        if template is not None:
            sql += f' TEMPLATE "{template}"'
            if self.version() >= 15:
                sql += " STRATEGY FILE_COPY"
        self.psql(sql)
        return self.url(name)

    def version(self) -> int:
        """The major version of the data folder."""
        return int((self.data / "PG_VERSION").read_text().strip().split(".")[0])

    def drop_database(self, name: str) -> None:
        if not _NAME.fullmatch(name):
            raise ValueError(f"not a database name: {name!r}")
        self.psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def url(self, name: str) -> str:
        """The store's URL of database ``name``."""
        return f"postgresql+asyncpg://{SUPERUSER}@127.0.0.1:{self.port}/{name}"
