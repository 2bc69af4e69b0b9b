"""The event store's group commit on a real SQLite file: appends that wait
together share one transaction, one bad row fails alone, and the writer
goes on after a failure."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from pathlib import Path

import pytest

from skat.server.store import Store, StoredTable


def _table(table_id: str) -> StoredTable:
    now = time.time()
    return StoredTable(table_id, now, now, "open", {}, "00", "c", "h")


def test_a_duplicate_in_a_batch_fails_alone_and_the_writer_goes_on(tmp_path: Path) -> None:
    async def go() -> None:
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 's.db'}")
        await store.open()
        await store.create_table(_table("a"), own=True)
        await store.append("a", 1, "start", {})
        # three appends queued together (one transaction), the middle one a
        # version that exists already; the last one also changes the status
        results = await asyncio.gather(
            store.append("a", 2, "act", {"n": 2}),
            store.append("a", 1, "act", {"n": 1}),
            store.append("a", 3, "expire", {}, status="expired"),
            return_exceptions=True,
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], Exception) and "UNIQUE" in str(results[1])
        await store.append("a", 4, "act", {"n": 4})  # the writer is still there
        events = await store.events("a")
        assert [(e.version, e.kind, e.payload) for e in events] == [
            (1, "start", {}),
            (2, "act", {"n": 2}),
            (3, "expire", {}),
            (4, "act", {"n": 4}),
        ]
        stored = await store.table("a")
        assert stored is not None and stored.status == "expired"
        await store.close()
        # everything acknowledged is on disk for the next process
        again = Store(f"sqlite+aiosqlite:///{tmp_path / 's.db'}")
        await again.open()
        assert [e.version for e in await again.events("a")] == [1, 2, 3, 4]
        await again.close()

    asyncio.run(go())


@pytest.mark.parametrize("rows", [1, 7])
def test_appends_are_stored_in_order_with_their_payloads(tmp_path: Path, rows: int) -> None:
    async def go() -> None:
        store = Store(f"sqlite+aiosqlite:///{tmp_path / 's.db'}")
        await store.open()
        assert await store.claim("t")  # this process serves the table
        await asyncio.gather(
            *(store.append("t", v, "chat", {"text": f"ä {v}"}) for v in range(1, rows + 1))
        )
        events = await store.events("t")
        assert [(e.version, e.payload["text"]) for e in events] == [
            (v, f"ä {v}") for v in range(1, rows + 1)
        ]
        await store.close()

    asyncio.run(go())


@pytest.mark.parametrize("sync", ["full", "normal"])
def test_a_table_of_another_worker_is_refused_and_nothing_of_it_stored(
    tmp_path: Path, sync: str
) -> None:
    """The group commit's own SQLite connection (sqlitewriter.py) checks the
    lease in the batch's transaction: a worker that does not hold the table
    writes nothing, and what the owner wrote is there for the next process,
    whichever sync level (--db-sqlite-sync) it ran with."""
    from skat.server.store import NotOwner, StoreConfig

    url = f"sqlite+aiosqlite:///{tmp_path / 's.db'}"

    async def go() -> None:
        config = StoreConfig(sqlite_sync=sync)  # type: ignore[arg-type]
        a = Store(url, config, worker="a")
        b = Store(url, config, worker="b")
        await a.open()
        await b.open()
        await a.create_table(_table("t"), own=True)
        await a.append("t", 1, "start", {})
        with pytest.raises(NotOwner):
            await b.append("t", 2, "act", {"by": "b"})
        # b's writer goes on: its own table is written
        await b.create_table(_table("u"), own=True)
        await b.append("u", 1, "start", {}, status="playing")
        await a.append("t", 2, "act", {"by": "a"})
        await a.close()
        await b.close()
        again = Store(url)
        await again.open()
        assert [(e.version, e.payload) for e in await again.events("t")] == [
            (1, {}),
            (2, {"by": "a"}),
        ]
        stored = await again.table("u")
        assert stored is not None and stored.status == "playing"
        await again.close()

    asyncio.run(go())


def test_appends_of_several_tables_in_one_turn_are_committed_before_they_return(
    tmp_path: Path,
) -> None:
    """Under --db-sqlite-sync normal (the default) the event loop commits
    the appends of one of its turns itself, in one transaction
    (sqlitewriter.py's ``write_now``): each call returns once its row is in
    the file, which another connection (another process) reads."""
    import sqlite3

    path = tmp_path / "s.db"

    async def go() -> None:
        store = Store(f"sqlite+aiosqlite:///{path}")
        await store.open()
        for name in "abcd":
            await store.create_table(_table(name), own=True)
        for version in (1, 2, 3):
            results = await asyncio.gather(
                *(store.append(name, version, "act", {"n": version}) for name in "abcd"),
                store.append("d", version + 10, "expire", {}, status="expired"),
            )
            assert results == [None] * 5
            with contextlib.closing(
                sqlite3.connect(path)
            ) as other:  # the file, as another process reads it
                rows = other.execute(
                    "SELECT table_id, version FROM skat_events WHERE version % 10 = ?",
                    (version,),
                ).fetchall()
                status = other.execute("SELECT status FROM skat_tables WHERE id = 'd'").fetchone()
            assert sorted(rows) == [
                ("a", version),
                ("b", version),
                ("c", version),
                ("d", version),
                ("d", version + 10),
            ]
            assert status == ("expired",)
        await store.close()

    asyncio.run(go())


@pytest.mark.parametrize("sync", ["full", "normal"])
def test_an_append_waits_for_another_writer_without_stopping_the_event_loop(
    tmp_path: Path, sync: str
) -> None:
    """Another process holds SQLite's write lock: an append waits for it
    (and is committed once it is free) while the event loop serves
    everything else; the event loop's own commits never wait for the lock,
    the group commit's thread does."""
    import sqlite3

    from skat.server.store import StoreConfig

    path = tmp_path / "s.db"

    async def go() -> None:
        store = Store(f"sqlite+aiosqlite:///{path}", StoreConfig(sqlite_sync=sync))  # type: ignore[arg-type]
        await store.open()
        await store.create_table(_table("a"), own=True)
        await store.append("a", 1, "start", {})
        other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        other.execute("BEGIN IMMEDIATE")  # another process writes
        append = asyncio.create_task(store.append("a", 2, "act", {"n": 2}))
        ticks = 0
        while ticks < 20:  # the event loop goes on meanwhile
            await asyncio.sleep(0.01)
            ticks += 1
        assert not append.done()  # nothing acknowledged that is not committed
        other.execute("COMMIT")
        other.close()
        await append
        with contextlib.closing(sqlite3.connect(path)) as reader:
            versions = reader.execute(
                "SELECT version FROM skat_events WHERE table_id = 'a' ORDER BY version"
            ).fetchall()
        assert versions == [(1,), (2,)]
        await store.append("a", 3, "act", {"n": 3})  # and on as before
        await store.close()

    asyncio.run(go())


def _append_chat(path: Path, moves: int, pause: float) -> int:
    """Append ``moves`` chat events of one table (``pause`` seconds after
    each: the thread's turn) and return the size of the WAL file then."""

    async def go() -> int:
        store = Store(f"sqlite+aiosqlite:///{path}")
        await store.open()
        await store.create_table(_table("a"), own=True)
        for version in range(1, moves + 1):
            await store.append("a", version, "chat", {"text": "x" * 200})
            if pause:
                await asyncio.sleep(pause)
        wal = path.with_name(path.name + "-wal").stat().st_size
        await store.close()
        return wal

    return asyncio.run(go())


def test_the_wal_file_is_checkpointed_without_a_disk_sync_per_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The event loop's own commits never checkpoint (a checkpoint syncs
    the disk); the group commit's thread does, soon after: the WAL file
    does not grow with every move (nor the moves a power cut may lose)."""
    from skat.server import sqlitewriter

    monkeypatch.setattr(sqlitewriter, "CHECKPOINT_AFTER", 0.0)
    monkeypatch.setattr(sqlitewriter, "RESTART_FRAMES", 50)
    # the bound that holds when the thread is late (a busy machine)
    monkeypatch.setattr(sqlitewriter, "INLINE_LIMIT", 60)
    wal = _append_chat(tmp_path / "s.db", 400, 0.002)
    assert wal < 1_000_000, f"the WAL file has grown to {wal} bytes"


def test_the_wal_file_stays_bounded_when_the_checkpoints_never_come(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A machine so busy that the thread's timed checkpoint never runs: after
    `INLINE_LIMIT` commits of its own the event loop hands its batches to
    the thread, which checkpoints first; every move is still stored."""
    from skat.server import sqlitewriter

    monkeypatch.setattr(sqlitewriter, "INLINE_LIMIT", 60)
    monkeypatch.setattr(sqlitewriter.SqliteWriter, "_start_checkpoint", lambda self: None)
    path = tmp_path / "s.db"
    wal = _append_chat(path, 400, 0.0)
    assert wal < 1_000_000, f"the WAL file has grown to {wal} bytes"
    with contextlib.closing(sqlite3.connect(path)) as reader:
        (count,) = reader.execute(
            "SELECT count(*) FROM skat_events WHERE table_id = 'a'"
        ).fetchone()
    assert count == 400
