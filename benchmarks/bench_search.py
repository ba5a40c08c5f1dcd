"""Search latency of the SQLite engine at 10k, 100k (and, with --million, 1M) memories over 1,000 users.

    python benchmarks/bench_search.py               # 10k and 100k, a few minutes
    python benchmarks/bench_search.py --million     # adds 1M (about 1.5 GB of vectors; longer)

For each size it bulk-loads a fresh database through ``Store.insert`` (one
``apply`` per user), then times, per query, p50 and p95 in milliseconds:

- ``baseline``: a brute-force numpy scan of the same user's vectors held in
  memory (top-50), the floor any engine is compared with;
- ``store.search_vector`` (top-50, what the facade asks for), cold (the
  user's partition is not in the engine's cache) and warm (it is);
- ``store.search_keywords`` (FTS5, top-50) and ``store.touch`` (5 ids);
- ``ScopedMemory.search`` (k=5) with a fake embedder returning the query's
  precomputed vector (excluding embedding), cold and warm, with and without
  the ``last_used_at`` refresh;
- ``ScopedMemory.search`` with the bundled MiniLM embedder on one thread
  (including embedding; every query text is new, so no cache answers it).

Warm runs draw queries from 100 active users whose partitions were loaded
once; cold runs give the engine a cache of one partition and spread queries
over all users. Ratios are against the baseline of the same run, and growth
is each figure at the largest size divided by the same figure at the
smallest.
"""

from __future__ import annotations

import os

# One thread for numpy's BLAS as for the model: a matrix-vector product split across
# threads only queues for the other core on a shared machine.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from data import NOW, Corpus, FakeEmbedder
from timing import latencies, summary, wall_and_cpu

import kenning
from kenning.embedders.minilm import MiniLMEmbedder
from kenning.stores.sqlite import SQLiteStore

CANDIDATES = 50
ACTIVE_USERS = 100


def build(path: Path, corpus: Corpus) -> dict[str, float]:
    """Bulk-load the corpus, one ``insert`` (one transaction) per user; the rate excludes data generation."""
    store = SQLiteStore(path, dim=corpus.dim, embedder_id=MiniLMEmbedder.model_id)
    spent = 0.0
    try:
        for scope, mems in corpus.batches():
            t0 = time.perf_counter()
            store.insert(scope, mems, reason="bench", now=NOW)
            spent += time.perf_counter() - t0
    finally:
        store.close()
    return {"rows": corpus.total, "seconds": spent, "rows_per_s": corpus.total / spent, "mb": path.stat().st_size / 1e6}


def measure(path: Path, corpus: Corpus, n: int, embed: bool) -> dict[str, dict[str, float]]:
    res: dict[str, dict[str, float]] = {}
    warm_q = corpus.queries(n, seed=1, users=ACTIVE_USERS)
    cold_q = corpus.queries(n, seed=2)
    emb_q = corpus.queries(n, seed=3, users=ACTIVE_USERS)
    fake = FakeEmbedder(warm_q + cold_q + emb_q, MiniLMEmbedder.model_id, corpus.dim)

    # Baseline: the same user's vectors already in memory, exact top-50 by numpy.
    mats = {q.scope: corpus.vectors(int(q.scope.user_id[4:])) for q in warm_q}

    def brute(q):
        sims = mats[q.scope] @ q.vector
        top = np.argpartition(-sims, CANDIDATES)[:CANDIDATES] if sims.size > CANDIDATES else np.arange(sims.size)
        return top[np.argsort(-sims[top])]

    res["baseline numpy scan (warm)"] = timed(brute, warm_q)

    store = SQLiteStore(path, dim=corpus.dim, embedder_id=MiniLMEmbedder.model_id)
    cold_store = SQLiteStore(path, dim=corpus.dim, embedder_id=MiniLMEmbedder.model_id, cache_bytes=1)
    try:
        sv = lambda s: lambda q: s.search_vector(q.scope, q.vector, k=CANDIDATES, now=NOW)
        res["store.search_vector cold"] = timed(sv(cold_store), cold_q)
        latencies(sv(store), warm_q)  # load the active users' partitions
        res["store.search_vector warm"] = timed(sv(store), warm_q)
        res["store.search_keywords"] = timed(lambda q: store.search_keywords(q.scope, q.text, k=CANDIDATES, now=NOW), warm_q)
        ids = {q.scope: [f"mem_b{q.scope.user_id[4:]}x{i:07d}" for i in range(min(5, corpus.per_user))] for q in warm_q}
        res["store.touch (5 ids)"] = timed(lambda q: store.touch(q.scope, ids[q.scope], NOW), warm_q)
    finally:
        store.close()

    with kenning.open(f"sqlite:///{path}", embedder=fake, store=cold_store) as k:
        res["facade search cold"] = timed(lambda iq: _search(k, iq, "cold"), enumerate(cold_q))
    with kenning.open(f"sqlite:///{path}", embedder=fake) as k:
        latencies(lambda iq: _search(k, iq, "prewarm", refresh=False), enumerate(warm_q))
        res["facade search warm, no refresh"] = timed(lambda iq: _search(k, iq, "a", refresh=False), enumerate(warm_q))
        res["facade search warm"] = timed(lambda iq: _search(k, iq, "b"), enumerate(warm_q))
    if embed:
        minilm = MiniLMEmbedder(threads=1)
        minilm.embed(["load the model"], "query")
        res["MiniLM query embedding alone"] = timed(lambda q: minilm.embed([q.text + " alone"], "query"), emb_q)
        with kenning.open(f"sqlite:///{path}", embedder=minilm) as k:
            latencies(lambda iq: _search(k, iq, "prewarm", refresh=False), enumerate(warm_q))
            res["facade search warm + MiniLM embedding"] = timed(lambda iq: _search(k, iq, "c"), enumerate(emb_q))
    return res


def timed(call, items) -> dict[str, float]:
    """Wall-clock p50/p95/mean (ms) of ``call`` over ``items``, plus CPU-time p50/p95 as cpu_p50/cpu_p95."""
    wall, cpu = wall_and_cpu(call, items)
    c = summary(cpu)
    return {**summary(wall), "cpu_p50": c["p50"], "cpu_p95": c["p95"]}


def _search(k: kenning.Kenning, iq, tag: str, refresh: bool = True):
    # A new session per query, so the refresh cap never spares the write: the worst case.
    i, q = iq
    return k.scope(q.scope.tenant_id, q.scope.user_id).search(q.text, k=5, now=NOW, session_id=f"{tag}{i}", refresh=refresh)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="10000,100000", help="total memories, comma-separated (default 10000,100000)")
    ap.add_argument("--million", action="store_true", help="also run 1,000,000 (builds a ~2 GB database)")
    ap.add_argument("--users", type=int, default=1000)
    ap.add_argument("--queries", type=int, default=300, help="queries per measurement")
    ap.add_argument("--no-embed", action="store_true", help="skip the figures that run the bundled model")
    ap.add_argument("--dir", type=Path, help="where databases go (default: a temporary directory)")
    ap.add_argument("--reuse", action="store_true", help="reuse a database already built in --dir")
    ap.add_argument("--json", type=Path, help="also write all figures to this file")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")] + ([1_000_000] if args.million else [])

    tmp = None if args.dir else tempfile.TemporaryDirectory(prefix="kenning-bench-")
    root = args.dir or Path(tmp.name)  # type: ignore[union-attr]
    root.mkdir(parents=True, exist_ok=True)
    report: dict[int, dict] = {}
    for total in sizes:
        corpus = Corpus(args.users, max(1, total // args.users))
        path = root / f"bench-{args.users}u-{corpus.per_user}pu.db"
        if not (args.reuse and path.exists()):
            for p in path.parent.glob(path.name + "*"):
                p.unlink()
            print(f"building {corpus.total:,} memories ({args.users} users x {corpus.per_user}) ...", flush=True)
            ingest = build(path, corpus)
            print(f"  ingest {ingest['rows_per_s']:,.0f} rows/s ({ingest['seconds']:.1f} s, {ingest['mb']:,.0f} MB)", flush=True)
        else:
            ingest = {}
        load = os.getloadavg()[0]
        figures = measure(path, corpus, args.queries, not args.no_embed)
        report[corpus.total] = {"ingest": ingest, "latency_ms": figures, "load_before": load, "load_after": os.getloadavg()[0]}
        _print(corpus.total, figures)
        print(f"  (1-minute load average {load:.1f} before, {os.getloadavg()[0]:.1f} after, on {os.cpu_count()} cores)")
    if len(report) > 1:
        totals = sorted(report)
        lo, hi = totals[0], totals[-1]
        for key, label in (("p50", "wall-clock"), ("cpu_p50", "CPU-time")):
            print(f"\n{label} p50 ms by size, and growth {lo:,} -> {hi:,}")
            print("  " + " " * 42 + "".join(f"{t:>11,}" for t in totals) + "     growth")
            for name in report[hi]["latency_ms"]:
                p50s = [report[t]["latency_ms"][name][key] for t in totals]
                print(f"  {name:42s}" + "".join(f"{v:11.3f}" for v in p50s) + f"  {p50s[-1] / p50s[0]:8.2f}x")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    if tmp is not None:
        tmp.cleanup()
    return 0


def _print(total: int, figures: dict[str, dict[str, float]]) -> None:
    base = figures["baseline numpy scan (warm)"]
    print(f"\n{total:,} memories{' ' * 27}wall ms: p50     p95   CPU ms: p50     p95   p50 / baseline (wall, CPU)")
    for name, f in figures.items():
        print(
            f"  {name:42s} {f['p50']:8.3f} {f['p95']:7.3f}       {f['cpu_p50']:8.3f} {f['cpu_p95']:7.3f}"
            f"   {f['p50'] / base['p50']:8.1f}x {f['cpu_p50'] / base['cpu_p50']:8.1f}x"
        )


if __name__ == "__main__":
    raise SystemExit(main())
