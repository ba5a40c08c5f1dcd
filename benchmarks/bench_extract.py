"""Background extraction throughput of the offline engine, on real chat turns, one core.

    python benchmarks/bench_extract.py            # the user turns of tests/extraction/dev*/ (about 30 s)
    python benchmarks/bench_extract.py --json

The turns are every ``say`` of the repository's own extraction corpus
(tests/extraction/dev, dev2, dev3): chat as people type it, 30-odd words a
turn, several sentences and clauses each. Measured in CPU time of this
thread, parser and text caches emptied before each mode:

- ``one turn at a time``: ``extract`` on each turn alone, as ``add(wait=True)`` runs it;
- ``batches of N``: ``prefetch`` parses N turns' sentences in one pipeline
  call, the probes cutting them asks for a round at a time and their clauses
  in one more, then ``extract`` runs on each turn, as the background worker
  (``reconcile_pending``) runs it.

Target (issue 10): >= 100 turns per second on one core. numpy's BLAS runs on one thread, as in the
other benchmarks (the parser multiplies through it when it does: ``extraction/blas.py``).
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import json
import time
from pathlib import Path

import yaml

from kenning.lifecycle import extraction, memo
from kenning.lifecycle.extract import Turn
from kenning.lifecycle.extraction.parse import default_parser

ROOT = Path(__file__).resolve().parent.parent
TARGET_TPS = 100.0


def corpus_turns() -> list[str]:
    out = []
    for folder in ("dev", "dev2", "dev3"):
        for f in sorted((ROOT / "tests" / "extraction" / folder).glob("*.yaml")):
            out.extend(st["say"] for st in yaml.safe_load(f.read_text())["steps"] if "say" in st)
    return out


def throughput(texts: list[str], batch: int) -> float:
    """Turns per CPU second, extracting ``texts`` in batches of ``batch`` (1: no prefetch)."""
    parser = default_parser()
    parser._cache.clear()  # every mode parses from scratch
    memo.clear()  # and masks, normalises and reads slots from scratch
    t0 = time.thread_time()
    for start in range(0, len(texts), batch):
        chunk = [[Turn("user", t)] for t in texts[start : start + batch]]
        if batch > 1:
            extraction.prefetch(chunk, parser=parser)
        for turns in chunk:
            extraction.extract(turns, parser=parser)
    return len(texts) / (time.thread_time() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--batches", type=int, nargs="*", default=[8, 32, 128])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    texts = corpus_turns()
    extraction.extract([Turn("user", "warm up the parser, I live in Leeds")])
    words = sum(len(t.split()) for t in texts) / len(texts)
    modes = {"one turn at a time": throughput(texts, 1)}
    for b in args.batches:
        modes[f"batches of {b}"] = throughput(texts, b)
    best = max(modes.values())
    report = {"turns": len(texts), "words_per_turn": round(words, 1), "turns_per_cpu_s": {k: round(v, 1) for k, v in modes.items()},
              "speedup_vs_one_at_a_time": round(best / modes["one turn at a time"], 2), "target": TARGET_TPS, "met": best >= TARGET_TPS}
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"{len(texts)} chat turns, {words:.1f} words a turn, one core (CPU time)")
    for name, tps in modes.items():
        print(f"  {name:22s} {tps:6.1f} turns/s  ({tps / modes['one turn at a time']:.2f}x one at a time)")
    print(f"best {best:.1f} turns/s; target >= {TARGET_TPS:.0f}: {'met' if report['met'] else 'NOT met'}")


if __name__ == "__main__":
    main()
