"""Errors: one table, one body; oversized or malformed input is a 4xx and changes nothing."""

from __future__ import annotations

import pytest

from kenning import errors as E
from kenning.server.errors import STATUS, status_of

from .conftest import remember


@pytest.fixture
def system(system_on_each_engine):
    """These guarantees must hold on every store engine."""
    return system_on_each_engine


@pytest.mark.parametrize(
    ("exc", "status", "code"),
    [
        (E.NotFound("x"), 404, "not_found"),
        (E.Forbidden("x"), 403, "forbidden"),
        (E.Conflict("x"), 409, "conflict"),
        (E.ValidationError("x"), 422, "invalid"),
        (E.UsageError("x"), 400, "bad_request"),
        (E.ConfigError("x"), 500, "misconfigured"),
        (E.StoreError("x"), 503, "store_unavailable"),
        (E.EmbedderError("x"), 503, "embedder_unavailable"),
        (E.LLMError("x"), 502, "llm_failed"),
    ],
)
def test_each_kenning_error_has_one_row(exc, status, code):
    assert status_of(exc) == (status, code)


def test_subclasses_come_before_their_parents_in_the_table():
    for i, (cls, _, _) in enumerate(STATUS):
        for parent, _, _ in STATUS[:i]:
            assert not issubclass(cls, parent), f"{cls.__name__} is shadowed by {parent.__name__}"


def _assert_error(r, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"type", "code", "message"}
    assert body["error"]["code"] == code and body["error"]["message"]


def test_unknown_memory_is_404_with_the_error_body(client, acme):
    _assert_error(client.get("/v1/users/alice/memories/mem_nope", headers=acme.auth), 404, "not_found")


def test_missing_credential_is_401_with_the_error_body(client):
    r = client.get("/v1/users/alice/memories")
    _assert_error(r, 401, "unauthorized")
    assert r.headers["www-authenticate"] == "Bearer"


@pytest.mark.parametrize(
    ("method", "path", "kwargs"),
    [
        ("POST", "/v1/users/alice/memories", {"content": b"{not json", "headers": {"Content-Type": "application/json"}}),
        ("POST", "/v1/users/alice/memories", {"json": {"text": ""}}),
        ("POST", "/v1/users/alice/memories", {"json": {"text": "x", "kind": "rumour"}}),
        ("POST", "/v1/users/alice/memories", {"json": {"text": "x", "importance": 7}}),
        ("POST", "/v1/users/alice/memories", {"json": {"text": "x", "unexpected": 1}}),
        ("POST", "/v1/users/alice/memories", {"json": {"text": "x", "expires_at": "2030-01-01T00:00:00"}}),
        ("POST", "/v1/users/alice/memories", {"json": {"text": "x" * 5000}}),  # over max_text_chars (4000)
        ("POST", "/v1/users/alice/memories", {"json": {"text": "x" * 30000}}),  # over the schema bound
        ("POST", "/v1/users/alice/memories", {"json": ["a", "list"]}),
        ("POST", "/v1/users/alice/memories", {"json": {"text": "   "}}),
        ("POST", "/v1/users/alice/search", {"json": {"query": "x", "k": 0}}),
        ("POST", "/v1/users/alice/search", {"json": {"query": "x", "k": 10_000}}),
        ("POST", "/v1/users/alice/messages", {"json": {"messages": [{"role": "robot", "content": "hi"}]}}),
        ("GET", "/v1/users/alice/memories?limit=0", {}),
        ("GET", "/v1/users/alice/memories?status=weird", {}),
        ("GET", "/v1/users/" + "u" * 300 + "/memories", {}),
        ("PATCH", "/v1/users/alice/memories/mem_x", {"json": {"text": None, "importance": "high"}}),
        ("POST", "/v1/users/alice/memories", {"json": {"text": "a\u0000b"}}),  # NUL: PostgreSQL cannot store it
        ("POST", "/v1/users/alice/search", {"json": {"query": "\u0000"}}),
        ("GET", "/v1/users/al%00ice/memories", {}),
        ("GET", "/v1/users/alice/memories?kind=%00", {}),
        ("POST", "/v1/users/alice/messages", {"json": {"messages": [{"role": "user", "content": "hi"}] * 201}}),
    ],
)
def test_malformed_input_is_422_and_writes_nothing(client, acme, system, method, path, kwargs):
    kwargs.setdefault("headers", {}).update(acme.auth)
    r = client.request(method, path, **kwargs)
    _assert_error(r, 422, "invalid")
    assert system.scope("acme", "alice").count() == 0


def test_oversized_body_is_413_before_parsing(client, acme, system):
    r = client.post("/v1/users/alice/memories", content=b'{"text": "' + b"a" * (2 << 20) + b'"}',
                    headers={**acme.auth, "Content-Type": "application/json"})
    _assert_error(r, 413, "too_large")
    assert system.scope("acme", "alice").count() == 0


def test_updating_a_retired_version_is_422(client, acme):
    old = remember(client, acme, "alice", "Alice lives in Leeds")
    client.patch(f"/v1/users/alice/memories/{old['id']}", json={"text": "Alice lives in York"}, headers=acme.auth)
    _assert_error(client.patch(f"/v1/users/alice/memories/{old['id']}", json={"text": "again"}, headers=acme.auth), 422, "invalid")


def test_page_token_cannot_use_application_routes(client, acme):
    token = client.post("/v1/users/alice/page-token", headers=acme.auth).json()["token"]
    r = client.post("/v1/users/alice/memories", json={"text": "x"}, headers={"Authorization": f"Bearer {token}"})
    _assert_error(r, 403, "forbidden")


def test_unknown_route_and_wrong_method_use_the_error_body(client, acme):
    _assert_error(client.get("/v1/nothing-here", headers=acme.auth), 404, "not_found")
    _assert_error(client.put("/v1/users/alice/memories", headers=acme.auth), 405, "method_not_allowed")


def test_oversized_chunked_body_is_413(client, acme, system):
    def chunks():
        yield b'{"text": "'
        for _ in range(40):
            yield b"a" * 65536
        yield b'"}'

    r = client.post("/v1/users/alice/memories", content=chunks(), headers={**acme.auth, "Content-Type": "application/json"})
    _assert_error(r, 413, "too_large")
    assert system.scope("acme", "alice").count() == 0
