"""Hybrid relevance: IDF-weighted keyword evidence over a query's candidates, soft-capped sum."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from kenning.lifecycle.retrieve import Policy, keyword_scores, relevance, terms, vector_relevance

from ..conftest import T0


def test_terms_drop_single_characters_such_as_possessive_s():
    assert terms("Alice's dog") == {"alice", "dog"}


def test_rare_words_weigh_more_than_words_every_candidate_shares():
    texts = ["Maya: I adopted a greyhound", "Maya: lovely weather", "Maya: see you soon"]
    q = terms("Did Maya adopt a greyhound?")
    scores = keyword_scores(q, texts)
    assert scores[0] > 0.5 > scores[1] == scores[2] > 0.0
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert keyword_scores(terms("Maya greyhound"), ["Maya greyhound"]) == [1.0]


def test_words_no_candidate_holds_still_count():
    # one matched word out of three: a weak match, not a full one
    (score,) = keyword_scores(terms("book restaurant dinner"), ["asked for restaurant tips"])
    assert 0.0 < score < 0.5


def test_no_query_words_no_keyword_evidence():
    assert keyword_scores(set(), ["a text", "another"]) == [0.0, 0.0]
    assert keyword_scores(terms("anything"), []) == []


def test_relevance_is_the_plain_sum_below_saturation():
    p = Policy()
    cos = 0.2
    assert relevance(cos, 0.0, p) == vector_relevance(cos, p)
    assert math.isclose(relevance(cos, 0.2, p), vector_relevance(cos, p) + p.keyword_weight * 0.2)


@given(st.floats(-1, 1), st.floats(0, 1), st.floats(0, 1))
def test_relevance_stays_in_unit_interval_and_grows_with_keyword_evidence(cos, k1, k2):
    p = Policy()
    lo, hi = sorted([k1, k2])
    assert 0.0 <= relevance(cos, lo, p) <= relevance(cos, hi, p) <= 1.0


def test_strong_matches_do_not_tie_at_the_cap():
    p = Policy()
    assert relevance(0.7, 0.5, p) < relevance(0.7, 1.0, p) < 1.0


def test_search_finds_a_rare_exact_word_the_vector_misses(system):
    mem = system.scope("acme", "alice")
    for i in range(30):
        mem.remember(f"Alice mentioned topic number {i} at lunch", now=T0)
    mem.remember("The locker room is called Kestrel", now=T0)
    system.scope("acme", "bob").remember("Bob's locker room is called Kestrel too", now=T0)
    hits = mem.search("Kestrel", k=3, now=T0)
    assert hits[0].memory.text == "The locker room is called Kestrel"
    assert hits[0].components["keyword"] == 1.0
    assert all(h.memory.user_id == "alice" for h in hits)  # keyword candidates stay in scope
