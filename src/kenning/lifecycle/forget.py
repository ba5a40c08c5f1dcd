"""Forgetting without being asked: expiry purge, decay eviction and capacity budgets.

The decisions are pure functions over records, a scoring ``Policy`` and a
``now``; ``forget_scope`` applies them, each as guarded atomic writes whose
audit entries hold ids only.

- Expiry: an expired record is already invisible to retrieval; the purge
  turns it (and any earlier version of it) into a tombstone, through the
  deletion cascade, so no read path can find its text.
- Decay: a memory whose retention value (the retrieval score without the
  query-dependent relevance) has stayed below its kind's floor for the
  kind's grace period is evicted. Facts and procedures have no floor: they
  never decay away; preferences fade far more slowly than episodes.
- Capacity: when a user holds more active memories than the budget, the
  lowest-value ones go first; facts and procedures of high importance are
  never evicted, even if the budget stays exceeded.

Evicted records become tombstones (status ``deleted``, no text, no vector).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from kenning.lifecycle.retrieve import Policy, recency
from kenning.types import Kind, Memory, Scope, Status


@dataclass(frozen=True)
class Retention:
    """Per-kind floors and grace periods of decay, and what capacity eviction protects.

    ``floor[kind] = None``: that kind never decays away.
    """

    floor: Mapping[Kind, float | None] = field(
        default_factory=lambda: {Kind.EPISODE: 0.25, Kind.PREFERENCE: 0.15, Kind.FACT: None, Kind.PROCEDURE: None}
    )
    grace_days: Mapping[Kind, float] = field(
        default_factory=lambda: {Kind.EPISODE: 30.0, Kind.PREFERENCE: 365.0, Kind.FACT: 0.0, Kind.PROCEDURE: 0.0}
    )
    protect_importance: float = 0.7
    protected_kinds: tuple[Kind, ...] = (Kind.FACT, Kind.PROCEDURE)


def value(m: Memory, at: datetime, policy: Policy) -> float:
    """Retention value in [0, 1]: recency and importance as retrieval weighs them, scaled by trust."""
    w = policy.w_recency + policy.w_importance
    base = (policy.w_recency * recency(m, at, policy) + policy.w_importance * m.importance) / w
    return base * (1.0 - policy.confidence_weight * (1.0 - m.confidence))


def expired(records: Sequence[Memory], now: datetime) -> list[Memory]:
    """Records past their ``expires_at`` that still hold content (any status but deleted)."""
    return [m for m in records if m.status is not Status.DELETED and m.is_expired(now)]


def decayed(records: Sequence[Memory], now: datetime, policy: Policy, retention: Retention = Retention()) -> list[Memory]:
    """Active memories whose value has been below their kind's floor for the whole grace period.

    Value only falls between uses (reading refreshes ``last_used_at``), so
    "below the floor since ``now - grace``" is the same as "below the floor
    at ``now - grace``, and unused since".
    """
    out = []
    for m in records:
        floor = retention.floor.get(m.kind)
        if m.status is not Status.ACTIVE or floor is None:
            continue
        since = now - timedelta(days=retention.grace_days.get(m.kind, 0.0))
        if m.last_used_at <= since and value(m, since, policy) < floor:
            out.append(m)
    return out


def protected(m: Memory, retention: Retention = Retention()) -> bool:
    """High-importance facts and procedures: capacity eviction never takes them."""
    return m.kind in retention.protected_kinds and m.importance >= retention.protect_importance


def over_capacity(
    records: Sequence[Memory], capacity: int, now: datetime, policy: Policy, retention: Retention = Retention()
) -> list[Memory]:
    """The lowest-value active memories to evict so at most ``capacity`` stay (fewer if too many are protected)."""
    active = [m for m in records if m.status is Status.ACTIVE]
    excess = len(active) - capacity
    if excess <= 0:
        return []
    evictable = sorted(
        (m for m in active if not protected(m, retention)), key=lambda m: (value(m, now, policy), m.created_at, m.id)
    )
    return evictable[:excess]


def evictable_at(m: Memory, policy: Policy, retention: Retention = Retention()) -> datetime | None:
    """The first instant ``decayed`` takes ``m`` if nobody uses it meanwhile; None if it never decays away.

    Value falls from ``last_used_at`` on as recency halves every half-life, so
    the instant it drops below the floor solves ``0.5 ** (age / h) = x``; the
    grace period then runs from there.
    """
    floor = retention.floor.get(m.kind)
    if m.status is not Status.ACTIVE or floor is None:
        return None
    grace = timedelta(days=retention.grace_days.get(m.kind, 0.0))
    trust = 1.0 - policy.confidence_weight * (1.0 - m.confidence)
    w = policy.w_recency + policy.w_importance
    # value < floor  <=>  w_recency * recency < floor * w / trust - w_importance * importance
    room = (floor * w / trust if trust > 0 else math.inf) - policy.w_importance * m.importance
    h = policy.half_life(m.kind)
    if h is None or policy.w_recency <= 0:
        constant = policy.w_recency if h is None else 0.0  # recency stays 1 (a kind that never fades), or weighs nothing
        return m.last_used_at + grace if constant < room else None
    if room <= 0:
        return None
    x = room / policy.w_recency
    if x > 1.0:
        return m.last_used_at + grace
    age_days = h * math.log2(1.0 / x)
    return m.last_used_at + timedelta(days=age_days, seconds=1) + grace  # a second past the crossing: strictly below


def next_due(records: Sequence[Memory], policy: Policy, retention: Retention = Retention()) -> datetime | None:
    """When time alone next gives ``forget_scope`` work on these records: the earliest expiry or decay; None for never.

    Capacity and consolidation depend only on which memories are active, so a
    write (which marks the scope) is what brings them back, never the clock.
    """
    times = [m.expires_at for m in records if m.status is not Status.DELETED and m.expires_at is not None]
    times += [t for m in records if (t := evictable_at(m, policy, retention)) is not None]
    return min(times, default=None)


# -- the job --------------------------------------------------------------------


def evict(ctx: Any, scope: Scope, ids: Sequence[str], now: datetime, reason: str) -> list[str]:
    """Tombstone these active memories, each only if still active; returns those evicted by this call.

    One atomic write for the batch; if another writer changed one of them
    meanwhile, each is retried alone so the rest still go and nothing goes twice.
    """
    from kenning.errors import Conflict
    from kenning.stores.base import audit_entry
    from kenning.types import Changeset, Op, Transition

    def change(batch: Sequence[str]) -> Changeset:
        return Changeset(
            transitions=tuple(Transition(i, (Status.ACTIVE,), Status.DELETED) for i in batch),
            deletes=tuple(batch),
            audit=(audit_entry(scope, now, Op.EVICT, batch, "", reason),),
        )

    if not ids:
        return []
    try:
        ctx.store.apply(scope, change(ids))
        return list(ids)
    except Conflict:
        done = []
        for i in ids:
            try:
                ctx.store.apply(scope, change([i]))
                done.append(i)
            except Conflict:
                continue  # no longer active: someone else evicted, updated or deleted it
        return done


def forget_scope(ctx: Any, scope: Scope, now: datetime, retention: Retention = Retention()) -> dict[str, int]:
    """Expiry purge, then decay eviction, then the capacity budget, for one scope; returns counts."""
    return forget_and_schedule(ctx, scope, now, retention)[0]


def forget_and_schedule(
    ctx: Any, scope: Scope, now: datetime, retention: Retention = Retention()
) -> tuple[dict[str, int], datetime | None]:
    """``forget_scope``, and when time alone next gives this scope work (``next_due`` of what is left; None for never)."""
    from kenning.lifecycle import cascade
    from kenning.types import Op

    store, policy = ctx.store, ctx.policy
    everything = store.list(scope, statuses=(Status.ACTIVE, Status.PROVISIONAL, Status.RETIRED))
    gone = expired(everything, now)
    purged = cascade.delete_memories(ctx, scope, [m.id for m in gone], now=now, reason="expired", op=Op.EXPIRE, residue=False) if gone else None
    active = store.list(scope, statuses=(Status.ACTIVE,))
    decays = evict(ctx, scope, [m.id for m in decayed(active, now, policy, retention)], now, "decay")
    left = [m for m in active if m.id not in set(decays)]
    capacity = int(getattr(ctx.settings, "capacity", 0) or 0)
    budget = evict(ctx, scope, [m.id for m in over_capacity(left, capacity, now, policy, retention)], now, "capacity") if capacity else []
    gone = {*(purged.deleted if purged else ()), *decays, *budget}
    due = next_due([m for m in everything if m.id not in gone], policy, retention)
    return {"expired": len(purged.deleted) if purged else 0, "decayed": len(decays), "capacity": len(budget)}, due
