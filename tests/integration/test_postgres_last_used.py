"""The PostgreSQL engine's refreshes of ``last_used_at``: the narrow ``kenning_last_used`` table (migration m005)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np
import psycopg
import pytest

from kenning.stores.postgres import PostgresStore
from kenning.stores.postgres.search import us
from kenning.types import Memory, Scope, new_id

pytestmark = pytest.mark.postgres

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)
A, B = Scope("acme", "alice"), Scope("acme", "bob")


def _mem(scope: Scope, text: str) -> Memory:
    return Memory(
        id=new_id("mem"), tenant_id=scope.tenant_id, user_id=scope.user_id, kind="fact", text=text,
        embedding=np.full(8, 8**-0.5, np.float32), source="user_said", source_refs=(), created_at=T0, last_used_at=T0,
        importance=0.5, confidence=0.9,
    )


def _later(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def _row(url: str, mid: str) -> tuple:
    """The memory row's own ``last_used_at`` and physical place (a new row version moves it), and its narrow row."""
    with psycopg.connect(url, options="-c timezone=UTC") as conn:
        wide = conn.execute("SELECT last_used_at, ctid::text FROM kenning_memories WHERE id = %s", (mid,)).fetchone()
        narrow = conn.execute("SELECT tenant_id, user_id, at FROM kenning_last_used WHERE id = %s", (mid,)).fetchall()
    return wide[0], wide[1], narrow


def test_a_refresh_writes_the_narrow_table_and_leaves_the_row_holding_the_vector(pg_url):
    store = PostgresStore(pg_url, dim=8, embedder_id="t")
    try:
        a = _mem(A, "alpha")
        store.insert(A, [a])
        _, place, _ = _row(pg_url, a.id)
        store.touch(A, [a.id], _later(60))
        store.ranked(A, lambda p: list(p.ids), lambda ids: ids, _later(90))  # the checked refresh of a search
        assert _row(pg_url, a.id) == (T0, place, [("acme", "alice", _later(90))])
        assert store.get(A, a.id).last_used_at == _later(90)
        other = PostgresStore(pg_url, dim=8, embedder_id="t")  # another process
        try:
            assert other.get(A, a.id).last_used_at == _later(90)
            part = other.partition(A)
            assert int(part.last_used[part.position(a.id)]) == us(_later(90))
        finally:
            other.close()
    finally:
        store.close()


def test_a_refresh_naming_another_scopes_memory_writes_no_row(pg_url):
    store = PostgresStore(pg_url, dim=8, embedder_id="t")
    try:
        a, b = _mem(A, "alpha"), _mem(B, "beta")
        store.insert(A, [a])
        store.insert(B, [b])
        store.touch(A, [b.id, "mem_missing"], _later(60))
        store.ranked(A, lambda p: list(p.ids), lambda ids: [b.id], _later(70))
        assert _row(pg_url, b.id)[2] == []
        assert store.get(B, b.id).last_used_at == T0
        store.touch(B, [b.id], _later(80))
        assert _row(pg_url, b.id)[2] == [("acme", "bob", _later(80))]
        assert store.get(A, a.id).last_used_at == T0
    finally:
        store.close()


def test_a_database_from_before_m005_is_migrated_and_an_older_process_refresh_still_counts(pg_url):
    store = PostgresStore(pg_url, dim=8, embedder_id="t")
    a = _mem(A, "alpha")
    store.insert(A, [a])
    store.close()
    with psycopg.connect(pg_url, autocommit=True) as conn:  # the database as m004 left it
        conn.execute("DROP TABLE kenning_last_used")
        conn.execute("DELETE FROM kenning_migrations WHERE name = 'm005_last_used'")
    store = PostgresStore(pg_url, dim=8, embedder_id="t")
    try:
        assert store.get(A, a.id).last_used_at == T0
        cached = store.partition(A)
        # A process from before m005 refreshes the memory's own row, as it always did.
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute("UPDATE kenning_memories SET last_used_at = %s WHERE id = %s", (_later(90), a.id))
            conn.execute("UPDATE kenning_scope_gen SET touched = touched + 1 WHERE tenant_id = 'acme' AND user_id = 'alice'")
        assert store.get(A, a.id).last_used_at == _later(90)
        part = store.partition(A)  # the refresh count moved: the cached partition reloads its last-used column
        assert part is cached and int(part.last_used[0]) == us(_later(90))
        store.touch(A, [a.id], _later(60))  # earlier than the older process's: nothing moves back
        assert store.get(A, a.id).last_used_at == _later(90)
        store.touch(A, [a.id], _later(120))
        assert store.get(A, a.id).last_used_at == _later(120)
        assert [m.last_used_at for m in store.export(A)] == [_later(120)]
    finally:
        store.close()
