"""LoCoMo evidence recall: retrieval alone, one memory per dialogue turn, through the facade.

For each conversation of ``locomo10.json`` (Maharana et al., ACL 2024) every
turn becomes one memory of a scope of its own, written with ``remember`` at
its session's time. Each question is then a ``search`` (top 20) in that
scope, and the ranked turns are compared with the question's gold evidence
turns. Nothing is extracted and no LLM runs: this measures the retrieval
stage (embedder + hybrid scoring) on its own.

Choices, so the figures mean what they say:

- A turn's text is ``"<speaker>: <text>"``, plus ``" [shares <caption>]"``
  for image turns, plus ``" (<session date>)"`` so that a reader of the
  memory (an answering model) can resolve "yesterday". The date sits at
  the end, where it disturbs the embedding least.
- Every turn is written as ``kind=fact`` with the same importance, and the
  questions are asked at the conversation's last session date. Facts do not
  fade, so recency and importance are equal for all turns and the ranking is
  decided by relevance (cosine + keyword coverage) alone. Treating turns as
  7-day episodes would bury evidence from months earlier, which measures the
  decay policy rather than retrieval.
- Each turn is remembered with ``context=`` the two turns before it in the
  same session (``CONTEXT_TURNS``; speaker and words, no date): the stored text is
  the turn alone, but its vector and, at a discount, its keyword evidence take
  in the turn it answers ("Yes, it was amazing!" after "How was the
  concert?"). This is the library's general contextual-embedding feature
  (``ScopedMemory.remember(context=...)``), not scoring specific to LoCoMo.
- Searches pass ``refresh=False`` so one question cannot change the next.
- Evidence ids are normalised as the data README says (split lists, strip
  zero padding, ``D:11:26`` -> ``D11:26``, drop a bare ``D``); gold turns that
  do not exist are dropped, and questions left without gold are not scored
  (4 open-domain items), so pooled n is 1536.
"""

from __future__ import annotations

import json
import math
import re
import statistics
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from kenning.errors import ValidationError
from kenning.evals.metrics import percentile
from kenning.lifecycle.guard import Refused
from kenning.text import MONTHS

KS = (5, 10, 20)
# How many earlier turns of the same session a turn is remembered with as its
# context (pooled R@10 at the library's defaults: 0 -> 0.670, 1 -> 0.72,
# 2 -> 0.75, 3 -> 0.74; see docs/benchmarks.md).
CONTEXT_TURNS = 2
CATEGORIES = ("1", "2", "3", "4", "5")
POOLED = ("1", "2", "3", "4")
CATEGORY_NAMES = {"1": "multi-hop", "2": "temporal", "3": "open-domain", "4": "single-hop", "5": "adversarial"}
_EVIDENCE = re.compile(r"D:?(\d+):(\d+)")
_SESSION = re.compile(r"^session_(\d+)$")
_DATE = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})\s*$", re.IGNORECASE)
_MONTHS = {m: i for i, m in enumerate(MONTHS, 1)}


@dataclass(frozen=True)
class Turn:
    """One dialogue turn, ready to be stored."""

    dia_id: str
    text: str
    at: datetime
    context: str | None = None


@dataclass(frozen=True)
class Question:
    question: str
    category: str
    gold: frozenset[str]


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    turns: list[Turn]
    questions: list[Question]
    last_at: datetime
    skipped: int = 0


def evidence_ids(raw: Iterable[Any]) -> list[str]:
    """Normalised ``D<session>:<turn>`` ids from LoCoMo's evidence list, quirks included."""
    out: list[str] = []
    for item in raw:
        for s, t in _EVIDENCE.findall(str(item)):
            ident = f"D{int(s)}:{int(t)}"
            if ident not in out:
                out.append(ident)
    return out


def parse_date(text: str) -> datetime:
    """LoCoMo's ``"1:56 pm on 8 May, 2023"`` as a UTC datetime."""
    m = _DATE.match(text)
    if not m or m.group(5).lower() not in _MONTHS:
        raise ValidationError(f"unreadable LoCoMo session date {text!r}")
    hour, minute, ampm, day, month, year = m.groups()
    h = int(hour) % 12 + (12 if ampm.lower() == "pm" else 0)
    return datetime(int(year), _MONTHS[month.lower()], int(day), h, int(minute), tzinfo=timezone.utc)


def turn_text(turn: dict[str, Any], when: str | None = None) -> str:
    """The memory text of one turn: speaker, words, image caption, session date (when given)."""
    text = f"{turn['speaker']}: {turn.get('text', '').strip()}"
    if turn.get("blip_caption"):
        text += f" [shares {turn['blip_caption'].strip()}]"
    return f"{text} ({when})" if when else text


def with_context(turns: Sequence[Turn], lines: Sequence[str], sessions: Sequence[int], n: int) -> list[Turn]:
    """``turns`` with ``context`` set to the up to ``n`` lines before each, from the same session only."""
    out = []
    for i, t in enumerate(turns):
        prev = [lines[j] for j in range(max(0, i - n), i) if sessions[j] == sessions[i]]
        out.append(Turn(t.dia_id, t.text, t.at, "\n".join(prev) or None))
    return out


def day_text(at: datetime) -> str:
    """A session date as normalised searchable text: ``"Monday 8 May 2023"`` (no clock time)."""
    return f"{at:%A} {at.day} {at:%B %Y}"


def load(path: str | Path, context_turns: int = CONTEXT_TURNS, dates: str = "raw") -> list[Conversation]:
    """Parse ``locomo10.json``; raises ValidationError naming what is wrong.

    Each turn's ``context`` is the ``context_turns`` turns before it in its session (0: none).
    ``dates``: ``"raw"`` appends the session's date as LoCoMo writes it ("1:56 pm on 8 May,
    2023"), ``"day"`` as ``day_text`` (weekday, day, month, year).
    """
    if dates not in ("raw", "day"):
        raise ValidationError('dates must be "raw" or "day"')
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValidationError(f"{path}: cannot read LoCoMo data: {exc}") from exc
    if not isinstance(data, list):
        raise ValidationError(f"{path}: expected a JSON list of conversations")
    convs = []
    for i, sample in enumerate(data):
        try:
            convs.append(_conversation(sample, context_turns, dates))
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValidationError(f"{path}: conversation {i} is not in LoCoMo's format ({exc!r})") from exc
    return convs


def _conversation(sample: dict[str, Any], context_turns: int, dates: str = "raw") -> Conversation:
    conv = sample["conversation"]
    sessions = sorted(int(m.group(1)) for k in conv if (m := _SESSION.match(k)) and isinstance(conv[k], list))
    turns: list[Turn] = []
    lines: list[str] = []
    of_session: list[int] = []
    last = None
    for n in sessions:
        when = conv[f"session_{n}_date_time"]
        at = parse_date(when)
        last = at if last is None or at > last else last
        for t in conv[f"session_{n}"]:
            turns.append(Turn(evidence_ids([t["dia_id"]])[0], turn_text(t, when if dates == "raw" else day_text(at)), at))
            lines.append(turn_text(t))
            of_session.append(n)
    turns = with_context(turns, lines, of_session, context_turns)
    known = {t.dia_id for t in turns}
    questions, skipped = [], 0
    for qa in sample["qa"]:
        gold = frozenset(e for e in evidence_ids(qa.get("evidence", [])) if e in known)
        if not gold:
            skipped += 1
            continue
        questions.append(Question(str(qa["question"]), str(qa["category"]), gold))
    assert last is not None
    return Conversation(str(sample["sample_id"]), turns, questions, last, skipped)


# -- metrics (pure) -------------------------------------------------------------


def item_metrics(ranked: Sequence[str], gold: frozenset[str]) -> dict[str, float]:
    """Per-question metrics of a ranked list of turn ids against the gold turns."""
    out = {f"recall@{k}": len(gold.intersection(ranked[:k])) / len(gold) for k in KS}
    out["any@10"] = 1.0 if gold.intersection(ranked[:10]) else 0.0
    dcg = sum(1.0 / math.log2(i + 2) for i, r in enumerate(ranked[:10]) if r in gold)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(gold), 10)))
    out["ndcg@10"] = dcg / ideal
    out["mrr"] = next((1.0 / (i + 1) for i, r in enumerate(ranked) if r in gold), 0.0)
    return out


METRIC_KEYS = ("recall@5", "recall@10", "recall@20", "any@10", "ndcg@10", "mrr")


def aggregate(rows: Sequence[dict[str, float]]) -> dict[str, Any]:
    """Macro averages over questions, with ``n``; zeros when there are none."""
    out: dict[str, Any] = {"n": len(rows)}
    for key in METRIC_KEYS:
        out[key] = round(sum(r[key] for r in rows) / len(rows), 4) if rows else 0.0
    return out


# -- the run ----------------------------------------------------------------------


def run(
    path: str | Path,
    *,
    embedder: Any = None,
    k: int = 20,
    limit: int | None = None,
    context_turns: int = CONTEXT_TURNS,
    progress: Callable[[int, int, str], None] | None = None,
    policy: Any = None,
    dates: str = "raw",
) -> dict[str, Any]:
    """Ingest every conversation through the facade, ask every question, return the report.

    ``progress(done, total, label)`` counts turns stored plus questions asked, over all conversations.

    The report has ``pooled`` (categories 1-4), ``categories`` (1..5, each with
    ``n``), ``halves`` (the same pooled figure and categories over conversations
    1-5 and 6-10 apart: constants tuned on one half are reported on the other),
    ``ingest_s``, ``search_ms_p50`` and ``search_ms_p95``. ``context_turns``
    earlier turns of the same session are each turn's ``remember(context=...)``;
    0 stores turns without context. ``policy`` overrides the retrieval policy.
    """
    import kenning
    from kenning.embedders.base import CachedEmbedder

    if not isinstance(k, int) or k < max(KS):
        raise ValidationError(f"--k must be an integer of at least {max(KS)} (recall@{max(KS)} is reported)")
    if not isinstance(context_turns, int) or context_turns < 0:
        raise ValidationError("context_turns must be a non-negative integer")
    convs = load(path, context_turns, dates)[:limit]
    if embedder is None:
        from kenning.embedders.minilm import MiniLMEmbedder

        embedder = MiniLMEmbedder()
    # A cache big enough for one conversation lets us embed its turns (alone and
    # with their contexts) in batches up front, the way the facade embeds
    # documents; ``remember`` then finds each vector in the cache.
    cached = CachedEmbedder(embedder, size=4096)
    rows: dict[str, list[dict[str, float]]] = {c: [] for c in CATEGORIES}
    by_conv: list[dict[str, list[dict[str, float]]]] = []
    ingest_s = 0.0
    search_ms: list[float] = []
    total = sum(len(c.turns) + len(c.questions) for c in convs)
    done = 0
    refused = 0
    with tempfile.TemporaryDirectory(prefix="kenning-locomo-") as tmp:
        system = kenning.open(f"sqlite:///{tmp}/locomo.db", embedder=cached, policy=policy)
        try:
            for conv in convs:
                mem = system.scope("locomo", conv.sample_id)
                t0 = time.perf_counter()
                system.ctx.embed_documents(mem.scope, [t.text for t in conv.turns], [t.context for t in conv.turns])
                ids: dict[str, str] = {}
                for t in conv.turns:
                    try:
                        m = mem.remember(
                            t.text, kind="fact", importance=0.5, source_refs=[t.dia_id], context=t.context, now=t.at
                        )
                    except Refused:
                        refused += 1  # the write guard keeps it out (it reads as a secret or an instruction): as in use
                        continue
                    ids[m.id] = t.dia_id
                    done += 1
                    if progress and done % 25 == 0:
                        progress(done, total, f"{conv.sample_id}: storing turns")
                ingest_s += time.perf_counter() - t0
                by_conv.append({})
                for q in conv.questions:
                    t1 = time.perf_counter()
                    hits = mem.search(q.question, k=k, now=conv.last_at, refresh=False)
                    search_ms.append((time.perf_counter() - t1) * 1000)
                    ranked = [ids[h.memory.id] for h in hits]
                    metrics = item_metrics(ranked, q.gold)
                    rows.setdefault(q.category, []).append(metrics)
                    by_conv[-1].setdefault(q.category, []).append(metrics)
                    done += 1
                    if progress and done % 25 == 0:
                        progress(done, total, f"{conv.sample_id}: asking questions")
                if progress:
                    progress(done, total, f"{conv.sample_id} done")
        finally:
            system.close()
    return {
        "pooled": aggregate([r for c in POOLED for r in rows.get(c, [])]),
        "categories": {c: aggregate(rows.get(c, [])) for c in CATEGORIES},
        "halves": halves(by_conv),
        "ingest_s": round(ingest_s, 2),
        "refused_turns": refused,
        "search_ms_p50": round(statistics.median(search_ms), 2) if search_ms else 0.0,
        "search_ms_p95": round(percentile(search_ms, 95), 2),
    }


def halves(by_conv: Sequence[dict[str, list[dict[str, float]]]], first: int = 5) -> dict[str, Any]:
    """Pooled (1-4) and per-category figures over conversations 1..``first`` and the rest, apart."""
    out = {}
    for name, convs in ((f"1-{first}", by_conv[:first]), (f"{first + 1}-{len(by_conv)}", by_conv[first:])):
        if not convs:
            continue
        cats = {c: [r for conv in convs for r in conv.get(c, [])] for c in CATEGORIES}
        out[name] = {"pooled": aggregate([r for c in POOLED for r in cats[c]]), "categories": {c: aggregate(cats[c]) for c in CATEGORIES}}
    return out


def format_table(report: dict[str, Any]) -> str:
    """The report as a readable table."""
    head = f"{'cat':<4}{'type':<13}{'n':>6}" + "".join(f"{key:>11}" for key in METRIC_KEYS)
    lines = [head, "-" * len(head)]
    for c in CATEGORIES:
        r = report["categories"][c]
        lines.append(f"{c:<4}{CATEGORY_NAMES[c]:<13}{r['n']:>6}" + "".join(f"{r[key]:>11.3f}" for key in METRIC_KEYS))
    p = report["pooled"]
    lines.append(f"{'1-4':<4}{'pooled':<13}{p['n']:>6}" + "".join(f"{p[key]:>11.3f}" for key in METRIC_KEYS))
    for name, half in report.get("halves", {}).items():
        p = half["pooled"]
        cats = " ".join(f"{c}:{half['categories'][c]['recall@10']:.3f}" for c in POOLED)
        lines.append(f"conversations {name}: pooled n={p['n']} R@10 {p['recall@10']:.3f} (by category R@10 {cats})")
    lines.append(
        f"ingest {report['ingest_s']:.1f} s · search p50 {report['search_ms_p50']:.1f} ms · p95 {report['search_ms_p95']:.1f} ms"
    )
    return "\n".join(lines)


def plot(report: dict[str, Any], path: str | Path) -> None:
    """Save recall@k curves per category as a PNG (needs matplotlib, not a Kenning dependency)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 4))
    series = [(f"{c} {CATEGORY_NAMES[c]}", report["categories"][c]) for c in CATEGORIES] + [("1-4 pooled", report["pooled"])]
    for label, r in series:
        ax.plot(KS, [r[f"recall@{k}"] for k in KS], marker="o", label=label)
    ax.set_xlabel("k")
    ax.set_ylabel("evidence recall@k")
    ax.set_ylim(0, 1)
    ax.set_xticks(KS)
    ax.legend(fontsize=8)
    ax.set_title("LoCoMo turn-level evidence recall")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _pyplot() -> Any:
    """matplotlib's pyplot on the file-only backend; a clear error when matplotlib is absent."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ValidationError("--plot needs matplotlib, which Kenning does not install: pip install matplotlib") from exc
    return plt
