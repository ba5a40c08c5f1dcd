"""The REST API, ``/v1``: thin routes over the facade; the tenant always comes from the credential.

Routes are sync ``def``s: FastAPI runs them in its thread pool, and the facade
is synchronous and thread-safe.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime, timezone
from enum import Enum
from typing import Any

import anyio
import anyio.to_thread
from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import JSONResponse

from kenning.scoped import ScopedMemory
from kenning.server import schemas as s
from kenning.server.errors import error_response
from kenning.server.auth import Principal, api_key_only, app_scope, page_expiry, principal, sign_page_token, user_scope
from kenning.errors import ValidationError
from kenning.types import Kind, Memory, Source, Status

ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": s.ErrorBody, "description": text}
    for code, text in [(401, "no valid credential"), (404, "no such memory or user in this scope"), (422, "invalid input")]
}
IdPath = str

router = APIRouter(prefix="/v1", responses=ERRORS)


def jsonable(obj: Any) -> Any:
    """Facade results as JSON: records become ``MemoryPublic``, dataclasses dicts, times ISO strings."""
    if isinstance(obj, Memory):
        return s.MemoryPublic.of(obj).model_dump(mode="json")
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj) if f.name != "embedding"}
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, Enum):
        return obj.value
    if isinstance(obj, datetime):
        return obj.isoformat()
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    return str(obj)


def _count(request: Request, op: str, n: int = 1) -> None:
    request.app.state.metrics.count(op, n)


@router.get("/whoami", response_model=s.WhoAmI, summary="The tenant (and, for page tokens, the user) of the credential")
def whoami(who: Principal = Depends(principal)) -> s.WhoAmI:
    return s.WhoAmI(tenant_id=who.tenant_id, user_id=who.user_id)


@router.post("/users/{user_id}/messages", response_model=s.CaptureOut, summary="Capture conversation turns (extract and reconcile memories)")
def add_messages(body: s.MessagesIn, request: Request, mem: ScopedMemory = Depends(app_scope)) -> Any:
    from kenning.server.mcp import memories_of

    result = mem.add(body.as_facade_input(), session_id=body.session_id, wait=body.wait)
    touched = memories_of(mem, result)
    _count(request, "add", len(touched))
    out = jsonable(result)
    if isinstance(out, dict):  # the records themselves, so a client need not fetch each id
        out["memories"] = [s.MemoryPublic.of(m).model_dump(mode="json") for m in touched]
    return out


def _not_user_said(body: s.MemoryCreate, where: str = "") -> None:
    """Text sent to /memories is the caller's own (sources follow the writer): ``user_said`` is refused."""
    if body.source is Source.USER_SAID:
        raise ValidationError(
            f"{where}source user_said is not accepted here: text sent to /memories is the caller's own; send the user's "
            "own turn to POST /v1/users/{user_id}/messages with role user to store it as user_said"
        )


@router.post("/users/{user_id}/memories", status_code=201, response_model=s.MemoryPublic, summary="Remember one claim as given")
def remember(body: s.MemoryCreate, request: Request, mem: ScopedMemory = Depends(app_scope)) -> s.MemoryPublic:
    """The text is the application's (or its agent's) own words: ``inferred`` (confidence at most 0.45,
    never a procedure) or ``tool_result``. The user's own turn goes to ``POST …/messages`` with role
    ``user``; only that is stored as ``user_said``."""
    _not_user_said(body)
    m = mem.remember(**body.model_dump(exclude_none=True))
    _count(request, "remember")
    return s.MemoryPublic.of(m)


@router.post("/users/{user_id}/memories/batch", status_code=201, response_model=list[s.MemoryPublic],
             summary="Remember several claims as given, in one write (all or none)")
def remember_many(body: s.MemoriesCreate, request: Request, mem: ScopedMemory = Depends(app_scope)) -> list[s.MemoryPublic]:
    """Each item is the caller's own words, as for ``POST …/memories``: never ``user_said``."""
    for i, item in enumerate(body.memories):
        _not_user_said(item, f"memories[{i}]: ")
    made = mem.remember_many([m.model_dump(exclude_none=True) for m in body.memories])
    _count(request, "remember", len(made))
    return [s.MemoryPublic.of(m) for m in made]


@router.get("/users/{user_id}/memories", response_model=list[s.MemoryPublic], summary="List memories, newest first")
def list_memories(
    request: Request,
    mem: ScopedMemory = Depends(user_scope),
    kind: list[Kind] | None = Query(None, max_length=4),
    status: list[Status] = Query([Status.ACTIVE], max_length=4),
    limit: int = Query(100, ge=1, le=1000),
    offset: int = Query(0, ge=0, le=1_000_000),
    agent_id: str | None = Query(None, max_length=200),
    in_session: str | None = Query(None, max_length=200),
    since: datetime | None = Query(None, description="created at or after (timezone-aware)"),
    until: datetime | None = Query(None, description="created before (timezone-aware)"),
) -> list[s.MemoryPublic]:
    filters = {k: v for k, v in {"agent_id": agent_id, "in_session": in_session, "since": since, "until": until}.items() if v is not None}
    found = mem.list(kinds=kind, statuses=status or [Status.ACTIVE], limit=limit, offset=offset, **filters)
    _count(request, "list", len(found))
    return [s.MemoryPublic.of(m) for m in found]


@router.post("/users/{user_id}/search", response_model=list[s.HitPublic], summary="Scored search, best first")
def search(body: s.SearchIn, request: Request, mem: ScopedMemory = Depends(user_scope)) -> list[s.HitPublic]:
    filters = body.filters.as_facade_filters() if body.filters else {}
    hits = mem.search(body.query, k=body.k, session_id=body.session_id, min_relevance=body.min_relevance, **filters)
    _count(request, "search", len(hits))
    return [s.HitPublic.of(h) for h in hits]


@router.get("/users/{user_id}/memories/{memory_id}", response_model=s.MemoryPublic, summary="One memory (any status)")
def get_memory(memory_id: str, mem: ScopedMemory = Depends(user_scope)) -> s.MemoryPublic:
    return s.MemoryPublic.of(mem.get(memory_id))


@router.patch("/users/{user_id}/memories/{memory_id}", response_model=s.MemoryPublic, summary="Write a new version that supersedes this one")
def update_memory(memory_id: str, body: s.MemoryPatch, request: Request, mem: ScopedMemory = Depends(user_scope)) -> s.MemoryPublic:
    new = mem.update(
        memory_id, text=body.text, kind=body.kind, importance=body.importance, confidence=body.confidence,
        expires_at=body.expires_at, sensitivity=body.sensitivity,
    )
    _count(request, "update")
    return s.MemoryPublic.of(new)


@router.delete("/users/{user_id}/memories/{memory_id}", response_model=s.DeletionPublic, summary="Delete a memory and what derives from it")
def delete_memory(memory_id: str, request: Request, mem: ScopedMemory = Depends(user_scope)) -> s.DeletionPublic:
    report = mem.delete(memory_id)
    _count(request, "delete", len(report.deleted))
    return s.DeletionPublic(deleted=list(report.deleted), retired=list(report.retired), regenerated=list(report.regenerated))


@router.get("/users/{user_id}/memories/{memory_id}/history", response_model=s.HistoryPublic, summary="Versions and audit entries")
def history(memory_id: str, mem: ScopedMemory = Depends(user_scope)) -> s.HistoryPublic:
    h = mem.history(memory_id)
    return s.HistoryPublic(
        memory=s.MemoryPublic.of(h.memory),
        versions=[s.MemoryPublic.of(v) for v in h.versions],
        audit=[s.AuditPublic.of(a) for a in h.audit],
    )


@router.get("/users/{user_id}/export", summary="Everything held for this user (records with embeddings, audit log)")
def export(mem: ScopedMemory = Depends(user_scope)) -> JSONResponse:
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", mem.scope.user_id)[:80]  # headers are latin-1; user ids are not
    name = f"kenning-export-{safe}.json"
    return JSONResponse(mem.export(), headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.post("/users/{user_id}/forget", response_model=s.DeletionPublic, summary="Delete every memory whose text contains a phrase")
def forget(body: s.ForgetIn, request: Request, mem: ScopedMemory = Depends(user_scope)) -> s.DeletionPublic:
    report = mem.forget(body.text)
    _count(request, "delete", len(report.deleted))
    return s.DeletionPublic(deleted=list(report.deleted), retired=list(report.retired), regenerated=list(report.regenerated))


@router.delete("/users/{user_id}", response_model=s.CountOut, summary="Forget a user: delete everything held for them")
def forget_user(request: Request, mem: ScopedMemory = Depends(user_scope)) -> s.CountOut:
    n = mem.delete_all()
    _count(request, "delete_all", n)
    return s.CountOut(deleted=n)


@router.post("/users/{user_id}/maintain", response_model=s.MaintenanceOut, summary="Run this user's background work now")
def maintain(request: Request, mem: ScopedMemory = Depends(app_scope)) -> Any:
    try:
        result = mem.maintain()
    except Exception:
        request.app.state.metrics.jobs.labels("error").inc()
        raise
    request.app.state.metrics.jobs.labels("ok").inc()
    return jsonable(result)


@router.post("/users/{user_id}/page-token", response_model=s.PageTokenOut, summary="A signed, expiring link to this user's memory page")
def page_token(
    request: Request, body: s.PageTokenIn | None = None, mem: ScopedMemory = Depends(app_scope),
    who: Principal = Depends(api_key_only),
) -> s.PageTokenOut:
    """The link lasts ``ttl_s`` seconds or until the calling key is revoked, whichever comes first; it
    can read, correct and delete this user's memories and nothing else."""
    ttl = (body or s.PageTokenIn()).ttl_s
    expires = page_expiry(datetime.now(timezone.utc), ttl)
    token = sign_page_token(request.app.state.page_secret, mem.scope, expires, who.key_id)
    return s.PageTokenOut(url=str(request.url_for("memory_page")) + f"?token={token}", token=token, expires_at=expires)


ops = APIRouter(tags=["operations"])


READY_TIMEOUT_S = 2.0


@ops.get("/healthz", summary="Liveness: the process answers")
async def healthz() -> dict[str, str]:
    """Answered on the event loop: no thread, no store, no embedder, never queued behind work."""
    return {"status": "ok"}


@ops.get("/readyz", summary="Readiness: the store answers", responses={503: {"model": s.ErrorBody}})
async def readyz(request: Request) -> dict[str, str]:
    """One indexed read of the store, on a thread of its own (not the busy pool), within ``READY_TIMEOUT_S``."""
    state = request.app.state
    if getattr(state, "ready_limiter", None) is None:
        state.ready_limiter = anyio.CapacityLimiter(1)  # a stuck probe makes the next ones time out, not pile up
    system = state.system
    with anyio.move_on_after(READY_TIMEOUT_S) as waited:
        await anyio.to_thread.run_sync(
            system.authenticate, "kn_readiness-probe", limiter=state.ready_limiter, abandon_on_cancel=True
        )  # StoreError -> 503 by the error table
    if waited.cancelled_caught:
        return error_response(503, "store_unavailable", f"the store did not answer within {READY_TIMEOUT_S:g} s", "StoreError")
    return {"status": "ready"}


@ops.get("/metrics", summary="Prometheus metrics", response_class=Response)
async def metrics(request: Request) -> Response:
    from kenning.server.metrics import CONTENT_TYPE_LATEST

    return Response(request.app.state.metrics.render(), media_type=CONTENT_TYPE_LATEST)


__all__ = ["router", "ops", "api_key_only"]
