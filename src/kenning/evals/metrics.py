"""The report's metrics (SPEC "Report"), gathered while the runner works, summarised at the end.

Undefined ratios (no check lists ``relevant``, no scenario is tagged
``reconcile``, no check returned two hits) are ``None`` (JSON ``null``), not
0 or 1: an absent measurement must not read as a perfect one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kenning.evals.checks import CheckOutcome, MemoriesOutcome

CROWDING_COSINE = 0.9


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100), linear interpolation; 0.0 for no values."""
    if not values:
        return 0.0
    s = sorted(values)
    pos = (len(s) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def ratio(num: float, den: float, digits: int = 3) -> float | None:
    return round(num / den, digits) if den else None


@dataclass
class Tally:
    """Raw counts for the metrics, accumulated over every scenario of a run."""

    search_ms: list[float] = field(default_factory=list)
    relevant_hits: int = 0
    precision_hits: int = 0
    forget_leaks: int = 0
    everywhere_leaks: int = 0
    reconcile_checks: int = 0
    stale_checks: int = 0
    pairs: int = 0
    crowded_pairs: int = 0
    claims: int = 0
    claims_held: int = 0
    expected_memories: int = 0
    active_memories: int = 0

    def add_check(self, tags: Sequence[str], outcome: CheckOutcome, pairs: tuple[int, int], *, complete: bool = True) -> None:
        """Count one evaluated ``check`` step of a scenario with ``tags``.

        ``complete`` is False when an earlier step of the scenario failed: its
        leaks count, but it stays out of the ratios.
        """
        if "forget" in tags:
            self.forget_leaks += len(outcome.leaked)
        if not complete:
            return
        if outcome.has_relevant:
            self.relevant_hits += outcome.relevant_hits
            self.precision_hits += outcome.returned_hits
        if "reconcile" in tags:
            self.reconcile_checks += 1
            self.stale_checks += int(outcome.stale)
        self.pairs += pairs[0]
        self.crowded_pairs += pairs[1]


    def add_memories(self, outcome: MemoriesOutcome, *, complete: bool = True) -> None:
        """Count one evaluated ``memories`` step. After a failed step its claims count as not held
        (what the scenario wrote is missing) and its memories still count for precision."""
        self.claims += len(outcome.claims)
        self.claims_held += sum(1 for why in outcome.claims if not why) if complete else 0
        self.expected_memories += outcome.expected
        self.active_memories += outcome.active


def build_report(scenarios: list[dict[str, Any]], tally: Tally) -> dict[str, Any]:
    """The SPEC's report object from per-scenario results and the run's tally."""
    passed = sum(s["passed"] for s in scenarios)
    total = sum(s["total"] for s in scenarios)
    by_tag: dict[str, dict[str, int]] = {}
    for s in scenarios:
        for tag in s["tags"]:
            t = by_tag.setdefault(tag, {"passed": 0, "total": 0})
            t["passed"] += s["passed"]
            t["total"] += s["total"]
    return {
        "scenarios": scenarios,
        "metrics": {
            "checks_passed": passed,
            "checks_total": total,
            "pass_rate": ratio(passed, total),
            "precision": ratio(tally.relevant_hits, tally.precision_hits),
            "claim_recall": ratio(tally.claims_held, tally.claims),
            "memory_precision": ratio(tally.expected_memories, tally.active_memories),
            "deletion_leaks": tally.everywhere_leaks + tally.forget_leaks,
            "stale_recall_rate": ratio(tally.stale_checks, tally.reconcile_checks),
            "crowding_share": ratio(tally.crowded_pairs, tally.pairs),
            "search_ms_p50": round(percentile(tally.search_ms, 50), 2),
            "search_ms_p95": round(percentile(tally.search_ms, 95), 2),
        },
        "by_tag": dict(sorted(by_tag.items())),
    }


def format_report(report: dict[str, Any]) -> str:
    """The report as a readable table: scenarios, failing checks with reasons, metrics, tags."""
    lines = [f"{'scenario':<32}{'passed':>8}  tags", "-" * 64]
    for s in report["scenarios"]:
        mark = "ok  " if s["passed"] == s["total"] else "FAIL"
        lines.append(f"{mark} {s['name']:<27}{s['passed']:>4}/{s['total']:<3}  {', '.join(s['tags'])}")
        for c in s["checks"]:
            if not c["passed"]:
                lines.append(f"       step {c['step']} {c['kind']}: {c['why']}")
    m = report["metrics"]
    lines += ["", "metrics"]
    for key, value in m.items():
        lines.append(f"  {key:<20}{'n/a' if value is None else value}")
    lines += ["", "by tag"]
    for tag, t in report["by_tag"].items():
        lines.append(f"  {tag:<20}{t['passed']}/{t['total']}")
    return "\n".join(lines)
