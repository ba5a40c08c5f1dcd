"""Retrieval scoring: relevance, per-kind recency and importance, as in the seed.

    score = (w_rel·relevance + w_rec·recency + w_imp·importance) · trust(confidence)

All of it is pure: ``score(memory, relevance, now, policy)`` and
``rank(candidates, now, policy, k)`` take records and a clock value and
return numbers. The store and the embedder stay in the facade.

Calibration. The bundled MiniLM model puts unrelated sentences near cosine
0 and paraphrases around 0.5–0.8, and it scores the seed's dinner request
against "allergic to peanuts" at about −0.06. Vector relevance is therefore
a linear map of cosine from [cos_floor, cos_ceiling] onto [0, 1], and
importance carries more weight than the seed's illustrative 0.2, so a
severe allergy stated months ago still outranks yesterday's restaurant chat
when a dinner is booked.

Hybrid relevance. A small sentence model misses exact names, dates and rare
words that a keyword match catches, so keyword evidence adds to the vector's:
``vector + keyword_weight·keyword``, where keyword is the IDF-weighted share
of the query's content words that a memory contains, with IDF taken over the
candidates of this query (``keyword_scores``). The sum is soft-capped into
[0, 1] (identity up to ``saturation``, then an exponential approach to 1), so
strong matches keep their order instead of tying at a hard cap, and a purely
semantic match keeps its full scale against recency and importance. On
LoCoMo turn retrieval this lifted pooled recall@10 from 0.60 (a 0.25 bonus
for unweighted coverage, hard-capped) to about 0.66; see docs/benchmarks.md.

Entity evidence. Names the query writes ("What does Melanie do …?") add
``entity_weight`` for memories whose subject (``text.subject``) they are, and
less for memories naming them elsewhere (``evidence.entity_scores``); the search then
embeds the query without the names that are some memory's subject, so the
vector weighs what is asked and the evidence whom it is about.

Time evidence. A query asking when ("When did …", "What year …") adds
``time_weight`` to memories whose text says when something happened
(``text.states_time``: "yesterday", "last week", "in May"): the answer is
in them more often than in memories on the same topic that do not.

Asking memories. A memory whose text ends by asking (``text.asks``: "How was
the trip?") states less than one that tells, so its relevance is lowered by
``question_weight`` whatever the query.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from kenning.text import STOPWORDS, _text_terms, stem, terms
from kenning.types import Hit, Kind, Memory

DAY_S = 86400.0


@dataclass(frozen=True)
class Policy:
    """Weights, half-lives and thresholds of retrieval, in one place.

    ``half_life_days[kind] = None`` means that kind never fades. Weights need
    not sum to 1; scores are divided by their sum so they stay in [0, 1].
    """

    w_relevance: float = 0.4
    w_recency: float = 0.2
    w_importance: float = 0.4
    confidence_weight: float = 0.25
    half_life_days: Mapping[Kind, float | None] = field(
        default_factory=lambda: {Kind.EPISODE: 7.0, Kind.PREFERENCE: 90.0, Kind.FACT: None, Kind.PROCEDURE: None}
    )
    cos_floor: float = -0.15
    cos_ceiling: float = 0.75
    keyword_weight: float = 0.75
    # Query words found only in a memory's context (``remember(context=...)``),
    # not its text, count at this share; see ``keyword_scores``. LoCoMo with
    # two turns of context, text share 0.3 (pooled R@10): 0.3 -> 0.744,
    # 0.45 -> 0.749, 0.6 -> 0.752, 0.75 -> 0.747. Kept under one half so that
    # a memory's own words outweigh the same words in its context (at 0.5 and
    # up a bare reply beat the turn stating the fact in a three-turn case).
    context_keyword_weight: float = 0.45
    saturation: float = 0.8
    min_relevance: float = 0.05
    # Vector and keyword candidates each. LoCoMo pooled R@10 (conversations 1-5 /
    # 6-10): 30 -> 0.772 / 0.720, 50 -> 0.777 / 0.725, 100 -> 0.782 / 0.730,
    # 150 -> 0.781 / 0.727, 200 -> 0.781 / 0.729: 100 is best on either half.
    candidates: int = 100
    # Options of ``search_partition``, off by default (see docs/benchmarks.md for
    # what they did on LoCoMo, chosen on one half of the conversations, measured on the other).
    feedback: float = 0.0
    feedback_hits: int = 3
    diversity: float = 0.0
    # Entity evidence (``entity_scores``): how far a memory is about the names the
    # query writes, added to relevance at this weight; the names that are some
    # memory's subject then leave the query's vector, as the user's own do. A
    # memory whose subject is the name counts 1, one naming it elsewhere
    # ``entity_mention``. 0: off. LoCoMo pooled R@10 (conversations 1-5 / 6-10):
    # off 0.782 / 0.728; 0.25 and 0.6 (chosen on 1-5) 0.811 / 0.796; see
    # docs/benchmarks.md, "LoCoMo out of sample, session 8".
    entity_weight: float = 0.25
    entity_mention: float = 0.6
    # Time evidence: added to the relevance of a memory whose text says when (``text.states_time``) for a query
    # asking when (``text.asks_when``). 0: off. LoCoMo pooled R@10 (conversations 1-5 / 6-10): off 0.811 / 0.796;
    # 0.1 (chosen on either half) 0.815 / 0.804; see docs/benchmarks.md, "LoCoMo out of sample, session 9".
    time_weight: float = 0.1
    # Taken from the relevance of a memory whose text ends by asking (``text.asks``), whatever the query. 0: off.
    # LoCoMo pooled R@10 (conversations 1-5 / 6-10): off 0.815 / 0.804; 0.01 (chosen on 1-5) 0.820 / 0.806; 0.015
    # (chosen on 6-10) 0.819 / 0.809; see docs/benchmarks.md, "LoCoMo out of sample, session 12".
    question_weight: float = 0.01

    def half_life(self, kind: Kind) -> float | None:
        return self.half_life_days.get(kind)


def user_names(user_id: str) -> set[str]:
    """Words of a user id that can stand for the user's name in a query ("alice", "maya.lee" -> maya, lee).

    Opaque ids (``u_8c1f``) yield nothing: only alphabetic parts of two or more letters count.
    """
    return {w for w in re.split(r"[^a-z]+", user_id.lower()) if len(w) >= 2 and w != "user"}


def impersonal(text: str, names: set[str]) -> str:
    """``text`` without the words that only name its subject: the user's name, "the user", "user" (with possessives).

    Extracted memories say "User lives in York", remembered ones may say "Alice
    lives in York", and queries ask "Where does Alice live?". Embedding all of
    them without the subject lets the claim alone decide the similarity
    (measured on the bundled model: predicate questions went from 5/7 to 7/7
    top-1 among one user's facts, and no question's margin fell below 0.1).
    """
    words = sorted({*names, "the user", "user"}, key=len, reverse=True)
    pattern = r"\b(" + "|".join(re.escape(w) for w in words) + r")(['’]s)?\b"
    out = re.sub(pattern, " ", text, flags=re.IGNORECASE)
    return re.sub(r"\s+", " ", out).strip() or text


def query_terms(query: str, user_id: str) -> set[str]:
    """The query's content words for keyword evidence, without the words that only name the subject.

    "user" and the user's name occur in most of a user's memories, so matching
    them says nothing about which claim is asked for.
    """
    return terms(query) - terms(" ".join(user_names(user_id) | {"user"}))


def keyword_scores(
    query_terms: set[str],
    texts: Sequence[str],
    contexts: Sequence[Any] | None = None,
    context_weight: float = 0.0,
) -> list[float]:
    """For each text, the IDF-weighted share in [0, 1] of the query's content words it contains.

    Word weights are BM25's IDF over ``texts`` themselves (a query's
    candidates): a word most candidates share (the user's name, say) counts
    little, a rare one much. Words found in no candidate still count in the
    denominator, so a text matching one minor word scores low.

    ``contexts`` (one per text; None or a non-string for none) adds the
    query words that a text's context holds and the text does not, at
    ``context_weight`` of their weight; IDF stays over the texts alone, and
    the result stays in [0, 1] for a weight up to 1. Without contexts (or at
    weight 0) the scores are exactly those of the texts alone.
    """
    if not query_terms:
        return [0.0] * len(texts)
    doc_terms = [_text_terms(t) for t in texts]
    ctx_terms = [
        _text_terms(c) if context_weight > 0 and isinstance(c, str) else frozenset()
        for c in (contexts if contexts is not None else [None] * len(texts))
    ]
    n = len(doc_terms)
    weights = {}
    for q in query_terms:
        df = sum(1 for d in doc_terms if q in d)
        weights[q] = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
    total = sum(weights.values())
    return [
        (sum(w for q, w in weights.items() if q in d) + context_weight * sum(w for q, w in weights.items() if q in c and q not in d))
        / total
        for d, c in zip(doc_terms, ctx_terms)
    ]


@dataclass(frozen=True, slots=True)
class Candidate:
    """A memory that matched a query: its cosine and its keyword coverage in [0, 1]."""

    memory: Memory
    cosine: float
    keyword: float = 0.0
    entity: float = 0.0
    timed: float = 0.0
    asks: float = 0.0


def vector_relevance(cosine: float, policy: Policy) -> float:
    """Cosine mapped linearly from [cos_floor, cos_ceiling] onto [0, 1]."""
    span = policy.cos_ceiling - policy.cos_floor
    return min(1.0, max(0.0, (cosine - policy.cos_floor) / span))


def relevance(
    cosine: float, keyword: float, policy: Policy, entity: float = 0.0, timed: float = 0.0, asks: float = 0.0
) -> float:
    """Hybrid relevance in [0, 1], increasing in each but ``asks``: calibrated cosine plus weighted keyword and entity
    evidence, soft-capped, then time evidence (outside the cap, so it lifts a memory as much however relevant it is),
    capped at 1, less ``question_weight`` for a memory that asks (floored at 0)."""
    x = vector_relevance(cosine, policy) + policy.keyword_weight * max(0.0, min(1.0, keyword))
    x += policy.entity_weight * max(0.0, min(1.0, entity))
    t = policy.saturation
    if x > t:
        x = 1.0 if t >= 1.0 else min(1.0, t + (1.0 - t) * -math.expm1(-(x - t) / (1.0 - t)))
    x = min(1.0, x + policy.time_weight * max(0.0, min(1.0, timed)))
    return max(0.0, x - policy.question_weight * max(0.0, min(1.0, asks)))


def recency(memory: Memory, now: datetime, policy: Policy) -> float:
    """In (0, 1]: 0.5 ** (days since last use / half-life); 1 for kinds that never fade."""
    h = policy.half_life(memory.kind)
    if h is None:
        return 1.0
    age_days = max(0.0, (now - memory.last_used_at).total_seconds() / DAY_S)
    return math.pow(0.5, age_days / h)


def score(memory: Memory, rel: float, now: datetime, policy: Policy) -> tuple[float, dict[str, float]]:
    """The final score in [0, 1] and its components, for one memory at ``now``."""
    rec = recency(memory, now, policy)
    total_w = policy.w_relevance + policy.w_recency + policy.w_importance
    base = (policy.w_relevance * rel + policy.w_recency * rec + policy.w_importance * memory.importance) / total_w
    trust = 1.0 - policy.confidence_weight * (1.0 - memory.confidence)
    return base * trust, {
        "relevance": rel,
        "recency": rec,
        "importance": memory.importance,
        "confidence": memory.confidence,
    }


def rank(candidates: Iterable[Candidate], now: datetime, policy: Policy, k: int, min_relevance: float | None = None) -> list[Hit]:
    """The top ``k`` candidates by score; expired and below-threshold ones never rank."""
    floor = policy.min_relevance if min_relevance is None else min_relevance
    hits = []
    for c in candidates:
        if c.memory.is_expired(now):
            continue
        rel = relevance(c.cosine, c.keyword, policy, c.entity, c.timed, c.asks)
        if rel < floor:
            continue
        s, comps = score(c.memory, rel, now, policy)
        comps["cosine"] = c.cosine
        comps["keyword"] = c.keyword
        hits.append(Hit(c.memory, s, comps))
    hits.sort(key=lambda h: (-h.score, h.memory.id))
    return hits[: max(0, k)]


# -- the whole partition at once ------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ranked:
    """One result of ``search_partition``: a position in the partition, its score and components."""

    position: int
    score: float
    components: dict[str, float]


def search_partition(
    part: Any,
    vector: Any,
    query_terms: set[str],
    now: datetime,
    policy: Policy,
    k: int,
    min_relevance: float | None = None,
    entities: frozenset[str] = frozenset(),
    asks_time: bool = False,
) -> list[Ranked]:
    """The top ``k`` active, unexpired records of a partition (``stores.partition.Partition``), best first.

    The same ranking as ``keyword_scores`` + ``rank`` over the same candidates,
    computed in numpy over the whole partition: the candidates are the
    ``policy.candidates`` best by cosine and the as many best by the summed
    IDF (within the scope) of the query words they hold, newer first among
    equals; keyword evidence is then weighted by IDF over those candidates.
    Ties in score go to the smaller id (partition positions are in id order).
    ``entities`` (terms of ``query_names``) add entity evidence, and
    ``asks_time`` (the query asks when) time evidence. Records marked as asking (``ASKS``) lose
    ``policy.question_weight``.

    Two options, off by default: ``policy.feedback`` > 0 ranks a second time
    with the query vector moved towards the first pass's best hits (pseudo-
    relevance feedback), and ``policy.diversity`` > 0 picks the k greedily,
    each pick's score lowered by that share of its largest cosine with the
    picks before it (maximal marginal relevance), so near-duplicates give way
    to other evidence.
    """
    import numpy as np

    from kenning.stores.partition import ASKS, TIMED

    if len(part) == 0 or k <= 0:
        return []
    now_us = _us(now)
    live = part.live(now_us)  # None: every record is live (the usual case, no masking)
    n_live = len(part) if live is None else int(live.sum())
    if n_live == 0:
        return []
    floor = policy.min_relevance if min_relevance is None else min_relevance
    ents = entities if policy.entity_weight > 0 else frozenset()
    words = sorted(query_terms | ents)
    keywords = _keyword_marks(part, words, live, n_live, policy, ents)
    q = np.asarray(vector, dtype=np.float32)
    timed = part.postings(TIMED) if asks_time and policy.time_weight > 0 else None
    asking = part.postings(ASKS) if policy.question_weight > 0 else None
    found = _score_pass(part, q, keywords, live, now_us, policy, k, floor, timed, asking)
    if policy.feedback > 0 and found is not None:
        top = found[0][np.lexsort((found[0], -found[1]))[: policy.feedback_hits]]
        moved = q + policy.feedback * part.matrix[top].mean(axis=0)
        moved = moved / max(float(np.linalg.norm(moved)), 1e-12)
        found = _score_pass(part, moved.astype(np.float32), keywords, live, now_us, policy, k, floor, timed, asking) or found
    if found is None:
        return []
    pool, scores, comps = found
    if policy.diversity > 0 and pool.size > 1:
        order = _diverse(part.matrix[pool], scores, pool, k, policy.diversity)
    else:
        order = np.argsort(-scores, kind="stable")[:k]  # pool is ascending: ties go to the smaller position
    names = ("relevance", "recency", "importance", "confidence", "cosine", "keyword")
    picked = [c[order].tolist() for c in comps]
    return [
        Ranked(p, s, dict(zip(names, values)))
        for p, s, *values in zip(pool[order].tolist(), scores[order].tolist(), *picked)
    ]


def _keyword_marks(part: Any, words: list[str], live: Any, n_live: int, policy: Policy, entities: frozenset[str]) -> Any:
    """Per query word, which records hold it in their text (and context), and the records' summed IDF; None without words.

    With ``entities`` (among ``words``), also each record's entity evidence per entity (``entity_scores``).
    """
    import numpy as np

    from kenning.stores import keywords as kw_rank

    if not words:
        return None
    n_all = len(part)
    posts = [part.postings(w) for w in words]
    if live is not None:
        posts = [p[live[p]] for p in posts]
    lengths = np.fromiter(map(len, posts), dtype=np.int64, count=len(words))
    flat = np.concatenate(posts)
    sums = kw_rank.sums(posts, n_live, n_all)  # what every engine's search_keywords ranks by
    rows = np.repeat(np.arange(len(words)) * n_all, lengths)
    text_marks = np.zeros(len(words) * n_all, dtype=bool)
    text_marks[flat + rows] = True
    text_marks = text_marks.reshape(len(words), n_all)
    ctx_marks = None
    if policy.context_keyword_weight > 0 and part.ctx_terms is not None:
        cposts = [part.postings(w, context=True) for w in words]
        clen = np.fromiter(map(len, cposts), dtype=np.int64, count=len(words))
        ctx_marks = np.zeros(len(words) * n_all, dtype=bool)
        ctx_marks[np.concatenate(cposts) + np.repeat(np.arange(len(words)) * n_all, clen)] = True
        ctx_marks = ctx_marks.reshape(len(words), n_all)
    ent_marks = None
    if entities:
        from kenning.stores.partition import SUBJECT

        ent_marks = np.zeros((len(entities), n_all))
        for j, e in enumerate(sorted(entities)):
            ent_marks[j] = policy.entity_mention * text_marks[words.index(e)]
            ent_marks[j, part.postings(SUBJECT + e)] = 1.0
    return sums, text_marks, ctx_marks, ent_marks


def _score_pass(
    part: Any, q: Any, keywords: Any, live: Any, now_us: int, policy: Policy, k: int, floor: float, timed: Any = None,
    asking: Any = None,
) -> Any:
    """Candidates for query vector ``q``, scored: (positions, scores, components) above ``floor``; None if none.

    ``timed``: positions of the records whose text says when, for a query asking when (None: no time evidence);
    ``asking``: positions of the records whose text ends by asking (None: not lowered)."""
    import numpy as np

    from kenning.stores import keywords as kw_rank
    from kenning.stores.partition import similarities

    sims = similarities(part.matrix, q)  # row by row, as every store's vector search: the same cosines on every path
    n = max(policy.candidates, k)
    vec_cand = _top(sims, n, live)
    if keywords is not None:
        sums, text_marks, ctx_marks, ent_marks = keywords
        matched = kw_rank.best(sums, part.created, n)  # the engines' keyword top n
        mark = np.zeros(len(part), dtype=bool)
        mark[vec_cand] = True
        mark[matched] = True
        pool = np.flatnonzero(mark)
        dp = text_marks[:, pool]
        dpf = dp.astype(np.float64)
        dfp = dpf.sum(axis=1)
        w = np.log1p((pool.size - dfp + 0.5) / (dfp + 0.5))
        kw = w @ dpf
        if ctx_marks is not None:
            kw += policy.context_keyword_weight * (w @ (ctx_marks[:, pool] & ~dp))
        kw /= w.sum()
        ent = None if ent_marks is None else ent_marks[:, pool].mean(axis=0)
    else:
        pool = np.sort(vec_cand)
        kw = np.zeros(pool.size)
        ent = None
    cos = sims[pool].astype(np.float64)
    tim = None if timed is None else np.isin(pool, timed).astype(np.float64)
    ask = None if asking is None or asking.size == 0 else _members(pool, asking)
    rel = _relevance(cos, kw, policy, ent, tim, ask)
    keep = rel >= floor
    pool, cos, kw, rel = pool[keep], cos[keep], kw[keep], rel[keep]
    if pool.size == 0:
        return None
    half_us = np.array([(policy.half_life(kind) or np.inf) * DAY_S * 1e6 for kind in _KINDS])[part.kinds[pool]]
    rec = np.exp2(-np.maximum(0, now_us - part.last_used[pool]) / half_us)
    imp, conf = part.importance[pool], part.confidence[pool]
    total_w = policy.w_relevance + policy.w_recency + policy.w_importance
    scores = (policy.w_relevance * rel + policy.w_recency * rec + policy.w_importance * imp) / total_w
    scores = scores * (1.0 - policy.confidence_weight * (1.0 - conf))
    return pool, scores, (rel, rec, imp, conf, cos, kw)


def _diverse(vectors: Any, scores: Any, pool: Any, k: int, weight: float) -> list[int]:
    """Greedy maximal marginal relevance: indices into ``scores``, each pick the best score minus ``weight`` x its largest
    cosine with the picks so far (ties to the smaller position)."""
    import numpy as np

    order = np.lexsort((pool, -scores))
    cand = order[: max(k * 4, 40)]  # diversity only reorders the head of the ranking
    gram = vectors[cand] @ vectors[cand].T
    penalty = np.zeros(cand.size)
    taken = np.zeros(cand.size, dtype=bool)
    picks: list[int] = []
    for _ in range(min(k, cand.size)):
        adjusted = np.where(taken, -np.inf, scores[cand] - weight * penalty)
        j = int(np.argmax(adjusted))  # first maximum: cand is in rank order, so ties keep it
        picks.append(int(cand[j]))
        taken[j] = True
        penalty = np.maximum(penalty, gram[j])
    return picks


_KINDS = tuple(Kind)
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def _us(at: datetime) -> int:
    """Microseconds since the epoch, exactly (as the engines store times)."""
    return (at - _EPOCH) // timedelta(microseconds=1)


def _top(values: Any, n: int, live: Any) -> Any:
    """Positions (in no particular order) of the ``n`` largest live ``values``, ties at the cut to the lower positions:
    the set a stable descending sort's first ``n`` would hold. ``live`` None means every position is live."""
    import numpy as np

    idx = None if live is None else np.flatnonzero(live)
    v = values if idx is None else values[idx]
    if v.size <= n:
        return np.arange(v.size) if idx is None else idx
    kth = v[np.argpartition(-v, n - 1)[n - 1]]
    above = np.flatnonzero(v > kth)
    chosen = np.concatenate((above, np.flatnonzero(v == kth)[: n - above.size]))
    return chosen if idx is None else idx[chosen]


def _members(pool: Any, positions: Any) -> Any:
    """1.0 where an entry of ``pool`` is among ``positions`` (both ascending), else 0.0: ``np.isin`` for sorted input."""
    import numpy as np

    at = np.minimum(np.searchsorted(positions, pool), positions.size - 1)
    return (positions[at] == pool).astype(np.float64)


def _relevance(cos: Any, kw: Any, policy: Policy, ent: Any = None, tim: Any = None, ask: Any = None) -> Any:
    """``relevance`` over arrays."""
    import numpy as np

    span = policy.cos_ceiling - policy.cos_floor
    x = np.minimum(np.maximum((cos - policy.cos_floor) / span, 0.0), 1.0)
    x += policy.keyword_weight * np.minimum(np.maximum(kw, 0.0), 1.0)
    if ent is not None:
        x += policy.entity_weight * np.minimum(np.maximum(ent, 0.0), 1.0)
    t = policy.saturation
    if t >= 1.0:
        x = np.minimum(x, 1.0)
    else:
        over = x > t
        if over.any():
            x[over] = np.minimum(1.0, t + (1.0 - t) * -np.expm1(-(x[over] - t) / (1.0 - t)))
    if tim is not None:
        x = np.minimum(1.0, x + policy.time_weight * tim)
    if ask is not None:
        x = np.maximum(0.0, x - policy.question_weight * ask)
    return x
