"""Serialised decisions (``ActiveSetStore``) and the record of background work (``ScheduleStore``): every
engine declaring them behaves the same."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from kenning.errors import Conflict
from kenning.stores.base import ActiveSetStore, ScheduleStore, audit_entry, supports
from kenning.types import Changeset, Op, Status, Transition

from .factory import A, B, G, T0, mem


def activate(store, scope, m, *, seen=None):
    change = Changeset(
        transitions=(Transition(m.id, (Status.PROVISIONAL,), Status.ACTIVE),),
        audit=(audit_entry(scope, T0, Op.ADD, [m.id], "", "test"),),
    )
    store.apply(scope, replace(change, active_gen=seen))


def test_the_built_in_engines_declare_both(admin_engine):
    assert supports(admin_engine, ActiveSetStore) and supports(admin_engine, ScheduleStore)


def test_the_active_generation_moves_only_when_the_active_set_does(admin_engine):
    s = admin_engine
    assert s.active_generation(A) == 0
    pending = mem(A, "User lives in Leeds", status=Status.PROVISIONAL)
    s.insert(A, [pending])
    s.touch(A, [pending.id], T0 + timedelta(days=1))
    assert s.active_generation(A) == 0  # a provisional write and a refresh leave the active set as it was
    activate(s, A, pending)
    assert s.active_generation(A) == 1
    s.insert(A, [mem(A, "User works at Acme")])  # inserted active
    assert s.active_generation(A) == 2
    s.retire(A, [pending.id], T0)
    assert s.active_generation(A) == 3
    assert s.active_generation(B) == 0 and s.active_generation(G) == 0  # per scope


def test_a_decision_planned_against_a_stale_active_set_writes_nothing(admin_engine):
    s = admin_engine
    leeds, york = (mem(A, f"User lives in {c}", status=Status.PROVISIONAL) for c in ("Leeds", "York"))
    s.insert(A, [leeds, york])
    seen = s.active_generation(A)
    activate(s, A, leeds, seen=seen)  # the first decision read the set as it still was: applied
    with pytest.raises(Conflict):
        activate(s, A, york, seen=seen)  # the second read it before the first landed: refused whole
    assert s.get(A, york.id).status is Status.PROVISIONAL
    assert all(a.reason != "test" for a in s.audit(A, york.id))  # nor its audit line
    activate(s, A, york, seen=s.active_generation(A))  # planned again against what is there now
    assert s.get(A, york.id).status is Status.ACTIVE


def test_another_scope_moving_does_not_refuse_a_decision(admin_engine):
    s = admin_engine
    a, b = mem(A, "User lives in Leeds", status=Status.PROVISIONAL), mem(B, "User lives in York", status=Status.PROVISIONAL)
    s.insert(A, [a])
    s.insert(B, [b])
    seen = s.active_generation(A)
    activate(s, B, b)
    activate(s, A, a, seen=seen)
    assert s.get(A, a.id).status is Status.ACTIVE


def test_a_write_marks_its_scope_and_finishing_clears_only_that_scope(admin_engine):
    s = admin_engine
    assert s.pending_scopes(T0) == []
    s.insert(A, [mem(A, "one")])
    s.insert(G, [mem(G, "two")])
    pending = dict(s.pending_scopes(T0))
    assert set(pending) == {A, G}  # B was never written
    assert s.finish_scope(A, pending[A], 0, None) is True
    assert [sc for sc, _ in s.pending_scopes(T0)] == [G]
    s.insert(A, [mem(A, "three")])
    assert {sc for sc, _ in s.pending_scopes(T0)} == {A, G}


def test_a_write_by_someone_else_during_the_work_keeps_the_scope_marked(admin_engine):
    s = admin_engine
    s.insert(A, [mem(A, "one")])
    [(_, seen)] = s.pending_scopes(T0)
    s.insert(A, [mem(A, "the pass's own write")])
    s.insert(A, [mem(A, "someone else's write")])
    assert s.finish_scope(A, seen, 1, None) is False  # two writes happened, the pass made one
    [(_, again)] = s.pending_scopes(T0)
    assert s.finish_scope(A, again, 0, None) is True
    assert s.pending_scopes(T0 + timedelta(days=3650)) == []


def test_a_scope_comes_back_when_it_is_due(admin_engine):
    s = admin_engine
    s.insert(A, [mem(A, "one")])
    [(_, seen)] = s.pending_scopes(T0)
    s.finish_scope(A, seen, 0, T0 + timedelta(days=2))
    assert s.pending_scopes(T0 + timedelta(days=1)) == []
    assert [sc for sc, _ in s.pending_scopes(T0 + timedelta(days=2))] == [A]
    s.finish_scope(A, seen, 0, None)
    assert s.pending_scopes(T0 + timedelta(days=3650)) == []
