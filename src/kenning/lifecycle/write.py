"""The write path: capture turns, extract claims, write them provisional, reconcile them.

Request path (``add_messages``): validate, extract (pure rules), embed all
candidates in one batch, write them as PROVISIONAL in one changeset. Nothing
provisional is retrievable. ``wait=True`` reconciles this call's candidates
before returning.

Background (``reconcile_pending``): every provisional memory of a scope,
oldest first, is shown its nearest active neighbours and decided by the
context's decider (the rules engine, or an LLM), the verdict is guarded and
applied as one guarded changeset. Safe to run concurrently from several
processes and idempotent: a candidate another worker decided first raises
``Conflict`` on its guard and is skipped.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from threading import Lock
from typing import Any

from kenning.context import Context
from kenning.errors import Conflict, LLMError
from kenning.lifecycle import extract, guard, reconcile
from kenning.lifecycle.reconcile import Neighbour
from kenning.stores.base import audit_entry
from kenning.types import Changeset, Memory, Op, Scope, Status, new_id

NEIGHBOURS = 8
MAX_DEFERRALS = 3
DEFERRED = "deferred: decider failed"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What reconciliation did with one candidate: ``memory_id`` is the memory left active for it, if any."""

    candidate_id: str
    op: Op | None
    memory_id: str | None = None
    target_id: str | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class AddResult:
    """Ids of the provisional memories written, the reconciliation outcomes (with ``wait=True``)
    and why anything was withheld ("secret", "injection"; never the withheld text)."""

    ids: tuple[str, ...] = ()
    decisions: tuple[Outcome, ...] = ()
    withheld: tuple[str, ...] = ()


# The last assistant turn of each (scope, session), so a bare "yes" in the
# next call can be read against the question it answers. Process-local and
# bounded; losing it only loses that resolution.
_LAST_ASSISTANT: OrderedDict[tuple[Scope, str], str] = OrderedDict()
_LAST_LOCK = Lock()


def _session_context(scope: Scope, session_id: str | None, turns: Sequence[extract.Turn]) -> str | None:
    if session_id is None:
        return None
    key = (scope, session_id)
    with _LAST_LOCK:
        before = _LAST_ASSISTANT.get(key)
        last = next((t for t in reversed(turns) if t.role != "tool"), None)
        if last is not None and last.role == "assistant":
            _LAST_ASSISTANT[key] = last.content
            _LAST_ASSISTANT.move_to_end(key)
        elif last is not None:
            _LAST_ASSISTANT.pop(key, None)
        while len(_LAST_ASSISTANT) > 4096:
            _LAST_ASSISTANT.popitem(last=False)
    return before


def add_messages(
    ctx: Context, scope: Scope, messages: Any, *, session_id: str | None, now: datetime, wait: bool, source: Any = None
) -> AddResult:
    """Extract ``messages`` into provisional memories of ``scope``; reconcile them first if ``wait``.

    Every claim passes the write guard (``guard.screen``); ``source`` caps the claims' source when
    the turns were relayed by someone other than the user. Raises ``ValidationError`` (nothing
    written) for malformed messages.
    """
    turns = extract.parse_messages(messages, max_chars=ctx.settings.max_text_chars)
    context = _session_context(scope, session_id, turns)
    ex = extract.extract(turns, allow_secrets=ctx.settings.allow_secrets, context=context)
    ex = guard.screen(ex, source=source, allow_secrets=ctx.settings.allow_secrets, turns=turns)
    if not ex.claims:
        return AddResult((), (), ex.withheld)
    vectors = ctx.embed_documents(scope, [c.text for c in ex.claims])
    mems = []
    for i, (claim, vec) in enumerate(zip(ex.claims, vectors)):
        at = now + timedelta(microseconds=i)  # keeps the order of claims within one call
        mems.append(
            Memory(
                id=new_id("mem"),
                tenant_id=scope.tenant_id,
                user_id=scope.user_id,
                kind=claim.kind,
                text=claim.text,
                embedding=vec,
                source=claim.source,
                source_refs=(),
                created_at=at,
                last_used_at=at,
                importance=claim.importance,
                confidence=claim.confidence,
                sensitivity=claim.sensitivity,
                status=Status.PROVISIONAL,
                session_id=session_id,
            )
        )
    sources = ",".join(sorted({m.source.value for m in mems}))
    ctx.store.apply(scope, Changeset(inserts=tuple(mems), audit=(audit_entry(scope, now, Op.ADD, [m.id for m in mems], sources, "provisional"),)))
    ids = tuple(m.id for m in mems)
    if not wait:
        return AddResult(ids, (), ex.withheld)
    outcomes = tuple(o for m in mems if (o := reconcile_one(ctx, scope, m.id, now)) is not None)
    return AddResult(ids, outcomes, ex.withheld)


def reconcile_pending(ctx: Context, scope: Scope, now: datetime) -> int:
    """Reconcile every provisional memory of ``scope``, oldest first; return how many were decided here."""
    pending = ctx.store.list(scope, statuses=[Status.PROVISIONAL])
    pending.sort(key=lambda m: (m.created_at, m.id))
    done = 0
    for m in pending:
        out = reconcile_one(ctx, scope, m.id, now)
        if out is not None and out.op is not None:
            done += 1
    return done


def neighbours(ctx: Context, scope: Scope, candidate: Memory, now: datetime, k: int = NEIGHBOURS) -> list[Neighbour]:
    """The active memories of ``scope`` nearest ``candidate`` by vector and by keywords, best cosine first."""
    store = ctx.store
    found: dict[str, Memory] = {}
    if candidate.embedding is not None:
        for s in store.search_vector(scope, candidate.embedding, k=k, now=now):
            found[s.memory.id] = s.memory
    for s in store.search_keywords(scope, candidate.text, k=k, now=now):
        found.setdefault(s.memory.id, s.memory)
    found.pop(candidate.id, None)
    out = []
    for m in found.values():
        cos = float(m.embedding @ candidate.embedding) if m.embedding is not None and candidate.embedding is not None else 0.0
        out.append(Neighbour(m, cos))
    out.sort(key=lambda n: (-n.cosine, n.memory.id))
    return out[: 2 * k]


def _rules() -> Any:
    from kenning.llms import RulesDecider

    return RulesDecider()


def _deferrals(ctx: Context, scope: Scope, memory_id: str) -> int:
    return sum(1 for a in ctx.store.audit(scope, memory_id) if a.reason.startswith(DEFERRED))


def reconcile_one(ctx: Context, scope: Scope, memory_id: str, now: datetime) -> Outcome | None:
    """Decide and apply one provisional memory. None if it is no longer provisional (another worker won).

    If the decider fails (an LLM down or answering garbage after its
    retries), the candidate stays provisional and is retried next time;
    after ``MAX_DEFERRALS`` failures the offline rules decide instead.
    Nothing is dropped or half-applied either way.
    """
    store = ctx.store
    decider = ctx.decider or _rules()
    for _attempt in range(3):
        cand = store.get(scope, memory_id)
        if cand is None or cand.status is not Status.PROVISIONAL:
            return None
        near = neighbours(ctx, scope, cand, now)
        shown = {n.memory.id: n.memory for n in near}
        name = getattr(decider, "name", "rules")
        try:
            decision = decider.decide(cand, near)
        except LLMError:
            if _deferrals(ctx, scope, cand.id) + 1 >= MAX_DEFERRALS:
                decision, name = _rules().decide(cand, near), "rules-fallback"
            else:
                entry = audit_entry(scope, now, Op.NOOP, [cand.id], cand.source.value, DEFERRED)
                store.apply(scope, Changeset(audit=(entry,)))
                return Outcome(cand.id, None, None, None, DEFERRED)
        decision = reconcile.guard(decision, cand, shown, allow_secrets=ctx.settings.allow_secrets, max_chars=ctx.settings.max_text_chars)
        target = shown.get(decision.target_id or "") if decision.op in (Op.UPDATE, Op.DELETE) else None
        change, kept = reconcile.plan(
            cand, decision, target, now, lambda t: ctx.embed_documents(scope, [t])[0], decider=name
        )
        try:
            store.apply(scope, change)
        except Conflict:
            continue  # someone changed the candidate or its target meanwhile: look again
        return Outcome(cand.id, decision.op, kept, decision.target_id, decision.reason)
    return None
