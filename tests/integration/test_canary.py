"""The canary deletion test (run in CI on every change): a planted fact must not survive its deletion.

A unique canary is planted in several episodes with the real bundled
embedder, consolidation folds it into a consolidated memory, the source
episodes are deleted, and then every read path of the scope is searched for
it: search (including a search for the canary itself), list (every status),
export, the history of related memories, consolidated memories, the
embedder's cache and the audit log. It runs again after the next background
pass, which must not bring anything back.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timedelta, timezone

import pytest

import kenning
from kenning.types import Source, Status

CANARY = "Zorblax-9931"
T0 = datetime(2026, 1, 3, 18, 0, tzinfo=timezone.utc)
PLANTED = [
    f"When I was little I had a tortoise called {CANARY}.",
    f"I still miss {CANARY}, my old tortoise, he lived for forty years.",
    f"Funny, I saw a tortoise at the zoo today that looked just like {CANARY}.",
    f"My tortoise {CANARY} used to sleep in a box under the stairs.",
]


@pytest.fixture(params=[pytest.param("sqlite", id="sqlite"), pytest.param("postgres", id="postgres", marks=pytest.mark.postgres)])
def url(request, tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'k.db'}" if request.param == "sqlite" else request.getfixturevalue("pg_url")


@pytest.fixture
def real_system(url, minilm):
    """The facade with the real bundled embedder, on each store engine."""
    k = kenning.open(url, embedder=minilm)
    yield k
    k.close()


def cache_keys(system) -> list[str]:
    return [key[1] for key in system.ctx.embedder._cache]


def assert_unreachable(system, s, related_ids, now, needles=(CANARY, "Zorblax"), *, cache=True):
    # the cache first: the searches below put their own query text into it
    for needle in needles if cache else ():
        assert not any(needle.lower() in k.lower() for k in cache_keys(system)), f"{needle} in the embedder cache"
    for needle in needles:
        lowered = needle.lower()
        for query in (needle, "Tell me about Carla's childhood pet tortoise", "What pets has Carla had?"):
            hits = s.search(query, k=50, now=now, refresh=False)
            assert not any(lowered in h.memory.text.lower() for h in hits), f"{needle} found by search {query!r}"
        every = s.list(statuses=list(Status))
        assert not any(lowered in m.text.lower() for m in every), f"{needle} in list"
        assert not any(lowered in json.dumps(dict(m.metadata)).lower() for m in every), f"{needle} in metadata"
        assert lowered not in json.dumps(s.export()).lower(), f"{needle} in export"
        for mid in related_ids:
            h = s.history(mid)
            texts = [v.text for v in h.versions] + [json.dumps([a.op.value, a.source, a.reason]) for a in h.audit]
            assert not any(lowered in t.lower() for t in texts), f"{needle} in history of {mid}"
        consolidated = [m for m in every if m.source is Source.CONSOLIDATED]
        assert not any(lowered in m.text.lower() for m in consolidated), f"{needle} in a consolidated memory"
        audit = json.dumps([[a.op.value, a.source, a.reason] for a in system.ctx.store.audit(s.scope)]).lower()
        assert lowered not in audit, f"{needle} in the audit log"
        assert system.ctx.store.search_keywords(s.scope, needle, k=50, now=now, statuses=list(Status)) == []


@pytest.mark.parametrize("how", ["delete-sources", "forget"])
def test_canary_is_unreachable_after_its_sources_are_deleted(real_system, url, minilm, how):
    s = real_system.scope("acme", "carla")
    planted = [s.remember(t, kind="episode", now=T0 + timedelta(days=7 * i)) for i, t in enumerate(PLANTED)]
    dog = s.remember("I walk my dog Biscuit every morning before work.", kind="episode", now=T0 + timedelta(days=30))
    job = s.remember("Carla works as a nurse in Bristol", kind="fact", importance=0.7, now=T0 + timedelta(days=30))
    s.search(CANARY, now=T0 + timedelta(days=30))  # the canary passes through the query cache as well

    real_system.maintain(now=T0 + timedelta(days=31))
    consolidated = [m for m in s.list() if m.source is Source.CONSOLIDATED]
    assert len(consolidated) == 1, "the planted episodes should consolidate"
    summary = consolidated[0]
    assert CANARY in summary.text
    assert set(summary.source_refs) == {m.id for m in planted}
    assert all(s.get(m.id).status is Status.RETIRED for m in planted)
    assert any(CANARY in h.memory.text for h in s.search("childhood tortoise", now=T0 + timedelta(days=32)))

    # another process's handle, with the scope's vectors already cached
    other = kenning.open(url, embedder=minilm)
    assert any(CANARY in h.memory.text for h in other.scope("acme", "carla").search(CANARY, now=T0 + timedelta(days=32)))

    now = T0 + timedelta(days=32)
    if how == "forget":
        report = s.forget(CANARY, now=now)
    else:
        reports = [s.delete(m.id, now=now) for m in planted]
        report = reports[-1]
    assert s.get(summary.id).status is Status.DELETED
    assert report.regenerated == []

    related = [dog.id, job.id, summary.id, *[m.id for m in planted]]
    assert_unreachable(real_system, s, related, now)  # every read path, before any background pass
    real_system.maintain(now=now)  # the pass that rewrites what lingers outside rows
    if url.startswith("sqlite:///"):  # not even in the file's index segments or write-ahead log
        path = url[len("sqlite:///"):]
        for f in (path, path + "-wal"):
            if os.path.exists(f):
                with open(f, "rb") as fh:
                    assert b"zorblax" not in fh.read().lower(), f"the canary's bytes remain in {os.path.basename(f)}"
    assert_unreachable(real_system, s, related, now, cache=False)  # the first check's searches cached their own queries
    stale = other.scope("acme", "carla").search(CANARY, k=50, now=now)
    other.close()
    gone = {summary.id, *[m.id for m in planted]}
    assert not gone & {h.memory.id for h in stale}, "a cached partition served deleted records"
    real_system.maintain(now=now + timedelta(days=1))
    assert_unreachable(real_system, s, related, now + timedelta(days=1), cache=False)
    assert any("Biscuit" in h.memory.text for h in s.search("What is Carla's dog called?", now=now + timedelta(days=2)))
    assert s.get(job.id).status is Status.ACTIVE


def test_deleting_one_source_keeps_the_rest_of_the_summary_but_not_the_deleted_words(real_system):
    s = real_system.scope("acme", "carla")
    planted = [s.remember(t, kind="episode", now=T0 + timedelta(days=7 * i)) for i, t in enumerate(PLANTED)]
    real_system.maintain(now=T0 + timedelta(days=31))
    stairs = planted[3]
    report = s.delete(stairs.id, now=T0 + timedelta(days=32))
    [regen] = report.regenerated
    assert CANARY in s.get(regen).text
    for word in ("stairs", "box under"):
        assert word not in json.dumps(s.export()).lower()
