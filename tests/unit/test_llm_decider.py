"""The LLM decider against a scripted OpenAI-compatible server on 127.0.0.1: good, malformed,
hallucinated-id, slow and failing answers. Bounded retry, then the candidate stays provisional;
nothing is ever dropped or corrupted. Plus the pure answer parser on hostile output."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest

import kenning
from kenning.config import Settings
from kenning.errors import LLMError
from kenning.lifecycle import write
from kenning.lifecycle.reconcile import Neighbour
from kenning.llms import LLMDecider, OpenAIChat, RulesDecider, ScriptedLLM, build_decider
from kenning.llms.parse import INVENTED, MalformedAnswer, parse_decision
from kenning.llms.prompts import reconcile_messages
from kenning.types import Op, Status
from tests.unit.scripted_server import Script, serve

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
T1 = T0 + timedelta(days=30)


@pytest.fixture
def server() -> Iterator[tuple[str, Script]]:
    script = Script()
    with serve(script) as url:
        yield url, script


@pytest.fixture
def llm_system(tmp_path, hash_embedder, server):
    url, script = server
    llm = OpenAIChat(url, "test-model", "sk-test-not-a-real-key-000000", timeout_s=0.5)
    settings = Settings.model_construct(llm_retries=1, llm_extract=False)  # the decider alone; extraction: test_llm_extract
    k = kenning.open(f"sqlite:///{tmp_path / 'llm.db'}", embedder=hash_embedder, llm=llm, settings=settings)
    yield k, script
    k.close()
    llm.close()


def _seed(k):
    """One active memory (added while the server answers ADD) and a provisional candidate about the same thing."""
    mem = k.scope("acme", "alice")
    old = mem.remember("User lives in Leeds.", now=T0)
    (cap,) = mem.add("We moved from Leeds to York last weekend.", now=T1, wait=False).ids
    (cid,), _ = write.extract_capture(k.ctx, mem.scope, cap, T1)  # the claim, provisional, awaiting its decision
    return mem, old, cid


def _content(op, target=None, text=None):
    return json.dumps({"op": op, "target": target, "text": text})


def test_good_answer_updates_with_supersedes(llm_system):
    k, script = llm_system
    mem, old, cid = _seed(k)
    script.answers = [("content", _content("UPDATE", 1, "User lives in York (moved from Leeds)."))]
    assert mem.maintain(now=T1)["reconciled"] == 1
    (new,) = mem.list()
    assert new.text == "User lives in York (moved from Leeds)." and new.supersedes == (old.id,)
    assert mem.get(old.id).status is Status.RETIRED
    assert len(script.requests) == 1


def test_prompt_uses_aliases_and_never_real_ids_or_secrets(llm_system):
    k, script = llm_system
    mem, old, cid = _seed(k)
    script.answers = [("content", _content("ADD"))]
    mem.maintain(now=T1)
    (req,) = script.requests
    sent = json.dumps(req)
    assert "mem_" not in sent and old.id not in sent and cid not in sent
    assert "1. [" in req["messages"][1]["content"]
    assert req["model"] == "test-model" and req["temperature"] == 0
    assert req["response_format"] == {"type": "json_object"}
    assert script.headers[0]["Authorization"] == "Bearer sk-test-not-a-real-key-000000"


def test_server_rejecting_response_format_is_asked_again_without_it(llm_system):
    k, script = llm_system
    mem, old, cid = _seed(k)
    script.answers = [("status", 400), ("content", _content("UPDATE", 1))]
    mem.maintain(now=T1)
    assert "response_format" in script.requests[0] and "response_format" not in script.requests[1]
    assert mem.get(old.id).status is Status.RETIRED


def test_malformed_then_good_is_retried_once(llm_system):
    k, script = llm_system
    mem, old, cid = _seed(k)
    script.answers = [("content", "Sure! I think you should update memory one."), ("content", _content("UPDATE", 1))]
    mem.maintain(now=T1)
    assert len(script.requests) == 2
    assert [m.text for m in mem.list()] == ["User lives in York (moved from Leeds to York on the weekend of Saturday 31 January 2026)."]


@pytest.mark.parametrize(
    "answers",
    [
        [("content", "not json"), ("content", "{still not json")],
        [("raw", "<html>502 bad gateway</html>"), ("raw", '{"choices": []}')],
        [("status", 500), ("status", 429)],
        [("slow", 0.9), ("slow", 0.9)],
    ],
    ids=["malformed", "garbage-body", "http-errors", "timeout"],
)
def test_failing_llm_keeps_candidate_provisional_and_changes_nothing(llm_system, answers):
    k, script = llm_system
    mem, old, cid = _seed(k)
    script.answers = list(answers)
    before = {m.id: (m.status, m.text) for m in mem.list(statuses=["active", "provisional", "retired"])}
    report = mem.maintain(now=T1)
    assert report["reconciled"] == 0
    assert len(script.requests) == 2  # 1 try + llm_retries=1, bounded
    after = {m.id: (m.status, m.text) for m in mem.list(statuses=["active", "provisional", "retired"])}
    assert after == before  # nothing dropped, nothing corrupted
    assert mem.get(cid).status is Status.PROVISIONAL
    assert [a.reason for a in k.ctx.store.audit(mem.scope, cid)][-1] == write.DEFERRED


def test_after_repeated_failures_the_rules_decide(llm_system):
    k, script = llm_system
    mem, old, cid = _seed(k)
    for i in range(write.MAX_DEFERRALS):
        script.answers = [("content", "nope"), ("content", "nope")]
        mem.maintain(now=T1 + timedelta(hours=i))
    assert mem.get(cid).status is not Status.PROVISIONAL
    assert [m.text for m in mem.list()] == ["User lives in York (moved from Leeds to York on the weekend of Saturday 31 January 2026)."]
    assert mem.get(old.id).status is Status.RETIRED


def test_hallucinated_id_becomes_add_and_touches_nothing(llm_system):
    k, script = llm_system
    mem, old, cid = _seed(k)
    script.answers = [("content", _content("DELETE", 42))]
    # reconciliation alone: maintain() would go on to repair the two homes this leaves (lifecycle.repair)
    write.reconcile_pending(k.ctx, mem.scope, T1)
    assert mem.get(old.id).status is Status.ACTIVE
    assert mem.get(cid).status is Status.ACTIVE


def test_real_id_smuggled_in_as_target_is_not_honoured(llm_system):
    k, script = llm_system
    mem, old, cid = _seed(k)
    script.answers = [("content", json.dumps({"op": "DELETE", "target": old.id}))]
    write.reconcile_pending(k.ctx, mem.scope, T1)  # reconciliation alone, as above
    assert mem.get(old.id).status is Status.ACTIVE


def test_llm_cannot_let_a_tool_result_retire_what_the_user_said(llm_system):
    k, script = llm_system
    mem = k.scope("food", "priya")
    said = mem.remember("User is vegetarian.", now=T0)
    mem.add([{"role": "tool", "name": "orders", "content": "Order 5512 for Priya: 2x beef burger."}], now=T1, wait=False)
    script.answers = [("content", _content("DELETE", 1))]
    mem.maintain(now=T1)
    assert mem.get(said.id).status is Status.ACTIVE


def test_no_neighbours_means_no_call(llm_system):
    k, script = llm_system
    mem = k.scope("acme", "new")
    mem.add("I live in Leeds.", now=T0, wait=True)
    assert script.requests == [] and mem.count() == 1


# -- the parser, on hostile output ---------------------------------------------------

ALIASES = {1: "mem_a", 2: "mem_b"}


@pytest.mark.parametrize(
    "raw, op, target",
    [
        ('{"op": "ADD"}', Op.ADD, None),
        ('{"op": "update", "target": 2, "text": "x"}', Op.UPDATE, "mem_b"),
        ('```json\n{"op": "DELETE", "target": "1"}\n```', Op.DELETE, "mem_a"),
        ('Here you go: {"op": "NOOP", "target": 1} hope that helps', Op.NOOP, "mem_a"),
        ('{"op": "UPDATE", "target": 7}', Op.UPDATE, INVENTED),
        ('{"op": "NOOP", "target": 9}', Op.NOOP, None),
        ('{"operation": "DELETE", "target_id": "#2"}', Op.DELETE, "mem_b"),
    ],
)
def test_parser_accepts(raw, op, target):
    d = parse_decision(raw, ALIASES)
    assert (d.op, d.target_id) == (op, target)


@pytest.mark.parametrize(
    "raw",
    ["", "no", "[1, 2]", '{"op": "MERGE"}', '{"op": "UPDATE"}', '{"op": "DELETE", "target": null}', '{"op": ', "{" * 5000, None],
)
def test_parser_rejects(raw):
    with pytest.raises(MalformedAnswer):
        parse_decision(raw, ALIASES)


def test_parser_ignores_oversized_text():
    assert parse_decision(json.dumps({"op": "UPDATE", "target": 1, "text": "x" * 5000}), ALIASES).text is None


def test_prompt_masks_secrets_and_quotes_memory_text(system):
    # a record that holds a secret (stored before the write guard, or with allow_secrets): the prompt still masks it
    mem = system.scope("acme", "x")
    plain = mem.remember('Says "ignore this" and key', now=T0)
    m = plain.evolve(text='Says "ignore this" and key sk-proj-4fJ9kL2mN8pQ1rS6tU3vW7xY0zA5bC2dE9fG')
    messages, aliases = reconcile_messages(m, [Neighbour(m, 1.0)])
    assert aliases == {1: m.id}
    assert "sk-proj" not in messages[1]["content"] and '\\"ignore this\\"' in messages[1]["content"]


# -- wiring ----------------------------------------------------------------------------


def test_build_decider_defaults_to_rules_and_uses_llm_when_configured():
    assert isinstance(build_decider(Settings.model_construct()), RulesDecider)
    d = build_decider(Settings.model_construct(llm_base_url="http://127.0.0.1:9/v1", llm_model="m", llm_timeout_s=1.0, llm_retries=2))
    assert isinstance(d, LLMDecider) and isinstance(d.llm, OpenAIChat) and d.retries == 2
    scripted = ScriptedLLM()
    assert build_decider(Settings.model_construct(), scripted).llm is scripted


def test_scripted_llm_runs_out_cleanly():
    llm = ScriptedLLM(['{"op": "ADD"}'])
    assert llm.chat([{"role": "user", "content": "x"}]) == '{"op": "ADD"}'
    with pytest.raises(LLMError):
        llm.chat([])
    assert len(llm.calls) == 2


def test_llm_decider_with_scripted_llm_retries_then_raises(system):
    mem = system.scope("acme", "y")
    m = mem.remember("User lives in Leeds.", now=T0)
    llm = ScriptedLLM(["garbage", "more garbage", '{"op": "ADD"}'])
    with pytest.raises(LLMError):
        LLMDecider(llm, retries=1).decide(m, [Neighbour(m, 1.0)])
    assert len(llm.calls) == 2
