"""The embedded engine: everything in one SQLite file.

- WAL mode; reads on per-thread connections, writes through one connection
  under a lock with ``BEGIN IMMEDIATE`` (datasette's pattern).
- The scope is a parameter of every statement that touches memories.
- Search is exact and in memory (``search.py``): a user's vectors are clustered by scope
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
from pathlib import Path

import numpy as np

from kenning.errors import ConfigError, Conflict, StoreError
from kenning.stores.base import (
    RETRIEVABLE,
    ActiveSetStore,
    KeyStore,
    LeaseStore,
    PartitionStore,
    ResidueStore,
    ScheduleStore,
    StoreBase,
)
from kenning.stores.sqlite.migrations import migrate
from kenning.types import AuditEntry, Changeset, Filter, Kind, Memory, Scope, Status

from kenning.stores.sqlite import filters
from kenning.stores.sqlite.admin import AdminMixin, _mark_residue
from kenning.stores.sqlite.schedule import ScheduleMixin
from kenning.stores.sqlite.search import SearchMixin, attrs_of_row, terms_of_row
from kenning.stores.partition import PartitionCache, context_of, encode_terms, pack_attrs
from kenning.stores.sqlite.rows import (
    _FROM,
    _MEM_COLS,
    _MEM_COLS_NO_VEC,
    _row,
    from_us,
    scope_token,
    to_us,
)


class SQLiteStore(AdminMixin, ScheduleMixin, SearchMixin, StoreBase, KeyStore, LeaseStore, ResidueStore, PartitionStore, ActiveSetStore, ScheduleStore):
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
            self._writer.create_function("kenning_terms", 2, terms_of_row, deterministic=True)
            self._writer.create_function("kenning_attrs", 4, attrs_of_row, deterministic=True)
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
