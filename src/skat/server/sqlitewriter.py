"""The group commit's own way to a SQLite file (issue 30: the hot path of
an action): one thread with one plain `sqlite3` connection that writes a
whole batch (the lease check, the event rows, the status changes and the
commit) in one call, so a batch costs one trip between the event loop and
a thread instead of SQLAlchemy's and aiosqlite's five or six.

``synchronous``: SQLite's sync level for these commits (a WAL file):
``normal`` (the default) syncs at checkpoints only, so a killed server
process loses nothing but a power cut or a crash of the whole machine may
lose the last moves; ``full`` syncs the disk at every commit, so an
accepted action survives a power cut too (docs/storage.md). Everything
else keeps using SQLAlchemy; `Store` makes both take their turns (its
``_turn``).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

from .database import NotOwner

Sync = Literal["full", "normal"]

_STATUS = "UPDATE skat_tables SET status = ?, updated_at = ? WHERE id = ?"


class SqliteWriter:
    """Writes batches of event rows to the SQLite file ``path``."""

    def __init__(self, path: str, insert_sql: str, synchronous: Sync = "normal") -> None:
        self.path = path
        self.insert_sql = insert_sql
        self.synchronous = synchronous
        self._conn: sqlite3.Connection | None = None
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="skat-store-writer")

    async def write(
        self,
        rows: Sequence[dict[str, Any]],
        statuses: Iterable[tuple[str, float, str]],
        lease: tuple[float, str, str],
    ) -> None:
        """Commit ``rows`` and the ``(status, at, table_id)`` changes in one
        transaction, after renewing this process's leases of the rows'
        tables to ``lease`` = ``(expires_at, owner, token)`` (else
        `NotOwner`, nothing written)."""
        # the thread's future awaited directly (run_in_executor's checks of
        # the callable cost as much as the hand-over itself)
        await asyncio.wrap_future(self._thread.submit(self._write, rows, list(statuses), lease))

    def _connect(self) -> sqlite3.Connection:
        # autocommit mode: the transaction is ours (BEGIN IMMEDIATE takes
        # the write lock at once; another process's writer makes it wait
        # in SQLite's busy handler, as aiosqlite's connections do)
        conn = sqlite3.connect(self.path, timeout=5.0, isolation_level=None)
        conn.execute(f"PRAGMA synchronous={self.synchronous.upper()}")
        return conn

    def _write(
        self,
        rows: Sequence[dict[str, Any]],
        statuses: list[tuple[str, float, str]],
        lease: tuple[float, str, str],
    ) -> None:
        conn = self._conn or self._connect()
        self._conn = conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                tables = {row["table_id"] for row in rows}
                marks = ", ".join("?" * len(tables))
                renewed = conn.execute(
                    "UPDATE skat_leases SET expires_at = ? WHERE owner = ? AND token = ? "
                    f"AND table_id IN ({marks})",
                    (*lease, *tables),
                ).rowcount
                if renewed != len(tables):
                    mine = conn.execute(
                        "SELECT table_id FROM skat_leases WHERE owner = ? AND token = ? "
                        f"AND table_id IN ({marks})",
                        (*lease[1:], *tables),
                    ).fetchall()
                    raise NotOwner(sorted(tables - {r[0] for r in mine}))
                if len(rows) == 1:
                    conn.execute(self.insert_sql, rows[0])
                else:
                    conn.executemany(self.insert_sql, rows)
                if statuses:
                    conn.executemany(_STATUS, statuses)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    try:
                        conn.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass  # the connection is dropped below
                raise
        except (NotOwner, sqlite3.IntegrityError):  # a conflict, the connection is fine
            raise
        except BaseException:
            # a connection that failed (a full disk, an I/O error) is not
            # trusted again: the next batch opens a fresh one
            self._conn = None
            conn.close()
            raise

    def close(self) -> None:
        def _close() -> None:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

        self._thread.submit(_close).result()
        self._thread.shutdown(wait=True)


__all__ = ["SqliteWriter", "Sync"]
