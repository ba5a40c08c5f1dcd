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
from kenning.lifecycle.context import Context
from kenning.embedders.base import Embedder
from kenning.errors import ConfigError, NotFound, ValidationError
from kenning.lifecycle import guard, retrieve, safety
from kenning.lifecycle.retrieve import Candidate, Policy
from kenning.stores.base import KeyStore, MemoryStore, PartitionStore, audit_entry, supports
from kenning.types import (
    ApiKey,
    DEFAULT_CONFIDENCE,
    DEFAULT_IMPORTANCE,
    DeletionReport,
    AuditEntry,
    Changeset,
    Filter,
    Hit,
    Kind,
    Memory,
    Op,
    Scope,
    Sensitivity,
    Source,
    Status,
    MAX_ID_CHARS,
    Transition,
    _unit,
    check_json,
    check_str,
    enum_value,
    new_id,
    now_utc,
    utc,
)

MAX_K = 200
MAX_LIST = 10_000_000
# One default for waiting on capture, on every surface (library, CLI, REST, MCP): wait.
WAIT_DEFAULT = True


def open(  # noqa: A001 - the natural name, as in sqlite3/shelve
    url: str | None = None,
    *,
    embedder: Embedder | None = None,
    policy: Policy | None = None,
    settings: Settings | None = None,
    store: MemoryStore | None = None,
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

    def maintain(self, *, now: datetime | None = None, progress: Any = None) -> list[Any]:
        """Run all background work to completion for every scope that has some (what ``kenning worker`` does on a schedule).

        A scope has work when it was written to since its last pass or when an
        expiry or decay has come due; others are not visited. Returns one report
        per scope visited; ``progress(done, total, scope)`` is called after each.
        """
        from kenning import worker

        return worker.maintain_all(self.ctx, now=_now(now), progress=progress)

    def maintenance_pass(
        self, *, holder: str, lease_ttl_s: float = 300.0, now: datetime | None = None, progress: Any = None
    ) -> list[Any]:
        """One ``kenning worker`` pass: maintain every scope with work whose lease ``holder`` can take (safe beside other workers)."""
        from kenning import worker

        return worker.run_once(self.ctx, holder=holder, lease_ttl_s=lease_ttl_s, now=now, progress=progress)

    def scopes(self) -> list[Scope]:
        """Every (tenant, user) holding memories. Administrative: for workers and integrations spanning users."""
        return self.ctx.store.scopes()

    # -- tenant API keys: the server authenticates with these ------------------

    def create_api_key(self, tenant_id: str, name: str = "", *, now: datetime | None = None) -> tuple[Any, str]:
        """Make a key for ``tenant_id``; returns ``(record, raw_key)``. Only the hash is stored: show the raw key once."""
        if not isinstance(name, str) or len(name) > 200:
            raise ValidationError("key name must be a string of at most 200 characters")
        check_str(name, "key name")
        Scope(tenant_id, "-")  # the tenant id obeys the same rules as in every scope
        raw = "kn_" + secrets.token_urlsafe(32)
        key = ApiKey(new_id("key"), tenant_id, name, hashlib.sha256(raw.encode()).hexdigest(), _now(now))
        self._keys().put_api_key(key)
        return key, raw

    def authenticate(self, raw_key: str) -> str | None:
        """The tenant an unrevoked ``raw_key`` belongs to; None for anything else."""
        key = self.authenticate_key(raw_key)
        return key.tenant_id if key is not None else None

    def authenticate_key(self, raw_key: str) -> ApiKey | None:
        """The unrevoked key record ``raw_key`` is; None for anything else (malformed, unknown, revoked)."""
        if not isinstance(raw_key, str) or not raw_key.startswith("kn_") or len(raw_key) > 200:
            return None
        try:
            digest = hashlib.sha256(raw_key.encode()).hexdigest()
        except UnicodeEncodeError:
            return None
        key = self._keys().find_api_key(digest)
        return key if key is not None and key.revoked_at is None else None

    def key_active(self, tenant_id: str, key_id: str) -> bool:
        """True if ``key_id`` is one of the tenant's keys and not revoked (page links die with their key)."""
        return any(k.id == key_id and k.revoked_at is None for k in self._keys().list_api_keys(tenant_id))

    def list_api_keys(self, tenant_id: str) -> list[Any]:
        """The tenant's key records (hashes only), oldest first."""
        Scope(tenant_id, "-")
        return self._keys().list_api_keys(tenant_id)

    def revoke_api_key(self, tenant_id: str, key_id: str, *, now: datetime | None = None) -> None:
        """Revoke one of the tenant's keys; ``NotFound`` if the tenant has no such active key."""
        Scope(tenant_id, "-")
        if not isinstance(key_id, str) or len(key_id) > MAX_ID_CHARS:
            raise NotFound("no such active key for this tenant")
        check_str(key_id, "key id")
        if not self._keys().revoke_api_key(tenant_id, key_id, _now(now)):
            raise NotFound(f"no active key {key_id!r} for this tenant")

    def secret(self, name: str) -> bytes:
        """A random secret persisted in the database under ``name`` (made on first use); e.g. for signing links."""
        return bytes.fromhex(self._keys().secret(name, secrets.token_hex(32)))

    def _keys(self) -> KeyStore:
        if not supports(self.ctx.store, KeyStore):
            raise ConfigError("this store holds no API keys or secrets (it is not a KeyStore); the server needs one that is")
        return self.ctx.store

    def close(self) -> None:
        self.ctx.store.close()
        close = getattr(self.ctx.embedder, "close", None)
        if callable(close):
            close()  # a batching embedder's threads

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
        agent_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        context: str | None = None,
        now: datetime | None = None,
    ) -> Memory:
        """Store one claim as given (no extraction, no reconciliation) and return it.

        The write guard applies (``lifecycle.guard``): a secret or an instruction
        to the model is refused (``guard.Refused``, a ValidationError), a
        procedure is refused unless ``source`` is ``user_said``, confidence is
        capped by ``source`` and sensitivity is at least what the text calls for.
        ``source`` says who wrote ``text``: leave ``user_said`` only for the
        user's own words; text an agent or application wrote is ``inferred``.

        ``session_id`` names the conversation and ``agent_id`` the agent that
        wrote it (kept as ``metadata["agent_id"]``); both can filter a search.
        ``metadata`` is free JSON-ready data; its top-level keys filter by
        equality (``search(..., metadata={"project": "apollo"})``).

        ``context`` (optional) situates the claim, e.g. the conversation turns
        before it: the stored text stays exactly ``text``, but the vector is
        computed from text and context together (``Context.embed_documents``),
        and keyword evidence counts the context's words at a discount
        (``Policy.context_keyword_weight``). It is kept as
        ``metadata["context"]`` so export/import and re-embedding reproduce the
        vector. Blank means none; a non-string or one longer than
        ``max_text_chars`` raises ValidationError before anything is written.
        """
        mem = self._claim(text, kind=kind, importance=importance, confidence=confidence, expires_at=expires_at,
                          sensitivity=sensitivity, source=source, source_refs=source_refs, session_id=session_id,
                          agent_id=agent_id, metadata=metadata, context=context, at=_now(now))
        self.ctx.store.insert(self.scope, [mem], reason="remember", now=mem.created_at)
        return mem

    def remember_many(self, items: Iterable[str | dict[str, Any]], *, now: datetime | None = None) -> list[Memory]:
        """Store several claims as given, in one write (all or none) with one embedding batch; returns them in order.

        Each item is a text or a dict of ``remember``'s keyword arguments with
        ``text`` (``{"text": "...", "kind": "preference", "agent_id": "planner"}``).
        Every item is checked before anything is embedded or written.
        """
        at = _now(now)
        specs = [{"text": it} if isinstance(it, str) else it for it in items]
        if not specs or len(specs) > 1000:
            raise ValidationError("remember_many takes 1 to 1000 items")
        allowed = {"text", "kind", "importance", "confidence", "expires_at", "sensitivity", "source", "source_refs",
                   "session_id", "agent_id", "metadata", "context"}
        for i, spec in enumerate(specs):
            if not isinstance(spec, dict) or "text" not in spec or set(spec) - allowed:
                raise ValidationError(f"item {i}: a text, or a dict with text and any of {', '.join(sorted(allowed - {'text'}))}")
        mems = [self._claim(**spec, at=at, embed=False) for spec in specs]
        vectors = self.ctx.embed_documents(self.scope, [m.text for m in mems], [_context_of(m) for m in mems])
        mems = [m.evolve(embedding=v) for m, v in zip(mems, vectors)]
        self.ctx.store.insert(self.scope, mems, reason="remember", now=at)
        return mems

    def _claim(
        self, text: Any, *, kind: Kind | str = Kind.FACT, importance: float | None = None, confidence: float | None = None,
        expires_at: datetime | None = None, sensitivity: Sensitivity | str | None = None, source: Source | str = Source.USER_SAID,
        source_refs: Iterable[str] = (), session_id: str | None = None, agent_id: str | None = None,
        metadata: dict[str, Any] | None = None, context: str | None = None, at: datetime, embed: bool = True,
    ) -> Memory:
        """One checked record for ``remember`` (embedded unless ``embed`` is False)."""
        kind = enum_value(Kind, kind, "kind")
        source = enum_value(Source, source, "source")
        text = self._clean_text(text)
        context = self._clean_context(context)
        session_id = _clean_id(session_id, "session_id")
        refs = _clean_refs(source_refs)
        if metadata is not None and not isinstance(metadata, dict):
            raise ValidationError(f"metadata must be a dict, got {type(metadata).__name__}")
        check_json(metadata, "metadata")
        if metadata and "context" in metadata:
            raise ValidationError('metadata key "context" is reserved: pass the context as context=')
        if agent_id is not None:
            if not isinstance(agent_id, str) or not agent_id.strip() or len(agent_id) > 200:
                raise ValidationError("agent_id must be a non-empty string of at most 200 characters")
            check_str(agent_id, "agent_id")
            if metadata and metadata.get("agent_id", agent_id) != agent_id:
                raise ValidationError('agent_id and metadata["agent_id"] disagree')
        g = guard.guard(
            text,
            kind=kind,
            source=source,
            confidence=DEFAULT_CONFIDENCE[source] if confidence is None else _unit(confidence, "confidence"),
            importance=DEFAULT_IMPORTANCE[kind] if importance is None else _unit(importance, "importance"),
            sensitivity=None if sensitivity is None else enum_value(Sensitivity, sensitivity, "sensitivity"),
            allow_secrets=self.ctx.settings.allow_secrets,
        )
        if context and not self.ctx.settings.allow_secrets and safety.has_secret(context):
            raise guard.Refused("secret", "context: ")
        return Memory(
            id=new_id("mem"),
            tenant_id=self.scope.tenant_id,
            user_id=self.scope.user_id,
            kind=g.kind,
            text=g.text,
            embedding=self.ctx.embed_documents(self.scope, [text], [context])[0] if embed else None,
            source=g.source,
            source_refs=refs,
            created_at=at,
            last_used_at=at,
            importance=g.importance,
            confidence=g.confidence,
            expires_at=utc(expires_at, "expires_at"),
            sensitivity=g.sensitivity,
            session_id=session_id,
            metadata={
                **(metadata or {}),
                **({"agent_id": agent_id} if agent_id is not None else {}),
                **({"context": context} if context else {}),
            },
        )

    def add(
        self,
        messages: str | Sequence[dict[str, Any]],
        *,
        session_id: str | None = None,
        now: datetime | None = None,
        wait: bool = WAIT_DEFAULT,
        source: Source | str | None = None,
    ) -> Any:
        """Capture conversation turns (mem0-style): extract one-claim memories and reconcile them.

        ``messages`` is a string (one user turn) or a list of ``{"role", "content"}``
        dicts (roles ``user``, ``assistant``, ``tool``; a tool turn may carry ``name``).
        By default (``wait=True``, the same on every surface) extraction and
        reconciliation finish before it returns, so a search right after sees
        the result. ``wait=False`` only stores the turns as one provisional
        capture (well under a millisecond) and leaves the rest to the background
        pass, ``maintain()`` or ``kenning worker``.

        ``source`` says who wrote the turns when it is not the user: an agent
        relaying text in its own words passes ``inferred``, and every claim is
        then at most that trusted (confidence ≤ 0.45, never a procedure).
        Every claim passes the write guard; refused ones are reported in
        ``withheld`` by reason, never by text.
        """
        from kenning.lifecycle import write

        src = enum_value(Source, source, "source") if source is not None else None
        session_id = _clean_id(session_id, "session_id")
        _check_messages(messages)
        return write.add_messages(self.ctx, self.scope, messages, session_id=session_id, now=_now(now), wait=wait, source=src)

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
        metadata: dict[str, Any] | None = None,
        now: datetime | None = None,
    ) -> Memory:
        """Write a new version that supersedes ``memory_id`` (which is retired) and return it.

        The new version passes the write guard like any write: a secret or an
        instruction to the model is refused, sensitivity is re-tagged from the
        new text (never below what it calls for) and confidence stays within
        what the memory's source may claim.

        ``metadata``, if given, replaces the old version's (its ``context`` is kept).
        """
        at = _now(now)
        old = self.get(memory_id)
        if old.status is not Status.ACTIVE:
            raise ValidationError(f"memory {memory_id} is {old.status.value}; only active memories can be updated")
        new_text = self._clean_text(text) if text is not None else old.text
        new_kind = enum_value(Kind, kind, "kind") if kind is not None else old.kind
        if sensitivity is not None:
            asked = enum_value(Sensitivity, sensitivity, "sensitivity")
        else:
            asked = old.sensitivity if text is None else None  # a new text is tagged afresh
        g = guard.guard(
            new_text,
            kind=new_kind,
            source=old.source,
            confidence=old.confidence if confidence is None else _unit(confidence, "confidence"),
            importance=old.importance if importance is None else _unit(importance, "importance"),
            sensitivity=asked,
            allow_secrets=self.ctx.settings.allow_secrets,
        )
        new = old.evolve(
            id=new_id("mem"),
            text=g.text,
            embedding=self.ctx.embed_documents(self.scope, [new_text], [_context_of(old)])[0] if text is not None else old.embedding,
            kind=g.kind,
            importance=g.importance,
            confidence=g.confidence,
            expires_at=utc(expires_at, "expires_at") if expires_at is not None else old.expires_at,
            sensitivity=g.sensitivity,
            metadata=old.metadata if metadata is None else _new_metadata(old, metadata),
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
        where: Filter | None = None,
        **filters: Any,
    ) -> list[Hit]:
        """The top ``k`` active, unexpired memories for ``query``, best first, with score components.

        Filters narrow what is searched, inside the store's query, so the top
        ``k`` are the best of what they keep: ``kinds``, ``sources``,
        ``since``/``until`` (created at), ``min_confidence``, ``metadata``
        (equality on top-level keys), ``agent_id``, ``in_session`` (a session
        id), or a whole ``where=Filter(...)``. ``session_id`` is the session
        doing the search (for the refresh cap), not a filter.

        Retrieval refreshes ``last_used_at`` of what it returns, at most
        ``refresh_cap_per_session`` times per memory per session.
        """
        at = _now(now)
        query = self._clean_text(query)
        session_id = _clean_id(session_id, "session_id")
        if not isinstance(k, int) or not 1 <= k <= MAX_K:
            raise ValidationError(f"k must be an integer from 1 to {MAX_K}")
        where = _filter(where, filters)
        store, policy = self.ctx.store, self.ctx.policy
        vector = self.ctx.embed_query(self.scope, query)
        terms = retrieve.query_terms(query, self.scope.user_id)
        session = session_id or at.date().isoformat()

        def refreshed(hits: list[Hit]) -> list[str]:
            return self.system._allowed_refreshes(self.scope, session, [h.memory.id for h in hits]) if hits else []

        if not where and supports(store, PartitionStore):
            # One pass over the scope's cached partition: cosine and keyword evidence for
            # every record in numpy, whole records read only for the k returned. The store
            # writes the refresh (and may confirm its cached partition in the same round trip).
            def rank(part: Any) -> list[Hit]:
                ranked = retrieve.search_partition(part, vector, terms, at, policy, k, min_relevance)
                records = {m.id: m for m in store.records(self.scope, part, [r.position for r in ranked])}
                return [
                    Hit(records[part.ids[r.position]], r.score, r.components) for r in ranked if part.ids[r.position] in records
                ]

            return store.ranked(self.scope, rank, refreshed if refresh else None, at)[1]
        # A filtered search (or a store without a partition): the filter is part of the
        # store's queries, so the candidates are the best of what it keeps, ranked as above.
        hits = self._search_candidates(query, terms, vector, at, k, min_relevance, where)
        allowed = refreshed(hits) if refresh else []
        if allowed:
            store.touch(self.scope, allowed, at)
        return hits

    def _search_candidates(
        self, query: str, terms: set[str], vector: Any, at: datetime, k: int, min_relevance: float | None, where: dict[str, Any]
    ) -> list[Hit]:
        """Search through ``search_vector`` and ``search_keywords`` (with ``where`` inside their queries), then ``rank``."""
        store, policy = self.ctx.store, self.ctx.policy
        n = max(policy.candidates, k)
        cands: dict[str, Candidate] = {
            s.memory.id: Candidate(s.memory, s.similarity) for s in store.search_vector(self.scope, vector, k=n, now=at, **where)
        }
        keyword = store.search_keywords(self.scope, query, k=n, now=at, **where)
        missing = [s.memory for s in keyword if s.memory.id not in cands]
        cosines = _cosines(vector, missing)
        for m in missing:
            cands[m.id] = Candidate(m, cosines[m.id])
        # Keyword evidence for every candidate (a vector candidate may hold query
        # words too), weighted by IDF over this query's candidates.
        pool = list(cands.values())
        kws = retrieve.keyword_scores(
            terms,
            [c.memory.text for c in pool],
            [c.memory.metadata.get("context") for c in pool],
            policy.context_keyword_weight,
        )
        return retrieve.rank([Candidate(c.memory, c.cosine, w) for c, w in zip(pool, kws)], at, policy, k, min_relevance)

    def get(self, memory_id: str) -> Memory:
        """The memory with this id in this scope (any status); ``NotFound`` otherwise, also for other tenants' ids."""
        if not isinstance(memory_id, str) or not memory_id:
            raise ValidationError("memory id must be a non-empty string")
        if len(memory_id) > MAX_ID_CHARS:
            raise NotFound(f"no memory with an id that long in this scope")
        mem = self.ctx.store.get(self.scope, check_str(memory_id, "memory id"))
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
        where: Filter | None = None,
        **filters: Any,
    ) -> list[Memory]:
        """Memories of the scope, newest first (active only unless ``statuses`` says otherwise).

        Takes the same filters as ``search`` (``sources``, ``since``, ``agent_id``, …).
        """
        ks = [enum_value(Kind, k, "kind") for k in kinds] if kinds else None
        ss = [enum_value(Status, s, "status") for s in statuses]
        if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or not 0 <= limit <= MAX_LIST):
            raise ValidationError(f"limit must be an integer from 0 to {MAX_LIST}")
        if not isinstance(offset, int) or isinstance(offset, bool) or not 0 <= offset <= MAX_LIST:
            raise ValidationError(f"offset must be an integer from 0 to {MAX_LIST}")
        return self.ctx.store.list(self.scope, statuses=ss, kinds=ks, limit=limit, offset=offset, **_filter(where, filters))

    def render_for_prompt(
        self, query: str | None = None, *, items: Iterable[Hit | Memory] | None = None, k: int = 5, **filters: Any
    ) -> str:
        """Memories as one delimited data block to put in an LLM prompt (the one renderer; MCP uses it too).

        With ``query``, renders the top ``k`` hits (``search``'s filters apply);
        with ``items``, renders those. Text is escaped so it can never open or
        close a delimiter, and a note tells the model it is data, not instructions.
        """
        from kenning.lifecycle import safety

        if (query is None) == (items is None):
            raise ValidationError("give a query or items to render, not both")
        chosen = list(items) if items is not None else self.search(query, k=k, **filters)
        return safety.render_for_prompt(chosen)

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

    def import_(self, data: dict[str, Any], *, progress: Any = None) -> int:
        """Load an ``export()`` document into this scope (records keep their ids) in one write; returns how many.

        Every record passes the write guard; one refused record (a secret, an
        injected instruction) refuses the whole import, naming its position.
        ``progress`` (optional) is called as records are checked.
        """
        from kenning import serialize

        return serialize.import_scope(
            self.ctx.store, self.scope, data, progress, allow_secrets=self.ctx.settings.allow_secrets
        )

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
        context = check_str(context, "context").strip()
        limit = self.ctx.settings.max_text_chars
        if len(context) > limit:
            raise ValidationError(f"context is {len(context)} characters; the limit is {limit}")
        return context or None

    def _clean_text(self, text: Any) -> str:
        if not isinstance(text, str):
            raise ValidationError(f"text must be a string, got {type(text).__name__}")
        text = check_str(text, "text").strip()
        if not text:
            raise ValidationError("text must not be empty")
        limit = self.ctx.settings.max_text_chars
        if len(text) > limit:
            raise ValidationError(f"text is {len(text)} characters; the limit is {limit}")
        return text


def _now(now: datetime | None) -> datetime:
    return utc(now, "now") if now is not None else now_utc()  # type: ignore[return-value]


def _clean_id(value: Any, name: str) -> str | None:
    """An optional id-like string (session id): None, or 1 to MAX_ID_CHARS characters of storable text."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValidationError(f"{name} must be a string, got {type(value).__name__}")
    if len(value) > MAX_ID_CHARS:
        raise ValidationError(f"{name} is longer than {MAX_ID_CHARS} characters")
    return check_str(value, name)


def _clean_refs(refs: Any) -> tuple[str, ...]:
    if isinstance(refs, (str, bytes)) or not isinstance(refs, Iterable):
        raise ValidationError("source_refs must be a list of strings")
    out = tuple(refs)
    if len(out) > 100:
        raise ValidationError("source_refs holds more than 100 references")
    for r in out:
        if not isinstance(r, str) or not r or len(r) > MAX_ID_CHARS:
            raise ValidationError(f"each source ref must be a string of 1 to {MAX_ID_CHARS} characters")
        check_str(r, "source_refs")
    return out


def _check_messages(messages: Any) -> None:
    """Reject unstorable characters in turns before extraction (the same rule as every other text)."""
    if isinstance(messages, str):
        check_str(messages, "messages")
    elif isinstance(messages, (list, tuple)):
        for i, msg in enumerate(messages):
            if isinstance(msg, dict):
                for key in ("role", "content", "name"):
                    if isinstance(msg.get(key), str):
                        check_str(msg[key], f"message {i} {key}")


_FILTER_NAMES = {"kinds", "sources", "since", "until", "min_confidence", "metadata", "agent_id", "in_session"}


def _filter(where: Filter | None, filters: dict[str, Any]) -> dict[str, Any]:
    """``{"where": Filter}`` from a Filter and/or filter keywords (``{}`` when nothing filters); ValidationError for unknown ones."""
    unknown = set(filters) - _FILTER_NAMES
    if unknown:
        raise ValidationError(f"unknown filter {', '.join(sorted(unknown))}; filters are {', '.join(sorted(_FILTER_NAMES))}")
    if where is not None and not isinstance(where, Filter):
        raise ValidationError("where must be a kenning.Filter")
    if filters:
        if where is not None:
            raise ValidationError("give where= or filter keywords, not both")
        if "in_session" in filters:
            filters["session_id"] = filters.pop("in_session")
        where = Filter(**filters)
    return {"where": where} if where else {}


def _new_metadata(old: Memory, metadata: Any) -> dict[str, Any]:
    if not isinstance(metadata, dict):
        raise ValidationError("metadata must be a dict")
    if "context" in metadata:
        raise ValidationError('metadata key "context" is reserved')
    ctx = _context_of(old)
    return {**metadata, **({"context": ctx} if ctx else {})}


def _context_of(memory: Memory) -> str | None:
    """The context a memory was remembered with (``metadata["context"]``), if any: a new version keeps it."""
    c = memory.metadata.get("context")
    return c if isinstance(c, str) and c.strip() else None


def _cosines(vector: Any, memories: Sequence[Memory]) -> dict[str, float]:
    from kenning.stores.partition import similarities  # row by row: the value every search path computes

    return {m.id: float(similarities(m.embedding[None, :], vector)[0]) if m.embedding is not None else 0.0 for m in memories}


__all__ = ["open", "Kenning", "ScopedMemory", "History", "DeletionReport", "DEFAULT_IMPORTANCE", "DEFAULT_CONFIDENCE"]
