"""The deletion cascade: chains, derived records, consolidated memories, caches, audit, account deletion."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from kenning.lifecycle import cascade, consolidate, summaries
from kenning.types import Kind, Source, Status

T0 = datetime(2026, 1, 10, 8, 0, tzinfo=timezone.utc)
AISLE = [
    "Please book me an aisle seat on the train to Leeds",
    "Can I get an aisle seat again for the flight to Rome",
    "I want an aisle seat next time please",
    "Book the aisle seat for the flight to Berlin",
]


def reachable(s, needle: str) -> list[str]:
    """Every read path of the scope on which ``needle`` shows up."""
    needle = needle.lower()
    where = []
    if any(needle in h.memory.text.lower() for h in s.search(needle, k=50, now=T0 + timedelta(days=400))):
        where.append("search")
    if any(needle in m.text.lower() for m in s.list(statuses=list(Status))):
        where.append("list")
    if needle in json.dumps(s.export()).lower():
        where.append("export")
    return where


def consolidated_scope(system, user="omar", texts=AISLE):
    s = system.scope("travel", user)
    eps = [s.remember(t, kind="episode", session_id=f"s{i}", now=T0 + timedelta(days=10 * i)) for i, t in enumerate(texts)]
    [cid] = consolidate.consolidate_scope(system.ctx, s.scope, T0 + timedelta(days=50))
    return s, eps, cid


def test_delete_removes_text_vector_and_keyword_entry(system):
    s = system.scope("acme", "carla")
    m = s.remember("My tortoise was called Zorblax", now=T0)
    report = s.delete(m.id, now=T0)
    assert report.deleted == [m.id]
    tomb = s.get(m.id)
    assert tomb.status is Status.DELETED and tomb.text == "" and tomb.embedding is None and dict(tomb.metadata) == {}
    assert system.ctx.store.search_keywords(s.scope, "Zorblax", k=5, now=T0, statuses=list(Status)) == []
    assert reachable(s, "zorblax") == []


def test_delete_takes_earlier_versions_but_not_newer_ones(system):
    s = system.scope("acme", "alice")
    v1 = s.remember("Alice lives in Leeds", now=T0)
    v2 = s.update(v1.id, text="Alice lives in Leeds, near the station", now=T0 + timedelta(days=1))
    v3 = s.update(v2.id, text="Alice lives in York", now=T0 + timedelta(days=2))
    report = s.delete(v2.id, now=T0 + timedelta(days=3))
    assert sorted(report.deleted) == sorted([v1.id, v2.id])
    assert s.get(v3.id).status is Status.ACTIVE
    assert reachable(s, "leeds") == []


def test_forget_reaches_retired_and_compacted_records(system):
    s, eps, cid = consolidated_scope(system)
    assert all(s.get(e.id).status is Status.RETIRED for e in eps)
    report = s.forget("aisle", now=T0 + timedelta(days=60))
    assert set(report.deleted) == {e.id for e in eps} | {cid}
    assert report.regenerated == []
    assert reachable(s, "aisle") == []


def test_deleting_one_source_regenerates_the_consolidated_memory_without_it(system):
    s, eps, cid = consolidated_scope(system)
    berlin = eps[3]
    report = s.delete(berlin.id, now=T0 + timedelta(days=60))
    assert set(report.deleted) == {berlin.id, cid}
    [new_id] = report.regenerated
    new = s.get(new_id)
    assert new.status is Status.ACTIVE and new.source is Source.CONSOLIDATED
    assert new.source_refs == tuple(e.id for e in eps[:3])
    assert "aisle" in new.text.lower()
    assert reachable(s, "berlin") == []
    assert s.get(cid).text == ""


def test_consolidated_memory_goes_when_too_few_sources_survive(system):
    s, eps, cid = consolidated_scope(system, texts=AISLE[:3])
    report = s.delete(eps[0].id, now=T0 + timedelta(days=60))
    assert set(report.deleted) == {eps[0].id, cid} and report.regenerated == []
    assert [m for m in s.list() if m.source is Source.CONSOLIDATED] == []
    # what the summary had compacted and nobody asked to forget is retrievable again
    assert {m.id for m in s.list()} == {eps[1].id, eps[2].id}
    assert consolidate.consolidate_scope(system.ctx, s.scope, T0 + timedelta(days=61)) == []


def test_deleting_a_consolidated_memory_itself_keeps_its_sources_compacted(system):
    s, eps, cid = consolidated_scope(system)
    report = s.delete(cid, now=T0 + timedelta(days=60))
    assert report.deleted == [cid]
    assert all(s.get(e.id).status is Status.RETIRED for e in eps)
    assert consolidate.consolidate_scope(system.ctx, s.scope, T0 + timedelta(days=61)) == []


def test_earlier_versions_of_an_affected_consolidated_memory_go_too(system):
    s = system.scope("travel", "omar")
    eps = [s.remember(t, kind="episode", session_id=f"s{i}", now=T0 + timedelta(days=10 * i)) for i, t in enumerate(AISLE[:3])]
    [c1] = consolidate.consolidate_scope(system.ctx, s.scope, T0 + timedelta(days=25))
    late = s.remember(AISLE[3], kind="episode", session_id="s9", now=T0 + timedelta(days=40))
    [c2] = consolidate.consolidate_scope(system.ctx, s.scope, T0 + timedelta(days=45))
    report = s.delete(late.id, now=T0 + timedelta(days=60))
    assert {late.id, c1, c2} <= set(report.deleted)
    [c3] = report.regenerated
    assert s.get(c3).source_refs == tuple(e.id for e in eps)
    assert reachable(s, "berlin") == []


def test_records_derived_from_a_deleted_one_go_with_it(system):
    s = system.scope("acme", "carla")
    turn = s.remember("I had a tortoise called Zorblax", kind="episode", now=T0)
    claim = s.remember("Carla's childhood pet was Zorblax", kind="fact", source="inferred", source_refs=[turn.id], now=T0)
    other = s.remember("Carla walks her dog Biscuit", now=T0)
    report = s.delete(turn.id, now=T0)
    assert set(report.deleted) == {turn.id, claim.id}
    assert s.get(other.id).status is Status.ACTIVE
    assert reachable(s, "zorblax") == []


def test_audit_of_a_deletion_holds_ids_only(system):
    s, eps, cid = consolidated_scope(system)
    s.forget("Berlin", now=T0 + timedelta(days=60))
    audit = json.dumps([[a.op.value, a.source, a.reason] for a in system.ctx.store.audit(s.scope)]).lower()
    assert "berlin" not in audit and "aisle" not in audit
    purge = [a for a in system.ctx.store.audit(s.scope) if a.reason == "forget"]
    assert len(purge) == 1 and eps[3].id in purge[0].memory_ids


def test_deletion_invalidates_cached_embeddings_of_the_deleted_text(system):
    s = system.scope("acme", "carla")
    m = s.remember("My tortoise was called Zorblax", now=T0)
    s.search("Zorblax", now=T0)
    s.search("which office is nearest", now=T0)
    keys = lambda: [k[1] for k in system.ctx.embedder._cache]  # noqa: E731 - the cache's own keys
    assert any("Zorblax" in k for k in keys())
    s.delete(m.id, now=T0)
    assert not any("zorblax" in k.lower() for k in keys())
    assert "which office is nearest" in keys()


def test_deleting_in_one_scope_never_touches_another(system):
    a, b = system.scope("acme", "carla"), system.scope("globex", "carla")
    ma = a.remember("Zorblax the tortoise", now=T0)
    mb = b.remember("Zorblax the tortoise", now=T0)
    before = b.export()
    assert cascade.delete_memories(system.ctx, a.scope, [mb.id], now=T0, reason="test").deleted == []
    a.forget("Zorblax", now=T0)
    assert a.get(ma.id).status is Status.DELETED
    assert b.export() == before


def test_account_deletion_removes_the_scope_and_nothing_else(system):
    rosa, rafa = system.scope("acme", "rosa"), system.scope("acme", "rafa")
    other_tenant = system.scope("globex", "rosa")
    for s in (rosa, rafa, other_tenant):
        s.remember("Training for the Valencia marathon", kind=Kind.EPISODE, now=T0)
    rosa.remember("My sister Lucia lives in Seville", now=T0)
    keep_rafa, keep_other = rafa.export(), other_tenant.export()
    assert rosa.delete_all(now=T0) == 2
    assert not any("seville" in k[1].lower() for k in system.ctx.embedder._cache)
    assert rosa.export()["memories"] == [] and rosa.export()["audit"] == []
    assert reachable(rosa, "seville") == [] and reachable(rosa, "valencia") == []
    assert rafa.export() == keep_rafa and other_tenant.export() == keep_other


def test_a_regenerated_summary_that_still_carries_deleted_words_is_deleted_instead(tmp_path, hash_embedder):
    import kenning
    from kenning.llms.fake import ScriptedLLM

    llm = ScriptedLLM([
        '{"text": "Omar wants an aisle seat, e.g. to Berlin."}',  # consolidation
        '{"text": "Omar wants an aisle seat, even to Berlin."}',  # regeneration after Berlin is deleted: leaks
    ])
    with kenning.open(f"sqlite:///{tmp_path / 'k.db'}", embedder=hash_embedder, llm=llm) as k:
        s, eps, cid = consolidated_scope(k)
        assert "Berlin" in s.get(cid).text
        report = s.delete(eps[3].id, now=T0 + timedelta(days=60))
        assert report.regenerated == [] and cid in report.deleted
        assert reachable(s, "berlin") == []
        assert len(llm.calls) == 2


def test_a_consolidation_landing_between_read_and_write_is_caught(system):
    """The race with a worker: the stale deletion plan conflicts, and the retry reaches the new summary."""
    import pytest

    from kenning.errors import Conflict
    from kenning.types import Op

    s = system.scope("travel", "omar")
    eps = [s.remember(t, kind="episode", session_id=f"s{i}", now=T0 + timedelta(days=10 * i)) for i, t in enumerate(AISLE)]
    now = T0 + timedelta(days=50)
    stale, *_ = cascade.plan_deletion(system.ctx, s.scope, [e.id for e in eps], now, "forget", Op.PURGE, summaries.Rules())
    [cid] = consolidate.consolidate_scope(system.ctx, s.scope, now)  # the worker wins the race
    with pytest.raises(Conflict):
        system.ctx.store.apply(s.scope, stale)
    report = s.forget("aisle", now=now)
    assert cid in report.deleted
    assert reachable(s, "aisle") == []
