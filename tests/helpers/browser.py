"""Driving the web client in Chromium through Playwright: a page per
client, what phase it shows, acting in each phase, a whole deal.

Importing this module skips the importing test module when Playwright or
/usr/bin/chromium (or $SKAT_CHROMIUM) is missing; no browser is downloaded.
The `browser` fixture is in tests/conftest.py.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.processes import Server, free_port
from tests.helpers.stores import db_for

try:
    from playwright.sync_api import Browser, BrowserContext, Page
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # pragma: no cover - depends on the machine
    pytest.skip("playwright (Python) is not installed", allow_module_level=True)


CHROMIUM = Path(os.environ.get("SKAT_CHROMIUM", "/usr/bin/chromium"))
if not CHROMIUM.exists():  # pragma: no cover - depends on the machine
    pytest.skip(f"no Chromium at {CHROMIUM}", allow_module_level=True)


LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--lang=en-US",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


DEAL_TIMEOUT = 60.0  # seconds for one deal, start to result

# What the page shows, read from the DOM alone (the app keeps no globals).
PHASE_JS = """() => {
  const q = (s) => document.querySelector(s);
  const on = (s) => { const b = q(s); return !!b && !b.disabled; };
  if (q('[data-testid=result-headline]')) return 'done';
  if (on('[data-testid=pickup]')) return 'skat';
  const sent = q('[data-testid=discard]');  // disabled while the discard is on its way
  if (q('#hand button.card[data-action=select]') && !(sent && sent.disabled)) return 'discard';
  if (on('[data-testid=announce]')) return 'declare';
  const bidding = ['hold', 'bid', 'pass'].some((x) => on(`#controls [data-testid=${x}]`));
  if (bidding) return 'bidding';
  if (q('#hand button.card[data-action=play]:not([disabled])')) return 'play';
  return 'wait';
}"""

HAND_JS = (
    "() => [...document.querySelectorAll('#hand .card[data-card]')].map((c) => c.dataset.card)"
)


class Client:
    """One browser context with one page, collecting uncaught page errors."""

    def __init__(self, browser: Browser, base: str, viewport: dict[str, int] = DESKTOP) -> None:
        self.base = base
        self.context: BrowserContext = browser.new_context(viewport=viewport, locale="en-US")
        self.context.set_default_timeout(15_000)
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.sent: list[str] = []
        self.page.on("websocket", self._watch)

    def _watch(self, ws: Any) -> None:
        ws.on("framesent", lambda payload: self.sent.append(str(payload)))

    def goto(self, path: str) -> None:
        self.page.goto(self.base + path)

    def close(self) -> None:
        self.context.close()


def phase(page: Page) -> str:
    return str(page.evaluate(PHASE_JS))


def wait_phase(page: Page, timeout: float = 15.0) -> str:
    """Wait until the page shows something to do (or the result)."""
    page.wait_for_function(f"() => ({PHASE_JS})() !== 'wait'", timeout=timeout * 1000)
    return phase(page)


def best_suit_game(page: Page) -> str:
    """The suit with the most non-jack cards in the hand (a plausible trump)."""
    hand: list[str] = page.evaluate(HAND_JS)
    counts = {s: sum(1 for c in hand if c[0] == s and c[1] != "J") for s in "CSHD"}
    suit = max(counts, key=lambda s: counts[s])
    return {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}[suit]


PLAYABLE = "#hand button.card[data-action=play]:not([disabled])"


def act(page: Page, ph: str, policy: str = "declare", wait_preview: bool = False) -> None:
    """Do one thing in phase ``ph``. Policy 'declare' holds and bids the
    lowest step (so this player wins the auction); 'pass' passes."""
    if ph == "bidding":
        order = ("hold", "bid", "pass") if policy == "declare" else ("pass", "hold", "bid")
        for testid in order:
            b = page.locator(f"#controls [data-testid={testid}]")
            if b.count() and b.is_enabled():
                b.click()
                return
    elif ph == "skat":
        page.click("[data-testid=pickup]")
    elif ph == "discard":
        for _ in range(2):
            page.locator("#hand button.card[data-action=select]:not(.selected)").last.click()
        page.click("[data-testid=discard]")
    elif ph == "declare":
        game = best_suit_game(page)
        pick = page.locator(f"[data-action=pick][data-game={game}]")
        if pick.count():
            pick.click()
        if wait_preview:
            page.wait_for_function("() => document.getElementById('preview')?.textContent")
        page.click("[data-testid=announce]")
    elif ph == "play":
        # the deal may end while we look (computer defenders giving up after
        # a claim, R6.6): then there is no card to click, and the caller
        # looks at the phase again
        page.wait_for_function(
            f"() => ({PHASE_JS})() !== 'play' || !!document.querySelector('{PLAYABLE}')"
        )
        card = page.locator(PLAYABLE).first
        if card.count():
            try:
                card.click(timeout=5000)
            except PlaywrightTimeout:
                if phase(page) == "play":
                    raise


def play_deal(
    page: Page,
    policy: str = "declare",
    on_phase: Callable[[str], None] | None = None,
    on_turn: Callable[[str], bool] | None = None,
) -> list[str]:
    """Act until the result shows; returns the phases seen, in order.

    ``on_phase`` is called once whenever a new phase shows (before acting);
    ``on_turn`` before every action, and may return True to skip the action
    (it acted itself, for example)."""
    seen: list[str] = []
    deadline = time.monotonic() + DEAL_TIMEOUT
    while time.monotonic() < deadline:
        ph = wait_phase(page)
        if not seen or seen[-1] != ph:
            seen.append(ph)
            if on_phase is not None:
                on_phase(ph)
        if ph == "done":
            return seen
        if on_turn is not None and on_turn(ph):
            continue
        act(page, ph, policy)
    raise AssertionError(f"the deal did not finish in {DEAL_TIMEOUT} s; phases {seen}")


def start_with_bots(c: Client, name: str = "Anna") -> None:
    c.goto("/")
    c.page.fill("#name", name)
    c.page.click("[data-testid=play]")
    c.page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    c.page.wait_for_selector("#hand .card", timeout=15_000)


@contextlib.contextmanager
def page_server(tmp: Path) -> Iterator[str]:
    """A real `skat serve` for a module's browser tests, its address: quick
    computer players, a result that waits for Next, and the limits per
    client address lifted (every test's pages come from 127.0.0.1)."""
    s = Server(
        port=free_port(),
        db=db_for(tmp),
        log=tmp / "server.log",
        extra=[
            "--bot-delay", "0.05", "--next-delay", "600", "--next-delay-people", "600",
            "--solo-next", "wait", "--grace", "120",
            "--open-tables-per-address", "1000", "--tables-per-address", "1000",
            "--tournaments-per-address", "1000", "--profiles-per-address", "1000",
        ],
    )  # fmt: skip
    s.start()
    try:
        yield s.http
    finally:
        if s.proc is not None:
            s.proc.terminate()
            s.proc.wait(timeout=10)


def select_lang(page: Page, lang: str) -> None:
    """Switch the page's language with the header's picker."""
    page.select_option("#lang", lang)
    page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
