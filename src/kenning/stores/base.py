"""The store protocols: what a storage engine provides.

``MemoryStore`` is all an engine must implement to hold memories. The rest
are separate, small capabilities an engine declares by inheriting them:
``KeyStore`` (tenant API keys and database secrets, for the server),
``LeaseStore`` (per-scope leases, for ``kenning worker`` beside other
workers), ``ResidueStore`` (rewriting what deletions leave outside rows) and
``PartitionStore`` (a cached per-scope search partition, the fast search path),
``ActiveSetStore`` (decisions serialised per scope across processes) and
``ScheduleStore`` (which scopes have background work).
``Store`` is the everyday ones together (memories, leases, keys, partition), what the built-in engines are.
Callers check a capability with ``supports(store, KeyStore)``.

Every method that touches memories takes a ``Scope`` and the engine applies
it inside the query it sends, never to results afterwards. An engine that
cannot honour an argument raises; it never drops it silently.

Writes go through one primitive, ``apply(scope, changeset)``, which is
atomic: all of a decision is written or none of it. ``insert``, ``retire``
and ``delete`` are conveniences derived from it in ``StoreBase``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, TypeVar, runtime_checkable

import numpy as np

from kenning.errors import Conflict, ValidationError
from kenning.stores.partition import Partition
from kenning.types import (
    ApiKey,
    AuditEntry,
    Changeset,
    Filter,
    Kind,
    Memory,
    Op,
    Scope,
    Status,
    Transition,
    new_id,
)

RETRIEVABLE = (Status.ACTIVE,)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Scored:
    """A raw engine match: the memory and a similarity (cosine, or keyword rank score)."""

    memory: Memory
    similarity: float


@runtime_checkable
class MemoryStore(Protocol):
    """A scoped, transactional memory store: the whole of what an engine must implement."""

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
        where: Filter | None = None,
    ) -> list[Scored]:
        """Exact cosine top-k among unexpired memories of the scope that ``where`` keeps, best first.

        The filter is part of the query: the top k are the best of the kept records.
        """

    def search_keywords(
        self,
        scope: Scope,
        query: str,
        *,
        k: int,
        now: datetime,
        statuses: Sequence[Status] = RETRIEVABLE,
        where: Filter | None = None,
    ) -> list[Scored]:
        """Full-text top-k among unexpired memories of the scope that ``where`` keeps; similarity > 0, best first."""

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
        where: Filter | None = None,
    ) -> list[Memory]:
        """Memories of the scope that ``where`` keeps, newest first."""

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

    def close(self) -> None:
        """Release connections. Idempotent."""


@runtime_checkable
class LeaseStore(Protocol):
    """Named, expiring leases, so several workers can share the background work."""

    def acquire_lease(self, name: str, holder: str, now: datetime, ttl_s: float) -> bool:
        """Take or renew the named lease for ``holder`` unless another holds it unexpired."""

    def release_lease(self, name: str, holder: str) -> None:
        """Give the lease back if ``holder`` holds it."""


@runtime_checkable
class ActiveSetStore(Protocol):
    """An engine that serialises decisions per scope: ``Changeset.active_gen`` is honoured by ``apply``.

    A decision read against the scope's active memories (reconciliation, its
    repair) carries the generation it read; the engine checks it inside the
    same write that applies the decision, so two processes deciding one
    attribute at once cannot both activate a value: the second gets
    ``Conflict`` and plans again against what the first wrote.
    """

    def active_generation(self, scope: Scope) -> int:
        """A number that changes, in every process, whenever a memory of ``scope`` becomes active or stops being active."""


@runtime_checkable
class ScheduleStore(Protocol):
    """An engine that knows which scopes have background work, so a worker pass touches only those.

    Every write marks its scope (the write generation moves); ``finish_scope``
    records what a pass completed and when the scope is next due without a write.
    """

    def pending_scopes(self, now: datetime) -> list[tuple[Scope, int]]:
        """Scopes written since their work was last finished, or due by ``now``, each with its write generation now."""

    def finish_scope(self, scope: Scope, seen: int, writes: int, due_at: datetime | None) -> bool:
        """Record that the scope's work as of generation ``seen`` is done and committed, and when it is next due.

        ``writes`` is how many writes the pass itself made: if the generation
        is exactly ``seen + writes``, nobody else wrote meanwhile and the scope
        is clean (returns True); otherwise it stays marked for the next pass.
        """


@runtime_checkable
class KeyStore(Protocol):
    """Tenant API keys and database secrets: administrative, not memory data (the server needs it)."""

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


@runtime_checkable
class ResidueStore(Protocol):
    """An engine whose deletions leave residue outside rows (index segments, old pages) to rewrite later."""

    def purge_residue(self) -> None:
        """Rewrite what deletions since the last purge left behind (cheap when there is nothing)."""


@runtime_checkable
class PartitionStore(Protocol):
    """An engine that serves unfiltered search from a cached per-scope ``Partition`` (``stores.partition``).

    The facade ranks such a store's searches in numpy over the partition and
    asks for whole records only for the k it returns; a store without it (or a
    filtered search) goes through ``search_vector`` and ``search_keywords``.
    """

    def partition(self, scope: Scope) -> Partition:
        """The scope's active and provisional records as one in-memory ``Partition`` (what search scores), current now.

        Engines cache it per scope, invalidated by the scope's write generation.
        """

    def records(self, scope: Scope, part: Partition, positions: Sequence[int]) -> list[Memory]:
        """Whole records for these positions of ``part``, in order, leaving out any no longer active or provisional."""

    def ranked(
        self,
        scope: Scope,
        rank: Callable[[Partition], T],
        refresh: Callable[[T], Sequence[str]] | None = None,
        now: datetime | None = None,
        finish: Callable[[Partition, T], Any] | None = None,
    ) -> tuple[Partition, Any]:
        """The scope's current partition and ``rank`` of it (then ``finish(part, result)``, if given); with
        ``refresh``, ``touch`` at ``now`` of the ids ``refresh(result)`` names.

        ``rank`` and ``finish`` may read records through the store; ``refresh``
        must not call it. An engine may run ``rank`` on its cached partition
        and confirm that the partition is current afterwards, in the same round
        trip as the refresh write (ranking again on the fresh partition if it
        was not), so a client/server engine pays one round trip per search, and
        may run ``finish`` while that round trip travels.
        """
        part = self.partition(scope)
        result = rank(part)
        ids = refresh(result) if refresh is not None else ()
        if ids:
            self.touch(scope, ids, now)  # type: ignore[attr-defined]  # every engine is a MemoryStore
        return part, (finish(part, result) if finish is not None else result)


@runtime_checkable
class Store(MemoryStore, LeaseStore, KeyStore, PartitionStore, Protocol):
    """A memory store with leases, keys and a search partition: what the built-in engines are."""


def supports(store: object, capability: type) -> bool:
    """Whether ``store`` provides ``capability`` (``KeyStore``, ``LeaseStore``, ``ResidueStore``, ``PartitionStore``,
    ``ActiveSetStore``, ``ScheduleStore``)."""
    return isinstance(store, capability)


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


__all__ = ["MemoryStore", "ActiveSetStore", "ScheduleStore", "KeyStore", "LeaseStore", "ResidueStore", "PartitionStore", "Store", "supports", "StoreBase", "Scored", "RETRIEVABLE", "Conflict", "audit_entry"]
