"""The SQLite engine's search: the cached per-scope partition, its search columns, the refresh write, and ranking over it.

A user's vectors are clustered by scope (``memory_vectors`` is keyed on
tenant, user, id) and loaded, with the columns scoring needs and each
record's stored keyword terms, as one ``Partition`` (``stores.partition``) in
one range scan, kept in a cache that the per-scope generation number, bumped
by every write, invalidates, across processes too. ``touch`` counts its
refreshes apart, so a refresh updates a cached partition in place. Vector
and keyword search rank as on every engine (``Partition.nearest``,
``stores.keywords``); a filter narrows them through ``filters``.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime

import numpy as np

from kenning.errors import StoreError, ValidationError
from kenning.stores import keywords
from kenning.stores.base import RETRIEVABLE, Scored
from kenning.stores.partition import ATTRS, NEVER, TERMS_VERSION, Partition, context_of, encode_terms, pack_attrs
from kenning.stores.sqlite import filters
from kenning.stores.sqlite.rows import to_us
from kenning.types import Filter, Kind, Memory, Scope, Status

# One scope's partition in one range scan of the scope-clustered vectors; the
# attributes come packed, so decoding a thousand rows allocates little.
_LOAD = (
    f"SELECT id, status = 'active', coalesce(expires_at, {NEVER}), embedding, attrs, last_used_at, terms FROM memory_vectors "
    "WHERE tenant_id = ? AND user_id = ? AND status IN ('active', 'provisional') ORDER BY id"
)


class SearchMixin:
    """The search partition, its columns and the searches over it; mixed into ``SQLiteStore`` (uses its ``_read``/``_write``, ``_cache``, ``_fetch``)."""

    def _check_terms(self, only_missing: bool = False) -> None:
        """Fill (or, after a change of ``retrieve.terms``, refill) the search columns of ``memory_vectors``."""
        with self._write() as con:
            row = con.execute("SELECT value FROM meta WHERE key = 'terms_version'").fetchone()
            if row is not None and row[0] == TERMS_VERSION and not only_missing:
                return
            con.execute(
                "UPDATE memory_vectors SET terms = kenning_terms(m.text, m.metadata), "
                "attrs = kenning_attrs(m.kind, m.importance, m.confidence, m.created_at), last_used_at = m.last_used_at "
                "FROM memories m WHERE m.id = memory_vectors.id"
                + (" AND (memory_vectors.terms IS NULL OR memory_vectors.attrs IS NULL)" if only_missing else "")
            )
            con.execute(
                "INSERT INTO meta (key, value) VALUES ('terms_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (TERMS_VERSION,),
            )
            con.execute("UPDATE scope_gen SET gen = gen + 1")
        self._cache.clear()

    def touch(self, scope: Scope, ids: Sequence[str], now: datetime) -> None:
        if not ids:
            return
        marks = ",".join("?" * len(ids))
        at = to_us(now)
        with self._write() as con:
            con.execute(
                f"UPDATE memories SET last_used_at = max(last_used_at, ?) WHERE +tenant_id = ? AND +user_id = ? AND id IN ({marks})",
                (at, scope.tenant_id, scope.user_id, *ids),
            )
            con.execute(
                f"UPDATE memory_vectors SET last_used_at = max(last_used_at, ?) WHERE tenant_id = ? AND user_id = ? AND id IN ({marks})",
                (at, scope.tenant_id, scope.user_id, *ids),
            )
            row = con.execute(
                "UPDATE scope_gen SET touched = touched + 1 WHERE tenant_id = ? AND user_id = ? RETURNING gen, touched",
                (scope.tenant_id, scope.user_id),
            ).fetchone()
            # Writes are serialised (BEGIN IMMEDIATE), so a cached partition one refresh
            # behind has missed none from another process: bring it forward in place.
            # Otherwise the next search sees ``touched`` differ and reloads the column.
            if row is not None:
                self._cache.touched(scope, row[0], row[1], ids, at)

    def _gen(self, con: sqlite3.Connection, scope: Scope) -> tuple[int, int]:
        row = con.execute(
            "SELECT gen, touched FROM scope_gen WHERE tenant_id = ? AND user_id = ?", (scope.tenant_id, scope.user_id)
        ).fetchone()
        return (row[0], row[1]) if row else (0, 0)

    def _current_partition(self, con: sqlite3.Connection, scope: Scope) -> Partition | None:
        """The scope's cached partition if it is current; None (nothing loaded) otherwise."""
        part = self._cache.get(scope)
        return part if part is not None and part.gen == self._gen(con, scope)[0] else None

    def partition(self, scope: Scope) -> Partition:
        """The scope's active and provisional records as one in-memory ``Partition``, current as of this call."""
        with self._read() as con:
            return self._partition(con, scope)

    def _partition(self, con: sqlite3.Connection, scope: Scope) -> Partition:
        gen, touched = self._gen(con, scope)
        part = self._cache.get(scope)
        if part is not None and part.gen == gen:
            if part.touched != touched:  # refreshed by another process: reload that one column
                rows = con.execute(
                    "SELECT id, last_used_at FROM memory_vectors WHERE tenant_id = ? AND user_id = ? "
                    "AND status IN ('active', 'provisional')",
                    (scope.tenant_id, scope.user_id),
                ).fetchall()
                fresh = part.last_used.copy()
                for mid, used in rows:
                    i = part.position(mid)
                    if i is not None:
                        fresh[i] = used
                part.last_used, part.touched = fresh, touched
            return part
        rows = con.execute(_LOAD, (scope.tenant_id, scope.user_id)).fetchall()
        ids, active, expires, blobs, attrs, last_used, encoded = zip(*rows) if rows else [()] * 7
        if None in encoded or None in attrs:  # rows an older version wrote since this store opened
            self._check_terms(only_missing=True)
            rows = con.execute(_LOAD, (scope.tenant_id, scope.user_id)).fetchall()
            ids, active, expires, blobs, attrs, last_used, encoded = zip(*rows) if rows else [()] * 7
            if None in encoded or None in attrs:
                raise StoreError("memory_vectors rows without their search columns (a record missing from memories?)")
        packed = np.frombuffer(b"".join(attrs), dtype=ATTRS)
        part = Partition.build(
            gen=gen,
            touched=touched,
            ids=ids,
            active=active,
            expires=expires,
            matrix=(
                np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(rows), self.dim)
                if rows
                else np.zeros((0, self.dim), dtype=np.float32)
            ),
            kinds=packed["kind"],
            importance=packed["importance"],
            confidence=packed["confidence"],
            created=packed["created"],
            last_used=last_used,
            encoded_terms=encoded,
        )
        self._cache.put(scope, part)
        return part

    def records(self, scope: Scope, part: Partition, positions: Sequence[int]) -> list[Memory]:
        """Whole records for these partition positions, in order; read once per generation (vectors from the partition).

        A record that changed status since the partition was loaded (retired or
        deleted by a concurrent write) is left out.
        """
        return part.records(positions, lambda ids: self._fetch(scope, ids, part.vectors(ids)))

    def search_vector(
        self, scope: Scope, vector: np.ndarray, *, k: int, now: datetime, statuses: Sequence[Status] = RETRIEVABLE,
        where: Filter | None = None,
    ) -> list[Scored]:
        vector = np.asarray(vector, dtype=np.float32)
        if vector.shape != (self.dim,):
            raise ValidationError(f"query vector has shape {vector.shape}; this store holds {self.dim} dims")
        if k <= 0 or not statuses:
            return []
        wanted = [s.value for s in statuses]
        if not set(wanted) <= {"active", "provisional"}:
            return filters.search_vector(self, scope, vector, k=k, now=now, statuses=statuses, where=where)
        # Over the cached partition (Partition.nearest, as on every engine); a filter
        # narrows it to the ids its SQL keeps.
        with self._read() as con:
            part = self._partition(con, scope)
        mask = part.mask(wanted, to_us(now))
        if where:
            kept = part.positions(filters.kept_ids(self, scope, where))
            mask = kept if mask is None else mask & kept
        top, sims = part.nearest(vector, k, mask)
        found = {m.id: m for m in self.records(scope, part, top.tolist())}
        return [Scored(found[part.ids[i]], s) for i, s in zip(top.tolist(), sims.tolist()) if part.ids[i] in found]

    def search_keywords(
        self, scope: Scope, query: str, *, k: int, now: datetime, statuses: Sequence[Status] = RETRIEVABLE,
        where: Filter | None = None,
    ) -> list[Scored]:
        # Kenning's words ranked by their summed rarity among the records searched
        # (stores.keywords, the same on every engine): over the cached partition when it
        # holds those records, else over the scope's rows that pass the filter.
        words = keywords.query_words(query)
        if not words or k <= 0 or not statuses:
            return []
        wanted = [s.value for s in statuses]
        if where or not set(wanted) <= {"active", "provisional"}:
            return filters.search_keywords(self, scope, words, k=k, now=now, statuses=statuses, where=where)
        with self._read() as con:
            part = self._partition(con, scope)
        top, scores = keywords.in_partition(part, words, part.mask(wanted, to_us(now)), k)
        found = {m.id: m for m in self.records(scope, part, top.tolist())}
        return [Scored(found[part.ids[i]], s) for i, s in zip(top.tolist(), scores.tolist()) if part.ids[i] in found]


def terms_of_row(text: str | None, metadata: str | None) -> str | None:
    """``encode_terms`` of a stored row (``metadata`` as JSON): the SQL function ``kenning_terms``."""
    if text is None:
        return None
    try:
        meta = json.loads(metadata) if metadata else {}
    except ValueError:
        meta = {}
    return encode_terms(text, context_of(meta))


def attrs_of_row(kind: str, importance: float, confidence: float, created_us: int) -> bytes:
    """``pack_attrs`` of a stored row: the SQL function ``kenning_attrs``."""
    return pack_attrs(Kind(kind), importance, confidence, created_us)
