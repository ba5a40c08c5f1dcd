"""The server under load: throughput, latency and health against the bare embedder, measured in one run.

    python benchmarks/bench_server.py                          # 20 s, 32 clients, about a minute in all
    python benchmarks/bench_server.py --seconds 60 --add wait --json out.json

Loopback only, bounded in time and count. It seeds a temporary SQLite file
with 50 users x 20 memories (through the facade), starts ``kenning serve`` on
a free 127.0.0.1 port in a subprocess (the command operators run, with its
default settings plus any ``--env KENNING_…=…`` given), and runs ``--clients``
concurrent clients for ``--seconds``: 70% ``POST …/search`` with a new query
text each time (the embedding cache never answers), 30% adds. ``--add``
picks the add:

- ``capture`` (default): ``POST …/messages`` with ``wait: false``, the quick
  capture; extraction is left to background maintenance (not in this run);
- ``wait``: ``POST …/messages`` as sent by default (extract and reconcile
  before answering: a spaCy parse, claim embeddings, reconciliation);
- ``remember``: ``POST …/memories`` (one embedding per request).

Alongside, a separate process polls ``GET /healthz`` every 50 ms on its own connection.

The baseline is the bare embedder, measured in this process before and after
the server phase (the mean is used): the bundled model built as the server
builds it, embedding the same request texts one text per call on one thread
per core (what a server doing one embedding per request could reach at best).
The batched figure (8 texts per call) is printed for reference.

Reported: requests/s, latency p50/p95/p99/max per kind and overall, errors
(any non-2xx or failed request; 503s counted apart), ``/healthz`` p50/p99/max,
and the server's throughput over the bare embedder's, with the targets of
issue 12: ``/healthz`` p99 <= 20 ms, 0 errors, throughput >= 0.8x bare,
p95 <= 3x p50. The machine may be shared: run it a few times.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import numpy as np

import kenning
from kenning.embedders.minilm import MiniLMEmbedder

USERS_DEFAULT, PER_USER_DEFAULT = 50, 20
HEALTH_EVERY_S = 0.05
TARGETS = {"healthz_p99_ms": 20.0, "errors": 0, "ratio": 0.8, "p95_over_p50": 3.0}

FACTS = [
    "User lives in {city} and works as a {job}.",
    "User is allergic to {food}.",
    "User prefers {slot} meetings on {day}s.",
    "User's daughter {name} plays the {instrument}.",
    "User runs five kilometres every {day} in {city}.",
    "User drives a {colour} car and parks it near the station.",
    "User is learning {lang} for a trip to {city}.",
    "User's favourite hobby is {hobby}.",
    "User volunteers at the {city} food bank on {day}s.",
    "User keeps a {pet} called {name}.",
]
QUESTIONS = [
    "Where does the user live and what is their job",
    "Any food allergies to watch for when booking dinner",
    "When does the user like to have meetings",
    "What instrument does the user's daughter play",
    "What does the user do for exercise",
    "Which car does the user drive",
    "Which language is the user learning",
    "What hobbies does the user have",
    "Does the user do any volunteering",
    "Does the user have a pet",
]
TURNS = [
    "I moved to {city} last month and I'm working as a {job} now.",
    "Please remember that I can't eat {food}.",
    "I'd rather have meetings in the {slot} from now on.",
    "My daughter {name} just started {instrument} lessons.",
    "I've started learning {lang} because we're going to {city}.",
    "These days my favourite hobby is {hobby}.",
]
WORDS = {
    "city": ["Leeds", "York", "Lisbon", "Oslo", "Porto", "Kyoto", "Denver", "Lyon"],
    "job": ["nurse", "designer", "teacher", "pilot", "chef"],
    "food": ["peanuts", "shellfish", "sesame", "gluten"],
    "slot": ["morning", "afternoon", "evening"],
    "day": ["Monday", "Wednesday", "Saturday", "Sunday"],
    "name": ["Mia", "Noah", "Ada", "Leo", "Hana"],
    "instrument": ["violin", "piano", "cello", "drums"],
    "colour": ["red", "blue", "green", "grey"],
    "lang": ["Japanese", "Portuguese", "Norwegian", "Spanish"],
    "hobby": ["climbing", "baking", "chess", "sailing", "pottery"],
    "pet": ["cat", "dog", "parrot", "rabbit"],
}


def fill(template: str, rng: random.Random) -> str:
    return template.format(**{k: rng.choice(v) for k, v in WORDS.items()})


class Texts:
    """Request texts, each new (a counter makes it unique), so no cache answers anywhere."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.n = 0

    def query(self) -> str:
        self.n += 1
        return f"{self.rng.choice(QUESTIONS)} (q{self.n})"

    def turn(self) -> str:
        self.n += 1
        return f"{fill(self.rng.choice(TURNS), self.rng)} (t{self.n})"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def seed(db: str, users: int, per_user: int) -> str:
    """Write ``users`` x ``per_user`` memories through the facade; return a tenant API key."""
    rng = random.Random(7)
    with kenning.open(db) as system:
        for u in range(users):
            system.scope("bench", f"user{u}").remember_many(
                [{"text": fill(FACTS[i % len(FACTS)], rng) + f" (note {i})", "source": "inferred"} for i in range(per_user)]
            )
        return system.create_api_key("bench", "bench")[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used (Linux ``/proc``; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bare_embedder(texts: list[str], seconds: float, workers: int, batch: int = 1) -> tuple[float, float]:
    """Texts per wall second and per CPU second: the bundled model on ``workers`` threads, ``batch`` texts per
    call, for about ``seconds``."""
    model = MiniLMEmbedder()
    model.embed(["warm up"], "query")
    counts = [0] * workers
    stop = time.perf_counter() + seconds

    def run(w: int) -> None:
        i = w * batch
        while time.perf_counter() < stop:
            chunk = [texts[(i + j) % len(texts)] for j in range(batch)]
            model.embed(chunk, "query")
            counts[w] += batch
            i += workers * batch

    start, cpu = time.perf_counter(), time.process_time()
    threads = [threading.Thread(target=run, args=(w,)) for w in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / (time.perf_counter() - start), sum(counts) / (time.process_time() - cpu)


def start_server(db: str, port: int, env: dict[str, str]) -> subprocess.Popen:
    cmd = [sys.executable, "-c", "from kenning.cli import main; main()", "serve", "--db", db, "--port", str(port),
           "--host", "127.0.0.1", "--log-level", "warning", "--no-mcp"]
    proc = subprocess.Popen(cmd, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited: {proc.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not answer /healthz within 60 s")


def poll_health(port: int, seconds: float, out: "multiprocessing.queues.Queue") -> None:
    """Poll /healthz every 50 ms for ``seconds`` on one keep-alive connection; put (latencies, failures) on ``out``.

    Runs in a process of its own, so the load clients' work never delays the measurement.
    """
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    latencies, failures = [], 0
    stop = time.perf_counter() + seconds
    while time.perf_counter() < stop:
        time.sleep(HEALTH_EVERY_S)
        t0 = time.perf_counter()
        try:
            conn.request("GET", "/healthz")
            resp = conn.getresponse()
            resp.read()
            ok = resp.status == 200
        except (OSError, http.client.HTTPException):
            ok = False
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        if ok:
            latencies.append(time.perf_counter() - t0)
        else:
            failures += 1
    conn.close()
    out.put((latencies, failures))


async def load(port: int, key: str, clients: int, seconds: float, users: int, add: str, search_share: float) -> dict:
    """Run ``clients`` concurrent clients for ``seconds``; return per-kind latencies and error counts."""
    lat: dict[str, list[float]] = {"search": [], "add": []}
    errors: dict[str, int] = {}
    texts = Texts(11)
    rng = random.Random(13)
    stop = time.perf_counter() + seconds
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", headers={"Authorization": f"Bearer {key}"},
                                 timeout=60, limits=limits) as client:

        async def one_client() -> None:
            while time.perf_counter() < stop:
                user = f"user{rng.randrange(users)}"
                if rng.random() < search_share:
                    kind, path, body = "search", f"/v1/users/{user}/search", {"query": texts.query(), "k": 5}
                elif add == "remember":
                    kind, path, body = "add", f"/v1/users/{user}/memories", {"text": texts.turn(), "source": "inferred"}
                else:
                    kind, path = "add", f"/v1/users/{user}/messages"
                    body = {"messages": texts.turn(), **({"wait": False} if add == "capture" else {})}
                t0 = time.perf_counter()
                try:
                    r = await client.post(path, json=body)
                    code = str(r.status_code) if r.status_code >= 300 else ""
                except httpx.HTTPError as exc:
                    code = type(exc).__name__
                if code:
                    errors[code] = errors.get(code, 0) + 1
                else:
                    lat[kind].append(time.perf_counter() - t0)

        start = time.perf_counter()
        await asyncio.gather(*(one_client() for _ in range(clients)))
        took = time.perf_counter() - start
    return {"latencies": lat, "errors": errors, "seconds": took}


def pct(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    a = np.array(values) * 1000
    return {"n": len(values), "p50": float(np.percentile(a, 50)), "p95": float(np.percentile(a, 95)),
            "p99": float(np.percentile(a, 99)), "max": float(a.max())}


def line(name: str, s: dict[str, float]) -> str:
    if not s.get("n"):
        return f"  {name:<10} none"
    return (f"  {name:<10} n={s['n']:<6} p50 {s['p50']:7.1f}  p95 {s['p95']:7.1f}  p99 {s['p99']:7.1f}  "
            f"max {s['max']:7.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--users", type=int, default=USERS_DEFAULT)
    ap.add_argument("--per-user", type=int, default=PER_USER_DEFAULT)
    ap.add_argument("--search-share", type=float, default=0.7)
    ap.add_argument("--add", choices=["capture", "wait", "remember"], default="capture")
    ap.add_argument("--bare-seconds", type=float, default=5.0, help="each of the two bare-embedder measurements")
    ap.add_argument("--env", action="append", default=[], metavar="KENNING_X=V", help="server setting (repeatable)")
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args()
    if not 1 <= args.clients <= 256 or not 1 <= args.seconds <= 600:
        ap.error("--clients must be 1..256 and --seconds 1..600")
    env = dict(kv.split("=", 1) for kv in args.env)
    cores = os.cpu_count() or 1
    sample = Texts(11)
    texts = [sample.query() if i % 10 < 7 else sample.turn() for i in range(2000)]

    with tempfile.TemporaryDirectory(prefix="kenning-bench-server-") as tmp:
        db = f"sqlite:///{Path(tmp) / 'bench.db'}"
        print(f"seeding {args.users} users x {args.per_user} memories …", file=sys.stderr)
        key = seed(db, args.users, args.per_user)
        bare_before = bare_embedder(texts, args.bare_seconds, cores)
        port = free_port()
        proc = start_server(db, port, env)
        try:
            asyncio.run(load(port, key, min(args.clients, 4), 2.0, args.users, args.add, args.search_share))  # warm up
            got: multiprocessing.Queue = multiprocessing.Queue()
            health = multiprocessing.Process(target=poll_health, args=(port, args.seconds, got), daemon=True)
            health.start()
            load1 = os.getloadavg()[0]
            cpu0 = cpu_seconds(proc.pid)
            result = asyncio.run(load(port, key, args.clients, args.seconds, args.users, args.add, args.search_share))
            server_cpu = cpu_seconds(proc.pid) - cpu0
            health_latencies, health_failures = got.get(timeout=60)
            health.join(10)
        finally:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
        bare_after = bare_embedder(texts, args.bare_seconds, cores)
        bare_batched = bare_embedder(texts, args.bare_seconds / 2, cores, batch=8)

    lat = result["latencies"]
    done = len(lat["search"]) + len(lat["add"])
    rps = done / result["seconds"]
    bare = (bare_before[0] + bare_after[0]) / 2
    bare_cpu = (bare_before[1] + bare_after[1]) / 2
    cpu_ratio = (done / server_cpu) / bare_cpu
    overall = pct(lat["search"] + lat["add"])
    h = pct(health_latencies)
    n_err = sum(result["errors"].values())
    out = {
        "settings": {**vars(args), "env": env, "cores": cores, "load_avg_1m": load1},
        "requests_per_s": rps, "bare_texts_per_s": bare, "bare_before": bare_before[0], "bare_after": bare_after[0],
        "bare_batched_8": bare_batched[0], "ratio": rps / bare,
        "server_cpu_s": server_cpu, "requests_per_cpu_s": done / server_cpu, "bare_texts_per_cpu_s": bare_cpu,
        "bare_batched_8_per_cpu_s": bare_batched[1], "cpu_ratio": cpu_ratio,
        "search": pct(lat["search"]), "add": pct(lat["add"]), "all": overall,
        "errors": result["errors"], "healthz": h, "healthz_failures": health_failures,
    }
    print(f"\nserver: {args.clients} clients, {args.seconds:.0f} s, add={args.add}, cores={cores}, "
          f"load avg {load1:.2f}, env {env or '{}'}")
    print(line("search", out["search"]))
    print(line("add", out["add"]))
    print(line("all", overall))
    print(line("/healthz", h) + (f"  ({health_failures} failed)" if health_failures else ""))
    print(f"  errors     {n_err} {result['errors'] or ''}")
    print(f"\nthroughput  server {rps:.1f} req/s;  bare embedder {bare:.1f} texts/s "
          f"(before {bare_before[0]:.1f}, after {bare_after[0]:.1f}; one text per call, {cores} threads); "
          f"batched by 8: {bare_batched[0]:.1f}")
    print(f"per CPU second  server {done / server_cpu:.1f} req ({server_cpu:.1f} CPU s in all);  bare embedder "
          f"{bare_cpu:.1f} texts (batched by 8: {bare_batched[1]:.1f});  ratio {cpu_ratio:.2f}  "
          "(machine load cancels out here)")
    ok = {
        "healthz_p99_ms": h.get("p99", float("inf")) <= TARGETS["healthz_p99_ms"] and not health_failures,
        "errors": n_err == TARGETS["errors"],
        "ratio": rps / bare >= TARGETS["ratio"],
        "p95_over_p50": overall.get("p95", 0) <= TARGETS["p95_over_p50"] * overall.get("p50", 0),
    }
    print(f"  ratio server/bare {rps / bare:.2f}  (target >= {TARGETS['ratio']})  {'ok' if ok['ratio'] else 'NOT MET'}")
    print(f"  /healthz p99 {h.get('p99', float('nan')):.1f} ms  (target <= 20)  {'ok' if ok['healthz_p99_ms'] else 'NOT MET'}")
    print(f"  errors {n_err}  (target 0)  {'ok' if ok['errors'] else 'NOT MET'}")
    if overall.get("n"):
        print(f"  p95/p50 {overall['p95'] / overall['p50']:.2f}  (target <= 3)  {'ok' if ok['p95_over_p50'] else 'NOT MET'}")
    out["met"] = ok
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
