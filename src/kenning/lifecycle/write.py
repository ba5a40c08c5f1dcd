"""The write path: capture turns on the request path, extract and reconcile them in the background.

Request path (``add_messages``): validate the messages, mask secrets, and
write the batch as one PROVISIONAL *capture* record (the turns live in its
metadata; its text is a placeholder, so no turn text reaches the keyword
index). No parsing and no embedding happen here, so ``add`` costs a
validation and one small insert. Nothing provisional is retrievable.

Background (``reconcile_pending``), or inline with ``wait=True``:

1. ``extract_capture``: the capture's turns go through the extractor (the
   offline parser engine, or the LLM extractor, which in the same call
   decides each claim against the scope's active memories nearest the user's
   turns and leaves its verdict on the claim; if it gives up, the offline
   engine extracts instead), the claims are embedded in one batch
   and written PROVISIONAL with ``source_refs`` naming the turns they came
   from, and the capture is deleted, all in one guarded changeset (two
   workers racing on one capture: the loser's guard fails, nothing doubles);
2. ``reconcile_one``: every provisional claim, oldest first, is shown its
   nearest active neighbours and decided by the context's decider (the rules
   engine, or an LLM), unless the LLM extractor already decided it; either
   verdict is passed through ``reconcile.guard`` (trust, staleness, shown
   targets only) and applied as one guarded changeset. Safe to run
   concurrently and idempotent: the changeset carries the scope's active
   generation read before the neighbours, and the store applies it only if
   no memory became or stopped being active since (``ActiveSetStore``), so
   processes deciding one attribute at once are serialised per scope; the
   loser plans again against what the winner wrote.
"""

from __future__ import annotations

import random
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from threading import Lock
from typing import Any

from kenning.lifecycle.context import Context
from kenning.errors import Conflict, LLMError
from kenning.lifecycle import cascade, extract, extraction, guard, reconcile, secrets, supersede
from kenning.lifecycle.extraction import chatter, dates, people
from kenning.lifecycle.reconcile import Neighbour
from kenning.stores.base import ActiveSetStore, audit_entry, supports
from kenning.types import Changeset, Decision, Filter, Kind, Memory, Op, Scope, Source, Status, Transition, new_id

NEIGHBOURS = 8
MAX_DEFERRALS = 3
PREFETCH = 32  # captures whose turns are parsed in one pipeline call before they are extracted one by one
# Tries at deciding one claim against a moving active set; past them it stays provisional for the next pass.
ATTEMPTS = 12
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


CAPTURE = "capture"  # metadata key of a capture record: the turns awaiting extraction
CAPTURE_TEXT = "(turns awaiting extraction)"
DECIDED = "decided"  # metadata key of a claim the LLM extractor already decided: {"by", "op", "target"}
LLM_FALLBACK = "llm extraction failed, offline engine: "


def is_capture(memory: Memory) -> bool:
    """Whether ``memory`` is a capture record (raw turns awaiting extraction), not a claim."""
    return CAPTURE in memory.metadata


def add_messages(
    ctx: Context, scope: Scope, messages: Any, *, session_id: str | None, now: datetime, wait: bool, source: Any = None
) -> AddResult:
    """Capture ``messages`` for ``scope``; extract and reconcile them before returning if ``wait``.

    ``source`` caps the claims' source when the turns were relayed by someone other than the user; every
    claim passes the write guard (``guard.screen``) when it is extracted. Raises ``ValidationError``
    (nothing written) for malformed messages. Without ``wait`` the returned ids are the capture's; with
    it, the claims'.
    """
    turns = extract.parse_messages(messages, max_chars=ctx.settings.max_text_chars)
    context = _session_context(scope, session_id, turns)
    masked, withheld = [], []
    for t in turns:
        text = t.content if ctx.settings.allow_secrets else secrets.mask_secrets(t.content)
        if secrets.SECRET_MARK in text:
            withheld.append("secret")
        masked.append({"role": t.role, "content": text, **({"name": t.name} if t.name else {}), **({"id": t.id} if t.id else {})})
    if context and not ctx.settings.allow_secrets:
        context = secrets.mask_secrets(context)
    cap = Memory(
        id=new_id("mem"),
        tenant_id=scope.tenant_id,
        user_id=scope.user_id,
        kind=Kind.EPISODE,
        text=CAPTURE_TEXT,
        embedding=None,
        source=Source.USER_SAID if any(t.role == "user" for t in turns) else Source.INFERRED,
        source_refs=(),
        created_at=now,
        last_used_at=now,
        importance=0.0,
        confidence=0.0,
        status=Status.PROVISIONAL,
        session_id=session_id,
        metadata={CAPTURE: {"turns": masked, "context": context, "source": Source(source).value if source is not None else None}},
    )
    ctx.store.apply(scope, Changeset(inserts=(cap,), audit=(audit_entry(scope, now, Op.ADD, [cap.id], cap.source.value, "captured"),)))
    if not wait:
        return AddResult((cap.id,), (), tuple(withheld))
    ids, why = extract_capture(ctx, scope, cap.id, now)
    outcomes = tuple(o for i in ids if (o := reconcile_one(ctx, scope, i, now)) is not None)
    return AddResult(ids, outcomes, tuple(dict.fromkeys((*withheld, *why))))


def _turns_of(cap: Memory) -> list[extract.Turn]:
    raw = cap.metadata[CAPTURE]["turns"]
    return [extract.Turn(t["role"], t["content"], t.get("name"), t.get("id")) for t in raw]


NAMED_BEFORE = 20  # how many of the session's latest memories are read for the people it named


def _named_before(ctx: Context, scope: Scope, cap: Memory, turns: Sequence[extract.Turn]) -> list[str]:
    """The people the capture's session named before it, oldest first, from its latest active memories about
    someone else: "he's also started on co-careldopa" in the next turn is about "my husband Alun". Read only
    when a user turn says he, she or they."""
    if cap.session_id is None or not any(t.role == "user" and people.mentions_someone(t.content) for t in turns):
        return []
    recent = ctx.store.list(scope, statuses=(Status.ACTIVE,), limit=NAMED_BEFORE,
                            where=Filter(session_id=cap.session_id, until=cap.created_at))
    named = [p for m in reversed(recent) if m.metadata.get("subject") == "other" and (p := people.from_memory(m.text))]
    return list(dict.fromkeys(reversed(named)))[::-1]  # each once, where it was named last


def extract_capture(ctx: Context, scope: Scope, capture_id: str, now: datetime) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Turn one capture into provisional claims and delete it, atomically.

    Returns the claim ids and why anything was withheld; ``((), ())`` if the
    capture is gone (another worker extracted it first).
    """
    cap = ctx.store.get(scope, capture_id)
    if cap is None or cap.status is not Status.PROVISIONAL or not is_capture(cap):
        return (), ()
    turns = _turns_of(cap)
    context = cap.metadata[CAPTURE].get("context")
    seen = _active_generation(ctx, scope)  # what the model's verdicts are about: the active set as of now
    decided, note = _llm_extract(ctx, scope, cap, turns, now) if ctx.extractor is not None else (None, "")
    if decided is not None:
        ex = decided.extraction
    else:
        ex = extraction.extract(turns, allow_secrets=ctx.settings.allow_secrets, context=context, parser=ctx.parser,
                                others=_named_before(ctx, scope, cap, turns))
    relayed = cap.metadata[CAPTURE].get("source")
    ex = guard.screen(ex, source=Source(relayed) if relayed else None, allow_secrets=ctx.settings.allow_secrets, turns=turns)
    if decided is None:
        ex, vectors = _dated(ctx, scope, ex, cap.created_at)
    else:
        vectors = ctx.embed_documents(scope, [c.text for c in ex.claims]) if ex.claims else []
    mems = []
    for i, (claim, vec) in enumerate(zip(ex.claims, vectors)):
        at = cap.created_at + timedelta(microseconds=i + 1)  # keeps the order of claims within one capture
        turn = turns[claim.turn] if claim.turn < len(turns) else None
        ref = (turn.id or f"{cap.id}#{claim.turn}") if turn is not None else cap.id
        mems.append(
            Memory(
                id=new_id("mem"),
                tenant_id=scope.tenant_id,
                user_id=scope.user_id,
                kind=claim.kind,
                text=claim.text,
                embedding=vec,
                source=claim.source,
                source_refs=(ref,),
                created_at=at,
                last_used_at=at,
                importance=claim.importance,
                confidence=claim.confidence,
                sensitivity=claim.sensitivity,
                status=Status.PROVISIONAL,
                session_id=cap.session_id,
                metadata={**claim.metadata, **({DECIDED: _verdict(decided.decisions[i], seen)} if decided is not None else {})},
            )
        )
    change = Changeset(
        inserts=tuple(mems),
        transitions=(Transition(cap.id, (Status.PROVISIONAL,), Status.DELETED),),
        deletes=(cap.id,),
        audit=(audit_entry(scope, now, Op.ADD, [cap.id, *(m.id for m in mems)], "extraction", f"{note}extracted {len(mems)} claims"),),
    )
    try:
        ctx.store.apply(scope, change)
    except Conflict:
        return (), ()
    return tuple(m.id for m in mems), ex.withheld


def _mark_chatter(ctx: Context, ex: extract.Extraction, vectors: Any) -> extract.Extraction:
    """The offline engine's claims, those the chatter model scores at or above ``chatter_cutoff`` marked
    ``chatter`` (with the score). Reconciliation stores a marked claim only when it changes a memory
    (an update, a retraction), never as a new one. Only with the embedder the model was trained for."""
    model = chatter.bundled()
    cutoff = ctx.settings.chatter_cutoff
    if not ex.claims or not _fits(ctx, model, cutoff):
        return ex
    claims = []
    for claim, vec in zip(ex.claims, vectors):
        if chatter.scored(claim.kind, claim.metadata, recognised=claim.slot is not None, source=claim.source):
            x = chatter.features(vec, claim.text, claim.kind, hedged=bool(claim.metadata.get("hedge")), source=claim.source)
            score = float(model.score(x))
            if score >= cutoff:
                claim = replace(claim, metadata={**claim.metadata, chatter.MARK: round(score, 3)})
        claims.append(claim)
    return replace(ex, claims=tuple(claims))


def _dated(ctx: Context, scope: Scope, ex: extract.Extraction, when: datetime) -> tuple[extract.Extraction, Any]:
    """The offline engine's claims, marked by the chatter model (``_mark_chatter``) as worded, then with their relative
    time words anchored to the turn's date ("last saturday" -> "on Saturday 7 March 2026", ``extraction.dates``; the
    words as said kept in metadata ``said``), and the vectors of what is stored. One embedding call for both: the
    chatter model was trained on claims as worded, and a date is no reason to keep or drop one."""
    if not ex.claims:
        return ex, []
    texts = [dates.anchor(c.text, when) for c in ex.claims]
    changed = [i for i, (c, t) in enumerate(zip(ex.claims, texts)) if t != c.text]
    vectors = list(ctx.embed_documents(scope, [c.text for c in ex.claims] + [texts[i] for i in changed]))
    said, dated = vectors[: len(ex.claims)], vectors[len(ex.claims):]
    ex = _mark_chatter(ctx, ex, said)
    for i, vec in zip(changed, dated):
        said[i] = vec
    claims = tuple(replace(c, text=t, metadata={**c.metadata, dates.SAID: c.text}) if t != c.text else c for c, t in zip(ex.claims, texts))
    return replace(ex, claims=claims), said


def _llm_extract(ctx: Context, scope: Scope, cap: Memory, turns: Sequence[extract.Turn], now: datetime) -> tuple[Any, str]:
    """The LLM extractor's claims and verdicts for ``turns``, or ``(None, why)`` when it gave up (offline fallback)."""
    shown = capture_neighbours(ctx, scope, turns, now)
    try:
        decided = ctx.extractor.extract(
            turns,
            shown,
            allow_secrets=ctx.settings.allow_secrets,
            context=cap.metadata[CAPTURE].get("context"),
            when=cap.created_at,
            max_chars=ctx.settings.max_text_chars,
        )
    except LLMError:
        return None, LLM_FALLBACK
    return decided, f"{getattr(ctx.extractor, 'name', 'llm')}: "


def _verdict(decision: Any, seen: int | None) -> dict[str, Any]:
    return {"by": "llm", "op": decision.op.value, "target": decision.target_id, **({"seen": seen} if seen is not None else {})}


def _active_generation(ctx: Context, scope: Scope) -> int | None:
    return ctx.store.active_generation(scope) if supports(ctx.store, ActiveSetStore) else None


def _moved(memory: Memory, seen: int | None) -> bool:
    """Whether the active set moved since the LLM extractor decided ``memory`` (other claims of its batch count too)."""
    v = memory.metadata.get(DECIDED)
    return seen is not None and isinstance(v, dict) and v.get("seen") is not None and v["seen"] != seen


def _predecided(memory: Memory) -> Decision | None:
    v = memory.metadata.get(DECIDED)
    if not isinstance(v, dict) or v.get("op") not in ("ADD", "UPDATE", "DELETE", "NOOP"):
        return None
    op = Op(v["op"])
    reason = {Op.ADD: reconcile.NEW, Op.UPDATE: reconcile.SLOT_CHANGE, Op.DELETE: reconcile.RETRACTION}.get(op, reconcile.DUPLICATE)
    return Decision(op, v.get("target") if op is not Op.ADD else None, None, reason)


def capture_neighbours(ctx: Context, scope: Scope, turns: Sequence[extract.Turn], now: datetime, k: int = NEIGHBOURS) -> list[Memory]:
    """The active memories of ``scope`` nearest the batch's user turns (all turns if none is the user's), best first.

    Vector matches come first by their best cosine to any of the turns, then
    keyword-only matches; at most ``2 * k``.
    """
    texts = [t.content for t in turns if t.role == "user"] or [t.content for t in turns]
    best: dict[str, tuple[float, Memory]] = {}
    for text, vec in zip(texts, ctx.embed_documents(scope, texts)):
        for s in ctx.store.search_vector(scope, vec, k=k, now=now):
            if s.memory.id not in best or best[s.memory.id][0] < s.similarity:
                best[s.memory.id] = (s.similarity, s.memory)
        for s in ctx.store.search_keywords(scope, text, k=k, now=now):
            best.setdefault(s.memory.id, (-1.0, s.memory))
    ranked = sorted(best.values(), key=lambda p: (-p[0], p[1].id))
    return [m for _, m in ranked if not is_capture(m)][: 2 * k]


def reconcile_pending(ctx: Context, scope: Scope, now: datetime) -> int:
    """Extract every capture of ``scope``, then reconcile every provisional claim, oldest first;
    return how many claims were decided here."""
    pending = ctx.store.list(scope, statuses=[Status.PROVISIONAL])
    pending.sort(key=lambda m: (m.created_at, m.id))
    captures = [m for m in pending if is_capture(m)]
    for start in range(0, len(captures), PREFETCH):
        batch = captures[start : start + PREFETCH]
        if ctx.extractor is None:  # the parser answers a batch several times faster than one text at a time
            extraction.prefetch([_turns_of(c) for c in batch], allow_secrets=ctx.settings.allow_secrets, parser=ctx.parser)
        for cap in batch:
            extract_capture(ctx, scope, cap.id, now)
    claims = [m for m in ctx.store.list(scope, statuses=[Status.PROVISIONAL]) if not is_capture(m)]
    claims.sort(key=lambda m: (m.created_at, m.id))
    done = 0
    for m in claims:
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
    old = candidate.metadata.get("contrast_old")
    if isinstance(old, str):  # "its 850 not 500": what holds the old value, however unlike it reads
        for s in store.search_keywords(scope, old, k=k, now=now):
            found.setdefault(s.memory.id, s.memory)
    if reconcile.about_last(candidate):  # "wait no, 7pm", "scratch that": the latest memories, however unlike they read
        for m in store.list(scope, statuses=[Status.ACTIVE], limit=k):
            found.setdefault(m.id, m)
    found.pop(candidate.id, None)
    out = []
    for m in found.values():
        cos = float(m.embedding @ candidate.embedding) if m.embedding is not None and candidate.embedding is not None else 0.0
        out.append(Neighbour(m, cos))
    out.sort(key=lambda n: (-n.cosine, n.memory.id))
    return out[: 2 * k]


def _rules() -> Any:
    from kenning.lifecycle.rules import RulesDecider

    return RulesDecider()


def _deferrals(ctx: Context, scope: Scope, memory_id: str) -> int:
    return sum(1 for a in ctx.store.audit(scope, memory_id) if a.reason.startswith(DEFERRED))


def reconcile_one(ctx: Context, scope: Scope, memory_id: str, now: datetime) -> Outcome | None:
    """Decide and apply one provisional claim. None if it is no longer provisional (another worker won).

    If the decider fails (an LLM down or answering garbage after its
    retries), the candidate stays provisional and is retried next time;
    after ``MAX_DEFERRALS`` failures the offline rules decide instead.
    Nothing is dropped or half-applied either way.
    """
    store = ctx.store
    decider = ctx.decider or _rules()
    for attempt in range(ATTEMPTS):
        if attempt:
            time.sleep(random.uniform(0, 0.005 * attempt))  # processes that collided do not collide again in step
        # read before the neighbours: the write applies only if no memory became or stopped being active since
        seen = _active_generation(ctx, scope)
        cand = store.get(scope, memory_id)
        if cand is None or cand.status is not Status.PROVISIONAL or is_capture(cand):
            return None
        pre, moved = _predecided(cand), _moved(cand, seen)
        if DECIDED in cand.metadata:
            cand = cand.evolve(metadata={k: v for k, v in cand.metadata.items() if k != DECIDED})
        if pre is not None:
            # decided by the LLM extractor against what it was shown: only that target, as it is now, is eligible
            target_now = store.get(scope, pre.target_id) if pre.target_id else None
            shown = {target_now.id: target_now} if target_now is not None else {}
            decision, name = pre, "llm-extract"
            if pre.op is Op.ADD and moved:
                # memories became active since the model looked (another process, or this batch): a value of the
                # same single-valued attribute among them is updated rather than joined by a second one
                near = neighbours(ctx, scope, cand, now)
                fixed = reconcile.attribute_change(cand, near)
                if fixed is not None:
                    decision, name, shown = fixed, "llm-extract, then rules", {n.memory.id: n.memory for n in near}
        else:
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
        if decision.op is Op.ADD and name == "rules":  # the offline engine's own verdict, not a model's
            decision = _superseded(ctx, cand, near) or decision
        decision = reconcile.guard(decision, cand, shown, allow_secrets=ctx.settings.allow_secrets, max_chars=ctx.settings.max_text_chars)
        decision = reconcile.unless_chatter(decision, cand, shown)
        target = shown.get(decision.target_id or "") if decision.op in (Op.UPDATE, Op.DELETE) else None
        change, kept = reconcile.plan(
            cand, decision, target, now, lambda t: ctx.embed_documents(scope, [t])[0], decider=name, shown=shown
        )
        try:
            store.apply(scope, replace(change, active_gen=seen))
        except Conflict:
            continue  # someone changed the candidate, its target or the active set meanwhile: look again
        if decision.op is Op.DELETE and decision.reason == reconcile.POINTED and decision.target_id:
            # "forget what I said about the divorce": the user asked for it to go, so it goes the way an
            # explicit deletion does (cascade and purge), with the pointer that names it
            also = [i for i, _ in decision.also]
            cascade.delete_memories(ctx, scope, [decision.target_id, *also, cand.id], now=now, reason="forget")
        elif decision.op is Op.NOOP and cand.metadata.get("pointer"):
            # a pointer that found nothing to forget (never stored, or gone already) still names what the user
            # wants gone: it is purged, not kept retired where an export would show "forget … the divorce"
            cascade.delete_memories(ctx, scope, [cand.id], now=now, reason="forget")
        return Outcome(cand.id, decision.op, kept, decision.target_id, decision.reason)
    return None


def _superseded(ctx: Context, cand: Memory, near: Sequence[Neighbour]) -> Decision | None:
    """What the supersession model says the rules' ADD replaces, with the embedder it was trained for, or None."""
    model, cutoff = supersede.bundled(), ctx.settings.supersede_cutoff
    if not _fits(ctx, model, cutoff):
        return None
    old = supersede.replaced(model, cand, near, cutoff)
    return Decision(Op.UPDATE, old.id, None, supersede.REASON) if old is not None else None


def _fits(ctx: Context, model: chatter.Model | None, cutoff: float) -> bool:
    """Whether a shipped model applies: it exists, its cutoff can be reached, and it was trained on the vectors
    (and cosines) of the embedder in use."""
    return model is not None and cutoff < 1.0 and getattr(ctx.embedder, "model_id", None) == model.model_id
