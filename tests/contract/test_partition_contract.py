"""The search partition (``PartitionStore.partition`` / ``records``): current after every write and refresh, on every engine declaring it."""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest

from kenning.stores.partition import encode_terms
from kenning.types import Status

from .factory import A, B, T0, Kind, mem, later


@pytest.fixture
def engine(partition_engine):
    """Here ``engine`` is one of the engines with a search partition (the plugin store has none)."""
    return partition_engine


def _reopen(engine):
    """A second store on the same database: another process, as far as caches go."""
    from kenning.stores.postgres import PostgresStore
    from kenning.stores.sqlite import SQLiteStore

    if isinstance(engine, SQLiteStore):
        return SQLiteStore(engine.path, dim=engine.dim, embedder_id="hash-256")
    return PostgresStore(engine.url, dim=engine.dim, embedder_id="hash-256")


def test_partition_holds_the_scopes_live_records_in_id_order(engine):
    a = mem(A, "Alice lives in York", kind=Kind.PREFERENCE, importance=0.25, confidence=0.5)
    p = mem(A, "Alice likes tea", status=Status.PROVISIONAL, metadata={"context": "Bob: what do you drink?"})
    r = mem(A, "Alice lived in Leeds")
    engine.insert(A, [a, p, r])
    engine.insert(B, [mem(B, "Bob lives in York")])
    engine.retire(A, [r.id], later(1))
    part = engine.partition(A)
    assert part.ids == sorted([a.id, p.id])
    i = part.position(a.id)
    assert part.active[i] and not part.active[part.position(p.id)]
    assert part.importance[i] == 0.25 and part.confidence[i] == 0.5
    assert np.allclose(part.matrix[i], a.embedding)
    assert set(part.postings("york").tolist()) == {i}
    assert part.postings("drink", context=True).tolist() == [part.position(p.id)]
    assert part.postings("drink").size == 0
    assert encode_terms(p.text, "Bob: what do you drink?") == "alice like tea ^alice|bob drink"
    assert part.postings("^alice").tolist() == [i, part.position(p.id)]  # each record's subject, marked


def test_terms_stored_under_an_older_version_are_recomputed_on_open(engine):
    """Terms written before subjects were stored (version 1) gain them when the database is next opened."""
    a, b = mem(A, "Alice lives in York"), mem(A, "the dog is called Rex")
    engine.insert(A, [a, b])
    _set_raw(engine, "UPDATE {table} SET terms = 'alice live york' WHERE id = '" + a.id + "'", "1")
    other = _reopen(engine)
    try:
        part = other.partition(A)
        assert part.postings("^alice").tolist() == [part.position(a.id)]
        assert part.postings("york").tolist() == [part.position(a.id)]
    finally:
        other.close()


def test_a_record_that_asks_is_marked_and_terms_of_version_3_gain_the_mark_on_open(engine):
    """``ASKS`` marks a record whose text ends by asking; terms written before the mark (version 3) gain it."""
    from kenning.stores.partition import ASKS

    q, s = mem(A, "Does Alice drink tea? (8 May, 2023)"), mem(A, "Alice drinks tea")
    engine.insert(A, [q, s])
    part = engine.partition(A)
    assert part.postings(ASKS).tolist() == [part.position(q.id)]
    _set_raw(engine, "UPDATE {table} SET terms = 'alice drink tea ^alice' WHERE id = '" + q.id + "'", "3")
    other = _reopen(engine)
    try:
        part = other.partition(A)
        assert part.postings(ASKS).tolist() == [part.position(q.id)]
    finally:
        other.close()


def _set_raw(engine, update: str, version: str) -> None:
    """Run ``update`` on the engine's terms table and record ``version`` as the terms' version, bypassing the store."""
    from kenning.stores.sqlite import SQLiteStore

    if isinstance(engine, SQLiteStore):
        import sqlite3

        with sqlite3.connect(engine.path) as con:
            con.execute(update.format(table="memory_vectors"))
            con.execute("UPDATE meta SET value = ? WHERE key = 'terms_version'", (version,))
        return
    import psycopg

    with psycopg.connect(engine.url, autocommit=True) as con:
        con.execute(update.format(table="kenning_memories"))
        con.execute("UPDATE kenning_meta SET value = %s WHERE key = 'terms_version'", (version,))


def test_a_write_invalidates_and_records_are_read_whole(engine):
    a = mem(A, "Alice lives in York")
    engine.insert(A, [a])
    first = engine.partition(A)
    assert engine.partition(A) is first  # cached
    b, c = mem(A, "Alice works in Leeds"), mem(A, "Alice has a dog")
    engine.insert(A, [b, c])
    second = engine.partition(A)
    assert second is not first and len(second) == 3
    got = engine.records(A, second, [second.position(b.id), second.position(a.id)])
    assert [m.id for m in got] == [b.id, a.id]
    assert got[0] == b
    assert engine.records(A, second, [second.position(b.id)])[0] is got[0]  # built once per generation
    engine.delete(A, [c.id], later(2))
    assert sorted(engine.partition(A).ids) == sorted([a.id, b.id])
    assert engine.records(A, second, [second.position(c.id)]) == []  # gone since that partition was read


def test_refreshes_update_the_cached_partition_in_this_process_and_others(engine):
    a, b = mem(A, "Alice lives in York"), mem(A, "Alice works in Leeds")
    engine.insert(A, [a, b])
    other = _reopen(engine)
    try:
        mine, theirs = engine.partition(A), other.partition(A)
        at = T0 + timedelta(days=3)
        before = engine.records(A, mine, [mine.position(a.id)])[0]
        engine.touch(A, [a.id], at)
        assert engine.partition(A) is mine  # not invalidated: updated in place
        assert engine.records(A, mine, [mine.position(a.id)])[0] == before.evolve(last_used_at=at)
        assert mine.last_used[mine.position(a.id)] == (at - T0).total_seconds() * 1e6 + mine.created[mine.position(a.id)]
        seen = other.partition(A)  # the other process reloads the refreshed column
        assert seen.last_used[seen.position(a.id)] == mine.last_used[mine.position(a.id)]
        other.touch(A, [b.id], at)
        assert engine.partition(A).last_used[mine.position(b.id)] == seen.last_used[seen.position(b.id)]
        assert theirs is seen
    finally:
        other.close()


def test_ranked_uses_the_cached_partition_only_while_it_is_current(engine):
    a, b = mem(A, "Alice lives in York"), mem(A, "Alice works in Leeds")
    engine.insert(A, [a, b])
    other = _reopen(engine)
    seen = []

    def rank(part):
        seen.append(part)
        return sorted(part.ids)

    try:
        cached = engine.partition(A)
        part, result = engine.ranked(A, rank)
        assert part is cached and result == sorted([a.id, b.id])
        other.delete(A, [b.id], later(1))  # another process writes: the cached partition is stale
        part, result = engine.ranked(A, rank)
        assert result == [a.id] and part.ids == [a.id] and seen[-1] is part
        at = T0 + timedelta(days=2)
        other.touch(A, [a.id], at)  # another process refreshes: the last-used column is stale
        part, _ = engine.ranked(A, rank)
        assert part.last_used[part.position(a.id)] == engine.partition(A).last_used[0] == other.partition(A).last_used[0]
    finally:
        other.close()


def test_ranked_writes_the_refresh_and_confirms_the_partition_with_it(engine):
    a, b = mem(A, "Alice lives in York"), mem(A, "Alice works in Leeds")
    engine.insert(A, [a, b])
    other = _reopen(engine)
    at, later_at = T0 + timedelta(days=2), T0 + timedelta(days=3)
    try:
        cached = engine.partition(A)
        part, result = engine.ranked(A, lambda p: list(p.ids), lambda ids: ids[:1], at)
        assert part is cached and result == sorted([a.id, b.id])
        first = result[0]
        assert engine.get(A, first).last_used_at == at
        assert other.partition(A).last_used[other.partition(A).position(first)] == part.last_used[part.position(first)]
        other.delete(A, [first], later(1))
        # Stale: the refresh of the stale ranking's pick is not written; the fresh one is ranked and refreshed.
        part, result = engine.ranked(A, lambda p: list(p.ids), lambda ids: ids[:1], later_at)
        assert result == [i for i in sorted([a.id, b.id]) if i != first] and part.ids == result
        assert engine.get(A, result[0]).last_used_at == later_at
        assert engine.get(A, first).last_used_at != later_at
        assert engine.ranked(A, lambda p: list(p.ids), lambda ids: [], later_at)[0] is part  # nothing to refresh
    finally:
        other.close()


def test_searches_agree_with_and_without_a_cached_partition(engine):
    import random

    from kenning.types import Filter

    from .factory import vec

    rng = random.Random(5)
    words = "york leeds tea coffee dog walks walking runs piano dinner friday booked books".split()
    texts = [" ".join(rng.choice(words) for _ in range(rng.randint(2, 5))) for _ in range(60)]
    engine.insert(A, [mem(A, t, kind=rng.choice([Kind.FACT, Kind.EPISODE]), at=T0 + timedelta(minutes=i)) for i, t in enumerate(texts)])
    only_facts = Filter(kinds=(Kind.FACT,))

    def results(store):
        out = []
        for q in ("walking the dog", "tea on friday", "booked dinner", "piano"):
            for where in (None, only_facts):
                out.append([(s.memory.id, s.similarity) for s in store.search_vector(A, vec(q), k=7, now=T0, where=where)])
                out.append([(s.memory.id, s.similarity) for s in store.search_keywords(A, q, k=7, now=T0, where=where)])
        return out

    other = _reopen(engine)  # another process: nothing cached there
    try:
        cold = results(other)
        engine.partition(A)
        warm = results(engine)
        assert cold == warm and any(cold)
    finally:
        other.close()
