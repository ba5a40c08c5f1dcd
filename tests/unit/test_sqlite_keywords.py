"""The SQLite engine's keyword index: one scope token per document, scope-local ranking, migration m003."""

from __future__ import annotations

import sqlite3

from hypothesis import given, settings
from hypothesis import strategies as st

from kenning.stores.sqlite import SQLiteStore
from kenning.stores.sqlite.migrations import M001_INITIAL, M002_API_KEYS, _statements
from kenning.stores.keywords import idf as keyword_idf
from kenning.stores.sqlite.rows import scope_token
from kenning.types import Scope

from ..contract.factory import EMB, T0, mem

A = Scope("acme", "alice")
B = Scope("acme", "bob")
G = Scope("globex", "alice")

# ids hold no NUL and no unpaired surrogate (Scope refuses both)
_ident = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), min_size=1, max_size=40).filter(lambda s: s.strip())


@settings(max_examples=200, deadline=None)
@given(_ident, _ident)
def test_scope_token_matches_the_sql_of_the_migration(tenant, user):
    con = sqlite3.connect(":memory:")
    (sql,) = con.execute("SELECT 'k' || lower(hex(?)) || 'x' || lower(hex(?))", (tenant, user)).fetchone()
    assert scope_token(Scope(tenant, user)) == sql


def test_scope_tokens_differ_when_the_split_differs():
    # 'x' never occurs in hex digits, so ("ab", "c") and ("a", "bc") cannot share a token.
    assert scope_token(Scope("ab", "c")) != scope_token(Scope("a", "bc"))
    assert scope_token(Scope("acme", "alice")) != scope_token(Scope("alice", "acme"))


def test_idf_is_positive_and_rarer_words_weigh_more():
    assert keyword_idf(10, 10) > 0
    assert keyword_idf(1000, 1) > keyword_idf(1000, 10) > keyword_idf(1000, 900) > 0


def _store(tmp_path) -> SQLiteStore:
    return SQLiteStore(tmp_path / "k.db", dim=EMB.dim, embedder_id=EMB.model_id)


def test_keyword_search_sees_only_its_scope_even_for_the_same_words(tmp_path):
    store = _store(tmp_path)
    try:
        mine = mem(A, "the peanut allergy is severe")
        store.insert(A, [mine])
        for s in (B, G):
            store.insert(s, [mem(s, f"peanut allergy note {i}") for i in range(20)])
        assert [h.memory.id for h in store.search_keywords(A, "peanut allergy", k=50, now=T0)] == [mine.id]
        # A scope whose ids look like another's token parts still sees nothing foreign.
        assert store.search_keywords(Scope("acme", "alice2"), "peanut allergy", k=50, now=T0) == []
    finally:
        store.close()


def test_other_scopes_do_not_change_a_scopes_ranking(tmp_path):
    store = _store(tmp_path)
    try:
        a1, a2, a3 = mem(A, "beta and common"), mem(A, "gamma and common"), mem(A, "common delta")
        store.insert(A, [a1, a2, a3])
        before = [(h.memory.id, h.similarity) for h in store.search_keywords(A, "beta gamma common", k=5, now=T0)]
        # Another tenant's many "beta" texts would lower beta's weight under table-wide statistics.
        store.insert(G, [mem(G, f"beta item {i}") for i in range(50)])
        after = [(h.memory.id, h.similarity) for h in store.search_keywords(A, "beta gamma common", k=5, now=T0)]
        assert after == before
        assert [i for i, _ in before][2] == a3.id  # matches one common word only: ranks last
        assert all(s > 0 for _, s in before)
    finally:
        store.close()


def test_rarer_word_match_outranks_common_word_match(tmp_path):
    store = _store(tmp_path)
    try:
        rare = mem(A, "user owns a kayak")
        common = [mem(A, f"user likes item {i}") for i in range(10)]
        store.insert(A, [rare, *common])
        got = store.search_keywords(A, "user kayak", k=3, now=T0)
        assert got[0].memory.id == rare.id and got[0].similarity > got[1].similarity
    finally:
        store.close()


def test_migration_m003_indexes_existing_rows_by_scope(tmp_path):
    path = tmp_path / "old.db"
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)")
    for name, sql in (("m001_initial", M001_INITIAL), ("m002_api_keys", M002_API_KEYS)):
        for stmt in _statements(sql):
            con.execute(stmt)
        con.execute("INSERT INTO _migrations VALUES (?, '2026-01-01')", (name,))
    con.execute("INSERT INTO meta VALUES ('embedder', ?), ('dim', ?)", (EMB.model_id, str(EMB.dim)))
    rows = [(A, "mem_a1", "walks the dog daily"), (G, "mem_g1", "walks the dog at night")]
    for scope, mid, text in rows:  # the m001 layout: no scope column in memory_fts
        cur = con.execute(
            "INSERT INTO memories (id, tenant_id, user_id, kind, text, source, created_at, last_used_at, importance, "
            "confidence, sensitivity, status) VALUES (?, ?, ?, 'fact', ?, 'user_said', 0, 0, 0.5, 0.9, 'normal', 'active')",
            (mid, scope.tenant_id, scope.user_id, text),
        )
        con.execute(
            "INSERT INTO memory_fts (rowid, text, id, tenant_id, user_id) VALUES (?, ?, ?, ?, ?)",
            (cur.lastrowid, text, mid, scope.tenant_id, scope.user_id),
        )
        con.execute(
            "INSERT INTO memory_vectors (tenant_id, user_id, id, status, embedding) VALUES (?, ?, ?, 'active', ?)",
            (scope.tenant_id, scope.user_id, mid, EMB.embed([text])[0].astype("float32").tobytes()),
        )
    con.close()
    store = SQLiteStore(path, dim=EMB.dim, embedder_id=EMB.model_id)
    try:
        fts = sqlite3.connect(path)
        match = "SELECT id FROM memory_fts WHERE memory_fts MATCH ?"
        assert fts.execute(match, (f'scope : "{scope_token(A)}" AND text : "dog"',)).fetchall() == [("mem_a1",)]
        fts.close()
        assert [h.memory.id for h in store.search_keywords(A, "dog walks", k=5, now=T0)] == ["mem_a1"]
        assert [h.memory.id for h in store.search_keywords(G, "dog walks", k=5, now=T0)] == ["mem_g1"]
        store.insert(A, [new := mem(A, "the dog sleeps")])
        assert {h.memory.id for h in store.search_keywords(A, "dog", k=5, now=T0)} == {"mem_a1", new.id}
    finally:
        store.close()


def test_embeddings_taken_from_the_cached_partition_equal_the_stored_ones(tmp_path):
    from kenning.types import Status

    store = _store(tmp_path)
    try:
        live, old = mem(A, "the red kayak is in the garage"), mem(A, "the blue kayak was sold")
        store.insert(A, [live, old])
        store.retire(A, [old.id], T0)
        store.search_vector(A, live.embedding, k=5, now=T0)  # loads the partition (active records only)
        by_vector = store.search_vector(A, live.embedding, k=5, now=T0)
        by_words = store.search_keywords(A, "kayak", k=5, now=T0, statuses=tuple(Status))
        assert [s.memory.id for s in by_vector] == [live.id]
        assert {s.memory.id for s in by_words} == {live.id, old.id}
        for s in by_vector + by_words:
            stored = live if s.memory.id == live.id else old
            assert s.memory.embedding.tobytes() == stored.embedding.astype("float32").tobytes()
            assert not s.memory.embedding.flags.writeable  # a view of the cache must not be writable
    finally:
        store.close()
