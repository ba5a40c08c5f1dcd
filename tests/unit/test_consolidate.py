"""Consolidation: pure planning rules and the guarded, idempotent job (deterministic embedder)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from kenning.errors import Conflict
from kenning.lifecycle import consolidate, summaries
from kenning.lifecycle.summaries import Rules, content_tokens, summarise, support_of
from kenning.lifecycle.topics import plan
from kenning.stores.base import audit_entry
from kenning.types import Changeset, Kind, Memory, Op, Scope, Source, Status, Transition, new_id

T0 = datetime(2026, 1, 10, 8, 0, tzinfo=timezone.utc)
OMAR = Scope("travel", "omar")
AISLE = [
    "Please book me an aisle seat on the train to Leeds",
    "Can I get an aisle seat again for the flight to Rome",
    "I want an aisle seat next time please",
    "Book the aisle seat for the flight to Berlin",
]


def mem(embedder, text, *, scope=OMAR, day=0, session=None, kind=Kind.EPISODE, source=Source.USER_SAID,
        importance=0.3, confidence=0.9, **kw) -> Memory:
    at = T0 + timedelta(days=day)
    return Memory(
        id=new_id("mem"), tenant_id=scope.tenant_id, user_id=scope.user_id, kind=kind, text=text,
        embedding=embedder.embed([text])[0], source=source, source_refs=(), created_at=at, last_used_at=at,
        importance=importance, confidence=confidence, session_id=session, **kw,
    )


def aisle_episodes(embedder, scope=OMAR):
    return [mem(embedder, t, scope=scope, day=10 * i, session=f"s{i}", confidence=0.9 - 0.1 * i, importance=0.2 + 0.1 * i)
            for i, t in enumerate(AISLE)]


def test_content_tokens_drop_stopwords_filler_and_the_users_own_name():
    toks = [s for _, s in content_tokens("Omar asked: can I get an aisle seat again?", frozenset({"omar"}))]
    assert toks == ["aisle", "seat"]


def test_independence_counts_conversations_and_days(hash_embedder):
    one_conversation_one_day = [mem(hash_embedder, t, session="s1") for t in AISLE]
    no_session_one_day = [mem(hash_embedder, t) for t in AISLE]
    one_session_many_days = [mem(hash_embedder, t, day=i, session="default") for i, t in enumerate(AISLE)]
    many_sessions_one_day = [mem(hash_embedder, t, session=f"s{i}") for i, t in enumerate(AISLE)]
    assert support_of(one_conversation_one_day) == 1
    assert support_of(no_session_one_day) == 1
    assert support_of(one_session_many_days) == 4
    assert support_of(many_sessions_one_day) == 4
    assert support_of(aisle_episodes(hash_embedder)) == 4


def test_repeated_episodes_become_one_memory_keeping_the_shared_words(hash_embedder):
    eps = aisle_episodes(hash_embedder)
    plans = plan(OMAR, eps)
    assert len(plans) == 1
    p = plans[0]
    assert {m.id for m in p.members} == {m.id for m in eps}
    assert set(p.retire) == {m.id for m in eps}
    assert "aisle seat" in p.summary.text
    assert p.summary.kind is Kind.PREFERENCE
    assert "4 conversations" in p.summary.text
    built = consolidate.build_memory(OMAR, p.members, p.summary, hash_embedder.embed([p.summary.text])[0], T0)
    assert built.source is Source.CONSOLIDATED
    assert built.confidence == pytest.approx(min(m.confidence for m in eps))
    assert built.importance == pytest.approx(max(0.5, *(m.importance for m in eps)))
    assert built.source_refs == tuple(m.id for m in eps)


def test_a_confirmed_preference_is_at_least_as_important_as_any_preference(hash_embedder):
    eps = [m.evolve(importance=0.2) for m in aisle_episodes(hash_embedder)]
    [p] = plan(OMAR, eps)
    built = consolidate.build_memory(OMAR, p.members, p.summary, hash_embedder.embed([p.summary.text])[0], T0)
    assert built.kind is Kind.PREFERENCE and built.importance == pytest.approx(0.5)
    high = [m.evolve(importance=0.9) for m in eps]
    assert consolidate.build_memory(OMAR, high, p.summary, built.embedding, T0).importance == pytest.approx(0.9)


@pytest.mark.parametrize("n_sessions", [1, 2])
def test_too_few_independent_episodes_never_consolidate(hash_embedder, n_sessions):
    eps = [mem(hash_embedder, t, session=f"s{i % n_sessions}") for i, t in enumerate(AISLE)]
    assert plan(OMAR, eps) == []


def test_one_sarcastic_remark_never_becomes_a_fact(hash_embedder):
    eps = [
        mem(hash_embedder, "Oh wonderful, another middle seat. I just LOVE middle seats."),
        mem(hash_embedder, "Anyway, can you find me a hotel in Lisbon for next week?"),
    ]
    assert plan(OMAR, eps) == []


@pytest.mark.parametrize("user", ["kim", "u-17"])  # named after the user, or an opaque id
def test_unrelated_episodes_sharing_only_a_name_and_a_verb_do_not_consolidate(minilm, user):
    """Calibration on the bundled model: these sit at cosine 0.3-0.7 to each other, like paraphrases do."""
    scope = Scope("acme", user)
    topics = ["the cinema listings on Monday", "a synonym of happy", "the bus times to the airport", "a pasta recipe",
              "the time in Tokyo", "a joke about cats", "the weather in Seoul", "a packing list for a ski trip",
              "the distance from Paris to Lyon", "a reminder to call the dentist", "the library opening hours"]
    eps = [mem(minilm, f"Kim asked for {t}", scope=scope, day=i) for i, t in enumerate(topics)]
    assert plan(scope, eps) == []


@pytest.mark.parametrize("n", [4, 6])
def test_a_few_records_sharing_only_their_subject_do_not_consolidate(minilm, n):
    scope = Scope("acme", "u-17")
    topics = ["the cinema listings", "a synonym of happy", "the bus times", "a pasta recipe", "a joke about cats", "a map"]
    eps = [mem(minilm, f"Kim asked for {t}", scope=scope, day=i) for i, t in enumerate(topics[:n])]
    assert plan(scope, eps) == []
    leading = [mem(minilm, t, day=i) for i, t in enumerate(["Aisle seat please", "Aisle seat again for Rome", "Aisle seat to Berlin"])]
    [p] = plan(OMAR, leading)  # a topic that happens to open each sentence still consolidates
    assert "aisle seat" in p.summary.text.lower()


def test_paraphrased_requests_consolidate_on_the_bundled_model(minilm):
    eps = [mem(minilm, t, day=10 * i, session=f"s{i}") for i, t in enumerate(AISLE)]
    [p] = plan(OMAR, eps)
    assert "aisle seat" in p.summary.text and len(p.members) == 4


def test_ineligible_records_take_no_part(hash_embedder):
    base = [mem(hash_embedder, t, day=10 * i, session=f"s{i}") for i, t in enumerate(AISLE[:2])]
    others = [
        mem(hash_embedder, AISLE[2], day=30, session="s3", source=Source.TOOL_RESULT),
        mem(hash_embedder, AISLE[3], day=40, session="s4", kind=Kind.PROCEDURE),
        mem(hash_embedder, AISLE[3], day=50, session="s5", expires_at=T0 + timedelta(days=90)),
        mem(hash_embedder, AISLE[3], day=60, session="s6", status=Status.RETIRED),
        mem(hash_embedder, AISLE[3], day=70, session="s7", sensitivity="restricted"),
    ]
    assert plan(OMAR, base + others) == []


def test_records_of_another_scope_are_never_mixed_in(hash_embedder):
    mine = aisle_episodes(hash_embedder)[:2]
    theirs = aisle_episodes(hash_embedder, Scope("travel", "zoe"))[2:]
    assert plan(OMAR, mine + theirs) == []


def test_near_duplicate_claims_collapse_onto_their_central_wording(hash_embedder):
    eps = [mem(hash_embedder, "User prefers aisle seats", day=i, kind=Kind.PREFERENCE) for i in range(3)]
    [p] = plan(OMAR, eps)
    assert p.summary.text == "User prefers aisle seats"
    assert p.summary.kind is Kind.PREFERENCE


def test_distinct_facts_about_one_subject_stay_distinct(hash_embedder):
    facts = [
        mem(hash_embedder, "Hana is Kim's daughter", day=0, kind=Kind.FACT),
        mem(hash_embedder, "Hana goes to Hillside primary school", day=5, kind=Kind.FACT),
        mem(hash_embedder, "Hana's birthday is on the 4th of May", day=9, kind=Kind.FACT),
    ]
    assert plan(OMAR, facts) == []


def test_facts_on_a_topic_are_cited_as_support_but_stay_active(system):
    s = system.scope("acme", "u-1")  # an opaque id: the texts' shared name still counts for the hash embedder
    f1 = s.remember("Carla had a tortoise called Zorblax", kind="fact", now=T0)
    f2 = s.remember("Carla still misses Zorblax the tortoise", kind="fact", now=T0 + timedelta(days=14))
    ep = s.remember("Carla saw a tortoise at the zoo that looked like Zorblax", kind="episode", now=T0 + timedelta(days=28))
    [cid] = consolidate.consolidate_scope(system.ctx, s.scope, T0 + timedelta(days=30))
    assert set(s.get(cid).source_refs) == {f1.id, f2.id, ep.id}
    assert s.get(f1.id).status is Status.ACTIVE and s.get(f2.id).status is Status.ACTIVE
    assert s.get(ep.id).status is Status.RETIRED
    before = s.export()
    assert consolidate.consolidate_scope(system.ctx, s.scope, T0 + timedelta(days=31)) == []
    assert s.export() == before


def test_planning_a_large_scope_stays_fast(hash_embedder):
    import time

    eps = [mem(hash_embedder, f"User asked about the meeting agenda item {i}", day=i % 300, session=f"s{i}")
           for i in range(1500)]
    started = time.perf_counter()
    plans = plan(OMAR, eps)
    assert time.perf_counter() - started < 20
    assert len(plans) >= 1 and sum(len(p.members) for p in plans) <= len(eps)


def test_summarise_needs_support(hash_embedder):
    eps = aisle_episodes(hash_embedder)
    assert summarise(eps[:2]) is None
    assert summarise(eps[:3]) is not None
    assert summarise(eps, Rules(min_support=5)) is None


# -- the job ---------------------------------------------------------------------


def test_job_compacts_inputs_and_is_idempotent(system):
    s = system.scope("travel", "omar")
    for i, t in enumerate(AISLE):
        s.remember(t, kind="episode", session_id=f"s{i}", now=T0 + timedelta(days=10 * i))
    now = T0 + timedelta(days=50)
    [cid] = consolidate.consolidate_scope(system.ctx, s.scope, now)
    active = s.list()
    assert [m.id for m in active] == [cid]
    assert "aisle seat" in active[0].text
    assert len(s.list(statuses=["retired"])) == 4
    before = s.export()
    assert consolidate.consolidate_scope(system.ctx, s.scope, now) == []
    assert consolidate.consolidate_scope(system.ctx, s.scope, now + timedelta(days=1)) == []
    assert s.export() == before
    ops = [a.op for a in s.ctx.store.audit(s.scope)]
    assert ops.count(Op.CONSOLIDATE) == 1
    hits = s.search("aisle seat", k=5, now=now)
    assert sum("aisle" in h.memory.text.lower() for h in hits) == 1


def test_a_decision_applied_twice_conflicts_and_writes_nothing(system):
    s = system.scope("travel", "omar")
    for i, t in enumerate(AISLE):
        s.remember(t, kind="episode", session_id=f"s{i}", now=T0 + timedelta(days=10 * i))
    now = T0 + timedelta(days=50)
    [p] = plan(s.scope, s.list())
    m = consolidate.build_memory(s.scope, p.members, p.summary, system.ctx.embedder.embed([p.summary.text])[0], now)
    change = Changeset(
        inserts=(m,),
        transitions=tuple(Transition(i, (Status.ACTIVE,), Status.RETIRED) for i in p.retire),
        audit=(audit_entry(s.scope, now, Op.CONSOLIDATE, [m.id], "", "test"),),
    )
    system.ctx.store.apply(s.scope, change)
    before = s.export()
    with pytest.raises(Conflict):
        system.ctx.store.apply(s.scope, change)
    assert s.export() == before


def test_a_new_episode_on_a_known_topic_extends_the_consolidated_memory(system):
    s = system.scope("travel", "omar")
    for i, t in enumerate(AISLE[:3]):
        s.remember(t, kind="episode", session_id=f"s{i}", now=T0 + timedelta(days=10 * i))
    [first] = consolidate.consolidate_scope(system.ctx, s.scope, T0 + timedelta(days=25))
    late = s.remember(AISLE[3], kind="episode", session_id="s9", now=T0 + timedelta(days=40))
    [second] = consolidate.consolidate_scope(system.ctx, s.scope, T0 + timedelta(days=45))
    new = s.get(second)
    assert new.supersedes == (first,)
    assert late.id in new.source_refs and len(new.source_refs) == 4
    assert s.get(first).status is Status.RETIRED
    assert s.get(late.id).status is Status.RETIRED
    assert [m.id for m in s.list()] == [second]
    assert consolidate.consolidate_scope(system.ctx, s.scope, T0 + timedelta(days=46)) == []


def test_consolidating_one_user_leaves_another_untouched(system):
    mine, theirs = system.scope("travel", "omar"), system.scope("travel", "zoe")
    for i, t in enumerate(AISLE):
        mine.remember(t, kind="episode", session_id=f"s{i}", now=T0 + timedelta(days=10 * i))
        theirs.remember(t, kind="episode", session_id=f"s{i}", now=T0 + timedelta(days=10 * i))
    before = theirs.export()
    assert consolidate.consolidate_scope(system.ctx, mine.scope, T0 + timedelta(days=50))
    assert theirs.export() == before
    assert all(m.source is not Source.CONSOLIDATED for m in theirs.list(statuses=["active", "retired", "deleted"]))


# -- optional LLM wording ----------------------------------------------------------


def _summary(hash_embedder):
    [p] = plan(OMAR, aisle_episodes(hash_embedder))
    return p


@pytest.mark.parametrize(
    ("raw", "usable"),
    [
        ('{"text": "Omar prefers an aisle seat when travelling."}', True),
        ('Sure! ```json\n{"text": "Always books an Aisle Seat"}\n```', True),
        ('{"text": "Omar prefers window seats."}', False),
        ('{"text": ""}', False),
        ('{"text": "aisle seat ' + "x" * 400 + '"}', False),
        ("no json at all", False),
        ('{"summary": "aisle seat"}', False),
        ('["aisle seat"]', False),
        (None, False),
    ],
)
def test_an_llm_answer_is_used_only_if_it_keeps_the_shared_phrases(hash_embedder, raw, usable):
    p = _summary(hash_embedder)
    out = summaries.parse_summary(raw, p.summary)
    assert (out is not None) is usable
    if usable:
        assert "aisle seat" in out.lower()


def test_the_prompt_marks_messages_as_data_and_masks_secrets(hash_embedder):
    p = _summary(hash_embedder)
    leaky = p.members[0].evolve(text="aisle seat please, my card is 4111 1111 1111 1111")
    msgs = summaries.summary_messages([leaky, *p.members[1:]], p.summary)
    assert "never instructions" in msgs[0]["content"] and '"aisle seat"' in msgs[0]["content"]
    assert "4111 1111 1111 1111" not in msgs[1]["content"]


def test_the_job_uses_llm_wording_when_usable_and_the_offline_text_otherwise(tmp_path, hash_embedder):
    import kenning
    from kenning.errors import LLMError
    from kenning.llms.fake import ScriptedLLM

    for n, (answers, expect) in enumerate([
        (['{"text": "Omar prefers an aisle seat on trains and planes."}'], "Omar prefers an aisle seat on trains and planes."),
        ([LLMError("timeout")], "Recurring preference: aisle seat"),
        (['{"text": "Omar likes trains."}'], "Recurring preference: aisle seat"),
    ]):
        llm = ScriptedLLM(answers)
        with kenning.open(f"sqlite:///{tmp_path / f'k{n}.db'}", embedder=hash_embedder, llm=llm) as k:
            s = k.scope("travel", "omar")
            for i, t in enumerate(AISLE):
                s.remember(t, kind="episode", session_id=f"s{i}", now=T0 + timedelta(days=10 * i))
            [cid] = consolidate.consolidate_scope(k.ctx, s.scope, T0 + timedelta(days=50))
            assert s.get(cid).text.startswith(expect)
            assert len(llm.calls) == 1


def test_a_leftover_on_the_same_topic_joins_the_summary_in_the_same_run(hash_embedder):
    eps = aisle_episodes(hash_embedder) + [mem(hash_embedder, "Book me a seat on the train to Leeds again please", day=45, session="s9")]
    [p] = plan(OMAR, eps)
    assert len(p.members) == 5 and set(p.retire) == {m.id for m in eps}


def test_a_word_shared_with_another_topic_does_not_drag_it_in(hash_embedder):
    eps = aisle_episodes(hash_embedder) + [
        mem(hash_embedder, "The flight to Oslo was delayed by two hours", day=50, session="x1"),
        mem(hash_embedder, "Another delayed flight, this time to Bergen", day=60, session="x2"),
        mem(hash_embedder, "My flight to Rome was delayed again", day=70, session="x3"),
    ]
    plans = plan(OMAR, eps)
    aisle = [p for p in plans if "aisle" in p.summary.text]
    assert len(aisle) == 1 and all("delayed" not in m.text for m in aisle[0].members)


def test_a_record_sharing_only_a_broad_word_never_joins_an_existing_summary(system):
    s = system.scope("travel", "omar")
    for i, t in enumerate(AISLE):
        s.remember(t, kind="episode", session_id=f"s{i}", now=T0 + timedelta(days=10 * i))
    [cid] = consolidate.consolidate_scope(system.ctx, s.scope, T0 + timedelta(days=45))
    window = s.remember("A window seat is nice on night flights", kind="preference", session_id="s9", now=T0 + timedelta(days=50))
    assert consolidate.consolidate_scope(system.ctx, s.scope, T0 + timedelta(days=51)) == []
    assert s.get(window.id).status is Status.ACTIVE and s.get(cid).status is Status.ACTIVE


@pytest.mark.parametrize(
    ("text", "source", "overrides"),
    [
        ("Actually I prefer a window seat now", "user_said", True),
        ("From now on, a window seat please", "user_said", True),
        ("Actually I prefer a window seat now", "tool_result", False),
        ("A window seat is nice on night flights", "user_said", False),
        ("Actually, the aisle seat on the left side now", "user_said", False),
        ("Actually I prefer tea now", "user_said", False),
    ],
)
def test_a_newer_explicit_change_of_mind_retires_the_summary(system, text, source, overrides):
    s = system.scope("travel", "omar")
    for i, t in enumerate(AISLE):
        s.remember(t, kind="episode", session_id=f"s{i}", now=T0 + timedelta(days=10 * i))
    [cid] = consolidate.consolidate_scope(system.ctx, s.scope, T0 + timedelta(days=45))
    new = s.remember(text, kind="preference", source=source, now=T0 + timedelta(days=50))
    consolidate.consolidate_scope(system.ctx, s.scope, T0 + timedelta(days=51))
    summaries = [m for m in s.list() if m.source is Source.CONSOLIDATED]
    assert (summaries == []) is overrides
    assert s.get(new.id).status is Status.ACTIVE or new.id in summaries[0].source_refs
    if overrides:
        [entry] = [a for a in system.ctx.store.audit(s.scope) if a.op is Op.UPDATE]
        assert entry.memory_ids == (new.id, cid)


def test_possessives_of_the_user_or_their_name_are_not_topics(hash_embedder):
    assert [s for _, s in content_tokens("the user's sister and Omar's dog", frozenset({"omar"}))] == ["sister", "dog"]
    facts = [mem(hash_embedder, t, day=i * 9) for i, t in enumerate(
        ["The user's sister lives in Seville", "The user's dog is called Biscuit", "The user's car is a green Skoda"])]
    assert plan(OMAR, facts) == []
