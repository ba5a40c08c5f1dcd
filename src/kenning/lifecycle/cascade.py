"""Explicit deletion. (Foundation version: the record and its supersedes chain; the
full cascade through consolidated memories arrives with the lifecycle issue.)"""

from __future__ import annotations

from datetime import datetime
from typing import Sequence

from kenning.context import Context
from kenning.stores.base import audit_entry
from kenning.types import Changeset, Op, Scope


def delete_memories(ctx: Context, scope: Scope, ids: Sequence[str], *, now: datetime, reason: str):
    from kenning.memory import DeletionReport

    store = ctx.store
    doomed: dict[str, None] = {}
    frontier = list(ids)
    while frontier:
        mems = store.get_many(scope, [i for i in frontier if i not in doomed])
        for m in mems:
            doomed[m.id] = None
        frontier = [s for m in mems for s in m.supersedes if s not in doomed]
    if not doomed:
        return DeletionReport()
    store.apply(scope, Changeset(deletes=tuple(doomed), audit=(audit_entry(scope, now, Op.PURGE, doomed, "", reason),)))
    return DeletionReport(deleted=list(doomed))


def delete_scope(ctx: Context, scope: Scope, *, now: datetime) -> int:
    return ctx.store.delete_scope(scope)
