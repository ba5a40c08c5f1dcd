"""Search latency of the PostgreSQL engine at 100k and 1M memories over 1,000 users (same harness as bench_search.py).

    python benchmarks/bench_search_pg.py                          # 100k and 1M on a local server it starts
    python benchmarks/bench_search_pg.py --sizes 100000 --hnsw    # adds the HNSW-with-filter comparison
    python benchmarks/bench_search_pg.py --url postgresql://…     # an existing server (creates bench_* databases)

Unless ``--url`` is given it starts a local pgvector PostgreSQL (``kenning.stores.postgres.dev``)
in a temporary directory with ``shared_buffers`` sized for the largest corpus, durability left on.
For each size it bulk-loads a fresh database through ``Store.insert`` (one ``apply``, one
transaction, per user), runs ``VACUUM ANALYZE``, then times per query, p50 and p95 in ms:

- ``baseline``: a brute-force numpy scan of the user's vectors held in memory (top-50);
- ``store.search_vector`` (exact top-50 within the scope), for 100 active users and spread over
  all users, and its recall@50 against the numpy baseline (exact search: it must be 1.0);
- ``store.search_keywords`` (Kenning's words over the cached partition, top-50) and ``store.touch`` (5 ids);
- ``ScopedMemory.search`` (k=5) with a fake embedder returning the precomputed query vector
  (excluding embedding), with and without the ``last_used_at`` refresh;
- ``ScopedMemory.search`` with the bundled MiniLM embedder (including embedding).

``--hnsw`` also builds a pgvector HNSW index and measures, against the exact result, the recall
and latency of an index scan with the scope in the WHERE clause, plain and with
``hnsw.iterative_scan = relaxed_order``: the alternative the engine does not use.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import psycopg

sys.path.insert(0, str(Path(__file__).parent))

from data import NOW, Corpus, FakeEmbedder, Query  # noqa: E402
from timing import latencies, summary  # noqa: E402

import kenning  # noqa: E402
from kenning.embedders.minilm import MiniLMEmbedder  # noqa: E402
from kenning.lifecycle.retrieve import impersonal, user_names  # noqa: E402
from kenning.stores.postgres import PostgresStore, dev  # noqa: E402
from kenning.stores.postgres.adapt import Vector, register_vector  # noqa: E402

CANDIDATES = 50
ACTIVE_USERS = 100


def admin(url: str, sql: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql)


def build(server_url, db_url: str, name: str, corpus: Corpus, per_tx: int = 0) -> dict[str, float]:
    """Bulk-load the corpus into a fresh database; the rate excludes data generation.

    ``per_tx = 0``: one ``insert`` (one transaction) per user, each user's rows
    land together in the heap. ``per_tx = n``: rounds of ``n`` memories per
    user, users interleaved, as when many users write at once: a user's rows
    end up spread over many heap pages, which is what search pays for.
    """
    admin(server_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin(server_url, f'CREATE DATABASE "{name}"')
    store = PostgresStore(db_url, dim=corpus.dim, embedder_id=MiniLMEmbedder.model_id)
    spent, transactions = 0.0, 0
    try:
        if per_tx <= 0:
            batches = corpus.batches()
        else:
            every = dict(corpus.batches())
            batches = (
                (scope, mems[start : start + per_tx])
                for start in range(0, corpus.per_user, per_tx)
                for scope, mems in every.items()
            )
        for scope, mems in batches:
            t0 = time.perf_counter()
            store.insert(scope, mems, reason="bench", now=NOW)
            spent += time.perf_counter() - t0
            transactions += 1
    finally:
        store.close()
    t0 = time.perf_counter()
    admin(db_url, "VACUUM ANALYZE")
    vacuum = time.perf_counter() - t0
    with psycopg.connect(db_url) as conn:
        size = conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]
    return {
        "rows": corpus.total, "transactions": transactions, "seconds": spent, "rows_per_s": corpus.total / spent,
        "mb": size / 1e6, "vacuum_s": vacuum,
    }


class Cost:
    """Times calls: wall clock, and CPU = this thread's CPU plus the PostgreSQL backend's.

    The backend is the one connection of a one-connection store; its CPU time
    comes from /proc/<pid>/schedstat (nanoseconds), so it needs the server on
    this machine. On a loaded machine wall time counts queueing for a core;
    client + server CPU is what a query costs on idle cores (loopback round
    trips, a few tens of microseconds each, aside).
    """

    def __init__(self, store: PostgresStore | None = None) -> None:
        self.pid = None
        if store is not None:
            self.pid = store._rows("pid", "SELECT pg_backend_pid()", ())[0][0]  # noqa: SLF001 - benchmark only
            if not Path(f"/proc/{self.pid}/schedstat").exists():
                self.pid = None

    def _server_ns(self) -> int:
        if self.pid is None:
            return 0
        return int(Path(f"/proc/{self.pid}/schedstat").read_text().split()[0])

    def __call__(self, call, items) -> dict[str, dict[str, float]]:
        wall, cpu = [], []
        gc.collect()
        for item in items:
            s0, c0, t0 = self._server_ns(), time.thread_time(), time.perf_counter()
            call(item)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.thread_time() - c0 + (self._server_ns() - s0) / 1e9)
        return {"wall": summary(np.array(wall)), "cpu": summary(np.array(cpu))}


def one_connection(db_url: str, corpus: Corpus) -> PostgresStore:
    return PostgresStore(db_url, dim=corpus.dim, embedder_id=MiniLMEmbedder.model_id, min_connections=1, max_connections=1)


def measure(db_url: str, corpus: Corpus, n: int, embed: bool) -> tuple[dict[str, dict], dict[str, float]]:
    res: dict[str, dict] = {}
    warm_q = corpus.queries(n, seed=1, users=ACTIVE_USERS)
    spread_q = corpus.queries(n, seed=2)
    emb_q = corpus.queries(n, seed=3, users=ACTIVE_USERS)
    # The facade embeds queries with the user's names stripped; key the fake vectors the same way.
    fake = FakeEmbedder(
        [Query(q.scope, impersonal(q.text, user_names(q.scope.user_id)), q.vector) for q in warm_q + spread_q + emb_q],
        MiniLMEmbedder.model_id,
        corpus.dim,
    )
    mats = {q.scope: corpus.vectors(int(q.scope.user_id[4:])) for q in warm_q + spread_q}

    def brute(q):
        sims = mats[q.scope] @ q.vector
        top = np.argpartition(-sims, CANDIDATES)[:CANDIDATES] if sims.size > CANDIDATES else np.arange(sims.size)
        return top[np.argsort(-sims[top])]

    res["baseline numpy scan (warm)"] = Cost()(brute, warm_q)

    store = one_connection(db_url, corpus)
    try:
        cost = Cost(store)
        sv = lambda q: store.search_vector(q.scope, q.vector, k=CANDIDATES, now=NOW)  # noqa: E731
        cost(sv, warm_q)  # the active users' pages into shared buffers
        res["store.search_vector (100 active users)"] = cost(sv, warm_q)
        res["store.search_vector (all users)"] = cost(sv, spread_q)
        recall = _recall(store, spread_q[:100], brute)
        res["store.search_keywords"] = cost(lambda q: store.search_keywords(q.scope, q.text, k=CANDIDATES, now=NOW), warm_q)
        ids = {q.scope: [f"mem_b{q.scope.user_id[4:]}x{i:07d}" for i in range(min(5, corpus.per_user))] for q in warm_q}
        res["store.touch (5 ids)"] = cost(lambda q: store.touch(q.scope, ids[q.scope], NOW), warm_q)
    finally:
        store.close()
    with kenning.open(db_url, embedder=fake, store=one_connection(db_url, corpus)) as k:
        cost = Cost(k.ctx.store)
        cost(lambda iq: _search(k, iq, "prewarm", refresh=False), enumerate(warm_q))
        res["facade search, no refresh"] = cost(lambda iq: _search(k, iq, "a", refresh=False), enumerate(warm_q))
        res["facade search"] = cost(lambda iq: _search(k, iq, "b"), enumerate(warm_q))
    if embed:
        minilm = MiniLMEmbedder(threads=1)
        minilm.embed(["load the model"], "query")
        res["MiniLM query embedding alone"] = Cost()(lambda q: minilm.embed([q.text + " alone"], "query"), emb_q)
        with kenning.open(db_url, embedder=minilm, store=one_connection(db_url, corpus)) as k:
            res["facade search + MiniLM embedding"] = Cost(k.ctx.store)(lambda iq: _search(k, iq, "c"), enumerate(emb_q))
    return res, {"recall@50 vs numpy exact": recall}


def _recall(store: PostgresStore, queries, brute) -> float:
    hits = total = 0
    for q in queries:
        want = {f"mem_b{q.scope.user_id[4:]}x{i:07d}" for i in brute(q)}
        got = {s.memory.id for s in store.search_vector(q.scope, q.vector, k=CANDIDATES, now=NOW)}
        hits, total = hits + len(want & got), total + len(want)
    return hits / total


def hnsw(db_url: str, corpus: Corpus, n: int) -> dict[str, dict[str, float]]:
    """Recall and latency of pgvector's HNSW index with the scope as a filter, against exact search."""
    out: dict[str, dict[str, float]] = {}
    queries = corpus.queries(n, seed=4)
    store = PostgresStore(db_url, dim=corpus.dim, embedder_id=MiniLMEmbedder.model_id)
    exact = {i: [s.memory.id for s in store.search_vector(q.scope, q.vector, k=CANDIDATES, now=NOW)] for i, q in enumerate(queries)}
    out["exact (engine) p50/p95"] = summary(latencies(lambda q: store.search_vector(q.scope, q.vector, k=CANDIDATES, now=NOW), queries))
    store.close()
    with psycopg.connect(db_url, autocommit=True) as conn:
        t0 = time.perf_counter()
        conn.execute("SET maintenance_work_mem = '2GB'")
        conn.execute(
            "CREATE INDEX IF NOT EXISTS bench_hnsw ON kenning_memories USING hnsw ((embedding::vector(%d)) vector_ip_ops)" % corpus.dim
        )
        out["hnsw build"] = {"seconds": time.perf_counter() - t0}
        oid = psycopg.types.TypeInfo.fetch(conn, "vector").oid
        register_vector(conn, oid)
        sql = (
            "SELECT id FROM kenning_memories WHERE tenant_id = %s AND user_id = %s AND status = 'active' "
            f"ORDER BY embedding::vector({corpus.dim}) <#> %s LIMIT {CANDIDATES}"
        )
        conn.execute("SET hnsw.ef_search = 100")
        modes = {
            "planner's choice (it picks the scope btree)": [],
            "forced HNSW, iterative_scan=off": ["SET enable_sort = off", "SET hnsw.iterative_scan = off"],
            "forced HNSW, iterative_scan=relaxed_order": ["SET enable_sort = off", "SET hnsw.iterative_scan = relaxed_order"],
        }
        for label, settings in modes.items():
            conn.execute("RESET enable_sort")
            for stmt in settings:  # enable_sort=off leaves the index's ordered scan as the only cheap plan
                conn.execute(stmt)
            got: dict[int, list[str]] = {}

            def run(iq, got=got):
                i, q = iq
                # prepare=False: a prepared statement would keep the first mode's plan for all of them
                rows = conn.execute(sql, (q.scope.tenant_id, q.scope.user_id, Vector(q.vector)), prepare=False)
                got[i] = [r[0] for r in rows]

            lat = summary(latencies(run, enumerate(queries)))
            rec = float(np.mean([len(set(got[i]) & set(exact[i])) / max(len(exact[i]), 1) for i in exact]))
            out[f"hnsw index, {label}"] = {**lat, "recall@50": rec}
        conn.execute("DROP INDEX bench_hnsw")
    return out


def _search(k: kenning.Kenning, iq, tag: str, refresh: bool = True):
    i, q = iq  # a new session per query, so the refresh cap never spares the write: the worst case
    return k.scope(q.scope.tenant_id, q.scope.user_id).search(q.text, k=5, now=NOW, session_id=f"{tag}{i}", refresh=refresh)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="100000,1000000", help="total memories, comma-separated (default 100000,1000000)")
    ap.add_argument("--users", type=int, default=1000)
    ap.add_argument("--queries", type=int, default=400, help="queries per measurement")
    ap.add_argument("--repeat", type=int, default=1, help="measure N times, report each figure's run with the lowest p50")
    ap.add_argument("--no-embed", action="store_true", help="skip the figures that run the bundled model")
    ap.add_argument("--hnsw", action="store_true", help="also measure an HNSW index with a scope filter (recall, latency)")
    ap.add_argument("--per-tx", type=int, default=0, help="memories per user per transaction, users interleaved (default: all)")
    ap.add_argument("--url", help="an existing server's postgresql:// URL (a role that may create databases)")
    ap.add_argument("--shared-buffers", default="4GB", help="for the server this script starts (default 4GB)")
    ap.add_argument("--reuse", action="store_true", help="reuse databases already built (needs --url or --dir)")
    ap.add_argument("--dir", type=Path, help="where the started server keeps its data (default: a temporary directory)")
    ap.add_argument("--json", type=Path, help="also write all figures to this file")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]

    tmp = None
    if args.url:
        server_url = args.url
        db_url = lambda name: psycopg.conninfo.make_conninfo(args.url, dbname=name)  # noqa: E731
    else:
        tmp = None if args.dir else tempfile.TemporaryDirectory(prefix="kenning-bench-pg-")
        root = args.dir or Path(tmp.name)  # type: ignore[union-attr]
        root.chmod(0o755)
        server = dev.start(root, settings={"shared_buffers": args.shared_buffers, "max_wal_size": "4GB"})
        server_url, db_url = server.url(), server.url
        print(f"server: {server.url()}", flush=True)
    report: dict[int, dict] = {}
    try:
        for total in sizes:
            corpus = Corpus(args.users, max(1, total // args.users))
            name = f"bench_{args.users}u_{corpus.per_user}pu" + (f"_i{args.per_tx}" if args.per_tx else "")
            if not args.reuse:
                print(f"building {corpus.total:,} memories ({args.users} users x {corpus.per_user}, per_tx={args.per_tx or 'all'}) ...", flush=True)
                ingest = build(server_url, db_url(name), name, corpus, args.per_tx)
                print(
                    f"  ingest {ingest['rows_per_s']:,.0f} rows/s ({ingest['seconds']:.1f} s, {ingest['mb']:,.0f} MB, "
                    f"vacuum analyze {ingest['vacuum_s']:.1f} s)",
                    flush=True,
                )
            else:
                ingest = {}
            runs = [measure(db_url(name), corpus, args.queries, not args.no_embed) for _ in range(args.repeat)]
            quality = runs[0][1]
            # On a shared machine other work inflates some runs: keep each figure's quietest run.
            figures = {key: min((r[0][key] for r in runs), key=lambda f: f["wall"]["p50"]) for key in runs[0][0]}
            report[corpus.total] = {"ingest": ingest, "latency_ms": figures, "quality": quality, "runs": args.repeat}
            _print(corpus.total, figures, quality)
            if args.hnsw:
                alt = hnsw(db_url(name), corpus, min(args.queries, 200))
                report[corpus.total]["hnsw"] = alt
                print("  HNSW alternative:")
                for k, v in alt.items():
                    print(f"    {k:44s} " + "  ".join(f"{a}={b:.3f}" for a, b in v.items() if a != "n"))
    finally:
        if tmp is not None or (args.dir and not args.url):
            dev.stop(root)
        if tmp is not None:
            tmp.cleanup()
    if len(report) > 1:
        lo, hi = min(report), max(report)
        print(f"\ngrowth {lo:,} -> {hi:,} (p50 at {hi:,} / p50 at {lo:,})")
        for name, f in report[hi]["latency_ms"].items():
            old = report[lo]["latency_ms"][name]
            print(f"  {name:42s} CPU {f['cpu']['p50'] / old['cpu']['p50']:6.2f}x   wall {f['wall']['p50'] / old['wall']['p50']:6.2f}x")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


def _print(total: int, figures: dict[str, dict], quality: dict[str, float]) -> None:
    print(f"\n{total:,} memories                          CPU p50 / p95 ms    wall p50 / p95 ms")
    for name, f in figures.items():
        c, w = f["cpu"], f["wall"]
        print(f"  {name:42s} {c['p50']:8.3f} / {c['p95']:7.3f}   {w['p50']:8.3f} / {w['p95']:7.3f}")
    for name, v in quality.items():
        print(f"  {name}: {v:.4f}")


if __name__ == "__main__":
    raise SystemExit(main())
