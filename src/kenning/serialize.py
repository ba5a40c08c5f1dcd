"""Records to and from plain JSON-ready dicts: export, import, and the REST layer's raw material."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import numpy as np

from kenning.errors import ValidationError
from kenning.stores.base import Store
from kenning.types import AuditEntry, Changeset, Memory, Scope

FORMAT = "kenning-export/1"


def _iso(dt: datetime | None) -> str | None:
    return dt.isoformat() if dt else None


def _dt(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def memory_to_dict(m: Memory, *, embedding: bool = True) -> dict[str, Any]:
    d: dict[str, Any] = {
        "id": m.id,
        "tenant_id": m.tenant_id,
        "user_id": m.user_id,
        "kind": m.kind.value,
        "text": m.text,
        "source": m.source.value,
        "source_refs": list(m.source_refs),
        "created_at": _iso(m.created_at),
        "last_used_at": _iso(m.last_used_at),
        "importance": m.importance,
        "confidence": m.confidence,
        "supersedes": list(m.supersedes),
        "expires_at": _iso(m.expires_at),
        "sensitivity": m.sensitivity.value,
        "status": m.status.value,
        "session_id": m.session_id,
        "metadata": dict(m.metadata),
    }
    if embedding:
        d["embedding"] = None if m.embedding is None else [float(x) for x in m.embedding]
    return d


def memory_from_dict(d: dict[str, Any]) -> Memory:
    try:
        emb = d.get("embedding")
        return Memory(
            id=d["id"],
            tenant_id=d["tenant_id"],
            user_id=d["user_id"],
            kind=d["kind"],
            text=d["text"],
            embedding=None if emb is None else np.asarray(emb, dtype=np.float32),
            source=d["source"],
            source_refs=tuple(d.get("source_refs") or ()),
            created_at=_dt(d["created_at"]),
            last_used_at=_dt(d["last_used_at"]),
            importance=d["importance"],
            confidence=d["confidence"],
            supersedes=tuple(d.get("supersedes") or ()),
            expires_at=_dt(d.get("expires_at")),
            sensitivity=d.get("sensitivity", "normal"),
            status=d.get("status", "active"),
            session_id=d.get("session_id"),
            metadata=d.get("metadata") or {},
        )
    except (KeyError, TypeError) as exc:
        raise ValidationError(f"not a memory record: missing or bad field {exc}") from exc


def audit_to_dict(a: AuditEntry) -> dict[str, Any]:
    return {
        "id": a.id,
        "at": _iso(a.at),
        "op": a.op.value,
        "memory_ids": list(a.memory_ids),
        "source": a.source,
        "reason": a.reason,
    }


def audit_from_dict(scope: Scope, d: dict[str, Any]) -> AuditEntry:
    return AuditEntry(d["id"], scope.tenant_id, scope.user_id, _dt(d["at"]), d["op"], tuple(d["memory_ids"]), d.get("source", ""), d.get("reason", ""))


def export_scope(store: Store, scope: Scope) -> dict[str, Any]:
    """Every record (any status, with embeddings) and audit entry of ``scope``."""
    return {
        "format": FORMAT,
        "tenant_id": scope.tenant_id,
        "user_id": scope.user_id,
        "memories": [memory_to_dict(m) for m in store.export(scope)],
        "audit": [audit_to_dict(a) for a in store.audit(scope)],
    }


def import_scope(store: Store, scope: Scope, data: dict[str, Any], progress: Any = None) -> int:
    """Write an export document into ``scope`` atomically; records are re-scoped to ``scope``.

    ``progress(done, total, label)`` follows the reading of the records (then one write).
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValidationError(f"not a Kenning export (expected format {FORMAT!r})")
    raw = data.get("memories", [])
    if not isinstance(raw, list):
        raise ValidationError("an export's memories must be a list")
    mems = []
    for i, m in enumerate(raw, 1):
        mems.append(memory_from_dict({**m, "tenant_id": scope.tenant_id, "user_id": scope.user_id}))
        if progress and (i % 100 == 0 or i == len(raw)):
            progress(i, len(raw) + 1, "reading")
    audit = tuple(audit_from_dict(scope, a) for a in data.get("audit", []))
    store.apply(scope, Changeset(inserts=tuple(mems), audit=audit))
    if progress:
        progress(len(raw) + 1, len(raw) + 1, "written")
    return len(mems)
