"""Background work proportional to change: what a worker pass costs when little or nothing changed.

    python benchmarks/bench_worker.py                 # SQLite; about five minutes
    python benchmarks/bench_worker.py --engines sqlite,postgres

Three measurements per engine, each in its own fresh database, all in one run:

1. **idle**: ``--idle-scopes`` (10,000) users of 8 memories each, every one already maintained
   (the state a pass leaves: marked done, with its next due time). Timed: ``Kenning.maintain()``
   and one ``kenning worker`` pass (``maintenance_pass``, with leases); target <= 1 s. Beside it,
   what the same pass cost before, when it visited every scope: ``maintain_scope`` on
   ``--sample`` scopes, times the number of scopes.
2. **10 changed of 1,000**: 1,000 users of 40 memories, all maintained; then 10 get a new turn
   (``add(wait=False)``) and the pass is timed. "Alone" is the same work without the pass: 10
   other users get the same kind of turn and ``maintain_scope`` runs on each directly. The two are
   measured in alternating order (pass first, then alone first) and each ratio printed; target
   pass / alone <= 2.
3. **one large user**: one user of ``--large`` (5,000) memories, maintained; a pass with nothing
   changed, then a pass after one new turn, against ``maintain_scope`` on it.

Memories are written straight through ``Store.insert`` (one transaction per user) with the
hashing embedder, so building 50,000 of them takes seconds; the turns added in (2) and (3) go
through the real capture, extraction (spaCy) and reconciliation path. Every memory has a text
of its own, so no parse or embedding cache favours one side. Times are wall-clock seconds on a
shared machine: run it a few times and read the range.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import databases  # noqa: E402
from data import vocabulary  # noqa: E402

import kenning  # noqa: E402
from kenning.embedders import HashEmbedder  # noqa: E402
from kenning.lifecycle import forget  # noqa: E402
from kenning.types import Kind, Memory, Scope, Source, Status, new_id  # noqa: E402
from kenning.worker import maintain_scope  # noqa: E402

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
WORDS = (
    "garden piano coffee running python tokyo sushi hiking novel guitar cycling chess baking tennis jazz opera "
    "pottery climbing sailing painting yoga knitting camping birding skiing surfing rowing fencing archery"
).split()
KINDS = (Kind.FACT, Kind.PREFERENCE, Kind.EPISODE)


VOCABULARY = vocabulary(20_000)


def corpus(scope: Scope, n: int, emb: HashEmbedder, rng: random.Random) -> list[Memory]:
    # four words of a 20,000-word vocabulary each: texts of one user share a word now and then, as real ones
    # do, but seldom enough (and with vectors far enough apart) that nothing is left to consolidate
    texts = [" ".join(rng.choice(VOCABULARY) for _ in range(4)) for _ in range(n)]
    vecs = emb.embed(texts, "document")
    out = []
    for i, (t, v) in enumerate(zip(texts, vecs)):
        at = NOW - timedelta(days=rng.uniform(0, 5))  # nothing due yet: decay has a 30-day grace at least
        out.append(
            Memory(
                id=new_id("mem"), tenant_id=scope.tenant_id, user_id=scope.user_id, kind=KINDS[i % 3], text=t, embedding=v,
                source=Source.USER_SAID, source_refs=(), created_at=at, last_used_at=at, importance=rng.uniform(0.3, 0.9),
                confidence=0.9, status=Status.ACTIVE,
            )
        )
    return out


def build(url: str, users: int, per_user: int, prefix: str) -> list[Scope]:
    """``users`` scopes of ``per_user`` memories, each left as a completed pass leaves it (done, with its due time)."""
    emb, rng = HashEmbedder(), random.Random(prefix)
    scopes = [Scope("bench", f"{prefix}{u:05d}") for u in range(users)]
    with kenning.open(url, embedder=emb) as k:
        store = k.ctx.store
        for s in scopes:
            mems = corpus(s, per_user, emb, rng)
            store.insert(s, mems, reason="bench", now=NOW)
        gens = dict(store.pending_scopes(NOW))
        for s in scopes:
            store.finish_scope(s, gens[s], 0, forget.next_due(store.list(s), k.ctx.policy))
    return scopes


def turn(k: kenning.Kenning, scope: Scope, rng: random.Random) -> None:
    k.scope(scope.tenant_id, scope.user_id).add(
        f"I live in {rng.choice(['Leeds', 'York', 'Bath', 'Hull'])} now and I have taken up {rng.choice(WORDS)} "
        f"with a club called {rng.choice(WORDS).title()}{rng.randrange(10**6)}.",
        wait=False, now=NOW,
    )


def timed(fn) -> tuple[float, object]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def idle(url: str, scopes: int, sample: int) -> None:
    t0 = time.perf_counter()
    built = build(url, scopes, 8, "idle")
    print(f"  built {scopes:,} maintained users of 8 memories in {time.perf_counter() - t0:.0f} s", flush=True)
    with kenning.open(url, embedder=HashEmbedder()) as k:
        for label, fn in (
            ("Kenning.maintain()", lambda: k.maintain(now=NOW)),
            ("worker pass (leases)", lambda: k.maintenance_pass(holder="bench", now=NOW)),
            ("Kenning.maintain() again", lambda: k.maintain(now=NOW)),
        ):
            spent, reports = timed(fn)
            print(f"  {label}: {spent:.3f} s, {len(reports)} users visited", flush=True)
        picked = random.Random(1).sample(built, sample)
        spent, _ = timed(lambda: [maintain_scope(k.ctx, s, now=NOW, purge=False) for s in picked])
        per = spent / sample
        print(f"  a pass visiting every user (as before): maintain_scope {per * 1000:.1f} ms per user x {scopes:,} = {per * scopes:.0f} s", flush=True)


def ten_of_thousand(url: str) -> None:
    t0 = time.perf_counter()
    scopes = build(url, 1000, 40, "few")
    print(f"  built 1,000 maintained users of 40 memories in {time.perf_counter() - t0:.0f} s", flush=True)
    rng = random.Random(2)
    pool = rng.sample(scopes, 40)
    with kenning.open(url, embedder=HashEmbedder()) as k:
        k.scope("warm", "up").add("I live in Leeds.", wait=True, now=NOW)  # load the parser once, outside any timing
        k.maintain(now=NOW)
        def clear(done):  # maintain_scope alone leaves a user marked: take it out of later passes
            marked = dict(k.ctx.store.pending_scopes(NOW))
            for s in done:
                k.ctx.store.finish_scope(s, marked[s], 0, None)

        def the_pass(changed):
            spent, reports = timed(lambda: k.maintain(now=NOW))
            assert sorted(r["scope"] for r in reports) == sorted(str(s) for s in changed), "the pass visited other users"
            return spent

        def alone(changed):
            spent = timed(lambda: [maintain_scope(k.ctx, s, now=NOW, purge=False) for s in changed])[0]
            clear(changed)
            return spent

        for order, a, b in (("pass first", pool[0:10], pool[10:20]), ("alone first", pool[20:30], pool[30:40])):
            steps = [(a, the_pass), (b, alone)] if order == "pass first" else [(b, alone), (a, the_pass)]
            spent = {}
            for scopes, measure in steps:  # change 10 users, then time the measure on them
                for s in scopes:
                    turn(k, s, rng)
                spent[measure] = measure(scopes)
            p, al = spent[the_pass], spent[alone]
            print(f"  {order}: pass over 1,000 users with 10 changed {p:.3f} s; those 10 alone {al:.3f} s; ratio {p / al:.2f}", flush=True)


def large(url: str, n: int) -> None:
    t0 = time.perf_counter()
    [scope] = build(url, 1, n, "large")
    print(f"  built one maintained user of {n:,} memories in {time.perf_counter() - t0:.0f} s", flush=True)
    with kenning.open(url, embedder=HashEmbedder()) as k:
        spent, reports = timed(lambda: k.maintain(now=NOW))
        print(f"  pass, nothing changed: {spent:.3f} s, {len(reports)} users visited", flush=True)
        spent, _ = timed(lambda: maintain_scope(k.ctx, scope, now=NOW, purge=False))
        print(f"  re-planned whole (maintain_scope; every pass did this before): {spent:.2f} s", flush=True)
        turn(k, scope, random.Random(3))
        spent, reports = timed(lambda: k.maintain(now=NOW))
        print(f"  pass after one new turn: {spent:.2f} s ({reports[0]['reconciled']} claim(s) reconciled)", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engines", default="sqlite")
    ap.add_argument("--idle-scopes", type=int, default=10_000)
    ap.add_argument("--sample", type=int, default=100, help="users timed with maintain_scope for the 'before' figure")
    ap.add_argument("--large", type=int, default=5_000)
    ap.add_argument("--url", default=None, help="an existing PostgreSQL server's URL (bench_worker_* databases are created)")
    args = ap.parse_args(argv)
    with databases.fresh("kenning-bench-worker", args.url) as database:
        for engine in args.engines.split(","):
            print(f"{engine}: a pass over {args.idle_scopes:,} idle users", flush=True)
            idle(database(engine, "bench_worker_idle"), args.idle_scopes, args.sample)
            print(f"{engine}: a pass over 1,000 users of which 10 changed", flush=True)
            ten_of_thousand(database(engine, "bench_worker_few"))
            print(f"{engine}: one user of {args.large:,} memories", flush=True)
            large(database(engine, "bench_worker_large"), args.large)
    return 0


if __name__ == "__main__":
    sys.exit(main())
