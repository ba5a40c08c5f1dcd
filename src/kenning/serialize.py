"""Records to and from plain JSON-ready dicts: export, import, and the REST layer's raw material."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import numpy as np

from kenning.errors import ValidationError
from kenning.stores.base import Store
from kenning.types import AuditEntry, Changeset, Memory, Scope, check_json

FORMAT = "kenning-export/1"


def _iso(dt: datetime | None) -> str | None:
    return dt.isoformat() if dt else None


def _dt(value: str | None) -> datetime | None:
    if not value:
        return None
    if not isinstance(value, str):
        raise ValidationError(f"a time must be an ISO 8601 string, got {type(value).__name__}")
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise ValidationError(f"not an ISO 8601 time: {value[:40]!r}") from None


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
    if not isinstance(d, dict):
        raise ValidationError(f"a memory record must be an object, got {type(d).__name__}")
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
    except ValidationError:
        raise
    except (KeyError, TypeError, ValueError, OverflowError, AttributeError) as exc:
        raise ValidationError(f"not a memory record: missing or bad field {exc}") from None


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
    if not isinstance(d, dict):
        raise ValidationError(f"an audit entry must be an object, got {type(d).__name__}")
    try:
        return AuditEntry(d["id"], scope.tenant_id, scope.user_id, _dt(d["at"]), d["op"], tuple(d["memory_ids"]),
                          d.get("source", ""), d.get("reason", ""))
    except ValidationError:
        raise
    except (KeyError, TypeError, ValueError, OverflowError, AttributeError) as exc:
        raise ValidationError(f"not an audit entry: missing or bad field {exc}") from None


def export_scope(store: Store, scope: Scope) -> dict[str, Any]:
    """Every record (any status, with embeddings) and audit entry of ``scope``."""
    return {
        "format": FORMAT,
        "tenant_id": scope.tenant_id,
        "user_id": scope.user_id,
        "memories": [memory_to_dict(m) for m in store.export(scope)],
        "audit": [audit_to_dict(a) for a in store.audit(scope)],
    }


def import_scope(
    store: Store, scope: Scope, data: dict[str, Any], progress: Any = None, *, allow_secrets: bool = False
) -> int:
    """Write an export document into ``scope`` atomically; records are re-scoped to ``scope``.

    Every record with text passes the write guard (``guard.check_records``): a
    refused one refuses the whole document; the others keep their text with
    confidence capped by source and sensitivity at least what the text calls for.
    ``progress(done, total, label)`` follows the reading of the records (then one write).
    """
    from kenning.lifecycle import guard

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValidationError(f"not a Kenning export (expected format {FORMAT!r})")
    records, entries = data.get("memories", []), data.get("audit", [])
    if not isinstance(records, list) or not isinstance(entries, list):
        raise ValidationError("memories and audit must be lists")
    check_json(data, "the export document")
    parsed = []
    for i, m in enumerate(records, 1):
        parsed.append(
            memory_from_dict({**m, "tenant_id": scope.tenant_id, "user_id": scope.user_id}) if isinstance(m, dict)
            else memory_from_dict(m)
        )
        if progress and (i % 100 == 0 or i == len(records)):
            progress(i, len(records) + 1, "reading")
    checked = guard.check_records(parsed, allow_secrets=allow_secrets)
    mems = tuple(
        m if g is None else m.evolve(confidence=g.confidence, sensitivity=g.sensitivity) for m, g in zip(parsed, checked)
    )
    audit = tuple(audit_from_dict(scope, a) for a in entries)
    store.apply(scope, Changeset(inserts=mems, audit=audit))
    if progress:
        progress(len(records) + 1, len(records) + 1, "written")
    return len(mems)
