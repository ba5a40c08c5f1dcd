"""Named, append-only migrations of the SQLite engine. Never edit one that has shipped; add another."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone

M001_INITIAL = """
CREATE TABLE memories (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    source TEXT NOT NULL,
    source_refs TEXT NOT NULL DEFAULT '[]',
    created_at INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL,
    importance REAL NOT NULL,
    confidence REAL NOT NULL,
    supersedes TEXT NOT NULL DEFAULT '[]',
    expires_at INTEGER,
    sensitivity TEXT NOT NULL,
    status TEXT NOT NULL,
    session_id TEXT,
    metadata TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX memories_scope ON memories (tenant_id, user_id, status, created_at);

-- Vectors clustered by scope, so loading one user's partition is one range scan.
CREATE TABLE memory_vectors (
    tenant_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    id TEXT NOT NULL,
    status TEXT NOT NULL,
    expires_at INTEGER,
    embedding BLOB NOT NULL,
    PRIMARY KEY (tenant_id, user_id, id)
) WITHOUT ROWID;

-- Edges from a memory to the ids it cites (source_refs) or replaces (supersedes).
CREATE TABLE memory_refs (
    tenant_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    ref_id TEXT NOT NULL,
    memory_id TEXT NOT NULL,
    rel TEXT NOT NULL,
    PRIMARY KEY (tenant_id, user_id, ref_id, memory_id, rel)
) WITHOUT ROWID;

CREATE VIRTUAL TABLE memory_fts USING fts5(
    text, id UNINDEXED, tenant_id UNINDEXED, user_id UNINDEXED,
    tokenize = 'porter unicode61'
);

CREATE TABLE audit (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    tenant_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    at INTEGER NOT NULL,
    op TEXT NOT NULL,
    memory_ids TEXT NOT NULL,
    source TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_scope ON audit (tenant_id, user_id, seq);
CREATE TRIGGER audit_append_only BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;

-- Bumped by every write to a scope: readers use it to invalidate cached partitions.
CREATE TABLE scope_gen (
    tenant_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    gen INTEGER NOT NULL,
    PRIMARY KEY (tenant_id, user_id)
) WITHOUT ROWID;

CREATE TABLE leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, until INTEGER NOT NULL);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

# Tenant API keys (only the sha256 of the secret) and per-database secrets (page-link signing).
M002_API_KEYS = """
CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    key_hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
);
CREATE INDEX api_keys_tenant ON api_keys (tenant_id, created_at);
CREATE TABLE secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

# The keyword index gains a ``scope`` column holding one token per (tenant, user)
# ('k' + hex(tenant) + 'x' + hex(user), as ``store.scope_token`` builds it), so a
# query ANDs it in and FTS5 walks only that scope's postings instead of every
# tenant's (at 1M rows a common word matched most of the table).
M003_FTS_SCOPE = """
CREATE VIRTUAL TABLE memory_fts_v2 USING fts5(
    text, scope, id UNINDEXED, tenant_id UNINDEXED, user_id UNINDEXED,
    tokenize = 'porter unicode61'
);
INSERT INTO memory_fts_v2 (rowid, text, scope, id, tenant_id, user_id)
SELECT rowid, text, 'k' || lower(hex(tenant_id)) || 'x' || lower(hex(user_id)), id, tenant_id, user_id FROM memory_fts;
DROP TABLE memory_fts;
ALTER TABLE memory_fts_v2 RENAME TO memory_fts;
"""

# Search keeps each scope's records in memory (``stores.partition``), loaded in one
# range scan of the scope-clustered ``memory_vectors``: each row also carries what
# scoring needs, its keyword terms, its packed immutable attributes (kind,
# importance, confidence, created_at) and its ``last_used_at`` (kept in step by
# ``touch``). Existing rows are filled when the store opens
# (``SQLiteStore._check_terms``). ``touched`` counts refreshes apart from ``gen``
# so a refresh does not invalidate a cached partition.
M004_SEARCH_PARTITION = """
ALTER TABLE memory_vectors ADD COLUMN terms TEXT;
ALTER TABLE memory_vectors ADD COLUMN attrs BLOB;
ALTER TABLE memory_vectors ADD COLUMN last_used_at INTEGER;
ALTER TABLE scope_gen ADD COLUMN touched INTEGER NOT NULL DEFAULT 0;
"""

# Per-scope state for the background work and for serialised decisions:
# ``active`` moves whenever a memory enters or leaves the active set (a decision
# planned against the active memories checks it inside its write); ``done`` is the
# write generation whose work a worker pass last finished (``gen <> done``: the
# scope was written since), ``due_at`` when time alone next makes work (the
# earliest expiry or decay), NULL for never. Existing scopes start written
# (``done`` 0), so the first pass after the upgrade looks at each once.
M005_SCOPE_WORK = """
ALTER TABLE scope_gen ADD COLUMN active INTEGER NOT NULL DEFAULT 0;
ALTER TABLE scope_gen ADD COLUMN done INTEGER NOT NULL DEFAULT 0;
ALTER TABLE scope_gen ADD COLUMN due_at INTEGER;
CREATE INDEX scope_gen_due ON scope_gen (due_at) WHERE due_at IS NOT NULL;
"""

MIGRATIONS: list[tuple[str, str]] = [
    ("m001_initial", M001_INITIAL),
    ("m002_api_keys", M002_API_KEYS),
    ("m003_fts_scope", M003_FTS_SCOPE),
    ("m004_search_partition", M004_SEARCH_PARTITION),
    ("m005_scope_work", M005_SCOPE_WORK),
]


def migrate(con: sqlite3.Connection) -> list[str]:
    """Apply the migrations not yet applied, each in its own transaction; return their names."""
    con.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    done = {r[0] for r in con.execute("SELECT name FROM _migrations")}
    applied = []
    for name, sql in MIGRATIONS:
        if name in done:
            continue
        con.execute("BEGIN IMMEDIATE")
        try:
            if con.execute("SELECT 1 FROM _migrations WHERE name = ?", (name,)).fetchone() is None:
                for stmt in _statements(sql):
                    con.execute(stmt)
                con.execute(
                    "INSERT INTO _migrations (name, applied_at) VALUES (?, ?)",
                    (name, datetime.now(timezone.utc).isoformat()),
                )
                applied.append(name)
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
    return applied


def _statements(sql: str) -> list[str]:
    """Split a script into statements (triggers keep their inner semicolons)."""
    out, buf = [], []
    for line in sql.splitlines():
        if line.strip().startswith("--") or not line.strip():
            continue
        buf.append(line)
        joined = "\n".join(buf)
        if sqlite3.complete_statement(joined):
            out.append(joined)
            buf = []
    return out
