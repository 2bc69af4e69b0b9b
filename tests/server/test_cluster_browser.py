"""The browser client through nginx, reconnecting by itself after its worker
died (Playwright with Debian's Chromium; the cluster of `test_cluster`)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from skat.server.cluster import Cluster, nginx_binary
from tests.helpers.browser import Client, play_deal, start_with_bots, wait_phase
from tests.helpers.cluster import LEASE_TTL, need, table_owner

pytestmark = [pytest.mark.browser, pytest.mark.cluster]


@pytest.fixture
def cluster(tmp_path: Path, db_url: str) -> Iterator[Cluster]:
    """Two workers behind nginx; a settled deal stays on screen (as people
    play: the next deal waits), computer players move at once."""
    need("nginx", nginx_binary() is not None)
    args = ("--lease-ttl", str(LEASE_TTL), "--bot-delay", "0", "--next-delay", "60",
            "--log-level", "warning")  # fmt: skip
    with Cluster(tmp_path / "cluster", workers=2, db_url=db_url, worker_args=args) as c:
        yield c


def owner_of(db: str, table_id: str) -> str | None:
    """The table's owner, asked in a thread (Playwright's loop runs in this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, table_owner(db, table_id)).result(30)


def test_the_page_reconnects_through_the_proxy_after_its_worker_died(
    browser: object, cluster: Cluster
) -> None:
    from playwright.sync_api import Browser

    assert isinstance(browser, Browser)
    c = Client(browser, cluster.address)
    try:
        start_with_bots(c, "Anna")
        table_id = re.sub(r".*/t/", "", c.page.url)
        wait_phase(c.page)
        owner = owner_of(cluster.db_url or "", table_id)
        assert owner in ("w1", "w2")
        hand_before = c.page.locator("#hand .card").count()
        hellos = sum('"hello"' in s for s in c.sent)

        killed_at = time.monotonic()
        cluster.worker(owner).kill()
        # the page notices, reconnects through the proxy to the other worker
        # (after the lease runs out) and is back at its seat with its cards
        c.page.wait_for_function(
            "() => /reconnecting/i.test(document.getElementById('status')?.textContent || '')",
            timeout=10_000,
        )
        c.page.wait_for_function(
            "() => !/reconnecting/i.test(document.getElementById('status')?.textContent || '')",
            timeout=30_000,
        )
        back_after = time.monotonic() - killed_at
        assert sum('"hello"' in s for s in c.sent) > hellos, "the page sent no new hello"
        assert '"token"' in [s for s in c.sent if '"hello"' in s][-1], "not back at its seat"
        assert c.page.locator("#hand .card").count() == hand_before
        # and the deal goes on to its result
        seen = play_deal(c.page)
        assert seen[-1] == "done"
        assert owner_of(cluster.db_url or "", table_id) != owner
        print(f"browser: back at the seat {back_after:.1f} s after SIGKILL")
        assert not c.errors, c.errors
    finally:
        c.close()
