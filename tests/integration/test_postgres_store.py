"""The PostgreSQL engine through the facade and in its own SQL: isolation, tombstones, audit, errors."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np
import psycopg
import pytest

import kenning
from kenning.embedders import HashEmbedder
from kenning.errors import ConfigError, StoreError, ValidationError
from kenning.stores.postgres import PostgresStore
from kenning.stores.postgres.dev import free_port
from kenning.types import Memory, Scope, Status, new_id


pytestmark = pytest.mark.postgres

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)


def test_open_selects_the_engine_and_search_never_crosses_scopes(pg_url, minilm):
    with kenning.open(pg_url, embedder=minilm) as k:
        assert isinstance(k.ctx.store, PostgresStore)
        alice, bob, other = k.scope("acme", "alice"), k.scope("acme", "bob"), k.scope("globex", "alice")
        alice.remember("Alice is allergic to peanuts", now=T0)
        bob.remember("Bob is allergic to shellfish", now=T0)
        other.remember("Globex Alice is allergic to peanuts too", now=T0)
        hits = alice.search("what food allergies", now=T0 + timedelta(hours=1))
        assert [h.memory.text for h in hits] == ["Alice is allergic to peanuts"]
        assert [h.memory.text for h in bob.search("peanuts allergy", now=T0)] == ["Bob is allergic to shellfish"]
        assert [m.text for m in other.list()] == ["Globex Alice is allergic to peanuts too"]


def test_the_short_postgres_scheme_selects_the_engine_too(pg_url):
    with kenning.open("postgres://" + pg_url.split("://", 1)[1], embedder=HashEmbedder()) as k:
        assert isinstance(k.ctx.store, PostgresStore)
        assert k.scope("acme", "alice").remember("Alice likes tea", now=T0).text == "Alice likes tea"


def test_a_deleted_memory_leaves_a_tombstone_with_no_vector_and_no_keyword_entry(pg_url, minilm):
    with kenning.open(pg_url, embedder=minilm) as k:
        alice = k.scope("acme", "alice")
        canary = alice.remember("The canary code word is marmalade", now=T0)
        alice.delete(canary.id, now=T0 + timedelta(minutes=1))
        assert alice.search("marmalade canary code word", now=T0 + timedelta(minutes=2)) == []
        tomb = k.ctx.store.get(alice.scope, canary.id)
        assert (tomb.status, tomb.text, dict(tomb.metadata), tomb.embedding) == (Status.DELETED, "", {}, None)
    with psycopg.connect(pg_url) as conn:
        row = conn.execute(
            "SELECT text, embedding IS NULL, tsv = ''::tsvector FROM kenning_memories WHERE id = %s", (canary.id,)
        ).fetchone()
        assert row == ("", True, True)
        assert conn.execute("SELECT count(*) FROM kenning_memories WHERE text LIKE '%%marmalade%%'").fetchone()[0] == 0


def test_the_audit_log_refuses_updates(pg_url):
    store = PostgresStore(pg_url, dim=8, embedder_id="t")
    scope = Scope("acme", "alice")
    store.insert(scope, [_mem(scope, "x")])
    store.close()
    with psycopg.connect(pg_url) as conn:
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            conn.execute("UPDATE kenning_audit SET reason = 'rewritten'")


def test_opening_with_another_embedder_is_a_config_error(pg_url):
    PostgresStore(pg_url, dim=8, embedder_id="model-a").close()
    with pytest.raises(ConfigError, match="model-a"):
        PostgresStore(pg_url, dim=8, embedder_id="model-b")
    with pytest.raises(ConfigError):
        PostgresStore(pg_url, dim=16, embedder_id="model-a")


def test_migrations_run_once_and_are_recorded(pg_url):
    for _ in range(2):
        PostgresStore(pg_url, dim=8, embedder_id="t").close()
    with psycopg.connect(pg_url) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM kenning_migrations ORDER BY name")]
    assert names == ["m001_initial", "m002_api_keys", "m003_search_partition", "m004_scope_work", "m005_last_used", "m006_last_used_log"]


def test_values_postgresql_refuses_are_validation_errors_and_write_nothing(pg_url):
    store = PostgresStore(pg_url, dim=8, embedder_id="t")
    scope = Scope("acme", "alice")
    try:
        with pytest.raises(ValidationError):
            store.insert(scope, [_mem(scope, "fine"), _mem(scope, "a NUL \x00 inside")])
        assert store.count(scope) == 0 and store.audit(scope) == []
        with pytest.raises(ValidationError):
            store.search_vector(scope, np.ones(3, np.float32), k=5, now=T0)
    finally:
        store.close()


def test_an_unreachable_server_is_a_store_error():
    with pytest.raises(StoreError, match="cannot open PostgreSQL"):
        PostgresStore(f"postgresql://postgres@127.0.0.1:{free_port()}/none?connect_timeout=2", dim=8, embedder_id="t")


def test_a_closed_store_refuses_work(pg_url):
    store = PostgresStore(pg_url, dim=8, embedder_id="t")
    store.close()
    store.close()  # idempotent
    with pytest.raises(StoreError, match="closed"):
        store.count(Scope("acme", "alice"))


def test_keyword_search_stems_and_ranks_within_the_scope(pg_url):
    emb = HashEmbedder()
    store = PostgresStore(pg_url, dim=emb.dim, embedder_id=emb.model_id)
    a, b = Scope("acme", "alice"), Scope("acme", "bob")
    try:
        store.insert(a, [_mem(a, "Alice walks every morning", emb), _mem(a, "Alice owns a red bike", emb)])
        store.insert(b, [_mem(b, "Bob walks marathons", emb)])
        found = store.search_keywords(a, "walking", k=10, now=T0)
        assert [s.memory.text for s in found] == ["Alice walks every morning"]
        assert all(s.similarity > 0 for s in found)
    finally:
        store.close()


def _mem(scope: Scope, text: str, emb: HashEmbedder | None = None) -> Memory:
    vec = emb.embed([text])[0] if emb else np.full(8, 8**-0.5, np.float32)
    return Memory(
        id=new_id("mem"), tenant_id=scope.tenant_id, user_id=scope.user_id, kind="fact", text=text, embedding=vec,
        source="user_said", source_refs=(), created_at=T0, last_used_at=T0, importance=0.5, confidence=0.9,
    )


def test_purging_residue_leaves_no_row_version_holding_deleted_text(pg_url):
    store = PostgresStore(pg_url, dim=8, embedder_id="t")
    scope = Scope("acme", "alice")
    canary = _mem(scope, "The canary code word is zanzibarquux")
    try:
        store.insert(scope, [_mem(scope, f"filler {i}") for i in range(20)] + [canary])
        store.delete(scope, [canary.id], T0)
        store.purge_residue()
    finally:
        store.close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pageinspect")
        holding = conn.execute(
            "SELECT count(*) FROM generate_series(0, pg_relation_size('kenning_memories') / 8192 - 1) AS page, "
            "heap_page_items(get_raw_page('kenning_memories', page::int)) AS item "
            "WHERE position(convert_to('zanzibarquux', 'UTF8') IN item.t_data) > 0"
        ).fetchone()[0]
    assert holding == 0  # no live or dead version of the row keeps the text


def test_text_array_literals_carry_any_id_unchanged(pg_url):
    from kenning.stores.postgres.search import _text_array

    ids = ['mem_plain', 'a"quote', "back\\slash", "comma,brace{}", " spaced ", "NULL", "", "ünï©ode"]
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT %s::text[]", (_text_array(ids),)).fetchone()[0] == ids
