"""LoCoMo through the write path: every turn goes through ``add()``, then evidence recall and observation coverage.

``kenning eval locomo FILE --through add``. The raw-turn mode (``locomo.run``,
one stored memory per turn, nothing extracted) runs in the same command on
the same conversations and is printed beside it as the baseline.

Ingestion, per conversation:

- Two scopes: speaker A as ``user`` and B as ``assistant``, then a second
  scope with the roles swapped, so that each speaker's own statements reach
  the extractor as user turns once. A scope's user id carries its user-side
  speaker's name (``caroline.conv-26``), as a deployment's user id may, so the
  library's own name handling applies.
- One ``add(wait=True)`` per turn, in session and turn order, carrying that
  turn only, with the turn's ``dia_id`` as the message id (claims cite it in
  ``source_refs``) and ``session_id`` one per LoCoMo session. The previous
  turn is *not* repeated in the call: it would be extracted a second time,
  under a second id. Reading a reply ("yes, it was amazing!") against the
  turn before it is the write path's own job: it keeps the last assistant
  turn of each session and hands it to the extractor as context.
- ``now`` is the session's date plus one second per turn, so that the order
  of turns is also the order of their times. Image turns are the words plus
  ``" [shares <blip_caption>]"``, as in the raw mode; no speaker prefix and no
  date go into the content (that is what a user would type).
- Nothing else is called: no consolidation, no worker pass.

Evidence recall: a retrieved memory counts for the turns in its
``source_refs``; recall@k is the share of a question's gold turns cited by
the top ``k`` memories (k counts memories, not turns). A question is routed
to the scope of the speaker it names when it names exactly one of the two,
which is how an agent asks its own user's memory; a question naming both or
neither searches both scopes, merged by score (the scores come from the same
scoring function over the same kind of records). Searches use
``refresh=False`` and the conversation's last session date, like the raw mode.
Routing was chosen before measuring; because category 5 (adversarial)
questions deliberately name the speaker who did *not* say it, routing sends
them to the other side's scope, so ``recall_both_scopes`` (every question
searched in both scopes, merged by score) is reported too; it is also the
like-for-like comparison with the raw mode, whose one scope holds both
speakers' turns.

Observation coverage. The matching rule, fixed before anything was measured:
a memory *covers* an observation when the cosine of the bundled embedder
(the run's embedder, MiniLM from the CLI) between the two texts is at least
the threshold, reported at 0.5 and 0.6 (``THRESHOLDS``). Both texts are first
stripped of the two speakers' names, "the user" and "user" (with
possessives), because observations say "Caroline ..." and extracted claims
say "User ...": the claim alone should decide. Reported per threshold:

- ``coverage``: over every scope, the share of the gold observations about
  that scope's user-side speaker (all sessions) that some active memory of
  the scope covers;
- ``memory_precision``: the share of the scopes' active memories that cover
  some gold observation about their user-side speaker
  (``precision_any_speaker`` also accepts the other speaker's observations);
- ``coverage_anchored``: coverage where the covering memory must also cite
  one of the observation's evidence turns.

The observations are read for this measurement only: never for ingestion,
routing or tuning. A run that extracts nothing reports coverage, precision
and recall 0, never n/a.
"""

from __future__ import annotations

import json
import re
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from kenning.errors import ValidationError
from kenning.evals import locomo
from kenning.evals.locomo import CATEGORIES, CATEGORY_NAMES, KS, POOLED, Question
from kenning.evals.metrics import percentile
from kenning.lifecycle.guard import Refused

THRESHOLDS = (0.5, 0.6)
TENANT = "locomo"


@dataclass(frozen=True)
class Line:
    """One turn as ``add`` receives it: the speaker, the normalised dia_id, the content."""

    dia_id: str
    speaker: str
    content: str


@dataclass(frozen=True)
class Session:
    """One LoCoMo session: its number, its date (UTC), its turns in order."""

    number: int
    at: datetime
    lines: list[Line]


@dataclass(frozen=True)
class Observation:
    """A gold fact about ``speaker``, with the turns it was drawn from."""

    speaker: str
    text: str
    evidence: frozenset[str]


@dataclass(frozen=True)
class Dialogue:
    """One conversation: speakers A and B, sessions, gold observations (for coverage only), scored questions."""

    sample_id: str
    speakers: tuple[str, str]
    sessions: list[Session]
    observations: list[Observation]
    questions: list[Question]
    last_at: datetime


def load(path: str | Path) -> list[Dialogue]:
    """Parse ``locomo10.json`` for the write-path run; raises ValidationError naming what is wrong."""
    convs = locomo.load(path)  # validates the file and normalises the questions as the raw mode does
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    out = []
    for i, (sample, conv) in enumerate(zip(data, convs)):
        try:
            out.append(_dialogue(sample, conv))
        except (KeyError, TypeError, AttributeError, IndexError) as exc:
            raise ValidationError(f"{path}: conversation {i} is not in LoCoMo's format ({exc!r})") from exc
    return out


def _dialogue(sample: dict[str, Any], conv: locomo.Conversation) -> Dialogue:
    c = sample["conversation"]
    numbers = sorted(int(m.group(1)) for k in c if (m := locomo._SESSION.match(k)) and isinstance(c[k], list))
    sessions = []
    for n in numbers:
        lines = [Line(locomo.evidence_ids([t["dia_id"]])[0], t["speaker"], _content(t)) for t in c[f"session_{n}"]]
        sessions.append(Session(n, locomo.parse_date(c[f"session_{n}_date_time"]), lines))
    observations = [
        Observation(speaker, str(item[0]), frozenset(locomo.evidence_ids(item[1] if isinstance(item[1], list) else [item[1]])))
        for per_session in (sample.get("observation") or {}).values()
        for speaker, items in per_session.items()
        for item in items
    ]
    return Dialogue(conv.sample_id, (c["speaker_a"], c["speaker_b"]), sessions, observations, conv.questions, conv.last_at)


def _content(turn: dict[str, Any]) -> str:
    text = str(turn.get("text", "")).strip()
    if turn.get("blip_caption"):
        text += f" [shares {turn['blip_caption'].strip()}]"
    return text.strip() or "..."


def user_id(name: str, sample_id: str) -> str:
    """The scope user id of the side where ``name`` is the user."""
    return f"{name.lower()}.{sample_id}"


# -- pure parts -------------------------------------------------------------------


def calls(d: Dialogue, side: int, session: Session) -> list[tuple[str, datetime, dict[str, str]]]:
    """The ``add`` calls of one session in the scope where ``d.speakers[side]`` is the user:
    ``(session_id, now, message)``, one turn each, in order."""
    return [
        (
            f"{d.sample_id}:S{session.number}",
            session.at + timedelta(seconds=i),
            {"role": "user" if line.speaker == d.speakers[side] else "assistant", "content": line.content, "id": line.dia_id},
        )
        for i, line in enumerate(session.lines)
    ]


def ref_metrics(ranked: Sequence[frozenset[str]], gold: frozenset[str]) -> dict[str, float]:
    """``locomo.item_metrics`` for memories that each cite a set of turns (their ``source_refs``).

    recall@k: share of gold turns cited by the first k memories. A memory is a
    hit when it cites a gold turn not cited higher up (so nDCG stays in [0, 1]
    and one turn cited by five memories counts once). With one distinct turn
    per memory this equals ``item_metrics``.
    """
    out = {f"recall@{k}": len(gold & frozenset().union(*ranked[:k])) / len(gold) for k in KS}
    seen: set[str] = set()
    gains = []
    for refs in ranked:
        new = (gold & refs) - seen
        gains.append(1.0 if new else 0.0)
        seen |= new
    out["any@10"] = 1.0 if any(gold & r for r in ranked[:10]) else 0.0
    dcg = sum(g / np.log2(i + 2) for i, g in enumerate(gains[:10]))
    ideal = sum(1.0 / np.log2(i + 2) for i in range(min(len(gold), 10)))
    out["ndcg@10"] = float(dcg / ideal)
    out["mrr"] = next((1.0 / (i + 1) for i, r in enumerate(ranked) if gold & r), 0.0)
    return out


def route(question: str, speakers: Sequence[str]) -> list[int]:
    """Indices of the scopes to search: the one speaker the question names, else both."""
    named = [i for i, s in enumerate(speakers) if re.search(rf"\b{re.escape(s)}\b", question, re.IGNORECASE)]
    return named if len(named) == 1 else list(range(len(speakers)))


def unnamed(text: str, names: Sequence[str]) -> str:
    """``text`` without the speakers' names, "the user" and "user" (possessives too): the matching rule's normalisation."""
    words = sorted({*(n.lower() for n in names), "the user", "user"}, key=len, reverse=True)
    out = re.sub(r"\b(" + "|".join(re.escape(w) for w in words) + r")(['’]s)?\b", " ", text, flags=re.IGNORECASE)
    return re.sub(r"\s+", " ", out).strip() or text


def coverage(
    sims: np.ndarray,
    memory_refs: Sequence[frozenset[str]],
    observations: Sequence[Observation],
    own: Sequence[bool],
    threshold: float,
) -> dict[str, int]:
    """Counts for one scope: ``sims[i, j]`` is memory i against observation j; ``own[j]`` marks the user-side speaker's.

    Returns ``observations`` (own), ``covered``, ``anchored``, ``memories``,
    ``precise`` (memories covering an own observation) and ``precise_any``.
    """
    hit = sims >= threshold if sims.size else np.zeros((len(memory_refs), len(observations)), dtype=bool)
    own_mask = np.asarray(own, dtype=bool)
    anchored = np.array(
        [[bool(hit[i, j]) and bool(memory_refs[i] & observations[j].evidence) for j in range(len(observations))] for i in range(len(memory_refs))],
        dtype=bool,
    ).reshape(hit.shape)
    return {
        "observations": int(own_mask.sum()),
        "covered": int((hit.any(axis=0) & own_mask).sum()),
        "anchored": int((anchored.any(axis=0) & own_mask).sum()),
        "memories": len(memory_refs),
        "precise": int(hit[:, own_mask].any(axis=1).sum()) if own_mask.any() else 0,
        "precise_any": int(hit.any(axis=1).sum()) if hit.size else 0,
    }


def _share(num: int, den: int) -> float:
    """A ratio in [0, 1]; 0.0 (not None) when there is nothing, so an empty run never reads as a pass."""
    return round(num / den, 4) if den else 0.0


def summarise_coverage(counts: Sequence[dict[str, int]]) -> dict[str, Any]:
    """Pooled coverage figures over the scopes' counts."""
    tot = {key: sum(c[key] for c in counts) for key in ("observations", "covered", "anchored", "memories", "precise", "precise_any")}
    return {
        "coverage": _share(tot["covered"], tot["observations"]),
        "coverage_anchored": _share(tot["anchored"], tot["observations"]),
        "memory_precision": _share(tot["precise"], tot["memories"]),
        "precision_any_speaker": _share(tot["precise_any"], tot["memories"]),
        **tot,
    }


# -- the run ----------------------------------------------------------------------


def run(
    path: str | Path,
    *,
    embedder: Any = None,
    k: int = 20,
    limit: int | None = None,
    baseline: bool = True,
    progress: Callable[[int, int, str], None] | None = None,
) -> dict[str, Any]:
    """Ingest every conversation through ``add``, ask every question, measure coverage; return the report.

    The report has ``recall`` (``pooled``, ``categories`` and ``halves``, as in the raw
    report), ``raw`` (the raw-turn report on the same conversations, unless
    ``baseline`` is false), ``coverage`` (per threshold), ``routing``,
    ``ingest`` (per-turn statistics) and ``per_conversation``.
    ``progress(done, total, label)`` counts add() calls (every turn, once per
    role) plus questions asked, over all conversations; the raw-turn baseline
    then reports its own counts.
    """
    import kenning

    if not isinstance(k, int) or k < max(KS):
        raise ValidationError(f"--k must be an integer of at least {max(KS)} (recall@{max(KS)} is reported)")
    dialogues = load(path)[:limit]
    if embedder is None:
        from kenning.embedders.minilm import MiniLMEmbedder

        embedder = MiniLMEmbedder()
    report_progress = progress or (lambda _done, _total, _label: None)
    total = sum(2 * sum(len(s.lines) for s in d.sessions) + len(d.questions) for d in dialogues)
    done = 0
    rows: dict[str, list[dict[str, float]]] = {c: [] for c in CATEGORIES}
    both_rows: dict[str, list[dict[str, float]]] = {c: [] for c in CATEGORIES}
    by_conv: list[dict[str, list[dict[str, float]]]] = []
    counts: dict[float, list[dict[str, int]]] = {t: [] for t in THRESHOLDS}
    add_ms: list[float] = []
    claims: list[int] = []
    routed = merged = active_total = 0
    ingest_s = 0.0
    refused = 0
    per_conv = []
    with tempfile.TemporaryDirectory(prefix="kenning-locomo-add-") as tmp:
        system = kenning.open(f"sqlite:///{tmp}/locomo.db", embedder=embedder)
        try:
            for d in dialogues:
                scopes = [system.scope(TENANT, user_id(s, d.sample_id)) for s in d.speakers]
                t0 = time.perf_counter()
                for side, mem in enumerate(scopes):
                    for s in d.sessions:
                        for session_id, at, message in calls(d, side, s):
                            t1 = time.perf_counter()
                            try:
                                result = mem.add([message], session_id=session_id, now=at, wait=True)
                            except Refused:
                                refused += 1  # the write guard refused the turn: nothing stored, as in use
                                continue
                            add_ms.append((time.perf_counter() - t1) * 1000)
                            claims.append(len(result.ids))
                            done += 1
                        report_progress(done, total, f"{d.sample_id} {d.speakers[side]} as user: session {s.number}")
                ingest_s += time.perf_counter() - t0
                by_conv.append({})
                for q in d.questions:
                    sides = route(q.question, d.speakers)
                    routed, merged = (routed + 1, merged) if len(sides) == 1 else (routed, merged + 1)
                    found = [mem.search(q.question, k=k, now=d.last_at, refresh=False) for mem in scopes]
                    metrics = ref_metrics(_merge([found[i] for i in sides], k), q.gold)
                    rows.setdefault(q.category, []).append(metrics)
                    by_conv[-1].setdefault(q.category, []).append(metrics)
                    both_rows.setdefault(q.category, []).append(ref_metrics(_merge(found, k), q.gold))
                    done += 1
                conv_counts = _coverage_of(d, scopes, embedder)
                for t in THRESHOLDS:
                    counts[t].extend(conv_counts[t])
                actives = [c["memories"] for c in conv_counts[THRESHOLDS[0]]]
                active_total += sum(actives)
                turns = sum(len(s.lines) for s in d.sessions)
                per_conv.append(
                    {
                        "sample_id": d.sample_id,
                        "turns": turns,
                        "active": dict(zip(d.speakers, actives)),
                        **{f"coverage@{t}": summarise_coverage(conv_counts[t])["coverage"] for t in THRESHOLDS},
                        **{f"memory_precision@{t}": summarise_coverage(conv_counts[t])["memory_precision"] for t in THRESHOLDS},
                    }
                )
                report_progress(done, total, f"{d.sample_id} done: {sum(actives)} active memories")
        finally:
            system.close()
    report: dict[str, Any] = {
        "through": "add",
        "conversations": len(dialogues),
        "recall": {
            "pooled": locomo.aggregate([r for c in POOLED for r in rows.get(c, [])]),
            "categories": {c: locomo.aggregate(rows.get(c, [])) for c in CATEGORIES},
            "halves": locomo.halves(by_conv),
        },
        "recall_both_scopes": {
            "pooled": locomo.aggregate([r for c in POOLED for r in both_rows.get(c, [])]),
            "categories": {c: locomo.aggregate(both_rows.get(c, [])) for c in CATEGORIES},
        },
        "routing": {"one_speaker": routed, "both_scopes": merged},
        "coverage": {str(t): summarise_coverage(counts[t]) for t in THRESHOLDS},
        "ingest": {
            "add_calls": len(add_ms),
            "refused_turns": refused,
            "claims_per_turn": round(sum(claims) / len(claims), 3) if claims else 0.0,
            "turns_without_claims": _share(sum(1 for c in claims if c == 0), len(claims)),
            "active_memories": active_total,
            "active_per_turn": round(active_total / len(add_ms), 3) if add_ms else 0.0,
            "add_ms_mean": round(statistics.fmean(add_ms), 2) if add_ms else 0.0,
            "add_ms_p50": round(statistics.median(add_ms), 2) if add_ms else 0.0,
            "add_ms_p95": round(percentile(add_ms, 95), 2),
            "ingest_s": round(ingest_s, 2),
        },
        "per_conversation": per_conv,
    }
    if baseline:
        report_progress(done, total, "raw-turn baseline on the same conversations")
        report["raw"] = locomo.run(path, embedder=embedder, k=k, limit=limit, progress=progress)
    return report


def _merge(results: Sequence[Sequence[Any]], k: int) -> list[frozenset[str]]:
    """The cited turns of the top ``k`` hits of several scopes' searches, merged by score."""
    hits = sorted((h for r in results for h in r), key=lambda h: -h.score)
    return [frozenset(h.memory.source_refs) for h in hits[:k]]


def _coverage_of(d: Dialogue, scopes: Sequence[Any], embedder: Any) -> dict[float, list[dict[str, int]]]:
    obs_vecs = _embed(embedder, [unnamed(o.text, d.speakers) for o in d.observations])
    out: dict[float, list[dict[str, int]]] = {t: [] for t in THRESHOLDS}
    for side, mem in enumerate(scopes):
        active = mem.list()
        vecs = _embed(embedder, [unnamed(m.text, d.speakers) for m in active])
        sims = vecs @ obs_vecs.T if len(active) and len(d.observations) else np.zeros((len(active), len(d.observations)))
        own = [o.speaker == d.speakers[side] for o in d.observations]
        refs = [frozenset(m.source_refs) for m in active]
        for t in THRESHOLDS:
            out[t].append(coverage(sims, refs, d.observations, own, t))
    return out


def _embed(embedder: Any, texts: list[str]) -> np.ndarray:
    if not texts:
        return np.zeros((0, 1), dtype=np.float32)
    from kenning.embedders.base import normalise

    return normalise(np.asarray(embedder.embed(texts, "document"), dtype=np.float32))


def format_table(report: dict[str, Any]) -> str:
    """The report as a readable table: recall beside the raw-turn figure, coverage, ingest statistics."""
    raw = report.get("raw")
    keys = [f"recall@{k}" for k in KS]
    head = f"{'cat':<4}{'type':<13}{'n':>6}" + "".join(f"{'add ' + key:>15}" for key in keys)
    head += "".join(f"{'raw ' + key:>15}" for key in keys) if raw else ""
    lines = ["LoCoMo evidence recall through add() (a memory counts for the turns in its source_refs)", head, "-" * len(head)]
    series = [(c, CATEGORY_NAMES[c], report["recall"]["categories"][c], raw["categories"][c] if raw else None) for c in CATEGORIES]
    series.append(("1-4", "pooled", report["recall"]["pooled"], raw["pooled"] if raw else None))
    for c, name, r, b in series:
        line = f"{c:<4}{name:<13}{r['n']:>6}" + "".join(f"{r[key]:>15.3f}" for key in keys)
        lines.append(line + ("".join(f"{b[key]:>15.3f}" for key in keys) if b else ""))
    for name, half in report["recall"].get("halves", {}).items():
        p = half["pooled"]
        cats = " ".join(f"{c}:{half['categories'][c]['recall@10']:.3f}" for c in POOLED)
        lines.append(f"conversations {name} through add(): pooled n={p['n']} R@10 {p['recall@10']:.3f} (by category R@10 {cats})")
    if raw:
        for name, half in raw.get("halves", {}).items():
            p = half["pooled"]
            lines.append(f"conversations {name} raw turns: pooled n={p['n']} R@10 {p['recall@10']:.3f}")
    rt = report["routing"]
    lines.append(f"questions searched in the named speaker's scope: {rt['one_speaker']}, in both scopes: {rt['both_scopes']}")
    both = report["recall_both_scopes"]
    cells = [(c, both["categories"][c]) for c in CATEGORIES] + [("1-4", both["pooled"])]
    lines.append("every question in both scopes, merged by score: recall@5/10/20 " + "; ".join(
        f"{c} " + "/".join(f"{r[key]:.3f}" for key in keys) for c, r in cells
    ))
    lines.append("")
    lines.append("observation coverage (cosine of the run's embedder, names removed, >= threshold)")
    for t, c in report["coverage"].items():
        lines.append(
            f"  >= {t}: coverage {c['coverage']:.3f} ({c['covered']}/{c['observations']}), anchored {c['coverage_anchored']:.3f}, "
            f"memory precision {c['memory_precision']:.3f} ({c['precise']}/{c['memories']}), any speaker {c['precision_any_speaker']:.3f}"
        )
    g = report["ingest"]
    lines.append("")
    lines.append(
        f"ingest: {g['add_calls']} add() calls, {g['claims_per_turn']:.2f} claims/turn, {g['turns_without_claims']:.0%} turns without claims, "
        f"{g['active_memories']} active memories ({g['active_per_turn']:.2f}/turn)"
    )
    lines.append(f"add() per turn: mean {g['add_ms_mean']:.1f} ms, p50 {g['add_ms_p50']:.1f} ms, p95 {g['add_ms_p95']:.1f} ms; ingest {g['ingest_s']:.1f} s")
    return "\n".join(lines)
