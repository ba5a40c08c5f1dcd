"""Background work: pending reconciliation, consolidation, forgetting.

``maintain_scope`` runs one user's jobs to completion, in order:
reconciliation of provisional records (the write path), consolidation, then
forgetting (expiry purge, decay eviction, capacity budget). Every step is a
pure decision applied as one guarded atomic write, so:

- a process killed half-way leaves each decision fully written or not at all,
  and the next run recomputes whatever was not written;
- two workers (or a worker and ``Kenning.maintain``) racing on the same scope
  never apply a decision twice: the second write's guards fail and it is
  skipped as done.

``kenning worker`` (in ``kenning.cli``) loops over every scope on a schedule; a lease per scope
keeps concurrent workers from doing the same work at once (a killed worker's
lease expires after ``--lease-ttl`` seconds and the scope is picked up again).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from kenning.lifecycle.context import Context
from kenning.errors import ConfigError, Conflict, KenningError
from kenning.lifecycle import cascade
from kenning.progress import Progress
from kenning.types import Scope, now_utc

log = logging.getLogger("kenning.worker")


def maintain_scope(ctx: Context, scope: Scope, *, now: datetime, purge: bool = True) -> dict[str, Any]:
    """Reconcile, consolidate and forget for one scope at ``now``; returns what each step did (counts and ids).

    With ``purge``, leftovers of text it deleted are rewritten in the engine
    right away; passes over many scopes do that once at the end instead.
    """
    from kenning.lifecycle import consolidate, forget, write

    report: dict[str, Any] = {"scope": str(scope)}
    report["reconciled"] = write.reconcile_pending(ctx, scope, now)
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
    report.update(forget.forget_scope(ctx, scope, now))
    if purge:
        cascade.purge_residue(ctx.store)
    return report


def maintain_all(ctx: Context, *, now: datetime, progress: Progress | None = None) -> list[dict[str, Any]]:
    """``maintain_scope`` for every scope holding memories (what ``Kenning.maintain`` runs).

    ``progress(done, total, scope)`` is called after each scope.
    """
    scopes = ctx.store.scopes()
    reports = []
    for i, s in enumerate(scopes, 1):
        reports.append(maintain_scope(ctx, s, now=now, purge=False))
        if progress:
            progress(i, len(scopes), str(s))
    cascade.purge_residue(ctx.store)  # leftovers of this pass's and the request path's deletions
    return reports


def run_once(
    ctx: Context, *, holder: str, lease_ttl_s: float, now: datetime | None = None, progress: Progress | None = None
) -> list[dict[str, Any]]:
    """One pass over every scope whose lease this holder can take; returns the reports of the scopes it did."""
    from kenning.stores.base import LeaseStore, supports

    if not supports(ctx.store, LeaseStore):
        raise ConfigError("this store has no leases (LeaseStore), so workers cannot share it: run Kenning.maintain() in one process")
    reports = []
    scopes = ctx.store.scopes()
    for i, scope in enumerate(scopes, 1):
        if progress:
            progress(i - 1, len(scopes), str(scope))
        at = now or now_utc()
        name = f"maintain:{scope.tenant_id}\x1f{scope.user_id}"
        if not ctx.store.acquire_lease(name, holder, at, lease_ttl_s):
            continue  # another worker is on it
        try:
            reports.append(maintain_scope(ctx, scope, now=at, purge=False))
        except KenningError as exc:
            # One scope's failure must not stop the others; its work stays undone
            # (nothing half-applied) and the next pass retries it. Ids only in logs.
            log.warning("maintenance of %s failed: %s", scope, type(exc).__name__)
        finally:
            ctx.store.release_lease(name, holder)
    if progress:
        progress(len(scopes), len(scopes), "")
    cascade.purge_residue(ctx.store)  # leftovers of this pass's and the request path's deletions
    return reports


__all__ = ["maintain_scope", "maintain_all", "run_once"]
