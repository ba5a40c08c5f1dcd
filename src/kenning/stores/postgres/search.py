"""The PostgreSQL engine's search: the cached per-scope partition, ranking over it, and the refresh write.

Search runs in process over a ``Partition`` of the scope (``stores.partition``),
as on SQLite: loaded in one query, cached, and valid while the scope's row in
``kenning_scope_gen`` (bumped in every write transaction, ``touched`` counted
apart) still holds the numbers it was loaded at. Vector and keyword search
rank the way every engine does (``Partition.nearest``, ``stores.keywords``),
so the engines agree on records, order and scores.

A search costs one round trip: without a refresh, the generation check is
sent before the ranking runs and read after it; with one, the refresh is one
statement that writes only if the cached partition is still current and says
whether it was, read after the hits' records (``ranked``). A refresh is
one row appended to a log (``last_used``), never an update of the rows
holding vectors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any
from datetime import datetime, timedelta, timezone
import numpy as np
import psycopg
from psycopg import errors as pg_errors

from kenning.stores import keywords
from kenning.stores.base import RETRIEVABLE, Scored, T
from kenning.stores.partition import NEVER, Partition, best, encode_terms, kind_code_sql, similarities
from kenning.stores.postgres.adapt import Pending, Vector, translated
from kenning.stores.postgres.filters import predicate
from kenning.stores.postgres.last_used import LAST_USED, MEMORIES, TOUCH, TOUCH_ANY
from kenning.errors import ValidationError
from kenning.types import Filter, Memory, Scope, Status

SCOPE = "m.tenant_id = %(t)s AND m.user_id = %(u)s"
# Statements sent through libpq (``Pending``), prepared once per connection.
_PREPARED = {
    "kenning_gen": "SELECT gen, touched FROM kenning_scope_gen WHERE tenant_id = $1::text AND user_id = $2::text",
    # A refresh: one row appended to the log (``last_used``); a search's, or any other.
    "kenning_touch": TOUCH,
    "kenning_touch_any": TOUCH_ANY,
}
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_TOUCH_TRIES = 3  # sends of an unchecked refresh while writes keep landing in the middle of it; then it is dropped (a hint)
_MARGIN = 16  # candidates beyond k that the server's vector ranking passes to the exact one
# A timestamptz as microseconds since the epoch, exactly (extract returns an exact numeric).
_US_SQL = "(extract(epoch FROM {}) * 1000000)::bigint"


def _text_array(values: Sequence[str]) -> str:
    """A PostgreSQL text[] literal holding ``values`` (each quoted, quotes and backslashes escaped)."""
    return "{" + ",".join('"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"' for v in values) + "}"


def us(at: datetime) -> int:
    """Microseconds since the epoch, exactly."""
    return (at - _EPOCH) // timedelta(microseconds=1)


class SearchMixin:
    """``PostgresStore``'s search and refresh methods (``PartitionStore``, ``search_vector``, ``search_keywords``, ``touch``).

    It uses the store's ``_conn``, ``_rows``, ``get_many``, ``_cache``, ``_local`` and ``_prepared``.
    """

    def touch(self, scope: Scope, ids: Sequence[str], now: datetime) -> None:
        if not ids:
            return
        # One statement, one round trip (``kenning_touch_any``, unchecked), sent again in the rare case a
        # write to the scope landed between its snapshot and its lock. The scope's row lock orders
        # refreshes of one scope, so a cached partition exactly one behind missed none and is
        # brought forward, otherwise the next search reloads the column.
        params = ["-1", "0", scope.tenant_id, scope.user_id, now.isoformat(), _text_array(list(ids))]
        with self._conn("touch") as conn:
            for _ in range(_TOUCH_TRIES):
                rows = self._reply(self._send(conn, "kenning_touch_any", params))
                if rows is None:
                    continue
                if rows and rows[0][2] == b"t":
                    self._cache.touched(scope, int(rows[0][0]), int(rows[0][1]), ids, us(now))
                if not rows or rows[0][2] == b"t":
                    return

    def partition(self, scope: Scope) -> Partition:
        """The scope's active and provisional records as one in-memory ``Partition``, current as of this call."""
        args = {"t": scope.tenant_id, "u": scope.user_id}
        with self._conn("search") as conn, conn.cursor(binary=True) as cur:
            row = cur.execute("SELECT gen, touched FROM kenning_scope_gen m WHERE " + SCOPE, args).fetchone()
            gen, touched = (row[0], row[1]) if row else (0, 0)
            part = self._cache.get(scope)
            if part is not None and part.gen == gen:
                if part.touched != touched:  # refreshed by another process: reload that one column
                    fresh = part.last_used.copy()
                    for mid, used in cur.execute(
                        f"SELECT m.id, {_US_SQL.format(LAST_USED)} FROM {MEMORIES} "
                        f"WHERE {SCOPE} AND m.status IN ('active', 'provisional')",
                        args,
                    ):
                        i = part.position(mid)
                        if i is not None:
                            fresh[i] = used
                    part.last_used, part.touched = fresh, touched
                return part
            # Times as microseconds, kinds as codes and vectors in pgvector's binary form are
            # computed by the server: no datetime or array object is built per row here.
            rows = cur.execute(
                f"SELECT m.id, m.status = 'active', coalesce({_US_SQL.format('m.expires_at')}, {NEVER}), "
                f"vector_send(m.embedding), {kind_code_sql('m.kind')}, m.importance, m.confidence, "
                f"{_US_SQL.format('m.created_at')}, {_US_SQL.format(LAST_USED)}, m.terms, "
                "CASE WHEN m.terms IS NULL THEN m.text END, CASE WHEN m.terms IS NULL THEN m.metadata->>'context' END "
                f"FROM {MEMORIES} WHERE {SCOPE} AND m.status IN ('active', 'provisional') "
                "AND m.embedding IS NOT NULL ORDER BY m.id",
                args,
            ).fetchall()
        n = len(rows)
        # Each vector is a 4-byte header (dimension, reserved) and big-endian float32s.
        vectors = np.frombuffer(b"".join(r[3] for r in rows), dtype=">f4").reshape(n, self.dim + 1)[:, 1:]
        part = Partition.build(
            gen=gen,
            touched=touched,
            ids=[r[0] for r in rows],
            active=[r[1] for r in rows],
            expires=[r[2] for r in rows],
            matrix=vectors.astype(np.float32),
            kinds=[r[4] for r in rows],
            importance=[r[5] for r in rows],
            confidence=[r[6] for r in rows],
            created=[r[7] for r in rows],
            last_used=[r[8] for r in rows],
            encoded_terms=[r[9] if r[9] is not None else encode_terms(r[10], r[11]) for r in rows],
        )
        self._cache.put(scope, part)
        return part

    def ranked(
        self,
        scope: Scope,
        rank: Callable[[Partition], T],
        refresh: Callable[[T], Sequence[str]] | None = None,
        now: datetime | None = None,
        finish: Callable[[Partition, T], Any] | None = None,
    ) -> tuple[Partition, Any]:
        """``rank`` of the scope's current partition, run on the cached one while the server confirms it, in one round trip.

        Without a refresh the generation check is sent before ``rank`` runs and
        read after ``finish``, so the round trip overlaps the ranking (a store
        call inside ``rank`` or ``finish`` reads the reply first and reuses the
        connection). With one, the refresh write is sent after ``rank`` and read
        after ``finish``: applied only if the generation the cached partition
        was loaded at is still the scope's, it says whether it was. Should the
        cached partition be stale, the fresh one is loaded and ranked again.
        """
        done = finish if finish is not None else (lambda _part, result: result)
        part = self._cache.get(scope)
        if part is not None:
            ids: list[str] = []
            with self._conn("search") as conn:
                pending = self._send(conn, "kenning_gen", (scope.tenant_id, scope.user_id)) if refresh is None else None
                self._local.held = pending
                try:
                    result = rank(part)
                    if refresh is not None:
                        ids = list(refresh(result))
                        # The partition's own ids need no filter (the generic-plan statement); any other goes through one.
                        touch = "kenning_touch" if all(part.position(i) is not None for i in ids) else "kenning_touch_any"
                        pending = self._local.held = (
                            self._send(conn, touch, [
                                str(part.gen), str(part.touched), scope.tenant_id, scope.user_id, now.isoformat(),  # type: ignore[union-attr]
                                _text_array(ids),
                            ])
                            if ids else self._send(conn, "kenning_gen", (scope.tenant_id, scope.user_id))
                        )
                    out = done(part, result)
                finally:
                    self._local.held = None
                    current = pending is not None and (
                        self._touched_if_current(scope, pending, ids, now) if ids else self._current(scope, part, pending)  # type: ignore[arg-type]
                    )
            if current:
                return part, out
        part = self.partition(scope)
        result = rank(part)
        ids = list(refresh(result)) if refresh is not None else []
        if ids:
            self.touch(scope, ids, now)  # type: ignore[arg-type]
        return part, done(part, result)

    def _current(self, scope: Scope, part: Partition, pending: Pending | None) -> bool:
        """Whether ``part`` is still the scope's partition (generation and refresh count), from ``pending``'s reply or a new query."""
        if pending is None:
            row = self._rows("search", "SELECT gen, touched FROM kenning_scope_gen m WHERE " + SCOPE,
                             {"t": scope.tenant_id, "u": scope.user_id})
            gen, touched = (row[0][0], row[0][1]) if row else (0, 0)
        else:
            with translated("search"):
                got = self._reply(pending)
            if got is None:
                return False
            gen, touched = (int(got[0][0]), int(got[0][1])) if got else (0, 0)
        return part.gen == gen and part.touched == touched

    def _touched_if_current(self, scope: Scope, pending: Pending, ids: list[str], now: datetime) -> bool:
        """The reply of ``kenning_touch`` sent for a cached partition: whether it was still current, so the refresh was written.

        The scope's refresh count is bumped either way (an empty refresh when
        stale), so the count still orders every write of ``last_used_at``.
        """
        with translated("touch"):
            rows = self._reply(pending)
        if not rows or rows[0][2] != b"t":
            return False
        self._cache.touched(scope, int(rows[0][0]), int(rows[0][1]), ids, us(now))
        return True

    def _reply(self, pending: Pending) -> list[tuple[bytes | None, ...]] | None:
        """``pending``'s rows; None if its prepared statement had been dropped from the connection (then prepared again next time).

        psycopg sends ``DEALLOCATE ALL`` after a rollback on a connection where
        it prepared statements of its own, which drops ours too.
        """
        try:
            return pending.rows()
        except pg_errors.InvalidSqlStatementName:
            self._prepared.pop(pending.conn, None)
            return None

    def _send(self, conn: psycopg.Connection, name: str, params: Sequence[str]) -> Pending:
        """Send the statement ``name`` of ``_PREPARED`` (prepared on ``conn`` the first time) without waiting for its reply."""
        done = self._prepared.setdefault(conn, set())
        if name not in done:  # once per connection: later executions are neither parsed nor planned
            conn.execute(f"PREPARE {name} AS {_PREPARED[name]}")
            done.add(name)
        return Pending(conn, name, params, prepared=True)

    def records(self, scope: Scope, part: Partition, positions: Sequence[int]) -> list[Memory]:
        """Whole records for these partition positions, in order; read once per generation, leaving out any no longer live."""
        return part.records(positions, lambda ids: self.get_many(scope, ids))

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
        extra, extra_args = predicate(where)
        args = {"t": scope.tenant_id, "u": scope.user_id, "st": wanted, "now": now, **extra_args}
        if set(wanted) <= {"active", "provisional"}:
            # Over the cached partition (Partition.nearest, as on every engine); a filter
            # narrows it to the ids its SQL keeps.
            part = self._cached_current(scope)
            if part is None:
                return self._nearest_in_sql(scope, vector, k, args, extra)
            mask = part.mask(wanted, us(now))
            if where:
                kept = part.positions([r[0] for r in self._rows("vector search", f"SELECT m.id FROM kenning_memories m WHERE {SCOPE}{extra}", args)])
                mask = kept if mask is None else mask & kept
            top, sims = part.nearest(vector, k, mask)
            found = {m.id: m for m in self.records(scope, part, top.tolist())}
            return [Scored(found[part.ids[i]], s) for i, s in zip(top.tolist(), sims.tolist()) if part.ids[i] in found]
        # Statuses outside the partition (retired records): the rows, in id order, ranked the same way.
        rows = self._rows(
            "vector search",
            f"SELECT m.id, m.embedding FROM kenning_memories m WHERE {SCOPE} AND m.status = ANY(%(st)s::text[]) "
            f"AND (m.expires_at IS NULL OR m.expires_at > %(now)s) AND m.embedding IS NOT NULL{extra} ORDER BY m.id",
            args,
        )
        return self._ranked_rows(scope, rows, vector, k)

    def _ranked_rows(self, scope: Scope, rows: Sequence[tuple], vector: np.ndarray, k: int) -> list[Scored]:
        """``(id, embedding)`` rows ranked as ``Partition.nearest`` ranks (same similarities, ties to the row
        first in id order), the best ``k`` as whole records."""
        if not rows:
            return []
        sims = similarities(np.stack([r[1] for r in rows]), vector)
        order = best(sims, k).tolist()
        found = {m.id: m for m in self.get_many(scope, [rows[i][0] for i in order])}
        return [Scored(found[rows[i][0]], float(sims[i])) for i in order if rows[i][0] in found]

    def _cached_current(self, scope: Scope) -> Partition | None:
        """The scope's cached partition if it is still current (one primary-key read), else None: nothing is loaded."""
        part = self._cache.get(scope)
        return part if part is not None and self._current(scope, part, None) else None

    def _nearest_in_sql(self, scope: Scope, vector: np.ndarray, k: int, args: dict, extra: str) -> list[Scored]:
        """Vector search without a current cached partition (the write path's neighbours, after a write).

        Loading a large scope's partition costs several times a scan in the
        server (at 5,000 records, 54 against 7 ms), so the server picks the
        best ``k`` plus a margin by pgvector's inner product and they are ranked
        here as ``Partition.nearest`` ranks (the same similarities, ties to the
        smaller id). Only a record that pgvector's rounding moved past the
        margin could differ from a ranking over the partition.
        """
        rows = self._rows(
            "vector search",
            # MATERIALIZED keeps the planner from pushing the ORDER BY distance into a scan of
            # the whole table: the scope's rows are fetched first, then ranked.
            f"WITH c AS MATERIALIZED (SELECT m.id, m.embedding <#> %(q)s AS d FROM kenning_memories m "
            f"WHERE {SCOPE} AND m.status = ANY(%(st)s::text[]) AND (m.expires_at IS NULL OR m.expires_at > %(now)s) "
            f"AND m.embedding IS NOT NULL{extra}), top AS (SELECT id FROM c ORDER BY d, id LIMIT %(n)s) "
            f"SELECT m.id, m.embedding FROM top JOIN kenning_memories m ON {SCOPE} AND m.id = top.id ORDER BY m.id",
            {**args, "q": Vector(vector), "n": k + _MARGIN},
        )
        return self._ranked_rows(scope, rows, vector, k)

    def search_keywords(
        self, scope: Scope, query: str, *, k: int, now: datetime, statuses: Sequence[Status] = RETRIEVABLE,
        where: Filter | None = None,
    ) -> list[Scored]:
        # Kenning's words ranked by their summed rarity among the records searched
        # (stores.keywords, the same on every engine): over the cached partition when it
        # is current and holds those records, else over the terms of the scope's rows
        # that pass the filter (the same ranking, without loading vectors).
        words = keywords.query_words(query)
        if not words or k <= 0 or not statuses:
            return []
        wanted = [s.value for s in statuses]
        part = self._cached_current(scope) if not where and set(wanted) <= {"active", "provisional"} else None
        if part is not None:
            top, scores = keywords.in_partition(part, words, part.mask(wanted, us(now)), k)
            found = {m.id: m for m in self.records(scope, part, top.tolist())}
            return [Scored(found[part.ids[i]], s) for i, s in zip(top.tolist(), scores.tolist()) if part.ids[i] in found]
        extra, extra_args = predicate(where)
        rows = self._rows(
            "keyword search",
            "SELECT m.id, m.created_at, m.terms, CASE WHEN m.terms IS NULL THEN m.text END, "
            "CASE WHEN m.terms IS NULL THEN m.metadata->>'context' END "
            f"FROM kenning_memories m WHERE {SCOPE} AND m.status = ANY(%(st)s::text[]) "
            f"AND (m.expires_at IS NULL OR m.expires_at > %(now)s){extra} ORDER BY m.id",
            {"t": scope.tenant_id, "u": scope.user_id, "st": wanted, "now": now, **extra_args},
        )
        if not rows:
            return []
        encoded = [r[2] if r[2] is not None else encode_terms(r[3], r[4]) for r in rows]
        top, scores = keywords.in_rows(encoded, [us(r[1]) for r in rows], words, k)
        ids = [rows[i][0] for i in top.tolist()]
        found = {m.id: m for m in self.get_many(scope, ids)}
        return [Scored(found[m], s) for m, s in zip(ids, scores.tolist()) if m in found]
