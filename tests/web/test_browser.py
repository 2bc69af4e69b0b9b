"""The web client in a real browser (Chromium driven by Playwright).

One server process per module (computer players move after 0.05 s, a settled
deal stays on screen); every test opens its own browser context, so its
localStorage (name, seat token, language) starts empty. The module is skipped
when Playwright or /usr/bin/chromium is missing; no browser is downloaded.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from skat.series.spec import LANGS as SPEC_LANGS
from skat.server.config import ServerConfig
from skat.server.offer import offered
from tests.helpers.browser import (
    DEAL_TIMEOUT,
    DESKTOP,
    HAND_JS,
    PHASE_JS,
    PHONE,
    Client,
    act,
    phase,
    play_deal,
    select_lang,
    start_with_bots,
    wait_phase,
)
from tests.helpers.paths import ROOT
from tests.helpers.stores import db_for

try:
    from playwright.sync_api import Browser, Page
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # pragma: no cover - depends on the machine
    pytest.skip("playwright (Python) is not installed", allow_module_level=True)

pytestmark = pytest.mark.browser

STATIC = ROOT / "src" / "skat" / "web" / "static"
LANGS = SPEC_LANGS  # every language the options have words in (docs/contributing.md)
RULE_PAGES = ("howto", "tournament", "plain", "ramsch", "kontra", "bock", "four")
RULES_WITH_CARDS = ("howto", "ramsch")
TRICK_JS = """() => [...document.querySelectorAll("#board .trick:not(.collecting) .slot")].map(
  (s) => s.classList[1] + ':' + s.querySelector('[data-card]').dataset.card)"""

# Elements sticking out to the right, outside any scroll or clip container.
OVERFLOW_JS = """() => {
  const W = document.documentElement.clientWidth;
  const bad = [];
  for (const el of document.body.querySelectorAll('*')) {
    let p = el.parentElement, clipped = false;
    while (p && p !== document.body) {
      if (getComputedStyle(p).overflowX !== 'visible') { clipped = true; break; }
      p = p.parentElement;
    }
    if (clipped) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > W + 1) {
      const name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + '.' + el.className;
      bad.push(name + ' ' + Math.round(r.right));
    }
  }
  return bad.slice(0, 10);
}"""

# Text in attributes a person meets (placeholders, labels, tooltips).
ATTR_TEXT_JS = """() => [...document.querySelectorAll('[aria-label],[title],[placeholder]')].map(
  (e) => [e.getAttribute('aria-label'), e.getAttribute('title'), e.getAttribute('placeholder')]
    .filter(Boolean).join(' ')).join('\\n')"""


# ----------------------------------------------------------------- i18n data
def _dictionary(lang: str) -> dict[str, str]:
    text = (STATIC / f"i18n_{lang}.js").read_text(encoding="utf-8")
    pairs = re.findall(r'^\s*"([^"]+)":\s*("(?:[^"\\]|\\.)*")', text, re.M)
    return {k: json.loads(v) for k, v in pairs}


DICTS = {lang: _dictionary(lang) for lang in LANGS}

# English UI words that must be gone in German and Danish (only keys without
# placeholders; the engine's English value explanation is data, not UI).
ENGLISH_KEYS = (
    "home.play",
    "home.options",
    "home.create",
    "home.name",
    "act.sheet",
    "sheet.title",
    "sheet.total",
    "sheet.place",
    "sheet.won",
    "sheet.lost",
    "table.yourTurn",
    "table.share",
    "table.copy",
    "table.dealer",
    "act.pass",
    "act.pickup",
    "act.hand",
    "act.discard",
    "act.next",
    "act.close",
    "act.lastTrick",
    "deck.label",
    "nav.rules",
    "nav.calculator",
    "calc.go",
    "calc.title",
    "rules.play",
    "result.entries",
    "pos.0",
    "pos.1",
    "pos.2",
    "game.clubs",
    "game.spades",
    "game.hearts",
    "game.diamonds",
    "chat.placeholder",
    "phase.bidding",
)


def english_only(lang: str) -> list[str]:
    en, other = DICTS["en"], DICTS[lang]
    out = [en[k] for k in ENGLISH_KEYS if "{" not in en[k] and en[k] != other[k]]
    # the options form's labels, from the declared options (GET /api/options)
    for o in offered(ServerConfig())["options"]:
        label, there = o["words"]["en"]["label"], o["words"][lang]["label"]
        if o["form"] and label != there:
            out.append(label)
    return out


def english_log_words(lang: str) -> set[str]:
    """The fixed words of the English log lines (' plays ', ' takes the
    trick (') that the other language does not use."""
    bits: set[str] = set()
    for key, value in DICTS["en"].items():
        if key.startswith("log."):
            for bit in re.split(r"\{\w+\}", value):
                if len(bit.strip(" .!:()")) >= 4 and bit not in DICTS[lang][key]:
                    bits.add(bit)
    return bits


# ------------------------------------------------------------------ fixtures
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    flags = ["--next-delay", "600", "--next-delay-people", "600", "--grace", "120"]
    with _serving(tmp_path_factory.mktemp("browser"), flags) as base:
        yield base


#: A server with settings `skat serve` has no option for (a test's rest time):
#: the same app under uvicorn, its `ServerConfig` from JSON.
CONFIGURED = """
import json, sys, uvicorn
import skat.server.registry
from skat.server.app import create_app
from skat.server.config import ServerConfig
if len(sys.argv) > 4:  # every list is dealt from this seed (a test's chosen deal)
    skat.server.registry.new_seed = lambda: bytes.fromhex(sys.argv[4])
app = create_app(sys.argv[2], ServerConfig(**json.loads(sys.argv[1])))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[3]), log_level="warning")
"""


@contextlib.contextmanager
def _serving(
    tmp: Path,
    flags: list[str],
    config: dict[str, Any] | None = None,
    seed: bytes = b"",
    port: int | None = None,
) -> Iterator[str]:
    """A real `skat serve` for the browser tests, with ``flags`` for its waits
    (or, given ``config``, the app with that `ServerConfig` under uvicorn,
    its lists dealt from ``seed`` when one is given); ``port`` to start it
    again where a page expects it (the same origin keeps a seat's token)."""
    port = port or _free_port()
    log = (tmp / "server.log").open("w")
    if config is not None:
        cmd = [sys.executable, "-c", CONFIGURED, json.dumps(config), db_for(tmp).url, str(port)]
        cmd += [seed.hex()] if seed else []
    else:
        cmd = [
            sys.executable, "-m", "skat.cli", "serve",
            "--port", str(port),
            "--db", db_for(tmp).url,
            "--bot-delay", "0.05",
            *flags,
            "--open-tables-per-address", "1000",  # every test's tables come from 127.0.0.1
            "--tables-per-address", "1000",
            "--tournaments-per-address", "1000",
            "--profiles-per-address", "1000",  # each new browser context makes one
            "--log-level", "warning",
        ]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.fail(f"server did not start:\n{(tmp / 'server.log').read_text()}")
            time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


# ------------------------------------------------------------------- driving
def check_texts(page: Page, lang: str, where: str) -> None:
    """No missing key anywhere on screen; no English UI word in de/da."""
    assert page.evaluate("document.documentElement.lang") == lang, where
    text: str = page.evaluate("document.body.innerText")
    attrs: str = page.evaluate(ATTR_TEXT_JS)
    assert "⟦" not in text, f"{lang}/{where}: missing key: {_around(text, '⟦')}"
    assert "⟦" not in attrs, f"{lang}/{where}: missing key in an attribute: {_around(attrs, '⟦')}"
    if lang == "en":
        return
    for word in english_only(lang):
        m = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text)
        assert m is None, f"{lang}/{where}: English {word!r} on screen: {_around(text, word)}"


def _around(text: str, needle: str) -> str:
    i = text.find(needle)
    return repr(text[max(0, i - 80) : i + 80])


def no_horizontal_scroll(page: Page, where: str) -> None:
    dims = page.evaluate(
        "() => [document.documentElement.scrollWidth, window.innerWidth, document.body.scrollWidth]"
    )
    assert dims[0] <= dims[1], f"{where}: scrollWidth {dims[0]} > innerWidth {dims[1]}"
    assert dims[2] <= dims[1], f"{where}: body scrollWidth {dims[2]} > innerWidth {dims[1]}"
    bad = page.evaluate(OVERFLOW_JS)
    assert not bad, f"{where}: elements past the right edge: {bad}"


# ---------------------------------------------------------------------- tests
def test_one_person_with_two_computer_players_plays_a_deal(
    clients: Callable[..., Client],
) -> None:
    c = clients()
    page = c.page
    start_with_bots(c)
    assert "Anna" in page.inner_text(".seat.bottom")
    seen = play_deal(page)
    # This player wins the auction, so every phase of a deal was on screen.
    for ph in ("bidding", "skat", "discard", "declare", "play", "done"):
        assert ph in seen, seen
    headline = page.inner_text("[data-testid=result-headline]").strip()
    assert re.match(r"Anna (wins|loses) \w+", headline), headline
    explanation = page.inner_text("[data-testid=explanation]")
    assert re.search(r"Value: .*= \d+", explanation), explanation
    assert page.locator("[data-testid=next]").is_visible()

    page.click("[data-testid=sheet-button]")
    rows = page.locator("[data-testid=sheet] tbody tr")
    assert rows.count() == 1
    row = rows.first.inner_text()
    assert "Anna" in row and re.search(r"\((won|lost|overbid)\)", row), row
    page.click("[data-testid=sheet-close]")
    assert page.locator("[data-testid=sheet]").count() == 0


def test_three_people_play_a_deal_at_one_table(clients: Callable[..., Client]) -> None:
    names = ("Anna", "Ben", "Cleo")
    a, b, c = (clients() for _ in names)
    # Anna creates the table through the options form (one round).
    a.goto("/")
    a.page.fill("#name", names[0])
    a.page.click("details.options summary")
    a.page.fill("#o-rounds", "1")
    a.page.click("[data-testid=create]")
    a.page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    a.page.wait_for_selector(".seat.bottom")  # seated by itself
    url = a.page.input_value("#share")
    assert url == a.page.url
    for who, name in ((b, names[1]), (c, names[2])):
        who.page.goto(url)
        who.page.fill("#sit-name", name)
        who.page.click("[data-testid=sit]")
        who.page.wait_for_selector(".seat.bottom")
    # Full: the list starts by itself, and everybody gets ten cards.
    pages = [x.page for x in (a, b, c)]
    for pg in pages:
        pg.wait_for_function("() => document.querySelectorAll('#hand .card').length === 10")
        assert "Deal 1 of 3" in pg.inner_text("#status")
    policies = ("declare", "pass", "pass")
    done = [False] * 3
    turns = [0] * 3
    deadline = time.monotonic() + DEAL_TIMEOUT
    while not all(done):
        assert time.monotonic() < deadline, f"the deal did not finish; turns {turns}"
        moved = False
        for i, pg in enumerate(pages):
            ph = phase(pg)
            if ph == "done":
                done[i] = True
            elif ph != "wait":
                assert "Your turn" in pg.inner_text("#status")
                act(pg, ph, policies[i])
                turns[i] += 1
                moved = True
        if not moved:
            time.sleep(0.05)
    headlines = {pg.inner_text("[data-testid=result-headline]").strip() for pg in pages}
    assert len(headlines) == 1, headlines
    assert headlines.pop().startswith("Anna "), "the player who bid on plays"
    assert all(t >= 10 for t in turns), turns  # ten cards each, at least


def test_reload_in_the_middle_of_a_trick_returns_to_the_same_state(
    clients: Callable[..., Client],
) -> None:
    c = clients()
    page = c.page
    start_with_bots(c)
    reloaded: list[tuple[list[str], list[str]]] = []

    def reload_once(ph: str) -> bool:
        if reloaded or ph != "play" or not page.evaluate(TRICK_JS):
            return False
        hand, trick = sorted(page.evaluate(HAND_JS)), page.evaluate(TRICK_JS)
        status = page.inner_text("#status")
        page.reload()
        page.wait_for_selector("#hand button.card[data-action=play]:not([disabled])")
        assert sorted(page.evaluate(HAND_JS)) == hand
        assert page.evaluate(TRICK_JS) == trick
        assert page.inner_text("#status") == status
        assert "Your turn" in status
        reloaded.append((hand, trick))
        return False  # and carry on playing from here

    play_deal(page, on_turn=reload_once)
    assert reloaded, "never my turn with cards on the table"
    assert page.inner_text("[data-testid=result-headline]").strip()


def test_illegal_cards_cannot_be_played(clients: Callable[..., Client]) -> None:
    c = clients()
    page = c.page
    checked: list[str] = []

    def try_illegal(ph: str) -> bool:
        if checked or ph != "play":
            return False
        disabled = page.locator("#hand button.card[data-action=play][disabled]")
        if not disabled.count():
            return False
        enabled = page.locator("#hand button.card[data-action=play]:not([disabled])")
        assert enabled.count() > 0
        led = page.evaluate(TRICK_JS)
        assert led, "restrictions only come from a card led"
        card = disabled.first.get_attribute("data-card")
        assert card is not None
        frames = len(c.sent)
        hand_before = sorted(page.evaluate(HAND_JS))
        disabled.first.click(force=True)
        page.wait_for_timeout(500)
        assert not [f for f in c.sent[frames:] if card in f], "a disabled card was sent"
        assert sorted(page.evaluate(HAND_JS)) == hand_before
        assert card not in " ".join(page.evaluate(TRICK_JS))
        assert page.evaluate(TRICK_JS) == led
        assert "Your turn" in page.inner_text("#status")
        assert "⟦" not in page.inner_text("#status")  # and no error either
        checked.append(card)
        return False

    for _ in range(4):  # a deal without a restriction for me is rare
        start_with_bots(c)
        play_deal(page, on_turn=try_illegal)
        if checked:
            break
    assert checked, "no deal where following suit restricted my cards"


def test_every_visible_string_follows_the_language(clients: Callable[..., Client]) -> None:
    for lang in LANGS:
        c = clients()
        page = c.page
        c.goto("/")
        assert page.evaluate("document.documentElement.lang") == "en"
        if lang != "en":
            select_lang(page, lang)
        check_texts(page, lang, "home")
        page.click("details.options summary")
        page.wait_for_selector("[data-testid=create]", state="visible")
        check_texts(page, lang, "options")
        page.click("details.tournament-new summary")
        page.wait_for_selector("[data-testid=tournament-create]", state="visible")
        check_texts(page, lang, "tournament form")
        page.fill("#name", "Anna")
        page.click("[data-testid=play]")
        page.wait_for_selector("#hand .card")

        def check(ph: str, lang: str = lang, page: Page = page) -> None:
            if ph == "declare":
                page.wait_for_function("() => document.getElementById('preview')?.textContent")
            check_texts(page, lang, ph)

        seen = play_deal(page, on_phase=check)
        assert {"bidding", "skat", "discard", "declare", "play", "done"} <= set(seen), seen
        page.click("details summary >> nth=0")  # the tricks of the result
        check_texts(page, lang, "result")
        page.click("[data-testid=sheet-button]")
        page.wait_for_selector("[data-testid=sheet]")
        check_texts(page, lang, "sheet")
        if page.locator("[data-testid=sheet-board-1]").count():  # a game, not thrown in
            with page.context.expect_page() as opened:  # a tab of its own
                page.click("[data-testid=sheet-board-1]")
            board = opened.value
            board.wait_for_selector("[data-testid=board-counter]", timeout=30_000)
            check_texts(board, lang, "analysis board")
            board.close()
        page.click("[data-testid=sheet-close]")
        page.click("header a[href='/rules']")
        page.wait_for_selector(".rules article")
        check_texts(page, lang, "rules")
        page.click("header a[href='/calculator']")
        page.click("[data-testid=calc-go]")
        page.wait_for_selector("[data-testid=calc-explanation]")
        check_texts(page, lang, "calculator")
        page.go_back()
        page.go_back()
        page.wait_for_selector("[data-testid=result-headline]")
        check_texts(page, lang, "table again")
        # a public tournament: its page as the organiser and as an entrant, the lobby
        made = page.evaluate(
            """() => fetch('/api/tournaments', {method: 'POST',
                headers: {'content-type': 'application/json'},
                body: JSON.stringify({name: 'Skat 2026', public: true, rounds: 1})})
              .then((r) => r.json())"""
        )
        c.goto(made["run_url"])
        page.wait_for_selector("[data-testid=organiser]")
        check_texts(page, lang, "tournament, organiser")
        page.fill("#enter-name", "Anna")
        page.click("[data-testid=enter]")
        page.wait_for_selector("[data-testid=entered-as]")
        check_texts(page, lang, "tournament, entered")
        c.goto("/")
        page.wait_for_selector("[data-testid=lobby-tournament]")
        check_texts(page, lang, "lobby")


def test_switching_language_at_the_table_changes_every_string(
    clients: Callable[..., Client],
) -> None:
    c = clients()
    page = c.page
    start_with_bots(c)

    switched: list[str] = []

    def switch(ph: str) -> bool:
        if ph != "play" or switched:
            return False
        page.locator("#hand button.card[data-action=play]:not([disabled])").first.click()
        page.wait_for_function("() => document.querySelectorAll('#log p').length > 5")
        for lang in ("de", "da", "en"):
            select_lang(page, lang)
            page.wait_for_selector("#hand .card")
            check_texts(page, lang, f"table, switched to {lang}")
            log = page.inner_text("#log")
            for bit in english_log_words(lang):  # the log is worded again, too
                assert bit not in log, f"{lang}: {bit!r} in the log: {log!r}"
            switched.append(lang)
        return True

    play_deal(page, on_turn=switch)
    assert switched == ["de", "da", "en"]
    select_lang(page, "de")
    page.click("[data-testid=sheet-button]")
    check_texts(page, "de", "sheet after switching")
    assert "Spielliste" in page.inner_text("#sheet")


def test_calculator_and_rules_pages(clients: Callable[..., Client]) -> None:
    c = clients()
    page = c.page
    c.goto("/calculator")
    for lang in LANGS:
        select_lang(page, lang)
        page.select_option("#c-game", "grand")
        picked = page.eval_on_selector_all(
            "#c-cards .card.selected", "cs => cs.map(c => c.dataset.card)"
        )
        assert sorted(picked) == ["CJ", "SJ"]
        page.click("[data-testid=calc-go]")
        out = page.locator("[data-testid=calc-explanation]")
        out.wait_for()
        # the explanation is worded in the page's language (R5.4 figures)
        words = DICTS[lang]
        assert words["expl.with"].replace("{n}", "2") in out.inner_text()
        assert f"{words['expl.game'].replace('{n}', '3')} × 24 = 72" in out.inner_text()
        check_texts(page, lang, "calculator")
        for p in RULE_PAGES:
            c.goto("/rules" if p == "howto" else f"/rules/{p}")
            page.wait_for_selector(".rules article")
            assert page.locator(".rules h1").inner_text() == DICTS[lang][f"rules.{p}"]
            if p in RULES_WITH_CARDS:
                assert page.locator(".rules article .diagram svg").count() >= 1, p
            check_texts(page, lang, f"rules/{p}")
        c.goto("/calculator")


def _enabled_now(page: Page, selector: str) -> bool:
    """Is there an enabled element for ``selector`` at this moment? One look
    inside the page: a locator's ``count()`` then ``is_enabled()`` races a
    redraw between the two, and the second then waits for an element that
    has gone."""
    return bool(
        page.evaluate(
            "s => { const b = document.querySelector(s); return !!b && !b.matches(':disabled'); }",
            selector,
        )
    )


def _ramsch_words(lang: str, key: str, **params: str) -> str:
    text = DICTS[lang][key]
    for k, v in params.items():
        text = text.replace("{" + k + "}", v)
    return text


def test_calculator_reckons_ramsch(clients: Callable[..., Client]) -> None:
    """R9.1 on the calculator page, explained in the page's language:
    EX-R3 in a Bock deal, EX-R2, and a refusal of points not adding to 120."""
    c = clients(PHONE)
    page = c.page
    c.goto("/calculator")
    for lang in LANGS:
        select_lang(page, lang)
        page.select_option("#c-game", "ramsch")
        assert page.locator("#c-ramsch-fields").is_visible()
        assert not page.locator("#c-cards").is_visible()
        no_horizontal_scroll(page, f"{lang}: calculator, Ramsch")
        for i, pts in enumerate((72, 48, 0)):
            page.fill(f"#c-rp-{i}", str(pts))
        page.check("input[name=bock]")
        page.click("[data-testid=calc-go]")
        out = page.locator("[data-testid=calc-explanation]")
        out.wait_for()
        text = out.inner_text()
        assert _ramsch_words(lang, "ramsch.most", who="A", top="72") in text
        assert _ramsch_words(lang, "ramsch.jungfrau", who="C") in text
        assert _ramsch_words(lang, "ramsch.loses", n="288") in text  # 72 x 2 Jungfrau x 2 Bock
        entries = page.locator("[data-testid=calc-entries]").inner_text()
        assert "A −288, B 0, C 0" in entries
        check_texts(page, lang, "calculator, Ramsch")
        # EX-R2 with tricks given: a tie, both lose
        for i, (pts, tricks) in enumerate(((50, 5), (50, 4), (20, 1))):
            page.fill(f"#c-rp-{i}", str(pts))
            page.fill(f"#c-rt-{i}", str(tricks))
        page.uncheck("input[name=bock]")
        page.click("[data-testid=calc-go]")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=calc-entries]')"
            "?.innerText.includes('A −50, B −50, C 0')"
        )
        text = page.locator("[data-testid=calc-explanation]").inner_text()
        assert _ramsch_words(lang, "ramsch.eachLoses", n="50") in text
        page.fill("#c-rp-2", "19")
        page.click("[data-testid=calc-go]")
        error = page.locator("[data-testid=calc-error]")
        error.wait_for()
        assert error.inner_text() == DICTS[lang]["err.BAD_POINTS"]
        check_texts(page, lang, "calculator, Ramsch refused")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_horizontal_scrolling(clients: Callable[..., Client], viewport: dict[str, int]) -> None:
    c = clients(viewport)
    page = c.page
    c.goto("/")
    no_horizontal_scroll(page, "home")
    page.click("details.options summary")
    no_horizontal_scroll(page, "home with options")
    for p in ("/rules", "/rules/tournament", "/calculator"):
        c.goto(p)
        page.wait_for_selector("main section")
        no_horizontal_scroll(page, p)
    c.goto("/")
    page.fill("#name", "Anna")
    page.click("[data-testid=play]")
    page.wait_for_selector("#hand .card")
    no_horizontal_scroll(page, "table")

    def check(ph: str) -> None:
        no_horizontal_scroll(page, f"table, {ph}")

    play_deal(page, on_phase=check)
    page.click("[data-testid=sheet-button]")
    no_horizontal_scroll(page, "sheet")
    # a tournament's page for its organiser, with seven entrants at two tables
    made = page.evaluate(
        """async () => {
            const post = (path, body) => fetch(path, {method: 'POST',
                headers: {'content-type': 'application/json'}, body: JSON.stringify(body)})
              .then((r) => r.json());
            const t = await post('/api/tournaments', {name: 'Phone cup', rounds: 1});
            for (const name of ['Anna', 'Bert', 'Cora', 'Dirk', 'Emil', 'Frida', 'Gerd'])
              await post(`/api/tournaments/${t.id}/entrants`, {name});
            await post(`/api/tournaments/${t.id}/series`, {organiser: t.organiser});
            return t;
        }"""
    )
    c.goto(made["run_url"])
    page.wait_for_selector("[data-testid=standing]")
    no_horizontal_scroll(page, "tournament")


def test_a_name_and_a_chat_with_markup_show_exactly_as_typed(
    clients: Callable[..., Client],
) -> None:
    """Issue 10: text is stored as typed and escaped only where the page puts
    it into HTML: `Tom & Jerry` shows as such, never as an entity, and markup
    shows as text instead of being run."""
    name = 'Tom & "J" <i>'
    c = clients()
    page = c.page
    start_with_bots(c, name)
    assert name in page.inner_text(".seat.bottom")
    assert "&amp;" not in page.inner_text("body")
    assert page.locator(".seat.bottom i").count() == 0  # no element made of the name
    page.fill("#chat-input", "<b>bold</b> & done")
    page.press("#chat-input", "Enter")
    page.wait_for_function(
        "() => document.getElementById('chat-list').innerText.includes('<b>bold</b> & done')"
    )
    assert page.locator("#chat-list b", has_text="bold").count() == 0
    page.click("[data-testid=sheet-button]")
    assert name in page.inner_text("[data-testid=sheet] thead")


def test_choosing_strong_computer_players_and_asking_for_a_hint(
    clients: Callable[..., Client],
) -> None:
    """Issue 9: the level of the computer players is chosen when the table is
    made and shown on their seats; with hints on, a person asks the strong
    player for a suggestion, which is shown and never played for them."""
    c = clients()
    page = c.page
    c.goto("/")
    page.fill("#name", "Anna")
    page.click("details.options summary")
    page.fill("#o-rounds", "1")
    page.select_option("#o-level", "strong")
    page.select_option("#o-hint", "1")
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector(".seat.bottom")
    page.click("[data-testid=fill]")
    page.wait_for_selector("#hand .card", timeout=15_000)
    for place in ("left", "right"):
        assert "computer (strong)" in page.inner_text(f".seat.{place}")
    wait_phase(page, timeout=60)
    legal_before = page.inner_text("#controls")
    page.click("[data-testid=hint]")
    # the strong player's suggestion, or, when its processes are all busy
    # (a loaded machine), the quick one that says so
    # (a loaded machine), the quick one that says so; spoken to her, not of her
    hint_js = "document.querySelector('[data-testid=hint-text]')?.textContent || ''"
    page.wait_for_function(
        f"() => /^(Quick s|S)uggestion.*: (bid \\d+|hold|pass)$/.test({hint_js})",
        timeout=30_000,
    )
    assert phase(page) != "wait"  # still her decision: nothing was played for her
    assert "Hint" in legal_before
    assert "Anna" not in page.evaluate(hint_js)


def test_a_discard_hint_names_its_two_cards(clients: Callable[..., Client]) -> None:
    """Issue 26, item 7: "Suggestion: Anna puts two cards away" named no card
    and spoke of her in the third person; now it says which two to put away."""
    c = clients()
    page = c.page
    c.goto("/")
    page.fill("#name", "Anna")
    page.select_option("#p-hint", "1")
    page.click("[data-testid=play]")
    page.wait_for_selector("#hand .card", timeout=15_000)
    hint_js = "document.querySelector('[data-testid=hint-text]')?.textContent || ''"
    deadline = time.monotonic() + 90
    ph = wait_phase(page, timeout=60)
    while ph != "discard":
        assert time.monotonic() < deadline, "Anna never came to the discard"
        assert ph in ("bidding", "skat"), ph  # she bids on: the computers pass at their limit
        act(page, ph, "declare")
        ph = wait_phase(page, timeout=60)
    page.click("[data-testid=hint]")
    page.wait_for_function(
        f"() => /^(Quick s|S)uggestion.*: put .+ and .+ away$/.test({hint_js})", timeout=30_000
    )
    text = page.evaluate(hint_js)
    assert "Anna" not in text and "two cards" not in text, text


def test_the_result_says_what_perfect_play_could_have_made(
    clients: Callable[..., Client],
) -> None:
    c = clients()
    page = c.page
    start_with_bots(c)
    play_deal(page)
    if "Thrown in" in page.inner_text("[data-testid=result-headline]"):
        pytest.skip("the deal was thrown in: no game to analyse")
    page.wait_for_selector("[data-testid=analysis]", timeout=30_000)
    text = page.inner_text("[data-testid=analysis]")
    # a heading that is true of won and lost games alike (issue 26, item 1)
    assert text.startswith("With all cards open:"), text
    # worded from the reader's side (Anna), every swing named (issue 26, point 2)
    assert re.search(
        r"With best play on both sides (you|\w+) would have made \d+ card points; "
        r"(you|\w+) made \d+\.|this Null",
        text,
    ), text
    assert re.search(r"Trick \d+: |No card played changed", text), text
    assert "could have made" not in text and "turning card" not in text, text


# ------------------------------------------------- issue 14: a real card table
FINISHED_JS = (
    "() => [...document.querySelectorAll('#board .trick.finished .slot')]"
    ".map((s) => s.classList[1])"
)
# Whether the element at the centre of each matched element is that element
# (or inside it): nothing lies on top of it.
UNCOVERED_JS = """(sel) => [...document.querySelectorAll(sel)].every((el) => {
  const r = el.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return top !== null && (top === el || el.contains(top));
})"""


def create_with_options(c: Client, name: str = "Anna", **fields: str) -> str:
    """Create a table through the options form; returns its link."""
    c.goto("/")
    c.page.fill("#name", name)
    c.page.click("details.options summary")
    for key, value in fields.items():
        if key in ("rounds", "max_matadors"):  # the counts
            c.page.fill(f"#o-{key}", value)
        else:
            c.page.select_option(f"#o-{key}", value)
    c.page.click("[data-testid=create]")
    c.page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    c.page.wait_for_selector(".seat.bottom")
    return c.page.url


def sit_at(c: Client, url: str, name: str) -> None:
    c.page.goto(url)
    c.page.fill("#sit-name", name)
    c.page.click("[data-testid=sit]")
    c.page.wait_for_selector("[data-testid=sit]", state="detached")


def test_a_finished_trick_stays_on_the_table_in_front_of_its_players(
    clients: Callable[..., Client],
) -> None:
    """Bug 1: the trick area never held the third card. Now the finished
    trick lies there, each card in front of the player who played it, with
    who took it, until it is collected."""
    c = clients()
    page = c.page
    start_with_bots(c)
    # every finished trick that shows, however briefly, as its places and the winner line
    page.evaluate(
        """() => { window.finished = [];
          new MutationObserver(() => {
            const slots = [...document.querySelectorAll('#board .trick.finished .slot')];
            const who = document.querySelector('[data-testid=trick-winner]');
            if (slots.length) window.finished.push(
              [slots.map((s) => s.classList[1]).sort().join(' '), who ? who.innerText : '',
               slots.map((s) => s.querySelector('[data-card]').dataset.card).sort().join(' ')]);
          }).observe(document.getElementById('board'), {childList: true, subtree: true}); }"""
    )
    cues: list[bool] = []

    def cue(ph: str) -> bool:
        if ph == "play":
            cues.append(page.locator("[data-testid=your-turn]").is_visible())
        return False

    play_deal(page, on_turn=cue)
    assert cues and all(cues), "no 'your turn' cue on the table"
    seen: list[list[str]] = page.evaluate("window.finished")
    full = [s for s in seen if s[0] == "bottom left right"]
    # the tricks' own fold: the open-card verdict's further swings fold away
    # in a <details> of their own above it (result.js)
    played = page.locator("#result [data-testid=result-tricks] .trickline").count()
    assert played >= 1
    assert len({cards for _, _, cards in full}) == played, seen[-5:]  # every trick, whole
    assert all("takes the trick" in w for _, w, _ in full)
    # the log has one line per trick, after the card that completed it
    log = page.inner_text("#log")
    assert log.count("takes the trick") == played, log[-600:]
    # the last trick of the deal stays in sight beside the result
    assert len(page.evaluate(FINISHED_JS)) == 3


def test_the_log_follows_its_newest_line_and_survives_a_reload(
    clients: Callable[..., Client],
) -> None:
    """Bugs 2 and 15: the log opened scrolled to the top, hid its newest
    lines, and was empty after a reload."""
    c = clients()
    page = c.page
    start_with_bots(c)
    checked: list[int] = []
    at_bottom = (
        "() => { const l = document.getElementById('log');"
        " return l.scrollHeight > l.clientHeight"
        " && l.scrollTop + l.clientHeight >= l.scrollHeight - 2; }"
    )

    def check(ph: str) -> bool:
        if checked or ph != "play" or page.locator("#log p.won").count() < 2:
            return False
        assert page.evaluate(at_bottom), "the newest line is below the edge"
        lines = page.locator("#log p").count()
        page.reload()
        page.wait_for_selector("#hand .card")
        page.wait_for_function("() => document.querySelectorAll('#log p.won').length >= 2")
        assert page.locator("#log p").count() >= lines - 2  # the deal's lines are back
        assert "plays" in page.inner_text("#log")
        assert page.evaluate(at_bottom)
        checked.append(lines)
        return False

    play_deal(page, on_turn=check)
    assert checked, "never two tricks into the deal on my turn"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_last_trick_is_an_overlay_that_hides_neither_the_trick_nor_the_hand(
    clients: Callable[..., Client], viewport: dict[str, int]
) -> None:
    """Bug 3: "Last trick" covered its own button and hid the current trick
    while the hand stayed playable; later it covered the left player's seat."""
    c = clients(viewport)
    page = c.page
    start_with_bots(c)
    checked: list[bool] = []

    def check(ph: str) -> bool:
        if checked or ph != "play" or not page.evaluate(TRICK_JS):
            return False
        if not page.locator("[data-testid=last-trick]").count():
            return False
        if page.locator("#board .trick.finished").count():
            return False  # the previous trick still lies there
        page.click("[data-testid=last-trick]")
        box = page.locator("[data-testid=last-trick-box]")
        assert box.is_visible()
        assert box.locator(".card").count() == 3
        page.wait_for_selector("#board .trick.collecting", state="detached")
        assert page.evaluate(UNCOVERED_JS, "#board .trick:not(.collecting) .slot .card")
        # on a phone the box takes a row of the board: the hand may move
        # below the fold, never under the box
        page.locator("#hand").scroll_into_view_if_needed()
        assert page.evaluate(UNCOVERED_JS, "#hand button.card:not([disabled])")
        page.locator("[data-testid=last-trick]").scroll_into_view_if_needed()
        assert page.evaluate(UNCOVERED_JS, "[data-testid=last-trick]")
        # nor the players' seats, the left one included (issue 26, item 10)
        assert page.evaluate(UNCOVERED_JS, "#board .seat.left, #board .seat.right")
        page.click("[data-testid=last-trick]")
        assert page.locator("[data-testid=last-trick-box]").count() == 0
        checked.append(True)
        return False

    for _ in range(3):
        play_deal(page, on_turn=check)
        if checked:
            break
        page.click("[data-testid=next]")
        page.wait_for_selector("[data-testid=result-headline]", state="detached")
    assert checked, "never my turn with cards on the table after the first trick"


def test_play_another_list_takes_everyone_to_the_new_table(
    clients: Callable[..., Client],
) -> None:
    """Bug 4: "Play another list" did nothing until a reload. Also bug 15:
    the final standings name the winner."""
    a, watcher = clients(), clients()
    url = create_with_options(a, rounds="1")
    a.page.click("[data-testid=fill]")
    a.page.wait_for_selector("#hand .card")
    watcher.page.goto(url)
    watcher.page.wait_for_selector("#board .seat")
    for deal in range(3):
        play_deal(a.page)
        if deal < 2:
            a.page.click("[data-testid=next]")
            a.page.wait_for_selector("[data-testid=result-headline]", state="detached")
    winner = a.page.inner_text("[data-testid=final-winner]")
    assert re.search(r"wins the list with −?\d+ points?\.|share first place", winner), winner
    assert watcher.page.locator("[data-testid=next]").count() == 0  # spectators: no Next
    a.page.click("[data-testid=again]")
    for who in (a, watcher):
        who.page.wait_for_function(f"() => location.href !== {json.dumps(url)}")
        who.page.wait_for_selector("[data-testid=table]")
    assert a.page.url == watcher.page.url != url
    a.page.wait_for_selector("#hand .card")  # Anna plays on in her seat
    assert "Anna (you)" in a.page.inner_text(".seat.bottom")


def test_a_friend_takes_a_computer_seat_at_a_table_made_with_play(
    clients: Callable[..., Client],
) -> None:
    """Bugs 5, 6 and 7: the Play button made a table friends could only
    watch; visitors did not see seat 0; "offline" was shown wrongly."""
    a, b = clients(), clients()
    start_with_bots(a)
    url = a.page.url
    b.page.goto(url)
    b.page.wait_for_selector("#board .seat")
    assert "Anna" in b.page.inner_text("#board")  # a visitor sees the host
    b.page.fill("#sit-name", "Ben")
    assert "next deal" in b.page.inner_text("[data-testid=takeover]")
    b.page.click("[data-testid=take-1]")
    assert "from the next deal" in b.page.inner_text("[data-testid=pending]")
    a.page.wait_for_function(
        "() => document.querySelector('[data-testid=seat-1]').innerText"
        ".includes('Ben plays from the next deal')"
    )
    assert b.page.locator("#hand .card").count() == 0  # Ben only watches this deal
    play_deal(a.page)
    a.page.click("[data-testid=next]")
    b.page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 10")
    assert "Ben (you)" in b.page.inner_text(".seat.bottom")
    a.page.wait_for_function(
        "() => document.querySelector('[data-testid=seat-1]').innerText.includes('Ben')"
    )
    assert "offline" not in a.page.inner_text("#board")
    # the sheet credits deal 1 to the computer who played it, and names both
    # in the seat's column (issue 26, item 8)
    a.page.click("[data-testid=sheet-button]")
    heads = a.page.locator("[data-testid=sheet] thead th").all_inner_texts()
    assert any(h.endswith(" / Ben") and h != " / Ben" for h in heads), heads
    a.page.click("[data-testid=sheet-close]")
    b.close()  # Ben closes the tab: offline at once, long before the grace ends
    a.page.wait_for_function(
        "() => document.querySelector('[data-testid=seat-1] .badge.offline') !== null",
        timeout=5000,
    )


def test_the_table_shows_its_rules_a_leave_button_and_no_mute_for_computers(
    clients: Callable[..., Client],
) -> None:
    """Bugs 8 and 15: the table's rules were never shown; no Leave button;
    mute buttons on computer players."""
    c = clients()
    page = c.page
    start_with_bots(c)
    rules = page.locator("[data-testid=table-rules]")
    assert "Tournament (Seeger-Fabian)" in rules.inner_text()
    rules.locator("summary").click()
    text = rules.inner_text()
    assert "12 rounds (36 deals)" in text and "Turn timer: Off" in text, text
    assert page.locator("#board [data-action=mute]").count() == 0
    page.on("dialog", lambda d: d.accept())
    page.click("[data-testid=leave]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=seat-0]').innerText.includes('computer')"
    )
    assert not page.locator("[data-testid=leave]").is_visible()
    assert page.locator("#hand .card").count() == 0


def test_a_device_whose_seat_was_left_on_another_says_it_watches(
    clients: Callable[..., Client],
) -> None:
    """Issue 50, point 5: the server's `notice` (SEAT_LOST) fell through the
    page's message switch unseen; the device that still showed the seat
    now says that it only watches. The device that left knows already."""
    c = clients()
    url = create_with_options(c)
    other = c.context.new_page()  # the same browser: the same seat token
    other.on("pageerror", lambda e: c.errors.append(str(e)))
    other.goto(url)
    other.wait_for_selector("[data-testid=leave]", state="visible")
    other.on("dialog", lambda d: d.accept())
    other.click("[data-testid=leave]")
    said = "This device no longer holds a seat"
    c.page.wait_for_function(
        f"() => document.getElementById('status').textContent.includes({said!r})"
    )
    assert not c.page.locator("[data-testid=leave]").is_visible()
    other.wait_for_selector("[data-testid=leave]", state="hidden")
    assert said not in other.inner_text("#status")


def test_the_options_form_and_the_rules_line_come_from_the_declared_options(
    clients: Callable[..., Client],
) -> None:
    """The form is built from GET /api/options in the page's language, an
    option under a switch shows only with it (issue 26, item 10); a table
    made with Kontra until the end of the first trick says so in its rules
    line; the next visit offers the last choices again, and the Play button
    takes a level and hints, remembered too (issue 26, point 6)."""
    c = clients()
    page = c.page
    c.goto("/")
    select_lang(page, "de")
    page.click("details.options summary")
    page.wait_for_selector("#o-kontra")
    labels = page.inner_text("#options-form")
    assert "Wenn alle passen" in labels and "Bedenkzeit" in labels, labels
    assert page.locator("#o-all_pass option").all_inner_texts() == ["Einpassen", "Ramsch"]
    # an option under a switch shows only while the switch is on
    assert not page.is_visible("#o-kontra_window") and not page.is_visible("#o-ramsch_after_bock")
    url = create_with_options(c, rounds="1", kontra="1", kontra_window="trick_one", timer="30")
    rules = page.locator("[data-testid=table-rules]")
    rules.locator("summary").click()
    text = rules.inner_text()
    assert "Kontra und Re: An (Kontra bis zum Ende des ersten Stichs)" in text, text
    assert "Bockrunden: Aus" in text and "Ramschrunde" not in text, text
    assert "Bedenkzeit: 30 Sekunden" in text and "Computerspieler: Locker" in text, text
    table = json.loads(
        urllib.request.urlopen(c.base + "/api/tables/" + url.rsplit("/", 1)[1]).read()
    )
    assert table["table"]["options"]["ramsch_after_bock"] is False
    assert table["table"]["options"]["kontra_window"] == "trick_one"
    # a count left empty whose default is none (the matador cap, a house
    # rule) stays none: the ISkO's count of every matador (issue 50)
    assert table["table"]["options"]["max_matadors"] is None
    assert "Spitzen höchstens" not in text, text
    # the next visit offers the same choices again, and Play keeps its level
    c.goto("/")
    page.click("details.options summary")
    assert page.input_value("#o-kontra") == "1" and page.input_value("#o-timer") == "30"
    assert (
        page.is_visible("#o-kontra_window") and page.input_value("#o-kontra_window") == "trick_one"
    )
    page.select_option("#p-level", "beginner")
    page.select_option("#p-hint", "1")
    page.fill("#name", "Anna")
    page.click("[data-testid=play]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector("#hand .card", timeout=15_000)
    assert "Computer (Anfänger)" in page.inner_text(".seat.left")  # still in German
    c.goto("/")
    assert page.input_value("#p-level") == "beginner" and page.input_value("#p-hint") == "1"


def test_the_matador_cap_is_chosen_on_the_form_and_said_in_the_rules(
    clients: Callable[..., Client],
) -> None:
    """A house rule that changes a game's value (issue 50, point 3): the
    form takes the cap, the table keeps it and its rules line says it."""
    c = clients()
    url = create_with_options(c, rounds="1", max_matadors="4")
    table = json.loads(
        urllib.request.urlopen(c.base + "/api/tables/" + url.rsplit("/", 1)[1]).read()
    )
    assert table["table"]["options"]["max_matadors"] == 4
    rules = c.page.locator("[data-testid=table-rules]")
    rules.locator("summary").click()
    assert "Matadors counted at most: 4" in rules.inner_text()


def test_schieberamsch_the_skat_goes_round_and_doubles(clients: Callable[..., Client]) -> None:
    """A house rule through the page (engine/ramsch.py): all pass, then
    forehand pushes the skat on unseen, middlehand takes it up and pushes two
    cards on (its jacks cannot be chosen), rearhand pushes unseen; the log
    says so and the result counts the deal four times."""
    a, b, c = clients(), clients(), clients()
    url = create_with_options(a, rounds="1", all_pass="ramsch", schieberamsch="1")
    sit_at(b, url, "Ben")
    sit_at(c, url, "Cleo")
    pages = [x.page for x in (a, b, c)]
    for pg in pages:
        pg.set_default_timeout(5000)
        pg.wait_for_function(
            "() => document.querySelectorAll('#hand .card').length === 10", timeout=15_000
        )

    def turn(testid: str) -> Page:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            for pg in pages:
                if _enabled_now(pg, f"#controls [data-testid={testid}]"):
                    return pg
            time.sleep(0.05)
        raise AssertionError(f"nobody may {testid}")

    for _ in range(3):  # nobody bids: a Ramsch
        turn("pass").click("#controls [data-testid=pass]")
    first = turn("push-unseen")
    assert first.locator("#controls [data-testid=pickup]").is_visible()
    first.click("#controls [data-testid=push-unseen]")
    second = turn("pickup")
    assert second is not first
    second.click("#controls [data-testid=pickup]")
    second.wait_for_function("() => document.querySelectorAll('#hand .card').length === 12")
    hand: list[str] = second.evaluate(HAND_JS)
    choosable = second.locator("#hand button.card[data-action=select]")
    assert choosable.count() == sum(1 for card in hand if card[1] != "J")
    for i in range(2):
        choosable.nth(i).click()
    second.click("#controls [data-testid=discard]")
    third = turn("push-unseen")
    assert third not in (first, second)
    third.click("#controls [data-testid=push-unseen]")
    a.page.wait_for_function(
        "() => (document.getElementById('log').innerText.match(/on unseen/g) || []).length === 2"
    )
    log = a.page.inner_text("#log")
    assert log.count("pushes the skat on unseen") == 2, log
    assert "takes the skat up" in log and "pushes two cards on" in log, log
    deadline = time.monotonic() + DEAL_TIMEOUT
    while not all(phase(pg) == "done" for pg in pages):
        assert time.monotonic() < deadline, "the deal did not finish"
        for pg in pages:
            if phase(pg) == "play":
                with contextlib.suppress(PlaywrightTimeout):
                    act(pg, "play")
    assert "×4" in a.page.inner_text("[data-testid=pushes]")


def test_results_explain_ramsch_kontra_re_and_bock(clients: Callable[..., Client]) -> None:
    """Bugs 9 and 10: no factors, no coming Bock rounds, no Ramsch card points.
    Three people: all pass (a Ramsch deal), then Anna plays, Ben says Kontra
    and Anna Re (a Bock trigger)."""
    a, b, c = clients(), clients(), clients()
    url = create_with_options(a, rounds="1", all_pass="ramsch", kontra="1", bock="1")
    sit_at(b, url, "Ben")
    sit_at(c, url, "Cleo")
    pages = [x.page for x in (a, b, c)]

    def play_all(policies: tuple[str, ...]) -> None:
        deadline = time.monotonic() + DEAL_TIMEOUT
        while True:
            assert time.monotonic() < deadline, "the deal did not finish"
            if all(phase(pg) == "done" for pg in pages):
                return
            moved = False
            for pg, policy in zip(pages, policies, strict=True):
                for say in ("kontra", "re") if policy != "pass" else ():
                    selector = f"#controls [data-testid={say}]"
                    if _enabled_now(pg, selector):
                        # the page may redraw between the look and the click
                        with contextlib.suppress(PlaywrightTimeout):
                            pg.locator(selector).click(timeout=2000)
                        moved = True
                ph = phase(pg)
                if ph not in ("done", "wait"):
                    # the page may change under the click (Kontra arrives and
                    # the cards wait for Re): then look again
                    with contextlib.suppress(PlaywrightTimeout):
                        act(pg, ph, "pass" if policy in ("pass", "kontra") else "declare")
                    moved = True
            if not moved:
                time.sleep(0.05)

    for pg in pages:
        pg.set_default_timeout(3000)  # a click that cannot happen is retried, not waited for
    for pg in pages:
        pg.wait_for_function(
            "() => document.querySelectorAll('#hand .card').length === 10", timeout=15_000
        )
    play_all(("pass", "pass", "pass"))  # nobody bids: Ramsch
    table = a.page.locator("[data-testid=ramsch-points]")
    rows = table.locator("tbody tr")
    assert rows.count() == 3
    points = [int(rows.nth(i).locator("td").nth(0).inner_text()) for i in range(3)]
    tricks = [int(rows.nth(i).locator("td").nth(1).inner_text()) for i in range(3)]
    assert sum(points) == 120 and sum(tricks) == 10, (points, tricks)
    if 10 in tricks:
        assert a.page.locator("[data-testid=durchmarsch]").is_visible()
    elif 0 in tricks:
        assert "Jungfrau" in a.page.inner_text("[data-testid=jungfrau]")
    # issue 26, point 3: a table of people waits until everyone has read it
    a.page.click("[data-testid=next]")
    a.page.wait_for_selector("[data-testid=next-waiting]")
    assert "Ben" in a.page.inner_text("[data-testid=next-waiting]")
    b.page.wait_for_selector("[data-testid=next-others]")
    assert "Cleo" in b.page.inner_text("[data-testid=next-others]")
    time.sleep(0.5)
    assert all(pg.locator("[data-testid=result-headline]").count() == 1 for pg in pages)
    b.page.click("[data-testid=next]")
    c.page.click("[data-testid=next]")
    for pg in pages:
        pg.wait_for_selector("[data-testid=result-headline]", state="detached", timeout=15_000)
    # Anna declares; Ben says Kontra, Anna Re
    policies = {0: "re", 1: "kontra", 2: "pass"}
    play_all(tuple(policies[i] for i in range(3)))
    factors = a.page.inner_text("[data-testid=factors]")
    assert "Kontra and Re ×4" in factors and re.search(r"\d+ × 4 = \d+", factors), factors
    assert "Kontra and Re" in a.page.inner_text("[data-testid=bock-fired]")
    assert "3 Bock deals" in a.page.inner_text("[data-testid=bock-coming]")
    a.page.click("[data-testid=sheet-button]")
    assert "Kontra and Re" in a.page.inner_text("[data-testid=sheet-bock-fired]")
    assert "To come: 3 Bock deals" in a.page.inner_text("[data-testid=sheet-bock-coming]")


def test_the_result_shows_the_skat_as_dealt_and_the_discard(
    clients: Callable[..., Client],
) -> None:
    """Bug 11: after a pickup game only the discard was shown."""
    c = clients()
    start_with_bots(c)
    seen = play_deal(c.page)
    assert "skat" in seen
    dealt = c.page.locator("[data-testid=skat-dealt] .card")
    put = c.page.locator("[data-testid=skat-put] .card")
    assert dealt.count() == 2 and put.count() == 2


def test_copy_link_says_only_what_happened(clients: Callable[..., Client]) -> None:
    """Bug 12: "Link copied" when nothing was copied; now the link is selected."""
    c = clients()
    c.context.add_init_script(
        "navigator.clipboard && (navigator.clipboard.writeText ="
        " () => Promise.reject(new Error('no')));"
        "document.execCommand = () => false;"
    )
    start_with_bots(c)
    page = c.page
    page.click("[data-testid=copy]")
    page.wait_for_function("() => document.getElementById('copy-msg').textContent !== ''")
    msg = page.inner_text("#copy-msg")
    assert "copied" not in msg.lower() and "selected" in msg, msg
    selected = page.evaluate(
        "() => { const i = document.getElementById('share');"
        " return [i.selectionStart, i.selectionEnd, i.value.length]; }"
    )
    assert selected[0] == 0 and selected[1] == selected[2] > 0


def test_phone_sheet_scrolls_with_a_cue_and_iss_says_why_it_is_missing(
    clients: Callable[..., Client],
) -> None:
    """Bugs 13, 15 and 17: on a phone the sheet's third and fourth columns
    were cut off without a hint; "1 × 50 = -50"; an empty ISS file for a
    table the ISS format cannot hold."""
    c = clients(PHONE)
    page = c.page
    create_with_options(c, rounds="1", players="4")
    page.click("[data-testid=fill]")
    page.wait_for_selector("#board .seat.sitting-out")  # the dealer who sits out is marked
    play_deal(page)
    page.click("[data-testid=sheet-button]")
    page.wait_for_selector("[data-testid=sheet]")
    no_horizontal_scroll(page, "sheet at four")
    wide = page.evaluate(
        "() => { const s = document.querySelector('#sheet .scroll');"
        " return s.scrollWidth > s.clientWidth; }"
    )
    if wide:
        assert page.locator("[data-testid=scroll-cue]").is_visible()
        # the sheet may re-render as the list's last state arrives: read the
        # style of the element in the page at that moment, until it settles
        sticky = (
            "() => { const e = document.querySelector('#sheet tbody th.first');"
            " return e !== null && getComputedStyle(e).position === 'sticky'; }"
        )
        page.wait_for_function(sticky, timeout=5000)
        first = page.eval_on_selector("#sheet tbody th.first", "e => getComputedStyle(e).position")
        assert first == "sticky"
    footer = page.inner_text("#sheet tfoot")
    assert "× (−50) =" in footer and not re.search(r"\d × 50 = -", footer), footer
    page.click("[data-testid=iss]")
    page.wait_for_function("() => document.getElementById('download-msg').textContent !== ''")
    assert "three-player" in page.inner_text("[data-testid=download-msg]")


def test_phone_discard_keeps_clear_of_its_button_and_says_the_truth(
    clients: Callable[..., Client],
) -> None:
    """Bug 14: raised discard cards overlapped "Put these two away"; the
    hint said they could be changed until the announcement."""
    c = clients(PHONE)
    page = c.page
    start_with_bots(c)
    checked: list[bool] = []

    def check(ph: str) -> bool:
        if ph != "discard" or checked:
            return False
        for _ in range(2):
            page.locator("#hand button.card[data-action=select]:not(.selected)").last.click()
        button = page.locator("[data-testid=discard]").bounding_box()
        assert button is not None
        for i in range(2):
            card = page.locator("#hand .card.selected").nth(i).bounding_box()
            assert card is not None
            apart = (
                card["y"] >= button["y"] + button["height"]
                or card["y"] + card["height"] <= button["y"]
                or card["x"] >= button["x"] + button["width"]
                or card["x"] + card["width"] <= button["x"]
            )
            assert apart, (card, button)
        hint = page.inner_text("[data-testid=discard-hint]")
        assert "until you announce" not in hint and "stay away" in hint, hint
        checked.append(True)
        return False

    play_deal(page, on_turn=check)
    assert checked


def test_tap_twice_to_play_and_reactions_without_an_emoji_font(
    clients: Callable[..., Client],
) -> None:
    """Phone-first options (issue 14 point 4); bug 15: reactions drew as
    empty boxes without an emoji font, so they are drawn and labelled."""
    c = clients(PHONE)
    page = c.page
    c.context.add_init_script(
        "window.buzzed = 0; navigator.vibrate = () => { window.buzzed += 1; return true; };"
    )
    start_with_bots(c)
    labels = page.inner_text(".reactions")
    assert not re.search("[\U0001f300-\U0001faff]", labels), labels
    assert page.locator(".reactions button svg").count() == 6
    page.click(".reactions button >> nth=0")
    page.wait_for_function("() => document.getElementById('chat-list').innerText.includes('Nice')")
    page.click(".settings summary")
    page.check("[data-key=tap2]")
    page.check("[data-key=vibrate]")
    page.click(".settings summary")
    checked: list[bool] = []

    def tap_twice(ph: str) -> bool:
        if ph != "play" or checked:
            return False
        card = page.locator("#hand button.card[data-action=play]:not([disabled])").first
        name = card.get_attribute("data-card")
        frames = len(c.sent)
        card.click()
        page.wait_for_selector(f"#hand .card.selected[data-card={name}]")
        page.wait_for_timeout(300)
        assert not [f for f in c.sent[frames:] if f"play {name}" in f], "sent on the first tap"
        page.click(f"#hand .card[data-card={name}]")
        page.wait_for_function(f"() => !document.querySelector('#hand [data-card={name}]')")
        assert [f for f in c.sent[frames:] if f"play {name}" in f]
        checked.append(True)
        return True

    play_deal(page, on_turn=tap_twice)
    assert checked
    assert page.evaluate("window.buzzed") >= 1  # a vibration when it was my turn


def test_danish_uses_one_word_for_announced_schneider() -> None:
    """Issue 14: "Schneider meldt" and "annonceret" were mixed in Danish."""
    da = DICTS["da"]
    assert da["ann.schneider"] == "Schneider meldt"
    assert not [k for k, v in da.items() if "annonce" in v.lower()]


def test_no_movement_for_people_who_ask_for_less(browser: Browser, server: str) -> None:
    """Issue 14: card play and trick collection are animated, except under
    prefers-reduced-motion."""
    moving: dict[str, int] = {}
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(viewport=DESKTOP, locale="en-US", reduced_motion=motion)
        try:
            page = context.new_page()
            page.goto(server + "/")
            page.fill("#name", "Anna")
            page.click("[data-testid=play]")
            page.wait_for_selector("#hand .card")
            page.evaluate(
                """() => { window.moved = 0; new MutationObserver(() => {
                  window.moved = Math.max(window.moved, document.getAnimations().length);
                }).observe(document.getElementById('board'), {childList: true, subtree: true}); }"""
            )
            play_deal(page)
            moving[motion] = page.evaluate("window.moved")
        finally:
            context.close()
    assert moving["no-preference"] > 0 and moving["reduce"] == 0, moving


def test_the_declarer_can_show_his_cards(clients: Callable[..., Client]) -> None:
    """R6.6 claim: the declarer's button opens the choice of what to claim;
    a claim of the game shows his cards, the log says so, the button goes
    (a claim is made once a deal), and the answers stand beside the
    controls in words."""
    c = clients()
    page = c.page
    start_with_bots(c)
    claimed: list[bool] = []

    def on_turn(ph: str) -> bool:
        if ph != "play" or claimed:
            return False
        button = page.locator("[data-testid=claim]")
        if not button.count():
            return False
        button.click()
        page.click("[data-testid=claim-cancel]")  # changing one's mind costs nothing
        page.click("[data-testid=claim]")
        page.click("[data-testid=claim-game]")
        page.wait_for_function(
            "() => /Anna shows the cards and claims the game/"
            ".test(document.getElementById('log').textContent)"
        )
        page.wait_for_selector("[data-testid=claim]", state="detached")
        # both computer defenders may accept before the status is read (a
        # busy machine delivers both answers at once): the deal is then over
        # and the log carries what the status said
        status = page.wait_for_function(
            f"""() => {{
              const s = document.querySelector('[data-testid=claim-status]');
              if (s) return s.textContent;
              return ({PHASE_JS})() === 'done' ? 'over' : null;
            }}"""
        ).json_value()
        if status == "over":
            # the first defender's answer is to the claim; the partner's joins
            # it ("gives up too", log.js)
            log = page.inner_text("#log")
            assert log.count("accepts the claim and gives up") == 1, log
            assert log.count("gives up too") == 1, log
        else:
            assert status.startswith("You show your cards and claim the game."), status
        claimed.append(True)
        return True

    seen = play_deal(page, on_turn=on_turn)
    assert "declare" in seen, "Anna did not win the auction"
    assert claimed == [True], "no claim button was offered to the declarer"
    assert seen[-1] == "done"


def test_a_hand_game_preview_gives_the_range_the_unseen_skat_leaves(
    clients: Callable[..., Client],
) -> None:
    """Issue 29, point 5: with the skat unseen the page no longer guesses
    "at least" from the ten cards; it shows the range the engine reckons
    over every skat (R5.2: the skat's jacks count for the matadors)."""
    from skat.engine.reckoner import reckon

    c = clients()
    page = c.page
    c.goto("/")
    page.fill("#name", "Anna")
    page.select_option("#p-hint", "1")  # hints on: a hint redraws the controls
    page.click("[data-testid=play]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector("#hand .card", timeout=15_000)
    shown: list[str] = []

    def on_turn(ph: str) -> bool:
        if ph != "skat" or shown:
            return False
        page.click("[data-testid=hand]")
        page.click("[data-action=pick][data-game=grand]")
        page.wait_for_function("() => document.getElementById('preview')?.textContent")
        hand: list[str] = page.evaluate(HAND_JS)
        shown.append(page.inner_text("#preview"))
        r = reckon("grand", cards=" ".join(hand), hand=True)  # the range does not depend on the bid
        if r.between is not None:
            low, high = r.between
            assert shown[0].startswith(f"Worth {low} to {high}"), (hand, shown[0])
        else:
            assert shown[0].startswith("Value:"), (hand, shown[0])
        assert "Without the skat" not in shown[0]
        # after a hint, the chosen game clicked again keeps its value (issue 26, item 7)
        page.click("[data-testid=hint]")
        page.wait_for_function(
            "() => /uggestion/.test(document.querySelector('[data-testid=hint-text]')"
            "?.textContent || '')",
            timeout=30_000,
        )
        page.click("[data-action=pick][data-game=grand]")
        page.wait_for_function("() => document.getElementById('preview')?.textContent")
        assert page.inner_text("#preview") == shown[0]
        page.click("[data-testid=announce]")
        return True

    seen = play_deal(page, on_turn=on_turn)
    assert "skat" in seen and shown, "Anna did not win the auction"
    assert seen[-1] == "done"


def test_the_verdict_is_worded_from_the_readers_side(clients: Callable[..., Client]) -> None:
    """Issue 26, point 2: the page words the analysis of a game the declarer
    won through a defender's error and of one the declarer threw away, for
    the declarer, the defender who erred and anyone else: the numbers are
    the solver's (players/analysis.py), the words say who gave what away."""
    from skat.engine.records import GameRecord, replay
    from skat.players.analysis import analyse_deal
    from tests.helpers.analysed import DECLARER_BLUNDER, DEFENDER_BLUNDER

    c = clients()
    page = c.page
    start_with_bots(c)
    gift = analyse_deal(replay(GameRecord.from_dict(DEFENDER_BLUNDER))).to_dict()
    thrown = analyse_deal(replay(GameRecord.from_dict(DECLARER_BLUNDER))).to_dict()

    def lines(analysis: dict[str, object], you: int) -> str:
        # the page's own result.js (its versioned URL), with the table's state
        out: list[str] = page.evaluate(
            """async ([a, you]) => {
              const app = document.querySelector("script[type=module]").src;
              return (await import(app.replace(/app\\.js$/, "result.js"))).verdictLines(a, you);
            }""",
            [analysis, you],
        )
        return " ".join(out)

    assert gift["declarer_seat"] == 2 and thrown["declarer_seat"] == 1
    best = gift["positions"][0]["best_declarer_points"]
    declarer = lines(gift, 2)
    assert declarer.startswith(
        f"With best play on both sides you would have made {best} card points; "
        f"you made {gift['declarer_points']}."
    ), declarer
    swing = gift["turning_cards"][0]
    assert "Trick 7: the defence gave you the game with " in declarer, declarer
    assert f"{swing['best_better']} card points for the declarer" in declarer, declarer
    defender = lines(gift, 1)
    assert (
        "Trick 7: your king of hearts gave the declarer the game; eight of hearts would have "
        f"beaten it ({swing['best_better']} card points for the declarer)."
    ) in defender, defender
    assert swing["best_better"] < 61 <= swing["best_after"]
    thrower = lines(thrown, 1)
    assert "Trick 7: your seven of hearts gave the game away; ace of hearts would have kept it" in (
        thrower
    ), thrower
    other = lines(thrown, 0)
    assert "gave the declarer's game away" in other and "you would have" not in other, other


def test_the_result_counts_down_to_the_next_deal(clients: Callable[..., Client]) -> None:
    """Issue 26, point 3: the time a result shows is visible and counts
    down. Alone with computers the next deal waits for Next unless the
    person chose "Time to read the result" on the Play form (issue 49,
    item 4): here a minute."""
    c = clients()
    page = c.page
    c.goto("/")
    page.fill("#name", "Anna")
    page.select_option("#p-result", "60")
    page.click("[data-testid=play]")
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    page.wait_for_selector("#hand .card", timeout=15_000)
    play_deal(page)
    page.wait_for_selector("[data-testid=countdown]")
    first = page.inner_text("[data-testid=countdown]")
    match = re.fullmatch(r"Next deal in (\d+) s\.", first)
    assert match is not None, first
    assert 50 <= int(match.group(1)) <= 60, first
    page.wait_for_timeout(2300)
    later = re.fullmatch(r"Next deal in (\d+) s\.", page.inner_text("[data-testid=countdown]"))
    assert later is not None
    assert 1 <= int(match.group(1)) - int(later.group(1)) <= 4
    # a reload shows the same countdown, not a new one
    page.reload()
    page.wait_for_selector("[data-testid=countdown]")
    again = re.fullmatch(r"Next deal in (\d+) s\.", page.inner_text("[data-testid=countdown]"))
    assert again is not None and int(again.group(1)) <= int(later.group(1))


def test_a_stranger_finds_a_public_table_in_the_lobby_and_sits_down(
    clients: Callable[..., Client],
) -> None:
    """Issue 27, point 2: Anna makes a table "In the lobby"; Ben, alone on
    another device, sees it on the home page with Anna seated and joins it
    in one click. A private table made beside it is never listed."""
    a, b = clients(), clients()
    a.goto("/")
    a.page.fill("#name", "Anna")
    a.page.click("details.options summary")
    a.page.fill("#o-rounds", "1")
    a.page.select_option("#o-public", "1")
    a.page.click("[data-testid=create]")
    a.page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    a.page.wait_for_selector(".seat.bottom")
    tid = a.page.url.rsplit("/", 1)[1]
    b.goto("/")
    row = f"[data-testid=lobby-table][data-table='{tid}']"
    b.page.wait_for_selector(row, timeout=15_000)
    text = b.page.inner_text(row)
    assert "Seated: Anna" in text and "2 free" in text and "English" in text, text
    b.page.fill("#name", "Ben")
    b.page.click(f"{row} [data-testid=lobby-join]")
    b.page.wait_for_url(re.compile(rf"/t/{tid}$"))
    b.page.wait_for_selector(".seat.bottom")  # Ben sits at once
    a.page.wait_for_function("() => document.body.innerText.includes('Ben')")
    # a private table is never in the lobby
    c = clients()
    c.goto("/")
    c.page.fill("#name", "Cleo")
    c.page.click("details.options summary")
    c.page.fill("#o-rounds", "1")
    c.page.click("[data-testid=create]")
    c.page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    private = c.page.url.rsplit("/", 1)[1]
    b.goto("/")
    b.page.wait_for_selector("[data-testid=lobby] [data-testid=lobby-table]")
    assert b.page.locator(f"[data-table='{private}']").count() == 0


def test_a_defender_who_gives_up_is_answered_by_the_computer_partner(
    clients: Callable[..., Client],
) -> None:
    """Issue 26, point 4, and issue 49, finding 3: a defender's concession
    asks the partner; the computer partner answers at once, beside the
    controls in words, and in the log. At Anna's first card the defence has
    no trick, so a give-up would hand the declarer Schwarz: the partner
    joins only if no defence could stop that in any world it samples."""
    c = clients()
    page = c.page
    page.on("dialog", lambda d: d.accept())
    start_with_bots(c)
    gave_up: list[bool] = []

    def on_turn(ph: str) -> bool:
        if ph != "play" or gave_up:
            return False
        button = page.locator("[data-testid=concede]")
        if not button.count():
            return False
        button.click()
        gave_up.append(True)
        page.wait_for_function(
            "() => /Anna gives up and asks the partner to give up too/"
            ".test(document.getElementById('log').textContent)"
        )
        # the partner's answer comes beside the controls, before a card
        page.wait_for_function(
            "() => /does not give up and plays on/.test(document.getElementById('controls')"
            ".textContent) || document.querySelector('[data-testid=result-headline]')",
            timeout=30_000,
        )
        return True

    for _ in range(6):  # Anna passes; some deal makes her a defender
        seen = play_deal(page, policy="pass", on_turn=on_turn)
        if gave_up:
            break
        page.click("[data-testid=next]")
        # the next deal's page, not the last result still on screen
        page.wait_for_selector("[data-testid=result-headline]", state="detached")
    assert gave_up, "Anna was never a defender with a card to play"
    assert seen[-1] == "done"
    log = page.inner_text("#log")
    assert re.search(r"gives up too\.|does not give up and plays on\.", log), log
    if "gives up too." in log:  # only for a Schwarz no defence could stop
        assert "Schwarz" in page.inner_text("#result"), log


def test_the_analysis_board_steps_through_a_deal_from_the_result_and_the_sheet(
    clients: Callable[..., Client],
) -> None:
    """Issue 26, point 1: from the result, "Card by card" opens the deal's
    board: all hands open, every card with the values before and after it
    and every alternative; stepped by buttons and keys to the end; the
    address opens the same card again; the score sheet links to it too.
    Issue 49, point 2: the board opens in a tab of its own and never costs
    the seat; "Back to the table" closes it and the table waited."""
    c = clients()
    page = c.page
    start_with_bots(c)
    for _ in range(6):
        play_deal(page)
        if "Thrown in" not in page.inner_text("[data-testid=result-headline]"):
            break
        page.click("[data-testid=next]")
        page.wait_for_selector("[data-testid=result-headline]", state="detached")
    else:
        pytest.skip("every deal was thrown in")
    table_url = page.url
    deal_line = page.inner_text("[data-testid=result-headline]")
    page.wait_for_selector("[data-testid=board-link]", timeout=30_000)
    # issue 49, point 2: the board opens in a tab of its own, the table stays
    with page.context.expect_page() as opened:
        page.click("[data-testid=board-link]")
    table, page = page, opened.value
    page.wait_for_selector("[data-testid=board-counter]", timeout=30_000)
    counter = page.inner_text("[data-testid=board-counter]")
    match = re.fullmatch(r"Card 1 of (\d+) \(trick 1\)", counter)
    assert match is not None, counter
    total = int(match.group(1))
    hands = page.locator(".board-hand")
    assert hands.count() == 3
    assert sum(h.locator(".card").count() for h in hands.all()) == 30
    move = page.inner_text("[data-testid=board-move]")
    assert re.search(r"plays .+\. Before: .+\. After: .+\.", move), move
    assert page.locator("[data-testid=board-alternatives] li.played").count() == 1
    page.click("[data-testid=board-next]")
    assert page.inner_text("[data-testid=board-counter]").startswith("Card 2 of")
    page.keyboard.press("End")
    assert page.inner_text("[data-testid=board-counter]").startswith(f"Card {total} of {total}")
    assert page.url.endswith(f"#{total}")
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("[data-testid=board-counter]").startswith(f"Card {total - 1} of")
    # the address is shareable: it opens that card again
    shared = page.url
    other = clients()
    other.page.goto(shared)
    other.page.wait_for_selector("[data-testid=board-counter]", timeout=30_000)
    assert other.page.inner_text("[data-testid=board-counter]").startswith(f"Card {total - 1} of")
    # back to the table closes the board's tab: the table waited at the same
    # result (one person: the next deal waits for Next), nothing played for her
    with page.expect_event("close"):
        try:
            page.click("text=← Back to the table")
        except PlaywrightError as exc:
            # the click's own handler closes the tab: on a busy machine it can
            # close before the browser answers Playwright's click (CI, once;
            # microsoft/playwright#26900): the outcome this block waits for
            if "closed" not in str(exc):
                raise
    assert table.url == table_url
    assert table.inner_text("[data-testid=result-headline]") == deal_line
    assert table.locator("[data-testid=next]").is_visible()
    # the sheet's row links to the same board, in a tab of its own too
    table.click("[data-testid=sheet-button]")
    link = table.locator("[data-testid^=sheet-board-]").first
    link.wait_for()
    with table.context.expect_page() as opened:
        link.click()
    opened.value.wait_for_selector("[data-testid=board-counter]", timeout=30_000)
    assert table.url == table_url


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_next_deal_is_in_sight_when_the_result_shows(
    clients: Callable[..., Client], viewport: dict[str, int]
) -> None:
    """Issue 26, point 3: the result's "Next deal" and its countdown are in
    the window at 1280x800 and on a phone without scrolling to find them."""
    c = clients(viewport)
    page = c.page
    start_with_bots(c)
    play_deal(page)
    button = page.locator("[data-testid=next]")
    button.wait_for()
    page.evaluate("() => window.scrollTo(0, 0)")  # where a person is after the last card
    page.wait_for_timeout(300)
    box = button.bounding_box()
    # CI saw the button gone once (a full run, not this test alone): say what
    # the page showed instead, to find why
    assert box is not None, page.evaluate(
        """() => ({url: location.href,
                  result: document.getElementById('result')?.innerHTML.slice(0, 600),
                  controls: document.getElementById('controls')?.innerText.slice(0, 200)})"""
    )
    assert 0 <= box["y"] and box["y"] + box["height"] <= viewport["height"], (box, viewport)
    headline = page.locator("[data-testid=result-headline]").bounding_box()
    assert headline is not None and headline["y"] + headline["height"] <= viewport["height"]


def test_next_stays_in_sight_beside_a_long_verdict(clients: Callable[..., Client]) -> None:
    """A deal in which many cards swung the open-card outcome: on a phone
    the verdict shows what best play gives and the first swing, the others
    fold away ("More (3)"), and Next stays in the window (CI once saw it
    1 px below a verdict of several swings)."""
    c = clients(PHONE)
    page = c.page
    start_with_bots(c)
    play_deal(page)
    page.locator("[data-testid=next]").wait_for()
    if "Thrown in" in page.inner_text("[data-testid=result-headline]"):
        pytest.skip("the deal was thrown in: no game to analyse")
    # the deal's own analysis first: arriving later, it would replace ours
    page.wait_for_selector("[data-testid=analysis]", timeout=30_000)
    swing = {"seat": 1, "card": "CJ", "better": "S7", "best_better": 36, "best_after": 61}
    shown = page.evaluate(
        """async (swing) => {
          const app = document.querySelector("script[type=module]").src;
          const state = await import(app.replace(/app\\.js$/, "state.js"));
          const result = await import(app.replace(/app\\.js$/, "result.js"));
          const T = state.T;
          const turning = [1, 2, 3, 4].map((trick) => ({...swing, trick,
                                                        declarer_winning_before: trick % 2 === 0}));
          T.analyses[T.snap.deal.number] = {declarer_seat: 0, declarer_points: 52,
            positions: [{best_declarer_points: 36}], turning_cards: turning};
          result.renderResult();
          window.scrollTo(0, 0);
          return document.querySelector("[data-testid=analysis]").innerText;
        }""",
        swing,
    )
    assert "Trick 1: " in shown and "More (3)" in shown and "Trick 2: " not in shown, shown
    box = page.locator("[data-testid=next]").bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], box
    page.click("[data-testid=analysis-more] summary")
    assert "Trick 4: " in page.inner_text("[data-testid=analysis]")


def test_the_phone_sheet_shows_every_player_at_once(clients: Callable[..., Client]) -> None:
    """Issue 26, point 9: at 390 px the score sheet shows the columns of all
    players side by side, with whole headers, and no sideways scrolling."""
    c = clients(PHONE)
    page = c.page
    start_with_bots(c)
    play_deal(page)
    page.click("[data-testid=sheet-button]")
    page.wait_for_selector("table[data-testid=sheet]")
    fits = page.evaluate(
        """() => {
        const t = document.querySelector('table[data-testid=sheet]');
        const box = t.closest('.scroll');
        const heads = [...t.querySelectorAll('thead th')].map(
            (th) => [th.textContent.trim(), th.scrollWidth <= th.clientWidth + 1]);
        const r = t.getBoundingClientRect();
        return { wide: t.scrollWidth, room: box.clientWidth, right: r.right,
                 vw: window.innerWidth, heads };
    }"""
    )
    assert fits["wide"] <= fits["room"] + 1 and fits["right"] <= fits["vw"] + 1, fits
    assert all(whole for _, whole in fits["heads"]), fits["heads"]


def test_a_tournament_by_one_link_from_entry_to_the_table(
    clients: Callable[..., Client],
) -> None:
    """Issue 27: the organiser makes a tournament on the home page and keeps
    the page that runs it; a friend opens the shared link, enters by name
    and, once the series is drawn, reaches their own table in one click,
    seated with cards in hand; the organiser watches the table's progress
    and the standings, in German too. The organiser closes the entry and
    opens it again (issue 54, finding 7)."""
    org, anna = clients(), clients()
    org.goto("/")
    org.page.click("details.tournament-new summary")
    org.page.fill("#tr-title", "Freitagsrunde")
    org.page.fill("#tr-series", "1")
    org.page.fill("#tr-rounds", "1")
    org.page.click("[data-testid=tournament-create]")
    org.page.wait_for_url(re.compile(r"/tournament/[\w-]+$"))
    org.page.wait_for_selector("[data-testid=organiser]")
    share = org.page.input_value("[data-testid=share-link]")
    assert "#run=" not in org.page.url and "run=" not in share  # the secret stays out of sight
    assert "Entry is open: 0 entered" in org.page.inner_text("[data-testid=tournament-state]")
    assert "Series: 1, rounds in each: 1" in org.page.inner_text("[data-testid=tournament-rules]")

    anna.page.goto(share)
    anna.page.fill("#enter-name", "Anna")
    anna.page.click("[data-testid=enter]")
    anna.page.wait_for_selector("[data-testid=entered-as]")
    assert anna.page.locator("[data-testid=organiser]").count() == 0  # no organiser's controls
    assert anna.page.locator("[data-testid=draw]").count() == 0
    bob = clients()  # enters too, and the organiser takes him out again before the draw
    bob.page.goto(share)
    bob.page.fill("#enter-name", "Bob")
    bob.page.click("[data-testid=enter]")
    bob.page.wait_for_selector("[data-testid=withdraw-me]")
    org.page.wait_for_function(
        "() => document.querySelector('[data-testid=entrants]').innerText === 'Anna, Bob'"
    )
    org.page.click("details:has([data-withdraw]) summary")
    org.page.click("[data-withdraw=Bob]")
    org.page.wait_for_function(
        "() => document.querySelector('[data-testid=entrants]').innerText === 'Anna'"
    )
    assert "Bob has withdrawn" in org.page.inner_text("[data-testid=tournament-msg]")
    # issue 54, finding 7: the organiser closes the entry; a stranger with the
    # link finds no form, and opening it again brings the form back
    org.page.click("[data-testid=entry-toggle]")
    org.page.wait_for_selector("[data-testid=entry-toggle]:has-text('Open the entries again')")
    cem = clients()
    cem.page.goto(share)
    cem.page.wait_for_selector("[data-testid=entries-closed]")
    assert cem.page.locator("#enter-name").count() == 0
    org.page.click("[data-testid=entry-toggle]")
    org.page.wait_for_selector("[data-testid=entry-toggle]:has-text('Close the entries')")
    cem.page.wait_for_selector("#enter-name")  # the page follows the tournament by itself
    org.page.click("[data-testid=draw]")  # one entrant: two computer players fill the table
    anna.page.wait_for_selector("[data-testid=your-table]", timeout=10_000)
    assert "series 1, table 1" in anna.page.inner_text("[data-testid=my-tables]")
    anna.page.click("[data-testid=your-table]")
    anna.page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    anna.page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 10")
    assert "Anna (you)" in anna.page.inner_text(".seat.bottom")
    assert anna.page.locator("#sit-name").count() == 0  # seated by her entry, nothing to type

    org.page.wait_for_selector("[data-testid=tournament-table]")
    row = org.page.inner_text("[data-testid=tournament-table]")
    assert "Anna" in row and "computer" in row and "deal 1 of 3" in row, row
    standing = org.page.inner_text("[data-testid=standings]")
    assert "Anna" in standing and "Computer" not in standing  # computers are not ranked
    select_lang(org.page, "de")
    org.page.wait_for_selector("[data-testid=tournament-state]")
    assert "Serie 1 von 1 wird gespielt" in org.page.inner_text("[data-testid=tournament-state]")
    check_texts(org.page, "de", "tournament page")


def _log_before_deal(page: Page, number: int) -> list[str]:
    """The log's lines before deal ``number``'s first line."""
    lines = page.locator("#log p").all_inner_texts()
    at = next(i for i, x in enumerate(lines) if x.startswith(f"Deal {number} of"))
    return lines[:at]


def test_a_reloaded_page_keeps_the_log_of_the_earlier_deals(
    clients: Callable[..., Client],
) -> None:
    """Issue 26, item 10: after a reload the log kept only the current deal,
    while a page that stayed open shows the earlier deals' moves, tricks
    and results too."""
    c = clients()
    page = c.page
    start_with_bots(c)
    play_deal(page)
    page.click("[data-testid=next]")
    page.wait_for_selector("[data-testid=result-headline]", state="detached")
    deal_two = (
        "() => [...document.querySelectorAll('#log p.deal')]"
        ".some((p) => p.innerText.startsWith('Deal 2 of'))"
    )
    page.wait_for_function(deal_two)
    wait_phase(page)  # deal 2 waits for Anna: its lines stay as they are
    live = _log_before_deal(page, 2)
    assert "takes the trick" in " ".join(live) and page.locator("#log p.result").count() == 1
    page.reload()
    page.wait_for_selector("#board .seat")
    page.wait_for_function(deal_two)
    after = _log_before_deal(page, 2)
    assert len(after) >= 10, after  # the deal before is there again ...
    assert after == live[-len(after) :]  # ... line for line as the open page had it
    # from its first line on, unless the log's 80 lines are full
    assert after[0].startswith("Deal 1 of") or page.locator("#log p").count() == 80
    assert page.locator("#log p.result").count() == 1  # with its result


def _second_tab_reacting(c: Client) -> tuple[Page, Callable[[], None]]:
    """The same person's second tab on ``c``'s table, and a function that
    sends a reaction from it and waits until ``c``'s page shows it: an update
    of the table that changes nothing at the table itself."""
    page = c.page
    second = c.context.new_page()
    second.goto(page.url)
    count = "() => document.getElementById('chat-list').innerText.split('Nice').length - 1"

    def react() -> None:
        before = page.evaluate(count)
        second.click(".reactions button >> nth=0")
        page.wait_for_function(f"() => ({count})() > {before}")

    return second, react


def test_the_sheet_reopens_an_earlier_deals_result(
    clients: Callable[..., Client],
) -> None:
    """Issue 26, item 2 and "What to build" 3: any earlier deal's result
    opens again from the score sheet, with its headline, its value and the
    entries, and closes back to the sheet."""
    c = clients()
    page = c.page
    start_with_bots(c)
    play_deal(page)
    headline = page.inner_text("[data-testid=result-headline]")
    explanation = page.locator("#result [data-testid=explanation]")
    value = explanation.inner_text() if explanation.count() else None
    entries = page.locator("#result p", has_text="On the list").inner_text()
    page.click("[data-testid=next]")
    page.wait_for_selector("[data-testid=result-headline]", state="detached")
    # a reaction from the same person's second tab: an update of the table
    # while the sheet is open, which draws the sheet again
    second, update_the_table = _second_tab_reacting(c)
    page.set_viewport_size({"width": 420, "height": 360})
    page.click("[data-testid=sheet-button]")
    box = page.locator("#sheet .modal-box")
    box.evaluate("b => { b.scrollTop = b.scrollHeight; }")
    top = box.evaluate("b => b.scrollTop")
    assert top > 0  # the sheet is longer than the small screen
    update_the_table()
    assert box.evaluate("b => b.scrollTop") == top  # the reader stays where he was
    page.set_viewport_size({"width": 1280, "height": 800})
    page.click("[data-testid=sheet-result-1]")
    dialog = page.locator("[data-testid=deal-result]")
    assert dialog.is_visible()
    assert "Deal 1 of" in dialog.inner_text()
    assert page.inner_text("[data-testid=deal-result-headline]") == headline
    if value is not None:  # a game: its value, reckoned as the result said it
        assert dialog.locator("[data-testid=explanation]").inner_text() == value
    assert page.inner_text("[data-testid=deal-result-entries]") == entries
    focus = "() => document.activeElement.dataset.testid"
    assert page.evaluate(focus) == "deal-result-close"
    update_the_table()  # the keyboard stays on the open result
    assert page.evaluate(focus) == "deal-result-close"
    assert dialog.is_visible()
    second.close()
    page.click("[data-testid=deal-result-close]")
    assert dialog.count() == 0
    assert page.locator("[data-testid=sheet]").is_visible()  # back at the sheet
    page.click("[data-testid=sheet-close]")
    assert page.locator("[data-testid=sheet]").count() == 0


def test_the_log_and_the_chat_keep_a_reader_who_scrolled_back(
    clients: Callable[..., Client],
) -> None:
    """A person who scrolls back through the log or the chat to read an
    earlier line is not pulled down to the newest one by the next update of
    the table; one who is at the end follows the newest line."""
    c = clients()
    page = c.page
    start_with_bots(c)
    play_deal(page)  # the log holds a whole deal
    second, react = _second_tab_reacting(c)
    for _ in range(12):
        react()
    lists = [page.locator("#log"), page.locator("#chat-list")]
    for el in lists:
        assert el.evaluate("e => e.scrollHeight > e.clientHeight + 40"), "too short to scroll"
        el.evaluate("e => { e.scrollTop = 10; }")
    react()
    assert [el.evaluate("e => e.scrollTop") for el in lists] == [10, 10]
    chat = lists[1]
    chat.evaluate("e => { e.scrollTop = e.scrollHeight; }")
    react()
    assert chat.evaluate("e => e.scrollHeight - e.scrollTop - e.clientHeight") < 2
    assert "Nice" in chat.evaluate("e => e.lastElementChild.innerText")
    second.close()


def test_a_keyboard_player_keeps_the_card_he_is_on_while_others_chat(
    clients: Callable[..., Client],
) -> None:
    """A person choosing a card with the keyboard keeps the focus on it when
    a reaction or a chat line arrives meanwhile (each update drew the hand
    again and the focus fell to the page)."""
    c = clients()
    page = c.page
    start_with_bots(c)
    second, react = _second_tab_reacting(c)
    checked: list[str] = []

    def on_turn(phase: str) -> bool:
        if phase != "play" or checked:
            return False
        cards = page.locator("#hand button.card:not([disabled])")
        if cards.count() < 2:
            return False
        cards.nth(1).focus()
        page.keyboard.press("ArrowRight")
        card = page.evaluate("() => document.activeElement.dataset.card")
        assert card
        react()
        assert page.evaluate("() => document.activeElement.dataset.card") == card
        checked.append(card)
        return False

    play_deal(page, on_turn=on_turn)
    assert checked
    second.close()


def test_a_game_from_a_file_card_by_card(clients: Callable[..., Client]) -> None:
    """Issue 26, point 1: the analysis board for a game never played here:
    two JSON game records pasted on /board; the first shows card by card
    with its turning card marked, the second is chosen from the list."""
    from tests.helpers.analysed import DECLARER_BLUNDER, DEFENDER_BLUNDER

    c = clients()
    page = c.page
    c.goto("/")
    page.click("header a[href='/board']")
    page.wait_for_selector("[data-testid=board-paste]")
    page.click("[data-testid=board-show]")
    assert "Choose a file" in page.inner_text("[data-testid=board-status]")
    page.fill("[data-testid=board-paste]", "no record")
    page.click("[data-testid=board-show]")
    page.wait_for_function(
        "() => /holds no game the board can read/.test("
        "document.querySelector('[data-testid=board-status]').textContent)"
    )
    page.fill("[data-testid=board-paste]", json.dumps([DEFENDER_BLUNDER, DECLARER_BLUNDER]))
    page.click("[data-testid=board-show]")
    page.wait_for_selector("[data-testid=board-counter]", timeout=30_000)
    assert page.inner_text("[data-testid=board-counter]").startswith("Card 1 of 30")
    assert page.inner_text("#board-title").startswith("Game 1: Spades")
    page.click(".board-page details summary")  # the auction and the skat
    auction = page.inner_text(".board-auction")
    assert "Seat 3" in auction and "Hand" in auction, auction
    page.click("[data-testid=board-swing-next]")  # the defence's HK at trick 7
    page.wait_for_selector("[data-testid=board-swing]")
    assert "(trick 7)" in page.inner_text("[data-testid=board-counter]")
    assert "Seat 2 plays" in page.inner_text("[data-testid=board-move]")
    page.keyboard.press("End")
    assert page.inner_text("[data-testid=board-counter]").startswith("Card 30 of 30")
    # issue 49, finding 10: the picker names each game and its declarer
    labels = page.eval_on_selector_all(
        "[data-testid=board-game] option", "os => os.map(o => o.text)"
    )
    assert labels[0].startswith("1: Spades") and labels[1].startswith("2: Grand"), labels
    page.select_option("[data-testid=board-game]", "2")
    page.wait_for_function(
        "() => document.getElementById('board-title')?.textContent.startsWith('Game 2: Grand')"
    )
    assert page.url.endswith("/board")


OPTIONS_SEL = "[data-testid=board-game] option"
#: An ISS game (ISS-FORMAT.md) that ended before the first card: kermit1
#: left after mic declared Grand; the server scored it won for mic.
ISS_LEFT_BEFORE_PLAY = (
    "(;GM[Skat]PC[Internet Skat Server]SE[2171]ID[18358]DT[2008-05-25/17:57:24/UTC]"
    "P0[kermit2]P1[kermit1]P2[mic]R0[0.0]R1[null]R2[0.0]MV[w C9.D7.HT.HA.SA.HQ.SJ.S7.C8.HJ."
    "H7.CQ.DQ.D9.H9.S8.H8.CT.HK.SQ.CA.CK.SK.CJ.D8.DT.DK.C7.DJ.S9.ST.DA 1 18 0 p 2 20 1 p 2 s "
    "w ST.DA 2 G.DT.ST 0 ?? w LE.1 ]R[d:2 win v:96 m:1 bidok p:120 t:10 s:1 z:1 p0:0 p1:0 "
    "p2:0 l:1 to:-1] ;)"
)


def test_the_file_board_names_players_games_and_early_ends(
    clients: Callable[..., Client],
) -> None:
    """Issue 49, finding 10: on the Analyse page an ISS game that ended
    before the first card shows its result (not "No such deal."); a list
    record's deals show its players' names, not "Seat 1/2/3", and its games
    by game and declarer; a refused file is told in the page's language."""
    from skat.series.record import list_record
    from tests.series.test_fairness import played_list

    c = clients()
    page = c.page
    c.goto("/board")
    page.wait_for_selector("[data-testid=board-paste]")
    page.fill("[data-testid=board-paste]", ISS_LEFT_BEFORE_PLAY)
    page.click("[data-testid=board-show]")
    page.wait_for_function(
        "() => /ended before the first card/.test("
        "document.querySelector('[data-testid=board-status]')?.textContent || '')",
        timeout=30_000,
    )
    status = page.inner_text("[data-testid=board-status]")
    assert status == "The game ended before the first card: mic wins Grand.", status
    page.goto(page.url)  # a fresh page for the list record
    page.wait_for_selector("[data-testid=board-paste]")
    page.fill("[data-testid=board-paste]", json.dumps(list_record(played_list())))
    page.click("[data-testid=board-show]")
    page.wait_for_selector("[data-testid=board-counter]", timeout=30_000)
    text = page.inner_text(".board-page")
    assert "Seat " not in text and re.search(r"\b(Anna|Ben|Cora)\b", text), text[:300]
    labels = page.eval_on_selector_all(
        "[data-testid=board-game] option", "os => os.map(o => o.text)"
    )
    assert labels[0].startswith("1: Null") and "Seat" not in " ".join(labels), labels
    # a refused file, in German
    page.goto(page.url)
    select_lang(page, "de")
    page.wait_for_selector("[data-testid=board-paste]")
    page.fill("[data-testid=board-paste]", '{"deck": "nonsense"}')
    page.click("[data-testid=board-show]")
    page.wait_for_function(
        "() => /kein Spiel/.test(document.querySelector('[data-testid=board-status]').textContent)"
    )
    refused = page.inner_text("[data-testid=board-status]")
    assert refused.startswith("Diese Datei enthält kein Spiel"), refused
    select_lang(page, "en")


#: On the organiser's page: the close button is there and enabled, and the
#: given tables (Anna's and Ben's) are finished. Once they are, nothing takes
#: the button away but the close itself: the other table's people never come.
CLOSE_DUE_JS = """ids => {
  const b = document.querySelector('[data-testid=close-resting]');
  const done = (id) => /^finished/.test(document.querySelector(
    `[data-testid=tournament-table][data-table='${id}'] [data-testid=table-progress]`
  )?.textContent || '');
  return !!b && !b.disabled && ids.every(done);
}"""


def test_two_people_play_a_two_table_tournament_to_the_final_ranking(
    browser: Browser, tmp_path: Path
) -> None:
    """Issue 27: the organiser's screen shows the standings while Anna and
    Ben, entered by the shared link, play two series of one round each at
    two tables of three (four more entrants never come: computers play
    their seats after the grace time while Anna or Ben is at the table; a
    table with neither rests and the organiser closes it); each series they
    reach their table from the tournament page; at the end the final
    ranking is the tables' totals and every entrant is placed."""
    flags = ["--next-delay", "0.3", "--next-delay-people", "0.3", "--grace", "0.5"]
    with _serving(tmp_path, flags) as base:
        org, anna, ben = (Client(browser, base) for _ in range(3))
        people = [anna, ben]
        try:
            org.goto("/")
            org.page.click("details.tournament-new summary")
            org.page.fill("#tr-title", "Zwei Tische")
            org.page.fill("#tr-series", "2")
            org.page.fill("#tr-rounds", "1")
            org.page.click("[data-testid=tournament-create]")
            org.page.wait_for_selector("[data-testid=organiser]")
            share = org.page.input_value("[data-testid=share-link]")
            for who, name in ((anna, "Anna"), (ben, "Ben")):
                who.page.goto(share)
                who.page.fill("#enter-name", name)
                who.page.click("[data-testid=enter]")
                who.page.wait_for_selector("[data-testid=entered-as]")
            tid = share.rsplit("/", 1)[1]
            for name in ("Cora", "Dirk", "Emil", "Frida"):  # entered, never come
                org.page.evaluate(
                    """([tid, name]) => fetch(`/api/tournaments/${tid}/entrants`, {method: 'POST',
                        headers: {'content-type': 'application/json'},
                        body: JSON.stringify({name})})""",
                    [tid, name],
                )
            org.page.wait_for_function(
                "() => document.querySelector('[data-testid=entrants]')?.textContent.split(', ')"
                ".length === 6"
            )
            for number, end in ((1, "Series 1 of 2 is over"), (2, "The tournament is over")):
                org.page.click("[data-testid=draw]")
                theirs: list[str] = []  # Anna's and Ben's tables of this series
                for who in people:
                    who.page.goto(share)
                    who.page.click("[data-testid=your-table]", timeout=15_000)
                    who.page.wait_for_selector("#hand .card", timeout=15_000)
                    # their own table of this series, one the organiser's screen lists
                    mine = who.page.url.rsplit("/", 1)[1]
                    theirs.append(mine)
                    org.page.wait_for_selector(
                        f"[data-testid=tournament-table][data-table='{mine}']"
                    )
                deadline = time.monotonic() + 3 * DEAL_TIMEOUT
                while end not in org.page.inner_text("[data-testid=tournament-state]"):
                    assert time.monotonic() < deadline, org.page.inner_text(
                        "[data-testid=tournament]"
                    )
                    moved = False
                    for k, who in enumerate(people):
                        ph = phase(who.page)
                        if ph not in ("wait", "done"):
                            act(who.page, ph, "declare" if k == 0 else "pass")
                            moved = True
                    # drawn to one table, Anna and Ben leave the other to its
                    # absent entrants: it rests (nobody plays their list), and
                    # the organiser closes it once theirs has finished. Both
                    # looked at in one go inside the page: the button shows
                    # for a moment after a draw too (both new tables rest
                    # until Anna and Ben come, grace 0.5 s, and the page
                    # follows a second later), and it stays, disabled, after
                    # the click until the page is drawn again without it
                    if org.page.evaluate(CLOSE_DUE_JS, theirs):
                        org.page.click("[data-testid=close-resting]")
                        moved = True
                    if not moved:
                        time.sleep(0.05)
                # the standings beside them followed the tables
                tables = org.page.locator("[data-testid=tournament-table]").all_inner_texts()
                assert len(tables) == 2 * number, tables
            standings = org.page.locator("[data-testid=standing]").all_inner_texts()
            assert len(standings) == 6, standings
            assert "Final ranking" in org.page.inner_text("[data-testid=tournament]")
            final = org.page.evaluate(
                f"() => fetch('/api/tournaments/{tid}').then((r) => r.json())"
            )
            sums: dict[str, int] = {}
            for series in final["series"]:
                assert len(series["tables"]) == 2
                for table in series["tables"]:
                    for name, total in table["totals"].items():
                        sums[name] = sums.get(name, 0) + total
            assert {r["name"]: r["total"] for r in final["standings"]} == sums
            assert all(r["lists"] == 2 for r in final["standings"])
            shown = [line.split("\t")[1] for line in standings]
            assert shown == [r["name"] for r in final["standings"]]
        finally:
            errors = [e for c in (org, anna, ben) for e in c.errors]
            for c in (org, anna, ben):
                c.close()
        assert not errors, f"uncaught errors in the page: {errors}"


def test_a_phone_steps_through_the_board_by_swiping(clients: Callable[..., Client]) -> None:
    """Issue 26, point 1: on a phone the board fits the screen and a sideways
    swipe over the hands steps through the cards (left: the next card)."""
    from tests.helpers.analysed import DEFENDER_BLUNDER

    c = clients(PHONE)
    page = c.page
    c.goto("/board")
    page.fill("[data-testid=board-paste]", json.dumps(DEFENDER_BLUNDER))
    page.click("[data-testid=board-show]")
    page.wait_for_selector("[data-testid=board-counter]", timeout=30_000)
    no_horizontal_scroll(page, "analysis board on a phone")

    def swipe(dx: int) -> None:
        box = page.locator(".board-hands").bounding_box()
        assert box is not None
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + dx, y + 5, steps=5)
        page.mouse.up()

    swipe(-120)
    assert page.inner_text("[data-testid=board-counter]").startswith("Card 2 of 30")
    swipe(-120)
    swipe(120)
    assert page.inner_text("[data-testid=board-counter]").startswith("Card 2 of 30")
    swipe(10)  # a tap or a small slip steps nowhere
    assert page.inner_text("[data-testid=board-counter]").startswith("Card 2 of 30")


def test_a_table_everyone_left_rests_and_goes_on_when_one_is_back(
    browser: Browser, tmp_path: Path
) -> None:
    """Issue 26, point 5, and issue 49, item 1: Anna plays with computers and
    closes her tab. After the disconnect grace the table stops and says so
    to a friend who opens the link; the server is stopped and started again
    and the table still rests, nothing played; when Anna opens it again the
    table goes on, for both of them."""
    config = {"bot_delay": 0.05, "grace": 1.5, "next_delay": 600.0}
    port = _free_port()
    rests = "() => document.getElementById('status')?.textContent.includes('This table rests')"
    with _serving(tmp_path, [], config, port=port) as base:
        anna, friend = Client(browser, base), Client(browser, base)
        start_with_bots(anna)
        url = anna.page.url
        wait_phase(anna.page)
        anna.page.close()  # her tab; her browser keeps her seat's token
        friend.page.goto(url)
        friend.page.wait_for_function(rests, timeout=15_000)
        resting = friend.page.inner_text("#status")
        before = json.loads(
            urllib.request.urlopen(f"{base}/api/tables{url[url.rindex('/') :]}").read()
        )
    with _serving(tmp_path, [], config, port=port) as base:  # a restart on the same file
        try:
            friend.page.reload()
            friend.page.wait_for_function(rests, timeout=15_000)
            time.sleep(2 * 1.5)  # longer than a grace: a woken table would move
            assert friend.page.inner_text("#status") == resting  # nobody plays meanwhile
            after = json.loads(
                urllib.request.urlopen(f"{base}/api/tables{url[url.rindex('/') :]}").read()
            )
            assert after["table"]["resting"] and after["version"] == before["version"]
            anna.page = anna.context.new_page()
            anna.page.goto(url)
            anna.page.wait_for_selector("#hand .card", timeout=15_000)
            assert "This table rests" not in anna.page.inner_text("#status")
            friend.page.wait_for_function(
                "() => !document.getElementById('status').textContent.includes('This table rests')",
                timeout=15_000,
            )
            assert play_deal(anna.page)[-1] == "done"  # and it plays on
        finally:
            errors = [e for c in (anna, friend) for e in c.errors]
            for c in (anna, friend):
                c.close()
        assert not errors, f"uncaught errors in the page: {errors}"


def test_a_seat_left_is_named_for_the_computer_on_the_sheet_from_that_deal(
    clients: Callable[..., Client],
) -> None:
    """Issue 49, item 1: Anna and Ben play deal 1 with one computer; in deal
    2 (Ben deals) Ben presses "Leave the table" and the computer plays on in
    his seat. The sheet credits deal 1 to Ben and deal 2 to "Computer (for
    Ben)", the seat's column names both, and deal 2 carries the mark of
    moves a computer made for an absent person."""
    a, b = clients(), clients()
    url = create_with_options(a, rounds="1")
    sit_at(b, url, "Ben")
    a.page.click("[data-testid=fill]")  # a computer takes the third seat: the list starts
    pages = [a.page, b.page]
    for pg in pages:
        pg.wait_for_function(
            "() => document.querySelectorAll('#hand .card').length === 10", timeout=15_000
        )
    deadline = time.monotonic() + DEAL_TIMEOUT
    while not all(phase(pg) == "done" for pg in pages):  # deal 1, played by both
        assert time.monotonic() < deadline, "deal 1 did not finish"
        moved = False
        for k, pg in enumerate(pages):
            ph = phase(pg)
            if ph not in ("wait", "done"):
                with contextlib.suppress(PlaywrightTimeout):
                    act(pg, ph, "declare" if k == 0 else "pass")
                moved = True
        if not moved:
            time.sleep(0.05)
    for pg in pages:
        pg.click("[data-testid=next]")
    for pg in pages:
        pg.wait_for_selector("[data-testid=result-headline]", state="detached")
        pg.wait_for_function("() => document.querySelectorAll('#hand .card').length >= 10")
    b.page.on("dialog", lambda d: d.accept())
    b.page.click("[data-testid=leave]")
    a.page.wait_for_function(
        "() => document.querySelector('[data-testid=seat-1]').innerText"
        ".includes('Computer (for Ben)')"
    )
    assert play_deal(a.page)[-1] == "done"  # the computer plays Ben's cards
    a.page.click("[data-testid=sheet-button]")
    a.page.wait_for_selector("[data-testid=sheet]")
    heads = a.page.locator("[data-testid=sheet] thead th").all_inner_texts()
    assert any("Ben / Computer (for Ben)" in h for h in heads), heads
    rows = a.page.locator("[data-testid=sheet] tbody tr")
    assert rows.count() == 2
    first, second = (rows.nth(i).locator("td") for i in range(2))
    assert first.nth(0).inner_text() == "Anna"  # deal 1: Anna dealt
    assert second.nth(0).inner_text() == "Computer (for Ben)"  # deal 2: the seat's computer
    assert "*" not in first.nth(1).inner_text()
    assert second.nth(1).inner_text().rstrip().endswith("*"), second.nth(1).inner_text()
    csv_text = a.page.evaluate(
        "(u) => fetch(`/api/tables/${u.split('/').pop()}/sheet.csv`).then((r) => r.text())",
        url,
    )
    head, one, two = csv.reader(io.StringIO(csv_text))
    assert (one[1], two[1]) == ("Anna", "Computer (for Ben)")  # who dealt
    assert (one[head.index("computer for")], two[head.index("computer for")]) == (
        "",
        "Computer (for Ben)",
    )


def _claim_at_first_turn(page: Page, level: str) -> int:
    """Anna (the four jacks of seed 939) plays Hearts Hand and claims at her
    first card turn with the button ``level``; the cards left in her hand."""
    deadline = time.monotonic() + DEAL_TIMEOUT
    while True:
        assert time.monotonic() < deadline, page.inner_text("#status")
        ph = wait_phase(page)
        if ph == "skat":
            page.click("[data-testid=hand]")
            page.click("[data-action=pick][data-game=hearts]")
            page.click("[data-testid=announce]")
        elif ph == "play" and page.locator("[data-testid=claim]").count():
            played = page.locator("#hand .card").count()
            page.click("[data-testid=claim]")
            page.click(f"[data-testid={level}]")
            return played
        else:
            act(page, ph, "declare")


def test_a_claim_of_schneider_the_defence_can_stop_is_refused_at_once(
    browser: Browser, tmp_path: Path
) -> None:
    """Issue 49, item 3 and finding 5: Anna claims Schneider, which the
    defence can stop (players/claims.py proves it in every world): both
    computers say no at once, in words beside the controls, before any
    card; her cards stay open, she cannot claim again, and the deal is
    played out and scored by its cards (R6.6)."""
    seed = (939).to_bytes(32, "big")
    config = {"bot_delay": 0.05, "grace": 30.0, "next_delay": 600.0}
    with _serving(tmp_path, [], config, seed) as base:
        c = Client(browser, base)
        page = c.page
        try:
            start_with_bots(c)
            played = _claim_at_first_turn(page, "claim-schneider")
            page.wait_for_function(
                "() => (document.querySelector('[data-testid=claim-status]')?.textContent || '')"
                ".includes('The claim is refused')",
                timeout=30_000,
            )
            status = page.inner_text("[data-testid=claim-status]")
            assert status.startswith("You show your cards and claim Schneider."), status
            assert status.count("says no and plays on") >= 1, status
            assert page.locator("#hand .card").count() == played  # said before any card
            assert page.locator("[data-testid=claim]").count() == 0  # once a deal
            log = page.inner_text("#log")
            assert "does not accept the claim and plays on" in log, log
            seen = play_deal(page)
            assert seen[-1] == "done"
            # scored by the actual outcome (the page played Anna's cards
            # as they came), not by the claim
            assert "Hearts Hand" in page.inner_text("[data-testid=result-headline]")
        finally:
            errors = c.errors
            c.close()
        assert not errors, f"uncaught errors in the page: {errors}"


def test_a_claim_that_holds_ends_the_deal_against_two_computers(
    browser: Browser, tmp_path: Path
) -> None:
    """Issue 26, point 4 (and issue 25, point 6): Anna, with all four jacks,
    plays Hearts Hand that no defence stops and shows her cards at her first
    turn; both computer defenders accept, the log says so, and the deal ends
    won without another card played."""
    seed = (939).to_bytes(32, "big")  # tests/players/test_claims.py: seat 0's four jacks
    config = {"bot_delay": 0.05, "grace": 30.0, "next_delay": 600.0}
    with _serving(tmp_path, [], config, seed) as base:
        c = Client(browser, base)
        page = c.page
        try:
            start_with_bots(c)
            played = _claim_at_first_turn(page, "claim-game")
            page.wait_for_selector("[data-testid=result-headline]", timeout=30_000)
            log = page.inner_text("#log")
            assert "Anna shows the cards" in log
            # one defender accepts, the other gives up too: both answers in words
            assert "accepts the claim and gives up" in log and log.count("gives up") == 2, log
            assert page.locator("#hand .card").count() == played  # no card played after it
            assert page.inner_text("[data-testid=result-headline]").startswith("Anna wins")
            # R6.6: every card went to Anna (120 card points, 10 tricks), yet
            # only the game she claimed counts: Hearts Hand with 5, game 6,
            # Hand 7 (x 10) = 70, no Schneider (80) or Schwarz (90)
            result = page.inner_text("#result")
            assert "Hand 7 × 10 = 70" in result and "Schneider" not in result, result
        finally:
            errors = c.errors
            c.close()
        assert not errors, f"uncaught errors in the page: {errors}"


IN_VIEW_JS = """(sel) => {
  const el = document.querySelector(sel);
  if (!el) return sel + ' missing';
  const r = el.getBoundingClientRect();
  const ok = r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
  return ok ? "" : `${sel} at ${Math.round(r.top)}-${Math.round(r.bottom)} of ${innerHeight}`;
}"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_the_result_is_read_first_and_waits_for_next_when_alone(
    clients: Callable[..., Client], viewport: dict[str, int]
) -> None:
    """Issue 49, item 4: when a deal ends, its headline, the entries, the
    verdict ("could it have been won?") and the Next button are in view
    without scrolling, at 1280x800 and on a phone; alone with computers,
    the next deal waits for Next (no countdown) and comes when pressed."""
    c = clients(viewport)
    page = c.page
    c.goto("/")
    # the Play form offers "Time to read the result" too, "until you press
    # Next" alone by default
    row = page.inner_text("#play-form [data-option=result]")
    assert "Time to read the result" in row and "until you press Next" in row, row
    start_with_bots(c)
    play_deal(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    for name in ("result-headline", "result-entries", "next"):
        sel = f"[data-testid={name}]"
        assert page.evaluate(IN_VIEW_JS, sel) == "", page.evaluate(IN_VIEW_JS, sel)
    headline = page.inner_text("[data-testid=result-headline]")
    if "Thrown in" not in headline:  # a game has a verdict
        page.wait_for_selector("[data-testid=analysis]", timeout=30_000)
        page.evaluate("() => window.scrollTo(0, 0)")
        assert page.evaluate(IN_VIEW_JS, "[data-testid=analysis]") == ""
    assert page.locator("[data-testid=countdown]").count() == 0  # it waits for Next
    assert page.locator("[data-testid=result-headline]").count() == 1
    page.click("[data-testid=next]")
    page.wait_for_selector("[data-testid=result-headline]", state="detached")


WORDS_JS = """async ([key, params]) => {
  const app = document.querySelector("script[type=module]").src;
  const common = await import(app.replace(/app\\.js$/, "common.js"));
  if (params.names === "LIST") params.names = common.listText(["Ben", "Cem", "Dora"]);
  return common.t(key, params);
}"""


def test_counts_and_minus_signs_read_right_in_three_languages(
    clients: Callable[..., Client], server: str
) -> None:
    """Issue 49, finding 9: counts follow each language's plural rules (the
    browser's Intl.PluralRules): "1 round (3 deals)" on a one-round table's
    rules, "1 Bock deal", "wins the list with 1 point"; German says "wenn
    auch Ben es will" but "wenn auch Ben, Cem es wollen"; a negative number
    is written with the minus sign; one factor is not multiplied out; the
    board's first/last buttons are drawn, not font glyphs."""
    c = clients()
    page = c.page
    c.goto("/")
    page.fill("#name", "Anna")
    body = json.dumps({"rounds": 1, "players": 3})
    made = page.evaluate(
        """async (body) => (await fetch("/api/tables", {method: "POST",
           headers: {"Content-Type": "application/json"}, body})).json()""",
        body,
    )
    c.goto(made["url"])
    page.wait_for_function(
        "() => (document.querySelector('#table-rules p')?.textContent || '').length"
    )
    rules = page.eval_on_selector("#table-rules p", "p => p.textContent")
    assert rules.startswith("1 round (3 deals)"), rules
    expect = {
        "en": [
            ("bock.deals", {"n": 1}, "1 Bock deal"),
            ("bock.ramsch", {"n": 2}, "2 Ramsch deals"),
            ("final.winner", {"name": "Dora", "n": 0}, "Dora wins the list with 0 points."),
            ("final.winner", {"name": "Dora", "n": 1}, "Dora wins the list with 1 point."),
            ("final.winner", {"name": "Dora", "n": -130}, "Dora wins the list with −130 points."),
            ("factor.single", {"bits": "Kontra and Re ×4"}, "Factor: Kontra and Re ×4."),
        ],
        "de": [
            ("count.rounds", {"n": 1}, "1 Runde"),
            ("table.othersReading", {"names": "Ben", "n": 1}, "wenn auch Ben es will"),
            ("table.othersReading", {"names": "Ben, Cem", "n": 2}, "wenn auch Ben, Cem es wollen"),
            ("act.nextWaiting", {"names": "LIST"}, "Warte auf Ben, Cem und Dora"),
            ("bock.deals", {"n": 1}, "1 Bockspiel"),
        ],
        "da": [
            ("count.rounds", {"n": 1}, "1 runde"),
            ("result.pushes", {"n": 1, "x": 2}, "usét én gang"),
        ],
    }
    for lang, cases in expect.items():
        select_lang(page, lang)
        for key, params, words in cases:
            got = page.evaluate(WORDS_JS, [key, params])
            assert words in got, (lang, key, got)
    select_lang(page, "en")
    source = (STATIC / "analysis.js").read_text(encoding="utf-8")
    assert "⏮" not in source and "⏭" not in source


def test_a_deal_by_keys_alone_and_the_tab_title_says_whose_turn(
    clients: Callable[..., Client],
) -> None:
    """Issue 49, item 7: the tab's title says when it is your turn; a deal
    from the first bid to the result and on to the next deal with keys
    alone (Y/B to bid, H and A to announce Hand, the arrow keys and Enter
    for cards, N for the next deal); typing in the chat is never a key."""
    c = clients()
    page = c.page
    start_with_bots(c)
    page.fill("#chat-input", "pass")  # letters typed into a field stay there
    assert page.input_value("#chat-input") == "pass"
    page.fill("#chat-input", "")
    deadline = time.monotonic() + DEAL_TIMEOUT
    titles = set()
    while True:
        assert time.monotonic() < deadline, page.inner_text("#status")
        ph = wait_phase(page)
        titles.add(page.title())
        if ph == "done":
            break
        page.evaluate("() => document.activeElement?.blur()")
        if ph == "bidding":
            keys = [k for k, t in (("y", "hold"), ("b", "bid"), ("p", "pass"))
                    if page.locator(f"#controls [data-testid={t}]").count()]  # fmt: skip
            page.keyboard.press(keys[0])
        elif ph == "skat":
            page.keyboard.press("h")
            page.wait_for_selector("#controls [data-testid=announce]")
            page.keyboard.press("a")
        elif ph == "play":
            page.locator("#hand button.card:not([disabled])").first.focus()
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowLeft")
            page.keyboard.press("Enter")
        else:
            act(page, ph, "declare")  # a discard or a game after pickup: not by keys here
        page.wait_for_function(
            "(before) => document.getElementById('log').textContent.length !== before"
            " || !document.querySelector('#controls button, #hand button.card:not([disabled])')",
            arg=len(page.inner_text("#log")),
            timeout=15_000,
        )
    assert "● Your turn – Skat" in titles, titles
    assert page.title() == "Skat"  # the result: nobody's turn
    page.keyboard.press("n")
    page.wait_for_selector("[data-testid=result-headline]", state="detached")


# ---------------------------------------------------------------- the review
REVIEW_SEED = hashlib.sha256(b"review-1310").digest()  # tests/server/test_review_server.py


def _null_hand_leading(page: Page, card: str) -> None:
    """Anna holds to Null Hand (seed ``review-1310``, seat 0 forehand) and
    leads ``card``; the rest of the deal as `play_deal` plays it."""
    led = False

    def turn(ph: str) -> bool:
        nonlocal led
        if ph == "skat":
            page.click("[data-testid=hand]")
            page.click("[data-action=pick][data-game=null]")
            page.click("[data-testid=announce]")
            return True
        if ph == "play" and not led:
            page.click(f"#hand button.card[data-card={card}]")
            led = True
            return True
        return False

    play_deal(page, on_turn=turn)
    assert led


@pytest.mark.parametrize("lang", LANGS)
def test_a_person_opens_the_review_from_the_result_and_steps_to_the_blunder(
    browser: Browser, tmp_path: Path, lang: str
) -> None:
    """Issue 48: Anna finishes a one-deal list, leading the ace in Null
    Hand (it takes the trick in every layout: a blunder), opens the review
    from the result: her decisions from her own seat beside the open-card
    hindsight; "next marked decision" steps the board to the ace. From the
    sheet she opens the list's review (luck against play), whose costliest
    decision links back to the same card; on a phone the two views stack
    and nothing sticks out."""
    config = {"bot_delay": 0.05, "grace": 30.0, "next_delay": 600.0}
    with _serving(tmp_path, [], config, REVIEW_SEED) as base:
        c = Client(browser, base)
        page = c.page
        try:
            c.goto("/")
            if lang != "en":
                select_lang(page, lang)
            page.evaluate(
                """async () => {
                  localStorage.setItem("skat.name", "Anna");
                  const app = document.querySelector("script[type=module]").src;
                  const home = await import(app.replace(/app\\.js$/, "home.js"));
                  await home.createTable({players: 3, deals: 1, first_dealer: 2,
                                          bot: "heuristic"}, true);
                }"""
            )
            page.wait_for_selector("#hand .card", timeout=15_000)
            _null_hand_leading(page, "SA")
            table = page
            with table.context.expect_page() as opened:  # a tab of its own: the seat stays
                table.click("[data-testid=review-link] a")
            page = opened.value
            page.on("pageerror", lambda e: c.errors.append(str(e)))
            page.wait_for_selector("[data-testid=review-list]", timeout=60_000)
            check_texts(page, lang, "review beside the board")
            assert page.locator(
                "[data-testid=hindsight-view] [data-testid=board-alternatives]"
            ).count()
            for _ in range(10):  # the marked decisions in turn, to the ace
                page.click("[data-testid=review-next-mistake]")
                current = page.inner_text("[data-testid=review-current]")
                counter = page.inner_text("[data-testid=board-counter]")
                if DICTS[lang]["review.blunder"] in current:
                    break
            words = DICTS[lang]
            assert words["review.blunder"] in current, current
            first_card = DICTS[lang]["board.counter"].split("{i}")[0] + "1 "
            assert counter.startswith(first_card), counter
            assert page.inner_text("[data-testid=board-move]").startswith("Anna")
            assert words["review.blunder"] in page.inner_text("[data-testid=review-here]")
            # the two views side by side on a desktop
            boxes = [
                page.locator(f"[data-testid={v}]").bounding_box()
                for v in ("review-view", "hindsight-view")
            ]
            assert boxes[0] and boxes[1] and boxes[0]["x"] < boxes[1]["x"]
            assert abs(boxes[0]["y"] - boxes[1]["y"]) < 5
            # on a phone one above the other, nothing to scroll sideways
            page.set_viewport_size(PHONE)
            boxes = [
                page.locator(f"[data-testid={v}]").bounding_box()
                for v in ("review-view", "hindsight-view")
            ]
            assert boxes[0] and boxes[1] and boxes[0]["y"] < boxes[1]["y"]
            no_horizontal_scroll(page, "review on a phone")
            page.set_viewport_size(DESKTOP)
            # from the sheet: the list's review, luck against play
            page.close()
            table.wait_for_selector("[data-testid=result-headline]")
            table.click("[data-testid=sheet-button]")
            with table.context.expect_page() as opened:
                table.click("[data-testid=sheet-review]")
            page = opened.value
            page.on("pageerror", lambda e: c.errors.append(str(e)))
            page.wait_for_selector("[data-testid=review-headline]", timeout=60_000)
            check_texts(page, lang, "list review")
            headline = page.inner_text("[data-testid=review-headline]")
            assert "120" in headline, headline  # Null Hand lost: -120 (R8.2)
            page.set_viewport_size(PHONE)
            no_horizontal_scroll(page, "list review on a phone")
            page.set_viewport_size(DESKTOP)
            page.click("[data-testid=review-costly] >> nth=0")
            page.wait_for_selector("[data-testid=review-current]", timeout=60_000)
            assert page.inner_text("[data-testid=board-counter]").startswith(first_card)
            assert words["review.blunder"] in page.inner_text("[data-testid=review-current]")
        finally:
            errors = c.errors
            c.close()
        assert not errors, f"uncaught errors in the page: {errors}"
