"""Shared fixtures: real SQLite files in tmp dirs, the deterministic embedder for logic
tests and the real bundled embedder (loaded once per session) for integration tests."""

from __future__ import annotations

import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

import kenning
from kenning.embedders import HashEmbedder, MiniLMEmbedder
from kenning.stores.sqlite import SQLiteStore

# A third-party store package, registered by an entry point (tests/plugin/README.md):
# on sys.path is all that installing its wheel would do.
sys.path.insert(0, str(Path(__file__).parent / "plugin"))

# One local PostgreSQL per session and a fresh database per test (pg_server, pg_url fixtures).
pytest_plugins = ["kenning.stores.postgres.testing"]

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)


def at(text: str) -> datetime:
    """A UTC datetime from an ISO string without offset, for readable tests."""
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


@pytest.fixture
def hash_embedder() -> HashEmbedder:
    return HashEmbedder()


@pytest.fixture(scope="session")
def minilm(tmp_path_factory) -> MiniLMEmbedder:
    # its fused graph is built in a temporary cache, not the user's
    return MiniLMEmbedder(cache_dir=tmp_path_factory.mktemp("models"))


@pytest.fixture
def sqlite_store(tmp_path, hash_embedder) -> SQLiteStore:
    store = SQLiteStore(tmp_path / "k.db", dim=hash_embedder.dim, embedder_id=hash_embedder.model_id)
    yield store
    store.close()


@pytest.fixture
def system(tmp_path, hash_embedder) -> kenning.Kenning:
    """A facade over a real SQLite file with the deterministic embedder."""
    k = kenning.open(f"sqlite:///{tmp_path / 'k.db'}", embedder=hash_embedder)
    yield k
    k.close()


@pytest.fixture
def real_system(tmp_path, minilm) -> kenning.Kenning:
    """A facade over a real SQLite file with the real bundled embedder."""
    k = kenning.open(f"sqlite:///{tmp_path / 'k.db'}", embedder=minilm)
    yield k
    k.close()
