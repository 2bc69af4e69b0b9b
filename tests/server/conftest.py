"""Fixtures of the cluster tests: a PostgreSQL server per test module
(started by the test as an unprivileged user; skipped, or failing in CI,
where PostgreSQL is not installed) and a fresh database on it per test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers.cluster import postgres_services


@pytest.fixture(scope="module")
def pg_server() -> Iterator[Any]:
    services = postgres_services()
    pg = services.Postgres(fast=True)  # a temporary folder PostgreSQL's user can reach
    pg.start()
    try:
        yield pg
    finally:
        pg.stop()


_dbs = iter(range(1, 10_000))


@pytest.fixture
def db_url(pg_server: Any) -> str:
    name = f"cluster_{next(_dbs)}"
    pg_server.create_database(name)
    return str(pg_server.url(name))
