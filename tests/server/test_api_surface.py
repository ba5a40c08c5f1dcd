"""The REST additions: filters, agents, batches; 422s in words with the configured limit; GET / and a favicon."""

from __future__ import annotations




def test_search_and_list_take_filters(client, acme):
    auth = acme.auth
    r = client.post("/v1/users/alice/memories/batch", headers=auth, json={"memories": [
        {"text": "Alice takes the aisle seat", "kind": "preference", "agent_id": "travel"},
        {"text": "Alice is allergic to peanuts", "kind": "fact", "metadata": {"severity": "high"}},
    ]})
    assert r.status_code == 201 and [m["metadata"] for m in r.json()] == [{"agent_id": "travel"}, {"severity": "high"}]
    found = client.post("/v1/users/alice/search", headers=auth, json={"query": "seat peanuts", "filters": {"agent_id": "travel"}})
    assert [h["memory"]["text"] for h in found.json()] == ["Alice takes the aisle seat"]
    found = client.post("/v1/users/alice/search", headers=auth,
                        json={"query": "seat peanuts", "filters": {"metadata": {"severity": "high"}, "kinds": ["fact"]}})
    assert [h["memory"]["text"] for h in found.json()] == ["Alice is allergic to peanuts"]
    listed = client.get("/v1/users/alice/memories", headers=auth, params={"agent_id": "travel"})
    assert [m["text"] for m in listed.json()] == ["Alice takes the aisle seat"]
    bad = client.post("/v1/users/alice/search", headers=auth, json={"query": "x", "filters": {"colour": "red"}})
    assert bad.status_code == 422 and "filters.colour" in bad.json()["error"]["message"]


def test_a_long_text_is_a_422_naming_the_field_and_the_configured_limit(client, acme):
    r = client.post("/v1/users/alice/messages", headers=acme.auth, json={"messages": "x" * 25_000})
    msg = r.json()["error"]["message"]
    assert r.status_code == 422 and msg == "messages: is too long: at most 4000 characters", msg
    r = client.post("/v1/users/alice/memories", headers=acme.auth, json={"text": "x" * 5000})
    assert r.status_code == 422 and r.json()["error"]["message"] == "text is 5000 characters; the limit is 4000"
    schema = client.get("/openapi.json").json()["components"]["schemas"]
    assert schema["MemoryCreate"]["properties"]["text"]["maxLength"] == 4000


def test_home_and_favicon(client):
    r = client.get("/")
    assert r.status_code == 200 and 'href="/docs"' in r.text and "memory page" in r.text
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert 'rel="icon"' in client.get("/page?token=kp_bad").text
