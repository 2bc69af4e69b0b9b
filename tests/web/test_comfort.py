"""The page around the table in Chromium (issue 49, items 5 and 7): your
tables found again from the home page, the dark theme's contrast, keys for
every decision, sounds made by the page, and the installable page.

One real `skat serve` process for the module (tests/helpers/processes.py);
each test opens its own browser context, so its localStorage starts empty.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator

import pytest

from tests.helpers.browser import (
    DESKTOP,
    HAND_JS,
    Client,
    start_with_bots,
)
from tests.helpers.processes import Server, free_port
from tests.helpers.stores import db_for

try:
    from playwright.sync_api import Browser, Page
except ImportError:  # pragma: no cover - depends on the machine
    pytest.skip("playwright (Python) is not installed", allow_module_level=True)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("comfort")
    s = Server(
        port=free_port(),
        db=db_for(tmp),
        log=tmp / "server.log",
        extra=[
            "--bot-delay", "0.05", "--next-delay", "600", "--next-delay-people", "600",
            "--solo-next", "wait", "--grace", "120",
            "--open-tables-per-address", "1000", "--tables-per-address", "1000",
            "--tournaments-per-address", "1000",
        ],
    )  # fmt: skip
    s.start()
    try:
        yield s.http
    finally:
        if s.proc is not None:
            s.proc.terminate()
            s.proc.wait(timeout=10)


@pytest.fixture
def clients(browser: Browser, server: str) -> Iterator[Callable[..., Client]]:
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


def select_lang(page: Page, lang: str) -> None:
    page.select_option("#lang", lang)
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")


# ------------------------------------------------------------- your tables
def test_your_tables_after_a_reload_lead_back_to_the_seat(
    clients: Callable[..., Client],
) -> None:
    """Issue 49, item 5: Anna plays, goes to the home page and reloads it:
    "Your tables" lists her running table (playing, as Anna, with the
    computers), and its button puts her back in her own seat with her cards.
    A table that is gone from the server shows as dropped with a Forget,
    and Forget takes it off the list."""
    c = clients()
    page = c.page
    start_with_bots(c)
    table = page.url.rsplit("/", 1)[1]
    hand = page.evaluate(HAND_JS)
    # a table this device once sat at that the server no longer has
    page.evaluate("() => localStorage.setItem('skat.token.gone-table-1', 'x')")
    c.goto("/")
    page.reload()
    page.wait_for_selector(f"[data-testid=mine-table][data-table='{table}']")
    row = page.locator(f"[data-testid=mine-table][data-table='{table}']")
    text = row.inner_text()
    assert "Playing" in text and "as Anna" in text and "Deal 1 of 36" in text, text
    gone = page.locator("[data-testid=mine-table][data-table='gone-table-1']")
    assert "Dropped" in gone.inner_text()
    assert gone.locator("[data-testid=mine-back]").count() == 0
    # running tables come before dropped ones
    order = page.eval_on_selector_all(
        "[data-testid=mine-table]", "els => els.map((e) => e.dataset.table)"
    )
    assert order == [table, "gone-table-1"], order
    gone.locator("[data-testid=mine-forget]").click()
    page.wait_for_function("() => !document.querySelector(\"[data-table='gone-table-1']\")")
    row.locator("[data-testid=mine-back]").click()
    page.wait_for_url(re.compile(f"/t/{table}$"))
    page.wait_for_selector("#hand .card")
    assert page.evaluate(HAND_JS) == hand
    assert "(you)" in page.inner_text("[data-testid=seat-0]")
    assert page.locator("[data-testid=sit]").count() == 0  # seated, not asked to sit


def test_your_tables_in_german_and_danish(clients: Callable[..., Client]) -> None:
    """The list's words follow the language (issue 49, item 8)."""
    c = clients()
    page = c.page
    start_with_bots(c)
    c.goto("/")
    page.wait_for_selector("[data-testid=mine-table]")
    for lang, words in (
        ("de", ("Läuft", "als Anna", "Zurück an deinen Platz")),
        ("da", ("I gang", "som Anna", "Tilbage til din plads")),
    ):
        select_lang(page, lang)
        page.wait_for_selector("[data-testid=mine-table]")
        text = page.inner_text("[data-testid=your-tables]")
        for w in words:
            assert w in text, (lang, text)


def test_a_tournament_table_leads_back_to_its_tournament(clients: Callable[..., Client]) -> None:
    """Issue 49, item 5 and finding 8: Anna enters a tournament and reaches
    her table from it; the table links back to the tournament, the home
    page lists the tournament and the table (with its tournament), and the
    ranking says how many lists each entrant played."""
    c = clients()
    page = c.page
    c.goto("/")
    made = page.evaluate(
        """async (body) => (await fetch("/api/tournaments", {method: "POST",
           headers: {"content-type": "application/json"}, body})).json()""",
        json.dumps({"name": "Club night", "series": 1, "rounds": 1, "fill": True, "rules": {}}),
    )
    page.evaluate(
        "([id, secret]) => localStorage.setItem(`skat.organiser.${id}`, secret)",
        [made["id"], made["organiser"]],
    )
    c.goto(made["url"])
    page.fill("#enter-name", "Anna")
    page.click("[data-testid=enter]")
    page.wait_for_selector("[data-testid=entered-as]")
    page.click("[data-testid=draw]")
    page.click("[data-testid=your-table]")
    page.wait_for_selector("#hand .card", timeout=15_000)
    table = page.url.rsplit("/", 1)[1]
    back = page.locator("[data-testid=back-to-tournament]")
    assert "Club night" in back.inner_text()
    back.click()
    page.wait_for_url(re.compile(f"/tournament/{made['id']}$"))
    page.wait_for_selector("[data-testid=standings]")
    head = page.inner_text("[data-testid=standings] thead")
    assert "Lists" in head, head
    c.goto("/")
    page.wait_for_selector(f"[data-testid=mine-table][data-table='{table}']")
    mine = page.inner_text("[data-testid=your-tables]")
    assert "Tournament: Club night" in mine, mine
    assert page.locator(f"[data-table='{table}'] [data-testid=mine-tournament]").count() == 1
