"""Property: whatever is written in other scopes, no read of one scope ever returns them."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kenning.types import Scope

from .factory import T0, mem, vec

SCOPES = [Scope(t, u) for t in ("t1", "t2") for u in ("u1", "u2")]
WORDS = st.sampled_from(["aisle", "seat", "peanut", "York", "Leeds", "dog", "tea", "canary"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(writes=st.lists(st.tuples(st.integers(0, 3), st.lists(WORDS, min_size=1, max_size=4)), min_size=1, max_size=12),
       reader=st.integers(0, 3), query=st.lists(WORDS, min_size=1, max_size=3))
def test_reads_never_cross_scopes(engine, writes, reader, query):
    for s in SCOPES:
        engine.delete_scope(s)
    for idx, words in writes:
        engine.insert(SCOPES[idx], [mem(SCOPES[idx], " ".join(words))])
    scope = SCOPES[reader]
    q = " ".join(query)
    results = (
        [s.memory for s in engine.search_vector(scope, vec(q), k=50, now=T0)]
        + [s.memory for s in engine.search_keywords(scope, q, k=50, now=T0)]
        + engine.list(scope)
        + engine.export(scope)
    )
    assert all(m.scope == scope for m in results)
    assert engine.count(scope) == sum(1 for idx, _ in writes if idx == reader)
