"""A memory's history: the versions its ``supersedes`` chain links, and the audit entries naming any of them."""

from __future__ import annotations

from dataclasses import dataclass

from kenning.stores.base import MemoryStore
from kenning.types import AuditEntry, Memory, Scope


@dataclass(frozen=True)
class History:
    """A memory's versions (oldest first, following ``supersedes``) and its audit entries."""

    memory: Memory
    versions: list[Memory]
    audit: list[AuditEntry]


def history(store: MemoryStore, scope: Scope, mem: Memory) -> History:
    """The supersedes chain through ``mem`` (oldest first) and the audit entries naming any version."""
    chain: dict[str, Memory] = {mem.id: mem}
    frontier = [mem]
    while frontier:  # walk both directions: older via supersedes, newer via citing
        nxt = []
        for m in frontier:
            older = store.get_many(scope, [i for i in m.supersedes if i not in chain])
            newer = [c for c in store.citing(scope, m.id) if m.id in c.supersedes and c.id not in chain]
            for o in older + newer:
                chain[o.id] = o
                nxt.append(o)
        frontier = nxt
    ids = set(chain)
    audit = [a for a in store.audit(scope) if ids.intersection(a.memory_ids)]
    return History(mem, sorted(chain.values(), key=lambda m: (m.created_at, m.id)), audit)
