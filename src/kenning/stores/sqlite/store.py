"""The embedded engine: everything in one SQLite file.

- WAL mode; reads on per-thread connections, writes through one connection
  under a lock with ``BEGIN IMMEDIATE`` (datasette's pattern).
- The scope is a parameter of every statement that touches memories.
- Search is exact and in memory: a user's vectors are clustered by scope
  (``memory_vectors`` is keyed on tenant, user, id) and loaded, with the
  columns scoring needs and each record's stored keyword terms, as one
  ``Partition`` (``stores.partition``), kept in a cache that a per-scope
  generation number, bumped by every write, invalidates, across processes
  too. ``touch`` counts its refreshes apart, so a refresh updates a cached
  partition in place instead of invalidating it.
- Keyword search is ``stores.keywords``, as on every engine: Kenning's words
  matched against each record's stored terms (the partition's, or the
  scope's rows when filtered), ranked by word rarity within the scope, so
  other tenants never sway a ranking. The FTS5 index (each entry carrying a
  scope token) is kept up to date but no longer read by search.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import numpy as np

from kenning.errors import ConfigError, Conflict, StoreError, ValidationError
from kenning.stores.base import (
    RETRIEVABLE,
    ActiveSetStore,
    KeyStore,
    LeaseStore,
    PartitionStore,
    ResidueStore,
    ScheduleStore,
    Scored,
    StoreBase,
)
from kenning.stores.sqlite.migrations import migrate
from kenning.types import AuditEntry, Changeset, Filter, Kind, Memory, Scope, Status

from kenning.stores import keywords
from kenning.stores.sqlite import filters
from kenning.stores.sqlite.admin import AdminMixin, _mark_residue
from kenning.stores.sqlite.schedule import ScheduleMixin
from kenning.stores.partition import (
    ATTRS,
    NEVER,
    TERMS_VERSION,
    Partition,
    PartitionCache,
    context_of,
    encode_terms,
    pack_attrs,
)
from kenning.stores.sqlite.rows import (
    _FROM,
    _MEM_COLS,
    _MEM_COLS_NO_VEC,
    _row,
    from_us,
    scope_token,
    to_us,
)


# One scope's partition in one range scan of the scope-clustered vectors; the
# attributes come packed, so decoding a thousand rows allocates little.
_LOAD = (
    f"SELECT id, status = 'active', coalesce(expires_at, {NEVER}), embedding, attrs, last_used_at, terms FROM memory_vectors "
    "WHERE tenant_id = ? AND user_id = ? AND status IN ('active', 'provisional') ORDER BY id"
)


class SQLiteStore(AdminMixin, ScheduleMixin, StoreBase, KeyStore, LeaseStore, ResidueStore, PartitionStore, ActiveSetStore, ScheduleStore):
    """A ``Store`` in one SQLite file (keys, leases, residue purging, the search partition too). Safe to share between threads and processes."""

    def __init__(self, path: str | Path, *, dim: int, embedder_id: str, cache_bytes: int | None = None) -> None:
        self.path = str(path)
        if self.path in ("", ":memory:"):
            raise ConfigError("the SQLite engine needs a file path (several connections share it)")
        try:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        except (OSError, ValueError) as exc:  # a file where a directory should be, no permission, NUL in the path
            raise StoreError(f"cannot create the directory for SQLite database {self.path}: {exc}") from None
        self.dim = dim
        self._local = threading.local()
        self._write_lock = threading.Lock()
        self._cache = PartitionCache(cache_bytes)
        self._conns: list[sqlite3.Connection] = []
        self._conns_lock = threading.Lock()
        self._closed = False
        try:
            self._writer = self._connect()
            self._writer.create_function("kenning_terms", 2, _terms_of_row, deterministic=True)
            self._writer.create_function("kenning_attrs", 4, _attrs_of_row, deterministic=True)
            migrate(self._writer)
            self._check_embedder(embedder_id, dim)
            self._check_terms()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open SQLite database {self.path}: {exc}") from exc

    # -- connections ----------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        con = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30.0)
        # Only takes effect on a new file. With 4 KB pages a 1.5 KB vector row of the
        # WITHOUT ROWID memory_vectors table spills to an overflow page (3x the size).
        con.execute("PRAGMA page_size = 8192")
        con.execute("PRAGMA journal_mode = WAL")
        con.execute("PRAGMA synchronous = NORMAL")
        con.execute("PRAGMA busy_timeout = 30000")
        con.execute("PRAGMA foreign_keys = ON")
        # Overwrite freed pages with zeros, whatever the build's default (SQLITE_SECURE_DELETE): deleted
        # text must not linger in free pages of the file or in page images the WAL copies back.
        con.execute("PRAGMA secure_delete = ON")
        with self._conns_lock:
            self._conns.append(con)
        return con

    def _reader(self) -> sqlite3.Connection:
        if self._closed:
            raise StoreError("the store is closed")
        con = getattr(self._local, "con", None)
        if con is None:
            con = self._local.con = self._connect()
        return con

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        try:
            yield self._reader()
        except sqlite3.Error as exc:
            raise StoreError(f"SQLite read failed: {exc}") from exc

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        if self._closed:
            raise StoreError("the store is closed")
        with self._write_lock:
            con = self._writer
            try:
                con.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise StoreError(f"SQLite could not start a write: {exc}") from exc
            try:
                yield con
                con.execute("COMMIT")
            except BaseException as exc:
                con.execute("ROLLBACK")
                if isinstance(exc, sqlite3.IntegrityError):
                    raise Conflict(f"write rejected: {exc}") from exc
                if isinstance(exc, sqlite3.Error):
                    raise StoreError(f"SQLite write failed: {exc}") from exc
                raise

    def _check_embedder(self, embedder_id: str, dim: int) -> None:
        with self._write() as con:
            rows = dict(con.execute("SELECT key, value FROM meta WHERE key IN ('embedder', 'dim')").fetchall())
            if not rows:
                con.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", [("embedder", embedder_id), ("dim", str(dim))])
            elif rows.get("embedder") != embedder_id or rows.get("dim") != str(dim):
                raise ConfigError(
                    f"{self.path} holds vectors of {rows.get('embedder')} ({rows.get('dim')} dims); "
                    f"it cannot be opened with {embedder_id} ({dim} dims)"
                )

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

    def close(self) -> None:
        self._closed = True
        with self._conns_lock:
            for con in self._conns:
                try:
                    con.close()
                except sqlite3.Error:  # closing a connection another thread still uses
                    pass
            self._conns.clear()

    # -- writes ---------------------------------------------------------------

    def apply(self, scope: Scope, change: Changeset) -> None:
        t, u = scope.tenant_id, scope.user_id
        self.check_change(scope, change, self.dim)
        if not change:
            return
        with self._write() as con:
            if change.active_gen is not None:
                # BEGIN IMMEDIATE holds the file's write lock, in every process, from this check to the commit
                row = con.execute("SELECT active FROM scope_gen WHERE tenant_id = ? AND user_id = ?", (t, u)).fetchone()
                if (row[0] if row else 0) != change.active_gen:
                    raise Conflict("the scope's active memories changed since the decision was planned")
            for m in change.inserts:
                self._insert(con, m)
            for tr in change.transitions:
                marks = ",".join("?" * len(tr.from_))
                cur = con.execute(
                    f"UPDATE memories SET status = ? WHERE tenant_id = ? AND user_id = ? AND id = ? AND status IN ({marks})",
                    (tr.to.value, t, u, tr.memory_id, *[s.value for s in tr.from_]),
                )
                if cur.rowcount != 1:
                    raise Conflict(f"memory {tr.memory_id} is not in state {'/'.join(s.value for s in tr.from_)} in this scope")
                con.execute(
                    "UPDATE memory_vectors SET status = ? WHERE tenant_id = ? AND user_id = ? AND id = ?",
                    (tr.to.value, t, u, tr.memory_id),
                )
            if change.deletes:
                _mark_residue(con)
            for mid in change.deletes:
                cur = con.execute(
                    "UPDATE memories SET text = '', metadata = '{}', status = 'deleted' "
                    "WHERE tenant_id = ? AND user_id = ? AND id = ?",
                    (t, u, mid),
                )
                if cur.rowcount != 1:
                    raise Conflict(f"memory {mid} does not exist in this scope")
                con.execute("DELETE FROM memory_vectors WHERE tenant_id = ? AND user_id = ? AND id = ?", (t, u, mid))
                con.execute(
                    "DELETE FROM memory_fts WHERE rowid = (SELECT rowid FROM memories WHERE tenant_id = ? AND user_id = ? AND id = ?)",
                    (t, u, mid),
                )
            con.executemany(
                "INSERT INTO audit (id, tenant_id, user_id, at, op, memory_ids, source, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [(a.id, t, u, to_us(a.at), a.op.value, json.dumps(list(a.memory_ids)), a.source, a.reason) for a in change.audit],
            )
            self._bump(con, scope, active=change.changes_active)

    def _insert(self, con: sqlite3.Connection, m: Memory) -> None:
        cur = con.execute(
            "INSERT INTO memories (id, tenant_id, user_id, kind, text, source, source_refs, created_at, last_used_at, "
            "importance, confidence, supersedes, expires_at, sensitivity, status, session_id, metadata) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                m.id, m.tenant_id, m.user_id, m.kind.value, m.text, m.source.value, json.dumps(list(m.source_refs)),
                to_us(m.created_at), to_us(m.last_used_at), m.importance, m.confidence, json.dumps(list(m.supersedes)),
                to_us(m.expires_at), m.sensitivity.value, m.status.value, m.session_id, json.dumps(dict(m.metadata)),
            ),
        )
        if m.status is Status.DELETED:
            return
        if m.embedding is not None:
            con.execute(
                "INSERT INTO memory_vectors (tenant_id, user_id, id, status, expires_at, embedding, attrs, last_used_at, terms) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    m.tenant_id, m.user_id, m.id, m.status.value, to_us(m.expires_at), m.embedding.astype(np.float32).tobytes(),
                    pack_attrs(m.kind, m.importance, m.confidence, to_us(m.created_at)), to_us(m.last_used_at),
                    encode_terms(m.text, context_of(m.metadata)),
                ),
            )
        con.execute(
            "INSERT INTO memory_fts (rowid, text, scope, id, tenant_id, user_id) VALUES (?, ?, ?, ?, ?, ?)",
            (cur.lastrowid, m.text, scope_token(m.scope), m.id, m.tenant_id, m.user_id),
        )
        refs = [(r, "source") for r in m.source_refs] + [(r, "supersedes") for r in m.supersedes]
        con.executemany(
            "INSERT OR IGNORE INTO memory_refs (tenant_id, user_id, ref_id, memory_id, rel) VALUES (?, ?, ?, ?, ?)",
            [(m.tenant_id, m.user_id, r, m.id, rel) for r, rel in refs],
        )

    def _bump(self, con: sqlite3.Connection, scope: Scope, *, active: bool) -> None:
        con.execute(
            "INSERT INTO scope_gen (tenant_id, user_id, gen, active) VALUES (?, ?, 1, ?) "
            "ON CONFLICT (tenant_id, user_id) DO UPDATE SET gen = gen + 1, active = active + excluded.active",
            (scope.tenant_id, scope.user_id, int(active)),
        )
        self._cache.discard(scope)

    def active_generation(self, scope: Scope) -> int:
        with self._read() as con:
            row = con.execute(
                "SELECT active FROM scope_gen WHERE tenant_id = ? AND user_id = ?", (scope.tenant_id, scope.user_id)
            ).fetchone()
        return row[0] if row else 0

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

    def delete_scope(self, scope: Scope) -> int:
        t, u = scope.tenant_id, scope.user_id
        with self._write() as con:
            _mark_residue(con)
            con.execute(
                "DELETE FROM memory_fts WHERE rowid IN (SELECT rowid FROM memories WHERE tenant_id = ? AND user_id = ?)", (t, u)
            )
            n = con.execute("DELETE FROM memories WHERE tenant_id = ? AND user_id = ?", (t, u)).rowcount
            for table in ("memory_vectors", "memory_refs", "audit"):
                con.execute(f"DELETE FROM {table} WHERE tenant_id = ? AND user_id = ?", (t, u))
            self._bump(con, scope, active=True)
        return n

    # -- reads ----------------------------------------------------------------

    def get(self, scope: Scope, memory_id: str) -> Memory | None:
        found = self.get_many(scope, [memory_id])
        return found[0] if found else None

    def get_many(self, scope: Scope, ids: Sequence[str]) -> list[Memory]:
        return self._fetch(scope, ids)

    def _fetch(self, scope: Scope, ids: Sequence[str], vectors: Mapping[str, np.ndarray] | None = None) -> list[Memory]:
        """``get_many``; with ``vectors`` (id -> embedding, e.g. from a current partition) the BLOBs are not read."""
        ids = list(dict.fromkeys(ids))
        if not ids:
            return []
        out: list[Memory] = []
        cols, join = (_MEM_COLS_NO_VEC, "FROM memories m") if vectors is not None else (_MEM_COLS, _FROM)
        with self._read() as con:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ",".join("?" * len(chunk))
                # The unary + keeps the planner on the id index; through the scope index
                # it would visit every record of the user to pick out a few.
                rows = con.execute(
                    f"SELECT {cols} {join} WHERE +m.tenant_id = ? AND +m.user_id = ? AND m.id IN ({marks})",
                    (scope.tenant_id, scope.user_id, *chunk),
                ).fetchall()
                out.extend(_row(r) if vectors is None else _row(r, vectors.get(r[0])) for r in rows)
        return out

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

    def list(
        self,
        scope: Scope,
        *,
        statuses: Sequence[Status] = RETRIEVABLE,
        kinds: Sequence[Kind] | None = None,
        limit: int | None = None,
        offset: int = 0,
        where: Filter | None = None,
    ) -> list[Memory]:
        sql = f"SELECT {_MEM_COLS} {_FROM} WHERE m.tenant_id = ? AND m.user_id = ? AND m.status IN ({','.join('?' * len(statuses))})"
        args: list[object] = [scope.tenant_id, scope.user_id, *[s.value for s in statuses]]
        if kinds:
            sql += f" AND m.kind IN ({','.join('?' * len(kinds))})"
            args.extend(k.value for k in kinds)
        extra, extra_args = filters.predicate(where)
        sql += extra
        args.extend(extra_args)
        sql += " ORDER BY m.created_at DESC, m.id DESC LIMIT ? OFFSET ?"
        args.extend([-1 if limit is None else int(limit), int(offset)])
        with self._read() as con:
            return [_row(r) for r in con.execute(sql, args).fetchall()]

    def count(self, scope: Scope, *, statuses: Sequence[Status] = RETRIEVABLE) -> int:
        marks = ",".join("?" * len(statuses))
        with self._read() as con:
            return con.execute(
                f"SELECT count(*) FROM memories WHERE tenant_id = ? AND user_id = ? AND status IN ({marks})",
                (scope.tenant_id, scope.user_id, *[s.value for s in statuses]),
            ).fetchone()[0]

    def citing(self, scope: Scope, memory_id: str) -> list[Memory]:
        with self._read() as con:
            ids = [
                r[0]
                for r in con.execute(
                    "SELECT DISTINCT memory_id FROM memory_refs WHERE tenant_id = ? AND user_id = ? AND ref_id = ?",
                    (scope.tenant_id, scope.user_id, memory_id),
                )
            ]
        return self.get_many(scope, ids)

    def export(self, scope: Scope) -> list[Memory]:
        with self._read() as con:
            rows = con.execute(
                f"SELECT {_MEM_COLS} {_FROM} WHERE m.tenant_id = ? AND m.user_id = ? ORDER BY m.created_at, m.id",
                (scope.tenant_id, scope.user_id),
            ).fetchall()
        return [_row(r) for r in rows]

    def audit(self, scope: Scope, memory_id: str | None = None) -> list[AuditEntry]:
        with self._read() as con:
            rows = con.execute(
                "SELECT id, tenant_id, user_id, at, op, memory_ids, source, reason FROM audit "
                "WHERE tenant_id = ? AND user_id = ? ORDER BY seq",
                (scope.tenant_id, scope.user_id),
            ).fetchall()
        entries = [AuditEntry(r[0], r[1], r[2], from_us(r[3]), r[4], tuple(json.loads(r[5])), r[6], r[7]) for r in rows]
        return [a for a in entries if memory_id is None or memory_id in a.memory_ids]

    def scopes(self) -> list[Scope]:
        with self._read() as con:
            rows = con.execute("SELECT DISTINCT tenant_id, user_id FROM memories ORDER BY tenant_id, user_id").fetchall()
        return [Scope(t, u) for t, u in rows]


def _terms_of_row(text: str | None, metadata: str | None) -> str | None:
    """``encode_terms`` of a stored row (``metadata`` as JSON): the SQL function ``kenning_terms``."""
    if text is None:
        return None
    try:
        meta = json.loads(metadata) if metadata else {}
    except ValueError:
        meta = {}
    return encode_terms(text, context_of(meta))


def _attrs_of_row(kind: str, importance: float, confidence: float, created_us: int) -> bytes:
    """``pack_attrs`` of a stored row: the SQL function ``kenning_attrs``."""
    return pack_attrs(Kind(kind), importance, confidence, created_us)
