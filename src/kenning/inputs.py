"""What callers hand the facade, checked before anything is embedded or written.

Texts, contexts, ids, source refs, turns, search filters and metadata are
cleaned here (``ValidationError`` with a clear message for bad input), and
``new_claim`` turns ``remember``'s arguments into one guarded record.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from kenning.errors import ValidationError
from kenning.lifecycle import guard, secrets
from kenning.lifecycle.context import Context
from kenning.types import (
    DEFAULT_CONFIDENCE,
    DEFAULT_IMPORTANCE,
    MAX_ID_CHARS,
    Filter,
    Kind,
    Memory,
    Scope,
    Sensitivity,
    Source,
    _unit,
    check_json,
    check_str,
    enum_value,
    new_id,
    now_utc,
    utc,
)


def new_claim(
    ctx: Context, scope: Scope, text: Any, *, kind: Kind | str = Kind.FACT, importance: float | None = None,
    confidence: float | None = None, expires_at: datetime | None = None, sensitivity: Sensitivity | str | None = None,
    source: Source | str = Source.USER_SAID, source_refs: Iterable[str] = (), session_id: str | None = None,
    agent_id: str | None = None, metadata: dict[str, Any] | None = None, context: str | None = None, at: datetime,
    embed: bool = True,
) -> Memory:
    """One checked record for ``remember`` (embedded unless ``embed`` is False); the write guard applies."""
    kind = enum_value(Kind, kind, "kind")
    source = enum_value(Source, source, "source")
    text = clean_text(text, ctx.settings.max_text_chars)
    context = clean_context(context, ctx.settings.max_text_chars)
    session_id = clean_id(session_id, "session_id")
    refs = clean_refs(source_refs)
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
        allow_secrets=ctx.settings.allow_secrets,
    )
    if context and not ctx.settings.allow_secrets and secrets.has_secret(context):
        raise guard.Refused("secret", "context: ")
    return Memory(
        id=new_id("mem"),
        tenant_id=scope.tenant_id,
        user_id=scope.user_id,
        kind=g.kind,
        text=g.text,
        embedding=ctx.embed_documents(scope, [text], [context])[0] if embed else None,
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


def clean_context(context: Any, limit: int) -> str | None:
    """An optional context: None, or stripped storable text of at most ``limit`` characters (blank means None)."""
    if context is None:
        return None
    if not isinstance(context, str):
        raise ValidationError(f"context must be a string or None, got {type(context).__name__}")
    context = check_str(context, "context").strip()
    if len(context) > limit:
        raise ValidationError(f"context is {len(context)} characters; the limit is {limit}")
    return context or None


def clean_text(text: Any, limit: int) -> str:
    """A text to store or search for: stripped, not empty, storable, at most ``limit`` characters."""
    if not isinstance(text, str):
        raise ValidationError(f"text must be a string, got {type(text).__name__}")
    text = check_str(text, "text").strip()
    if not text:
        raise ValidationError("text must not be empty")
    if len(text) > limit:
        raise ValidationError(f"text is {len(text)} characters; the limit is {limit}")
    return text


def clean_id(value: Any, name: str) -> str | None:
    """An optional id-like string (session id): None, or 1 to MAX_ID_CHARS characters of storable text."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValidationError(f"{name} must be a string, got {type(value).__name__}")
    if len(value) > MAX_ID_CHARS:
        raise ValidationError(f"{name} is longer than {MAX_ID_CHARS} characters")
    return check_str(value, name)


def clean_refs(refs: Any) -> tuple[str, ...]:
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


def check_messages(messages: Any) -> None:
    """Reject unstorable characters in turns before extraction (the same rule as every other text)."""
    if isinstance(messages, str):
        check_str(messages, "messages")
    elif isinstance(messages, (list, tuple)):
        for i, msg in enumerate(messages):
            if isinstance(msg, dict):
                for key in ("role", "content", "name"):
                    if isinstance(msg.get(key), str):
                        check_str(msg[key], f"message {i} {key}")


FILTER_NAMES = {"kinds", "sources", "since", "until", "min_confidence", "metadata", "agent_id", "in_session"}


def clean_filter(where: Filter | None, filters: dict[str, Any]) -> dict[str, Any]:
    """``{"where": Filter}`` from a Filter and/or filter keywords (``{}`` when nothing filters); ValidationError for unknown ones."""
    unknown = set(filters) - FILTER_NAMES
    if unknown:
        raise ValidationError(f"unknown filter {', '.join(sorted(unknown))}; filters are {', '.join(sorted(FILTER_NAMES))}")
    if where is not None and not isinstance(where, Filter):
        raise ValidationError("where must be a kenning.Filter")
    if filters:
        if where is not None:
            raise ValidationError("give where= or filter keywords, not both")
        if "in_session" in filters:
            filters["session_id"] = filters.pop("in_session")
        where = Filter(**filters)
    return {"where": where} if where else {}


def new_metadata(old: Memory, metadata: Any) -> dict[str, Any]:
    if not isinstance(metadata, dict):
        raise ValidationError("metadata must be a dict")
    if "context" in metadata:
        raise ValidationError('metadata key "context" is reserved')
    ctx = context_of(old)
    return {**metadata, **({"context": ctx} if ctx else {})}


def context_of(memory: Memory) -> str | None:
    """The context a memory was remembered with (``metadata["context"]``), if any: a new version keeps it."""
    c = memory.metadata.get("context")
    return c if isinstance(c, str) and c.strip() else None



def clean_now(now: datetime | None) -> datetime:
    """The caller's ``now`` (timezone-aware), or the wall clock when none is given."""
    return utc(now, "now") if now is not None else now_utc()  # type: ignore[return-value]
