"""The real app in-process (FastAPI TestClient over the ASGI app) on a real SQLite file.

Two tenants, each with its own API key: ``acme`` and ``globex``. Both have a
user called ``alice``, so a scope bug that ignores the tenant shows up.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from fastapi.testclient import TestClient

import kenning
from kenning.server import create_app


@dataclass
class Tenant:
    id: str
    key: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}


@pytest.fixture(params=[pytest.param("sqlite", id="sqlite"), pytest.param("postgres", id="postgres", marks=pytest.mark.postgres)])
def system_on_each_engine(request, tmp_path, hash_embedder):
    """The facade on each store engine; modules that must hold on every engine use it as their ``system``."""
    url = f"sqlite:///{tmp_path / 'k.db'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")
    k = kenning.open(url, embedder=hash_embedder)
    yield k
    k.close()


@pytest.fixture
def app(system):
    return create_app(system=system)


@pytest.fixture
def client(app):
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


@pytest.fixture
def acme(system) -> Tenant:
    return Tenant("acme", system.create_api_key("acme", "tests")[1])


@pytest.fixture
def globex(system) -> Tenant:
    return Tenant("globex", system.create_api_key("globex", "tests")[1])


def remember(client: TestClient, tenant: Tenant, user: str, text: str, **kw) -> dict:
    r = client.post(f"/v1/users/{user}/memories", json={"text": text, **kw}, headers=tenant.auth)
    assert r.status_code == 201, r.text
    return r.json()


def page_token(client: TestClient, tenant: Tenant, user: str) -> str:
    r = client.post(f"/v1/users/{user}/page-token", headers=tenant.auth)
    assert r.status_code == 200, r.text
    return r.json()["token"]
