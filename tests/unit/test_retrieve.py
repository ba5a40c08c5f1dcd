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


# -- entities: the names a query writes ----------------------------------------

PEOPLE = [
    "Caroline paints landscapes to unwind after work.",
    "Melanie goes running by the river to clear her head.",
    "Melanie bought Caroline a set of oil paints for her birthday.",
    "Caroline is training to become a counselor.",
    "Melanie has three kids and a dog called Luna.",
]


def test_a_texts_subject_is_the_capitalised_word_it_opens_with():
    from kenning.text import subject

    assert subject("Maya is allergic to peanuts") == "maya"
    assert subject("Caroline: I'm keen on counseling") == "caroline"
    assert subject('"Bob" said hello') == "bob"
    assert [subject(t) for t in ["the dog is called Rex", "I like tea", "The user lives in York", "42 is the answer", ""]] == [
        None, None, None, None, None,
    ]


def test_query_names_are_the_capitalised_words_past_the_first_without_the_users_own():
    from kenning.lifecycle.evidence import query_names

    assert query_names("What does Melanie do to destress?", "u_1") == ["Melanie"]
    assert query_names("Melanie likes what?", "u_1") == []  # a capital opening the query says nothing
    assert query_names("Where does Hannah's sister Jo live?", "hannah") == ["Jo"]
    assert query_names("Did I tell you about The Alchemist?", "u_1") == ["Alchemist"]  # "I" and "The" are not names
    assert query_names("what does melanie do?", "u_1") == []


def test_entity_evidence_counts_the_subject_whole_and_a_mention_in_part():
    from kenning.lifecycle.evidence import entity_scores

    got = entity_scores({"melanie"}, PEOPLE, 0.6)
    assert got == [0.0, 1.0, 1.0, 0.0, 1.0]
    got = entity_scores({"caroline"}, PEOPLE, 0.6)
    assert got == [1.0, 0.0, 0.6, 1.0, 0.0]  # "Melanie bought Caroline ...": named, not its subject
    assert entity_scores({"caroline", "melanie"}, PEOPLE[:3], 0.5) == [0.5, 0.5, 0.75]
    assert entity_scores(set(), PEOPLE[:2], 0.6) == [0.0, 0.0]


@pytest.mark.parametrize("entity_weight", [Policy().entity_weight, 0.0])
def test_a_question_naming_someone_finds_what_they_do_not_what_else_names_them(tmp_path, minilm, entity_weight):
    """The named person's memory on the asked topic comes first; without entity evidence the name decides the vector."""
    import kenning

    k = kenning.open(f"sqlite:///{tmp_path / 'people.db'}", embedder=minilm, policy=replace(Policy(), entity_weight=entity_weight))
    try:
        mem = k.scope("acme", "alex")
        for text in PEOPLE:
            mem.remember(text, kind="fact", now=T0)
        for query, want in [("What does Melanie do to destress?", PEOPLE[1]), ("What does Caroline do to destress?", PEOPLE[0])]:
            top = [mem.search(query, k=5, now=T0, refresh=False, **f)[0].memory.text for f in ({}, {"kinds": ["fact"]})]
            if entity_weight:
                assert top == [want, want], query  # the partition and the filtered path alike
            else:
                assert want not in top, query  # what the evidence changes: "Melanie has three kids …" won
    finally:
        k.close()


def test_names_that_are_a_subject_leave_the_query_vector_other_names_stay(real_system, minilm):
    mem = real_system.scope("acme", "alex")
    for text in PEOPLE:
        mem.remember(text, kind="fact", now=T0)
    hit = mem.search("Does Melanie like Lisbon?", k=1, now=T0, refresh=False)[0]
    want = float(minilm.embed(["Does like Lisbon?"], "query")[0] @ hit.memory.embedding)
    assert hit.components["cosine"] == pytest.approx(want, abs=1e-5)  # "Lisbon" is no one's subject here: it stays


# -- time: a query asking when, memories saying when -----------------------------


def test_a_text_states_time_with_relative_words_a_weekday_a_month_or_a_year_not_a_full_date():
    from kenning.text import states_time

    for text in ["Ana visited yesterday.", "I ran a half marathon last spring", "We met three weeks ago",
                 "User moved to Bristol in 2019.", "Got the puppy last March", "the game is on Friday", "saw it the other day"]:
        assert states_time(text), text
    for text in ["User lives in Bristol.", "Maria: I volunteer at the shelter (1:56 pm on 8 May, 2023)",
                 "User walks the dog every morning", "User is 34 years old", "User has 2019 photos"]:
        assert not states_time(text), text


def test_a_query_asks_when_by_its_opening_or_a_question_of_date():
    from kenning.text import asks_when

    for q in ["When did Ana visit?", "  when is the wedding", "What year did I move?", "Which month was the trip?",
              "How long ago did we meet?"]:
        assert asks_when(q), q
    for q in ["Where does Ana live?", "What did I say when we met?", "Whenever I run, what hurts?", "How long is the trip?"]:
        assert not asks_when(q), q


def test_time_evidence_lifts_a_memory_saying_when_only_for_a_query_asking_when():
    policy = Policy()
    timed = memory(kind=Kind.FACT, text="User made a clay bowl last weekend.")
    plain = memory(kind=Kind.FACT, text="User goes to pottery with friends.")
    cands = [Candidate(plain, 0.45, 0.5, 0.0, 0.0), Candidate(timed, 0.42, 0.5, 0.0, 1.0)]
    assert [h.memory.text for h in rank(cands, T0, policy, 2)] == [timed.text, plain.text]
    no_time = replace(policy, time_weight=0.0)
    assert [h.memory.text for h in rank(cands, T0, no_time, 2)] == [plain.text, timed.text]
    base = relevance(0.3, 0.2, policy)
    assert relevance(0.3, 0.2, policy, timed=1.0) == pytest.approx(base + policy.time_weight)  # outside the soft cap
    assert relevance(0.9, 1.0, policy, entity=1.0, timed=1.0) == 1.0  # capped at 1


@pytest.mark.parametrize("flt", [{}, {"kinds": ["fact"]}])
def test_a_when_question_lifts_the_memory_saying_when_through_the_facade(real_system, minilm, flt):
    """The partition and the filtered path alike: the timed memory gains exactly ``time_weight`` for "When …?"."""
    mem = real_system.scope("acme", "alex")
    for text in ["User's pottery wheel is in the garage.", "User made a clay bowl at the pottery class last weekend.",
                 "User goes to pottery with friends."]:
        mem.remember(text, kind="fact", now=T0)

    def rel(query: str) -> dict[str, float]:
        return {h.memory.text: h.components["relevance"] for h in mem.search(query, k=3, now=T0, refresh=False, **flt)}

    when, what = rel("When did the user make pottery?"), rel("What did the user make at pottery?")
    timed = "User made a clay bowl at the pottery class last weekend."
    hits = mem.search("When did the user make pottery?", k=3, now=T0, refresh=False, **flt)
    assert hits[0].memory.text == timed
    cos = hits[0].components["cosine"]
    without = relevance(cos, hits[0].components["keyword"], Policy())
    assert when[timed] == pytest.approx(min(1.0, without + Policy().time_weight), abs=1e-6)
    assert what[timed] < what["User goes to pottery with friends."] + 0.01  # no lift for a question that is not "when"


# -- memories that ask: lowered whatever the query ------------------------------------


def test_a_text_asks_when_its_last_sentence_is_a_question_asides_apart():
    from kenning.text import asks

    for text in ["How was the trip?", "Bo: Great news! Did you get the job? (1:56 pm on 8 May, 2023)",
                 "Ann: What do you think? [shares a photo of a dog] (8 May, 2023)", "is it vegan?  "]:
        assert asks(text), text
    for text in ["User lives in Bristol.", "Ann: Did it rain? No, it was sunny. (8 May, 2023)",
                 "User asked whether the clinic opens on Sunday", "Why not (really?)", ""]:
        assert not asks(text), text


def test_a_memory_that_asks_loses_question_weight_of_relevance_whatever_the_query():
    policy = Policy()
    assert policy.question_weight > 0
    base = relevance(0.3, 0.2, policy)
    assert relevance(0.3, 0.2, policy, asks=1.0) == pytest.approx(base - policy.question_weight)
    assert relevance(0.9, 1.0, policy, entity=1.0, timed=1.0, asks=1.0) == pytest.approx(1.0 - policy.question_weight)
    assert relevance(-1.0, 0.0, policy, asks=1.0) == 0.0  # floored at 0
    statement = memory(kind=Kind.FACT, text="Ann went to a pottery class.")
    question = memory(kind=Kind.FACT, text="Bo: How was the pottery class?")
    cands = [Candidate(question, 0.402, 0.5, 0.0, 0.0, 1.0), Candidate(statement, 0.40, 0.5)]
    assert [h.memory.text for h in rank(cands, T0, policy, 2)] == [statement.text, question.text]
    off = replace(policy, question_weight=0.0)
    assert [h.memory.text for h in rank(cands, T0, off, 2)] == [question.text, statement.text]


@pytest.mark.parametrize("flt", [{}, {"kinds": ["fact"]}])
def test_a_memory_that_asks_is_lowered_alike_on_both_search_paths(real_system, minilm, flt):
    """The partition and the filtered path: the asking memory's relevance is exactly ``question_weight`` under what
    its cosine and keywords give; the one that tells is not lowered."""
    mem = real_system.scope("acme", "alex")
    asking, telling = "Did the user enjoy the pottery class?", "User enjoyed the pottery class."
    for text in (asking, telling):
        mem.remember(text, kind="fact", now=T0)
    hits = {h.memory.text: h.components for h in mem.search("pottery class", k=2, now=T0, refresh=False, **flt)}
    for text, lowered in ((asking, Policy().question_weight), (telling, 0.0)):
        c = hits[text]
        assert c["relevance"] == pytest.approx(max(0.0, relevance(c["cosine"], c["keyword"], Policy()) - lowered), abs=1e-6)
