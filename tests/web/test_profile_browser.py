"""A name you keep, without signing up (issue 48, point 3), in Chromium: a
person finishes a list and finds it in their profile, with its figures and,
once reviewed, the review's chart; a second device opens the profile by its
secret link (shown once) and sees the same lists; another person at the
table reads neither the profile nor its key in any message or page until
the owner makes it public, and then no key. English, German and Danish;
a phone and a desktop."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator

import pytest

from tests.helpers.browser import DESKTOP, PHONE, Client, page_server, play_deal

try:
    from playwright.sync_api import Browser, Page
except ImportError:  # pragma: no cover - depends on the machine
    pytest.skip("playwright (Python) is not installed", allow_module_level=True)

pytestmark = pytest.mark.browser

#: The words of the three languages, read from the page's own files.
CREATE_JS = """async (opts) => {
  localStorage.setItem("skat.name", opts.name);
  const app = document.querySelector("script[type=module]").src;
  const home = await import(app.replace(/app\\.js$/, "home.js"));
  await home.createTable(opts.table, opts.fill);
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with page_server(tmp_path_factory.mktemp("profile")) as base:
        yield base


def _lang(page: Page, lang: str) -> None:
    if lang != "en":
        page.select_option("#lang", lang)
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")


def _words_shown(page: Page, where: str) -> None:
    """Every string of the page has its words (no missing key), and nothing
    sticks out sideways."""
    text = page.evaluate("document.body.innerText")
    assert "⟦" not in text, f"{where}: a missing word key"
    wide = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"{where}: {wide[0]} px wide in {wide[1]}"


def _key_of(page: Page) -> str:
    key = page.evaluate("localStorage.getItem('skat.profile.key')")
    assert isinstance(key, str) and len(key) == 32
    return key


def _profile(base: str, key: str) -> dict[str, object]:
    req = urllib.request.Request(
        f"{base}/api/profile",
        data=json.dumps({"key": key}).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return dict(json.load(r))


@pytest.mark.parametrize(
    ("lang", "viewport"), [("en", DESKTOP), ("de", PHONE), ("da", DESKTOP)], ids=str
)
def test_a_finished_list_is_in_the_profile_and_a_second_device_opens_it_by_its_secret_link(
    browser: Browser, server: str, lang: str, viewport: dict[str, int]
) -> None:
    anna = Client(browser, server, viewport)
    other = Client(browser, server, PHONE if viewport == DESKTOP else DESKTOP)
    try:
        page = anna.page
        anna.goto("/")
        _lang(page, lang)
        table = {"players": 3, "deals": 1, "bot": "heuristic"}
        page.evaluate(CREATE_JS, {"name": "Anna", "table": table, "fill": True})
        page.wait_for_selector("#hand .card", timeout=15_000)
        table_id = page.url.rsplit("/", 1)[1]
        play_deal(page)
        page.wait_for_selector("[data-testid=result-headline]")
        # the home page leads to the profile
        anna.goto("/")
        page.click("[data-testid=profile-link]")
        page.wait_for_selector("[data-testid=profile-list]")
        listed = page.locator("[data-testid=profile-list]")
        assert listed.count() == 1 and listed.get_attribute("data-table") == table_id
        assert "Anna" in page.inner_text("[data-testid=profile-name]")
        figures = page.inner_text("[data-testid=profile-figures]")
        assert re.search(r"\b1\b", figures), figures
        _words_shown(page, f"{lang}: the profile")
        # the secret link, shown once: kept, it is gone, also after a reload
        secret = page.input_value("[data-testid=profile-secret-link]")
        key = _key_of(page)
        assert secret.endswith(f"/p#{key}")
        page.click("[data-testid=profile-kept]")
        page.wait_for_selector("[data-testid=profile-list]")
        page.reload()
        page.wait_for_selector("[data-testid=profile-list]")
        assert page.locator("[data-testid=profile-secret]").count() == 0
        # the review comes: the page asks again until it is there, then shows its chart
        page.wait_for_selector("[data-testid=profile-chart] svg", timeout=180_000)
        assert page.locator("[data-testid=profile-luck]").count() == 1
        assert "±" in page.inner_text("[data-testid=profile-skill]")  # with its uncertainty
        _words_shown(page, f"{lang}: the profile reviewed")
        # a second device: the secret link opens the same profile there
        other.page.goto(secret)
        _lang(other.page, lang)
        other.page.wait_for_selector("[data-testid=profile-list]")
        there = other.page.locator("[data-testid=profile-list]")
        assert [there.nth(i).get_attribute("data-table") for i in range(there.count())] == [
            table_id
        ]
        assert _key_of(other.page) == key
        assert "#" not in other.page.url  # the key left the address bar
        assert "Anna" in other.page.inner_text("[data-testid=profile-name]")
        other.page.wait_for_selector("[data-testid=profile-chart] svg")
        _words_shown(other.page, f"{lang}: the profile on the second device")
    finally:
        errors = anna.errors + other.errors
        anna.close()
        other.close()
    assert not errors, errors


def test_another_person_at_the_table_reads_neither_the_profile_nor_its_key(
    browser: Browser, server: str
) -> None:
    anna = Client(browser, server)
    cem = Client(browser, server, PHONE)
    received: list[str] = []
    cem.page.on("websocket", lambda ws: ws.on("framereceived", lambda p: received.append(str(p))))
    try:
        anna.goto("/")
        table = {"players": 3, "rounds": 1, "bot": "heuristic"}
        anna.page.evaluate(CREATE_JS, {"name": "Anna", "table": table, "fill": False})
        anna.page.wait_for_selector("[data-testid=fill]")
        url = anna.page.url
        table_id = url.rsplit("/", 1)[1]
        anna.page.wait_for_function(f"() => !!localStorage.getItem('skat.token.{table_id}')")
        key = _key_of(anna.page)
        mine = _profile(server, key)
        pid = str(mine["id"])
        assert [x["table"] for x in mine["lists"]] == [table_id]  # type: ignore[attr-defined]
        # Cem sits at the same table (his browser makes a profile of its own)
        cem.page.goto(url)
        cem.page.fill("#sit-name", "Cem")
        cem.page.click("[data-testid=sit]")
        cem.page.wait_for_selector("[data-testid=sit]", state="detached")
        anna.page.click("[data-testid=fill]")
        cem.page.wait_for_selector("#hand .card", timeout=15_000)
        assert _key_of(cem.page) != key
        seen = [*received, cem.page.content()]
        for path in (f"/api/tables/{table_id}", f"/api/tables/{table_id}/list.json"):
            with urllib.request.urlopen(f"{server}{path}", timeout=10) as r:
                seen.append(r.read().decode())
        assert received and not [s for s in seen if key in s or pid in s]
        # Anna's profile by its id: private, so nothing
        cem.page.goto(f"{server}/p/{pid}")
        cem.page.wait_for_selector("[data-testid=profile-status]")
        assert "Anna" not in cem.page.inner_text("main")
        # made public, Cem reads it: the name and the lists, never the key
        anna.goto("/p")
        anna.page.click("[data-profile=public]")
        anna.page.wait_for_selector("[data-profile=private]")
        cem.page.reload()
        cem.page.wait_for_selector("[data-testid=profile-list]")
        assert "Anna" in cem.page.inner_text("[data-testid=profile-name]")
        assert key not in cem.page.content()
        assert cem.page.locator("[data-testid=profile-delete]").count() == 0
        # and the owner deletes it: gone for everyone, the device's key forgotten
        anna.page.once("dialog", lambda d: d.accept())
        anna.page.click("[data-testid=profile-delete]")
        anna.page.wait_for_function("() => !localStorage.getItem('skat.profile.key')")
        cem.page.reload()
        cem.page.wait_for_selector("[data-testid=profile-status]")
    finally:
        errors = anna.errors + cem.errors
        anna.close()
        cem.close()
    assert not errors, errors
