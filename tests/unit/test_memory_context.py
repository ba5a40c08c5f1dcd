"""``remember(context=...)``: the text stays as given, the vector and (at a discount) keyword evidence take in the context."""

from __future__ import annotations

import numpy as np
import pytest

import kenning
from kenning.context import CONTEXT_BLEND
from kenning.errors import ValidationError
from kenning.lifecycle import retrieve
from kenning.lifecycle.retrieve import Policy

from ..conftest import T0

CONTEXT = "Melanie: How was the jazz concert in Lisbon last week?"
TEXT = "Caroline: Yes, it was amazing!"


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def test_context_keeps_the_text_and_blends_the_vector(system):
    mem = system.scope("acme", "caroline")
    m = mem.remember(TEXT, context=f"  {CONTEXT} ", metadata={"turn": "D1:2"}, now=T0)
    plain = mem.remember(TEXT, now=T0)
    stored = mem.get(m.id)
    assert stored.text == TEXT
    assert stored.metadata == {"turn": "D1:2", "context": CONTEXT}
    alone = system.ctx.embed_documents(mem.scope, [TEXT])[0]
    joined = system.ctx.embed_documents(mem.scope, [f"{CONTEXT}\n{TEXT}"])[0]
    np.testing.assert_allclose(stored.embedding, _unit(CONTEXT_BLEND * alone + (1 - CONTEXT_BLEND) * joined), atol=1e-6)
    assert float(stored.embedding @ alone) < 0.99  # the context moved the vector
    # Without a context nothing changes: the text's own vector, no metadata key.
    np.testing.assert_array_equal(mem.get(plain.id).embedding, alone)
    assert "context" not in mem.get(plain.id).metadata


def test_blank_context_means_none(system):
    mem = system.scope("acme", "caroline")
    m = mem.remember(TEXT, context="   ", now=T0)
    assert "context" not in m.metadata
    np.testing.assert_array_equal(m.embedding, system.ctx.embed_documents(mem.scope, [TEXT])[0])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"context": 42},
        {"context": ["Melanie: hi"]},
        {"context": "x" * 4001},
        {"context": CONTEXT, "metadata": {"context": "something else"}},
        {"metadata": {"context": CONTEXT}},
    ],
)
def test_bad_context_raises_and_writes_nothing(system, kwargs):
    mem = system.scope("acme", "caroline")
    with pytest.raises(ValidationError):
        mem.remember(TEXT, now=T0, **kwargs)
    assert mem.count() == 0
    assert system.ctx.store.audit(mem.scope) == []


def test_embed_documents_wants_one_context_per_text(system):
    with pytest.raises(ValidationError):
        system.ctx.embed_documents(system.scope("acme", "caroline").scope, [TEXT, TEXT], [CONTEXT])


def test_export_import_round_trips_context_and_vector(system, tmp_path, hash_embedder):
    mem = system.scope("acme", "caroline")
    m = mem.remember(TEXT, context=CONTEXT, now=T0)
    doc = mem.export()
    with kenning.open(f"sqlite:///{tmp_path / 'other.db'}", embedder=hash_embedder) as other:
        into = other.scope("acme", "caroline")
        assert into.import_(doc) >= 1
        back = into.get(m.id)
        assert back.text == TEXT and back.metadata["context"] == CONTEXT
        np.testing.assert_allclose(back.embedding, m.embedding, atol=1e-6)
        # Re-embedding from the record alone reproduces the vector.
        again = other.ctx.embed_documents(into.scope, [back.text], [back.metadata["context"]])[0]
        np.testing.assert_allclose(again, m.embedding, atol=1e-6)


def test_update_keeps_the_context_in_the_new_vector(system):
    mem = system.scope("acme", "caroline")
    m = mem.remember(TEXT, context=CONTEXT, now=T0)
    new = mem.update(m.id, text="Caroline: Yes, it was wonderful!", now=T0)
    assert new.metadata["context"] == CONTEXT
    expected = system.ctx.embed_documents(mem.scope, ["Caroline: Yes, it was wonderful!"], [CONTEXT])[0]
    np.testing.assert_allclose(new.embedding, expected, atol=1e-6)


def test_context_words_count_as_keyword_evidence_at_a_discount():
    q = retrieve.terms("jazz concert Lisbon")
    texts = ["Yes, it was amazing!", "The jazz concert was loud", "I fixed my bike"]
    contexts = ["How was the jazz concert in Lisbon?", None, 7]  # a non-string context counts as none
    plain = retrieve.keyword_scores(q, texts)
    assert retrieve.keyword_scores(q, texts, contexts, 0.0) == plain
    half = retrieve.keyword_scores(q, texts, contexts, 0.5)
    full = retrieve.keyword_scores(q, texts, contexts, 1.0)
    assert plain[0] == 0.0 and half[0] == pytest.approx(0.5 * full[0]) and full[0] == pytest.approx(1.0)
    assert half[1:] == plain[1:]  # words the text holds itself are not counted twice; no context, no change


def test_search_uses_context_words_at_the_policy_discount(system):
    mem = system.scope("acme", "caroline")
    m = mem.remember(TEXT, context=CONTEXT, now=T0)
    mem.remember("Caroline: I fixed my bike on Sunday", now=T0)
    hit = next(h for h in mem.search("jazz concert Lisbon", k=5, now=T0, refresh=False) if h.memory.id == m.id)
    assert hit.components["keyword"] == pytest.approx(Policy().context_keyword_weight)


def test_context_does_not_cross_scopes(system):
    mine = system.scope("acme", "caroline")
    theirs = system.scope("acme", "melanie")
    other_tenant = system.scope("globex", "caroline")
    mine.remember(TEXT, context=CONTEXT, now=T0)
    assert theirs.search("jazz concert Lisbon", k=5, now=T0) == []
    assert other_tenant.search("jazz concert Lisbon", k=5, now=T0) == []


def test_context_lifts_a_reply_for_the_question_it_answers(real_system):
    """With the bundled model, "Yes, it was amazing!" only means something next to the question it answers."""
    others = [
        "Caroline: I play jazz piano on weekends",
        "Caroline: I have never been to Portugal",
        "Caroline: The hiking trip with my kids was fun",
        "Caroline: My sister moved to Denver",
    ]
    hits = {}
    for name, ctx in (("plain", None), ("situated", CONTEXT)):
        mem = real_system.scope("acme", name)
        for o in others:
            mem.remember(o, now=T0)
        mem.remember(TEXT, context=ctx, now=T0)
        hits[name] = mem.search("Did Caroline enjoy the jazz concert?", k=5, now=T0, refresh=False)
    assert hits["plain"][0].memory.text == "Caroline: I play jazz piano on weekends"
    assert hits["situated"][0].memory.text == TEXT
    cos = {name: next(h.components["cosine"] for h in hs if h.memory.text == TEXT) for name, hs in hits.items()}
    assert cos["situated"] > cos["plain"] + 0.05


def test_locomo_context_is_the_previous_turns_of_the_same_session():
    from kenning.evals.locomo import Turn, with_context

    turns = [Turn(f"D{s}:{i}", f"text {s}.{i} (date)", T0) for s, i in ((1, 1), (1, 2), (1, 3), (2, 1))]
    lines = ["A: one", "B: two", "A: three", "B: four"]
    got = with_context(turns, lines, [1, 1, 1, 2], 2)
    assert [g.context for g in got] == [None, "A: one", "A: one\nB: two", None]
    assert [g.text for g in got] == [t.text for t in turns]
    assert [g.context for g in with_context(turns, lines, [1, 1, 1, 2], 0)] == [None] * 4
