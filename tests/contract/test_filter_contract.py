"""Search filters: every engine keeps exactly what ``Filter.matches`` keeps, inside its query, in one scope only."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kenning.errors import ValidationError
from kenning.types import Filter, Scope

from .factory import A, B, G, T0, Kind, Source, Status, later, mem, vec


def _fill(engine):
    rows = [
        mem(A, "Alice takes the aisle seat on trains", kind=Kind.PREFERENCE, session_id="s1", metadata={"agent_id": "travel", "n": 1}),
        mem(A, "Alice booked a window seat once", kind=Kind.EPISODE, source=Source.TOOL_RESULT, confidence=0.3,
            at=later(60), metadata={"agent_id": "travel", "n": 2.0, "ok": True}),
        mem(A, "Alice is allergic to peanuts", kind=Kind.FACT, at=later(120), session_id="s2", metadata={"agent_id": "chef"}),
        mem(A, "Alice prefers seat 12A", kind=Kind.PREFERENCE, at=later(180), metadata={"n": "1", "ok": None}),
    ]
    engine.insert(A, rows)
    # the same texts and metadata in other scopes: a filter must never reach them
    for s in (B, G):
        engine.insert(s, [mem(s, r.text, kind=r.kind, source=r.source, confidence=r.confidence, created_at=r.created_at,
                             last_used_at=r.created_at, session_id=r.session_id, metadata=dict(r.metadata)) for r in rows])
    return rows


CASES = {
    "kinds": Filter(kinds=["preference"]),
    "sources": Filter(sources=["tool_result"]),
    "since": Filter(since=later(60)),
    "until": Filter(until=later(60)),
    "window": Filter(since=later(60), until=later(180)),
    "confidence": Filter(min_confidence=0.5),
    "agent": Filter(agent_id="travel"),
    "session": Filter(session_id="s2"),
    "number 1 matches 1 and not '1'": Filter(metadata={"n": 1}),
    "number 2 matches 2.0": Filter(metadata={"n": 2}),
    "string '1'": Filter(metadata={"n": "1"}),
    "bool": Filter(metadata={"ok": True}),
    "null": Filter(metadata={"ok": None}),
    "missing key": Filter(metadata={"nope": 1}),
    "together": Filter(kinds=["preference", "episode"], agent_id="travel", min_confidence=0.5),
    "no kinds": Filter(kinds=[]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_every_filter_keeps_what_matches_keeps_on_every_read(engine, name):
    rows = _fill(engine)
    where = CASES[name]
    want = {m.id for m in rows if where.matches(m)}
    now = later(600)
    assert {s.memory.id for s in engine.search_vector(A, vec("seat"), k=50, now=now, where=where)} == want
    assert {m.id for m in engine.list(A, where=where)} == want
    kw = {s.memory.id for s in engine.search_keywords(A, "Alice seat peanuts", k=50, now=now, where=where)}
    assert kw == want  # every row holds "Alice"


def test_the_top_k_is_taken_after_the_filter(engine):
    # 30 close matches of another agent must not crowd out the one match of this agent
    crowd = [mem(A, "aisle seat please", metadata={"agent_id": "other"}) for _ in range(30)]
    mine = mem(A, "window seat maybe", metadata={"agent_id": "me"})
    engine.insert(A, crowd + [mine])
    where = Filter(agent_id="me")
    assert [s.memory.id for s in engine.search_vector(A, vec("aisle seat please"), k=3, now=T0, where=where)] == [mine.id]
    assert [s.memory.id for s in engine.search_keywords(A, "seat", k=3, now=T0, where=where)] == [mine.id]


def test_filters_still_respect_status_and_expiry(engine):
    live, gone = mem(A, "seat one", metadata={"a": 1}), mem(A, "seat two", metadata={"a": 1}, expires_at=later(5))
    old = mem(A, "seat three", metadata={"a": 1})
    engine.insert(A, [live, gone, old])
    engine.retire(A, [old.id], later(1))
    where = Filter(metadata={"a": 1})
    assert [s.memory.id for s in engine.search_vector(A, vec("seat"), k=9, now=later(10), where=where)] == [live.id]
    assert [s.memory.id for s in engine.search_keywords(A, "seat", k=9, now=later(10), where=where)] == [live.id]
    retired = engine.search_vector(A, vec("seat"), k=9, now=later(10), statuses=(Status.RETIRED,), where=where)
    assert [s.memory.id for s in retired] == [old.id]


def test_filters_refuse_what_they_cannot_compare():
    with pytest.raises(ValidationError):
        Filter(metadata={"k": [1, 2]})
    with pytest.raises(ValidationError):
        Filter(metadata={'we"ird': 1})
    with pytest.raises(ValidationError):
        Filter(kinds=["nope"])
    with pytest.raises(ValidationError):
        Filter(min_confidence=2)


SCOPES = [Scope(t, u) for t in ("t1", "t2") for u in ("u1", "u2")]
AGENTS = st.sampled_from(["a1", "a2"])


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(writes=st.lists(st.tuples(st.integers(0, 3), AGENTS, st.sampled_from(list(Kind)), st.integers(0, 5)), min_size=1, max_size=14),
       reader=st.integers(0, 3), agent=AGENTS, kinds=st.one_of(st.none(), st.lists(st.sampled_from(list(Kind)), max_size=2)),
       since=st.integers(0, 5))
def test_filtered_reads_never_cross_scopes_and_miss_nothing(engine, writes, reader, agent, kinds, since):
    for s in SCOPES:
        engine.delete_scope(s)
    written = []
    for idx, ag, kind, minute in writes:
        m = mem(SCOPES[idx], f"note seat {ag} {kind.value}", kind=kind, at=later(minute), metadata={"agent_id": ag})
        engine.insert(SCOPES[idx], [m])
        written.append(m)
    scope, where = SCOPES[reader], Filter(agent_id=agent, kinds=kinds, since=later(since))
    want = {m.id for m in written if m.scope == scope and where.matches(m)}
    now = later(10)
    got = [s.memory for s in engine.search_vector(scope, vec("note seat"), k=50, now=now, where=where)]
    got_kw = [s.memory for s in engine.search_keywords(scope, "note seat", k=50, now=now, where=where)]
    listed = engine.list(scope, where=where)
    for found in (got, got_kw, listed):
        assert all(m.scope == scope for m in found)
        assert {m.id for m in found} == want


def test_a_filter_in_one_tenant_never_sees_another(engine):
    _fill(engine)
    for s in (A, B, G):
        for where in CASES.values():
            assert all(x.memory.scope == s for x in engine.search_vector(s, vec("seat"), k=50, now=later(600), where=where))
