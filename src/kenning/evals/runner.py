"""The scenario runner: every step through the public facade, the clock set to the step's time.

Each scenario runs on a fresh SQLite file of its own; one embedder instance
is shared by all of them (loading the model is the slow part).

Honesty rules:
- A step that raises (for instance ``CapabilityMissing`` while extraction is
  not built) is recorded, and every later check of that scenario fails with
  the reason, even if its own conditions happen to hold: a "forbid" that
  passes because nothing was ever stored proves nothing. Checks are never
  skipped and never counted as passed by default.
- An error inside a check (search raising, say) fails that check.
- A crash while setting up one scenario fails that scenario's checks; the
  other scenarios still run.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import kenning
from kenning.config import Settings
from kenning.evals import checks
from kenning.evals.metrics import CROWDING_COSINE, Tally, build_report
from kenning.evals.scenario import ACTION_KINDS, Scenario, Step
from kenning.types import Memory

EVERYWHERE_K = 50


@dataclass
class CheckResult:
    step: int
    kind: str
    passed: bool
    why: str

    def as_dict(self) -> dict[str, Any]:
        return {"step": self.step, "kind": self.kind, "passed": self.passed, "why": self.why}


@dataclass
class ScenarioResult:
    name: str
    tags: tuple[str, ...]
    checks: list[CheckResult] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(1 for c in self.checks if c.passed)

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "tags": list(self.tags),
            "passed": self.passed,
            "total": len(self.checks),
            "checks": [c.as_dict() for c in self.checks],
        }


def _error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


class Runner:
    """Runs validated scenarios against fresh stores; ``run`` returns the SPEC's report dict."""

    def __init__(
        self,
        embedder: Any,
        *,
        progress: Callable[[int, int, str], None] | None = None,
        settings: Mapping[str, Any] | None = None,
        on_memories: Callable[[Scenario, Step, list[Memory]], None] | None = None,
    ) -> None:
        self.embedder = embedder
        self.progress = progress
        self.settings = dict(settings or {})  # Settings fields every scenario's store gets (a scenario's capacity wins)
        self.on_memories = on_memories  # sees the active memories each ``memories`` step judges (for corpus tools)

    def run(self, scenarios: Sequence[Scenario]) -> dict[str, Any]:
        tally = Tally()
        results = []
        for i, sc in enumerate(scenarios, 1):
            results.append(self.run_one(sc, tally))
            if self.progress:  # (done, total, label), e.g. for a progress bar
                r = results[-1]
                self.progress(i, len(scenarios), f"{sc.name}: {r.passed}/{len(r.checks)}")
        return build_report([r.as_dict() for r in results], tally)

    def run_one(self, sc: Scenario, tally: Tally) -> ScenarioResult:
        result = ScenarioResult(sc.name, sc.tags)
        with tempfile.TemporaryDirectory(prefix="kenning-eval-") as tmp:
            try:
                given = {**self.settings, **({"capacity": sc.capacity} if sc.capacity else {})}
                settings = Settings.model_construct(**given)
                system = kenning.open(f"sqlite:///{tmp}/s.db", embedder=self.embedder, settings=settings)
            except Exception as exc:  # noqa: BLE001 - one broken scenario must not stop the others
                why = f"could not open a store for the scenario: {_error(exc)}"
                result.checks = [CheckResult(s.index, s.kind, False, why) for s in sc.steps if s.kind not in ACTION_KINDS]
                return result
            try:
                _ScenarioRun(sc, system, tally, result, self.on_memories).go()
            finally:
                system.close()
        return result


class _ScenarioRun:
    def __init__(self, sc: Scenario, system: kenning.Kenning, tally: Tally, result: ScenarioResult, on_memories: Any = None) -> None:
        self.sc = sc
        self.on_memories = on_memories
        self.system = system
        self.tally = tally
        self.result = result
        self.broken: list[tuple[int, str, str]] = []  # failed action steps: (index, kind, error)
        self.remembered: dict[tuple[str, str], set[str]] = {}  # texts written by remember steps, per scope

    def go(self) -> None:
        for step in self.sc.steps:
            if step.kind in ACTION_KINDS:
                try:
                    self.act(step)
                except Exception as exc:  # noqa: BLE001 - recorded; later checks fail with it
                    self.broken.append((step.index, step.kind, _error(exc)))
                continue
            try:
                got = getattr(self, f"check_{step.kind}")(step)
            except Exception as exc:  # noqa: BLE001 - the check fails, the scenario goes on
                got = f"the check raised {_error(exc)}"
                if step.kind == "memories":
                    got = [got] * (len(step.arg["claims"]) + len(step.arg["forbid"]))
            for why in [got] if isinstance(got, str) else got:
                if self.broken:
                    own = f"; on its own the check {'would have passed' if not why else 'failed: ' + why}"
                    why = f"depends on {self.broken_reason()}{own}"
                self.result.checks.append(CheckResult(step.index, step.kind, not why, why))
        last_check = max((c.step for c in self.result.checks), default=-1)
        trailing = [b for b in self.broken if b[0] > last_check]
        if trailing:
            # No check came after these failures; report them rather than let them vanish.
            index, kind, _ = trailing[0]
            self.result.checks.append(CheckResult(index, kind, False, self.broken_reason(trailing)))

    def broken_reason(self, broken: list[tuple[int, str, str]] | None = None) -> str:
        """The failed steps, grouped by error: 'failed steps 0, 1 (say): CapabilityMissing: …'."""
        groups: dict[str, list[str]] = {}
        for index, kind, error in self.broken if broken is None else broken:
            groups.setdefault(error, []).append(f"{index} ({kind})")
        parts = []
        for error, steps in groups.items():
            parts.append(f"failed step{'s' if len(steps) > 1 else ''} {', '.join(steps)}: {error}")
        return "; ".join(parts)

    def scope(self, step: Step) -> kenning.ScopedMemory:
        return self.system.scope(step.tenant, step.user)

    # -- actions --------------------------------------------------------------

    def act(self, step: Step) -> None:
        mem, at, arg = self.scope(step), step.at, step.arg
        if step.kind == "say":
            mem.add([{"role": "user", "content": arg}], session_id=step.session, now=at, wait=True)
        elif step.kind == "reply":
            mem.add([{"role": "assistant", "content": arg}], session_id=step.session, now=at, wait=True)
        elif step.kind == "tool":
            mem.add([{"role": "tool", "name": arg["name"], "content": arg["content"]}], session_id=step.session, now=at, wait=True)
        elif step.kind == "remember":
            self.remembered.setdefault((step.tenant, step.user), set()).add(arg["text"])
            mem.remember(**arg, session_id=step.session, now=at)
        elif step.kind == "forget":
            mem.forget(arg, now=at)
        elif step.kind == "forget_user":
            mem.delete_all(now=at)
        elif step.kind == "maintain":
            self.system.maintain(now=at)
        else:  # pragma: no cover - the validator admits only known kinds
            raise AssertionError(step.kind)

    # -- checks (each returns "" when it holds, else the reason) ----------------

    def search(self, step: Step, query: str, k: int) -> list[kenning.Hit]:
        t0 = time.perf_counter()
        try:
            return self.scope(step).search(query, k=k, now=step.at, session_id=step.session)
        finally:
            self.tally.search_ms.append((time.perf_counter() - t0) * 1000)

    def check_check(self, step: Step) -> str:
        spec = step.arg
        hits = self.search(step, spec["query"], spec["k"])
        mems = [h.memory for h in hits]
        outcome = checks.evaluate(spec, mems)
        # After a failed step, leaks still count (a leak is a leak) but the
        # ratios (precision, stale recall, crowding) would describe a store
        # missing what the scenario wrote, so they leave this check out.
        self.tally.add_check(self.sc.tags, outcome, _pairs(mems), complete=not self.broken)
        return "; ".join(outcome.failures)

    def check_check_everywhere(self, step: Step) -> str:
        mem = self.scope(step)
        active = mem.list()
        # vectors are numbers, not text: a 4-digit secret must not "match" the digits of a float
        exported = json.dumps(_without_vectors(mem.export()), default=str).lower()
        problems = []
        for s in step.arg["forbid"]:
            paths = []
            hit = next((h.memory.text for h in self.search(step, s, EVERYWHERE_K) if checks.contains(h.memory.text, s)), None)
            if hit is not None:
                paths.append(f"search ({checks.quote(hit)})")
            listed = next((m.text for m in active if checks.contains(m.text, s)), None)
            if listed is not None:
                paths.append(f"list ({checks.quote(listed)})")
            if s.lower() in exported:
                paths.append("export")
            if paths:
                problems.append(f"{s!r} reachable via {', '.join(paths)}")
                self.tally.everywhere_leaks += 1
        return "; ".join(problems)

    def check_memories(self, step: Step) -> list[str]:
        """One reason per claims entry, then per forbid entry ("" where it holds)."""
        active = self.scope(step).list()
        if self.on_memories is not None:
            self.on_memories(self.sc, step, active)
        outcome = checks.evaluate_memories(step.arg, active, self.remembered.get((step.tenant, step.user), set()))
        self.tally.add_memories(outcome, complete=not self.broken)
        reasons = outcome.claims + outcome.forbids
        if outcome.unexpected and any(reasons):
            # say what else was stored, so a failing step shows the whole picture
            extra = ", ".join(checks.quote(t) for t in outcome.unexpected[:4])
            reasons = [f"{r}; unexpected: {extra}" if r else r for r in reasons]
        return reasons

    def check_count_active(self, step: Step) -> str:
        n = self.scope(step).count()
        bounds = step.arg
        if "max" in bounds and n > bounds["max"]:
            return f"{n} active memories, max {bounds['max']}"
        if "min" in bounds and n < bounds["min"]:
            return f"{n} active memories, min {bounds['min']}"
        return ""


def _without_vectors(data: Any) -> Any:
    """``data`` (an export) without what is no text anyone said: embeddings, ids and their references (random
    hex digits: "…3081…" inside an id is no leaked PIN) and timestamps."""
    if isinstance(data, dict):
        return {k: _without_vectors(v) for k, v in data.items() if not _not_text(k)}
    if isinstance(data, list):
        return [_without_vectors(v) for v in data]
    return data


def _not_text(key: str) -> bool:
    return key in ("embedding", "id", "at", "supersedes", "source_refs") or key.endswith(("_id", "_ids", "_at"))


def _pairs(mems: Sequence[Any]) -> tuple[int, int]:
    """(pairs of returned hits, pairs at or above CROWDING_COSINE), from their stored unit embeddings."""
    vecs = [m.embedding for m in mems if m.embedding is not None]
    n = len(vecs)
    if n < 2:
        return 0, 0
    matrix = np.stack(vecs).astype(np.float32)
    sims = matrix @ matrix.T
    iu = np.triu_indices(n, k=1)
    return len(iu[0]), int((sims[iu] >= CROWDING_COSINE).sum())
