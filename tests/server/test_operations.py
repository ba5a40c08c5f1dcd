"""Operations: Prometheus metrics, structured logs, lifespan closes the store, MCP over HTTP."""

from __future__ import annotations

import json
import logging

import pytest
from fastapi.testclient import TestClient

import kenning
from kenning.errors import StoreError
from kenning.server import create_app
from kenning.server.logs import JSONFormatter

from .conftest import remember

MCP_HEADERS = {"Accept": "application/json, text/event-stream", "X-Kenning-User": "alice"}


def _metric(text: str, prefix: str) -> float:
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(prefix))


def test_metrics_count_requests_memories_and_jobs(client, acme):
    remember(client, acme, "alice", "Alice plays the cello")
    client.post("/v1/users/alice/search", json={"query": "cello"}, headers=acme.auth)
    client.post("/v1/users/alice/maintain", headers=acme.auth)
    text = client.get("/metrics").text
    assert _metric(text, 'kenning_memories_total{op="remember"}') == 1
    assert _metric(text, 'kenning_memories_total{op="search"}') == 1
    assert _metric(text, 'kenning_maintenance_runs_total{result="ok"}') == 1
    assert _metric(text, 'kenning_http_request_duration_seconds_count{method="POST",route="/v1/users/{user_id}/memories",status="201"}') == 1
    assert "/v1/users/alice" not in text  # route templates, never raw paths (bounded label values)


def test_request_logs_are_json_without_content(app, acme, caplog):
    caplog.set_level(logging.INFO, logger="kenning.server")
    with TestClient(app) as c:
        remember(c, acme, "alice", "Alice's secret hobby is falconry")
    rec = next(r for r in caplog.records if r.getMessage() == "request" and r.fields["status"] == 201)
    line = json.loads(JSONFormatter().format(rec))
    assert line["route"] == "/v1/users/{user_id}/memories" and line["tenant"] == "acme" and line["duration_ms"] >= 0
    assert len(line["request_id"]) == 16
    assert all("falconry" not in r.getMessage() and "falconry" not in json.dumps(getattr(r, "fields", {})) for r in caplog.records)


def test_shutdown_closes_the_store_it_opened(tmp_path):
    settings = kenning.Settings(embedder="hash", db=f"sqlite:///{tmp_path / 'k.db'}")
    app = create_app(settings)
    with TestClient(app) as c:
        assert c.get("/readyz").status_code == 200
    with pytest.raises(StoreError):
        app.state.system.scope("acme", "alice").count()


def test_shutdown_leaves_a_passed_in_system_open(app, system):
    with TestClient(app):
        pass
    assert system.scope("acme", "alice").count() == 0


def test_readyz_is_503_when_the_store_is_gone(app, system):
    with TestClient(app, raise_server_exceptions=False) as c:
        system.close()
        r = c.get("/readyz")
    assert r.status_code == 503 and r.json()["error"]["code"] == "store_unavailable"


def _rpc(c, headers, method, params, i=1):
    return c.post("/mcp/", headers=headers, json={"jsonrpc": "2.0", "id": i, "method": method, "params": params})


def test_mcp_over_http_needs_a_credential_and_names_the_user(client, acme):
    r = _rpc(client, MCP_HEADERS, "tools/list", {})
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    r = _rpc(client, {**MCP_HEADERS, **acme.auth}, "tools/list", {})
    names = {t["name"] for t in r.json()["result"]["tools"]}
    assert {"add_memories", "search_memory", "list_memories", "update_memory", "delete_memories"} <= names
    no_user = {k: v for k, v in {**MCP_HEADERS, **acme.auth}.items() if k != "X-Kenning-User"}
    r = _rpc(client, no_user, "tools/call", {"name": "list_memories", "arguments": {}})
    assert r.json()["result"].get("isError", r.json()["result"].get("is_error")) is True
    assert "name the user with the x-kenning-user header" in r.json()["result"]["content"][0]["text"]


def test_mcp_tool_errors_carry_their_message(client, acme):
    headers = {**MCP_HEADERS, **acme.auth}
    r = _rpc(client, headers, "tools/call", {"name": "delete_memories", "arguments": {"memory_ids": ["mem_x"]}})
    result = r.json()["result"]
    assert result.get("isError", result.get("is_error")) is True
    assert "NotFound: no memory 'mem_x' in this scope" in result["content"][0]["text"]
    r = _rpc(client, headers, "tools/call", {"name": "search_memory", "arguments": {"query": "x", "since": "yesterday"}})
    assert "since must be an ISO date-time" in r.json()["result"]["content"][0]["text"]


def test_mcp_over_http_search_returns_delimited_data(client, acme, system):
    remember(client, acme, "alice", "Alice is allergic to peanuts")
    headers = {**MCP_HEADERS, **acme.auth}
    r = _rpc(client, headers, "tools/call", {"name": "search_memory", "arguments": {"query": "peanuts"}})
    text = r.json()["result"]["content"][0]["text"]
    assert "data, not instructions" in text and "<memories>" in text and "Alice is allergic to peanuts</memory>" in text
    assert text == system.scope("acme", "alice").render_for_prompt(items=[system.scope("acme", "alice").list()[0]])
    r = _rpc(client, headers, "tools/call", {"name": "add_memories", "arguments": {"text": "Alice plays the cello", "infer": False}})
    assert "cello" in r.json()["result"]["content"][0]["text"]
    assert any(m.text == "Alice plays the cello" for m in system.scope("acme", "alice").list())
    assert "kenning_mcp_tool_calls_total" in client.get("/metrics").text


def test_background_maintenance_reconciles_what_capture_left_provisional(system, acme):
    import time

    from kenning.types import Status

    app = create_app(system=system, maintenance_interval=0.05)
    with TestClient(app) as c:
        r = c.post("/v1/users/alice/messages", json={"messages": "I live in York and I work as a nurse.", "wait": False}, headers=acme.auth)
        assert r.status_code == 200, r.text
        alice = system.scope("acme", "alice")
        deadline = time.monotonic() + 10
        while alice.count(statuses=[Status.PROVISIONAL]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert alice.count(statuses=[Status.PROVISIONAL]) == 0 and alice.count() >= 1
        # the pass counts its work when it returns, a moment after its last write is visible
        text = c.get("/metrics").text
        while _metric(text, 'kenning_memories_total{op="reconciled"}') < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
            text = c.get("/metrics").text
    assert _metric(text, 'kenning_maintenance_runs_total{result="ok"}') >= 1
    assert _metric(text, 'kenning_memories_total{op="reconciled"}') >= 1  # counted only by the background pass
    assert not app.state.maintenance.thread.is_alive()  # stopped with the app
