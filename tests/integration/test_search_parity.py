"""The facade's search gives the same hits, scores and components on both engines (one search path, ``search_partition``)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest

import kenning
from kenning.embedders import HashEmbedder

pytestmark = pytest.mark.postgres

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)
WORDS = "alice york tea coffee dog greyhound leeds works lives likes hates running piano paris friday dinner".split()


def test_same_hits_and_scores_on_sqlite_and_postgres(pg_url, tmp_path):
    rng = random.Random(3)
    rows = []
    for i in range(120):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 6)))
        ctx = " ".join(rng.choice(WORDS) for _ in range(3)) if i % 3 == 0 else None
        rows.append((text, ctx, rng.choice(["fact", "episode", "preference"]), rng.random(), T0 - timedelta(days=rng.uniform(0, 30))))
    queries = ["greyhound"] + [" ".join(rng.choice(WORDS) for _ in range(3)) for _ in range(14)]
    results = []
    for url in (f"sqlite:///{tmp_path}/p.db", pg_url):
        with kenning.open(url, embedder=HashEmbedder()) as k:
            alice = k.scope("acme", "alice")
            for t, c, kind, imp, at in rows:
                alice.remember(t, context=c, kind=kind, importance=imp, now=at)
            got = []
            for query in queries:
                hits = alice.search(query, k=8, now=T0, session_id="s")  # refreshes too: the second round sees them
                got.append([(h.memory.text, round(h.score, 6), {n: round(v, 6) for n, v in h.components.items()}) for h in hits])
            results.append(got)
    assert results[0][0] and results[0] == results[1]
