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
                got.append([(h.memory.text, round(h.score, 6), {n: round(v, 6) for n, v in h.components.items()}, h.memory.last_used_at)
                            for h in hits])  # a hit says the refresh it caused on both engines
            results.append(got)
    assert results[0][0] and results[0] == results[1]
    assert all(used == T0 for *_, used in results[0][0])  # the first search's hits were refreshed by it


# A fixed corpus of personal facts: words that stem alike ("running", "runs"), words the two
# engines' own full-text dictionaries treat differently, and shared words across users.
SUBJECTS = "Alice|User|Maya|The user|She".split("|")
CLAIMS = (
    "is running a half marathon in {city} next {day}|runs every morning before work|booked a table at {food} place on {day}|"
    "books flights to {city} for the team offsite|is allergic to {food} and carries an epipen|cooks {food} for the family on {day}s|"
    "works as a nurse at the {city} general hospital|walked the dog along the canal in {city}|prefers a window seat on long flights|"
    "is learning {lang} with an app every evening|moved to {city} after the wedding|visited her parents in {city} last {day}|"
    "hates meetings before ten on {day}|plays {lang} guitar songs at open mic nights|the dentist appointment is on {day} in {city}|"
    "wants to switch teams to the payments project|keeps the spare key with the neighbour at number {n}|"
    "her manager approved the budget for {city}|birthday dinner for her brother at a {food} restaurant|"
    "signed up for swimming lessons on {day}s"
).split("|")
FILLERS = {
    "city": "York Leeds Paris Berlin Lisbon Tokyo Osaka Dublin".split(),
    "day": "Monday Tuesday Friday Saturday Sunday".split(),
    "food": "peanut sushi thai pasta vegan curry".split(),
    "lang": "Spanish French German Japanese".split(),
    "n": [str(i) for i in range(3, 40, 4)],
}
QUERIES = (
    "where does she run|when is the marathon|what is she allergic to|which city did she move to|what does she cook|"
    "who approved the budget|where is the spare key|when is the dentist|what language is she learning|"
    "what seat does she prefer|what does she hate|swimming lessons day|where does she work|booked table|"
    "flights for the offsite|walks the dog|birthday dinner restaurant|guitar songs|payments project team|parents visit"
).split("|")


def _corpus(rng: random.Random, n: int) -> list[tuple[str, str, float, datetime]]:
    out = []
    for _ in range(n):
        claim = rng.choice(CLAIMS).format(**{k: rng.choice(v) for k, v in FILLERS.items()})
        kind = rng.choice(["fact", "fact", "episode", "preference", "procedure"])
        out.append((f"{rng.choice(SUBJECTS)} {claim}", kind, round(rng.uniform(0.1, 0.9), 3), T0 - timedelta(days=rng.uniform(0, 120))))
    return out


def test_both_engines_rank_alike_with_the_bundled_embedder(pg_url, tmp_path, minilm):
    """Top-10 through the facade (plain, filtered, after refreshes), keyword and vector top-50 of the store: the same ids in the
    same order on SQLite and PostgreSQL, with the real model."""
    from kenning import Memory
    from kenning.types import Filter, Kind, new_id

    rng = random.Random(12)
    users = {user: _corpus(rng, 150) for user in ("alice", "maya", "user")}
    texts = sorted({t for rows in users.values() for t, *_ in rows})
    vectors = dict(zip(texts, minilm.embed(texts)))
    memories = {
        user: [
            Memory(id=new_id("mem"), tenant_id="acme", user_id=user, kind=kind, text=text, source="user_said", source_refs=(),
                   importance=imp, confidence=0.9,
                   created_at=at, last_used_at=at, embedding=vectors[text])
            for text, kind, imp, at in rows
        ]
        for user, rows in users.items()
    }
    results = []
    for url in (f"sqlite:///{tmp_path}/parity.db", pg_url):
        got: dict[str, list] = {"plain": [], "filtered": [], "keyword": [], "vector": [], "refreshed": []}
        with kenning.open(url, embedder=minilm) as k:
            store = k.ctx.store
            for user, mems in memories.items():
                store.insert(k.scope("acme", user).scope, mems, reason="parity", now=T0)
            for user in memories:
                s = k.scope("acme", user)
                for q in QUERIES:
                    got["plain"].append([(h.memory.id, round(h.score, 9)) for h in s.search(q, k=10, now=T0, refresh=False)])
                    got["filtered"].append([h.memory.id for h in s.search(q, k=10, now=T0, refresh=False, kinds=[Kind.FACT])])
                    got["keyword"].append([x.memory.id for x in store.search_keywords(s.scope, q, k=50, now=T0)])
                    got["vector"].append([x.memory.id for x in store.search_vector(s.scope, minilm.embed([q], "query")[0], k=50, now=T0)])
                    got["filtered"].append([x.memory.id for x in store.search_keywords(s.scope, q, k=50, now=T0, where=Filter(kinds=(Kind.FACT,)))])
                for i, q in enumerate(QUERIES * 2):  # refreshes change recency, the same way on both
                    at = T0 + timedelta(hours=i)
                    got["refreshed"].append([h.memory.id for h in s.search(q, k=10, now=at, session_id=f"s{i % 3}")])
        results.append(got)
    sqlite, postgres = results
    assert sum(len(ids) > 1 for ids in sqlite["keyword"]) >= len(sqlite["keyword"]) // 2  # keyword search finds things
    for name in sqlite:
        assert sqlite[name] == postgres[name], name
