"""Shared fixtures: the store the server tests use (``--store`` or
``SKAT_TEST_DB``: sqlite or postgres, see tests/helpers/stores.py), the ISS
records of ../shared and the browser (Chromium through Playwright)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import pytest

from tests.helpers import stores
from tests.helpers.paths import ISS_FILE

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.helpers.browser import Client


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--store",
        choices=stores.KINDS,
        default=None,
        help="database of the server tests (default: $SKAT_TEST_DB or sqlite)",
    )


def pytest_configure(config: pytest.Config) -> None:
    kind = config.getoption("--store") or os.environ.get("SKAT_TEST_DB") or "sqlite"
    if kind not in stores.KINDS:
        raise pytest.UsageError(f"SKAT_TEST_DB={kind!r}: one of {', '.join(stores.KINDS)}")
    if kind == "postgres" and not stores.postgres_available():
        raise pytest.UsageError("--store=postgres: PostgreSQL is not installed (no initdb/pg_ctl)")
    stores.KIND = kind


def pytest_report_header(config: pytest.Config) -> str:
    return f"server tests store: {stores.KIND}"


def pytest_sessionfinish(session: pytest.Session) -> None:
    stores.stop()


@pytest.fixture(autouse=True)
def _drop_test_databases() -> Iterator[None]:
    before = stores.made()
    yield
    stores.drop_since(before)


@pytest.fixture
def iss_lines() -> list[str]:
    if not ISS_FILE.exists():
        pytest.skip("../shared/data/iss/iss-games.sgf is not present")
    return [line for line in ISS_FILE.read_text().splitlines() if line.startswith("(;GM[Skat]")]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium through Playwright, one per test module (tests/web and the
    cluster's page tests); skipped without Playwright or Chromium."""
    sync_api = pytest.importorskip("playwright.sync_api")
    from tests.helpers.browser import CHROMIUM, LAUNCH_ARGS

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def clients(browser: Browser, server: str) -> Iterator[Callable[..., Client]]:
    """New pages at the module's ``server`` fixture (``clients(PHONE)``),
    closed after the test, which fails on any uncaught error in them."""
    from tests.helpers.browser import DESKTOP, Client

    made: list[Client] = []

    def make(viewport: dict[str, int] = DESKTOP) -> Client:
        c = Client(browser, server, viewport)
        made.append(c)
        return c

    yield make
    errors = [e for c in made for e in c.errors]
    for c in made:
        c.close()
    assert not errors, f"uncaught errors in the page: {errors}"
