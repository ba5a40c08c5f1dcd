"""Retrieval scoring: the seed's worked example on the real bundled embedder, and the invariants."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kenning.lifecycle.retrieve import Candidate, Policy, keyword_scores, query_terms, rank, recency, relevance, score
from kenning.types import Kind, Memory

from ..conftest import T0, at

DINNER = "Book a restaurant table for dinner on Friday"


def memory(kind=Kind.EPISODE, importance=0.5, confidence=0.9, used=T0, expires=None, text="m"):
    return Memory(id=f"mem_{text}", tenant_id="t", user_id="u", kind=kind, text=text, embedding=None, source="user_said",
                  source_refs=(), created_at=used, last_used_at=used, importance=importance, confidence=confidence,
                  expires_at=expires)


def dinner_candidates(minilm, allergy_kind: Kind):
    texts = {
        "allergy": ("Maya is severely allergic to peanuts", allergy_kind, 0.95, at("2026-01-05T10:00")),
        "thai": ("Maya asked for Thai restaurant recommendations near the office", Kind.EPISODE, 0.4, at("2026-03-07T19:00")),
        "burrito": ("Maya had a burrito for lunch", Kind.EPISODE, 0.2, at("2026-03-08T13:00")),
    }
    q = minilm.embed([DINNER], "query")[0]
    # keyword evidence exactly as search computes it: IDF-weighted over this query's candidates
    keyword = keyword_scores(query_terms(DINNER, "maya"), [text for text, *_ in texts.values()])
    out = []
    for (text, kind, imp, when), kw in zip(texts.values(), keyword):
        m = memory(kind=kind, importance=imp, used=when, text=text)
        out.append(Candidate(m, float(minilm.embed([text])[0] @ q), kw))
    return out


def test_seed_dinner_example_allergy_outranks_thai_with_per_kind_decay(minilm):
    hits = rank(dinner_candidates(minilm, Kind.FACT), at("2026-03-10T18:00"), Policy(), k=2)
    assert [h.memory.text for h in hits] == [
        "Maya is severely allergic to peanuts",
        "Maya asked for Thai restaurant recommendations near the office",
    ]


def test_seed_dinner_example_allergy_falls_below_thai_with_one_global_decay(minilm):
    hits = rank(dinner_candidates(minilm, Kind.EPISODE), at("2026-03-10T18:00"), Policy(), k=3)
    names = [h.memory.text for h in hits]
    assert names.index("Maya asked for Thai restaurant recommendations near the office") < names.index(
        "Maya is severely allergic to peanuts"
    )


def test_facts_and_procedures_never_fade_episodes_halve_per_half_life():
    p = Policy()
    long_ago = T0 - timedelta(days=3650)
    assert recency(memory(Kind.FACT, used=long_ago), T0, p) == 1.0
    assert recency(memory(Kind.PROCEDURE, used=long_ago), T0, p) == 1.0
    assert recency(memory(Kind.EPISODE, used=T0 - timedelta(days=7)), T0, p) == pytest.approx(0.5)
    assert recency(memory(Kind.PREFERENCE, used=T0 - timedelta(days=90)), T0, p) == pytest.approx(0.5)


def test_expired_and_irrelevant_memories_never_rank():
    p = Policy()
    expired = memory(expires=T0 - timedelta(seconds=1), text="expired")
    far = memory(text="far")
    hits = rank([Candidate(expired, 0.9), Candidate(far, p.cos_floor - 0.1)], T0, p, k=5)
    assert hits == []


unit = st.floats(0, 1)
cosine = st.floats(-1, 1)


@given(cosine, unit, unit, unit, st.sampled_from(list(Kind)), st.integers(0, 4000))
def test_score_is_in_unit_interval(cos, kw, imp, conf, kind, age_days):
    m = memory(kind, imp, conf, used=T0 - timedelta(days=age_days))
    s, comps = score(m, relevance(cos, kw, Policy()), T0, Policy())
    assert 0.0 <= s <= 1.0
    assert set(comps) >= {"relevance", "recency", "importance"}


@given(cosine, cosine, unit)
def test_score_is_monotone_in_relevance(c1, c2, kw):
    p = Policy()
    lo, hi = sorted([c1, c2])
    m = memory()
    assert score(m, relevance(lo, kw, p), T0, p)[0] <= score(m, relevance(hi, kw, p), T0, p)[0] + 1e-12


@given(unit, unit, st.sampled_from(list(Kind)))
def test_score_is_monotone_in_importance_and_confidence(a, b, kind):
    p = Policy()
    lo, hi = sorted([a, b])
    assert score(memory(kind, importance=lo), 0.5, T0, p)[0] <= score(memory(kind, importance=hi), 0.5, T0, p)[0] + 1e-12
    assert score(memory(kind, confidence=lo), 0.5, T0, p)[0] <= score(memory(kind, confidence=hi), 0.5, T0, p)[0] + 1e-12


@given(st.integers(0, 1000), st.integers(0, 1000))
def test_older_never_scores_higher(d1, d2):
    p = Policy()
    young, old = sorted([d1, d2])
    for kind in Kind:
        s_young = score(memory(kind, used=T0 - timedelta(days=young)), 0.5, T0, p)[0]
        s_old = score(memory(kind, used=T0 - timedelta(days=old)), 0.5, T0, p)[0]
        assert s_old <= s_young + 1e-12


def test_rank_orders_by_score_and_cuts_at_k():
    p = Policy()
    cands = [Candidate(memory(importance=i / 10, text=str(i)), 0.5) for i in range(10)]
    hits = rank(cands, T0, p, k=3)
    assert [h.memory.text for h in hits] == ["9", "8", "7"]
    assert all(a.score >= b.score for a, b in zip(hits, hits[1:]))


def test_weights_live_in_the_policy():
    p = replace(Policy(), w_importance=0.0, w_recency=0.0)
    a, b = memory(importance=1.0, text="a"), memory(importance=0.0, text="b")
    hits = rank([Candidate(a, 0.1), Candidate(b, 0.6)], T0, p, k=2)
    assert [h.memory.text for h in hits] == ["b", "a"]


def test_impersonal_drops_only_the_words_naming_the_user():
    from kenning.lifecycle.retrieve import impersonal, user_names

    names = user_names("hannah")
    assert impersonal("What is Hannah's job?", names) == "What is job?"
    assert impersonal("User's husband's name is Dev.", names) == "husband's name is Dev."
    assert impersonal("The user lives in Bristol", names) == "lives in Bristol"
    assert impersonal("Hannahsville is a town", names) == "Hannahsville is a town"
    assert user_names("u_8c1f") == set() and user_names("maya.lee") == {"maya", "lee"}


def test_naming_the_user_does_not_decide_which_fact_wins(real_system):
    hannah = real_system.scope("clinic", "hannah")
    for text in ["User lives in Bristol.", "User works as a nurse at St Mary's hospital.", "User's husband's name is Dev.",
                 "Hannah has a cat called Pickles."]:
        hannah.remember(text, now=T0)
    for query, want in [("What is Hannah's job?", "nurse"), ("What does Hannah do for a living?", "nurse"),
                        ("Which city does Hannah live in?", "Bristol"), ("What is the user's cat called?", "Pickles")]:
        assert want in hannah.search(query, k=1, now=T0)[0].memory.text, query
