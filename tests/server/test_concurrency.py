"""Isolation under concurrency: many tenants writing and reading at once through a live server."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from kenning.server import create_app

from .live import serve

TENANTS = ["acme", "globex", "initech", "umbrella"]
WRITES = 15


@pytest.fixture
def live(system):
    with serve(create_app(system=system, mcp=False)) as url:
        yield url


def test_concurrent_tenants_only_ever_see_their_own_memories(live, system):
    keys = {t: system.create_api_key(t, "load")[1] for t in TENANTS}

    def work(tenant: str) -> list[str]:
        seen: list[str] = []
        with httpx.Client(base_url=live, headers={"Authorization": f"Bearer {keys[tenant]}"}, timeout=30) as c:
            for i in range(WRITES):
                r = c.post("/v1/users/alice/memories", json={"text": f"{tenant} secret number {i}"})
                assert r.status_code == 201, r.text
                hits = c.post("/v1/users/alice/search", json={"query": "secret number", "k": 50}).json()
                seen.extend(h["memory"]["text"] for h in hits)
                seen.extend(m["text"] for m in c.get("/v1/users/alice/memories", params={"limit": 100}).json())
        return seen

    with ThreadPoolExecutor(len(TENANTS)) as pool:
        results = dict(zip(TENANTS, pool.map(work, TENANTS)))

    for tenant, seen in results.items():
        assert seen and all(text.startswith(f"{tenant} ") for text in seen), f"{tenant} saw another tenant's memory"
        assert system.scope(tenant, "alice").count() == WRITES
