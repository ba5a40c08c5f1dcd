"""Cross-tenant and cross-user isolation for EVERY route.

Setup: tenant acme's user alice holds a canary memory. Tenant globex holds a
key and has its own user called alice too. For each route, globex's key (and
acme's page token for another user) tries to read, change or delete acme's
data; afterwards acme's data must be exactly as it was, and nothing of it may
appear in any response. A final test fails if a route is added to the app
without an entry here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import pytest

from kenning.types import Status

from .conftest import page_token, remember

CANARY = "Alice's canary phrase is zebra-quartz-41"



@pytest.fixture
def system(system_on_each_engine):
    """These guarantees must hold on every store engine."""
    return system_on_each_engine


@dataclass
class World:
    canary: dict
    acme_state: list
    snapshot: Callable[[], list]


@pytest.fixture
def world(client, acme, globex, system) -> World:
    canary = remember(client, acme, "alice", CANARY, kind="fact")
    remember(client, acme, "alice", "Alice prefers aisle seats", kind="preference")
    remember(client, globex, "alice", "Globex Alice plays the cello")

    def snapshot() -> list:
        mem = system.scope("acme", "alice")
        return sorted((m.id, m.text, m.status.value) for m in mem.list(statuses=list(Status)))

    return World(canary, snapshot(), snapshot)


# (method, path template, json body). {mid} is acme alice's canary id.
ATTEMPTS = [
    ("GET", "/v1/users/alice/memories", None),
    ("GET", "/v1/users/alice/memories/{mid}", None),
    ("PATCH", "/v1/users/alice/memories/{mid}", {"text": "overwritten by another tenant"}),
    ("DELETE", "/v1/users/alice/memories/{mid}", None),
    ("GET", "/v1/users/alice/memories/{mid}/history", None),
    ("POST", "/v1/users/alice/search", {"query": "canary zebra quartz", "k": 10}),
    ("GET", "/v1/users/alice/export", None),
    ("POST", "/v1/users/alice/forget", {"text": "canary"}),
    ("DELETE", "/v1/users/alice", None),
    ("POST", "/v1/users/alice/maintain", None),
    ("POST", "/v1/users/alice/memories", {"text": "written by globex"}),
    ("POST", "/v1/users/alice/memories/batch", {"memories": [{"text": "written by globex"}]}),
    ("POST", "/v1/users/alice/messages", {"messages": "My canary phrase is something else now", "wait": True}),
    ("POST", "/v1/users/alice/page-token", None),
    ("GET", "/v1/whoami", None),
]
COVERED = {(m, p.replace("{mid}", "{memory_id}").replace("/alice", "/{user_id}")) for m, p, _ in ATTEMPTS}


def _call(client, method, path, body, headers):
    return client.request(method, path, json=body, headers=headers)


@pytest.mark.parametrize(("method", "path", "body"), ATTEMPTS, ids=[f"{m} {p}" for m, p, _ in ATTEMPTS])
def test_another_tenants_key_never_reaches_acme_data(client, world, globex, method, path, body):
    r = _call(client, method, path.format(mid=world.canary["id"]), body, globex.auth)
    assert r.status_code != 500, r.text
    assert "zebra-quartz" not in r.text
    if r.status_code < 400:  # error messages may echo the id the caller sent; data never
        assert world.canary["id"] not in r.text
    if "{mid}" in path:
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert world.snapshot() == world.acme_state
    if method == "POST" and path.endswith("page-token"):  # the link globex gets opens globex's alice, not acme's
        page = client.get(r.json()["url"])
        assert page.status_code == 200 and "zebra-quartz" not in page.text and "Globex Alice" in page.text


@pytest.mark.parametrize(("method", "path", "body"), ATTEMPTS, ids=[f"{m} {p}" for m, p, _ in ATTEMPTS])
def test_a_page_token_never_reaches_another_user_of_its_tenant(client, world, acme, method, path, body):
    bob = {"Authorization": f"Bearer {page_token(client, acme, 'bob')}"}
    r = _call(client, method, path.format(mid=world.canary["id"]), body, bob)
    assert "zebra-quartz" not in r.text
    if path != "/v1/whoami":
        assert r.status_code in (403, 404), r.text
    assert world.snapshot() == world.acme_state


@pytest.mark.parametrize(("method", "path", "body"), ATTEMPTS, ids=[f"{m} {p}" for m, p, _ in ATTEMPTS])
def test_no_credential_or_a_forged_one_is_401(client, world, acme, method, path, body):
    forged = page_token(client, acme, "alice")[:-3] + "AAA"
    for headers in ({}, {"Authorization": "Bearer kn_not-a-key"}, {"Authorization": f"Bearer {forged}"}, {"X-API-Key": "nope"}):
        r = _call(client, method, path.format(mid=world.canary["id"]), body, headers)
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    assert world.snapshot() == world.acme_state


def test_the_page_and_its_export_show_only_the_token_scope(client, world, globex, acme):
    token = page_token(client, globex, "alice")
    for url in (f"/page?token={token}", f"/page?token={token}&q=canary+zebra", f"/page/export?token={token}"):
        r = client.get(url)
        assert r.status_code == 200 and "zebra-quartz" not in r.text and world.canary["id"] not in r.text
    own = client.get(f"/page/export?token={page_token(client, acme, 'alice')}")
    assert world.canary["id"] in own.text


def test_mcp_over_http_acts_only_within_the_key_tenant(client, world, globex):
    headers = {**globex.auth, "X-Kenning-User": "alice", "Accept": "application/json, text/event-stream"}
    calls = [
        ("search_memory", {"query": "canary zebra quartz"}),
        ("list_memories", {}),
        ("update_memory", {"memory_id": world.canary["id"], "text": "changed"}),
        ("delete_memories", {"memory_ids": [world.canary["id"]]}),
    ]
    for i, (tool, args) in enumerate(calls):
        r = client.post("/mcp/", headers=headers, json={"jsonrpc": "2.0", "id": i, "method": "tools/call",
                                                         "params": {"name": tool, "arguments": args}})
        assert r.status_code == 200 and "zebra-quartz" not in r.text
    assert world.snapshot() == world.acme_state


def test_every_route_of_the_app_is_in_the_isolation_table(client):
    spec = client.get("/openapi.json").json()
    routes = {(method.upper(), path) for path, ops in spec["paths"].items() if path.startswith("/v1/") for method in ops}
    assert routes == COVERED, f"add isolation attempts for: {routes - COVERED}"
