"""Kenning's data: records, scopes, hits and changes. No I/O lives here.

Invariants every constructor enforces:
- datetimes are timezone-aware (converted to UTC);
- ``importance`` and ``confidence`` are in [0, 1];
- ids carry a prefix (``mem_``, ``aud_``);
- a ``Scope`` has a non-empty tenant and user.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from enum import StrEnum
from typing import Any, Mapping

import numpy as np

from kenning.errors import ValidationError

MAX_ID_CHARS = 200


class Kind(StrEnum):
    """What a memory is; decides how fast it fades."""

    EPISODE = "episode"
    FACT = "fact"
    PREFERENCE = "preference"
    PROCEDURE = "procedure"


class Source(StrEnum):
    """Where a memory came from; decides how far it is trusted."""

    USER_SAID = "user_said"
    TOOL_RESULT = "tool_result"
    INFERRED = "inferred"
    CONSOLIDATED = "consolidated"


class Sensitivity(StrEnum):
    NORMAL = "normal"
    PERSONAL = "personal"
    RESTRICTED = "restricted"


class Status(StrEnum):
    """Lifecycle state. Only ACTIVE records are retrieved.

    PROVISIONAL: written on the request path, awaiting reconciliation.
    RETIRED: superseded or retracted; kept for history and audit.
    DELETED: tombstone left by explicit deletion (text and vector are gone).
    """

    ACTIVE = "active"
    PROVISIONAL = "provisional"
    RETIRED = "retired"
    DELETED = "deleted"


class Op(StrEnum):
    """Reconciliation and lifecycle operations, as written to the audit log."""

    ADD = "ADD"
    UPDATE = "UPDATE"
    DELETE = "DELETE"
    NOOP = "NOOP"
    CONSOLIDATE = "CONSOLIDATE"
    EXPIRE = "EXPIRE"
    EVICT = "EVICT"
    PURGE = "PURGE"
    TOUCH = "TOUCH"


def new_id(prefix: str) -> str:
    """A sortable, unique id: prefix, 12 hex digits of microseconds, 8 random hex."""
    return f"{prefix}_{int(time.time() * 1_000_000):013x}{secrets.token_hex(4)}"


def utc(dt: datetime | None, name: str = "datetime") -> datetime | None:
    """Return ``dt`` in UTC; reject naive datetimes."""
    if dt is None:
        return None
    if not isinstance(dt, datetime):
        raise ValidationError(f"{name} must be a datetime, got {type(dt).__name__}")
    if dt.tzinfo is None or dt.tzinfo.utcoffset(dt) is None:
        raise ValidationError(f"{name} must be timezone-aware (got a naive datetime)")
    try:
        return dt.astimezone(timezone.utc)
    except OverflowError:  # 9999-12-31T23:59:59-14:00 is past the last representable UTC instant
        raise ValidationError(f"{name} is out of range once converted to UTC") from None


def check_str(value: str, name: str) -> str:
    """``value`` unchanged if it is text every surface and engine can store: no NUL, no unpaired surrogate.

    The same rule holds for the facade, REST, MCP and the CLI, so a client gets the same
    ``ValidationError`` wherever such a string arrives (PostgreSQL cannot store NUL; neither
    engine can encode a lone surrogate as UTF-8).
    """
    if "\x00" in value:
        raise ValidationError(f"{name} must not contain NUL characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValidationError(f"{name} must be valid Unicode text (it holds an unpaired surrogate)") from None
    return value


def check_json(value: Any, name: str, depth: int = 0) -> Any:
    """``value`` unchanged if it is JSON-like data whose strings all pass ``check_str`` (bounded depth)."""
    if depth > 20:
        raise ValidationError(f"{name} is nested too deeply")
    if isinstance(value, str):
        check_str(value, name)
    elif isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise ValidationError(f"{name} keys must be strings")
            check_str(k, name)
            check_json(v, name, depth + 1)
    elif isinstance(value, (list, tuple)):
        for v in value:
            check_json(v, name, depth + 1)
    elif not (value is None or isinstance(value, (bool, int, float))):
        raise ValidationError(f"{name} must hold only JSON values, got {type(value).__name__}")
    return value


def now_utc() -> datetime:
    return datetime.now(timezone.utc)


def _unit(value: float, name: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValidationError(f"{name} must be a number in [0, 1], got {value!r}") from None
    if not 0.0 <= v <= 1.0:
        raise ValidationError(f"{name} must be in [0, 1], got {v}")
    return v


def _ident(value: str, name: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(f"{name} must be a non-empty string")
    if len(value) > MAX_ID_CHARS:
        raise ValidationError(f"{name} is longer than {MAX_ID_CHARS} characters")
    return check_str(value, name)


def enum_value(enum: type[StrEnum], value: Any, name: str) -> Any:
    """Coerce ``value`` into ``enum`` or raise a ValidationError listing the choices."""
    try:
        return enum(value)
    except ValueError:
        choices = ", ".join(e.value for e in enum)
        raise ValidationError(f"{name} must be one of {choices}; got {value!r}") from None


@dataclass(frozen=True, slots=True)
class Scope:
    """The (tenant, user) partition. Every read and write takes one."""

    tenant_id: str
    user_id: str

    def __post_init__(self) -> None:
        _ident(self.tenant_id, "tenant_id")
        _ident(self.user_id, "user_id")

    def __str__(self) -> str:
        return f"{self.tenant_id}/{self.user_id}"


@dataclass(frozen=True, slots=True)
class Memory:
    """One claim, with the metadata every lifecycle stage decides on.

    ``embedding`` is a float32 unit vector (or None before embedding). Scores
    never live on the record: search returns ``Hit``.
    """

    id: str
    tenant_id: str
    user_id: str
    kind: Kind
    text: str
    embedding: np.ndarray | None = field(compare=False, repr=False)
    source: Source
    source_refs: tuple[str, ...]
    created_at: datetime
    last_used_at: datetime
    importance: float
    confidence: float
    supersedes: tuple[str, ...] = ()
    expires_at: datetime | None = None
    sensitivity: Sensitivity = Sensitivity.NORMAL
    status: Status = Status.ACTIVE
    session_id: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "kind", enum_value(Kind, self.kind, "kind"))
        set_(self, "source", enum_value(Source, self.source, "source"))
        set_(self, "sensitivity", enum_value(Sensitivity, self.sensitivity, "sensitivity"))
        set_(self, "status", enum_value(Status, self.status, "status"))
        set_(self, "importance", _unit(self.importance, "importance"))
        set_(self, "confidence", _unit(self.confidence, "confidence"))
        set_(self, "created_at", utc(self.created_at, "created_at"))
        set_(self, "last_used_at", utc(self.last_used_at, "last_used_at"))
        set_(self, "expires_at", utc(self.expires_at, "expires_at"))
        set_(self, "source_refs", tuple(self.source_refs))
        set_(self, "supersedes", tuple(self.supersedes))
        if self.embedding is not None:
            set_(self, "embedding", np.asarray(self.embedding, dtype=np.float32))

    @property
    def scope(self) -> Scope:
        return Scope(self.tenant_id, self.user_id)

    def is_expired(self, now: datetime) -> bool:
        return self.expires_at is not None and self.expires_at <= now

    def evolve(self, **changes: Any) -> "Memory":
        """A copy with ``changes`` applied (records are immutable)."""
        return replace(self, **changes)


@dataclass(frozen=True, slots=True)
class Hit:
    """A search result: the memory, its final score and the parts of that score.

    ``score`` is in [0, 1], higher ranks first. ``components`` holds at least
    ``relevance``, ``recency`` and ``importance`` (each in [0, 1]).
    """

    memory: Memory
    score: float
    components: Mapping[str, float]


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One append-only audit line: ids, operation, source and reason; never content."""

    id: str
    tenant_id: str
    user_id: str
    at: datetime
    op: Op
    memory_ids: tuple[str, ...]
    source: str = ""
    reason: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "at", utc(self.at, "at"))
        object.__setattr__(self, "op", enum_value(Op, self.op, "op"))
        object.__setattr__(self, "memory_ids", tuple(self.memory_ids))


@dataclass(frozen=True, slots=True)
class Transition:
    """Move one memory to ``to`` if (and only if) it is currently in ``from_``."""

    memory_id: str
    from_: tuple[Status, ...]
    to: Status


@dataclass(frozen=True, slots=True)
class Changeset:
    """Everything one decision writes, applied atomically by ``Store.apply``.

    Order of application: inserts, transitions, deletes, audit. If any
    transition's guard does not hold, nothing is applied (``Conflict``). That is
    what lets two workers race on the same decision safely: the loser's guard
    fails and it changes nothing.
    """

    inserts: tuple[Memory, ...] = ()
    transitions: tuple[Transition, ...] = ()
    deletes: tuple[str, ...] = ()
    audit: tuple[AuditEntry, ...] = ()
    # A decision planned against the scope's active memories as of this generation
    # (``ActiveSetStore.active_generation``): if they changed since, nothing is applied (``Conflict``).
    # Set only for engines declaring ``ActiveSetStore``; None: no such check.
    active_gen: int | None = None

    def __bool__(self) -> bool:
        return bool(self.inserts or self.transitions or self.deletes or self.audit)

    def __add__(self, other: "Changeset") -> "Changeset":
        return Changeset(
            self.inserts + other.inserts,
            self.transitions + other.transitions,
            self.deletes + other.deletes,
            self.audit + other.audit,
            self.active_gen if self.active_gen is not None else other.active_gen,
        )

    @property
    def changes_active(self) -> bool:
        """Whether applying this adds a memory to the scope's active set or takes one out of it."""
        return any(m.status is Status.ACTIVE for m in self.inserts) or any(
            t.to is Status.ACTIVE or Status.ACTIVE in t.from_ for t in self.transitions
        )


@dataclass(frozen=True, slots=True)
class Decision:
    """A reconciliation verdict for one candidate against the memories it was shown."""

    op: Op
    target_id: str | None = None
    text: str | None = None
    reason: str = ""
    # further rewrites the same change implies, as (memory id, new text): a break-up rewrites every memory that
    # names the partner as a partner, a respelt name every memory that spells it the old way (UPDATE; text "" retires
    # it: a move retires "User's flat in Leeds is damp" with "User lives in Leeds"); or, for a pointed DELETE
    # ("delete everything about Kacper", "forget the religion part"), the further targets, text ""
    also: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class ApiKey:
    """A tenant API key as stored: the sha256 hex of the secret, never the secret itself.

    A key authenticates exactly one tenant; ``revoked_at`` set means it no longer does.
    """

    id: str
    tenant_id: str
    name: str
    key_hash: str
    created_at: datetime
    revoked_at: datetime | None = None

    def __post_init__(self) -> None:
        _ident(self.tenant_id, "tenant_id")
        object.__setattr__(self, "created_at", utc(self.created_at, "created_at"))
        object.__setattr__(self, "revoked_at", utc(self.revoked_at, "revoked_at"))


MetadataValue = str | int | float | bool | None


@dataclass(frozen=True, slots=True)
class Filter:
    """What a search or a listing keeps, applied by the engine inside its query (never to results afterwards).

    Every field left at its default keeps everything. ``since`` and ``until``
    bound ``created_at`` (``since`` inclusive, ``until`` exclusive);
    ``min_confidence`` is inclusive; ``metadata`` keeps records whose
    top-level metadata key equals each given value (strings, numbers,
    booleans or None; a number matches an equal number whatever its type).
    ``agent_id`` is the metadata key ``"agent_id"``, the agent that wrote a
    memory; ``session_id`` the conversation it came from.
    """

    kinds: tuple[Kind, ...] | None = None
    sources: tuple[Source, ...] | None = None
    since: datetime | None = None
    until: datetime | None = None
    min_confidence: float | None = None
    metadata: Mapping[str, MetadataValue] = field(default_factory=dict)
    agent_id: str | None = None
    session_id: str | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        if self.kinds is not None:
            set_(self, "kinds", tuple(enum_value(Kind, k, "kind") for k in _seq(self.kinds, "kinds")))
        if self.sources is not None:
            set_(self, "sources", tuple(enum_value(Source, v, "source") for v in _seq(self.sources, "sources")))
        set_(self, "since", utc(self.since, "since"))
        set_(self, "until", utc(self.until, "until"))
        if self.min_confidence is not None:
            set_(self, "min_confidence", _unit(self.min_confidence, "min_confidence"))
        if not isinstance(self.metadata, Mapping):
            raise ValidationError("metadata filter must be a mapping of key to value")
        meta = dict(self.metadata)
        for key, value in meta.items():
            if not isinstance(key, str) or not key or len(key) > MAX_ID_CHARS or '"' in key or "\\" in key:
                raise ValidationError(f"metadata filter key {key!r} must be a non-empty string without quotes or backslashes")
            check_str(key, "metadata filter key")
            if isinstance(value, str):
                check_str(value, f"metadata filter on {key!r}")
            if not (value is None or isinstance(value, (str, int, float, bool))):
                raise ValidationError(f"metadata filter on {key!r}: only strings, numbers, booleans or null compare for equality")
        if self.agent_id is not None:
            _ident(self.agent_id, "agent_id")
            if meta.get("agent_id", self.agent_id) != self.agent_id:
                raise ValidationError("agent_id and metadata['agent_id'] disagree")
            meta["agent_id"] = self.agent_id
        if self.session_id is not None:
            _ident(self.session_id, "session_id")
        set_(self, "metadata", meta)

    def __bool__(self) -> bool:
        """True when it excludes anything, i.e. some field is set."""
        return bool(
            self.kinds is not None or self.sources is not None or self.since or self.until
            or self.min_confidence is not None or self.metadata or self.session_id is not None
        )

    def matches(self, memory: "Memory") -> bool:
        """The same rule in Python: what an engine's query keeps (for engines without a query language)."""
        meta = memory.metadata
        return (
            (self.kinds is None or memory.kind in self.kinds)
            and (self.sources is None or memory.source in self.sources)
            and (self.since is None or memory.created_at >= self.since)
            and (self.until is None or memory.created_at < self.until)
            and (self.min_confidence is None or memory.confidence >= self.min_confidence)
            and (self.session_id is None or memory.session_id == self.session_id)
            and all(k in meta and _same(meta[k], v) for k, v in self.metadata.items())
        )


def _seq(values: Any, name: str) -> tuple:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise ValidationError(f"{name} must be a list")
    return tuple(values)


def _same(stored: Any, wanted: Any) -> bool:
    """Metadata equality as the engines do it: numbers by value, never a bool for a number, else type and value."""
    if isinstance(stored, bool) or isinstance(wanted, bool) or stored is None or wanted is None:
        return type(stored) is type(wanted) and stored == wanted
    if isinstance(stored, (int, float)) and isinstance(wanted, (int, float)):
        return stored == wanted
    return type(stored) is type(wanted) and stored == wanted


# What a claim is worth and how far it is trusted when the writer does not say.
DEFAULT_IMPORTANCE = {Kind.FACT: 0.6, Kind.PREFERENCE: 0.5, Kind.PROCEDURE: 0.7, Kind.EPISODE: 0.3}
DEFAULT_CONFIDENCE = {Source.USER_SAID: 0.9, Source.INFERRED: 0.5, Source.TOOL_RESULT: 0.3, Source.CONSOLIDATED: 0.7}


@dataclass(frozen=True)
class DeletionReport:
    """What an explicit deletion removed or revisited (ids only)."""

    deleted: list[str] = field(default_factory=list)
    retired: list[str] = field(default_factory=list)
    regenerated: list[str] = field(default_factory=list)
