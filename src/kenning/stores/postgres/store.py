"""The PostgreSQL engine: memories, audit and leases in one database, vectors in pgvector.

- psycopg 3 with a connection pool; reads run in autocommit, every write in
  one explicit transaction, so ``apply`` is all-or-nothing.
- The scope (tenant, user) is a parameter of every statement that touches
  memories or audit lines, and leads every key and index.
- Search (``search.py``) runs in process over a cached ``Partition`` of the
  scope, as on SQLite, and ranks as every engine does (``Partition.nearest``,
  ``stores.keywords``), so both engines return the same records in the same
  order with the same scores; it costs one round trip. No vector index: an
  approximate HNSW index with a tenant filter walks the global graph and
  filters afterwards, losing most of a small scope's true neighbours (see
  docs/scaling.md). The ``tsv`` column (English full text) is still
  generated but no search reads it.
- Leases are rows taken with ``INSERT … ON CONFLICT … DO UPDATE … WHERE``,
  which locks the row, so two processes can never both win.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta

import psycopg
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

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
from kenning.stores.partition import TERMS_VERSION, PartitionCache, context_of, encode_terms
from kenning.stores.postgres.schedule import ScheduleMixin
from kenning.stores.postgres.filters import predicate
from kenning.stores.postgres.adapt import Vector, register_vector, translated
from kenning.stores.postgres.migrations import migrate
from kenning.stores.postgres.last_used import LAST_USED, MEMORIES, fold_scope, logged_scopes
from kenning.stores.postgres.search import SCOPE as _SCOPE, SearchMixin
from kenning.types import ApiKey, AuditEntry, Changeset, Filter, Kind, Memory, Scope, Status

# Read from ``MEMORIES`` (the rows joined with their last use).
_COLS = (
    f"m.id, m.tenant_id, m.user_id, m.kind, m.text, m.source, m.source_refs, m.created_at, {LAST_USED}, "
    "m.importance, m.confidence, m.supersedes, m.expires_at, m.sensitivity, m.status, m.session_id, m.metadata, m.embedding"
)
_INSERT = (
    "INSERT INTO kenning_memories (tenant_id, user_id, id, kind, text, source, source_refs, created_at, last_used_at, "
    "importance, confidence, supersedes, expires_at, sensitivity, status, session_id, metadata, embedding, terms) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s::text[], %s, %s, %s, %s, %s::text[], %s, %s, %s, %s, %s, %s, %s)"
)
_BUMP = (
    "INSERT INTO kenning_scope_gen (tenant_id, user_id, active) VALUES (%s, %s, %s) "
    "ON CONFLICT (tenant_id, user_id) DO UPDATE SET gen = kenning_scope_gen.gen + 1, active = kenning_scope_gen.active + excluded.active"
)
# The per-scope lock of writes that move the active set: a transaction-scoped advisory lock, keyed
# by a namespace and the scope's hash (the two-key form, apart from the migration's one-key lock).
_LOCK = "SELECT pg_advisory_xact_lock(1801807214, hashtext(%s || chr(31) || %s))"
_AUDIT_COLS = "id, tenant_id, user_id, at, op, memory_ids, source, reason"


class PostgresStore(SearchMixin, ScheduleMixin, StoreBase, KeyStore, LeaseStore, ResidueStore, PartitionStore, ActiveSetStore, ScheduleStore):
    """A ``Store`` in a PostgreSQL database with the pgvector extension. Safe across threads and processes."""

    def __init__(
        self,
        url: str,
        *,
        dim: int,
        embedder_id: str,
        min_connections: int = 1,
        max_connections: int = 10,
        timeout_s: float = 30.0,
        cache_bytes: int | None = None,
    ) -> None:
        self.url = url
        self.dim = dim
        self._closed = False
        self._cache = PartitionCache(cache_bytes)
        self._local = threading.local()
        self._prepared: weakref.WeakKeyDictionary[psycopg.Connection, set[str]] = weakref.WeakKeyDictionary()
        kwargs = {"autocommit": True, "options": "-c timezone=UTC"}
        try:
            with psycopg.connect(url, **kwargs) as conn:
                migrate(conn)
                self._check_embedder(conn, embedder_id, dim)
                self._check_terms(conn)
                info = psycopg.types.TypeInfo.fetch(conn, "vector")
        except psycopg.errors.InsufficientPrivilege as exc:
            raise ConfigError(
                f"cannot set up the Kenning schema (is pgvector installed, may this role CREATE EXTENSION vector?): {exc}"
            ) from exc
        except psycopg.Error as exc:
            raise StoreError(f"cannot open PostgreSQL database {_redact(url)}: {exc}") from exc
        if info is None:  # pragma: no cover - the first migration creates it
            raise ConfigError("the pgvector extension is missing")
        oid = info.oid

        def configure(conn: psycopg.Connection) -> None:
            register_vector(conn, oid)

        self._pool = ConnectionPool(
            url,
            min_size=min_connections,
            max_size=max_connections,
            kwargs=kwargs,
            configure=configure,
            timeout=timeout_s,
            open=False,
            name="kenning",
        )
        try:
            self._pool.open(wait=True, timeout=timeout_s)
        except psycopg.Error as exc:
            self._pool.close()
            raise StoreError(f"cannot open a connection pool to {_redact(url)}: {exc}") from exc

    def _check_embedder(self, conn: psycopg.Connection, embedder_id: str, dim: int) -> None:
        with conn.transaction():
            conn.execute(
                "INSERT INTO kenning_meta (key, value) VALUES ('embedder', %s), ('dim', %s) ON CONFLICT (key) DO NOTHING",
                (embedder_id, str(dim)),
            )
            rows = dict(conn.execute("SELECT key, value FROM kenning_meta WHERE key IN ('embedder', 'dim')").fetchall())
        if rows.get("embedder") != embedder_id or rows.get("dim") != str(dim):
            raise ConfigError(
                f"{_redact(self.url)} holds vectors of {rows.get('embedder')} ({rows.get('dim')} dims); "
                f"it cannot be opened with {embedder_id} ({dim} dims)"
            )

    def _check_terms(self, conn: psycopg.Connection) -> None:
        """Recompute the stored keyword terms written under another ``TERMS_VERSION`` (once, as SQLite's ``_check_terms``)."""
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(hashtext('kenning_terms_version'))")
            row = conn.execute("SELECT value FROM kenning_meta WHERE key = 'terms_version'").fetchone()
            if row is not None and row[0] == TERMS_VERSION:
                return
            last, changed = "", 0
            while rows := conn.execute(
                "SELECT id, text, metadata->>'context' FROM kenning_memories WHERE terms IS NOT NULL AND id > %s "
                "ORDER BY id LIMIT 5000",
                (last,),
            ).fetchall():
                with conn.cursor() as cur:
                    cur.executemany(
                        "UPDATE kenning_memories SET terms = %s WHERE id = %s", [(encode_terms(t, c), i) for i, t, c in rows]
                    )
                last, changed = rows[-1][0], changed + len(rows)
            conn.execute(
                "INSERT INTO kenning_meta (key, value) VALUES ('terms_version', %s) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (TERMS_VERSION,),
            )
            if changed:
                conn.execute("UPDATE kenning_scope_gen SET gen = gen + 1")

    @contextmanager
    def _conn(self, what: str) -> Iterator[psycopg.Connection]:
        if self._closed:
            raise StoreError("the store is closed")
        held = getattr(self._local, "held", None)
        if held is not None:  # inside ``ranked``: this thread's connection, once its pending reply is read
            with translated(what):
                try:
                    held.rows()
                except psycopg.Error:
                    pass  # ``ranked`` raises it when it reads the reply
                yield held.conn
            return
        # getconn/putconn rather than pool.connection(): the connection's own context (a commit, a
        # no-op in autocommit) and the pool's usage clock cost a search several microseconds, and
        # putconn already brings back a connection left in a transaction (rolled back) or mid-query (closed).
        with translated(what):
            conn = self._pool.getconn()
            try:
                yield conn
            finally:
                self._pool.putconn(conn)

    @contextmanager
    def _tx(self, what: str) -> Iterator[psycopg.Connection]:
        with self._conn(what) as conn, conn.transaction():
            yield conn

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._pool.close()

    # -- writes ---------------------------------------------------------------

    def apply(self, scope: Scope, change: Changeset) -> None:
        t, u = scope.tenant_id, scope.user_id
        self.check_change(scope, change, self.dim)
        if not change:
            return
        with self._tx("write") as conn, conn.cursor() as cur:
            if change.active_gen is not None or change.changes_active:
                # Every write that moves the active set takes the scope's lock first and holds it to the commit,
                # so a decision's check below and its writes are one step for every other process.
                cur.execute(_LOCK, (t, u))
            if change.active_gen is not None:
                row = cur.execute("SELECT active FROM kenning_scope_gen WHERE tenant_id = %s AND user_id = %s", (t, u)).fetchone()
                if (row[0] if row else 0) != change.active_gen:
                    raise Conflict("the scope's active memories changed since the decision was planned")
            if change.inserts:
                cur.executemany(_INSERT, [_insert_row(m) for m in change.inserts])
            for tr in change.transitions:
                cur.execute(
                    "UPDATE kenning_memories SET status = %s WHERE tenant_id = %s AND user_id = %s AND id = %s "
                    "AND status = ANY(%s::text[])",
                    (tr.to.value, t, u, tr.memory_id, [s.value for s in tr.from_]),
                )
                if cur.rowcount != 1:
                    raise Conflict(f"memory {tr.memory_id} is not in state {'/'.join(s.value for s in tr.from_)} in this scope")
            for mid in change.deletes:
                cur.execute(
                    "UPDATE kenning_memories SET text = '', metadata = '{}', terms = NULL, status = 'deleted', embedding = NULL "
                    "WHERE tenant_id = %s AND user_id = %s AND id = %s",
                    (t, u, mid),
                )
                if cur.rowcount != 1:
                    raise Conflict(f"memory {mid} does not exist in this scope")
            if change.audit:
                cur.executemany(
                    f"INSERT INTO kenning_audit ({_AUDIT_COLS}) VALUES (%s, %s, %s, %s, %s, %s::text[], %s, %s)",
                    [(a.id, t, u, a.at, a.op.value, list(a.memory_ids), a.source, a.reason) for a in change.audit],
                )
            cur.execute(_BUMP, (t, u, int(change.changes_active)))
        self._cache.discard(scope)

    def active_generation(self, scope: Scope) -> int:
        rows = self._rows(
            "read", "SELECT active FROM kenning_scope_gen WHERE tenant_id = %s AND user_id = %s", (scope.tenant_id, scope.user_id)
        )
        return rows[0][0] if rows else 0

    def delete_scope(self, scope: Scope) -> int:
        args = (scope.tenant_id, scope.user_id)
        with self._tx("delete scope") as conn:
            conn.execute(_LOCK, args)  # no fold of the refresh log writes narrow rows for the scope meanwhile
            n = conn.execute("DELETE FROM kenning_memories WHERE tenant_id = %s AND user_id = %s", args).rowcount
            conn.execute("DELETE FROM kenning_audit WHERE tenant_id = %s AND user_id = %s", args)
            conn.execute("DELETE FROM kenning_last_used WHERE tenant_id = %s AND user_id = %s", args)
            conn.execute(_BUMP, (*args, 1))
            # After the bump, which waits for a refresh holding the scope's row: its log row is committed
            # and removed here, and a later one sees the generation move and writes none.
            conn.execute("DELETE FROM kenning_last_used_log WHERE tenant_id = %s AND user_id = %s", args)
        self._cache.discard(scope)
        return n

    # -- reads ----------------------------------------------------------------

    def _rows(self, what: str, sql: str, params: dict | tuple) -> list[tuple]:
        with self._conn(what) as conn, conn.cursor(binary=True) as cur:
            return cur.execute(sql, params).fetchall()

    def get(self, scope: Scope, memory_id: str) -> Memory | None:
        found = self.get_many(scope, [memory_id])
        return found[0] if found else None

    def get_many(self, scope: Scope, ids: Sequence[str]) -> list[Memory]:
        ids = list(dict.fromkeys(ids))
        if not ids:
            return []
        rows = self._rows(
            "read",
            f"SELECT {_COLS} FROM {MEMORIES} WHERE {_SCOPE} AND m.id = ANY(%(ids)s::text[])",
            {"t": scope.tenant_id, "u": scope.user_id, "ids": ids},
        )
        return [_memory(r) for r in rows]

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
        if not statuses:
            return []
        sql = f"SELECT {_COLS} FROM {MEMORIES} WHERE {_SCOPE} AND m.status = ANY(%(st)s::text[])"
        params: dict = {"t": scope.tenant_id, "u": scope.user_id, "st": [s.value for s in statuses]}
        if kinds:
            sql += " AND m.kind = ANY(%(kinds)s::text[])"
            params["kinds"] = [k.value for k in kinds]
        extra, extra_args = predicate(where)
        sql += extra
        params.update(extra_args)
        sql += " ORDER BY m.created_at DESC, m.id DESC LIMIT %(limit)s OFFSET %(offset)s"
        params.update(limit=None if limit is None else max(int(limit), 0), offset=max(int(offset), 0))
        return [_memory(r) for r in self._rows("list", sql, params)]

    def count(self, scope: Scope, *, statuses: Sequence[Status] = RETRIEVABLE) -> int:
        if not statuses:
            return 0
        rows = self._rows(
            "count",
            f"SELECT count(*) FROM kenning_memories m WHERE {_SCOPE} AND m.status = ANY(%(st)s::text[])",
            {"t": scope.tenant_id, "u": scope.user_id, "st": [s.value for s in statuses]},
        )
        return int(rows[0][0])

    def citing(self, scope: Scope, memory_id: str) -> list[Memory]:
        rows = self._rows(
            "read",
            f"SELECT {_COLS} FROM {MEMORIES} WHERE {_SCOPE} "
            "AND (%(ref)s = ANY(m.source_refs) OR %(ref)s = ANY(m.supersedes))",
            {"t": scope.tenant_id, "u": scope.user_id, "ref": memory_id},
        )
        return [_memory(r) for r in rows]

    def export(self, scope: Scope) -> list[Memory]:
        rows = self._rows(
            "export",
            f"SELECT {_COLS} FROM {MEMORIES} WHERE {_SCOPE} ORDER BY m.created_at, m.id",
            {"t": scope.tenant_id, "u": scope.user_id},
        )
        return [_memory(r) for r in rows]

    def audit(self, scope: Scope, memory_id: str | None = None) -> list[AuditEntry]:
        sql = f"SELECT {_AUDIT_COLS} FROM kenning_audit m WHERE {_SCOPE}"
        params = {"t": scope.tenant_id, "u": scope.user_id, "mid": memory_id}
        if memory_id is not None:
            sql += " AND %(mid)s = ANY(m.memory_ids)"
        rows = self._rows("audit read", sql + " ORDER BY m.seq", params)
        return [AuditEntry(r[0], r[1], r[2], r[3], r[4], tuple(r[5]), r[6], r[7]) for r in rows]

    def scopes(self) -> list[Scope]:
        # A loose index scan over the primary key: one probe per scope, not a pass over every row.
        rows = self._rows(
            "scopes",
            "WITH RECURSIVE s AS ("
            " (SELECT tenant_id, user_id FROM kenning_memories ORDER BY tenant_id, user_id LIMIT 1)"
            " UNION ALL"
            " SELECT n.tenant_id, n.user_id FROM s, LATERAL (SELECT m.tenant_id, m.user_id FROM kenning_memories m"
            "  WHERE (m.tenant_id, m.user_id) > (s.tenant_id, s.user_id) ORDER BY m.tenant_id, m.user_id LIMIT 1) n"
            ") SELECT tenant_id, user_id FROM s",
            (),
        )
        return [Scope(t, u) for t, u in rows]

    # -- leases ---------------------------------------------------------------

    def acquire_lease(self, name: str, holder: str, now: datetime, ttl_s: float) -> bool:
        with self._tx("lease") as conn:
            cur = conn.execute(
                "INSERT INTO kenning_leases (name, holder, until) VALUES (%s, %s, %s) ON CONFLICT (name) DO UPDATE "
                "SET holder = excluded.holder, until = excluded.until "
                "WHERE kenning_leases.holder = excluded.holder OR kenning_leases.until <= %s",
                (name, holder, now + timedelta(seconds=ttl_s), now),
            )
            return cur.rowcount == 1

    def release_lease(self, name: str, holder: str) -> None:
        with self._tx("lease") as conn:
            conn.execute("DELETE FROM kenning_leases WHERE name = %s AND holder = %s", (name, holder))

    def purge_residue(self) -> None:
        """Fold the refresh log (``fold_refreshes``), then reclaim the dead row versions that still hold deleted text.

        A tombstone is an UPDATE: the old version of the row, text and vector
        included, stays in its heap page until vacuumed. ``VACUUM`` prunes
        those versions now instead of whenever autovacuum comes; with few dead
        rows it skips the index passes, so it costs a visit to the changed
        pages. (WAL segments holding the text are recycled at checkpoints.)
        """
        self.fold_refreshes()
        with self._conn("purge") as conn:
            conn.execute("VACUUM (SKIP_LOCKED) kenning_memories")

    def fold_refreshes(self) -> int:
        """Fold every scope's ``last_used_at`` refresh log into the narrow table (one transaction per scope); how many scopes.

        Run by background passes (``purge_residue``), off the request path. No
        memory's last use changes, so no cached partition is invalidated.
        """
        done = 0
        with self._conn("fold refreshes") as conn:
            for t, u in list(logged_scopes(conn)):
                try:
                    fold_scope(conn, t, u, _LOCK)
                    done += 1
                except psycopg.errors.TransactionRollbackError:
                    continue  # lost a deadlock to a refresh from a process older than m006: the next pass folds it
        return done

    # -- API keys and secrets ---------------------------------------------------

    def put_api_key(self, key: ApiKey) -> None:
        with self._tx("API key write") as conn:
            conn.execute(
                f"INSERT INTO kenning_api_keys ({_KEY_COLS}) VALUES (%s, %s, %s, %s, %s, %s)",
                (key.id, key.tenant_id, key.name, key.key_hash, key.created_at, key.revoked_at),
            )

    def find_api_key(self, key_hash: str) -> ApiKey | None:
        rows = self._rows("API key read", f"SELECT {_KEY_COLS} FROM kenning_api_keys WHERE key_hash = %s", (key_hash,))
        return ApiKey(*rows[0]) if rows else None

    def list_api_keys(self, tenant_id: str) -> list[ApiKey]:
        rows = self._rows(
            "API key read",
            f"SELECT {_KEY_COLS} FROM kenning_api_keys WHERE tenant_id = %s ORDER BY created_at, id",
            (tenant_id,),
        )
        return [ApiKey(*r) for r in rows]

    def revoke_api_key(self, tenant_id: str, key_id: str, now: datetime) -> bool:
        with self._tx("API key write") as conn:
            cur = conn.execute(
                "UPDATE kenning_api_keys SET revoked_at = %s WHERE tenant_id = %s AND id = %s AND revoked_at IS NULL",
                (now, tenant_id, key_id),
            )
            return cur.rowcount == 1

    def secret(self, name: str, candidate: str) -> str:
        with self._tx("secret") as conn:
            conn.execute("INSERT INTO kenning_secrets (name, value) VALUES (%s, %s) ON CONFLICT (name) DO NOTHING", (name, candidate))
            return conn.execute("SELECT value FROM kenning_secrets WHERE name = %s", (name,)).fetchone()[0]


_KEY_COLS = "id, tenant_id, name, key_hash, created_at, revoked_at"


def _insert_row(m: Memory) -> tuple:
    tombstone = m.status is Status.DELETED  # as in SQLite: a tombstone keeps no vector
    return (
        m.tenant_id, m.user_id, m.id, m.kind.value, m.text, m.source.value, list(m.source_refs), m.created_at,
        m.last_used_at, m.importance, m.confidence, list(m.supersedes), m.expires_at, m.sensitivity.value,
        m.status.value, m.session_id, Jsonb(dict(m.metadata)),
        None if tombstone or m.embedding is None else Vector(m.embedding),
        None if tombstone else encode_terms(m.text, context_of(m.metadata)),
    )


def _memory(r: tuple) -> Memory:
    return Memory(
        id=r[0],
        tenant_id=r[1],
        user_id=r[2],
        kind=r[3],
        text=r[4],
        source=r[5],
        source_refs=tuple(r[6]),
        created_at=r[7],
        last_used_at=r[8],
        importance=r[9],
        confidence=r[10],
        supersedes=tuple(r[11]),
        expires_at=r[12],
        sensitivity=r[13],
        status=r[14],
        session_id=r[15],
        metadata=r[16],
        embedding=r[17],
    )


def _redact(url: str) -> str:
    """The URL without its password, for error messages."""
    try:
        from psycopg.conninfo import conninfo_to_dict

        d = conninfo_to_dict(url)
    except psycopg.Error:
        return "the configured database"
    return f"postgresql://{d.get('user', '')}@{d.get('host', '')}:{d.get('port', '')}/{d.get('dbname', '')}"
