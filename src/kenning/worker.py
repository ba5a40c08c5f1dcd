"""Background work: pending reconciliation, consolidation, forgetting. (Foundation version:
reconciliation only; consolidation and forgetting arrive with the lifecycle issue.)"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from kenning.context import Context
from kenning.types import Scope


def maintain_scope(ctx: Context, scope: Scope, *, now: datetime) -> dict[str, Any]:
    from kenning.lifecycle import write

    return {"scope": str(scope), "reconciled": write.reconcile_pending(ctx, scope, now)}


def maintain_all(ctx: Context, *, now: datetime) -> list[dict[str, Any]]:
    return [maintain_scope(ctx, s, now=now) for s in ctx.store.scopes()]
