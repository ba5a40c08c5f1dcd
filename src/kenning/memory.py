"""The facade: ``kenning.open(...)`` wires the parts once; ``.scope(tenant, user)`` is what callers hold.

Every front end (CLI, REST, MCP, the web page, the evaluation runner) calls
this module and nothing below it. Every call that depends on time takes an
optional ``now`` (timezone-aware); the default is the wall clock.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import Counter, OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from threading import Lock
from typing import Any

from kenning.config import Settings
from kenning.context import Context
from kenning.embedders.base import Embedder
from kenning.errors import NotFound, ValidationError
from kenning.lifecycle import retrieve
from kenning.lifecycle.retrieve import Policy
from kenning.stores.base import Store, audit_entry
from kenning.types import (
    ApiKey,
    DEFAULT_CONFIDENCE,
    DEFAULT_IMPORTANCE,
    DeletionReport,
    AuditEntry,
    Changeset,
    Hit,
    Kind,
    Memory,
    Op,
    Scope,
    Sensitivity,
    Source,
    Status,
    Transition,
    enum_value,
    new_id,
    now_utc,
    utc,
)

MAX_K = 200


def open(  # noqa: A001 - the natural name, as in sqlite3/shelve
    url: str | None = None,
    *,
    embedder: Embedder | None = None,
    policy: Policy | None = None,
    settings: Settings | None = None,
    store: Store | None = None,
    llm: Any = None,
) -> "Kenning":
    """Open a memory system: ``sqlite:///path.db`` (default: the user data dir) or ``postgresql://…``.

    Parts not given are built from ``settings`` (defaults: the bundled
    embedder, the offline rules engine, no LLM).
    """
    from kenning import wiring

    settings = settings or Settings.model_construct()
    ctx = wiring.build_context(url, settings=settings, embedder=embedder, policy=policy, store=store, llm=llm)
    return Kenning(ctx)


class Kenning:
    """A memory system over one store. Thread-safe; open once per process."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._refreshes: OrderedDict[tuple[Scope, str], Counter[str]] = OrderedDict()
        self._refresh_lock = Lock()

    def scope(self, tenant_id: str, user_id: str) -> "ScopedMemory":
        """The handle for one tenant's user; every read and write goes through one."""
        return ScopedMemory(self, Scope(tenant_id, user_id))

    user = scope

    def maintain(self, *, now: datetime | None = None) -> list[Any]:
        """Run all background work for every scope to completion (what ``kenning worker`` does on a schedule)."""
        from kenning import worker

        return worker.maintain_all(self.ctx, now=_now(now))

    def maintenance_pass(self, *, holder: str, lease_ttl_s: float = 300.0, now: datetime | None = None) -> list[Any]:
        """One ``kenning worker`` pass: maintain every scope whose lease ``holder`` can take (safe beside other workers)."""
        from kenning import worker

        return worker.run_once(self.ctx, holder=holder, lease_ttl_s=lease_ttl_s, now=now)

    # -- tenant API keys: the server authenticates with these ------------------

    def create_api_key(self, tenant_id: str, name: str = "", *, now: datetime | None = None) -> tuple[Any, str]:
        """Make a key for ``tenant_id``; returns ``(record, raw_key)``. Only the hash is stored: show the raw key once."""
        if not isinstance(name, str) or len(name) > 200:
            raise ValidationError("key name must be a string of at most 200 characters")
        raw = "kn_" + secrets.token_urlsafe(32)
        key = ApiKey(new_id("key"), tenant_id, name, hashlib.sha256(raw.encode()).hexdigest(), _now(now))
        self.ctx.store.put_api_key(key)
        return key, raw

    def authenticate(self, raw_key: str) -> str | None:
        """The tenant an unrevoked ``raw_key`` belongs to; None for anything else."""
        if not isinstance(raw_key, str) or not raw_key.startswith("kn_") or len(raw_key) > 200:
            return None
        key = self.ctx.store.find_api_key(hashlib.sha256(raw_key.encode()).hexdigest())
        return key.tenant_id if key is not None and key.revoked_at is None else None

    def list_api_keys(self, tenant_id: str) -> list[Any]:
        """The tenant's key records (hashes only), oldest first."""
        return self.ctx.store.list_api_keys(tenant_id)

    def revoke_api_key(self, tenant_id: str, key_id: str, *, now: datetime | None = None) -> None:
        """Revoke one of the tenant's keys; ``NotFound`` if the tenant has no such active key."""
        if not self.ctx.store.revoke_api_key(tenant_id, key_id, _now(now)):
            raise NotFound(f"no active key {key_id!r} for this tenant")

    def secret(self, name: str) -> bytes:
        """A random secret persisted in the database under ``name`` (made on first use); e.g. for signing links."""
        return bytes.fromhex(self.ctx.store.secret(name, secrets.token_hex(32)))

    def close(self) -> None:
        self.ctx.store.close()

    def __enter__(self) -> "Kenning":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # Refresh cap: how often retrieval may refresh one memory's last_used_at
    # in one session, so the same few memories do not win for ever.
    def _allowed_refreshes(self, scope: Scope, session: str, ids: Sequence[str]) -> list[str]:
        cap = self.ctx.settings.refresh_cap_per_session
        with self._refresh_lock:
            counts = self._refreshes.setdefault((scope, session), Counter())
            self._refreshes.move_to_end((scope, session))
            while len(self._refreshes) > 10_000:
                self._refreshes.popitem(last=False)
            allowed = [i for i in ids if counts[i] < cap]
            counts.update(allowed)
        return allowed


@dataclass(frozen=True)
class History:
    """A memory's versions (oldest first, following ``supersedes``) and its audit entries."""

    memory: Memory
    versions: list[Memory]
    audit: list[AuditEntry]


class ScopedMemory:
    """Memory operations for one (tenant, user). Obtained from ``Kenning.scope``."""

    def __init__(self, system: Kenning, scope: Scope) -> None:
        self.system = system
        self.ctx = system.ctx
        self.scope = scope

    # -- writes ---------------------------------------------------------------

    def remember(
        self,
        text: str,
        *,
        kind: Kind | str = Kind.FACT,
        importance: float | None = None,
        confidence: float | None = None,
        expires_at: datetime | None = None,
        sensitivity: Sensitivity | str | None = None,
        source: Source | str = Source.USER_SAID,
        source_refs: Iterable[str] = (),
        session_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        context: str | None = None,
        now: datetime | None = None,
    ) -> Memory:
        """Store one claim as given (no extraction, no reconciliation) and return it.

        ``context`` (optional) situates the claim, e.g. the conversation turns
        before it: the stored text stays exactly ``text``, but the vector is
        computed from text and context together (``Context.embed_documents``),
        and keyword evidence counts the context's words at a discount
        (``Policy.context_keyword_weight``). It is kept as
        ``metadata["context"]`` so export/import and re-embedding reproduce the
        vector. Blank means none; a non-string or one longer than
        ``max_text_chars`` raises ValidationError before anything is written.
        """
        at = _now(now)
        kind = enum_value(Kind, kind, "kind")
        source = enum_value(Source, source, "source")
        text = self._clean_text(text)
        context = self._clean_context(context)
        if metadata and "context" in metadata:
            raise ValidationError('metadata key "context" is reserved: pass the context as context=')
        if sensitivity is None:
            from kenning.lifecycle import safety

            sensitivity = safety.sensitivity_of(text)
        mem = Memory(
            id=new_id("mem"),
            tenant_id=self.scope.tenant_id,
            user_id=self.scope.user_id,
            kind=kind,
            text=text,
            embedding=self.ctx.embed_documents(self.scope, [text], [context])[0],
            source=source,
            source_refs=tuple(source_refs),
            created_at=at,
            last_used_at=at,
            importance=DEFAULT_IMPORTANCE[kind] if importance is None else importance,
            confidence=DEFAULT_CONFIDENCE[source] if confidence is None else confidence,
            expires_at=utc(expires_at, "expires_at"),
            sensitivity=sensitivity,
            session_id=session_id,
            metadata={**(metadata or {}), **({"context": context} if context else {})},
        )
        self.ctx.store.insert(self.scope, [mem], reason="remember", now=at)
        return mem

    def add(
        self,
        messages: str | Sequence[dict[str, Any]],
        *,
        session_id: str | None = None,
        now: datetime | None = None,
        wait: bool = False,
    ) -> Any:
        """Capture conversation turns (mem0-style): extract one-claim memories and reconcile them.

        ``messages`` is a string (one user turn) or a list of ``{"role", "content"}``
        dicts (roles ``user``, ``assistant``, ``tool``; a tool turn may carry ``name``).
        Candidates are written as provisional at once; reconciliation runs in the
        background, or before returning when ``wait=True``.
        """
        from kenning.lifecycle import write

        return write.add_messages(self.ctx, self.scope, messages, session_id=session_id, now=_now(now), wait=wait)

    def update(
        self,
        memory_id: str,
        *,
        text: str | None = None,
        kind: Kind | str | None = None,
        importance: float | None = None,
        confidence: float | None = None,
        expires_at: datetime | None = None,
        sensitivity: Sensitivity | str | None = None,
        now: datetime | None = None,
    ) -> Memory:
        """Write a new version that supersedes ``memory_id`` (which is retired) and return it."""
        at = _now(now)
        old = self.get(memory_id)
        if old.status is not Status.ACTIVE:
            raise ValidationError(f"memory {memory_id} is {old.status.value}; only active memories can be updated")
        new_text = self._clean_text(text) if text is not None else old.text
        new = old.evolve(
            id=new_id("mem"),
            text=new_text,
            embedding=self.ctx.embed_documents(self.scope, [new_text], [_context_of(old)])[0] if text is not None else old.embedding,
            kind=enum_value(Kind, kind, "kind") if kind is not None else old.kind,
            importance=old.importance if importance is None else importance,
            confidence=old.confidence if confidence is None else confidence,
            expires_at=utc(expires_at, "expires_at") if expires_at is not None else old.expires_at,
            sensitivity=sensitivity if sensitivity is not None else old.sensitivity,
            supersedes=(old.id,),
            created_at=at,
            last_used_at=at,
            status=Status.ACTIVE,
        )
        self.ctx.store.apply(
            self.scope,
            Changeset(
                inserts=(new,),
                transitions=(Transition(old.id, (Status.ACTIVE,), Status.RETIRED),),
                audit=(audit_entry(self.scope, at, Op.UPDATE, [new.id, old.id], "api", "update"),),
            ),
        )
        return new

    def delete(self, memory_id: str, *, now: datetime | None = None) -> DeletionReport:
        """Explicitly delete a memory and everything derived from it (the cascade)."""
        from kenning.lifecycle import cascade

        self.get(memory_id)  # NotFound for unknown or foreign ids, before anything changes
        return cascade.delete_memories(self.ctx, self.scope, [memory_id], now=_now(now), reason="delete")

    def forget(self, substring: str, *, now: datetime | None = None) -> DeletionReport:
        """Delete every non-consolidated memory whose text contains ``substring`` (case-insensitive).

        Retired records (earlier versions, episodes compacted by consolidation)
        hold the words too, so they are matched as well; consolidated memories
        are reached through the cascade.
        """
        from kenning.lifecycle import cascade

        needle = self._clean_text(substring).lower()
        ids = [
            m.id
            for m in self.ctx.store.list(self.scope, statuses=(Status.ACTIVE, Status.PROVISIONAL, Status.RETIRED))
            if needle in m.text.lower() and m.source is not Source.CONSOLIDATED
        ]
        return cascade.delete_memories(self.ctx, self.scope, ids, now=_now(now), reason="forget")

    def delete_all(self, *, now: datetime | None = None) -> int:
        """Account deletion: remove everything of this scope, and nothing of anyone else's."""
        from kenning.lifecycle import cascade

        return cascade.delete_scope(self.ctx, self.scope, now=_now(now))

    # -- reads ----------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        k: int = 5,
        now: datetime | None = None,
        session_id: str | None = None,
        min_relevance: float | None = None,
        refresh: bool = True,
    ) -> list[Hit]:
        """The top ``k`` active, unexpired memories for ``query``, best first, with score components.

        Retrieval refreshes ``last_used_at`` of what it returns, at most
        ``refresh_cap_per_session`` times per memory per session.
        """
        at = _now(now)
        query = self._clean_text(query)
        if not isinstance(k, int) or not 1 <= k <= MAX_K:
            raise ValidationError(f"k must be an integer from 1 to {MAX_K}")
        store, policy = self.ctx.store, self.ctx.policy
        vector = self.ctx.embed_query(self.scope, query)
        # One pass over the scope's cached partition: cosine and keyword evidence for
        # every record in numpy, whole records read only for the k returned.
        part = store.partition(self.scope)
        ranked = retrieve.search_partition(
            part, vector, retrieve.query_terms(query, self.scope.user_id), at, policy, k, min_relevance
        )
        records = {m.id: m for m in store.records(self.scope, part, [r.position for r in ranked])}
        hits = [
            Hit(records[part.ids[r.position]], r.score, r.components) for r in ranked if part.ids[r.position] in records
        ]
        if refresh and hits:
            allowed = self.system._allowed_refreshes(self.scope, session_id or at.date().isoformat(), [h.memory.id for h in hits])
            if allowed:
                store.touch(self.scope, allowed, at)
        return hits

    def get(self, memory_id: str) -> Memory:
        """The memory with this id in this scope (any status); ``NotFound`` otherwise, also for other tenants' ids."""
        if not isinstance(memory_id, str) or not memory_id:
            raise ValidationError("memory id must be a non-empty string")
        mem = self.ctx.store.get(self.scope, memory_id)
        if mem is None:
            raise NotFound(f"no memory {memory_id!r} in this scope")
        return mem

    def list(
        self,
        *,
        kinds: Sequence[Kind | str] | None = None,
        statuses: Sequence[Status | str] = (Status.ACTIVE,),
        limit: int | None = None,
        offset: int = 0,
    ) -> list[Memory]:
        """Memories of the scope, newest first (active only unless ``statuses`` says otherwise)."""
        ks = [enum_value(Kind, k, "kind") for k in kinds] if kinds else None
        ss = [enum_value(Status, s, "status") for s in statuses]
        return self.ctx.store.list(self.scope, statuses=ss, kinds=ks, limit=limit, offset=offset)

    def count(self, *, statuses: Sequence[Status | str] = (Status.ACTIVE,)) -> int:
        return self.ctx.store.count(self.scope, statuses=[enum_value(Status, s, "status") for s in statuses])

    def history(self, memory_id: str) -> History:
        """The supersedes chain through ``memory_id`` (oldest first) and the audit entries naming any version."""
        mem = self.get(memory_id)
        store = self.ctx.store
        chain: dict[str, Memory] = {mem.id: mem}
        frontier = [mem]
        while frontier:  # walk both directions: older via supersedes, newer via citing
            nxt = []
            for m in frontier:
                older = store.get_many(self.scope, [i for i in m.supersedes if i not in chain])
                newer = [c for c in store.citing(self.scope, m.id) if m.id in c.supersedes and c.id not in chain]
                for o in older + newer:
                    chain[o.id] = o
                    nxt.append(o)
            frontier = nxt
        ids = set(chain)
        audit = [a for a in store.audit(self.scope) if ids.intersection(a.memory_ids)]
        return History(mem, sorted(chain.values(), key=lambda m: (m.created_at, m.id)), audit)

    def export(self) -> dict[str, Any]:
        """Everything held for this user, JSON-ready: every record (any status, with embeddings) and the audit log."""
        from kenning import serialize

        return serialize.export_scope(self.ctx.store, self.scope)

    def import_(self, data: dict[str, Any]) -> int:
        """Load an ``export()`` document into this scope (records keep their ids); returns how many."""
        from kenning import serialize

        return serialize.import_scope(self.ctx.store, self.scope, data)

    def maintain(self, *, now: datetime | None = None) -> Any:
        """Run this user's background work to completion: reconciliation, consolidation, forgetting."""
        from kenning import worker

        return worker.maintain_scope(self.ctx, self.scope, now=_now(now))

    # -- helpers --------------------------------------------------------------

    def _clean_context(self, context: Any) -> str | None:
        if context is None:
            return None
        if not isinstance(context, str):
            raise ValidationError(f"context must be a string or None, got {type(context).__name__}")
        context = context.strip()
        limit = self.ctx.settings.max_text_chars
        if len(context) > limit:
            raise ValidationError(f"context is {len(context)} characters; the limit is {limit}")
        return context or None

    def _clean_text(self, text: Any) -> str:
        if not isinstance(text, str):
            raise ValidationError(f"text must be a string, got {type(text).__name__}")
        text = text.strip()
        if not text:
            raise ValidationError("text must not be empty")
        limit = self.ctx.settings.max_text_chars
        if len(text) > limit:
            raise ValidationError(f"text is {len(text)} characters; the limit is {limit}")
        return text


def _now(now: datetime | None) -> datetime:
    return utc(now, "now") if now is not None else now_utc()  # type: ignore[return-value]


def _context_of(memory: Memory) -> str | None:
    """The context a memory was remembered with (``metadata["context"]``), if any: a new version keeps it."""
    c = memory.metadata.get("context")
    return c if isinstance(c, str) and c.strip() else None


__all__ = ["open", "Kenning", "ScopedMemory", "History", "DeletionReport", "DEFAULT_IMPORTANCE", "DEFAULT_CONFIDENCE"]
