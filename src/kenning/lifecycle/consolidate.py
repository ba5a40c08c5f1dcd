"""Consolidation: turn episodes that keep saying the same thing into one memory.

Per scope, never across scopes. The decision is pure (``plan`` and
``summarise`` over records, their stored vectors and a ``now``); the job
(``consolidate_scope``) reads the scope, embeds the summaries and applies
one guarded ``Changeset`` per decision.

Rules (the seed's):
- a topic is consolidated only when at least ``min_support`` *independent*
  episodes support it: from distinct conversations (``session_id``) or
  distinct days. One remark, however emphatic, never becomes knowledge;
- a topic is a content word (or phrase) shared by the episodes, after the
  scope's own name, stop words and conversational filler are set aside, whose
  episodes are also close in the embedder's space (each member's mean cosine
  to the others is at least ``coherence``);
- episodes and preferences group by topic (a stated preference and the
  requests that act on it are evidence of one thing) and are compacted;
  facts on the topic add support and are cited but stay active, because a
  fact is a distinct claim: three facts about one person never collapse into
  a vague summary, and facts alone merge only as near-duplicates (every pair
  at cosine >= ``near_duplicate``);
- the consolidated memory carries the lowest confidence of its inputs, the
  highest importance, the strictest sensitivity, and ``source_refs`` naming
  every input, which the deletion cascade follows;
- the compacted inputs are retired in the same atomic write, so retrieval
  shows one memory instead of a crowd of near-duplicates;
- procedures, tool results, expiring records and restricted records never
  take part.

A consolidated preference the user later explicitly changes ("actually I
prefer a window seat now" after "aisle seat") is retired, so the summary of
the old habit never outranks the new statement.

With an LLM configured (``ctx.llm``), it may reword the summary; its answer
is used only if it keeps every shared phrase, else the offline text stands.

Idempotent: a consolidated memory's id is derived from its inputs, and every
input moves ``active -> retired`` under a guard, so re-running on unchanged
input finds nothing to do, and two workers racing on the same decision write
it once (the loser gets ``Conflict`` and writes nothing).

Which records form a topic is decided in ``topics`` (``plan``,
``contradicted``); what the consolidated memory says in ``summaries``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from datetime import datetime

import numpy as np

from kenning.lifecycle.summaries import Rules, Summary, name_tokens, worded
from kenning.lifecycle.topics import contradicted, plan
from kenning.types import DEFAULT_IMPORTANCE, Memory, Scope, Sensitivity, Source, Status

SENSITIVITY_RANK = {Sensitivity.NORMAL: 0, Sensitivity.PERSONAL: 1, Sensitivity.RESTRICTED: 2}


def consolidated_id(scope: Scope, source_ids: Iterable[str], supersedes: Iterable[str] = ()) -> str:
    """A deterministic id for the consolidated memory of these inputs: re-running writes the same id."""
    digest = hashlib.sha256(
        "\x1f".join([scope.tenant_id, scope.user_id, *sorted(source_ids), "|", *sorted(supersedes)]).encode()
    ).hexdigest()
    return f"mem_c{digest[:20]}"


def build_memory(scope: Scope, members: Sequence[Memory], summary: Summary, embedding: np.ndarray, now: datetime,
                 *, supersedes: Sequence[str] = (), memory_id: str | None = None) -> Memory:
    """The consolidated record: lowest confidence and strictest sensitivity of its inputs; importance the
    highest of its inputs, and at least its kind's default (a preference that several independent episodes
    confirm matters more than any one of those episodes)."""
    refs = tuple(m.id for m in sorted(members, key=lambda m: (m.created_at, m.id)))
    return Memory(
        id=memory_id or consolidated_id(scope, refs, supersedes),
        tenant_id=scope.tenant_id,
        user_id=scope.user_id,
        kind=summary.kind,
        text=summary.text,
        embedding=embedding,
        source=Source.CONSOLIDATED,
        source_refs=refs,
        created_at=now,
        last_used_at=now,
        importance=max(DEFAULT_IMPORTANCE[summary.kind], *(m.importance for m in members)),
        confidence=min(m.confidence for m in members),
        supersedes=tuple(supersedes),
        sensitivity=max((m.sensitivity for m in members), key=SENSITIVITY_RANK.__getitem__),
        metadata={"support": summary.support},
    )


# -- the job --------------------------------------------------------------------


def consolidate_scope(ctx, scope: Scope, now: datetime, rules: Rules = Rules()) -> list[str]:
    """Run consolidation for one scope; returns the ids of the consolidated memories written.

    Each decision is one atomic, guarded write. A decision another worker
    applied first fails its guards (``Conflict``) and is skipped: it is done.
    """
    from kenning.errors import Conflict
    from kenning.stores.base import audit_entry
    from kenning.types import Changeset, Op, Transition

    store = ctx.store
    records = store.list(scope, statuses=(Status.ACTIVE,))
    ignore = name_tokens(scope)
    consolidated = []
    for c in records:
        if c.source is Source.CONSOLIDATED:
            sources = [s for s in store.get_many(scope, c.source_refs) if s.status is not Status.DELETED]
            newer = contradicted(c, sources, records, rules, ignore)
            if newer is None:
                consolidated.append((c, sources))
                continue
            try:  # the user changed their mind: the summary of the old preference leaves retrieval
                store.apply(scope, Changeset(
                    transitions=(Transition(c.id, (Status.ACTIVE,), Status.RETIRED),),
                    audit=(audit_entry(scope, now, Op.UPDATE, [newer.id, c.id], "consolidated", "overridden by a newer statement"),),
                ))
            except Conflict:
                pass  # someone else retired it first
    kept = {c.id for c, _ in consolidated}
    records = [r for r in records if r.source is not Source.CONSOLIDATED or r.id in kept]
    written: list[str] = []
    for p in plan(scope, records, consolidated, rules):
        supersedes = (p.replaces.id,) if p.replaces else ()
        summary = worded(getattr(ctx, "llm", None), p.members, p.summary)
        vector = ctx.embed_documents(scope, [summary.text])[0]
        mem = build_memory(scope, p.members, summary, vector, now, supersedes=supersedes)
        moves = [Transition(i, (Status.ACTIVE,), Status.RETIRED) for i in p.retire]
        if p.replaces is not None:
            moves.append(Transition(p.replaces.id, (Status.ACTIVE,), Status.RETIRED))
        change = Changeset(
            inserts=(mem,),
            transitions=tuple(moves),
            audit=(audit_entry(scope, now, Op.CONSOLIDATE, [mem.id, *supersedes, *mem.source_refs], "consolidated", "consolidate"),),
        )
        try:
            store.apply(scope, change)
        except Conflict:
            continue  # another worker applied it, or the inputs changed under us: the next run re-plans
        written.append(mem.id)
    return written
