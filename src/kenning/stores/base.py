"""The Store protocol: what every storage engine provides.

Every method that touches memories takes a ``Scope`` and the engine applies
it inside the query it sends, never to results afterwards. An engine that
cannot honour an argument raises; it never drops it silently.

Writes go through one primitive, ``apply(scope, changeset)``, which is
atomic: all of a decision is written or none of it. ``insert``, ``retire``
and ``delete`` are conveniences derived from it in ``StoreBase``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

import numpy as np

from kenning.errors import Conflict, ValidationError
from kenning.stores.partition import Partition
from kenning.types import (
    ApiKey,
    AuditEntry,
    Changeset,
    Kind,
    Memory,
    Op,
    Scope,
    Status,
    Transition,
    new_id,
)

RETRIEVABLE = (Status.ACTIVE,)


@dataclass(frozen=True, slots=True)
class Scored:
    """A raw engine match: the memory and a similarity (cosine, or keyword rank score)."""

    memory: Memory
    similarity: float


@runtime_checkable
class Store(Protocol):
    """A scoped, transactional memory store."""

    def apply(self, scope: Scope, change: Changeset) -> None:
        """Apply ``change`` atomically within ``scope``.

        Raises ``Conflict`` (and writes nothing) if a transition's guard does
        not hold or a record belongs to another scope; ``ValidationError`` if
        an inserted memory is not of ``scope``.
        """

    def get(self, scope: Scope, memory_id: str) -> Memory | None:
        """The memory with this id in this scope, any status; None otherwise."""

    def get_many(self, scope: Scope, ids: Sequence[str]) -> list[Memory]:
        """Memories of this scope among ``ids`` (any status), in no particular order."""

    def search_vector(
        self,
        scope: Scope,
        vector: np.ndarray,
        *,
        k: int,
        now: datetime,
        statuses: Sequence[Status] = RETRIEVABLE,
    ) -> list[Scored]:
        """Exact cosine top-k among unexpired memories of the scope, best first."""

    def search_keywords(
        self,
        scope: Scope,
        query: str,
        *,
        k: int,
        now: datetime,
        statuses: Sequence[Status] = RETRIEVABLE,
    ) -> list[Scored]:
        """Full-text top-k among unexpired memories of the scope; similarity > 0, best first."""

    def partition(self, scope: Scope) -> Partition:
        """The scope's active and provisional records as one in-memory ``Partition`` (what search scores), current now.

        Engines cache it per scope, invalidated by the scope's write generation.
        """

    def records(self, scope: Scope, part: Partition, positions: Sequence[int]) -> list[Memory]:
        """Whole records for these positions of ``part``, in order, leaving out any no longer active or provisional."""

    def touch(self, scope: Scope, ids: Sequence[str], now: datetime) -> None:
        """Set ``last_used_at = now`` on these memories of the scope."""

    def list(
        self,
        scope: Scope,
        *,
        statuses: Sequence[Status] = RETRIEVABLE,
        kinds: Sequence[Kind] | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[Memory]:
        """Memories of the scope, newest first."""

    def count(self, scope: Scope, *, statuses: Sequence[Status] = RETRIEVABLE) -> int:
        """How many memories of the scope have one of ``statuses``."""

    def citing(self, scope: Scope, memory_id: str) -> list[Memory]:
        """Memories of the scope whose ``source_refs`` or ``supersedes`` name ``memory_id``."""

    def export(self, scope: Scope) -> list[Memory]:
        """Every record of the scope, whatever its status, oldest first, with embeddings."""

    def audit(self, scope: Scope, memory_id: str | None = None) -> list[AuditEntry]:
        """Audit entries of the scope (for one memory if given), oldest first."""

    def delete_scope(self, scope: Scope) -> int:
        """Remove every record and audit entry of the scope; return how many memories went."""

    def scopes(self) -> list[Scope]:
        """Every scope holding memories. Administrative: for the background worker only."""

    def acquire_lease(self, name: str, holder: str, now: datetime, ttl_s: float) -> bool:
        """Take or renew the named lease for ``holder`` unless another holds it unexpired."""

    def release_lease(self, name: str, holder: str) -> None:
        """Give the lease back if ``holder`` holds it."""

    # -- tenant API keys and database secrets (administrative, not memory data) --

    def put_api_key(self, key: ApiKey) -> None:
        """Store a new API key record; ``Conflict`` if its id or hash already exists."""

    def find_api_key(self, key_hash: str) -> ApiKey | None:
        """The key with this sha256 hex, revoked or not; None if unknown.

        The one lookup not scoped by tenant: it is how a request's tenant is found.
        """

    def list_api_keys(self, tenant_id: str) -> list[ApiKey]:
        """The tenant's keys (revoked ones too), oldest first."""

    def revoke_api_key(self, tenant_id: str, key_id: str, now: datetime) -> bool:
        """Mark the tenant's key revoked at ``now``; False if the tenant has no such unrevoked key."""

    def secret(self, name: str, candidate: str) -> str:
        """The secret stored under ``name``; stores ``candidate`` first if there is none (atomically)."""

    def close(self) -> None:
        """Release connections. Idempotent."""


class StoreBase:
    """Conveniences derived from ``apply``; engines inherit them."""

    def apply(self, scope: Scope, change: Changeset) -> None:  # pragma: no cover
        raise NotImplementedError

    @staticmethod
    def check_change(scope: Scope, change: Changeset, dim: int) -> None:
        """Refuse (ValidationError, nothing written) records or audit lines of another scope and vectors of another size."""
        for m in change.inserts:
            if m.scope != scope:
                raise ValidationError("an inserted memory does not belong to the scope it is written to")
            if m.embedding is not None and m.embedding.shape != (dim,):
                raise ValidationError(f"embedding has shape {m.embedding.shape}; this store holds {dim} dims")
        for a in change.audit:
            if (a.tenant_id, a.user_id) != (scope.tenant_id, scope.user_id):
                raise ValidationError("an audit entry does not belong to the scope it is written to")

    def insert(self, scope: Scope, memories: Iterable[Memory], *, reason: str = "", now: datetime | None = None) -> None:
        mems = tuple(memories)
        for m in mems:
            if m.scope != scope:
                raise ValidationError("memory does not belong to the scope it is written to")
        at = now or (mems[0].created_at if mems else None)
        audit = (audit_entry(scope, at, Op.ADD, [m.id for m in mems], mems[0].source.value, reason),) if mems else ()
        self.apply(scope, Changeset(inserts=mems, audit=audit))

    def retire(self, scope: Scope, ids: Sequence[str], now: datetime, *, reason: str = "") -> None:
        trans = tuple(Transition(i, (Status.ACTIVE, Status.PROVISIONAL), Status.RETIRED) for i in ids)
        self.apply(scope, Changeset(transitions=trans, audit=(audit_entry(scope, now, Op.DELETE, ids, "", reason),)))

    def delete(self, scope: Scope, ids: Sequence[str], now: datetime, *, reason: str = "") -> None:
        self.apply(scope, Changeset(deletes=tuple(ids), audit=(audit_entry(scope, now, Op.PURGE, ids, "", reason),)))


def audit_entry(scope: Scope, at: datetime | None, op: Op, ids: Iterable[str], source: str = "", reason: str = "") -> AuditEntry:
    """Build an audit line for ``scope``; ``reason`` must never carry memory content."""
    from kenning.types import now_utc

    return AuditEntry(new_id("aud"), scope.tenant_id, scope.user_id, at or now_utc(), op, tuple(ids), source, reason)


__all__ = ["Store", "StoreBase", "Scored", "RETRIEVABLE", "Conflict", "audit_entry"]
