"""A worker pass touches only scopes that were written to or have come due, on both engines.

- a scope written is processed on the next pass, and not again until written or due;
- an idle scope that is not due is not visited at all;
- a scope whose expiry or decay comes due is processed when it does, not before;
- a pass killed half-way (a real process exit, no clean-up) loses nothing: the scope stays marked
  until its work has committed, and the next pass finishes it;
- marks are per scope: work on one tenant's user never clears or triggers another's.
"""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta

import pytest

import kenning
from kenning.embedders import HashEmbedder
from kenning.lifecycle import forget
from kenning.types import Status

from tests.conftest import T0

TOPIC = [
    "Please book me an aisle seat on the train to Leeds",
    "Can I get an aisle seat again for the flight to Rome",
    "I want an aisle seat next time please",
    "Book the aisle seat for the flight to Berlin",
]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'k.db'}"
    return request.getfixturevalue("pg_url")


def scopes_of(reports) -> list[str]:
    return [r["scope"] for r in reports]


def test_a_written_scope_is_processed_once_and_an_idle_one_never(url):
    with kenning.open(url, embedder=HashEmbedder()) as k:
        alice, bob = k.scope("acme", "alice"), k.scope("acme", "bob")
        alice.remember("Alice keeps bees", now=T0)
        bob.remember("Bob keeps goats", now=T0)
        assert scopes_of(k.maintain(now=T0)) == ["acme/alice", "acme/bob"]  # both written
        assert k.maintain(now=T0 + timedelta(minutes=1)) == []  # nothing written, nothing due
        alice.add("I live in Leeds.", wait=False, now=T0 + timedelta(minutes=2))
        [report] = k.maintain(now=T0 + timedelta(minutes=3))
        assert report["scope"] == "acme/alice" and report["reconciled"] == 1
        assert k.maintain(now=T0 + timedelta(minutes=4)) == []  # the pass's own writes do not mark it again
        assert k.maintenance_pass(holder="w1", now=T0 + timedelta(minutes=5)) == []


def test_a_scope_whose_expiry_comes_due_is_processed_then(url):
    with kenning.open(url, embedder=HashEmbedder()) as k:
        s = k.scope("acme", "alice")
        code = s.remember("Parked in bay 4417", kind="episode", expires_at=T0 + timedelta(days=5), now=T0)
        s.remember("Alice is allergic to penicillin", importance=0.9, now=T0)
        assert scopes_of(k.maintain(now=T0)) == ["acme/alice"]
        assert k.maintain(now=T0 + timedelta(days=4, hours=23)) == []
        [report] = k.maintain(now=T0 + timedelta(days=5))
        assert report["expired"] == 1 and s.get(code.id).status is Status.DELETED
        assert k.maintain(now=T0 + timedelta(days=3650)) == []  # a fact never decays: nothing is due any more


def test_a_scope_whose_decay_comes_due_is_processed_then(url):
    with kenning.open(url, embedder=HashEmbedder()) as k:
        s = k.scope("acme", "alice")
        ep = s.remember("Asked about the weather once", kind="episode", importance=0.1, now=T0)
        k.maintain(now=T0)
        due = forget.evictable_at(s.get(ep.id), k.ctx.policy)
        assert due is not None and due > T0
        assert k.maintain(now=due - timedelta(hours=1)) == []
        [report] = k.maintain(now=due)
        assert report["decayed"] == 1


CRASH = """
import os, sys, kenning
from kenning.embedders import HashEmbedder
from kenning.lifecycle import consolidate
from kenning.types import now_utc

def crash(*args, **kw):
    os._exit(3)  # the process dies mid-pass: after reconciliation committed, before consolidation

consolidate.consolidate_scope = crash
with kenning.open(sys.argv[1], embedder=HashEmbedder()) as k:
    k.maintain(now=now_utc())
"""


def test_a_pass_killed_half_way_loses_nothing(url):
    from kenning.types import now_utc

    now = now_utc()
    with kenning.open(url, embedder=HashEmbedder()) as k:
        s = k.scope("acme", "alice")
        for i, text in enumerate(TOPIC):
            s.add(text, session_id=f"s{i}", wait=False, now=now - timedelta(hours=4 - i))
    done = subprocess.run([sys.executable, "-c", CRASH, url], timeout=120)
    assert done.returncode == 3
    with kenning.open(url, embedder=HashEmbedder()) as k:
        s = k.scope("acme", "alice")
        assert s.count(statuses=["provisional"]) == 0  # reconciliation had committed before the crash
        assert [sc for sc, _ in k.ctx.store.pending_scopes(now)] == [s.scope]  # still marked: its work is not done
        [report] = k.maintain(now=now)
        assert len(report["consolidated"]) == 1  # the next pass finished it
        assert k.maintain(now=now) == []


def test_marks_are_per_scope(url):
    with kenning.open(url, embedder=HashEmbedder()) as k:
        mine, theirs = k.scope("acme", "alice"), k.scope("globex", "alice")
        mine.remember("Alice keeps bees", now=T0)
        theirs.remember("Alice keeps goats", now=T0)
        k.maintain(now=T0)
        theirs.remember("Alice plays chess", now=T0)
        assert scopes_of(k.maintain(now=T0)) == ["globex/alice"]
        mine.search("bees", now=T0)  # reads (and their refreshes) mark nothing
        assert k.maintain(now=T0) == []
        mine.add("I work at Acme.", wait=False, now=T0)
        [report] = k.maintain(now=T0)
        assert report["scope"] == "acme/alice"
        assert [m.text for m in theirs.list()] == ["Alice plays chess", "Alice keeps goats"]
