"""The server on the real bundled embedder: semantic search through REST, beyond shared keywords."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from kenning.server import create_app


@pytest.fixture
def real_client(real_system):
    _, key = real_system.create_api_key("acme", "minilm")
    with TestClient(create_app(system=real_system)) as c:
        c.headers["Authorization"] = f"Bearer {key}"
        yield c


def test_semantic_search_over_rest(real_client):
    for text in ("Alice is allergic to peanuts", "Alice plays the cello in an orchestra", "Alice lives in York"):
        assert real_client.post("/v1/users/alice/memories", json={"text": text}).status_code == 201
    hits = real_client.post("/v1/users/alice/search", json={"query": "which foods make her ill?", "k": 3}).json()
    assert hits[0]["memory"]["text"] == "Alice is allergic to peanuts"
    hits = real_client.post("/v1/users/alice/search", json={"query": "musical instrument", "k": 1}).json()
    assert hits[0]["memory"]["text"] == "Alice plays the cello in an orchestra"
