"""Train the offline engine's chatter model (``kenning.lifecycle.extraction.chatter``) on the extraction corpora.

    python scripts/train_chatter.py [--sets dev dev2 dev3 dev4 dev5] [--l2 1.0] [--check]

Each set's scenarios run through the eval runner with the model switched off (``chatter_cutoff=1``), so the
labels describe what the rules engine alone stores. At every ``memories`` step each active memory the
engine extracted is one example: worth keeping when a ``claims`` or ``allow`` entry accepts it, chatter
otherwise (one example per scenario and text). Its features are the memory's stored vector and the surface
features of ``chatter.surface``. The script prints a leave-one-set-out estimate (AUC, and the effect of
dropping what scores at or above 0.4/0.5/0.6 on each set's memory precision and claim recall), then fits on
every set and writes ``src/kenning/lifecycle/extraction/data/chatter.json``. ``val/`` and ``test/`` are
never read. Deterministic: the same corpora and engine give the same weights. ``--check`` only prints.

Friends' chats (``scripts/data/chats/``, written for Kenning, no outside data) add what the corpora hold
little of: two friends catching up, where most of what is said is reaction, praise and questions. Each chat
goes through ``add`` once with each speaker as the user (the other as the assistant), and every memory the
model would score is an example labelled by hand in ``labels.tsv`` (text, then 1 worth keeping or 0
chatter); a memory text with no label is skipped and counted, so a changed engine's new wordings show up
as unlabelled rather than guessed. They are used only with ``--chats``: the shipped model is trained on the
corpora alone (with the chats, LoCoMo memory precision rose 0.609 -> 0.639 but claim recall fell on most dev sets and
``val`` a check: mostly a shift of the cutoff, see docs/benchmarks.md, session 26).
"""

from __future__ import annotations

import argparse
import json
import pickle
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np

import kenning
from kenning.config import Settings
from kenning.embedders.minilm import MiniLMEmbedder
from kenning.evals import checks
from kenning.evals.runner import Runner
from kenning.evals.scenario import load_path
from kenning.lifecycle import slots
from kenning.lifecycle.guard import Refused
from kenning.lifecycle.extraction import chatter
from kenning.types import Kind, Source

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "extraction"
CHATS = ROOT / "scripts" / "data" / "chats"
NEVER = {"val", "test"}


def features(m) -> np.ndarray | None:
    """The model's features of a stored memory, or None when the model never judges it."""
    recognised = m.kind in (Kind.FACT, Kind.PREFERENCE) and slots.parse(m.text) is not None
    if m.embedding is None or not chatter.scored(m.kind, m.metadata or {}, recognised=recognised, source=m.source):
        return None
    return chatter.features(m.embedding, m.text, m.kind, hedged=bool((m.metadata or {}).get("hedge")), source=m.source)


def collect(embedder: MiniLMEmbedder, name: str) -> tuple[dict, list]:
    """Examples of one set, keyed (scenario, text), and its claims entries with the texts that satisfy them."""
    examples: dict[tuple[str, str], dict] = {}
    entries: list[tuple[str, list[str]]] = []
    steps: list[list[tuple[str, bool]]] = []

    def seen(sc, step, active):
        wanted = step.arg["claims"] + step.arg["allow"]
        rows = []
        for m in active:
            if m.source not in (Source.USER_SAID, Source.TOOL_RESULT) or m.embedding is None:
                continue  # remembered or assistant-relayed memories are not the engine's extraction
            keep = any(checks.satisfies(m, e) for e in wanted)
            rows.append((m.text, keep))
            if (x := features(m)) is not None:  # what the model never judges is no example
                examples[(sc.name, m.text)] = {"x": x, "junk": not keep}
        steps.append([(sc.name, t, k) for t, k in rows])
        for e in step.arg["claims"]:
            entries.append((sc.name, [m.text for m in active if checks.satisfies(m, e)]))

    Runner(embedder, settings={"chatter_cutoff": 1.0}, on_memories=seen).run(load_path(CORPUS / name))
    return examples, (steps, entries)


def chat_messages(chat: dict, name: str, side: int) -> list[tuple[str, datetime, dict[str, str]]]:
    """The ``add`` calls of one chat where ``chat["speakers"][side]`` is the user: (session id, now, message)."""
    speaker = chat["speakers"][side]
    return [
        (f"{name}:S{n}", datetime.fromisoformat(s["date"]).replace(tzinfo=timezone.utc) + timedelta(seconds=i),
         {"role": "user" if who == speaker else "assistant", "content": text, "id": f"{name}:S{n}:{i}"})
        for n, s in enumerate(chat["sessions"])
        for i, (who, text) in enumerate(s["turns"])
    ]


def collect_chats(embedder: MiniLMEmbedder, folder: Path) -> tuple[dict, tuple[list, list]]:
    """Examples from the friends' chats in ``folder``, labelled by its ``labels.tsv``; no steps or entries."""
    labels = {}
    for line in (folder / "labels.tsv").read_text().splitlines():
        text, _, label = line.rpartition("\t")
        labels[text] = label == "1"
    examples: dict[tuple[str, str], dict] = {}
    unlabelled = 0
    with tempfile.TemporaryDirectory() as tmp:
        system = kenning.open(f"sqlite:///{tmp}/chats.db", embedder=embedder, settings=Settings.model_construct(chatter_cutoff=1.0))
        try:
            for path in sorted(folder.glob("*.json")):
                chat = json.loads(path.read_text())
                for side in range(len(chat["speakers"])):
                    mem = system.scope("chats", f"{path.stem}.{side}")
                    for session_id, now, message in chat_messages(chat, path.stem, side):
                        try:
                            mem.add([message], session_id=session_id, now=now, wait=True)
                        except Refused:
                            continue
                    for m in mem.list():
                        if (x := features(m)) is None:
                            continue
                        if m.text not in labels:
                            unlabelled += 1
                            continue
                        examples[(f"{path.stem}.{side}", m.text)] = {"x": x, "junk": not labels[m.text]}
        finally:
            system.close()
    print(f"chats: {len(examples)} labelled examples, {unlabelled} memory texts without a label", flush=True)
    return examples, ([], [])


def effect(scores: dict, steps: list, entries: list, cutoff: float) -> tuple[float, float, float, float]:
    """(precision before, after, recall before, after) of one set when what scores >= cutoff is not stored."""
    drop = {key for key, p in scores.items() if p >= cutoff}
    rows = [r for step in steps for r in step]
    kept = [r for r in rows if (r[0], r[1]) not in drop]
    p0 = sum(r[2] for r in rows) / max(1, len(rows))
    p1 = sum(r[2] for r in kept) / max(1, len(kept))
    r0 = sum(bool(texts) for _, texts in entries) / max(1, len(entries))
    r1 = sum(any((sc, t) not in drop for t in texts) for sc, texts in entries) / max(1, len(entries))
    return p0, p1, r0, r1


def auc(p: np.ndarray, y: np.ndarray) -> float:
    ranks = np.empty(len(p))
    ranks[np.argsort(p)] = np.arange(1, len(p) + 1)
    pos = y == 1
    return float((ranks[pos].sum() - pos.sum() * (pos.sum() + 1) / 2) / max(1, pos.sum() * (~pos).sum()))


def collected(sets: list[str], cache: str | None, collect_one) -> dict:
    """Each set's examples, from the ``cache`` pickle when it exists, else collected (and cached if asked)."""
    if cache and Path(cache).exists():
        return {k: v for k, v in pickle.loads(Path(cache).read_bytes()).items() if k in sets}
    data = {name: collect_one(name) for name in sets}
    if cache:
        Path(cache).write_bytes(pickle.dumps(data))
    return data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", nargs="+", default=["dev", "dev2", "dev3", "dev4", "dev5"])
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--check", action="store_true", help="print the estimate only; write nothing")
    ap.add_argument("--cache", help="keep the collected examples in this pickle file (reused when it exists)")
    ap.add_argument("--chats", action="store_true", help="also train on the labelled friends' chats in scripts/data/chats")
    ap.add_argument("--out", type=Path, default=chatter.WEIGHTS, help="where to write the weights (default: the shipped file)")
    args = ap.parse_args()
    if NEVER & set(args.sets):
        ap.error("val/ and test/ are held out: never train on them")
    embedder = MiniLMEmbedder()
    data = collected(args.sets, args.cache, lambda name: collect(embedder, name))
    if args.chats:
        data["chats"] = collect_chats(embedder, CHATS)
    for name in data:  # leave one set out
        train = [ex for other, (exs, _) in data.items() if other != name for ex in exs.values()]
        w, b = chatter.fit(np.stack([e["x"] for e in train]), np.array([e["junk"] for e in train], float), l2=args.l2)
        model = chatter.Model(embedder.model_id, w, b, {})
        exs, (steps, entries) = data[name]
        keys = list(exs)
        p = model.score(np.stack([exs[k]["x"] for k in keys]))
        y = np.array([exs[k]["junk"] for k in keys], float)
        scores = dict(zip(keys, p))
        line = [f"{name}: {len(keys)} examples, chatter {y.mean():.2f}, AUC {auc(p, y):.3f}"]
        for cut in (0.4, 0.5, 0.6) if steps else ():
            p0, p1, r0, r1 = effect(scores, steps, entries, cut)
            line.append(f"@{cut}: precision {p0:.3f}->{p1:.3f} recall {r0:.3f}->{r1:.3f}")
        print(" | ".join(line), flush=True)
    every = [ex for exs, _ in data.values() for ex in exs.values()]
    w, b = chatter.fit(np.stack([e["x"] for e in every]), np.array([e["junk"] for e in every], float), l2=args.l2)
    meta = {"trained_on": list(data), "examples": len(every), "chatter_share": round(float(np.mean([e["junk"] for e in every])), 4),
            "l2": args.l2, "features": f"{embedder.dim} vector dims + chatter.surface ({len(every[0]['x']) - embedder.dim})"}
    model = chatter.Model(embedder.model_id, w, b, meta)
    print(f"fitted on {len(every)} examples from {', '.join(data)}")
    if not args.check:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(model.to_json()) + "\n")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
