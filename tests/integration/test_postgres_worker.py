"""Background workers in several processes on one PostgreSQL database end where one worker alone would."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from datetime import datetime, timedelta, timezone

import psycopg
import pytest

import kenning
from kenning.embedders import HashEmbedder
from kenning.types import Status

pytestmark = pytest.mark.postgres

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)
NOW = T0 + timedelta(hours=1)
USERS = [f"u{i}" for i in range(8)]
WORKERS = 4

WORKER = textwrap.dedent(
    """
    import sys, time
    from datetime import datetime
    import kenning
    from kenning.embedders import HashEmbedder
    url, holder, start, now = sys.argv[1], sys.argv[2], float(sys.argv[3]), datetime.fromisoformat(sys.argv[4])
    with kenning.open(url, embedder=HashEmbedder()) as k:
        while time.time() < start:
            time.sleep(0.001)
        k.maintenance_pass(holder=holder, lease_ttl_s=60.0, now=now)
    """
)


def seed(url: str) -> None:
    with kenning.open(url, embedder=HashEmbedder()) as k:
        for user in USERS:
            mem = k.scope("acme", user)
            mem.add("I live in Leeds. I love green tea. My dog is called Rex.", session_id="s1", now=T0, wait=False)
            mem.add(
                "I moved from Leeds to York. I don't drink tea anymore. My dog is called Max.",
                session_id="s2",
                now=T0 + timedelta(minutes=5),
                wait=False,
            )


def state(url: str) -> dict[str, list[tuple[str, str]]]:
    """Per user, the (status, text) of every record: what maintenance decided, without ids."""
    with kenning.open(url, embedder=HashEmbedder()) as k:
        return {
            user: sorted((m.status.value, m.text) for m in k.scope("acme", user).list(statuses=list(Status)))
            for user in USERS
        }


def test_racing_worker_processes_reach_the_state_one_worker_reaches(pg_server, pg_url):
    reference = f"kenning_ref_{int(time.time() * 1e6)}"
    with psycopg.connect(pg_server.url(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{reference}"')
    try:
        ref_url = pg_server.url(reference)
        for url in (pg_url, ref_url):
            seed(url)
        assert all(s == "provisional" for rows in state(pg_url).values() for s, _ in rows)
        with kenning.open(ref_url, embedder=HashEmbedder()) as k:
            k.maintain(now=NOW)

        start = time.time() + 3.0  # every interpreter imported and connected before the race
        procs = [
            subprocess.Popen([sys.executable, "-c", WORKER, pg_url, f"w{n}", str(start), NOW.isoformat()])
            for n in range(WORKERS)
        ]
        assert [p.wait(timeout=180) for p in procs] == [0] * WORKERS

        raced, alone = state(pg_url), state(ref_url)
        assert {s for rows in alone.values() for s, _ in rows} == {"active", "retired", "deleted"}  # real decisions
        assert raced == alone
    finally:
        with psycopg.connect(pg_server.url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{reference}" WITH (FORCE)')
