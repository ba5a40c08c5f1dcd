"""Named, append-only migrations of the PostgreSQL engine. Never edit one that has shipped; add another.

Every table that holds user data leads its keys and indexes with
``tenant_id``: that is what lets a deployment partition or distribute the
tables by tenant (declarative partitioning, Citus) without rewriting a query.
"""

from __future__ import annotations

import psycopg

# One advisory-lock key for the whole migration run, so processes that open a
# fresh database at the same moment migrate it once, one after the other.
_LOCK_KEY = 0x6B656E6E696E67  # "kenning"

M001_INITIAL = """
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE kenning_memories (
    -- Bytewise ("C") collation: orderings match the SQLite engine and btree compares stay cheap.
    tenant_id text COLLATE "C" NOT NULL,
    user_id text COLLATE "C" NOT NULL,
    id text COLLATE "C" NOT NULL,
    kind text NOT NULL,
    text text NOT NULL,
    source text NOT NULL,
    source_refs text[] NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL,
    last_used_at timestamptz NOT NULL,
    importance double precision NOT NULL,
    confidence double precision NOT NULL,
    supersedes text[] NOT NULL DEFAULT '{}',
    expires_at timestamptz,
    sensitivity text NOT NULL,
    status text NOT NULL,
    session_id text,
    metadata jsonb NOT NULL DEFAULT '{}',
    -- Dimension checked by the engine against kenning_meta: one model per database.
    embedding vector,
    -- Tombstones never reach the keyword index.
    tsv tsvector GENERATED ALWAYS AS (
        CASE WHEN status = 'deleted' THEN ''::tsvector ELSE to_tsvector('english'::regconfig, text) END
    ) STORED,
    PRIMARY KEY (tenant_id, user_id, id)
);
-- Keep rows up to a page inline: a vector moved out to TOAST costs a second
-- lookup for every distance computed (the default target is about 2 kB, which
-- a 384-dim vector plus a long text and its tsvector exceeds).
ALTER TABLE kenning_memories SET (toast_tuple_target = 8160);
-- Ids are unique across scopes, as in the SQLite engine (a duplicate is a Conflict).
CREATE UNIQUE INDEX kenning_memories_id ON kenning_memories (id);
-- The per-scope search pre-filter and the newest-first listing.
CREATE INDEX kenning_memories_scope ON kenning_memories (tenant_id, user_id, status, created_at);
-- No global GIN (tsvector) or vector index, on purpose: every search is
-- within one scope, which the btrees above narrow to a few thousand rows at
-- most (the per-user capacity budget), and a global index only tempts the
-- planner into walking every tenant's entries (measured: 20x slower).

CREATE TABLE kenning_audit (
    seq bigint GENERATED ALWAYS AS IDENTITY,
    id text COLLATE "C" NOT NULL UNIQUE,
    tenant_id text COLLATE "C" NOT NULL,
    user_id text COLLATE "C" NOT NULL,
    at timestamptz NOT NULL,
    op text NOT NULL,
    memory_ids text[] NOT NULL,
    source text NOT NULL DEFAULT '',
    reason text NOT NULL DEFAULT '',
    PRIMARY KEY (tenant_id, user_id, seq)
);

CREATE FUNCTION kenning_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only';
END
$$;
CREATE TRIGGER kenning_audit_append_only BEFORE UPDATE ON kenning_audit
    FOR EACH ROW EXECUTE FUNCTION kenning_audit_append_only();

CREATE TABLE kenning_leases (name text PRIMARY KEY, holder text NOT NULL, until timestamptz NOT NULL);
CREATE TABLE kenning_meta (key text PRIMARY KEY, value text NOT NULL);
"""

M002_API_KEYS = """
CREATE TABLE kenning_api_keys (
    tenant_id text COLLATE "C" NOT NULL,
    id text COLLATE "C" NOT NULL UNIQUE,
    name text NOT NULL DEFAULT '',
    key_hash text COLLATE "C" NOT NULL UNIQUE,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz,
    PRIMARY KEY (tenant_id, id)
);
CREATE INDEX kenning_api_keys_tenant ON kenning_api_keys (tenant_id, created_at);
CREATE TABLE kenning_secrets (name text PRIMARY KEY, value text NOT NULL);
"""

# Search keeps each scope's records in process memory (``stores.partition``), as the
# SQLite engine does: a per-scope generation (bumped by every write) invalidates it,
# ``touched`` counts last_used_at refreshes apart, and each record's keyword terms
# are stored with it (NULL for rows written before: computed when loaded).
M003_SEARCH_PARTITION = """
ALTER TABLE kenning_memories ADD COLUMN terms text;
CREATE TABLE kenning_scope_gen (
    tenant_id text COLLATE "C" NOT NULL,
    user_id text COLLATE "C" NOT NULL,
    gen bigint NOT NULL DEFAULT 1,
    touched bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant_id, user_id)
);
INSERT INTO kenning_scope_gen (tenant_id, user_id) SELECT DISTINCT tenant_id, user_id FROM kenning_memories;
"""

# Per-scope state for the background work and for serialised decisions, as in the
# SQLite engine: ``active`` moves whenever a memory enters or leaves the active set,
# ``done`` is the write generation whose work a worker pass last finished, ``due_at``
# when time alone next makes work (NULL: never). Existing scopes start written.
M004_SCOPE_WORK = """
ALTER TABLE kenning_scope_gen ADD COLUMN active bigint NOT NULL DEFAULT 0;
ALTER TABLE kenning_scope_gen ADD COLUMN done bigint NOT NULL DEFAULT 0;
ALTER TABLE kenning_scope_gen ADD COLUMN due_at timestamptz;
CREATE INDEX kenning_scope_gen_due ON kenning_scope_gen (due_at) WHERE due_at IS NOT NULL;
"""

# A search's refresh of ``last_used_at`` (``touch``) is written here, not into the memory's
# row: rewriting a row that holds a 1.5 kB vector cost the server 37 WAL records (12 kB) per
# refresh of ten hits. A memory's last use is the later of its row's ``last_used_at`` (as
# inserted, or refreshed by a process older than this migration) and its row here, if any;
# rows are created by the first refresh, so nothing is copied. ``fillfactor`` leaves room on
# each page, so a refresh rewrites its row in place (a HOT update: no index entry).
M005_LAST_USED = """
CREATE TABLE kenning_last_used (
    tenant_id text COLLATE "C" NOT NULL,
    user_id text COLLATE "C" NOT NULL,
    id text COLLATE "C" NOT NULL,
    at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, user_id, id)
) WITH (fillfactor = 70);
"""

# A search's refresh appends one row here (the scope, the time, the ids) instead of updating a
# row of ``kenning_last_used`` per hit; background passes fold the rows into that table. Reads
# take the latest of the memory's row, its narrow row and its scope's log rows (``last_used``).
M006_LAST_USED_LOG = """
CREATE TABLE kenning_last_used_log (
    tenant_id text COLLATE "C" NOT NULL,
    user_id text COLLATE "C" NOT NULL,
    at timestamptz NOT NULL,
    ids text[] COLLATE "C" NOT NULL
);
CREATE INDEX kenning_last_used_log_scope ON kenning_last_used_log (tenant_id, user_id);
"""

MIGRATIONS: list[tuple[str, str]] = [
    ("m001_initial", M001_INITIAL),
    ("m002_api_keys", M002_API_KEYS),
    ("m003_search_partition", M003_SEARCH_PARTITION),
    ("m004_scope_work", M004_SCOPE_WORK),
    ("m005_last_used", M005_LAST_USED),
    ("m006_last_used_log", M006_LAST_USED_LOG),
]


def migrate(conn: psycopg.Connection) -> list[str]:
    """Apply the migrations not yet applied, in one transaction; return their names.

    ``conn`` must be in autocommit mode; the transaction is opened here.
    """
    applied: list[str] = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS kenning_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        done = {r[0] for r in conn.execute("SELECT name FROM kenning_migrations")}
        for name, sql in MIGRATIONS:
            if name in done:
                continue
            conn.execute(sql)  # no parameters: psycopg sends the script as one simple query
            conn.execute("INSERT INTO kenning_migrations (name) VALUES (%s)", (name,))
            applied.append(name)
    return applied
