"""The engines the contract suite runs on. Each yields a fresh, empty store.

Add an engine by adding a parameter to ``ENGINES`` and a branch to ``engine``;
the same tests then run on it unchanged. ``plugin`` is a store written outside
the package (``tests/plugin``) that implements only ``MemoryStore`` and is
found through its ``kenning.stores`` entry point. The tests of the optional
capabilities (keys, leases) run on ``ADMIN_ENGINES``, the engines declaring them;
those of the search partition (``PartitionStore``) on ``PARTITION_ENGINES``.
"""

from __future__ import annotations

import pytest

from kenning import registry
from kenning.embedders import HashEmbedder

DIM = HashEmbedder().dim
EMBEDDER_ID = HashEmbedder().model_id

ENGINES = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
    pytest.param("plugin", id="plugin"),
]
ADMIN_ENGINES = ENGINES[:2]
PARTITION_ENGINES = ENGINES[:2]


def open_engine(kind: str, request, tmp_path):
    if kind == "sqlite":
        return registry.open_store(f"sqlite:///{tmp_path / 'contract.db'}", dim=DIM, embedder_id=EMBEDDER_ID)
    if kind == "postgres":  # a fresh database on the session's server (kenning.stores.postgres.testing)
        return registry.open_store(request.getfixturevalue("pg_url"), dim=DIM, embedder_id=EMBEDDER_ID)
    if kind == "plugin":
        return registry.open_store("dictstore://contract", dim=DIM, embedder_id=EMBEDDER_ID)
    raise AssertionError(kind)  # pragma: no cover - engines are added above


@pytest.fixture(params=ENGINES)
def engine(request, tmp_path):
    """A fresh store of each engine kind, for vectors of ``DIM`` dimensions."""
    store = open_engine(request.param, request, tmp_path)
    yield store
    store.close()


@pytest.fixture(params=ADMIN_ENGINES)
def admin_engine(request, tmp_path):
    """A fresh store of each engine that also holds keys, secrets and leases."""
    store = open_engine(request.param, request, tmp_path)
    yield store
    store.close()


@pytest.fixture(params=PARTITION_ENGINES)
def partition_engine(request, tmp_path):
    """A fresh store of each engine that serves search from a cached per-scope partition."""
    store = open_engine(request.param, request, tmp_path)
    yield store
    store.close()
