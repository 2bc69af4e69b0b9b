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

Under ``normal`` a commit syncs nothing, so it costs tens of microseconds
and never waits for the disk: `write_now` commits in the calling thread
(the event loop: issue 52, the hand-over to the thread and back cost more
than the commit) on a connection of its own that never waits for SQLite's
lock (another writer holds it: the batch goes to the thread) and never
checkpoints (a checkpoint syncs the disk): the thread checkpoints a second
after the first commit since the last checkpoint, so a power cut loses
about the last second of moves, not the whole WAL file's.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal

from .database import NotOwner

Sync = Literal["full", "normal"]

_STATUS = "UPDATE skat_tables SET status = ?, updated_at = ? WHERE id = ?"

#: seconds from the first commit without a disk sync to the thread's checkpoint
CHECKPOINT_AFTER = 1.0
#: pages of the WAL file from which a checkpoint makes the writers wait
#: until it is done (RESTART): without, a commit that always comes in
#: during the checkpoint keeps the next writer from starting the file anew
RESTART_FRAMES = 1000  # SQLite's own wal_autocheckpoint
#: commits the event loop makes after the thread's last checkpoint before
#: it hands its batches to the thread, which checkpoints first: a bound on
#: the WAL file (and on what a power cut may lose) that holds however late
#: the thread gets a core (a busy machine starved it for 250 ms in CI).
#: Far above what a second brings at 3,000 tables (about 1,000 commits)
INLINE_LIMIT = 5000

log = logging.getLogger("skat.server")


class SqliteWriter:
    """Writes batches of event rows to the SQLite file ``path``."""

    def __init__(self, path: str, insert_sql: str, synchronous: Sync = "normal") -> None:
        self.path = path
        self.insert_sql = insert_sql
        self.synchronous = synchronous
        self._conn: sqlite3.Connection | None = None
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="skat-store-writer")
        #: the event loop commits itself (`write_now`): no disk sync per commit
        self.inline = synchronous == "normal"
        self._inline: sqlite3.Connection | None = None  # write_now's
        self._checkpoint: asyncio.TimerHandle | None = None
        self._frames = 0  # pages in the WAL file at the last checkpoint
        self._commits = 0  # write_now's commits since the last checkpoint began
        self.closed = False

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
        if self.inline:
            self._dirty()

    def write_now(
        self,
        rows: Sequence[dict[str, Any]],
        statuses: Iterable[tuple[str, float, str]],
        lease: tuple[float, str, str],
    ) -> bool:
        """`write` in the calling thread (the event loop), without waiting:
        False at once if SQLite's write lock is taken (another connection
        writes; nothing written, the caller hands the batch to `write`) or
        the writer is closed; True once committed. Raises as `write` does
        (nothing written)."""
        if self.closed or self._commits >= INLINE_LIMIT:
            return False  # the thread checkpoints before this batch (`_write`)
        conn = self._inline
        if conn is None:
            # never waits for the lock (timeout 0) and never checkpoints
            # (a checkpoint syncs the disk: the thread does it, `_dirty`);
            # used by the event loop only, closed by `close` in the thread
            conn = self._connect(timeout=0.0, check_same_thread=False)
            conn.execute("PRAGMA wal_autocheckpoint=0")
            self._inline = conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY:
                return False
            self._inline = None
            conn.close()
            raise
        try:
            self._transact(conn, rows, list(statuses), lease)
        except (NotOwner, sqlite3.IntegrityError):  # a conflict, the connection is fine
            raise
        except BaseException:
            self._inline = None  # not trusted again (a full disk, an I/O error)
            conn.close()
            raise
        self._commits += 1
        self._dirty()
        return True

    def _dirty(self) -> None:
        """A commit without a disk sync is in the WAL file: the thread
        checkpoints (syncs it to the disk) `CHECKPOINT_AFTER` seconds after
        the first one since the last checkpoint."""
        if self._checkpoint is None:
            loop = asyncio.get_running_loop()
            self._checkpoint = loop.call_later(CHECKPOINT_AFTER, self._start_checkpoint)

    def _start_checkpoint(self) -> None:
        self._checkpoint = None
        if not self.closed:
            self._thread.submit(self._checkpoint_now)

    def _checkpoint_now(self, restart: bool = False) -> None:
        # PASSIVE waits for no reader and no writer (the event loop may
        # commit meanwhile: its BEGIN finds the lock taken during a RESTART
        # and hands its batch here, after this); both sync the WAL first
        commits = self._commits
        try:
            conn = self._conn or self._connect()
            self._conn = conn
            mode = "RESTART" if restart or self._frames >= RESTART_FRAMES else "PASSIVE"
            busy, frames, _ = conn.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
            self._frames = 0 if mode == "RESTART" and not busy else frames
        except sqlite3.Error as exc:  # the next one tries again
            log.warning("store: a checkpoint failed (%s)", exc)
            return
        self._commits -= commits  # those since it began count towards the next

    def _connect(self, timeout: float = 5.0, check_same_thread: bool = True) -> sqlite3.Connection:
        # autocommit mode: the transaction is ours (BEGIN IMMEDIATE takes
        # the write lock at once; another process's writer makes it wait
        # in SQLite's busy handler, as aiosqlite's connections do)
        conn = sqlite3.connect(
            self.path, timeout=timeout, isolation_level=None, check_same_thread=check_same_thread
        )
        conn.execute(f"PRAGMA synchronous={self.synchronous.upper()}")
        return conn

    def _write(
        self,
        rows: Sequence[dict[str, Any]],
        statuses: list[tuple[str, float, str]],
        lease: tuple[float, str, str],
    ) -> None:
        if self._commits >= INLINE_LIMIT:  # the event loop waits for this one
            self._checkpoint_now(restart=True)
        conn = self._conn or self._connect()
        self._conn = conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            self._transact(conn, rows, statuses, lease)
        except (NotOwner, sqlite3.IntegrityError):  # a conflict, the connection is fine
            raise
        except BaseException:
            # a connection that failed (a full disk, an I/O error) is not
            # trusted again: the next batch opens a fresh one
            self._conn = None
            conn.close()
            raise

    def _transact(
        self,
        conn: sqlite3.Connection,
        rows: Sequence[dict[str, Any]],
        statuses: list[tuple[str, float, str]],
        lease: tuple[float, str, str],
    ) -> None:
        """The batch in the transaction ``conn`` has begun, committed; or
        rolled back and raised."""
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
                    pass  # the caller drops the connection
            raise

    def stop(self) -> None:
        """No more `write_now` and checkpoints (in the event loop, before `close`)."""
        self.closed = True
        if self._checkpoint is not None:
            self._checkpoint.cancel()
            self._checkpoint = None

    def close(self) -> None:
        """Close both connections and the thread (not from the event loop:
        it waits for the thread; after `stop`)."""
        self.closed = True

        def _close() -> None:
            for conn in (self._conn, self._inline):
                if conn is not None:
                    conn.close()
            self._conn = self._inline = None

        self._thread.submit(_close).result()
        self._thread.shutdown(wait=True)


__all__ = ["SqliteWriter", "Sync"]
