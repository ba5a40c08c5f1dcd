"""The background worker across real processes on one SQLite file.

- a worker killed half-way (SIGKILL) leaves every decision fully applied or
  not at all, and the scope is picked up again once its lease expires;
- two workers (with leases), and two ``maintain`` runs (without any), racing
  on the same scopes never apply a decision twice.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from datetime import timedelta

import pytest

import kenning
from kenning.embedders import HashEmbedder
from kenning.types import Op, Source, Status, now_utc

pytestmark = pytest.mark.slow

TOPIC = [
    "Please book me an aisle seat on the train to Leeds",
    "Can I get an aisle seat again for the flight to Rome",
    "I want an aisle seat next time please",
    "Book the aisle seat for the flight to Berlin",
]
WORKER = "import sys; from kenning.cli import worker_cmd; worker_cmd(sys.argv[1:])"
MAINTAIN = (
    "import sys, kenning\nfrom kenning.embedders import HashEmbedder\n"
    "from kenning.types import now_utc\n"
    "with kenning.open(sys.argv[1], embedder=HashEmbedder()) as k:\n    k.maintain(now=now_utc())\n"
)


def populate(url: str, users: int) -> None:
    """Per user: one consolidatable topic (4 conversations) and one expired record."""
    now = now_utc()
    with kenning.open(url, embedder=HashEmbedder()) as k:
        for u in range(users):
            s = k.scope("acme", f"user-{u:03d}")
            for i, text in enumerate(TOPIC):
                s.remember(text, kind="episode", importance=0.6, session_id=f"s{i}", now=now - timedelta(hours=4 - i))
            s.remember("Booking reference QX7731", kind="episode", importance=0.6,
                       expires_at=now - timedelta(minutes=5), now=now - timedelta(hours=2))


def env() -> dict[str, str]:
    e = dict(os.environ)
    e["KENNING_EMBEDDER"] = "hash"
    return e


def consolidated_count(path: str) -> int:
    con = sqlite3.connect(path, timeout=30)
    try:
        return con.execute("SELECT count(*) FROM memories WHERE source = 'consolidated'").fetchone()[0]
    except sqlite3.OperationalError:
        return 0
    finally:
        con.close()


def check_consistent(url: str, users: int) -> tuple[int, int]:
    """No half-applied decision anywhere; returns (users consolidated, users with the expired record purged)."""
    done = purged = 0
    with kenning.open(url, embedder=HashEmbedder()) as k:
        for u in range(users):
            s = k.scope("acme", f"user-{u:03d}")
            every = s.list(statuses=list(Status))
            cons = [m for m in every if m.source is Source.CONSOLIDATED]
            episodes = [m for m in every if m.source is not Source.CONSOLIDATED and "aisle" in m.text.lower()]
            audit = k.ctx.store.audit(s.scope)
            ops = Counter(a.op for a in audit)
            assert len(cons) <= 1 and ops[Op.CONSOLIDATE] == len(cons)
            if cons:
                assert cons[0].status is Status.ACTIVE
                assert {m.status for m in episodes} == {Status.RETIRED}
                assert set(cons[0].source_refs) == {m.id for m in episodes}
                done += 1
            else:
                assert {m.status for m in episodes} == {Status.ACTIVE}
            booking = [m for m in every if m.expires_at is not None]
            assert len(booking) == 1
            if booking[0].status is Status.DELETED:
                assert booking[0].text == "" and ops[Op.EXPIRE] == 1
                purged += 1
            else:
                assert ops[Op.EXPIRE] == 0
    return done, purged


def test_a_killed_worker_leaves_no_half_applied_change_and_its_work_is_picked_up(tmp_path):
    path = str(tmp_path / "k.db")
    url = f"sqlite:///{path}"
    users = 150
    populate(url, users)
    proc = subprocess.Popen(
        [sys.executable, "-c", WORKER, "--db", url, "--once", "--lease-ttl", "1"],
        env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 120
    while consolidated_count(path) < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    done, _ = check_consistent(url, users)
    assert 0 < done < users, "the worker should have been killed half-way"

    time.sleep(1.2)  # the killed worker's lease on the scope it was in runs out
    subprocess.run([sys.executable, "-c", WORKER, "--db", url, "--once", "--lease-ttl", "1"],
                   env=env(), check=True, timeout=300, capture_output=True)
    assert check_consistent(url, users) == (users, users)


@pytest.fixture(params=[pytest.param("sqlite", id="sqlite"), pytest.param("postgres", id="postgres", marks=pytest.mark.postgres)])
def url(request, tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'k.db'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")


@pytest.mark.parametrize("mode", ["workers-with-leases", "maintain-without-leases"])
def test_two_concurrent_workers_never_apply_a_decision_twice(url, mode):
    users = 40
    populate(url, users)
    if mode == "workers-with-leases":
        cmd = [sys.executable, "-c", WORKER, "--db", url, "--once"]
    else:
        cmd = [sys.executable, "-c", MAINTAIN, url]
    procs = [subprocess.Popen(cmd, env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for _ in range(2)]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err.decode()
    assert check_consistent(url, users) == (users, users)
    with kenning.open(url, embedder=HashEmbedder()) as k:
        counts: Counter[str] = Counter()
        for s in k.ctx.store.scopes():
            for a in k.ctx.store.audit(s):
                if a.op in (Op.CONSOLIDATE, Op.EXPIRE, Op.EVICT):
                    counts.update(f"{a.op.value}:{i}" for i in a.memory_ids)
        assert counts and max(counts.values()) == 1


def test_worker_once_runs_every_job_for_every_scope(tmp_path):
    url = f"sqlite:///{tmp_path / 'k.db'}"
    populate(url, 2)
    out = subprocess.run([sys.executable, "-c", WORKER, "--db", url, "--once"], env=env(), check=True,
                         timeout=300, capture_output=True, text=True)
    assert "2 user(s) checked" in out.stderr
    assert check_consistent(url, 2) == (2, 2)
    with kenning.open(url, embedder=HashEmbedder()) as k:
        held = k.ctx.store.acquire_lease("maintain:acme\x1fuser-000", "someone-else", now_utc(), 60)
        assert held, "a finished worker releases its leases"


def test_a_scope_leased_by_another_worker_is_skipped_until_the_lease_runs_out(tmp_path):
    from kenning.worker import run_once

    url = f"sqlite:///{tmp_path / 'k.db'}"
    populate(url, 2)
    with kenning.open(url, embedder=HashEmbedder()) as k:
        now = now_utc()
        assert k.ctx.store.acquire_lease("maintain:acme\x1fuser-001", "other", now, 60)
        done = run_once(k.ctx, holder="me", lease_ttl_s=60, now=now)
        assert [r["scope"] for r in done] == ["acme/user-000"]
        done = run_once(k.ctx, holder="me", lease_ttl_s=60, now=now + timedelta(seconds=61))
        # the skipped scope stayed marked; the one done in the first pass is clean and not visited again
        assert [r["scope"] for r in done] == ["acme/user-001"] and len(done[0]["consolidated"]) == 1
        assert run_once(k.ctx, holder="me", lease_ttl_s=60, now=now + timedelta(seconds=62)) == []  # nothing twice
    assert check_consistent(url, 2) == (2, 2)


def test_maintain_reconciles_then_consolidates_then_forgets(real_system):
    """The runner's ``maintain``: provisional turns are reconciled first, so consolidation sees them."""
    from datetime import datetime, timezone

    t0 = datetime(2026, 1, 10, 8, 0, tzinfo=timezone.utc)
    s = real_system.scope("travel", "omar")
    turns = ["Please book me an aisle seat on the Leeds to London train.",
             "Can I get an aisle seat again for the flight to Rome?",
             "Book the aisle seat for Tuesday's flight to Berlin."]
    for i, text in enumerate(turns):
        s.add([{"role": "user", "content": text}], session_id=f"s{i}", now=t0 + timedelta(days=10 * i), wait=False)
    code = s.remember("Parked in bay 4417 on level 2", kind="episode", expires_at=t0 + timedelta(days=40), now=t0)
    [report] = real_system.maintain(now=t0 + timedelta(days=41))
    assert report["reconciled"] >= 3 and len(report["consolidated"]) == 1 and report["expired"] == 1
    [summary] = [m for m in s.list() if m.source is Source.CONSOLIDATED]
    assert "aisle seat" in summary.text.lower()
    assert s.count(statuses=["provisional"]) == 0
    assert s.get(code.id).status is Status.DELETED
    hits = s.search("Which seat should I book?", k=5, now=t0 + timedelta(days=42))
    assert hits[0].memory.id == summary.id and sum("aisle" in h.memory.text.lower() for h in hits) <= 2
    assert real_system.maintain(now=t0 + timedelta(days=42)) == []  # nothing written since, nothing due: not visited
    again = s.maintain(now=t0 + timedelta(days=42))  # maintained on request all the same: nothing to do twice
    assert again["consolidated"] == [] and again["expired"] == 0
