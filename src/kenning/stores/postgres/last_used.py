"""Where the PostgreSQL engine keeps ``last_used_at`` refreshes: an append-only log, folded into a narrow table.

A search's refresh is one row INSERTed into ``kenning_last_used_log`` (the
scope, the time, the ids; migration m006), never an update: rewriting ten
rows per search was most of what a refresh cost the server. The background
pass folds the log into ``kenning_last_used`` (one row per memory refreshed;
migration m005), scope by scope, each under the scope's write lock. A
memory's last use is the latest of its row's own ``last_used_at`` (as
inserted, or refreshed by a process older than m005), its narrow row and its
scope's log rows not yet folded; folding moves none of them, so a reader sees
the same value before and after it (one transaction).
"""

from __future__ import annotations

from collections.abc import Iterator

import psycopg

# The memories with their last use, for statements whose parameters include the scope as
# %(t)s and %(u)s: the log is aggregated once for the scope, not per row.
MEMORIES = (
    "kenning_memories m LEFT JOIN kenning_last_used u "
    "ON u.tenant_id = m.tenant_id AND u.user_id = m.user_id AND u.id = m.id "
    "LEFT JOIN (SELECT x.id, max(l.at) AS at FROM kenning_last_used_log l CROSS JOIN LATERAL unnest(l.ids) AS x(id) "
    "WHERE l.tenant_id = %(t)s AND l.user_id = %(u)s GROUP BY x.id) g ON g.id = m.id"
)
LAST_USED = "greatest(m.last_used_at, u.at, g.at)"

# A search's refresh ($3, $4: the scope; $5: now; $6: the ids, all of them in the cached partition
# ranked), written only if that partition is still current ($1, $2: its gen and touched). It bumps
# the scope's refresh count, which locks the scope's row, so refreshes of one scope are numbered in
# order and a write's generation bump (made under the same lock) is seen; the count is bumped
# either way, so it still orders every write of last_used_at. A recency hint: its commit does not
# wait for the WAL flush. Kept this simple so the server plans it once per connection (a generic
# plan): with the filter below in it, the planner judged every execution worth a plan of its own.
TOUCH = (
    "WITH c AS (SELECT set_config('synchronous_commit', 'off', true)), "
    "g AS (UPDATE kenning_scope_gen SET touched = touched + 1 WHERE tenant_id = $3::text AND user_id = $4::text "
    "RETURNING gen, touched, gen = $1::bigint AND touched = $2::bigint + 1 AS ok), "
    "ins AS (INSERT INTO kenning_last_used_log (tenant_id, user_id, at, ids) SELECT $3::text, $4::text, $5::timestamptz, $6::text[] "
    "FROM g, c WHERE g.ok RETURNING 1) "
    "SELECT g.gen, g.touched, g.ok, (SELECT count(*) FROM ins) FROM g"
)

# Any other refresh (``Store.touch``, or ids not all in the partition): only the scope's memories
# among the ids are logged, as read in this statement's snapshot. With $1 >= 0 it is checked as
# above; with a negative $1 it is written unless a write moved the generation between the snapshot
# and the lock (``ok`` false: send it again).
TOUCH_ANY = (
    "WITH c AS (SELECT set_config('synchronous_commit', 'off', true)), "
    "g AS (UPDATE kenning_scope_gen SET touched = touched + 1 WHERE tenant_id = $3::text AND user_id = $4::text "
    "RETURNING gen, touched, CASE WHEN $1::bigint < 0 THEN gen = (SELECT s.gen FROM kenning_scope_gen s "
    "WHERE s.tenant_id = $3::text AND s.user_id = $4::text) ELSE gen = $1::bigint AND touched = $2::bigint + 1 END AS ok), "
    "i AS (SELECT ARRAY(SELECT m.id FROM kenning_memories m "
    "WHERE m.tenant_id = $3::text AND m.user_id = $4::text AND m.id = ANY($6::text[])) AS ids), "
    "ins AS (INSERT INTO kenning_last_used_log (tenant_id, user_id, at, ids) SELECT $3::text, $4::text, $5::timestamptz, i.ids "
    "FROM g, i, c WHERE g.ok AND cardinality(i.ids) > 0 RETURNING 1) "
    "SELECT g.gen, g.touched, g.ok, (SELECT count(*) FROM ins) FROM g"
)

# One scope's log rows folded into the narrow table, for the scope's memories only (a log row
# may name others: ids a caller passed that were never the scope's).
_FOLD = (
    "WITH d AS (DELETE FROM kenning_last_used_log WHERE tenant_id = %(t)s AND user_id = %(u)s RETURNING at, ids), "
    "x AS (SELECT v.id, max(d.at) AS at FROM d CROSS JOIN LATERAL unnest(d.ids) AS v(id) GROUP BY v.id) "
    "INSERT INTO kenning_last_used (tenant_id, user_id, id, at) "
    "SELECT m.tenant_id, m.user_id, m.id, x.at FROM x JOIN kenning_memories m "
    "ON m.tenant_id = %(t)s AND m.user_id = %(u)s AND m.id = x.id ORDER BY m.id "
    "ON CONFLICT (tenant_id, user_id, id) DO UPDATE SET at = greatest(kenning_last_used.at, excluded.at)"
)


def logged_scopes(conn: psycopg.Connection) -> Iterator[tuple[str, str]]:
    """The scopes with log rows not yet folded."""
    yield from conn.execute("SELECT DISTINCT tenant_id, user_id FROM kenning_last_used_log ORDER BY 1, 2").fetchall()


def fold_scope(conn: psycopg.Connection, tenant_id: str, user_id: str, lock: str) -> None:
    """Fold one scope's log rows into ``kenning_last_used`` in one transaction, under the scope's write lock ``lock``.

    The lock (the one ``apply`` and ``delete_scope`` take) keeps a fold from
    writing narrow rows for a scope that ``delete_scope`` is removing.
    """
    with conn.transaction():
        conn.execute(lock, (tenant_id, user_id))
        conn.execute(_FOLD, {"t": tenant_id, "u": user_id})
