"""LoCoMo retrieval constants chosen out of sample: pick on conversations 1-5, report on 6-10, and the other way round.

    python benchmarks/locomo_oos.py ../shared/data/locomo/locomo10.json --cache /tmp/locomo-emb.pkl
    python benchmarks/locomo_oos.py DATA --cache C --only keyword_weight,context_keyword_weight

For each tuned constant of retrieval, one at a time with the others at their
defaults, it runs the retrieval-only LoCoMo evaluation (``kenning.evals.locomo``)
at each candidate value and prints pooled R@10 (categories 1-4) on each half.
The value that is best on one half is then reported on the other: that is the
out-of-sample figure. ``--cache`` keeps the bundled model's embeddings in a
file, so every run after the first costs seconds (the vectors are the
model's, cached by text; nothing else is cached).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from kenning.lifecycle import context as kcontext  # where CONTEXT_BLEND is read (kenning.context only re-exports it)
from kenning.embedders.minilm import MiniLMEmbedder
from kenning.evals import locomo
from kenning.lifecycle.retrieve import Policy

# Constant -> candidate values. Policy fields are passed as a policy; the others
# are module constants set for the run.
GRID: dict[str, list] = {
    "context_turns": [0, 1, 2, 3],
    "context_blend": [0.2, 0.3, 0.5],
    "keyword_weight": [0.5, 0.75, 1.0],
    "context_keyword_weight": [0.3, 0.45, 0.6],
    "saturation": [0.7, 0.8, 0.9],
    "candidates": [30, 50, 100, 200],
    "feedback": [0.0, 0.25, 0.5, 1.0],
    "diversity": [0.0, 0.05, 0.1, 0.2],
    "cos_floor": [-0.25, -0.15, -0.05],
    "cos_ceiling": [0.65, 0.75, 0.85],
    "dates": ["raw", "day"],
    "entity_weight": [0.0, 0.15, 0.25, 0.4, 0.6],
    "entity_mention": [0.0, 0.3, 0.6, 1.0],
    "time_weight": [0.0, 0.05, 0.1, 0.15, 0.2, 0.3],
    "question_weight": [0.0, 0.005, 0.01, 0.015, 0.02, 0.03],
}


class DiskCachedEmbedder:
    """The bundled model with a pickle-file cache of (purpose, text) -> vector."""

    def __init__(self, path: Path | None, inner=None) -> None:
        self.inner = inner or MiniLMEmbedder()
        self.model_id, self.dim = self.inner.model_id, self.inner.dim
        self.path = path
        self.vectors = pickle.loads(path.read_bytes()) if path and path.exists() else {}
        self.fresh = 0

    def embed(self, texts, purpose="document"):
        missing = [t for t in dict.fromkeys(texts) if (purpose, t) not in self.vectors]
        if missing:
            for t, v in zip(missing, self.inner.embed(missing, purpose)):
                self.vectors[(purpose, t)] = v
            self.fresh += len(missing)
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        return np.stack([self.vectors[(purpose, t)] for t in texts])

    def save(self) -> None:
        if self.path and self.fresh:
            tmp = self.path.with_suffix(".tmp")
            tmp.write_bytes(pickle.dumps(self.vectors))
            os.replace(tmp, self.path)
            self.fresh = 0


def run_one(data: Path, embedder, name: str | None = None, value=None) -> dict:
    policy, turns, blend, dates = Policy(), locomo.CONTEXT_TURNS, kcontext.CONTEXT_BLEND, "raw"
    if name == "context_turns":
        turns = value
    elif name == "dates":
        dates = value
    elif name == "context_blend":
        kcontext.CONTEXT_BLEND = value
    elif name is not None:
        policy = replace(policy, **{name: value})
    try:
        return locomo.run(data, embedder=embedder, context_turns=turns, policy=policy, dates=dates)
    finally:
        kcontext.CONTEXT_BLEND = blend


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--cache", type=Path, help="embedding cache file (created if missing)")
    ap.add_argument("--only", help="comma-separated constants from: " + ", ".join(GRID))
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    emb = DiskCachedEmbedder(args.cache)
    names = args.only.split(",") if args.only else list(GRID)
    base = run_one(args.data, emb)
    emb.save()
    first, second = list(base["halves"])
    out = {"default": _r10(base)}
    print(f"defaults: {first} {out['default'][first]:.3f} · {second} {out['default'][second]:.3f} · all {out['default']['all']:.3f}")
    for name in names:
        scores = {}
        for value in GRID[name]:
            scores[value] = _r10(run_one(args.data, emb, name, value))
            emb.save()
            s = scores[value]
            print(f"  {name} = {value}: {first} {s[first]:.3f} · {second} {s[second]:.3f} · all {s['all']:.3f}", flush=True)
        pick_a = max(scores, key=lambda v: scores[v][first])
        pick_b = max(scores, key=lambda v: scores[v][second])
        out[name] = {
            "scores": {str(v): s for v, s in scores.items()},
            f"chosen on {first}": pick_a,
            f"out of sample on {second}": scores[pick_a][second],
            f"chosen on {second}": pick_b,
            f"out of sample on {first}": scores[pick_b][first],
        }
        print(
            f"{name}: chosen on {first} -> {pick_a}, R@10 on {second} {scores[pick_a][second]:.3f}; "
            f"chosen on {second} -> {pick_b}, R@10 on {first} {scores[pick_b][first]:.3f}",
            flush=True,
        )
    if args.json:
        args.json.write_text(json.dumps(out, indent=2, default=str))
    return 0


def _r10(report: dict) -> dict:
    r = {name: h["pooled"]["recall@10"] for name, h in report["halves"].items()}
    r["all"] = report["pooled"]["recall@10"]
    r["categories"] = {name: {c: h["categories"][c]["recall@10"] for c in locomo.POOLED} for name, h in report["halves"].items()}
    return r


if __name__ == "__main__":
    sys.exit(main())
