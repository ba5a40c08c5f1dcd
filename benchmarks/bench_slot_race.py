"""Several processes deciding one user's single-valued attributes at once: how often do two values stay active?

    python benchmarks/bench_slot_race.py                       # both engines, the issue's sizes
    python benchmarks/bench_slot_race.py --engines sqlite --trials 3 --runs 2 --ops 100

Two measurements, each on SQLite (one file) and PostgreSQL (a local server it starts,
``kenning.stores.postgres.dev``, unless ``--url`` names one):

- **race**: ``--procs-race`` processes (4) each say "I live in <city>" (``add(wait=True)``) at
  the same instant, to a fresh user per trial, then ``maintain()``; a trial fails when the
  user is left with two or more active "lives in" memories. ``--trials`` (10).
- **mixed**: ``--procs-mixed`` processes (8) each run ``--ops`` (300) operations, all starting at
  one instant, over ``--users`` (3) users: ``add(wait=True)`` and ``add(wait=False)`` of a new
  home, employer or team, searches, ``remember`` of unrelated facts and the background
  reconciliation of pending captures (``write.reconcile_pending``, what a worker runs); then
  ``maintain()``. A run fails when any user has two active values of one single-valued
  attribute (read by ``reconcile.fact_of``, the attribute table reconciliation uses). ``--runs`` (7).

Both are counted twice: once every pending claim is reconciled (what reconciliation itself
left behind) and after ``maintain()``, whose repair step retires an older duplicate value.

Every process uses the bundled MiniLM embedder and the offline engine: what a deployment runs.
Prints, per engine, the failing trials and runs, and the time each took.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import databases  # noqa: E402

CITIES = ["Leeds", "York", "Bristol", "Exeter", "Bath", "Derby", "Hull", "Chester", "Durham", "Lincoln", "Norwich", "Truro"]
EMPLOYERS = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay", "Stark", "Wayne"]
TEAMS = ["Arsenal", "Chelsea", "Everton", "Fulham", "Leeds United", "Brentford", "Burnley", "Wolves"]


def _wait_until(at: float) -> None:
    while time.time() < at:
        time.sleep(0.0005)


def child_race(url: str, n: int, trials: int, start: float, gap: float, tag: str) -> None:
    import kenning

    with kenning.open(url) as k:
        k.scope("warm", "up").search("warm up the model")
        for t in range(trials):
            s = k.scope(tag, f"trial{t}")
            _wait_until(start + t * gap)
            s.add(f"I live in {CITIES[n % len(CITIES)]}.", wait=True)


def child_mixed(url: str, n: int, ops: int, users: int, start: float, tag: str) -> None:
    import kenning
    from kenning.lifecycle import write
    from kenning.types import now_utc

    rng = random.Random(f"{tag}-{n}")
    with kenning.open(url) as k:
        k.scope("warm", "up").search("warm up the model")
        _wait_until(start)
        for i in range(ops):
            s = k.scope(tag, f"user{rng.randrange(users)}")
            r = rng.random()
            said = rng.choice(
                [f"I live in {rng.choice(CITIES)}.", f"I work at {rng.choice(EMPLOYERS)}.", f"I support {rng.choice(TEAMS)}."]
            )
            if r < 0.45:
                s.add(said, wait=True)
            elif r < 0.65:
                s.add(said, wait=False)
            elif r < 0.8:
                s.search(rng.choice(["where do I live", "who do I work for", "which team", "hobbies"]), k=5)
            elif r < 0.9:
                s.remember(f"Process {n} noted item {i} about gardening.")
            else:
                # the background reconciliation of captures (what a worker runs), beside the request path; not
                # maintain(), whose repair step would hide what reconciliation itself left behind
                write.reconcile_pending(s.ctx, s.scope, now_utc())


def duplicates(url: str, tag: str) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Per user of ``tag``, the single-valued attributes with two or more active values: once every pending
    claim is reconciled (what reconciliation left, before any repair), and after ``maintain()``."""
    import kenning
    from kenning.lifecycle import write
    from kenning.types import now_utc

    with kenning.open(url) as k:
        scopes = [s for s in k.scopes() if s.tenant_id == tag]
        for scope in scopes:
            write.reconcile_pending(k.ctx, scope, now_utc())
        before = {str(s): _doubled(k, s) for s in scopes}
        k.maintain()
        after = {str(s): _doubled(k, s) for s in scopes}
    return {s: v for s, v in before.items() if v}, {s: v for s, v in after.items() if v}


def _doubled(k, scope) -> list[str]:
    from kenning.lifecycle.reconcile import fact_of

    keys = Counter()
    for m in k.scope(scope.tenant_id, scope.user_id).list(limit=None):
        f = fact_of(m)
        if f is not None and f.attribute.single and not f.negated:
            keys[f.key] += 1
    return [f"{a}/{b} x{c}" for (a, b), c in keys.items() if c > 1]


def _spawn(args: list[str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, __file__, "--child", *args])


def run_race(url: str, procs: int, trials: int, tag: str) -> tuple[int, int, float]:
    gap = 2.0
    start = time.time() + 25.0  # every process imports, loads the model and opens the store first
    t0 = time.time()
    ps = [_spawn(["race", url, str(n), str(trials), str(start), str(gap), tag]) for n in range(procs)]
    assert all(p.wait(timeout=600) == 0 for p in ps), "a child failed"
    before, after = duplicates(url, tag)
    return len(before), len(after), time.time() - t0


def run_mixed(url: str, procs: int, ops: int, users: int, tag: str) -> tuple[dict, dict, float]:
    start = time.time() + 25.0
    t0 = time.time()
    ps = [_spawn(["mixed", url, str(n), str(ops), str(users), str(start), tag]) for n in range(procs)]
    assert all(p.wait(timeout=1800) == 0 for p in ps), "a child failed"
    before, after = duplicates(url, tag)
    return before, after, time.time() - t0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--child":
        mode, url, n, *rest = argv[1:]
        if mode == "race":
            child_race(url, int(n), int(rest[0]), float(rest[1]), float(rest[2]), rest[3])
        else:
            child_mixed(url, int(n), int(rest[0]), int(rest[1]), float(rest[2]), rest[3])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engines", default="sqlite,postgres")
    ap.add_argument("--trials", type=int, default=10)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--ops", type=int, default=300)
    ap.add_argument("--users", type=int, default=3)
    ap.add_argument("--procs-race", type=int, default=4)
    ap.add_argument("--procs-mixed", type=int, default=8)
    ap.add_argument("--url", default=None, help="an existing PostgreSQL server's URL (a database per engine run is created)")
    args = ap.parse_args(argv)
    with databases.fresh("kenning-race", args.url) as database:
        for engine in args.engines.split(","):
            url = database(engine, "kenning_race")
            import kenning

            kenning.open(url).close()  # migrate once, before the processes race
            before, after, spent = run_race(url, args.procs_race, args.trials, "race")
            print(
                f"{engine}: race, {args.procs_race} processes: two active homes in {before} of {args.trials} trials "
                f"after reconciliation, {after} after maintain() ({spent:.0f} s)",
                flush=True,
            )
            runs_before = runs_after = 0
            for r in range(args.runs):
                before, after, spent = run_mixed(url, args.procs_mixed, args.ops, args.users, f"mixed{r}")
                runs_before, runs_after = runs_before + bool(before), runs_after + bool(after)
                print(
                    f"{engine}: mixed run {r + 1}: {args.procs_mixed} x {args.ops} ops, duplicates after reconciliation "
                    f"{before or 'none'}, after maintain() {after or 'none'} ({spent:.0f} s)",
                    flush=True,
                )
            print(
                f"{engine}: mixed, two active values of one attribute in {runs_before} of {args.runs} runs after "
                f"reconciliation, {runs_after} after maintain()",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
