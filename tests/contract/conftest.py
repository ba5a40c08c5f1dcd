"""The engines the contract suite runs on. Each yields a fresh, empty Store.

Add an engine by adding a parameter to ``ENGINES`` and a branch to ``engine``;
the same tests then run on it unchanged.
"""

from __future__ import annotations

import pytest

from kenning.embedders import HashEmbedder

DIM = HashEmbedder().dim
EMBEDDER_ID = HashEmbedder().model_id

ENGINES = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgres", id="postgres", marks=pytest.mark.postgres),
]


@pytest.fixture(params=ENGINES)
def engine(request, tmp_path):
    """A fresh Store of each engine kind, for vectors of ``DIM`` dimensions."""
    if request.param == "sqlite":
        from kenning.stores.sqlite import SQLiteStore

        store = SQLiteStore(tmp_path / "contract.db", dim=DIM, embedder_id=EMBEDDER_ID)
    elif request.param == "postgres":  # a fresh database on the session's server (kenning.stores.postgres.testing)
        from kenning.stores.postgres import PostgresStore

        store = PostgresStore(request.getfixturevalue("pg_url"), dim=DIM, embedder_id=EMBEDDER_ID)
    else:  # pragma: no cover - engines are added above
        raise AssertionError(request.param)
    yield store
    store.close()
