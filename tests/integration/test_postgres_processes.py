"""Several processes on one PostgreSQL database: leases and job claims have one winner, guarded
transitions apply once, and every concurrent write lands."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from collections import Counter
from datetime import datetime, timezone

import pytest

import kenning
from kenning.embedders import HashEmbedder
from kenning.stores.postgres import PostgresStore
from kenning.types import Changeset, Scope, Status, Transition


pytestmark = pytest.mark.postgres

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)

PROCESSES = 4

# Each child opens its own store, waits for a shared start instant so that all
# of them race, then prints one line per thing it won.
PRELUDE = textwrap.dedent(
    """
    import sys, time
    from datetime import datetime, timezone
    from kenning.stores.postgres import PostgresStore
    url, holder, start = sys.argv[1], sys.argv[2], float(sys.argv[3])
    store = PostgresStore(url, dim=256, embedder_id="hash-256")
    while time.time() < start:
        time.sleep(0.001)
    """
)

CLAIM_JOBS = PRELUDE + textwrap.dedent(
    """
    now = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)
    for scope in store.scopes():  # every worker walks every scope; a lease decides who maintains it
        if store.acquire_lease(f"maintain:{scope}", holder, now, 60.0):
            print(scope, flush=True)
    store.close()
    """
)

ACTIVATE = PRELUDE + textwrap.dedent(
    """
    from kenning.errors import Conflict
    from kenning.stores.base import audit_entry
    from kenning.types import Changeset, Op, Scope, Status, Transition
    scope = Scope("acme", "alice")
    now = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)
    for m in store.list(scope, statuses=(Status.PROVISIONAL,)):
        change = Changeset(
            transitions=(Transition(m.id, (Status.PROVISIONAL,), Status.ACTIVE),),
            audit=(audit_entry(scope, now, Op.ADD, [m.id], "", f"reconciled by {holder}"),),
        )
        try:
            store.apply(scope, change)
            print(m.id, flush=True)
        except Conflict:
            pass
    store.close()
    """
)

WRITE = PRELUDE + textwrap.dedent(
    """
    import kenning
    from kenning.embedders import HashEmbedder
    store.close()
    with kenning.open(url, embedder=HashEmbedder()) as k:
        s = k.scope("acme", "alice")
        for i in range(25):
            s.remember(f"process {holder} wrote item {i}")
            s.search("item", k=3)
    """
)


def race(script: str, url: str) -> list[list[str]]:
    """Run the script in PROCESSES processes at once; each one's stdout lines."""
    start = time.time() + 3.0  # enough for every interpreter to import and connect first
    procs = [
        subprocess.Popen([sys.executable, "-c", script, url, f"w{n}", str(start)], stdout=subprocess.PIPE, text=True)
        for n in range(PROCESSES)
    ]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0] * PROCESSES
    return [o.split("\n")[:-1] for o in outs]


def _seed(url: str, scopes: list[Scope], per_scope: int, status: Status) -> None:
    emb = HashEmbedder()
    store = PostgresStore(url, dim=emb.dim, embedder_id=emb.model_id)
    with kenning.open(url, embedder=emb, store=store) as k:
        for scope in scopes:
            mem = k.scope(scope.tenant_id, scope.user_id)
            for i in range(per_scope):
                m = mem.remember(f"{scope} fact {i}", now=T0)
                if status is not Status.ACTIVE:
                    store.apply(scope, Changeset(transitions=(Transition(m.id, (Status.ACTIVE,), status),)))


def test_each_job_is_claimed_by_exactly_one_process(pg_url):
    scopes = [Scope(f"t{t}", f"u{u}") for t in range(3) for u in range(10)]
    _seed(pg_url, scopes, 1, Status.ACTIVE)
    claims = race(CLAIM_JOBS, pg_url)
    won = Counter(line for lines in claims for line in lines)
    assert set(won) == {str(s) for s in scopes}
    assert set(won.values()) == {1}


def test_a_guarded_transition_is_applied_once_however_many_processes_race(pg_url):
    alice = Scope("acme", "alice")
    _seed(pg_url, [alice], 20, Status.PROVISIONAL)
    wins = race(ACTIVATE, pg_url)
    won = Counter(line for lines in wins for line in lines)
    assert len(won) == 20 and set(won.values()) == {1}
    store = PostgresStore(pg_url, dim=256, embedder_id="hash-256")
    try:
        assert store.count(alice, statuses=(Status.ACTIVE,)) == 20
        reconciled = [a for a in store.audit(alice) if a.reason.startswith("reconciled by")]
        assert sorted(a.memory_ids[0] for a in reconciled) == sorted(won)  # the losers wrote no audit line
    finally:
        store.close()


def test_every_write_from_concurrent_processes_lands(pg_url):
    PostgresStore(pg_url, dim=256, embedder_id="hash-256").close()
    race(WRITE, pg_url)
    with kenning.open(pg_url, embedder=HashEmbedder()) as k:
        assert k.scope("acme", "alice").count() == 25 * PROCESSES
