"""Pure evaluation of one ``check`` against the hits a search returned.

String matching is case-insensitive substring matching on the memory's
text, as the SPEC says. Each function returns the list of failures as
human-readable reasons (empty when the check holds) plus, for the metrics,
which ``forbid`` strings leaked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kenning.types import Memory

QUOTE_CHARS = 80


@dataclass
class CheckOutcome:
    """What one check found: its failures, the leaked ``forbid`` strings, precision counts."""

    failures: list[str] = field(default_factory=list)
    leaked: list[str] = field(default_factory=list)
    stale: bool = False  # a forbid or forbid_match failed
    relevant_hits: int = 0
    returned_hits: int = 0
    has_relevant: bool = False


def quote(text: str) -> str:
    return repr(text if len(text) <= QUOTE_CHARS else text[: QUOTE_CHARS - 1] + "…")


def contains(text: str, needle: str) -> bool:
    return needle.lower() in text.lower()


def satisfies(m: Memory, entry: dict[str, Any]) -> bool:
    """Whether memory ``m`` satisfies every field of a ``match`` / ``forbid_match`` entry."""
    if any(not contains(m.text, s) for s in entry.get("contains", ())):
        return False
    if any(contains(m.text, s) for s in entry.get("not_contains", ())):
        return False
    if "kind" in entry and m.kind.value not in entry["kind"]:
        return False
    if "source" in entry and m.source.value not in entry["source"]:
        return False
    if "supersedes" in entry and bool(m.supersedes) is not entry["supersedes"]:
        return False
    if "max_confidence" in entry and m.confidence > entry["max_confidence"]:
        return False
    if "min_confidence" in entry and m.confidence < entry["min_confidence"]:
        return False
    if "sensitivity" in entry and m.sensitivity.value != entry["sensitivity"]:
        return False
    return True


def describe(entry: dict[str, Any]) -> str:
    parts = []
    for key, value in entry.items():
        if isinstance(value, (set, frozenset)):
            value = sorted(value)
        elif key == "contains" and len(value) == 1:
            value = value[0]
        parts.append(f"{key}: {value!r}")
    return "{" + ", ".join(parts) + "}"


def evaluate(spec: dict[str, Any], memories: Sequence[Memory]) -> CheckOutcome:
    """Evaluate a validated ``check`` against the returned memories (best first)."""
    out = CheckOutcome(returned_hits=len(memories))
    texts = [m.text for m in memories]
    k = spec["k"]
    shown = "[" + ", ".join(quote(t) for t in texts[:5]) + (", …]" if len(texts) > 5 else "]")
    for s in spec.get("expect", ()):
        if not any(contains(t, s) for t in texts):
            out.failures.append(f"expect {s!r} not in top-{k}: {shown}")
    for s in spec.get("forbid", ()):
        bad = next((t for t in texts if contains(t, s)), None)
        if bad is not None:
            out.failures.append(f"forbid {s!r} found: {quote(bad)}")
            out.leaked.append(s)
            out.stale = True
    if "top" in spec:
        if not texts:
            out.failures.append(f"top {spec['top']!r}: nothing returned")
        elif not contains(texts[0], spec["top"]):
            out.failures.append(f"top {spec['top']!r}: first hit is {quote(texts[0])}")
    if "empty" in spec:
        if spec["empty"] and texts:
            out.failures.append(f"empty: expected no hits, got {len(texts)}: {shown}")
        if not spec["empty"] and not texts:
            out.failures.append("empty: false, but nothing was returned")
    for j, entry in enumerate(spec.get("match", ())):
        if not any(satisfies(m, entry) for m in memories):
            out.failures.append(f"match[{j}] {describe(entry)} satisfied by none of top-{k}: {shown}")
    for j, entry in enumerate(spec.get("forbid_match", ())):
        bad_m = next((m for m in memories if satisfies(m, entry)), None)
        if bad_m is not None:
            out.failures.append(f"forbid_match[{j}] matched: {quote(bad_m.text)}")
            out.stale = True
    for s, n in spec.get("at_most", {}).items():
        got = sum(1 for t in texts if contains(t, s))
        if got > n:
            out.failures.append(f"at_most {s!r}: {got} of top-{k} contain it, limit {n}")
    if "relevant" in spec:
        out.has_relevant = True
        out.relevant_hits = sum(1 for t in texts if any(contains(t, r) for r in spec["relevant"]))
    return out


@dataclass
class MemoriesOutcome:
    """What one ``memories`` step found: a failure reason per claims/forbid entry ("" when it holds),
    and the precision counts (expected active memories, all active memories)."""

    claims: list[str] = field(default_factory=list)
    forbids: list[str] = field(default_factory=list)
    expected: int = 0
    active: int = 0
    unexpected: list[str] = field(default_factory=list)


def evaluate_memories(spec: dict[str, Any], active: Sequence[Memory], remembered: set[str]) -> MemoriesOutcome:
    """Judge every active memory of a scope against a validated ``memories`` step (SPEC "Extraction checks").

    A memory is expected when it satisfies a claims or allow entry or its text was
    written by a ``remember`` step (``remembered``); the rest are unexpected.
    """
    out = MemoriesOutcome(active=len(active))
    shown = "[" + ", ".join(quote(m.text) for m in active[:6]) + (", …]" if len(active) > 6 else "]")
    for entry in spec["claims"]:
        ok = any(satisfies(m, entry) for m in active)
        out.claims.append("" if ok else f"claim {describe(entry)} held by no active memory: {shown}")
    for entry in spec["forbid"]:
        bad = next((m for m in active if satisfies(m, entry)), None)
        out.forbids.append("" if bad is None else f"forbid {describe(entry)} matched: {quote(bad.text)}")
    wanted = spec["claims"] + spec["allow"]
    for m in active:
        if m.text in remembered or any(satisfies(m, e) for e in wanted):
            out.expected += 1
        else:
            out.unexpected.append(m.text)
    return out
