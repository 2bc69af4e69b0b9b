"""Screenshots of the web client for the README and docs/screenshots/.

Starts a server on a free local port (a throw-away database, computer players
that move quickly), plays one deal at a phone and at a desktop size through a
real Chromium, and saves one PNG per screen:

    {phone,desktop}-{home,rules,calculator,bidding,skat,discard,declare,
                     play,trick,result,sheet,friend}.png

("trick": a finished trick on the table, each card in front of its player;
"friend": what a friend who opens the link sees: a computer player's seat
to take.)

Run it through ``scripts/screenshots``; it needs the Python package
``playwright`` and a Chromium (``/usr/bin/chromium`` or ``--chromium``). No
browser is downloaded.
"""

from __future__ import annotations

import argparse
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError

ROOT = Path(__file__).resolve().parents[1]
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--lang=en-US",
]
PHASE_JS = """() => {
  const q = (s) => document.querySelector(s);
  const on = (s) => { const b = q(s); return !!b && !b.disabled; };
  if (q('[data-testid=result-headline]')) return 'done';
  if (on('[data-testid=pickup]')) return 'skat';
  const sent = q('[data-testid=discard]');
  if (q('#hand button.card[data-action=select]') && !(sent && sent.disabled)) return 'discard';
  if (on('[data-testid=announce]')) return 'declare';
  if (['hold', 'bid', 'pass'].some((x) => on(`#controls [data-testid=${x}]`))) return 'bidding';
  if (q('#hand button.card[data-action=play]:not([disabled])')) return 'play';
  return 'wait';
}"""
HAND_JS = "() => [...document.querySelectorAll('#hand .card[data-card]')].map(c => c.dataset.card)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_server() -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="skat-shots-") as tmp:
        port = free_port()
        cmd = [
            sys.executable, "-m", "skat.cli", "serve",
            "--port", str(port),
            "--db", f"sqlite+aiosqlite:///{Path(tmp) / 'skat.db'}",
            "--bot-delay", "0.05",
            "--next-delay", "600",
            "--grace", "120",
            "--log-level", "warning",
        ]  # fmt: skip
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    with urllib.request.urlopen(f"{base}/healthz", timeout=1):
                        break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.1)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


class Shooter:
    def __init__(self, page: Page, out: Path, size: str) -> None:
        self.page = page
        self.out = out
        self.size = size
        self.saved: list[Path] = []

    def shot(self, name: str, focus: str | None = None) -> None:
        """Save the viewport; on a phone, first scroll ``focus`` to the middle."""
        if focus is not None and self.size == "phone":
            self.page.eval_on_selector(focus, "e => e.scrollIntoView({block: 'center'})")
        else:
            self.page.evaluate("window.scrollTo(0, 0)")
        self.page.wait_for_timeout(150)  # let the layout settle
        path = self.out / f"{self.size}-{name}.png"
        self.page.screenshot(path=str(path))
        self.saved.append(path)


def best_suit(page: Page) -> str:
    hand: list[str] = page.evaluate(HAND_JS)
    counts = {s: sum(1 for c in hand if c[0] == s and c[1] != "J") for s in "CSHD"}
    suit = max(counts, key=lambda s: counts[s])
    return {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}[suit]


def call(page: Page, limit: int) -> None:
    """Hold, or bid the next step, up to ``limit``; beyond it, pass."""
    for testid in ("hold", "bid", "pass"):
        b = page.locator(f"#controls [data-testid={testid}]")
        if not b.count() or not b.is_enabled():
            continue
        value = int(re.sub(r"\D", "", b.inner_text()) or 0)
        if testid == "pass" or value <= limit:
            b.click()
            return


def play_one_deal(s: Shooter, limit: int) -> bool:
    """Bid up to ``limit``, then play the first playable card; a screenshot
    of each phase on its first showing. True when this player declared."""
    page = s.page
    taken: set[str] = set()
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        page.wait_for_function(f"() => ({PHASE_JS})() !== 'wait'", timeout=20_000)
        ph = str(page.evaluate(PHASE_JS))
        if ph == "done":
            s.shot("result", "#result")
            page.click("[data-testid=sheet-button]")
            page.wait_for_selector("[data-testid=sheet]")
            s.shot("sheet")
            return "skat" in taken
        if ph == "bidding":
            if "bidding" not in taken:
                s.shot("bidding", "#controls")
                taken.add("bidding")
            call(page, limit)
        elif ph == "skat":
            s.shot("skat", "#controls")
            taken.add("skat")
            page.click("[data-testid=pickup]")
        elif ph == "discard":
            for _ in range(2):
                page.locator("#hand button.card[data-action=select]:not(.selected)").last.click()
            s.shot("discard", "#hand")
            page.click("[data-testid=discard]")
        elif ph == "declare":
            pick = page.locator(f"[data-action=pick][data-game={best_suit(page)}]")
            if pick.count():
                pick.click()
            page.wait_for_function("() => document.getElementById('preview')?.textContent")
            s.shot("declare", "#controls")
            page.click("[data-testid=announce]")
        elif ph == "play":
            mid_trick = page.locator("#board .trick .slot").count() > 0
            if "play" not in taken or ("play-mid" not in taken and mid_trick):
                s.shot("play", "#hand")
                taken.add("play")
                if mid_trick:
                    taken.add("play-mid")
            page.locator("#hand button.card[data-action=play]:not([disabled])").first.click()
            if "trick" not in taken:
                finished = "#board .trick.finished .slot:nth-child(3)"
                try:
                    page.wait_for_selector(finished, timeout=3000)
                except PlaywrightError:
                    continue  # taken by the next trick instead
                page.wait_for_timeout(300)  # the last card has landed
                s.shot("trick", "#board")
                taken.add("trick")
    raise SystemExit("the deal did not finish in time")


def shoot(browser: Browser, base: str, out: Path, size: str) -> list[Path]:
    # no movement: a screenshot never catches a card halfway
    context = browser.new_context(viewport=SIZES[size], locale="en-US", reduced_motion="reduce")
    context.set_default_timeout(20_000)
    page = context.new_page()
    s = Shooter(page, out, size)
    try:
        page.goto(f"{base}/")
        page.wait_for_selector("[data-testid=play]")
        page.fill("#name", "Anna")
        page.locator("#name").blur()
        s.shot("home")
        page.goto(f"{base}/rules")
        page.wait_for_selector(".rules article .diagram")
        s.shot("rules")
        page.goto(f"{base}/calculator")
        page.select_option("#c-game", "grand")
        page.click("[data-testid=calc-go]")
        page.wait_for_selector("[data-testid=calc-explanation]")
        s.shot("calculator", "#calc-out")
        page.goto(f"{base}/")
        page.fill("#name", "Anna")
        page.click("[data-testid=play]")
        page.wait_for_selector("#hand .card")
        # A deal where this player wins the auction at a modest bid shows
        # every phase; after a few tries, bid on regardless.
        for attempt in range(8):
            if play_one_deal(s, 30 if attempt < 6 else 999):
                break
            page.click("[data-testid=sheet-close]")
            page.click("[data-testid=next]")
            page.wait_for_selector("[data-testid=result-headline]", state="detached")
        # a friend opens the link: a computer player's seat to take
        friend = browser.new_context(viewport=SIZES[size], locale="en-US", reduced_motion="reduce")
        try:
            fp = friend.new_page()
            fp.goto(page.url)
            fp.wait_for_selector("[data-testid=takeover]")
            fp.fill("#sit-name", "Ben")
            f = Shooter(fp, out, size)
            f.shot("friend", "[data-testid=takeover]")
            s.saved += f.saved
        finally:
            friend.close()
    finally:
        context.close()
    return s.saved


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--chromium", default="/usr/bin/chromium", help="the browser to drive")
    ap.add_argument("--size", choices=sorted(SIZES), action="append", help="default: both")
    args = ap.parse_args()
    if not Path(args.chromium).exists():
        raise SystemExit(f"no Chromium at {args.chromium} (use --chromium PATH)")
    args.out.mkdir(parents=True, exist_ok=True)
    saved: list[Path] = []
    with running_server() as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=LAUNCH_ARGS)
        try:
            for size in args.size or ["phone", "desktop"]:
                saved += shoot(browser, base, args.out, size)
        finally:
            browser.close()
    total = 0
    for path in dict.fromkeys(saved):  # a retried deal saves some names again
        total += path.stat().st_size
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
    print(f"{len(set(saved))} screenshots, {total / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
