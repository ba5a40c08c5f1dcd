"""The write path through the facade: provisional writes, reconciliation, guards, races, audit, isolation.
Real SQLite files, deterministic hash embedder."""

from __future__ import annotations

import multiprocessing as mp
from datetime import datetime, timedelta, timezone

import pytest

import kenning
from kenning.embedders import HashEmbedder
from kenning.errors import Conflict, ValidationError
from kenning.lifecycle import reconcile, write
from kenning.types import Decision, Op, Source, Status

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
ALL = ["active", "provisional", "retired", "deleted"]


def active_texts(mem):
    return sorted(m.text for m in mem.list())


def test_add_captures_the_turns_as_one_provisional_record_that_is_not_retrievable(system):
    mem = system.scope("acme", "alice")
    res = mem.add("I'm vegetarian, I live in Leeds and I prefer morning meetings.", now=T0, wait=False)
    assert len(res.ids) == 1 and res.decisions == ()
    (cap,) = [mem.get(i) for i in res.ids]
    assert cap.status is Status.PROVISIONAL and cap.embedding is None and write.is_capture(cap)
    assert "Leeds" not in cap.text  # the turns wait in metadata, out of the keyword index
    assert mem.count(statuses=["provisional"]) == 1 and mem.count() == 0
    assert mem.search("Where does Alice live?", now=T0) == []
    assert mem.maintain(now=T0)["reconciled"] == 3
    assert mem.get(cap.id).status is Status.DELETED and mem.get(cap.id).metadata == {}
    assert active_texts(mem) == ["User is vegetarian.", "User lives in Leeds.", "User prefers morning meetings."]


def test_wait_reconciles_before_returning(system):
    mem = system.scope("acme", "alice")
    res = mem.add("I live in Leeds.", now=T0, wait=True)
    assert [d.op for d in res.decisions] == [Op.ADD]
    assert res.decisions[0].memory_id == res.ids[0]
    assert mem.count(statuses=["provisional"]) == 0


def test_move_updates_and_keeps_history(system):
    mem = system.scope("acme", "alice")
    mem.add("I live in Leeds.", now=T0, wait=True)
    res = mem.add("Big news, we moved from Leeds to York last weekend.", now=T0 + timedelta(days=90), wait=True)
    (d,) = res.decisions
    assert d.op is Op.UPDATE
    assert active_texts(mem) == ["User lives in York (moved from Leeds to York on the weekend of Saturday 28 March 2026)."]
    new = mem.get(d.memory_id)
    old = mem.get(d.target_id)
    assert new.supersedes == (old.id,) and old.status is Status.RETIRED
    hist = mem.history(new.id)
    assert [v.id for v in hist.versions] == [old.id, new.id]
    assert any(a.op is Op.UPDATE for a in hist.audit)


def test_retraction(system):
    mem = system.scope("acme", "ben")
    mem.add("I'm vegetarian, so no meat dishes please.", now=T0, wait=True)
    mem.add("Actually I'm not vegetarian any more, I eat chicken and fish again.", now=T0 + timedelta(days=90), wait=True)
    assert not [t for t in active_texts(mem) if "vegetarian" in t and "not" not in t]


def test_repeated_input_is_noop_and_leaves_one_copy(system):
    mem = system.scope("acme", "alice")
    for i in range(3):
        mem.add("I live in York.", now=T0 + timedelta(minutes=i), wait=True)
    assert active_texts(mem) == ["User lives in York."]
    assert mem.count(statuses=["provisional", "retired"]) == 0


def test_out_of_order_input_does_not_supersede_newer_memory(system):
    mem = system.scope("acme", "alice")
    mem.add("I live in York.", now=T0 + timedelta(days=60), wait=True)
    res = mem.add("I live in Leeds.", now=T0, wait=True)
    assert res.decisions[0].reason == reconcile.STALE
    assert active_texts(mem) == ["User lives in York."]
    assert [m.text for m in mem.list(statuses=["retired"])] == ["User lives in Leeds."]


def test_tool_result_cannot_retire_what_the_user_said(system):
    mem = system.scope("food", "priya")
    mem.add("I'm vegetarian.", now=T0, wait=True)
    mem.add([{"role": "tool", "name": "crm", "content": "Customer profile: User is not vegetarian any more."}], now=T0 + timedelta(days=1), wait=True)
    said = [m for m in mem.list() if m.source is Source.USER_SAID]
    assert [m.text for m in said] == ["User is vegetarian."]


def test_reconcile_pending_is_idempotent(system):
    mem = system.scope("acme", "alice")
    mem.add("I live in Leeds and I prefer morning meetings.", now=T0, wait=False)
    assert write.reconcile_pending(system.ctx, mem.scope, T0) == 2
    assert mem.count(statuses=["provisional"]) == 0
    before = mem.export()
    assert write.reconcile_pending(system.ctx, mem.scope, T0) == 0
    assert mem.export() == before


def test_losing_a_race_applies_nothing(system):
    """Two workers decide the same candidate; the second apply hits the guard and changes nothing."""
    mem = system.scope("acme", "alice")
    mem.add("I live in Leeds.", now=T0, wait=True)
    (cap,) = mem.add("We moved from Leeds to York.", now=T0 + timedelta(days=1), wait=False).ids
    (cid,), _ = write.extract_capture(system.ctx, mem.scope, cap, T0)
    store = system.ctx.store
    cand = store.get(mem.scope, cid)
    near = write.neighbours(system.ctx, mem.scope, cand, T0)
    shown = {n.memory.id: n.memory for n in near}
    decision = reconcile.decide(cand, near)
    assert decision.op is Op.UPDATE
    embed = lambda t: system.ctx.embedder.embed([t])[0]  # noqa: E731
    first, _ = reconcile.plan(cand, decision, shown[decision.target_id], T0, embed)
    second, _ = reconcile.plan(cand, decision, shown[decision.target_id], T0, embed)
    store.apply(mem.scope, first)
    snapshot = mem.export()
    with pytest.raises(Conflict):
        store.apply(mem.scope, second)
    assert mem.export() == snapshot


def _worker(path: str, tenant: str, user: str, now_iso: str, out: "mp.Queue[int]") -> None:
    k = kenning.open(f"sqlite:///{path}", embedder=HashEmbedder())
    try:
        out.put(write.reconcile_pending(k.ctx, k.scope(tenant, user).scope, datetime.fromisoformat(now_iso)))
    finally:
        k.close()


def test_two_processes_reconcile_the_same_backlog_safely(tmp_path):
    path = str(tmp_path / "race.db")
    with kenning.open(f"sqlite:///{path}", embedder=HashEmbedder()) as k:
        mem = k.scope("acme", "alice")
        lines = [f"I live in City{i}." for i in range(5)] + [f"My locker number is {100 + i}." for i in range(5)]
        lines += [f"I asked about train {i} to Leeds today." for i in range(10)]
        ids = [i for n, line in enumerate(lines) for i in mem.add(line, now=T0 + timedelta(minutes=n), wait=False).ids]
    ctx = mp.get_context("spawn")
    out: mp.Queue[int] = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(path, "acme", "alice", (T0 + timedelta(hours=1)).isoformat(), out)) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    decided = out.get(timeout=5) + out.get(timeout=5)
    with kenning.open(f"sqlite:///{path}", embedder=HashEmbedder()) as k:
        mem = k.scope("acme", "alice")
        assert mem.count(statuses=["provisional"]) == 0
        assert len(ids) == len(lines)  # one capture per call
        assert decided == len(lines)  # every claim (one per line) decided exactly once, by one of the two
        audit = mem.ctx.store.audit(mem.scope)
        extractions = [a for a in audit if a.reason.startswith("extracted")]
        assert len(extractions) == len(ids)  # each capture extracted once
        decisions = [a for a in audit if a.reason != "captured" and not a.reason.startswith("extracted")]
        assert len(decisions) == decided  # one applied decision per claim, none twice
        # the residence chain is linear: exactly one active residence
        assert [t for t in active_texts(mem) if "lives in" in t] == ["User lives in City4."]


def test_every_write_is_audited_without_content(system):
    mem = system.scope("acme", "alice")
    mem.add("I live in Leeds.", now=T0, wait=True)
    mem.add("We moved from Leeds to York.", now=T0 + timedelta(days=1), wait=True)
    mem.add("I live in York.", now=T0 + timedelta(days=2), wait=True)
    entries = system.ctx.store.audit(mem.scope)
    captures = [a for a in entries if a.reason == "captured" or a.reason.startswith("extracted")]
    assert len(captures) == 6  # each call: captured, then extracted
    assert [a.op for a in entries if a not in captures] == [Op.ADD, Op.UPDATE, Op.NOOP]
    for a in entries:
        assert a.memory_ids and a.source
        assert "Leeds" not in a.reason and "York" not in a.reason


def test_bad_messages_change_nothing(system):
    mem = system.scope("acme", "alice")
    for bad in ([], [{"role": "system", "content": "hi"}], "   ", [{"role": "user", "content": 3}]):
        with pytest.raises(ValidationError):
            mem.add(bad, now=T0, wait=False)
    with pytest.raises(ValidationError):
        mem.add("hi", now=datetime(2026, 1, 1), wait=False)  # naive time
    assert mem.count(statuses=ALL) == 0


def test_small_talk_writes_nothing(system):
    mem = system.scope("acme", "alice")
    res = mem.add([{"role": "user", "content": "ok great, thanks!"}, {"role": "assistant", "content": "You're welcome."}], now=T0, wait=True)
    assert res.ids == () and mem.count(statuses=["active", "provisional", "retired"]) == 0


def test_yes_across_calls_uses_the_sessions_last_assistant_turn(system):
    mem = system.scope("acme", "carol")
    mem.add([{"role": "assistant", "content": "Are you vegetarian?"}], session_id="s1", now=T0, wait=False)
    mem.add("yes", session_id="s1", now=T0, wait=True)
    mem.add("yes", session_id="s2", now=T0, wait=True)  # another session: nothing to resolve
    assert active_texts(mem) == ["User is vegetarian."]


def test_isolation_reconciliation_never_sees_another_scope(system):
    a = system.scope("acme", "alice")
    b = system.scope("globex", "alice")
    c = system.scope("acme", "bob")
    a.add("I live in Leeds.", now=T0, wait=True)
    b.add("I live in York.", now=T0 + timedelta(days=1), wait=True)
    res = c.add("I live in Leeds.", now=T0 + timedelta(days=2), wait=True)
    assert [d.op for d in res.decisions] == [Op.ADD]  # not a NOOP against alice's identical memory
    assert active_texts(a) == ["User lives in Leeds."]
    assert active_texts(b) == ["User lives in York."]
    assert active_texts(c) == ["User lives in Leeds."]
    assert all(n.memory.tenant_id == "acme" and n.memory.user_id == "bob"
               for n in write.neighbours(system.ctx, c.scope, c.list()[0], T0 + timedelta(days=3)))


def test_maintain_reconciles_every_scope(system):
    system.scope("acme", "alice").add("I live in Leeds.", now=T0, wait=False)
    system.scope("globex", "bob").add("I live in York.", now=T0, wait=False)
    reports = system.maintain(now=T0)
    assert sum(r["reconciled"] for r in reports if isinstance(r, dict) and "reconciled" in r) == 2


def test_decisions_are_plain_records(system):
    mem = system.scope("acme", "alice")
    res = mem.add("I live in Leeds.", now=T0, wait=True)
    assert isinstance(res, write.AddResult)
    assert isinstance(res.decisions[0], write.Outcome)
    assert Decision(Op.ADD).op is Op.ADD
