"""One user's memory: ``Kenning.scope(tenant, user)`` returns a ``ScopedMemory``, what callers hold.

Writes (``remember``, ``add``, ``update``, deletions), reads (``search``,
``list``, ``get``, ``history``, ``export``) and the user's background work,
all scoped to one (tenant, user). Arguments are checked in ``inputs``
before anything is embedded or written.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from kenning import history, inputs
from kenning.errors import NotFound, ValidationError
from kenning.history import History
from kenning.lifecycle import guard
from kenning.lifecycle.search import run_search
from kenning.stores.base import audit_entry
from kenning.types import (
    MAX_ID_CHARS,
    Changeset,
    DeletionReport,
    Filter,
    Hit,
    Kind,
    Memory,
    Op,
    Scope,
    Sensitivity,
    Source,
    Status,
    Transition,
    _unit,
    check_str,
    enum_value,
    new_id,
    utc,
)

MAX_K = 200
MAX_LIST = 10_000_000
# One default for waiting on capture, on every surface (library, CLI, REST, MCP): wait.
WAIT_DEFAULT = True


class ScopedMemory:
    """Memory operations for one (tenant, user). Obtained from ``Kenning.scope``."""

    def __init__(self, system: Any, scope: Scope) -> None:  # system: the kenning.memory.Kenning (which imports this module)
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
        mem = inputs.new_claim(self.ctx, self.scope, text, kind=kind, importance=importance, confidence=confidence,
                               expires_at=expires_at, sensitivity=sensitivity, source=source, source_refs=source_refs,
                               session_id=session_id, agent_id=agent_id, metadata=metadata, context=context,
                               at=inputs.clean_now(now))
        self.ctx.store.insert(self.scope, [mem], reason="remember", now=mem.created_at)
        return mem

    def remember_many(self, items: Iterable[str | dict[str, Any]], *, now: datetime | None = None) -> list[Memory]:
        """Store several claims as given, in one write (all or none) with one embedding batch; returns them in order.

        Each item is a text or a dict of ``remember``'s keyword arguments with
        ``text`` (``{"text": "...", "kind": "preference", "agent_id": "planner"}``).
        Every item is checked before anything is embedded or written.
        """
        at = inputs.clean_now(now)
        specs = [{"text": it} if isinstance(it, str) else it for it in items]
        if not specs or len(specs) > 1000:
            raise ValidationError("remember_many takes 1 to 1000 items")
        allowed = {"text", "kind", "importance", "confidence", "expires_at", "sensitivity", "source", "source_refs",
                   "session_id", "agent_id", "metadata", "context"}
        for i, spec in enumerate(specs):
            if not isinstance(spec, dict) or "text" not in spec or set(spec) - allowed:
                raise ValidationError(f"item {i}: a text, or a dict with text and any of {', '.join(sorted(allowed - {'text'}))}")
        mems = [inputs.new_claim(self.ctx, self.scope, **spec, at=at, embed=False) for spec in specs]
        vectors = self.ctx.embed_documents(self.scope, [m.text for m in mems], [inputs.context_of(m) for m in mems])
        mems = [m.evolve(embedding=v) for m, v in zip(mems, vectors)]
        self.ctx.store.insert(self.scope, mems, reason="remember", now=at)
        return mems

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
        session_id = inputs.clean_id(session_id, "session_id")
        inputs.check_messages(messages)
        return write.add_messages(self.ctx, self.scope, messages, session_id=session_id, now=inputs.clean_now(now), wait=wait, source=src)

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
        at = inputs.clean_now(now)
        old = self.get(memory_id)
        if old.status is not Status.ACTIVE:
            raise ValidationError(f"memory {memory_id} is {old.status.value}; only active memories can be updated")
        new_text = inputs.clean_text(text, self.ctx.settings.max_text_chars) if text is not None else old.text
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
            embedding=self.ctx.embed_documents(self.scope, [new_text], [inputs.context_of(old)])[0] if text is not None else old.embedding,
            kind=g.kind,
            importance=g.importance,
            confidence=g.confidence,
            expires_at=utc(expires_at, "expires_at") if expires_at is not None else old.expires_at,
            sensitivity=g.sensitivity,
            metadata=old.metadata if metadata is None else inputs.new_metadata(old, metadata),
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
        return cascade.delete_memories(self.ctx, self.scope, [memory_id], now=inputs.clean_now(now), reason="delete")

    def forget(self, substring: str, *, now: datetime | None = None) -> DeletionReport:
        """Delete every non-consolidated memory whose text contains ``substring`` (case-insensitive).

        Retired records (earlier versions, episodes compacted by consolidation)
        hold the words too, so they are matched as well; consolidated memories
        are reached through the cascade.
        """
        from kenning.lifecycle import cascade

        needle = inputs.clean_text(substring, self.ctx.settings.max_text_chars).lower()
        ids = [
            m.id
            for m in self.ctx.store.list(self.scope, statuses=(Status.ACTIVE, Status.PROVISIONAL, Status.RETIRED))
            if needle in m.text.lower() and m.source is not Source.CONSOLIDATED
        ]
        return cascade.delete_memories(self.ctx, self.scope, ids, now=inputs.clean_now(now), reason="forget")

    def delete_all(self, *, now: datetime | None = None) -> int:
        """Account deletion: remove everything of this scope, and nothing of anyone else's."""
        from kenning.lifecycle import cascade

        return cascade.delete_scope(self.ctx, self.scope, now=inputs.clean_now(now))

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
        at = inputs.clean_now(now)
        query = inputs.clean_text(query, self.ctx.settings.max_text_chars)
        session_id = inputs.clean_id(session_id, "session_id")
        if not isinstance(k, int) or not 1 <= k <= MAX_K:
            raise ValidationError(f"k must be an integer from 1 to {MAX_K}")
        where = inputs.clean_filter(where, filters)
        session = session_id or at.date().isoformat()

        touched: set[str] = set()

        def refreshed(ids: list[str]) -> list[str]:
            allowed = self.system._allowed_refreshes(self.scope, session, ids) if ids else []
            touched.update(allowed)
            return allowed

        hits = run_search(self.ctx, self.scope, query, at, k, min_relevance, where, refreshed if refresh else None)
        # the hits say the refresh they caused, whichever engine wrote it when (PostgreSQL reads the records while
        # its refresh is in flight; SQLite after writing it)
        return [replace(h, memory=replace(h.memory, last_used_at=max(h.memory.last_used_at, at))) if h.memory.id in touched else h for h in hits]



    def get(self, memory_id: str) -> Memory:
        """The memory with this id in this scope (any status); ``NotFound`` otherwise, also for other tenants' ids."""
        if not isinstance(memory_id, str) or not memory_id:
            raise ValidationError("memory id must be a non-empty string")
        if len(memory_id) > MAX_ID_CHARS:
            raise NotFound("no memory with an id that long in this scope")
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
        return self.ctx.store.list(self.scope, statuses=ss, kinds=ks, limit=limit, offset=offset, **inputs.clean_filter(where, filters))

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
        return history.history(self.ctx.store, self.scope, self.get(memory_id))


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

        return worker.maintain_scope(self.ctx, self.scope, now=inputs.clean_now(now))
