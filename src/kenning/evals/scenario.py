"""Scenario files (``scenarios/SPEC.md``): load, validate, normalise.

Validation is strict, because a runner that silently ignores a misspelt
check field reports a pass for a check that never ran. Unknown top-level
keys, step kinds, step fields, check fields and ``match`` fields are errors,
and so are duplicate YAML keys (PyYAML would keep the last one quietly).
Every error is a ``ScenarioError`` naming the file, the step (0-based index,
as in the report) and the problem.

Normalisation: every step gets a timezone-aware ``at`` (one minute after the
step before when absent; the first defaults to 2026-01-01T09:00:00Z), its
scope (the scenario's tenant and user unless the step names others), and a
session. Sessions are sticky per scope: a step without ``session`` continues
the conversation that scope last named, so a ``reply`` after a ``say`` in
session ``s1`` belongs to ``s1``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import yaml

from kenning.errors import ValidationError
from kenning.types import Kind, Sensitivity, Source

DEFAULT_START = datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc)
STEP_GAP = timedelta(minutes=1)
DEFAULT_SESSION = "default"

TOP_KEYS = {"name", "tags", "tenant", "user", "config", "steps"}
CONFIG_KEYS = {"capacity"}
COMMON_STEP_KEYS = {"at", "tenant", "user", "session"}
STEP_KINDS = (
    "say", "reply", "tool", "remember", "forget", "forget_user", "maintain", "check", "check_everywhere", "count_active", "memories",
)
ACTION_KINDS = frozenset({"say", "reply", "tool", "remember", "forget", "forget_user", "maintain"})
CHECK_FIELDS = {"query", "k", "expect", "forbid", "top", "empty", "relevant", "match", "forbid_match", "at_most"}
CHECK_CONDITIONS = CHECK_FIELDS - {"query", "k"}
MATCH_FIELDS = {"contains", "not_contains", "kind", "source", "supersedes", "max_confidence", "min_confidence", "sensitivity"}
MEMORIES_FIELDS = {"claims", "allow", "forbid"}
REMEMBER_FIELDS = {"text", "kind", "importance", "confidence", "expires_at", "sensitivity", "source"}
MAX_K = 200


class ScenarioError(ValidationError):
    """A scenario file is not valid; the message names the file, the step and the problem."""


@dataclass(frozen=True)
class Step:
    """One normalised step: ``kind`` is one of ``STEP_KINDS``; ``arg`` its validated argument."""

    index: int
    kind: str
    arg: Any
    at: datetime
    tenant: str
    user: str
    session: str


@dataclass(frozen=True)
class Scenario:
    name: str
    tags: tuple[str, ...]
    tenant: str
    user: str
    capacity: int | None
    steps: tuple[Step, ...]
    path: str = ""
    checks: int = field(default=0)


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that rejects duplicate keys in a mapping."""


def _mapping(loader: _StrictLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    out: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in out:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (a second value would silently replace the first)", key_node.start_mark
            )
        out[key] = loader.construct_object(value_node, deep=True)
    return out


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def scenario_files(path: str | Path) -> list[Path]:
    """``path`` itself if it is a file, else every ``*.yaml`` below it, sorted by name."""
    p = Path(path)
    if p.is_file():
        return [p]
    if p.is_dir():
        files = sorted((f for f in p.rglob("*.yaml") if f.is_file()), key=lambda f: (f.name, str(f)))
        if not files:
            raise ScenarioError(f"{p}: no *.yaml scenario files in this folder")
        return files
    raise ScenarioError(f"{p}: no such file or folder")


def load_path(path: str | Path) -> list[Scenario]:
    """Every scenario under ``path``, validated; names must be unique."""
    scenarios = [load_file(f) for f in scenario_files(path)]
    seen: dict[str, str] = {}
    for s in scenarios:
        if s.name in seen:
            raise ScenarioError(f"{s.path}: scenario name {s.name!r} is already used by {seen[s.name]}")
        seen[s.name] = s.path
    return scenarios


def load_file(path: str | Path) -> Scenario:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"{path}: cannot read: {exc}") from exc
    return parse(text, str(path))


def parse(text: str, origin: str = "<string>") -> Scenario:
    """Validate one scenario document; ``origin`` names it in errors."""
    try:
        doc = yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise ScenarioError(f"{origin}: not valid YAML: {exc}") from exc
    return _Validator(origin).scenario(doc)


class _Validator:
    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.where = ""

    def fail(self, problem: str) -> ScenarioError:
        return ScenarioError(f"{self.origin}: {self.where}{problem}")

    def scenario(self, doc: Any) -> Scenario:
        if not isinstance(doc, dict):
            raise self.fail("a scenario must be a mapping with name and steps")
        self.unknown(doc, TOP_KEYS, "top-level key")
        name = self.text(doc.get("name"), "name")
        tags = doc.get("tags", [])
        if not isinstance(tags, list) or not all(isinstance(t, str) and t for t in tags):
            raise self.fail("tags must be a list of words")
        tenant = self.text(doc.get("tenant", "default"), "tenant")
        user = self.text(doc.get("user", "user"), "user")
        config = doc.get("config") or {}
        if not isinstance(config, dict):
            raise self.fail("config must be a mapping")
        self.unknown(config, CONFIG_KEYS, "config key")
        capacity = config.get("capacity")
        if capacity is not None and not (isinstance(capacity, int) and not isinstance(capacity, bool) and capacity >= 1):
            raise self.fail(f"config.capacity must be a positive integer, got {capacity!r}")
        raw_steps = doc.get("steps")
        if not isinstance(raw_steps, list) or not raw_steps:
            raise self.fail("steps must be a non-empty list")
        steps = []
        clock = None
        sessions: dict[tuple[str, str], str] = {}
        for i, raw in enumerate(raw_steps):
            self.where = f"step {i}: "
            step = self.step(i, raw, clock, tenant, user, sessions)
            clock = step.at
            steps.append(step)
        self.where = ""
        checks = sum(1 for s in steps if s.kind in ("check", "check_everywhere", "count_active", "memories"))
        if not checks:
            raise self.fail("a scenario needs at least one check, check_everywhere, count_active or memories step")
        return Scenario(name, tuple(tags), tenant, user, capacity, tuple(steps), self.origin, checks)

    def step(self, i: int, raw: Any, clock: datetime | None, tenant: str, user: str, sessions: dict) -> Step:
        if not isinstance(raw, dict):
            raise self.fail(f"a step must be a mapping, got {type(raw).__name__}")
        kinds = [k for k in raw if k not in COMMON_STEP_KEYS]
        unknown = [k for k in kinds if k not in STEP_KINDS]
        if unknown:
            raise self.fail(f"unknown step kind {unknown[0]!r} (known: {', '.join(STEP_KINDS)})")
        if len(kinds) != 1:
            raise self.fail(f"a step needs exactly one of {', '.join(STEP_KINDS)}; got {kinds or 'none'}")
        kind = kinds[0]
        self.where = f"step {i} ({kind}): "
        at = self.time(raw["at"], "at") if "at" in raw else (clock + STEP_GAP if clock else DEFAULT_START)
        t = self.text(raw.get("tenant", tenant), "tenant")
        u = self.text(raw.get("user", user), "user")
        if "session" in raw:
            sessions[(t, u)] = self.text(raw["session"], "session")
        session = sessions.get((t, u), DEFAULT_SESSION)
        arg = getattr(self, f"arg_{kind}")(raw[kind])
        return Step(i, kind, arg, at, t, u, session)

    # -- step arguments ---------------------------------------------------------

    def arg_say(self, v: Any) -> str:
        return self.text(v, "say")

    def arg_reply(self, v: Any) -> str:
        return self.text(v, "reply")

    def arg_tool(self, v: Any) -> dict[str, str]:
        if not isinstance(v, dict):
            raise self.fail("tool must be a mapping {name, content}")
        self.unknown(v, {"name", "content"}, "tool field")
        return {"name": self.text(v.get("name"), "tool.name"), "content": self.text(v.get("content"), "tool.content")}

    def arg_forget(self, v: Any) -> str:
        return self.text(v, "forget")

    def arg_forget_user(self, v: Any) -> bool:
        return self.true(v, "forget_user")

    def arg_maintain(self, v: Any) -> bool:
        return self.true(v, "maintain")

    def arg_remember(self, v: Any) -> dict[str, Any]:
        if not isinstance(v, dict):
            raise self.fail("remember must be a mapping with at least text")
        self.unknown(v, REMEMBER_FIELDS, "remember field")
        out: dict[str, Any] = {"text": self.text(v.get("text"), "remember.text")}
        for name, enum in (("kind", Kind), ("sensitivity", Sensitivity), ("source", Source)):
            if name in v:
                out[name] = self.choice(v[name], enum, f"remember.{name}")
        for name in ("importance", "confidence"):
            if name in v:
                out[name] = self.unit(v[name], f"remember.{name}")
        if "expires_at" in v:
            out["expires_at"] = self.time(v["expires_at"], "remember.expires_at")
        return out

    def arg_check(self, v: Any) -> dict[str, Any]:
        if not isinstance(v, dict):
            raise self.fail("check must be a mapping with a query")
        self.unknown(v, CHECK_FIELDS, "check field")
        out: dict[str, Any] = {"query": self.text(v.get("query"), "check.query"), "k": v.get("k", 5)}
        k = out["k"]
        if not (isinstance(k, int) and not isinstance(k, bool) and 1 <= k <= MAX_K):
            raise self.fail(f"check.k must be an integer from 1 to {MAX_K}, got {k!r}")
        if not CHECK_CONDITIONS & set(v):
            raise self.fail(f"check has no condition (one of {', '.join(sorted(CHECK_CONDITIONS))}); it could never fail")
        for name in ("expect", "forbid", "relevant"):
            if name in v:
                out[name] = self.strings(v[name], f"check.{name}")
        if "top" in v:
            out["top"] = self.text(v["top"], "check.top")
        if "empty" in v:
            if not isinstance(v["empty"], bool):
                raise self.fail(f"check.empty must be true or false, got {v['empty']!r}")
            out["empty"] = v["empty"]
        for name in ("match", "forbid_match"):
            if name in v:
                entries = v[name]
                if not isinstance(entries, list) or not entries:
                    raise self.fail(f"check.{name} must be a non-empty list of mappings")
                out[name] = [self.match(e, f"check.{name}[{j}]") for j, e in enumerate(entries)]
        if "at_most" in v:
            am = v["at_most"]
            if not isinstance(am, dict) or not am:
                raise self.fail("check.at_most must be a mapping {string: count}")
            for s, n in am.items():
                self.text(s, "check.at_most key")
                if not (isinstance(n, int) and not isinstance(n, bool) and n >= 0):
                    raise self.fail(f"check.at_most[{s!r}] must be a non-negative integer, got {n!r}")
            out["at_most"] = {str(s): n for s, n in am.items()}
        return out

    def arg_check_everywhere(self, v: Any) -> dict[str, Any]:
        if not isinstance(v, dict):
            raise self.fail("check_everywhere must be a mapping {forbid: [...]}")
        self.unknown(v, {"forbid"}, "check_everywhere field")
        if "forbid" not in v:
            raise self.fail("check_everywhere needs forbid")
        return {"forbid": self.strings(v["forbid"], "check_everywhere.forbid")}

    def arg_count_active(self, v: Any) -> dict[str, int]:
        if not isinstance(v, dict):
            raise self.fail("count_active must be a mapping {max: N, min: N}")
        self.unknown(v, {"max", "min"}, "count_active field")
        if not v:
            raise self.fail("count_active needs max or min")
        for name, n in v.items():
            if not (isinstance(n, int) and not isinstance(n, bool) and n >= 0):
                raise self.fail(f"count_active.{name} must be a non-negative integer, got {n!r}")
        return dict(v)

    def arg_memories(self, v: Any) -> dict[str, list[dict[str, Any]]]:
        if not isinstance(v, dict):
            raise self.fail("memories must be a mapping {claims, allow, forbid}")
        self.unknown(v, MEMORIES_FIELDS, "memories field")
        if not ({"claims", "forbid"} & set(v)):
            raise self.fail("memories needs claims or forbid; with allow alone it could never fail")
        out: dict[str, list[dict[str, Any]]] = {}
        for name in ("claims", "allow", "forbid"):
            entries = v.get(name, [])
            if not isinstance(entries, list):  # "claims: []" says nothing is due: every memory stored counts against precision
                raise self.fail(f"memories.{name} must be a list of mappings")
            out[name] = [self.match(e, f"memories.{name}[{j}]", many=True) for j, e in enumerate(entries)]
        return out

    def match(self, e: Any, where: str, *, many: bool = False) -> dict[str, Any]:
        """A validated match entry; with ``many`` (extraction checks) ``contains`` may be a list, all required."""
        if not isinstance(e, dict) or not e:
            raise self.fail(f"{where} must be a non-empty mapping of match fields")
        self.unknown(e, MATCH_FIELDS, f"{where} field")
        out: dict[str, Any] = {}
        if "contains" in e:
            if many:
                out["contains"] = self.strings(e["contains"], f"{where}.contains")
            else:
                out["contains"] = [self.text(e["contains"], f"{where}.contains")]
        if "not_contains" in e:
            out["not_contains"] = self.strings(e["not_contains"], f"{where}.not_contains")
        for name, enum in (("kind", Kind), ("source", Source)):
            if name in e:
                vals = e[name] if isinstance(e[name], list) else [e[name]]
                if not vals:
                    raise self.fail(f"{where}.{name} must not be empty")
                out[name] = frozenset(self.choice(x, enum, f"{where}.{name}") for x in vals)
        if "sensitivity" in e:
            out["sensitivity"] = self.choice(e["sensitivity"], Sensitivity, f"{where}.sensitivity")
        if "supersedes" in e:
            if not isinstance(e["supersedes"], bool):
                raise self.fail(f"{where}.supersedes must be true or false")
            out["supersedes"] = e["supersedes"]
        for name in ("max_confidence", "min_confidence"):
            if name in e:
                out[name] = self.unit(e[name], f"{where}.{name}")
        return out

    # -- scalars ----------------------------------------------------------------

    def unknown(self, mapping: Mapping[Any, Any], allowed: set[str], what: str) -> None:
        bad = [k for k in mapping if k not in allowed]
        if bad:
            raise self.fail(f"unknown {what} {bad[0]!r} (allowed: {', '.join(sorted(allowed))})")

    def text(self, v: Any, name: str) -> str:
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            v = str(v)  # YAML reads `top: 2026` as a number; the SPEC means the string
        if not isinstance(v, str) or not v.strip():
            raise self.fail(f"{name} must be a non-empty string, got {v!r}")
        return v

    def strings(self, v: Any, name: str) -> list[str]:
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, list) or not v:
            raise self.fail(f"{name} must be a non-empty list of strings")
        return [self.text(x, f"{name} item") for x in v]

    def true(self, v: Any, name: str) -> bool:
        if v is not True:
            raise self.fail(f"{name} must be true, got {v!r}")
        return True

    def unit(self, v: Any, name: str) -> float:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= v <= 1.0:
            raise self.fail(f"{name} must be a number in [0, 1], got {v!r}")
        return float(v)

    def choice(self, v: Any, enum: Any, name: str) -> str:
        values = [e.value for e in enum]
        if v not in values:
            raise self.fail(f"{name} must be one of {', '.join(values)}; got {v!r}")
        return str(v)

    def time(self, v: Any, name: str) -> datetime:
        if isinstance(v, datetime):
            dt = v
        elif isinstance(v, date):
            dt = datetime(v.year, v.month, v.day)
        elif isinstance(v, str):
            try:
                dt = datetime.fromisoformat(v.replace("Z", "+00:00"))
            except ValueError:
                raise self.fail(f"{name} must be an ISO 8601 time, got {v!r}") from None
        else:
            raise self.fail(f"{name} must be an ISO 8601 time, got {v!r}")
        return dt.replace(tzinfo=timezone.utc) if dt.tzinfo is None else dt.astimezone(timezone.utc)
