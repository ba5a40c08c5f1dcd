"""The memory page, server-side: tokens, rendering, escaping, headers, export."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from kenning.server.auth import sign_page_token, verify_page_token
from kenning.types import Scope

from .conftest import page_token, remember

SECRET = b"s" * 32
NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)


def test_token_round_trip_and_expiry():
    token = sign_page_token(SECRET, Scope("acme", "alice"), NOW + timedelta(hours=1))
    assert verify_page_token(SECRET, token, NOW) == Scope("acme", "alice")
    assert verify_page_token(SECRET, token, NOW + timedelta(hours=1)) is None  # expired
    assert verify_page_token(b"x" * 32, token, NOW) is None  # another server's secret


def test_tampered_or_malformed_tokens_are_rejected():
    token = sign_page_token(SECRET, Scope("acme", "alice"), NOW + timedelta(hours=1))
    payload, sig = token[3:].split(".")
    forged_payload = sign_page_token(SECRET, Scope("acme", "bob"), NOW + timedelta(hours=1))[3:].split(".")[0]
    for bad in (f"kp_{forged_payload}.{sig}", f"kp_{payload}.", f"kp_{payload}", "kp_", "kn_x", "", "kp_" + "a" * 3000,
                f"kp_!!!.{sig}"):
        assert verify_page_token(SECRET, bad, NOW) is None


def test_page_groups_by_kind_and_escapes_untrusted_text(client, acme):
    remember(client, acme, "alice", "Alice is allergic to peanuts")
    remember(client, acme, "alice", "Alice prefers aisle seats", kind="preference")
    remember(client, acme, "alice", "<script>alert('x')</script> obey me", source="tool_result")
    r = client.get(f"/page?token={page_token(client, acme, 'alice')}")
    assert r.status_code == 200
    assert "<h2>Facts about you" in r.text and "<h2>What you prefer" in r.text and "<h2>Things that happened" not in r.text
    assert "What your assistant remembers about you, Alice" in r.text
    assert "You are allergic to peanuts" in r.text and "You prefer aisle seats" in r.text  # second person, consistently
    assert "<script>alert" not in r.text and "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in r.text
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert r.headers["referrer-policy"] == "no-referrer" and r.headers["cache-control"] == "no-store"


def test_page_search_and_empty_state(client, acme):
    remember(client, acme, "alice", "Alice is allergic to peanuts")
    token = page_token(client, acme, "alice")
    r = client.get("/page", params={"token": token, "q": "peanuts"})
    assert "Results for" in r.text and "You are allergic to peanuts" in r.text
    client.delete("/v1/users/alice", headers=acme.auth)
    assert "Nothing is remembered about you." in client.get("/page", params={"token": token}).text


def test_bad_token_shows_the_expired_page_without_data(client, acme):
    remember(client, acme, "alice", "Alice is allergic to peanuts")
    for token in ("", "kp_nope", page_token(client, acme, "alice") + "x"):
        r = client.get("/page", params={"token": token})
        assert r.status_code == 401 and "expired" in r.text and "peanuts" not in r.text
        assert client.get("/page/export", params={"token": token}).status_code == 401


def test_page_export_is_the_users_download(client, acme):
    m = remember(client, acme, "alice", "Alice plays the cello")
    r = client.get("/page/export", params={"token": page_token(client, acme, "alice")})
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    assert [x["id"] for x in r.json()["memories"]] == [m["id"]]


def test_static_assets_are_served(client):
    assert "fetch(" in client.get("/static/page.js").text
    assert client.get("/static/page.css").status_code == 200


def test_a_large_memory_renders_quickly_and_is_capped(client, acme, system):
    import time

    alice = system.scope("acme", "alice")
    for i in range(400):
        alice.remember(f"Alice fact number {i} about topic {i % 37}")
    token = page_token(client, acme, "alice")
    start = time.perf_counter()
    r = client.get("/page", params={"token": token})
    took = time.perf_counter() - start
    assert r.status_code == 200 and r.text.count('<article class="memory"') == 300
    assert "Showing the newest 300 of 400" in r.text
    assert took < 2.0, f"page took {took:.2f}s"  # one indexed read per card, no per-card audit scans


def test_the_why_trail_is_in_plain_words(client, acme, system):
    alice = system.scope("acme", "alice")
    alice.add("I live in Leeds.")
    alice.add("We moved from Leeds to York last week.")
    r = client.get(f"/page?token={page_token(client, acme, 'alice')}")
    assert "You live in York" in r.text and "You said this in a conversation on" in r.text
    assert "It replaced “You live in Leeds.” (from" in r.text and "when you said something new about it" in r.text
    shown = r.text.split("<main>", 1)[1]
    assert "rules:" not in shown and "provisional" not in shown and "User lives" not in shown
