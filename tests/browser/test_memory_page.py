"""The memory page in headless Chromium (Debian's ``chromium``, driven by Playwright; never ``playwright install``).

Clicks through view, search, edit, delete one, export and delete everything,
checking each change in the store; saves docs/screenshot-memory-page.png.
Skipped only when Chromium is missing and ``CI`` is unset; with ``CI`` set a
missing browser fails the run.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import httpx
import pytest

from kenning.server import create_app
from kenning.types import Status
from tests.server.live import serve

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("KENNING_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshot-memory-page.png"
INJECTION = '<img src=x onerror="alert(1)"> Late check-out until 2pm'  # HTML in a tool's text: shown as text, never run


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"Chromium not found at {CHROMIUM}; CI must install Debian's chromium package")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def live(system):
    """The real app on a real port, in a thread."""
    with serve(create_app(system=system, mcp=False)) as url:
        yield url


def seed(system) -> dict[str, str]:
    alice = system.scope("acme", "alice")
    ids = {}
    # first, so it is the oldest fact and sits at the bottom of its group (newest first)
    ids["injection"] = alice.remember(INJECTION, source="tool_result", source_refs=["web_page_17"]).id
    ids["peanuts"] = alice.remember("Alice is allergic to peanuts", importance=0.95, source_refs=["turn_0142"]).id
    leeds = alice.remember("Alice lives in Leeds", source_refs=["turn_0007"])
    ids["york"] = alice.update(leeds.id, text="Alice lives in York").id
    ids["aisle"] = alice.remember("Alice prefers aisle seats on long flights", kind="preference", source_refs=["turn_0203"]).id
    alice.remember("Alice asked for a vegetarian restaurant near the office", kind="episode", source="inferred")
    alice.remember("Weekly report: export the dashboard, then email it to the team", kind="procedure")
    system.scope("acme", "bob").remember("Bob collects stamps")
    return ids


def test_click_through_view_edit_delete_export_delete_all(browser, live, system, tmp_path):
    ids = seed(system)
    _, key = system.create_api_key("acme", "browser-test")
    r = httpx.post(f"{live}/v1/users/alice/page-token", headers={"Authorization": f"Bearer {key}"})
    url = r.json()["url"]
    alice = system.scope("acme", "alice")

    context = browser.new_context(viewport={"width": 1100, "height": 1400}, accept_downloads=True)
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.accept()))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    # view: grouped by kind, with why each memory exists
    page.goto(url)
    for title in ("Facts about you", "What you prefer", "How you want things done", "Things that happened"):
        assert page.locator("h2", has_text=title).count() == 1
    assert page.locator("article.memory").count() == 6
    york = page.locator(f'article[data-id="{ids["york"]}"]')
    york.locator("summary").click()
    assert "You live in Leeds" in york.locator(".why").inner_text()  # what it superseded, in the second person
    york.locator("ul.trail li", has_text="A new version replaced the old one").wait_for()  # the trail, in plain words
    assert "You said this in a conversation on" in page.locator(f'article[data-id="{ids["peanuts"]}"] .why').text_content()
    assert "Bob collects stamps" not in page.content()
    # untrusted text is shown as text, never run
    assert page.locator(f'article[data-id="{ids["injection"]}"] p.text').inner_text().startswith("<img src=x")
    assert page.locator("img").count() == 0
    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOT), full_page=True)

    # search
    page.fill("input[name=q]", "peanuts allergy")
    page.click("form.search button")
    page.wait_for_url("**q=peanuts*")
    assert page.locator("article.memory").first.get_attribute("data-id") == ids["peanuts"]
    page.click("a.clear")

    # edit: a new version that supersedes the old one
    card = page.locator(f'article[data-id="{ids["aisle"]}"]')
    card.locator(".edit-btn").click()
    assert card.locator("textarea").input_value() == "You prefer aisle seats on long flights"  # as the page says it
    card.locator("textarea").fill("Alice prefers window seats on long flights")
    with page.expect_navigation():
        card.locator(".save").click()
    page.wait_for_selector("text=You prefer window seats on long flights")  # stored as typed, shown to the reader
    assert alice.get(ids["aisle"]).status is Status.RETIRED
    new = [m for m in alice.list() if m.text == "Alice prefers window seats on long flights"]
    assert len(new) == 1 and new[0].supersedes == (ids["aisle"],)

    # delete one: the cascade runs, the card goes
    with page.expect_navigation():
        page.locator(f'article[data-id="{ids["peanuts"]}"] .delete-btn').click()
    assert page.locator(f'article[data-id="{ids["peanuts"]}"]').count() == 0
    assert alice.get(ids["peanuts"]).status is Status.DELETED and alice.get(ids["peanuts"]).text == ""
    assert all("peanuts" not in h.memory.text for h in alice.search("peanuts", k=10))

    # export: a download of everything held
    with page.expect_download() as dl:
        page.click("#export")
    path = tmp_path / "export.json"
    dl.value.save_as(path)
    doc = json.loads(path.read_text())
    assert doc["user_id"] == "alice" and any(m["text"] == "Alice lives in York" for m in doc["memories"])

    # delete everything
    with page.expect_navigation():
        page.click("#delete-all")
    page.wait_for_selector("text=Nothing is remembered about you.")
    assert alice.count(statuses=list(Status)) == 0
    assert [m.text for m in system.scope("acme", "bob").list()] == ["Bob collects stamps"]

    assert len(dialogs) == 2 and all("Delete" in d for d in dialogs)  # the two confirms; no alert from the injection
    assert errors == []
    context.close()


def test_an_expired_or_forged_link_shows_no_data(browser, live, system):
    seed(system)
    page = browser.new_page()
    resp = page.goto(f"{live}/page?token=kp_eyJ0IjoiYWNtZSJ9.forged")
    assert resp.status == 401 and "expired" in page.content() and "peanuts" not in page.content()
    page.close()
