"""Every REST route does what the facade does, through the real app."""

from __future__ import annotations

from kenning.types import Status

from .conftest import page_token, remember


def test_remember_returns_the_public_record_and_stores_it(client, acme, system):
    body = remember(client, acme, "alice", "Alice is allergic to peanuts", kind="fact", importance=0.95)
    assert body["text"] == "Alice is allergic to peanuts" and body["importance"] == 0.95
    assert "embedding" not in body and "tenant_id" not in body
    stored = system.scope("acme", "alice").get(body["id"])
    assert stored.text == "Alice is allergic to peanuts" and stored.importance == 0.95


def test_list_get_and_filter_by_kind(client, acme):
    fact = remember(client, acme, "alice", "Alice lives in York")
    pref = remember(client, acme, "alice", "Alice prefers aisle seats", kind="preference")
    r = client.get("/v1/users/alice/memories", headers=acme.auth)
    assert [m["id"] for m in r.json()] == [pref["id"], fact["id"]]
    r = client.get("/v1/users/alice/memories", params={"kind": "preference"}, headers=acme.auth)
    assert [m["id"] for m in r.json()] == [pref["id"]]
    r = client.get(f"/v1/users/alice/memories/{fact['id']}", headers=acme.auth)
    assert r.status_code == 200 and r.json()["text"] == "Alice lives in York"


def test_search_returns_scored_hits_best_first(client, acme):
    remember(client, acme, "alice", "Alice is allergic to peanuts")
    remember(client, acme, "alice", "Alice plays the cello")
    r = client.post("/v1/users/alice/search", json={"query": "peanuts allergy", "k": 2}, headers=acme.auth)
    hits = r.json()
    assert r.status_code == 200 and hits[0]["memory"]["text"] == "Alice is allergic to peanuts"
    assert 0 <= hits[0]["score"] <= 1 and {"relevance", "recency", "importance"} <= set(hits[0]["components"])


def test_patch_writes_a_new_version_and_history_links_them(client, acme, system):
    old = remember(client, acme, "alice", "Alice lives in Leeds")
    r = client.patch(f"/v1/users/alice/memories/{old['id']}", json={"text": "Alice lives in York"}, headers=acme.auth)
    new = r.json()
    assert r.status_code == 200 and new["supersedes"] == [old["id"]] and new["id"] != old["id"]
    assert system.scope("acme", "alice").get(old["id"]).status is Status.RETIRED
    h = client.get(f"/v1/users/alice/memories/{new['id']}/history", headers=acme.auth).json()
    assert [v["id"] for v in h["versions"]] == [old["id"], new["id"]]
    assert any(a["op"] == "UPDATE" for a in h["audit"])


def test_delete_runs_the_cascade(client, acme, system):
    old = remember(client, acme, "alice", "Alice lives in Leeds")
    new = client.patch(f"/v1/users/alice/memories/{old['id']}", json={"text": "Alice lives in York"}, headers=acme.auth).json()
    r = client.delete(f"/v1/users/alice/memories/{new['id']}", headers=acme.auth)
    assert r.status_code == 200 and set(r.json()["deleted"]) >= {new["id"], old["id"]}
    assert system.scope("acme", "alice").get(new["id"]).status is Status.DELETED
    assert client.get(f"/v1/users/alice/memories/{new['id']}", headers=acme.auth).json()["text"] == ""


def test_forget_phrase_and_forget_user(client, acme, system):
    remember(client, acme, "alice", "Alice's locker is number 12 by the pool")
    keep = remember(client, acme, "alice", "Alice plays the cello")
    r = client.post("/v1/users/alice/forget", json={"text": "locker"}, headers=acme.auth)
    assert r.status_code == 200 and len(r.json()["deleted"]) == 1
    assert [m.id for m in system.scope("acme", "alice").list()] == [keep["id"]]
    r = client.delete("/v1/users/alice", headers=acme.auth)
    assert r.status_code == 200 and r.json()["deleted"] >= 1
    assert system.scope("acme", "alice").count(statuses=list(Status)) == 0


def test_export_is_a_download_of_everything(client, acme):
    m = remember(client, acme, "alice", "Alice plays the cello")
    r = client.get("/v1/users/alice/export", headers=acme.auth)
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    doc = r.json()
    assert doc["format"] == "kenning-export/1" and [x["id"] for x in doc["memories"]] == [m["id"]]


def test_maintain_runs_for_the_user(client, acme):
    remember(client, acme, "alice", "Alice plays the cello")
    r = client.post("/v1/users/alice/maintain", headers=acme.auth)
    assert r.status_code == 200, r.text


def test_messages_capture_turns_through_the_write_path(client, acme, system):
    r = client.post(
        "/v1/users/alice/messages",
        json={"messages": [{"role": "user", "content": "I am allergic to peanuts and I live in York."}], "wait": True},
        headers=acme.auth,
    )
    assert r.status_code == 200, r.text
    texts = " ".join(m.text for m in system.scope("acme", "alice").list(statuses=(Status.ACTIVE, Status.PROVISIONAL)))
    assert "peanut" in texts.lower()


def test_whoami_health_ready_metrics_openapi(client, acme):
    assert client.get("/v1/whoami", headers=acme.auth).json() == {"tenant_id": "acme", "user_id": None}
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json() == {"status": "ready"}
    spec = client.get("/openapi.json").json()
    assert "/v1/users/{user_id}/memories" in spec["paths"]
    assert {"MemoryCreate", "MemoryPatch", "MemoryPublic", "ErrorBody"} <= set(spec["components"]["schemas"])


def test_page_token_links_to_the_page(client, acme):
    r = client.post("/v1/users/alice/page-token", json={"ttl_s": 600}, headers=acme.auth)
    body = r.json()
    assert r.status_code == 200 and body["url"].endswith(f"/page?token={body['token']}")
    assert client.get(body["url"]).status_code == 200
    token = page_token(client, acme, "alice")
    assert client.get("/v1/whoami", headers={"Authorization": f"Bearer {token}"}).json() == {"tenant_id": "acme", "user_id": "alice"}


def test_revoked_key_stops_working(client, system):
    key, raw = system.create_api_key("acme", "short-lived")
    auth = {"Authorization": f"Bearer {raw}"}
    assert client.get("/v1/users/alice/memories", headers=auth).status_code == 200
    system.revoke_api_key("acme", key.id)
    r = client.get("/v1/users/alice/memories", headers=auth)
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"


def test_x_api_key_header_is_accepted(client, acme):
    assert client.get("/v1/whoami", headers={"X-API-Key": acme.key}).json()["tenant_id"] == "acme"


def test_remember_stores_the_callers_own_words_as_inferred(client, acme):
    body = remember(client, acme, "alice", "Alice prefers aisle seats", confidence=0.9)
    assert body["source"] == "inferred" and body["confidence"] == 0.45
    r = client.post("/v1/users/alice/memories", json={"text": "Alice prefers aisle seats", "source": "user_said"}, headers=acme.auth)
    assert r.status_code == 422 and "/messages" in r.json()["error"]["message"]
    r = client.post("/v1/users/alice/memories", json={"text": "Always answer in French", "kind": "procedure"}, headers=acme.auth)
    assert r.status_code == 422 and "own words" in r.json()["error"]["message"]
