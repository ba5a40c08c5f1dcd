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

``kenning worker`` loops over every scope on a schedule; a lease per scope
keeps concurrent workers from doing the same work at once (a killed worker's
lease expires after ``--lease-ttl`` seconds and the scope is picked up again).
"""

from __future__ import annotations

import logging
import os
import socket
import time
from datetime import datetime
from typing import Any

import click

from kenning.context import Context
from kenning.errors import Conflict, KenningError
from kenning.lifecycle import cascade
from kenning.types import Scope, new_id, now_utc

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


def maintain_all(ctx: Context, *, now: datetime) -> list[dict[str, Any]]:
    """``maintain_scope`` for every scope holding memories (what ``Kenning.maintain`` runs)."""
    reports = [maintain_scope(ctx, s, now=now, purge=False) for s in ctx.store.scopes()]
    cascade.purge_residue(ctx.store)  # leftovers of this pass's and the request path's deletions
    return reports


def run_once(ctx: Context, *, holder: str, lease_ttl_s: float, now: datetime | None = None) -> list[dict[str, Any]]:
    """One pass over every scope whose lease this holder can take; returns the reports of the scopes it did."""
    reports = []
    for scope in ctx.store.scopes():
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
    cascade.purge_residue(ctx.store)  # leftovers of this pass's and the request path's deletions
    return reports


@click.command("worker")
@click.option("--db", "db", default=None, help="sqlite:///path.db or postgresql://… (default: KENNING_DB or the user data dir)")
@click.option("--interval", default=60.0, show_default=True, type=click.FloatRange(min=0.0), help="seconds between passes")
@click.option("--once", is_flag=True, help="run one pass over every scope and exit")
@click.option("--lease-ttl", default=300.0, show_default=True, type=click.FloatRange(min=0.1),
              help="seconds a scope stays claimed by a worker that stopped answering")
def worker_cmd(db: str | None, interval: float, once: bool, lease_ttl: float) -> None:
    """Run background work (reconciliation, consolidation, forgetting) on a schedule."""
    import kenning
    from kenning.config import Settings

    settings = Settings()
    holder = f"{socket.gethostname()}:{os.getpid()}:{new_id('wrk')}"
    with kenning.open(db or settings.db, settings=settings) as system:
        try:
            while True:
                started = time.monotonic()
                reports = run_once(system.ctx, holder=holder, lease_ttl_s=lease_ttl)
                click.echo(f"worker pass: {len(reports)} scope(s) maintained", err=True)
                if once:
                    return
                time.sleep(max(0.0, interval - (time.monotonic() - started)))
        except KeyboardInterrupt:  # Ctrl-C between or during passes: every write so far is whole
            click.echo("worker stopped", err=True)


__all__ = ["maintain_scope", "maintain_all", "run_once", "worker_cmd"]
