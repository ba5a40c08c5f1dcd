"""The Store contract: every engine behaves the same. Runs on each engine in conftest.ENGINES."""

from __future__ import annotations

import threading
from datetime import timedelta

import numpy as np
import pytest

from kenning.errors import Conflict, ValidationError
from kenning.stores.base import audit_entry
from kenning.types import Changeset, Op, Transition

from .factory import A, B, G, T0, Kind, Sensitivity, Source, Status, later, mem, vec


def test_insert_get_round_trips_every_field(engine):
    m = mem(
        A,
        "Alice lives in York",
        kind=Kind.PREFERENCE,
        source=Source.TOOL_RESULT,
        source_refs=("evt_1", "evt_2"),
        importance=0.25,
        confidence=0.125,
        supersedes=("mem_old",),
        expires_at=T0 + timedelta(days=3, microseconds=7),
        sensitivity=Sensitivity.PERSONAL,
        status=Status.PROVISIONAL,
        session_id="s1",
        metadata={"k": [1, "two"]},
        last_used_at=T0 + timedelta(microseconds=1),
    )
    engine.insert(A, [m])
    got = engine.get(A, m.id)
    assert got == m
    assert np.allclose(got.embedding, m.embedding)
    assert got.metadata == {"k": [1, "two"]}
    assert got.created_at.tzinfo is not None


def test_every_read_is_scoped(engine):
    a, b, g = mem(A, "shared words here"), mem(B, "shared words here"), mem(G, "shared words here")
    for s, m in ((A, a), (B, b), (G, g)):
        engine.insert(s, [m])
    assert engine.get(A, b.id) is None and engine.get(A, g.id) is None
    assert [m.id for m in engine.get_many(A, [a.id, b.id, g.id])] == [a.id]
    assert [s.memory.id for s in engine.search_vector(A, vec("shared words"), k=10, now=T0)] == [a.id]
    assert [s.memory.id for s in engine.search_keywords(A, "shared words", k=10, now=T0)] == [a.id]
    assert [m.id for m in engine.list(A)] == [a.id]
    assert engine.count(A) == 1
    assert [m.id for m in engine.export(A)] == [a.id]
    assert all(e.tenant_id == "acme" and e.user_id == "alice" for e in engine.audit(A))
    assert {str(s) for s in engine.scopes()} == {"acme/alice", "acme/bob", "globex/alice"}


def test_writes_to_foreign_ids_are_refused_and_change_nothing(engine):
    a, b = mem(A, "alpha"), mem(B, "beta")
    engine.insert(A, [a])
    engine.insert(B, [b])
    with pytest.raises(Conflict):
        engine.retire(A, [b.id], later(1))
    with pytest.raises(Conflict):
        engine.delete(A, [b.id], later(1))
    with pytest.raises(ValidationError):
        engine.insert(A, [mem(B, "smuggled")])
    engine.touch(A, [b.id], later(5))
    assert engine.get(B, b.id) == b
    assert engine.get(B, b.id).last_used_at == T0


def test_apply_is_atomic_when_a_guard_fails(engine):
    a = mem(A, "alpha")
    engine.insert(A, [a])
    fresh = mem(A, "gamma")
    bad = Changeset(
        inserts=(fresh,),
        transitions=(Transition(a.id, (Status.PROVISIONAL,), Status.ACTIVE),),
        audit=(audit_entry(A, T0, Op.ADD, [fresh.id]),),
    )
    with pytest.raises(Conflict):
        engine.apply(A, bad)
    assert engine.get(A, fresh.id) is None
    assert len(engine.audit(A)) == 1  # only the first insert's entry


def test_duplicate_id_is_a_conflict(engine):
    a = mem(A, "alpha")
    engine.insert(A, [a])
    with pytest.raises(Conflict):
        engine.insert(A, [a])
    assert engine.count(A) == 1


def test_search_vector_is_exact_and_filters_status_and_expiry(engine):
    texts = ["aisle seat on trains", "window seat on flights", "vegetarian food", "peanut allergy"]
    ms = [mem(A, t) for t in texts]
    expired = mem(A, "aisle seat expired", expires_at=later(10))
    provisional = mem(A, "aisle seat provisional", status=Status.PROVISIONAL)
    engine.insert(A, ms + [expired, provisional])
    q = vec("aisle seat")
    got = engine.search_vector(A, q, k=3, now=later(20))
    sims = [float(m.embedding @ q) for m in ms]
    want = [ms[i].id for i in np.argsort(sims)[::-1][:3]]
    assert [s.memory.id for s in got] == want
    assert got[0].similarity == pytest.approx(max(sims), abs=1e-5)
    assert expired.id in [s.memory.id for s in engine.search_vector(A, q, k=10, now=later(5))]
    assert provisional.id in [
        s.memory.id for s in engine.search_vector(A, q, k=10, now=T0, statuses=(Status.PROVISIONAL,))
    ]


def test_search_keywords_scores_positive_and_respects_status(engine):
    a, b = mem(A, "Booking reference QX7731 for Rome"), mem(A, "Dog called Biscuit")
    engine.insert(A, [a, b])
    got = engine.search_keywords(A, "what is the booking reference?", k=5, now=T0)
    assert [s.memory.id for s in got] == [a.id] and got[0].similarity > 0
    engine.retire(A, [a.id], later(1))
    assert engine.search_keywords(A, "booking reference", k=5, now=later(2)) == []
    assert engine.search_keywords(A, "the of and", k=5, now=T0) == []
    assert engine.search_keywords(A, 'quotes " and ( parens * NEAR', k=5, now=T0) == []


def test_retired_records_leave_retrieval_but_stay_for_history(engine):
    a = mem(A, "Alice lives in Leeds")
    engine.insert(A, [a])
    engine.retire(A, [a.id], later(1), reason="moved")
    assert engine.get(A, a.id).status is Status.RETIRED
    assert engine.search_vector(A, vec("Leeds"), k=5, now=later(2)) == []
    assert engine.list(A) == [] and engine.count(A) == 0
    assert engine.count(A, statuses=(Status.RETIRED,)) == 1
    ops = [e.op for e in engine.audit(A, a.id)]
    assert ops == [Op.ADD, Op.DELETE]


def test_delete_leaves_a_tombstone_without_content(engine):
    a = mem(A, "canary Zorblax-9931", metadata={"secret": "x"})
    engine.insert(A, [a])
    engine.delete(A, [a.id], later(1))
    got = engine.get(A, a.id)
    assert got.status is Status.DELETED and got.text == "" and got.embedding is None and got.metadata == {}
    assert engine.search_keywords(A, "Zorblax", k=5, now=later(2), statuses=tuple(Status)) == []
    assert engine.search_vector(A, vec("canary"), k=5, now=later(2), statuses=tuple(Status)) == []
    assert all("Zorblax" not in m.text for m in engine.export(A))


def test_touch_list_count_and_citing(engine):
    base = [mem(A, f"episode {i}", at=later(i)) for i in range(5)]
    engine.insert(A, base)
    summary = mem(A, "summary", kind=Kind.PREFERENCE, source=Source.CONSOLIDATED, source_refs=(base[0].id, base[1].id), at=later(9))
    newer = mem(A, "episode 0 v2", supersedes=(base[0].id,), at=later(10))
    engine.insert(A, [summary, newer])
    engine.touch(A, [base[2].id], later(60))
    assert engine.get(A, base[2].id).last_used_at == later(60)
    listed = engine.list(A)
    assert [m.id for m in listed][:2] == [newer.id, summary.id]
    assert [m.id for m in engine.list(A, kinds=[Kind.PREFERENCE])] == [summary.id]
    assert [m.id for m in engine.list(A, limit=2, offset=1)] == [listed[1].id, listed[2].id]
    assert engine.count(A) == 7
    assert {m.id for m in engine.citing(A, base[0].id)} == {summary.id, newer.id}
    assert engine.citing(B, base[0].id) == []


def test_export_holds_every_status_oldest_first(engine):
    ms = [mem(A, f"m{i}", at=later(i)) for i in range(3)]
    engine.insert(A, ms)
    engine.retire(A, [ms[1].id], later(5))
    engine.delete(A, [ms[2].id], later(6))
    out = engine.export(A)
    assert [m.id for m in out] == [m.id for m in ms]
    assert [m.status for m in out] == [Status.ACTIVE, Status.RETIRED, Status.DELETED]


def test_delete_scope_removes_one_scope_only(engine):
    engine.insert(A, [mem(A, "alpha")])
    engine.insert(B, [mem(B, "beta")])
    assert engine.delete_scope(A) == 1
    assert engine.export(A) == [] and engine.audit(A) == [] and engine.count(A) == 0
    assert engine.count(B) == 1 and len(engine.audit(B)) == 1
    assert engine.search_keywords(A, "alpha", k=5, now=T0) == []


def test_a_refresh_moves_last_used_forward_on_every_read_and_leaves_with_its_scope(engine):
    a, b, other = mem(A, "alpha"), mem(A, "beta"), mem(B, "alpha too")
    engine.insert(A, [a, b])
    engine.insert(B, [other])
    engine.touch(A, [a.id], later(60))
    engine.touch(A, [a.id, b.id], later(30))  # an earlier refresh moves nothing back
    want = {a.id: later(60), b.id: later(30)}
    assert {m.id: m.last_used_at for m in engine.list(A)} == want
    assert {m.id: m.last_used_at for m in engine.export(A)} == want
    assert [m.last_used_at for m in engine.get_many(A, [a.id, b.id])] == [want[m.id] for m in engine.get_many(A, [a.id, b.id])]
    assert engine.get(B, other.id).last_used_at == T0
    engine.delete_scope(A)
    engine.insert(A, [a, b])  # the same ids again (an export imported back): nothing of their old refreshes is left
    assert {m.id: m.last_used_at for m in engine.export(A)} == {a.id: T0, b.id: T0}


def test_guarded_transition_race_has_one_winner(engine):
    a = mem(A, "pending", status=Status.PROVISIONAL)
    engine.insert(A, [a])
    wins, conflicts = [], []

    def attempt(i: int) -> None:
        try:
            engine.apply(A, Changeset(transitions=(Transition(a.id, (Status.PROVISIONAL,), Status.ACTIVE),)))
            wins.append(i)
        except Conflict:
            conflicts.append(i)

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(wins) == 1 and len(conflicts) == 7


def test_concurrent_writers_and_readers(engine):
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            for i in range(20):
                engine.insert(A, [mem(A, f"writer {n} item {i}")])
                engine.search_vector(A, vec("item"), k=5, now=later(1))
        except BaseException as exc:  # collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert engine.count(A) == 80


def test_audit_is_ordered_and_holds_ids_not_content(engine):
    a = mem(A, "Alice's secret project Bluefin")
    engine.insert(A, [a], reason="remember")
    engine.retire(A, [a.id], later(1), reason="retract")
    entries = engine.audit(A)
    assert [e.op for e in entries] == [Op.ADD, Op.DELETE]
    assert all("Bluefin" not in f"{e.reason}{e.source}" for e in entries)
    assert entries[0].memory_ids == (a.id,)


def test_search_vector_honours_every_requested_status(engine):
    a, b = mem(A, "Alice lives in Leeds"), mem(A, "Alice lives in York")
    engine.insert(A, [a, b])
    engine.retire(A, [a.id], later(1))
    q = vec("Alice lives in Leeds")
    assert [s.memory.id for s in engine.search_vector(A, q, k=5, now=later(2))] == [b.id]
    assert [s.memory.id for s in engine.search_vector(A, q, k=5, now=later(2), statuses=(Status.RETIRED,))] == [a.id]
    both = engine.search_vector(A, q, k=5, now=later(2), statuses=(Status.ACTIVE, Status.RETIRED))
    assert [s.memory.id for s in both] == [a.id, b.id]
    assert engine.search_vector(B, q, k=5, now=later(2), statuses=(Status.RETIRED,)) == []


def test_two_tenants_sharing_a_user_id_see_only_their_own_and_all_of_it(engine):
    # globex/alice's memories are nearer the query and more numerous: a partition or filter that forgot
    # the tenant would fill the top k with them and, once they are dropped, silently return fewer of acme's.
    query = "window seat on long flights"
    own = [mem(A, f"acme alice note {i} about gardening") for i in range(3)]
    other = [mem(G, query) for _ in range(20)]
    engine.insert(A, own)
    engine.insert(G, other)
    got = engine.search_vector(A, vec(query), k=3, now=T0)
    assert sorted(s.memory.id for s in got) == sorted(m.id for m in own)
    assert all(s.memory.tenant_id == "acme" for s in got)
    kw = engine.search_keywords(A, "acme alice note gardening", k=3, now=T0)
    assert sorted(s.memory.id for s in kw) == sorted(m.id for m in own)
    assert engine.count(A) == 3 and engine.count(G) == 20
    assert sorted(s.memory.id for s in engine.search_vector(G, vec(query), k=30, now=T0)) == sorted(m.id for m in other)


def test_search_keywords_leaves_out_expired_memories(engine):
    gone = mem(A, "parking code for level three", expires_at=later(5))
    stays = mem(A, "parking is on level three")
    engine.insert(A, [gone, stays])
    before = {s.memory.id for s in engine.search_keywords(A, "parking level three", k=10, now=later(1))}
    after = {s.memory.id for s in engine.search_keywords(A, "parking level three", k=10, now=later(10))}
    assert before == {gone.id, stays.id}
    assert after == {stays.id}
    assert {s.memory.id for s in engine.search_vector(A, vec("parking level three"), k=10, now=later(10))} == {stays.id}
