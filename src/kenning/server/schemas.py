"""API schemas, separate from the record: what clients send (create / patch) and what they get (public).

The record (``kenning.types.Memory``) carries an embedding, a tenant and
internals a client never sees; ``MemoryPublic`` is the projection the API
returns. Every string and list is bounded so oversized input is a 422, never
a 500; text limits beyond these are the facade's (``max_text_chars``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from kenning.scoped import WAIT_DEFAULT
from kenning.types import AuditEntry, Hit, Kind, Memory, Sensitivity, Source, Status

# Hard bound on any text field. The limit that applies is the facade's ``max_text_chars``
# (default 4000): the OpenAPI document states that one (``app.openapi``), and a longer text
# is a 422 saying which field and which limit.
MAX_TEXT = 20_000
MAX_ID = 200
MAX_MESSAGES = 200
Unit = Field(default=None, ge=0.0, le=1.0)


def _no_nul(value: str) -> str:
    # The facade's rule (types.check_str), applied at the edge so the message names the field:
    # PostgreSQL cannot store NUL, and no engine can encode an unpaired surrogate.
    if "\x00" in value:
        raise ValueError("must not contain NUL characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("must be valid Unicode text (it holds an unpaired surrogate)") from None
    return value


Str = Annotated[str, AfterValidator(_no_nul)]
Text = Field(min_length=1, max_length=MAX_TEXT)


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MemoryCreate(_In):
    """One claim to store as given (no extraction, no reconciliation)."""

    text: Str = Text
    kind: Kind = Kind.FACT
    importance: float | None = Unit
    confidence: float | None = Unit
    expires_at: datetime | None = Field(None, description="timezone-aware; naive times are rejected")
    sensitivity: Sensitivity | None = None
    source: Source = Field(
        Source.INFERRED,
        description="who wrote the text: inferred (the application or agent, the default) or tool_result; the user's "
        "own words go to POST …/messages with role user",
    )
    source_refs: list[Annotated[Str, Field(max_length=MAX_ID)]] = Field(default_factory=list, max_length=100)
    session_id: Str | None = Field(None, max_length=MAX_ID)
    agent_id: Str | None = Field(None, max_length=MAX_ID, description="the agent that wrote it (kept as metadata.agent_id)")
    metadata: dict[str, Any] | None = Field(None, description="free JSON data; top-level keys filter by equality in search")


class MemoriesCreate(_In):
    """Several claims stored as given, in one write: all or none."""

    memories: list[MemoryCreate] = Field(min_length=1, max_length=1000)


class MemoryPatch(_In):
    """Changes for a new version of a memory; fields left out keep their value."""

    text: Str | None = Field(None, min_length=1, max_length=MAX_TEXT)
    kind: Kind | None = None
    importance: float | None = Unit
    confidence: float | None = Unit
    expires_at: datetime | None = None
    sensitivity: Sensitivity | None = None


class MemoryPublic(BaseModel):
    """A memory as the API shows it: no embedding, no tenant."""

    id: str
    user_id: str
    kind: Kind
    text: str
    source: Source
    source_refs: list[str]
    supersedes: list[str]
    created_at: datetime
    last_used_at: datetime
    expires_at: datetime | None
    importance: float
    confidence: float
    sensitivity: Sensitivity
    status: Status
    session_id: str | None
    metadata: dict[str, Any]

    @classmethod
    def of(cls, m: Memory) -> "MemoryPublic":
        return cls(
            id=m.id, user_id=m.user_id, kind=m.kind, text=m.text, source=m.source, source_refs=list(m.source_refs),
            supersedes=list(m.supersedes), created_at=m.created_at, last_used_at=m.last_used_at, expires_at=m.expires_at,
            importance=m.importance, confidence=m.confidence, sensitivity=m.sensitivity, status=m.status,
            session_id=m.session_id, metadata=dict(m.metadata),
        )


class Message(_In):
    role: Literal["user", "assistant", "tool", "system"]
    content: Str = Field(max_length=MAX_TEXT)
    name: Str | None = Field(None, max_length=MAX_ID)


class MessagesIn(_In):
    """Conversation turns to capture: one user string or a list of role/content messages."""

    messages: Annotated[Str, Field(max_length=MAX_TEXT)] | Annotated[list[Message], Field(max_length=MAX_MESSAGES)] = Field(
        ..., description="a user turn, or a list of {role, content} messages"
    )
    session_id: Str | None = Field(None, max_length=MAX_ID)
    wait: bool = Field(
        WAIT_DEFAULT,
        description="true (the default everywhere): extract and reconcile before answering; false: only store the turns "
        "and leave the rest to background maintenance",
    )

    def as_facade_input(self) -> str | list[dict[str, Any]]:
        if isinstance(self.messages, str):
            return self.messages
        return [m.model_dump(exclude_none=True) for m in self.messages]


class CaptureOut(BaseModel):
    """What capture did: ids written (provisional), reconciliation outcomes (with ``wait``), why anything was
    withheld (never the withheld text), and the records now standing for the turns."""

    model_config = ConfigDict(extra="allow")

    ids: list[str] = Field(default_factory=list)
    decisions: list[dict[str, Any]] = Field(default_factory=list)
    withheld: list[str] = Field(default_factory=list)
    memories: list[MemoryPublic] = Field(default_factory=list)


class MaintenanceOut(BaseModel):
    """Counts and ids of what this user's maintenance did (reconciled, consolidated, expired, …)."""

    model_config = ConfigDict(extra="allow")

    scope: str | None = None


class FilterIn(_In):
    """What a search keeps, applied inside the store's query; leave a field out to keep everything."""

    kinds: list[Kind] | None = Field(None, max_length=4)
    sources: list[Source] | None = Field(None, max_length=4)
    since: datetime | None = Field(None, description="created at or after (timezone-aware)")
    until: datetime | None = Field(None, description="created before (timezone-aware)")
    min_confidence: float | None = Unit
    metadata: dict[str, str | int | float | bool | None] | None = Field(None, max_length=20, description="equality on top-level metadata keys")
    agent_id: Str | None = Field(None, max_length=MAX_ID)
    in_session: Str | None = Field(None, max_length=MAX_ID, description="only memories from this session")

    def as_facade_filters(self) -> dict[str, Any]:
        return {k: v for k, v in self.model_dump(exclude_none=True).items()}


class SearchIn(_In):
    query: Str = Text
    k: int = Field(5, ge=1, le=200)
    session_id: Str | None = Field(None, max_length=MAX_ID, description="the session searching (for the refresh cap); not a filter")
    min_relevance: float | None = Unit
    filters: FilterIn | None = None


class HitPublic(BaseModel):
    """A search result: the memory, its score in [0, 1] and the parts of that score."""

    memory: MemoryPublic
    score: float
    components: dict[str, float]

    @classmethod
    def of(cls, h: Hit) -> "HitPublic":
        return cls(memory=MemoryPublic.of(h.memory), score=h.score, components=dict(h.components))


class AuditPublic(BaseModel):
    id: str
    at: datetime
    op: str
    memory_ids: list[str]
    source: str
    reason: str

    @classmethod
    def of(cls, a: AuditEntry) -> "AuditPublic":
        return cls(id=a.id, at=a.at, op=a.op.value, memory_ids=list(a.memory_ids), source=a.source, reason=a.reason)


class HistoryPublic(BaseModel):
    memory: MemoryPublic
    versions: list[MemoryPublic]
    audit: list[AuditPublic]


class DeletionPublic(BaseModel):
    deleted: list[str]
    retired: list[str]
    regenerated: list[str]


class ForgetIn(_In):
    text: Str = Field(min_length=1, max_length=MAX_TEXT, description="delete every memory whose text contains this")


class CountOut(BaseModel):
    deleted: int


class PageTokenIn(_In):
    ttl_s: int = Field(3600, ge=60, le=7 * 86400, description="how long the link works, in seconds")


class PageTokenOut(BaseModel):
    url: str
    token: str
    expires_at: datetime


class ErrorDetail(BaseModel):
    type: str
    code: str
    message: str


class ErrorBody(BaseModel):
    """The one error shape every failing route returns."""

    error: ErrorDetail


class WhoAmI(BaseModel):
    tenant_id: str
    user_id: str | None = None
