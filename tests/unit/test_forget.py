"""Forgetting: expiry purge, per-kind decay eviction and the capacity budget."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

import kenning
from kenning.config import Settings
from kenning.lifecycle import forget
from kenning.lifecycle.forget import Retention, decayed, expired, over_capacity, protected, value
from kenning.lifecycle.retrieve import Policy
from kenning.types import Kind, Memory, Op, Scope, Source, Status, new_id

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)
JON = Scope("acme", "jon")
POLICY = Policy()


def mem(text, kind, importance, *, day=0, scope=JON, **kw) -> Memory:
    at = T0 + timedelta(days=day)
    return Memory(
        id=new_id("mem"), tenant_id=scope.tenant_id, user_id=scope.user_id, kind=kind, text=text, embedding=None,
        source=Source.USER_SAID, source_refs=(), created_at=at, last_used_at=at, importance=importance, confidence=0.9, **kw,
    )


def test_value_falls_with_disuse_and_rises_with_importance():
    ep = mem("x", Kind.EPISODE, 0.3)
    assert value(ep, T0, POLICY) > value(ep, T0 + timedelta(days=30), POLICY) > 0
    assert value(mem("x", Kind.EPISODE, 0.8), T0, POLICY) > value(ep, T0, POLICY)
    fact = mem("x", Kind.FACT, 0.3)
    assert value(fact, T0 + timedelta(days=3000), POLICY) == pytest.approx(value(fact, T0, POLICY))


def test_decay_takes_old_trivial_episodes_but_never_facts_or_procedures():
    weather = mem("asked about the weather", Kind.EPISODE, 0.1)
    name = mem("legal name", Kind.FACT, 0.05)
    proc = mem("always add the number", Kind.PROCEDURE, 0.05)
    pref = mem("prefers vegetarian restaurants", Kind.PREFERENCE, 0.6)
    later = T0 + timedelta(days=243)
    assert decayed([weather, name, proc, pref], later, POLICY) == [weather]


def test_decay_needs_the_whole_grace_period_below_the_floor():
    weather = mem("asked about the weather", Kind.EPISODE, 0.1)
    floor = Retention().floor[Kind.EPISODE]
    crossed = next(d for d in range(100) if value(weather, T0 + timedelta(days=d), POLICY) < floor)
    assert 0 < crossed < 30
    assert decayed([weather], T0 + timedelta(days=crossed + 29), POLICY) == []
    assert decayed([weather], T0 + timedelta(days=crossed + 30), POLICY) == [weather]
    used = weather.evolve(last_used_at=T0 + timedelta(days=20))
    assert decayed([used], T0 + timedelta(days=crossed + 30), POLICY) == []


def test_preferences_fade_slowly_and_only_when_unimportant():
    trivial = mem("likes the colour teal", Kind.PREFERENCE, 0.1)
    assert decayed([trivial], T0 + timedelta(days=200), POLICY) == []
    assert decayed([trivial], T0 + timedelta(days=800), POLICY) == [trivial]
    important = mem("prefers aisle seats", Kind.PREFERENCE, 0.6)
    assert decayed([important], T0 + timedelta(days=3000), POLICY) == []


def test_capacity_evicts_lowest_value_first_and_never_high_importance_facts():
    facts = [mem(f"fact {i}", Kind.FACT, 0.9) for i in range(3)]
    eps = [mem(f"episode {i}", Kind.EPISODE, 0.1 + 0.01 * i, day=i) for i in range(5)]
    out = over_capacity(facts + eps, 5, T0 + timedelta(days=6), POLICY)
    assert [m.text for m in out] == ["episode 0", "episode 1", "episode 2"]
    assert over_capacity(facts + eps, 8, T0, POLICY) == []
    assert over_capacity(facts, 1, T0, POLICY) == []  # protected: the budget stays exceeded
    assert protected(facts[0]) and not protected(mem("f", Kind.FACT, 0.5)) and not protected(mem("p", Kind.PREFERENCE, 0.9))


def test_expired_covers_every_status_holding_content():
    gone = mem("ref QX1", Kind.EPISODE, 0.5, expires_at=T0 + timedelta(days=1))
    old = gone.evolve(id=new_id("mem"), status=Status.RETIRED)
    tomb = gone.evolve(id=new_id("mem"), status=Status.DELETED)
    live = mem("ref QX2", Kind.EPISODE, 0.5, expires_at=T0 + timedelta(days=10))
    assert expired([gone, old, tomb, live], T0 + timedelta(days=2)) == [gone, old]


# -- the job ---------------------------------------------------------------------


@pytest.fixture
def small(tmp_path, hash_embedder):
    k = kenning.open(f"sqlite:///{tmp_path / 'k.db'}", embedder=hash_embedder, settings=Settings.model_construct(capacity=4))
    yield k
    k.close()


def test_expiry_purge_leaves_no_text_anywhere(small):
    s = small.scope("travel", "ines")
    m = s.remember("Booking reference QX7731", kind="episode", expires_at=T0 + timedelta(days=9), now=T0)
    v2 = s.update(m.id, text="Booking reference QX7731, room 12", now=T0 + timedelta(days=1))
    keep = s.remember("Ines likes Rome", kind="fact", now=T0)
    report = forget.forget_scope(small.ctx, s.scope, T0 + timedelta(days=10))
    assert report["expired"] == 2
    dump = json.dumps(s.export()).lower()
    assert "qx7731" not in dump
    assert s.get(m.id).status is Status.DELETED and s.get(v2.id).status is Status.DELETED
    assert s.get(keep.id).status is Status.ACTIVE
    assert small.ctx.store.search_keywords(s.scope, "QX7731", k=5, now=T0, statuses=list(Status)) == []


def test_capacity_and_decay_through_the_job_audit_ids_only(small):
    s = small.scope("acme", "kim")
    s.remember("Kim is allergic to penicillin", kind="fact", importance=0.95, now=T0)
    for i in range(6):
        s.remember(f"Kim asked question number {i}", kind="episode", importance=0.1, now=T0 + timedelta(days=i))
    report = forget.forget_scope(small.ctx, s.scope, T0 + timedelta(days=7))
    assert report == {"expired": 0, "decayed": 0, "capacity": 3}
    assert s.count() == 4
    assert any("penicillin" in m.text for m in s.list())
    texts = {m.text for m in s.list()}
    assert {"Kim asked question number 0", "Kim asked question number 1", "Kim asked question number 2"}.isdisjoint(texts)
    evictions = [a for a in small.ctx.store.audit(s.scope) if a.op is Op.EVICT]
    assert len(evictions) == 1 and len(evictions[0].memory_ids) == 3
    assert all("kim" not in (a.reason + a.source).lower() for a in evictions)
    later = forget.forget_scope(small.ctx, s.scope, T0 + timedelta(days=60))
    assert later["decayed"] == 3 and s.count() == 1


def test_evicting_twice_evicts_once(small):
    s = small.scope("acme", "kim")
    ids = [s.remember(f"note {i}", kind="episode", now=T0).id for i in range(3)]
    assert forget.evict(small.ctx, s.scope, ids[:2], T0, "test") == ids[:2]
    assert forget.evict(small.ctx, s.scope, ids, T0, "test") == [ids[2]]
    assert forget.evict(small.ctx, s.scope, ids, T0, "test") == []
    evicted = [i for a in small.ctx.store.audit(s.scope) if a.op is Op.EVICT for i in a.memory_ids]
    assert sorted(evicted) == sorted(ids)


def test_forgetting_one_user_leaves_another_untouched(small):
    a, b = small.scope("acme", "kim"), small.scope("acme", "lee")
    for s in (a, b):
        for i in range(6):
            s.remember(f"asked thing {i}", kind="episode", importance=0.1, expires_at=T0 + timedelta(days=1 + i), now=T0)
    before = b.export()
    forget.forget_scope(small.ctx, a.scope, T0 + timedelta(days=100))
    assert a.count() == 0
    assert b.export() == before
    assert Retention().floor[Kind.FACT] is None


@pytest.mark.parametrize("kind", [Kind.EPISODE, Kind.PREFERENCE, Kind.FACT, Kind.PROCEDURE])
@pytest.mark.parametrize("importance", [0.0, 0.1, 0.3, 0.6, 0.95])
@pytest.mark.parametrize("confidence", [0.2, 0.6, 1.0])
def test_the_due_time_is_the_first_instant_decay_takes_a_memory(kind, importance, confidence):
    m = mem("x", kind, importance).evolve(confidence=confidence)
    due = forget.evictable_at(m, POLICY)
    if due is None:  # never decays: not even in ten years
        assert decayed([m], T0 + timedelta(days=3650), POLICY) == []
        return
    assert decayed([m], due, POLICY) == [m]
    assert decayed([m], due - timedelta(seconds=2), POLICY) == []


def test_next_due_is_the_earliest_expiry_or_decay_of_what_still_holds_content():
    fact = mem("x", Kind.FACT, 0.5, expires_at=T0 + timedelta(days=9))
    episode = mem("y", Kind.EPISODE, 0.1)
    gone = mem("z", Kind.EPISODE, 0.1, expires_at=T0 + timedelta(days=1), status=Status.DELETED)
    assert forget.next_due([fact], POLICY) == T0 + timedelta(days=9)
    assert forget.next_due([fact, episode, gone], POLICY) == min(T0 + timedelta(days=9), forget.evictable_at(episode, POLICY))
    assert forget.next_due([mem("w", Kind.FACT, 0.1)], POLICY) is None
