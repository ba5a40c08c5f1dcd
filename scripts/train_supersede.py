"""Train the supersession model (``kenning.lifecycle.supersede``) on the extraction corpora.

    python scripts/train_supersede.py [--sets dev dev2 …] [--l2 1.0] [--check] [--cache FILE]

Each set's scenarios run through the eval runner with the model switched off (``supersede_cutoff=1``), so the
labels describe what the rules alone leave. Every candidate the rules ADD is paired with each earlier memory
it may supersede (``supersede.eligible``). At the next ``memories`` step of its scenario a pair is labelled
when its earlier memory is still active:

- should have been superseded: the earlier memory matches a ``forbid`` entry, and the candidate holds one of
  that entry's ``not_contains`` words (the new value) or satisfies a ``claims`` entry the earlier one does not;
- should stay: the earlier memory satisfies a ``claims`` entry (what a note-taker must still hold).

The script prints a leave-one-set-out estimate (pairs at or above 0.5 … 0.9: right and wrong supersessions
per held-out set), then fits on every set and writes ``src/kenning/lifecycle/extraction/data/supersede.json``.
``val/``, ``test/`` and ``dev6/`` are never read. Deterministic. ``--check`` only prints.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from kenning.embedders.minilm import MiniLMEmbedder
from kenning.evals import checks
from kenning.evals.runner import Runner
from kenning.evals.scenario import load_path
from kenning.lifecycle import reconcile, supersede
from kenning.lifecycle.extraction import chatter
from kenning.types import Op
from train_chatter import auc, collected  # the same cache and rank statistic as the chatter model's script

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "extraction"
NEVER = {"val", "test", "dev6"}
CUTS = (0.5, 0.6, 0.7, 0.8, 0.9)


def collect(embedder: MiniLMEmbedder, name: str) -> list[dict]:
    """The labelled pairs of one set: {"x", "y", "scenario", "new", "old"}."""
    pending: list[tuple[object, list, bool]] = []  # (candidate, [(old, x)], decided by a rule) since the last memories step
    examples: list[dict] = []
    real = reconcile.decide

    def decide(candidate, neighbours):
        decision = real(candidate, neighbours)
        if decision.op is Op.ADD:
            pending.append((candidate, supersede.pairs(candidate, neighbours), False))
        elif decision.op is Op.UPDATE and decision.target_id:  # a change the rules saw: its pair, if eligible
            done = [(old, x) for old, x in supersede.pairs(candidate, neighbours) if old.id == decision.target_id]
            pending.append((candidate, done, True))
        return decision

    def seen(sc, step, active):
        ids = {m.id for m in active}
        claims, forbid = step.arg["claims"], step.arg.get("forbid", [])
        for cand, pairs, ruled in pending:
            for old, x in pairs:
                bad = [e for e in forbid if isinstance(e, dict) and checks.satisfies(old, e)]
                need = [e for e in claims if checks.satisfies(old, e)]
                if ruled:  # retired by a rule: right unless the scenario still wants what it said
                    if not need:
                        examples.append({"x": x, "y": 1.0, "scenario": sc.name, "new": cand.text, "old": old.text})
                    continue
                if old.id not in ids:
                    continue
                need = need or [e for e in step.arg.get("allow", []) if checks.satisfies(old, e)]
                if bad and not need:
                    new_value = any(checks.contains(cand.text, w) for e in bad for w in e.get("not_contains", ()))
                    wanted = any(checks.satisfies(cand, e) and not checks.satisfies(old, e) for e in claims)
                    if new_value or wanted:
                        examples.append({"x": x, "y": 1.0, "scenario": sc.name, "new": cand.text, "old": old.text})
                elif need and not bad:
                    examples.append({"x": x, "y": 0.0, "scenario": sc.name, "new": cand.text, "old": old.text})
        pending.clear()

    reconcile.decide = decide
    try:
        Runner(embedder, settings={"supersede_cutoff": 1.0}, on_memories=seen).run(load_path(CORPUS / name))
    finally:
        reconcile.decide = real
    return examples


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", nargs="+", default=["dev", "dev2", "dev3", "dev4", "dev5", "dev7", "dev8", "dev9", "dev10", "dev11", "dev12"])
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--check", action="store_true", help="print the estimate only; write nothing")
    ap.add_argument("--cache", help="keep the collected examples in this pickle file (reused when it exists)")
    args = ap.parse_args()
    if NEVER & set(args.sets):
        ap.error("val/, test/ and dev6/ are held out: never train on them")
    embedder = MiniLMEmbedder()
    data = collected(args.sets, args.cache, lambda name: collect(embedder, name))
    totals = {c: [0, 0] for c in CUTS}
    for name in args.sets:  # leave one set out
        train = [e for other, exs in data.items() if other != name for e in exs]
        test = data[name]
        if not test:
            continue
        w, b = chatter.fit(np.stack([e["x"] for e in train]), np.array([e["y"] for e in train]), l2=args.l2)
        p = 1.0 / (1.0 + np.exp(-(np.stack([e["x"] for e in test]) @ w + b)))
        y = np.array([e["y"] for e in test])
        line = [f"{name}: {len(test)} pairs, {int(y.sum())} to supersede, AUC {auc(p, y) if 0 < y.sum() < len(y) else float('nan'):.3f}"]
        for c in CUTS:
            right, wrong = int(((p >= c) & (y == 1)).sum()), int(((p >= c) & (y == 0)).sum())
            totals[c][0] += right
            totals[c][1] += wrong
            line.append(f"@{c}: +{right} -{wrong}")
        print(" | ".join(line), flush=True)
    print("all held-out sets: " + " | ".join(f"@{c}: +{r} -{w}" for c, (r, w) in totals.items()))
    every = [e for exs in data.values() for e in exs]
    w, b = chatter.fit(np.stack([e["x"] for e in every]), np.array([e["y"] for e in every]), l2=args.l2)
    meta = {"trained_on": args.sets, "pairs": len(every), "to_supersede": int(sum(e["y"] for e in every)), "l2": args.l2,
            "features": len(every[0]["x"])}
    model = chatter.Model(embedder.model_id, w, b, meta)
    print(f"fitted on {len(every)} pairs from {', '.join(args.sets)}: weights {np.round(w, 2).tolist()} bias {b:.2f}")
    if not args.check:
        supersede.WEIGHTS.write_text(json.dumps(model.to_json()) + "\n")
        print(f"wrote {supersede.WEIGHTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
