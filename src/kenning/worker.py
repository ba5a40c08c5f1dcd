"""Background work: pending reconciliation, consolidation, forgetting.

``maintain_scope`` runs one user's jobs to completion, in order:
reconciliation of provisional records (the write path), repair of an
attribute left with two active values, consolidation, then forgetting
(expiry purge, decay eviction, capacity budget). Every step is a pure
decision applied as one guarded atomic write, so:

- a process killed half-way leaves each decision fully written or not at all,
  and the next run recomputes whatever was not written;
- two workers (or a worker and ``Kenning.maintain``) racing on the same scope
  never apply a decision twice: the second write's guards fail and it is
  skipped as done.

A pass visits only scopes with work (``ScheduleStore``): every write marks
its scope (the write generation moves past the one the last pass finished),
and each pass records per scope when time alone next makes work (the
earliest expiry or decay, ``forget.next_due``). An idle scope that is not
due costs one row comparison. The mark is cleared only after the scope's
work has committed, and only if nobody but the pass wrote meanwhile, so a
killed pass or a concurrent write leaves the scope marked for the next.

``kenning worker`` (in ``kenning.cli``) runs passes on a schedule; a lease per scope
keeps concurrent workers from doing the same work at once (a killed worker's
lease expires after ``--lease-ttl`` seconds and the scope is picked up again).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime
from typing import Any

from kenning.lifecycle.context import Context
from kenning.errors import ConfigError, Conflict, KenningError
from kenning.lifecycle import cascade
from kenning.progress import Progress
from kenning.stores.base import ScheduleStore, StoreBase, supports
from kenning.types import Scope, now_utc

log = logging.getLogger("kenning.worker")


class _Counted(StoreBase):
    """The store, counting the writes (each one generation of its scope) that one scope's work makes.

    ``finish_scope`` compares them with how far the scope's generation moved:
    if only this work wrote, the scope is clean; otherwise it stays marked.
    ``insert``/``retire``/``delete`` come from ``StoreBase`` and so go through
    ``apply`` here; everything else is the store's own.
    """

    def __init__(self, store: Any) -> None:
        self._store = store
        self.writes = 0

    def apply(self, scope: Scope, change: Any) -> None:
        self._store.apply(scope, change)
        if change:  # an empty change writes nothing and moves no generation
            self.writes += 1

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def _steps(ctx: Context, scope: Scope, now: datetime) -> tuple[dict[str, Any], datetime | None]:
    """Reconcile, repair, consolidate and forget for one scope; the report and when time alone next makes work."""
    from kenning.lifecycle import consolidate, forget, repair, write
    from kenning.types import Status

    report: dict[str, Any] = {"scope": str(scope)}
    report["reconciled"] = write.reconcile_pending(ctx, scope, now)
    report["repaired"] = repair.repair_scope(ctx, scope, now)
    written: list[str] = []
    for _ in range(3):  # a Conflict skips a decision; re-planning picks up what it left
        try:
            fresh = consolidate.consolidate_scope(ctx, scope, now)
        except Conflict:
            continue
        written.extend(fresh)
        if not fresh:
            break
    report["consolidated"] = written
    forgot, due = forget.forget_and_schedule(ctx, scope, now)
    report.update(forgot)
    if ctx.store.count(scope, statuses=(Status.PROVISIONAL,)):
        due = now  # a claim left undecided (its decider failed, or the scope kept moving): the next pass retries
    return report, due


def maintain_scope(ctx: Context, scope: Scope, *, now: datetime, purge: bool = True, seen: int | None = None) -> dict[str, Any]:
    """Reconcile, repair, consolidate and forget for one scope at ``now``; returns what each step did (counts and ids).

    With ``purge``, leftovers of text it deleted are rewritten in the engine
    right away; passes over many scopes do that once at the end instead.
    ``seen`` is the scope's write generation read before the work (from
    ``ScheduleStore.pending_scopes``): once the work is committed, the scope is
    recorded as done up to it, with its next due time. Without it (one scope
    maintained on request), the schedule is left as it is.
    """
    counted = _Counted(ctx.store)
    report, due = _steps(replace(ctx, store=counted), scope, now)
    if seen is not None and supports(ctx.store, ScheduleStore):
        # only now, after every write of the work committed: a crash before this leaves the scope marked
        ctx.store.finish_scope(scope, seen, counted.writes, due)
    if purge:
        cascade.purge_residue(ctx.store)
    return report


def _work(ctx: Context, now: datetime) -> list[tuple[Scope, int | None]]:
    """The scopes a pass visits: written or due ones (``ScheduleStore``), else every scope."""
    if supports(ctx.store, ScheduleStore):
        return ctx.store.pending_scopes(now)
    return [(s, None) for s in ctx.store.scopes()]


def maintain_all(ctx: Context, *, now: datetime, progress: Progress | None = None) -> list[dict[str, Any]]:
    """``maintain_scope`` for every scope with work: written since its work was last done, or due (``Kenning.maintain``).

    ``progress(done, total, scope)`` is called after each scope.
    """
    scopes = _work(ctx, now)
    reports = []
    for i, (s, seen) in enumerate(scopes, 1):
        reports.append(maintain_scope(ctx, s, now=now, purge=False, seen=seen))
        if progress:
            progress(i, len(scopes), str(s))
    cascade.purge_residue(ctx.store)  # leftovers of this pass's and the request path's deletions
    return reports


def run_once(
    ctx: Context, *, holder: str, lease_ttl_s: float, now: datetime | None = None, progress: Progress | None = None
) -> list[dict[str, Any]]:
    """One pass over every scope with work whose lease this holder can take; returns the reports of the scopes it did."""
    from kenning.stores.base import LeaseStore

    if not supports(ctx.store, LeaseStore):
        raise ConfigError("this store has no leases (LeaseStore), so workers cannot share it: run Kenning.maintain() in one process")
    reports = []
    scopes = _work(ctx, now or now_utc())
    for i, (scope, seen) in enumerate(scopes, 1):
        if progress:
            progress(i - 1, len(scopes), str(scope))
        at = now or now_utc()
        name = f"maintain:{scope.tenant_id}\x1f{scope.user_id}"
        if not ctx.store.acquire_lease(name, holder, at, lease_ttl_s):
            continue  # another worker is on it
        try:
            reports.append(maintain_scope(ctx, scope, now=at, purge=False, seen=seen))
        except KenningError as exc:
            # One scope's failure must not stop the others; its work stays undone
            # (nothing half-applied, the scope still marked) and the next pass retries it. Ids only in logs.
            log.warning("maintenance of %s failed: %s", scope, type(exc).__name__)
        finally:
            ctx.store.release_lease(name, holder)
    if progress:
        progress(len(scopes), len(scopes), "")
    cascade.purge_residue(ctx.store)  # leftovers of this pass's and the request path's deletions
    return reports


__all__ = ["maintain_scope", "maintain_all", "run_once"]
