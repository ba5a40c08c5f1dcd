"""Kenning as a LangGraph ``BaseStore``: long-term memory for graphs, scored by Kenning.

    from kenning.integrations.langgraph import KenningStore
    store = KenningStore(kenning.open("sqlite:///memories.db"), tenant_id="acme")
    graph = builder.compile(store=store)        # nodes get it as ``store`` / ``runtime.store``
    store.put(("alice", "memories"), "diet", {"text": "Alice is vegetarian"})
    store.search(("alice",), query="what does Alice eat?")

Namespaces map onto Kenning's scope: with ``tenant_id`` given, a namespace is
``(user_id, *rest)``; without, ``(tenant_id, user_id, *rest)``. ``rest`` (any
depth, possibly empty) and the key live in the record's metadata, so an item
is one Kenning memory: searched with Kenning's scoring (relevance, recency,
importance), versioned on overwrite (the old value is retired, kept in the
history), deleted with the cascade, and shown on the user's memory page.

What is embedded: the fields named by ``index`` (per put, or the store's
``index_fields``), else the value's ``text``, ``content`` or ``memory``
field, else the whole value as JSON. ``filter`` equality on the value's
top-level scalar fields runs inside the store query; other operators
(``$gt``, ``$ne``…) are checked on the kept records afterwards. Two puts of
one new key racing each other can leave two versions; the newest wins on read.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)

from kenning.memory import Kenning
from kenning.scoped import ScopedMemory
from kenning.types import Filter, Memory, Source

MARK = "lg"  # every item carries metadata {"lg": true}
_TEXT_FIELDS = ("text", "content", "memory")
_SCALAR = (str, int, float, bool)


class KenningStore(BaseStore):
    """A LangGraph ``BaseStore`` over a Kenning system; thread-safe like the facade it wraps."""

    supports_ttl = False

    def __init__(self, memory: Kenning, tenant_id: str | None = None, *, index_fields: Sequence[str] | None = None) -> None:
        self.memory = memory
        self.tenant_id = tenant_id
        self.index_fields = list(index_fields) if index_fields else None

    # -- the two abstract methods ------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return [self._one(op) for op in ops]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        import anyio.to_thread

        ops = list(ops)
        return await anyio.to_thread.run_sync(self.batch, ops)

    def _one(self, op: Op) -> Result:
        if isinstance(op, GetOp):
            return self._get(op.namespace, op.key)
        if isinstance(op, PutOp):
            self._put(op)
            return None
        if isinstance(op, SearchOp):
            return self._search(op)
        if isinstance(op, ListNamespacesOp):
            return self._list_namespaces(op)
        raise ValueError(f"unknown operation {type(op).__name__}")

    # -- namespaces ----------------------------------------------------------------------------

    def _head(self) -> int:
        return 1 if self.tenant_id is not None else 2

    def _split(self, namespace: tuple[str, ...]) -> tuple[ScopedMemory, tuple[str, ...]]:
        head = self._head()
        if len(namespace) < head or not all(isinstance(p, str) and p for p in namespace):
            lead = "(user_id, …)" if head == 1 else "(tenant_id, user_id, …)"
            raise InvalidNamespaceError(f"namespace {namespace!r} must start with {lead}")
        tenant, user = (self.tenant_id, namespace[0]) if head == 1 else (namespace[0], namespace[1])
        return self.memory.scope(tenant, user), tuple(namespace[head:])

    def _namespace(self, scope: Any, rest: Sequence[str]) -> tuple[str, ...]:
        lead = (scope.user_id,) if self.tenant_id is not None else (scope.tenant_id, scope.user_id)
        return (*lead, *rest)

    def _scopes(self, prefix: tuple[str, ...]) -> list[tuple[ScopedMemory, tuple[str, ...]]]:
        """The scopes a namespace prefix reaches, with the part of the prefix below the scope."""
        head = self._head()
        if len(prefix) >= head:
            return [self._split(prefix)]
        out = []
        for s in self.memory.scopes():
            if self.tenant_id is not None and s.tenant_id != self.tenant_id:
                continue
            lead = self._namespace(s, ())
            if lead[: len(prefix)] == tuple(prefix):
                out.append((self.memory.scope(s.tenant_id, s.user_id), ()))
        return out

    # -- operations -----------------------------------------------------------------------------

    def _where(self, rest: Sequence[str], *, exact: bool, key: str | None = None, equal: dict[str, Any] | None = None) -> Filter:
        meta: dict[str, Any] = {MARK: True}
        if exact:
            meta["lg_ns"] = json.dumps(list(rest))
        else:
            meta.update({f"lg_ns{i}": part for i, part in enumerate(rest)})
        if key is not None:
            meta["lg_key"] = key
        meta.update({f"lg_v.{k}": v for k, v in (equal or {}).items()})
        return Filter(metadata=meta)

    def _find(self, mem: ScopedMemory, rest: Sequence[str], key: str) -> Memory | None:
        found = mem.list(where=self._where(rest, exact=True, key=key), limit=1)
        return found[0] if found else None

    def _item(self, mem: ScopedMemory, m: Memory, score: float | None = None, search: bool = False) -> Item:
        meta = m.metadata
        created = datetime.fromisoformat(meta.get("lg_created") or m.created_at.isoformat())
        args = dict(
            value=meta["lg_value"], key=meta["lg_key"], namespace=self._namespace(mem.scope, json.loads(meta["lg_ns"])),
            created_at=created, updated_at=m.created_at,
        )
        return SearchItem(**args, score=score) if search else Item(**args)

    def _get(self, namespace: tuple[str, ...], key: str) -> Item | None:
        mem, rest = self._split(namespace)
        m = self._find(mem, rest, key)
        return None if m is None else self._item(mem, m)

    def _text(self, value: dict[str, Any], index: Any) -> str:
        fields = index if isinstance(index, list) else self.index_fields
        if fields:
            parts = [value.get(f) for f in fields]
            text = " ".join(p if isinstance(p, str) else json.dumps(p, sort_keys=True) for p in parts if p is not None)
            if text.strip():
                return text
        for f in _TEXT_FIELDS:
            if isinstance(value.get(f), str) and value[f].strip():
                return value[f]
        return json.dumps(value, sort_keys=True, default=str)

    def _put(self, op: PutOp) -> None:
        mem, rest = self._split(op.namespace)
        old = self._find(mem, rest, op.key)
        if op.value is None:
            if old is not None:
                mem.delete(old.id)
            return
        if not isinstance(op.value, dict):
            raise ValueError("a LangGraph store value must be a dict")
        meta = {
            MARK: True, "lg_ns": json.dumps(list(rest)), "lg_key": op.key, "lg_value": op.value,
            **{f"lg_ns{i}": part for i, part in enumerate(rest)},
            **{f"lg_v.{k}": v for k, v in op.value.items() if isinstance(v, _SCALAR) and len(k) <= 190 and '"' not in k and "\\" not in k},
        }
        text = self._text(op.value, op.index)
        if old is None:  # the first version's own created_at is the item's; later versions carry it forward
            # a graph's put is the application's own words, as POST …/memories is: inferred, never user_said
            mem.remember(text, source=Source.INFERRED, metadata=meta)
        else:
            meta["lg_created"] = old.metadata.get("lg_created") or old.created_at.isoformat()
            mem.update(old.id, text=text if text != old.text else None, metadata=meta)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        equal, rest_filter = _split_filter(op.filter or {})
        want = op.offset + op.limit
        scored: list[tuple[float | None, ScopedMemory, Memory]] = []
        for mem, below in self._scopes(tuple(op.namespace_prefix)):
            head = self._head()
            sub = tuple(op.namespace_prefix[head:]) if len(op.namespace_prefix) >= head else below
            where = self._where(sub, exact=False, equal=equal)
            if op.query:
                # with operators outside the query, take everything the query keeps, then check them
                k = 200 if rest_filter else min(max(want, 1), 200)
                for h in mem.search(op.query, k=k, where=where, refresh=False):
                    scored.append((h.score, mem, h.memory))
            else:
                for m in mem.list(where=where, limit=None if rest_filter else want):
                    scored.append((None, mem, m))
        kept = [(s, mem, m) for s, mem, m in scored if _matches(m.metadata["lg_value"], rest_filter)]
        if op.query:
            kept.sort(key=lambda t: -(t[0] or 0.0))
        return [self._item(mem, m, s, search=True) for s, mem, m in kept[op.offset : want]]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        found: set[tuple[str, ...]] = set()
        for s in self.memory.scopes():
            if self.tenant_id is not None and s.tenant_id != self.tenant_id:
                continue
            mem = self.memory.scope(s.tenant_id, s.user_id)
            for m in mem.list(where=Filter(metadata={MARK: True})):
                found.add(self._namespace(s, json.loads(m.metadata["lg_ns"])))
        names = [ns for ns in found if all(_does_match(c, ns) for c in op.match_conditions or ())]
        names = sorted({ns[: op.max_depth] for ns in names}) if op.max_depth is not None else sorted(names)
        return names[op.offset : op.offset + op.limit]


def _split_filter(flt: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(equality on scalar fields, for the store query; everything else, checked afterwards)."""
    equal, rest = {}, {}
    for k, v in flt.items():
        if isinstance(v, dict) and set(v) == {"$eq"} and isinstance(v["$eq"], _SCALAR):
            equal[k] = v["$eq"]
        elif isinstance(v, _SCALAR) and '"' not in k and "\\" not in k and len(k) <= 190:
            equal[k] = v
        else:
            rest[k] = v
    return equal, rest


def _matches(value: dict[str, Any], flt: dict[str, Any]) -> bool:
    from langgraph.store.memory import _compare_values

    return all(_compare_values(value.get(k), v) for k, v in flt.items())


def _does_match(cond: MatchCondition, ns: tuple[str, ...]) -> bool:
    from langgraph.store.memory import _does_match as match

    return match(cond, ns)


__all__ = ["KenningStore"]
