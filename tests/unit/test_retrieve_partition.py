"""``search_partition`` ranks a whole partition in numpy exactly as ``keyword_scores`` + ``rank`` rank its candidates."""

from __future__ import annotations

import random
from datetime import timedelta

import numpy as np
import pytest

from kenning.embedders import HashEmbedder
from kenning.lifecycle.retrieve import Candidate, Policy, keyword_scores, query_terms, rank, search_partition
from kenning.stores.sqlite import SQLiteStore
from kenning.types import Kind, Memory, Scope, Source, new_id

from ..conftest import T0

EMB = HashEmbedder()
WORDS = "alice york tea coffee dog greyhound leeds works lives likes hates running piano paris friday dinner".split()
SCOPE = Scope("acme", "alice")


def _memories(rng: random.Random, n: int) -> list[Memory]:
    out = []
    for _ in range(n):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6)))
        ctx = " ".join(rng.choice(WORDS) for _ in range(3)) if rng.random() < 0.4 else None
        at = T0 - timedelta(days=rng.uniform(0, 60))
        out.append(
            Memory(
                id=new_id("mem"), tenant_id=SCOPE.tenant_id, user_id=SCOPE.user_id, kind=rng.choice(list(Kind)),
                text=text, embedding=EMB.embed([text])[0], source=Source.USER_SAID, source_refs=(), created_at=at,
                last_used_at=at + timedelta(days=rng.uniform(0, 5)), importance=rng.random(), confidence=rng.random(),
                expires_at=T0 - timedelta(days=1) if rng.random() < 0.1 else None,
                metadata={"context": ctx} if ctx else {},
            )
        )
    return out


@pytest.mark.parametrize("seed", range(8))
def test_the_numpy_ranking_equals_the_reference_ranking_when_every_record_is_a_candidate(tmp_path, seed):
    rng = random.Random(seed)
    mems = _memories(rng, 40)  # under policy.candidates: every live record is a candidate on both paths
    store = SQLiteStore(tmp_path / "p.db", dim=EMB.dim, embedder_id=EMB.model_id)
    store.insert(SCOPE, mems)
    policy = Policy()
    part = store.partition(SCOPE)
    by_id = {m.id: m for m in mems}
    for _ in range(10):
        query = " ".join(rng.choice(WORDS) for _ in range(3))
        vector, qt = EMB.embed([query])[0], query_terms(query, SCOPE.user_id)
        got = search_partition(part, vector, qt, T0, policy, 10)
        live = [m for m in mems if not m.is_expired(T0)]
        kws = keyword_scores(qt, [m.text for m in live], [m.metadata.get("context") for m in live], policy.context_keyword_weight)
        want = rank([Candidate(m, float(m.embedding @ vector), w) for m, w in zip(live, kws)], T0, policy, 10)
        assert [part.ids[r.position] for r in got] == [h.memory.id for h in want]
        for r, h in zip(got, want):
            assert r.score == pytest.approx(h.score, abs=1e-6)
            assert r.components == pytest.approx(h.components, abs=1e-6)
            assert by_id[part.ids[r.position]] == h.memory
    store.close()


@pytest.mark.parametrize("seed", range(6))
def test_entity_evidence_is_the_same_on_the_partition_and_the_reference(tmp_path, seed):
    """Texts opening with a name (their subject) or naming one later; queries naming one or two people."""
    from kenning.lifecycle.evidence import entity_scores, query_names
    from kenning.text import terms

    rng = random.Random(100 + seed)
    names = ["Alice", "Bob", "Carol"]
    mems = [
        m.evolve(text=f"{rng.choice(names)} {m.text} {rng.choice(names) if rng.random() < 0.3 else ''}".strip())
        if rng.random() < 0.7 else m
        for m in _memories(rng, 40)
    ]
    store = SQLiteStore(tmp_path / "p.db", dim=EMB.dim, embedder_id=EMB.model_id)
    store.insert(SCOPE, mems)
    policy = Policy()
    part = store.partition(SCOPE)
    live = [m for m in mems if not m.is_expired(T0)]
    for _ in range(10):
        query = "What " + " ".join(rng.choice(WORDS + names) for _ in range(4))
        vector, qt = EMB.embed([query])[0], query_terms(query, SCOPE.user_id)
        entities = frozenset(t for w in query_names(query, SCOPE.user_id) for t in terms(w)) & qt
        got = search_partition(part, vector, qt, T0, policy, 10, entities=entities)
        kws = keyword_scores(qt, [m.text for m in live], [m.metadata.get("context") for m in live], policy.context_keyword_weight)
        ents = entity_scores(entities, [m.text for m in live], policy.entity_mention)
        want = rank([Candidate(m, float(m.embedding @ vector), w, e) for m, w, e in zip(live, kws, ents)], T0, policy, 10)
        assert [part.ids[r.position] for r in got] == [h.memory.id for h in want], query
        for r, h in zip(got, want):
            assert r.score == pytest.approx(h.score, abs=1e-6)
    store.close()


@pytest.mark.parametrize("seed", range(4))
def test_time_evidence_is_the_same_on_the_partition_and_the_reference(tmp_path, seed):
    """Some texts say when ("last week", "in 2021"); a query asking when lifts them alike on both paths."""
    from kenning.lifecycle.evidence import time_scores

    rng = random.Random(200 + seed)
    mems = [m.evolve(text=f"{m.text} {rng.choice(['last week', 'in 2021', 'yesterday'])}") if rng.random() < 0.4 else m
            for m in _memories(rng, 40)]
    store = SQLiteStore(tmp_path / "p.db", dim=EMB.dim, embedder_id=EMB.model_id)
    store.insert(SCOPE, mems)
    policy = Policy()
    part = store.partition(SCOPE)
    live = [m for m in mems if not m.is_expired(T0)]
    assert any(time_scores([m.text for m in live]))
    for _ in range(10):
        query = "When " + " ".join(rng.choice(WORDS) for _ in range(3))
        vector, qt = EMB.embed([query])[0], query_terms(query, SCOPE.user_id)
        got = search_partition(part, vector, qt, T0, policy, 10, asks_time=True)
        kws = keyword_scores(qt, [m.text for m in live], [m.metadata.get("context") for m in live], policy.context_keyword_weight)
        timed = time_scores([m.text for m in live])
        want = rank([Candidate(m, float(m.embedding @ vector), w, 0.0, t) for m, w, t in zip(live, kws, timed)], T0, policy, 10)
        assert [part.ids[r.position] for r in got] == [h.memory.id for h in want], query
        for r, h in zip(got, want):
            assert r.score == pytest.approx(h.score, abs=1e-6)
        plain = search_partition(part, vector, qt, T0, policy, 10)
        assert [r.score for r in plain] != [r.score for r in got] or not any(timed)
    store.close()


@pytest.mark.parametrize("seed", range(4))
def test_asking_records_are_lowered_the_same_on_the_partition_and_the_reference(tmp_path, seed):
    """Some texts end by asking ("… ?", a date aside after it); both paths lower them by ``question_weight`` alike."""
    from kenning.lifecycle.evidence import asking_scores

    rng = random.Random(300 + seed)
    mems = [m.evolve(text=f"{m.text}?" + rng.choice(["", " (8 May, 2023)"])) if rng.random() < 0.4 else m
            for m in _memories(rng, 40)]
    store = SQLiteStore(tmp_path / "p.db", dim=EMB.dim, embedder_id=EMB.model_id)
    store.insert(SCOPE, mems)
    policy = Policy()
    part = store.partition(SCOPE)
    live = [m for m in mems if not m.is_expired(T0)]
    asking = asking_scores([m.text for m in live])
    assert any(asking) and not all(asking)
    for _ in range(10):
        query = " ".join(rng.choice(WORDS) for _ in range(3))
        vector, qt = EMB.embed([query])[0], query_terms(query, SCOPE.user_id)
        got = search_partition(part, vector, qt, T0, policy, 10)
        kws = keyword_scores(qt, [m.text for m in live], [m.metadata.get("context") for m in live], policy.context_keyword_weight)
        want = rank([Candidate(m, float(m.embedding @ vector), w, 0.0, 0.0, a) for m, w, a in zip(live, kws, asking)],
                    T0, policy, 10)
        assert [part.ids[r.position] for r in got] == [h.memory.id for h in want], query
        for r, h in zip(got, want):
            assert r.score == pytest.approx(h.score, abs=1e-6)
    store.close()


def test_keyword_candidates_come_from_the_whole_partition(tmp_path):
    # 200 records; the one holding the rare word is far from the query's vector, but its word brings it in.
    rng = random.Random(1)
    mems = _memories(rng, 200)
    rare = mems[0].evolve(text="zanzibar", embedding=-EMB.embed(["dog dinner"])[0])
    store = SQLiteStore(tmp_path / "p.db", dim=EMB.dim, embedder_id=EMB.model_id)
    store.insert(SCOPE, [rare, *mems[1:]])
    part = store.partition(SCOPE)
    got = search_partition(part, EMB.embed(["dog dinner"])[0], {"zanzibar", "dog"}, T0, Policy(), 200, min_relevance=0.0)
    assert rare.id in [part.ids[r.position] for r in got]
    assert search_partition(part, np.zeros(EMB.dim), set(), T0, Policy(), 0) == []
    store.close()


def test_diversity_lets_other_evidence_past_a_near_duplicate(tmp_path):
    from dataclasses import replace

    base = EMB.embed(["alice dog greyhound"])[0]
    twin = base + 0.01 * EMB.embed(["x"])[0]
    other = EMB.embed(["alice dog walks"])[0]
    texts = [("alice dog greyhound", base), ("alice dog greyhound again", twin / np.linalg.norm(twin)), ("alice dog walks", other)]
    mems = [
        Memory(
            id=f"mem_{i}", tenant_id=SCOPE.tenant_id, user_id=SCOPE.user_id, kind=Kind.FACT, text=t, embedding=v,
            source=Source.USER_SAID, source_refs=(), created_at=T0, last_used_at=T0, importance=0.5, confidence=0.9,
        )
        for i, (t, v) in enumerate(texts)
    ]
    store = SQLiteStore(tmp_path / "p.db", dim=EMB.dim, embedder_id=EMB.model_id)
    store.insert(SCOPE, mems)
    part = store.partition(SCOPE)
    q, qt = base, query_terms("alice dog greyhound", SCOPE.user_id)
    plain = [part.ids[r.position] for r in search_partition(part, q, qt, T0, Policy(), 2)]
    diverse = [part.ids[r.position] for r in search_partition(part, q, qt, T0, replace(Policy(), diversity=0.5), 2)]
    assert plain == ["mem_0", "mem_1"] and diverse == ["mem_0", "mem_2"]
    fed = search_partition(part, q, qt, T0, replace(Policy(), feedback=0.5), 3)
    assert {part.ids[r.position] for r in fed} == {"mem_0", "mem_1", "mem_2"}
    store.close()
