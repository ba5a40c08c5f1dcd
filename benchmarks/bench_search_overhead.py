"""The facade's search against the bare numpy scan of the same vectors, interleaved query by query.

    python benchmarks/bench_search_overhead.py                       # one user with 1,000 and one with 10,000 memories
    python benchmarks/bench_search_overhead.py --per-user 1000 --users 100,1000 --dir D   # growth at a fixed per-user size
    python benchmarks/bench_search_overhead.py --per-user 1000 --users 100 --embed --original-graph   # with the query embedding

For each database it times, per query and alternately (so machine load hits
both alike), in wall-clock and this thread's CPU time:

- ``bare scan``: ``M @ q`` and an ``argpartition`` top-50 over the user's
  vectors already in memory (the floor);
- ``facade warm``: ``ScopedMemory.search(k=5, refresh=False)`` with a fake
  embedder returning the query's precomputed vector (embedding excluded), the
  user's partition cached;
- ``facade warm + refresh``: the same with the ``last_used_at`` refresh write
  (a new session per query, so it always writes);

and then ``facade cold``: each user's first query on a store whose cache
holds one partition, queries spread over all users. With ``--embed``, also
the bundled model on one thread: the query embedding alone and the warm
facade search including it (every query text new, so no cache answers); with
``--original-graph`` the same for the package's own graph, loaded as before
(all of onnxruntime's fusions) and with SkipLayerNormFusion off (the
fallback): the baselines of the fused graph (``embedders/minilm_graph.py``); and
with ``--dynamic-int8 PATH`` the same for the dynamically quantised model
(``scripts/build_minilm_dynamic_int8.py``; timing only, the corpus vectors
are synthetic). Reported: p50 / p95 and each p50 as a ratio of the bare
scan's in the same run.
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

from bench_search import build
from data import NOW, Corpus, FakeEmbedder
from timing import summary

import kenning
from kenning.embedders.minilm import MiniLMEmbedder
from kenning.stores.sqlite import SQLiteStore

CANDIDATES = 50


def interleaved(calls: dict, items: list) -> dict[str, dict[str, float]]:
    """Each call on each item in turn; wall and CPU seconds per call, summarised in ms."""
    wall = {n: [] for n in calls}
    cpu = {n: [] for n in calls}
    for item in items:
        for name, call in calls.items():
            c0, t0 = time.thread_time(), time.perf_counter()
            call(item)
            wall[name].append(time.perf_counter() - t0)
            cpu[name].append(time.thread_time() - c0)
    out = {}
    for name in calls:
        c = summary(np.array(cpu[name]))
        out[name] = {**summary(np.array(wall[name])), "cpu_p50": c["p50"], "cpu_p95": c["p95"]}
    return out


def measure(path: Path, corpus: Corpus, n: int, users_active: int, embedders=()) -> dict[str, dict[str, float]]:
    queries = corpus.queries(n, seed=1, users=users_active)
    cold_q = corpus.queries(n, seed=2)
    fake = FakeEmbedder(queries + cold_q, MiniLMEmbedder.model_id, corpus.dim)
    mats = {q.scope: corpus.vectors(int(q.scope.user_id[4:])) for q in queries}

    def bare(iq):
        q = iq[1]
        sims = mats[q.scope] @ q.vector
        top = np.argpartition(-sims, CANDIDATES)[:CANDIDATES] if sims.size > CANDIDATES else np.arange(sims.size)
        return top[np.argsort(-sims[top])]

    with kenning.open(f"sqlite:///{path}", embedder=fake) as k:
        handles = {q.scope: k.scope(q.scope.tenant_id, q.scope.user_id) for q in queries}

        def warm(iq):
            i, q = iq
            return handles[q.scope].search(q.text, k=5, now=NOW, refresh=False)

        def refresh(iq):
            i, q = iq
            return handles[q.scope].search(q.text, k=5, now=NOW, session_id=f"s{i}")

        for iq in enumerate(queries):  # load the active users' partitions
            warm(iq)
        res = interleaved({"bare numpy scan": bare, "facade warm": warm, "facade warm + refresh": refresh}, list(enumerate(queries)))
    if embedders:
        emb_q = corpus.queries(n, seed=3, users=users_active)
        systems, calls = [], {}
        for label, model in embedders:
            model.embed(["load the model"], "query")
            k = kenning.open(f"sqlite:///{path}", embedder=model)
            systems.append(k)
            # every queried user's partition loaded first (as "facade warm" has it), with other words than the
            # timed queries, so their keyword postings are still built inside the timed search
            for scope in dict.fromkeys((q.scope.tenant_id, q.scope.user_id) for q in emb_q):
                k.scope(*scope).search("warm up the partition", k=5, now=NOW, refresh=False)
            calls[f"{label} query embedding alone"] = lambda iq, model=model: model.embed([iq[1].text + " alone"], "query")
            calls[f"facade warm + {label} embedding"] = lambda iq, k=k: k.scope(iq[1].scope.tenant_id, iq[1].scope.user_id).search(
                iq[1].text, k=5, now=NOW, refresh=False
            )
        try:
            # all models' calls alternate query by query, so machine load hits each alike
            res.update(interleaved(calls, list(enumerate(emb_q))))
        finally:
            for k in systems:
                k.close()
    store = SQLiteStore(path, dim=corpus.dim, embedder_id=MiniLMEmbedder.model_id, cache_bytes=1)
    with kenning.open(f"sqlite:///{path}", embedder=fake, store=store) as k:
        walls, cpus = [], []
        for q in cold_q:
            c0, t0 = time.thread_time(), time.perf_counter()
            k.scope(q.scope.tenant_id, q.scope.user_id).search(q.text, k=5, now=NOW, refresh=False)
            walls.append(time.perf_counter() - t0)
            cpus.append(time.thread_time() - c0)
        c = summary(np.array(cpus))
        res["facade cold (first query of a user)"] = {**summary(np.array(walls)), "cpu_p50": c["p50"], "cpu_p95": c["p95"]}
    return res


def growth(small: Path, big: Path, per_user: int, users: tuple[int, int], n: int) -> dict[str, dict[str, float]]:
    """The same queries (users both databases hold, with the same memories) on both, interleaved: table growth alone."""
    corpus = Corpus(users[0], per_user)
    queries = corpus.queries(n, seed=1)
    cold_q = corpus.queries(n, seed=2)
    fake = FakeEmbedder(queries + cold_q, MiniLMEmbedder.model_id, corpus.dim)
    systems = {
        "small": kenning.open(f"sqlite:///{small}", embedder=fake),
        "big": kenning.open(f"sqlite:///{big}", embedder=fake),
        "small cold": kenning.open(
            f"sqlite:///{small}", embedder=fake, store=SQLiteStore(small, dim=corpus.dim, embedder_id=fake.model_id, cache_bytes=1)
        ),
        "big cold": kenning.open(
            f"sqlite:///{big}", embedder=fake, store=SQLiteStore(big, dim=corpus.dim, embedder_id=fake.model_id, cache_bytes=1)
        ),
    }

    def search(name):
        return lambda iq: systems[name].scope(iq[1].scope.tenant_id, iq[1].scope.user_id).search(
            iq[1].text, k=5, now=NOW, refresh=False
        )

    try:
        for q in enumerate(queries):
            search("small")(q)
            search("big")(q)
        res = interleaved({f"facade warm, {users[0]} users": search("small"), f"facade warm, {users[1]} users": search("big")}, list(enumerate(queries)))
        res.update(
            interleaved({f"facade cold, {users[0]} users": search("small cold"), f"facade cold, {users[1]} users": search("big cold")}, list(enumerate(cold_q)))
        )
    finally:
        for system in systems.values():
            system.close()
    return res


class _AsBefore(MiniLMEmbedder):
    """The package's graph with all of onnxruntime's fusions: the bundled embedder before the fused graph."""

    disabled_fusions = ()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--per-user", default="1000,10000", help="memories per user, comma-separated")
    ap.add_argument("--users", default="1", help="users, comma-separated (each size runs with each count)")
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--active", type=int, default=100, help="users the warm queries come from")
    ap.add_argument("--dir", type=Path)
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--embed", action="store_true", help="also time the bundled model, alone and inside search")
    ap.add_argument(
        "--growth", help="SMALL,BIG user counts (databases built before, in --dir): the same queries on both, interleaved"
    )
    ap.add_argument("--dynamic-int8", type=Path, help="with --embed, also the dynamically quantised model at this path")
    ap.add_argument(
        "--original-graph",
        action="store_true",
        help="with --embed, also the package's own graph: as loaded before the fused graph, and with SkipLayerNormFusion off",
    )
    args = ap.parse_args(argv)
    embedders = []
    if args.embed:
        if args.original_graph:
            embedders.append(("MiniLM as before", _AsBefore(threads=1, fused=False)))
            embedders.append(("MiniLM original graph", MiniLMEmbedder(threads=1, fused=False)))
        embedders.append(("MiniLM", MiniLMEmbedder(threads=1)))
        if args.dynamic_int8:
            # Same model id as the corpus's store: only its speed is measured here.
            embedders.append(("MiniLM dynamic int8", MiniLMEmbedder(args.dynamic_int8, threads=1)))
    tmp = None if args.dir else tempfile.TemporaryDirectory(prefix="kenning-bench-")
    root = args.dir or Path(tmp.name)  # type: ignore[union-attr]
    root.mkdir(parents=True, exist_ok=True)
    report = {}
    if args.growth:
        per = int(args.per_user.split(",")[0])
        a, b = (int(x) for x in args.growth.split(","))
        figures = growth(root / f"bench-{a}u-{per}pu.db", root / f"bench-{b}u-{per}pu.db", per, (a, b), args.queries)
        print(f"\nthe same queries on {a} and {b} users x {per:,}    wall ms: p50     p95   CPU ms: p50     p95")
        for name, f in figures.items():
            print(f"  {name:38s} {f['p50']:8.3f} {f['p95']:7.3f}       {f['cpu_p50']:8.3f} {f['cpu_p95']:7.3f}")
        for kind in ("warm", "cold"):
            lo, hi = figures[f"facade {kind}, {a} users"], figures[f"facade {kind}, {b} users"]
            print(f"  growth, {kind}: wall {hi['p50'] / lo['p50']:.3f}x  CPU {hi['cpu_p50'] / lo['cpu_p50']:.3f}x")
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2))
        return 0
    for per in [int(s) for s in args.per_user.split(",")]:
        for users in [int(s) for s in args.users.split(",")]:
            corpus = Corpus(users, per)
            path = root / f"bench-{users}u-{per}pu.db"
            if not (args.reuse and path.exists()):
                for p in path.parent.glob(path.name + "*"):
                    p.unlink()
                print(f"building {corpus.total:,} memories ({users} users x {per}) ...", flush=True)
                ingest = build(path, corpus)
                print(f"  ingest {ingest['rows_per_s']:,.0f} rows/s", flush=True)
            load = os.getloadavg()[0]
            figures = measure(path, corpus, args.queries, min(args.active, users), embedders)
            label = f"{users} users x {per:,}"
            report[label] = {"latency_ms": figures, "load": [load, os.getloadavg()[0]]}
            _print(label, figures, load)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    if tmp is not None:
        tmp.cleanup()
    return 0


def _print(label: str, figures: dict, load: float) -> None:
    base = figures["bare numpy scan"]
    width = max(38, *(len(name) for name in figures))
    print(f"\n{label:{width + 2}s} wall ms: p50     p95   CPU ms: p50     p95   p50 / bare scan (wall, CPU)")
    for name, f in figures.items():
        print(
            f"  {name:{width}s} {f['p50']:8.3f} {f['p95']:7.3f}       {f['cpu_p50']:8.3f} {f['cpu_p95']:7.3f}"
            f"   {f['p50'] / base['p50']:8.1f}x {f['cpu_p50'] / base['cpu_p50']:8.1f}x"
        )
    print(f"  (1-minute load average {load:.1f} before, {os.getloadavg()[0]:.1f} after, on {os.cpu_count()} cores)")


if __name__ == "__main__":
    raise SystemExit(main())
