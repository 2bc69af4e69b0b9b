"""PostgreSQL as the store, on every run (whatever ``--store`` says): a real
server started by the tests (tests/helpers/stores.py), the store's writes and reads,
the schema migrations (on SQLite files too), and a whole list played through
a real ``skat serve --db postgresql+asyncpg://...`` process that is killed
and restarted. Skipped where PostgreSQL is not installed, failing where the
environment variable CI is set.
"""

from __future__ import annotations

import asyncio
import os
import pwd
import sqlite3
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, closing
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

import skat.server.schema as schema_mod
from skat.server.services import Postgres, free_port
from skat.server.store import Event, Store, StoredTable, StoreError
from tests.helpers import stores
from tests.helpers.processes import Server, mid_deal_2, scenario
from tests.helpers.stores import Db

pytestmark = pytest.mark.postgres

# The schema of version 1, as the first server created it (before schema versions).
OLD_DDL = (
    """CREATE TABLE skat_tables (
        id VARCHAR(32) NOT NULL, created_at FLOAT NOT NULL, updated_at FLOAT NOT NULL,
        status VARCHAR(16) NOT NULL, config TEXT NOT NULL, seed VARCHAR(64) NOT NULL,
        commitment VARCHAR(64) NOT NULL, creator_hash VARCHAR(64) NOT NULL,
        PRIMARY KEY (id))""",
    """CREATE TABLE skat_events (
        table_id VARCHAR(32) NOT NULL, version INTEGER NOT NULL, kind VARCHAR(16) NOT NULL,
        payload TEXT NOT NULL, at FLOAT NOT NULL, PRIMARY KEY (table_id, version))""",
    "INSERT INTO skat_tables VALUES ('old1', 1.5, 2.5, 'playing', '{}', 's', 'c', 'h')",
    """INSERT INTO skat_events VALUES ('old1', 1, 'sit', '{"seat": 0}', 1.75)""",
    """INSERT INTO skat_events VALUES ('old1', 2, 'chat', '{"text": "Grüß dich"}', 2.25)""",
)


@pytest.fixture(scope="module")
def pg() -> Postgres:
    return stores.postgres()


@pytest.fixture
def pg_db(pg: Postgres, tmp_path: Path) -> Db:
    """A fresh database with the current schema."""
    return stores.db_for(tmp_path, "postgres")


@pytest.fixture
def empty_pg(pg: Postgres) -> Iterator[Db]:
    """A fresh database without any table."""
    name = f"empty{os.getpid()}_{time.monotonic_ns()}"
    try:
        yield Db("postgres", pg.create_database(name), name=name)
    finally:
        pg.drop_database(name)


@asynccontextmanager
async def opened(url: str) -> AsyncIterator[Store]:
    store = Store(url)
    await store.open()
    try:
        yield store
    finally:
        await store.close()


def table(table_id: str, status: str = "open", created_at: float | None = None) -> StoredTable:
    at = time.time() if created_at is None else created_at
    config = {"options": {"players": 3}, "settings": {"name": "Jürgen ♣ 🂡"}}
    return StoredTable(table_id, at, at, status, config, "ab" * 32, "c" * 64, "d" * 64)


# ------------------------------------------------------------ store on PostgreSQL
def test_tables_and_events_read_back_exactly(pg_db: Db) -> None:
    async def go() -> tuple[StoredTable | None, list[Event]]:
        async with opened(pg_db.url) as store:
            await store.create_table(
                table("t1", created_at=1764585600.123456789),
                [("t1", 1, "sit", {"seat": 0, "name": "Anna"})],
                own=True,  # this process serves the table (its lease)
            )
            await store.append("t1", 2, "chat", {"text": "Grüß Gott 👋"}, status="playing")
            await store.append("t1", 3, "act", {"seat": 0, "action": "bid 18"})
            return await store.table("t1"), await store.events("t1")

    stored, events = asyncio.run(go())
    assert stored is not None
    assert stored.created_at == 1764585600.123456789  # double precision, not a rounded REAL
    assert stored.status == "playing" and stored.updated_at >= stored.created_at
    assert stored.config == table("t1").config
    assert [(e.version, e.kind, e.payload) for e in events] == [
        (1, "sit", {"seat": 0, "name": "Anna"}),
        (2, "chat", {"text": "Grüß Gott 👋"}),
        (3, "act", {"seat": 0, "action": "bid 18"}),
    ]
    assert events[0].at <= events[1].at <= events[2].at


def test_group_commit_and_a_duplicate_version_is_refused_alone(
    pg_db: Db, monkeypatch: pytest.MonkeyPatch
) -> None:
    commits: list[int] = []
    commit = Store._commit

    async def counting(self: Store, conn: Any, batch: list[Any]) -> None:
        commits.append(len(batch))
        await commit(self, conn, batch)

    monkeypatch.setattr(Store, "_commit", counting)

    async def go() -> tuple[list[BaseException | None], dict[str, list[Event]]]:
        async with opened(pg_db.url) as store:
            for t in ("a", "b", "c"):
                await store.create_table(table(t), own=True)
            appends = [
                store.append(t, v, "act", {"n": v}) for v in range(1, 41) for t in ("a", "b", "c")
            ]
            appends.insert(60, store.append("b", 7, "act", {"n": "twice"}))  # b 7 again
            results = await asyncio.gather(*appends, return_exceptions=True)
            with pytest.raises(IntegrityError):  # and alone: refused as well
                await store.append("a", 40, "act", {"n": "again"})
            return list(results), {t: await store.events(t) for t in ("a", "b", "c")}

    results, events = asyncio.run(go())
    failed = [r for r in results if r is not None]
    assert len(failed) == 1 and isinstance(failed[0], IntegrityError)
    for t in ("a", "b", "c"):
        assert [e.version for e in events[t]] == list(range(1, 41))
    assert sum(e.payload["n"] == "twice" for e in events["b"]) <= 1
    assert max(commits) > 1, "appends waiting together were not committed together"


def test_activity_count_and_unvisited(pg_db: Db) -> None:
    async def go() -> Any:
        async with opened(pg_db.url) as store:
            await store.create_table(table("quiet", created_at=1000.0), own=True)
            await store.create_table(table("busy", "playing"), own=True)
            await store.create_table(table("done", "finished"), own=True)
            await store.append("busy", 1, "sit", {"seat": 0})
            await store.append("busy", 2, "act", {"seat": 0, "action": "pass"})
            await store.append("busy", 3, "chat", {"text": "hi"})  # no activity
            await store.append("done", 1, "sit", {"seat": 0})
            live = ("open", "playing")
            return (
                await store.activity(live),
                await store.events("busy"),
                await store.count(live),
                await store.unvisited(before=time.time() + 1),
            )

    (activity, corrupt), busy, count, unvisited = asyncio.run(go())
    got = {a.id: (a.version, a.active) for a in activity}
    assert corrupt == []
    assert got == {"quiet": (0, 1000.0), "busy": (3, busy[1].at)}
    assert count == 2
    assert unvisited == ["quiet"]


# --------------------------------------------------------------- migrations
def _old_sqlite(path: Path) -> Db:
    with closing(sqlite3.connect(path)) as conn:
        for sql in OLD_DDL:
            conn.execute(sql)
        conn.commit()
    return Db("sqlite", f"sqlite+aiosqlite:///{path}", path=path)


def _check_migrated(db: Db) -> None:
    async def go() -> tuple[int, list[Event], StoredTable | None]:
        async with opened(db.url) as store:
            again = await store.open()  # a second open changes nothing
            return again, await store.events("old1"), await store.table("old1")

    again, events, old = asyncio.run(go())
    assert again == schema_mod.SCHEMA_VERSION
    assert [(e.version, e.kind, e.payload, e.at) for e in events] == [
        (1, "sit", {"seat": 0}, 1.75),
        (2, "chat", {"text": "Grüß dich"}, 2.25),
    ]
    assert old is not None and (old.status, old.created_at) == ("playing", 1.5)
    assert db.rows("SELECT version FROM skat_schema") == [(schema_mod.SCHEMA_VERSION,)]
    db.execute(  # migration 2: the lease table, as the coordinator of workers expects it
        "INSERT INTO skat_leases (table_id, owner, token, expires_at, wanted_by) "
        "VALUES ('old1', 'worker-1', 'abc', 12.5, NULL)"
    )
    assert db.rows("SELECT owner, expires_at, wanted_by FROM skat_leases") == [
        ("worker-1", 12.5, None)
    ]


def test_an_old_sqlite_file_is_version_1_and_migrates(tmp_path: Path) -> None:
    db = _old_sqlite(tmp_path / "old.db")
    assert asyncio.run(_open_close(db.url)) == 1  # tables, no schema table: version 1
    _check_migrated(db)


def test_an_old_postgres_database_is_version_1_and_migrates(empty_pg: Db) -> None:
    empty_pg.execute(*OLD_DDL)
    assert asyncio.run(_open_close(empty_pg.url)) == 1
    _check_migrated(empty_pg)


def test_stores_opening_one_fresh_postgres_database_at_once_all_succeed(empty_pg: Db) -> None:
    async def go() -> list[int]:
        stores_ = [Store(empty_pg.url) for _ in range(4)]
        try:
            return list(await asyncio.gather(*(s.open() for s in stores_)))
        finally:
            for s in stores_:
                await s.close()

    found = asyncio.run(go())
    assert sorted(found) == [0] + [schema_mod.SCHEMA_VERSION] * 3  # one migrated, three waited
    assert empty_pg.rows("SELECT version FROM skat_schema") == [(schema_mod.SCHEMA_VERSION,)]


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_failing_migration_changes_nothing(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    if kind == "postgres":
        request.getfixturevalue("pg")
    db = stores.db_for(tmp_path, kind)
    asyncio.run(_open_close(db.url))  # the current version
    current = schema_mod.SCHEMA_VERSION

    def broken(conn: Any) -> None:
        conn.exec_driver_sql("CREATE TABLE skat_half (x INTEGER)")
        raise RuntimeError("the next step breaks")

    monkeypatch.setattr(schema_mod, "MIGRATIONS", (*schema_mod.MIGRATIONS, broken))
    monkeypatch.setattr(schema_mod, "SCHEMA_VERSION", current + 1)
    with pytest.raises(RuntimeError, match="the next step breaks"):
        asyncio.run(_open_close(db.url))
    assert db.rows("SELECT version FROM skat_schema") == [(current,)]
    tables = _table_names(db)
    assert "skat_half" not in tables and "skat_leases" in tables


def _table_names(db: Db) -> set[str]:
    if db.kind == "sqlite":
        sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
    else:
        sql = "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
    return {name for (name,) in db.rows(sql)}


def test_a_database_of_a_newer_program_is_refused(pg_db: Db) -> None:
    pg_db.execute("UPDATE skat_schema SET version = 99")
    newer = f"schema version 99, newer than this program's {schema_mod.SCHEMA_VERSION}"
    with pytest.raises(StoreError, match=newer):
        asyncio.run(_open_close(pg_db.url))


async def _open_close(url: str) -> int:
    """Open and close a store; the schema version it found."""
    store = Store(url)
    try:
        return await store.open()
    finally:
        await store.close()


# ------------------------------------------------------- a real server on it
def test_a_list_through_a_real_server_on_postgres_killed_and_restarted(
    pg_db: Db, tmp_path: Path
) -> None:
    server = Server(free_port(), pg_db, tmp_path / "server.log")
    try:
        asyncio.run(asyncio.wait_for(scenario(server, mid_deal_2, seed=5), 50))
    finally:
        server.kill()
    assert pg_db.rows("SELECT count(*) FROM skat_tables WHERE status = 'finished'") == [(1,)]


def _serve(db_url: str, prelude: str = "pass") -> subprocess.CompletedProcess[str]:
    code = f"import sys; {prelude}; from skat.cli import main; main()"
    cmd = [sys.executable, "-c", code, "serve", "--port", str(free_port()), "--db", db_url]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60)


def test_serve_without_the_driver_says_what_to_install() -> None:
    out = _serve("postgresql+asyncpg://skat@127.0.0.1:1/x", "sys.modules['asyncpg'] = None")
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        "skat serve: the database postgresql+asyncpg://skat@127.0.0.1:1/x needs the Python "
        "package asyncpg (pip install 'skat[postgres]')"
    ]


def test_serve_with_an_unreachable_database_says_so_in_one_line() -> None:
    out = _serve(f"postgresql://skat:secret@127.0.0.1:{free_port()}/x")
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("skat serve: cannot open the database"), lines
    assert "secret" not in out.stdout + out.stderr  # the password is not shown


# ------------------------------------------------------------- the launcher
def test_the_launched_server_listens_on_loopback_only_and_not_as_root(pg: Postgres) -> None:
    assert pg.psql("SHOW listen_addresses").strip() == "127.0.0.1"
    assert pg.psql("SHOW server_encoding").strip() == "UTF8"
    pid = int((pg.data / "postmaster.pid").read_text().split()[0])
    uid = Path(f"/proc/{pid}").stat().st_uid
    if os.geteuid() == 0:
        assert uid != 0 and pwd.getpwuid(uid).pw_name == pg.user
    assert (pg.folder / f".s.PGSQL.{pg.port}").exists()  # its socket is in its folder


def test_a_database_name_is_checked(pg: Postgres) -> None:
    with pytest.raises(ValueError, match="database names"):
        pg.create_database('x"; DROP DATABASE postgres; --')
