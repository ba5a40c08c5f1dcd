"""A memory store in a Python dict: everything ``MemoryStore`` asks for, nothing more.

Written against Kenning's public seams only (``kenning.stores.base``,
``kenning.types``, ``kenning.text``), as a third-party engine would be.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from datetime import datetime
from math import log1p

import numpy as np

from kenning.errors import Conflict
from kenning.stores.base import RETRIEVABLE, Scored, StoreBase
from kenning.text import STOPWORDS
from kenning.types import AuditEntry, Changeset, Filter, Kind, Memory, Scope, Status

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_KEEP = Filter()


def open_store(url: str, *, dim: int, embedder_id: str) -> "DictStore":
    """The ``kenning.stores`` entry point: ``dictstore://anything`` (nothing persists)."""
    return DictStore(dim=dim)


def build_embedder(settings):  # the ``kenning.embedders`` entry point
    from kenning.embedders.hashing import HashEmbedder

    return HashEmbedder(dim=64)


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in STOPWORDS}


class DictStore(StoreBase):
    """A ``MemoryStore`` held in memory under one lock."""

    def __init__(self, *, dim: int) -> None:
        self.dim = dim
        self._lock = threading.RLock()
        self._mem: dict[Scope, dict[str, Memory]] = {}
        self._audit: dict[Scope, list[AuditEntry]] = {}

    def apply(self, scope: Scope, change: Changeset) -> None:
        self.check_change(scope, change, self.dim)
        with self._lock:
            staged = dict(self._mem.get(scope, {}))
            for m in change.inserts:
                if m.id in staged:
                    raise Conflict(f"memory {m.id} already exists")
                staged[m.id] = m
            for tr in change.transitions:
                cur = staged.get(tr.memory_id)
                if cur is None or cur.status not in tr.from_:
                    raise Conflict(f"memory {tr.memory_id} is not in state {'/'.join(s.value for s in tr.from_)}")
                staged[tr.memory_id] = cur.evolve(status=tr.to)
            for mid in change.deletes:
                cur = staged.get(mid)
                if cur is None:
                    raise Conflict(f"memory {mid} does not exist in this scope")
                staged[mid] = cur.evolve(text="", embedding=None, metadata={}, status=Status.DELETED)
            self._mem[scope] = staged
            self._audit.setdefault(scope, []).extend(change.audit)

    def get(self, scope: Scope, memory_id: str) -> Memory | None:
        with self._lock:
            return self._mem.get(scope, {}).get(memory_id)

    def get_many(self, scope: Scope, ids: Sequence[str]) -> list[Memory]:
        with self._lock:
            held = self._mem.get(scope, {})
            return [held[i] for i in dict.fromkeys(ids) if i in held]

    def _live(self, scope: Scope, now: datetime, statuses: Sequence[Status], where: Filter | None) -> list[Memory]:
        with self._lock:
            held = list(self._mem.get(scope, {}).values())
        return [m for m in held if m.status in statuses and not m.is_expired(now) and (where or _KEEP).matches(m)]

    def search_vector(self, scope, vector, *, k, now, statuses=RETRIEVABLE, where=None) -> list[Scored]:
        pool = [m for m in self._live(scope, now, statuses, where) if m.embedding is not None]
        if k <= 0 or not pool:
            return []
        sims = np.stack([m.embedding for m in pool]) @ np.asarray(vector, dtype=np.float32)
        return [Scored(pool[i], float(sims[i])) for i in np.argsort(-sims, kind="stable")[:k]]

    def search_keywords(self, scope, query, *, k, now, statuses=RETRIEVABLE, where=None) -> list[Scored]:
        words = _words(query)
        if not words or k <= 0:
            return []
        with self._lock:
            docs = [m for m in self._mem.get(scope, {}).values() if m.status is not Status.DELETED]
        df = {w: sum(1 for m in docs if w in _words(m.text)) for w in words}
        scored = []
        for m in reversed(self._live(scope, now, statuses, where)):  # newer first among equal scores
            s = sum(log1p((len(docs) - df[w] + 0.5) / (df[w] + 0.5)) for w in words & _words(m.text))
            if s > 0:
                scored.append(Scored(m, s))
        scored.sort(key=lambda x: -x.similarity)
        return scored[:k]

    def touch(self, scope: Scope, ids: Sequence[str], now: datetime) -> None:
        with self._lock:
            held = self._mem.get(scope, {})
            for i in ids:
                if i in held:
                    held[i] = held[i].evolve(last_used_at=max(held[i].last_used_at, now))

    def list(self, scope, *, statuses=RETRIEVABLE, kinds: Sequence[Kind] | None = None, limit=None, offset=0, where=None):
        with self._lock:
            held = list(self._mem.get(scope, {}).values())
        kept = [m for m in held if m.status in statuses and (not kinds or m.kind in kinds) and (where or _KEEP).matches(m)]
        kept.sort(key=lambda m: (m.created_at, m.id), reverse=True)
        return kept[offset:] if limit is None else kept[offset : offset + limit]

    def count(self, scope: Scope, *, statuses: Sequence[Status] = RETRIEVABLE) -> int:
        with self._lock:
            return sum(1 for m in self._mem.get(scope, {}).values() if m.status in statuses)

    def citing(self, scope: Scope, memory_id: str) -> list[Memory]:
        with self._lock:
            return [m for m in self._mem.get(scope, {}).values() if memory_id in m.source_refs or memory_id in m.supersedes]

    def export(self, scope: Scope) -> list[Memory]:
        with self._lock:
            return sorted(self._mem.get(scope, {}).values(), key=lambda m: (m.created_at, m.id))

    def audit(self, scope: Scope, memory_id: str | None = None) -> list[AuditEntry]:
        with self._lock:
            return [a for a in self._audit.get(scope, []) if memory_id is None or memory_id in a.memory_ids]

    def delete_scope(self, scope: Scope) -> int:
        with self._lock:
            self._audit.pop(scope, None)
            return len(self._mem.pop(scope, {}))

    def scopes(self) -> list[Scope]:
        with self._lock:
            return sorted((s for s, held in self._mem.items() if held), key=lambda s: (s.tenant_id, s.user_id))

    def close(self) -> None:
        pass
