"""The PostgreSQL engine's refreshes of ``last_used_at``: an append-only log (migration m006) folded into the
narrow ``kenning_last_used`` table (migration m005)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np
import psycopg
import pytest
import subprocess
import sys
import textwrap
import threading
import time

from kenning.stores.postgres import PostgresStore
from kenning.stores.postgres.search import us
from kenning.errors import Conflict
from kenning.types import Changeset, Memory, Scope, Status, Transition, new_id

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


def _log(url: str) -> list[tuple]:
    """The refresh log's rows, oldest first: (tenant, user, at, ids)."""
    with psycopg.connect(url, options="-c timezone=UTC") as conn:
        return conn.execute("SELECT tenant_id, user_id, at, ids FROM kenning_last_used_log ORDER BY at, ctid").fetchall()


def test_a_refresh_appends_one_log_row_and_updates_no_row(pg_url):
    store = PostgresStore(pg_url, dim=8, embedder_id="t")
    try:
        a, b = _mem(A, "alpha"), _mem(A, "beta")
        store.insert(A, [a, b])
        _, place, _ = _row(pg_url, a.id)
        store.touch(A, [a.id], _later(60))
        store.ranked(A, lambda p: list(p.ids), lambda ids: ids, _later(90))  # the checked refresh of a search
        assert _log(pg_url) == [("acme", "alice", _later(60), [a.id]), ("acme", "alice", _later(90), sorted([a.id, b.id]))]
        assert _row(pg_url, a.id) == (T0, place, [])  # neither the memory's row nor a narrow row was written
        assert [m.last_used_at for m in store.get_many(A, [a.id, b.id])] == [_later(90), _later(90)]
        other = PostgresStore(pg_url, dim=8, embedder_id="t")  # another process
        try:
            assert other.get(A, a.id).last_used_at == _later(90)
            part = other.partition(A)
            assert int(part.last_used[part.position(a.id)]) == us(_later(90))
        finally:
            other.close()
    finally:
        store.close()


def test_folding_moves_the_log_into_the_narrow_table_and_changes_no_last_use(pg_url):
    store = PostgresStore(pg_url, dim=8, embedder_id="t")
    try:
        a, b, c = _mem(A, "alpha"), _mem(A, "beta"), _mem(B, "gamma")
        store.insert(A, [a, b])
        store.insert(B, [c])
        store.touch(A, [a.id], _later(90))
        store.touch(A, [a.id, b.id], _later(30))  # earlier: moves nothing back, before or after folding
        store.touch(B, [c.id], _later(45))
        cached = store.partition(A)
        touched = cached.touched
        before = {m.id: m.last_used_at for s in (A, B) for m in store.export(s)}
        assert before == {a.id: _later(90), b.id: _later(30), c.id: _later(45)}
        assert store.fold_refreshes() == 2
        assert _log(pg_url) == []
        assert _row(pg_url, a.id)[2] == [("acme", "alice", _later(90))]
        assert _row(pg_url, c.id)[2] == [("acme", "bob", _later(45))]
        assert {m.id: m.last_used_at for s in (A, B) for m in store.export(s)} == before
        assert store.partition(A) is cached and cached.touched == touched  # nothing to reload
        store.touch(A, [b.id], _later(120))  # logged again, over a folded row
        assert store.get(A, b.id).last_used_at == _later(120)
        assert store.fold_refreshes() == 1 and store.fold_refreshes() == 0
        assert _row(pg_url, b.id)[2] == [("acme", "alice", _later(120))]
        store.touch(B, [c.id], _later(150))
        store.purge_residue()  # what background passes run (worker, server, maintain): it folds too
        assert _log(pg_url) == [] and _row(pg_url, c.id)[2] == [("acme", "bob", _later(150))]
    finally:
        store.close()


def test_delete_scope_removes_the_scopes_log_rows_and_only_those(pg_url):
    store = PostgresStore(pg_url, dim=8, embedder_id="t")
    try:
        a, c = _mem(A, "alpha"), _mem(B, "gamma")
        store.insert(A, [a])
        store.insert(B, [c])
        store.touch(A, [a.id], _later(60))
        store.touch(B, [c.id], _later(60))
        store.delete_scope(A)
        assert [r[:2] for r in _log(pg_url)] == [("acme", "bob")]
        store.insert(A, [a])  # the same id again (an export imported back): none of its old refreshes is left
        assert store.get(A, a.id).last_used_at == T0
        store.fold_refreshes()
        assert store.get(A, a.id).last_used_at == T0 and _row(pg_url, a.id)[2] == []
    finally:
        store.close()


# A child process: refresh the memory through a search of its own, or read what it sees.
_CHILD = textwrap.dedent(
    """
    import sys
    from datetime import datetime
    from kenning.stores.postgres import PostgresStore
    from kenning.types import Scope
    url, what, mid, at = sys.argv[1:5]
    store = PostgresStore(url, dim=8, embedder_id="t")
    scope = Scope("acme", "alice")
    if what == "refresh":
        store.partition(scope)  # a cached partition, so the refresh is a search's checked one
        store.ranked(scope, lambda p: [mid], lambda ids: ids, datetime.fromisoformat(at))
    else:
        part = store.partition(scope)
        print(store.get(scope, mid).last_used_at.isoformat(), int(part.last_used[part.position(mid)]))
    store.close()
    """
)


def _child(url: str, what: str, mid: str, at: datetime) -> str:
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, url, what, mid, at.isoformat()], capture_output=True, text=True, timeout=120, check=True
    )
    return out.stdout.strip()


def test_a_refresh_in_one_process_is_read_by_another_and_survives_folding(pg_url):
    store = PostgresStore(pg_url, dim=8, embedder_id="t")
    try:
        a = _mem(A, "alpha")
        store.insert(A, [a])
        cached = store.partition(A)
        _child(pg_url, "refresh", a.id, _later(90))
        assert [r[2:] for r in _log(pg_url)] == [(_later(90), [a.id])]
        assert store.get(A, a.id).last_used_at == _later(90)
        part = store.partition(A)  # the refresh count moved: the cached partition reloads its last-used column
        assert part is cached and int(part.last_used[0]) == us(_later(90))
        assert _child(pg_url, "read", a.id, T0) == f"{_later(90).isoformat()} {us(_later(90))}"
        store.fold_refreshes()
        assert _log(pg_url) == []
        assert _child(pg_url, "read", a.id, T0) == f"{_later(90).isoformat()} {us(_later(90))}"
        assert store.get(A, a.id).last_used_at == _later(90)
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
        store.touch(A, [a.id, b.id], _later(75))  # only the scope's own memory is logged
        assert [r[2:] for r in _log(pg_url)] == [(_later(75), [a.id])]
        store.fold_refreshes()
        assert _row(pg_url, b.id)[2] == []
        assert store.get(B, b.id).last_used_at == T0
        store.touch(B, [b.id], _later(80))
        store.fold_refreshes()
        assert _row(pg_url, b.id)[2] == [("acme", "bob", _later(80))]
        assert store.get(A, a.id).last_used_at == _later(75)
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


def test_a_database_from_m005_is_migrated_and_its_narrow_rows_still_count(pg_url):
    store = PostgresStore(pg_url, dim=8, embedder_id="t")
    a, b = _mem(A, "alpha"), _mem(A, "beta")
    store.insert(A, [a, b])
    store.close()
    with psycopg.connect(pg_url, autocommit=True) as conn:  # the database as m005 left it, with a refresh of that version
        conn.execute("DROP TABLE kenning_last_used_log")
        conn.execute("DELETE FROM kenning_migrations WHERE name = 'm006_last_used_log'")
        conn.execute("INSERT INTO kenning_last_used (tenant_id, user_id, id, at) VALUES ('acme', 'alice', %s, %s)", (a.id, _later(90)))
        conn.execute("UPDATE kenning_scope_gen SET touched = touched + 1 WHERE tenant_id = 'acme' AND user_id = 'alice'")
    store = PostgresStore(pg_url, dim=8, embedder_id="t")
    try:
        with psycopg.connect(pg_url) as conn:
            assert conn.execute("SELECT count(*) FROM kenning_migrations WHERE name = 'm006_last_used_log'").fetchone()[0] == 1
        assert {m.id: m.last_used_at for m in store.export(A)} == {a.id: _later(90), b.id: T0}
        store.touch(A, [a.id, b.id], _later(60))  # logged; earlier than the narrow row for a: nothing moves back
        assert {m.id: m.last_used_at for m in store.list(A)} == {a.id: _later(90), b.id: _later(60)}
        # A process still at m005 refreshes the narrow table, as it did; the later value wins either way.
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute("UPDATE kenning_last_used SET at = %s WHERE id = %s", (_later(120), a.id))
            conn.execute("UPDATE kenning_scope_gen SET touched = touched + 1 WHERE tenant_id = 'acme' AND user_id = 'alice'")
        part = store.partition(A)
        assert int(part.last_used[part.position(a.id)]) == us(_later(120))
        store.fold_refreshes()
        assert {m.id: m.last_used_at for m in store.export(A)} == {a.id: _later(120), b.id: _later(60)}
        assert _row(pg_url, b.id)[2] == [("acme", "alice", _later(60))] and _log(pg_url) == []
    finally:
        store.close()


def test_searches_go_on_after_a_rolled_back_write_drops_the_prepared_statements(pg_url):
    # psycopg answers a rollback on a connection where it prepared statements of its own with DEALLOCATE ALL,
    # which also drops the refresh and generation-check statements the search path prepared there.
    store = PostgresStore(pg_url, dim=8, embedder_id="t", max_connections=1)
    try:
        a = _mem(A, "alpha")
        store.insert(A, [a])
        for _ in range(8):  # past psycopg's prepare threshold
            store.get_many(A, [a.id])
        store.partition(A)
        store.ranked(A, lambda p: list(p.ids), lambda ids: ids, _later(10))
        store.ranked(A, lambda p: list(p.ids), None, _later(10))
        with pytest.raises(Conflict):  # a guard fails: the transaction rolls back
            store.apply(A, Changeset(transitions=(Transition(a.id, (Status.PROVISIONAL,), Status.ACTIVE),)))
        _, ids = store.ranked(A, lambda p: list(p.ids), lambda ids: ids, _later(20))
        assert ids == [a.id] and store.get(A, a.id).last_used_at == _later(20)
        with pytest.raises(Conflict):
            store.apply(A, Changeset(transitions=(Transition(a.id, (Status.PROVISIONAL,), Status.ACTIVE),)))
        assert store.ranked(A, lambda p: list(p.ids), None, _later(30))[1] == [a.id]
        store.touch(A, [a.id], _later(40))
        assert store.get(A, a.id).last_used_at == _later(40)
    finally:
        store.close()


def test_a_refresh_waiting_on_a_scope_deletion_logs_nothing_for_the_deleted_memories(pg_url):
    store = PostgresStore(pg_url, dim=8, embedder_id="t")
    try:
        a = _mem(A, "alpha")
        store.insert(A, [a])
        with psycopg.connect(pg_url) as conn:  # a deletion of the scope, held open with the scope's row locked
            conn.execute("DELETE FROM kenning_memories WHERE tenant_id = 'acme' AND user_id = 'alice'")
            conn.execute("UPDATE kenning_scope_gen SET gen = gen + 1 WHERE tenant_id = 'acme' AND user_id = 'alice'")
            refresh = threading.Thread(target=store.touch, args=(A, [a.id], _later(60)))
            refresh.start()
            deadline = time.monotonic() + 30
            while not conn.execute(  # the refresh's snapshot still holds the memory; it waits for the row lock
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
            ).fetchone()[0]:
                assert time.monotonic() < deadline and refresh.is_alive()
                time.sleep(0.01)
            conn.commit()
        refresh.join(30)
        assert not refresh.is_alive()
        assert _log(pg_url) == []  # sent again after the deletion: no memory of the scope left to log
        store.insert(A, [a])  # the same id imported back carries no refresh from before
        assert store.get(A, a.id).last_used_at == T0
    finally:
        store.close()
