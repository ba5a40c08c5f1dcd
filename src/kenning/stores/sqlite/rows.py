"""How the SQLite engine encodes records: timestamps, JSON columns, row decoding and the FTS5 scope token."""

from __future__ import annotations

import json
from dataclasses import fields
from datetime import datetime, timedelta, timezone

import numpy as np

from kenning.types import ApiKey, Kind, Memory, Scope, Sensitivity, Source, Status

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_US = timedelta(microseconds=1)
_MEM_COLS = (
    "m.id, m.tenant_id, m.user_id, m.kind, m.text, m.source, m.source_refs, m.created_at, m.last_used_at, "
    "m.importance, m.confidence, m.supersedes, m.expires_at, m.sensitivity, m.status, m.session_id, m.metadata, v.embedding"
)
_MEM_COLS_NO_VEC = _MEM_COLS.removesuffix(", v.embedding")
_FROM = (
    "FROM memories m LEFT JOIN memory_vectors v "
    "ON v.tenant_id = m.tenant_id AND v.user_id = m.user_id AND v.id = m.id"
)


def to_us(dt: datetime | None) -> int | None:
    return None if dt is None else (dt - EPOCH) // _US


def from_us(us: int | None) -> datetime | None:
    return None if us is None else EPOCH + timedelta(microseconds=us)


def scope_token(scope: Scope) -> str:
    """The one FTS5 token naming a scope in ``memory_fts.scope`` (migration m003 builds the same in SQL)."""
    return f"k{scope.tenant_id.encode().hex()}x{scope.user_id.encode().hex()}"


def _key_row(r: tuple) -> ApiKey:
    return ApiKey(r[0], r[1], r[2], r[3], from_us(r[4]), from_us(r[5]))


def _json(text: str, empty: object) -> object:
    return empty if text in ("[]", "{}") else json.loads(text)


_KINDS = {e.value: e for e in Kind}
_SOURCES = {e.value: e for e in Source}
_SENSITIVITIES = {e.value: e for e in Sensitivity}
_STATUSES = {e.value: e for e in Status}
_ROW_FIELDS = (
    "id", "tenant_id", "user_id", "kind", "text", "source", "source_refs", "created_at", "last_used_at", "importance",
    "confidence", "supersedes", "expires_at", "sensitivity", "status", "session_id", "metadata", "embedding",
)
# Rows were validated as ``Memory`` when written, so reading them back skips the
# constructor's checks (a search rebuilds ~100 records; validation was most of the
# cost). Should ``Memory`` gain a field this list lacks, the checked path is used.
_TRUSTED = set(_ROW_FIELDS) == {f.name for f in fields(Memory)}


def _row(r: tuple, embedding: np.ndarray | None = None) -> Memory:
    """A record from a row of ``_MEM_COLS`` (or of ``_MEM_COLS_NO_VEC`` plus its ``embedding``)."""
    if len(r) > 17 and r[17] is not None:
        embedding = np.frombuffer(r[17], dtype=np.float32)
    values = (
        r[0], r[1], r[2], _KINDS[r[3]], r[4], _SOURCES[r[5]], tuple(_json(r[6], ())), from_us(r[7]), from_us(r[8]),
        float(r[9]), float(r[10]), tuple(_json(r[11], ())), from_us(r[12]), _SENSITIVITIES[r[13]], _STATUSES[r[14]],
        r[15], _json(r[16], None) or {}, embedding,
    )
    if not _TRUSTED:
        return Memory(**dict(zip(_ROW_FIELDS, values)))
    m = object.__new__(Memory)
    for name, value in zip(_ROW_FIELDS, values):
        object.__setattr__(m, name, value)
    return m
