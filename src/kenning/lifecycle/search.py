"""Running a search against a store: over the scope's cached partition, or through the store's filtered queries.

Both paths rank the same way (``retrieve``); the facade checks the
arguments and decides which hits may refresh ``last_used_at``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from kenning.lifecycle import evidence, retrieve
from kenning.lifecycle.context import Context
from kenning.lifecycle.retrieve import Candidate
from kenning.stores.base import PartitionStore, supports
from kenning.text import asks_when
from kenning.types import Hit, Memory, Scope


def run_search(
    ctx: Context, scope: Scope, query: str, at: datetime, k: int, min_relevance: float | None, where: dict[str, Any],
    refreshed: Callable[[list[str]], list[str]] | None,
) -> list[Hit]:
    """The top ``k`` hits for ``query`` at ``at``; ``refreshed(ids)`` (if given) names which of the hits' ids have their
    ``last_used_at`` refreshed."""
    store, policy = ctx.store, ctx.policy
    terms = retrieve.query_terms(query, scope.user_id)
    # Names the query writes are weighed as entity evidence; those that are some memory's subject in the scope then
    # leave the query's vector, as the user's own names do (the evidence says who, the vector what). A store without
    # a partition cannot say whose subject a name is: every name leaves the vector.
    names = evidence.query_names(query, scope.user_id) if policy.entity_weight > 0 else []
    entities = frozenset(t for w in names for t in retrieve.terms(w)) & terms if names else frozenset()
    asks_time = policy.time_weight > 0 and asks_when(query)
    vectors: dict[tuple[str, ...], Any] = {}

    def embed(part: Any) -> Any:
        without = tuple(evidence.subject_names(part, names)) if part is not None else tuple(names)
        if without not in vectors:
            vectors[without] = ctx.embed_query(scope, query, without)
        return vectors[without]

    vector = None if names else embed(None)
    if not where and supports(store, PartitionStore):
        # One pass over the scope's cached partition: cosine and keyword evidence for
        # every record in numpy, whole records read only for the k returned. The store
        # writes the refresh (and may confirm its cached partition in the same round trip).
        def rank(part: Any) -> list[tuple[str, Any]]:
            ranked = retrieve.search_partition(part, vector if vector is not None else embed(part), terms, at, policy, k,
                                               min_relevance, entities, asks_time)
            return [(part.ids[r.position], r) for r in ranked]

        def whole(part: Any, ranked: list[tuple[str, Any]]) -> list[Hit]:
            records = {m.id: m for m in store.records(scope, part, [r.position for _, r in ranked])}
            return [Hit(records[mid], r.score, r.components) for mid, r in ranked if mid in records]

        # The refresh names the ids ranked before their records are read, so a client/server
        # store can send it and read the records (``whole``) while it travels.
        def refresh(ranked: list[tuple[str, Any]]) -> list[str]:
            return refreshed([mid for mid, _ in ranked]) if refreshed is not None and ranked else []

        return store.ranked(scope, rank, refresh if refreshed is not None else None, at, whole)[1]
    # A filtered search (or a store without a partition): the filter is part of the
    # store's queries, so the candidates are the best of what it keeps, ranked as above.
    if vector is None:
        vector = embed(store.partition(scope) if supports(store, PartitionStore) else None)
    hits = _search_candidates(ctx, scope, query, terms, vector, at, k, min_relevance, where, entities, asks_time)
    allowed = refreshed([h.memory.id for h in hits]) if refreshed is not None and hits else []
    if allowed:
        store.touch(scope, allowed, at)
    return hits


def _search_candidates(
    ctx: Context, scope: Scope, query: str, terms: set[str], vector: Any, at: datetime, k: int, min_relevance: float | None,
    where: dict[str, Any], entities: frozenset[str] = frozenset(), asks_time: bool = False,
) -> list[Hit]:
    """Search through ``search_vector`` and ``search_keywords`` (with ``where`` inside their queries), then ``rank``."""
    store, policy = ctx.store, ctx.policy
    n = max(policy.candidates, k)
    cands: dict[str, Candidate] = {
        s.memory.id: Candidate(s.memory, s.similarity) for s in store.search_vector(scope, vector, k=n, now=at, **where)
    }
    keyword = store.search_keywords(scope, query, k=n, now=at, **where)
    missing = [s.memory for s in keyword if s.memory.id not in cands]
    cosines = _cosines(vector, missing)
    for m in missing:
        cands[m.id] = Candidate(m, cosines[m.id])
    # Keyword evidence for every candidate (a vector candidate may hold query
    # words too), weighted by IDF over this query's candidates.
    pool = list(cands.values())
    kws = retrieve.keyword_scores(
        terms,
        [c.memory.text for c in pool],
        [c.memory.metadata.get("context") for c in pool],
        policy.context_keyword_weight,
    )
    ents = evidence.entity_scores(entities, [c.memory.text for c in pool], policy.entity_mention)
    timed = evidence.time_scores([c.memory.text for c in pool]) if asks_time else [0.0] * len(pool)
    asking = evidence.asking_scores([c.memory.text for c in pool]) if policy.question_weight > 0 else [0.0] * len(pool)
    return retrieve.rank(
        [Candidate(c.memory, c.cosine, w, e, t, a) for c, w, e, t, a in zip(pool, kws, ents, timed, asking)],
        at, policy, k, min_relevance,
    )


def _cosines(vector: Any, memories: Sequence[Memory]) -> dict[str, float]:
    from kenning.stores.partition import similarities  # row by row: the value every search path computes

    return {m.id: float(similarities(m.embedding[None, :], vector)[0]) if m.embedding is not None else 0.0 for m in memories}
