"""The chatter model: its fitting, the shipped weights with the real bundled embedder, and what the write path
does with a claim it marks (never stored as new, still allowed to change a memory)."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import numpy as np
import pytest

import kenning
from kenning.config import Settings
from kenning.lifecycle import reconcile
from kenning.lifecycle.extraction import chatter
from kenning.lifecycle.retrieve import impersonal
from kenning.types import Decision, Kind, Memory, Op, Source, Status

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


def test_fit_separates_a_learnable_rule_deterministically():
    rng = np.random.default_rng(7)
    x = rng.normal(size=(400, 5))
    y = (x[:, 0] - 0.5 * x[:, 3] > 0).astype(float)
    w1, b1 = chatter.fit(x, y, l2=0.1)
    w2, b2 = chatter.fit(x, y, l2=0.1)
    assert np.array_equal(w1, w2) and b1 == b2
    model = chatter.Model("m", w1, b1, {})
    p = model.score(x)
    assert ((p >= 0.5) == (y == 1)).mean() > 0.95
    assert np.argmax(np.abs(w1)) == 0 and w1[3] < 0


def test_weights_round_trip_through_json():
    model = chatter.Model("m", np.array([0.25, -1.5]), 0.125, {"trained_on": ["dev"]})
    again = chatter.from_json(json.loads(json.dumps(model.to_json())))
    assert again.model_id == "m" and again.meta == {"trained_on": ["dev"]}
    assert np.allclose(again.weights, model.weights) and again.bias == model.bias


def test_shipped_weights_fit_the_bundled_embedder(minilm):
    model = chatter.bundled()
    assert model is not None and model.model_id == minilm.model_id
    surface = chatter.surface("User is 34.", Kind.FACT, hedged=False, source=Source.USER_SAID)
    assert len(model.weights) == minilm.dim + len(surface)
    assert not {"val", "test"} & set(model.meta["trained_on"])  # held-out sets are never trained on


def _scores(minilm, items):
    model = chatter.bundled()
    vectors = minilm.embed([impersonal(t, {"user"}) for t, _ in items], "document")
    return [float(model.score(chatter.features(v, t, k, hedged=False, source=Source.USER_SAID))) for (t, k), v in zip(items, vectors)]


def test_shipped_model_tells_small_talk_from_facts_in_new_wording(minilm):
    # sentences written for this test, in none of the corpora the model was trained on
    talk = [("Cheers for the chat.", Kind.FACT), ("Have a lovely evening.", Kind.FACT), ("User asked: thoughts.", Kind.EPISODE)]
    facts = [("User works as a plumber in Leeds.", Kind.FACT), ("User's daughter Mia is 7.", Kind.FACT),
             ("User drives a 2015 Honda Jazz.", Kind.FACT), ("User went to a concert in Cardiff last night.", Kind.EPISODE)]
    cutoff = Settings.model_construct().chatter_cutoff
    assert min(_scores(minilm, talk)) >= cutoff
    assert max(_scores(minilm, facts)) < cutoff


def _memory(text: str, **kw) -> Memory:
    base = dict(id="c", tenant_id="t", user_id="u", kind=Kind.FACT, text=text, embedding=None, source=Source.USER_SAID,
                source_refs=(), created_at=T0, last_used_at=T0, importance=0.5, confidence=0.9, status=Status.PROVISIONAL)
    return Memory(**{**base, **kw})


def test_a_marked_claim_is_never_added_but_may_still_change_a_memory():
    marked = _memory("User finally got off nights!!", metadata={chatter.MARK: 0.61})
    old = _memory("User works nights.", id="old", status=Status.ACTIVE)
    add = Decision(Op.ADD, None, None, reconcile.NEW)
    assert reconcile.unless_chatter(add, marked, {}).op is Op.NOOP
    assert reconcile.unless_chatter(add, marked, {}).reason == reconcile.CHATTER
    update = Decision(Op.UPDATE, "old", None, reconcile.CHANGED)
    assert reconcile.unless_chatter(update, marked, {"old": old}) == update
    unmarked = _memory("User is 34.")
    assert reconcile.unless_chatter(add, unmarked, {}) == add


def _turn_memories(system: kenning.Kenning, text: str) -> list[str]:
    mem = system.scope("t1", "maya")
    mem.add([{"role": "user", "content": text}], now=T0, wait=True)
    return [m.text for m in mem.list()]


def test_write_path_leaves_out_small_talk_and_keeps_the_facts(tmp_path, minilm):
    system = kenning.open(f"sqlite:///{tmp_path / 'k.db'}", embedder=minilm)
    try:
        texts = _turn_memories(system, "i'm a plumber in leeds and my daughter mia is 7. i've got loads of gossip for you")
        audit = system.ctx.store.audit(system.scope("t1", "maya").scope)
    finally:
        system.close()
    assert any("plumber" in t for t in texts) and any("mia" in t.lower() for t in texts), texts
    assert not any("gossip" in t.lower() for t in texts), texts
    # what was left out is accounted for: a NOOP with the chatter reason, the claim retired, not lost silently
    assert any(a.op is Op.NOOP and reconcile.CHATTER in (a.reason or "") for a in audit)


@pytest.mark.parametrize("how", ["cutoff", "embedder"])
def test_without_the_model_every_claim_is_kept(tmp_path, minilm, hash_embedder, how):
    settings = Settings.model_construct(chatter_cutoff=1.0) if how == "cutoff" else Settings.model_construct()
    embedder = minilm if how == "cutoff" else hash_embedder  # weights for one model never score another's vectors
    system = kenning.open(f"sqlite:///{tmp_path / 'k.db'}", embedder=embedder, settings=settings)
    try:
        texts = _turn_memories(system, "i'm a plumber in leeds. i've got loads of gossip for you")
    finally:
        system.close()
    assert any("plumber" in t for t in texts)
    assert any("gossip" in t.lower() for t in texts), texts


SCENARIO = """
name: chatter-runner
tags: [extraction]
user: maya
steps:
  - say: "i'm a plumber in leeds. i've got loads of gossip for you"
    at: 2026-03-02T20:15:00Z
  - memories:
      claims:
        - {contains: [plumber]}
"""


def test_runner_passes_settings_and_shows_each_memories_step(tmp_path, minilm):
    from kenning.evals.runner import Runner
    from kenning.evals.scenario import load_path

    (tmp_path / "s.yaml").write_text(SCENARIO)
    scenarios = load_path(tmp_path)
    for cutoff, small_talk_kept in ((1.0, True), (0.5, False)):
        seen = []
        report = Runner(minilm, settings={"chatter_cutoff": cutoff}, on_memories=lambda sc, step, active: seen.append([m.text for m in active])).run(scenarios)
        assert report["metrics"]["claim_recall"] == 1.0
        [texts] = seen
        assert any("plumber" in t for t in texts)
        assert any("gossip" in t.lower() for t in texts) is small_talk_kept, texts


def test_write_path_keeps_a_lasting_quality_the_model_would_take_for_a_mood(tmp_path, minilm):
    system = kenning.open(f"sqlite:///{tmp_path / 'k.db'}", embedder=minilm)
    try:
        texts = _turn_memories(system, "I'm left-handed.")
    finally:
        system.close()
    assert texts == ["User is left-handed."], texts
    assert not chatter.scored(Kind.FACT, {"subject": "user", "quality": True}, recognised=False)


def test_a_tool_result_is_never_scored_as_chit_chat():
    assert not chatter.scored(Kind.EPISODE, {}, recognised=False, source=Source.TOOL_RESULT)
    assert chatter.scored(Kind.EPISODE, {}, recognised=False, source=Source.USER_SAID)


def test_a_claim_said_as_a_change_is_never_scored_as_chit_chat():
    assert not chatter.scored(Kind.FACT, {"subject": "user", "change": True}, recognised=False)
