"""Explicit deletion as a cascade driven by ``source_refs`` and ``supersedes``.

Deleting a memory:
1. tombstones it (text, metadata, vector and keyword-index entry go) and every
   earlier version in its ``supersedes`` chain;
2. follows ``source_refs`` backwards: a non-consolidated record derived from a
   deleted one goes too; a consolidated memory citing one is regenerated from
   its surviving sources, or deleted when fewer than the consolidation
   threshold survive or when the new text would still carry words found only
   in the deleted records (then the surviving records it had compacted return
   to retrieval, unless a newer version superseded them). Earlier versions of
   an affected consolidated memory are derived data and go with it;
3. writes it all in one atomic change with audit entries holding ids only;
4. drops embedder-cache entries whose text overlaps the deleted texts, and
   has the engine rewrite leftovers outside rows (SQLite: FTS5 segments, WAL).

A consolidation another worker committed while the cascade ran is caught by
re-reading what cites the deleted ids afterwards and cascading again.
Account deletion removes every record and audit line of the scope through
the store, and nothing of any other scope.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from kenning.lifecycle import consolidate, summaries
from kenning.stores.base import audit_entry
from kenning.errors import Conflict
from kenning.types import Changeset, DeletionReport, Memory, Op, Scope, Source, Status, Transition, new_id

MAX_ROUNDS = 5


def deletion_closure(store: Any, scope: Scope, ids: Sequence[str]) -> dict[str, Memory]:
    """The records to tombstone: ``ids``, their earlier versions, and non-consolidated records derived from any of them."""
    doomed: dict[str, Memory] = {}
    frontier = list(dict.fromkeys(ids))
    while frontier:
        mems = [m for m in store.get_many(scope, [i for i in frontier if i not in doomed]) if m.id not in doomed]
        for m in mems:
            doomed[m.id] = m
        nxt = [s for m in mems for s in m.supersedes]
        for m in mems:
            nxt.extend(
                c.id
                for c in store.citing(scope, m.id)
                if m.id in c.source_refs and c.source is not Source.CONSOLIDATED
            )
        frontier = [i for i in dict.fromkeys(nxt) if i not in doomed]
    return doomed


def _chain(store: Any, scope: Scope, mem: Memory) -> list[Memory]:
    """``mem``'s earlier versions, recursively (not including ``mem``)."""
    out: dict[str, Memory] = {}
    frontier = list(mem.supersedes)
    while frontier:
        olds = [m for m in store.get_many(scope, frontier) if m.id not in out]
        for m in olds:
            out[m.id] = m
        frontier = [s for m in olds for s in m.supersedes if s not in out]
    return list(out.values())


def superseded(store: Any, scope: Scope, memory_id: str) -> bool:
    """Whether a newer version names ``memory_id`` in its ``supersedes`` (then it stays retired)."""
    return any(memory_id in c.supersedes for c in store.citing(scope, memory_id))


def leaks(summary_text: str, deleted_texts: Iterable[str], surviving_texts: Iterable[str], ignore: frozenset[str]) -> bool:
    """Whether ``summary_text`` carries a content word found in deleted texts but in no surviving source."""
    gone = {t for text in deleted_texts for t, _ in summaries.content_tokens(text, ignore)}
    kept = {t for text in surviving_texts for t, _ in summaries.content_tokens(text, ignore)}
    return bool({t for t, _ in summaries.content_tokens(summary_text, ignore)} & (gone - kept))


def plan_deletion(
    ctx: Any, scope: Scope, ids: Sequence[str], now: datetime, reason: str, op: Op, rules: summaries.Rules
) -> tuple[Changeset, list[str], list[str], list[str]]:
    """Read what deleting ``ids`` reaches and decide it: (change, deleted ids, regenerated ids, deleted texts)."""
    store = ctx.store
    doomed = deletion_closure(store, scope, ids)
    if not doomed:
        return Changeset(), [], [], []
    affected: dict[str, Memory] = {}
    for mid in list(doomed):
        for c in store.citing(scope, mid):
            if c.source is Source.CONSOLIDATED and mid in c.source_refs and c.id not in doomed and c.status is not Status.DELETED:
                affected[c.id] = c
    drop: dict[str, Memory] = {}
    restore: list[Memory] = []
    inserts: list[Memory] = []
    regen_audit = []
    ignore = summaries.name_tokens(scope)
    deleted_texts = [m.text for m in doomed.values() if m.text]
    for c in affected.values():
        drop[c.id] = c
        for old in _chain(store, scope, c):
            drop.setdefault(old.id, old)
        if c.status is not Status.ACTIVE:
            continue
        surviving = [
            s for s in store.get_many(scope, c.source_refs)
            if s.id not in doomed and s.status is not Status.DELETED and s.text and s.embedding is not None
        ]
        summary = summaries.summarise(surviving, rules, ignore) if surviving else None
        if summary is not None:
            summary = summaries.worded(getattr(ctx, "llm", None), surviving, summary)
        if summary is None or leaks(summary.text, deleted_texts, [s.text for s in surviving], ignore | summaries.TEMPLATE_WORDS):
            # No summary any more: the surviving records it had compacted come
            # back to retrieval (the user asked to forget the others, not these).
            restore.extend(x for x in surviving if x.status is Status.RETIRED and not superseded(store, scope, x.id))
            continue
        vector = ctx.embed_documents(scope, [summary.text])[0]
        fresh = consolidate.build_memory(scope, surviving, summary, vector, now, memory_id=new_id("mem"))
        inserts.append(fresh)
        regen_audit.append(audit_entry(scope, now, Op.CONSOLIDATE, [fresh.id, *fresh.source_refs], "consolidated", "regenerated after deletion"))
    for mid in list(drop):
        if mid in doomed:
            drop.pop(mid)
    # Tombstones are already gone; everything else is guarded on the status it
    # was read in, so a concurrent cascade or worker makes this one re-plan
    # instead of deleting (or regenerating) the same thing twice.
    live = [m for m in [*doomed.values(), *drop.values()] if m.status is not Status.DELETED]
    if not live:
        return Changeset(), [], [], []
    gone = [m.id for m in live]
    texts = [m.text for m in live if m.text]
    back = {m.id: m for m in restore if m.id not in doomed and m.id not in drop}
    change = Changeset(
        inserts=tuple(inserts),
        transitions=tuple(Transition(m.id, (m.status,), Status.DELETED) for m in live)
        + tuple(Transition(i, (Status.RETIRED,), Status.ACTIVE) for i in back),
        deletes=tuple(gone),
        audit=(audit_entry(scope, now, op, gone, "", reason), *regen_audit),
    )
    return change, gone, [m.id for m in inserts], texts


def delete_memories(ctx: Any, scope: Scope, ids: Sequence[str], *, now: datetime, reason: str, op: Op = Op.PURGE,
                    residue: bool = False):
    """Delete ``ids`` of ``scope`` and everything derived from them; returns a ``DeletionReport`` (ids only).

    Ids that are not in the scope are ignored (the facade checks them first).
    Every read path stops returning the deleted content when this returns. The
    store's leftovers of deleted text outside any row (index segments,
    write-ahead log) are rewritten by the next worker pass, or right away
    with ``residue=True``: that rewrite costs time proportional to the whole
    store, so it stays off the request path.
    """
    rules = summaries.Rules()
    deleted: list[str] = []
    regenerated: list[str] = []
    texts: list[str] = []
    todo = list(ids)
    for round_ in range(MAX_ROUNDS):
        if not todo:
            break
        change, gone, fresh, gone_texts = plan_deletion(ctx, scope, todo, now, reason, op, rules)
        if change:
            try:
                ctx.store.apply(scope, change)
            except Conflict:
                if round_ == MAX_ROUNDS - 1:
                    raise
                continue  # something changed under us: read again and re-plan
        deleted.extend(i for i in gone if i not in deleted)
        regenerated.extend(fresh)
        texts.extend(gone_texts)
        # A consolidation committed by a worker while we read would still cite
        # a deleted id: look again, and cascade into whatever appeared.
        todo = [
            c.id
            for i in gone
            for c in ctx.store.citing(scope, i)
            if c.source is Source.CONSOLIDATED and i in c.source_refs and c.status is not Status.DELETED and c.id not in fresh
        ]
    invalidate_cache(ctx.embedder, texts)
    if residue and deleted:
        purge_residue(ctx.store)
    return DeletionReport(deleted=deleted, regenerated=regenerated)


def delete_scope(ctx: Any, scope: Scope, *, now: datetime) -> int:
    """Account deletion: every record, vector, index entry and audit line of ``scope``; nobody else's."""
    texts = [m.text for m in ctx.store.export(scope) if m.text]
    n = ctx.store.delete_scope(scope)
    invalidate_cache(ctx.embedder, texts)
    return n


def purge_residue(store: Any) -> None:
    """Ask the engine to rewrite leftovers of deleted text outside rows, if it declares ``ResidueStore``."""
    from kenning.stores.base import ResidueStore, supports

    if supports(store, ResidueStore):
        store.purge_residue()


def invalidate_cache(embedder: Any, texts: Sequence[str]) -> int:
    """Drop cached embeddings whose text contains, or is contained in, a deleted text; returns how many."""
    discard = getattr(embedder, "discard", None)
    lowered = [t.lower() for t in texts if t]
    if discard is None or not lowered:
        return 0
    return discard(lambda key: any(key.lower() in t or t in key.lower() for t in lowered))
