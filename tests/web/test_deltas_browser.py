"""The table page on the protocol of changes (issue 52, point 3), in Chromium.

After each move the page gets only what changed of its view and applies it
to the view it holds. A change lost on the way (dropped here by a wrapper
around the page's WebSocket, installed before the page loads) is never
applied on the wrong view: the page asks for the whole state (`resync`) and
then shows exactly what a page opened fresh shows. One real `skat serve`
process for the module (tests/helpers/processes.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.helpers.browser import (
    DEAL_TIMEOUT,
    Client,
    act,
    page_server,
    start_with_bots,
    wait_phase,
)

try:
    from playwright.sync_api import Page
except ImportError:  # pragma: no cover - depends on the machine
    pytest.skip("playwright (Python) is not installed", allow_module_level=True)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with page_server(tmp_path_factory.mktemp("deltas")) as base:
        yield base


#: Loses the first change that completes one of the deal's first tricks: the
#: page's own handler never sees it (as if the network had dropped it).
LOSE_ONE_CHANGE = """(() => {
  const Native = window.WebSocket;
  const lost = [];
  window.skatLost = lost;
  class Lossy extends Native {
    set onmessage(fn) {
      super.onmessage = fn && ((e) => {
        const m = JSON.parse(e.data);
        const early = m.type === "event" && m.added && m.added.tricks && !m.changes?.result;
        if (!lost.length && early && (m.changes?.hand_sizes || [10])[0] > 3) {
          lost.push(m.version);
          return;
        }
        fn(e);
      });
    }
    get onmessage() {
      return super.onmessage;
    }
  }
  window.WebSocket = Lossy;
})();"""

#: What the page shows of the table: the hand (and which cards may be
#: played), every seat's line (name, tricks taken, whose turn), the cards on
#: the table and the game.
SHOWN_JS = """() => ({
  hand: [...document.querySelectorAll('#hand .card[data-card]')]
    .map((c) => c.dataset.card + (c.disabled ? '' : '*')),
  seats: [...document.querySelectorAll('[data-testid^=seat-]')].map((s) => s.innerText),
  trick: document.querySelector('.trick:not(.collecting)')?.innerText ?? null,
  contract: document.querySelector('.contract')?.innerText ?? null,
  turn: !!document.querySelector('[data-testid=your-turn]'),
})"""


def _shown(page: Page) -> dict[str, Any]:
    page.wait_for_timeout(300)  # a card's entry animation and the collected trick end
    shown = page.evaluate(SHOWN_JS)
    assert isinstance(shown, dict)
    return shown


def test_a_page_that_loses_a_change_asks_again_and_shows_a_fresh_pages_table(
    clients: Callable[..., Client],
) -> None:
    """A change that completes a trick is dropped before the page sees it.
    The page notices (the next change does not follow the version it holds,
    or the pong says it was sent more), sends `resync`, and at its next turn
    shows the same table as a second page of the same seat opened then: the
    same hand, the same tricks per seat, the same cards on the table."""
    c = clients()
    page = c.page
    page.add_init_script(LOSE_ONE_CHANGE)
    start_with_bots(c)
    deadline = time.monotonic() + 2 * DEAL_TIMEOUT
    while True:
        assert time.monotonic() < deadline, "no change was lost and recovered in time"
        ph = wait_phase(page)
        if ph == "done":  # over before a trick's change was lost (a Null game): the next
            page.click("[data-testid=next]")
            page.wait_for_selector("[data-testid=result-headline]", state="detached")
            continue
        lost = page.evaluate("() => window.skatLost")
        if lost and any('"resync"' in s for s in c.sent) and ph == "play":
            break
        act(page, ph)
    before = _shown(page)
    fresh = c.context.new_page()  # the same seat's token: a second device, opened now
    fresh.goto(page.url)
    fresh.wait_for_selector("[data-testid=your-turn]")
    assert _shown(fresh) == before
    assert _shown(page) == before
    assert before["turn"] and before["hand"]
    assert sum(s.count('"resync"') for s in c.sent) == 1
    assert c.errors == []


#: The page's hello rewritten to the protocol before the changes (as a page
#: loaded before an upgrade would send it).
OLD_HELLO = """(() => {
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    const m = JSON.parse(data);
    if (m.type === "hello") delete m.protocol;
    return send.call(this, JSON.stringify(m));
  };
})();"""


def test_a_page_of_another_protocol_is_told_to_reload_and_stops_trying(
    clients: Callable[..., Client],
) -> None:
    """A hello the server does not speak is refused with `OLD_CLIENT` and
    close 4426: the page says to reload it, in its language, and does not
    reconnect again and again; the table goes on for everyone else."""
    c = clients()
    c.goto("/")
    c.page.fill("#name", "Anna")
    c.page.click("[data-testid=play]")
    c.page.wait_for_selector("#hand .card")
    url = c.page.url
    old = clients()
    old.page.add_init_script(OLD_HELLO)
    old.goto(url.removeprefix(old.base))
    old.page.wait_for_function(
        "() => document.getElementById('status')?.textContent.includes('reload')"
    )
    hellos = sum('"hello"' in s for s in old.sent)
    old.page.wait_for_timeout(3000)  # a page that reconnected would have said hello again
    assert sum('"hello"' in s for s in old.sent) == hellos == 1
    assert old.errors == []
    play = wait_phase(c.page)  # the table itself goes on
    assert play in ("bidding", "skat", "discard", "declare", "play")
